"""/play, /draw, /quit and /lama hand by someone not seated in the channel's open lobby say
that they are not in this game, in the autocomplete's hint and in the refusal alike; a player
seated in it is still told the game hasn't started yet. Before, everyone heard "The game
hasn't started yet…", as if the game would be theirs once it did."""

from __future__ import annotations

import pytest

from cogs.moves import NO_CARD
from tests.support.e2e import Unchanged, open_game, refused

NOT_IN_GAME = "You're not playing in this game."
NOT_STARTED = "The game hasn't started yet"


@pytest.fixture
async def lobby(fake_discord, lamabot):
    """alice's lobby in #lama, bob seated in it, not started."""
    channel = fake_discord.channel("lama")
    game_id = await open_game(fake_discord, lamabot, channel, fake_discord.user("alice"),
                              fake_discord.user("bob"), start=False)
    return game_id, channel


async def hint(fake, user, channel) -> list[str]:
    choices = await fake.autocomplete(user, channel, "play", focused="card", card="")
    assert [c["value"] for c in choices] == [NO_CARD]
    return [c["name"] for c in choices]


async def test_the_hint_tells_a_bystander_they_are_not_in_this_game(
    fake_discord, lamabot, lobby
) -> None:
    _game_id, channel = lobby
    assert await hint(fake_discord, fake_discord.user("carol"), channel) == [
        "You're not playing in this game"]
    assert await hint(fake_discord, fake_discord.user("bob"), channel) == [
        "The game hasn't started yet"]


@pytest.mark.parametrize(("command", "options"), [
    ("play", {"card": NO_CARD}), ("play", {"card": "3"}), ("draw", {}), ("quit", {}),
    ("lama hand", {}),
])
async def test_a_bystanders_move_is_refused_as_not_in_this_game(
    fake_discord, lamabot, lobby, command, options
) -> None:
    fake, bot = fake_discord, lamabot
    game_id, channel = lobby
    async with Unchanged(fake, bot, game_id, channel):
        result = await fake.slash(fake.user("carol"), channel, command, **options)
    refused(result, NOT_IN_GAME)
    assert NOT_STARTED not in result.text
    seated = await fake.slash(fake.user("bob"), channel, command, **options)
    refused(seated, NOT_STARTED)


@pytest.mark.parametrize(("locale", "says"), [
    ("cs", "V této hře nehraješ"), ("es-ES", "No juegas en esta partida")])
async def test_the_hint_speaks_the_bystanders_language(
    fake_discord, lamabot, lobby, locale, says
) -> None:
    carol = fake_discord.user("carol")
    carol.locale = locale
    assert await hint(fake_discord, carol, lobby[1]) == [says]
