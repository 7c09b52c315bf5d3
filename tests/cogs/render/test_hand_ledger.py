"""HandLedger: which message shows each seat's hand, with no Discord and no clock (the times
are handed in). Game 7, seat 1, player 100 throughout."""

from __future__ import annotations

from cogs.render.hand_records import Pressed, ShownHand
from cogs.render.ledger import AT_TABLE_FOR, HandLedger
from hosting import FakeClock, Presence

GAME, SEAT, USER = 7, 1, 100


def dm(message_id: int, moves: int, *, live: bool = True) -> ShownHand:
    """A hand DM (channel 55) showing the game after `moves` moves."""
    return ShownHand(message_id, 55, None, 0.0, live, moves, first_id=message_id)


def private(interaction_id: int, moves: int, *, live: bool = True) -> ShownHand:
    """An ephemeral hand, the answer to interaction `interaction_id`."""
    return ShownHand(None, None, None, 0.0, live, moves, first_id=interaction_id,
                     made_by=interaction_id)


def test_a_newer_hand_hands_back_the_live_one_it_replaces():
    ledger = HandLedger()
    first = dm(10, moves=3)
    assert ledger.sent(GAME, SEAT, USER, first, now=0.0) is None
    assert ledger.sent(GAME, SEAT, USER, dm(20, moves=5), now=0.0) is first
    assert ledger.is_newest(GAME, SEAT, dm(20, moves=5))
    assert not ledger.is_newest(GAME, SEAT, first)


def test_a_hand_that_is_not_live_needs_no_close():
    ledger = HandLedger()
    ledger.sent(GAME, SEAT, USER, dm(10, moves=3, live=False), now=0.0)
    assert ledger.sent(GAME, SEAT, USER, dm(20, moves=5), now=0.0) is None


def test_the_same_message_shown_again_replaces_nothing():
    ledger = HandLedger()
    ledger.sent(GAME, SEAT, USER, dm(10, moves=3), now=0.0)
    assert ledger.replace(GAME, SEAT, dm(10, moves=5)) is None
    assert ledger.newest(GAME, SEAT) == dm(10, moves=5)


def test_a_slow_dm_of_an_older_state_does_not_take_over():
    """A deal DM on its way while a slash move answered with the newer hand: the DM is the
    older message, closed at once if it came live, and the answer stays the newest."""
    ledger = HandLedger()
    answer = private(30, moves=4)
    ledger.answered(GAME, SEAT, USER, answer, on_dm_hand=False, seen=0.0)
    late = dm(40, moves=1)
    assert ledger.sent(GAME, SEAT, USER, late, now=0.0) is late
    assert ledger.newest(GAME, SEAT) is answer
    assert ledger.sent(GAME, SEAT, USER, dm(41, moves=1, live=False), now=0.0) is None


def test_a_press_on_an_older_state_moves_nothing():
    ledger = HandLedger()
    ledger.sent(GAME, SEAT, USER, dm(10, moves=3), now=0.0)
    ledger.sent(GAME, SEAT, USER, dm(20, moves=5), now=0.0)
    assert ledger.replaced(GAME, USER, Pressed(10, ephemeral=False))
    assert not ledger.replaced(GAME, USER, Pressed(20, ephemeral=False))


def test_a_press_on_an_older_message_of_the_same_turn_plays():
    """The player looked at their hand (a private answer) while their turn DM was live:
    both offer the same moves, so a press on the DM plays."""
    ledger = HandLedger()
    ledger.sent(GAME, SEAT, USER, dm(10, moves=5), now=0.0)
    closed = ledger.answered(GAME, SEAT, USER, private(30, moves=5), on_dm_hand=False, seen=0.0)
    assert closed == dm(10, moves=5)
    assert not ledger.replaced(GAME, USER, Pressed(10, ephemeral=False))
    ledger.answered(GAME, SEAT, USER, private(50, moves=6), on_dm_hand=False, seen=1.0)
    assert ledger.replaced(GAME, USER, Pressed(10, ephemeral=False))  # a move later: not


