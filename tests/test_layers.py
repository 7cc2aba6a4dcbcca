"""The structure of the package: no import circle, and no import from a lower layer to a higher one.

Every import counts, at module level or inside a function (an import inside a function is still a
dependency: it only moves the cost to later); imports under ``if TYPE_CHECKING:`` are for the type
checker and do not run, so they do not count.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "assistant"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def _type_checking_only(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


def _imports(module: str) -> set[str]:
    """The package's modules that ``module`` imports, wherever in its code."""
    path = MODULES[module]
    here = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking_only(child):
                continue
            if isinstance(child, ast.ImportFrom):
                base = ".".join(here[: len(here) - (child.level - 1)] + ([child.module] if child.module else [])) if child.level else child.module or ""
                for alias in child.names:
                    sub = f"{base}.{alias.name}"
                    found.add(sub if sub in MODULES else base)
            elif isinstance(child, ast.Import):
                found.update(a.name for a in child.names)
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return {m for m in found if m in MODULES and m != module}


GRAPH = {m: _imports(m) for m in MODULES}


def _circles() -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(GRAPH[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                circles.append(sorted(part))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    return circles


def test_no_import_circle() -> None:
    assert _circles() == []


def _under(module: str, *packages: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


#: (who, what it must never import, why)
NEVER = [
    (("assistant.geometry",), ("assistant",), "the geometry core imports nothing of the package but itself"),
    (("assistant.cardgame",), ("assistant.destiny", "assistant.swtcg", "assistant.cardgames"), "the card games' shared base knows no game"),
    (("assistant.destiny",), ("assistant.swtcg", "assistant.cardgames"), "one card game never reaches into another, nor up to the registry"),
    (("assistant.swtcg",), ("assistant.destiny", "assistant.cardgames"), "one card game never reaches into another, nor up to the registry"),
    (("assistant.commands",), ("assistant.cli", "assistant.live"), "the command layer is below every edge"),
    (("assistant.game", "assistant.rules", "assistant.position", "assistant.photo", "assistant.cardgame", "assistant.destiny",
      "assistant.swtcg", "assistant.model", "assistant.editions", "assistant.cards"),
     ("assistant.cli", "assistant.live", "assistant.commands"), "the engine never imports the layers that use it"),
    (("assistant.live",), ("assistant.cli",), "the web app is an edge beside the CLI, not above it"),
    (("assistant.abilities",), ("assistant.rules",), "the ability catalogue sits below the edition records that name its abilities"),
    (("assistant.cards", "assistant.stats"), ("assistant.model",), "the card library sits below the board model that holds its cards"),
]


@pytest.mark.parametrize(("who", "never", "why"), NEVER, ids=[n[2] for n in NEVER])
def test_no_import_upward(who: tuple[str, ...], never: tuple[str, ...], why: str) -> None:
    wrong = sorted(f"{m} -> {t}" for m, targets in GRAPH.items() if _under(m, *who) for t in targets
                   if _under(t, *never) and not _under(t, *who))
    assert wrong == [], why


def test_the_cli_helpers_import_nothing_back() -> None:
    """fastapi-cli's shape: the commands sit on helpers that import no command module."""
    helpers = [m for m in MODULES if m in ("assistant.cli.output",)]
    for m in helpers:
        assert not {t for t in GRAPH[m] if _under(t, "assistant.cli")}, m


def _unexplained_imports_in_functions(path: Path) -> list[int]:
    """Lines of imports made inside a function with no comment saying why: on the import, on the
    run of imports it belongs to, or on the line before that run (the house's rule: few imports
    inside functions, only where start-up time needs them, and say so)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    tree = ast.parse("\n".join(lines))
    bad: list[int] = []
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(fn):
            body = getattr(node, "body", None)
            if not isinstance(body, list):
                continue
            run: list[ast.stmt] = []
            for stmt in [*body, None]:
                if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                    run.append(stmt)
                    continue
                if run:
                    text = lines[run[0].lineno - 2: run[-1].end_lineno or run[-1].lineno]
                    if not any("#" in line for line in text):
                        bad.extend(s.lineno for s in run)
                    run = []
    return sorted(set(bad))


def test_an_import_inside_a_function_says_why() -> None:
    unexplained = [f"{path.relative_to(PACKAGE.parent)}:{line}" for path in sorted(MODULES.values())
                   for line in _unexplained_imports_in_functions(path)]
    assert unexplained == [], "an import inside a function without a comment saying why (start-up time?)"
