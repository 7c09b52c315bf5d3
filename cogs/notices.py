"""What the game says when something happens to a seat: publicly, and to that seat's player.

The channel hears about a player in the third person ("Alice removed Carol from the game");
the player hears the same news about themselves in the second person ("Alice removed you…").
"""

from __future__ import annotations

from hosting import options
from hosting.views import GameView, Notice, NoticeKind

from .text import member_text, seat_name, t


def notice_text(view: GameView, notice: Notice, locale: str) -> str:
    """The public line: for the channel (or the game's thread)."""
    seat = view.seats[notice.seat]
    # The player, not the AI (🤖) that took the seat: a time-out is always a human's own, also
    # the one that hands the seat to an AI (told before the takeover, from the view after it).
    name = member_text(seat.name) if seat.user_id is not None else seat_name(seat, locale)
    if notice.kind is NoticeKind.TIMED_OUT:
        return t("timer.timeout", locale, name=name)
    if notice.reason == "timeouts":
        return t("timer.handed_to_ai", locale, name=name, count=options.TIMEOUTS_BEFORE_AI)
    if notice.reason == "kicked" and notice.by:
        return t("game.kicked", locale, name=name, host=member_text(notice.by))
    return t("game.left", locale, name=name)


def personal_notice_text(notice: Notice, locale: str) -> str:
    """The same news told to the player it happened to (their closed hand message). One who
    left asked for it and heard so in the answer: their hand only says it is closed."""
    if notice.reason == "timeouts":
        return t("timer.you_handed_to_ai", locale, count=options.TIMEOUTS_BEFORE_AI)
    if notice.reason == "kicked" and notice.by:
        return t("game.you_were_kicked", locale, host=member_text(notice.by))
    if notice.reason == "left":  # the answer to their /lama leave told them already
        return t("hand.closed_after_leaving", locale)
    return t("game.you_left", locale)
