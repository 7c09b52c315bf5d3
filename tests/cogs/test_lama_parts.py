"""The /lama GroupCog is made of parts (cogs/lama.py): each is a real commands.Cog, at run
time as for mypy, and their commands all land in the one /lama group."""

from __future__ import annotations

from discord.ext import commands

from cogs.lama import Lama
from cogs.language import LanguageCommands
from cogs.notify import NotifyCommands
from cogs.rematches import RematchPresses
from cogs.stats import StatsCommands
from cogs.tournaments import TournamentCommands

PARTS = (RematchPresses, StatsCommands, TournamentCommands, LanguageCommands, NotifyCommands)


def test_each_part_of_the_lama_cog_is_a_cog_at_run_time():
    for part in PARTS:
        assert issubclass(part, commands.Cog), part.__name__
    assert Lama.__mro__[1:len(PARTS) + 1] == PARTS
    assert issubclass(Lama, commands.GroupCog) and Lama.__cog_is_app_commands_group__


def test_the_lama_group_holds_the_commands_of_every_part():
    assert Lama.__cog_group_name__ == "lama"
    assert sorted(c.name for c in Lama.__cog_app_commands__) == [
        "cancel", "forget-me", "hand", "history", "join", "kick", "language", "leave", "new",
        "notify", "replay", "rules", "settings", "start", "stats", "table", "tournament"]
    tournament = next(c for c in Lama.__cog_app_commands__ if c.name == "tournament")
    assert sorted(c.name for c in tournament.commands) == ["new", "standings"]
