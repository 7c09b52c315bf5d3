"""A player asks for their hand (`/lama hand`, the table's My hand) and the game ends while
the answer is on its way to Discord (another player's last move, a host's cancel), before
the renderer has shown that end. Their older private hand is still deleted, with the hand
the answer showed: before, the background close asked the game for the hand as it is now,
the game was over, and the close failed with an error ("closing an older hand of game N
failed", seen once in the whole suite's fuzz test)."""

from __future__ import annotations

from cogs import moves
from tests.support.e2e import on_turn, settle, two_humans, wait_until


async def test_an_older_hand_is_deleted_when_the_game_ends_as_the_newer_one_is_shown(
        fake_discord, lamabot, bot_errors, monkeypatch):
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot)
    player, _ = on_turn(fake, bot, game_id)
    older = await fake.slash(player, channel, "lama hand")
    await settle(bot, game_id)
    held, showing = [], bot.renderer.queue.add  # the end is shown once the newer hand is out
    monkeypatch.setattr(bot.renderer.queue, "add", held.append)
    real = moves.images.hand_message

    async def game_ends_meanwhile(*args, **kwargs):  # once: the answer's hand, made first
        monkeypatch.setattr(moves.images, "hand_message", real)
        content = await real(*args, **kwargs)
        await bot.service.cancel(game_id, fake.user("alice").id, is_admin=True)
        return content

    monkeypatch.setattr(moves.images, "hand_message", game_ends_meanwhile)
    newer = await fake.slash(player, channel, "lama hand")
    assert newer.message is not None and newer.ephemeral
    await wait_until(lambda: older.message.deleted)
    monkeypatch.setattr(bot.renderer.queue, "add", showing)
    for update in held:
        showing(update)
    await bot.renderer.flush_all()
    assert bot_errors == []
