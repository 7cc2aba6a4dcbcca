"""Destiny import of every shape the swdestinydb schema allows (issue 26): X values, modifiers of
any symbol, indirect damage, plots and downgrades, negative, empty and three-value points; a bad
card refused alone; keywords only on the cards that have them; same-named cards listed; the
import report. Fixtures are small JSON written here; the real set files are an opt-in check
(test_real_set_files_meet_the_goals)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from assistant.cardgame import IllegalCommandError
from assistant.cardgame.importers import ImportFileError
from assistant.cli.app import app
from assistant.destiny.dice import Face, IllegalResolveError, Symbol
from assistant.destiny.engine import apply
from assistant.destiny.importers import destiny_face, destiny_points, own_keywords, read_swdestinydb
from assistant.destiny.render import describe
from assistant.destiny.table import Table, dump_table, parse_table
from assistant.errors import NotationError

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()

#: the data's schema for a die side and for points (card_schema.json of the card-data repository)
SIDE_PATTERN = r"^((([+]?(([0-9]+|X))(MD|RD|ID|F|Dr|Dc|Sh|R|\*)|Sp)(\d+)?)|-)$"
POINTS_PATTERN = r"^-?([0-9]+)?(/[0-9]+)?(/[0-9]+)?$"


def _card(code: str, name: str, kind: str, **more: object) -> dict[str, object]:
    base: dict[str, object] = {"code": code, "name": name, "type_code": kind, "affiliation_code": "neutral", "faction_code": "gray",
                               "is_unique": False, "has_die": "sides" in more, "has_errata": False, "deck_limit": 2, "position": 1, "set_code": "TST"}
    return base | more


SHAPES = [
    _card("90101", "Test Launch Bay", "support", cost=3, sides=["XRD", "XRD1", "+1*", "1R", "Sp", "-"]),
    _card("90102", "Test Artillery", "support", cost=2, sides=["2ID", "+2ID1", "0ID", "XID", "1R", "-"]),
    _card("90103", "Test Gift", "plot", points="-2", text="Gain 2 resources."),
    _card("90104", "Test Empty Plot", "plot", points=""),
    _card("90105", "Test Curse", "downgrade", cost=1, text="Redeploy.\nAfter attached character activates, deal 1 damage to it."),
    _card("90106", "Test Emperor", "character", health=14, points="17/21/25", is_unique=True, subtitle="Three Dice",
          sides=["2RD", "3RD1", "+2RD", "1F", "1R", "-"]),
    _card("90107", "Test Dieless", "character", health=7, points="6", has_die=True),  # the data says a die, gives no sides
    _card("90108", "Test Nightmare", "downgrade", cost=0, sides=["1MD", "1MD", "2MD", "3MD1", "-", "-"]),
    _card("90109", "Test Pilot", "character", health=8, points="9/12", text="Piloting.\nDetect 2.", sides=["1RD", "2RD", "1Sh", "1R", "-", "-"]),
    _card("90110", "Test Two Faces", "character", health=9, points="10", flip_card=True, sides=["1MD", "2MD", "1Sh", "1R", "-", "-"]),
]


def _json(cards: list[dict[str, object]]) -> str:
    return json.dumps(cards)


# --- parsers -----------------------------------------------------------------------------------


@given(st.from_regex(SIDE_PATTERN, fullmatch=True))
def test_every_side_the_schema_allows_is_read_and_round_trips(code: str) -> None:
    face = destiny_face(code)
    assert Face.parse(str(face)) == face
    if code == "-":
        assert face.symbol is Symbol.BLANK
    elif not code.startswith("Sp"):
        assert face.modifier == code.startswith("+") and face.x == ("X" in code)
        assert (face.symbol is Symbol.ANY) == ("*" in code) and (face.symbol is Symbol.INDIRECT) == ("ID" in code)


@given(st.text(max_size=8))
def test_a_side_outside_the_schema_is_refused_by_name(text: str) -> None:
    if re.fullmatch(SIDE_PATTERN, text):
        return
    with pytest.raises(NotationError) as e:
        destiny_face(text)
    assert repr(text) in str(e.value)


@given(st.lists(st.integers(0, 60), min_size=1, max_size=3), st.booleans())
def test_points_are_read_as_printed(values: list[int], negative: bool) -> None:
    text = ("-" if negative else "") + "/".join(map(str, values))
    expected = (-values[0] if negative else values[0], *values[1:])
    assert destiny_points(text) == expected


@given(st.from_regex(POINTS_PATTERN, fullmatch=True))
def test_every_points_text_the_schema_allows_is_read_or_refused_with_a_reason(text: str) -> None:
    try:
        got = destiny_points(text)
    except NotationError as e:  # only "/5": a later value with no first one
        assert re.match(r"^-?/", text) and "first value" in str(e)
        return
    assert len(got) == text.count("/") + (1 if text.lstrip("-") else 0)


def test_points_outside_the_schema_are_refused() -> None:
    for bad in ("ten", "1/2/3/4", "--1", "1.5"):
        with pytest.raises(NotationError, match="points"):
            destiny_points(bad)


# --- every shape of a card ---------------------------------------------------------------------


def test_every_shape_imports_and_what_is_not_modelled_is_said() -> None:
    cards, report = read_swdestinydb(_json(SHAPES), "shapes.json")
    by = {c.code: c for c in cards}
    assert report.counts() == {"imported": 6, "partial": 4, "refused": 0, "total": 10}
    assert [str(f) for f in by["90101"].faces or ()] == ["ranged:X", "ranged:X/1", "+any:1", "resource:1", "special", "blank"]
    assert [str(f) for f in by["90102"].faces or ()] == ["indirect:2", "+indirect:2/1", "indirect:0", "indirect:X", "resource:1", "blank"]
    assert by["90103"].points == (-2,) and by["90104"].points == () and by["90103"].kind == "plot"
    assert by["90105"].kind == "downgrade" and by["90105"].keywords == ("redeploy",)
    assert by["90106"].points == (17, 21, 25) and by["90106"].subtitle == "Three Dice"
    partial = {i.card: i.why for i in report.of("partial")}
    assert partial.keys() == {"90107 Test Dieless", "90108 Test Nightmare", "90109 Test Pilot", "90110 Test Two Faces"}
    assert "no die faces" in partial["90107 Test Dieless"][0]
    assert "die of a downgrade is not modelled" in partial["90108 Test Nightmare"][0]
    assert [w.split(":")[0] for w in partial["90109 Test Pilot"]] == ["keyword Piloting", "keyword Detect"]
    assert "flipping it is not modelled" in partial["90110 Test Two Faces"][0]


def test_a_malformed_card_is_refused_alone_with_why() -> None:
    bad = [{"name": "No Code", "type_code": "event"}, _card("90201", "Bad Die", "support", sides=["1RD", "9Q", "-", "-", "-", "-"]),
           _card("90202", "Bad Points", "plot", points="1/2/3/4"), _card("90203", "Bad Cost", "event", cost=-1), "not a card",
           _card("90101", "Same Code", "event")]
    cards, report = read_swdestinydb(_json([SHAPES[0], *bad]), "bad.json")
    assert [c.code for c in cards] == ["90101"]
    why = {i.card: i.why[0] for i in report.of("refused")}
    assert why == {
        "[1] No Code": "missing or empty 'code'",
        "90201 Bad Die": "'9Q' is not a swdestinydb die side (e.g. '2RD', '+1MD', '3RD1', 'XRD', '+1*', '2ID', 'Sp', '-')",
        "90202 Bad Points": "points '1/2/3/4' should look like '12', '9/12', '17/21/25', '-2' or ''",
        "90203 Bad Cost": "cost -1 is not a whole number",
        "[5]": "not a card object",
        "90101 Same Code": "a second card with code 90101",
    }


def test_a_file_of_which_no_card_can_be_read_is_refused_whole() -> None:
    with pytest.raises(ImportFileError, match="none of its 1 cards could be read"):
        read_swdestinydb(_json([{"name": "x", "type_code": "event"}]), "f.json")


def test_a_translation_file_is_named_as_one_and_the_set_files_asked_for(tmp_path: Path) -> None:
    """swdestinydb-json-data keeps each language's words apart from the cards (translations/de/set/SoR.json:
    code, name, text, flavor only). Importing one said only "missing or empty 'type_code'" of every card;
    it is refused (exit 2) as a translation file, naming the set/ folder to import instead."""
    de = [{"code": "02001", "name": "Todestruppler", "flavor": "Krennic's persönliche Garde."},
          {"code": "02002", "name": "Director Krennic", "subtitle": "Visionär", "text": "Ihr könnt..."}]
    with pytest.raises(ImportFileError, match="a translation file .* import the set files of the set/ folder"):
        read_swdestinydb(_json(de), "SoR.json")
    (tmp_path / "SoR.json").write_text(json.dumps(de), encoding="utf-8")
    r = CliRunner().invoke(app, ["destiny", "import", str(tmp_path / "SoR.json")], env={"TABLETOP_HOME": str(tmp_path / "home")})
    assert r.exit_code == 2 and "a translation file" in r.stderr and "Traceback" not in r.stderr


# --- keywords: only those the card itself has ----------------------------------------------------

#: real card texts, each read by hand: does the card itself have the keyword?
KEYWORD_CASES = [
    # Captain Phasma grants Guardian to other characters; she does not have it
    ("Your non-unique characters have the Guardian keyword.", ()),
    # grants it to the character the upgrade is on, not to the upgrade
    ("Attached character has the Guardian keyword.", ()),
    ("Non-unique character only.\nAttached character has the Guardian keyword.", ()),
    # gives Ambush to another card
    ("<b>Power Action</b> - Play a Yellow <i>vehicle</i> from your hand, decreasing its cost by 1 and giving it Ambush.", ()),
    ("Before you play a Yellow card, you may exhaust this support to give it the Ambush keyword.", ()),
    ("After you play a card with the Ambush keyword, you may give this character 1 shield.", ()),
    # conditional: the card has it only while something holds (the 'keyword' effect gives it then)
    ("While you have a <i>leader</i> in play, this character gains Guardian.", ()),
    ("While this upgrade is on a neutral character, it has Redeploy.\n[special] - Deal 2 indirect damage ([indirect]) to an opponent.", ()),
    ("Activate one of your characters or supports. If you are fighting on your battlefield, this event has Ambush.", ()),
    ("Each of your unique upgrades has the Redeploy keyword.", ()),
    # cards that have it
    ("Guardian.", ("guardian",)),
    ("Ambush. Redeploy.", ("ambush", "redeploy")),
    ("Redeploy.\n[special] - Deal 2 unblockable damage to a character.", ("redeploy",)),
    ("Yellow character only. Redeploy.\nAfter you play this upgrade, you may activate attached character.", ("redeploy",)),
    ("Ambush. <em>(After you play this card, gain 1 action.)</em>\nAfter you resolve a <i>scoundrel</i> die, you may resolve this die.", ("ambush",)),
    ("You may include up to 4 copies of this support in your deck.\nAmbush.\nBefore you play this support, decrease its cost by 1.", ("ambush",)),
    ("Team Up 1: Maul.\nGuardian.\n<b>Power Action</b> - Discard a card from your hand and spend 3 resources.", ("guardian",)),
    ("<b>Redeploy</b> <i>(When attached character is defeated, you may move this upgrade to another character.)</i>", ("redeploy",)),
]


@pytest.mark.parametrize("text, has", KEYWORD_CASES)
def test_a_keyword_only_when_the_card_itself_has_it(text: str, has: tuple[str, ...]) -> None:
    assert own_keywords(text)[0] == has


def test_imported_keywords_reach_the_table_entry() -> None:
    phasma = _card("90301", "Test Phasma", "character", health=11, points="12/16", text="Your non-unique characters have the Guardian keyword.",
                   sides=["1RD", "2RD", "1MD", "1Sh", "1R", "-"])
    guard = _card("90302", "Test Guard", "character", health=8, points="7", text="Guardian.", sides=["1MD", "2MD", "1Sh", "1Sh", "-", "-"])
    cards = {c.code: c for c in read_swdestinydb(_json([phasma, guard]))[0]}
    assert "keywords" not in cards["90301"].table_entry("ph", "A") and cards["90302"].table_entry("g", "A")["keywords"] == ["guardian"]


# --- table entries: plots, downgrades, three dice ------------------------------------------------


def test_plots_downgrades_and_a_third_die_go_on_a_table_that_plays() -> None:
    by = {c.code: c for c in read_swdestinydb(_json(SHAPES))[0]}
    emperor = by["90106"].table_entry("emp", "A", dice=3)
    assert list(emperor["dice"]) == ["emp1", "emp2", "emp3"]
    with pytest.raises(ImportFileError, match="1 to 3 dice"):
        by["90106"].table_entry("emp", "A", dice=4)
    with pytest.raises(ImportFileError, match="--on CHARACTER"):
        by["90105"].table_entry("curse", "B")
    dieless = by["90107"].table_entry("dl", "B")
    assert dieless["dice"] == {"dl1": []}  # faces unknown: given as rolled
    table = {"format": "destiny-table/1", "players": {"A": {}, "B": {}}, "battlefield": {"owner": "A", "controller": "A"},
             "characters": [emperor, dieless], "plots": [by["90103"].table_entry("gift", "A")],
             "downgrades": [by["90105"].table_entry("curse", "A", on="dl"), by["90108"].table_entry("night", "A", on="dl")]}
    t = parse_table(yaml.safe_dump(table), "t.yaml")
    assert [c.id for c in t.downgrades_on("dl")] == ["curse", "night"] and t.card("gift").kind == "plot"
    assert "  Test Dieless: 0/7 damage, 0 shields; downgrades: Test Curse, Test Nightmare" in describe(t) and "  plot Test Gift" in describe(t)
    assert not t.dice_of("night")  # a downgrade's die is not modelled: not on the table
    assert parse_table(dump_table(t), "again") == t
    out = apply(t, "A damage 7 -> dl")
    # defeated: its downgrade is discarded with it, as an upgrade is; the one with Redeploy waits for its owner's choice
    assert out.table.card("dl").defeated and [c.id for c in out.table.downgrades_on("dl")] == ["curse"]
    assert any("Test Nightmare) are discarded" in s for s in out.said) and any(s.startswith("Redeploy: Test Curse") for s in out.said)


def test_a_downgrade_needs_a_character_and_no_die() -> None:
    text = """format: destiny-table/1
