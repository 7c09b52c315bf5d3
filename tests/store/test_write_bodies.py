"""The rule of `Database.write(body)`, checked over the store's code: a body awaits nothing but
its transaction's statements, directly or through store helpers it hands the transaction to,
which follow the same rule (store/README.md).

On SQLite the body runs in the connection's thread, driven to its end in one step
(store/sqlite_transactions.py). An await that suspends is caught there at run time; one that
happens to complete at once (an uncontended asyncio.Lock, a cached result, another store
call that answers from memory) would run event-loop objects in that thread unnoticed. No
run-time check sees those, so this reads the code: every `await` of a body, and of every
helper it reaches, is `tx.<statement>(…)` or a call of a store function that is given `tx`
(then checked in turn); no `async with`, no `async for`.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from tests.support.code import ROOT, module_name, parsed, production_files

Defined = ast.FunctionDef | ast.AsyncFunctionDef


@dataclass
class StoreCode:
    """The store's modules, parsed, and what each name in them stands for."""

    modules: dict[str, ast.Module]
    imported: dict[str, dict[str, tuple[str, str]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name, tree in self.modules.items():
            self.imported[name] = {
                alias.asname or alias.name: (node.module, alias.name)
                for node in tree.body if isinstance(node, ast.ImportFrom) and node.module
                for alias in node.names
            }

    def function(self, module: str, name: str, scope: Defined | None) -> tuple[str, Defined] | None:
        """The function `name` means in `module` (nested in `scope` first), if the store's."""
        nested = [] if scope is None else [n for n in ast.walk(scope) if n is not scope]
        top = self.modules[module].body
        for node in (*nested, *top):
            if isinstance(node, Defined) and node.name == name:
                return module, node
        source = self.imported[module].get(name)
        if source is None or source[0] not in self.modules:
            return None
        return self.function(source[0], source[1], None)


@dataclass
class Checker:
    code: StoreCode
    problems: list[str] = field(default_factory=list)
    checked: set[tuple[int, str]] = field(default_factory=set)

    def bodies(self) -> None:
        """Every function handed to a database's `.write(…)` in the store (`db.write`,
        `self._db.write`; a pipe's or a file's `write` is not one)."""
        for module, tree in self.code.modules.items():
            for scope in ast.walk(tree):
                if not isinstance(scope, Defined):
                    continue
                for call in ast.walk(scope):
                    if (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                            and call.func.attr == "write" and len(call.args) == 1
                            and _a_database(call.func.value)):
                        self.body(module, scope, call.args[0])

    def body(self, module: str, scope: Defined, given: ast.expr) -> None:
        bound = 0
        if isinstance(given, ast.Call) and ast.unparse(given.func) in ("partial",
                                                                        "functools.partial"):
            given, bound = given.args[0], len(given.args) - 1
        found = (self.code.function(module, given.id, scope)
                 if isinstance(given, ast.Name) else None)
        if found is None:
            self.problems.append(f"{module}: write({ast.unparse(given)}): no store function")
            return
        where, function = found
        self.awaits(where, function, function.args.args[bound].arg)

    def awaits(self, module: str, function: Defined, tx: str) -> None:
        if (id(function), tx) in self.checked:
            return
        self.checked.add((id(function), tx))
        for node in _own_nodes(function):
            place = f"{module}.{function.name} line {getattr(node, 'lineno', '?')}"
            if isinstance(node, ast.AsyncWith | ast.AsyncFor):
                self.problems.append(f"{place}: async with/for in a write body")
            elif isinstance(node, ast.Await):
                self.awaited(module, function, tx, node.value, place)

    def awaited(self, module: str, function: Defined, tx: str, value: ast.expr,
                place: str) -> None:
        if isinstance(value, ast.Call):
            func = value.func
            if isinstance(func, ast.Attribute) and _is(func.value, tx):
                return  # one of the transaction's statements
            helper = (self.code.function(module, func.id, function)
                      if isinstance(func, ast.Name) else None)
            parameter = None if helper is None else _parameter_given(helper[1], value, tx)
            if helper is not None and parameter is not None:
                self.awaits(helper[0], helper[1], parameter)
                return
        self.problems.append(f"{place}: awaits {ast.unparse(value)}, not its transaction")


def _a_database(node: ast.expr) -> bool:
    name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")
    return name.lstrip("_") in ("db", "database")


def _is(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _own_nodes(function: Defined) -> list[ast.AST]:
    """The function's nodes, without those of functions defined inside it (checked if used)."""
    found, todo = [], list(function.body)
    while todo:
        node = todo.pop()
        found.append(node)
        if not isinstance(node, Defined | ast.Lambda):
            todo.extend(ast.iter_child_nodes(node))
    return found


def _parameter_given(helper: Defined, call: ast.Call, tx: str) -> str | None:
    """The helper's parameter that this call hands the transaction `tx` to, if any."""
    parameters = [a.arg for a in (*helper.args.posonlyargs, *helper.args.args)]
    for index, argument in enumerate(call.args):
        if _is(argument, tx) and index < len(parameters):
            return parameters[index]
    return next((k.arg for k in call.keywords if k.arg and _is(k.value, tx)), None)


def problems(modules: dict[str, ast.Module]) -> list[str]:
    checker = Checker(StoreCode(modules))
    checker.bodies()
    return sorted(checker.problems)


def store_modules() -> dict[str, ast.Module]:
    return {module_name(p): parsed(p) for p in production_files()
            if p.relative_to(ROOT).parts[0] == "store"}


AWAITS_A_LOCK = '''
from store.backend import Transaction

async def touch(tx: Transaction, game_id: int, lock) -> None:
    async with lock:
        await tx.execute("UPDATE games SET updated_at = 1 WHERE id = ?", (game_id,))

class Games:
    async def rename(self, game_id: int) -> None:
        async def body(tx: Transaction) -> None:
            await tx.execute("UPDATE games SET name = ? WHERE id = ?", ("x", game_id))
            await self._cache.get(game_id)
            await touch(tx, game_id, self._lock)
        await self._db.write(body)
'''


def test_every_write_body_of_the_store_awaits_only_its_transaction():
    modules = store_modules()
    assert "store.games" in modules and "store.move_commit" in modules
    assert problems(modules) == []


def test_a_write_body_that_awaits_something_else_is_found():
    found = problems({"store.example": ast.parse(AWAITS_A_LOCK)})
    assert found == [
        "store.example.body line 12: awaits self._cache.get(game_id), not its transaction",
        "store.example.touch line 5: async with/for in a write body",
    ]


def test_the_checker_reaches_the_helpers_the_store_s_bodies_use():
    checker = Checker(StoreCode(store_modules()))
    checker.bodies()
    reached = {function for function, _ in checker.checked}
    names = {node.name for tree in store_modules().values() for node in ast.walk(tree)
             if isinstance(node, Defined) and id(node) in reached}
    assert {"commit_checked", "check_lobby", "load_game", "needs_showing", "claim_it", "take",
            "hold", "create"} <= names
