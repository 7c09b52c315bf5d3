"""Every slash command and autocomplete reads its caller's language first (cogs/tree.py). When
the store fails that read (busy, down, a disk error), the caller is told at once, privately,
like any refusal, and nothing else runs; before, the error escaped discord.py's command tree
(it hands only AppCommandErrors to on_error) and the caller was left with the answer clock's
"LamaBot is thinking…" for good."""

from __future__ import annotations

from store.errors import StoreBusy
from tests.support.e2e import two_humans_on_turn


def language_unreadable(bot, monkeypatch, user) -> None:
    """From now on the store fails every read of a user's own language choice, and `user`'s
    is not known yet (the next interaction reads it)."""
    async def busy(user_id: int) -> str | None:
        raise StoreBusy("the store is busy")

    monkeypatch.setattr(bot.store.settings, "get_user_locale", busy)
    bot.preferences._chosen_loaded.discard(user.id)


async def test_a_slash_move_whose_callers_language_cannot_be_read_is_refused_privately(
        fake_discord, lamabot, monkeypatch):
    fake, bot = fake_discord, lamabot
    game = await two_humans_on_turn(fake, bot)
    moves = bot.service.view(game.game_id).move_count
    language_unreadable(bot, monkeypatch, game.mover)
    result = await fake.slash(game.mover, game.channel, "draw")
    assert result.ephemeral and "busy" in result.text.lower(), repr(result)
    assert bot.service.view(game.game_id).move_count == moves


async def test_an_autocomplete_whose_callers_language_cannot_be_read_offers_nothing_at_once(
        fake_discord, lamabot, monkeypatch):
    fake, bot = fake_discord, lamabot
    game = await two_humans_on_turn(fake, bot)
    language_unreadable(bot, monkeypatch, game.mover)
    assert await fake.autocomplete(game.mover, game.channel, "play", focused="card") == []
