"""What the Activity shows when a round or the game is over: the round's result (a title and
its lines, as the table message says them, in plain words; every seat's figures and the hand
it revealed) and the game's places as rated, with their rating changes."""

from __future__ import annotations

from typing import Any

import i18n
from hosting.options import TIMEOUTS_BEFORE_AI
from hosting.results import final_standings
from hosting.views import GameView
from lama import events as ev
from lama.rules import TokenKind

from .faces import card_json
from .refusals import seat_name


def round_result(view: GameView, locale: str) -> dict[str, Any] | None:
    """The last round that ended, while it is among the game's last events."""
    ended = [r for r in view.recent if isinstance(r.event, ev.RoundEnded)]
    if not ended:
        return None
    last = ended[-1]
    event: ev.RoundEnded = last.event
    names = [seat_name(view.seat_at(i, last.seq), locale) for i in range(len(view.seats))]
    variant = view.options.variant
    return {
        "round": event.round_number,
        "title": i18n.translate("round.over", locale, round=event.round_number),
        "lines": _lines(event, [i18n.isolate(n) for n in names], variant, locale),
        "seats": [{"index": r.seat, "name": names[r.seat], "penalty": r.penalty,
                   "emptied_hand": r.emptied_hand, "returned": r.token_returned,
                   "score": r.score_after, "hand": [card_json(c.code, variant, locale)
                                                    for c in r.hand]}
                  for r in event.results],
    }


def _lines(event: ev.RoundEnded, names: list[str], variant: str, locale: str) -> list[str]:
    """Who emptied their hand, who paid what, everyone's total: the table's round summary."""
    t = i18n.translate
    lines = [t("round.all_quit", locale)] if event.ended_by is ev.RoundEndReason.ALL_QUIT else []
    for r in event.results:
        name, total = names[r.seat], str(r.score_after)
        if r.emptied_hand:
            lines.append(t("round.emptied", locale, name=name))
            if r.token_returned:
                token = i18n.token_phrase(TokenKind(r.token_returned).name.lower(), locale)
                lines.append(t("round.returned", locale, name=name, token=token, total=total))
            elif r.score_before == 0:
                lines.append(t("round.nothing_to_return", locale, name=name))
            continue
        cards = ", ".join(i18n.card_name(c.code, variant, locale) for c in r.hand) or "—"
        lines.append(t("round.line", locale, name=name, cards=cards, penalty=r.penalty,
                       total=total))
    return lines


def game_over(view: GameView, viewer: int, locale: str) -> dict[str, Any]:
    """The places as the "Game over" post lists them and as the game is rated
    (hosting.results.final_standings): a seat whose player left or timed out comes after
    everyone who stayed, whatever its AI's points, with the post's note saying which; a
    kicked one last, without a place (`rank` None). Each with its rating change where the
    game was rated."""
    final = final_standings(view.seats, [s.score for s in view.seats])
    places = []
    for standing in final.standings:
        seat, rating = view.seats[standing.seat], view.rating_of(standing.seat)
        note = standing.note
        places.append({"name": seat_name(seat, locale), "points": standing.score,
                       "rank": standing.place if standing.ranked else None,
                       "note": None if note is None else i18n.translate(
                           note, locale, count=TIMEOUTS_BEFORE_AI),
                       "winner": standing.seat in final.winners,
                       "you": seat.user_id == viewer and not seat.left,
                       "rating_change": rating.delta if rating else None})
    return {"places": places}
