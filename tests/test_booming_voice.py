"""Booming Voice (swm2008 PL p.35; reading R168): with the bundled Mas Amedda in the squad, an ally's
commander effect limited to 6 squares reaches any distance.

> PL p.35: "Booming Voice – Donośny Głos: Jeśli postać ta jest w twojej drużynie, każdy sojusznik z
> efektem dowódcy normalnie ograniczonym do 6 pól ma usunięte to ograniczenie."

The Clone Trooper Commander's effect (Clone Wars Starter #3): "Every character in its squad with
"trooper" in its name within 6 squares gets +3 Attack if it does not move in the turn it attacks."
"""

from __future__ import annotations

from assistant.position import parse_position
from assistant.rules.attack import attack

POSITION = """format: tabletop-position/1
rules: {rules}
map: {{cols: 20, rows: 8}}
figures:
  - {{id: cmd, card: Clone Trooper Commander, side: light, at: A1}}
  - {{id: trooper, card: Clone Trooper, side: light, at: M1}}
  - {{id: dooku, card: Count Dooku of Serenno, side: dark, at: N1}}
{more}"""
MAS = "  - {id: mas, card: Mas Amedda, side: light, at: A4}\n"


def _bonus(rules: str, more: str) -> tuple[list[int], list[str]]:
    answer = attack(parse_position(POSITION.format(rules=rules, more=more)), "trooper", "dooku")
    return ([m.value for m in answer.modifiers if "commander effect" in m.label],
            [n.text for n in answer.notes if "Booming Voice" in n.text])


def test_booming_voice_lifts_the_six_square_limit_of_an_allys_commander_effect() -> None:
    assert _bonus("swm2008", "") == ([], [])  # 12 squares from its commander: out of reach
    assert _bonus("swm2008", MAS) == ([3], ["mas's Booming Voice lifts the 6-square limit of cmd's commander effect: it reaches trooper"])


def test_booming_voice_is_an_ally_s_not_an_enemy_s_nor_a_2004_rule() -> None:
    assert _bonus("swm2008", MAS.replace("side: light", "side: dark")) == ([], [])
    assert _bonus("swm2004", MAS) == ([], [])  # the 2004 rules have no Booming Voice ...
    answer = attack(parse_position(POSITION.format(rules="swm2004", more=MAS).replace("at: M1", "at: F1").replace("at: N1", "at: G1")),
                    "trooper", "dooku")
    assert [m.value for m in answer.modifiers if "commander effect" in m.label] == [3]  # ... though the effect itself applies within 6
