"""SWM Anticipation at the initiative roll (round 27, reading R289): 4 figures of SW_Minis_Drafter's
database carry it, listed as not modelled in every attack answer before.

swm2008 PL p.33: "Anticipation – Przewidywanie: (Moc; 1 Punkt Mocy) Po określeniu inicjatywy, postać
używająca tej Mocy może powtórzyć rzut na inicjatywę. Drugi wynik rzutu należy zaakceptować nawet,
jeśli jest gorszy. Można to wykonać tylko raz na rundę, niezależnie od ilości postaci posiadających
Przewidywanie. Jeśli inna umiejętność specjalna lub Moc pozwala rzucić dwa razy na inicjatywę, to
używając Przewidywania można powtórzyć oba rzuty." swm2004 CS g.1 says the same ("Musíte přijmout
druhý hod, i pokud je horší. Toto lze použít pouze jednou za kolo bez ohledu na počet přátelských
postav s Mocí síly Anticipation").
"""

from __future__ import annotations

import json
import textwrap

from .test_game_turns import ok, refused, start

TABLE = textwrap.dedent("""\
    format: tabletop-position/1
    rules: {rules}
    map: {{cols: 10, rows: 10}}
    figures:
      - {{id: vader, side: dark, at: A1, stats: {{hp: 60, defense: 15, attack: 6, damage: 10}}}}
      - {{id: yoda, side: light, at: J10, stats: {{hp: 60, defense: 15, attack: 6, damage: 10, force: {force}, abilities: [{light}]}}}}
      - {{id: mace, side: light, at: J8, stats: {{hp: 60, defense: 15, attack: 6, damage: 10, force: 3, abilities: [{light}]}}}}
    """)
GAMES = iter(range(100))


def roll(home, *words: str, rules: str = "swm2008", force: int = 2, light: str = "Anticipation") -> dict:
    start(home, TABLE.format(rules=rules, force=force, light=light), name=f"t{next(GAMES)}.sqlite")
    return json.loads(ok("game", "initiative", *words, "--json"))["event"]


def force_of(figure: str) -> int:
    doc = json.loads(ok("game", "status", "--json"))
    return next(f["force"] for f in doc["figures"] if f["id"] == figure)


def test_the_side_rerolls_once_the_roll_is_settled_and_keeps_the_second_roll(home) -> None:
    ev = roll(home, "--roll", "dark=15", "--roll", "light=12", "--anticipation", "yoda=18")
    assert ev["winner"] == "light" and ev["rolls"] == {"dark": 15, "light": 18}, ev
    assert ev["anticipation"] == [{"figure": "yoda", "side": "light", "before": 12, "after": 18, "dice": [18]}], ev
    assert force_of("yoda") == 1  # its 1 Force point
    text = ok("game", "log")
    assert "rerolled by yoda's Anticipation (1 Force point): 12 -> 18, the second roll kept" in text and "PL p.33" in text, text
    ev = roll(home, "--roll", "dark=15", "--roll", "light=12", "--anticipation", "yoda=3")  # worse: kept all the same
    assert ev["winner"] == "dark" and ev["rolls"] == {"dark": 15, "light": 3}, ev


def test_a_tie_after_it_is_rerolled_as_always(home) -> None:
    ev = roll(home, "--roll", "dark=15,9", "--roll", "light=12,14", "--anticipation", "yoda=15")
    assert ev["rerolls"] == [{"dark": 15, "light": 15}] and ev["winner"] == "light" and ev["rolls"] == {"dark": 9, "light": 14}, ev


def test_once_a_round_with_a_force_point_by_a_figure_that_has_it(home) -> None:
    start(home, TABLE.format(rules="swm2008", force=2, light="Anticipation"), name="twice.sqlite")
    said = refused("game", "initiative", "--roll", "dark=15", "--roll", "light=12", "--anticipation", "yoda=18", "--anticipation", "mace=19")
    assert "light has used Anticipation this round; once a round" in said and "PL p.33" in said, said
    start(home, TABLE.format(rules="swm2008", force=0, light="Anticipation"), name="none.sqlite")
    said = refused("game", "initiative", "--roll", "dark=15", "--roll", "light=12", "--anticipation", "yoda=18")
    assert "Anticipation costs 1 Force point and yoda has none left" in said, said
    start(home, TABLE.format(rules="swm2008", force=2, light="Lightsaber"), name="lacks.sqlite")
    said = refused("game", "initiative", "--roll", "dark=15", "--roll", "light=12", "--anticipation", "yoda=18")
    assert "yoda has no Anticipation" in said, said
    said = refused("game", "initiative", "--roll", "dark=15", "--roll", "light=12", "--anticipation", "vader=18")
    assert "vader has no Anticipation" in said, said


def test_the_2004_rules_give_it_too_citing_the_czech_glossary(home) -> None:
    ev = roll(home, "--roll", "dark=15", "--roll", "light=12", "--anticipation", "yoda=18", rules="swm2004")
    assert ev["winner"] == "light", ev
    assert "CS g.1" in ok("game", "log")
