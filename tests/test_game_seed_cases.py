"""Golden cases of the game session written from the rulebooks' own words (issue 30): SWM Force
points (Move Faster and once per turn, CS r.9; PL p.11, p.25-26), a squad's side (CS r.4; PL
p.14-15), the ten quiet rounds' tie-break (CS r.5; § Scenariusz starcia p.28) and the status's
figures keyed by id in every language."""

from __future__ import annotations

import json
import textwrap

import pytest

from assistant import i18n

from .test_game_turns import SWM, ok, run

# an open hall: nothing blocks a straight move along row 1
OPEN = textwrap.dedent("""\
    format: tabletop-position/1
    rules: {rules}
    map: {{cols: 20, rows: 8}}
    figures:
      - {{id: obi, side: light, at: A1, stats: {{hp: 120, defense: 21, attack: 12, damage: 20, speed: 6, force: 5}}}}
      - {{id: droid, side: dark, at: {droid}, stats: {{hp: 10, defense: 13, attack: 4, damage: 10, speed: 6}}}}
      - {{id: guard, side: dark, at: T8, stats: {{hp: 30, defense: 13, attack: 5, damage: 10, speed: 6}}}}
    """)


def refused(*args: str) -> str:
    r = run(*args)
    assert r.exit_code == 2, (args, r.stdout, r.stderr)
    return " ".join(r.stderr.split())


def start(home, text: str, override: bool = True) -> None:
    (home / "p.yaml").write_text(text, encoding="utf-8")
    ok("game", "new", "-p", str(home / "p.yaml"), "--game", str(home / "g.sqlite"), *(["--override", "test squads"] if override else []))


def obi_acts(home, rules: str, droid: str) -> None:
    start(home, OPEN.format(rules=rules, droid=droid))
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    ok("game", "activate", "obi")


# --- Move Faster: CS r.9 "Obi-Wan Kenobi ... se pohnul o 8 polí a útočil, nebo se pohnul o 14 polí bez
# útočení. Může se také pohnout o 6 polí, zaútočit a poté zaplatit 1 bod síly a pohnout se o další 2 pole."


@pytest.mark.parametrize("rules", ["swm2004", "swm2008"])
def test_move_faster_moves_8_and_attacks(home, rules: str) -> None:
    obi_acts(home, rules, droid="J1")
    ok("game", "force", "obi", "-1", "--faster")
    st = json.loads(ok("game", "status", "--json"))
    assert st["turn"]["faster"] == 2 and st["force_spends"] == {"obi": 1}
    ok("game", "move", "obi", "I1")  # 8 squares
    out = ok("game", "attack", "obi", "droid", "--roll", "15")
    assert "obi attacks droid" in out
    assert json.loads(ok("game", "status", "--json"))["figures"][0]["force"] == 4


def test_without_move_faster_8_squares_leave_no_attack(home) -> None:
    obi_acts(home, "swm2004", droid="J1")
    ok("game", "force", "obi", "-1")  # a Force point with no use named
    ok("game", "move", "obi", "I1")
    err = refused("game", "attack", "obi", "droid", "--roll", "15")
    assert "a double move leaves no attack" in err and "if it bought Move Faster, undo it and record 'game force obi -1 --faster'" in err


def test_move_faster_moves_14_without_attacking_and_no_more(home) -> None:
    obi_acts(home, "swm2004", droid="T1")
    ok("game", "force", "obi", "-1", "--faster")
    ok("game", "move", "obi", "O1")  # 14 squares
    err = refused("game", "move", "obi", "P1")
    assert "allows 14 in a turn without attacking" in err and "Move Faster added 2 squares" in err and "CS r.9" in err


def test_swm2004_move_6_attack_pay_1_move_2_more(home) -> None:
    obi_acts(home, "swm2004", droid="H1")
    ok("game", "move", "obi", "G1")  # 6 squares, next to the droid
    ok("game", "attack", "obi", "droid", "--roll", "2")  # a miss: the droid stays
    ok("game", "force", "obi", "-1", "--faster")
    ok("game", "move", "obi", "G3")  # 2 squares more
    err = refused("game", "move", "obi", "G4")  # the third is more than Move Faster added
    assert "CS r.9" in err and "PL " not in err


