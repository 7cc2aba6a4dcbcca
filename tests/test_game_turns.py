"""Scripted games per edition: each turn option, attacks of opportunity, charges, morale,
victory areas, the judge's record, and the refusals with their own edition's rule."""

from __future__ import annotations

import json
import textwrap

from typer.testing import CliRunner

from assistant.cli.app import app

runner = CliRunner()

SWM = textwrap.dedent("""\
    format: tabletop-position/1
    rules: {rules}
    map:
      cols: 12
      rows: 8
      squares:
        pit: [E6]
        low: [H2]
      edges:
        door: [K4.S]
    figures:
      - {{id: hero, side: light, at: B2, stats: {{hp: 60, defense: 16, attack: 10, damage: 20, speed: 6, abilities: [Double Attack]}}}}
      - {{id: scout, side: light, at: B7, stats: {{hp: 20, defense: 14, attack: 6, damage: 10, speed: 6, abilities: [Mobile Attack]}}}}
      - {{id: flyer, side: light, at: A5, stats: {{hp: 20, defense: 14, attack: 6, damage: 10, speed: 6, abilities: [Flight]}}}}
      - {{id: droid, side: dark, at: D2, stats: {{hp: 10, defense: 25, attack: 4, damage: 10, speed: 6}}}}
      - {{id: guard, side: dark, at: D5, stats: {{hp: 30, defense: 13, attack: 5, damage: 10, speed: 6}}}}
      - {{id: boss, side: dark, at: K5, stats: {{hp: 40, defense: 15, attack: 7, damage: 20, speed: 6}}}}
    """)


def run(*args: str):
    return runner.invoke(app, list(args))


def ok(*args: str) -> str:
    r = run(*args)
    assert r.exit_code == 0, (args, r.stdout, r.stderr)
    return r.stdout


def refused(*args: str) -> str:
    r = run(*args)
    assert r.exit_code == 2, (args, r.stdout, r.stderr)
    return r.stderr.replace("\n", " ")


def start(home, text: str, name: str = "g.sqlite") -> None:
    (home / "p.yaml").write_text(text, encoding="utf-8")
    ok("game", "new", "-p", str(home / "p.yaml"), "--game", str(home / name), "--override", "test squads")


def status() -> dict:
    return json.loads(ok("game", "status", "--json"))


def export() -> dict:
    return json.loads(ok("game", "export", "--format", "json"))


# --- SWM 2008 --------------------------------------------------------------------------------


def test_swm2008_turn_options_and_their_rules(home) -> None:
    start(home, SWM.format(rules="swm2008"))
    # a tie is rerolled, and the record says so
    err = refused("game", "initiative", "--roll", "light=9", "--roll", "dark=9")
    assert "tie" in err and "PL p.2" in err
    ok("game", "initiative", "--roll", "light=9,17", "--roll", "dark=9,4")
    # move then attack; then no second move (only Mobile Attack splits the move)
    ok("game", "activate", "hero")
    ok("game", "move", "hero", "C2")
    ok("game", "attack", "hero", "droid", "--roll", "2")  # moved: a single attack, a miss
    err = refused("game", "attack", "hero", "droid", "--roll", "15")
    assert "Double Attack gives more attacks only to a character that has not moved" in err and "swm2008 PL p.40" in err
    err = refused("game", "move", "hero", "C3")
    assert "moved before attacking" in err and "swm2008 PL p.16" in err and "CS " not in err
    # Mobile Attack: move, attack, move again within its speed in all
    ok("game", "activate", "scout")
    ok("game", "move", "scout", "C6")
    out = ok("game", "attack", "scout", "guard", "--roll", "20")
    assert "guard has" in out  # damage with the HP left
    ok("game", "move", "scout", "C8")
    err = refused("game", "move", "scout", "H8")
    assert "Mobile Attack: at most 6 squares in all" in err and "PL p.54-55" in err
    ok("game", "end-turn")
    # the dark side's phase 2: attack then move up to speed; a double move leaves no attack
    ok("game", "activate", "droid")
    ok("game", "attack", "droid", "hero", "--roll", "18")
    err = refused("game", "move", "droid", "J2")
    assert "after attacking it may move up to its speed 6" in err
    ok("game", "move", "droid", "D1")
    err = refused("game", "attack", "droid", "hero", "--roll", "18")
    assert "already moved after attacking" in err
    ok("game", "activate", "boss")
    ok("game", "move", "boss", "J2")
    ok("game", "move", "boss", "F2")  # more than its speed: a double move
    err = refused("game", "attack", "boss", "hero", "--roll", "18")
    assert "a double move leaves no attack" in err and "swm2008 PL p.6, p.16" in err
    st = status()
    assert st["round"] == 1 and st["phase"] == 2 and st["turn"]["moved_before"] > 6
    # the door next to K4/K5 closed when the boss left it at its end of turn
    ok("game", "end-turn")
    log = json.loads(ok("game", "log", "--json"))["events"]
    assert any("door K4.S closes" in e["text"] for e in log)


def test_double_attack_without_moving_and_the_attack_limit(home) -> None:
    start(home, SWM.format(rules="swm2008").replace("at: B2", "at: C2"))
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    ok("game", "activate", "hero")
    ok("game", "attack", "hero", "droid", "--roll", "2")
    ok("game", "attack", "hero", "droid", "--roll", "3")  # Double Attack: two attacks when it has not moved
    err = refused("game", "attack", "hero", "droid", "--roll", "15")
    assert "has made 2 attacks this turn" in err
    err = refused("game", "move", "hero", "C3")
    assert "after more than one attack it may not move" in err


def test_attacks_of_opportunity_and_flight(home) -> None:
    start(home, SWM.format(rules="swm2008"))
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    ok("game", "activate", "hero")
    out = ok("game", "move", "hero", "B3")  # leaves the square next to nobody
    assert "attack of opportunity" not in out
    out = ok("game", "move", "hero", "C4")  # B3 is not next to droid (D2)... C3 route passes next to droid? no: B3 -> C4
    ok("game", "end-turn")
    ok("game", "activate", "scout")
    out = ok("game", "move", "scout", "C6")  # to next to guard (D5)
    assert "attack of opportunity" not in out
    # leaving guard's side: guard may strike at once, out of turn, without activating
    ok("game", "aoo", "guard", "scout", "--roll", "19")
    err = refused("game", "aoo", "guard", "scout", "--roll", "19")
    assert "already made an attack of opportunity this turn" in err and "swm2008 PL p.22-23" in err
    out = ok("game", "move", "scout", "A7")
    assert "leaving guard's reach" in out or "guard" in out
    assert "guard" in status()["may_activate"]["dark"]  # the attack of opportunity is no activation
    err = refused("game", "aoo", "droid", "scout", "--roll", "19")
    assert "adjacent enemy leaving" in err and "PL p.22-23" in err
    ok("game", "end-turn")
    # Flight: over the pit E6 and past the guard; no attack of opportunity against it
    ok("game", "activate", "guard")  # dark's phase
    ok("game", "end-turn")
    ok("game", "activate", "droid")
    ok("game", "end-turn")
    ok("game", "activate", "flyer")
    ok("game", "move", "flyer", "C5")  # next to the guard
    err = refused("game", "aoo", "guard", "flyer", "--roll", "19")
    assert "has Flight: enemies make no attacks of opportunity" in err and "PL p.43" in err
    out = ok("game", "move", "flyer", "F7")  # over the guard's side and the pit E6
    assert "Flight applied" in out and "provokes no attacks of opportunity" in out
    err = refused("game", "move", "flyer", "E6")
    assert "pit" in err and "must end on a legal square" in err


def test_defeat_victory_and_the_record(home) -> None:
    start(home, SWM.format(rules="swm2008").replace("at: B2", "at: C2").replace("{id: guard, side: dark, at: D5", "{id: guard, side: dark, at: L8")
          .replace("{id: boss, side: dark, at: K5", "{id: boss, side: dark, at: L1"))
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    ok("game", "activate", "hero")
    out = ok("game", "attack", "hero", "droid", "--roll", "19")
    assert "defeated" in out
    err = refused("game", "damage", "droid", "5")
    assert "droid was defeated by hero (at event #" in err and "round 1" in err
    ok("game", "damage", "guard", "30", "--by", "hero")
    ok("game", "damage", "boss", "40", "--by", "hero")
    st = status()
    assert st["winner"] == "light" and st["over"] == "light has won"
    err = refused("game", "activate", "scout")
    assert "the game is over: light has won" in err and "PL p.2, p.16" in err
    doc = export()
    texts = " | ".join(e["text"] for e in doc["events"])
    assert "initiative (light 15, dark 3)" in texts
    assert "hits for 20 damage; droid is defeated (20 damage of 10 HP)" in texts
    assert "light wins" in texts
    assert doc["final"]["winner"] == "light" and "droid" in doc["final"]["fallen"]
    md = ok("game", "export")
    assert "## Result" in md and "Winner: light" in md


