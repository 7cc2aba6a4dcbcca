"""Round 30 (hostile30): what a hostile request or a stray photo did to the live table and the
command line that the earlier rounds' fuzzing did not reach."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from assistant.cardgame.log import CardGameLog
from assistant.cardgames import find_card_game
from assistant.cards import default_library
from assistant.cli.app import app
from assistant.game import Game
from assistant.photo import lens
from assistant.photo.markers import Marker
from assistant.resources import card_table_example, example_path

warnings.filterwarnings("ignore", category=DeprecationWarning)
from assistant.live.table import CardTable, Table  # noqa: E402
from assistant.live.web import create_app  # noqa: E402

from .webclient import table_client  # noqa: E402

runner = CliRunner()


def _game(tmp_path: Path) -> Path:
    path = tmp_path / "g.sqlite"
    Game.new(path, example_path("clone-wars-example-combat").read_text(encoding="utf-8"), default_library(), override="tests").close()
    return path


def _card_game(tmp_path: Path, kind: str) -> Path:
    path = tmp_path / f"{kind}.sqlite"
    CardGameLog.new(path, find_card_game(kind), card_table_example(kind)).close()
    return path


#: texts a reader sees nothing of (the empty text was refused already): a NUL, other controls, a bidi override, with spaces round them
NOTHING_SHOWN = ["\x00", "\x00\x00 ", "\x1b", "\u202e", " \u2066\u2069 \x7f"]


@pytest.mark.parametrize("text", NOTHING_SHOWN)
def test_a_note_that_shows_nothing_is_refused_and_not_recorded(tmp_path: Path, text: str) -> None:
    """Reading R330: a judge's note sent from a phone as a NUL or a bidi override alone was
    recorded (an event in the log that shows nothing); it is refused as an empty note is."""
    c = table_client(create_app(Table(game=_game(tmp_path), library=default_library())))
    before = len(c.get("/api/events").json()["events"])
    r = c.post("/api/do/game/note", json={"text": text})
    assert r.status_code == 400 and "empty note" in r.json()["error"], r.text
    assert len(c.get("/api/events").json()["events"]) == before
    # words with a control among them say something: recorded (the control escaped where shown)
    assert c.post("/api/do/game/note", json={"text": "obi\x00 moved"}).status_code == 200


@pytest.mark.parametrize("kind", ["destiny", "swtcg"])
@pytest.mark.parametrize("text", NOTHING_SHOWN)
def test_a_card_games_note_that_shows_nothing_is_refused(tmp_path: Path, kind: str, text: str) -> None:
    """Reading R330: a card game's note took any text, the empty one too."""
    c = table_client(create_app(CardTable(_card_game(tmp_path, kind))))
    before = len(c.get("/api/events").json()["events"])
    r = c.post(f"/api/do/{kind}/note", json={"text": text})
    assert r.status_code == 400 and "empty note" in r.json()["error"], r.text
    assert len(c.get("/api/events").json()["events"]) == before


def test_a_card_games_empty_note_on_the_command_line_is_exit_2_and_not_recorded(tmp_path: Path) -> None:
    path = _card_game(tmp_path, "destiny")
    r = runner.invoke(app, ["destiny", "note", "\u202e", "--game", str(path)])
    assert r.exit_code == 2 and "empty note" in r.output and "Traceback" not in r.output, r.output
    r = runner.invoke(app, ["destiny", "log", "--game", str(path), "--json"])
    assert "judge's note" not in r.output


def test_two_corner_markers_that_frame_no_such_map_give_no_crossings_not_an_internal_error() -> None:
    """Reading R331: two corner markers (of a photo of another map, diagnosis photo s0551 against
    a 20 x 14 game) whose best grid is off: the lens search's crossings round them raised the grid
    search's NotAMapError, which `photo detect` printed as an internal error and the web table
    answered 'could not be analysed (NotAMapError)'. Now no crossings: the search goes on and
    refuses the photo in words (no grid)."""
    markers = [Marker(1, np.array([[2378.5, 2610.9], [2260.7, 2759.5], [2116.7, 2623.1], [2235.4, 2481.3]])),
               Marker(3, np.array([[1987.1, 787.7], [1899.0, 859.3], [1804.4, 794.1], [1892.8, 724.5]]))]
    board, img, shape = lens.crossings_of_markers(np.zeros((3000, 4000, 3), np.uint8), markers, 20, 14)
    assert len(board) == 0 and len(img) == 0 and len(shape) >= 2


def test_a_question_answered_by_rows_says_each_row_to_the_page(tmp_path: Path) -> None:
    """Reading R332: 'targets' asked with ?lines=true (the page's "All commands") answered no
    text at all, and 'matrix' only its rules' footer: their rows were drawn by the command
    line's table alone. Now each row is a line, in the reader's language."""
    c = table_client(create_app(Table(game=_game(tmp_path), library=default_library())))
    lines = c.post("/api/do/targets?lines=true", json={"attacker": "sbd"}).json()["text_lines"]
    assert any(line.startswith("obi — ") and "legal" in line and "+" in line for line in lines), lines
    assert any(line.startswith("clone — ") for line in lines), lines
    pairs = c.post("/api/do/matrix?lines=true", json={}).json()
    assert len([line for line in pairs["text_lines"] if " — " in line and "·" in line]) == len(pairs["pairs"]), pairs["text_lines"]
    polish = c.post("/api/do/targets?lines=true", json={"attacker": "sbd"}, headers={"accept-language": "pl"}).json()["text_lines"]
    assert not any(" legal: " in line or " chance: " in line for line in polish), polish

