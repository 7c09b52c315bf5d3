"""The LAMA state machine: one `Game` holds the current round and the running scores.

Design notes
- Internally cards are small ints (``Card.index``) and a hand is a list of 14 counts, so
  legality is a lookup in the ruleset's ``followers`` table and scoring is a loop over counts.
- Every public mutation goes through `Game.apply`, which checks legality first and raises
  `IllegalAction` without changing anything. The private ``_play/_draw/_quit`` helpers take an
  event list, or None when nobody needs events (the simulator's fast path).
- Randomness: round ``r`` of a game with seed ``s`` is shuffled by its own
  ``random.Random(s * 2**32 + r)``; no global random and no RNG state to save between rounds.
  The shuffle is a lazy Fisher-Yates: a card's position is fixed only when it is taken, which
  saves most of the shuffling work in short rounds. `to_dict` finishes the shuffle on a copy of
  the RNG, so a saved game has its draw pile in explicit order and continues identically.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Sequence
from typing import Any

from lama.actions import (
    Action,
    Draw,
    Play,
    Quit,
    action_from_dict,
    action_to_dict,
)
from lama.cards import CARDS, NUM_CARD_TYPES, Card
from lama.errors import IllegalAction, Reason
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
from lama.observation import Observation
from lama.rules import Ruleset, get_ruleset

__all__ = ["FORMAT", "Game", "action_from_dict", "action_to_dict"]

FORMAT = 1
HAND_SIZE = 6
MIN_SEATS = 2
MAX_SEATS = 6
_DRAW = Draw()
_QUIT = Quit()


def round_rng(seed: int, round_number: int) -> random.Random:
    """The RNG that shuffles (and, in round 1, picks the starting seat of) one round."""
    return random.Random(seed * 2**32 + round_number)


def _hand_cards(counts: Sequence[int]) -> tuple[Card, ...]:
    out: list[Card] = []
    for i, k in enumerate(counts):
        if k:
            out += _REPEAT[i][:k] if k <= 8 else [CARDS[i]] * k
    return tuple(out)


_REPEAT = tuple([c] * 8 for c in CARDS)


class Game:
    """A game of LAMA. Build with `Game.new`, `Game.replay` or `Game.from_dict`."""

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
        self._last_quitter: int | None = None
        self._sim = False  # simulator mode: a finished round is not scored and not re-dealt

    # ----------------------------------------------------------------- construction

    @classmethod
    def new(
        cls,
        ruleset_or_name: Ruleset | str,
        num_seats: int,
        seed: int,
        target: int | None = None,
    ) -> Game:
        """Deal round 1. The starting seat is drawn from the seed."""
        ruleset = get_ruleset(ruleset_or_name)
        game = cls(ruleset, num_seats, seed, ruleset.target if target is None else target)
        rng = round_rng(seed, 1)
        game._deal(1, int(rng.random() * num_seats), rng, None)
        return game

    @classmethod
    def replay(
        cls,
        ruleset_name: Ruleset | str,
        num_seats: int,
        seed: int,
        moves: Iterable[tuple[int, Action]],
        target: int | None = None,
    ) -> Game:
        """Rebuild a game from its seed and move log (raises IllegalAction on a bad log)."""
        game = cls.new(ruleset_name, num_seats, seed, target)
        for seat, action in moves:
            game.apply(seat, action)
        return game

    # ----------------------------------------------------------------- public state

    @property
    def ruleset(self) -> Ruleset:
        return self._ruleset

    @property
    def variant(self) -> str:
        return self._ruleset.name

    @property
    def num_seats(self) -> int:
        return self._n

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def target(self) -> int:
        return self._target

    @property
    def round_number(self) -> int:
        return self._round

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._scores)

    @property
    def current_seat(self) -> int | None:
        return self._cur

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats with the fewest points once the game is over (ties share); else ()."""
        if not self._over:
            return ()
        low = min(self._scores)
        return tuple(s for s, v in enumerate(self._scores) if v == low)

    @property
    def extra_turn(self) -> bool:
        return self._extra

    @property
    def draw_pile_size(self) -> int:
        return len(self._pile) - self._pos

    @property
    def top_card(self) -> Card:
        return CARDS[self._top]

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        return tuple([CARDS[i] for i in self._discard])

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(self._sizes)

    @property
    def last_quitter(self) -> int | None:
        return self._last_quitter

    def hand(self, seat: int) -> tuple[Card, ...]:
        """A seat's hand, sorted. Secret: show it only to that seat."""
        self._check_seat(seat)
        return _hand_cards(self._hands[seat])

    def has_quit(self, seat: int) -> bool:
        self._check_seat(seat)
        return self._quit[seat]

    def legal_plays(self, seat: int) -> tuple[Card, ...]:
        """Distinct cards ``seat`` may play now; () when it is not their turn."""
        if seat != self._cur or self._over:
            return ()
        hand = self._hands[seat]
        return tuple([CARDS[c] for c in self._followers[self._top] if hand[c]])

    def can_draw(self, seat: int) -> bool:
        return (
            seat == self._cur
            and not self._over
            and self._active > 1
            and self._pos < len(self._pile)
        )

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Distinct legal actions: plays (sorted), then Draw if allowed, then Quit."""
        if seat != self._cur or self._over:
            return ()
        actions: list[Action] = [Play(c) for c in self.legal_plays(seat)]
        if self.can_draw(seat):
            actions.append(_DRAW)
        # Quit is always allowed on turn, even for the last player left in the round
        # (RULES.md: "A player may quit even when they could play").
        actions.append(_QUIT)
        return tuple(actions)

    def observation(self, seat: int) -> Observation:
        self._check_seat(seat)
        mine = seat == self._cur and not self._over
        hand = self._hands[seat]
        return Observation(
            seat=seat,
            variant=self._ruleset.name,
            round_number=self._round,
            hand=_hand_cards(hand),
            legal_plays=tuple([CARDS[c] for c in self._followers[self._top] if hand[c]])
            if mine
            else (),
            can_draw=mine and self._active > 1 and self._pos < len(self._pile),
            is_my_turn=mine,
            current_seat=self._cur,
            top_card=CARDS[self._top],
            discard_pile=tuple(map(CARDS.__getitem__, self._discard)),
            draw_pile_size=len(self._pile) - self._pos,
            hand_sizes=tuple(self._sizes),
            has_quit=tuple(self._quit),
            scores=tuple(self._scores),
            target=self._target,
            extra_turn=self._extra and mine,
            num_seats=self._n,
            is_over=self._over,
        )

    def _check_seat(self, seat: int) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self._n:
            raise IllegalAction(Reason.NO_SUCH_SEAT, seat if isinstance(seat, int) else None)

    # ----------------------------------------------------------------- moves

    def check(self, seat: int, action: Action, round_number: int | None = None) -> None:
        """Raise `IllegalAction` if ``apply(seat, action)`` would be rejected."""
        self._check(seat, action, round_number)

    def _check(self, seat: int, action: Action, round_number: int | None) -> int:
        """Validate; return the card index for a Play (else -1)."""
        if not isinstance(action, Play | Draw | Quit):
            raise TypeError(f"not an action: {action!r}")
        if self._over:
            raise IllegalAction(Reason.GAME_OVER, seat if isinstance(seat, int) else None)
        self._check_seat(seat)
        if round_number is not None and round_number != self._round:
            raise IllegalAction(Reason.ROUND_OVER, seat)
        if isinstance(action, Play):
            card = action.card
            if not isinstance(card, Card):
                raise TypeError(f"Play needs a Card, got {card!r}")
            if not self._ruleset.deck_counts[card.index]:
                raise IllegalAction(Reason.CARD_NOT_IN_GAME, seat, CARDS[card.index])
        if self._quit[seat]:
            raise IllegalAction(Reason.ALREADY_QUIT, seat)
        if seat != self._cur:
            raise IllegalAction(Reason.NOT_YOUR_TURN, seat)
        if isinstance(action, Play):
            c = action.card.index
            if not self._hands[seat][c]:
                raise IllegalAction(Reason.CARD_NOT_IN_HAND, seat, CARDS[c])
            if c not in self._followers[self._top]:
                raise IllegalAction(
                    Reason.CARD_NOT_PLAYABLE, seat, CARDS[c], self.legal_plays(seat)
                )
            return c
        if isinstance(action, Draw):
            if self._active == 1:
                raise IllegalAction(Reason.DRAW_ALONE, seat)
            if self._pos >= len(self._pile):
                raise IllegalAction(Reason.DRAW_PILE_EMPTY, seat)
        return -1

    def apply(self, seat: int, action: Action, round_number: int | None = None) -> list[Event]:
        """Do ``action`` for ``seat`` and everything that follows from it automatically
        (forced quits, extra turns, scoring, the next deal). Returns the events in order.

        ``round_number``, if given, must be the current round (else ROUND_OVER): lets a
        button from an old round be refused. Raises `IllegalAction` and changes nothing
        when the action is not allowed."""
        c = self._check(seat, action, round_number)
        events: list[Event] = []
        if c >= 0:
            self._play(seat, c, events)
        elif isinstance(action, Draw):
            self._draw(seat, events)
        else:
            if not self._quit_seat(seat, None, events):
                self._settle(events, True)
        return events

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
        self._rng = rng
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
        """Quit for players who have no choice (RULES.md "Forced quit"), possibly in a
        chain, then say who is on turn."""
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
        """Score the round (RULES.md "End of a round"), then end the game or deal again."""
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
                        _hand_cards(self._hands[s]),
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

    # ----------------------------------------------------------------- persistence

    def _draw_order(self) -> list[int]:
        """The remaining draw pile, next card first, with the lazy shuffle completed on a
        copy of the RNG so this game's own future is unchanged."""
        rest = self._pile[self._pos :]
        if self._rng is not None:
            rng = copy.copy(self._rng)
            m = len(rest)
            for pos in range(m):
                j = pos + int(rng.random() * (m - pos))
                rest[pos], rest[j] = rest[j], rest[pos]
        return rest

    def clone(self) -> Game:
        """An independent copy that plays on exactly as this game would (a draft for a move)."""
        other = Game.__new__(Game)
        for name in Game.__slots__:
            value = getattr(self, name)
            if isinstance(value, list):
                value = [list(v) if isinstance(v, list) else v for v in value]
            setattr(other, name, value)
        other._rng = copy.copy(self._rng) if self._rng is not None else None
        return other

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe snapshot (contains every secret hand: store it, never show it)."""
        return {
            "format": FORMAT,
            "variant": self._ruleset.name,
            "num_seats": self._n,
            "seed": self._seed,
            "target": self._target,
            "round_number": self._round,
            "scores": list(self._scores),
            "over": self._over,
            "current_seat": self._cur,
            "extra_turn": self._extra,
            "last_quitter": self._last_quitter,
            "has_quit": list(self._quit),
            "hands": [[c.code for c in _hand_cards(h)] for h in self._hands],
            "draw_pile": [CARDS[c].code for c in self._draw_order()],
            "discard_pile": [CARDS[c].code for c in self._discard],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Game:
        """Inverse of `to_dict`. Raises ValueError on malformed or inconsistent data."""
        from lama.persist import game_from_dict

        return game_from_dict(cls, d)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<Game {self._ruleset.name} seats={self._n} seed={self._seed} "
            f"round={self._round} current={self._cur} scores={self._scores}>"
        )
