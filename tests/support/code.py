"""The project's production code as files, module names and parsed trees (for the tests of
the code's shape)."""

from __future__ import annotations

import ast
import os
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


SKIPPED = {"tests", ".venv", "data", "__pycache__", ".git"}


@cache
def production_files() -> tuple[Path, ...]:
    """Walked once (not through the virtualenv's many thousand files: its folder, like every
    hidden one, is pruned before it is entered)."""
    found = []
    for folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = [d for d in subfolders if d not in SKIPPED and not d.startswith(".")]
        found.extend(Path(folder) / name for name in files if name.endswith(".py"))
    return tuple(sorted(found))


@cache
def module_names() -> frozenset[str]:
    return frozenset(module_name(p) for p in production_files())


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
