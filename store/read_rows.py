"""What crosses a reader process's pipe (store/read_process.py): parameters as the plain values
the child can unpickle (it imports nothing of the project), rows and errors as the store's own
read connections give them."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from store.backend import Params


class ReadRow:
    """One row read in a reader process, as a `sqlite3.Row` reads: `row["name"]` (any case)
    or `row[0]`, `keys()`, iterable, equal to a row of the same names and values."""

    __slots__ = ("_columns", "_index", "_values")

    def __init__(self, columns: tuple[str, ...], index: dict[str, int],
                 values: Sequence[Any]) -> None:
        self._columns, self._index, self._values = columns, index, values

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            position = self._index.get(key)
            if position is None:
                position = self._index.get(key.lower())
            if position is None:
                raise IndexError("No item with that key")  # sqlite3.Row's words
            return self._values[position]
        return self._values[key]

    def keys(self) -> list[str]:
        return list(self._columns)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ReadRow) and (self._columns, tuple(self)) == (
            other._columns, tuple(other))

    def __hash__(self) -> int:
        return hash((self._columns, tuple(self._values)))

    def __repr__(self) -> str:
        return f"ReadRow({list(zip(self._columns, self._values, strict=True))!r})"


def rows_of(columns: tuple[str, ...], found: Any) -> Any:
    """The rows of an answer: a list of them ("all"), one or None ("one")."""
    index: dict[str, int] = {}
    for position, name in enumerate(columns):  # as sqlite3.Row: the first of a repeated name
        index.setdefault(name, position)
        index.setdefault(name.lower(), position)
    if isinstance(found, list):
        return [ReadRow(columns, index, values) for values in found]
    return None if found is None else ReadRow(columns, index, found)


def error_of(type_name: str, message: str) -> Exception:
    """The reader's error as the store's own read connection raises it: SQLite's by its type,
    a number too large as OverflowError (as sqlite3 says it), anything else a programming
    error (a parameter SQLite cannot bind, or one the reader could not read)."""
    kind = getattr(sqlite3, type_name, None)
    if isinstance(kind, type) and issubclass(kind, sqlite3.Error):
        return kind(message)
    if type_name == "OverflowError":
        return OverflowError(message)
    return sqlite3.ProgrammingError(f"{type_name}: {message}")


def plain(params: Params) -> Params:
    """The parameters as the values SQLite binds them as: an enum member (a str or int of
    the project's) as its plain str or int, which the reader can unpickle."""
    if isinstance(params, Mapping):
        return {name: _plain(value) for name, value in params.items()}
    return tuple(_plain(value) for value in params)


def _plain(value: Any) -> Any:
    if value is None or type(value) in (int, float, str, bytes):
        return value
    if isinstance(value, int):  # a bool, an IntEnum: as sqlite3 binds them
        return int(value)
    if isinstance(value, float):
        return float(value)
    if isinstance(value, str):
        return str.__str__(value)
    return value
