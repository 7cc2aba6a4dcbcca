"""Rapport in the squad's cost at ``game new`` (swm2008 PL p.58; reading R201).

> PL p.58: "Wskazana postać kosztuje 1 punkt mniej przy tworzeniu drużyny jeśli określony warunek
> zostanie spełniony. [...] Wielokrotne Porozumienia nie kumulują się. Jednakże, rożne wersje
> Porozumienia z rożnych postaci mogą dawać wielokrotne redukcje kosztu danej jednostki. Na przykład,
> Clone Commander Cody zmniejsza koszt Clone Trooperów w swojej drużynie, podczas gdy Queen Amidala
> zmniejsza koszt nie-Unikalnych Republikańskich podwładnych. Jeśli obie te postacie są w tej samej
> drużynie, postacie Clone Trooperów w ich drużynie otrzymują zmniejszenie kosztu o 2 punkty. [...]
> minimalny koszt postaci wynosi 1."

The bundled Clone Commander Cody (cost 20), Queen Amidala (16), Clone Trooper (9) and ARC Trooper (18).
"""

from __future__ import annotations

from assistant.cards import CardLibrary, SwmCard, default_library
from assistant.game.squads import check_squads
from assistant.position import parse_position

GREE = SwmCard(name="Test Commander Gree", source="test", cost=20, factions=("Republic",), unique=True, size=None, hp=10, defense=10,
               attack=1, damage=10, speed=6, force=0, special_abilities=("Rapport",), set="Test")
LIB = CardLibrary([*default_library().cards(), GREE])


def check(rules: str, *cards: str) -> tuple[list[str], list[str]]:
    lines = "".join(f"  - {{id: f{i}, card: {card}, side: light, at: {'ABCDEFGH'[i % 8]}{i // 8 + 1}}}\n" for i, card in enumerate(cards))
    lines += "  - {id: foe, card: Count Dooku of Serenno, side: dark, at: H8}\n"
    problems, unchecked = check_squads(parse_position(f"format: tabletop-position/1\nrules: {rules}\nmap: {{cols: 8, rows: 8}}\nfigures:\n{lines}",
                                                      "t.yaml", LIB))
    return [p.text for p in problems if "light" in p.text.lower()], unchecked


def test_cody_makes_his_clone_troopers_a_point_cheaper() -> None:
    # 20 + 9 x 9 = 101 over 100 as printed; 20 + 9 x 8 = 92 with Cody's Rapport (fails before: over the limit)
    squad = ["Clone Commander Cody", *["Clone Trooper"] * 9]
    assert check("swm2008", *squad) == ([], [])
    problems, _unchecked = check("swm2004", *squad)  # the 2004 rules have no Rapport: the printed cost
    assert any("101" in p for p in problems), problems


def test_cody_and_amidala_together_make_a_clone_trooper_two_cheaper_an_arc_trooper_one() -> None:
    # PL p.58's example: 20 + 16 + 8 x (9 - 2) = 92; without the two, 8 x 9 + 36 = 108 would be over
    assert check("swm2008", "Clone Commander Cody", "Queen Amidala", *["Clone Trooper"] * 8) == ([], [])
    # the ARC Trooper is a non-Unique Republic follower (Amidala's), not a Clone Trooper (Cody's): 18 -> 17, so
    # 20 + 16 + 4 x 17 = 104 -> over; as printed it would be 108
    problems, _unchecked = check("swm2008", "Clone Commander Cody", "Queen Amidala", *["ARC Trooper"] * 4)
    assert problems and "104" in problems[0], problems


def test_a_rapport_the_rulebook_does_not_state_is_said_not_applied() -> None:
    problems, unchecked = check("swm2008", "Test Commander Gree", "Clone Trooper")
    assert problems == [] and any("Rapport of Test Commander Gree is not applied" in u for u in unchecked), unchecked


def test_a_squad_over_the_limit_with_rapport_says_so_and_its_printed_cost() -> None:
    # a judge's trial (R218): Cody, Amidala and ten Clone Troopers were refused as "106 points", a sum
    # no card prints (20 + 16 + 10 x 9 = 126 as printed; each Clone Trooper 9 - 2 = 7 with the two Rapports)
    problems, _unchecked = check("swm2008", "Clone Commander Cody", "Queen Amidala", *["Clone Trooper"] * 10)
    assert len(problems) == 1, problems
    assert "106 points with Rapport (126 as printed; swm2008 PL p.58), over the limit of 100" in problems[0], problems
    problems, _unchecked = check("swm2004", *["Clone Trooper"] * 12)  # no Rapport: the verdict as before
    assert problems and "108 points, over the limit of 100" in problems[0] and "Rapport" not in problems[0], problems
