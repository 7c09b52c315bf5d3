"""The bot asks Discord for what it uses: server, channel and thread events (the `guilds`
intent) and interactions, which come with no intent. Message events would only bring its
own tables, hands and DMs back to it, each parsed into a `Message` and cached for nothing
(issue 14: one or two per turn)."""

from __future__ import annotations

from tests.support.e2e import on_turn, settle, two_humans


def events_received(fake) -> list[str]:
    return [p["t"] for s in fake.gateway.live_sessions() for p in s.log]


async def test_the_bot_receives_no_message_events_for_what_it_posts(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot)  # a lobby, a table, hands by DM
    mover, _ = on_turn(fake, bot, game_id)
    await fake.slash(mover, channel, "draw")
    await settle(bot, game_id)
    assert fake.public_messages(channel) and fake.dms(mover)
    received = events_received(fake)
    assert "INTERACTION_CREATE" in received and "GUILD_CREATE" in received
    assert not [e for e in received if e.startswith("MESSAGE_")]


async def test_the_bot_keeps_no_cache_of_messages(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    await two_humans(fake, bot)
    assert list(bot.cached_messages) == []
