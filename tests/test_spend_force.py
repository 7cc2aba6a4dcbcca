"""A Force point said at the attack (round 25): ``attack --spend-force POWER`` and ``game attack
--spend-force POWER``, golden cases from the seeds (reading R251 in docs/readings.md).

Round 23 (R228) said what Sith Rage and Lightsaber Precision would give, as a note, because there
was no way to say the point is spent. Now the player says it: the bonus becomes a modifier of the
attack with its rule, the point is checked against the figure's Force points and the once-a-turn
spend, and the game log records it. Every expected number below is worked by hand from the seeds'
words, never by running the code.
"""

from __future__ import annotations

import json
import textwrap

import pytest

from assistant.errors import AssistantError
from assistant.rules.attack import attack

from .test_force_powers_attack import RAGER, TARGET, pos
from .test_game_turns import ok, refused, start

# Attack 12 against Defense 18: needs 6, 15 of 20 rolls hit (75%), a natural 20 (5%) a critical hit.
# Damage 20 (40 on a critical): 0.70*20 + 0.05*40 = 16 expected per attack. With +10 Damage:
# 0.70*30 + 0.05*50 = 23.5 (the bonus is added after the critical doubles the printed Damage).


@pytest.mark.parametrize(("rules", "book"), [("swm2008", "PL p.62"), ("swm2004", "CS g.12")])
def test_sith_rage_spent_adds_10_to_every_attack_as_a_modifier(rules: str, book: str) -> None:
    """swm2008 PL p.62: "Sith Rage – Szał Sithów: (Moc; 1 Punkt Mocy) ... dostaje bonus +10 do Obrażeń
    dla wszystkich ataków do końca tury." CS g.12: "+10 bodů ke zranění při všech útocích do konce
    tahu". Both attacks deal 30 (50 critical), 23.5 expected each."""
    ans = attack(pos([RAGER, TARGET], rules), "maul", "t", spend_force="sith rage")
    assert [(a.damage, a.critical_damage, a.expected_damage) for a in ans.attacks] == [(30, 50, 23.5), (30, 50, 23.5)]
    boost = [m for m in ans.modifiers if m.applies_to == "damage"]
    assert len(boost) == 1 and boost[0].value == 10 and "Sith Rage" in boost[0].source and not boost[0].only_first
    assert book in boost[0].rule and "R251" in boost[0].rule
    assert (ans.spend_force, ans.spend_cost) == ("Sith Rage", 1)
    assert ans.as_json()["spend_force"] == {"power": "Sith Rage", "cost": 1}
    assert not [n for n in ans.notes if n.text.startswith("with Sith Rage")]  # spent: no longer offered as a choice


@pytest.mark.parametrize(("rules", "book"), [("swm2008", "PL p.52"), ("swm2004", "CS g.8")])
def test_lightsaber_precision_spent_adds_10_to_the_next_attack_only(rules: str, book: str) -> None:
    """swm2008 PL p.52: "otrzymuje bonus +10 do Obrażeń w następnym ataku. O użyciu tej Mocy należy
    zdecydować przed wykonaniem rzutu ataku." CS g.8: "+10 bodů ke zranění k jejímu příštímu útoku".
    The first attack deals 30 (23.5 expected), the second its printed 20 (16 expected)."""
    ans = attack(pos([RAGER, TARGET], rules), "maul", "t", spend_force="Lightsaber Precision")
    assert [(a.damage, a.expected_damage) for a in ans.attacks] == [(30, 23.5), (20, 16.0)]
    boost = next(m for m in ans.modifiers if m.applies_to == "damage")
    assert boost.only_first and boost.as_json()["only_first"] is True and book in boost.rule


