"""A call Discord refuses for now is retried until it goes through (issue 12): what a move
committed is shown after all, once, with the game's newest state."""

from __future__ import annotations

from lama import QUIT
from lama import events as ev
from tests.crash_support import rematch_posts
from tests.e2e_support import enabled_hand_buttons, hand_messages, open_game, two_humans, wait_until

CREATE = "POST /channels/{channel_id}/messages"
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
WAIT = 30.0  # seconds: the first retry comes after 1 s; a loaded machine may take long


def user_on_turn(fake, bot, game_id):
    view = bot.service.view(game_id)
    return fake.users_by_id[view.seats[view.current_seat].user_id]


async def quit_for(bot, game_id) -> list:
    """The seat on turn quits (through the service: set-up); the events it led to."""
    view = bot.service.view(game_id)
    update = await bot.service.human_move(game_id, view.seats[view.current_seat].user_id, QUIT)
    return list(update.events)


def live_hands(fake, user, game_id):
    return [m for m in hand_messages(fake, user, game_id) if enabled_hand_buttons(m)]


async def test_a_turn_ping_refused_six_times_with_429_is_sent_once_after_all(
    fake_discord, lamabot
):
    fake, bot = fake_discord, lamabot
    game_id, _channel = await two_humans(fake, bot)
    mover = user_on_turn(fake, bot, game_id)
    next_player = next(u for u in (fake.user("alice"), fake.user("bob")) if u is not mover)
    dms_before = len(fake.dms(next_player))
    fake.rate_limit_next(CREATE, times=6)  # discord.py gives up after five
    await quit_for(bot, game_id)
    await wait_until(lambda: live_hands(fake, next_player, game_id), timeout=WAIT)
    await bot.renderer.flush_all()
    assert len([h for h in fake.ratelimits.hits if h.route == CREATE]) == 0  # faults, not limits
    assert not fake.faults  # all six 429s were met
    assert len(fake.dms(next_player)) == dms_before + 1


async def test_an_edit_met_by_a_proxys_429_is_shown_after_all(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot)
    table = fake.public_messages(channel)[-1]
    mover = user_on_turn(fake, bot, game_id)
    shown_before = table.text
    fake.rate_limit_next(EDIT, times=1, from_discord=False)  # not Discord's: raised at once
    await quit_for(bot, game_id)  # edits the table and the mover's hand (one of them fails)
    await wait_until(lambda: not fake.faults, timeout=WAIT)
    await wait_until(lambda: table.text != shown_before, timeout=WAIT)
    await wait_until(lambda: not live_hands(fake, mover, game_id), timeout=WAIT)


async def test_a_game_end_refused_with_503_is_posted_once_with_its_rematch(
    fake_discord, lamabot
):
    fake, bot = fake_discord, lamabot
    channel = fake.channel("lama")
    game_id = await open_game(fake, bot, channel, fake.user("alice"), fake.user("bob"),
                              target=10)
    while True:
        game = bot.service.registry.get(game_id).running_game.clone()
        if any(isinstance(e, ev.GameEnded) for e in game.apply(game.current_seat, QUIT)):
            break
        await quit_for(bot, game_id)
    await bot.renderer.flush_all()
    fake.fail_next(CREATE, status=503)  # discord.py retries 500, 502, 504 itself, not 503
    await quit_for(bot, game_id)

    def rematches():
        return rematch_posts(fake, channel, game_id)

    await wait_until(lambda: rematches(), timeout=WAIT)
    await bot.renderer.flush_all()
    assert len(rematches()) == 1
