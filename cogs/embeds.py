"""Game views as Discord embeds. Pure functions: a view and a language in, an embed out.

Public embeds (lobby, table, summaries) take a `GameView`; the hand embed takes a seat's
`Observation` and is only ever sent to that seat's owner.
"""

from __future__ import annotations

import discord

import i18n
from hosting.options import MAX_SEATS, MIN_SEATS
from hosting.results import final_standings
from hosting.views import GameView, SeatRating, SeatView, Status
from lama import events as ev
from lama.observation import Observation
from lama.rules import TokenKind, get_ruleset

from .text import (
    card_label,
    card_phrase,
    cards_text,
    choices_text,
    hand_text,
    move_line,
    seat_name,
    signed,
    standing_line,
    t,
    tokens_text,
    variant_name,
)

COLOUR = {"classic": 0xF4D35E, "party": 0xF15BB5, "komarami": 0x4CAF50}
RECENT_SHOWN = 5


def _colour(view: GameView) -> int:
    return COLOUR.get(view.options.variant, 0xF4D35E)


def _score(view: GameView, score: int, locale: str) -> str:
    """A score as its tokens, e.g. '⚫×2 ⚪×7 (27)'."""
    tokens = get_ruleset(view.options.variant).tokens(score)
    return f"{tokens_text(tokens, locale)} ({score})"


def _name_of(view: GameView, seat: int | None, locale: str, seq: int | None = None) -> str:
    """A seat's name now, or (`seq`) as it was at that move: a player who left keeps their
    own name for what they did before an AI took the seat."""
    if seat is None or not 0 <= seat < len(view.seats):
        return "?"
    return seat_name(view.seats[seat] if seq is None else view.seat_at(seat, seq), locale)


# ----------------------------------------------------------------- lobby


def lobby_embed(view: GameView, locale: str) -> discord.Embed:
    opts = view.options
    embed = discord.Embed(
        title=t("lobby.title", locale, variant=variant_name(view, locale)), colour=_colour(view)
    )
    if view.status is Status.CANCELLED:
        embed.description = t("game.cancelled", locale)
    elif view.status is not Status.LOBBY:
        embed.description = t("lobby.started", locale)
        if view.thread_id is not None:
            thread = t("lobby.follow_thread", locale, thread=f"<#{view.thread_id}>")
            embed.description += "\n" + thread
    else:
        lines = [
            t("lobby.description", locale, name=f"<@{view.host_id}>"),
            t("lobby.settings", locale, count=opts.target,
              duration=i18n.format_duration(opts.turn_timeout, locale)),
            _lobby_readiness(view, locale),
        ]
        if view.rematch_of is not None:
            lines.insert(0, t("lobby.rematch_of", locale, game_id=view.rematch_of))
        embed.description = "\n".join(lines)
    if view.status is not Status.CANCELLED:  # nobody's seat any more, nobody's lobby
        embed.add_field(
            name=t("lobby.seats", locale, taken=len(view.seats), max=MAX_SEATS),
            value="\n".join(_lobby_seat(view, s, locale) for s in view.seats) or "—",
        )
    embed.set_footer(text=t("game.footer", locale, game_id=view.game_id))
    return embed


def _lobby_seat(view: GameView, seat: SeatView, locale: str) -> str:
    number = seat.index + 1
    if seat.is_ai:
        name = seat_name(seat, locale, with_level=True)
        return t("lobby.seat.ai", locale, number=number, name=name)
    key = "lobby.seat.host" if seat.user_id == view.host_id else "lobby.seat.human"
    return t(key, locale, number=number, name=seat_name(seat, locale))  # markdown-safe


def _lobby_readiness(view: GameView, locale: str) -> str:
    missing = MIN_SEATS - len(view.seats)
    if missing > 0:
        return t("lobby.waiting", locale, count=missing)
    return t("lobby.ready", locale)


# ----------------------------------------------------------------- table


def seat_lines(view: GameView, locale: str) -> str:
    lines = []
    for seat in view.seats:
        on_turn = seat.index == view.current_seat and view.status is Status.RUNNING
        marker = "▶️" if on_turn else ("🚪" if seat.has_quit else "▫️")
        name = f"**{seat_name(seat, locale)}**"
        key = "table.seat.quit" if seat.has_quit else "table.seat"
        state = t(key, locale, name=name, count=seat.card_count)
        lines.append(f"{marker} {state} · {_score(view, seat.score, locale)}")
    return "\n".join(lines)


