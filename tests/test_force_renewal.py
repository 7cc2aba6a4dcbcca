"""SWM Force points in the game session (round 23): Force Renewal and Master of the Force, golden
cases from the seeds. Counted over SW_Minis_Drafter's database: Force Renewal on 70 figures, Master of
the Force on 18, both reported "not modelled" before (Master of the Force was applied by the session's
once-a-turn rule yet not counted as applied). Reading R229 in docs/readings.md."""

from __future__ import annotations

import json
import textwrap

import pytest

from .test_game_seed_cases import refused, start
from .test_game_turns import ok

HALL = textwrap.dedent("""\
    format: tabletop-position/1
    rules: {rules}
    map: {{cols: 20, rows: 8}}
    figures:
      - {{id: obi, side: light, at: A1, stats: {{hp: 120, defense: 21, attack: 12, damage: 20, speed: 6, force: 2,
          abilities: [{abilities}]}}}}
      - {{id: droid, side: dark, at: T8, stats: {{hp: 10, defense: 13, attack: 4, damage: 10, speed: 6}}}}
    """)


def force(obi: str = "obi") -> int:
    return next(f["force"] for f in json.loads(ok("game", "status", "--json"))["figures"] if f["id"] == obi)


@pytest.mark.parametrize(("rules", "book"), [("swm2008", "PL p.11, p.46"), ("swm2004", "CS g.6")])
def test_force_renewal_gives_its_points_on_each_activation(home, rules: str, book: str) -> None:
    """swm2008 PL p.46: "Force Renewal 1 – Odnowienie Mocy 1: (Moc) Za każdym razem, gdy postać z tą
    Mocą aktywuje się, automatycznie dostaje 1 Punkt Mocy. Może zdobyć więcej punktów niż na początku
    potyczki." PL p.11: Obi-Wan "rozpoczyna grę z 2 Punktami Mocy i dostaje jeden Punkt Mocy w każdej
    turze". CS g.6 alike. Obi-Wan begins with 2: 3 after his first activation, 4 after his second
    (more than he began with), 3 after spending 1 in between."""
    start(home, HALL.format(rules=rules, abilities="Force Renewal 1"))
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    out = ok("game", "activate", "obi")
    assert "obi gets 1 Force point by Force Renewal 1 (now 3)" in out and book in out
    assert force() == 3
    ok("game", "end-turn")
    ok("game", "activate", "droid")
    ok("game", "end-turn")
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    ok("game", "activate", "obi")
    assert force() == 4
    ok("game", "force", "obi", "-1")
    assert force() == 3


def test_force_renewal_2_gives_2_and_a_bare_one_is_said_not_guessed(home) -> None:
    """The database writes Force Renewal 1, 2 and 3 (the number is the points) and, on 12 rows, no
    number: that one is said, and the Force points stay as they were (reading R229)."""
    start(home, HALL.format(rules="swm2008", abilities="Force Renewal 2"))
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    assert "gets 2 Force points by Force Renewal 2 (now 4)" in ok("game", "activate", "obi")
    (home / "g.sqlite").unlink()
    start(home, HALL.format(rules="swm2008", abilities="Force Renewal"))
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    out = " ".join(ok("game", "activate", "obi").split())
    assert "Force Renewal names no number" in out and "game force obi +N" in out
    assert force() == 2


def test_master_of_the_force_2_spends_twice_a_turn_not_three_times(home) -> None:
    """swm2008 PL p.11: "Master of the Force 2 – Mistrz Mocy 2: Obi-Wan może wydawać Punkty Mocy
    dwukrotnie w jednej turze"; PL p.26: "Postać może wydać Punkty Mocy tylko raz na turę". Twice
    with it, the third refused; the once-a-turn rule without it."""
    start(home, HALL.format(rules="swm2008", abilities="Master of the Force 2").replace("force: 2", "force: 5"))
    ok("game", "initiative", "--roll", "light=15", "--roll", "dark=3")
    ok("game", "activate", "obi")
    ok("game", "force", "obi", "-1")
    ok("game", "force", "obi", "-1")
    err = refused("game", "force", "obi", "-1")
    assert "spent Force points 2 times this turn, all Master of the Force 2 allows" in err
