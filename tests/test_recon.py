"""SWM Recon at the initiative roll (round 25): golden cases from the seeds (reading R253 in
docs/readings.md). Counted over SW_Minis_Drafter's database: Recon on 13 figures, reported "not a
SWM glossary name the assistant knows" before, and applied nowhere.

swm2008 PL p.58: "Recon – Rozpoznanie: Jeśli dowolna postać z tej samej drużyny z tą umiejętnością
specjalną (wliczając tą postać) posiada linię wzroku do jakiegokolwiek wroga, możesz wykonać dwa rzuty
na inicjatywę i wybrać najwyższy wynik. Jeśli zakończysz remisem inicjatywę, obaj gracze powtarzają
rzut (możesz wykorzystać Rozpoznanie, aby rzucić dwa razy). Możesz wykonać tą akcję tylko raz,
niezależnie od liczby postaci w drużynie z Rozpoznaniem." CS g.10 alike ("může hráč házet dvakrát při
počátečním hodu a vybrat si vyšší hod"). PL p.55: "Newer Tell Me The Odds – ... Wrogie umiejętności
specjalne modyfikujące inicjatywę, takie jak ... Rozpoznanie (Recon) nie działają podczas gdy postać ta
jest w grze."
"""

from __future__ import annotations

import json
import textwrap

import pytest

from .test_game_turns import ok, refused, start

FIELD = textwrap.dedent("""\
    format: tabletop-position/1
    rules: {rules}
    map: {{cols: 8, rows: 8{walls}}}
    figures:
      - {{id: scout, side: light, at: A1, stats: {{hp: 30, defense: 14, attack: 6, damage: 10, speed: 6, abilities: [Recon]}}}}
      - {{id: scout2, side: light, at: B1, stats: {{hp: 30, defense: 14, attack: 6, damage: 10, speed: 6, abilities: [Recon]}}}}
      - {{id: droid, side: dark, at: A8, stats: {{hp: 10, defense: 13, attack: 4, damage: 10, speed: 6{odds}}}}}
    """)
WALL = ", squares: {wall: [A4, B4, C4, D4, E4, F4, G4, H4]}"


def field(rules: str, *, walls: str = "", odds: bool = False) -> str:
    return FIELD.format(rules=rules, walls=walls, odds=", abilities: [Never Tell Me The Odds]" if odds else "")


def last_initiative() -> dict:
    events = json.loads(ok("game", "export", "--format", "json"))["events"]
    return next(e for e in reversed(events) if e["kind"] == "initiative")["data"]


@pytest.mark.parametrize(("rules", "book"), [("swm2008", "PL p.58"), ("swm2004", "CS g.10")])
def test_a_side_whose_recon_figure_sees_an_enemy_keeps_the_higher_of_two_d20s(home, rules: str, book: str) -> None:
    """light rolls 4 and 15 and keeps 15, beating dark's 12; two Recon figures still give one pair ("tylko raz")."""
    start(home, field(rules))
    out = ok("game", "initiative", "--roll", "light=4,15", "--roll", "dark=12")
    data = last_initiative()
    assert data["winner"] == "light" and data["rolls"] == {"light": 15, "dark": 12}
    assert data["recon"] == {"light": {"figure": "scout", "dice": [4, 15]}}
    assert "kept the higher: 15 (4/15)" in out and book in out and "R253" in out


def test_a_recon_side_gives_both_dice_and_a_rerolled_tie_rolls_two_again(home) -> None:
    """One die given for a Recon side is refused, naming the side, the figure and the rule (exit 2).
    A tie (10 against 10) is rerolled, Recon's two dice again: max(3, 18) = 18 beats 12."""
    start(home, field("swm2008"))
    why = refused("game", "initiative", "--roll", "light=4", "--roll", "dark=12")
    assert "light has Recon (scout sees an enemy)" in why and "--roll light=4,N" in why and "PL p.58" in why
    ok("game", "initiative", "--roll", "light=4,10,3,18", "--roll", "dark=10,12")
    data = last_initiative()
    assert data["winner"] == "light" and data["rerolls"] == [{"light": 10, "dark": 10}] and data["recon"]["light"]["dice"] == [4, 10, 3, 18]


def test_without_sight_of_an_enemy_recon_does_nothing(home) -> None:
    """A wall across the map: no Recon figure sees an enemy, so light rolls one d20 like any side."""
    start(home, field("swm2008", walls=WALL))
    ok("game", "initiative", "--roll", "light=4", "--roll", "dark=12")
    data = last_initiative()
    assert data["winner"] == "dark" and "recon" not in data


def test_never_tell_me_the_odds_stops_enemy_recon_in_swm2008_only(home) -> None:
    """PL p.55 (SWM 2008): with the droid's Never Tell Me The Odds in play, light's Recon does not work
    and the log says why; the 2004 rules (CS) have no such ability, so there Recon still works."""
    start(home, field("swm2008", odds=True))
    out = ok("game", "initiative", "--roll", "light=4", "--roll", "dark=12")
    assert last_initiative()["winner"] == "dark"
    assert "light's Recon does not work: droid has Never Tell Me The Odds" in out and "PL p.55" in out
    start(home, field("swm2004", odds=True), "g2.sqlite")
    ok("game", "initiative", "--roll", "light=4,15", "--roll", "dark=12")
    assert last_initiative()["winner"] == "light"


def test_auto_rolls_two_dice_for_a_recon_side(home) -> None:
    start(home, field("swm2008"))
    ok("game", "initiative", "--auto")
    data = last_initiative()
    dice = data["recon"]["light"]["dice"]
    assert len(dice) == 2 * (len(data.get("rerolls") or []) + 1) and data["rolls"]["light"] == max(dice[-2:])
