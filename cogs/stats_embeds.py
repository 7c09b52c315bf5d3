"""Statistics, history, replays and settings as embeds. Pure: values and a language in.

Discord's limits shape the replay: a field holds 1,024 characters, an embed 25 fields and
6,000 characters in all, so a long round is split over several fields and the fields over
several pages (one embed each).
"""

from __future__ import annotations

import discord

import i18n
from hosting.stats import PlayerReport, Replay, ReplayRound, ReplaySeat
from hosting.views import ai_called
from lama import events as ev
from lama.cards import Card
from store import GameSummary, GuildSettings, PlayerRating, PlayerResult, RecentResult
from store.records import Actor

from .mentions import command
from .text import ai_seat_name, member_text, move_line, signed, standing_line, t

COLOUR = 0xF4D35E
FIELD_LIMIT = 1024
FIELDS_PER_PAGE = 25
PAGE_BUDGET = 5_500  # of Discord's 6,000 characters an embed may hold; the rest is headroom


def _date(timestamp: int) -> str:
    return f"<t:{int(timestamp)}:d>"  # each reader's own date format


def _decimal(value: float, locale: str) -> str:
    return i18n.format_decimal(value, locale)


def _percent(value: float, locale: str) -> str:
    return i18n.format_percent(value, locale)


def _variant(variant: str, locale: str) -> str:
    return t(f"variant.{variant}", locale)


# ----------------------------------------------------------------------------- stats


def stats_embed(report: PlayerReport, name: str, locale: str) -> discord.Embed:
    """`name`: the player's display name (isolated here, `member_text`)."""
    s = report.stats
    title = t("stats.title", locale, name=member_text(name, markdown=False))
    embed = discord.Embed(title=title, colour=COLOUR)
    if s.games == 0:
        embed.description = t("stats.no_games", locale, name=member_text(name, markdown=False))
    else:
        _add_rating_fields(embed, report.rating, locale)
        fields = [
            ("stats.games_played", str(s.games)),
            ("stats.wins", str(s.wins)),
            ("stats.win_rate", _percent(s.win_rate or 0.0, locale)),
            ("stats.average_score", _decimal(s.avg_score or 0.0, locale)),
            ("stats.best_game", t("points.count", locale, count=s.best_score or 0)),
            ("stats.tokens", str(s.tokens)),
            ("stats.clean_rounds", str(s.clean_rounds)),
            ("stats.favourite_variant",  # none only before a first game
             _variant(s.favourite_variant, locale) if s.favourite_variant else "—"),
            ("stats.games_vs_ai", str(s.games_vs_ai)),
            ("stats.streak.current", _streak(s.current_streak, locale)),
            ("stats.streak.longest", _streak(s.longest_streak, locale)),
        ]
        for key, value in fields:
            embed.add_field(name=t(key, locale), value=value, inline=True)
        recent = "\n".join(_recent_line(r, locale) for r in s.last_games)
        embed.add_field(name=t("stats.last_games", locale), value=recent, inline=False)
    if report.head_to_head is not None:
        h = report.head_to_head
        value = (
            t(
                "stats.vs.line",
                locale,
                games=h.games,
                name=member_text(name),  # the other side, named
                mine=h.a_wins,
                theirs=h.b_wins,
                ahead=h.a_ahead,
                behind=h.b_ahead,
            )
            if h.games
            else t("stats.vs.none", locale)
        )
        embed.add_field(name=t("stats.vs.title", locale), value=value, inline=False)
    return embed


def _streak(wins: int, locale: str) -> str:
    """Wins in a row; none is a dash, not "0 wins in a row"."""
    return t("stats.streak.value", locale, count=wins) if wins else "—"


def _add_rating_fields(embed: discord.Embed, rating: PlayerRating | None, locale: str) -> None:
    """Rating (and rank), its change over the last games, and the best reached: three fields."""
    if rating is None:
        embed.add_field(name=t("stats.rating", locale), value=t("stats.rating.none", locale),
                        inline=False)
        return
    key = "rating.provisional" if rating.provisional else "rating.value"
    shown = t(key, locale, rating=rating.rating)
    if rating.rank is not None:
        shown += " · " + t("stats.rating.rank", locale, rank=rating.rank)
    if rating.provisional:
        shown += "\n" + t("stats.rating.provisional_note", locale)
    recent = t("stats.rating.recent", locale, change=signed(rating.change_recent),
               count=rating.recent_games)
    for key, value in (("stats.rating", shown), ("stats.rating.change", recent),
                       ("stats.rating.best", str(rating.best))):
        embed.add_field(name=t(key, locale), value=value, inline=True)


