"""Sample `view` objects as the backend sends them (docs/activity.md, the contract): a game in
each status, built from the bot's real words and card names, for the app's own tests."""

from __future__ import annotations

import copy
from typing import Any

import i18n
from i18n.activity import activity_words

NOW = 1_790_000_000.0
ACTIONS = ("play", "draw", "quit", "open_lobby", "join", "add_ai", "start", "rematch")
PLAYERS = [("101", "Alice"), ("102", "Bob"), (None, "Llama-bot 1"), ("104", "Chen")]
CARD_CODES = ("1", "2", "3", "4", "5", "6", "L")


def card(code: str, locale: str, *, variant: str = "classic", playable: bool | None = None):
    """A card as the contract shows it; `value` is the engine's index in its deck order."""
    slug = code.replace("+", "p")
    face: dict[str, Any] = {
        "code": code,
        "value": CARD_CODES.index(code) if code in CARD_CODES else 10 + int(code[0]),
        "art": f"{variant}/{locale}/{slug}.png",
        "name": i18n.card_name(code, variant, locale),
    }
    if playable is not None:
        face["playable"] = playable
        face["label"] = i18n.t("action.play_card", locale,
                               card=i18n.card_phrase(code, variant, locale))
    return face


def can(*allowed: str) -> dict[str, bool]:
    return {action: action in allowed for action in ACTIONS}


def seat(index: int, *, you: bool = False, on_turn: bool = False, cards: int = 6,
         white: int = 0, black: int = 0, quit_: bool = False) -> dict[str, Any]:
    user_id, name = PLAYERS[index]
    return {
        "index": index, "name": name, "user_id": user_id,
        "avatar_url": f"avatars/{user_id}" if user_id else None, "is_ai": user_id is None,
        "cards": cards, "tokens": {"white": white, "black": black}, "score": white + 10 * black,
        "quit": quit_, "on_turn": on_turn, "you": you,
    }


def running(locale: str = "en", *, you: int | None = 0, turn: int = 0, deadline: float = 45,
            hand: tuple[str, ...] = ("3", "4", "4", "L", "6"), top: str = "3") -> dict[str, Any]:
    """A running classic game, round 2; seat `you` is the viewer (None: a spectator)."""
    seats = [seat(i, you=i == you, on_turn=i == turn, cards=c, white=w, black=b)
             for i, (c, w, b) in enumerate(((5, 2, 0), (4, 0, 1), (6, 3, 0), (2, 1, 0)))]
    mine = you is not None and you == turn
    playable = {"3", "4"} if top == "3" else {top}
    return {
        "game_id": 7, "status": "running", "variant": "classic", "round": 2,
        "top_card": card(top, locale), "draw_pile": 31, "discard_pile": 9, "seats": seats,
        "turn_deadline": NOW + deadline, "now": NOW,
        "hand": None if you is None else [card(c, locale, playable=c in playable) for c in hand],
        "can": can("play", "draw", "quit") if mine else can(),
        "recent": [i18n.t("move.drew", locale, name="Bob"),
                   i18n.t("move.played", locale, name="Chen",
                          card=i18n.card_phrase(top, "classic", locale))],
        "round_result": None, "game_over": None, "words": activity_words(locale),
    }


def lobby(locale: str = "en", *, seated: int = 2, host: bool = True) -> dict[str, Any]:
    view = running(locale)
    view.update(status="lobby", round=0, top_card=None, draw_pile=0, discard_pile=0,
                turn_deadline=None, hand=None, recent=[],
                can=can("add_ai", "start") if host else can("join"))
    view["seats"] = [seat(i, you=host and i == 0, cards=0) for i in range(seated)]
    return view


def nothing(locale: str = "en") -> dict[str, Any]:
    view = lobby(locale)
    view.update(game_id=None, status="none", seats=[], can=can("open_lobby"))
    return view


def finished(locale: str = "en") -> dict[str, Any]:
    view = running(locale, turn=1)
    view.update(status="finished", turn_deadline=None, can=can("rematch"))
    for s in view["seats"]:
        s["on_turn"] = False
    view["round_result"] = round_result(locale, 5)
    view["game_over"] = {"places": [
        {"name": "Chen", "points": 8, "rating_change": 14.0, "rank": 1, "you": False},
        {"name": "Alice", "points": 23, "rating_change": 3.0, "rank": 2, "you": True},
        {"name": "Llama-bot 1", "points": 31, "rating_change": None, "rank": 3, "you": False},
        {"name": "Bob", "points": 42, "rating_change": -9.0, "rank": 4, "you": False},
    ]}
    return view


def round_result(locale: str, number: int) -> dict[str, Any]:
    hands = {0: ("3", "L"), 1: ("6", "6", "2"), 2: (), 3: ("1",)}
    return {"round": number, "title": i18n.t("round.over", locale, round=number),
            "lines": [i18n.t("round.emptied", locale, name="Chen"),
                      i18n.t("round.line", locale, name="Alice", cards="3, L", penalty=13,
                             total="15")],
            "seats": [{"index": i, "name": PLAYERS[i][1], "penalty": len(hand) * 3,
                       "hand": [card(c, locale) for c in hand]} for i, hand in hands.items()]}


def changed(view: dict[str, Any], **changes: Any) -> dict[str, Any]:
    out = copy.deepcopy(view)
    out.update(changes)
    return out
