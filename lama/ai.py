"""Computer players. A policy sees only an `Observation` and a seeded RNG it is given.

Three levels, registered in `POLICIES`: ``random`` (uniform over the distinct legal
actions), ``normal`` (a fixed greedy rule, the reference opponent) and ``hard`` (Monte-Carlo
search over the hidden cards, see docs/ai.md).
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from lama.actions import DRAW, QUIT, Action, Draw, Play
from lama.cards import CARDS, NUM_CARD_TYPES, Card
from lama.observation import Observation
from lama.rules import get_ruleset


@runtime_checkable
class Policy(Protocol):
    name: str

    def choose(self, observation: Observation, rng: random.Random) -> Action:
        """Pick a legal action for ``observation.seat`` (called only on that seat's turn)."""
        ...


class RandomPolicy:
    """Uniform over the distinct legal actions: each distinct playable card (a party plus
    card is distinct from the plain card of its value), Draw if allowed, and Quit.

    Uses exactly one ``rng.random()`` per decision; `lama.simulate` relies on that to run an
    equivalent fast path without building observations."""

    name = "random"

    def choose(self, observation: Observation, rng: random.Random) -> Action:
        plays = observation.legal_plays
        k = len(plays)
        i = int(rng.random() * (k + 2 if observation.can_draw else k + 1))
        if i < k:
            return Play(plays[i])
        if i == k and observation.can_draw:
            return DRAW
        return QUIT


class NormalPolicy:
    """The reference opponent (issue 2), exactly: play the playable card with the highest
    penalty (pink > llama > 6 > ... > 1; a plus card before the plain card of its value);
    with nothing playable, draw if allowed and the hand would score more than 5; else quit.
    Uses no randomness."""

    name = "normal"

    def choose(self, observation: Observation, rng: random.Random) -> Action:
        plays = observation.legal_plays
        if plays:
            return Play(max(plays, key=_penalty_rank))
        if (
            observation.can_draw
            and get_ruleset(observation.variant).hand_penalty(observation.hand) > 5
        ):
            return DRAW
        return QUIT


class HardPolicy:
    """Monte-Carlo search on determinized deals (see docs/ai.md).

    For each distinct legal action it samples ``samples`` guesses of the hidden cards that
    agree with the observation (the unseen cards, deck minus own hand minus the public
    discard pile, dealt to the opponents by their hand sizes, the rest as the draw pile), plays
    the round out from there with every seat following `NormalPolicy`, and picks the action
    with the best mean outcome. The same guesses are used for every action (common random
    numbers), so the comparison is sharper than the sample count suggests. The outcome is the
    round's effect on the game: the opponents' mean score change minus ours, plus a bonus
    for winning and a malus for losing when the round ends the game.

    Deterministic for a given ``rng`` state; never returns an illegal action."""

    name = "hard"
    samples = 128

    def choose(self, observation: Observation, rng: random.Random) -> Action:
        obs = observation
        plays = obs.legal_plays
        hand = obs.hand
        if len(hand) == 1 and plays:
            return Play(plays[0])  # going out is never worse than anything else
        actions: list[Action] = [Play(c) for c in plays]
        if obs.can_draw:
            actions.append(DRAW)
        actions.append(QUIT)
        if len(actions) == 1:
            return QUIT
        table = _tables(obs.variant)
        worlds = _worlds(obs, table, rng, self.samples)
        totals = [0.0] * len(actions)
        for world in worlds:
            for k, action in enumerate(actions):
                totals[k] += _evaluate(obs, table, world, action)
        best = max(range(len(actions)), key=totals.__getitem__)
        return actions[best]


def _penalty_rank(card: Card) -> int:
    return card.penalty_rank


POLICIES: dict[str, type] = {"random": RandomPolicy, "normal": NormalPolicy, "hard": HardPolicy}


def get_policy(name: str | Policy) -> Policy:
    """A new policy by registry name, or the policy itself."""
    if not isinstance(name, str):
        return name
    try:
        return POLICIES[name.strip().lower()]()
    except KeyError:
        raise ValueError(f"unknown policy {name!r}; known: {', '.join(POLICIES)}") from None


# --------------------------------------------------------------------- rollouts for `hard`
# A bare-bones round on card-index counts, every seat playing `normal`. It re-implements the
# turn rules of docs/rules.md on purpose (the engine is built for checked, evented play; this is
# the inner loop of a search); tests/lama/test_ai_hard.py checks it against `Game`.


class _Tables:
    __slots__ = (
        "best_play",
        "deck_counts",
        "extra",
        "over5",
        "penalty",
        "ruleset",
        "token_return",
    )

    def __init__(self, variant: str) -> None:
        rs = get_ruleset(variant)
        self.ruleset = rs
        self.penalty = rs.penalty_of_counts
        self.token_return = rs.token_return
        self.deck_counts = rs.deck_counts
        self.extra = rs.extra_turn_index
        # normal's draw test, "hand scores more than 5", is the rollouts' hottest call.
        big = rs.llama_penalty > 5 and rs.pink_penalty > 5
        self.over5 = _over5 if big else (lambda hand: rs.penalty_of_counts(hand) > 5)
        # For each top card: the playable card indices, most costly first (normal's order).
        self.best_play = tuple(
            tuple(sorted(f, key=lambda i: CARDS[i].penalty_rank, reverse=True))
            for f in rs.followers
        )


_TABLES: dict[str, _Tables] = {}


def _tables(variant: str) -> _Tables:
    t = _TABLES.get(variant)
    if t is None:
        t = _TABLES[variant] = _Tables(variant)
    return t


def _over5(h: list[int]) -> bool:
    """``penalty_of_counts(h) > 5`` for rulesets whose llamas score more than 5."""
    if h[10] or h[11] or h[12] or h[13]:  # a 6 or any llama
        return True
    return (
        (1 if h[0] or h[1] else 0)
        + (2 if h[2] or h[3] else 0)
        + (3 if h[4] or h[5] else 0)
        + (4 if h[6] or h[7] else 0)
        + (5 if h[8] or h[9] else 0)
    ) > 5


def _worlds(
    obs: Observation, table: _Tables, rng: random.Random, samples: int
) -> list[tuple[list[list[int]], list[int]]]:
    """``samples`` guesses of (every seat's hand as counts, draw pile with the next card
    last), consistent with what ``obs.seat`` can see."""
    left = list(table.deck_counts)
    for c in obs.hand:
        left[c.index] -= 1
    for c in obs.discard_pile:
        left[c.index] -= 1
    unseen = [i for i in range(NUM_CARD_TYPES) for _ in range(left[i])]
    me = obs.seat
    mine = [0] * NUM_CARD_TYPES
    for c in obs.hand:
        mine[c.index] += 1
    sizes = obs.hand_sizes
    rand = rng.random
    m = len(unseen)
    out = []
    for _ in range(samples):
        for i in range(m - 1, 0, -1):  # Fisher-Yates on rng.random(): cheaper than shuffle()
            j = int(rand() * (i + 1))
            unseen[i], unseen[j] = unseen[j], unseen[i]
        hands = []
        pos = 0
        for s, size in enumerate(sizes):
            if s == me:
                hands.append(mine)
                continue
            h = [0] * NUM_CARD_TYPES
            for index in unseen[pos : pos + size]:
                h[index] += 1
            pos += size
            hands.append(h)
        out.append((hands, unseen[pos:]))
    return out


def _evaluate(
    obs: Observation, table: _Tables, world: tuple[list[list[int]], list[int]], action: Action
) -> float:
    """Utility for ``obs.seat`` of doing ``action`` in ``world`` and playing on as `normal`."""
    hands = [h[:] for h in world[0]]
    pile = world[1][:]
    sizes = list(obs.hand_sizes)
    quit_ = list(obs.has_quit)
    me = obs.seat
    n = len(sizes)
    active = n - sum(quit_)
    cur = me
    top = obs.top_card.index
    emptier = -1
    extra = table.extra
    if isinstance(action, Play):
        c = action.card.index
        hands[me][c] -= 1
        sizes[me] -= 1
        top = c
        if sizes[me] == 0:
            emptier = me
        elif not extra[c]:
            cur = _next(quit_, me, n)
    elif isinstance(action, Draw):
        hands[me][pile.pop()] += 1
        sizes[me] += 1
        cur = _next(quit_, me, n)
    else:
        quit_[me] = True
        active -= 1
        if active:
            cur = _next(quit_, me, n)
    if emptier < 0 and active:
        emptier = _play_out(table, hands, sizes, quit_, active, top, pile, cur)
    return _utility(obs, table, hands, emptier)


def _next(quit_: list[bool], seat: int, n: int) -> int:
    s = seat
    while True:
        s += 1
        if s == n:
            s = 0
        if not quit_[s]:
            return s


def _play_out(
    table: _Tables,
    hands: list[list[int]],
    sizes: list[int],
    quit_: list[bool],
    active: int,
    top: int,
    pile: list[int],
    cur: int,
) -> int:
    """Play the round to its end with every seat following `normal`; returns the seat that
    emptied its hand, or -1 if everyone quit."""
    best_play = table.best_play
    extra = table.extra
    over5 = table.over5
    n = len(sizes)
    while True:
        hand = hands[cur]
        for c in best_play[top]:
            if hand[c]:
                hand[c] -= 1
                top = c
                size = sizes[cur] - 1
                sizes[cur] = size
                if size == 0:
                    return cur
                if extra[c]:
                    break
                cur += 1
                if cur == n:
                    cur = 0
                while quit_[cur]:
                    cur += 1
                    if cur == n:
                        cur = 0
                break
        else:
            if active > 1 and pile and over5(hand):
                hand[pile.pop()] += 1
                sizes[cur] += 1
            else:
                quit_[cur] = True
                active -= 1
                if not active:
                    return -1
            cur += 1
            if cur == n:
                cur = 0
            while quit_[cur]:
                cur += 1
                if cur == n:
                    cur = 0


def _utility(obs: Observation, table: _Tables, hands: list[list[int]], emptier: int) -> float:
    scores = obs.scores
    n = len(scores)
    me = obs.seat
    new = [
        scores[s] - table.token_return(scores[s]) if s == emptier else scores[s] + table.penalty(h)
        for s, h in enumerate(hands)
    ]
    mine = new[me] - scores[me]
    others = (sum(new) - new[me] - sum(scores) + scores[me]) / (n - 1)
    u = others - mine
    if max(new) >= obs.target:
        u += WIN_BONUS if new[me] == min(new) else -WIN_BONUS
    return u


WIN_BONUS = 10.0