def test_a_press_on_a_newer_message_after_an_older_one_came_back_moves_nothing():
    """The turn DM (older) is pressed while a private hand of the same turn (newer) is live:
    the DM plays and is the newest again, showing the move it made. The private hand, newer
    by id, shows the turn before that move: a press on it before its close lands moves
    nothing (it was taken for newer than the newest and played)."""
    ledger = HandLedger()
    ledger.sent(GAME, SEAT, USER, dm(10, moves=5), now=0.0)
    ledger.answered(GAME, SEAT, USER, private(30, moves=5), on_dm_hand=False, seen=0.0)
    assert not ledger.replaced(GAME, USER, Pressed(10, ephemeral=False))  # same turn: plays
    back = ledger.answered(GAME, SEAT, USER, dm(10, moves=6), on_dm_hand=True, seen=1.0)
    assert back == private(30, moves=5)  # to close
    assert ledger.replaced(GAME, USER, Pressed(31, ephemeral=True, made_by=30))
    assert not ledger.replaced(GAME, USER, Pressed(10, ephemeral=False))  # the newest
    assert not ledger.replaced(GAME, USER, Pressed(90, ephemeral=False))  # one not known yet
    ledger.sent(GAME, SEAT, USER, dm(95, moves=7), now=2.0)  # a newer DM: the id rule again
    assert ledger.replaced(GAME, USER, Pressed(31, ephemeral=True, made_by=30))
    assert ledger.replaced(GAME, USER, Pressed(10, ephemeral=False))


def test_a_private_hand_is_known_by_the_interaction_that_made_it():
    ledger = HandLedger()
    ledger.answered(GAME, SEAT, USER, private(30, moves=5), on_dm_hand=False, seen=0.0)
    ledger.sent(GAME, SEAT, USER, dm(60, moves=5), now=0.0)
    assert not ledger.replaced(GAME, USER, Pressed(45, ephemeral=True, made_by=30))
    assert ledger.replaced(GAME, USER, Pressed(45, ephemeral=True, made_by=31))


def test_a_player_nobody_knows_here_is_never_replaced():
    assert not HandLedger().replaced(GAME, USER, Pressed(1, ephemeral=False))


def test_where_a_player_moved_from_decides_whether_they_play_at_the_table():
    ledger = HandLedger()
    ledger.answered(GAME, SEAT, USER, private(30, moves=1), on_dm_hand=False, seen=100.0)
    assert ledger.table_player(GAME, USER)
    assert ledger.at_table(GAME, USER, now=100.0 + AT_TABLE_FOR - 1)
    assert not ledger.at_table(GAME, USER, now=100.0 + AT_TABLE_FOR)
    ledger.answered(GAME, SEAT, USER, dm(70, moves=2), on_dm_hand=True, seen=200.0)
    assert not ledger.table_player(GAME, USER)
    assert not ledger.table_player(GAME + 1, USER)  # each game is the player's own choice


def test_a_player_with_the_activity_open_is_at_the_table_until_a_minute_after_leaving():
    """The quiet-minute rule counts the Activity (hosting.Presence): open on the game, the
    player is at the table and has heard lately, however long ago the bot last heard of them
    on Discord (here: never); left, for one more minute, as after a move of their own."""
    clock = FakeClock()
    presence = Presence(clock)
    ledger = HandLedger(presence)
    presence.opened(GAME, USER)
    clock.advance(10 * AT_TABLE_FOR)
    assert ledger.at_table(GAME, USER, clock.now())
    assert ledger.heard_lately(GAME, USER, clock.now())
    assert not ledger.at_table(GAME + 1, USER, clock.now())  # open on this game only
    presence.left(GAME, USER)
    clock.advance(AT_TABLE_FOR - 1)
    assert ledger.heard_lately(GAME, USER, clock.now())
    clock.advance(1)
    assert not ledger.at_table(GAME, USER, clock.now())
    assert not ledger.heard_lately(GAME, USER, clock.now())


def test_a_recalled_dm_is_live_and_closed_by_the_next_hand():
    ledger = HandLedger()
    ledger.recall(GAME, SEAT, USER, (55, 10), now=0.0)
    assert ledger.has_dm(GAME, SEAT) and ledger.is_live(GAME, SEAT)
    stale = ledger.sent(GAME, SEAT, USER, dm(20, moves=5), now=0.0)
    assert stale is not None and stale.message_id == 10
    assert ledger.replaced(GAME, USER, Pressed(10, ephemeral=False))


def test_closed_dms_are_told_once_per_game():
    ledger = HandLedger()
    assert ledger.tell_once(GAME, USER)
    assert not ledger.tell_once(GAME, USER)
    assert ledger.tell_once(GAME + 1, USER)
    ledger.forget_game(GAME)
    assert ledger.tell_once(GAME, USER)


def test_a_game_forgotten_leaves_nothing_behind():
    ledger = HandLedger()
    ledger.answered(GAME, SEAT, USER, private(30, moves=1), on_dm_hand=False, seen=0.0)
    ledger.sent(GAME + 1, SEAT, USER, dm(80, moves=1), now=0.0)
    ledger.forget_game(GAME)
    assert ledger.newest(GAME, SEAT) is None
    assert not ledger.table_player(GAME, USER)
    assert not ledger.at_table(GAME, USER, now=0.0)
    assert not ledger.replaced(GAME, USER, Pressed(1, ephemeral=False))
    assert ledger.has_dm(GAME + 1, SEAT)