# --- SWM 2004 --------------------------------------------------------------------------------


def test_swm2004_refusals_cite_the_czech_rules(home) -> None:
    start(home, SWM.format(rules="swm2004"))
    err = refused("game", "activate", "hero")
    assert "swm2004 CS r.5" in err and "PL " not in err
    ok("game", "initiative", "--roll", "light=4", "--roll", "dark=11")
    err = refused("game", "activate", "hero")
    assert "it is dark's activation" in err and "swm2004 CS r.5" in err and "PL " not in err
    ok("game", "activate", "boss")
    ok("game", "move", "boss", "J2")
    ok("game", "move", "boss", "F2")
    err = refused("game", "attack", "boss", "hero", "--roll", "18")
    assert "double move" in err and "swm2004 CS r.5" in err and "PL " not in err
    err = refused("game", "move", "boss", "A1")
    assert "allows 12 in a turn without attacking" in err and "CS r.5" in err


# --- DDM 2005 --------------------------------------------------------------------------------

DDM = textwrap.dedent("""\
    format: tabletop-position/1
    rules: ddm2005
    map:
      cols: 12
      rows: 8
      squares:
        statue: [F5]
        difficult: [H2]
      areas:
        victory_a: ["J1:K2"]
        victory_b: ["A7:B8"]
    figures:
      - {id: knight, side: a, at: B2, stats: {hp: 40, defense: 18, attack: 8, damage: 10, speed: 6, level: 4, commander_rating: 2}}
      - {id: archer, side: a, at: B4, stats: {hp: 20, defense: 15, attack: 2, damage: 5, ranged_attack: 6, ranged_damage: 5, speed: 6, level: 2}}
      - {id: orc, side: b, at: H4, stats: {hp: 30, defense: 14, attack: 6, damage: 10, speed: 6, level: 3}}
      - {id: zombie, side: b, at: K7, stats: {hp: 30, defense: 11, attack: 3, damage: 5, speed: 4, level: 2, abilities: [Undead]}}
    """)


def test_ddm_initiative_tie_goes_to_the_commander_and_the_charge(home) -> None:
    start(home, DDM)
    out = ok("game", "initiative", "--roll", "a=10", "--roll", "b=12")
    assert "a 10 + commander 2 = 12" in out and "a's commander rating 2 beats b 0" in out
    ok("game", "activate", "knight")
    err = refused("game", "charge", "knight", "zombie", "--roll", "15")
    assert "zombie is not the nearest enemy knight sees by movement (orc at 5 squares" in err
    assert "ddm2005 § Szarżowanie p.13" in err and "PL " not in err
    out = ok("game", "charge", "knight", "orc", "--roll", "15", "--json")
    ev = json.loads(out)["event"]
    assert ev["to"] == "G3" and ev["cost"] == 5 and ev["needs"] == 14 - 8 - 2 and ev["hit"]  # +2 for the charge
    err = refused("game", "move", "knight", "F3")
    assert "has charged" in err
    err = refused("game", "attack", "knight", "orc", "--roll", "15")
    assert "the charge's one melee attack is made" in err


def test_ddm_initiative_names_the_unknown_commander_ratings_that_might_have_won_it(home) -> None:
    """A user's trial (round 19): the orc's and the zombie's Commander ratings are given nowhere,
    and the tie went to the knight's 2 against "b 0" without a word. The roll is still recorded
    (most cards of the library do not give the rating), but the answer, the event and the log say
    whose rating was read as none and how to change it (reading R160); the winner's own unknown
    rating (the archer's) could only have raised its total, so it is not named."""
    start(home, DDM)
    out = ok("game", "initiative", "--roll", "a=10", "--roll", "b=12", "--json")
    ev = json.loads(out)["event"]
    assert ev["winner"] == "a" and ev["unknown_ratings"] == {"b": ["orc", "zombie"]}
    text = json.loads(out)["text"]
    assert "the Commander ratings of orc, zombie (b) are unknown and read as none" in text and "R160" in text
    assert "§ Test inicjatywy p.8-9" in text and "archer" not in text
    assert "orc, zombie (b) are unknown" in ok("game", "log")
    # the ratings given (0: no commander), nothing is said
    start(home, DDM.replace("level: 3}", "level: 3, commander_rating: 0}").replace("level: 2, abilities", "level: 2, commander_rating: 0, abilities"),
          "g2.sqlite")
    ev = json.loads(ok("game", "initiative", "--roll", "a=10", "--roll", "b=12", "--json"))["event"]
    assert ev["winner"] == "a" and "unknown_ratings" not in ev
    # the side that lost names its own; b winning outright names a's archer (the knight's 2 is known)
    start(home, DDM, "g3.sqlite")
    ev = json.loads(ok("game", "initiative", "--roll", "a=3", "--roll", "b=18", "--json"))["event"]
    assert ev["winner"] == "b" and ev["unknown_ratings"] == {"a": ["archer"]}


def test_ddm_charge_refused_for_a_short_or_blocked_route(home) -> None:
    start(home, DDM.replace("at: H4", "at: D2"))  # the orc stands 1 square from the square next to the knight
    ok("game", "initiative", "--roll", "a=3", "--roll", "b=18")
    ok("game", "activate", "orc")
    err = refused("game", "charge", "orc", "knight", "--roll", "15")
    assert "at least 2" in err
    start(home, DDM.replace("at: H4", "at: H2").replace("difficult: [H2]", "difficult: [E2]"), "g2.sqlite")
    ok("game", "initiative", "--roll", "a=3", "--roll", "b=18")
    ok("game", "activate", "orc")
    err = refused("game", "charge", "orc", "knight", "--roll", "15")
    assert "the route is not clear" in err and "E2, which slows movement" in err


def test_ddm_turn_diagonals_attacks_statues(home) -> None:
    start(home, DDM)
    ok("game", "initiative", "--roll", "a=15", "--roll", "b=3")
    ok("game", "activate", "knight")
    a = json.loads(ok("game", "move", "knight", "C3", "--json"))["event"]
    b = json.loads(ok("game", "move", "knight", "D4", "--json"))["event"]
    assert (a["cost"], b["cost"]) == (1, 2)  # the 1-2-1-2 count runs over the whole turn
    err = refused("game", "move", "knight", "F5")
    assert "statue" in err and "§ Posągi" in err
    ok("game", "move", "knight", "G4")  # 6 squares: its speed, and one attack after moving
    ok("game", "attack", "knight", "orc", "--roll", "2")
    err = refused("game", "attack", "knight", "orc", "--roll", "10")
    assert "a creature that moved attacks only once" in err and "ddm2005 §" in err
    err = refused("game", "move", "knight", "G5")
    assert "moved before attacking" in err
    ok("game", "end-turn")
    ok("game", "activate", "archer")  # attacks first, then moves up to its speed
    ok("game", "attack", "archer", "orc", "--roll", "2", "--ranged")
    err = refused("game", "move", "archer", "H8")
    assert "after attacking it may move up to its speed 6" in err
    ok("game", "move", "archer", "B5")
    err = refused("game", "attack", "archer", "orc", "--roll", "15", "--ranged")
    assert "moved after attacking" in err


