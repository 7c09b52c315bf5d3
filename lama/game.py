"""The LAMA state machine: one `Game` holds the current round and the running scores.

Every public mutation goes through `Game.apply`, which checks legality first and raises
`IllegalAction` without changing anything; the mechanics of a move live in `GameCore`
(lama/core.py), saving and loading in lama/persist.py. No global random and no RNG state to
save between rounds: each round is shuffled by its own seeded RNG.
"""

from __future__ import annotations

from collections.abc import Iterable

from lama.actions import (
    Action,
    Draw,
    Play,
    Quit,
    action_from_dict,
    action_to_dict,
)
from lama.cards import CARDS, Card
from lama.core import MAX_SEATS, MIN_SEATS, GameCore, hand_cards, round_rng
from lama.errors import IllegalAction, Reason
from lama.events import Event
from lama.observation import Observation
from lama.rules import Ruleset, get_ruleset

__all__ = ["MAX_SEATS", "MIN_SEATS", "Game", "action_from_dict", "action_to_dict"]

_DRAW = Draw()
_QUIT = Quit()


class Game(GameCore):
    """A game of LAMA. Build with `Game.new`, `Game.replay` or `lama.persist.game_from_dict`."""

    __slots__ = ()

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

    def as_dealt(self, starting_seat: int) -> Game:
        """This round as it was dealt, with `starting_seat` (who began it) on turn: where to
        replay the round's moves from without the rounds before it. Each round is shuffled by
        its own seeded RNG, so the deal needs only the round's number and the scores, which
        are this game's while the round is played (not once the game is over)."""
        if self._over:
            raise ValueError("a finished game's scores include its last round's")
        if self._round == 1:  # round 1 draws its starting seat from the seed
            return type(self).new(self._ruleset, self._n, self._seed, self._target)
        self._check_seat(starting_seat)
        game = type(self)(self._ruleset, self._n, self._seed, self._target)
        game._scores = list(self._scores)
        game._deal(self._round, starting_seat, round_rng(self._seed, self._round), None)
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
    def seat_on_turn(self) -> int:
        """The seat to act now; a finished game has none (IllegalAction GAME_OVER)."""
        if self._cur is None:
            raise IllegalAction(Reason.GAME_OVER, None)
        return self._cur

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
        return hand_cards(self._hands[seat])

    def hand_size(self, seat: int) -> int:
        """How many cards a seat holds (public: every table shows it)."""
        self._check_seat(seat)
        return self._sizes[seat]

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
        # (docs/rules.md, "Your turn" and "Where the printed rules leave a choice").
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
            hand=hand_cards(hand),
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

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self._snapshot() == other._snapshot()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<Game {self._ruleset.name} seats={self._n} seed={self._seed} "
            f"round={self._round} current={self._cur} scores={self._scores}>"
        )
