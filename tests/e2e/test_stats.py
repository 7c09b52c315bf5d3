"""Leaderboards, statistics, history, replays, settings and forget-me, end to end: real
discord.py against the loopback Discord, every game played with slash commands.

What the games produced is computed here from the engine's own announcements (a listener on
the game service), never from the statistics tables, and compared with what users see.
"""

from __future__ import annotations

import random
import re
from collections import defaultdict

import pytest

import i18n
from hosting import FakeClock
from lama import events as ev
from tests.e2e.games import field, lines_by_user, play, ts
from tests.support.e2e import isolated, refused, untagged, wait_until


class Record:
    """Every finished game's result per human, from the events the service published."""

    def __init__(self, bot) -> None:
        self.events: dict[int, list] = defaultdict(list)
        self.views: dict[int, object] = {}
        bot.service.add_listener(self._collect)

    async def _collect(self, update) -> None:
        self.events[update.view.game_id].extend(update.events)
        self.views[update.view.game_id] = update.view

    def heard_the_end_of(self, game_ids) -> bool:
        """Whether the listener has been told each of these games ended.

        The service tells its listeners one after another once the game's lock is free, and
        this one is registered last: when an AI's move ends a game, the test may see the game
        finished while a listener before this one (the tournaments', which asks the store)
        still holds the last update."""
        return all(
            any(isinstance(e, ev.GameEnded) for e in self.events.get(game_id, ()))
            for game_id in game_ids
        )

    def per_user(self) -> dict[int, dict[str, int]]:
        totals: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        for game_id, events in self.events.items():
            view = self.views[game_id]
            end = next((e for e in events if isinstance(e, ev.GameEnded)), None)
            if end is None:
                continue
            for seat in view.seats:
                if seat.user_id is None:
                    continue
                row = totals[seat.user_id]
                row["games"] += 1
                row["wins"] += seat.index in end.winners and not seat.left
                row["score"] += end.scores[seat.index]
                for ended in (e for e in events if isinstance(e, ev.RoundEnded)):
                    result = ended.results[seat.index]
                    row["tokens"] += result.penalty
                    row["clean"] += result.emptied_hand
                row["vs_ai"] += any(s.user_id is None for s in view.seats)
        return totals






def games_line(row, locale="en") -> str:
    games = i18n.t("stats.games.count", locale, count=row["games"])
    return f"**{games}** · {i18n.t('stats.wins.count', locale, count=row['wins'])}"




