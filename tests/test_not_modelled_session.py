"""The attack answer's "not modelled" list (reading R252 in docs/readings.md): an ability the game
session applies where it acts (a checked move, the turn, the squad) and that no attack question asks
about is not listed as not modelled; one the attack could need is, and so is one the edition in force
does not have. Counted over SW_Minis_Drafter's database (892 rows, swm2008): figures whose attack
answer listed something 487 -> 357 by this reading alone, -> 333 with Recon, Regeneration, Knight and
Master Speed (R251, R253-R254)."""

from __future__ import annotations

from assistant.rules.applied import session_only
from assistant.rules.attack import attack

from .test_force_powers_attack import pos

TARGET = "{id: t, side: y, at: D5, stats: {defense: 18, hp: 140}}"


def mover(abilities: str) -> str:
    return "{id: a, side: x, at: C5, stats: {attack: 12, damage: 20, force: 2, abilities: [" + abilities + "]}}"


def test_movement_squad_and_activation_abilities_are_not_listed_at_the_attack() -> None:
    """Speed, Flight, Mobile Attack (PL p.54-55; CS g.9), Force Renewal (PL p.46; CS g.6), Rapport
    (PL p.58) are applied by the game session; an attack's roll, damage and targets do not use them.
    Recon (PL p.58) and Regeneration (PL p.59) are applied there too (R253, R254). Avoid Defeat (PL p.34)
    is counted in the chance to defeat its figure when it is the target (R290) and rolled by the session;
    Force Leap (PL p.44; CS g.6) is applied by the session's moves and attacks of opportunity (R305)."""
    abilities = "Speed 8, Flight, Mobile Attack, Force Renewal 1, Rapport, Recon, Regeneration 10, Avoid Defeat, Force Leap"
    ans = attack(pos([mover(abilities), TARGET]), "a", "t")
    listed = {x.split(": ", 1)[1] for x in ans.not_modelled}
    assert listed == set(), ans.not_modelled


def test_an_ability_the_edition_lacks_stays_listed() -> None:
    """Stable Footing and Rapport are SWM 2008 rules (PL p.63, p.58) the 2004 rules (CS) do not apply, so a
    2004 game's answer still lists them; Mobile Attack is in both (CS g.9), and a later set's Greater
    Mobile Attack is played in the 2008 words under 2004 too (PL p.48; reading R405)."""
    ans = attack(pos([mover("Mobile Attack, Greater Mobile Attack, Stable Footing, Rapport"), TARGET], "swm2004"), "a", "t")
    assert {x.split(": ", 1)[1] for x in ans.not_modelled} == {"Stable Footing", "Rapport"}
    assert not session_only("swm", "swm2004", "Rapport") and session_only("swm", "swm2008", "Rapport")
