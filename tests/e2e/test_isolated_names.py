"""Names written right to left, or holding a right-to-left override (U+202E), cannot turn the
bot's sentences around: every text the bot sent (messages, embeds, text displays, answers,
DMs, thread names) keeps each such name inside a first-strong isolate (U+2068 … U+2069) with
its isolates balanced; and a long name is cut with an ellipsis, in the lobby as at the table,
so every text stays within Discord's limits (the loopback Discord refuses any that is not)."""

from __future__ import annotations

from tests.e2e.games import everyone_quits
from tests.e2e.tournaments import round_games, signup_message
from tests.support.e2e import (
    assert_isolates_balanced,
    isolate_depths,
    isolated,
    settle,
    table,
)

RLO = "\u202e"  # right-to-left override: what follows shows mirrored
TURNED = f"{RLO}Lama Lukas"  # shows as "sakuL amaL" and turns what follows it around
LONG = RLO + "Lukas" * 12  # 61 characters: more than a Discord display name holds
SHOWN = 32  # characters of a name shown, its ellipsis included
THREAD_NAME_LIMIT = 100


def every_text(fake) -> list[str]:
    """What the bot said anywhere: each message as it stands (public, private, DMs, threads)
    and every thread's name."""
    texts = [m.text for c in fake.channels.values() for m in c.messages if m.author is fake.bot]
    texts += [c.name for c in fake.channels.values() if c.thread is not None]
    return texts


def assert_isolated(fake) -> None:
    texts = [text for text in every_text(fake) if RLO in text]
    assert len(texts) > 5  # the names did go out
    for text in texts:
        assert_isolates_balanced(text)
        depths = isolate_depths(text)
        assert all(depths[i] >= 1 for i, char in enumerate(text) if char == RLO), repr(text)
        assert LONG not in text  # only ever cut


async def test_turned_and_long_names_are_isolated_and_cut_everywhere(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    lukas = fake.add_user("lukas", display_name=TURNED)
    long = fake.add_user("long", display_name=LONG)
    channel, alice = fake.channel("lama"), fake.user("alice")
    lobby = await fake.slash(lukas, channel, "lama new", target=10)
    for user in (long, alice):
        assert (await fake.slash(user, channel, "lama join")).ephemeral
    await bot.renderer.flush_all()
    cut = isolated(LONG[:SHOWN - 1] + "…")
    seats = lobby.message.embeds[0]["fields"][0]["value"]
    assert f"1. {isolated(TURNED)} (host)" in seats and f"2. {cut}" in seats, seats
    assert (await fake.slash(lukas, channel, "lama start")).ephemeral
    game_id = bot.service.game_in_channel(channel.id).game_id
    await settle(bot, game_id)
    assert cut in table(fake, channel).display_text
    assert (await fake.slash(lukas, channel, "lama kick", user=long)).ephemeral
    await everyone_quits(bot, game_id)
    await fake.slash(alice, channel, "lama stats", user=lukas)
    await fake.slash(alice, channel, "lama history")
    await bot.renderer.flush_all()

    assert_isolated(fake)


async def test_a_turned_tournament_name_is_isolated_in_its_posts_and_its_threads_name(
    fake_discord, lamabot
):
    fake, bot = fake_discord, lamabot
    channel = fake.channel("lama")
    players = [fake.user(n) for n in ("alice", "bob", "carol")]
    name = RLO + "Jarní pohár" * 5  # 56 characters
    opened = await fake.slash(players[0], channel, "lama tournament new", name=name,
                              rounds=1, table_size=3)
    assert isolated(name) in opened.text
    for user in players:
        assert not (await fake.click(user, signup_message(channel), "Join")).ephemeral
    assert (await fake.click(players[0], signup_message(channel), "Start")).refused is None
    tournament = await bot.tournaments.in_channel(channel.id)
    assert tournament is not None
    for game_id in await round_games(bot, tournament.id, 1):
        await everyone_quits(bot, game_id)
    await bot.renderer.flush_all()
    (thread,) = [c for c in fake.channels.values() if c.thread is not None]
    assert thread.name.startswith(isolated(name)) and len(thread.name) <= THREAD_NAME_LIMIT

    assert_isolated(fake)