async def test_leaderboard_pages_and_stats_show_exactly_what_the_games_produced(
    fake_discord, lamabot
):
    fake, bot = fake_discord, lamabot
    record = Record(bot)
    channel = fake.channel("lama")
    players = [fake.user(n) for n in ("alice", "bob", "carol", "dave")] + fake.add_users(8)
    rng = random.Random(5)
    tables = [players[0:2], players[2:4], players[4:7], players[7:9], players[9:12],
              [players[0], players[2]], [players[0], players[5]], [players[1], players[0]]]
    played = [
        await play(fake, bot, channel, humans, rng=rng, ai_seats=i % 2,
                   variant=("classic", "party", "komarami")[i % 3])
        for i, humans in enumerate(tables)
    ]
    await wait_until(lambda: record.heard_the_end_of(played))
    want = record.per_user()
    assert len(want) == 12

    alice = players[0]
    first = await fake.slash(alice, channel, "leaderboard", sort="games")
    assert not first.ephemeral
    page_one = lines_by_user(first.message.embeds[0]["description"])
    assert len(page_one) == 10
    # Sorted by games, each line shows games then wins, exactly as played.
    for user_id, text in page_one.items():
        assert text == games_line(want[user_id]), (user_id, text)
    # Someone ranked below the first page sees their own rank under it.
    eleventh = next(p for p in players if p.id not in page_one)
    board = await fake.slash(eleventh, channel, "leaderboard", sort="games")
    assert lines_by_user(board.message.embeds[0]["description"]) == page_one
    assert games_line(want[eleventh.id]) in field(board, "Your rank")

    nxt = next(c for c in board.message.custom_ids if untagged(c).startswith("lama:lb:n:"))
    turned = await fake.click(eleventh, board.message, nxt)
    assert turned.response_type == 7  # the owner's board turns its page in place
    page_two = lines_by_user(board.message.embeds[0]["description"])
    assert set(page_two) == set(want) - set(page_one)
    for user_id, text in page_two.items():
        assert text == games_line(want[user_id])
    assert "Page 2 of 2" in board.message.embed_text

    other = await fake.click(alice, board.message, board.message.custom_ids[0])  # ◀
    assert other.ephemeral  # someone else's press: a private copy with their own rank
    assert alice.id in lines_by_user(other.message.embeds[0]["description"])
    assert "Page 2 of 2" in board.message.embed_text  # the owner's board did not move

    wins = await fake.slash(alice, channel, "leaderboard", sort="wins", period="all")
    shown = {**lines_by_user(wins.message.embeds[0]["description"])}
    for user_id, text in shown.items():
        assert text.startswith(f"**{i18n.t('stats.wins.count', 'en', count=want[user_id]['wins'])}")

    mine = want[alice.id]
    stats = await fake.slash(players[1], channel, "lama stats", user=alice)
    assert field(stats, "Games played") == str(mine["games"])
    assert field(stats, "Wins") == str(mine["wins"])
    assert field(stats, "Tokens taken") == str(mine["tokens"])
    assert field(stats, "Clean rounds (hand emptied)") == str(mine["clean"])
    assert field(stats, "Games against AI") == str(mine["vs_ai"])
    average = mine["score"] / mine["games"]
    assert field(stats, "Average score") == f"{round(average, 1):.1f}"
    assert field(stats, "Win rate") == f"{round(100 * mine['wins'] / mine['games'], 1):g}%"
    assert len(field(stats, "Last games").splitlines()) == min(5, mine["games"])
    assert "<t:" in field(stats, "Last games")
    bob = players[1]
    together = [v for v in record.views.values()
                if {bob.id, alice.id} <= {s.user_id for s in v.seats}]
    bob_wins = sum(v.seat_of(bob.id).index in v.winners for v in together)
    alice_wins = sum(v.seat_of(alice.id).index in v.winners for v in together)
    h2h = field(stats, "Head to head with you")
    assert h2h.startswith(f"Games together: {len(together)}\n"
                          f"Wins: you {bob_wins} · {isolated('Alice')} {alice_wins}")

    history = await fake.slash(alice, channel, "lama history")
    ids = [int(i) for i in re.findall(r"\*\*#(\d+)\*\*", history.message.embed_text)]
    assert ids == sorted(record.events, reverse=True)[:10]

    replay = await fake.slash(alice, channel, "lama replay", game_id=ids[0])
    assert replay.ephemeral
    assert "Round 1" in replay.message.embed_text
    assert "Game over" in replay.message.embed_text or replay.message.custom_ids
    missing = await fake.slash(alice, channel, "lama replay", game_id=99999)
    refused(missing, "There is no finished game #99999")


@pytest.mark.parametrize("bot_clock", [FakeClock(ts(2026, 3, 31, 23, 50))])
async def test_the_period_filter_across_a_month_boundary(fake_discord, lamabot, bot_clock):
    fake, bot = fake_discord, lamabot
    Record(bot)
    channel = fake.channel("lama")
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    rng = random.Random(8)
    await play(fake, bot, channel, [alice, bob], rng=rng)  # Tuesday 31 March
    bot_clock.set(ts(2026, 4, 1, 0, 1))
    await play(fake, bot, channel, [alice, carol], rng=rng)  # Wednesday 1 April

    async def shown(period):
        result = await fake.slash(alice, channel, "leaderboard", sort="games", period=period)
        return set(lines_by_user(result.message.embeds[0]["description"]))

    assert await shown("month") == {alice.id, carol.id}
    assert await shown("week") == {alice.id, bob.id, carol.id}
    assert await shown("all") == {alice.id, bob.id, carol.id}
    month = await fake.slash(alice, channel, "leaderboard", period="month")
    assert month.message.embeds[0]["title"] == i18n.t("leaderboard.title.month", "en")


