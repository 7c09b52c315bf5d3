"""Whole games in Czech and Spanish, read the way the players read them.

A game is played on the loopback Discord with a Czech and a Spanish player and an AI; then
every line the channel saw (each state of each public message) is checked:
- no line for the whole table says "you" to one person (lines that mention a player may);
- each catalogue message found in the channel is marked `#, public` or `#, addressed` in the
  English catalogue (where its text is distinctive enough to be recognised).

`LAMA_TRANSCRIPT=1 pytest tests/e2e/test_public_language.py -s` prints what everyone saw.
"""

from __future__ import annotations

import os
import random
import re
from dataclasses import dataclass, field, replace

import pytest

import i18n
from hosting import Status
from i18n.catalog import load
from tests.support.e2e import open_game, settle
from tests.support.language import singular_you

MIN_LITERAL = 12  # characters of fixed text a message needs to be recognised in the channel


@dataclass
class Transcript:
    public: list[str] = field(default_factory=list)
    private: dict[str, list[str]] = field(default_factory=dict)

    def see(self, lines: list[str]) -> None:
        for line in lines:
            if line and line not in self.public:
                self.public.append(line)


def message_lines(message) -> list[str]:
    labels = [b.label for b in message.buttons if b.label]
    return [line for line in message.text.split("\n") if line.strip()] + labels


def snapshot(fake, channel, transcript: Transcript) -> None:
    for message in fake.public_messages(channel):
        transcript.see(message_lines(message))


async def move(fake, bot, game_id, channel, rng) -> None:
    view = bot.service.view(game_id)
    user = fake.users_by_id[view.seats[view.current_seat].user_id]
    obs = bot.service.observation(game_id, user.id)
    if obs.legal_plays and rng.random() < 0.8:
        await fake.slash(user, channel, "play", card=rng.choice(obs.legal_plays).code)
    elif obs.can_draw and rng.random() < 0.7:
        await fake.slash(user, channel, "draw")
    else:
        await fake.slash(user, channel, "quit")
    await settle(bot, game_id)


async def play_whole_game(fake, bot, server_locale: str, *, variant: str, seed: int = 5):
    """Eva (cs), Ana (es-ES) and Olga (es-419, who leaves the lobby, comes back and is kicked
    once the game runs) play with an AI until the game ends, in a server speaking
    ``server_locale``; then the public statistics are asked for."""
    settings = await bot.service.guild_settings(fake.guild.id)
    await bot.service.save_guild_settings(replace(settings, locale=server_locale))
    eva, ana = fake.add_user("Eva", locale="cs"), fake.add_user("Ana", locale="es-ES")
    olga = fake.add_user("Olga", locale="es-419")
    channel = fake.channel("lama")
    transcript = Transcript()
    game_id = await open_game(fake, bot, channel, eva, ana, olga, start=False, variant=variant,
                              target=20, ai_seats=1)
    snapshot(fake, channel, transcript)
    await fake.slash(olga, channel, "lama leave")  # the lobby hears who comes and goes
    snapshot(fake, channel, transcript)
    await fake.slash(olga, channel, "lama join")
    await fake.slash(eva, channel, "lama start")
    await settle(bot, game_id)
    snapshot(fake, channel, transcript)
    await fake.slash(eva, channel, "lama kick", user=olga)  # the table hears an AI takes over
    await settle(bot, game_id)
    rng = random.Random(seed)
    for _ in range(400):
        snapshot(fake, channel, transcript)
        if bot.service.view(game_id).status is not Status.RUNNING:
            break
        await move(fake, bot, game_id, channel, rng)
    assert bot.service.view(game_id).status is Status.FINISHED
    for command in ("lama stats", "leaderboard", "lama history"):
        await fake.slash(ana, channel, command)
    snapshot(fake, channel, transcript)
    for user in (eva, ana, olga):
        lines = [line for m in (*fake.dms(user), *fake.ephemeral_messages(user))
                 for line in message_lines(m)]
        transcript.private[user.name] = lines
    if os.environ.get("LAMA_TRANSCRIPT"):
        print(f"\n===== server {server_locale}, {variant}: the channel =====")
        print("\n".join(transcript.public))
        for name, lines in transcript.private.items():
            print(f"----- {name} privately -----")
            print("\n".join(dict.fromkeys(lines)))
    return transcript


def recognisers(locale: str):
    """(key, regex) for each message whose fixed text is long enough to recognise."""
    catalog = load(locale)
    for key, message in catalog.messages.items():
        if key.startswith("activity."):  # the Activity's words: shown in its page, never a message
            continue
        for form in message.forms:
            parts = re.split(r"\{[^{}]*\}", form)
            if sum(len(p.strip()) for p in parts) < MIN_LITERAL or "\n" in form:
                continue
            pattern = "(.+?)".join(re.escape(p) for p in parts)
            yield key, re.compile(pattern)


def unmarked_keys_seen(lines: list[str], locale: str) -> dict[str, str]:
    seen = {}
    for key, pattern in recognisers(locale):
        if i18n.is_public(key) or "addressed" in load("en").messages[key].flags:
            continue
        for line in lines:
            if pattern.search(line):
                seen[key] = line
    return seen


@pytest.mark.parametrize(("server", "variant"), [("cs", "party"), ("es", "komarami")])
async def test_a_whole_game_speaks_to_the_whole_table(fake_discord, lamabot, server, variant):
    transcript = await play_whole_game(fake_discord, lamabot, server, variant=variant)
    assert len(transcript.public) > 30  # a whole game, not an empty channel
    to_one = [
        (line, hits) for line in transcript.public
        if "<@" not in line and (hits := singular_you(line, server))
    ]
    assert not to_one, f"public lines that speak to one player: {to_one}"
    unmarked = unmarked_keys_seen(transcript.public, server)
    assert not unmarked, (
        "these messages appear in the channel but the English catalogue does not mark them "
        f"`#, public` (or `#, addressed`); mark them and run `python -m i18n.sync`: {unmarked}"
    )


def test_the_marker_check_recognises_a_message():
    line = "Eva hraje lamu"
    assert "move.played" in {key for key, p in recognisers("cs") if p.search(line)} or (
        len("hraje") < MIN_LITERAL  # too short to recognise: fine, it is marked anyway
    )
    summary = i18n.t("round.new_hands", "cs")
    assert "round.new_hands" in {key for key, p in recognisers("cs") if p.search(summary)}