def test_the_spend_is_the_turns_one_so_no_force_reroll_unless_master_of_the_force() -> None:
    """PL p.26: "Raz na turę: Postać może wydać Punkty Mocy tylko raz na turę"; CS r.9 "Jednou za tah".
    Spent on Sith Rage, the point leaves no Force reroll of the roll (PL p.25: "Powtórny Rzut");
    Master of the Force 2 (PL p.53: Force points twice a turn) with 2 points keeps it."""
    plain = attack(pos([RAGER, TARGET]), "maul", "t")
    assert plain.force_reroll is not None
    spent = attack(pos([RAGER, TARGET]), "maul", "t", spend_force="Sith Rage")
    assert spent.force_reroll is None
    assert any("once a turn, so no Force reroll" in n.text and "PL p.26" in n.rule for n in spent.notes)
    master = RAGER.replace("Sith Rage,", "Sith Rage, Master of the Force 2,")
    both = attack(pos([master, TARGET]), "maul", "t", spend_force="Sith Rage")
    assert both.force_reroll is not None and both.force_reroll.cost == 1
    last = attack(pos([master.replace("force: 2", "force: 1"), TARGET]), "maul", "t", spend_force="Sith Rage")
    assert last.force_reroll is None and any("no Force point left after Sith Rage" in n.text for n in last.notes)


def test_no_force_point_or_a_ysalamiri_refuses_the_spend() -> None:
    """PL p.26 (CS r.9): spent points are gone, so a figure with none cannot pay; PL p.67 Ysalamiri:
    no Force points spent within 6 squares of it. The attack with the spend is refused, said why."""
    none = attack(pos([RAGER.replace("force: 2", "force: 0"), TARGET]), "maul", "t", spend_force="Sith Rage")
    assert not none.legal and any("no Force point left to spend on Sith Rage" in r.text for r in none.illegal_reasons)
    ysa = "{id: ysa, side: y, at: C8, stats: {defense: 10, hp: 10, abilities: [Ysalamiri]}}"
    blocked = attack(pos([RAGER, TARGET, ysa]), "maul", "t", spend_force="Sith Rage")
    assert not blocked.legal and any("Ysalamiri" in r.text and "PL p.67" in r.rule for r in blocked.illegal_reasons)


def test_a_power_not_on_the_card_or_not_spent_at_the_attack_is_bad_input() -> None:
    """Only the figure's own Force powers are spent, and only those that work on the attack roll."""
    with pytest.raises(AssistantError, match="has no such Force power"):
        attack(pos(["{id: maul, side: x, at: C5, stats: {attack: 12, damage: 20, force: 2}}", TARGET]), "maul", "t", spend_force="Sith Rage")
    with pytest.raises(AssistantError, match="asked with --power"):
        attack(pos([RAGER, TARGET]), "maul", "t", spend_force="Force Lightning")
    ddm = ("format: tabletop-position/1\nrules: ddm2005\nmap: {cols: 8, rows: 8}\nfigures:\n"
           "  - {id: a, side: x, at: A1, stats: {attack: 5, damage: 10}}\n  - {id: b, side: y, at: B1, stats: {defense: 15, hp: 30}}\n")
    from assistant.cards import CardLibrary, default_library
    from assistant.position import parse_position

    with pytest.raises(AssistantError, match="D&D Miniatures has none"):
        attack(parse_position(ddm, "d.yaml", CardLibrary(default_library().cards())), "a", "b", spend_force="Sith Rage")


# --- the game session ------------------------------------------------------------------------

HALL = textwrap.dedent("""\
    format: tabletop-position/1
    rules: {rules}
    map: {{cols: 16, rows: 8}}
    figures:
      - {{id: maul, side: dark, at: C5, stats: {{hp: 140, defense: 21, attack: 12, damage: 20, speed: 6, force: 2,
          abilities: [Double Attack, Melee Attack, Sith Rage, Lightsaber Precision]}}}}
      - {{id: t, side: light, at: D5, stats: {{hp: 140, defense: 18, attack: 4, damage: 10, speed: 6}}}}
    """)


def figure(fid: str) -> dict:
    return next(f for f in json.loads(ok("game", "status", "--json"))["figures"] if f["id"] == fid)