def _recent_line(r: RecentResult, locale: str) -> str:
    trophy = "🏆 " if r.won else ""
    return trophy + t(
        "stats.last_game",
        locale,
        count=r.final_score,
        date=_date(r.finished_at),
        variant=_variant(r.variant, locale),
        place=r.place,
        game_id=r.game_id,
    )


# --------------------------------------------------------------------------- history


def _player(p: PlayerResult, locale: str) -> str:
    if p.is_ai:
        return ai_seat_name(ai_called(p.seat, p.ai_number), locale)
    if p.user_id is not None:
        return f"<@{p.user_id}>"
    return (member_text(p.display_name, markdown=False) if p.display_name
            else t("stats.forgotten", locale))


def history_embed(games: list[GameSummary], locale: str) -> discord.Embed:
    embed = discord.Embed(title=t("history.title", locale), colour=COLOUR)
    if not games:
        embed.description = t("history.empty", locale, command=command("lama new"))
        return embed
    lines = []
    for g in games:
        players = i18n.format_list([_player(p, locale) for p in g.players], locale)
        winners = i18n.format_list([_player(p, locale) for p in g.winners], locale)
        lines.append(
            t(
                "history.line",
                locale,
                game_id=g.game_id,
                date=_date(g.finished_at),
                variant=_variant(g.variant, locale),
                players=players,
                winners=winners,
            )
        )
    # The hint is a line, not a footer: Discord renders command mentions only in text.
    hint = t("history.footer", locale, command=command("lama replay"))
    embed.description = "\n".join([*lines, "", hint])
    return embed


# ---------------------------------------------------------------------------- replay


def _seat_name(seat: ReplaySeat, locale: str, *, with_level: bool = False) -> str:
    if seat.is_ai:
        number = ai_called(seat.index, seat.ai_number)
        return ai_seat_name(number, locale, seat.ai_level if with_level else None)
    return member_text(seat.name, markdown=False) if seat.name else t("stats.forgotten", locale)


def _card(card: Card, replay: Replay, locale: str) -> str:
    return i18n.card_name(card.code, replay.variant, locale)


def _event_line(event: ev.Event, names: list[str], replay: Replay, locale: str) -> str | None:
    name = names[event.seat] if hasattr(event, "seat") else ""
    return move_line(event, name, locale, replay.variant)


def _round_lines(rnd: ReplayRound, names: list[str], replay: Replay, locale: str) -> list[str]:
    lines = [
        t("round.starts", locale, name=names[rnd.starting_seat]),
        t("table.top_card", locale, card=_card(rnd.top_card, replay, locale)),
    ]
    for step in rnd.steps:
        mark = "⏱️ " if step.actor is Actor.TIMER else ""
        lines += [
            mark + line for e in step.events if (line := _event_line(e, names, replay, locale))
        ]
    if rnd.ended is not None:
        empty = rnd.ended.ended_by is ev.RoundEndReason.EMPTY_HAND
        emptied = next((r.seat for r in rnd.ended.results if r.emptied_hand), None)
        lines.append(
            "**"
            + (
                t("round.emptied", locale, name=names[emptied])
                if empty and emptied is not None
                else t("round.all_quit", locale)
            )
            + "**"
        )
        for r in rnd.ended.results:
            cards = " ".join(_card(c, replay, locale) for c in r.hand) or "—"
            lines.append(
                t(
                    "round.line",
                    locale,
                    name=names[r.seat],
                    cards=cards,
                    penalty=r.penalty,
                    total=r.score_after,
                )
            )
    return lines


def _chunks(lines: list[str], limit: int = FIELD_LIMIT) -> list[str]:
    """Join lines into field values of at most `limit` characters, never splitting a line."""
    chunks, current = [], ""
    for line in lines:
        line = line[:limit]
        if current and len(current) + 1 + len(line) > limit:
            chunks.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        chunks.append(current)
    return chunks


