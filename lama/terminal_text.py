"""What the terminal game says: the rules in brief, card names, tokens, the help text.

English only (the Discord bot has the translations); lama/play.py runs the game loop.
"""

from __future__ import annotations

from lama.cards import Card, CardKind
from lama.rules import Ruleset, TokenKind

TOKEN_WORDS = {TokenKind.PINK: "pink", TokenKind.BLACK: "black", TokenKind.WHITE: "white"}

HELP = """\
Commands on your turn:
  p 3  or  3     play card number 3 of your hand (cards marked * are playable)
  p L  p 4+      play a card by its code (L llama, P pink llama, 4+ plus card)
  d              draw a card
  q              quit this round (your hand still scores)
  t              show the table again
  h              this help        ?   rules summary
  exit           leave the game (Ctrl-D / Ctrl-C work too)"""


def rules_summary(ruleset: Ruleset) -> str:
    llama = "mosquito" if ruleset.name == "komarami" else "llama"
    lines = [
        f"Rules ({ruleset.name}): get rid of your cards; what is left in your hand scores.",
        "  Play a card of the same value as the top card or one higher (3 on 3, 4 on 3).",
        f"  On a 6: a 6 or a {llama}. On a {llama}: a {llama} or a 1.",
    ]
    if ruleset.name == "party":
        lines += [
            "  The pink llama (P) goes on anything; on it only a 1 or a llama.",
            "  After a plus card (1+ .. 6+) you take another full turn.",
        ]
    lines += [
        "  Or draw a card (not when the pile is empty or everyone else has quit),",
        "  or quit the round. The round ends when someone plays their last card",
        "  or everyone has quit.",
        "  Scoring: each distinct number once (5 5 5 scores 5); "
        + (
            "each mosquito 10."
            if ruleset.llama_penalty_each
            else "llamas 10 once" + (", the pink llama 20." if ruleset.name == "party" else ".")
        ),
        "  Empty your hand and you score nothing and give back your most valuable token.",
        f"  The game ends when someone has {ruleset.target}+ points (see the target shown);"
        " fewest points wins.",
    ]
    return "\n".join(lines)


def card_name(card: Card, ruleset: Ruleset) -> str:
    if card.kind is CardKind.PINK_LLAMA:
        return "pink llama"
    if card.kind is CardKind.LLAMA:
        return "mosquito" if ruleset.name == "komarami" else "llama"
    return card.code


def tokens_text(score: int, ruleset: Ruleset) -> str:
    parts = [f"{n} {TOKEN_WORDS[kind]}" for kind, n in ruleset.tokens(score)]
    return " + ".join(parts) if parts else "no tokens"


def drawn_card(before: tuple[Card, ...], after: tuple[Card, ...]) -> Card | None:
    """The card a draw added to a hand, if it can be told from the hands before and after."""
    rest = list(after)
    for c in before:
        if c in rest:
            rest.remove(c)
    return rest[0] if len(rest) == 1 else None