def describe_event(
    event: ev.Event, view: GameView, locale: str, seq: int | None = None
) -> str | None:
    """One line of the table's "last moves", naming whoever held the seat at move `seq`;
    None for events that need no line."""
    name = _name_of(view, getattr(event, "seat", None), locale, seq)
    if isinstance(event, ev.CardPlayed) and event.cards_left == 0:
        return t("move.emptied_hand", locale, name=name)
    if isinstance(event, ev.RoundStarted):
        return t("round.starts", locale, name=_name_of(view, event.starting_seat, locale, seq))
    return move_line(event, name, locale, view.options.variant)


# --------------------------------------------------------- round and game


def rules_embed(variant: str, locale: str, target: int | None = None) -> discord.Embed:
    return discord.Embed(
        title=t(f"variant.{variant}", locale),
        description=rules_text(variant, locale, target),
        colour=COLOUR[variant],
    )


def rules_text(variant: str, locale: str, target: int | None = None) -> str:
    """The rules of `variant`; asked for from a table (`target`), its game ends at that
    table's target, else at the rules' own (which a table may change)."""
    if target is None:
        end = t("rules.game_end.default", locale, count=get_ruleset(variant).target)
    else:
        end = t("rules.game_end.target", locale, count=target)
    return t(f"rules.{variant}", locale, game_end=end)


def round_summary_embed(view: GameView, ended: ev.RoundEnded, locale: str) -> discord.Embed:
    embed = discord.Embed(
        title=t("round.over", locale, round=ended.round_number), colour=_colour(view)
    )
    embed.description = "\n".join(round_summary_lines(view, ended, locale))
    return embed


def round_summary_lines(
    view: GameView, ended: ev.RoundEnded, locale: str, seq: int | None = None
) -> list[str]:
    """Who emptied their hand, who paid what, everyone's total: one line each, naming
    whoever held each seat at the move that ended the round (`seq`, if known)."""
    variant = view.options.variant
    lines = []
    for r in ended.results:
        name = _name_of(view, r.seat, locale, seq)
        if r.emptied_hand:
            lines.append(t("round.emptied", locale, name=name))
            if r.token_returned:
                token = i18n.token_phrase(TokenKind(r.token_returned).name.lower(), locale)
                total = _score(view, r.score_after, locale)
                lines.append(t("round.returned", locale, name=name, token=token, total=total))
            elif r.score_before == 0:
                lines.append(t("round.nothing_to_return", locale, name=name))
            continue
        cards = cards_text(r.hand, locale, variant) or "—"
        lines.append(
            t(
                "round.line",
                locale,
                name=name,
                cards=cards,
                penalty=r.penalty,
                total=_score(view, r.score_after, locale),
            )
        )
    if ended.ended_by is ev.RoundEndReason.ALL_QUIT:
        lines.insert(0, t("round.all_quit", locale))
    if view.status is Status.RUNNING:
        lines += ["", t("round.new_hands", locale)]
    return lines


def game_end_embed(view: GameView, locale: str) -> discord.Embed:
    """The standings as the game is rated (hosting.results.final_standings): a seat whose
    human left or timed out is listed after everyone who played to the end, whatever the
    points its AI finished with, and the headline names whoever the list puts first."""
    embed = discord.Embed(title=t("game.over", locale), colour=_colour(view))
    final = final_standings(view.seats, [s.score for s in view.seats])
    winners = [_name_of(view, s, locale) for s in final.winners]
    best = view.seats[final.winners[0]].score
    if len(winners) == 1:
        embed.description = t("game.winner", locale, name=winners[0], count=best)
    else:
        names = i18n.format_list(winners, locale)
        embed.description = t("game.shared_winners", locale, names=names, count=best)
    lines = [standing_line(s, seat_name(view.seats[s.seat], locale), locale)
             + _rating_note(view.rating_of(s.seat), locale) for s in final.standings]
    embed.add_field(name=t("game.standings", locale), value="\n".join(lines), inline=False)
    footer = t("game.footer", locale, game_id=view.game_id)
    if any(r.provisional for r in view.ratings):  # "1081?" says nothing on its own
        footer += " · " + t("leaderboard.rating_legend", locale)
    embed.set_footer(text=footer)
    return embed


