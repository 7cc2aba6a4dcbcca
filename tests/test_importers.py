"""The card-data importers on fixture files written for these tests (no third-party data)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from assistant.cardgame.importers import ImportFileError, destiny_face, load_lackey, load_swdestinydb
from assistant.cli.app import app
from assistant.destiny.table import parse_table as parse_destiny
from assistant.errors import NotationError
from assistant.swtcg.table import parse_table as parse_swtcg

FIX = Path(__file__).parent / "fixtures"
runner = CliRunner()


def test_swdestinydb_fixture_loads_with_die_faces_in_our_notation() -> None:
    cards = {c.code: c for c in load_swdestinydb((FIX / "swdestinydb-sample.json").read_text())}
    assert [str(f) for f in cards["90001"].faces or ()] == ["ranged:1", "ranged:2", "ranged:3/1", "+ranged:1", "focus:1", "blank"]
    assert cards["90001"].points == (10, 13) and cards["90001"].unique and cards["90001"].color == "yellow"
    assert cards["90003"].color == "grey" and str((cards["90003"].faces or ())[4]) == "special/1"
    assert cards["90004"].faces is None and "not modelled" in cards["90004"].not_modelled[0]  # indirect damage: honest, not guessed
    assert cards["90005"].faces is None and not cards["90005"].not_modelled  # an event has no die


def test_imported_destiny_cards_make_a_table_that_plays() -> None:
    cards = {c.code: c for c in load_swdestinydb((FIX / "swdestinydb-sample.json").read_text())}
    table = {"format": "destiny-table/1", "players": {"A": {}, "B": {}}, "battlefield": {"owner": "A", "controller": "A"},
             "characters": [cards["90001"].table_entry("smug", "A", elite=True), cards["90002"].table_entry("troop", "B")]}
    t = parse_destiny(yaml.safe_dump(table), "imported")
    assert [d.id for d in t.dice_of("smug")] == ["smug1", "smug2"]  # elite: two dice
    from assistant.destiny.engine import apply

    out = apply(t, "A activate smug smug1=ranged:3/1 smug2=+ranged:1")
    assert "rolls 2 dice" in out.said[0]
    with pytest.raises(NotationError, match="no face 'melee:2'"):
        apply(t, "A activate smug smug1=melee:2 smug2=blank")  # the imported faces are checked


def test_lackey_fixture_loads_with_keywords_and_pilot_grants() -> None:
    cards, unused = load_lackey((FIX / "lackey-swtcg-sample.txt").read_text())
    by = {c.name: c for c in cards}
    walker = by["Test Walker Group"]
    assert walker.type == "Ground - Imperial Walker" and walker.side == "DS" and (walker.cost, walker.power, walker.health) == (6, 5, 6)
    assert dict(walker.keywords) == {"accuracy": 1, "armor": True, "retaliate": 2}
    pilot = by["Test Pilot (A)"]
    assert pilot.unique and pilot.pilots == "Starfighter" and dict(pilot.grants) == {"evade": 2, "speed": 20} and not pilot.keywords
    assert by["Test Ambush"].cost is None and unused == ["Flavor"]
    units = [walker.table_entry("walker", "DS", "ground"), pilot.table_entry("pilot", "LS", "character"),
             by["Test Starfighter"].table_entry("sf", "LS", "space")]
    t = parse_swtcg(yaml.safe_dump({"format": "swtcg-table/1", "step": "build", "players": {"DS": {}, "LS": {}}, "units": units}), "imported")
    from assistant.swtcg.engine import apply, lookup

    t = apply(t, "LS board pilot -> sf").table
    assert lookup(t, "stat.sf.speed") == 60 and lookup(t, "keyword.sf.evade") == [2]


@pytest.mark.parametrize("text, says", [
    ("{", "not JSON"), ('{"a": 1}', "expected a JSON array"), ('[{"code": "1"}]', "missing or empty 'name'"),
    ('[{"code": "1", "name": "x", "type_code": "character", "sides": ["1RD"]}]', "6 sides"),
    ('[{"code": "1", "name": "x", "type_code": "character", "sides": ["1RD", "2Q", "-", "-", "-", "-"]}]', "'2Q' is not a swdestinydb die side"),
    ('[{"code": "1", "name": "x", "type_code": "character", "points": "ten"}]', "points 'ten'"),
])
def test_swdestinydb_bad_files_say_which_card_and_field(text: str, says: str) -> None:
    with pytest.raises(ImportFileError, match=says):
        load_swdestinydb(text, "f.json")


@pytest.mark.parametrize("text, says", [
    ("", "empty file"), ("Title\tSet\tImage\n", "first column is 'Name'"),
    ("Name\tSet\tImageFile\tPower\nX\tS\ti\tlots\n", "f.txt:2: Power 'lots' is not a number"),
    ("Name\tSet\tImageFile\nX\tS\ti\textra\n", "f.txt:2: 4 columns"),
])
def test_lackey_bad_files_say_which_line(text: str, says: str) -> None:
    with pytest.raises(ImportFileError, match=says):
        load_lackey(text, "f.txt")


@given(st.text(max_size=8))
def test_die_side_parser_never_crashes(text: str) -> None:
    try:
        destiny_face(text)
    except NotationError as e:
        assert repr(text) in str(e)


@given(st.text(max_size=300))
def test_importers_refuse_junk_with_a_domain_error(text: str) -> None:
    for load in (load_swdestinydb, load_lackey):
        try:
            load(text, "fuzz")
        except ImportFileError:
            pass


def test_import_cli_lists_cards_and_prints_a_table_entry() -> None:
    r = runner.invoke(app, ["destiny", "import", str(FIX / "swdestinydb-sample.json")])
    assert r.exit_code == 0 and "90001 Test Smuggler" in r.output and "not modelled" in r.output and "5 cards" in r.output
    r = runner.invoke(app, ["destiny", "import", str(FIX / "swdestinydb-sample.json"), "--entry", "90001", "--id", "smug", "--elite"])
    assert r.exit_code == 0 and yaml.safe_load(r.output)[0]["dice"]["smug2"][2] == "ranged:3/1"
    r = runner.invoke(app, ["swtcg", "import", str(FIX / "lackey-swtcg-sample.txt"), "--json"])
    assert r.exit_code == 0 and json.loads(r.output)["unused_columns"] == ["Flavor"]
    r = runner.invoke(app, ["swtcg", "import", str(FIX / "lackey-swtcg-sample.txt"), "--entry", "Test Walkr"])
    assert r.exit_code == 2 and "did you mean 'Test Walker Group'" in r.output