def test_ddm_victory_areas_end_of_round_fearless_morale_flee_and_end(home) -> None:
    start(home, DDM.replace("at: B2", "at: J1"))  # the knight stands in its own victory area
    ok("game", "initiative", "--roll", "a=15", "--roll", "b=3")
    for fid in ("knight", "archer", "orc", "zombie"):
        ok("game", "activate", fid)
    ok("game", "end-turn")  # the last turn of the round ends: victory areas score now
    assert status()["vp"] == {"a": 10}
    ok("game", "initiative", "--roll", "a=15", "--roll", "b=3")
    ok("game", "activate", "knight")
    out = ok("game", "damage", "zombie", "20", "--by", "knight")
    assert "Fearless: no morale save" in out
    out = ok("game", "damage", "orc", "16", "--by", "knight")
    assert "morale save due" in out
    assert status()["morale_due"]
    out = ok("game", "morale", "orc", "--roll", "5")
    assert "orc morale save: d20 5 + Level 3 = 8 vs 20: fails" in out and "routs" in out
    st = status()
    assert not st["morale_due"] and "routing" in next(f for f in st["figures"] if f["id"] == "orc")["conditions"]
    out = ok("game", "flee", "orc")
    assert "orc fled off the map: eliminated" in out
    ok("game", "end-turn")
    ok("game", "activate", "archer")
    ok("game", "activate", "zombie")
    out = ok("game", "end", "--reason", "time")
    assert "end of round 2: a scores 10 VP" in out and "the game ends (time)" in out
    st = status()
    assert st["vp"]["a"] == 20 and st["ended"] == "time"
    err = refused("game", "initiative", "--roll", "a=3", "--roll", "b=5")
    assert "the game is over" in err
    md = ok("game", "export")
    assert "orc morale save" in md and "end of the game: time" in md


def test_a_ddm_morale_save_with_no_level_known_is_asked_for_not_read_as_level_0(home) -> None:
    """A user's trial (round 18) with the shipped DDM example: the Wood Elf Ranger's card gives no
    Level, and 'game morale ranger --roll 3' recorded "d20 3 + Level 0 = 3 vs 20: fails": an
    unknown Level read as 0 decided the save. Now the save is refused (exit 2) naming the Level and
    how to keep it; a natural 20 or 1 decides without it ("Level ?")."""
    start(home, DDM.replace(", level: 3}", "}"))  # the orc: no Level
    ok("game", "initiative", "--roll", "a=15", "--roll", "b=3")
    ok("game", "activate", "knight")
    err = refused("game", "morale", "orc", "--roll", "15")
    assert "orc's Level is unknown" in err and "'stats: {level: N}'" in err and "Traceback" not in err, err
    assert not [e for e in json.loads(ok("game", "log", "--json"))["events"] if e["kind"] == "morale"]  # nothing recorded
    out = ok("game", "morale", "orc", "--roll", "1")
    assert "orc morale save: d20 1 + Level ? = ? vs 20 (natural 1): fails" in out and "routs" in out
    out = ok("game", "morale", "knight", "--roll", "12")  # its Level, 4, and its own rating, 2: 18
    assert "d20 12 + Level 4 + commander 2 (knight) = 18 vs 20: fails" in out


def test_the_attack_question_says_when_the_acting_figures_turn_refuses_it(home) -> None:
    """A user's trial (round 18): after a double move 'attack luke vader' answered "legal, roll 12+"
    from the game, and 'game attack' then refused it (a double move leaves no attack). The
    question now says what the game's turn so far refuses, for the acting figure only."""
    start(home, SWM.format(rules="swm2004"))
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    ok("game", "activate", "scout")
    before = json.loads(ok("attack", "scout", "guard", "--json"))
    assert before["legal"] and before["refused_this_turn"] == []
    ok("game", "move", "scout", "B1")  # 6 squares and more: a double move
    ok("game", "move", "scout", "C2")
    out = ok("attack", "scout", "droid")
    assert "the game refuses this attack now: scout moved" in out and "double move leaves no attack" in out, out
    answer = json.loads(ok("attack", "scout", "droid", "--json"))
    assert answer["legal"] and "double move" in answer["refused_this_turn"][0]["text"]
    assert json.loads(ok("attack", "guard", "scout", "--json"))["refused_this_turn"] == []  # not the acting figure
    assert json.loads(ok("attack", "scout", "droid", "--moved", "--json"))["refused_this_turn"] == []  # a what-if
    rows = json.loads(ok("targets", "scout", "--json"))["targets"]
    assert all(r["refused_this_turn"] for r in rows if r["legal"]), rows  # the targets question says it too
    assert "not this turn" in ok("targets", "scout")
    refused("game", "attack", "scout", "droid", "--roll", "15")


# --- undo -------------------------------------------------------------------------------------


def test_undo_voids_what_no_longer_applies_and_can_be_undone(home) -> None:
    start(home, SWM.format(rules="swm2008"))
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    ok("game", "activate", "hero")
    ok("game", "damage", "droid", "5")
    heal = json.loads(ok("game", "heal", "droid", "5", "--json"))["event"]["seq"]
    ok("game", "damage", "droid", "8")  # 8 of 10: stands, thanks to the heal
    ok("game", "end-turn")
    ok("game", "activate", "scout")
    ok("game", "end-turn")
    ok("game", "activate", "droid")
    ok("game", "move", "droid", "E2")
    out = ok("game", "undo", str(heal))
    assert "no longer applies and is void" in out and "droid was defeated" in out
    for args in (("game", "status"), ("game", "log"), ("game", "export"), ("game", "replay", "--to", "3")):
        ok(*args)
    log = json.loads(ok("game", "log", "--json"))["events"]
    assert any(e.get("void") for e in log)
    undo_seq = log[-1]["seq"]
    out = ok("game", "undo", str(undo_seq))  # undo the undo: the heal is back
    assert "brought back" in out
    st = status()
    assert next(f for f in st["figures"] if f["id"] == "droid")["at"] == "E2"


def test_cards_given_at_new_are_kept_in_the_game(home, monkeypatch) -> None:
    cards = home / "mycards.yaml"
    cards.write_text(textwrap.dedent("""\
        format: tabletop-cards/1
        game: swm
        set: House
        cards:
          - name: House Trooper
            source: written for this test
            cost: 10
            factions: [Separatist]
            unique: false
            size: medium
            hp: 10
            defense: 12
            attack: 4
            damage: 10
            speed: 6
            force: 0
        """), encoding="utf-8")
    (home / "p.yaml").write_text(textwrap.dedent("""\
        format: tabletop-position/1
        rules: swm2008
        map: {cols: 6, rows: 6}
        figures:
          - {id: t1, card: House Trooper, side: dark, at: A1}
          - {id: t2, side: light, at: F6, stats: {hp: 10, defense: 10, attack: 1, damage: 10}}
        """), encoding="utf-8")
    r = run("--cards", str(cards), "game", "new", "-p", str(home / "p.yaml"), "--game", str(home / "c.sqlite"), "--override", "test")
    assert r.exit_code == 0, r.stderr
    cards.unlink()  # later commands need no --cards
    st = status()
    assert next(f for f in st["figures"] if f["id"] == "t1")["hp"] == 10


MOVERS = textwrap.dedent("""\
    format: tabletop-position/1
    rules: swm2008
    map: {cols: 30, rows: 8}
    figures:
      - {id: slow, side: light, at: A1, stats: {hp: 60, defense: 16, attack: 10, damage: 20, abilities: [Speed 4]}}
      - {id: bike, side: light, at: A3, stats: {hp: 60, defense: 16, attack: 10, damage: 20, abilities: [Wheeled]}}
      - {id: racer, side: light, at: A5, stats: {hp: 60, defense: 16, attack: 10, damage: 20, abilities: [Accelerate]}}
      - {id: turret, side: light, at: A7, stats: {hp: 60, defense: 16, attack: 10, damage: 20, abilities: [Emplacement]}}
      - {id: merc, side: dark, at: Z1, stats: {hp: 60, defense: 16, attack: 10, damage: 20, abilities: [Mercenary]}}
      - {id: target, side: dark, at: T3, stats: {hp: 60, defense: 16, attack: 10, damage: 20}}
    """)