players: {A: {}, B: {}}
characters: [{id: han, owner: A, health: 8}]
downgrades:
  - {id: curse, owner: B}
  - {id: night, owner: B, attached_to: han, dice: {n1: [melee:1, melee:1, melee:2, melee:3/1, blank, blank]}}
"""
    with pytest.raises(Exception) as e:
        parse_table(text, "t.yaml")
    assert "a downgrade sits on a character" in str(e.value) and "the die of a downgrade is not modelled" in str(e.value)


# --- the engine: X, any-symbol modifiers, indirect damage -----------------------------------------

TABLE = """format: destiny-table/1
players: {A: {resources: 3}, B: {}}
battlefield: {owner: A, controller: A}
characters:
  - {id: han, owner: A, health: 10, dice: {h1: [ranged:X, ranged:X/1, +any:1, indirect:2, +indirect:1, melee:1]}}
  - {id: leia, owner: A, health: 9, dice: {l1: [melee:2, blank, blank, blank, blank, blank]}}
  - {id: vader, owner: B, health: 13, shields: 1}
  - {id: tarkin, owner: B, health: 10}
"""


def _rolled(face: str) -> Table:
    t = parse_table(TABLE, "t")
    t = apply(t, f"A activate han h1={face}").table
    t = apply(t, "B pass").table
    return t


def test_an_x_side_asks_for_x_when_resolved() -> None:
    t = _rolled("ranged:X")
    with pytest.raises(IllegalResolveError, match="X is set by its card's text; give X"):
        apply(t, "A resolve h1 -> vader")
    out = apply(t, "A resolve h1 x=3 -> vader")
    assert out.table.card("vader").damage == 2 and out.table.card("vader").shields == 0  # 3 ranged, 1 blocked
    assert any("X is 3" in s and "reading R44" in s for s in out.said)
    with pytest.raises(NotationError, match="x=ten"):
        apply(t, "A resolve h1 x=ten -> vader")


def test_a_modifier_of_any_symbol_adds_to_any_die() -> None:
    t = parse_table(TABLE + "pool: {h1: +any:1, l1: melee:2}\n", "t")
    out = apply(t, "A resolve l1+h1 -> vader")
    assert out.table.card("vader").damage == 2  # 2 + 1 melee, 1 blocked
    with pytest.raises(IllegalResolveError, match="shows a modifier"):
        apply(t, "A resolve h1 -> vader")


def test_indirect_damage_is_assigned_by_the_player_who_receives_it() -> None:
    t = parse_table(TABLE + "pool: {h1: indirect:2}\n", "t")
    out = apply(t, "A resolve h1")
    assert dict(out.table.indirect) == {"B": 2} and "B assign" in out.said[-1]
    assert "pending: B assigns 2 indirect damage among their characters" in describe(out.table)
    with pytest.raises(IllegalCommandError, match="B must first assign 2 indirect damage"):
        apply(out.table, "B pass")
    with pytest.raises(IllegalCommandError, match="all of it"):
        apply(out.table, "B assign 1 -> tarkin")
    with pytest.raises(IllegalCommandError, match="not an undefeated character of B's"):
        apply(out.table, "B assign 1 1 -> tarkin,han")
    done = apply(out.table, "B assign 1 1 -> vader,tarkin").table
    assert (done.card("vader").damage, done.card("vader").shields, done.card("tarkin").damage) == (0, 0, 1)  # shields block it
    assert not done.indirect and done.turn == "B"


def test_indirect_damage_to_a_player_with_one_character_goes_there() -> None:
    t = parse_table(TABLE.replace("  - {id: tarkin, owner: B, health: 10}\n", "") + "pool: {h1: indirect:2}\n", "t")
    out = apply(t, "A resolve h1")
    assert out.table.card("vader").damage == 1 and not out.table.indirect and "one character" in " ".join(out.said)
    t2 = parse_table(TABLE, "t")
    assert dict(apply(t2, "A indirect 3 -> B").table.indirect) == {"B": 3}


# --- the command line: report, --json, duplicate names, folders, broken files ----------------------


def _write(tmp_path: Path, name: str, cards: object) -> Path:
    p = tmp_path / name
    p.write_text(cards if isinstance(cards, str) else json.dumps(cards), encoding="utf-8")
    return p


def test_the_listing_speaks_the_readers_language(tmp_path: Path) -> None:
    """A user's trial on the real set files under --lang pl: each card's line said "health 11, points
    12/15" in English while the report below it was Polish."""
    f = _write(tmp_path, "set.json", SHAPES)
    r = runner.invoke(app, ["--lang", "pl", "destiny", "import", str(f)])
    assert r.exit_code == 0, r.output
    lines = [line for line in r.stdout.splitlines() if "(postać" in line]  # the kind said in Polish too (R225)
    assert lines and all("wytrzymałość" in line and "health" not in line for line in lines), lines


