"""A judge replays an exported log (reading R184): `game import LOG.json` reads a `game export
--format json` back into a game file -- the same events, hashes and state at every event as the
original, to replay, undo and go on with -- and refuses an export that was edited, cut or is not
one, exit 2, naming the file and what is wrong, and writing nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.commands.context import Session
from assistant.commands.registry import find
from assistant.game import Game

from .test_force_reroll import obi_by_dooku  # noqa: F401  (a game in Obi-Wan's turn beside Count Dooku)
from .test_game_integrity import game_file, run  # noqa: F401  (game_file: the fixture this one goes on from)


@pytest.fixture
def exported(game_file: Path, tmp_path: Path) -> tuple[Path, Path]:  # noqa: F811  (the fixture imported above)
    """The integrity tests' game (#1-#6: set-up, initiative, a1 activates, a1's attack hits z1 for
    10, 3 damage to z1, a note) gone on: #7 undoes a1's activation (its attack is void), #8 a note
    whose text the export's description also shows, #9 a figure placed mid-game, #10 a relocation
    (its data has an 'at', as the event's time has); and its JSON export."""
    path = game_file
    s = Session()
    find("game undo")(s, seq=3, game=path)
    find("game note")(s, text="after the undo | table 4", game=path)
    find("game place")(s, spec="{id: z2, side: z, at: G8, stats: {hp: 10, defense: 10, attack: 5, damage: 10, speed: 6, level: 1}}", game=path)
    g = Game.open(path)
    g.do("relocate", {"figure": "a1", "at": "C2", "source": "photo p.jpg", "confidence": 0.9})
    g.close()
    out = tmp_path / "g.json"
    assert run("game", "export", "--format", "json", "-o", str(out), "--game", str(path)).exit_code == 0
    return path, out


def test_an_exported_log_imports_as_the_same_game(exported: tuple[Path, Path], tmp_path: Path) -> None:
    path, out = exported
    copy = tmp_path / "copy.sqlite"
    r = run("game", "import", str(out), "--game", str(copy))
    assert r.exit_code == 0, r.output
    assert "imported 10 events" in r.output
    a, b = Game.open(path), Game.open(copy)
    try:
        assert a.events() == b.events()  # every number, time, kind, data, override and hash
        assert a.store.meta()["genesis"] == b.store.meta()["genesis"]
        for seq in range(1, 11):
            sa, sb = a.state(upto=seq), b.state(upto=seq)
            assert sa.position == sb.position and (sa.round, sa.phase, sa.active) == (sb.round, sb.phase, sb.active), seq
        st = b.state()
        assert next(e for e in st.entries if e.event.seq == 4).void  # the attack of the undone activation
        assert st.position.figure("a1").at.name == "C2" and st.position.figure("z2").at.name == "G8"
        assert st.position.figure("z1").damage_taken == 3  # the void attack's 10 are not taken
    finally:
        a.close()
        b.close()
    head = json.loads(out.read_text())["chain"]["head"]
    assert run("game", "verify", "--head", head, "--game", str(copy)).exit_code == 0
    # the judge goes on with the imported game: it is a game like any other
    r = run("game", "note", "replayed by the judge", "--game", str(copy))
    assert r.exit_code == 0, r.output
    assert run("game", "undo", "--game", str(copy)).exit_code == 0


def _edited(out: Path, tmp_path: Path, edit) -> Path:  # type: ignore[no-untyped-def]
    obj = json.loads(out.read_text())
    edit(obj)
    f = tmp_path / "edited.json"
    f.write_text(json.dumps(obj))
    return f


def _refused(f: Path, tmp_path: Path, *words: str) -> None:
    before = sorted(p.name for p in tmp_path.iterdir())
    r = run("game", "import", str(f), "--game", str(tmp_path / "new.sqlite"))
    assert r.exit_code == 2, r.output
    assert str(f.name) in r.output and "nothing was written" in r.output, r.output
    for w in words:
        assert w in r.output, r.output
    assert "Traceback" not in r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no game, no temporary file left


def test_an_edited_roll_is_refused_naming_the_event(exported: tuple[Path, Path], tmp_path: Path) -> None:
    _path, out = exported

    def roll(obj: dict) -> None:  # type: ignore[type-arg]
        obj["events"][3]["data"]["roll"] = 20

    _refused(_edited(out, tmp_path, roll), tmp_path, "event #4 (attack) does not match its hash")

    def unhashed(obj: dict) -> None:  # type: ignore[type-arg]
        obj["events"][3]["data"]["roll"] = 20
        del obj["events"][3]["hash"]

    _refused(_edited(out, tmp_path, unhashed), tmp_path, "event #4 (attack) has no hash")


def test_a_cut_or_reordered_log_and_an_edited_result_are_refused(exported: tuple[Path, Path], tmp_path: Path) -> None:
    _path, out = exported
    _refused(_edited(out, tmp_path, lambda o: o["events"].pop()), tmp_path, "chain head")
    _refused(_edited(out, tmp_path, lambda o: o["events"].pop(4)), tmp_path, "event #6 follows #4")

    def result(obj: dict) -> None:  # type: ignore[type-arg]
        obj["final"]["figures"][0]["damage_taken"] = 5

    _refused(_edited(out, tmp_path, result), tmp_path, "figures differ")


def test_malformed_exports_are_refused(exported: tuple[Path, Path], tmp_path: Path) -> None:
    _path, out = exported
    bad = tmp_path / "bad.json"
    bad.write_text('{"events": [')
    _refused(bad, tmp_path, "not valid JSON")
    bad.write_text('{"format": "tabletop-game/1"}')
    _refused(bad, tmp_path, "no JSON object with 'events'")
    _refused(_edited(out, tmp_path, lambda o: o.pop("chain")), tmp_path, "'chain'")
    _refused(_edited(out, tmp_path, lambda o: o["events"].__setitem__(2, "x")), tmp_path, "event 3 of the export is not an object")
    _refused(_edited(out, tmp_path, lambda o: o.__setitem__("created", 5)), tmp_path, "'created'")


def test_an_existing_game_is_not_overwritten(exported: tuple[Path, Path], tmp_path: Path) -> None:
    path, out = exported
    was = path.read_bytes()
    r = run("game", "import", str(out), "--game", str(path))
    assert r.exit_code == 2 and "already exists" in r.output
    assert path.read_bytes() == was


def test_the_markdown_export_is_refused_naming_the_json_one(exported: tuple[Path, Path], tmp_path: Path) -> None:
    """The judge's Markdown record cannot be read back: it said "not valid YAML" (read as a position file)."""
    path, _out = exported
    md = tmp_path / "g.md"
    assert run("game", "export", "-o", str(md), "--game", str(path)).exit_code == 0
    _refused(md, tmp_path, "Markdown export", "--format json")


def test_a_position_file_written_as_json_still_starts_a_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """YAML reads JSON: `game import p.json` of a position file started a game before R184 and still does."""
    import yaml

    from .test_game_integrity import POSITION

    monkeypatch.setenv("TABLETOP_HOME", str(tmp_path / "home"))
    p = tmp_path / "p.json"
    p.write_text(json.dumps(yaml.safe_load(POSITION)))
    r = run("game", "import", str(p), "--game", str(tmp_path / "new.sqlite"))
    assert r.exit_code == 0 and "new game" in r.output, r.output


def test_an_attack_its_own_d20_contradicts_is_void_even_with_its_hashes_made_again(obi_by_dooku: Path, tmp_path: Path) -> None:  # noqa: F811
    """trial21 (reading R196): the hashes are SHA-256 with no key, so a cheat can edit an export and
    make every hash and the head again; a miss turned into a hit for 130 (roll 3 needs 11) was
    imported and defeated Count Dooku. The fold now voids an attack its own die contradicts."""
    f, seq, was = _rehashed(obi_by_dooku, tmp_path, 3, {"hit": True, "damage": 130})
    assert (was["roll"], was["needs"], was["hit"]) == (3, 11, False)  # a miss, as recorded
    copy = tmp_path / "copy.sqlite"
    said = run("game", "import", str(f), "--game", str(copy))
    # the import says the event void on replay that the export showed standing, not "its result checks"
    assert said.exit_code == 0 and "result check" not in said.output, said.output
    assert f"#{seq}: roll 3 needs 11 is a miss, yet the record says a hit" in " ".join(said.output.split()), said.output
    g = Game.open(copy)
    try:
        st = g.state()
        assert st.position.figure("dooku").damage_taken == 0 and not st.defeated
        assert "roll 3 needs 11 is a miss, yet the record says a hit" in (st.entries[-1].void or "")
    finally:
        g.close()


def _rehashed(path: Path, tmp_path: Path, roll: int, edit: dict[str, object]) -> tuple[Path, int, dict[str, object]]:
    """Obi-Wan's attack on Count Dooku with ``roll``, exported, its data edited and every hash and
    the head made again, the export's result left out: the cheat R196 and R203 answer."""
    from assistant.game.store import GENESIS_KEYS, genesis, link

    # a hit meets Dooku's Makashi Style Master save (4: not made)
    assert run("game", "attack", "obi", "dooku", "--roll", str(roll), "--save", "Makashi Style Master=4", "--game", str(path)).exit_code == 0
    out = tmp_path / "g.json"
    assert run("game", "export", "--format", "json", "-o", str(out), "--game", str(path)).exit_code == 0
    obj = json.loads(out.read_text())
    last = obj["events"][-1]
    assert last["kind"] == "attack"
    was = dict(last["data"])
    last["data"].update(edit)
    prev = genesis({k: obj[k] for k in GENESIS_KEYS})
    for e in obj["events"]:
        e["hash"] = prev = link(prev, e["seq"], e["at"], e["kind"], e["data"], e.get("override"))
    obj["chain"]["head"] = prev
    del obj["final"]
    f = tmp_path / "cheat.json"
    f.write_text(json.dumps(obj))
    return f, int(last["seq"]), was


@pytest.mark.parametrize(("roll", "edit", "words"), [
    # roll 5 misses Dooku (needs 11); "needs 3" makes it a hit its own die agrees with (R196 let it stand)
    (5, {"needs": 3, "hit": True, "damage": 20}, "its record says needs 3, the position at this event gives 11"),
    # roll 15 hits for Obi-Wan's 20; the damage edited to 130 defeated Dooku
    (15, {"damage": 130}, "its record says damage 130, the position at this event gives 20"),
    # a critical on 5 hits whatever the number needed: not on Obi-Wan's card
    (5, {"critical": True, "hit": True, "damage": 40}, "its record says hit true, the position at this event gives false"),
])
def test_an_attack_whose_number_or_damage_the_position_contradicts_is_void(
        obi_by_dooku: Path, tmp_path: Path, roll: int, edit: dict[str, object], words: str) -> None:  # noqa: F811
    """trial22 (reading R203): R196 checked the die against the record's own number, so a cheat who
    edited "needs 11" to "needs 3" (and the hashes) still hit. The fold derives the needed number and
    the damage again from the position at that event and voids what contradicts them."""
    f, seq, _was = _rehashed(obi_by_dooku, tmp_path, roll, edit)
    copy = tmp_path / "copy.sqlite"
    said = run("game", "import", str(f), "--game", str(copy))
    flat = " ".join(said.output.split())
    assert said.exit_code == 0 and f"#{seq}: {words}" in flat and "swm2008 PL p.21" in flat, said.output
    g = Game.open(copy)
    try:
        st = g.state()
        assert st.position.figure("dooku").damage_taken == 0 and not st.defeated
        assert words in (st.entries[-1].void or "")
    finally:
        g.close()


def test_an_honest_hit_still_folds_as_recorded(obi_by_dooku: Path, tmp_path: Path) -> None:  # noqa: F811
    """R203's derivation gives the honest record back: the same export, hashes made again, no edit."""
    f, seq, _was = _rehashed(obi_by_dooku, tmp_path, 15, {})
    copy = tmp_path / "copy.sqlite"
    said = run("game", "import", str(f), "--game", str(copy))
    assert said.exit_code == 0 and f"#{seq}" not in said.output, said.output
    g = Game.open(copy)
    try:
        assert g.state().position.figure("dooku").damage_taken == 20 and g.state().entries[-1].void is None
    finally:
        g.close()


def test_an_attack_whose_position_an_undo_took_away_is_void_naming_the_undo(obi_by_dooku: Path) -> None:  # noqa: F811
    """trial22 (reading R203): the clone trooper moves from N1 to L3, within 6 squares of Obi-Wan
    (G3), whose commander effect gives it +4 (swm2008 PL p.24-25): its attack on Count Dooku
    (Defense 21) needs 21 - 6 - 4 = 11, and a 14 hits for 20. The move undone, the clone stands on N1,
    7 squares from Obi-Wan, where the same attack needs 15: the record no longer follows from the
    position. It is void, and the reason names the undo, not an edit of the log."""
    from .test_force_reroll import ok

    ok("game", "end-turn")
    ok("game", "activate", "clone")
    moved = json.loads(ok("game", "move", "clone", "L3", "--json"))["event"]["seq"]
    ev = json.loads(ok("game", "attack", "clone", "dooku", "--roll", "14", "--json"))["event"]
    assert (ev["needs"], ev["hit"], ev["damage"]) == (11, True, 20)
    said = ok("game", "undo", str(moved))
    flat = " ".join(said.split())
    assert "its record says needs 11, the position at this event gives 15" in flat, said
    assert f"an event before it is undone (#{moved}), so the position it was recorded in is gone" in flat and "the log was edited" not in flat, said
    dooku = next(f for f in json.loads(ok("game", "status", "--json"))["figures"] if f["id"] == "dooku")
    assert dooku["damage_taken"] == 0


def test_an_attack_a_card_corrected_since_changes_is_void_saying_so(obi_by_dooku: Path) -> None:  # noqa: F811
    """trial22 (reading R203): the fold cannot tell an edit from a card corrected after the attack.
    Obi-Wan's roll 9 needs 25 - 14 = 11 against Count Dooku (Defense 21, +4 Lightsaber Duelist): a
    miss. Dooku's Defense set to 17 afterwards (`cards set`), the same roll needs 7: the record no
    longer follows, and the reason says a card may have changed, not only that the log was edited."""
    from .test_force_reroll import ok

    ev = json.loads(ok("game", "attack", "obi", "dooku", "--roll", "9", "--json"))["event"]
    assert (ev["needs"], ev["hit"]) == (11, False)
    # a printed number is corrected saying where the new one comes from (R250)
    ok("cards", "set", "Count Dooku of Serenno", "defense=17", "--set", "The Clone Wars starter (2008)", "--source", "a corrected card")
    last = json.loads(ok("game", "log", "--json"))["events"][-1]
    assert "its record says needs 11, the position at this event gives 7" in (last.get("void") or ""), last
    assert "or a card's numbers (cards set) or the assistant's rules changed since it was recorded" in last["void"], last


def test_an_attack_the_rules_refuse_inserted_without_an_override_is_void(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """trial22 (reading R206): Count Dooku double-moves 10 squares (M9 -> H4; his speed is 6), so
    `game attack dooku obi` is refused (swm2008 PL p.16: a double move leaves no attack). A cheat
    inserted the attack in the export, its numbers as the position gives them (roll 12 needs 6,
    20 damage) and every hash made again: it was imported "its chain and result check" and Obi-Wan
    took 20. An attack recorded without an override is now asked the rules' refusals again."""
    from assistant.game.actions import roll_outcome
    from assistant.rules.attack import attack

    from .test_force_reroll import ok

    path, obj = _dooku_moved(tmp_path, monkeypatch)
    r = run("game", "attack", "dooku", "obi", "--roll", "12", "--game", str(path))
    assert r.exit_code != 0 and "a double move leaves no attack" in r.output, r.output
    g = Game.open(path, readonly=True)
    try:
        ans = attack(g.state().position, "dooku", "obi", moved=True)
    finally:
        g.close()
    events = obj["events"]
    assert isinstance(events, list)
    last = events[-1]
    data = {"attacker": "dooku", "target": "obi", **roll_outcome(ans, 12, {}), "helpers": []}
    events.append({"seq": last["seq"] + 1, "at": last["at"], "kind": "attack", "override": None, "data": data})
    flat = _imported(obj, tmp_path)
    words = f"#{last['seq'] + 1}: recorded without a judge's override, yet the rules refuse it: dooku moved 10 squares"
    assert words in flat, flat
    obi = next(x for x in json.loads(ok("game", "status", "--json"))["figures"] if x["id"] == "obi")
    assert obi["damage_taken"] == 0


def _dooku_moved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, dict[str, object]]:
    """Count Dooku activated and moved M9 -> H4 (10 squares, a double move), the game exported."""
    from .test_force_reroll import ok

    monkeypatch.setenv("TABLETOP_HOME", str(tmp_path / "home"))
    path = tmp_path / "g.sqlite"
    ok("game", "new", "-p", "clone-wars-example-combat", "--game", str(path))
    ok("game", "initiative", "--roll", "light=3", "--roll", "dark=10")
    ok("game", "activate", "dooku")
    ok("game", "move", "dooku", "H4")
    out = tmp_path / "g.json"
    ok("game", "export", "--format", "json", "-o", str(out))
    return path, json.loads(out.read_text())


def _imported(obj: dict[str, object], tmp_path: Path) -> str:
    """``obj``'s events hashed again (the head too, its result left out), imported: the output, flattened."""
    from assistant.game.store import GENESIS_KEYS, genesis, link

    events = obj["events"]
    assert isinstance(events, list)
    prev = genesis({k: obj[k] for k in GENESIS_KEYS})  # type: ignore[misc]
    for e in events:
        e["hash"] = prev = link(prev, e["seq"], e["at"], e["kind"], e["data"], e.get("override"))
    obj["chain"] = {"head": prev, "seq": events[-1]["seq"]}
    obj.pop("final", None)
    f = tmp_path / "cheat.json"
    f.write_text(json.dumps(obj))
    said = run("game", "import", str(f), "--game", str(tmp_path / "copy.sqlite"))
    assert said.exit_code == 0, said.output
    return " ".join(said.output.split())


def test_a_move_whose_route_is_edited_is_void(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """replay22 (reading R227): the fold took a move's recorded cost as it was, so a cheat who wrote
    Dooku's 10-square double move as costing 2 (every hash made again) left him free to attack
    after it. The route is planned again from the position at that event and the record compared."""
    _path, obj = _dooku_moved(tmp_path, monkeypatch)
    events = obj["events"]
    assert isinstance(events, list)
    move = events[-1]
    assert move["kind"] == "move" and move["data"]["cost"] == 10, move
    move["data"]["cost"] = 2
    flat = _imported(obj, tmp_path)
    assert f"#{move['seq']}: its record says cost 2, the route from the position at this event gives 10" in flat, flat
    g = Game.open(tmp_path / "copy.sqlite", readonly=True)
    try:
        assert g.state().position.figure("dooku").at.name == "M9"  # the void move moved nobody
    finally:
        g.close()


def test_a_move_through_a_wall_inserted_is_void(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """replay22 (reading R226): a move inserted in the export, Dooku M9 -> A1 at a cost of 6 along a
    path of two squares (no route reaches A1 in 12), was folded standing: only attacks' refusals
    were asked again (R206). Every kind's are now, as its command asks them."""
    _path, obj = _dooku_moved(tmp_path, monkeypatch)
    events = obj["events"]
    assert isinstance(events, list)
    last = events[-1]
    events[-1] = {**last, "data": {"figure": "dooku", "to": "A1", "cost": 6, "parity": 0, "path": ["M9", "A1"]}}
    flat = _imported(obj, tmp_path)
    assert f"#{last['seq']}: recorded without a judge's override, yet the rules refuse it" in flat, flat
    g = Game.open(tmp_path / "copy.sqlite", readonly=True)
    try:
        assert g.state().position.figure("dooku").at.name == "M9"
    finally:
        g.close()


def test_an_activation_out_of_turn_inserted_is_void(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """replay22 (reading R226): the dark side won initiative and Dooku acts; an activation of
    Obi-Wan inserted after his move is refused by `game activate` (it is not light's activation)
    and, recorded without an override, is void on replay, saying why with its rule."""
    _path, obj = _dooku_moved(tmp_path, monkeypatch)
    events = obj["events"]
    assert isinstance(events, list)
    last = events[-1]
    events.append({"seq": last["seq"] + 1, "at": last["at"], "kind": "activate", "override": None, "data": {"figure": "obi"}})
    flat = _imported(obj, tmp_path)
    assert f"#{last['seq'] + 1}: recorded without a judge's override, yet the rules refuse it" in flat and "swm2008" in flat, flat
    g = Game.open(tmp_path / "copy.sqlite", readonly=True)
    try:
        assert g.state().active == "dooku"
    finally:
        g.close()


#: two rounds of an honest game on the bundled clone-wars-example-combat: moves, a hit, Force, damage by hand
HONEST = [("game", "initiative", "--roll", "light=3", "--roll", "dark=10"), ("game", "activate", "dooku"), ("game", "move", "dooku", "J6"),
          ("game", "end-turn"), ("game", "activate", "sbdc"), ("game", "move", "sbdc", "B4"), ("game", "end-turn"),
          ("game", "activate", "obi"), ("game", "move", "obi", "H5"), ("game", "end-turn"), ("game", "activate", "clone"),
          ("game", "move", "clone", "L3"), ("game", "attack", "clone", "dooku", "--roll", "14"), ("game", "end-turn"),
          ("game", "activate", "sbd"), ("game", "move", "sbd", "C7"), ("game", "end-turn"), ("game", "damage", "sbd", "5"),
          ("game", "initiative", "--roll", "light=12", "--roll", "dark=5"), ("game", "activate", "obi"), ("game", "move", "obi", "I5"),
          ("game", "end-turn")]


def test_an_honest_game_with_moves_replays_exactly_as_played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """replay22 (readings R226, R227): every event's refusals asked again and every move's route
    planned again, an honest game exported and imported (its hashes made again, so nothing but the
    fold's own checks stands between) folds to the same state at every event, none of them void."""
    from .test_force_reroll import ok

    monkeypatch.setenv("TABLETOP_HOME", str(tmp_path / "home"))
    path = tmp_path / "g.sqlite"
    ok("game", "new", "-p", "clone-wars-example-combat", "--game", str(path))
    for words in HONEST:
        ok(*words)
    out = tmp_path / "g.json"
    ok("game", "export", "--format", "json", "-o", str(out))
    flat = _imported(json.loads(out.read_text()), tmp_path)
    assert "imported 23 events" in flat, flat
    a, b = Game.open(path, readonly=True), Game.open(tmp_path / "copy.sqlite", readonly=True)
    try:
        for seq in range(1, 24):
            sa, sb = a.state(upto=seq), b.state(upto=seq)
            assert (sa.position, sa.round, sa.phase, sa.active) == (sb.position, sb.round, sb.phase, sb.active), seq
        st = b.state()
        assert [e.void for e in st.entries if e.void] == []
        assert st.position.figure("obi").at.name == "I5" and st.position.figure("dooku").damage_taken == 20
        assert st.position.figure("sbd").damage_taken == 5
    finally:
        a.close()
        b.close()