def test_speed_accelerate_wheeled_emplacement_and_mercenary_in_checked_moves(home) -> None:
    """PL p.63 Speed [#] ("może poruszyć się [#] pól i zaatakować ... lub poruszyć się 2x [#] pól bez atakowania");
    p.32 Accelerate (24 squares without attacking); p.66 Wheeled ("poruszyć się do 18 pól a następnie wykonać
    atak"); p.42 Emplacement ("nie może się poruszać"); p.54 Mercenary ("może poruszać się tylko, jeśli z miejsca,
    z którego zaczyna ruch nie ma żadnego legalnego celu do ataku")."""
    start(home, MOVERS)
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    ok("game", "activate", "slow")
    err = refused("game", "move", "slow", "J1")  # 9 squares: Speed 4 allows 8 without attacking
    assert "its speed 4 allows 8" in err
    ok("game", "move", "slow", "I1")
    ok("game", "end-turn")
    ok("game", "activate", "bike")
    ok("game", "move", "bike", "S3")  # 18 squares, and still an attack
    ok("game", "attack", "bike", "target", "--roll", "15")
    ok("game", "end-turn")
    ok("game", "activate", "merc")  # the target is in its sight from where it stands: no move
    err = refused("game", "move", "merc", "Z2")
    assert "merc is a Mercenary" in err and "target" in err
    ok("game", "end-turn")
    ok("game", "activate", "target")
    ok("game", "end-turn")
    ok("game", "activate", "racer")
    ok("game", "move", "racer", "Y5")  # 24 squares without attacking
    err = refused("game", "attack", "racer", "target", "--roll", "15")
    assert "a double move leaves no attack" in err
    ok("game", "end-turn")
    ok("game", "activate", "turret")
    err = refused("game", "move", "turret", "A8")
    assert "turret is an Emplacement" in err


def test_ddm_slow_attack_and_no_reach(home) -> None:
    """DDM glossary: Slow [Melee/Ranged] Attack ("Nie może wykonać ataku ... i ruszyć się w tej samej turze");
    No Reach ("Nie może wykonywać ataków okazjonalnych")."""
    start(home, DDM.replace("ranged_damage: 5, speed: 6, level: 2}}", "ranged_damage: 5, speed: 6, level: 2, abilities: [Slow Ranged Attack]}}")
                   .replace("speed: 6, level: 3}}", "speed: 6, level: 3, abilities: [No Reach]}}"))
    ok("game", "initiative", "--roll", "a=15", "--roll", "b=3")
    ok("game", "activate", "archer")
    ok("game", "move", "archer", "B5")
    err = refused("game", "attack", "archer", "orc", "--roll", "15")
    assert "archer has Slow Ranged Attack: it cannot move and attack in the same turn" in err
    ok("game", "end-turn")
    ok("game", "activate", "knight")
    ok("game", "move", "knight", "G4")  # next to the orc; leaving would provoke, but the orc has No Reach
    err = refused("game", "aoo", "orc", "knight", "--roll", "15")
    assert "orc has No Reach: it makes no attacks of opportunity" in err


def test_avoid_defeat_asks_for_its_two_saves(home) -> None:
    """PL p.34, CS g.2 Avoid Defeat ("wykonuje ona dwa rzuty obronne, oba wymagają 11 dla powodzenia. Jeśli oba
    rzuty powiodą się postać nie jest pokonana; w zamian zostaje w grze i otrzymuje 10 Punktów Obrażeń")."""
    start(home, SWM.format(rules="swm2008").replace("speed: 6, abilities: [Double Attack]", "speed: 6, abilities: [Double Attack, Avoid Defeat]"))
    err = refused("game", "damage", "hero", "60")
    assert "hero has Avoid Defeat" in err and "--saves" in err
    out = ok("game", "damage", "hero", "60", "--saves", "12,15")
    assert "stays with 10 Hit Points" in out
    assert next(f for f in status()["figures"] if f["id"] == "hero")["damage_taken"] == 50
    out = ok("game", "damage", "hero", "10", "--saves", "12,5")
    assert "not both 11 or better" in out and "defeated" in out


STAGGER = textwrap.dedent("""\
    format: tabletop-position/1
    rules: ddm2005
    map: {cols: 10, rows: 6}
    figures:
      - {id: knight, side: a, at: A3, stats: {hp: 40, defense: 18, attack: 8, damage: 10, speed: 6, level: 4, commander_rating: 2, abilities: [Stagger]}}
      - {id: squire, side: a, at: C3, stats: {hp: 20, defense: 15, attack: 4, damage: 5, speed: 6, level: 2}}
      - {id: dancer, side: a, at: I5, stats: {hp: 20, defense: 15, attack: 4, damage: 5, speed: 6, level: 2, abilities: [Sidestep, Mobility]}}
      - {id: orc, side: b, at: F3, stats: {hp: 30, defense: 14, attack: 6, damage: 10, speed: 6, level: 3}}
      - {id: goblin, side: b, at: J6, stats: {hp: 10, defense: 12, attack: 3, damage: 5, speed: 6, level: 1}}
    """)


def test_ddm_stagger_sidestep_and_mobility(home) -> None:
    """DDM glossary: Stagger ("Ta istota może szarżować nawet, jeśli nie rusza się w linii prostej"); Sidestep ("Jeśli
    ta istota rusza się tylko o 1 pole w swojej turze, może wykonać wszystkie swoje ataki i nie prowokuje ona ataków
    okazyjnych"); Mobility ("+4 do KP przeciwko atakom okazjonalnym")."""
    start(home, STAGGER)
    ok("game", "initiative", "--roll", "a=15", "--roll", "b=3")
    ok("game", "activate", "knight")
    out = ok("game", "charge", "knight", "orc", "--roll", "15")  # the squire stands on the straight line; Stagger goes round
    assert "charges orc" in out
    ok("game", "end-turn")
    ok("game", "activate", "dancer")
    out = ok("game", "move", "dancer", "H5")  # one square away from the goblin: no attack of opportunity
    assert "Sidesteps" in out and "may make an attack of opportunity" not in out
    r = json.loads(ok("attack", "goblin", "dancer", "--opportunity", "--json"))
    assert r["defense"] == 19 and any(m["source"] == "Mobility (against an attack of opportunity)" for m in r["modifiers"])


def test_ddm_ghost_step_provokes_only_enemies_with_blindsight(home) -> None:
    """DDM glossary Ghost Step: the creature is Invisible until the end of its turn, and an Invisible creature
    provokes attacks of opportunity only from enemies that can see it (Blindsight)."""
    start(home, STAGGER.replace("abilities: [Sidestep, Mobility]", "abilities: [Ghost Step]").replace(
        "{id: goblin, side: b, at: J6, stats: {hp: 10, defense: 12, attack: 3, damage: 5, speed: 6, level: 1}}",
        "{id: goblin, side: b, at: J6, stats: {hp: 10, defense: 12, attack: 3, damage: 5, speed: 6, level: 1}}\n"
        "  - {id: bat, side: b, at: J4, stats: {hp: 10, defense: 12, attack: 3, damage: 5, speed: 6, level: 1, abilities: [Blindsight]}}"))
    ok("game", "initiative", "--roll", "a=15", "--roll", "b=3")
    ok("game", "activate", "dancer")
    out = ok("game", "move", "dancer", "F5")  # leaves both the goblin's and the bat's reach
    assert "declares Ghost Step" in out
    assert "leaving bat's reach: it may make an attack of opportunity first" in out and "goblin's reach" not in out


def test_a_recorded_hit_meets_the_defenders_saves_as_rolled(home) -> None:
    """The saves between a hit and its damage (PL p.56 Parry, p.52 Lightsaber Block, p.61 Shields) are
    asked for, then applied as rolled; a Force-costed one spends the defender's Force point."""
    start(
        home,
        SWM.format(rules="swm2008")
        .replace("at: B2", "at: C2")
        .replace("abilities: [Double Attack]}", "abilities: [Double Attack, Melee Attack]}")
        .replace(
            "{id: droid, side: dark, at: D2, stats: {hp: 10, defense: 25, attack: 4, damage: 10, speed: 6}}",
            "{id: droid, side: dark, at: D2, stats: {hp: 60, defense: 12, attack: 4, damage: 10, speed: 6, force: 2, abilities: [Parry, Lightsaber Block, "
            "Shields 2]}}",
        ),
    )
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    ok("game", "activate", "hero")
    err = refused("game", "attack", "hero", "droid", "--roll", "15")
    assert "--save" in err and "Parry" in err and "Shields" in err
    # Parry fails (5), Block not used, Shields: one save made (11, 3): 20 - 10 = 10
    out = json.loads(
        ok("game", "attack", "hero", "droid", "--roll", "15", "--save", "Parry=5", "--save", "Lightsaber Block=no", "--save", "Shields=11,3", "--json")
    )
    assert out["event"]["damage"] == 10 and out["event"]["hit_damage"] == 20
    # Block made with its Force point: no damage, and the droid has 1 Force point left
    out = json.loads(
        ok("game", "attack", "hero", "droid", "--roll", "15", "--save", "Parry=2", "--save", "Lightsaber Block=14", "--save", "Shields=1,1", "--json")
    )
    assert out["event"]["damage"] == 0 and out["event"]["force_spent"] == {"droid": 1}
    droid = next(f for f in status()["figures"] if f["id"] == "droid")
    assert droid["damage_taken"] == 10