def test_cli_prints_the_report_as_text_and_json(tmp_path: Path) -> None:
    f = _write(tmp_path, "set.json", [*SHAPES, _card("90201", "Bad Die", "support", sides=["1RD", "9Q", "-", "-", "-", "-"])])
    r = runner.invoke(app, ["destiny", "import", str(f)])
    assert r.exit_code == 0, r.output
    assert "11 cards: 6 imported, 4 imported with a part not modelled, 1 refused" in r.stdout
    assert "refused  90201 Bad Die: '9Q' is not a swdestinydb die side" in r.stdout
    r = runner.invoke(app, ["destiny", "import", str(f), "--json"])
    data = json.loads(r.stdout)
    assert {"query", "cards", "unused_columns", "notes", "report"} <= data.keys() and len(data["cards"]) == 10
    assert data["report"]["counts"] == {"imported": 6, "partial": 4, "refused": 1, "total": 11}
    assert data["report"]["refused"][0]["card"] == "90201 Bad Die"


def test_a_shared_name_is_listed_and_the_code_always_works(tmp_path: Path) -> None:
    a = _card("90401", "Test Vader", "character", health=13, points="16/21", subtitle="Dark Lord", sides=["2MD", "3MD", "1F", "1R", "Sp", "-"])
    b = _card("90402", "Test Vader", "character", health=12, points="15/20", subtitle="Sith Apprentice", set_code="TS2",
              sides=["1MD", "2MD", "1F", "1R", "Sp", "-"])
    f = _write(tmp_path, "set.json", [a, b])
    r = runner.invoke(app, ["destiny", "import", str(f), "--entry", "Test Vader"])
    assert r.exit_code == 2 and "ambiguous" in r.stderr
    assert "90401 Test Vader, Dark Lord (character, TST)" in r.stderr and "90402 Test Vader, Sith Apprentice (character, TS2)" in r.stderr
    r = runner.invoke(app, ["destiny", "import", str(f), "--entry", "90402", "--id", "v"])
    assert r.exit_code == 0 and yaml.safe_load(r.stdout)[0]["health"] == 12
    r = runner.invoke(app, ["destiny", "import", str(f), "--entry", "Test Vader, Dark Lord", "--id", "v", "--dice", "2"])
    assert r.exit_code == 0 and list(yaml.safe_load(r.stdout)[0]["dice"]) == ["v1", "v2"]


