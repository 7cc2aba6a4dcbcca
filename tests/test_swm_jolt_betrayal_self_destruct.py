"""Round 33's sweep of SW_Minis_Drafter's figures: abilities both rulebooks print (or the 2008 one, for
a later set's card) that the answers called "not a SWM glossary name the assistant knows" or listed as
not modelled, said at the attack with their chance (reading R410). The expected numbers are worked by
hand from the seeds' words."""

from __future__ import annotations

from assistant.rules.attack import attack
from tests.test_abilities_seed import pos

ATTACKER = "{id: a, side: x, at: C5, stats: {attack: 8, damage: 20, abilities: [%s]}}"


def notes(ans, word: str) -> list[tuple[str, str]]:
    return [(n.text, n.rule) for n in ans.notes if word in n.text]


def test_jolt_stuns_an_enemy_it_hits_unless_it_saves_or_is_large() -> None:
    """PL p.50: "Jolt – Wstrząs: Wróg trafiony przez atak tej postaci jest ogłuszony (strona 64). Wróg może
    uniknąć tego efektu rzutem obronnym na 11. Wielkie lub duże postacie ignorują ten efekt." The 2004 rules
    do not name it; their stun is the same ("považovány za již aktivované toto kolo", CS g.12), so a later
    set's card plays it there too (R304). A Large target (Duża) ignores it."""
    for rules in ("swm2008", "swm2004"):
        ans = attack(pos([ATTACKER % "Jolt", "{id: t, side: y, at: D5, stats: {defense: 15, hp: 60}}"], rules), "a", "t")
        assert notes(ans, "Jolt") == [("a's Jolt: a hit stuns t unless it makes a save of 11 (50%)", "swm2008 PL p.50, p.64")], rules
        assert "a: Jolt" not in ans.not_modelled
        big = attack(pos([ATTACKER % "Jolt", "{id: t, side: y, at: D5, size: large, stats: {defense: 15, hp: 60}}"], rules), "a", "t")
        assert notes(big, "Jolt") == [("a's Jolt: t is Large or bigger and ignores its stun", "swm2008 PL p.50")], rules


def test_betrayal_turns_an_attacker_that_rolls_a_natural_1_in_each_rulebooks_words() -> None:
    """PL p.34: "Betrayal – Zdrada: Jeśli rzut ataku wroga wykonywany przeciwko tej postaci jest Naturalną 1,
    to wróg ten staje się członkiem drużyny tej postaci do końca pojedynku. Nie wykonuje on także innych
    akcji w tej turze nawet, jeśli może wykonać dodatkowe ataki." CS g.2: "Pokud nepřítel při útočném hodu
    proti této postavě hodí číslo jedna, stává se tato nepřátelská jednotka členem skupiny této postavy do
    konce skirmishe. V tomto kole nemůže provádět další akce, kromě případu, že může provádět přídatný
    útok." The rulebooks differ on the extra attack: each edition says its own. One attack: 1 in 20, 5%;
    a Double Attack: 1 - (19/20)^2 = 9.75%, said 10%."""
    target = "{id: t, side: y, at: D5, stats: {defense: 15, hp: 60, abilities: [Betrayal]}}"
    one = attack(pos([ATTACKER % "Melee Attack", target], "swm2008"), "a", "t")
    assert notes(one, "Betrayal") == [(
        "t's Betrayal: a natural 1 on a's attack roll (5%) makes a a member of t's squad until the end of the skirmish, or until t is "
        "defeated; it takes no other action this turn, not even an extra attack it could make", "swm2008 PL p.34")]
    two = attack(pos([ATTACKER % "Melee Attack, Double Attack", target], "swm2004"), "a", "t")
    assert notes(two, "Betrayal") == [(
        "t's Betrayal: a natural 1 on a's attack roll (10%) makes a a member of t's squad until the end of the skirmish, or until t is "
        "defeated; it takes no other action this round, except an extra attack it can still make", "swm2004 CS g.2")]
    assert "t: Betrayal" not in one.not_modelled and "t: Betrayal" not in two.not_modelled