def test_a_force_power_is_recorded_with_its_force_points_and_each_struck_figures_damage(home) -> None:
    """PL p.45 Force Lightning [#] (2 Force points: the target and two characters next to it) and p.47 Force Thrust
    (a save of 11 halves it), recorded in the game: the Force points spent, each figure's damage."""
    start(
        home,
        SWM.format(rules="swm2008").replace(
            "{id: hero, side: light, at: B2, stats: {hp: 60, defense: 16, attack: 10, damage: 20, speed: 6, abilities: [Double Attack]}}",
            "{id: hero, side: light, at: B2, stats: {hp: 60, defense: 16, attack: 10, damage: 20, speed: 6, force: 4, abilities: [Force Lightning 2, Force "
            "Thrust 20]}}",
        ),
    )
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    ok("game", "activate", "hero")
    out = json.loads(ok("game", "power", "hero", "guard", "Force Lightning 2", "--json"))
    assert out["event"]["struck"][0] == {"figure": "guard", "damage": 30}
    figures = {f["id"]: f for f in status()["figures"]}
    assert figures["hero"]["force"] == 2 and "guard" not in figures  # 30 damage defeats its 30 Hit Points
    err = refused("game", "power", "hero", "droid", "Force Thrust")
    assert "already attacked this turn" in err
    ok("game", "end-turn")


TOW = textwrap.dedent("""\
    format: tabletop-position/1
    rules: {rules}
    map: {{cols: 12, rows: 8, squares: {{pit: [E6]}}}}
    figures:
      - {{id: hero, side: light, at: B2, stats: {{hp: 60, defense: 16, attack: 10, damage: 20, speed: 6, abilities: [Tow Cable]}}}}
      - {{id: scout, side: light, at: B3, stats: {{hp: 20, defense: 14, attack: 6, damage: 10, speed: 6, abilities: [Intuition]}}}}
      - {{id: walker, side: light, size: large, at: A4, stats: {{hp: 20, defense: 14, attack: 6, damage: 10, speed: 6}}}}
      - {{id: droid, side: dark, at: D2, stats: {{hp: 10, defense: 25, attack: 4, damage: 10, speed: 6}}}}
      - {{id: guard, side: dark, at: D5, stats: {{hp: 30, defense: 13, attack: 5, damage: 10, speed: 6}}}}
    """)


def test_a_figure_under_jedi_mind_trick_is_no_reach_a_move_leaves(home) -> None:
    """PL p.50 Jedi Mind Trick: the target is treated as stunned this round, so it makes no attack of opportunity
    (`game aoo` refused it); the move still named it as an enemy whose reach it leaves (reading R185: one list, the
    edition record's)."""
    text = TOW.format(rules="swm2008").replace("speed: 6}}\n  - {id: guard", "speed: 6}, conditions: [jedi mind trick]}\n  - {id: guard")
    assert "jedi mind trick" in text
    start(home, text)
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    ok("game", "activate", "scout")
    out = ok("game", "move", "scout", "H3")
    assert "scout moves" in out and "droid" not in out, out


def test_swm_intuition_moves_before_the_first_activation_once_a_round(home) -> None:
    """PL p.50 Intuition ("Po tym jak inicjatywa zostanie rozstrzygnięta, postać ta może natychmiast wykonać ruch aż do
    swojej pełnej prędkości, zanim inne postacie zostaną aktywowane. (Nie wlicza się tego do aktywacji) ... wyłącznie
    raz w rundzie")."""
    start(home, TOW.format(rules="swm2008"))
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    err = refused("game", "move", "scout", "J3")
    assert "Intuition moves scout up to its speed 6; this move is 8 squares" in err
    out = ok("game", "move", "scout", "H3")
    assert "scout moves with Intuition" in out and "leaving droid's reach" in out  # it still provokes
    scout = next(f for f in status()["figures"] if f["id"] == "scout")
    assert scout["at"] == "H3" and not scout["activated"]
    err = refused("game", "move", "scout", "H4")
    assert "Intuition move is made after initiative, before the first activation, once a round" in err
    ok("game", "activate", "scout")  # its own activation, with its whole turn
    assert "moves to H5" in ok("game", "move", "scout", "H5")


def test_swm_tow_cable_moves_both_with_flight_as_the_whole_turn(home) -> None:
    """PL p.65 / CS g.13 Tow Cable ("Zamiast normalnej tury, postać ta wybiera sąsiadującą sojuszniczą postać. Obie
    postacie mogą poruszyć się do 12 pól i obie mają umiejętność specjalną Lot ... Sojusznik musi zakończyć swój ruch
    sąsiadując z tą postacią. Lina Holownicza może być użyta tylko do przesuwania średnich lub małych postaci")."""
    start(home, TOW.format(rules="swm2008"))
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    ok("game", "activate", "hero")
    assert "the towed scout must end next to hero (F6)" in refused("game", "move", "hero", "F6", "--tow", "scout=F8")
    assert "hero may move up to 12 squares with Tow Cable; this move is 14 squares" in refused("game", "move", "hero", "L6", "--tow", "scout=L7")
    assert "Tow Cable moves only Medium or smaller figures; walker is large" in refused("game", "move", "hero", "F6", "--tow", "walker=F7")
    assert "ALLY=SQUARE" in refused("game", "move", "hero", "F6", "--tow", "scout")
    out = ok("game", "move", "hero", "F6", "--tow", "scout=F7")  # over the droid and past the guard: Flight, no attack of opportunity
    assert "hero tows scout with Tow Cable" in out and "reach" not in out
    at = {f["id"]: f["at"] for f in status()["figures"]}
    assert (at["hero"], at["scout"]) == ("F6", "F7")
    assert "used Tow Cable: that move was its whole turn" in refused("game", "attack", "hero", "guard", "--roll", "15")
    assert "used Tow Cable" in refused("game", "move", "hero", "F5")
    ok("game", "undo")
    at = {f["id"]: f["at"] for f in status()["figures"]}
    assert (at["hero"], at["scout"]) == ("B2", "B3")


def test_swm2004_tow_cable_sets_no_size(home) -> None:
    """CS g.13 Tow Cable ("Obě postavy se poté pohnou o 12 polí ... Přátelská postava musí skončit svůj pohyb na sousedním
    poli k této postavě"): the 2004 text has no size limit."""
    start(home, TOW.format(rules="swm2004").replace("at: A4", "at: A3").replace("id: scout, side: light, at: B3", "id: scout, side: light, at: L8"))
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    ok("game", "activate", "hero")
    err = refused("game", "move", "hero", "F6", "--tow", "walker=F7")
    assert "Medium or smaller" not in err and "walker is not next to hero" not in err


DIG = textwrap.dedent("""\
    format: tabletop-position/1
    rules: ddm2005
    map: {cols: 10, rows: 6, squares: {wall: [D1, D2, D3, D4, D5, D6]}}
    figures:
      - {id: mole, side: a, at: B3, stats: {hp: 40, defense: 16, attack: 8, damage: 10, speed: 6, level: 4, commander_rating: 2, abilities: [Burrow 4]}}
      - {id: rhino, side: a, at: A5, stats: {hp: 40, defense: 16, attack: 8, damage: 10, speed: 6, level: 4, abilities: ['Trample 10 (DC 15)']}}
      - {id: imp, side: b, size: small, at: B5, stats: {hp: 10, defense: 12, attack: 3, damage: 5, speed: 6, level: 1}}
      - {id: orc, side: b, at: G3, stats: {hp: 30, defense: 14, attack: 6, damage: 10, speed: 6, level: 3}}
      - {id: ogre, side: b, at: C4, stats: {hp: 30, defense: 14, attack: 6, damage: 10, speed: 6, level: 3}}
    """)


