"""Playing games through on the loopback Discord: to their end, the tables, the timers."""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime

from hosting import Status
from lama import QUIT
from tests.support.e2e import (
    on_turn,
    open_game,
    settle,
)
from tests.support.play_along import as_slash, random_action


def tables(fake, channel) -> list:
    return [m for m in fake.public_messages(channel) if m.components_v2]


async def finish_by_quitting(bot, game_id) -> None:
    """Whoever is on turn quits (through the service: set-up) until the game is over; an
    AI's turn is its own to play (on its timer), never quit for it."""
    while bot.service.view(game_id).status is Status.RUNNING:
        view = bot.service.view(game_id)
        user_id = view.seats[view.current_seat].user_id
        if user_id is None or view.seats[view.current_seat].ai_level is not None:
            await settle(bot, game_id)
            continue
        await bot.service.human_move(game_id, user_id, QUIT)
    await bot.renderer.flush_all()


async def alice_times_out_and_bob_quits_to_the_end(
    fake, bot, clock, game_id: int, *, bob_draws: bool = False
) -> None:
    """Alice lets her turn time run out until an AI takes her seat; Bob quits every round
    (`bob_draws`: draws whenever he may first, so he ends with more points than her AI)."""
    while bot.service.view(game_id).status is Status.RUNNING:
        user, obs = on_turn(fake, bot, game_id)
        if user.name == "alice":
            clock.advance(10)
            await bot.service.fire_due_timers()
        elif bob_draws and obs.can_draw:
            await bot.service.draw(game_id, user.id)
        else:
            await bot.service.quit_round(game_id, user.id)
        await settle(bot, game_id)


async def settle_with_timers(bot, game_id) -> None:
    """With a fake clock: fire what is due (AI moves) until a human is on turn."""
    def human_on_turn():
        view = bot.service.view(game_id)
        return view.status is not Status.RUNNING or not view.seats[view.current_seat].is_ai

    loop = asyncio.get_running_loop()
    deadline = loop.time() + 10  # real seconds: the bot's own timer loop may hold a move
    while not human_on_turn() and loop.time() < deadline:
        await bot.service.fire_due_timers()
        await asyncio.sleep(0.001)  # a commit runs in SQLite's thread
    assert human_on_turn()
    await bot.renderer.flush_all()


async def play_to_the_end(bot, game_id: int, user) -> None:
    """The human quits whenever on turn; the AIs play on until the game is over."""
    while True:
        await settle(bot, game_id)
        view = bot.service.view(game_id)
        if view.status is not Status.RUNNING:
            return
        await bot.service.human_move(game_id, user.id, QUIT)


def ts(*parts: int) -> int:
    return int(datetime(*parts, tzinfo=UTC).timestamp())


async def play(fake, bot, channel, humans, *, rng, ai_seats=1, variant="classic") -> int:
    """A whole game: lobby and moves by slash command; humans play a card or quit."""
    game_id = await open_game(fake, bot, channel, humans[0], *humans[1:], variant=variant,
                              target=10, ai_seats=ai_seats)
    for _ in range(500):
        if bot.service.view(game_id).status is Status.FINISHED:
            break
        user, obs = on_turn(fake, bot, game_id)
        command, options = as_slash(random_action(obs, rng, draw=0))  # a card, or quit
        result = await fake.slash(user, channel, command, **options)
        assert result.ephemeral, result.text
        await settle(bot, game_id)
    assert bot.service.view(game_id).status is Status.FINISHED
    return game_id


def lines_by_user(text: str) -> dict[int, str]:
    """Leaderboard lines: user id → what follows the mention."""
    return {int(m[1]): m[2] for m in re.finditer(r"<@(\d+)> · (.+)", text)}


def field(message_or_result, name: str) -> str:
    for embed in message_or_result.embeds:
        for f in embed.get("fields") or []:
            if f["name"] == name:
                return f["value"]
    raise LookupError(name)


def edits_of(fake, message) -> list:
    return [c for c in fake.rest_calls(EDIT) if c.params["message_id"] == str(message.id)]


EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"


async def game_in_a_thread(fake, bot, **options):
    await threads_on(fake)
    channel = fake.channel("lama")
    game_id = await open_game(fake, bot, channel, fake.user("alice"), fake.user("bob"), **options)
    lobby = fake.public_messages(channel)[0]
    assert lobby.started_thread is not None, "no thread started from the lobby message"
    return game_id, channel, lobby, lobby.started_thread


async def threads_on(fake) -> None:
    owner = fake.user("owner")
    await fake.grant(owner, manage_guild=True)
    result = await fake.slash(owner, fake.channel("general"), "lama settings", threads=True)
    assert result.ephemeral and "Games in threads" in result.text, result.text


async def everyone_quits(bot, game_id: int) -> None:
    """Whoever is on turn quits, until the game is over."""
    while True:
        await settle(bot, game_id)
        view = bot.service.view(game_id)
        if view.status is not Status.RUNNING:
            return
        user_id = view.seats[view.current_seat].user_id
        await bot.service.human_move(game_id, user_id, QUIT)
