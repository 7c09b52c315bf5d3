"""Member-written text pings nobody: a display name and tournament names that read
"@everyone @here <@&role> <@user> cup" go through every kind of message the bot has (the
lobby, the table, its notices and reminders, refusals, the game's end and its rematch, a
season's end, tournament posts, threads, waits and a cancel), and no body the loopback
Discord received can ping everyone, @here or a role: users only where the bot means them
(its turn reminder, a rematch's seated players, a tournament table's players). The fake
resolves each body's mentions as Discord does (loopback/pings.py)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from hosting import FakeClock
from tests.e2e.games import everyone_quits, ts
from tests.e2e.tournaments import round_games, signup_message
from tests.support.e2e import find_seed, on_turn, settle, table, use_seed, wait_until

HOSTILE = "@everyone @here <@&{role}> <@{user}> cup"
HOSTILE_CUP = "@here @everyone<@&{role}><@{user}>"  # a tournament's name: 60 characters
MARCH_END = ts(2026, 3, 31, 20, 0)  # hours before April: a turn times out meanwhile


@dataclass(frozen=True)
class Cast:
    """Mallory's display name is the hostile text; the role and the bystander it names are
    real (a mention of nothing resolves to nothing on Discord)."""

    text: str
    cup: str
    mallory: object
    bystander: object


@pytest.fixture
def cast(fake_discord) -> Cast:
    fake = fake_discord
    role = fake.add_role("Moderators", mentionable=True)
    bystander = fake.add_user("bystander")
    text = HOSTILE.format(role=role.id, user=bystander.id)
    cup = HOSTILE_CUP.format(role=role.id, user=bystander.id)
    return Cast(text, cup, fake.add_user("mallory", display_name=text), bystander)


def assert_pings_only(fake, meant: set[int]) -> None:
    """No body pinged everyone, @here or a role, nor any user but those `meant`; and the
    hostile text did reach the bodies (else this proves nothing). No body with text left
    the choice to Discord's default either."""
    assert any("@everyone" in p.text for p in fake.pings)
    assert all(p.explicit for p in fake.pings if p.text), [
        (p.route, p.text[:70]) for p in fake.pings if p.text and not p.explicit]
    pinging = [p for p in fake.pings if p.mass or not p.users <= meant]
    assert not pinging, "\n".join(
        f"{p.route} (allowed_mentions {'given' if p.explicit else 'absent'}): everyone "
        f"{p.everyone}, here {p.here}, roles {set(p.roles)}, users {set(p.users)}: "
        f"{p.text[:70]!r}" for p in pinging)




async def half_a_turn_then_the_rest(fake, bot, clock, game_id: int) -> None:
    """The player on turn is reminded (in the channel: no turn DMs), then times out."""
    timeout = bot.service.view(game_id).options.turn_timeout
    for share in (0.6, 0.5):
        clock.advance(timeout * share)
        await bot.service.fire_due_timers()
        await settle(bot, game_id)


async def open_mallorys_game(fake, bot, cast: Cast, channel) -> int:
    """Mallory hosts Bob and Carol and is on turn first; her hostile name is in the lobby."""
    bob, carol = fake.user("bob"), fake.user("carol")
    use_seed(bot, find_seed("classic", 3, lambda game: game.current_seat == 0, target=10))
    lobby = await fake.slash(cast.mallory, channel, "lama new", variant="classic", target=10)
    assert "@everyone" in lobby.text
    for user in (bob, carol):
        assert (await fake.slash(user, channel, "lama join")).ephemeral
    not_host = await fake.click(carol, lobby.message, "Start")
    assert not_host.ephemeral and f"<@{cast.mallory.id}>" in not_host.text
    assert (await fake.slash(cast.mallory, channel, "lama start")).ephemeral
    game_id = bot.service.game_in_channel(channel.id).game_id
    await settle(bot, game_id)
    return game_id


