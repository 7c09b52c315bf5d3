"""PostgreSQL's batches (`Database.batch`) as one statement: one round trip, no BEGIN/COMMIT.

A move's usual commit is a few fixed statements (a guarded UPDATE of the game, the move log
row, the seat's time-out count, the render outbox). In a transaction that is BEGIN, one trip
per statement and COMMIT, each trip waiting for the server on the same busy cores. Written as
data-modifying WITH clauses of a single statement, the batch is one trip and commits on its
own (a statement is atomic): `WITH s0 AS (UPDATE … RETURNING 1), s1 AS (INSERT …), …
SELECT 1 / (SELECT count(*) FROM s0)` — a guard that changed no row divides by zero, which
undoes the whole statement.

All parts of one statement see the same snapshot and may not change one row twice, so only a
batch whose statements write different tables, none reading a table an earlier one wrote,
goes as one statement; any other runs statement by statement in a transaction (the batch's
defined meaning: in order). A guarded UPDATE still locks its row and re-checks its WHERE on
the newest committed version, so the compare-and-set on `last_seq` holds across processes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from store.backend import Statement

_WRITES = re.compile(r"\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(\w+)", re.IGNORECASE)


def written_table(sql: str) -> str | None:
    """The table an INSERT, UPDATE or DELETE writes; None for anything else."""
    match = _WRITES.match(sql)
    return match[1].lower() if match else None


def independent(statements: Sequence[Statement]) -> bool:
    """Whether the statements may run as one: each writes a table of its own and none
    mentions a table an earlier one wrote (it would not see that write)."""
    written: list[str] = []
    for statement in statements:
        table = written_table(statement.sql)
        if table is None or table in written or isinstance(statement.params, Mapping):
            return False
        if any(re.search(rf"\b{name}\b", statement.sql, re.IGNORECASE) for name in written):
            return False
        written.append(table)
    return True


def guards_lead(statements: Sequence[Statement]) -> bool:
    """Every guard comes before every other statement: a guard that changed nothing is then
    what a transaction would have stopped at first, so the batch's answer is plainly False."""
    kinds = [s.guard for s in statements]
    return kinds == sorted(kinds, reverse=True)


def one_statement(statements: Sequence[Statement]) -> tuple[str, list[Any]] | None:
    """The batch as one statement with `?` placeholders and its parameters, or None if its
    statements are not `independent`."""
    if not statements or not independent(statements):
        return None
    parts: list[str] = []
    args: list[Any] = []
    guards: list[str] = []
    for n, statement in enumerate(statements):
        returning = " RETURNING 1" if statement.guard else ""
        parts.append(f"s{n} AS ({statement.sql}{returning})")
        args.extend(statement.params)
        if statement.guard:
            guards.append(f" / (SELECT count(*) FROM s{n})")
    return f"WITH {', '.join(parts)} SELECT 1{''.join(guards)}", args