def test_an_entry_is_found_as_a_player_types_it(tmp_path: Path) -> None:
    """A player's trial on the 18 real set files (R199): "phasma" and "captain phasma, elite trooper"
    were unknown (names matched only as the data spells them); "darth vadr" suggested Death Mark
    and Darth Bane, not the shared name Darth Vader."""
    a = _card("90401", "Test Vader", "character", health=13, points="16/21", subtitle="Dark Lord", sides=["2MD", "3MD", "1F", "1R", "Sp", "-"])
    b = _card("90402", "Test Vader", "character", health=12, points="15/20", subtitle="Sith Apprentice", sides=["1MD", "2MD", "1F", "1R", "Sp", "-"])
    c = _card("90403", "Test Vader's Lightsaber", "upgrade", cost=2, sides=["2MD", "3MD", "-", "-", "-", "-"])
    d = _card("90404", "Test Padmé", "character", health=10, points="9/12", subtitle="Senator", sides=["1RD", "2RD", "1F", "1R", "-", "-"],
              text="Your Test Vader characters have the Guardian keyword.")
    f = _write(tmp_path, "set.json", [a, b, c, d])
    r = runner.invoke(app, ["destiny", "import", str(f), "--entry", "test vader, dark lord", "--id", "v"])
    assert r.exit_code == 0 and yaml.safe_load(r.stdout)[0]["health"] == 13
    r = runner.invoke(app, ["destiny", "import", str(f), "--entry", "test padme", "--id", "p"])  # no accent, no subtitle
    assert r.exit_code == 0 and yaml.safe_load(r.stdout)[0]["health"] == 10
    assert "the card's text: Your Test Vader characters have the Guardian keyword." in r.stderr  # what the card says
    r = runner.invoke(app, ["--lang", "cs", "destiny", "import", str(f), "--entry", "90404", "--json"])
    assert json.loads(r.stdout)["text"] == "Your Test Vader characters have the Guardian keyword."
    r = runner.invoke(app, ["destiny", "import", str(f), "--entry", "vader"])  # a part of three cards' names: each listed
    assert r.exit_code == 2 and "ambiguous" in r.stderr
    for line in ("90401 Test Vader, Dark Lord (character, TST)", "90402 Test Vader, Sith Apprentice (character, TST)",
                 "90403 Test Vader's Lightsaber"):
        assert line in r.stderr
    r = runner.invoke(app, ["destiny", "import", str(f), "--entry", "test vadr"])
    assert r.exit_code == 2 and "'Test Vader'" in r.stderr  # the shared name is suggested too
    r = runner.invoke(app, ["--lang", "pl", "destiny", "import", str(f), "--entry", "vader"])
    assert r.exit_code == 2 and "niejednoznaczna" in r.stderr


def test_a_name_written_with_and_without_its_accent_is_never_one_card_silently(tmp_path: Path) -> None:
    """A player's trial on the 18 real set files (R217): swdestinydb writes 01048 "Padme Amidala"
    (AW) and 09075 "Padmé Amidala" (CONV); `--entry "Padmé Amidala"` printed 09075's entry and
    `--entry "Padme Amidala"` 01048's, each without a word of the other, though names are matched
    without their accents (R198)."""
    a = _card("90601", "Test Padme", "character", health=10, points="9/12", subtitle="Queen", sides=["1RD", "2RD", "1F", "1R", "-", "-"])
    b = _card("90602", "Test Padmé", "character", health=11, points="10/13", subtitle="Senator", sides=["1RD", "2RD", "1F", "1R", "-", "-"])
    f = _write(tmp_path, "set.json", [a, b])
    for typed in ("Test Padmé", "Test Padme", "test padme"):
        r = runner.invoke(app, ["destiny", "import", str(f), "--entry", typed, "--id", "p"])
        assert r.exit_code == 2 and "ambiguous" in r.stderr, typed
        assert "90601 Test Padme, Queen" in r.stderr and "90602 Test Padmé, Senator" in r.stderr, typed
    r = runner.invoke(app, ["destiny", "import", str(f), "--entry", "Test Padmé, Senator", "--id", "p"])
    assert r.exit_code == 0 and yaml.safe_load(r.stdout)[0]["health"] == 11
    r = runner.invoke(app, ["destiny", "import", str(f), "--entry", "90601", "--id", "p"])
    assert r.exit_code == 0 and yaml.safe_load(r.stdout)[0]["health"] == 10