def _rating_note(rating: SeatRating | None, locale: str) -> str:
    """' · rating 1534 (+12)' after a rated human's standing; nothing for others."""
    if rating is None:
        return ""
    key = "rating.provisional" if rating.provisional else "rating.value"
    shown = t(key, locale, rating=rating.rating)
    return " · " + t("game.rating_change", locale, rating=shown, change=signed(rating.delta))


# ------------------------------------------------------------------ hand


def hand_embed(
    view: GameView, observation: Observation, locale: str, *, confirm_quit: bool = False,
    header: str | None = None, note: str | None = None, turn: bool = True,
) -> discord.Embed:
    """A seat's private hand: only ever sent to that seat's owner.

    Only a live hand (its player's turn) shows the top card and the draw pile: a hand that
    waits is not redrawn as the others move (a REST call per move per player), so it shows
    what stays true, its cards, and points to the live table for the rest. `turn=False`: the
    cards only, no turn part (an older hand of a game that is over: the newest says so)."""
    variant = view.options.variant
    obs = observation
    embed = discord.Embed(
        title=t("hand.title", locale, round=obs.round_number), colour=_colour(view)
    )
    lines = ([header, ""] if header else []) + [  # a link: no bold around it
        t("hand.game_in", locale, channel=f"<#{view.shown_in}>"),
        t("hand.cards", locale, count=len(obs.hand)),
        hand_text(obs.hand, locale, variant) or "—",
        "",  # below the last blank line: what a turn changes (`closed_hand_embed`)
    ]
    if not turn:
        lines.pop()  # the blank line above a turn part
    elif note is None and _is_live(view, obs):
        lines += _piles(obs, locale, variant)
    if turn:
        lines.append(note or _turn_line(view, obs, locale, confirm_quit=confirm_quit))
    embed.description = "\n".join(lines)
    embed.set_footer(text=t("game.footer", locale, game_id=view.game_id))
    return embed


def closed_hand_embed(shown: discord.Embed, note: str) -> discord.Embed:
    """A hand embed as a message shows it, closed: its own round, header and cards, and
    `note` in place of its turn part (the top card, the draw pile and the turn line, all
    below its last blank line): never the hand as it is now."""
    kept, _blank, _turn = (shown.description or "").rpartition("\n\n")
    embed = discord.Embed(title=shown.title, colour=shown.colour,
                          description=f"{kept}\n\n{note}" if kept else note)
    if shown.footer.text:
        embed.set_footer(text=shown.footer.text)
    return embed


def _is_live(view: GameView, obs: Observation) -> bool:
    """Whether the hand is its player's turn in the round being played."""
    return (view.status is Status.RUNNING and obs.round_number == view.round_number
            and obs.is_my_turn and not obs.has_quit[obs.seat])


def _piles(obs: Observation, locale: str, variant: str) -> list[str]:
    """The top card and the draw pile, as the player on turn sees them."""
    top = card_label(obs.top_card.code, locale, variant) if obs.top_card else "—"
    pile = (t("table.draw_pile", locale, count=obs.draw_pile_size) if obs.draw_pile_size
            else t("table.draw_pile.empty", locale))
    return [t("table.top_card", locale, card=top), pile]


def _turn_line(view: GameView, obs: Observation, locale: str, *, confirm_quit: bool = False) -> str:
    variant = view.options.variant
    if view.status is Status.CANCELLED:
        return t("game.cancelled", locale)
    if view.status is Status.FINISHED:
        return t("hand.game_over", locale, channel=f"<#{view.shown_in}>")
    if view.status is not Status.RUNNING or obs.round_number != view.round_number:
        return t("round.over", locale, round=obs.round_number)
    if obs.has_quit[obs.seat]:
        key = "hand.timed_out" if view.seats[obs.seat].timed_out else "hand.quit"
        return t(key, locale, cards=cards_text(obs.hand, locale, variant) or "—")
    if not obs.is_my_turn:
        return t("hand.not_your_turn", locale, channel=f"<#{view.shown_in}>")
    if confirm_quit:
        return f"**{t('action.quit.confirm', locale)}**"
    first = t("hand.extra_turn" if obs.extra_turn else "hand.your_turn", locale)
    if obs.legal_plays:
        cards = choices_text(obs.legal_plays, locale, variant)
        return f"**{first}** {t('hand.playable', locale, cards=cards)}"
    top = card_phrase(obs.top_card.code, locale, variant)
    return f"**{first}** {t('hand.nothing_playable', locale, top=top)}"
