"""The Activity's words (i18n.activity): what the browser app gets, in every language.

The app (activity/src/*.ts) fills `{placeholders}` itself, so each word must be a single text
with plain `{name}` placeholders; every key the app's source asks for must be among the words
it is sent, and every `activity.*` key must be asked for somewhere (no dead words).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import i18n
from i18n.activity import BOOT_PREFIX, activity_boot_words, activity_keys, activity_words

SOURCES = Path(__file__).resolve().parents[2] / "activity" / "src"
ASKED = re.compile(r"""\bt\(\s*'([a-z_.]+)'""")
PLAIN = re.compile(r"\{(\w+)\}")


def asked_for() -> set[str]:
    """Every key the app's TypeScript looks up with `words.t('key', ...)`."""
    return {key for path in SOURCES.glob("*.ts") for key in ASKED.findall(path.read_text())}


def test_the_source_scan_finds_the_app_s_words():
    keys = asked_for()
    assert {"activity.your_turn", "action.draw", "activity.boot.connecting"} <= keys


def test_every_word_the_app_asks_for_is_sent_to_it():
    boot = {key for words in activity_boot_words().values() for key in words}
    missing = asked_for() - set(activity_keys()) - boot
    assert not missing, f"add them to i18n.activity.SHARED or as activity.* keys: {missing}"


def test_every_activity_word_is_used_by_the_app():
    own = {k for k in i18n.message_keys() if k.startswith("activity.")}
    assert not own - asked_for(), "unused Activity words: delete them"


@pytest.mark.parametrize("locale", i18n.SUPPORTED_LOCALES)
def test_each_word_is_one_text_whose_placeholders_the_app_can_fill(locale):
    words = activity_words(locale)
    assert set(words) == set(activity_keys())
    for key, text in words.items():
        assert text.strip(), key
        braces = text.count("{") + text.count("}")
        assert braces == 2 * len(PLAIN.findall(text)), f"{key}: only plain {{name}} placeholders"


def test_words_are_in_the_user_s_language_with_english_for_others():
    assert activity_words("cs")["action.draw"] == "Líznout si"
    assert activity_words("es-419")["activity.your_turn"] == "Te toca"
    assert activity_words("fr")["activity.your_turn"] == "Your turn"
    assert activity_words("cs")["table.on_turn"] == "Na tahu: {name}"


def test_boot_words_come_in_every_language_at_once():
    boot = activity_boot_words()
    assert set(boot) == set(i18n.SUPPORTED_LOCALES)
    assert all(key.startswith(BOOT_PREFIX) for words in boot.values() for key in words)
    assert boot["cs"]["activity.boot.retry"] == "Zkusit znovu"
    assert boot["en"].keys() == boot["es"].keys() == boot["cs"].keys()
