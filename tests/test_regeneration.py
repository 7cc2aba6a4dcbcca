"""SWM Regeneration at the end of its turn (round 25): golden cases from the seeds (reading R254 in
docs/readings.md). Counted over SW_Minis_Drafter's database: Regeneration on 15 figures, applied
nowhere before.

swm2008 PL p.59: "Regeneration [#] – Regeneracja [#]: Jeśli postać ta nie porusza się w swojej turze,
zmniejsza o [#] punktów swoje obrażenia na koniec tury. Regeneracja nie może zwiększyć liczby Punktów
Obrażeń ponad początkowy poziom." swm2004 CS g.10-11: "Regeneration 10: Pokud se tato postava toto kolo
nepohybovala, odebere 10 bodů zranění ze sebe sama na konci jejího tahu. Regeneration nemůže zvýšit
postavě její životy nad počáteční hodnotu."
"""

from __future__ import annotations

import json
import textwrap

import pytest

from .test_game_turns import ok, start

LAIR = textwrap.dedent("""\
    format: tabletop-position/1
    rules: {rules}
    map: {{cols: 12, rows: 8}}
    figures:
      - {{id: beast, side: dark, at: A1, stats: {{hp: 60, defense: 14, attack: 6, damage: 10, speed: 6, abilities: [{ability}]}}}}
      - {{id: hunter, side: light, at: L8, stats: {{hp: 30, defense: 14, attack: 6, damage: 10, speed: 6}}}}
    """)


def taken(fid: str) -> int:
    return next(f["damage_taken"] for f in json.loads(ok("game", "status", "--json"))["figures"] if f["id"] == fid)


def beast_turn(home, rules: str, ability: str, hurt: int, move: str | None = None) -> str:
    start(home, LAIR.format(rules=rules, ability=ability))
    ok("game", "damage", "beast", str(hurt))
    ok("game", "initiative", "--roll", "dark=15", "--roll", "light=3")
    ok("game", "activate", "beast")
    if move:
        ok("game", "move", "beast", move)
    return ok("game", "end-turn")


@pytest.mark.parametrize(("rules", "book"), [("swm2008", "PL p.59"), ("swm2004", "CS g.10-11")])
def test_a_turn_without_moving_removes_its_number_of_damage(home, rules: str, book: str) -> None:
    """30 damage taken, a turn without a move: 10 removed at its end, 20 left."""
    out = beast_turn(home, rules, "Regeneration 10", 30)
    assert taken("beast") == 20
    assert "beast removes 10 damage by Regeneration 10: it did not move this turn" in out and book in out and "R254" in out


def test_a_turn_with_a_move_removes_nothing_and_says_why(home) -> None:
    """"Jeśli postać ta nie porusza się w swojej turze": a move of one square is a move."""
    out = beast_turn(home, "swm2008", "Regeneration 10", 30, move="B1")
    assert taken("beast") == 30 and "beast moved this turn: no Regeneration 10" in out


def test_never_above_the_starting_hit_points(home) -> None:
    """5 damage and Regeneration 10: 5 removed, never more ("nie może zwiększyć ... ponad początkowy poziom")."""
    out = beast_turn(home, "swm2008", "Regeneration 10", 5)
    assert taken("beast") == 0 and "beast removes 5 damage by Regeneration 10" in out and "60 of 60 HP" in out


def test_a_bare_regeneration_is_said_not_guessed(home) -> None:
    """Regeneration written without a number removes nothing and says how to record it (R254)."""
    out = beast_turn(home, "swm2008", "Regeneration", 30)
    assert taken("beast") == 30 and "names no number" in out and "game heal beast N" in out