def test_a_part_of_a_name_starts_a_word_and_a_name_is_found_by_its_words(tmp_path: Path) -> None:
    """A player's trial on the 18 real set files (R219): `--entry "y wing"` printed the entry of
    the event Flanked by Wingmen ("flanked b-y wing-men"), not the Y-Wing's; and "han solo
    scoundrel" (no comma) was unknown: 552 of the 2,034 cards asked for by the words of their
    name and subtitle were."""
    a = _card("90701", "Test Y-Wing", "upgrade", cost=2, sides=["2RD", "3RD", "-", "-", "-", "-"])
    b = _card("90702", "Flanked by Test Wingmen", "event", cost=1)
    c = _card("90703", "Test Scoundrel", "character", health=11, points="9/12", subtitle="Smuggler", sides=["1RD", "2RD", "1F", "1R", "-", "-"])
    f = _write(tmp_path, "set.json", [a, b, c])
    r = runner.invoke(app, ["destiny", "import", str(f), "--entry", "y test wing"])
    assert r.exit_code == 2 and "unknown" in r.stderr  # words in another order name nothing
    r = runner.invoke(app, ["destiny", "import", str(f), "--entry", "test y wing", "--id", "y", "--on", "s"])
    assert r.exit_code == 0 and yaml.safe_load(r.stdout)[0]["title"] == "Test Y-Wing", r.output
    r = runner.invoke(app, ["destiny", "import", str(f), "--entry", "y test", "--id", "y"])  # "b-y test" is no part of a word's start
    assert r.exit_code == 2 and "unknown" in r.stderr, r.output
    r = runner.invoke(app, ["destiny", "import", str(f), "--entry", "test scoundrel smuggler", "--id", "s"])
    assert r.exit_code == 0 and yaml.safe_load(r.stdout)[0]["health"] == 11, r.output


def test_every_card_a_part_of_a_name_lists_says_its_kind_and_set(tmp_path: Path) -> None:
    """A player's trial on the 18 real set files (R220): `--entry phasma` listed "04004 Captain
    Phasma's Blaster" bare beside "01001 Captain Phasma, Elite Trooper (character, AW)": a card
    whose name is its own was listed without its kind and set, the lines that tell reprints apart."""
    a = _card("90801", "Test Vader", "character", health=13, points="16/21", subtitle="Dark Lord", sides=["2MD", "3MD", "1F", "1R", "Sp", "-"])
    b = _card("90802", "Test Vader", "character", health=12, points="15/20", subtitle="Sith Apprentice", sides=["1MD", "2MD", "1F", "1R", "Sp", "-"])
    c = _card("90803", "Test Vader's Lightsaber", "upgrade", cost=2, set_code="TS2", sides=["2MD", "3MD", "-", "-", "-", "-"])
    f = _write(tmp_path, "set.json", [a, b, c])
    r = runner.invoke(app, ["destiny", "import", str(f), "--entry", "vader"])
    assert r.exit_code == 2 and "ambiguous" in r.stderr
    for line in ("90801 Test Vader, Dark Lord (character, TST)", "90802 Test Vader, Sith Apprentice (character, TST)",
                 "90803 Test Vader's Lightsaber (upgrade, TS2)"):
        assert line in r.stderr, r.stderr


def test_a_checkouts_own_translation_names_the_cards_in_the_answers_language(tmp_path: Path) -> None:
    """A Polish player's trial on swdestinydb-json-data (R200): its translations/pl/set/ names 182
    cards of AW and SoR ("Kapitan Phasma, Elitarny żołnierz"); `--lang pl ... --entry "kapitan
    phasma"` was unknown, and the card's text was English. A translated name that is an English
    name several cards share is listed with all of them, translated or not."""
    a = _card("90401", "Test Vader", "character", health=13, points="16/21", subtitle="Dark Lord", sides=["2MD", "3MD", "1F", "1R", "Sp", "-"],
              text="Guardian.")
    b = _card("90402", "Test Vader", "character", health=12, points="15/20", subtitle="Sith Apprentice", sides=["1MD", "2MD", "1F", "1R", "Sp", "-"])
    (tmp_path / "set").mkdir()
    _write(tmp_path / "set", "TST.json", [a, b])
    (tmp_path / "translations" / "pl" / "set").mkdir(parents=True)
    _write(tmp_path / "translations" / "pl" / "set", "TST.json",
           [{"code": "90401", "name": "Testowy Vader", "subtitle": "Mroczny Lord", "text": "Strażnik.", "flavor": "..."}])
    r = runner.invoke(app, ["--lang", "pl", "destiny", "import", str(tmp_path), "--entry", "testowy vader, mroczny lord", "--id", "v"])
    assert r.exit_code == 0, r.output
    assert yaml.safe_load(r.stdout)[0]["health"] == 13
    assert yaml.safe_load(r.stdout)[0]["title"] == "Test Vader"  # the table file's title stays the set files'
    assert "tekst karty: Strażnik." in r.stderr and "1 karta nazwana" in r.stderr
    r = runner.invoke(app, ["--lang", "pl", "destiny", "import", str(tmp_path), "--entry", "Testowy Vader"])
    assert r.exit_code == 2 and "90401 Test Vader, Dark Lord" in r.stderr and "90402 Test Vader, Sith Apprentice" in r.stderr
    r = runner.invoke(app, ["--lang", "cs", "destiny", "import", str(tmp_path), "--entry", "testowy vader, mroczny lord"])
    assert r.exit_code == 2  # no Czech translation: the Polish names are not read
    r = runner.invoke(app, ["destiny", "import", str(tmp_path), "--entry", "90401"])
    assert r.exit_code == 0 and "the card's text: Guardian." in r.stderr


def test_a_part_of_many_names_lists_the_first_and_counts_the_rest(tmp_path: Path) -> None:
    cards = [_card(f"905{i:02d}", f"Test Card {i}", "event", cost=1) for i in range(20)]
    f = _write(tmp_path, "set.json", cards)
    r = runner.invoke(app, ["destiny", "import", str(f), "--entry", "card"])
    assert r.exit_code == 2 and "90500 Test Card 0" in r.stderr and "and 8 more" in r.stderr and "90519" not in r.stderr


def test_an_entry_says_which_list_of_the_table_file_it_goes_in(tmp_path: Path) -> None:
    """A user's trial: the printed entry of a real upgrade (Kylo Ren's Lightsaber, --on vader) pasted
    under ``characters:`` was refused as "a character needs health of at least 1"; nothing said that
    an upgrade's entry goes under ``upgrades:``."""
    saber = _card("90501", "Test Saber", "upgrade", cost=3, sides=["3MD1", "+2MD", "1Sh", "1R", "Sp", "-"])
    f = _write(tmp_path, "set.json", [*SHAPES, saber])
    r = runner.invoke(app, ["destiny", "import", str(f), "--entry", "90501", "--id", "saber", "--on", "han"])
    assert r.exit_code == 0, r.output
    assert "paste it under 'upgrades:' in the table file" in r.stderr
    assert yaml.safe_load(r.stdout)[0]["attached_to"] == "han"  # stdout is the entry alone
    r = runner.invoke(app, ["destiny", "import", str(f), "--entry", "90106", "--id", "emp"])
    assert r.exit_code == 0 and "under 'characters:'" in r.stderr, r.output