def test_ddm_burrow_goes_under_walls_and_enemies_at_its_own_speed(home) -> None:
    """DDM glossary Burrow [#] ("używa tej zdolności dla całego swojego ruchu w tej turze, a jej szybkość to wartość tej
    zdolności. Kopiąca istota ignoruje działanie terenu na powierzchni i może ruszać się przez pola zajmowane przez
    ściany i wrogie istoty ... jest niewrażliwa na ataki okazyjne i nie może szarżować")."""
    start(home, DIG)
    ok("game", "initiative", "--roll", "a=15", "--roll", "b=3")
    ok("game", "activate", "mole")
    err = refused("game", "move", "mole", "F3")
    assert "no path from B3 to F3" in err and err.count("§ Ruch p.10") == 1  # cited once
    assert "its speed 4 allows 8" in refused("game", "move", "mole", "J6", "--burrow")
    out = ok("game", "move", "mole", "F3", "--burrow")  # under the wall, leaving the ogre's reach: no attack of opportunity
    assert "mole burrows" in out and "leaving" not in out
    assert "its whole move is underground (move with --burrow)" in refused("game", "move", "mole", "F4")
    ok("game", "attack", "mole", "orc", "--roll", "2")  # 4 squares at Burrow 4: still an attack
    ok("game", "end-turn")
    ok("game", "activate", "rhino")
    assert "rhino has no Burrow" in refused("game", "move", "rhino", "A6", "--burrow")


def test_ddm_trample_goes_through_a_smaller_enemy_once_a_turn(home) -> None:
    """DDM glossary Trample [#] ("Może ruszyć się przez pole zajmowane przez mniejszego przeciwnika, żeby zadać [#]
    obrażeń; ST [##] ... raz w swojej turze. Tratująca istota nadal prowokuje ataki okazyjne")."""
    start(home, DIG)
    ok("game", "initiative", "--roll", "a=15", "--roll", "b=3")
    ok("game", "activate", "rhino")
    out = ok("game", "move", "rhino", "C5")  # through the Small imp
    assert "rhino tramples imp (once this turn): each takes 10 damage unless it saves against DC 15" in out
    assert "leaving" in out and "reach" in out  # it still provokes
    from assistant.game.movement import mover
    from assistant.position import parse_position

    pos = parse_position(DIG, "dig.yaml")
    step = mover(pos, pos.figure("rhino"), trample=True).step
    assert step((0, 4), (1, 4), 0) is not None and step((1, 3), (2, 3), 0) is None  # the Small imp's square, not the Medium ogre's
    ok("game", "undo")
    ok("game", "move", "rhino", "A6")
    ok("game", "move", "rhino", "B6")
    out = ok("game", "move", "rhino", "B4")  # once a turn; the imp's square is open to it still (the turn has not trampled)
    assert "tramples imp" in out
    ev = export()["events"]
    assert [e.get("trample") for e in ev if e["kind"] == "move" and not e["undone"]][-1] == ["imp"]


TERRAIN = textwrap.dedent("""\
    format: tabletop-position/1
    rules: swm2008
    map:
      cols: 12
      rows: 8
      squares:
        difficult: [C2, D2, E2]
        wall: [A4, B4, C4, D4, E4, F4]
        pit: [C5]
    figures:
      - {id: walker, side: light, at: B2, stats: {hp: 60, defense: 16, attack: 10, damage: 20, speed: 6, abilities: [Stable Footing]}}
      - {id: plain, side: light, at: B1, stats: {hp: 60, defense: 16, attack: 10, damage: 20, speed: 6}}
      - {id: climber, side: light, at: A5, stats: {hp: 60, defense: 16, attack: 10, damage: 20, speed: 6, abilities: [Wall Climber]}}
      - {id: wheel, side: light, at: A8, stats: {hp: 60, defense: 16, attack: 10, damage: 20, speed: 6, abilities: [Wheel Form]}}
      - {id: skirmisher, side: light, at: H1, stats: {hp: 60, defense: 16, attack: 10, damage: 20, speed: 6, abilities: [Double Attack, Greater Mobile Attack]}}
      - {id: gunner, side: light, at: L1, stats: {hp: 60, defense: 16, attack: 10, damage: 20, speed: 6, abilities: [Extra Attack]}}
      - {id: droid, side: dark, at: B6, stats: {hp: 100, defense: 10, attack: 4, damage: 10, speed: 6}}
      - {id: guard, side: dark, at: J3, stats: {hp: 100, defense: 10, attack: 5, damage: 10, speed: 6}}
    """)


def _turn_of(figure: str) -> None:
    ok("game", "activate", figure)


def test_swm_stable_footing_wall_climber_and_wheel_form(home) -> None:
    """PL p.63 Stable Footing ("może poruszać się po terenie spowalniającym ruch ... nie ponosząc dodatkowego kosztu");
    PL p.66 Wall Climber ("ignoruje trudny teren, wrogie postacie, niskie obiekty i zagłębienia podczas poruszania, dopóki
    pole, które zajmuje i pola, na które wchodzi sąsiadują ze ścianą"); PL p.66 Wheel Form ("może poruszyć się do 18 pól,
    jeśli nie wykonuje ataku")."""
    start(home, TERRAIN)
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    _turn_of("walker")
    assert "(3 squares" in ok("game", "move", "walker", "E2")  # three difficult squares at 1 each
    ok("game", "end-turn")
    _turn_of("plain")
    out = ok("game", "move", "plain", "F1")  # round the difficult squares: row 1 is clear
    assert "(4 squares" in out
    ok("game", "end-turn")
    ok("game", "activate", "droid")
    ok("game", "end-turn")
    ok("game", "activate", "guard")
    ok("game", "end-turn")
    _turn_of("climber")
    out = ok("game", "move", "climber", "E5")  # along the wall, over the pit C5 and past the droid's square B6 being next to it
    assert "Wall Climber applied" in out and "(4 squares" in out
    ok("game", "end-turn")
    _turn_of("wheel")
    out = ok("game", "move", "wheel", "K8")  # 10 squares
    assert "(10 squares" in out
    out = ok("game", "move", "wheel", "K1")  # 7 more: 17 in all, within Wheel Form's 18
    assert "(7 squares" in out
    assert "a double move leaves no attack" in refused("game", "attack", "wheel", "guard", "--roll", "15")


def test_swm_greater_mobile_attack_and_extra_attack(home) -> None:
    """PL p.48 Greater Mobile Attack ("może wykonać kilka ataków (jeżeli istnieją) nawet jeśli porusza się w swojej
    turze"); PL p.42 Extra Attack ("W swojej turze postać może wykonać dodatkowy atak, ale nie może poruszyć się, jeśli
    to zrobi")."""
    start(home, TERRAIN)
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    _turn_of("skirmisher")
    ok("game", "move", "skirmisher", "I2")
    ok("game", "attack", "skirmisher", "guard", "--roll", "15")
    ok("game", "attack", "skirmisher", "guard", "--roll", "15")  # Double Attack after moving: Greater Mobile Attack
    assert "moves to I1" in ok("game", "move", "skirmisher", "I1")  # and on, within its speed 6 in all
    ok("game", "end-turn")
    _turn_of("gunner")
    ok("game", "attack", "gunner", "guard", "--roll", "15")
    ok("game", "attack", "gunner", "guard", "--roll", "15")  # the extra attack
    assert "attacks this turn" in refused("game", "move", "gunner", "L2")  # and no move after it
    ok("game", "undo")  # the second attack
    ok("game", "undo")
    ok("game", "move", "gunner", "K2")  # having moved, one attack only
    ok("game", "attack", "gunner", "guard", "--roll", "15")
    assert "all it may" in refused("game", "attack", "gunner", "guard", "--roll", "15")


def test_ddm_spring_attack_and_slow_attack(home) -> None:
    """DDM glossary Spring Attack ("może się ruszyć, wykonać atak wręcz, a następnie ruszyć się jeszcze raz, dopóki
    odległość ... nie przekracza jej Szybkości"); Slow Attack (it cannot move and attack in the same turn)."""
    start(
        home,
        STAGGER.replace("abilities: [Sidestep, Mobility]", "abilities: [Spring Attack]").replace(
            "{id: squire, side: a, at: C3, stats: {hp: 20, defense: 15, attack: 4, damage: 5, speed: 6, level: 2}}",
            "{id: squire, side: a, at: C3, stats: {hp: 20, defense: 15, attack: 4, damage: 5, speed: 6, level: 2, abilities: [Slow Attack]}}",
        ),
    )
    ok("game", "initiative", "--roll", "a=15", "--roll", "b=3")
    ok("game", "activate", "dancer")
    ok("game", "move", "dancer", "I6")  # next to the goblin at J6
    ok("game", "attack", "dancer", "goblin", "--roll", "2")
    assert "moves to E6" in ok("game", "move", "dancer", "E6")  # 4 more: 5 in all, within Speed 6
    ok("game", "end-turn")
    ok("game", "activate", "squire")  # a's second activation of the phase
    ok("game", "move", "squire", "E3")  # next to the orc at F3
    assert "squire has Slow Attack: it cannot move and attack in the same turn" in refused("game", "attack", "squire", "orc", "--roll", "15")