@pytest.mark.parametrize("bot_clock", [FakeClock(MARCH_END)])
async def test_a_hostile_display_name_pings_nobody_from_lobby_to_season_end(
    fake_discord, cast, lamabot, bot_clock
):
    fake, bot, clock = fake_discord, lamabot, bot_clock
    channel, bob, carol = fake.channel("lama"), fake.user("bob"), fake.user("carol")
    await fake.grant(cast.mallory, manage_guild=True)
    await fake.slash(cast.mallory, channel, "lama settings", seasons="monthly", channel=channel)
    await fake.slash(cast.mallory, channel, "lama notify", turn_dms=False)
    game_id = await open_mallorys_game(fake, bot, cast, channel)
    assert on_turn(fake, bot, game_id)[0] is cast.mallory
    not_yours = await fake.slash(bob, channel, "draw")  # "It's not your turn: <name> is…"
    assert not_yours.ephemeral and "@everyone" in not_yours.text
    assert (await fake.slash(bob, channel, "lama table")).ephemeral  # a repost: moved
    await half_a_turn_then_the_rest(fake, bot, clock, game_id)  # reminder, time-out
    assert any(f"<@{cast.mallory.id}>" in m.content for m in fake.public_messages(channel))
    assert (await fake.slash(cast.mallory, channel, "lama kick", user=carol)).ephemeral
    await everyone_quits(bot, game_id)
    await bot.renderer.flush_all()
    assert "@everyone" in table(fake, channel).display_text
    assert "@everyone" in (await fake.slash(bob, channel, "lama stats", user=cast.mallory)).text
    game_over = next(m for m in fake.public_messages(channel) if "Rematch" in
                     [b.label for b in m.buttons])
    rematch = await fake.click(bob, game_over, "Rematch")
    assert rematch.refused is None
    await bot.renderer.flush_all()
    assert (await fake.slash(bob, channel, "lama cancel")).ephemeral
    await bot.renderer.flush_all()
    clock.set(ts(2026, 4, 1, 0, 0, 5))
    assert await bot.season_keeper.tick() == 1

    assert_pings_only(fake, meant={cast.mallory.id})
    pinged = [p.text for p in fake.pings if p.users == {cast.mallory.id}]
    assert any("still your turn" in text for text in pinged), pinged  # her reminder
    assert any("seated for the rematch" in text for text in pinged), pinged


async def hostile_tournament(fake, cast: Cast, channel, *, players) -> None:
    opened = await fake.slash(cast.mallory, channel, "lama tournament new", name=cast.cup,
                              rounds=1, table_size=3)
    assert "@everyone" in opened.text
    for user in players:
        joined = await fake.click(user, signup_message(channel), "Join")
        assert not joined.ephemeral, joined.text  # the sign-up message, edited


async def test_a_hostile_tournament_name_pings_nobody_in_any_tournament_post(
    fake_discord, cast, lamabot
):
    """Played in threads (welcomes that mention the table's players), cancelled at sign-up,
    and waiting for a casual game in a channel where no thread can be made."""
    fake, bot = fake_discord, lamabot
    lama, other = fake.channel("lama"), fake.channel("lama-2")
    players = [cast.mallory, fake.user("bob"), fake.user("carol")]
    await hostile_tournament(fake, cast, lama, players=players)
    assert (await fake.click(cast.mallory, signup_message(lama), "Start")).refused is None
    tournament = await bot.tournaments.in_channel(lama.id)
    assert tournament is not None
    for game_id in await round_games(bot, tournament.id, 1):
        assert bot.service.view(game_id).channel_id != lama.id  # in a thread: a welcome
        await everyone_quits(bot, game_id)
    await wait_until(lambda: any(
        "final standings" in m.text for m in fake.public_messages(lama)), timeout=10)

    await hostile_tournament(fake, cast, other, players=players)
    assert (await fake.click(cast.mallory, signup_message(other), "Cancel")).refused is None
    await fake.deny_bot(other, "create_public_threads")
    await hostile_tournament(fake, cast, other, players=players)
    await fake.slash(fake.user("dave"), other, "lama new")  # the channel's casual game
    assert (await fake.click(cast.mallory, signup_message(other), "Start")).refused is None
    await wait_until(lambda: any("as soon as the game now in this channel is over" in m.text
                                 for m in fake.public_messages(other)), timeout=10)
    assert any("was cancelled" in m.text for m in fake.public_messages(other))

    assert_pings_only(fake, meant={u.id for u in players})
    welcomes = [p for p in fake.pings if p.users == {u.id for u in players}]
    assert len(welcomes) == 1 and "Good luck" in welcomes[0].text  # its thread's welcome
