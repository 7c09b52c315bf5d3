"""TournamentStore under writers side by side (PostgreSQL runs transactions at once)."""

from __future__ import annotations

import asyncio

from store import TournamentStore
from store.tournaments import TableKey
from tests.store.support import CHANNEL, GUILD

ORGANISER = 1

T0 = 1_800_000_000


async def open_tournament(tournaments: TournamentStore):
    return await tournaments.create(
        guild_id=GUILD, channel_id=CHANNEL, organiser_id=ORGANISER, name="Cup", rounds=2,
        table_size=4, variant="classic", now=T0)


async def test_a_sign_up_while_another_is_written_waits_and_takes_the_next_number(db):
    tournaments = TournamentStore(db)
    cup = await open_tournament(tournaments)
    async with db.transaction() as other:  # another process signing someone up, not committed
        await other.fetchone(f"SELECT id FROM tournaments WHERE id = ?{other.for_update}",
                             (cup.id,))
        await other.execute(
            "INSERT INTO tournament_entries (tournament_id, entry, user_id, display_name) "
            "VALUES (?, 1, 2, 'Two')", (cup.id,))
        ours = asyncio.create_task(tournaments.add_entry(
            cup.id, user_id=3, ai_level=None, name="Three", limit=16, now=T0))
        await asyncio.sleep(0.2)
        assert not ours.done()
    entered = await ours
    assert [(e.entry, e.user_id) for e in entered.entries] == [(1, 2), (2, 3)]


async def test_a_tables_wait_notice_is_claimed_once_of_two_claims_at_once(db):
    tournaments = TournamentStore(db)
    cup = await open_tournament(tournaments)
    await tournaments.start_round(cup.id, 1, [((1, 2, 3), 1), ((4, 5, 6), 1)], now=T0)
    first, second = TableKey(cup.id, 1, 1), TableKey(cup.id, 1, 2)
    claims = await asyncio.gather(*(tournaments.claim_wait_notice(first, now=T0)
                                    for _ in range(2)))
    assert sorted(claims) == [False, True]
    assert not await tournaments.claim_wait_notice(first, now=T0 + 60)  # later: still told
    assert await tournaments.claim_wait_notice(second, now=T0)  # each table once
