"""/lama settings shows every on/off value the same way in each language (issue 34): one
capitalisation, and in Spanish each value agrees with the setting it answers ("Partidas en
hilos: Desactivadas", "Tiempo por turno: Desactivado")."""

from __future__ import annotations

import pytest

from cogs.stats_embeds import settings_embed
from store import GuildSettings

OFF = GuildSettings(1, turn_timeout_s=0, ai_delay_s=0, game_threads=False, season_cadence="off")
ON = GuildSettings(1, game_threads=True, season_cadence="monthly")


def values(settings: GuildSettings, locale: str) -> dict[str, str]:
    embed = settings_embed(settings, locale, saved_now=False)
    return {f.name: f.value for f in embed.fields}


SWITCHES = {  # the fields that can read on or off, by their name in each language
    "en": ("Turn timer", "AI move delay", "Games in threads", "Rating seasons"),
    "cs": ("Časový limit tahu", "Prodleva tahu AI", "Hry ve vláknech", "Sezóny hodnocení"),
    "es": ("Tiempo por turno", "Retraso de la IA", "Partidas en hilos",
           "Temporadas de valoración"),
}


@pytest.mark.parametrize("locale", ["en", "cs", "es"])
def test_every_on_and_off_value_is_capitalised_alike(locale):
    shown = values(OFF, locale) | {f"{k} (on)": v for k, v in values(ON, locale).items()}
    switches = [v for k, v in shown.items() if k.removesuffix(" (on)") in SWITCHES[locale]]
    assert len(switches) == 8, shown
    assert all(v[0].isupper() or v[0].isdigit() for v in switches), switches


@pytest.mark.parametrize(("locale", "threads_off", "threads_on", "timer_off"), [
    ("en", "Off", "On", "Off"),
    ("cs", "Vypnuto", "Zapnuto", "Vypnuto"),
    ("es", "Desactivadas", "Activadas", "Desactivado"),
])
def test_on_and_off_read_naturally_beside_their_setting(locale, threads_off, threads_on,
                                                        timer_off):
    timer, _, threads, seasons = SWITCHES[locale]
    assert values(OFF, locale)[threads] == threads_off
    assert values(ON, locale)[threads] == threads_on
    assert values(OFF, locale)[timer] == timer_off
    assert values(OFF, locale)[seasons] == {"en": "Off", "cs": "Vypnuto",
                                             "es": "Desactivadas"}[locale]
