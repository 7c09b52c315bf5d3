"""Which message shows each seat's hand, pure bookkeeping (no Discord, no clock of its own:
the times are handed in). HandMessages (hands.py) asks it and does the calls.

Per seat, the newest message that shows the hand (`ShownHand`): whenever a newer one shows
it, the older live one is handed back, to close. A DM that was on its way while an
interaction answered with a newer hand shows the older state and does not take over. An
older message that shows the same turn as the newest (the same moves on offer) stays
playable until its close lands (`replaced`); one that shows an older state moves nothing.
Per player and game: where they last moved from (a DM hand's button, or the table / a slash
command: a "table player", pinged by notification DMs), when they last moved or looked
(`at_table`: on Discord, or in the Activity as the `Present` port says: open on the game
counts as looking), when the bot last sent them a DM of the game (`heard_lately`: a DM
player's turn edits their hand DM in place while they keep up), and whether the channel was
told their DMs are closed (`tell_once`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .hand_records import Pressed, ShownHand

if TYPE_CHECKING:
    from .ports import Present

# A table player who moved or opened their hand in the game this recently (or has the
# Activity open on it) is watching the table: their turn DM would be one notification per
# turn for nothing (docs/turn-pings.md).
AT_TABLE_FOR = 60.0


class HandLedger:
    def __init__(self, elsewhere: Present | None = None) -> None:
        """`elsewhere`: who is at a game's table outside Discord's interactions (None: no
        other window reports here)."""
        self._elsewhere = elsewhere
        self._shown: dict[tuple[int, int], ShownHand] = {}  # (game, seat): the newest
        # (game, user): moved from the table or a slash command in that game, so their
        # pings there are notification DMs; each game is the player's own choice
        self._table_players: set[tuple[int, int]] = set()
        self._told_closed: set[tuple[int, int]] = set()  # (game, user): notice given
        self._seen: dict[tuple[int, int], float] = {}  # (game, user): their last move or look
        self._dmed: dict[tuple[int, int], float] = {}  # (game, user): the game's last DM to them
        self._seats: dict[tuple[int, int], int] = {}  # (game, user): the seat of a shown hand
        # (game, seat): older live hands that show the same turn as the newest (`replaced`)
        self._same_turn: dict[tuple[int, int], list[ShownHand]] = {}
        # (game, seat): hands replaced by one older than them (a hand that came back as the
        # newest), which the id alone would take for newer than the newest (`replaced`)
        self._passed_over: dict[tuple[int, int], list[ShownHand]] = {}

    def newest(self, game_id: int, seat: int) -> ShownHand | None:
        return self._shown.get((game_id, seat))

    def answered(
        self, game_id: int, seat: int, user_id: int, new: ShownHand, *, on_dm_hand: bool,
        seen: float,
    ) -> ShownHand | None:
        """An interaction of the seat's player (at clock time `seen`, pressed on a DM hand
        or not) shows its hand in `new`; returns the older live message to close."""
        self._seen[(game_id, user_id)] = seen
        self._seats[(game_id, user_id)] = seat
        if on_dm_hand:
            self._table_players.discard((game_id, user_id))
        else:
            self._table_players.add((game_id, user_id))
        return self.replace(game_id, seat, new)

    def sent(
        self, game_id: int, seat: int, user_id: int, new: ShownHand, *, now: float
    ) -> ShownHand | None:
        """A hand DM was sent to the seat's player (at clock time `now`); returns the older
        message to close."""
        stale = self.replace(game_id, seat, new)
        self._seats[(game_id, user_id)] = seat
        self._dmed[(game_id, user_id)] = now
        return stale

    def replace(self, game_id: int, seat: int, new: ShownHand) -> ShownHand | None:
        """`new` shows the seat's hand; returns the message to close. That is the one shown
        so far if it is live or a private one (deleted: one private hand at a time), unless
        `new` shows an older state than it: a DM that was on its way while an interaction
        answered with the newer hand (a slow deal, then a slash move) is the older message,
        whatever its id, and must not take over as live."""
        old = self._shown.get((game_id, seat))
        if old is not None and new.moves < old.moves and not old.same_message(new):
            return new if new.live else None
        self._shown[(game_id, seat)] = new
        same_turn = [hand for hand in self._same_turn.get((game_id, seat), [])
                     if hand.moves == new.moves and not hand.same_message(new)]
        self._same_turn[(game_id, seat)] = same_turn
        passed_over = [hand for hand in self._passed_over.get((game_id, seat), [])
                       if hand.first_id > new.first_id and not hand.same_message(new)]
        if old is not None and old.first_id > new.first_id and not old.same_message(new):
            passed_over.append(old)
        self._passed_over[(game_id, seat)] = passed_over
        if old is None or old.same_message(new):
            return None
        if not old.live:  # an older private hand still goes: one hand on screen at a time
            return old if old.message_id is None and old.reach is not None else None
        if old.moves == new.moves:
            same_turn.append(old)
        return old

    def replaced(self, game_id: int, user_id: int, pressed: Pressed) -> bool:
        """Whether a press on this older hand message must move nothing: a newer message shows
        the user's hand, and a newer state of it (the older one's buttons outlived it: a close
        still on its way, or one that failed). An older one that shows the same turn as the
        newest (same move, their turn) offers the same moves: the press plays, and the newer
        one is closed instead (for free if it is private, as it is when the player looked at
        their hand while their turn DM was live). Older means replaced: a hand older by id
        than the newest, or one the newest took over from although it is newer by id (the
        newest is an older hand that came back: pressed, it played)."""
        seat = self._seats.get((game_id, user_id))
        if seat is None:
            return False
        shown = self._shown.get((game_id, seat))
        if shown is None or shown.shown_on(pressed):
            return False
        passed_over = self._passed_over.get((game_id, seat), [])
        if pressed.id >= shown.first_id and not any(h.shown_on(pressed) for h in passed_over):
            return False  # newer than the newest: one not known here yet
        same_turn = self._same_turn.get((game_id, seat), [])
        return not any(hand.shown_on(pressed) and hand.moves == shown.moves >= 0
                       for hand in same_turn)

    def is_newest(self, game_id: int, seat: int, shown: ShownHand) -> bool:
        """Whether `shown` is the seat's newest hand (again: a press on it played, while its
        close was on its way)."""
        newest = self._shown.get((game_id, seat))
        return newest is not None and newest.same_message(shown)

    def recall(
        self, game_id: int, seat: int, user_id: int, ref: tuple[int, int], now: float
    ) -> None:
        """After a restart: the seat's stored hand DM (channel, message) may still have live
        buttons."""
        if (game_id, seat) not in self._shown:
            self._shown[(game_id, seat)] = ShownHand(
                ref[1], ref[0], None, now, True, first_id=ref[1])
        self._seats[(game_id, user_id)] = seat

    def has_dm(self, game_id: int, seat: int) -> bool:
        shown = self._shown.get((game_id, seat))
        return shown is not None and shown.message_id is not None

    def is_live(self, game_id: int, seat: int) -> bool:
        shown = self._shown.get((game_id, seat))
        return shown is not None and shown.live

    def table_player(self, game_id: int, user_id: int) -> bool:
        """Whether the player last moved from the table or by a slash command in the game."""
        return (game_id, user_id) in self._table_players

    def at_table(self, game_id: int, user_id: int, now: float) -> bool:
        """Whether the player moved or looked at their hand in this game a moment ago, on
        Discord or in the Activity (or has the Activity open on it now)."""
        seen = self._seen.get((game_id, user_id))
        if seen is not None and now - seen < AT_TABLE_FOR:
            return True
        elsewhere = self._elsewhere
        return elsewhere is not None and elsewhere.seen_since(game_id, user_id, now - AT_TABLE_FOR)

    def heard_lately(self, game_id: int, user_id: int, now: float) -> bool:
        """Whether the player moved, looked at their hand or got a DM of this game within
        `AT_TABLE_FOR`: their phone buzzed a moment ago, or they are playing along; a new
        DM would be one more notification for nothing."""
        dmed = self._dmed.get((game_id, user_id))
        return self.at_table(game_id, user_id, now) or (
            dmed is not None and now - dmed < AT_TABLE_FOR)

    def tell_once(self, game_id: int, user_id: int) -> bool:
        """Whether the channel is still to be told that this player's DMs are closed (once
        per game); from now on it has been."""
        if (game_id, user_id) in self._told_closed:
            return False
        self._told_closed.add((game_id, user_id))
        return True

    def forget_game(self, game_id: int) -> None:
        for key in [k for k in self._shown if k[0] == game_id]:
            del self._shown[key]
        self._same_turn = {k: v for k, v in self._same_turn.items() if k[0] != game_id}
        self._passed_over = {k: v for k, v in self._passed_over.items() if k[0] != game_id}
        self._table_players = {k for k in self._table_players if k[0] != game_id}
        self._told_closed = {k for k in self._told_closed if k[0] != game_id}
        self._seen = {k: v for k, v in self._seen.items() if k[0] != game_id}
        self._dmed = {k: v for k, v in self._dmed.items() if k[0] != game_id}
        self._seats = {k: v for k, v in self._seats.items() if k[0] != game_id}