@pytest.mark.parametrize("rules", ["swm2008", "swm2004"])
def test_game_attack_records_sith_rage_once_for_the_turn(home, rules: str) -> None:
    """Sith Rage bought before the first roll (roll 10 needs 6: a hit for 30) costs maul 1 of its 2
    Force points; its second attack that turn has the +10 too (a hit for 30) and costs nothing more
    ("dla wszystkich ataków do końca tury"). The log says it, and folds again to the same."""
    start(home, HALL.format(rules=rules))
    ok("game", "initiative", "--roll", "dark=15", "--roll", "light=3")
    ok("game", "activate", "maul")
    first = json.loads(ok("game", "attack", "maul", "t", "--roll", "10", "--spend-force", "Sith Rage", "--json"))
    assert figure("maul")["force"] == 1 and figure("t")["damage_taken"] == 30, first
    asked = json.loads(ok("attack", "maul", "t", "--spend-force", "Sith Rage", "--json"))  # the question in the game's turn: paid
    assert asked["spend_force"] == {"power": "Sith Rage", "cost": 0} and asked["damage"] == 30
    ok("game", "attack", "maul", "t", "--roll", "12", "--spend-force", "Sith Rage")
    assert figure("maul")["force"] == 1 and figure("t")["damage_taken"] == 60
    log = ok("game", "log")
    assert "maul attacks t: roll 10 needs 6 -> hits for 30 damage (with Sith Rage)" in log
    assert ok("game", "verify")  # the log folds again to the same: the spend is derived again (R203)


def test_game_attack_refuses_a_second_spend_in_the_turn_and_an_empty_pool(home) -> None:
    """PL p.26: once a turn. maul bought 2 more squares with its Force point (Move Faster, PL p.25),
    so it cannot buy Lightsaber Precision in the same turn; with no Force point it cannot at all."""
    start(home, HALL.format(rules="swm2008"))
    ok("game", "initiative", "--roll", "dark=15", "--roll", "light=3")
    ok("game", "activate", "maul")
    ok("game", "force", "maul", "-1", "--faster")
    why = refused("game", "attack", "maul", "t", "--roll", "10", "--spend-force", "Lightsaber Precision")
    assert "already spent Force points this turn" in why
    start(home, HALL.format(rules="swm2008").replace("force: 2", "force: 0"), "g2.sqlite")
    ok("game", "initiative", "--roll", "dark=15", "--roll", "light=3")
    ok("game", "activate", "maul")
    assert "no Force point left to spend on Lightsaber Precision" in refused(
        "game", "attack", "maul", "t", "--roll", "10", "--spend-force", "Lightsaber Precision")


def test_the_query_names_a_bad_power_and_exits_2(home) -> None:
    """Bad input: a clear message naming the option and the power, exit 2, no traceback."""
    (home / "p.yaml").write_text(HALL.format(rules="swm2008"), encoding="utf-8")
    why = refused("attack", "maul", "t", "-p", str(home / "p.yaml"), "--spend-force", "Force Grip")
    assert "--spend-force 'Force Grip'" in why and "Traceback" not in why
    out = json.loads(ok("attack", "maul", "t", "-p", str(home / "p.yaml"), "--spend-force", "Sith Rage", "--json"))
    assert out["spend_force"] == {"power": "Sith Rage", "cost": 1} and out["damage"] == 30


def test_an_attack_of_opportunity_takes_lightsaber_precision(home) -> None:
    """CS g.8: "Lightsaber Precision se dá použít i při příležitostném útoku"; PL p.52: "działa także,
    gdy postać wykonuje atak odruchowy". t leaves maul's side in its own turn; maul's attack of
    opportunity (roll 10 needs 6) hits for 20 + 10 = 30, and the point is spent in t's turn."""
    start(home, HALL.format(rules="swm2008"))
    ok("game", "initiative", "--roll", "dark=3", "--roll", "light=15")
    ok("game", "activate", "t")
    ok("game", "aoo", "maul", "t", "--roll", "10", "--spend-force", "Lightsaber Precision")
    assert figure("maul")["force"] == 1 and figure("t")["damage_taken"] == 30
    assert "(with Lightsaber Precision)" in ok("game", "log")
    assert ok("game", "verify")