def test_swm2008_no_move_6_attack_pay_1_move_2_more(home) -> None:
    # PL p.25: "Nie może natomiast poruszyć się 6 pól, zaatakować a następnie wydać 1 punkt Mocy, aby poruszyć się kolejne 2 pola."
    obi_acts(home, "swm2008", droid="H1")
    ok("game", "move", "obi", "G1")
    ok("game", "attack", "obi", "droid", "--roll", "2")
    err = refused("game", "force", "obi", "-1", "--faster")
    assert "Move Faster cannot buy a move after the attack" in err and "PL p.25" in err and "CS " not in err


# --- once per turn: CS r.9 "Postava může utrácet body síly pouze jednou za tah" and the Shaak Ti example

SHAAK = textwrap.dedent("""\
    format: tabletop-position/1
    rules: swm2004
    map: {cols: 16, rows: 12}
    figures:
      - {id: shaak, card: Shaak Ti, set: "Revenge of the Sith (2004 rules)", side: light, at: A6}
      - {id: grievous, card: "General Grievous, Supreme Commander", set: "Revenge of the Sith (2004 rules)", side: dark, at: J6}
      - {id: yuzzem, card: Yuzzem, set: "Revenge of the Sith (2004 rules)", side: dark, at: J7}
    """)


def test_shaak_ti_moves_8_with_force_then_cannot_sweep_but_rerolls_in_the_enemys_turn(home) -> None:
    start(home, SHAAK)
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    ok("game", "activate", "shaak")
    ok("game", "force", "shaak", "-1", "--faster")
    ok("game", "move", "shaak", "I6")  # 8 squares, next to both enemies
    err = refused("game", "power", "shaak", "grievous", "Lightsaber Sweep")
    assert "already spent Force points this turn" in err and "swm2004 CS r.9" in err
    err = refused("game", "force", "shaak", "-1")
    assert "already spent Force points this turn" in err
    ok("game", "attack", "shaak", "grievous", "--roll", "2")  # she may attack one enemy
    ok("game", "end-turn")
    ok("game", "activate", "grievous")  # the enemy's turn: she may spend again, once
    ok("game", "force", "shaak", "-1")  # the reroll of her save
    assert "already spent Force points this turn" in refused("game", "force", "shaak", "-1")
    assert json.loads(ok("game", "status", "--json"))["figures"][0]["force"] == 1


def test_swm2008_force_points_once_per_turn_count_dooku(home) -> None:
    # PL p.26: "Postać może wydać Punkty Mocy tylko raz na turę" (Count Dooku: 1 point to move 8, then no Force Lightning)
    obi_acts(home, "swm2008", droid="J1")
    ok("game", "force", "obi", "-1", "--faster")
    err = refused("game", "force", "obi", "-1")
    assert "already spent Force points this turn" in err and "swm2008 PL p.11, p.26" in err and "CS " not in err


def test_a_defenders_lightsaber_block_is_its_one_spend_in_the_attackers_turn(home) -> None:
    # PL p.26: once per turn, in another's turn too; PL p.52 Lightsaber Block costs 1 Force point
    start(home, SWM.format(rules="swm2008").replace("at: B2", "at: C2")
          .replace("abilities: [Double Attack]}", "abilities: [Double Attack, Melee Attack]}")
          .replace("{id: droid, side: dark, at: D2, stats: {hp: 10, defense: 25, attack: 4, damage: 10, speed: 6}}",
                   "{id: droid, side: dark, at: D2, stats: {hp: 60, defense: 12, attack: 4, damage: 10, speed: 6, force: 2, abilities: [Lightsaber Block]}}"))
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    ok("game", "activate", "hero")
    ok("game", "attack", "hero", "droid", "--roll", "15", "--save", "Lightsaber Block=14")  # blocked: its Force point spent
    err = refused("game", "attack", "hero", "droid", "--roll", "15", "--save", "Lightsaber Block=14")  # the Double Attack's second
    assert "droid has already spent Force points this turn" in err and "PL p.11, p.26" in err
    out = json.loads(ok("game", "attack", "hero", "droid", "--roll", "15", "--save", "Lightsaber Block=no", "--json"))
    assert out["event"]["damage"] == 20


