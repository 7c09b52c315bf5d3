"""A game as JSON, both ways: `game_to_dict` saves it, `game_from_dict` loads it with the
checks that keep a loaded state honest (every card of the deck accounted for, the seat on
turn able to act, and so on). `FORMAT` numbers the layout; the engine reads only its own.

A saved game contains every secret hand: store it, never show it.
"""

from __future__ import annotations

from typing import Any

from lama.cards import CARDS, CODES, NUM_CARD_TYPES, Card
from lama.core import MAX_SEATS, MIN_SEATS
from lama.game import Game
from lama.rules import get_ruleset

FORMAT = 1


def game_to_dict(game: Game) -> dict[str, Any]:
    """A JSON-safe snapshot; `game_from_dict` continues it exactly as the original would."""
    return {
        "format": FORMAT,
        "variant": game._ruleset.name,
        "num_seats": game._n,
        "seed": game._seed,
        "target": game._target,
        "round_number": game._round,
        "scores": list(game._scores),
        "over": game._over,
        "current_seat": game._cur,
        "extra_turn": game._extra,
        "last_quitter": game._last_quitter,
        "has_quit": list(game._quit),
        "hands": [_hand_codes(h) for h in game._hands],
        "draw_pile": [CODES[c] for c in game._draw_order()],
        "discard_pile": [CODES[c] for c in game._discard],
    }


def _hand_codes(counts: list[int]) -> list[str]:
    """A hand's cards as codes, in card order (a hosted game saves after every move)."""
    codes: list[str] = []
    for index, count in enumerate(counts):
        if count:
            codes += [CODES[index]] * count
    return codes


def _int(d: dict[str, Any], key: str, lo: int | None = None, hi: int | None = None) -> int:
    v = d.get(key)
    if not isinstance(v, int) or isinstance(v, bool):
        raise ValueError(f"{key} must be an int, got {v!r}")
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        raise ValueError(f"{key} out of range: {v!r}")
    return v


def _codes(v: Any, what: str) -> list[int]:
    if not isinstance(v, list):
        raise ValueError(f"{what} must be a list of card codes")
    return [Card.from_code(c).index for c in v]


def _bools(v: Any, n: int, what: str) -> list[bool]:
    if not isinstance(v, list) or len(v) != n or not all(isinstance(b, bool) for b in v):
        raise ValueError(f"{what} must be a list of {n} booleans")
    return list(v)


def game_from_dict(d: dict[str, Any]) -> Game:
    """The game `game_to_dict` saved. Raises ValueError on malformed or inconsistent data."""
    if not isinstance(d, dict):
        raise ValueError("a saved game is a dict")
    if d.get("format") != FORMAT:
        raise ValueError(f"unsupported format {d.get('format')!r} (this engine reads {FORMAT})")
    ruleset = get_ruleset(d.get("variant"))  # type: ignore[arg-type]
    n = _int(d, "num_seats", MIN_SEATS, MAX_SEATS)
    game = Game(ruleset, n, _int(d, "seed"), _int(d, "target", 1))
    game._round = _int(d, "round_number", 1)
    game._scores = _scores(d.get("scores"), n)
    _load_cards(game, d)
    game._quit = _bools(d.get("has_quit"), n, "has_quit")
    game._active = n - sum(game._quit)
    lq = d.get("last_quitter")
    if lq is not None and (not isinstance(lq, int) or isinstance(lq, bool) or not 0 <= lq < n):
        raise ValueError("last_quitter must be a seat or null")
    game._last_quitter = lq
    _load_turn(game, d)
    return game


def _scores(scores: Any, n: int) -> list[int]:
    if (
        not isinstance(scores, list)
        or len(scores) != n
        or not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in scores)
    ):
        raise ValueError("scores must be a list of non-negative ints, one per seat")
    return list(scores)


def _load_cards(game: Game, d: dict[str, Any]) -> None:
    """Hands, draw pile and discard pile: together exactly the ruleset's deck."""
    hands_raw = d.get("hands")
    if not isinstance(hands_raw, list) or len(hands_raw) != game._n:
        raise ValueError("hands must be a list with one hand per seat")
    hands = []
    for h in hands_raw:
        counts = [0] * NUM_CARD_TYPES
        for c in _codes(h, "a hand"):
            counts[c] += 1
        hands.append(counts)
    pile = _codes(d.get("draw_pile"), "draw_pile")
    discard = _codes(d.get("discard_pile"), "discard_pile")
    if not discard:
        raise ValueError("the discard pile holds at least the starting card")
    total = [0] * NUM_CARD_TYPES
    for h in hands:
        for i, k in enumerate(h):
            total[i] += k
    for c in pile + discard:
        total[c] += 1
    if tuple(total) != game._ruleset.deck_counts:
        raise ValueError("hands + draw pile + discard pile are not exactly the deck")
    game._hands = hands
    game._sizes = [sum(h) for h in hands]
    game._pile = pile
    game._pos = 0
    game._rng = None  # the pile is in explicit order
    game._discard = discard
    game._top = discard[-1]


def _load_turn(game: Game, d: dict[str, Any]) -> None:
    """Whose turn it is, checked to be a state the engine itself could have reached."""
    over = d.get("over")
    extra = d.get("extra_turn")
    if not isinstance(over, bool) or not isinstance(extra, bool):
        raise ValueError("over and extra_turn must be booleans")
    game._over = over
    game._extra = extra
    cur = d.get("current_seat")
    if over:
        if cur is not None:
            raise ValueError("a finished game has no current seat")
        if max(game._scores) < game._target:
            raise ValueError("a finished game needs a score at or above the target")
        game._cur = None
        return
    if not isinstance(cur, int) or isinstance(cur, bool) or not 0 <= cur < game._n:
        raise ValueError("current_seat must be a seat")
    if game._quit[cur]:
        raise ValueError("the seat on turn has quit")
    if 0 in game._sizes:
        raise ValueError("a player with an empty hand means the round is over")
    ruleset = game._ruleset
    if extra and not (ruleset.plus_extra_turn and CARDS[game._top].plus):
        raise ValueError("extra_turn needs a plus card on top in a variant with extra turns")
    game._cur = cur
    # The seat on turn must have a real choice: otherwise the engine would already have
    # quit for them, and a saved state must look like one the engine can produce.
    if not (game._active > 1 and game._pile) and not any(
        game._hands[cur][c] for c in ruleset.followers[game._top]
    ):
        raise ValueError("the seat on turn has no legal play and may not draw (forced quit)")
