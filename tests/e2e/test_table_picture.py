"""The table's picture is uploaded only when it changes (issue 34, point 5). An edit whose
picture would be the one the table carries (a quit: the top card and the piles stay) lists
that attachment by id, as Discord keeps it, and uploads nothing: on a real client each upload
is an image reload and a layout jump. Before, every edit uploaded the picture again (211
uploads for 217 table states in one game)."""

from __future__ import annotations

from dataclasses import replace

from lama import Game
from tests.support.e2e import (
    find_seed,
    on_turn,
    settle,
    table,
    the_first_quit_ends_round_1,
    two_humans,
)

EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"


def table_edits(fake, message) -> list:
    return [call for call in fake.rest_calls(EDIT)
            if call.params.get("message_id") == str(message.id)]


def _the_round_goes_on_after_a_quit(game: Game) -> bool:
    """The deal of this test: the other player can still play after the starter quits (with
    some deals they are forced out and the quit ends the round: a closed table's edit)."""
    return not the_first_quit_ends_round_1(game)


async def test_a_quit_edits_the_table_without_uploading_its_picture(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    seed = find_seed("classic", 2, _the_round_goes_on_after_a_quit)
    game_id, channel = await two_humans(fake, bot, seed)
    shown = table(fake, channel)
    (posted,) = shown.attachments
    mover, _ = on_turn(fake, bot, game_id)
    assert (await fake.slash(mover, channel, "quit")).ephemeral
    await settle(bot, game_id)
    (edit,) = table_edits(fake, shown)
    assert edit.files == [], [f.filename for f in edit.files]
    assert edit.body["attachments"] == [{"id": str(posted.id), **edit.body["attachments"][0]}]
    assert [a.id for a in table(fake, channel).attachments] == [posted.id]  # kept, shown


async def test_a_draw_uploads_the_changed_picture(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot)
    shown = table(fake, channel)
    (posted,) = shown.attachments
    mover, _ = on_turn(fake, bot, game_id)
    assert (await fake.slash(mover, channel, "draw")).ephemeral
    await settle(bot, game_id)
    (edit,) = table_edits(fake, shown)
    assert [f.filename for f in edit.files] == ["table.png"]  # the draw pile's count changed
    assert [a.id for a in table(fake, channel).attachments] != [posted.id]


async def test_a_table_whose_picture_another_process_replaced_is_edited_with_it_uploaded(
        fake_discord, lamabot):
    """Two processes: another one edited this table meanwhile and uploaded its picture again,
    so the attachment this process remembers is gone. An edit that names it is refused
    (400: the layout's picture names no attachment); the table must still show the move,
    with its picture uploaded, not stay as it was until the picture changes."""
    fake, bot = fake_discord, lamabot
    seed = find_seed("classic", 2, _the_round_goes_on_after_a_quit)
    game_id, channel = await two_humans(fake, bot, seed)
    shown = table(fake, channel)
    (posted,) = shown.attachments
    shown.attachments = [replace(posted, id=fake.snowflakes.next())]  # the other's upload
    before = shown.display_text
    mover, _ = on_turn(fake, bot, game_id)
    assert (await fake.slash(mover, channel, "quit")).ephemeral
    await settle(bot, game_id)
    await bot.renderer.flush_all()
    now = table(fake, channel)
    assert now.display_text != before  # the quit is shown
    assert [a.filename for a in now.attachments] == ["table.png"]
    assert fake.take_errors("invalid_body")  # the one refused edit, named the gone picture