def test_grenades_and_drain_life_recorded_with_each_struck_figures_save(home) -> None:
    """PL p.48 Grenades [#] ("Cel i wszystkie sąsiadujące z nim postacie ... odnoszą [#] punktów obrażeń. Każda postać
    może uniknąć obrażeń rzutem obronnym na 11"): no Force points, each character's own save; PL p.41 Drain Life [#]
    (1 Force point, "jednocześnie zmniejszając swoje dotychczasowe obrażenia o podaną wartość"), used besides the attack."""
    start(
        home,
        SWM.format(rules="swm2008")
        .replace(
            "{id: hero, side: light, at: B2, stats: {hp: 60, defense: 16, attack: 10, damage: 20, speed: 6, abilities: [Double Attack]}}",
            "{id: hero, side: light, at: B2, damage_taken: 30, stats: {hp: 60, defense: 16, attack: 10, damage: 20, speed: 6, force: 2, abilities: "
            "[Grenades 20, Drain Life 10]}}",
        )
        .replace("at: D5, stats: {hp: 30", "at: D3, stats: {hp: 30"),
    )
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    ok("game", "activate", "hero")
    # guard (D3) is next to the droid (D2): both are struck, each saves for itself
    err = refused("game", "power", "hero", "droid", "Grenades", "--save", "droid:save=15")
    assert "guard makes a save of 11 against Grenades 20" in err
    out = json.loads(ok("game", "power", "hero", "droid", "Grenades", "--save", "droid:save=15", "--save", "guard:save=3", "--json"))
    assert {s["figure"]: s["damage"] for s in out["event"]["struck"]} == {"droid": 0, "guard": 20}
    figures = {f["id"]: f for f in status()["figures"]}
    assert figures["hero"]["force"] == 2 and figures["guard"]["damage_taken"] == 20
    out = json.loads(ok("game", "power", "hero", "guard", "Drain Life", "--save", "guard:save=4", "--json"))  # not an attack: allowed after Grenades
    assert out["event"]["heal"] == 10 and out["event"]["replaces"] == "nothing"
    figures = {f["id"]: f for f in status()["figures"]}
    assert figures["hero"]["force"] == 1 and figures["hero"]["damage_taken"] == 20
    assert "guard" not in figures  # 20 + 10 = its 30 Hit Points


SKIFF = textwrap.dedent("""\
    format: tabletop-position/1
    rules: swm2008
    map: {cols: 12, rows: 8}
    figures:
      - {id: skiff, side: dark, size: large, at: B2, stats: {hp: 60, defense: 16, attack: 10, damage: 20, speed: 8, abilities: [Desert Skiff, Flight]}}
      - {id: guard1, side: dark, at: D2, stats: {hp: 30, defense: 14, attack: 6, damage: 10, speed: 6}}
      - {id: guard2, side: dark, at: A5, stats: {hp: 30, defense: 14, attack: 6, damage: 10, speed: 6}}
      - {id: guard3, side: dark, at: D5, stats: {hp: 30, defense: 14, attack: 6, damage: 10, speed: 6}}
      - {id: hero, side: light, at: K7, stats: {hp: 60, defense: 16, attack: 10, damage: 20, speed: 6}}
    """)


def test_swm_desert_skiff_carries_its_passengers_off_the_map(home) -> None:
    """PL p.39 Desert Skiff ("może przewozić do jednego dużego lub dwóch średnich lub małych sojuszników. Aby wejść na
    pokład, muszą oni zakończyć swój ruch na polu sąsiadującym z jej podstawą ... mogą wysiąść i wrócić na planszę
    natychmiast przed pierwszą aktywacją w swojej rundzie ... Jeśli postać ta zostanie pokonana, przewożone postacie
    również są pokonane; każda z nich może wykonać rzut obronny na 11")."""
    start(home, SKIFF)
    ok("game", "initiative", "--roll", "dark=15", "--roll", "light=3")
    assert "boards at the end of its own move: activate it first" in refused("game", "embark", "guard1", "skiff")
    ok("game", "activate", "guard1")
    assert "boards skiff" in ok("game", "embark", "guard1", "skiff")
    ok("game", "activate", "guard2")
    ok("game", "move", "guard2", "A4")
    ok("game", "embark", "guard2", "skiff")
    st = status()
    assert st["aboard"] == {"guard1": "skiff", "guard2": "skiff"} and "guard1" not in {f["id"] for f in st["figures"]}
    assert "guard1 is aboard skiff (Desert Skiff)" in refused("game", "attack", "guard1", "hero", "--roll", "15")
    ok("game", "activate", "hero")
    ok("game", "end-turn")
    ok("game", "activate", "guard3")
    ok("game", "move", "guard3", "D4")
    err = refused("game", "embark", "guard3", "skiff")  # a third Medium passenger
    assert "skiff carries one Large or two Medium or Small allies" in err
    ok("game", "end-turn")
    assert "disembarks just before the round's first activation" in refused("game", "disembark", "guard1", "D2")
    ok("game", "activate", "skiff")
    ok("game", "end-turn")
    ok("game", "initiative", "--roll", "dark=15", "--roll", "light=3")
    assert "E2 is not next to skiff" in refused("game", "disembark", "guard1", "E2")
    assert "disembarks at D2" in ok("game", "disembark", "guard1", "D2")
    out = ok("game", "damage", "skiff", "60")
    assert "skiff carried guard2: each is defeated with it unless it makes a save of 11" in out
    assert "B2 is not next to where skiff stood" in refused("game", "disembark", "guard2", "B2")
    ok("game", "disembark", "guard2", "A2")  # it saved: placed next to where the skiff stood
    assert {f["id"]: f["at"] for f in status()["figures"]}["guard2"] == "A2"
    assert status()["aboard"] == {}


def test_only_a_passenger_disembarks_even_overridden(home) -> None:
    """PL p.39 Desert Skiff: "przewożone postacie ... mogą wysiąść i wrócić na planszę" -- only a figure
    aboard can disembark. A judge's override records a refused disembark; it cannot put on the map
    a figure that was never off it: refused with exit 2 naming it (was a traceback, exit 1, and a
    500 on the web), the log unchanged."""
    start(home, SKIFF)
    ok("game", "initiative", "--roll", "dark=15", "--roll", "light=3")
    before = len(export()["events"])
    err = refused("game", "disembark", "guard1", "C2", "--override", "judge: let it")
    assert "guard1 is not aboard a Desert Skiff" in err
    assert len(export()["events"]) == before
    assert {f["id"]: f["at"] for f in status()["figures"]}["guard1"] == "D2"


def test_desert_skiff_is_a_2008_ability(home) -> None:
    start(home, SKIFF.replace("rules: swm2008", "rules: swm2004"))
    ok("game", "initiative", "--roll", "dark=15", "--roll", "light=3")
    ok("game", "activate", "guard1")
    assert "skiff has no Desert Skiff" in refused("game", "embark", "guard1", "skiff")


def test_ddm_breath_weapon_recorded_with_the_save_as_rolled(home) -> None:
    """DDM glossary Breath Weapon ("Zastępuje ataki: ZASIEG; EFEKT I WARUNKI; ST [#]") and § Rzuty obronne p.19 (d20 +
    Level against the DC; success: half damage, rounded down to a multiple of 5)."""
    start(
        home,
        textwrap.dedent("""\
        format: tabletop-position/1
        rules: ddm2005
        map: {cols: 10, rows: 6}
        figures:
          - {id: dragon, side: a, at: B2, stats: {hp: 100, defense: 18, attack: 12, damage: 20, speed: 6, level: 8,
                                                  abilities: ['Breath Weapon (cone; 30 fire damage; DC 17)']}}
          - {id: knight, side: b, at: F2, stats: {hp: 60, defense: 18, attack: 8, damage: 10, speed: 6, level: 5}}
        """),
    )
    ok("game", "initiative", "--roll", "a=15", "--roll", "b=3")
    ok("game", "activate", "dragon")
    assert "knight makes a save against DC 17 (d20 + Level)" in refused("game", "power", "dragon", "knight", "Breath Weapon")
    out = json.loads(ok("game", "power", "dragon", "knight", "Breath Weapon", "--save", "knight:save=12", "--json"))  # 12 + 5 = 17
    assert out["event"]["struck"] == [{"figure": "knight", "damage": 15}]  # half of 30, rounded down to 5s
    assert next(f for f in status()["figures"] if f["id"] == "knight")["damage_taken"] == 15
    assert "has made 1 attack this turn" in refused("game", "attack", "dragon", "knight", "--roll", "15")  # it replaced the attack


