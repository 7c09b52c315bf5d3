"""i18n.sync keeps translators' English reference comments and key lists current."""

from __future__ import annotations

import shutil

import i18n.catalog
from i18n import sync
from i18n.catalog import load, read_catalog


def test_catalogues_are_in_sync():
    """Fails when English changed and `python -m i18n.sync` was not run."""
    assert sync.main(["--check"]) == 0


def test_sync_adds_new_english_keys_untranslated(tmp_path, monkeypatch, capsys):
    shutil.copytree(i18n.catalog.LOCALES_DIR, tmp_path, dirs_exist_ok=True)
    monkeypatch.setattr(i18n.catalog, "LOCALES_DIR", tmp_path)
    en = tmp_path / "en" / "LC_MESSAGES" / "lamabot.po"
    en.write_text(
        en.read_text(encoding="utf-8")
        + '\nmsgid "new.thing"\nmsgstr "A new thing"\n'
        + '\nmsgid "new.count"\nmsgid_plural "new.count"\n'
        + 'msgstr[0] "{count} thing"\nmsgstr[1] "{count} things"\n',
        encoding="utf-8",
    )
    assert sync.main(["--check"]) == 1
    assert sync.main([]) == 0
    assert sync.main(["--check"]) == 0
    capsys.readouterr()
    for locale, forms in (("cs", 3), ("es", 2)):
        entry = read_catalog(locale).get("new.count")
        assert entry is not None and len(entry.string) == forms
        assert "en: {count} thing | {count} things" in entry.auto_comments
        # untranslated entries are skipped, so the English text is what players see
        assert "new.thing" not in load(locale).messages