def test_self_destruct_strikes_everyone_next_to_it_when_the_attack_defeats_it() -> None:
    """PL p.60: "Self-Destruct [#] – Samozniszczenie [#]: Kiedy postać ta jest pokonana, natychmiast zadaje
    [#] punktów obrażeń wszystkim postaciom z nią sąsiadującym (zarówno wrogom jak i sojusznikom)." CS g.11:
    "Self-Destruct 10: Ve chvíli kdy je tato postava poražena, bezprostředně uděluje 10 zranění všem
    postavám, které s ní sousedí (nepřátelským i přátelským)." t has 20 Hit Points: a hit of 20 defeats
    it, 14 rolls of 20 (needs 7): 70%. The attacker a and t's ally b stand next to it; c does not."""
    figs = [ATTACKER % "Melee Attack", "{id: t, side: y, at: D5, stats: {defense: 15, hp: 20, abilities: [Self-Destruct 20]}}",
            "{id: b, side: y, at: E5, stats: {defense: 15, hp: 20}}", "{id: c, side: y, at: H5, stats: {defense: 15, hp: 20}}"]
    for rules, rule in (("swm2008", "swm2008 PL p.60"), ("swm2004", "swm2004 CS g.11")):
        ans = attack(pos(figs, rules), "a", "t")
        assert notes(ans, "Self-Destruct") == [(
            "t's Self-Destruct 20: if this attack defeats t (70%), each character next to it, friend or foe, takes 20 at once: a, b", rule)], rules
        assert "t: Self-Destruct 20" not in ans.not_modelled


def test_an_enemys_force_absorb_or_force_defense_is_said_with_a_force_power() -> None:
    """PL p.44: "Force Defense – Rozproszenie Mocy: (Moc; 3 Punkty Mocy) Postać używająca tej Mocy anuluje
    efekty Mocy użytej przez postać będącą w zasięgu 6 pól. ... Tamta Moc nadal traktowana jest jako użyta
    w tej turze i postać zużywa na nią Punkty Mocy." PL p.43: "Force Absorb – Wchłonięcie Mocy: (Moc; 2
    Punkty Mocy) ... anuluje efekty Mocy użytej przez sąsiadującą postać." CS g.5: "Force Absorb: (Force; 2
    Force points) ... zruší efekt moci síly používaný sousedící postavou"; "Force Defense: (Force; 3 Force
    points) ... zruší efekt moci síly používaný postavou, která se nachází do 6-ti polí od této postavy."
    Both rulebooks print them; the answers called them names the assistant does not know (R410). t (3
    squares off) may use Force Defense; ab, next to a but with 1 Force point, cannot pay Force Absorb;
    ab2, next to a, its points not given, may; far (8 squares off) cannot."""
    from assistant.rules.powers import use_power

    figs = ["{id: a, side: x, at: C5, stats: {attack: 8, damage: 20, force: 5, abilities: [Force Push 2]}}",
            "{id: t, side: y, at: F5, stats: {defense: 15, hp: 60, force: 3, abilities: [Force Defense]}}",
            "{id: ab, side: y, at: C6, stats: {defense: 15, hp: 60, force: 1, abilities: [Force Absorb]}}",
            "{id: ab2, side: y, at: B5, stats: {defense: 15, hp: 60, abilities: [Force Absorb]}}",
            "{id: far, side: y, at: K5, stats: {defense: 15, hp: 60, abilities: [Force Defense]}}"]
    for rules, defense, absorb in (("swm2008", "swm2008 PL p.44", "swm2008 PL p.43"), ("swm2004", "swm2004 CS g.5", "swm2004 CS g.5")):
        ans = use_power(pos(figs, rules, cols=16), "a", "t", "Force Push 2")
        assert notes(ans, "may cancel") == [
            ("t's Force Defense (3 Force points, decided when Force Push 2 is declared): it may cancel Force Push 2, which still counts as "
             "used this turn, its Force points spent", defense),
            ("ab2's Force Absorb (2 Force points, decided when Force Push 2 is declared): it may cancel Force Push 2, which still counts as "
             "used this turn, its Force points spent", absorb)], rules
        assert not attack(pos(figs, rules, cols=16), "a", "t").not_modelled  # t: Force Defense no longer listed
