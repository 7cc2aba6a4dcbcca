"""Every text the code marks for translation is in the catalogs (round 25). The extractor (Babel)
reads the source's tokens: a call inside an f-string's braces, `f"{_('the game refuses this attack
now: {why}')}"`, is part of one string token and was never extracted, so the Czech `attack` answer
said it in English while the catalog check (tests/test_i18n.py) passed."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
babel_pofile = pytest.importorskip("babel.messages.pofile", reason="Babel (the [test] extra) reads the catalogs")


def _marked(tree: ast.AST) -> list[tuple[int, str]]:
    """Each `_("...")`, `N_("...")` and `n_("...", ...)` with a literal text, and its line."""
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("_", "N_", "n_") and node.args
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            found.append((node.lineno, node.args[0].value))
    return found


@pytest.mark.parametrize("lang", ["pl", "cs"])
def test_every_literal_text_marked_in_the_code_is_in_the_catalog(lang: str) -> None:
    with (ROOT / "assistant" / "locale" / lang / "LC_MESSAGES" / "assistant.po").open("rb") as f:
        catalog = babel_pofile.read_po(f)
    ids: set[str] = set()
    for m in catalog:
        ids.update([m.id] if isinstance(m.id, str) else m.id)
    missing = []
    files = sorted((ROOT / "assistant").rglob("*.py"))
    assert len(files) > 100
    for path in files:
        for line, text in _marked(ast.parse(path.read_text(encoding="utf-8"))):
            if text and text not in ids:
                missing.append(f"{path.relative_to(ROOT)}:{line}: {text[:70]!r}")
    assert missing == [], "marked but not in the catalog (a call inside an f-string? run python tools/catalogs.py):\n" + "\n".join(missing)


def test_the_marks_are_found_inside_an_f_string_too() -> None:
    """The check itself sees the case the extractor missed (not a test that asserts nothing)."""
    tree = ast.parse('x = f"  {escape(_(\'the game refuses: {why}\').format(why=1))}"')
    assert _marked(tree) == [(1, "the game refuses: {why}")]
