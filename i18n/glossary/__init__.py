"""The glossary of game terms per language: i18n/glossary/<locale>.toml (see en.toml)."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any

GLOSSARY_DIR = Path(__file__).parent


def glossary_path(locale: str) -> Path:
    return GLOSSARY_DIR / f"{locale}.toml"


@cache
def glossary(locale: str) -> dict[str, Any]:
    with glossary_path(locale).open("rb") as fh:
        return tomllib.load(fh)
