"""The replay page: one frame of a finished game, every hand face up, and links to all others.

Each frame has its own address (/games/<id>/<step>), so a move can be shared; ◀ ▶ are plain
links (the page works without JavaScript) and static/replay.js adds the arrow keys.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from aiohttp import web

from hosting.replay_frames import Frame, ReplayFilm
from lama import events as ev
from store import Actor

from .cards import slug
from .context import DEPS, html_response, path_id, render_in_turn, site_of
from .words import Words


@dataclass(frozen=True)
class CardPicture:
    src: str
    alt: str


@dataclass(frozen=True)
class SeatPanel:
    index: int
    name: str
    is_ai: bool
    cards: tuple[CardPicture, ...]
    score: int
    has_quit: bool
    on_turn: bool
    moved: bool  # this frame's move was theirs
    penalty: int | None  # once the round is scored
    returned: int  # points given back by returning a token
    emptied: bool
    won: bool


@dataclass(frozen=True)
class StepLink:
    index: int
    round_number: int
    label: str


LINKS_KEPT = 64
_LINKS: OrderedDict[tuple, tuple[StepLink, ...]] = OrderedDict()


def picture(code: str, variant: str, words: Words) -> CardPicture:
    return CardPicture(f"/cards/{variant}/{words.locale}/{slug(code)}.png",
                       words.card(code, variant))


def names_of(film: ReplayFilm, words: Words) -> list[str]:
    """The seats' names as sentences hold them: isolated (see Words.isolate)."""
    return [words.isolate(words.seat(seat)) for seat in film.seats]


def panels(film: ReplayFilm, frame: Frame, words: Words) -> list[SeatPanel]:
    board, names = frame.board, [words.seat(seat) for seat in film.seats]
    results = {r.seat: r for r in frame.round_ended.results} if frame.round_ended else {}
    winners = film.winners if frame.game_ended else ()  # as rated, not by points alone
    return [
        SeatPanel(
            index=seat.index, name=names[seat.index], is_ai=seat.is_ai,
            cards=tuple(picture(c.code, film.variant, words) for c in board.hands[seat.index]),
            score=board.scores[seat.index], has_quit=board.has_quit[seat.index],
            on_turn=board.on_turn == seat.index,
            moved=frame.move is not None and frame.move.seat == seat.index,
            penalty=results[seat.index].penalty if results else None,
            returned=results[seat.index].token_returned if results else 0,
            emptied=bool(results) and results[seat.index].emptied_hand,
            won=seat.index in winners,
        )
        for seat in film.seats
    ]


def caption(film: ReplayFilm, frame: Frame, words: Words) -> list[str]:
    """What happened in this frame, as sentences."""
    names, board = names_of(film, words), frame.board
    if frame.move is None:
        top = words.top_card(board.top_card.code, film.variant)
        if board.on_turn is None:
            return [top]
        return [words.t("round.starts", name=names[board.on_turn]), top]
    lines = [] if frame.move.actor is not Actor.TIMER else [words.t("web.replay.timer")]
    lines += [line for e in frame.move.events if (line := words.move(e, names, film.variant))]
    if frame.round_ended is not None:
        emptied = next((r.seat for r in frame.round_ended.results if r.emptied_hand), None)
        by_hand = frame.round_ended.ended_by is ev.RoundEndReason.EMPTY_HAND
        lines.append(words.t("round.emptied", name=names[emptied])
                     if by_hand and emptied is not None else words.t("round.all_quit"))
    if frame.game_ended is not None:
        lines.append(winner_line(film, words))
    return lines


def winner_line(film: ReplayFilm, words: Words) -> str:
    names = names_of(film, words)
    if not film.winners:
        return words.t("game.over")
    score = film.scores[film.winners[0]]
    if len(film.winners) == 1:
        return words.t("game.winner", count=score, name=names[film.winners[0]])
    shared = words.list([names[s] for s in film.winners])
    return words.t("game.shared_winners", count=score, names=shared)


def step_links(film: ReplayFilm, words: Words) -> tuple[StepLink, ...]:
    """A short label for every frame, for the list of moves: the same for every step of a
    game, so kept for the next page (per language and names, so a forgotten name goes)."""
    key = (film.game_id, words.locale, tuple(names_of(film, words)))
    links = _LINKS.get(key)
    if links is None:
        links = _LINKS[key] = _step_links(film, words)
        if len(_LINKS) > LINKS_KEPT:
            _LINKS.popitem(last=False)
    else:
        _LINKS.move_to_end(key)
    return links


def _step_links(film: ReplayFilm, words: Words) -> tuple[StepLink, ...]:
    names = names_of(film, words)
    links = []
    for frame in film.frames:
        if frame.move is None:
            label = words.t("web.replay.deal", round=frame.board.round_number)
        else:
            said = [line for e in frame.move.events if (line := words.move(e, names, film.variant))]
            label = said[0] if said else words.t("web.replay.move", number=frame.index)
        links.append(StepLink(frame.index, frame.board.round_number, label))
    return tuple(links)


async def replay(request: web.Request) -> web.Response:
    site = await site_of(request)
    game_id = path_id(request, "game_id")
    step = path_id(request, "step") if "step" in request.match_info else 0
    film = await request.app[DEPS].site.film(site.guild_id, game_id)
    if film is None or step >= len(film.frames):
        raise web.HTTPNotFound()
    frame, words = film.frames[step], site.words
    names = names_of(film, words)
    standings = [words.standing(s, names[s.seat]) for s in film.standings]
    return html_response(await render_in_turn(
        request, "replay.html", site=site, film=film, frame=frame, last=len(film.frames) - 1,
        seats=panels(film, frame, words), caption=caption(film, frame, words),
        steps=step_links(film, words), standings=standings,
        top=picture(frame.board.top_card.code, film.variant, words),
    ))
