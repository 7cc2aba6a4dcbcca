"""Text from users never acts on the judge's terminal (issue 29 §3): ESC sequences (a screen
clear, an OSC 52 clipboard write), CR, C1 controls and the bidirectional overrides in a map name,
a note, a reason or a file name are shown escaped in every terminal output and in the Markdown
export, and kept as given in JSON. Rich markup in a user's text is printed as written."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from assistant.cli.app import app
from assistant.resources import example_path
from assistant.terminal import print_text
from assistant.textsafe import is_safe, shown

runner = CliRunner()

CLEAR = "\x1b[2J"
CLIPBOARD = "\x1b]52;c;SGVsbG8=\x07"  # OSC 52: "write Hello to the clipboard", ended by BEL
RLO = "\u202e"  # right-to-left override
HOSTILE = f"A{CLEAR}B{CLIPBOARD}C\rD{RLO}E\x9bF\x7fG"
#: how each of them must be shown (the escapes the module promises)
SHOWN = "A\\x1b[2JB\\x1b]52;c;SGVsbG8=\\x07C\\x0dD\\u202eE\\x9bF\\x7fG"
#: what no terminal output may contain
ACTIVE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def test_the_escapes_are_the_ones_promised() -> None:
    assert shown(HOSTILE) == SHOWN
    assert shown("\u2066x\u2069") == "\\u2066x\\u2069"
    assert shown("tab\there\nnext line") == "tab\there\nnext line"  # the program's own layout
    assert shown("Żółć ąę [bold]") == "Żółć ąę [bold]"  # letters and brackets are text


def _invoke(args: list[str], home: Path) -> tuple[int, str, str]:
    r = runner.invoke(app, args, env={"TABLETOP_HOME": str(home), "COLUMNS": "200"})
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    return r.exit_code, r.stdout, r.stderr


def _strings(o: object) -> list[str]:
    """Every string in a JSON document."""
    if isinstance(o, str):
        return [o]
    if isinstance(o, dict):
        return [s for v in o.values() for s in _strings(v)]
    if isinstance(o, list):
        return [s for v in o for s in _strings(v)]
    return []


@pytest.fixture
def game(tmp_path: Path) -> Path:
    text = example_path("pillar-room").read_text(encoding="utf-8")
    name = json.dumps("Pillar " + HOSTILE)  # a JSON string is a YAML double-quoted scalar
    pos = tmp_path / "p.yaml"
    pos.write_text(text.replace("name: Pillar room", f"name: {name}"), encoding="utf-8")
    g = tmp_path / "g.sqlite"
    assert _invoke(["game", "new", "-p", str(pos), "--game", str(g)], tmp_path)[0] == 0
    assert _invoke(["game", "note", "note " + HOSTILE, "--game", str(g)], tmp_path)[0] == 0
    return g


def test_show_escapes_a_map_name(tmp_path: Path, game: Path) -> None:
    pos = tmp_path / "p.yaml"
    code, out, err = _invoke(["show", str(pos)], tmp_path)
    assert code == 0, err
    assert not ACTIVE.search(out + err)
    assert "Pillar A\\x1b[2JB\\x1b]52;c;SGVsbG8=" in out


def test_game_log_escapes_a_note_and_json_keeps_it(tmp_path: Path, game: Path) -> None:
    code, out, err = _invoke(["game", "log", "--game", str(game)], tmp_path)
    assert code == 0 and not ACTIVE.search(out + err)
    assert "note " + SHOWN in out
    code, out, _err = _invoke(["game", "log", "--game", str(game), "--json"], tmp_path)
    assert code == 0 and any("note " + HOSTILE in v for v in _strings(json.loads(out)))


def test_the_markdown_export_escapes_and_the_json_export_keeps(tmp_path: Path, game: Path) -> None:
    code, out, err = _invoke(["game", "export", "--game", str(game), "--format", "md"], tmp_path)
    assert code == 0 and not ACTIVE.search(out + err)
    assert "note " + SHOWN in out
    md = tmp_path / "g.md"
    assert _invoke(["game", "export", "--game", str(game), "--format", "md", "-o", str(md)], tmp_path)[0] == 0
    assert not ACTIVE.search(md.read_text(encoding="utf-8"))
    code, out, _err = _invoke(["game", "export", "--game", str(game), "--format", "json"], tmp_path)
    assert any("note " + HOSTILE in v for v in _strings(json.loads(out)))


def test_a_reason_with_markup_and_escapes_is_shown_as_written(tmp_path: Path, game: Path) -> None:
    code, out, err = _invoke(["game", "end", "--reason", "[/] [bold]x" + CLEAR, "--game", str(game)], tmp_path)
    assert code == 0, err
    assert "[/] [bold]x\\x1b[2J" in out and not ACTIVE.search(out + err)


def test_an_error_naming_a_hostile_file_is_escaped(tmp_path: Path) -> None:
    code, out, err = _invoke(["validate", str(tmp_path / f"x{CLIPBOARD}.yaml")], tmp_path)
    assert code == 2
    assert not ACTIVE.search(out + err)
    assert "x\\x1b]52;c;SGVsbG8=\\x07.yaml" in err


def test_a_lackey_column_named_as_markup_is_printed_literally(tmp_path: Path) -> None:
    f = tmp_path / "l.txt"
    f.write_text("Name\tSet\tType\t[/]\t[bold]x\x1b[2J\nFoo\tTST\tCharacter\ta\tb\n", encoding="utf-8")  # Type: R344
    code, out, err = _invoke(["swtcg", "import", str(f)], tmp_path)
    assert code == 0, out + err
    assert "columns not used: [/], [bold]x\\x1b[2J" in out
    assert not ACTIVE.search(out + err)


def test_a_card_games_markdown_export_escapes_a_note(tmp_path: Path) -> None:
    from assistant.resources import card_table_example

    table = tmp_path / "t.yaml"
    table.write_text(card_table_example("swtcg"), encoding="utf-8")
    g = tmp_path / "s.sqlite"
    assert _invoke(["swtcg", "new", str(table), "--game", str(g)], tmp_path)[0] == 0
    assert _invoke(["swtcg", "note", "note " + HOSTILE, "--game", str(g)], tmp_path)[0] == 0
    code, out, err = _invoke(["swtcg", "export", "--game", str(g)], tmp_path)
    assert code == 0 and not ACTIVE.search(out + err)
    assert "note " + SHOWN in out


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_text_block_is_escaped_on_a_terminal_and_written_as_given_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    """``normalize``, ``snapshot`` and the exports print a text block: a terminal reads it escaped,
    a file or a pipe gets the data as given."""
    tty, pipe = _Terminal(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", tty)
    print_text("name: " + HOSTILE + "\n")
    monkeypatch.setattr(sys, "stdout", pipe)
    print_text("name: " + HOSTILE + "\n")
    assert tty.getvalue() == "name: " + SHOWN + "\n"
    assert pipe.getvalue() == "name: " + HOSTILE + "\n"


def _unescape(text: str) -> str:
    return re.sub(r"\\x([0-9a-f]{2})|\\u([0-9a-f]{4})", lambda m: chr(int(m.group(1) or m.group(2), 16)), text)


@given(st.text(st.characters(exclude_categories=())))  # lone surrogates included
def test_nothing_a_terminal_acts_on_survives_and_safe_text_is_untouched(text: str) -> None:
    got = shown(text)
    assert not ACTIVE.search(got) and not re.search("[\ud800-\udfff]", got)
    if is_safe(text):
        assert got == text
    if "\\" not in text:  # every escape names its character: the text can be read back
        assert _unescape(got) == text
    assert got.count("\n") == text.count("\n") and got.count("\t") == text.count("\t")


# --- what Rich deletes as it builds a Text (BEL, BS, VT, FF, CR) is shown escaped too -------------------

#: the five controls Rich's Text removes silently; each must be shown like the other controls
RICH_DELETES = {"\x07": "\\x07", "\x08": "\\x08", "\x0b": "\\x0b", "\x0c": "\\x0c", "\x0d": "\\x0d"}


@pytest.mark.parametrize("char", list(RICH_DELETES))
def test_a_map_name_in_the_board_legend_shows_each_control_rich_would_delete(char: str, tmp_path: Path) -> None:
    text = example_path("pillar-room").read_text(encoding="utf-8")
    pos = tmp_path / "p.yaml"
    pos.write_text(text.replace("name: Pillar room", f"name: {json.dumps('Pil' + char + 'lar')}"), encoding="utf-8")
    code, out, err = _invoke(["show", str(pos)], tmp_path)
    assert code == 0, err
    assert "Pil" + RICH_DELETES[char] + "lar" in out and not ACTIVE.search(out + err)


@pytest.mark.parametrize("char", list(RICH_DELETES))
def test_a_note_shows_each_control_rich_would_delete(char: str, tmp_path: Path) -> None:
    g = tmp_path / "g.sqlite"
    assert _invoke(["game", "new", "-p", "pillar-room", "--game", str(g)], tmp_path)[0] == 0
    assert _invoke(["game", "note", "mid" + char + "note", "--game", str(g)], tmp_path)[0] == 0
    code, out, err = _invoke(["game", "log", "--game", str(g)], tmp_path)
    assert code == 0 and "mid" + RICH_DELETES[char] + "note" in out and not ACTIVE.search(out + err)


@pytest.mark.parametrize("char", list(RICH_DELETES))
def test_a_card_name_in_the_card_table_shows_each_control_rich_would_delete(char: str, tmp_path: Path) -> None:
    cards = tmp_path / "c.yaml"
    name = "Odd" + char + "Trooper [bold]x"  # markup in a card's name is its text too
    cards.write_text("format: tabletop-cards/1\ngame: swm\nset: Test\ncards:\n"
                     f"  - name: {json.dumps(name)}\n    source: a test\n    cost: 5\n"
                     + "".join(f"    {k}: unknown\n" for k in ("factions", "unique", "size", "hp", "defense", "attack", "damage", "speed", "force")),
                     encoding="utf-8")
    code, out, err = _invoke(["--cards", str(cards), "cards", "list", "--game", "swm"], tmp_path)
    assert code == 0, out + err
    assert "Odd" + RICH_DELETES[char] + "Trooper [bold]x" in out and not ACTIVE.search(out + err)
