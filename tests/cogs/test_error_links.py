"""A refusal that points at a game links it in words (issue 34): the message it is shown in
when known, else its channel; never a bare URL."""

from __future__ import annotations

from cogs.errors import explain
from hosting import HostingError, Problem


def test_a_game_elsewhere_in_the_channel_is_linked_by_its_message():
    error = HostingError(Problem.GAME_EXISTS, game_id=4, guild_id=1, channel_id=2, message_id=3)
    assert explain(error, "en") == (
        "There's already [a game in this channel](https://discord.com/channels/1/2/3).")


def test_without_its_message_the_refusal_links_the_channel():
    """Another process's lobby, found by the store only: its channel is known."""
    error = HostingError(Problem.GAME_EXISTS, guild_id=1, channel_id=2)
    assert explain(error, "es") == (
        "Ya hay [una partida en este canal](https://discord.com/channels/1/2).")
