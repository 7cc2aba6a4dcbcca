"""What the command line says of a game in the reader's language, and a player's text shown as
written (round 25, a new user's pass over the README): the sides in `game status`, the marks of
the game log and its export, and why an event cannot be undone."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from assistant import i18n
from assistant.cli.app import app
from assistant.resources import example_path

runner = CliRunner()


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TABLETOP_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "200")
    yield tmp_path
    i18n.set_language("en")


def run(*args: str) -> object:
    return runner.invoke(app, list(args))


def _started(lang: str) -> None:
    assert run("game", "new", "-p", "clone-wars-example-combat").exit_code == 0
    assert run("--lang", lang, "game", "initiative", "--roll", "light=7", "--roll", "dark=15").exit_code == 0


@pytest.mark.parametrize(("lang", "light", "dark", "next_words"), [
    ("pl", "jasna strona", "ciemna strona", "następna aktywacja:"),
    ("cs", "světlá strana", "temná strana", "další aktivace:"),
])
def test_status_names_the_sides_in_the_readers_words(lang: str, light: str, dark: str, next_words: str) -> None:
    """`game status` said "następna aktywacja: light" and headed its lists "light" and "dark" in
    Polish and Czech, where the initiative roll just before says "jasna strona 7"."""
    _started(lang)
    r = run("--lang", lang, "game", "status")
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert f"{next_words} {dark}" in lines, lines  # dark won the roll: its activation
    assert light in lines and dark in lines, lines  # each side's heading
    assert "light" not in lines and "dark" not in lines, lines


def test_a_side_named_with_brackets_is_shown_as_written(tmp_path: Path) -> None:
    """A side is the position file's text: "[bold red]x[/]" was read as markup in the "next
    activation" line (shown as a bold red "x"), though the README says brackets are text."""
    text = example_path("ddm-forest-field").read_text(encoding="utf-8").replace("side: a,", 'side: "[bold red]x[/]",')
    assert '"[bold red]x[/]"' in text
    pos = tmp_path / "brackets.yaml"
    pos.write_text(text, encoding="utf-8")
    assert run("game", "new", "-p", str(pos), "--override", "a test of the words").exit_code == 0
    assert run("game", "initiative", "--roll", "[bold red]x[/]=15", "--roll", "b=3").exit_code == 0
    r = run("game", "status")
    assert r.exit_code == 0, r.output
    assert "next activation: [bold red]x[/]" in r.stdout.splitlines(), r.stdout
    assert "[bold red]x[/]" in r.stdout.splitlines(), r.stdout  # the side's heading
