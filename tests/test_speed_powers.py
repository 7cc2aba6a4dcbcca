"""SWM Knight Speed and Master Speed in the game session (round 25): a Force point said on the move
(reading R251 in docs/readings.md). Counted over SW_Minis_Drafter's database: Master Speed on 14
figures, Knight Speed on 6, applied nowhere before.

swm2008 PL p.11: "Knight Speed – Szybkość Rycerza: Poruszając się w swojej turze Obi-Wan może wydać
jeden Punkt Mocy aby poruszyć się 4 dodatkowe pola." PL p.51 alike; PL p.53: "Master Speed – Szybkość
Mistrza: (Moc; 1 Punkt Mocy) W swojej turze postać używając tej Mocy może poruszyć się o 6 dodatkowych
pól." CS g.8, g.9: "pohnout o 4 pole navíc", "o 6 polí navíc".
"""

from __future__ import annotations

import json
import textwrap

import pytest

from .test_game_turns import ok, refused, start

HALL = textwrap.dedent("""\
    format: tabletop-position/1
    rules: {rules}
    map: {{cols: 20, rows: 4}}
    figures:
      - {{id: obi, side: light, at: A1, stats: {{hp: 120, defense: 21, attack: 12, damage: 20, speed: 6, force: 2, abilities: [{ability}]}}}}
      - {{id: droid, side: dark, at: T4, stats: {{hp: 10, defense: 13, attack: 4, damage: 10, speed: 6}}}}
    """)


def obi_turn(home, rules: str, ability: str) -> None:
    start(home, HALL.format(rules=rules, ability=ability))
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    ok("game", "activate", "obi")


@pytest.mark.parametrize(("rules", "power", "squares", "to", "book"), [
    ("swm2008", "Knight Speed", 4, "K1", "PL p.11, p.51"), ("swm2004", "Knight Speed", 4, "K1", "CS g.8"),
    ("swm2008", "Master Speed", 6, "M1", "PL p.53"), ("swm2004", "Master Speed", 6, "M1", "CS g.9"),
])
def test_the_power_adds_its_squares_to_a_move_and_attack(home, rules: str, power: str, squares: int, to: str, book: str) -> None:
    """Speed 6: with the power, 6 + 4 (or 6 + 6) squares and still an attack; the point is spent."""
    obi_turn(home, rules, power)
    out = ok("game", "force", "obi", "-1", "--power", power.lower())
    assert f"obi Force -1: {power}, {squares} squares more this turn" in out, out
    ok("game", "move", "obi", to)  # 10 (12) squares along row 1
    assert "obi attacks droid" in ok("game", "attack", "obi", "droid", "--roll", "15")


def test_without_the_power_the_same_move_and_attack_is_refused(home) -> None:
    """Speed 6, no power: a move of 10 squares leaves no attack (PL p.24; CS r.6); the power's name
    on a figure without it is refused, naming the figure and the rule."""
    obi_turn(home, "swm2008", "Lightsaber Deflect")
    why = refused("game", "force", "obi", "-1", "--power", "Knight Speed")
    assert "obi has no Force power Knight Speed" in why and "PL p.11, p.51" in why
    ok("game", "move", "obi", "K1")
    refused("game", "attack", "obi", "droid", "--roll", "15")


def test_it_is_the_turns_one_spend_and_costs_one_point(home) -> None:
    """PL p.26: Force points once a turn: Move Faster after Knight Speed is refused; -2 is refused."""
    obi_turn(home, "swm2008", "Knight Speed")
    assert "costs 1 Force point" in refused("game", "force", "obi", "-2", "--power", "Knight Speed")
    ok("game", "force", "obi", "-1", "--power", "Knight Speed")
    assert "already spent Force points this turn" in refused("game", "force", "obi", "-1", "--faster")
    assert "already spent Force points this turn" in refused("game", "force", "obi", "-1", "--power", "Force Leap")


#: a corridor one square wide, the droid in the way
CORRIDOR = HALL.replace("cols: 20, rows: 4", "cols: 12, rows: 1").replace("at: T4", "at: C1")


