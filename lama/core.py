"""The engine core: a game's state and the mechanics of a move, below the rules' checks.

Internally cards are small ints (``Card.index``) and a hand is a list of 14 counts, so
legality is a lookup in the ruleset's ``followers`` table and scoring is a loop over counts.
The private ``_play/_draw/_quit_seat`` helpers take an event list, or None when nobody needs
events (the simulator's fast path). Randomness: round ``r`` of a game with seed ``s`` is
shuffled by its own ``random.Random(s * 2**32 + r)``; the shuffle is a lazy Fisher-Yates (a
card's position is fixed only when it is taken). The first save of a round (`_draw_order`)
finishes it for good on the same RNG stream, so a saved game has its draw pile in explicit
order and continues identically, in memory as after a restore.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Self

from lama.cards import CARDS, NUM_CARD_TYPES, Card
from lama.events import (
    CardDrawn,
    CardPlayed,
    Event,
    ExtraTurn,
    ForcedQuit,
    ForcedQuitReason,
    GameEnded,
    PlayerQuit,
    RoundEnded,
    RoundEndReason,
    RoundStarted,
    SeatRoundResult,
    TurnPassed,
)
from lama.rules import Ruleset

HAND_SIZE = 6
MIN_SEATS = 2
MAX_SEATS = 6


def round_rng(seed: int, round_number: int) -> random.Random:
    """The RNG that shuffles (and, in round 1, picks the starting seat of) one round."""
    return random.Random(seed * 2**32 + round_number)


def hand_cards(counts: Sequence[int]) -> tuple[Card, ...]:
    out: list[Card] = []
    for i, k in enumerate(counts):
        if k:
            out += _REPEAT[i][:k] if k <= 8 else [CARDS[i]] * k
    return tuple(out)


_REPEAT = tuple([c] * 8 for c in CARDS)


class GameCore:
    """The state of a game and the mechanics of a move: dealing, playing, drawing, quitting,
    scoring. `Game` (lama/game.py) adds the rules-checked public API on top."""

    __slots__ = (
        "_active",
        "_cur",
        "_deck",
        "_discard",
        "_extra",
        "_extra_idx",
        "_followers",
        "_hands",
        "_last_quitter",
        "_n",
        "_over",
        "_pile",
        "_pos",
        "_quit",
        "_rng",
        "_rng_shared",
        "_round",
        "_ruleset",
        "_scores",
        "_seed",
        "_sim",
        "_sizes",
        "_target",
        "_top",
    )

    def __init__(self, ruleset: Ruleset, num_seats: int, seed: int, target: int) -> None:
        """Private: an empty table with no round dealt. Use `Game.new`."""
        if not isinstance(num_seats, int) or not MIN_SEATS <= num_seats <= MAX_SEATS:
            raise ValueError(f"num_seats must be {MIN_SEATS}..{MAX_SEATS}, got {num_seats!r}")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError(f"seed must be an int, got {seed!r}")
        if not isinstance(target, int) or isinstance(target, bool) or target < 1:
            raise ValueError(f"target must be a positive int, got {target!r}")
        self._ruleset = ruleset
        self._followers = ruleset.followers
        self._extra_idx = ruleset.extra_turn_index
        self._deck = [c.index for c in ruleset.deck]
        self._n = num_seats
        self._seed = seed
        self._target = target
        self._round = 0
        self._scores = [0] * num_seats
        self._over = False
        self._cur: int | None = None
        self._extra = False
        self._hands: list[list[int]] = [[0] * NUM_CARD_TYPES for _ in range(num_seats)]
        self._sizes = [0] * num_seats
        self._quit = [False] * num_seats
        self._active = num_seats
        self._top = 0
        self._discard: list[int] = []
        self._pile: list[int] = []
        self._pos = 0
        self._rng: random.Random | None = None
        self._rng_shared = False  # also a clone's: copied before this game draws with it
        self._last_quitter: int | None = None
        self._sim = False  # simulator mode: a finished round is not scored and not re-dealt

    # ----------------------------------------------------------------- engine core

    def _deal(
        self, round_number: int, start: int, rng: random.Random, ev: list[Event] | None
    ) -> None:
        n = self._n
        self._round = round_number
        pile = self._deck[:]
        m = len(pile)
        rand = rng.random
        hands = [[0] * NUM_CARD_TYPES for _ in range(n)]
        pos = 0
        for h in hands:
            for _ in range(HAND_SIZE):
                j = pos + int(rand() * (m - pos))
                c = pile[j]
                pile[j] = pile[pos]
                pile[pos] = c
                h[c] += 1
                pos += 1
        j = pos + int(rand() * (m - pos))
        top = pile[j]
        pile[j] = pile[pos]
        pile[pos] = top
        pos += 1
        self._hands = hands
        self._sizes = [HAND_SIZE] * n
        self._quit = [False] * n
        self._active = n
        self._top = top
        self._discard = [top]
        self._pile = pile
        self._pos = pos
        self._rng, self._rng_shared = rng, False
        self._cur = start
        self._extra = False
        self._last_quitter = None
        if ev is not None:
            ev.append(RoundStarted(round_number, start, CARDS[top]))
        self._settle(ev, False)

    def _next_seat(self, seat: int) -> int:
        n = self._n
        q = self._quit
        s = seat
        while True:
            s += 1
            if s == n:
                s = 0
            if not q[s]:
                return s

    def _settle(self, ev: list[Event] | None, announce: bool) -> None:
        """Quit for players who have no choice (docs/rules.md, "When you have no choice"),
        possibly in a chain, then say who is on turn."""
        while True:
            if self._active > 1 and self._pos < len(self._pile):
                break  # may draw
            s = self._cur
            assert s is not None
            hand = self._hands[s]
            if any(hand[c] for c in self._followers[self._top]):
                break  # may play
            reason = (
                ForcedQuitReason.ALONE if self._active == 1 else ForcedQuitReason.PILE_EMPTY
            )
            if self._quit_seat(s, reason, ev):
                return  # the round ended (and the next one, if any, was dealt)
            announce = True
        if announce and ev is not None:
            ev.append(TurnPassed(self._cur))  # type: ignore[arg-type]

    def _play(self, seat: int, c: int, ev: list[Event] | None) -> None:
        self._hands[seat][c] -= 1
        size = self._sizes[seat] - 1
        self._sizes[seat] = size
        self._discard.append(c)
        self._top = c
        if ev is not None:
            ev.append(CardPlayed(seat, CARDS[c], size))
        if size == 0:
            self._end_round(seat, ev)
        elif self._extra_idx[c]:
            self._extra = True
            if ev is not None:
                ev.append(ExtraTurn(seat))
            self._settle(ev, False)
        else:
            self._extra = False
            self._cur = self._next_seat(seat)
            self._settle(ev, True)

    def _draw(self, seat: int, ev: list[Event] | None) -> None:
        pile = self._pile
        pos = self._pos
        rng = self._rng
        if rng is not None and self._rng_shared:  # its own copy, before the first draw
            rng = self._rng = _twin(rng)
            self._rng_shared = False
        if rng is not None:  # lazy shuffle: fix this position now
            j = pos + int(rng.random() * (len(pile) - pos))
            pile[pos], pile[j] = pile[j], pile[pos]
        self._hands[seat][pile[pos]] += 1
        self._pos = pos + 1
        self._sizes[seat] += 1
        self._extra = False
        if ev is not None:
            ev.append(CardDrawn(seat, len(pile) - pos - 1))
        self._cur = self._next_seat(seat)
        self._settle(ev, True)

    def _quit_seat(
        self, seat: int, forced: ForcedQuitReason | None, ev: list[Event] | None
    ) -> bool:
        """Take ``seat`` out of the round; True if that ended the round."""
        self._quit[seat] = True
        self._active -= 1
        self._last_quitter = seat
        self._extra = False
        if ev is not None:
            ev.append(PlayerQuit(seat) if forced is None else ForcedQuit(seat, forced))
        if self._active == 0:
            self._end_round(None, ev)
            return True
        self._cur = self._next_seat(seat)
        return False

    def _end_round(self, emptier: int | None, ev: list[Event] | None) -> None:
        """Score the round (docs/rules.md, "The end of a round"), then end the game or deal
        again."""
        self._extra = False
        self._cur = None
        if self._sim:
            return
        rs = self._ruleset
        results = []
        for s in range(self._n):
            before = self._scores[s]
            if s == emptier:
                penalty, returned = 0, rs.token_return(before)
            else:
                penalty, returned = rs.penalty_of_counts(self._hands[s]), 0
            after = before + penalty - returned
            self._scores[s] = after
            if ev is not None:
                results.append(
                    SeatRoundResult(
                        s,
                        hand_cards(self._hands[s]),
                        penalty,
                        s == emptier,
                        returned,
                        before,
                        after,
                    )
                )
        if ev is not None:
            ended_by = RoundEndReason.ALL_QUIT if emptier is None else RoundEndReason.EMPTY_HAND
            ev.append(RoundEnded(self._round, ended_by, tuple(results)))
        if max(self._scores) >= self._target:
            self._over = True
            if ev is not None:
                ev.append(GameEnded(tuple(self._scores), self.winners))
            return
        start = emptier if emptier is not None else self._last_quitter
        assert start is not None
        self._deal(self._round + 1, start, round_rng(self._seed, self._round + 1), ev)

    # ----------------------------------------------------------------- copies

    def _draw_order(self) -> list[int]:
        """The remaining draw pile, next card first. The first call in a round completes the
        lazy shuffle for good, on the round's RNG stream, so the future is the one it would
        have been: from then on this game's draws, copies and saves need no RNG (a hosted
        game saves after every move)."""
        if self._rng is not None:
            self._fix_draw_pile()
        return self._pile[self._pos :]

    def _fix_draw_pile(self) -> None:
        rng = self._rng
        assert rng is not None
        if self._rng_shared:  # a clone's RNG: the other game still draws from it
            rng = _twin(rng)
        pile, m = self._pile, len(self._pile)
        for pos in range(self._pos, m):
            j = pos + int(rng.random() * (m - pos))
            pile[pos], pile[j] = pile[j], pile[pos]
        self._rng, self._rng_shared = None, False

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats with the fewest points once the game is over (ties share); else ()."""
        if not self._over:
            return ()
        low = min(self._scores)
        return tuple(s for s, v in enumerate(self._scores) if v == low)

    def _snapshot(self) -> tuple[object, ...]:
        """Everything that decides the game's future, for comparing two games. (It completes
        the round's shuffle, as a save does: the future stays the same.)"""
        return (
            self._ruleset.name, self._n, self._seed, self._target, self._round,
            tuple(self._scores), self._over, self._cur, self._extra, self._last_quitter,
            tuple(self._quit), tuple(map(tuple, self._hands)), tuple(self._draw_order()),
            tuple(self._discard),
        )

    def clone(self) -> Self:
        """An independent copy that plays on exactly as this game would (a draft for a move,
        every move: each list copied by its kind, not element by element with a type test,
        which was most of a hosted move's engine time)."""
        other = type(self).__new__(type(self))
        for name in _SHARED:
            setattr(other, name, getattr(self, name))
        for name in _COPIED:
            setattr(other, name, getattr(self, name)[:])
        other._hands = [hand[:] for hand in self._hands]
        # Most moves draw nothing: the RNG is shared until either game draws (`_draw`).
        self._rng_shared = other._rng_shared = self._rng is not None
        return other


# How `clone` copies each attribute: values, and lists no move changes in place (the deck a
# round's pile is dealt from, as a copy), are shared; the lists moves change are copied.
_COPIED = ("_discard", "_pile", "_quit", "_scores", "_sizes")
_SHARED = tuple(name for name in GameCore.__slots__ if name not in (*_COPIED, "_hands"))


def _twin(rng: random.Random) -> random.Random:
    """A Random in `rng`'s state; half what `copy.copy` costs (it seeds the new one first)."""
    twin = random.Random.__new__(random.Random)
    twin.setstate(rng.getstate())
    return twin
