"""The shape of the code, checked: files and functions stay small enough to read, modules
depend on each other one way, and production code never depends on the tests.

Production is every Python file outside tests/ and the virtualenv (benchmarks included).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.support.code import ROOT, module_name, module_names, parsed, production_files

MAX_FILE_LINES = 400
MAX_FUNCTION_LINES = 60
# The test doubles (the loopback Discord, the throwaway PostgreSQL cluster) are a package of
# their own: tests and benchmarks use it; the bot never does.
HARNESS = "loopback"
MAY_USE_THE_HARNESS = ("benchmarks", HARNESS)


def test_there_is_production_code_to_check():
    names = {module_name(p) for p in production_files()}
    assert {"bot", "lama.game", "hosting.service", "store.games", "cogs.lama"} <= names


@pytest.mark.parametrize("path", production_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_file_is_longer_than_400_lines(path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_FILE_LINES, f"{lines} lines: split it where its seams are"


def test_no_function_is_longer_than_60_lines():
    long = [
        f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({length} lines)"
        for path in production_files()
        for node in ast.walk(parsed(path))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and (length := node.end_lineno - node.lineno + 1) > MAX_FUNCTION_LINES
    ]
    assert not long


# ---------------------------------------------------------------------------- imports


def imported_names(path: Path) -> set[str]:
    """Every module this file imports, as absolute dotted names: `from a import b` names a.b
    when that is a module of ours, else a. Imports for the type checker only (`if
    TYPE_CHECKING:`) count too: a cycle the type checker needs is a knot all the same."""
    modules = module_names()
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found: set[str] = set()
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            source = ".".join([*base, node.module] if node.module else base)
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                found.add(submodule if submodule in modules else source)
    return found


def import_graph() -> dict[str, set[str]]:
    """Project module -> the project modules it imports."""
    modules = {module_name(p): p for p in production_files()}
    return {
        name: {other for other in imported_names(path) if other in modules and other != name}
        for name, path in modules.items()
    }


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                connect(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return found


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_imports_itself_back_through_others():
    """Not even for the type checker, and not in the loopback Discord either: its handler
    modules name the fake by the protocol in loopback/world.py, never by its server."""
    assert cycles(import_graph()) == []


def _importers_of(*packages: str, allowed: tuple[str, ...] = ()) -> list[str]:
    return [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in production_files() if not module_name(path).startswith(allowed)
        for name in imported_names(path) if name.split(".")[0] in packages
    ]


def test_production_code_never_imports_the_tests():
    assert not _importers_of("tests")


def test_nothing_below_the_bot_imports_it():
    """bot.py is the composition root: it imports the cogs, the services and the web pages,
    and none of them imports it back, not even for the type checker (the cogs name the bot
    by cogs.host.LamaHost; the renderer is handed what it needs, cogs/render/ports.py). Only
    what runs the bot (the tests, the benchmarks) imports it."""
    assert not _importers_of("bot", allowed=("bot", "benchmarks"))


def test_only_benchmarks_use_the_loopback_discord():
    assert not _importers_of(HARNESS, allowed=MAY_USE_THE_HARNESS)


def test_the_loopback_discord_and_the_benchmarks_import_no_pytest():
    """Both run outside pytest: the benchmarks and any tool driving the fake."""
    assert not _importers_of("pytest", "_pytest")


def test_the_layers_point_one_way():
    """cogs → hosting → lama / store, and web → hosting: nothing below the cogs knows Discord
    or the cogs, and the web pages know neither."""
    graph = import_graph()
    below = {"lama": ("hosting", "store", "cogs", "bot", "web"),
             "store": ("lama", "hosting", "cogs", "bot", "web"),
             "hosting": ("cogs", "bot", "web"), "web": ("cogs", "bot")}
    wrong = [
        f"{module} imports {other}"
        for module, imports in graph.items()
        for other in imports
        if any(module.split(".")[0] == layer and other.split(".")[0] in forbidden
               for layer, forbidden in below.items())
    ]
    assert not wrong
    discord_users = [
        module for module in graph
        if module.split(".")[0] in below
        and any(n == "discord" or n.startswith("discord.") for n in imported_names(
            ROOT / (module.replace(".", "/") + ".py")
            if (ROOT / (module.replace(".", "/") + ".py")).exists()
            else ROOT / module.replace(".", "/") / "__init__.py"))
    ]
    assert not discord_users


def _imports_from(package: str, *others: str) -> list[str]:
    return [
        f"{module} imports {other}"
        for module, imports in import_graph().items() if module.split(".")[0] == package
        for other in imports if other.split(".")[0] in others
    ]


def test_the_card_art_and_the_languages_stand_alone():
    """cardart draws cards from their codes and the corner letters it is handed: it imports
    nothing else of ours (the callers ask i18n for the letters), and i18n knows no pictures."""
    ours = {module.split(".")[0] for module in import_graph()} - {"cardart"}
    assert not _imports_from("cardart", *ours)
    assert not _imports_from("i18n", "cardart")


def test_no_test_module_imports_another():
    """Helpers live in support modules and fixtures in conftest.py, so a test module can be
    read, moved or deleted on its own."""
    offenders = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in sorted((ROOT / "tests").rglob("*.py"))
        for name in imported_names(path)
        if name.startswith("tests.") and name.rsplit(".", 1)[-1].startswith(("test_", "conftest"))
    ]
    assert not offenders