@pytest.mark.parametrize(("rules", "book"), [("swm2008", "PL p.44"), ("swm2004", "CS g.6")])
def test_force_leap_moves_through_an_enemy_and_provokes_no_attack_of_opportunity(home, rules: str, book: str) -> None:
    """PL p.44 Force Leap ("(Moc; 1 Punkt Mocy) Do końca tej tury, postać używająca tej Mocy może poruszać
    się przez wrogie postacie. W dodatku postać ta nie powoduje ataku odruchowego. Użycie Skoku Mocy nie
    zabiera żadnego czasu"); CS g.6 alike. In a corridor one square wide the droid blocks the way; after
    the leap obi passes it, leaves its side unanswered, and may still attack."""
    start(home, CORRIDOR.format(rules=rules, ability="Force Leap"))
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    ok("game", "activate", "obi")
    assert "no path" in refused("game", "move", "obi", "D1")
    out = ok("game", "force", "obi", "-1", "--power", "force leap")
    assert "Force Leap" in out and book in out, out
    out = ok("game", "move", "obi", "D1")  # past the droid, and next to it
    assert "obi used Force Leap" in out and "provokes no attacks of opportunity" in out and book in out, out
    why = refused("game", "aoo", "droid", "obi", "--roll", "19")
    assert "obi used Force Leap: it provokes no attacks of opportunity this turn" in why and book in why, why
    ok("game", "attack", "obi", "droid", "--roll", "15")


def test_force_leap_needs_the_power_and_one_point_of_the_acting_figure(home) -> None:
    """PL p.44: a Force power of 1 Force point; a figure without it is refused naming the rule."""
    start(home, CORRIDOR.format(rules="swm2008", ability="Lightsaber Deflect"))
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    ok("game", "activate", "obi")
    why = refused("game", "force", "obi", "-1", "--power", "Force Leap")
    assert "obi has no Force power Force Leap" in why and "PL p.44" in why, why


@pytest.mark.parametrize(("rules", "book"), [("swm2008", "PL p.64"), ("swm2004", "CS g.13")])
def test_surprise_move_is_6_squares_for_a_force_point_before_any_activation(home, rules: str, book: str) -> None:
    """PL p.64 Surprise Move ("(Moc; 1 Punkt Mocy) Po określeniu inicjatywy, postać ta może natychmiast
    użyć tej Mocy, aby poruszy się do 6 pól, zanim inne postacie zostaną aktywowane (Nie liczy to się do
    aktywacji). Postać ta może użyć tej Mocy tylko raz na rundę."); CS g.13 alike."""
    start(home, HALL.format(rules=rules, ability="Surprise Move"))
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    why = refused("game", "move", "obi", "H1", "--surprise")  # 7 squares
    assert "Surprise Move moves obi up to 6 squares" in why and book in why, why
    out = ok("game", "move", "obi", "G1", "--surprise")
    assert "Surprise Move" in out and book in out, out
    assert "once a round" in refused("game", "move", "obi", "H1", "--surprise")
    st = json.loads(ok("game", "status", "--json"))
    obi = next(f for f in st["figures"] if f["id"] == "obi")
    assert obi["at"] == "G1" and obi["force"] == 1, obi
    ok("game", "activate", "obi")  # no activation spent on it: obi still activates this round
    ok("game", "move", "obi", "M1")


def test_surprise_move_needs_the_power_and_comes_before_any_activation(home) -> None:
    """PL p.64: a figure without the power is refused naming the rule; after an activation the window is shut."""
    start(home, HALL.format(rules="swm2008", ability="Lightsaber Deflect"))
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    assert "obi has no Force power Surprise Move" in refused("game", "move", "obi", "C1", "--surprise")
    start(home, HALL.format(rules="swm2008", ability="Surprise Move"), "g2.sqlite")
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    ok("game", "activate", "obi")
    assert "before the first activation" in refused("game", "move", "obi", "C1", "--surprise")
