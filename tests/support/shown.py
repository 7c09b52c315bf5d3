"""What players see of a game, compared with the game as its database stores it (the crash
tests read the database from the outside, tests/support/crash.py): the table of the round being
played, the older rounds' tables closed, and the hand of the player on turn live, with the
cards and the moves the store says.

Each check returns what is wrong (a sentence) or None, so a test can wait for it to be right
and say what was still wrong when it gave up."""

from __future__ import annotations

import asyncio
from pathlib import Path

import i18n
from lama import Game
from tests.support.crash import read_db, stored_game, tables_of_round
from tests.support.e2e import names_game, untagged, without_isolates

TABLE_BUTTONS = ["My hand", "Draw", "Quit round", "Rules"]


def seat_names(db: Path, game_id: int) -> list[str]:
    rows = read_db(db, "SELECT display_name FROM seats WHERE game_id = ? ORDER BY seat",
                   (game_id,))
    return [name for (name,) in rows]


def table_wrong(fake, channel, db: Path, game_id: int) -> str | None:
    """The running game's table against the store: one table for the round being played,
    live, saying whose turn it is, the draw pile and every seat's cards as stored; every
    earlier round's table closed with its result."""
    status, game = stored_game(db, game_id)
    assert status == "running" and game is not None, status
    number = game.round_number
    tables = tables_of_round(fake, channel, game_id, number)
    if len(tables) != 1:
        return f"{len(tables)} tables of round {number}"
    table = tables[0]
    text = without_isolates(table.text)
    for line in _table_lines(game, seat_names(db, game_id)):
        if line not in text:
            return f"round {number}'s table lacks {line!r}: {text!r}"
    live = [b.label for b in table.buttons if not b.disabled]
    if live != TABLE_BUTTONS:
        return f"round {number}'s table has the buttons {live}"
    for older in range(1, number):
        for closed in tables_of_round(fake, channel, game_id, older):
            if closed.buttons or f"Round {older} is over" not in closed.text:
                return f"round {older}'s table is not closed: {closed.text!r}"
    return None


def _table_lines(game: Game, names: list[str]) -> list[str]:
    pile = game.draw_pile_size
    lines = [i18n.translate("table.on_turn", "en", name=names[game.current_seat]),
             i18n.translate("table.draw_pile", "en", count=pile) if pile
             else i18n.translate("table.draw_pile.empty", "en")]
    for seat, name in enumerate(names):
        key = "table.seat.quit" if game.has_quit(seat) else "table.seat"
        lines.append(i18n.translate(key, "en", name=f"**{name}**", count=len(game.hand(seat))))
    return lines


def hands_wrong(fake, users, db: Path, game_id: int) -> str | None:
    """The hands against the store: the player on turn has one live hand of the game, their
    newest, showing the round, the cards and the moves the store says; nobody else has a
    live one."""
    _, game = stored_game(db, game_id)
    assert game is not None
    for seat, user in enumerate(users):
        hands = _hands(fake, user, game_id)
        live = [m for m in hands if _enabled(m)]
        if seat != game.current_seat:
            if live:
                return f"{user.name}, not on turn, has a live hand: {live[-1].text!r}"
            continue
        if len(live) != 1 or live[0] is not hands[-1]:
            return f"{user.name}, on turn, has {len(live)} live hands (newest live: " \
                   f"{bool(hands) and hands[-1] in live})"
        wrong = _hand_wrong(game, seat, live[0])
        if wrong:
            return f"{user.name}'s live hand {wrong}"
    return None


def _hands(fake, user, game_id: int) -> list:
    return [m for m in fake.dms(user) if any(names_game(c, "h", game_id) for c in m.custom_ids)]


def _enabled(message) -> list[str]:
    return [untagged(b.custom_id).rsplit(":", 1)[1] for b in message.buttons
            if b.custom_id and not b.disabled]


def _hand_wrong(game: Game, seat: int, message) -> str | None:
    rounds = {untagged(c).split(":")[3] for c in message.custom_ids}
    if rounds != {str(game.round_number)}:
        return f"shows round {rounds}, the store {game.round_number}"
    cards = {untagged(c).rsplit(":", 1)[1] for c in message.custom_ids} - {"draw", "quit"}
    held = {card.code for card in game.hand(seat)}
    if cards != held:
        return f"shows the cards {sorted(cards)}, the store {sorted(held)}"
    expected = {card.code for card in game.legal_plays(seat)} | {"quit"}
    if game.can_draw(seat):
        expected.add("draw")
    if set(_enabled(message)) != expected:
        return f"offers {sorted(_enabled(message))}, the store {sorted(expected)}"
    return None


async def shows_the_store(fake, channel, users, db: Path, game_id: int,
                          timeout: float = 30.0) -> None:
    """Wait until the table and the hands show the game as stored; fail saying what was still
    wrong. The repair must not need a move: one made meanwhile (a turn timing out) fails."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    moves = moves_stored(db, game_id)
    while True:
        wrong = table_wrong(fake, channel, db, game_id) or hands_wrong(fake, users, db, game_id)
        if moves_stored(db, game_id) != moves:
            raise AssertionError(f"game {game_id} moved on before it showed as stored: {wrong}")
        if wrong is None:
            return
        if loop.time() > deadline:
            raise AssertionError(f"game {game_id} after the restart: {wrong}")
        await asyncio.sleep(0.05)


def moves_stored(db: Path, game_id: int) -> int:
    return read_db(db, "SELECT COUNT(*) FROM moves WHERE game_id = ?", (game_id,))[0][0]
