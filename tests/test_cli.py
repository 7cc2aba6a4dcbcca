"""The command line: exit codes 0/2, one JSON object with --json, no traceback for any input."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import typer
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from assistant import __version__
from assistant.cli.app import app

runner = CliRunner()


def run(*args: str, **kw):
    return runner.invoke(app, list(args), **kw)


def no_traceback(result) -> None:
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)


def all_command_paths() -> list[list[str]]:
    root = typer.main.get_command(app)
    paths: list[list[str]] = [[]]

    def walk(cmd: object, prefix: list[str]) -> None:
        if hasattr(cmd, "commands"):  # Typer may vendor its own click: duck-type the group
            for name, sub in cmd.commands.items():
                paths.append(prefix + [name])
                walk(sub, prefix + [name])

    walk(root, [])
    return paths


@pytest.mark.parametrize("path", all_command_paths(), ids=lambda p: " ".join(p) or "root")
def test_every_command_has_help(path: list[str]) -> None:
    result = run(*path, "--help")
    assert result.exit_code == 0, result.output
    assert "Usage" in result.output
    # a flag takes no value: typer >= 0.25 wrote "--charge <bool>", "--help -h <bool>" (a new
    # user's trial, round 15: "--charge true" is then refused as an extra argument)
    assert "<bool>" not in result.output, result.output


def test_version() -> None:
    result = run("--version")
    assert result.exit_code == 0 and __version__ in result.stdout


def test_validate_examples_by_name() -> None:
    result = run("validate", "clone-wars-corridor", "pillar-room", "open-field-pit", "ddm-forest-field")
    assert result.exit_code == 0, result.output
    assert result.stdout.count("ok ") == 4


def test_validate_bad_file_exits_2_naming_line_and_value(tmp_path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: tabletop-position/1\nrules: swm2008\nmap: {cols: 4, rows: 4}\nfigures:\n  - {id: a, side: x, at: Z9}\n")
    result = run("validate", str(bad))
    assert result.exit_code == 2
    assert f"{bad}:5" in result.stderr and "Z9" in result.stderr
    no_traceback(result)


def test_validate_json_is_one_object(tmp_path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: tabletop-position/1\nrules: swm2008\nmap: {cols: 4, rows: 4}\nfigures:\n  - {id: a, side: x, at: Z9}\n")
    result = run("validate", "--json", str(bad), "pillar-room")
    assert result.exit_code == 2
    obj = json.loads(result.stdout)  # exactly one JSON document, nothing else on stdout
    assert obj["query"] == "validate" and obj["valid"] is False and "error" in obj
    first, second = obj["files"]
    assert first["problems"][0]["line"] == 5 and first["problems"][0]["value"] == "Z9"
    assert second["valid"] is True and second["rules"] == "swm2004"


def test_missing_file_is_a_clean_error() -> None:
    result = run("show", "no-such-file.yaml")
    assert result.exit_code == 2 and "no such file" in result.stderr
    no_traceback(result)


def test_show_draws_the_board() -> None:
    result = run("show", "clone-wars-corridor")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "A   B   C" in out and "General Obi-Wan Kenobi" in out
    assert "━" in out and "═" in out and "┄" in out  # walls, a closed door, an open door
    assert "0/120" in out  # damage against the card's hit points


def test_demo_runs() -> None:
    result = run("demo")
    assert result.exit_code == 0, result.output
    assert "valid" in result.stdout and "Clone Wars corridor" in result.stdout
    # it answers the table's questions too, each with its rule
    assert "sbd → obi: line of sight" in result.stdout and "witness:" in result.stdout
    assert "obi → dooku: no line of sight" in result.stdout and "O8" in result.stdout
    assert "cover (+4)" in result.stdout and "PL p.10" in result.stdout
    assert "17 squares" in result.stdout


def test_normalize_round_trips(tmp_path) -> None:
    out = tmp_path / "n.yaml"
    result = run("normalize", "ddm-forest-field", "-o", str(out))
    assert result.exit_code == 0, result.output
    again = run("normalize", str(out))
    assert again.stdout == out.read_text()


def test_examples_json() -> None:
    obj = json.loads(run("examples", "--json").stdout)
    assert {e["name"] for e in obj["examples"]} >= {"clone-wars-corridor", "ddm-forest-field"}


def test_cards_list_and_show() -> None:
    result = run("cards", "list", "--game", "swm")
    assert result.exit_code == 0 and "Count Dooku of Serenno" in result.stdout and "Brass Samurai" not in result.stdout
    shown = run("cards", "show", "dooku")
    assert shown.exit_code == 0 and "attack: 16" in shown.stdout and "hit points: 130" in shown.stdout  # hp: SWminis.db Clone Wars Starter #4 (said so: R233)
    obj = json.loads(run("cards", "show", "brass samurai", "--json").stdout)
    assert obj["card"]["melee"][0]["extra"] == [{"amount": 5, "type": "fire"}]
    assert obj["card"]["ac"] == "unknown"


def test_cards_show_unknown_and_ambiguous() -> None:
    result = run("cards", "show", "Count Doku")
    assert result.exit_code == 2 and "did you mean" in result.stderr
    result = run("cards", "show", "obi-wan", "--json")
    assert result.exit_code == 2 and "ambiguous" in json.loads(result.stdout)["error"]
    result = run("cards", "list", "--game", "chess")
    assert result.exit_code == 2 and "unknown game" in result.stderr


def test_cards_validate_shipped() -> None:
    result = run("cards", "validate")
    assert result.exit_code == 0 and "ok" in result.stdout


def test_cards_new_template_validates_and_is_usable(tmp_path) -> None:
    path = tmp_path / "mine.yaml"
    result = run("cards", "new", 'Captain "Rex"', "--game", "swm", "-o", str(path))
    assert result.exit_code == 0, result.output
    assert run("cards", "validate", str(path)).exit_code == 0
    again = run("cards", "new", "X", "--game", "swm", "-o", str(path))
    assert again.exit_code == 2 and "already exists" in again.stderr
    ddm = tmp_path / "ddm.yaml"
    assert run("cards", "new", "Hill Giant", "--game", "ddm", "-o", str(ddm)).exit_code == 0
    assert run("cards", "validate", str(ddm)).exit_code == 0
    # the new card is usable in a position with --cards
    pos = tmp_path / "p.yaml"
    pos.write_text(
        'format: tabletop-position/1\nrules: swm2008\nmap: {cols: 3, rows: 3}\nfigures:\n  - {id: rex, card: Captain "Rex", side: light, at: B2}\n'.replace(
            'Captain "Rex"', "'Captain \"Rex\"'"
        )
    )
    assert run("validate", str(pos)).exit_code == 2
    assert run("--cards", str(path), "validate", str(pos)).exit_code == 0


def test_bad_card_folder_is_a_clean_error(tmp_path) -> None:
    (tmp_path / "broken.yaml").write_text("format: tabletop-cards/1\ngame: swm\nset: x\ncards:\n  - name: A\n")
    result = run("--cards", str(tmp_path), "show", "pillar-room")
    assert result.exit_code == 2 and "broken.yaml:5" in result.stderr
    no_traceback(result)


words = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=20)


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from([["validate"], ["show"], ["normalize"], ["cards", "show"], ["cards", "list", "--game"], ["validate", "--json"]]),
    st.lists(words, min_size=1, max_size=3),
)
def test_fuzzed_arguments_never_crash(command: list[str], args: list[str]) -> None:
    result = run(*command, *args)
    assert result.exit_code in (0, 2), (command, args, result.output)
    no_traceback(result)


def test_unwritable_output_is_a_clean_error(tmp_path) -> None:
    result = run("normalize", "pillar-room", "-o", str(tmp_path / "no" / "such" / "dir.yaml"))
    assert result.exit_code == 2 and "cannot write" in result.stderr
    no_traceback(result)
    result = run("cards", "new", "X", "--game", "ddm", "-o", str(tmp_path / "no" / "x.yaml"))
    assert result.exit_code == 2 and "cannot write" in result.stderr


def test_the_version_matches_pyproject() -> None:
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^version = "([^"]+)"', text, re.M).group(1) == __version__  # type: ignore[union-attr]


def test_schema_describes_every_bundled_position() -> None:
    """`schema` prints the JSON Schema; every key the example files use is in it."""
    import json

    import yaml

    from assistant.resources import example_files

    r = runner.invoke(app, ["schema"])
    assert r.exit_code == 0, r.output
    schema = json.loads(r.stdout)
    top, fig = set(schema["properties"]), set(schema["$defs"]["FigureIn"]["properties"])
    map_keys = set(schema["$defs"]["MapIn"]["properties"])
    for path in example_files():
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert set(data) <= top, path
        assert set(data["map"]) <= map_keys, path
        for f in data.get("figures") or []:
            assert set(f) <= fig, (path, f)
    assert data["format"] == schema["properties"]["format"]["const"]


def test_files_written_with_output_get_the_users_umask(tmp_path: Path) -> None:
    import os
    import stat

    from assistant.yamlio import _UMASK

    out = tmp_path / "schema.json"
    assert runner.invoke(app, ["schema", "-o", str(out)]).exit_code == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~_UMASK
    os.chmod(out, 0o640)  # a file that exists keeps its mode
    assert runner.invoke(app, ["schema", "-o", str(out)]).exit_code == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o640


def test_normalize_says_which_comment_lines_it_drops(tmp_path: Path) -> None:
    src = tmp_path / "c.yaml"
    src.write_text("format: tabletop-position/1\n# the map\nrules: swm2008  # 2008\nmap: {cols: 4, rows: 4}\nfigures: []\n")
    r = runner.invoke(app, ["normalize", str(src)])
    assert r.exit_code == 0 and "#" not in r.stdout
    assert "2 comment lines" in r.stderr and "line 2, 3" in r.stderr


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="abc: '\"-[]{},", max_size=20), min_size=1, max_size=8), st.data())
def test_comment_lines_finds_a_comment_wherever_one_is_added(lines: list[str], data: st.DataObject) -> None:
    from assistant.yamlio import comment_lines

    assert comment_lines("\n".join(lines)) == []  # no '#' at all: no comment
    k = data.draw(st.integers(0, len(lines) - 1))
    with_comment = [*lines[:k], "# a note", *lines[k + 1 :]]
    assert k + 1 in comment_lines("\n".join(with_comment))


def test_witness_lines_name_their_squares_and_one_square_is_singular() -> None:
    r = runner.invoke(app, ["los", "obi", "sbd", "-p", "clone-wars-corridor"])
    assert r.exit_code == 0 and "witness: C8 → Q6: [2.5, 7.5] → [16.5, 5.5]" in r.stdout
    obj = json.loads(runner.invoke(app, ["los", "obi", "sbd", "-p", "clone-wars-corridor", "--json"]).stdout)
    assert obj["witness_squares"] == ["C8", "Q6"]


def test_one_square_is_singular(tmp_path: Path) -> None:
    f = tmp_path / "two.yaml"
    f.write_text("format: tabletop-position/1\nrules: swm2008\nmap: {cols: 4, rows: 4}\nfigures:\n  - {id: a, side: x, at: A1}\n  - {id: b, side: y, at: B1}\n")
    r = runner.invoke(app, ["range", "a", "b", "-p", str(f)])
    assert r.exit_code == 0 and "a ↔ b: 1 square " in r.stdout and "1 squares" not in r.stdout


@pytest.mark.parametrize("width", [32, 40, 50])
def test_the_legend_on_a_phones_terminal_never_cuts_an_id_a_square_or_the_damage(width: int) -> None:
    """A user's trial at 40 columns (a phone's terminal): the legend's eight table columns cut the ids
    and the damage ("0/1…" for 0/130, "lu…" for luke); the compact board's legend is a line a figure."""
    from rich.console import Console

    from assistant.cli.board import render_board
    from assistant.position import load_position
    from assistant.resources import example_path

    pos = load_position(example_path("pillar-room"))
    console = Console(width=width, record=True, color_system=None)
    console.print(render_board(pos, width))
    text = console.export_text()
    for fig in pos.figures:
        hp = pos.stats_of(fig).hp
        assert f" {fig.id} {fig.space_name()} 0/{hp} " in text, (fig.id, text)
    assert "…" not in text


