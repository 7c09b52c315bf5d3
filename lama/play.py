"""A game of LAMA in the terminal: you against 1 to 5 computer players.

The loop talks through ``input_fn`` / ``output_fn`` (``input`` and ``print`` by default) so
tests can script a whole session. It shows you only what your seat's `Observation` holds and
narrates the engine's events; it never re-derives a rule the engine already decides.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from lama.actions import DRAW, QUIT, Action, Play
from lama.ai import Policy, get_policy
from lama.cards import Card, CardKind
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
    RoundStarted,
)
from lama.game import Game
from lama.observation import Observation
from lama.rules import RULESETS, get_ruleset
from lama.terminal_text import HELP, card_name, drawn_card, rules_summary, tokens_text

InputFn = Callable[[str], str]
T = TypeVar("T")
OutputFn = Callable[[str], None]

#: The Discord bot calls the random policy "easy"; accept both words here too.
LEVELS = {"easy": "random", "random": "random", "normal": "normal", "hard": "hard"}
AI_NAMES = ("Alpaca", "Vicuña", "Guanaco", "Camelia", "Dromedary")
class TerminalGame:
    """One game: seat 0 is you, seats 1.. are computer players."""

    def __init__(
        self,
        game: Game,
        policies: Sequence[Policy | None],
        names: Sequence[str],
        rng: random.Random,
        input_fn: InputFn = input,
        output_fn: OutputFn = print,
    ) -> None:
        self.game = game
        self.ruleset = game.ruleset
        self.policies = policies
        self.names = names
        self.rng = rng
        self.input = input_fn
        self.out = output_fn
        self.me = 0

    # ------------------------------------------------------------------ main loop

    def run(self) -> int:
        """Play to the end. Returns 0 when the game ended, 1 when the player left."""
        try:
            self.out(
                f"LAMA ({self.ruleset.name}) to {self.game.target} points. "
                "Type h for help, ? for the rules."
            )
            self._round_started(self.game.round_number, self.game.current_seat)
            while not self.game.is_over:
                seat = self.game.current_seat
                assert seat is not None
                policy = self.policies[seat]
                if policy is None:
                    if not self._human_turn():
                        self.out("Bye! (game left unfinished)")
                        return 1
                else:
                    action = policy.choose(self.game.observation(seat), self.rng)
                    self._narrate(self.game.apply(seat, action))
        except (EOFError, KeyboardInterrupt):
            self.out("\nBye! (game left unfinished)")
            return 1
        return 0

    def _human_turn(self) -> bool:
        """Ask until a legal action is taken; False if the player wants to leave."""
        obs = self.game.observation(self.me)
        self.out(self.table(obs))
        self.out(self.hand_line(obs))
        while True:
            raw = self.input(self._prompt(obs)).strip()
            command = raw.lower()
            if command in ("exit", "leave", "bye"):
                return False
            if command in ("h", "help"):
                self.out(HELP)
                continue
            if command == "?":
                self.out(rules_summary(self.ruleset))
                continue
            if command in ("t", "table"):
                self.out(self.table(obs))
                self.out(self.hand_line(obs))
                continue
            action, problem = self.parse(raw, obs)
            if action is None:
                self.out(problem)
                continue
            before = obs.hand
            try:
                events = self.game.apply(self.me, action)
            except IllegalAction as e:  # parse() checks first; this is a second safety net
                self.out(self.explain(e, obs))
                continue
            self._narrate(events, hand_before=before)
            return True

    def _prompt(self, obs: Observation) -> str:
        options = []
        if obs.legal_plays:
            options.append("p <n> play")
        if obs.can_draw:
            options.append("d draw")
        options.append("q quit round")
        extra = " (extra turn)" if obs.extra_turn else ""
        return f"Your move{extra} [{', '.join(options)}, h help]: "

    # ------------------------------------------------------------------ input

    def parse(self, raw: str, obs: Observation) -> tuple[Action | None, str]:
        """The action a command stands for, or None and why it can't be done."""
        words = raw.lower().split()
        if not words:
            return None, "Type a command: p <number> to play, d to draw, q to quit, h for help."
        head, rest = words[0], words[1:]
        if head in ("d", "draw"):
            if obs.can_draw:
                return DRAW, ""
            return None, self._why_no_draw(obs)
        if head in ("q", "quit"):
            return QUIT, ""
        if head in ("p", "play"):
            if len(rest) != 1:
                return None, "Say which card: p <number>, for example p 2 (h for help)."
            target = rest[0]
        elif len(words) == 1:
            target = head
        else:
            return None, f"I don't know {raw.strip()!r}. Type h for help."
        card = self._card_from(target, obs)
        if isinstance(card, str):
            return None, card
        if card not in obs.legal_plays:
            return None, self._why_not_playable(card, obs)
        return Play(card), ""

    def _card_from(self, word: str, obs: Observation) -> Card | str:
        hand = obs.hand
        if word.isdigit():
            n = int(word)
            if 1 <= n <= len(hand):
                return hand[n - 1]
            return f"You have {len(hand)} cards: pick a number from 1 to {len(hand)}."
        try:
            card = Card.from_code(word)
        except ValueError:
            return f"I don't know {word!r}. Type h for help."
        if card not in hand:
            return f"You don't have a {card_name(card, self.ruleset)}."
        return card

    def _why_no_draw(self, obs: Observation) -> str:
        if obs.draw_pile_size == 0:
            why = "the draw pile is empty"
        else:
            why = "everyone else has quit this round, so you play on alone"
        return f"You can't draw: {why}. " + self._what_you_can_do(obs)

    def _why_not_playable(self, card: Card, obs: Observation) -> str:
        top = obs.top_card
        return (
            f"You can't play {card_name(card, self.ruleset)} on "
            f"{card_name(top, self.ruleset)}: {self._follow_rule(top)}. "
            + self._what_you_can_do(obs)
        )

    def _follow_rule(self, top: Card) -> str:
        llama = card_name(Card(CardKind.LLAMA), self.ruleset)
        if top.is_llama:
            rule = f"on a {card_name(top, self.ruleset)} only a {llama} or a 1 may follow"
        elif top.value == 6:
            rule = f"on a 6 only a 6 or a {llama} may follow"
        else:
            v = top.value
            rule = f"on a {v} only a {v} or a {v + 1} may follow"  # type: ignore[operator]
        if self.ruleset.wild_cards and top.kind is not CardKind.PINK_LLAMA:
            rule += " (or the pink llama)"
        return rule

    def _what_you_can_do(self, obs: Observation) -> str:
        if obs.legal_plays:
            numbers = [
                f"{card_name(c, self.ruleset)} (#{obs.hand.index(c) + 1})" for c in obs.legal_plays
            ]
            return "Playable now: " + ", ".join(numbers) + "."
        if obs.can_draw:
            return "Nothing is playable: draw (d) or quit (q)."
        return "Nothing is playable: you can only quit (q)."

    def explain(self, error: IllegalAction, obs: Observation) -> str:
        if error.reason is Reason.CARD_NOT_PLAYABLE and error.card is not None:
            return self._why_not_playable(error.card, obs)
        if error.reason in (Reason.DRAW_PILE_EMPTY, Reason.DRAW_ALONE):
            return self._why_no_draw(obs)
        return f"That is not allowed now ({error.reason.value})."

    # ------------------------------------------------------------------ rendering

    def table(self, obs: Observation) -> str:
        lines = [
            f"--- Round {obs.round_number} · top card: {card_name(obs.top_card, self.ruleset)}"
            f" · draw pile: {obs.draw_pile_size} card{'s' if obs.draw_pile_size != 1 else ''}"
        ]
        width = max(len(n) for n in self.names)
        for s in range(obs.num_seats):
            status = "quit" if obs.has_quit[s] else f"{obs.hand_sizes[s]} cards"
            turn = "  <- on turn" if s == obs.current_seat else ""
            score = obs.scores[s]
            lines.append(
                f"  {self.names[s]:<{width}}  {status:<9} {score:>3} points "
                f"({tokens_text(score, self.ruleset)}){turn}"
            )
        return "\n".join(lines)

    def hand_line(self, obs: Observation) -> str:
        parts = []
        for i, c in enumerate(obs.hand, 1):
            mark = "*" if c in obs.legal_plays else ""
            parts.append(f"{i}:{c.code}{mark}")
        penalty = self.ruleset.hand_penalty(obs.hand)
        return f"Your hand  {'  '.join(parts)}   (scores {penalty} now; * = playable)"

    def _narrate(self, events: list[Event], hand_before: tuple[Card, ...] = ()) -> None:
        for e in events:
            if isinstance(e, CardPlayed):
                left = "last card!" if e.cards_left == 0 else f"{e.cards_left} left"
                self.out(
                    f"{self._who(e.seat)} play{self._s(e.seat)} "
                    f"{card_name(e.card, self.ruleset)} ({left})"
                )
            elif isinstance(e, CardDrawn):
                if e.seat == self.me:
                    new = drawn_card(hand_before, self.game.hand(self.me))
                    what = f"a {card_name(new, self.ruleset)}" if new else "a card"
                    self.out(f"You draw {what} ({e.draw_pile_left} left in the pile)")
                else:
                    self.out(
                        f"{self._who(e.seat)} draws a card ({e.draw_pile_left} left in the pile)"
                    )
            elif isinstance(e, PlayerQuit):
                self.out(f"{self._who(e.seat)} quit{self._s(e.seat)} the round")
            elif isinstance(e, ForcedQuit):
                why = (
                    "no playable card and the pile is empty"
                    if e.reason is ForcedQuitReason.PILE_EMPTY
                    else "no playable card and nobody left to play against"
                )
                self.out(f"{self._who(e.seat)} must quit: {why}")
            elif isinstance(e, ExtraTurn):
                self.out(f"{self._who(e.seat)} played a plus card: another turn")
            elif isinstance(e, RoundEnded):
                self._round_ended(e)
            elif isinstance(e, RoundStarted):
                self._round_started(e.round_number, e.starting_seat)
            elif isinstance(e, GameEnded):
                self._game_ended(e)

    def _round_started(self, number: int, starter: int | None) -> None:
        top = card_name(self.game.top_card, self.ruleset)
        who = self._who(starter) if starter is not None else "nobody"
        self.out(f"\n=== Round {number}: {who} start{self._s(starter)}, the top card is {top}")

    def _round_ended(self, e: RoundEnded) -> None:
        self.out(f"\n=== Round {e.round_number} is over")
        width = max(len(n) for n in self.names)
        for r in e.results:
            hand = " ".join(c.code for c in r.hand) or "-"
            if r.emptied_hand:
                what = (
                    f"emptied hand, gives back {r.token_returned}"
                    if r.token_returned
                    else "emptied hand"
                )
            else:
                what = f"{hand}  +{r.penalty}"
            self.out(
                f"  {self.names[r.seat]:<{width}}  {what:<28} {r.score_before:>3} -> "
                f"{r.score_after:>3} ({tokens_text(r.score_after, self.ruleset)})"
            )

    def _game_ended(self, e: GameEnded) -> None:
        winners = [self.names[s] for s in e.winners]
        if self.me in e.winners:
            verdict = "You win!" if len(winners) == 1 else "You share the win!"
        else:
            verdict = " and ".join(winners) + (" wins." if len(winners) == 1 else " share the win.")
        ranking = sorted(range(len(e.scores)), key=lambda s: e.scores[s])
        self.out("\n=== Game over. " + verdict)
        for s in ranking:
            self.out(f"  {self.names[s]}: {e.scores[s]} points")

    def _who(self, seat: int | None) -> str:
        return "You" if seat == self.me else self.names[seat]  # type: ignore[index]

    def _s(self, seat: int | None) -> str:
        return "" if seat == self.me else "s"