def test_a_folder_of_set_files_is_one_report(tmp_path: Path) -> None:
    _write(tmp_path, "A.json", SHAPES[:5])
    _write(tmp_path, "B.json", [*SHAPES[5:], _card("90101", "Same Code", "event")])
    _write(tmp_path, "card_schema.json", {"properties": {}})
    r = runner.invoke(app, ["destiny", "import", str(tmp_path), "--json"])
    assert r.exit_code == 0, r.output
    report = json.loads(r.stdout)["report"]
    assert report["counts"] == {"imported": 6, "partial": 4, "refused": 1, "total": 11}
    assert report["source"] == "2 set files" and "card_schema.json" in report["notes"][0]
    assert report["refused"] == [{"card": "90101 Same Code", "why": ["code 90101 is already in another file"]}]


@pytest.mark.parametrize("content, says", [
    ("not json", "not JSON"), ('{"cards": 3}', "expected a JSON array"), ('[{"name": "x", "type_code": "event"}]', "missing or empty 'code'"),
])
def test_a_broken_file_exits_2_naming_why(tmp_path: Path, content: str, says: str) -> None:
    f = _write(tmp_path, "broken.json", content)
    r = runner.invoke(app, ["destiny", "import", str(f)])
    assert r.exit_code == 2 and says in r.stderr and "Traceback" not in r.output
    r = runner.invoke(app, ["destiny", "import", str(f), "--json"])
    assert r.exit_code == 2 and says in r.stdout


# --- the real set files (opt-in) -------------------------------------------------------------------

REAL = Path(os.environ.get("DESTINY_DATA") or "/work/data/destiny")


def test_a_checkout_of_the_whole_card_data_is_read_from_its_set_folder(tmp_path: Path) -> None:
    """swdestinydb-json-data keeps its set files in ``set/`` and other lists at its top
    (factions.json, sets.json, ...): the repository's folder given is read from ``set/``."""
    (tmp_path / "set").mkdir()
    _write(tmp_path / "set", "AW.json", SHAPES[:5])
    _write(tmp_path, "factions.json", [{"code": "red", "name": "Command", "is_primary": True}])
    _write(tmp_path, "sets.json", [{"code": "AW", "name": "Awakenings", "position": 1}])
    r = runner.invoke(app, ["destiny", "import", str(tmp_path), "--json"])
    assert r.exit_code == 0, r.output
    report = json.loads(r.stdout)["report"]
    assert report["counts"]["total"] == 5 and report["notes"] == []


@pytest.mark.skipif(not REAL.is_dir(), reason="the swdestinydb set files are not here (set $DESTINY_DATA to their folder)")
def test_real_set_files_meet_the_goals() -> None:
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "destiny_import.py"), str(REAL), "--json"], capture_output=True, text=True,
                         check=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    got = json.loads(out.stdout)
    assert got["files_whole"] == got["files"] and got["files"] >= 1
    assert got["playable_percent"] >= 99.5
    assert got["keywords_on_cards_that_lack_them"] == 0


def test_the_table_before_the_battlefield_roll_says_the_battlefield_is_not_chosen() -> None:
    """A new user's trial (round 15): `destiny status` and the phone's first screen of a new game
    read "round 1, setup phase; battlefield: -'s, controlled by -", a dash as if it were a name."""
    from assistant.resources import card_table_example

    t = parse_table(card_table_example("destiny"), "example.yaml")
    assert not t.bf_owner, "the example table starts before the battlefield roll"
    head = describe(t)[0]
    assert head.endswith("; battlefield: not chosen yet") and "-'s" not in head, head
    chosen = parse_table(yaml.safe_dump({**yaml.safe_load(card_table_example("destiny")), "battlefield": {"owner": "A", "controller": "B"}}), "t.yaml")
    assert describe(chosen)[0].endswith("; battlefield: A's, controlled by B"), describe(chosen)[0]


#: two cards as swdestinydb-json-data published them before 1 November 2018 (commit 4199275 of
#: github.com/fafranco82/swdestinydb-json-data, set/SoR.json and set/EaW.json), each object whole
OLD_EXCERPT = ROOT / "tests" / "fixtures" / "swdestinydb-4199275-excerpt.json"


def test_the_older_datas_any_symbol_x_is_a_modifier_of_any_symbol(tmp_path: Path) -> None:
    """A user's trial: the card data of 2017-2018 (a copy downloaded then) refused Lure of Power and
    Training Remote, whose modifier sides the data wrote '+1X' (the symbol "any" of its schema then,
    '+1*' since its commit 150e3c0); reading R149."""
    r = runner.invoke(app, ["destiny", "import", str(OLD_EXCERPT), "--json"])
    assert r.exit_code == 0, r.output
    report = json.loads(r.stdout)["report"]
    assert report["counts"]["refused"] == 0 and report["counts"]["imported"] == 2, report
    r = runner.invoke(app, ["destiny", "import", str(OLD_EXCERPT), "--entry", "03035", "--id", "remote"])
    assert r.exit_code == 0, r.output
    entry = yaml.safe_load(r.stdout)[0]
    assert entry["dice"] == {"remote1": ["+any:1", "+any:1", "+any:1", "+any:2/1", "blank", "blank"]}
    # and the die plays as today's '+1*' does: it adds to a die of any symbol
    t = parse_table(TABLE + "supports:\n  - " + json.dumps(entry) + "\npool: {remote1: +any:1, l1: melee:2}\n", "t")
    assert apply(t, "A resolve l1+remote1 -> vader").table.card("vader").damage == 2  # 2 + 1 melee, 1 blocked
    # today's X, the value the card sets, is still read as such
    assert str(destiny_face("XRD")) == "ranged:X" and str(destiny_face("+1*")) == "+any:1"


#: two supports as swdestinydb-json-data published them before 1 November 2018 (commit 4199275 of
#: github.com/fafranco82/swdestinydb-json-data, set/AW.json and set/AtG.json), each object whole
OLD_ZERO_SIDES = ROOT / "tests" / "fixtures" / "swdestinydb-4199275-zero-sides.json"


def test_the_older_datas_zero_sides_that_stood_for_x_are_read_as_x() -> None:
    """A user's trial: the card data of 2017-2018 writes Launch Bay's die `0RD, 0RD, 0Dr, 0Sh, 0Dc`,
    whose text says "The X on this die is equal to the number of cards in your hand"; the data's
    commit 150e3c0 rewrote them `XRD, ...`. They imported as 0 (R149: not modelled); reading R169.
    Nexus of Power's 0 sides, which the data still writes 0, stay 0."""
    r = runner.invoke(app, ["destiny", "import", str(OLD_ZERO_SIDES), "--json"])
    assert r.exit_code == 0, r.output
    answer = json.loads(r.stdout)
    assert answer["report"]["counts"]["refused"] == 0, answer
    assert answer["notes"] == [
        "Launch Bay: die sides 1, 2, 3, 4, 5 written 0 are read as X, the value its text sets, as the data's later releases write them"]
    r = runner.invoke(app, ["destiny", "import", str(OLD_ZERO_SIDES), "--entry", "01031", "--id", "bay"])
    assert r.exit_code == 0, r.output
    assert yaml.safe_load(r.stdout)[0]["dice"] == {"bay1": ["ranged:X", "ranged:X", "disrupt:X", "shield:X", "discard:X", "blank"]}
    r = runner.invoke(app, ["destiny", "import", str(OLD_ZERO_SIDES), "--entry", "08117", "--id", "nexus"])
    assert r.exit_code == 0, r.output
    assert yaml.safe_load(r.stdout)[0]["dice"]["nexus1"][:2] == ["ranged:0", "melee:0"]