# --- an output path refused before anything is printed or written -----------------------


@pytest.mark.parametrize("where", ["a folder", "a missing folder"])
@pytest.mark.parametrize(
    "command",
    [
        ["show", "clone-wars-corridor", "--svg", "{bad}"],
        ["los", "obi", "dooku", "-p", "clone-wars-corridor", "--png", "{good}.png", "--svg", "{bad}"],
        ["cover", "obi", "dooku", "-p", "clone-wars-corridor", "--svg", "{good}.svg", "--png", "{bad}"],
        ["photo", "synth", "-p", "clone-wars-corridor", "-o", "{good}.png", "--width", "320", "--truth", "{bad}"],
    ],
    ids=["show --svg", "los --png --svg", "cover --svg --png", "photo synth --truth"],
)
def test_an_output_path_that_cannot_be_written_is_refused_before_anything_is_printed_or_written(
    tmp_path: Path, command: list[str], where: str
) -> None:
    """A new user's trial: `show --svg DIR` printed the whole board, then refused the SVG; a second
    picture (``--png A --svg DIR``) was written before the first refused. Bad input is refused
    before anything is done: exit 2, the path named, nothing on stdout, no file written."""
    bad = tmp_path if where == "a folder" else tmp_path / "no-such-folder" / "x.out"
    good = tmp_path / "written"
    r = runner.invoke(app, [a.format(bad=bad, good=good) for a in command])
    assert r.exit_code == 2, r.output
    assert f"cannot write {bad}" in r.stderr, r.stderr
    assert r.stdout == "", r.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == [], "a file was written before the refusal"