def test_master_of_force_3_spends_three_times_a_turn_even_on_the_same_use(home) -> None:
    # CS g.9: "Master of Force 3: ... může použít body síly až třikrát za jeden tah ... utratit body síly více
    # než jednou pro stejnou akci (jako například pro pohyb o dvě pole navíc ...)"
    start(home, OPEN.format(rules="swm2004", droid="J4").replace("force: 5}", "force: 5, abilities: [Master of Force 3]}"))
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    ok("game", "activate", "obi")
    for _ in range(3):
        ok("game", "force", "obi", "-1", "--faster")
    ok("game", "move", "obi", "S1")  # 18 squares: 12 and three times 2
    err = refused("game", "force", "obi", "-1")
    assert "obi has spent Force points 3 times this turn, all Master of Force 3 allows" in err


def test_a_spend_beyond_the_points_left_is_refused(home) -> None:
    start(home, OPEN.format(rules="swm2004", droid="J1").replace("force: 5", "force: 0"))
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    ok("game", "activate", "obi")
    err = refused("game", "force", "obi", "-1", "--faster")
    assert "obi has 0 Force points left; this needs 1 (swm2004 CS r.9 Utrácení bodů síly" in err


# --- a squad's side: CS r.4 "Každá skupina může obsahovat postavy, které odpovídají vámi vybrané straně
# nebo mají Fringe symbol"; PL p.14-15: the factions of the light side and of the dark side

SIDES = textwrap.dedent("""\
    format: tabletop-position/1
    rules: {rules}
    map: {{cols: 16, rows: 12}}
    figures:
      - {{id: kenobi, card: "Obi-Wan Kenobi, Jedi Master", set: "Revenge of the Sith (2004 rules)", side: light, at: B2}}
      - {{id: {extra_id}, card: {extra}, side: light, at: B4}}
      - {{id: grievous, card: "General Grievous, Supreme Commander", set: "Revenge of the Sith (2004 rules)", side: dark, at: N2}}
    """)


@pytest.mark.parametrize("rules", ["swm2004", "swm2008"])
def test_a_separatist_droid_in_a_light_squad_is_refused(home, rules: str) -> None:
    (home / "p.yaml").write_text(SIDES.format(rules=rules, extra_id="sbd", extra="Security Battle Droid"), encoding="utf-8")
    r = run("game", "new", "-p", str(home / "p.yaml"), "--game", str(home / "g.sqlite"))
    assert r.exit_code == 2
    err = " ".join(r.stderr.split())
    assert "sbd (Security Battle Droid) is of the Separatists, not a faction of the light side" in err
    assert (" CS r.4" in err) == (rules == "swm2004") and (" PL p.14-15" in err) == (rules == "swm2008")


def test_a_fringe_figure_fits_either_side(home) -> None:
    (home / "p.yaml").write_text(SIDES.format(rules="swm2004", extra_id="nikto", extra="Nikto Soldier"), encoding="utf-8")
    ok("game", "new", "-p", str(home / "p.yaml"), "--game", str(home / "g.sqlite"))


# --- ten quiet rounds: CS r.5 "Hráč který porazil postavy v nejvyšší celkové hodnotě vítězí"


