"""SWM Heal, Force Heal, Repair and Industrial Repair in the game session (round 26, reading R272):
``game heal TARGET N --by HEALER`` checks the special action as each rulebook states it. Counted
over SW_Minis_Drafter's database: Repair on 14 figures, Industrial Repair on 11, Heal on 10, Force
Heal on 10 -- each listed as not modelled in every attack answer of those figures before.

swm2008 PL p.49: "Heal [#] – Leczenie [#]: Zamiast wykonywać normalny atak lub ataki postać zmniejsza
o [#] punktów obrażeń sąsiadującej żywej postaci lub samej sobie. Leczenie nie może zwiększyć liczby
Punktów Obrażeń ponad początkowy poziom." PL p.59: "Repair [#] – Naprawa [#]: Zamiast wykonywać
normalny atak lub ataki postać ta zmniejsza podaną liczbę obrażenia sąsiadującemu Droidowi." PL p.44:
"Force Heal [#] – Leczenie Mocą [#]: (Moc; 2 Punkty Mocy) ... sąsiadującej zranionej żywej postaci lub
samej sobie." PL p.50: "Industrial Repair [#] ... sąsiadującej postaci z umiejętnością specjalną Broń
Pokładowa."
swm2004 CS g.7: "Heal 10: Namísto normálního útoku nebo útoků může tato postava vyléčit 10 zranění
sousedící postavě nebo sama sobě. ... Nemá efekt na Droid postavy." CS g.11: "Repair: ... vyléčit
uvedený počet zranění sousedící Droid postavě nebo sama sobě. ... Nemá efekt na ne-Droid postavy."
"""

from __future__ import annotations

import json
import textwrap

from assistant.position import parse_position
from assistant.rules.attack import attack

from .test_game_turns import ok, refused, start

SQUAD = textwrap.dedent("""\
    format: tabletop-position/1
    rules: {rules}
    map: {{cols: 10, rows: 10}}
    figures:
      - {{id: medic, side: x, at: B2, stats: {{hp: 30, defense: 12, attack: 4, damage: 10, force: {force}, abilities: [{ability}]}}}}
      - {{id: trooper, side: x, at: B3, stats: {{hp: 30, defense: 12, attack: 4, damage: 10}}}}
      - {{id: r2, side: x, at: C2, stats: {{hp: 30, defense: 12, attack: 4, damage: 10, abilities: [Droid]}}}}
      - {{id: grievous, side: x, at: A1, stats: {{hp: 30, defense: 12, attack: 4, damage: 10, abilities: [Cyborg]}}}}
      - {{id: walker, side: x, at: C3, stats: {{hp: 30, defense: 12, attack: 4, damage: 10, abilities: [Mounted Weapon]}}}}
      - {{id: far, side: x, at: F6, stats: {{hp: 30, defense: 12, attack: 4, damage: 10}}}}
      - {{id: foe, side: y, at: J10, stats: {{hp: 30, defense: 12, attack: 4, damage: 10}}}}
    """)


GAMES = iter(range(1000))


def new_game(home, rules: str, ability: str, force: int = 0) -> None:
    """A new game file each time (the command's current game is the newest)."""
    start(home, SQUAD.format(rules=rules, ability=ability, force=force), name=f"g{next(GAMES)}.sqlite")


def medic_turn(home, rules: str, ability: str, force: int = 0, hurt: tuple[str, ...] = ("trooper", "r2", "grievous", "walker", "far", "medic"),
               acting: str = "medic") -> None:
    new_game(home, rules, ability, force)
    ok("game", "initiative", "--roll", "x=15", "--roll", "y=3")
    for who in hurt:
        ok("game", "damage", who, "20")
    ok("game", "activate", acting)


def test_heal_2008_mends_an_adjacent_living_ally_in_place_of_the_attack(home) -> None:
    """PL p.49: an adjacent living character: the trooper and the Cyborg (living, PL p.37; R270), not
    the Droid nor the Mounted Weapon (nonliving, PL p.53), not one out of reach, at most [#]; then no
    attack this turn ("Zamiast wykonywać normalny atak lub ataki")."""
    medic_turn(home, "swm2008", "Heal 10")
    assert "works on a living character; r2 is not living" in refused("game", "heal", "r2", "10", "--by", "medic")
    assert "walker is not living" in refused("game", "heal", "walker", "10", "--by", "medic")
    assert "far is not next to medic" in refused("game", "heal", "far", "10", "--by", "medic")
    assert "at most 10 damage, not 20" in refused("game", "heal", "trooper", "20", "--by", "medic")
    out = ok("game", "heal", "trooper", "10", "--by", "medic")
    assert "medic uses Heal 10 on trooper: 10 damage removed" in out and "trooper has 20 of 30 HP left" in out, out
    why = refused("game", "heal", "grievous", "10", "--by", "medic")  # one use a turn
    assert "already used Heal 10 this turn" in why and "PL p.49" in why, why
    assert "used Heal 10 this turn in place of its attacks" in refused("game", "attack", "medic", "foe", "--roll", "15")


