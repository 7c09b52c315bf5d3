"""The hosting layer against a real SQLite store and a fake clock: no Discord involved."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from hosting import (
    LOBBY,
    TABLE,
    GameOptions,
    GameService,
    HostingError,
    MessageKey,
    NoticeKind,
    Problem,
    Status,
)
from hosting.options import TIMEOUTS_BEFORE_AI
from hosting.stats import StatsService
from hosting.views import MessageKind, ai_called
from lama import DRAW, QUIT, Card, Game, IllegalAction, Play, Reason, action_to_dict
from store import LeaderboardSort, NewSeat
from tests.hosting.support import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    OTHER_CHANNEL,
    OTHER_GUILD,
    current_user,
    lobby,
    play_any,
    started,
)
from tests.support.e2e import wait_until

# ------------------------------------------------------------------ lobby


async def test_opening_a_lobby_seats_the_host_and_requested_ais(service):
    game_id = await lobby(service, ai_seats=2)
    view = service.view(game_id)
    assert view.status is Status.LOBBY
    assert [s.user_id for s in view.seats] == [ALICE, None, None]
    assert all(s.is_ai for s in view.seats[1:])


async def test_a_channel_holds_one_game_at_a_time(service):
    await lobby(service)
    with pytest.raises(HostingError) as error:
        await service.open_lobby(GUILD, CHANNEL, BOB, "Bob", GameOptions())
    assert error.value.problem is Problem.GAME_EXISTS


async def test_joining_twice_is_refused(service):
    game_id = await lobby(service)
    await service.join(game_id, BOB, "Bob")
    with pytest.raises(HostingError) as error:
        await service.join(game_id, BOB, "Bob")
    assert error.value.problem is Problem.ALREADY_JOINED


async def test_a_lobby_holds_six_seats(service):
    game_id = await lobby(service, ai_seats=5)
    with pytest.raises(HostingError) as error:
        await service.join(game_id, BOB, "Bob")
    assert error.value.problem is Problem.LOBBY_FULL


async def test_a_player_sits_in_one_game_per_server(service):
    await lobby(service)
    with pytest.raises(HostingError) as error:
        await service.open_lobby(GUILD, OTHER_CHANNEL, ALICE, "Alice", GameOptions())
    assert error.value.problem is Problem.SEATED_ELSEWHERE


async def test_a_player_may_play_in_another_server_at_the_same_time(service):
    await lobby(service)
    update = await service.open_lobby(OTHER_GUILD, OTHER_CHANNEL, ALICE, "Alice", GameOptions())
    assert update.view.status is Status.LOBBY


async def test_only_the_host_starts_the_game(service):
    game_id = await lobby(service)
    await service.join(game_id, BOB, "Bob")
    with pytest.raises(HostingError) as error:
        await service.start(game_id, BOB)
    assert error.value.problem is Problem.NOT_HOST


async def test_a_game_needs_two_seats(service):
    game_id = await lobby(service)
    with pytest.raises(HostingError) as error:
        await service.start(game_id, ALICE)
    assert error.value.problem is Problem.NOT_ENOUGH_PLAYERS


async def test_a_member_who_manages_the_server_may_cancel(service):
    game_id = await lobby(service)
    update = await service.cancel(game_id, CAROL, is_admin=True)
    assert update.view.status is Status.CANCELLED
    assert service.game_in_channel(CHANNEL) is None


async def test_anyone_else_may_not_cancel(service):
    game_id = await lobby(service)
    with pytest.raises(HostingError) as error:
        await service.cancel(game_id, CAROL, is_admin=False)
    assert error.value.problem is Problem.NOT_HOST


async def test_when_the_host_leaves_the_lobby_the_next_human_hosts(service):
    game_id = await lobby(service)
    await service.join(game_id, BOB, "Bob")
    update = await service.leave(game_id, ALICE)
    assert update.view.host_id == BOB
    assert [s.user_id for s in update.view.seats] == [BOB]


async def test_an_ai_of_a_lobby_stored_without_ai_numbers_keeps_its_name_when_seats_move_up(
        service, store, clock):
    """A lobby stored before AIs kept a number (each called by its place) and restored."""
    seats = [NewSeat.human(ALICE, "Alice"), NewSeat.human(BOB, "Bob"),
             NewSeat.ai("Llama-bot 3", "easy")]
    record = await store.games.create_lobby(
        guild_id=GUILD, channel_id=CHANNEL, host_user_id=ALICE, variant="classic", target=40,
        turn_timeout_s=60, ai_delay_s=1, now=int(clock.now()), seats=seats)
    await service.restore()
    update = await service.leave(record.id, BOB)
    (ai,) = [s for s in update.view.seats if s.is_ai]
    assert (ai.index, ai_called(ai.index, ai.ai_number)) == (1, 3)


async def test_when_the_last_human_leaves_the_lobby_it_is_cancelled(service):
    game_id = await lobby(service, ai_seats=1)
    update = await service.leave(game_id, ALICE)
    assert update.view.status is Status.CANCELLED


async def test_bad_options_are_refused(service):
    with pytest.raises(HostingError) as error:
        await service.open_lobby(GUILD, CHANNEL, ALICE, "A", GameOptions(variant="poker"))
    assert error.value.problem is Problem.BAD_OPTION


# ------------------------------------------------------------------ moves


async def test_starting_deals_and_shows_each_human_their_hand(service, updates):
    game_id = await started(service)
    update = updates[-1]
    assert update.view.status is Status.RUNNING
    assert set(update.hands) == {0, 1}
    assert len(update.hands[0].hand) == 6
    assert service.view(game_id).round_number == 1


async def test_an_updates_hands_are_made_when_looked_at_and_once(service, monkeypatch):
    """A move's update carries every human's hand; a hand nobody shows is never made (the
    mover's answer shows theirs, the next player is pinged; ~5 µs each, every move)."""
    game_id = await started(service)
    made: list[int] = []
    real = Game.observation

    def observing(game, seat):
        made.append(seat)
        return real(game, seat)

    monkeypatch.setattr(Game, "observation", observing)
    mover = current_user(service, game_id)
    seat = service.view(game_id).seat_of(mover).index
    update = await service.human_move(game_id, mover, DRAW)
    assert made == [] and set(update.hands) == {0, 1}
    assert update.hands[seat] == update.hands[seat] and made == [seat]
    assert update.hands[seat].seat == seat and len(update.hands[seat].hand) == 7


async def test_a_move_out_of_turn_is_refused_and_changes_nothing(service, store):
    game_id = await started(service)
    on_turn = current_user(service, game_id)
    waiting = next(s.user_id for s in service.view(game_id).seats if s.user_id != on_turn)
    with pytest.raises(IllegalAction) as error:
        await service.draw(game_id, waiting)
    assert error.value.reason is Reason.NOT_YOUR_TURN
    assert await store.games.list_moves(game_id) == []


async def test_a_stranger_may_not_move(service):
    game_id = await started(service)
    with pytest.raises(HostingError) as error:
        await service.draw(game_id, CAROL)
    assert error.value.problem is Problem.NOT_IN_GAME


async def test_every_accepted_move_is_in_the_store_before_it_is_announced(service, store, updates):
    game_id = await started(service)
    seen = []

    async def check(update):
        seen.append(len(await store.games.list_moves(game_id)))

    service.add_listener(check)
    await service.draw(game_id, current_user(service, game_id))
    assert seen == [1]


async def test_a_button_from_an_earlier_round_is_stale(service):
    game_id = await started(service)
    with pytest.raises(HostingError) as error:
        await service.draw(game_id, current_user(service, game_id), round_number=99)
    assert error.value.problem is Problem.STALE_BUTTON


async def test_two_simultaneous_presses_make_exactly_one_move(service, store):
    game_id = await started(service)
    user = current_user(service, game_id)
    results = await asyncio.gather(
        service.draw(game_id, user), service.draw(game_id, user), return_exceptions=True
    )
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert len(await store.games.list_moves(game_id)) == 1


async def test_a_restarted_service_continues_from_the_last_move(service, store, clock):
    game_id = await started(service)
    for _ in range(5):
        await play_any(service, game_id)
    before = service.view(game_id)
    fresh = GameService(store, clock)
    await fresh.restore()
    after = fresh.view(game_id)
    assert after.current_seat == before.current_seat
    assert after.seats == before.seats
    assert fresh.observation(game_id, ALICE) == service.observation(game_id, ALICE)


async def test_a_kick_is_told_from_a_leave_also_after_a_restart(service, store, clock):
    game_id = await started(service, humans=(ALICE, BOB, CAROL))
    await service.kick(game_id, ALICE, BOB, is_admin=False)
    await service.leave(game_id, CAROL)
    fresh = GameService(store, clock)
    await fresh.restore()
    for hosting in (service, fresh):
        seats = hosting.view(game_id).seats
        assert [(s.left, s.kicked) for s in seats] == [(False, False), (True, True), (True, False)]


async def test_a_whole_game_ends_with_results_for_the_leaderboard(service, store):
    game_id = await started(service)
    for _ in range(2000):
        if service.view(game_id).status is Status.FINISHED:
            break
        await play_any(service, game_id)
    view = service.view(game_id)
    assert view.status is Status.FINISHED
    assert view.winners
    board = (await store.stats.leaderboard_slice(GUILD, LeaderboardSort.GAMES)).rows
    assert {row.user_id for row in board} == {ALICE, BOB}
    assert sum(row.wins for row in board) == len(view.winners)


# ------------------------------------------------------------ AI and timers


async def test_an_ai_seat_moves_when_its_delay_is_over(service, clock, store):
    game_id = await started(service, humans=(ALICE,), ai_seats=3)
    for _ in range(50):  # until the AIs have moved and a human is on turn
        if service.view(game_id).seats[service.view(game_id).current_seat].user_id:
            break
        clock.advance(1)
        await service.fire_due_timers()
    moves = await store.games.list_moves(game_id)
    assert all(m.actor == "ai" for m in moves)
    assert current_user(service, game_id) == ALICE


async def test_an_ai_does_not_move_before_its_delay(service, store):
    game_id = await started(service, humans=(ALICE,), ai_seats=1)
    if current_user(service, game_id) == ALICE:
        await service.quit_round(game_id, ALICE)
    count = len(await store.games.list_moves(game_id))
    await service.fire_due_timers()
    assert len(await store.games.list_moves(game_id)) == count


async def test_half_the_turn_time_brings_a_reminder(service, clock, updates):
    game_id = await started(service)
    clock.advance(30)
    await service.fire_due_timers()
    notice = updates[-1].notices[0]
    assert notice.kind is NoticeKind.REMINDER
    assert notice.user_id == current_user(service, game_id)


async def test_a_reminder_names_its_turn_which_passes_with_the_players_move(
    service, clock, updates
):
    game_id = await started(service)
    clock.advance(30)
    await service.fire_due_timers()
    reminder = updates[-1].notices[0]
    assert service.still_at(game_id, reminder.seq)
    await service.draw(game_id, current_user(service, game_id))
    assert not service.still_at(game_id, reminder.seq)


async def test_an_expired_turn_quits_the_round_for_the_player(service, clock, updates, store):
    game_id = await started(service)
    seat = service.view(game_id).current_seat
    clock.advance(60)
    await service.fire_due_timers()
    assert NoticeKind.TIMED_OUT in [n.kind for n in updates[-1].notices]
    moves = await store.games.list_moves(game_id)
    assert [(m.actor, m.seat, m.action) for m in moves] == [("timer", seat, action_to_dict(QUIT))]
    assert service.view(game_id).seats[seat].has_quit


async def test_the_view_says_a_seat_is_out_because_its_time_ran_out(service, clock, updates):
    game_id = await started(service)
    seat = service.view(game_id).current_seat
    clock.advance(60)
    await service.fire_due_timers()
    timed_out = next(u for u in updates if NoticeKind.TIMED_OUT in [n.kind for n in u.notices])
    assert timed_out.view.seats[seat].timed_out  # the update that announces it says so
    assert service.view(game_id).seats[seat].timed_out


async def test_a_seat_out_by_time_out_still_says_so_after_a_restart(service, clock, store):
    game_id = await started(service, humans=(ALICE, BOB, CAROL))  # the round goes on
    seat = service.view(game_id).current_seat
    clock.advance(60)
    await service.fire_due_timers()
    await service.quit_round(game_id, current_user(service, game_id))  # another quits itself
    quitter = next(s.index for s in service.view(game_id).seats
                   if s.has_quit and s.index != seat)
    fresh = GameService(store, clock)
    await fresh.restore()
    seats = fresh.view(game_id).seats
    assert seats[seat].timed_out and not seats[quitter].timed_out


async def test_a_seat_that_quits_by_itself_did_not_time_out(service):
    game_id = await started(service)
    view = service.view(game_id)
    user = current_user(service, game_id)
    await service.quit_round(game_id, user)
    seat = view.current_seat
    after = service.view(game_id).seats[seat]
    assert after.has_quit and not after.timed_out


async def test_three_expired_turns_in_a_row_hand_the_seat_to_an_ai(service, clock, updates):
    options = GameOptions(ai_level="easy", turn_timeout=60, target=200)
    game_id = await started(service, humans=(ALICE, BOB, CAROL), options=options)
    kinds = []
    for _ in range(40):
        if service.view(game_id).status is not Status.RUNNING:
            break
        clock.advance(61)
        await service.fire_due_timers()
        kinds += [n.kind for u in updates for n in u.notices]
        if NoticeKind.AI_TOOK_OVER in kinds:
            break
    assert NoticeKind.AI_TOOK_OVER in kinds
    assert any(s.left and s.is_ai for s in service.view(game_id).seats)


async def test_a_move_resets_the_turn_timer(service, clock, store):
    game_id = await started(service)
    clock.advance(50)
    await service.draw(game_id, current_user(service, game_id))
    clock.advance(50)
    await service.fire_due_timers()
    assert [m.actor for m in await store.games.list_moves(game_id)] == ["human"]


async def test_timers_survive_a_restart_with_their_deadlines(service, store, clock):
    game_id = await started(service)
    clock.advance(59)
    fresh = GameService(store, clock)
    await fresh.restore()
    clock.advance(2)
    await fresh.fire_due_timers()
    assert [m.actor for m in await store.games.list_moves(game_id)] == ["timer"]


async def test_leaving_a_running_game_hands_the_seat_to_an_ai(service, updates):
    game_id = await started(service, humans=(ALICE, BOB, CAROL))
    update = await service.leave(game_id, BOB)
    seat = update.view.seats[1]
    assert seat.left and seat.is_ai
    assert update.notices[0].kind is NoticeKind.AI_TOOK_OVER
    assert service.active_games_of(BOB) == []


async def test_a_player_whose_seat_an_ai_took_may_sit_in_another_game(service):
    game_id = await started(service, humans=(ALICE, BOB, CAROL))
    await service.leave(game_id, BOB)
    update = await service.open_lobby(GUILD, OTHER_CHANNEL, BOB, "Bob", GameOptions())
    assert update.view.seat_of(BOB) is not None


async def test_a_cancelled_game_keeps_no_timers(service, clock, store):
    game_id = await started(service, humans=(ALICE,), ai_seats=1)
    await service.cancel(game_id, ALICE, is_admin=False)
    assert service.timers.pending(game_id) == []
    clock.advance(3600)
    assert await service.fire_due_timers() == 0
    assert await store.games.list_moves(game_id) == []


# ----------------------------------------------------------------- routing


async def test_a_dm_command_goes_to_the_callers_only_game(service):
    game_id = await started(service)
    assert service.route(ALICE, channel_id=555, guild_id=None).game_id == game_id


async def test_a_dm_command_with_two_games_is_ambiguous(service):
    await started(service)
    update = await service.open_lobby(OTHER_GUILD, OTHER_CHANNEL, ALICE, "A", GameOptions())
    await service.add_ai(update.view.game_id, ALICE, "easy")
    await service.start(update.view.game_id, ALICE)
    with pytest.raises(HostingError) as error:
        service.route(ALICE, channel_id=555, guild_id=None)
    assert error.value.problem is Problem.AMBIGUOUS_GAME


async def test_a_command_in_a_channel_without_a_game_says_so(service):
    with pytest.raises(HostingError) as error:
        service.route(ALICE, channel_id=CHANNEL, guild_id=GUILD)
    assert error.value.problem is Problem.NO_GAME_HERE


async def test_autocomplete_offers_legal_cards_only_on_your_turn(service):
    game_id = await started(service)
    user = current_user(service, game_id)
    other = ALICE if user == BOB else BOB
    assert service.legal_plays(game_id, other) == ()
    assert service.legal_plays(game_id, user) == service.observation(game_id, user).legal_plays


async def test_quit_then_draw_is_refused_for_a_quit_player(service):
    game_id = await started(service, humans=(ALICE, BOB, CAROL))
    user = current_user(service, game_id)
    await service.quit_round(game_id, user)
    with pytest.raises(IllegalAction):
        await service.human_move(game_id, user, DRAW)
    with pytest.raises(IllegalAction):
        await service.human_move(game_id, user, QUIT)


async def test_playing_a_card_not_in_hand_is_refused(service):
    game_id = await started(service)
    user = current_user(service, game_id)
    hand = {c.code for c in service.observation(game_id, user).hand}
    missing = next(code for code in ("1", "2", "3", "4", "5", "6", "L") if code not in hand)
    with pytest.raises(IllegalAction) as error:
        await service.human_move(game_id, user, Play(Card.from_code(missing)))
    assert error.value.reason is Reason.CARD_NOT_IN_HAND


async def test_playing_a_card_code_that_does_not_exist_is_refused_as_not_in_hand(service):
    game_id = await started(service)
    user = current_user(service, game_id)
    with pytest.raises(IllegalAction) as error:
        await service.play(game_id, user, "9+")
    assert error.value.reason is Reason.CARD_NOT_IN_HAND
    assert service.view(game_id).move_count == 0


# ---------------------------------------------------------------- messages


def test_a_hand_message_key_names_its_seat_and_the_others_none():
    assert MessageKey.hand(2).seat == 2
    with pytest.raises(ValueError):
        MessageKey(MessageKind.HAND)
    with pytest.raises(ValueError):
        MessageKey(MessageKind.TABLE, seat=1)


async def test_message_ids_are_stored_at_once_without_a_writer(service, store, clock):
    game_id = await started(service)
    await service.remember_message(game_id, TABLE, CHANNEL, 555)
    await service.remember_message(game_id, MessageKey.hand(1), 77, 666)
    fresh = GameService(store, clock)
    await fresh.restore()
    assert fresh.message_ref(game_id, TABLE) == (CHANNEL, 555)
    assert fresh.message_ref(game_id, MessageKey.hand(1)) == (77, 666)


async def test_a_table_is_the_table_of_the_round_it_was_posted_for_also_after_a_restart(
    service, store, clock
):
    game_id = await started(service)
    await service.remember_message(game_id, TABLE, CHANNEL, 555, round_number=2)
    fresh = GameService(store, clock)
    await fresh.restore()
    for hosting in (service, fresh):
        assert hosting.table_of_round(game_id, 2) == (CHANNEL, 555)
        assert hosting.table_of_round(game_id, 1) is None  # round 2's: not round 1's to close


async def test_a_table_stored_without_its_round_is_taken_for_any_rounds(service, store, clock):
    """Stored before migration 0017 (its round NULL): as before, the game's table."""
    game_id = await started(service)
    await service.remember_message(game_id, TABLE, CHANNEL, 555)
    async with store.db.transaction() as tx:
        await tx.execute("UPDATE games SET table_round = NULL WHERE id = ?", (game_id,))
    fresh = GameService(store, clock)
    await fresh.restore()
    assert fresh.table_of_round(game_id, 1) == (CHANNEL, 555)


async def test_message_ids_are_written_behind_in_one_batch(service, store, monkeypatch):
    game_id = await started(service)
    batches = []
    real = store.games.save_message_refs

    async def counted(refs, shown):
        await real(refs, shown)
        batches.append(sorted(r.message_id for r in refs))  # written

    monkeypatch.setattr(store.games, "save_message_refs", counted)
    writer = asyncio.create_task(service.run_message_writer())
    await asyncio.sleep(0)
    await service.remember_message(game_id, TABLE, CHANNEL, 555)
    await service.remember_message(game_id, TABLE, CHANNEL, 556)  # the next round's
    assert service.message_ref(game_id, TABLE) == (CHANNEL, 556)  # known at once
    assert batches == []  # stored later
    await wait_until(lambda: batches, timeout=10)  # the writer waits 0.5 s for more
    record = await store.games.get_game(game_id)
    assert record.table_message_id == 556
    assert batches == [[556]]  # the newest id, one transaction
    batches.clear()
    await service.remember_message(game_id, TABLE, CHANNEL, 557)
    await service.remember_message(game_id, LOBBY, CHANNEL, 444)  # at once, the table along
    assert batches == [[444, 557]]
    writer.cancel()


async def test_a_hand_message_id_is_written_at_once_as_a_restart_must_close_it(
    service, store
):
    game_id = await started(service)
    writer = asyncio.create_task(service.run_message_writer())
    await asyncio.sleep(0)
    await service.remember_message(game_id, MessageKey.hand(0), 77, 666)
    assert (await store.games.get_game(game_id)).seats[0].hand_message_id == 666
    writer.cancel()


async def test_storing_message_ids_does_not_move_the_turn_clock(service, store, clock):
    game_id = await started(service)
    started_at = (await store.games.get_game(game_id)).updated_at
    clock.advance(30)
    await service.remember_message(game_id, MessageKey.hand(0), 77, 666)
    assert (await store.games.get_game(game_id)).updated_at == started_at


async def test_a_hard_ai_seat_moves_too(service, clock, store):
    options = GameOptions(ai_level="hard", turn_timeout=60, ai_delay=1)
    game_id = await started(service, humans=(ALICE,), ai_seats=2, options=options)
    if current_user(service, game_id) == ALICE:
        await service.quit_round(game_id, ALICE)
    clock.advance(1)
    await service.fire_due_timers()
    moves = await store.games.list_moves(game_id)
    assert moves[-1].actor == "ai"
    assert len(moves) >= 1


# ------------------------------------------------------------- review: restarts


async def test_a_seat_left_mid_round_still_quits_that_round_after_a_restart(service, store, clock):
    game_id = await started(service, humans=(ALICE, BOB, CAROL))
    user = current_user(service, game_id)
    seat = service.view(game_id).current_seat
    round_number = service.view(game_id).round_number
    await service.leave(game_id, user)
    fresh = GameService(store, clock)
    await fresh.restore()
    clock.advance(2)
    await fresh.fire_due_timers()
    last = (await store.games.list_moves(game_id))[-1]
    assert (last.actor, last.seat, last.round_number) == ("ai", seat, round_number)
    assert last.action == action_to_dict(QUIT)


async def test_rematch_works_for_a_game_that_ended_before_a_restart(service, store, clock):
    game_id = await started(service)
    await service.cancel(game_id, ALICE, is_admin=False)
    game_id = await started(service, humans=(ALICE,), ai_seats=1)
    for _ in range(3000):
        if service.view(game_id).status is Status.FINISHED:
            break
        if current_user(service, game_id) == ALICE:
            await play_any(service, game_id)
        else:
            clock.advance(1)
            await service.fire_due_timers()
    assert service.view(game_id).status is Status.FINISHED
    fresh = GameService(store, clock)
    await fresh.restore()
    with pytest.raises(HostingError) as refused:  # Bob never sat in that game
        await fresh.rematch(game_id, BOB, "Bob")
    assert refused.value.problem is Problem.NOT_A_PLAYER
    update = await fresh.rematch(game_id, ALICE, "Alice")
    assert update.view.status is Status.LOBBY
    assert [s.user_id for s in update.view.seats] == [ALICE, None]
    assert update.view.rematch_of == game_id and update.view.host_id == ALICE


async def test_a_rematchs_ai_keeps_its_name_when_a_player_before_it_is_not_reseated(
        service, clock):
    game_id = await lobby(service)
    await service.join(game_id, BOB, "Bob")
    await service.add_ai(game_id, ALICE)  # seat 3: Llama-bot 3
    await service.start(game_id, ALICE)
    await service.leave(game_id, BOB)  # an AI plays on for Bob: he is not reseated
    while service.view(game_id).status is not Status.FINISHED:
        if current_user(service, game_id) == ALICE:
            await play_any(service, game_id)
        else:
            clock.advance(1)
            await service.fire_due_timers()
    update = await service.rematch(game_id, ALICE, "Alice")
    (ai,) = [s for s in update.view.seats if s.is_ai]
    assert (ai.index, ai_called(ai.index, ai.ai_number)) == (1, 3)


async def finished_and_forgotten(service, store, clock, forgotten):
    """A two-human game (Alice hosts) played to its end; then `forgotten` erases their data
    (/lama forget-me) and the bot restarts, so the rematch reads the game from the store."""
    game_id = await started(service)
    while service.view(game_id).status is not Status.FINISHED:
        await play_any(service, game_id)
    await StatsService(store, clock).forget(forgotten)
    fresh = GameService(store, clock)
    await fresh.restore()
    return fresh, game_id


async def test_a_rematch_of_a_game_whose_host_was_forgotten_is_hosted_by_its_opener(
    service, store, clock
):
    fresh, game_id = await finished_and_forgotten(service, store, clock, forgotten=ALICE)
    update = await fresh.rematch(game_id, BOB, "Bob")
    assert update.view.host_id == BOB
    await fresh.add_ai(update.view.game_id, BOB)  # the host's own lobby: they run it
    await fresh.start(update.view.game_id, BOB)


async def test_listeners_hear_of_a_rematch_lobby_once_the_servers_seats_are_free(service):
    game_id = await started(service)
    while service.view(game_id).status is not Status.FINISHED:
        await play_any(service, game_id)
    seating_held = []

    async def listen(update):  # e.g. a renderer that waits for Discord, or seats someone
        if update.view.rematch_of == game_id:
            seating_held.append(service.registry.seating_held(GUILD, BOB))

    service.add_listener(listen)
    await service.rematch(game_id, BOB, "Bob")
    assert seating_held == [False]


async def played_to_its_end(service, game_id: int) -> int:
    while service.view(game_id).status is not Status.FINISHED:
        await play_any(service, game_id)
    return game_id


async def test_a_game_has_one_rematch_and_a_later_press_is_pointed_to_it(service):
    game_id = await played_to_its_end(service, await started(service))
    rematch = (await service.rematch(game_id, BOB, "Bob")).view.game_id
    with pytest.raises(HostingError) as seated:  # a double press: Alice sits in it
        await service.rematch(game_id, ALICE, "Alice")
    assert seated.value.problem is Problem.ALREADY_IN_REMATCH
    await service.leave(rematch, ALICE)
    with pytest.raises(HostingError) as pointed:  # a stale button: changes nothing
        await service.rematch(game_id, ALICE, "Alice")
    assert pointed.value.problem is Problem.REMATCH_EXISTS
    assert pointed.value.details["game_id"] == rematch
    assert service.view(rematch).seat_of(ALICE) is None


async def test_a_rematch_played_to_its_end_is_still_the_games_one_rematch(service):
    game_id = await played_to_its_end(service, await started(service))
    rematch = (await service.rematch(game_id, BOB, "Bob")).view.game_id
    await service.start(rematch, ALICE)
    await played_to_its_end(service, rematch)
    with pytest.raises(HostingError) as pointed:
        await service.rematch(game_id, ALICE, "Alice")
    assert pointed.value.problem is Problem.REMATCH_EXISTS
    assert pointed.value.details["game_id"] == rematch
    assert service.game_in_channel(CHANNEL) is None


async def test_a_cancelled_rematch_leaves_the_game_free_to_be_replayed(service):
    game_id = await played_to_its_end(service, await started(service))
    cancelled = (await service.rematch(game_id, BOB, "Bob")).view.game_id
    await service.cancel(cancelled, ALICE, is_admin=False)
    again = await service.rematch(game_id, BOB, "Bob")
    assert again.view.rematch_of == game_id and again.view.game_id != cancelled


async def test_a_hand_button_of_a_game_that_ended_before_a_restart_is_stale(service, store, clock):
    game_id = await started(service)
    await service.cancel(game_id, ALICE, is_admin=False)
    fresh = GameService(store, clock)
    await fresh.restore()
    with pytest.raises(HostingError) as error:
        await fresh.draw(game_id, ALICE, round_number=1)
    assert error.value.problem is Problem.STALE_BUTTON


async def test_a_turn_timer_does_not_fire_for_a_seat_an_ai_took_meanwhile(service, clock, updates):
    game_id = await started(service, humans=(ALICE, BOB, CAROL))
    user = current_user(service, game_id)
    clock.advance(60)
    await asyncio.gather(service.leave(game_id, user), service.fire_due_timers())
    kinds = [n.kind for u in updates for n in u.notices]
    assert NoticeKind.TIMED_OUT not in kinds
    assert service.view(game_id).move_count == 0  # the AI quits for them after its delay


async def test_message_ids_are_kept_when_storing_them_fails(service, store, monkeypatch):
    game_id = await started(service)
    real = store.games.save_message_refs

    async def locked(refs, shown=()):
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(store.games, "save_message_refs", locked)
    with pytest.raises(sqlite3.OperationalError):
        await service.remember_message(game_id, TABLE, CHANNEL, 555)
    monkeypatch.setattr(store.games, "save_message_refs", real)
    await service.flush_message_refs()
    assert (await store.games.get_game(game_id)).table_message_id == 555


async def test_a_timed_out_quit_is_announced_even_if_the_ai_handover_fails(
    service, store, clock, updates, monkeypatch
):
    async def locked(*args, **kwargs):
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(store.games, "hand_seat_to_ai", locked)
    options = GameOptions(ai_level="easy", turn_timeout=60, target=200)
    game_id = await started(service, humans=(ALICE, BOB, CAROL), options=options)
    for _ in range(12):
        if service.view(game_id).status is not Status.RUNNING:
            break
        clock.advance(61)
        await service.fire_due_timers()
    timer_moves = [m for m in await store.games.list_moves(game_id) if m.actor == "timer"]
    announced = [n for u in updates for n in u.notices if n.kind is NoticeKind.TIMED_OUT]
    assert len(timer_moves) >= TIMEOUTS_BEFORE_AI
    assert len(announced) == len(timer_moves)


async def test_a_failed_ai_move_is_tried_again_and_the_game_goes_on(
    service, clock, store, monkeypatch
):
    import hosting.turns as turns_module

    game_id = await started(service, humans=(ALICE,), ai_seats=1)
    if current_user(service, game_id) == ALICE:
        await service.quit_round(game_id, ALICE)
    moves_before = len(await store.games.list_moves(game_id))
    real = turns_module.get_policy
    monkeypatch.setattr(turns_module, "get_policy", lambda name: 1 / 0)  # the AI breaks once
    clock.advance(1)
    await service.fire_due_timers()
    assert len(await store.games.list_moves(game_id)) == moves_before
    monkeypatch.setattr(turns_module, "get_policy", real)
    clock.advance(turns_module.TIMER_RETRY_S)
    await service.fire_due_timers()
    assert len(await store.games.list_moves(game_id)) == moves_before + 1


async def test_ended_games_leave_memory_but_their_buttons_stay_polite(service, monkeypatch):
    import hosting.registry as registry_module

    monkeypatch.setattr(registry_module, "RETIRED_KEPT", 1)
    first = await lobby(service)
    await service.cancel(first, ALICE, is_admin=False)
    second = await lobby(service)
    await service.cancel(second, ALICE, is_admin=False)
    with pytest.raises(HostingError):
        service.view(first)  # forgotten
    assert service.view(second).status is Status.CANCELLED  # the newest is kept
    with pytest.raises(HostingError) as error:
        await service.draw(first, ALICE, round_number=1)
    assert error.value.problem is Problem.STALE_BUTTON


async def refusals(*attempts) -> list[HostingError]:
    """What attempts made at once were refused (each refusal a HostingError)."""
    results = await asyncio.gather(*attempts, return_exceptions=True)
    return [r for r in results if isinstance(r, HostingError)]


async def test_two_simultaneous_lobbies_by_one_player_in_a_server_make_one(service):
    refused = await refusals(
        service.open_lobby(GUILD, CHANNEL, ALICE, "Alice", GameOptions()),
        service.open_lobby(GUILD, OTHER_CHANNEL, ALICE, "Alice", GameOptions()),
    )
    assert len(refused) == 1 and refused[0].problem is Problem.SEATED_ELSEWHERE
    assert len(service.active_games_of(ALICE, GUILD)) == 1


async def test_a_players_lobby_does_not_wait_for_another_player_being_seated(
        service, store, monkeypatch):
    """One seat per player per server is a player's own lock: with one lock for the whole
    server every lobby command queued behind the others' store writes."""
    stored, held = asyncio.Event(), asyncio.Event()
    create = store.games.create_lobby

    async def slow_for_alice(**lobby):
        if lobby["host_user_id"] == ALICE:
            held.set()
            await stored.wait()
        return await create(**lobby)

    monkeypatch.setattr(store.games, "create_lobby", slow_for_alice)
    alice = asyncio.create_task(service.open_lobby(GUILD, CHANNEL, ALICE, "Alice", GameOptions()))
    await held.wait()  # Alice's lobby is being stored, her seat checked
    await asyncio.wait_for(
        service.open_lobby(GUILD, OTHER_CHANNEL, BOB, "Bob", GameOptions()), timeout=5)
    stored.set()
    await alice
    assert {v.host_id for v in service.active_games_of(ALICE, GUILD)} == {ALICE}


async def test_two_lobbies_at_once_in_one_channel_make_one_refusing_the_other_from_memory(
        service, store, monkeypatch):
    """The channel's lock: the second lobby waits for the first and is refused before it
    reaches the store (whose one-open-game-per-channel index would refuse it too)."""
    stored = []
    create = store.games.create_lobby

    async def counted(**lobby):
        stored.append(lobby["host_user_id"])
        return await create(**lobby)

    monkeypatch.setattr(store.games, "create_lobby", counted)
    refused = await refusals(
        service.open_lobby(GUILD, CHANNEL, ALICE, "Alice", GameOptions()),
        service.open_lobby(GUILD, CHANNEL, BOB, "Bob", GameOptions()),
    )
    assert len(refused) == 1 and refused[0].problem is Problem.GAME_EXISTS
    assert len(stored) == 1


async def test_joining_two_lobbies_at_once_seats_the_player_once(service):
    await service.open_lobby(GUILD, CHANNEL, BOB, "Bob", GameOptions())
    await service.open_lobby(GUILD, OTHER_CHANNEL, CAROL, "Carol", GameOptions())
    first = service.game_in_channel(CHANNEL).game_id
    second = service.game_in_channel(OTHER_CHANNEL).game_id
    results = await asyncio.gather(
        service.join(first, ALICE, "Alice"),
        service.join(second, ALICE, "Alice"),
        return_exceptions=True,
    )
    assert sum(isinstance(r, HostingError) for r in results) == 1
    assert len(service.active_games_of(ALICE, GUILD)) == 1


async def test_a_game_shown_in_a_thread_is_reached_from_it_also_after_a_restart(
    service, store, clock
):
    thread = 9_999
    game_id = await started(service)
    view = await service.show_in_thread(game_id, thread)
    assert view.shown_in == thread and view.channel_id == CHANNEL
    assert service.route(ALICE, thread, GUILD).game_id == game_id
    fresh = GameService(store, clock)
    await fresh.restore()
    assert fresh.route(BOB, thread, GUILD).game_id == game_id
    await fresh.cancel(game_id, ALICE, is_admin=False)
    with pytest.raises(HostingError):
        fresh.route(BOB, thread, GUILD)