async def test_settings_are_for_members_who_manage_the_server(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    carol, owner = fake.user("carol"), fake.user("dave")
    lama, other = fake.channel("lama"), fake.channel("lama-2")
    before = await bot.store.settings.get_settings(fake.guild.id)

    for command in ("lama settings", "lama stats", "lama history"):
        in_dm = await fake.slash(owner, None, command)
        refused(in_dm, "only in a server channel")
    denied = await fake.slash(carol, lama, "lama settings", target=60)
    refused(denied, "Only members who can manage this server")
    assert await bot.store.settings.get_settings(fake.guild.id) == before

    await fake.grant(owner, manage_guild=True)
    saved = await fake.slash(owner, lama, "lama settings", target=60, variant="party",
                             channel=other)
    assert saved.ephemeral and "Settings saved." in saved.text
    assert f"<#{other.id}>" in saved.text
    with pytest.raises(ValueError, match="outside"):  # Discord's client enforces the range
        await fake.slash(owner, lama, "lama settings", turn_timeout=5)

    wrong_place = await fake.slash(carol, lama, "lama new")
    assert wrong_place.ephemeral  # games live in lama-2 now
    lobby = await fake.slash(carol, other, "lama new")
    assert not lobby.ephemeral
    view = bot.service.game_in_channel(other.id)
    assert (view.options.target, view.options.variant) == (60, "party")

    shown = await fake.slash(owner, lama, "lama settings")
    assert "60" in shown.text and "Change them with the options" in shown.text
    cleared = await fake.slash(owner, lama, "lama settings", clear_channel=True)
    assert "Any channel" in cleared.text


async def test_forget_me_asks_first_then_erases_the_callers_statistics(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    channel = fake.channel("lama")
    alice, bob = fake.user("alice"), fake.user("bob")
    await play(fake, bot, channel, [alice, bob], rng=random.Random(2))

    asked = await fake.slash(bob, channel, "lama forget-me")
    assert asked.ephemeral and "cannot be undone" in asked.text
    kept = await fake.click(bob, asked.message, "Keep them")
    assert "Nothing was erased" in kept.message.content
    assert (await bot.stats_service.player(fake.guild.id, bob.id)).stats.games == 1

    asked = await fake.slash(bob, channel, "lama forget-me")
    done = await fake.click(bob, asked.message, "Erase my statistics")
    assert "your statistics are erased (1 result)" in done.message.content
    board = await fake.slash(alice, channel, "leaderboard", sort="games")
    assert set(lines_by_user(board.message.embeds[0]["description"])) == {alice.id}
    stats = await fake.slash(alice, channel, "lama stats", user=bob)
    assert "hasn't finished a game yet" in stats.text


async def test_settings_choose_the_language_of_public_messages(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    owner, alice, bob = fake.user("dave"), fake.user("alice"), fake.user("bob")
    lama = fake.channel("lama")
    await fake.grant(owner, manage_guild=True)
    saved = await fake.slash(owner, lama, "lama settings", language="cs")
    assert saved.ephemeral and "Čeština" in saved.text
    await fake.slash(alice, lama, "lama new")
    await fake.slash(bob, lama, "lama join")
    await fake.slash(alice, lama, "lama start")
    await bot.renderer.flush_all()
    table = fake.public_messages(lama)[-1]
    assert "Dobírací balíček" in table.text  # the table, in Czech
    shown = await fake.slash(owner, lama, "lama settings", language="auto")
    assert "Čeština" not in shown.text


async def test_public_statistics_speak_the_servers_language(fake_discord, lamabot):
    """/leaderboard, /lama stats and /lama history post in the channel: the server's language,
    not the language of whoever asked."""
    fake = fake_discord
    owner, alice, lama = fake.user("dave"), fake.user("alice"), fake.channel("lama")
    await fake.grant(owner, manage_guild=True)
    await fake.slash(owner, lama, "lama settings", language="cs")
    expected = {
        "leaderboard": i18n.t("leaderboard.title.all_time", "cs"),
        "lama stats": i18n.t("stats.title", "cs", name=isolated("alice")),
        "lama history": i18n.t("history.title", "cs"),
    }
    for command, title in expected.items():
        result = await fake.slash(alice, lama, command)  # alice's Discord speaks English
        assert not result.ephemeral
        assert result.embeds[0]["title"].lower() == title.lower(), command
    # As after a restart, in a server without a running game: its settings are not in memory.
    lamabot.preferences.forget_cached_settings(fake.guild.id)
    for command, title in expected.items():
        result = await fake.slash(alice, lama, command)
        assert result.embeds[0]["title"].lower() == title.lower(), f"{command} after a restart"