def test_heal_reaches_a_cyborg_and_the_healer_itself(home) -> None:
    """PL p.37: "Postać Cyborg traktuje się jednocześnie jako żywą ... podlega ona efektom dotyczących
    Droidów (jak Naprawa) dodatkowo do innych efektów (jak Leczenie)"; PL p.49 "lub samej sobie"."""
    medic_turn(home, "swm2008", "Heal 10")
    assert "grievous has 20 of 30 HP left" in ok("game", "heal", "grievous", "10", "--by", "medic")
    medic_turn(home, "swm2008", "Heal 10")
    assert "medic has 20 of 30 HP left" in ok("game", "heal", "medic", "10", "--by", "medic")


def test_heal_only_in_the_healers_turn_and_not_after_its_attack(home) -> None:
    """In place of its attacks: not in another figure's turn, not once it has attacked."""
    medic_turn(home, "swm2008", "Heal 10")
    ok("game", "attack", "medic", "foe", "--roll", "2", "--override", "out of range for the test")
    assert "already attacked this turn" in refused("game", "heal", "trooper", "10", "--by", "medic")
    medic_turn(home, "swm2008", "Heal 10", hurt=("trooper",), acting="trooper")
    assert "medic is not the figure whose turn it is" in refused("game", "heal", "trooper", "10", "--by", "medic")


def test_repair_2008_mends_an_adjacent_droid_or_cyborg_not_itself(home) -> None:
    """PL p.59: "sąsiadującemu Droidowi" (no "itself"); a Cyborg takes Droid effects "jak Naprawa" (PL p.37)."""
    medic_turn(home, "swm2008", "Repair 10")
    assert "works on a Droid; trooper is not one" in refused("game", "heal", "trooper", "10", "--by", "medic")
    assert "not on medic itself" in refused("game", "heal", "medic", "10", "--by", "medic")
    assert "r2 has 20 of 30 HP left" in ok("game", "heal", "r2", "10", "--by", "medic")


def test_the_2004_entries_fixed_10_droids_excluded_repair_of_itself(home) -> None:
    """CS g.7: "Heal 10 ... Nemá efekt na Droid postavy": a card writing "Heal" removes 10, a Mounted
    Weapon (no Droid) is healed in 2004 though not living in 2008; CS g.11 Repair "nebo sama sobě"."""
    medic_turn(home, "swm2004", "Heal")
    assert "at most 10 damage, not 20" in refused("game", "heal", "walker", "20", "--by", "medic")
    assert "no effect on a Droid, and r2 is one" in refused("game", "heal", "r2", "10", "--by", "medic")
    assert "walker has 20 of 30 HP left" in ok("game", "heal", "walker", "10", "--by", "medic")
    medic_turn(home, "swm2004", "Repair 10, Droid", hurt=("medic",))
    assert "medic has 20 of 30 HP left" in ok("game", "heal", "medic", "10", "--by", "medic")


def test_force_heal_costs_two_force_points_and_wants_a_wounded_character(home) -> None:
    """PL p.44: "(Moc; 2 Punkty Mocy) ... sąsiadującej zranionej żywej postaci": 1 Force point is not
    enough; an unwounded ally is refused; with 2 the points are spent."""
    medic_turn(home, "swm2008", "Force Heal 20", force=1)
    assert "this needs 2" in refused("game", "heal", "trooper", "20", "--by", "medic")
    medic_turn(home, "swm2008", "Force Heal 20", force=3, hurt=("r2",))
    assert "trooper has no damage" in refused("game", "heal", "trooper", "20", "--by", "medic")
    medic_turn(home, "swm2008", "Force Heal 20", force=3)
    out = ok("game", "heal", "trooper", "20", "--by", "medic", "--json")
    assert json.loads(out)["event"]["cost"] == 2, out
    figs = json.loads(ok("game", "status", "--json"))["figures"]
    assert next(f for f in figs if f["id"] == "medic")["force"] == 1, figs


def test_industrial_repair_mends_an_adjacent_mounted_weapon(home) -> None:
    """PL p.50: "sąsiadującej postaci z umiejętnością specjalną Broń Pokładowa"."""
    medic_turn(home, "swm2008", "Industrial Repair 10")
    assert "Mounted Weapon; r2 has none" in refused("game", "heal", "r2", "10", "--by", "medic")
    assert "walker has 20 of 30 HP left" in ok("game", "heal", "walker", "10", "--by", "medic")


def test_a_heal_by_hand_is_still_bookkeeping_and_a_figure_without_the_ability_is_named(home) -> None:
    medic_turn(home, "swm2008", "Lightsaber")
    assert "trooper has 20 of 30 HP left" in ok("game", "heal", "trooper", "10")  # by hand: no check
    why = refused("game", "heal", "trooper", "10", "--by", "medic")
    assert "medic has no special action that removes damage" in why and "Heal" in why and "Repair" in why, why


def test_the_attack_answer_no_longer_lists_them_as_not_modelled() -> None:
    """Applied where they act (the game session), asked by no attack question (reading R252)."""
    for ability in ("Heal 10", "Repair 10", "Force Heal 20", "Industrial Repair 10"):
        p = parse_position(SQUAD.format(rules="swm2008", ability=ability, force=2), "t.yaml")
        assert not [x for x in attack(p, "medic", "foe").not_modelled if ability in x], ability
