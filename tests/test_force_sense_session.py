"""swm2008 Force Sense in the game session (round 27; reading R273, which said only the attack's note
before): PL p.46 "Force Sense – Przeczucie Mocy: (Moc; 1 Punkt Mocy) Wszystkie wrogie postacie tracą
umiejętność specjalną Skradanie się (Stealth) do końca rundy." PL p.63 Stealth: with cover, not the
nearest enemy of an attacker more than 6 squares away.

sneak (Stealth, covered by pal, 9 squares off) is refused as a's target; once a spends 1 Force point
on Force Sense every enemy loses Stealth, and the same attack is recorded; at the next round's
initiative the Stealth is back.
"""

from __future__ import annotations

import json
import textwrap

from .test_game_turns import ok, refused, start

TABLE = textwrap.dedent("""\
    format: tabletop-position/1
    rules: {rules}
    map: {{cols: 16, rows: 10}}
    figures:
      - {{id: a, side: x, at: A5, stats: {{hp: 60, attack: 8, damage: 10, defense: 14, force: 2, abilities: [{power}]}}}}
      - {{id: pal, side: x, at: D5, stats: {{hp: 60, defense: 10, attack: 1, damage: 10}}}}
      - {{id: sneak, side: y, at: J5, stats: {{defense: 15, hp: 30, attack: 1, damage: 10, abilities: [Stealth]}}}}
      - {{id: other, side: y, at: M5, stats: {{defense: 15, hp: 30, attack: 1, damage: 10}}}}
    """)


def test_force_sense_takes_every_enemy_s_stealth_until_the_end_of_the_round(home) -> None:
    start(home, TABLE.format(rules="swm2008", power="Force Sense"))
    ok("game", "initiative", "--roll", "x=15", "--roll", "y=3")
    ok("game", "activate", "a")
    assert "not a's nearest enemy" in refused("game", "attack", "a", "sneak", "--roll", "15")
    said = ok("game", "force", "a", "-1", "--power", "Force Sense")
    assert "every enemy loses Stealth until the end of the round" in said and "Stealth lost until the end of the round: sneak" in said, said
    ev = json.loads(ok("game", "attack", "a", "sneak", "--roll", "15", "--json"))
    assert ev["event"]["roll"] == 15, ev
    status = json.loads(ok("game", "status", "--json"))
    assert next(f["force"] for f in status["figures"] if f["id"] == "a") == 1
    for fig in ("pal", "sneak", "other"):
        ok("game", "activate", fig)
    ok("game", "initiative", "--roll", "x=15", "--roll", "y=3")  # round 2: Stealth back
    ok("game", "activate", "a")
    assert "not a's nearest enemy" in refused("game", "attack", "a", "sneak", "--roll", "15")


def test_force_sense_needs_the_power_and_a_2004_game_plays_a_later_sets_in_the_2008_words(home) -> None:
    """PL p.46; the 2004 rules (CS) do not name Force Sense and contradict nothing of it: a 2004 game
    spends the point on it as a 2008 one does (reading R411; it was refused, "the swm2004 rules give
    no Force Sense")."""
    start(home, TABLE.format(rules="swm2008", power="Lightsaber"), name="lacks.sqlite")
    ok("game", "initiative", "--roll", "x=15", "--roll", "y=3")
    assert "a has no Force power Force Sense" in refused("game", "force", "a", "-1", "--power", "Force Sense")
    start(home, TABLE.format(rules="swm2004", power="Force Sense"), name="cs.sqlite")
    ok("game", "initiative", "--roll", "x=15", "--roll", "y=3")
    ok("game", "activate", "a")
    assert "not a's nearest enemy" in refused("game", "attack", "a", "sneak", "--roll", "15")
    said = ok("game", "force", "a", "-1", "--power", "Force Sense")
    assert "Stealth lost until the end of the round: sneak" in said, said
    assert json.loads(ok("game", "attack", "a", "sneak", "--roll", "15", "--json"))["event"]["roll"] == 15