def test_ten_quiet_rounds_then_the_end_names_the_winner_on_points(home) -> None:
    start(home, SIDES.format(rules="swm2004", extra_id="nikto", extra="Nikto Soldier")
          + "  - {id: yuzzem, card: Yuzzem, set: \"Revenge of the Sith (2004 rules)\", side: dark, at: N9}\n")
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    ok("game", "damage", "yuzzem", "40", "--by", "kenobi")  # Yuzzem (18 points) defeated by light
    for _ in range(11):
        ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3", "--override", "a quiet round for the test")
    st = json.loads(ok("game", "status", "--json"))
    assert st["quiet_rounds"] == 10 and st["winner"] is None
    out = ok("game", "end", "--reason", "ten quiet rounds", "--json")
    assert "light" in json.loads(out)["text"]
    st = json.loads(ok("game", "status", "--json"))
    assert st["winner"] == "light"
    final = json.loads(ok("game", "export", "--format", "json"))["final"]
    assert final["winner"] == "light"


def test_an_end_tied_on_points_goes_to_the_figure_nearest_the_centre(home) -> None:
    # CS r.5: "Pokud je výsledek nerozhodný vítězí hráč, který má postavu nejbližší středu herního plánu."
    start(home, SIDES.format(rules="swm2004", extra_id="nikto", extra="Nikto Soldier"))  # 16 x 12: the centre is between H6 and I7
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    out = json.loads(ok("game", "end", "--json"))["text"]
    # centre (8, 6): nikto's B4 centre (1.5, 3.5) is 6.96 squares away, grievous' N2 (13.5, 1.5) 7.11, kenobi's B2 7.91
    assert "tied on points: light's nikto stands nearest the centre" in out
    assert json.loads(ok("game", "status", "--json"))["winner"] == "light"


def test_an_end_tied_on_points_and_distance_goes_to_the_nearest_figures_cost_or_to_nobody(home) -> None:
    # CS r.5: "Je-li stav stále nerozhodný vítězí hráč jehož postava u středu herního plánu má nejvyšší hodnotu (cost)."
    start(home, SIDES.format(rules="swm2004", extra_id="nikto", extra="Nikto Soldier")
          .replace("at: B2}", "at: H6}").replace("side: dark, at: N2}", "side: dark, at: I7}"))  # equally near the centre
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    out = json.loads(ok("game", "end", "--json"))["text"]
    assert "dark's grievous costs the most" in out  # 43 against Obi-Wan's 42
    assert json.loads(ok("game", "status", "--json"))["winner"] == "dark"


def test_an_end_tied_on_points_and_distance_with_costs_unknown_names_no_winner(home) -> None:
    start(home, OPEN.format(rules="swm2004", droid="T1"))  # A1, T1 and T8: each corner as far from the centre
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    out = json.loads(ok("game", "end", "--json"))["text"]
    assert "the cost of obi is unknown, the table decides" in out
    assert json.loads(ok("game", "status", "--json"))["winner"] is None


# --- the status's figures keyed by id, in every language

DDM = textwrap.dedent("""\
    format: tabletop-position/1
    rules: ddm2005
    map: {cols: 12, rows: 8}
    figures:
      - {id: knight, side: a, at: B2, stats: {hp: 40, defense: 18, attack: 8, damage: 10, speed: 6, level: 4, commander_rating: 2}}
      - {id: orc, side: b, at: H4, stats: {hp: 30, defense: 14, attack: 6, damage: 10, speed: 6, level: 3}}
    """)


@pytest.mark.parametrize("lang", ["en", "pl", "cs"])
def test_morale_due_is_keyed_by_the_creatures_id_in_every_language(home, lang: str) -> None:
    start(home, DDM)
    ok("game", "initiative", "--roll", "a=15", "--roll", "b=3")
    ok("game", "activate", "knight")
    ok("game", "damage", "orc", "16", "--by", "knight")  # 14 of 30 left: below half
    try:
        st = json.loads(ok("--lang", lang, "game", "status", "--json"))
    finally:
        i18n.set_language("en")  # the process's language: the next test's words are English
    assert list(st["morale_due"]) == ["orc"]
    assert st["morale_due"]["orc"]["level"] == 3
