"""Star Wars: Destiny rules core against the digest's test cases (destiny.md §9, ids D-nn)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from assistant.destiny.building import DeckCard, TeamCharacter, check_deck, check_team
from assistant.destiny.characters import (
    Character,
    IllegalTargetError,
    deal_damage,
    discard_count,
    give_shields,
    heal,
    lose_resources,
    move_damage,
)
from assistant.destiny.dice import (
    Face,
    IllegalResolveError,
    PoolDie,
    Symbol,
    check_resolve,
    total_value,
)
from assistant.destiny.play import (
    IllegalPlayError,
    activate,
    check_play,
    end_of_round_loser,
    last_character_defeated,
    setup_roll_value,
    upgrade_cost,
    upgrades_to_discard,
    upkeep_draw,
)
from assistant.destiny.round import ActionPhase, IllegalActionError
from assistant.errors import NotationError
from assistant.i18n import language


def die(i: str, face: str, owner: str = "me") -> PoolDie:
    return PoolDie(i, owner, Face.parse(face))


# --- dice (§5.3, §6) ---------------------------------------------------------------

def test_d01_a_modifier_adds_to_a_base_die_and_they_land_together() -> None:
    plan = check_resolve("me", [[die("a", "ranged:1"), die("b", "+ranged:2")]], resources=0)
    assert plan.symbol is Symbol.RANGED and len(plan.units) == 1 and plan.units[0].value == 3


def test_d02_a_modifier_alone_cannot_be_resolved() -> None:
    with pytest.raises(IllegalResolveError, match="modifier"):
        check_resolve("me", [[die("b", "+ranged:2")]], resources=0)


def test_d03_total_value() -> None:
    assert total_value([Face.parse("ranged:2"), Face.parse("ranged:1")]) == 3


def test_d13_blanks_cannot_be_resolved() -> None:
    with pytest.raises(IllegalResolveError, match="blank"):
        check_resolve("me", [[die("a", "blank")]], resources=0)


def test_d14_two_damage_dice_are_two_units_resolved_one_after_another() -> None:
    plan = check_resolve("me", [[die("a", "melee:2")], [die("b", "melee:1")]], resources=0)
    assert [u.value for u in plan.units] == [2, 1]


def test_d15_a_die_resolves_at_most_once_per_action() -> None:
    with pytest.raises(IllegalResolveError, match="at most once per action"):
        check_resolve("me", [[die("a", "melee:2")]], resources=0, resolved_this_action=frozenset({"a"}))
    with pytest.raises(IllegalResolveError, match="at most once per action"):
        check_resolve("me", [[die("a", "melee:2")], [die("a", "melee:2")]], resources=0)


def test_d16_a_face_cost_must_be_paid_unless_free() -> None:
    with pytest.raises(IllegalResolveError, match="cost 1 resources and me has 0"):
        check_resolve("me", [[die("a", "ranged:3/1")]], resources=0)
    plan = check_resolve("me", [[die("a", "ranged:3/1")]], resources=0, free=True)
    assert plan.cost == 0 and any("free" in n for n in plan.notes)
    assert check_resolve("me", [[die("a", "ranged:3/1")]], resources=1).cost == 1


def test_one_action_resolves_one_symbol_from_the_players_own_pool() -> None:
    with pytest.raises(IllegalResolveError, match="one symbol"):
        check_resolve("me", [[die("a", "melee:2")], [die("b", "ranged:1")]], resources=0)
    with pytest.raises(IllegalResolveError, match="own pool"):
        check_resolve("me", [[die("a", "melee:2", owner="you")]], resources=0)
    with pytest.raises(IllegalResolveError, match="at least one die"):
        check_resolve("me", [], resources=0)


def test_a10_two_modifiers_on_one_base_are_allowed_with_the_ambiguity_shown() -> None:
    plan = check_resolve("me", [[die("a", "melee:1"), die("b", "+melee:1/1"), die("c", "+melee:2")]], resources=1)
    assert plan.units[0].value == 4 and plan.cost == 1  # every die's cost is paid
    assert any("silent on more than one" in n and "reading R23 in docs/readings.md" in n for n in plan.notes)


@given(st.sampled_from(list(Symbol)), st.integers(0, 9), st.booleans(), st.integers(0, 5))
def test_face_notation_round_trips(sym: Symbol, value: int, modifier: bool, cost: int) -> None:
    if sym in (Symbol.SPECIAL, Symbol.BLANK):
        value, modifier = 0, False
    face = Face(sym, value, modifier, cost)
    assert Face.parse(str(face)) == face


@given(st.text(max_size=12))
def test_face_parser_never_crashes(text: str) -> None:
    try:
        Face.parse(text)
    except NotationError as e:
        assert repr(text) in str(e)  # the message quotes the bad input


# --- damage, shields, healing, defeat (§7) --------------------------------------------

def test_d06_shields_cap_at_three() -> None:
    c, ignored = give_shields(Character("x", 10, shields=2), 3)
    assert c.shields == 3 and ignored == 2


def test_d07_shields_block_first() -> None:
    r = deal_damage(Character("x", 8, shields=2), 3)
    assert (r.character.shields, r.character.damage, r.taken, r.blocked, r.dealt) == (0, 1, 1, 2, 3)


def test_d08_unblockable_damage_ignores_shields() -> None:
    r = deal_damage(Character("x", 8, shields=2), 3, unblockable=True)
    assert (r.character.shields, r.character.damage, r.taken) == (2, 3, 3)


def test_d22_damage_fully_blocked_is_dealt_but_not_taken() -> None:
    r = deal_damage(Character("x", 8, shields=2), 2)
    assert r.dealt == 2 and r.taken == 0 and r.character.damage == 0


def test_d20_d21_defeat_at_health_with_the_excess_ignored() -> None:
    r = deal_damage(Character("x", 10, damage=8, upgrades=("u1",)), 4)
    assert r.character.defeated and r.defeated_now and r.character.damage == 10 and r.ignored_excess == 2
    assert r.character.upgrades == () and "Pokonane" in r.rule


def test_d52_a_defeated_character_is_no_target() -> None:
    dead = deal_damage(Character("x", 3), 3).character
    with pytest.raises(IllegalTargetError, match="defeated"):
        deal_damage(dead, 1)


def test_d48_moved_damage_ignores_shields_and_is_not_dealt() -> None:
    x, y, moved = move_damage(Character("x", 10, damage=2), Character("y", 10, shields=3), 2)
    assert (x.damage, y.damage, y.shields, moved) == (0, 2, 3, 2)


def test_d49_heal_as_much_as_possible() -> None:
    c, removed = heal(Character("x", 10, damage=1), 3)
    assert c.damage == 0 and removed == 1
    assert heal(Character("x", 10), 3)[1] == 0  # not healed


def test_d09_d10_disrupt_and_discard_stop_at_zero() -> None:
    assert lose_resources(2, 3) == 0
    assert discard_count(1, 2) == 1


@given(st.integers(1, 20), st.integers(0, 20), st.integers(0, 3), st.integers(0, 30), st.booleans())
def test_damage_invariants(health: int, damage: int, shields: int, amount: int, unblockable: bool) -> None:
    c = Character("x", health, min(damage, health - 1), shields)
    r = deal_damage(c, amount, unblockable)
    n = r.character
    assert 0 <= n.damage <= n.health and 0 <= n.shields <= c.shields
    assert r.blocked + r.taken + r.ignored_excess == amount
    assert n.defeated == (n.damage == n.health)
    assert unblockable or r.blocked == min(shields, amount)


# --- the action phase (§4.1, §5.6, §5.7) -----------------------------------------------

def test_d30_a_claim_takes_control_and_the_claimer_passes_on() -> None:
    p = ActionPhase.start(("A", "B"), "A").take("A", "action").take("B", "claim")
    assert p.controller == "B" and p.active == "A"
    p = p.take("A", "action")
    assert p.active == "A" and not p.over  # B passed automatically
    p = p.take("A", "pass")
    assert p.over and p.next_round_first == "B"


def test_d31_the_controller_may_claim_and_keeps_control() -> None:
    p = ActionPhase.start(("A", "B"), "A").take("A", "claim")
    assert p.controller == "A" and p.active == "B" and "keeps control" in p.log[-1]
    p = p.take("B", "action").take("B", "pass")
    assert p.over


def test_d32_an_earlier_pass_does_not_end_the_phase_after_a_claim() -> None:
    p = ActionPhase.start(("A", "B"), "A").take("A", "pass").take("B", "claim")
    assert not p.over and p.active == "A"
    assert p.take("A", "pass").over


def test_d33_one_claim_per_round() -> None:
    p = ActionPhase.start(("A", "B"), "A").take("A", "action").take("B", "claim").take("A", "action")
    with pytest.raises(IllegalActionError, match="only one player may claim"):
        p.take("A", "claim")


def test_out_of_turn_and_after_the_phase_are_refused() -> None:
    p = ActionPhase.start(("A", "B"), "A")
    with pytest.raises(IllegalActionError, match="A's turn"):
        p.take("B", "action")
    done = p.take("A", "pass").take("B", "pass")
    assert done.over
    with pytest.raises(IllegalActionError, match="over"):
        done.take("A", "action")


def test_a_pass_does_not_stop_a_player_acting_later() -> None:
    p = ActionPhase.start(("A", "B"), "A").take("A", "pass").take("B", "action")
    assert p.active == "A" and not p.over
    assert p.take("A", "action").active == "B"


# --- building, playing, activating, upkeep, victory (§2–§5.2, §7.8) ---------------------

LEIA = TeamCharacter("Leia Organa", 16, "hero", "red")
HAN = TeamCharacter("Han Solo", 14, "hero", "yellow")


def _deck(n: int = 15) -> list[DeckCard]:
    return [DeckCard(f"card {i}", "event", "neutral", "grey") for i in range(n)] * 2


def test_d04_d05_team_points() -> None:
    assert check_team([LEIA, HAN]) == []
    assert any("31 points" in p for p in check_team([LEIA, TeamCharacter("Han Solo", 15, "hero", "yellow")]))


def test_d50_one_copy_of_a_unique_character_whatever_the_subtitle() -> None:
    a = TeamCharacter("Darth Vader", 13, "villain", "red", subtitle="Dark Lord of the Sith")
    b = TeamCharacter("Darth Vader", 13, "villain", "red", subtitle="Another subtitle")
    assert any("unique Darth Vader" in p for p in check_team([a, b]))


def test_deck_rules() -> None:
    assert check_deck([LEIA, HAN], _deck()) == []
    bad = _deck()[:-1] + [DeckCard("card 0", "event", "neutral", "grey")]  # D-51: a third copy
    assert any("3 copies of 'card 0'" in p for p in check_deck([LEIA, HAN], bad))
    blue = _deck()[:-1] + [DeckCard("blue one", "event", "neutral", "blue")]
    assert any("no blue character" in p for p in check_deck([LEIA, HAN], blue))
    villain = _deck()[:-1] + [DeckCard("dark", "upgrade", "villain", "red")]
    assert any("villain card in a hero deck" in p for p in check_deck([LEIA, HAN], villain))
    assert any("exactly 30" in p for p in check_deck([LEIA, HAN], _deck()[:-1]))


def test_d17_replacement_and_a01() -> None:
    assert upgrade_cost(3, 2)[0] == 1
    cost, why = upgrade_cost(2, 3)
    assert cost == 0 and "reading R16 in docs/readings.md" in why


def test_d54_unique_support_and_the_upgrade_cap() -> None:
    with pytest.raises(IllegalPlayError, match="unique"):
        check_play(1, 5, unique_title="Rebel Base", in_play_titles=frozenset({"Rebel Base"}))
    check_play(1, 5, unique_title="Rebel Base", in_play_titles=frozenset())  # the opponent's copy is not in this set
    with pytest.raises(IllegalPlayError, match="4th"):
        check_play(1, 5, upgrades_on_target=3)
    check_play(1, 5, upgrades_on_target=3, replacing=True)
    with pytest.raises(IllegalPlayError, match="costs 3"):
        check_play(3, 2)
    assert upgrades_to_discard(4) == 1  # D-18


def test_d40_d41_d42_activation() -> None:
    a = activate("leia", exhausted=False, own_dice=("l1", "l2"), upgrade_dice=("u1", "u2"))
    assert a.dice_rolled == ("l1", "l2", "u1", "u2")
    with pytest.raises(IllegalPlayError, match="no die"):
        activate("base", exhausted=False, own_dice=(), is_support=True)
    with pytest.raises(IllegalPlayError, match="exhausted"):
        activate("leia", exhausted=True, own_dice=("l1",))


def test_a09_setup_roll_counts_white_numbers_only() -> None:
    faces = [Face.parse(t) for t in ("ranged:2", "+melee:3", "special", "blank", "resource:1/1")]
    assert setup_roll_value(faces) == 3


def test_d35_d36_upkeep_draw() -> None:
    assert upkeep_draw(2, 5, 10) == 3
    assert upkeep_draw(2, 5, 2) == 2
    assert upkeep_draw(6, 5, 10) == 0
    assert upkeep_draw(3, 6, 10) == 3  # D-27: a hand limit of 6


def test_d37_d38_victory() -> None:
    assert end_of_round_loser({"A": (0, 0), "B": (3, 10)}, controller="A")[0] == "B"
    winner, why = end_of_round_loser({"A": (0, 0), "B": (0, 0)}, controller="A")
    assert winner == "A" and "battlefield controller" in why
    assert end_of_round_loser({"A": (1, 0), "B": (0, 5)}, controller="A")[0] is None
    assert last_character_defeated("A", "B")[0] == "B"


@pytest.mark.parametrize(("lang", "exhausted", "rolls"), [("pl", "Karta leia jest wyczerpana", "Karta leia zostaje wyczerpana"),
                                                          ("cs", "Karta leia je vyčerpaná", "Karta leia je vyčerpaná")])
def test_an_exhausted_card_is_said_with_its_noun_so_the_participle_agrees(lang: str, exhausted: str, rolls: str) -> None:
    """trial27: "Darth Vader zostaje wyczerpana" -- the participle agrees with "karta", which the
    sentence did not say; the noun now stands before the name (pl, cs)."""
    with language(lang):
        with pytest.raises(IllegalPlayError) as refused:
            activate("leia", exhausted=True, own_dice=("l1",))
        assert str(refused.value).startswith(exhausted)
        note = activate("leia", exhausted=False, own_dice=("l1",)).note
        assert note.startswith(rolls), note
