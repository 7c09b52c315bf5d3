"""Opening the Activity from Discord where the bot offers it: "Open the table" under the lobby
and the table answers with LAUNCH_ACTIVITY (the presser is taken into the channel's
Activity), and the Entry Point command is registered, in every language, with the slash
commands (Discord refuses a sync that drops it)."""

from __future__ import annotations

from loopback.activities import DISCORD_LAUNCH_ACTIVITY, PRIMARY_ENTRY_POINT
from tests.support.e2e import table


async def test_open_the_table_under_the_lobby_and_the_table_launches_the_activity(
        fake_discord, lamabot, page):
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    lobby = await fake.slash(alice, "lama", "lama new", target=10)
    pressed = await fake.click(bob, lobby.message, "Open the table")
    assert pressed.response_type == 12 and pressed.refused is None
    instance = pressed.activity_instance
    assert instance.channel is fake.channel("lama") and instance.users == [bob.id]
    await fake.slash(bob, "lama", "lama join")
    await fake.slash(alice, "lama", "lama start")
    await lamabot.renderer.flush_all()
    live = table(fake, "lama")
    assert [b.label for b in live.buttons][-1] == "Open the table"
    again = await fake.click(alice, live, "Open the table")
    assert again.activity_instance is instance and instance.users == [bob.id, alice.id]
    made = await page(bob, sign_in=True)  # the page the launch opened: the same game
    assert made.view["status"] == "running" and made.view["hand"] is not None


async def test_the_entry_point_is_registered_with_the_slash_commands(fake_discord, lamabot):
    fake = fake_discord
    [entry] = [c for c in fake.commands[None] if c["type"] == PRIMARY_ENTRY_POINT]
    assert entry["handler"] == DISCORD_LAUNCH_ACTIVITY and entry["name"] == "launch"
    assert entry["name_localizations"]["cs"] == "spustit"
    assert entry["description_localizations"]["es-ES"].startswith("Juega a LAMA")
    assert len([c for c in fake.commands[None] if c["type"] == 1]) > 3  # and the commands
    instance = await fake.use_entry_point(fake.user("carol"), "lama-2")  # Discord launches it
    assert instance.channel is fake.channel("lama-2")


async def test_launched_from_the_entry_point_in_a_channel_without_a_game(fake_discord, page):
    fake = fake_discord
    await fake.use_entry_point(fake.user("dave"), "lama-2")
    made = await page(fake.user("dave"), "lama-2")
    assert made.view["status"] == "none" and made.view["can"]["open_lobby"]
    await made.request("open_lobby")
    lobby = await made.state(lambda v: v["status"] == "lobby")
    assert [s["you"] for s in lobby["seats"]] == [True]


async def test_the_lobby_button_is_on_a_row_of_its_own(fake_discord, lamabot):
    fake = fake_discord
    lobby = await fake.slash(fake.user("alice"), "lama", "lama new")
    rows = [[c.get("label") for c in row["components"]] for row in lobby.components]
    assert rows[-1] == ["Open the table"] and len(rows[0]) == 5
