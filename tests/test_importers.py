"""The card-data importers on fixture files written for these tests (no third-party data)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from assistant.cardgame.importers import ImportFileError
from assistant.cli.app import app
from assistant.destiny.importers import destiny_face, load_swdestinydb
from assistant.destiny.table import parse_table as parse_destiny
from assistant.errors import NotationError
from assistant.swtcg.importers import load_lackey
from assistant.swtcg.table import parse_table as parse_swtcg

FIX = Path(__file__).parent / "fixtures"
runner = CliRunner()


def test_swdestinydb_fixture_loads_with_die_faces_in_our_notation() -> None:
    cards = {c.code: c for c in load_swdestinydb((FIX / "swdestinydb-sample.json").read_text())}
    assert [str(f) for f in cards["90001"].faces or ()] == ["ranged:1", "ranged:2", "ranged:3/1", "+ranged:1", "focus:1", "blank"]
    assert cards["90001"].points == (10, 13) and cards["90001"].unique and cards["90001"].color == "yellow"
    assert cards["90003"].color == "grey" and str((cards["90003"].faces or ())[4]) == "special/1"
    # indirect damage: read as its own symbol (the receiving player assigns it), no longer an empty die
    assert [str(f) for f in cards["90004"].faces or ()] == ["indirect:2", "indirect:3/1", "resource:1", "special", "blank", "blank"]
    assert not cards["90004"].not_modelled
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


@pytest.mark.parametrize("text, says", [("{", "ends inside its JSON"), ("[1, }", "not JSON"), ('{"a": 1}', "expected a JSON array")])
def test_swdestinydb_files_that_are_not_card_lists_are_refused_whole(text: str, says: str) -> None:
    with pytest.raises(ImportFileError, match=says):
        load_swdestinydb(text, "f.json")


@pytest.mark.parametrize("card, says", [
    ({"code": "1"}, "missing or empty 'name'"),
    ({"code": "1", "name": "x", "type_code": "character", "health": 5, "sides": ["1RD"]}, "6 sides"),
    ({"code": "1", "name": "x", "type_code": "character", "health": 5, "sides": ["1RD", "2Q", "-", "-", "-", "-"]}, "'2Q' is not a swdestinydb die side"),
    ({"code": "1", "name": "x", "type_code": "character", "health": 5, "points": "ten"}, "points 'ten'"),
])
def test_swdestinydb_bad_cards_are_refused_alone_saying_which_field(card: dict, says: str) -> None:
    from assistant.destiny.importers import read_swdestinydb

    good = {"code": "2", "name": "y", "type_code": "event"}
    cards, report = read_swdestinydb(json.dumps([card, good]), "f.json")
    assert [c.code for c in cards] == ["2"]  # the bad card does not stop the file
    refused = report.of("refused")
    assert len(refused) == 1 and says in refused[0].why[0], refused


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
    assert r.exit_code == 0 and yaml.safe_load(r.stdout)[0]["dice"]["smug2"][2] == "ranged:3/1"
    r = runner.invoke(app, ["swtcg", "import", str(FIX / "lackey-swtcg-sample.txt"), "--json"])
    assert r.exit_code == 0 and json.loads(r.output)["unused_columns"] == ["Flavor"]
    r = runner.invoke(app, ["swtcg", "import", str(FIX / "lackey-swtcg-sample.txt"), "--entry", "Test Walkr"])
    assert r.exit_code == 2 and "did you mean 'Test Walker Group'" in r.output


def test_elite_is_two_dice_bought_at_the_second_points_value() -> None:
    """A trial's player on the real set files: ``--entry 01002 --elite`` (First Order Stormtrooper,
    points 7) gave it two dice, while ``--dice 2`` was refused; ``--elite --dice 1`` gave one die;
    ``--elite`` on a support was taken and ignored. A character is elite with two dice only where
    its points give a second value (Destiny rules reference PL, Postacie; reading R313)."""
    sample = str(FIX / "swdestinydb-sample.json")
    entry = ["destiny", "import", sample, "--entry"]
    trooper = runner.invoke(app, [*entry, "90002", "--elite"])  # points 8: one value
    assert trooper.exit_code == 2 and "Test Trooper has no elite version: its points (8) buy one die" in trooper.output, trooper.output
    both = runner.invoke(app, [*entry, "90001", "--elite", "--dice", "1"])
    assert both.exit_code == 2 and "--elite is two dice and --dice says 1" in both.output, both.output
    support = runner.invoke(app, [*entry, "90004", "--elite"])
    assert support.exit_code == 2 and "only a character is elite" in support.output, support.output
    said_twice = runner.invoke(app, [*entry, "90001", "--elite", "--dice", "2"])  # the same thing said twice is taken
    assert said_twice.exit_code == 0 and sorted(yaml.safe_load(said_twice.stdout)[0]["dice"]) == ["card1", "card2"], said_twice.output
    pl = runner.invoke(app, ["--lang", "pl", *entry, "90002", "--elite"])
    assert pl.exit_code == 2 and "nie ma wersji elitarnej" in pl.output, pl.output


# --- the files people have (issue 12) --------------------------------------------------------

SAMPLE_JSON = (FIX / "swdestinydb-sample.json").read_text(encoding="utf-8")
SAMPLE_LACKEY = (FIX / "lackey-swtcg-sample.txt").read_text(encoding="utf-8")


def _import(game: str, path: Path, *args: str):
    return runner.invoke(app, [game, "import", str(path), *args])


def test_latin1_bom_and_big_files_import(tmp_path) -> None:
    # a Windows-1252 Lackey file with an accented name: imported, and the reading said
    latin = tmp_path / "latin.txt"
    latin.write_bytes(SAMPLE_LACKEY.replace("Test Walker Group", "Tést Wälker Group").encode("cp1252"))
    r = _import("swtcg", latin)
    assert r.exit_code == 0, r.stderr
    assert "Tést Wälker Group" in r.stdout and "read as Windows-1252" in r.stderr
    # a UTF-8 byte-order mark
    bom = tmp_path / "bom.json"
    bom.write_bytes(b"\xef\xbb\xbf" + SAMPLE_JSON.encode("utf-8"))
    r = _import("destiny", bom, "--json")
    assert r.exit_code == 0, r.stderr
    assert any("byte-order mark" in n for n in json.loads(r.stdout)["notes"])
    # a full dump of over 4 MiB imports
    cards = json.loads(SAMPLE_JSON)
    many = [dict(c, code=f"{i:06d}", name=f"{c['name']} {i}") for i in range(9000) for c in cards[:1]]
    big = tmp_path / "all.json"
    big.write_text(json.dumps(many, indent=2), encoding="utf-8")
    assert big.stat().st_size > 4 * 1024 * 1024
    r = _import("destiny", big, "--json")
    assert r.exit_code == 0, r.stderr
    assert len(json.loads(r.stdout)["cards"]) == 9000


@pytest.mark.parametrize("content, says", [
    (b"[" * 100000 + b"]" * 100000, "nested more than"),
    (b'{"cards": ' + b"[" * 5000 + b"]" * 5000 + b"}", "nested more than"),
    (b"\x00\x01\x02", "NUL bytes"),
])
def test_hostile_json_is_refused_with_exit_2(tmp_path, content, says) -> None:
    p = tmp_path / "bad.json"
    p.write_bytes(content)
    r = _import("destiny", p)
    assert r.exit_code == 2 and says in r.stderr, r.stderr


def test_missing_directory_and_huge_files_are_refused(tmp_path) -> None:
    assert _import("destiny", tmp_path / "nope.json").exit_code == 2
    r = _import("swtcg", tmp_path)
    assert r.exit_code == 2 and "no .txt card files in this folder" in r.stderr  # SW TCG reads a folder of set files (issue 26)


def test_swdestinydb_fields_as_real_dumps_write_them() -> None:
    cards = json.loads(SAMPLE_JSON)
    first = dict(cards[0], is_unique="no", faction_code=None, code="x1")
    up = {"code": "x2", "name": "Rifle", "type_code": "upgrade", "faction_code": "red", "cost": "2", "is_unique": "yes",
          "text": "<b>Redeploy</b> <i>(When attached character is defeated, you may move this upgrade to another character.)</i>",
          "sides": ["1RD", "2RD", "+1RD", "1Sh", "Sp", "-"]}
    got = {c.code: c for c in load_swdestinydb(json.dumps([first, up]))}
    assert got["x1"].unique is False  # "no" is false
    assert got["x1"].color == "grey" and "faction_code is missing" in got["x1"].notes[0]
    rifle = got["x2"]
    assert rifle.unique is True and rifle.cost == 2 and rifle.keywords == ("redeploy",)
    with pytest.raises(ImportFileError, match="--on CHARACTER"):
        rifle.table_entry("rifle", "A")
    entry = rifle.table_entry("rifle", "A", on="smug")
    assert entry["attached_to"] == "smug" and entry["keywords"] == ["redeploy"] and entry["cost"] == 2 and entry["dice"]
    table = {"format": "destiny-table/1", "players": {"A": {}, "B": {}}, "battlefield": {"owner": "A", "controller": "A"},
             "characters": [got["x1"].table_entry("smug", "A")], "upgrades": [entry]}
    t = parse_destiny(yaml.safe_dump(table), "imported")
    assert [c.id for c in t.upgrades_on("smug")] == ["rifle"]
    from assistant.destiny.importers import read_swdestinydb

    got_cards, report = read_swdestinydb(json.dumps([dict(cards[0], is_unique="maybe"), cards[1]]))
    assert [c.code for c in got_cards] == [cards[1]["code"]] and "is_unique 'maybe'" in report.of("refused")[0].why[0]


def test_lackey_battle_cards_costs_short_rows_and_bare_keywords() -> None:
    header = SAMPLE_LACKEY.splitlines()[0]
    rows = [
        "Test Ambush\tTST\ttst010\tBattle\t\tDark\t2\t\t\t\tC\tPlay this card in the battle step.\t",
        "Test Guardian\tTST\ttst011\tCharacter\tJedi\tLight\t4\t30\t3\t4\tR\tPay 1 Force: Retaliate 2. Accuracy. Lucky 1.\t",
        "Test Short Row\tTST\ttst012\tSpace\tRebel Starfighter\tLight\t3\t40",
    ]
    skipped: list[str] = []
    # each line ended, as a file writes it: a last row short of the header's columns with no line end is a file cut short (R344)
    cards = {c.name: c for c in load_lackey("\n".join([header, *rows]) + "\n", "set.txt", skipped)[0]}
    battle = cards["Test Ambush"]
    assert battle.kind == "battle" and battle.cost == 2
    entry = battle.table_entry("amb", "DS")
    assert entry["kind"] == "battle" and entry["cost"] == 2
    guardian = cards["Test Guardian"]
    assert dict(guardian.keywords) == {"retaliate": 2, "lucky": 1} and dict(guardian.costs) == {"retaliate": 1}
    assert any("'Accuracy' has no number" in n for n in guardian.notes)
    assert "Test Short Row" not in cards and "set.txt:4: 8 columns, the header has 13" in skipped[0] and "not padded" in skipped[0]
    e = guardian.table_entry("g", "LS", zone="character")
    t = parse_swtcg(yaml.safe_dump({"format": "swtcg-table/1", "players": {"DS": {}, "LS": {}}, "units": [entry, e]}), "x")
    assert dict(t.unit("g").costs) == {"retaliate": 1} and t.unit("amb").kind == "battle"
    walker = load_lackey(SAMPLE_LACKEY)[0][0]
    assert dict(walker.costs) == {"retaliate": 1}  # "Retaliate 2 (pay 1 Force)"


def test_a_printed_keyword_cost_is_paid_when_used() -> None:
    from assistant.swtcg.engine import apply as swtcg_apply

    spec = {"format": "swtcg-table/1", "step": "battle-character", "players": {"DS": {"force": 5}, "LS": {"force": 5}},
            "units": [{"id": "vader", "owner": "DS", "type": "Character - Sith", "power": 5, "health": 6, "speed": 40, "zone": "character"},
                      {"id": "luke", "owner": "LS", "type": "Character - Jedi", "power": 4, "health": 5, "speed": 40, "zone": "character",
                       "keywords": {"retaliate": 2}, "costs": {"retaliate": 1}}]}
    t = parse_swtcg(yaml.safe_dump(spec), "x")
    t = swtcg_apply(t, "DS attack vader -> luke").table
    out = swtcg_apply(t, "LS retaliate luke")
    assert out.table.player("LS").force == 4 and any("pays 1 Force" in s for s in out.said)


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10**30) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["code", "name", "type_code", "sides", "points", "is_unique", "faction_code", "cost", "health", "text", "cards"]),
        inner, max_size=6),
    max_leaves=30)


@settings(max_examples=150, deadline=None)
@given(data=st.one_of(st.binary(max_size=300), _json_values.map(lambda v: json.dumps(v).encode())))
def test_importers_never_end_in_exit_1(tmp_path_factory, data: bytes) -> None:
    p = tmp_path_factory.mktemp("fuzz") / "cards.dat"
    p.write_bytes(data)
    for game in ("destiny", "swtcg"):
        for extra in ([], ["--json"], ["--entry", "x", "--on", "han"]):
            r = runner.invoke(app, [game, "import", str(p), *extra])
            assert r.exit_code in (0, 2), (game, extra, data[:80], r.output[-300:])
            if "--json" in extra:
                json.loads(r.stdout)