def test_a_power_made_of_attacks_is_recorded_attack_by_attack(home) -> None:
    """PL p.52 Lightsaber Sweep ("jeden atak przeciwko każdemu sąsiadującemu wrogowi"): its attacks are rolled at the
    table, so the game asks for them one by one rather than recording damage without a roll."""
    start(
        home,
        SWM.format(rules="swm2008").replace(
            "{id: hero, side: light, at: B2, stats: {hp: 60, defense: 16, attack: 10, damage: 20, speed: 6, abilities: [Double Attack]}}",
            "{id: hero, side: light, at: C2, stats: {hp: 60, defense: 16, attack: 10, damage: 20, speed: 6, force: 2, abilities: [Lightsaber Sweep]}}",
        ),
    )
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    ok("game", "activate", "hero")
    err = refused("game", "power", "hero", "droid", "Lightsaber Sweep")
    assert "Lightsaber Sweep is made of attacks: record each with 'game attack hero TARGET --roll N" in err


def test_the_status_keeps_its_columns_in_line_beside_a_large_figure(home) -> None:
    """A user's trial (round 19): the Yuzzem's "M9:N10" pushed its row's Hit Points and
    activation two characters right of every other row's."""
    from assistant.resources import example_path

    start(home, example_path("pillar-room").read_text(encoding="utf-8"))
    rows = [line for line in ok("game", "status").splitlines() if "HP" in line]
    assert len(rows) == 4 and any("M9:N10" in r for r in rows), rows
    assert len({r.index(" HP") - len(r.split()[2]) for r in rows}) == 1, rows  # the HP column starts at one place
    assert len({r.index("activate") for r in rows}) == 1, rows


def test_the_status_keeps_its_columns_in_line_beside_a_long_id(home) -> None:
    """A trial's player typed a board with ids like "super-battle-droid-1": its square, Hit Points
    and activation stood 8 characters right of "dooku"'s (the id column was 12 wide)."""
    from assistant.resources import example_path

    text = example_path("clone-wars-example-combat").read_text(encoding="utf-8")
    start(home, text.replace("id: sbdc,", "id: super-battle-droid-commander,").replace("id: obi,", "id: obi-wan-kenobi,"))
    rows = [line for line in ok("game", "status").splitlines() if " HP" in line]
    assert len(rows) == 5 and any("super-battle-droid-commander A3" in r for r in rows), rows
    assert len({r.index(" HP") - len(r.split()[2]) for r in rows}) == 1, rows  # the HP column starts at one place
    assert len({r.index("activate") for r in rows}) == 1, rows


def test_a_failed_ddm_morale_save_names_the_unknown_commander_ratings_in_range(home) -> None:
    """A user's trial (round 19): a failed morale save counted every unknown Commander rating in
    command range as 0 without a word. Now the event names them (reading R160): the knight's save
    names the archer beside it (its own 2 is known); a save that holds, or a natural 1, names none;
    with the ratings given, nothing is said."""
    start(home, DDM)
    ok("game", "initiative", "--roll", "a=15", "--roll", "b=3")
    ev = json.loads(ok("game", "morale", "knight", "--roll", "12", "--json"))["event"]
    assert ev["held"] is False and ev["unknown_ratings"] == ["archer"]
    out = ok("game", "morale", "orc", "--roll", "5")  # the orc's own and the zombie's (3 squares away)
    assert "fails; the Commander ratings of orc, zombie are unknown and read as none" in out and "R160" in out, out
    assert "§ Rzut obronny na morale p.21" in out
    assert "unknown_ratings" not in json.loads(ok("game", "morale", "orc", "--roll", "1", "--json"))["event"]
    assert "unknown_ratings" not in json.loads(ok("game", "morale", "zombie", "--roll", "20", "--json"))["event"]
    start(home, DDM.replace("level: 2}", "level: 2, commander_rating: 0}"), "g2.sqlite")
    ok("game", "initiative", "--roll", "a=15", "--roll", "b=3")
    assert "unknown_ratings" not in json.loads(ok("game", "morale", "knight", "--roll", "12", "--json"))["event"]


CHARGERS = textwrap.dedent("""\
    format: tabletop-position/1
    rules: {rules}
    map: {{cols: 30, rows: 8}}
    figures:
      - {{id: rider, side: light, at: A1, stats: {{hp: 60, defense: 16, attack: 10, damage: 20, abilities: [{abilities}]}}}}
      - {{id: walker, side: light, at: A5, stats: {{hp: 60, defense: 16, attack: 10, damage: 20, abilities: [{walker}]}}}}
      - {{id: target, side: dark, at: P2, stats: {{hp: 200, defense: 16, attack: 10, damage: 20}}}}
    """)


def test_charging_fire_2008_moves_double_speed_and_attacks_once(home) -> None:
    """PL p.36 Charging Fire ("Zamiast normalnej tury, postać może poruszyć się do dwukrotności swojej
    prędkości i wykonać atak w tej samej turze"): 12 squares at speed 6 and one attack, even with Double
    Attack and Greater Mobile Attack; without it a double move leaves no attack (PL p.6, p.16)."""
    start(home, CHARGERS.format(rules="swm2008", abilities="Charging Fire, Double Attack, Greater Mobile Attack", walker="Double Attack"))
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    ok("game", "activate", "rider")
    ok("game", "move", "rider", "M1")  # 12 squares
    ok("game", "attack", "rider", "target", "--roll", "2")
    err = refused("game", "attack", "rider", "target", "--roll", "2")
    assert "Charging Fire: the move and one attack" in err and "PL p.36" in err, err
    ok("game", "end-turn")
    ok("game", "activate", "walker")
    ok("game", "move", "walker", "M5")
    err = refused("game", "attack", "walker", "target", "--roll", "2")
    assert "a double move leaves no attack" in err, err


def test_charging_fire_2004_moves_12_squares_whatever_its_speed(home) -> None:
    """CS g.2 Charging Fire ("Namísto normálního útoku se může postava pohnout až o 12 polí a zaútočit ve
    stejném tahu"): at Speed 4 it moves 12 squares and attacks; 13 is too far."""
    start(home, CHARGERS.format(rules="swm2004", abilities="Charging Fire, Speed 4", walker="Speed 4"))
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    ok("game", "activate", "rider")
    err = refused("game", "move", "rider", "N1")  # 13 squares
    assert "rider would move 13" in err, err
    ok("game", "move", "rider", "M1")  # 12 squares
    ok("game", "attack", "rider", "target", "--roll", "2")
    ok("game", "end-turn")
    ok("game", "activate", "walker")
    err = refused("game", "move", "walker", "M5")
    assert "its speed 4 allows 8" in err, err


def test_ddm_a_second_activation_in_a_phase_says_the_first_creatures_turn_ended(home) -> None:
    """A judge's pass (round 29): a player's phase activates its 2 creatures one at a time (DDM 2005),
    so a second ``game activate`` ends the first one's turn; the log said only "archer activates",
    and a judge replaying it could not see where the knight's turn ended."""
    start(home, DDM)
    ok("game", "initiative", "--roll", "a=15", "--roll", "b=3")
    ok("game", "activate", "knight")
    text = json.loads(ok("game", "activate", "archer", "--json"))["text"]
    assert text.startswith("archer activates; knight's turn ends (ddm2005 § Fazy p.8-9"), text
    log = json.loads(ok("game", "log", "--json"))
    assert sum("knight's turn ends" in e["text"] for e in log["events"]) == 1, log["events"]
    text = json.loads(ok("game", "activate", "orc", "--json"))["text"]  # the other player's phase: the archer's turn ended too
    assert text.startswith("orc activates; archer's turn ends"), text
