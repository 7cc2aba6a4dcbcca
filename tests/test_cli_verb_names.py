"""A verb whose own argument shares a name with the CLI's runner's parameters still runs.

``game condition FIGURE add|remove NAME`` passes ``name=`` to the runner, whose second
parameter was also ``name``: the command stopped with an internal error (found by mypy over
the whole package). The runner's own parameters are positional only now.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from assistant.cli.app import app

runner = CliRunner()


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TABLETOP_HOME", str(tmp_path / "home"))
    return tmp_path


def test_game_condition_adds_and_removes_a_condition(tmp_path: Path) -> None:
    g = str(tmp_path / "g.sqlite")
    assert runner.invoke(app, ["game", "new", "-p", "clone-wars-corridor", "--game", g]).exit_code == 0
    r = runner.invoke(app, ["game", "condition", "obi", "add", "stunned", "--game", g, "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["event"] | {"at": None} == {"figure": "obi", "add": True, "condition": "stunned", "seq": 2,
                                                             "at": None, "kind": "condition"}
    r = runner.invoke(app, ["game", "condition", "obi", "remove", "stunned", "--game", g])
    assert r.exit_code == 0, r.output
    status = json.loads(runner.invoke(app, ["game", "status", "--game", g, "--json"]).output)
    assert next(f for f in status["figures"] if f["id"] == "obi")["conditions"] == []


@pytest.mark.parametrize(("example", "known", "foreign"), [
    ("clone-wars-corridor", ["jedi mind trick", "stunned"], "routing"),        # swm2008: a DDM word is no SWM condition
    ("pillar-room", ["jedi mind trick", "stunned"], "routing"),                 # swm2004: a later set's Jedi Mind Trick too (R411)
    ("ddm-forest-field", None, "jedi mind trick"),                              # ddm2005
])
def test_game_condition_refuses_a_name_the_edition_does_not_apply(tmp_path: Path, example: str, known: list[str] | None, foreign: str) -> None:
    """Reading R163: `game condition X add bogus` was recorded and applied by nothing; each edition's
    record lists the conditions its engine applies, and any other name is refused, naming those
    (exit 2), unless a judge overrides it with a reason."""
    from assistant.model import Position
    from assistant.position.load import load_position
    from assistant.resources import example_path
    from assistant.rules.record import find_edition

    g = str(tmp_path / "g.sqlite")
    assert runner.invoke(app, ["game", "new", "-p", example, "--game", g]).exit_code == 0
    path = example_path(example)
    assert path is not None
    pos: Position = load_position(path)
    rec = find_edition(pos.edition)
    if known is not None:
        assert sorted(rec.conditions) == known
    fig = pos.figures[0].id
    for name in ("bogus", foreign):
        r = runner.invoke(app, ["game", "condition", fig, "add", name, "--game", g, "--json"])
        assert r.exit_code == 2, r.output
        text = json.loads(r.output)["error"]
        assert f"'{name}' is not a condition the assistant applies in {rec.name} (it applies: {', '.join(sorted(rec.conditions))})" in text
    for name in sorted(rec.conditions):  # every listed one is recorded
        assert runner.invoke(app, ["game", "condition", fig, "add", name, "--game", g]).exit_code == 0, name
    r = runner.invoke(app, ["game", "condition", fig, "add", "bogus", "--game", g, "--override", "the scenario's own rule", "--json"])
    assert r.exit_code == 0, r.output
    status = json.loads(runner.invoke(app, ["game", "status", "--game", g, "--json"]).output)
    assert next(f for f in status["figures"] if f["id"] == fig)["conditions"] == sorted([*rec.conditions, "bogus"])


def test_game_place_puts_a_figure_on_the_map_mid_game_and_refuses_what_a_file_could_not_hold(tmp_path: Path) -> None:
    """A figure added mid-game (a reinforcement): the `place` event had no command, and its check
    passed anything -- an id already standing replaced obi (as a dark figure), a wall square or
    another figure's square was taken."""
    g = str(tmp_path / "g.sqlite")
    assert runner.invoke(app, ["game", "new", "-p", "clone-wars-corridor", "--game", g]).exit_code == 0
    r = runner.invoke(app, ["game", "place", "{id: rex, side: light, at: A1, stats: {hp: 10, defense: 14}}", "--game", g, "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["text"] == "rex placed at A1"
    for spec, why in (("{id: obi, side: dark, at: A2}", "obi cannot be placed: a figure 'obi' is already on the map: give this one another id"),
                      ("{id: x, side: light, at: A7}", "x cannot be placed: x overlaps ctc on A7; one figure per square"),
                      ("{id: x, side: light, at: E7}", "x cannot be placed: x stands on E7, a wall square"),
                      ("{id: x, side: light, at: Z99}", "x cannot be placed: x at Z99 is off the map"),
                      ("rex", "the figure 'rex' is not a position file's figure"),
                      ("{id: [", "the figure '{id: [' is not YAML")):
        r = runner.invoke(app, ["game", "place", spec, "--game", g, "--json"])
        assert r.exit_code == 2 and why in json.loads(r.output)["error"], (spec, r.output)
    status = json.loads(runner.invoke(app, ["game", "status", "--game", g, "--json"]).output)
    by_id = {f["id"]: f for f in status["figures"]}
    assert by_id["obi"]["side"] == "light" and by_id["rex"]["at"] == "A1" and "x" not in by_id


def test_game_place_refuses_yaml_aliases_once_and_records_nothing(tmp_path: Path) -> None:
    """A hostile spec of nested aliases (a YAML "billion laughs": 10 levels of ten) was taken whole
    by yaml.safe_load, and the position check then gave the alias refusal once for each use of one
    (about 70 times in one message); a duplicate key was silently the last value. Both are refused
    as a position file's YAML is, each reason said once, and the log is unchanged."""
    g = str(tmp_path / "g.sqlite")
    assert runner.invoke(app, ["game", "new", "-p", "clone-wars-corridor", "--game", g]).exit_code == 0
    before = runner.invoke(app, ["game", "status", "--game", g, "--json"]).output
    bomb = "{id: x, side: light, at: A1, x0: &a0 [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]"
    for level in range(1, 10):
        bomb += f", x{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * 10) + "]"
    bomb += "}"
    alias = "YAML aliases (*name) are not supported here; write the value out"
    for spec, why in ((bomb, alias), ("{id: x, side: light, at: A1, at: A2}", "key 'at' appears twice")):
        r = runner.invoke(app, ["game", "place", spec, "--game", g, "--json"])
        assert r.exit_code == 2, r.output
        error = json.loads(r.output)["error"]
        assert why in error and error.count(why) == 1, error[:500]
    assert runner.invoke(app, ["game", "status", "--game", g, "--json"]).output == before


def test_the_markdown_export_shows_each_standing_figures_conditions(tmp_path: Path) -> None:
    """The judge's record (`game export --format md`) listed where each figure stands and its damage
    but not its conditions (a stunned or routing figure), which the JSON export and the status give."""
    g = str(tmp_path / "g.sqlite")
    assert runner.invoke(app, ["game", "new", "-p", "clone-wars-corridor", "--game", g]).exit_code == 0
    assert runner.invoke(app, ["game", "condition", "obi", "add", "stunned", "--game", g]).exit_code == 0
    out = tmp_path / "g.md"
    assert runner.invoke(app, ["game", "export", "--format", "md", "-o", str(out), "--game", g]).exit_code == 0
    standing = next(line for line in out.read_text(encoding="utf-8").splitlines() if line.startswith("- Standing: "))
    assert "obi (light) at C8, 0 damage (stunned), ctc (light) at A7, 0 damage, " in standing


def test_game_place_refuses_a_side_the_game_has_not_and_a_condition_the_edition_does_not_apply(tmp_path: Path) -> None:
    """Two merged changes met badly (trial20, reading R179): `game condition obi add bogus` is refused
    (R163), but `game place '{..., conditions: [bogus]}'` recorded the name nothing applies; and a
    side typed wrong (`side: ligth`) made a third side mid-game, which initiative and victory then count."""
    g = str(tmp_path / "g.sqlite")
    assert runner.invoke(app, ["game", "new", "-p", "clone-wars-corridor", "--game", g]).exit_code == 0
    for spec, why in (("{id: x, side: ligth, at: A1}", "x cannot be placed: its side 'ligth' is none of the game's (dark, light)"),
                      ("{id: x, side: dark, at: A1, conditions: [stunned, bogus]}",
                       "x cannot be placed: 'bogus' is not a condition the assistant applies in swm2008 (it applies: jedi mind trick, stunned)")):
        r = runner.invoke(app, ["game", "place", spec, "--game", g, "--json"])
        assert r.exit_code == 2 and why in json.loads(r.output)["error"], (spec, r.output)
    r = runner.invoke(app, ["game", "place", "{id: x, side: dark, at: A1, conditions: [stunned]}", "--game", g, "--json"])
    assert r.exit_code == 0, r.output
    status = json.loads(runner.invoke(app, ["game", "status", "--game", g, "--json"]).output)
    assert next(f for f in status["figures"] if f["id"] == "x")["conditions"] == ["stunned"]
    assert {f["side"] for f in status["figures"]} == {"light", "dark"}


def test_game_place_takes_a_card_of_the_library_that_no_figure_of_the_start_uses(tmp_path: Path) -> None:
    """A reinforcement is most often a card no figure started with (trial20, reading R180): `game place
    '{..., card: ARC Trooper}'` was refused as "unknown card 'ARC Trooper' (did you mean 'Clone
    Trooper'?)" while `cards show` shows it, because the check looked only at the starting figures' cards."""
    g = str(tmp_path / "g.sqlite")
    assert runner.invoke(app, ["game", "new", "-p", "clone-wars-example-combat", "--game", g]).exit_code == 0
    r = runner.invoke(app, ["game", "place", "{id: arc, side: light, at: C2, card: ARC Trooper}", "--game", g, "--json"])
    assert r.exit_code == 0, r.output
    status = json.loads(runner.invoke(app, ["game", "status", "--game", g, "--json"]).output)
    arc = next(f for f in status["figures"] if f["id"] == "arc")
    assert arc["at"] == "C2" and arc["hp"] == 40, arc  # ARC Trooper prints 40 HP (Clone Strike #4); no card: None
    r = runner.invoke(app, ["game", "place", "{id: x, side: light, at: C3, card: No Such Card}", "--game", g, "--json"])
    assert r.exit_code == 2 and "unknown card 'No Such Card'" in json.loads(r.output)["error"], r.output


def test_game_condition_refuses_to_remove_a_condition_the_figure_has_not(tmp_path: Path) -> None:
    """`game condition obi remove bogus` (obi never had it; or `stuned`, a typo, while obi is stunned)
    was recorded as "obi loses condition bogus": the judge's log said a condition went that never
    was, and a stunned figure stayed stunned (trial20, reading R181)."""
    g = str(tmp_path / "g.sqlite")
    assert runner.invoke(app, ["game", "new", "-p", "clone-wars-corridor", "--game", g]).exit_code == 0
    assert runner.invoke(app, ["game", "condition", "obi", "add", "stunned", "--game", g]).exit_code == 0
    r = runner.invoke(app, ["game", "condition", "obi", "remove", "stuned", "--game", g, "--json"])
    assert r.exit_code == 2, r.output
    assert "obi has no condition 'stuned' to lose (it has: stunned)" in json.loads(r.output)["error"]
    r = runner.invoke(app, ["game", "condition", "ctc", "remove", "stunned", "--game", g, "--json"])
    assert r.exit_code == 2 and "ctc has no condition 'stunned' to lose (it has none)" in json.loads(r.output)["error"], r.output
    log = json.loads(runner.invoke(app, ["game", "log", "--game", g, "--json"]).output)
    assert [e["kind"] for e in log["events"]] == ["setup", "condition"], log


def test_the_refusal_of_a_condition_the_edition_does_not_apply_is_written_once() -> None:
    """`game condition ... add` and `game place` refuse a condition the edition's record does not list (R163, R179)
    with one message, the record's (`EditionRecord.unknown_condition`): it was written out in both events."""
    from pathlib import Path

    import assistant

    root = Path(assistant.__file__).parent
    found = [str(p.relative_to(root)) for p in root.rglob("*.py") if "is not a condition the assistant applies" in p.read_text(encoding="utf-8")]
    assert found == ["rules/record.py"]


def test_game_place_refuses_a_figure_of_a_faction_its_side_cannot_field_unless_overridden(tmp_path: Path) -> None:
    """trial22 (reading R204): `game new` refuses a squad with a figure of another side's faction
    (swm2008 PL p.14-15), but `game place` put a Separatist Security Battle Droid on the light side
    (the Republic's) mid-game, silently. It is now refused as `game new` refuses it, and a judge may
    override it with a reason; a Fringe figure or one of the side's faction is placed as before."""
    g = str(tmp_path / "g.sqlite")
    assert runner.invoke(app, ["game", "new", "-p", "clone-wars-example-combat", "--game", g]).exit_code == 0
    droid = "{id: sbd2, side: light, at: C2, card: Security Battle Droid, set: 'The Clone Wars starter (2008)'}"
    r = runner.invoke(app, ["game", "place", droid, "--game", g, "--json"])
    assert r.exit_code == 2, r.output
    error = json.loads(r.output)["error"]
    assert "sbd2 (Security Battle Droid) is of the Separatists, not a faction of the light side (nor Fringe)" in error and "swm2008 PL p.14-15" in error
    status = json.loads(runner.invoke(app, ["game", "status", "--game", g, "--json"]).output)
    assert "sbd2" not in {f["id"] for f in status["figures"]}
    r = runner.invoke(app, ["game", "place", "{id: arc, side: light, at: C3, card: ARC Trooper}", "--game", g, "--json"])
    assert r.exit_code == 0, r.output  # the Republic's own: placed as before
    r = runner.invoke(app, ["game", "place", droid, "--game", g, "--override", "a scenario's captured droid", "--json"])
    assert r.exit_code == 0, r.output
    status = json.loads(runner.invoke(app, ["game", "status", "--game", g, "--json"]).output)
    assert next(f for f in status["figures"] if f["id"] == "sbd2")["side"] == "light"


def test_game_place_refuses_a_defeated_figure_s_id_and_names_the_undo(tmp_path: Path) -> None:
    """trial22: the Security Battle Droid defeated (20 damage of 20 HP, light scored its 8 points)
    and then placed again under its id stood and could activate, while the game still listed it
    defeated and light kept the points. Placing it is refused, naming the undo that brings it back;
    a figure a judge removed (it scored nothing) is placed again as before."""
    g = str(tmp_path / "g.sqlite")
    assert runner.invoke(app, ["game", "new", "-p", "clone-wars-example-combat", "--game", g]).exit_code == 0
    r = runner.invoke(app, ["game", "damage", "sbd", "20", "--game", g, "--json"])
    assert r.exit_code == 0, r.output
    seq = json.loads(r.output)["event"]["seq"]
    droid = "{id: sbd, side: dark, at: B7, card: Security Battle Droid, set: 'The Clone Wars starter (2008)'}"
    r = runner.invoke(app, ["game", "place", droid, "--game", g, "--json"])
    assert r.exit_code == 2, r.output
    assert f"sbd was defeated (at event #{seq}, round 0): the game counts it out of play, its points scored; undo that event " \
           f"to bring it back (game undo {seq})" in " ".join(json.loads(r.output)["error"].split()), r.output
    status = json.loads(runner.invoke(app, ["game", "status", "--game", g, "--json"]).output)
    assert status["defeated"] == ["sbd"] and "sbd" not in {f["id"] for f in status["figures"]}
    assert runner.invoke(app, ["game", "remove", "clone", "--game", g]).exit_code == 0
    r = runner.invoke(app, ["game", "place", "{id: clone, side: light, at: N2, card: Clone Trooper}", "--game", g, "--json"])
    assert r.exit_code == 0, r.output