def replay_fields(replay: Replay, locale: str) -> list[tuple[str, str]]:
    names = [_seat_name(s, locale) for s in replay.seats]
    fields = []
    for rnd in replay.rounds:
        for i, chunk in enumerate(_chunks(_round_lines(rnd, names, replay, locale))):
            key = "replay.round" if i == 0 else "replay.round_continued"
            fields.append((t(key, locale, round=rnd.number), chunk))
    if replay.winners:
        winners = [names[s] for s in replay.winners]
        score = replay.scores[replay.winners[0]]
        if len(winners) == 1:
            text = t("game.winner", locale, count=score, name=winners[0])
        else:
            text = t(
                "game.shared_winners", locale, count=score, names=i18n.format_list(winners, locale)
            )
        lines = [text] + [standing_line(s, names[s.seat], locale) for s in replay.standings]
        fields.append((t("game.over", locale), "\n".join(lines)[:FIELD_LIMIT]))
    return fields


def replay_pages(replay: Replay, locale: str) -> list[discord.Embed]:
    """The replay as embeds that each fit Discord's limits; at least one."""
    title = t(
        "replay.title", locale, game_id=replay.game_id, variant=_variant(replay.variant, locale)
    )
    players = i18n.format_list(
        [_seat_name(s, locale, with_level=True) for s in replay.seats], locale
    )
    when = _date(replay.finished_at) if replay.finished_at else "—"
    description = t("replay.description", locale, count=replay.target, date=when, players=players)[
        :1000
    ]
    pages: list[list[tuple[str, str]]] = [[]]
    used = len(title) + len(description) + 40  # + footer
    for name, value in replay_fields(replay, locale):
        size = len(name) + len(value)
        if pages[-1] and (len(pages[-1]) >= FIELDS_PER_PAGE or used + size > PAGE_BUDGET):
            pages.append([])
            used = len(title) + len(description) + 40
        pages[-1].append((name, value))
        used += size
    embeds = []
    for number, fields in enumerate(pages, start=1):
        embed = discord.Embed(title=title, description=description, colour=COLOUR)
        for name, value in fields:
            embed.add_field(name=name, value=value, inline=False)
        embed.set_footer(text=t("replay.page", locale, page=number, pages=len(pages)))
        embeds.append(embed)
    return embeds


# -------------------------------------------------------------------------- settings


def _seconds(value: float, locale: str) -> str:
    if not value:
        return t("settings.value.off", locale)
    if float(value).is_integer():  # "45 s", "2 min", "1 h"
        return i18n.format_duration(int(value), locale)
    # A fraction picks no plural form; the unit symbol reads the same in every language.
    return f"{_decimal(value, locale)} s"


def _language(setting: str | None, locale: str, preferred: str) -> str:
    """The public language: the server's setting, else its preferred locale (named)."""
    if setting:
        return t(f"language.name.{setting}", locale)
    return t("settings.language.auto", locale, language=t(f"language.name.{preferred}", locale))


def settings_embed(
    s: GuildSettings, locale: str, *, saved_now: bool, preferred: str = "en"
) -> discord.Embed:
    embed = discord.Embed(title=t("settings.title", locale), colour=COLOUR)
    embed.description = (
        t("settings.saved", locale)
        if saved_now
        else t("settings.hint", locale, command=command("lama settings"))
    )
    channel = (
        f"<#{s.games_channel_id}>" if s.games_channel_id else t("settings.channel.any", locale)
    )
    for key, value in (
        ("settings.default_variant", _variant(s.variant, locale)),
        ("settings.target", str(s.target)),
        ("settings.turn_timeout", _seconds(s.turn_timeout_s, locale)),
        ("settings.ai_delay", _seconds(s.ai_delay_s, locale)),
        ("settings.games_channel", channel),
        ("settings.language", _language(s.locale, locale, preferred)),
        ("settings.game_threads", t(f"settings.game_threads.{'on' if s.game_threads else 'off'}",
                                     locale)),
        ("settings.seasons", t(f"season.cadence.{s.season_cadence}", locale)),
    ):
        embed.add_field(name=t(key, locale), value=value, inline=True)
    return embed
