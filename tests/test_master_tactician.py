"""SWM 2008 Master Tactician at the initiative roll (round 26, reading R273): 3 figures of
SW_Minis_Drafter's database carry it, listed as an unknown name in every attack answer before.

swm2008 PL p.53: "Master Tactician – Mistrz Taktyki: Rzuć na inicjatywę jak normalnie, ale zawsze ty
decydujesz, kto zaczyna chyba, że wyrzucisz 1. Remisy są nadal powtarzane. Jeśli więcej niż jedna
drużyna posiada postać z umiejętnością Mistrz Taktyki, gracz z większą wartością rzutu na inicjatywę
wybiera, kto zaczyna." The 2004 rules (CS) have no Master Tactician.
"""

from __future__ import annotations

import json
import textwrap

from .test_game_turns import ok, start

TABLE = textwrap.dedent("""\
    format: tabletop-position/1
    rules: {rules}
    map: {{cols: 10, rows: 10}}
    figures:
      - {{id: tarkin, side: dark, at: A1, stats: {{hp: 60, defense: 15, attack: 6, damage: 10, abilities: [{dark}]}}}}
      - {{id: leia, side: light, at: J10, stats: {{hp: 60, defense: 15, attack: 6, damage: 10, abilities: [{light}]}}}}
    """)
GAMES = iter(range(100))


def roll(home, rules: str, dark: str, light: str, *rolls: str) -> dict:
    start(home, TABLE.format(rules=rules, dark=dark, light=light), name=f"t{next(GAMES)}.sqlite")
    return json.loads(ok("game", "initiative", *[w for r in rolls for w in ("--roll", r)], "--json"))["event"]


def test_its_side_decides_who_goes_first_unless_it_rolls_a_1(home) -> None:
    ev = roll(home, "swm2008", "Master Tactician", "Lightsaber", "dark=5", "light=17")
    assert ev["winner"] == "dark" and ev["first"] == "dark" and ev["master_tactician"] == {"side": "dark", "figure": "tarkin"}, ev
    text = ok("game", "log")
    assert "by tarkin's Master Tactician" in text and "PL p.53" in text, text
    ev = roll(home, "swm2008", "Master Tactician", "Lightsaber", "dark=1", "light=17")  # a 1: the roll decides
    assert ev["winner"] == "light" and "master_tactician" not in ev, ev


def test_ties_are_still_rerolled_and_two_tacticians_leave_it_to_the_higher_roll(home) -> None:
    ev = roll(home, "swm2008", "Master Tactician", "Lightsaber", "dark=9,4", "light=9,12")
    assert ev["rerolls"] == [{"dark": 9, "light": 9}] and ev["winner"] == "dark", ev
    ev = roll(home, "swm2008", "Master Tactician", "Master Tactician", "dark=5", "light=17")
    assert ev["winner"] == "light" and "master_tactician" not in ev, ev


def test_the_2004_rules_have_no_master_tactician(home) -> None:
    ev = roll(home, "swm2004", "Master Tactician", "Lightsaber", "dark=5", "light=17")
    assert ev["winner"] == "light" and "master_tactician" not in ev, ev