#: a battlefield as swdestinydb-json-data publishes it (commit 656a50e of
#: github.com/fafranco82/swdestinydb-json-data, set/AW.json, the card object whole)
BATTLEFIELD = ROOT / "tests" / "fixtures" / "swdestinydb-656a50e-battlefield.json"


def test_a_battlefields_entry_is_its_players_battlefield_field() -> None:
    """A user's trial: `--entry` of each of the data's 82 battlefields (Echo Base, ...) was refused
    (exit 2) with "play it with the 'play' command", which plays only upgrades, supports and events;
    a table file names a player's battlefield in that player's entry."""
    r = runner.invoke(app, ["destiny", "import", str(BATTLEFIELD), "--entry", "Echo Base", "--owner", "B"])
    assert r.exit_code == 0, r.output
    assert yaml.safe_load(r.stdout) == {"battlefield": "Echo Base, Hoth"}  # stdout: the fields alone, pastable
    assert "player B's entry under 'players:'" in r.stderr
    # pasted there, the table reads and the battlefield is B's
    t = parse_table("format: destiny-table/1\nplayers: {A: {}, B: {battlefield: " + json.dumps("Echo Base, Hoth") + "}}\n", "t")
    assert t.player("B").battlefield == "Echo Base, Hoth"
    r = runner.invoke(app, ["destiny", "import", str(BATTLEFIELD), "--entry", "01166", "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout)["entry"] == {"battlefield": "Echo Base, Hoth"}, r.output


def test_a_cards_kind_colour_and_affiliation_are_said_in_the_readers_language(tmp_path: Path) -> None:
    """trial22 (R225): a Polish or Czech answer listed "(character, TST)" and "upgrade, red, villain":
    the data's English words beside a translated answer."""
    a = _card("90811", "Test Vader", "character", health=13, points="16/21", subtitle="Dark Lord", sides=["2MD", "3MD", "1F", "1R", "Sp", "-"])
    b = _card("90812", "Test Vader", "character", health=12, points="15/20", subtitle="Sith Apprentice", sides=["1MD", "2MD", "1F", "1R", "Sp", "-"])
    c = _card("90813", "Test Vader's Lightsaber", "upgrade", cost=2, set_code="TS2", sides=["2MD", "3MD", "-", "-", "-", "-"])
    f = _write(tmp_path, "set.json", [a, b, c])
    pl = runner.invoke(app, ["--lang", "pl", "destiny", "import", str(f), "--entry", "vader"])
    assert pl.exit_code == 2 and "90813 Test Vader's Lightsaber (ulepszenie, TS2)" in pl.stderr, pl.stderr
    assert "90811 Test Vader, Dark Lord (postać, TST)" in pl.stderr
    cs = runner.invoke(app, ["--lang", "cs", "destiny", "import", str(f)])
    assert cs.exit_code == 0 and "(vylepšení, " in cs.output and "(postava, " in cs.output and "character" not in cs.output, cs.output
    en = runner.invoke(app, ["destiny", "import", str(f), "--json"])
    assert {k["kind"] for k in json.loads(en.stdout)["cards"]} == {"character", "upgrade"}  # the data's words stay the JSON's


def test_the_sw_tcg_zone_is_refused_by_destiny_naming_it_and_the_game() -> None:
    """The new-user trial of round 29: 'destiny import ... --entry 02016 --zone space' printed an
    entry, the SW TCG's --zone silently ignored (R317)."""
    r = runner.invoke(app, ["destiny", "import", str(OLD_EXCERPT), "--entry", "02016", "--zone", "space"])
    assert r.exit_code == 2 and "Traceback" not in r.output, r.output
    assert "--zone is not an option of Star Wars: Destiny's import: it reads --dice, --elite, --on" in r.stderr, r.output
    assert r.stdout == ""
    r = runner.invoke(app, ["--lang", "pl", "destiny", "import", str(OLD_EXCERPT), "--entry", "02016", "--zone", "hand"])
    assert r.exit_code == 2 and "--zone to nie opcja importu gry Star Wars: Destiny" in r.stderr, r.output


def test_a_table_that_does_not_say_whose_action_it_is_says_so_at_the_first_play(tmp_path: Path) -> None:
    """Round 30's sweep played every imported character's die faces on a table written by hand, with
    no battlefield and no ``turn:``: each play was refused "it is 's turn, not A's", naming nobody.
    The table does not say whose action it is; the refusal says so and how to write it (R329)."""
    table = tmp_path / "t.yaml"
    table.write_text("format: destiny-table/1\nphase: action\nplayers:\n  A: {side: hero}\n  B: {side: villain}\n"
                     "characters:\n  - {id: rey, owner: A, title: Rey, color: blue, health: 10,\n"
                     "     dice: {r1: [melee:2, melee:1, focus:1, resource:1, blank, blank]}}\n"
                     "  - {id: foe, owner: B, title: Foe, color: red, health: 9, dice: {f1: [melee:1, melee:1, blank, blank, blank, blank]}}\n")
    game = str(tmp_path / "g.sqlite")
    assert runner.invoke(app, ["destiny", "new", str(table), "--game", game]).exit_code == 0
    r = runner.invoke(app, ["destiny", "check", "A activate rey r1=melee:2", "--game", game])
    assert r.exit_code == 3, r.output  # check's "no"
    assert "'s turn" not in r.output and "turn: A" in r.output and "P5" in r.output, r.output
    # a table that says it still plays
    table.write_text(table.read_text().replace("phase: action\n", "phase: action\nturn: A\n"))
    game = str(tmp_path / "g2.sqlite")
    assert runner.invoke(app, ["destiny", "new", str(table), "--game", game]).exit_code == 0
    r = runner.invoke(app, ["destiny", "check", "A activate rey r1=melee:2", "--game", game])
    assert r.exit_code == 0, r.output


#: characters that print no die, as swdestinydb-json-data publishes them (commit 656a50e of
#: github.com/fafranco82/swdestinydb-json-data: set/SoH.json 11078 Hoth Trooper, set/CM.json 12040 Pyke
#: Sentinel, set/HS.json 16064 Han Solo Tk-710, each with "has_die": false and no "sides"; and
#: set/SoH.json 11001 Dark Mystic, a character with its die, the card objects whole)
NO_DIE = ROOT / "tests" / "fixtures" / "swdestinydb-656a50e-no-die.json"


def test_a_character_the_data_says_prints_no_die_is_no_die_of_unknown_faces() -> None:
    """Round 31 (R340): the data's 16 characters with "has_die": false were all imported as partial,
    "its dice are entered with unknown faces", and their table entry asked for a die's faces the card
    does not print; a character whose data says it has a die but gives no sides still is."""
    cards, report = read_swdestinydb(NO_DIE.read_text(encoding="utf-8"), NO_DIE.name)
    by = {c.code: c for c in cards}
    assert report.counts() == {"imported": 3, "partial": 1, "refused": 0, "total": 4}
    assert [i.why for i in report.of("partial")] == [("keyword Detect: not modelled (enter what it does as effect commands)",)]
    assert by["11078"].prints_no_die and by["11078"].faces is None and not by["11001"].prints_no_die
    assert "the card prints no die (the data's has_die is false)" in by["11078"].notes[0]
    assert "dice" not in by["11078"].table_entry("ht", "A") and "dice" not in by["16064"].table_entry("han", "A", elite=True)
    r = runner.invoke(app, ["destiny", "import", str(NO_DIE)])
    assert r.exit_code == 0 and "11078 Hoth Trooper (character, red, hero, health 5, points 5): prints no die\n" in r.output, r.output
    assert "unknown faces" not in r.output
    # the data that names a die and gives no sides: its faces stay asked for as rolled
    said_die, _report = read_swdestinydb(_json([_card("90121", "Test Unknown Die", "character", health=7, points="6", has_die=True)]), "t.json")
    assert said_die[0].table_entry("u", "A")["dice"] == {"u1": []} and "unknown faces" in said_die[0].not_modelled[0]


def test_activating_a_character_that_prints_no_die_exhausts_it_and_rolls_nothing() -> None:
    """R340: the imported Hoth Trooper, activated, said "rolls 0 dice ()"."""
    cards, _report = read_swdestinydb(NO_DIE.read_text(encoding="utf-8"), NO_DIE.name)
    trooper = next(c for c in cards if c.code == "11078").table_entry("ht", "A")
    foe = {"id": "foe", "owner": "B", "title": "Foe", "color": "red", "health": 10, "dice": {"f1": ["melee:1"] * 6}}
    doc = {"format": "destiny-table/1", "phase": "action", "turn": "A", "players": {"A": {"side": "hero"}, "B": {"side": "villain"}},
           "characters": [trooper, foe]}
    out = apply(parse_table(yaml.safe_dump(doc, sort_keys=False), "t"), "A activate ht")
    assert out.table.card("ht").exhausted
    assert out.said == ("Hoth Trooper is exhausted and rolls nothing: it has no die and no upgrade with one (Destiny P5 › Aktywowanie)",)


def test_a_note_several_cards_share_is_said_once_with_how_many_and_which() -> None:
    """Round 32 (R355): a folder of the data's sets said "the card prints no die" once per each of its
    16 characters, 16 lines alike; the note is said once, with the count and the names, in each
    language's plural (the real rows of SoH, CM and HS)."""
    r = runner.invoke(app, ["destiny", "import", str(NO_DIE)])
    assert r.exit_code == 0, r.output
    assert r.output.count("the card prints no die") == 1, r.output
    assert ("note: 3 cards (Hoth Trooper, Pyke Sentinel, Han Solo), each: the card prints no die (the data's has_die is false)"
            in r.output), r.output
    got = json.loads(runner.invoke(app, ["destiny", "import", str(NO_DIE), "--json"]).stdout)
    assert [n.split(", each:")[0] for n in got["notes"]] == ["3 cards (Hoth Trooper, Pyke Sentinel, Han Solo)"]
    pl = runner.invoke(app, ["--lang", "pl", "destiny", "import", str(NO_DIE)]).output
    cs = runner.invoke(app, ["--lang", "cs", "destiny", "import", str(NO_DIE)]).output
    assert "3 karty (Hoth Trooper, Pyke Sentinel, Han Solo), każda: karta nie ma wydrukowanej kości" in pl, pl
    assert "3 karty (Hoth Trooper, Pyke Sentinel, Han Solo), každá: karta nemá natištěnou kostku" in cs, cs
    # one card's note is its own, as before
    one = runner.invoke(app, ["destiny", "import", str(NO_DIE), "--entry", "11078"]).output
    assert "note: Hoth Trooper: the card prints no die" in one, one


#: Spark of Hope's set file of github.com/fafranco82/swdestinydb-json-data (commit 656a50e, set/SoH.json):
#: its first 3 card objects (11001 Dark Mystic, 11002 Kylo Ren, 11003 Maul) byte for byte, the array closed after them
SOH_HEAD = ROOT / "tests" / "fixtures" / "swdestinydb-656a50e-soh-head.json"


def test_a_set_file_cut_short_is_refused_whole_naming_its_last_whole_card() -> None:
    """Round 32 (R357): the real Spark of Hope file cut inside a card, as a download broken off, was
    refused "not JSON (Unterminated string starting at)": words cut off mid-sentence, and not what
    happened. JSON written wrong is still "not JSON", now with its line and column."""
    text = SOH_HEAD.read_text(encoding="utf-8")
    assert len(read_swdestinydb(text, "SoH.json")[0]) == 3  # the excerpt whole
    cut = text[: text.index('"name": "Maul"') + len('"name": "Ma')]  # inside the third card's name
    with pytest.raises(ImportFileError) as got:
        read_swdestinydb(cut, "SoH.json")
    said = str(got.value)
    assert said.startswith("SoH.json: the file ends inside its JSON (line ") and "after 2 whole cards, the last 11002 Kylo Ren: it is cut short" in said
    assert said.endswith("none of its cards imported: download it again") and "Unterminated" not in said, said
    one = text[: text.index('"code": "11002"')]  # inside the second card: one whole card before it
    with pytest.raises(ImportFileError, match="after 1 whole card, the last 11001 Dark Mystic: it is cut short"):
        read_swdestinydb(one, "SoH.json")
    wrong = text.replace('"code": "11002",', '"code": "11002"', 1)  # a comma left out: written wrong, not cut short
    with pytest.raises(ImportFileError, match=r"SoH.json:\d+: not JSON \(Expecting ',' delimiter: line \d+, column \d+\)"):
        read_swdestinydb(wrong, "SoH.json")
