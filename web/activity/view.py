"""What one viewer of the Activity is shown: the `view` object of docs/activity.md's
contract, built from the hosted game as this process holds it now.

The table is public (top card, piles, every seat's cards left, tokens and score, who is on
turn, the last moves, a finished round's result with the hands it revealed, the game's end
with rating changes). A hand goes only to its own player: `hand` is the viewer's seat's
cards, and None for anyone else — a spectator never receives one. What the viewer may do
(`can`) is what the service would accept from them now; it still judges every request.
"""

from __future__ import annotations

from typing import Any

import i18n
from hosting.options import MAX_SEATS, MIN_SEATS
from hosting.views import GameView, RecentEvent, SeatView, Status
from lama import Observation
from lama import events as ev
from lama.rules import get_ruleset

from ..words import Words
from .faces import card_json
from .refusals import seat_name
from .results import game_over, round_result
from .words import app_words

RECENT_SHOWN = 8
STATUS = {Status.LOBBY: "lobby", Status.RUNNING: "running", Status.FINISHED: "finished"}


def build_view(
    view: GameView | None, hand: Observation | None, *, viewer: int, locale: str,
    turn_ends_at: float | None, in_server: bool, now: float,
) -> dict[str, Any]:
    """The viewer's `view`: `view` None (or a cancelled game) is a channel with no game."""
    if view is None or view.status is Status.CANCELLED:
        return {**_no_game(locale, in_server), "now": now}
    variant = view.options.variant
    seated = view.seat_of(viewer)
    running = view.status is Status.RUNNING
    mine = hand if running and seated is not None else None
    return {
        "game_id": view.game_id, "status": STATUS[view.status], "variant": variant,
        "round": view.round_number, "moves": view.move_count,
        "top_card": card_json(view.top_card, variant, locale) if view.top_card else None,
        "draw_pile": view.draw_pile_size, "discard_pile": view.discard_size,
        "seats": [_seat(view, seat, viewer, locale) for seat in view.seats],
        "turn_deadline": turn_ends_at if running else None, "now": now,
        "hand": _hand(mine, variant, locale) if mine is not None else None,
        "can": _can(view, seated, mine, viewer),
        "recent": _recent(view, locale),
        "round_result": round_result(view, locale),
        "game_over": game_over(view, viewer, locale) if view.status is Status.FINISHED else None,
        "words": app_words(locale),
    }


def _no_game(locale: str, in_server: bool) -> dict[str, Any]:
    can = dict.fromkeys(("play", "draw", "quit", "join", "add_ai", "start", "rematch"), False)
    return {"game_id": None, "status": "none", "variant": "", "round": 0, "moves": 0,
            "top_card": None, "draw_pile": 0, "discard_pile": 0, "seats": [],
            "turn_deadline": None,
            "hand": None, "can": {**can, "open_lobby": in_server}, "recent": [],
            "round_result": None, "game_over": None, "words": app_words(locale)}


def tokens_of(score: int, variant: str) -> dict[str, int]:
    """A score as the tokens that make it up: {"white": 3, "black": 1}, every kind of the
    variant there even at 0 (Party has "pink" too)."""
    ruleset = get_ruleset(variant)
    counts = dict.fromkeys((kind.name.lower() for kind in ruleset.token_kinds), 0)
    return {**counts, **{kind.name.lower(): n for kind, n in ruleset.tokens(score)}}


def _seat(view: GameView, seat: SeatView, viewer: int, locale: str) -> dict[str, Any]:
    on_turn = view.status is Status.RUNNING and seat.index == view.current_seat
    return {"index": seat.index, "name": seat_name(seat, locale),
            "user_id": None if seat.user_id is None else str(seat.user_id),
            "avatar_url": None, "is_ai": seat.is_ai, "cards": seat.card_count,
            "tokens": tokens_of(seat.score, view.options.variant), "score": seat.score,
            "quit": seat.has_quit, "on_turn": on_turn,
            "you": seat.user_id == viewer and not seat.left}


def _hand(obs: Observation, variant: str, locale: str) -> list[dict[str, Any]]:
    playable = {card.code for card in obs.legal_plays} if obs.is_my_turn else set()
    return [{**card_json(card.code, variant, locale), "playable": card.code in playable,
             "label": i18n.translate("action.play_card", locale,
                                     card=i18n.card_phrase(card.code, variant, locale))}
            for card in obs.hand]


def _can(view: GameView, seated: SeatView | None, hand: Observation | None,
         viewer: int) -> dict[str, bool]:
    lobby = view.status is Status.LOBBY
    host = viewer == view.host_id and seated is not None
    my_turn = hand is not None and hand.is_my_turn
    return {
        "play": my_turn and bool(hand and hand.legal_plays),
        "draw": my_turn and bool(hand and hand.can_draw),
        "quit": my_turn,
        "join": lobby and seated is None and len(view.seats) < MAX_SEATS,
        "add_ai": lobby and host and len(view.seats) < MAX_SEATS,
        "start": lobby and host and len(view.seats) >= MIN_SEATS,
        "rematch": view.status is Status.FINISHED and any(
            s.user_id == viewer for s in view.seats),
        "open_lobby": False,
    }


def _names(view: GameView, locale: str, seq: int) -> list[str]:
    """Each seat's name as it was at move `seq` (a human's own until an AI took over)."""
    return [i18n.isolate(seat_name(view.seat_at(i, seq), locale))
            for i in range(len(view.seats))]


def _recent(view: GameView, locale: str) -> list[str]:
    words, variant = Words(locale), view.options.variant
    lines = []
    for recent in view.recent:
        line = _line(recent, view, words, variant)
        if line:
            lines.append(line)
    return lines[-RECENT_SHOWN:]


def _line(recent: RecentEvent, view: GameView, words: Words, variant: str) -> str | None:
    event, names = recent.event, _names(view, words.locale, recent.seq)
    if isinstance(event, ev.CardPlayed) and event.cards_left == 0:
        return words.t("move.emptied_hand", name=names[event.seat])
    if isinstance(event, ev.RoundStarted):
        return words.t("round.starts", name=names[event.starting_seat])
    if isinstance(event, ev.RoundEnded):
        return words.t("round.over", round=event.round_number)
    return words.move(event, names, variant)