# ---------------------------------------------------------------------- setup


def _ask(
    input_fn: InputFn, output_fn: OutputFn, prompt: str, options: Mapping[str, T], default: T
) -> T:
    while True:
        answer = input_fn(prompt).strip().lower()
        if not answer:
            return default
        if answer in options:
            return options[answer]
        output_fn(f"Please answer one of: {', '.join(sorted(set(options)))}.")


def play(
    variant: str | None = None,
    ais: int | None = None,
    level: str | None = None,
    seed: int | None = None,
    target: int | None = None,
    input_fn: InputFn = input,
    output_fn: OutputFn = print,
) -> int:
    """Set up (asking for whatever was not given) and play one game."""
    try:
        if variant is None:
            variant = _ask(
                input_fn,
                output_fn,
                "Variant: classic, party or komarami? [classic] ",
                {n: n for n in RULESETS},
                "classic",
            )
        if ais is None:
            ais = _ask(
                input_fn,
                output_fn,
                "How many computer players, 1-5? [3] ",
                {str(i): i for i in range(1, 6)},
                3,
            )
        if level is None:
            level = _ask(
                input_fn,
                output_fn,
                "Level: easy, normal or hard? [normal] ",
                {k: k for k in LEVELS},
                "normal",
            )
    except (EOFError, KeyboardInterrupt):
        output_fn("\nBye!")
        return 1
    ruleset = get_ruleset(variant)
    if not 1 <= ais <= 5:
        raise ValueError("1 to 5 computer players")
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    game = Game.new(ruleset, ais + 1, seed, target)
    policy_name = LEVELS[level]
    policies: list[Policy | None] = [None] + [get_policy(policy_name) for _ in range(ais)]
    names = ["You"] + [f"{AI_NAMES[i]} ({level})" for i in range(ais)]
    output_fn(
        f"(to deal the same cards again: python -m lama play --variant {ruleset.name} "
        f"--ais {ais} --level {level} --seed {seed} --target {game.target})"
    )
    session = TerminalGame(game, policies, names, random.Random(seed), input_fn, output_fn)
    return session.run()


def run_from_args(args: argparse.Namespace) -> int:
    return play(args.variant, args.ais, args.level, args.seed, args.target)


__all__ = ["TerminalGame", "card_name", "play", "rules_summary", "run_from_args", "tokens_text"]
