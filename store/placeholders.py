"""SQLite's `?` and `:name` placeholders as PostgreSQL's `$1, $2, …`, translated once per
statement text and cached (the store has a few hundred distinct statements).

Quoted strings, quoted identifiers, comments and PostgreSQL's `::type` casts are left alone.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

# One alternative per token kind; only the last two are placeholders.
_TOKENS = re.compile(
    r"""'(?:[^']|'')*'        # a string literal
      | "(?:[^"]|"")*"        # a quoted identifier
      | --[^\n]*              # a line comment
      | /\*.*?\*/             # a block comment
      | ::                    # a cast, never a named parameter
      | (?P<positional>\?)
      | (?<![\w:]):(?P<named>[A-Za-z_]\w*)
    """,
    re.VERBOSE | re.DOTALL,
)


@dataclass(frozen=True, slots=True)
class Translated:
    sql: str
    #: The parameter names in `$n` order; None when the statement used `?`.
    names: tuple[str, ...] | None

    def args(self, params: Sequence[Any] | Mapping[str, Any]) -> Sequence[Any]:
        """The parameters in `$n` order."""
        if self.names is None:
            if isinstance(params, Mapping):
                raise TypeError(f"positional placeholders need a sequence: {self.sql[:80]!r}")
            return params
        if not isinstance(params, Mapping):
            if not self.names and not params:  # no placeholders at all
                return ()
            raise TypeError(f"named placeholders need a mapping: {self.sql[:80]!r}")
        return [params[name] for name in self.names]


@lru_cache(maxsize=2048)
def to_numbered(sql: str) -> Translated:
    """`sql` with `?` or `:name` placeholders replaced by `$n` (never both kinds in one)."""
    positional = 0
    names: list[str] = []

    def replace(match: re.Match[str]) -> str:
        nonlocal positional
        if match["positional"]:
            positional += 1
            return f"${positional}"
        if match["named"]:
            name = match["named"]
            if name not in names:
                names.append(name)
            return f"${names.index(name) + 1}"
        return match[0]

    text = _TOKENS.sub(replace, sql)
    if positional and names:
        raise ValueError(f"a statement mixes ? and :name placeholders: {sql[:80]!r}")
    return Translated(text, None if positional else tuple(names))
