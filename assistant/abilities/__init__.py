"""The ability catalogue: every glossary name the assistant knows, and the ones it applies.

- :func:`known` -- every glossary entry of each game (``glossary.yaml``, taken from the
  digests' ability tables, each with its seed citation);
- :data:`MODELLED` -- the abilities the rules engine applies, each a small declarative
  :class:`Effect` (a modifier with its conditions) or a named mechanism handled elsewhere
  (targeting, combined fire, multiple attacks);
- :func:`classify` -- for an ability as a card writes it (``Careful Shot +4``): modelled,
  known by name only, or unknown. Answers list every ability that is not modelled.

>>> classify("swm", "Careful Shot +4").status
'modelled'
>>> classify("swm", "Lightsaber Reflect").status
'known'
>>> classify("swm", "Frobnicate").status
'unknown'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Literal

import yaml

from ..cards import split_ability

GLOSSARY_FILE = Path(__file__).with_name("glossary.yaml")

Role = Literal["attacker", "target"]
#: conditions an :class:`Effect` can require, evaluated on the attack in question
Condition = Literal[
    "target-not-activated", "target-activated", "not-moved", "moved", "target-adjacent", "attacker-adjacent",
    "target-unique", "target-force-user", "attacker-force-user", "target-droid", "target-living",
    "target-nonliving", "ranged", "melee", "no-ally-within-6", "ally-within-6", "own-turn", "opportunity",
]


#: where the assistant applies a modelled ability: ``attack`` (the attack question), ``power``
#: (``attack --power``: Force powers, special attacks, DDM spells) and ``session`` (the game session's
#: checked moves and turns). The catalogue says where, and tests/test_abilities_seed.py exercises
#: every entry in every place it claims.
Place = Literal["attack", "power", "session"]
PLACES: tuple[Place, ...] = ("attack", "power", "session")
POWER: tuple[Place, ...] = ("power",)

#: what an ability changes (glossary.yaml's ``category``): the catalogue's coverage is counted by these
CATEGORIES = ("attack", "movement", "power", "commander", "squad", "other")


@dataclass(frozen=True)
class KnownAbility:
    name: str
    game: str
    editions: tuple[str, ...]
    source: str
    summary: str
    value: bool = False
    category: str = "other"


@dataclass(frozen=True)
class Effect:
    """A modelled ability: what it adds, to whom, and when.

    ``attack``/``damage``/``defense`` of ``None`` with ``uses_value`` mean "the [#] written
    on the card" (``Careful Shot +4``); ``default_value`` covers editions that print none.
    """

    name: str
    game: str
    role: Role
    rule: str
    editions: tuple[str, ...] = ("swm2004", "swm2008")
    attack: int = 0
    damage: int = 0
    defense: int = 0
    uses_value: tuple[str, ...] = ()  # which of attack/damage/defense take the [#]
    default_value: int | None = None
    when: tuple[Condition, ...] = ()
    crit_low: int | None = None
    crit_multiplier: int | None = None
    crit_immune: bool = False
    #: the [#] value per edition when the 2004 glossary fixes it (CS g.1-14)
    edition_value: dict[str, int] = field(default_factory=dict)
    places: tuple[Place, ...] = ("attack",)


@dataclass(frozen=True)
class Mechanism:
    """A modelled ability applied by a part of the engine rather than as a modifier."""

    name: str
    game: str
    where: str  # targeting, combined fire, multiple attacks, critical hits, commander effects
    rule: str
    editions: tuple[str, ...] = ("swm2004", "swm2008")
    places: tuple[Place, ...] = ("attack",)


SWM = ("swm2004", "swm2008")
S08 = ("swm2008",)

EFFECTS: tuple[Effect, ...] = (
    Effect(
        "Cunning Attack",
        "swm",
        "attacker",
        "PL p.10, p.37; CS g.3",
        attack=4,
        damage=10,
        uses_value=("damage",),
        default_value=10,
        when=("target-not-activated",),
    ),
    Effect(
        "Opportunist", "swm", "attacker", "PL p.56", attack=4, damage=10, uses_value=("damage",), default_value=10, when=("target-activated",)
    ),
    Effect("Advantageous Attack", "swm", "attacker", "PL p.32; CS g.1", damage=10, when=("target-not-activated",)),
    Effect(
        "Careful Shot",
        "swm",
        "attacker",
        "PL p.35; CS g.2",
        uses_value=("attack",),
        default_value=4,
        when=("not-moved", "own-turn"),
        edition_value={"swm2004": 4},
    ),
    Effect("Deadeye", "swm", "attacker", "PL p.38; CS g.3", damage=10, when=("not-moved", "own-turn")),
    Effect("Momentum", "swm", "attacker", "PL p.25, p.55; CS r.9, g.9", attack=4, damage=10, when=("moved", "target-adjacent", "own-turn")),
    Effect(
        "Mighty Swing",
        "swm",
        "attacker",
        "PL p.54; CS g.9",
        uses_value=("damage",),
        default_value=10,
        when=("not-moved", "target-adjacent", "own-turn"),
        edition_value={"swm2004": 10},
    ),
    Effect(
        "Bounty Hunter", "swm", "attacker", "PL p.35; CS g.2", uses_value=("attack",), default_value=4, when=("target-unique",), edition_value={"swm2004": 4}
    ),
    Effect("Jedi Hunter", "swm", "attacker", "PL p.50; CS g.8", attack=4, damage=10, when=("target-force-user",)),
    Effect("Lightsaber", "swm", "attacker", "PL p.51; CS g.8", damage=10, when=("target-adjacent",)),
    Effect(
        "Electric Shock",
        "swm",
        "attacker",
        "PL p.41; CS g.4",
        uses_value=("damage",),
        default_value=10,
        when=("target-adjacent", "target-droid"),
        edition_value={"swm2004": 10},
    ),
    # nonliving: a Droid, a Mounted Weapon, and a Cyborg, living too but struck as a Droid (PL p.37, p.50, p.53; R270); the 2004 text names Droids
    Effect("Ion Gun", "swm", "attacker", "PL p.50, p.53", editions=S08, uses_value=("damage",), default_value=20, when=("target-nonliving",)),
    Effect(
        "Ion Gun",
        "swm",
        "attacker",
        "CS g.8 (enemy Droids)",
        editions=("swm2004",),
        uses_value=("damage",),
        default_value=20,
        when=("target-droid",),
        edition_value={"swm2004": 20},
    ),
    Effect("Quick Reactions", "swm", "attacker", "PL p.58; CS g.10", attack=6, when=("opportunity",)),
    Effect("Loner", "swm", "attacker", "PL p.53; CS g.9", attack=4, when=("no-ally-within-6",)),
    Effect("Gregarious", "swm", "attacker", "PL p.48", attack=4, when=("ally-within-6",)),
    Effect("Lightsaber Duelist", "swm", "target", "PL p.10, p.52; CS g.8", defense=4, when=("attacker-adjacent", "attacker-force-user")),
    Effect("Lightsaber Resistance", "swm", "target", "PL p.52; CS g.8", defense=2, when=("attacker-adjacent", "attacker-force-user")),
    Effect("Deadly Attack", "swm", "attacker", "PL p.38; CS g.3", crit_low=19),
    Effect("Vaapad-Style Fighting", "swm", "attacker", "PL p.66; CS g.14", crit_low=18),
    Effect("Vicious Attack", "swm", "attacker", "PL p.66; CS g.14", crit_multiplier=3),
    Effect("Droid", "swm", "target", "PL p.10, p.21, p.41; CS r.7, g.4 (no double damage from critical hits)", crit_immune=True),
    Effect("Resilient", "swm", "target", "PL p.59", editions=S08, crit_immune=True),
    # D&D Miniatures
    Effect("Deflect Arrows", "ddm", "target", "glossary 'Deflect Arrows'", editions=("ddm2005",), defense=4, when=("ranged",)),
)

MECHANISMS: tuple[Mechanism, ...] = (
    Mechanism("Melee Attack", "swm", "targeting and combined fire", "PL p.23, p.54; CS r.9, g.9"),
    Mechanism("Sniper", "swm", "targeting (cover ignores characters)", "PL p.62; CS g.12"),
    Mechanism("Mettle", "swm", "the odds with a Force reroll (+4 on the reroll)", "PL p.10, p.54"),
    Mechanism("Karmic Mettle", "swm", "the odds with a Force reroll (+4 on the reroll; 10 damage to itself if it still misses)", "PL p.50-51"),
    Mechanism("Accurate Shot", "swm", "targeting (a covered enemy need not be the nearest)", "PL p.32; CS g.1"),
    Mechanism("Stealth", "swm", "targeting (with cover, not nearest beyond 6 squares)", "PL p.64; CS g.13"),
    Mechanism("Advantageous Cover", "swm", "cover bonus +8", "PL p.32; CS g.1"),
    Mechanism("Synchronized Fire", "swm", "combined fire (+6 from Droid helpers)", "PL p.10, p.64; CS g.13"),
    Mechanism("Double Attack", "swm", "multiple attacks (did not move)", "PL p.10, p.40; CS g.4"),
    Mechanism("Triple Attack", "swm", "multiple attacks (did not move)", "PL p.65; CS g.13"),
    Mechanism("Quadruple Attack", "swm", "multiple attacks (did not move)", "PL p.57; CS g.10"),
    Mechanism("Twin Attack", "swm", "multiple attacks (same target)", "PL p.65"),
    Mechanism("Cyborg", "swm", "critical hits and who is living (counts as Droid and living, takes critical damage; R270)", "PL p.37, p.53; CS g.3"),
    Mechanism("Savage", "swm", "commander effects do not affect it", "PL p.60; CS g.11"),
    Mechanism("Booming Voice", "swm", "commander effects (an ally's effect limited to 6 squares reaches any distance)", "PL p.35", editions=S08),
    Mechanism("Invisibility", "swm", "targeting (only an adjacent attacker; never nearest)", "PL p.50", editions=S08),
    Mechanism("Cloaked", "swm", "targeting (with cover: no non-adjacent attacker, never nearest)", "PL p.36"),
    Mechanism("Diplomat", "swm", "targeting (not while a non-Diplomat enemy is in sight)", "PL p.39"),
    Mechanism("Melee Reach", "swm", "targeting (characters within [#] count as adjacent on its turn)", "PL p.54"),
    Mechanism("Crowd Fighting", "swm", "attack roll (+2 per adjacent character other than the target)", "PL p.37; CS g.3"),
    Mechanism("Swarm", "swm", "attack roll (+1 per other same-name ally adjacent to the target)", "PL p.64; CS g.13"),
    Mechanism("Traps", "swm", "defense (-4 to enemies within 6 of this character)", "PL p.65", editions=S08),
    Mechanism("Doctrine of Fear", "swm", "attack roll (-4 to enemies within 6 of this character)", "PL p.40", editions=S08),
    Mechanism("Ataru Style", "swm", "attack roll (+4 if exactly one enemy within 6; not against a Makashi Style Master)", "PL p.34, p.53", editions=S08),
    Mechanism("Fire Control", "swm", "attack roll (+4 to non-Unique allied Droids)", "PL p.42; CS g.5"),
    Mechanism("Extra Attack", "swm", "multiple attacks (one more in its own turn; none after a move)", "PL p.42", editions=S08),
    Mechanism("Heavy Weapon", "swm", "legality (no attack after a move; an attack of opportunity stands)", "PL p.49; CS g.7"),
    Mechanism("Unique", "swm", "who is Unique (Bounty Hunter, Fire Control, Impulsive Shot): the card's flag or this special ability", "PL p.65-66; CS g.14"),
    # between the hit and the damage (rules/saves.py)
    Mechanism("Parry", "swm", "damage (melee hit: save 11 avoids it)", "PL p.56"),
    Mechanism("Soresu Style Master", "swm", "damage (melee hit: save 11 avoids it; not against Makashi)", "PL p.53, p.62", editions=S08),
    Mechanism("Makashi Style Master", "swm", "damage (melee hit: save 11 avoids it); Ataru and Soresu do not work against it", "PL p.53"),
    Mechanism("Evade", "swm", "damage (hit by a non-adjacent enemy: save 11 avoids it)", "PL p.42; CS g.5"),
    Mechanism("Lightsaber Block", "swm", "damage (Force 1, melee hit: save 11 avoids it)", "PL p.52; CS g.8"),
    Mechanism("Lightsaber Deflect", "swm", "damage (Force 1, nonmelee hit: save 11 avoids it)", "PL p.52; CS g.8"),
    Mechanism("Absorb Energy", "swm", "damage (Force 2, nonmelee hit: save 11 avoids it)", "PL p.32", editions=S08),
    Mechanism("Illusion", "swm", "damage (Force 1: no damage unless the attacker saves 11)", "PL p.49", editions=S08),
    Mechanism("Molecular Shielding", "swm", "damage (non-adjacent attacker: no damage unless it saves 11)", "PL p.55", editions=S08),
    Mechanism("Energy Shields", "swm", "damage (attacker adjacent to neither: no damage unless it saves 11)", "PL p.42", editions=S08),
    Mechanism("Damage Reduction", "swm", "damage (reduced by [#]; not by adjacent lightsabers)", "PL p.38"),
    Mechanism("Dark Armor", "swm", "damage (save 11: 10 less)", "PL p.38"),
    Mechanism("Vonduun Crab Armor", "swm", "damage (save [#]: 10 less)", "PL p.66"),
    Mechanism("Shields", "swm", "damage ([#] saves of 11, 10 less each)", "PL p.61; CS g.12"),
    Mechanism("Penetration", "swm", "damage (the target's Damage Reduction less [#])", "PL p.56-57"),
    Mechanism("Demolish", "swm", "damage (an adjacent target's Damage Reduction ignored)", "PL p.39"),
    Mechanism("Poison", "swm", "damage (+10 against the living, save 11 avoids it)", "PL p.57"),
    Mechanism("Rakghoul Disease", "swm", "damage (+10 against the living, save 11 avoids it)", "PL p.58"),
    Mechanism("Poisoned Blade", "swm", "damage (+20 against an adjacent living enemy, save 11 avoids it)", "PL p.57"),
    Mechanism("Overwhelming Force", "swm", "damage (with 1 Force point the defender's saves and reductions do not apply)", "PL p.56", editions=S08),
    Mechanism("Force Immunity", "swm", "Force rerolls and Force-costed answers refused", "PL p.44"),
    Mechanism("Ysalamiri", "swm", "no Force spent within 6 squares", "PL p.67", editions=S08),
    Mechanism("Disintegration", "swm", "critical hits (defeat on a natural 20; +40 against Large and bigger)", "PL p.39-40; CS g.4"),
    Mechanism("Execute Order 66", "swm", "targeting (not by characters with Order 66)", "PL p.42; CS g.5"),
    Mechanism("Order 66", "swm", "targeting (no attack on a character with Execute Order 66; Clone Trooper names count, R230)", "PL p.56; CS g.10"),
    # a special ability that makes the character count as named with the word (R287)
    Mechanism("Pilot", "swm", "commander effects (counts as a Pilot: with the word in its name)", "PL p.57"),
    Mechanism("Trooper", "swm", "commander effects (counts as a Trooper, its name's words joined to it: Sith Guard as Sith Trooper)", "PL p.65",
              editions=S08),
    Mechanism("Wookiee", "swm", "commander effects (counts as a Wookiee; Chewbacca and Tarfful too)", "PL p.67", editions=S08),
    Mechanism("Avoid Defeat", "swm", "the chance to defeat (two saves of 11: kept in play with 10 Hit Points 1 time in 4; R290)", "PL p.34; CS g.2"),
    Mechanism("Emergency Life Support", "swm", "the chance to defeat (adjacent non-Droid allies have Avoid Defeat; R290)", "CS g.5",
              editions=("swm2004",)),
    Mechanism("Frozen in Carbonite", "swm", "targeting (never a legal target)", "PL p.47", editions=S08),
    Mechanism("Fragile", "swm", "legality (no attack below [#] Hit Points)", "PL p.47", editions=S08),
    Mechanism("Bombad Gungan", "swm", "the chance to hit (a save of 11 before the roll sends the attack elsewhere)", "PL p.35", editions=S08),
    Mechanism("Pheromones", "swm", "the chance to hit (a living attacker within 6 saves 11 or the attack is negated)", "PL p.57", editions=S08),
    Mechanism("Squad Assault", "swm", "attack roll (+4 with 3 same-name allies within 6)", "PL p.63"),
    Mechanism("Double Claw Attack", "swm", "multiple attacks (two against adjacent enemies, did not move)", "PL p.40-41; CS g.4"),
    Mechanism("Rend", "swm", "damage (+[#] on the second hit on the same adjacent enemy)", "PL p.59; CS g.11"),
    Mechanism("Flurry Attack", "swm", "multiple attacks (one more on each critical hit)", "PL p.43; CS g.5"),
    Mechanism("Synergy", "swm", "attack roll (+4 while the named ally is within 6)", "PL p.64"),
    Mechanism("Gang", "swm", "attack roll (+[#] per named ally within 6 of the target)", "PL p.48"),
    Mechanism("Protective", "swm", "damage (+[#] while the named ally is wounded and within 6)", "PL p.57"),
    Mechanism("Spotter", "swm", "combined fire (+[#] damage from a helper within 6 of the target)", "PL p.63; CS g.12"),
    Mechanism("Flux Density", "swm", "combined fire (+10 damage when a Droid helps)", "PL p.43"),
    Mechanism("Mounted Weapon", "swm", "combined fire (only Mounted Weapon allies or an adjacent Gunner)", "PL p.55; CS g.9"),
    Mechanism("Gunner", "swm", "combined fire (may help an adjacent Mounted Weapon ally)", "PL p.48"),
    Mechanism("Bodyguard", "swm", "damage (an adjacent ally may take it instead: said in the answer)", "PL p.35; CS g.2"),
    Mechanism("Emperor's Bodyguard", "swm", "damage (may take the Emperor's instead: said in the answer)", "PL p.35, p.42, p.67; CS g.5"),
    Mechanism("Xizor's Bodyguard", "swm", "damage (may take Xizor's instead: said in the answer)", "PL p.35, p.67"),
    Mechanism("Draw Fire", "swm", "targeting (the attacker may be made to attack it instead: said in the answer)", "PL p.41; CS g.4"),
    Mechanism("Droid Defender", "swm", "targeting (for an allied Droid: said in the answer)", "PL p.41", editions=S08),
    Mechanism("Ambush", "swm", "multiple attacks (after moving, against one enemy not yet activated)", "PL p.33"),
    Mechanism("Cleave", "swm", "multiple attacks (one more after a defeat: said with its chance)", "PL p.36; CS g.2"),
    Mechanism("Rolling Cleave", "swm", "multiple attacks (move 1 and one more after a defeat: said with its chance)", "PL p.59-60; CS g.11"),
    Mechanism("Impulsive Shot", "swm", "multiple attacks (one more when a Unique ally is defeated: said with its chance)", "PL p.50; CS g.7"),
    Mechanism("Impulsive Sweep", "swm", "multiple attacks (each adjacent enemy when a Unique ally is defeated: said)", "PL p.50; CS g.7"),
    Mechanism("Djem So Style", "swm", "an immediate attack back after a melee hit and a save of 11 (said with its chance)", "PL p.40"),
    # Force powers at the attack: said with the numbers they give, the Force point being the player's choice (R228)
    Mechanism("Sith Rage", "swm", "damage (1 Force point: +10 on every attack this turn, said with the expected damage)", "PL p.62; CS g.12"),
    Mechanism("Lightsaber Precision", "swm", "damage (1 Force point: +10 on the next attack, said with the expected damage)", "PL p.52; CS g.8"),
    Mechanism("Lightsaber Riposte", "swm", "an immediate attack back after a melee hit (1 Force point: said with its chance)", "PL p.52; CS g.8-9"),
    Mechanism("Force Alter", "swm", "the chance to hit (1 Force point: an enemy within 6 rerolls a hit; said with the chance)", "PL p.43"),
    Mechanism("Cortosis Gauntlet", "swm", "damage (-20 to a lightsaber enemy after a Block save of [#]: said)", "PL p.37"),
    Mechanism("Splash", "swm", "damage ([#] to each character next to the target, save 11: said)", "PL p.63"),
    Mechanism("Flanking Support", "swm", "defense (-4 for the round after a combined-fire hit: said)", "PL p.43", editions=S08),
    Mechanism("Programmed Target", "swm", "attack roll (+4 against the enemy chosen after setup)", "PL p.57", editions=S08),
    Mechanism("Shaper", "swm", "damage (+[#] to the printed Damage of Yuuzhan Vong allies within 6)", "PL p.61"),
    Mechanism("Charging Assault", "swm", "damage (+[#] on the attack after a move of up to double speed)", "PL p.36"),
    Mechanism("Shockstaff", "swm", "damage (+[#] against an adjacent nonliving enemy; stuns a living one)", "PL p.61"),
    Mechanism("Electrostaff", "swm", "damage (+[#] against an adjacent nonliving enemy; stuns a living one)", "PL p.61"),
    Mechanism("Force Sense", "swm", "targeting (1 Force point: enemies lose Stealth for the round; said where it makes the target legal; R273)",
              "PL p.46"),
    Mechanism("Jolt", "swm", "on a hit: stunned unless a save of 11; Large and bigger ignore it (said; R410)", "PL p.50"),
    Mechanism("Betrayal", "swm", "a natural 1 against it turns the attacker (said with its chance, in each rulebook's words; R410)",
              "PL p.34; CS g.2"),
    Mechanism("Self-Destruct", "swm", "on its defeat: [#] to each character next to it (said with the chance; R410)", "PL p.60; CS g.11"),
    Mechanism("Paralysis", "swm", "on a hit on a living enemy: stunned unless a save of 11 (said; R273)", "PL p.56"),
    Mechanism("Galloping Attack", "swm", "attack roll (+4 on attacks made while moving: said)", "PL p.48; CS g.7"),
    Mechanism("It's a Trap!", "swm", "targeting (enemies with Stealth within 6 have none)", "PL p.50"),
    Mechanism(
        "Melee Sneak Attack",
        "ddm",
        "damage (+[#] in melee when flanking, or the defender is stunned, helpless or cannot see it)",
        "glossary 'Melee Sneak Attack'",
        editions=("ddm2005",),
    ),
    Mechanism(
        "Ranged Sneak Attack",
        "ddm",
        "damage (+[#] within 6 when the defender is stunned, helpless or cannot see it)",
        "glossary 'Ranged Sneak Attack'",
        editions=("ddm2005",),
    ),
    Mechanism("Backstab", "ddm", "damage (+[#] with any sneak attack)", "glossary 'Backstab'", editions=("ddm2005",)),
    Mechanism("Smite", "ddm", "damage (+[#] in melee against the kind named)", "glossary 'Smite CREATURE'", editions=("ddm2005",)),
    Mechanism("Powerful Charge", "ddm", "damage (+[#] in melee when charging)", "glossary 'Powerful Charge'", editions=("ddm2005",)),
    Mechanism("Set against Charge", "ddm", "damage ([#] to a charging enemy before its attack: said)", "glossary 'Set against Charge'", editions=("ddm2005",)),
    Mechanism("Phalanx Fighting", "ddm", "AC (+2 next to an ally with it)", "glossary 'Phalanx Fighting'", editions=("ddm2005",)),
    Mechanism("Stench", "ddm", "attack and AC (-2 to adjacent living creatures without it)", "glossary 'Stench'", editions=("ddm2005",)),
    Mechanism("Rend", "ddm", "damage (+[#] on the second hit on one enemy)", "glossary 'Rend'", editions=("ddm2005",)),
    Mechanism("Cleave", "ddm", "multiple attacks (one more melee attack after a kill: said with its chance)", "glossary 'Cleave'", editions=("ddm2005",)),
    Mechanism("Blind-Fight", "ddm", "the chance to hit (two rolls against Conceal in melee)", "glossary 'Blind-Fight'", editions=("ddm2005",)),
    Mechanism("Poison", "ddm", "on a hit: the save against its DC, or immunity (said with the chance)", "glossary 'Poison'", editions=("ddm2005",)),
    Mechanism("Paralysis", "ddm", "on a hit: the save against its DC, or immunity (said with the chance)", "glossary 'Paralysis'", editions=("ddm2005",)),
    Mechanism(
        "Stunning Attack",
        "ddm",
        "on a melee hit: the save against its DC, or immunity (said with the chance)",
        "glossary 'Stunning Attack'",
        editions=("ddm2005",),
    ),
    Mechanism("Stun", "ddm", "on a hit: the save against its DC, or immunity; a stunned target -2 AC", "glossary 'Stun'", editions=("ddm2005",)),
    Mechanism(
        "Constitution Drain", "ddm", "on a melee hit on the living: the save against its DC (said)", "glossary 'Constitution Drain'", editions=("ddm2005",)
    ),
    Mechanism("Level Drain", "ddm", "on a melee hit on the living: -1 attack and saves, +5 Hit Points (said)", "glossary 'Level Drain'", editions=("ddm2005",)),
    Mechanism("Life Drain", "ddm", "on a hit on the living: +[#] Hit Points (said)", "glossary 'Life Drain'", editions=("ddm2005",)),
    Mechanism("Feed", "ddm", "a kill of a Humanoid: +[#] Hit Points (said with the chance)", "glossary 'Feed'", editions=("ddm2005",)),
    Mechanism("Death Attack", "ddm", "with a sneak attack: the save against its DC or death (said)", "glossary 'Death Attack'", editions=("ddm2005",)),
    Mechanism("Death Strike", "ddm", "at 0 Hit Points: one melee attack at once (said with the chance)", "glossary 'Death Strike'", editions=("ddm2005",)),
    Mechanism(
        "Death Burst", "ddm", "at 0 Hit Points: damage to every creature in the burst (said with the chance)", "glossary 'Death Burst'", editions=("ddm2005",)
    ),
    Mechanism(
        "Double Damage from ENERGY", "ddm", "damage (the base damage of that energy doubled)", "glossary 'Double Damage from ENERGY'", editions=("ddm2005",)
    ),
    Mechanism(
        "Immune", "ddm", "damage and effects (the named energy, effect or critical hits do not affect it)", "glossary 'Immune EFFECT'", editions=("ddm2005",)
    ),
    Mechanism(
        "Living Construct",
        "ddm",
        "immunities (level drain, paralysis, poison, sleep only; critical hits affect it)",
        "glossary 'Living Construct'",
        editions=("ddm2005",),
    ),
    Mechanism("Dragon", "ddm", "immunities (paralysis, sleep)", "glossary 'Dragon'", editions=("ddm2005",)),
    Mechanism("Elf", "ddm", "immunities (sleep)", "glossary 'Elf'", editions=("ddm2005",)),
    Mechanism("Vermin", "ddm", "immunities (confusion, domination, incite, sleep)", "glossary 'Vermin'", editions=("ddm2005",)),
    Mechanism(
        "Helpless", "ddm", "a helpless target: melee hits without a roll for double damage; ranged +4", "§ Modyfikatory ataku p.17", editions=("ddm2005",)
    ),
    Mechanism(
        "Arrow Catching Shield",
        "ddm",
        "targeting (ranged attacks on adjacent allies go to it: said)",
        "glossary 'Arrow Catching Shield'",
        editions=("ddm2005",),
    ),
    Mechanism("Hurling Charge", "ddm", "a ranged attack before the charge's melee attack (said)", "glossary 'Hurling Charge'", editions=("ddm2005",)),
    Mechanism("Mounted Melee Attack", "ddm", "one melee attack during a double move (said)", "glossary 'Mounted Melee Attack'", editions=("ddm2005",)),
    Mechanism("Pushback", "ddm", "a push of 1 square after damaging a smaller creature (said)", "glossary 'Pushback'", editions=("ddm2005",)),
    Mechanism("Whirlwind Attack", "ddm", "multiple attacks (one against each enemy in reach: said)", "glossary 'Whirlwind Attack'", editions=("ddm2005",)),
    Mechanism(
        "Simultaneous Attack", "ddm", "multiple attacks (the card's combination when not moving: said)", "glossary 'Simultaneous Attack'", editions=("ddm2005",)
    ),
    Mechanism("No Reach", "ddm", "no attacks of opportunity (attack --opportunity and the game session refuse them)", "glossary 'No Reach'",
              editions=("ddm2005",), places=("attack", "session")),
    Mechanism("Slow Attack", "ddm", "legality (no move and attack in one turn)", "glossary 'Slow Attack'", editions=("ddm2005",)),
    Mechanism("Mobility", "ddm", "AC (+4 against attacks of opportunity)", "glossary 'Mobility'", editions=("ddm2005",)),
    # Force powers that hurt: attack --power and game power (rules/powers.py)
    Mechanism("Force Lightning", "swm", "a power (attack --power): damage to the target and two next to it", "PL p.45; CS g.6", places=POWER),
    Mechanism("Force Lighting", "swm", "a power (attack --power): the 2004 spelling of Force Lightning 30", "CS g.6", editions=("swm2004",), places=POWER),
    Mechanism("Sith Lightning", "swm", "a power (attack --power): damage to one enemy within 6", "PL p.62; CS g.12", places=POWER),
    Mechanism("Sith Lighting", "swm", "a power (attack --power): the 2004 spelling of Sith Lightning 30", "CS g.12", editions=("swm2004",), places=POWER),
    Mechanism(
        "Sith Grip", "swm", "a power (attack --power): damage to every enemy in sight that is a legal target (2004: one)", "PL p.61; CS g.12", places=POWER,
    ),
    Mechanism("Sith Hatred", "swm", "a power (attack --power): 10 damage to every enemy within 2", "PL p.61", editions=S08, places=POWER),
    Mechanism("Force Storm", "swm", "a power (attack --power): damage to every character next to the user", "PL p.46; CS g.6", places=POWER),
    Mechanism("Force Absorb", "swm", "a power's answer: an adjacent enemy may cancel a Force power (said with its cost; R410)", "PL p.43; CS g.5",
              places=POWER),
    Mechanism("Force Defense", "swm", "a power's answer: an enemy within 6 may cancel a Force power (said with its cost; R410)", "PL p.44; CS g.5",
              places=POWER),
    Mechanism("Force Burst", "swm", "a power (attack --power): 10 damage to every character within 6, no sight needed", "PL p.43; CS g.5", places=POWER),
    Mechanism("Force Repulse", "swm", "a power (attack --power): damage, push and stun around the user", "PL p.46", places=POWER),
    Mechanism(
        "Unleash the Force", "swm", "a power (attack --power): damage to every other character within 6, a save halves it", "PL p.66",
        editions=S08, places=POWER,
    ),
    Mechanism(
        "Drain Life", "swm", "a power (attack --power): damage to a living enemy, healing the user; a save negates both", "PL p.41", editions=S08, places=POWER,
    ),
    Mechanism("Sith Hunger", "swm", "a power (attack --power): damage to a living enemy, healing the user", "PL p.61", editions=S08, places=POWER),
    Mechanism("Lightsaber Sweep", "swm", "a power (attack --power): one attack against each adjacent enemy, with their odds", "PL p.52; CS g.9", places=POWER),
    Mechanism("Lightsaber Assault", "swm", "a power (attack --power): two attacks against adjacent enemies, with their odds", "PL p.52; CS g.8", places=POWER),
    Mechanism(
        "Whirlwind Attack", "swm", "a power (attack --power): two attacks against each adjacent enemy, with their odds", "PL p.66-67; CS g.14", places=POWER,
    ),
    Mechanism(
        "Atlatl", "swm", "a special attack (attack --power): the target and all next to it, each saves on 11; nonliving stunned", "PL p.34", editions=S08,
        places=POWER
    ),
    Mechanism("Cesta", "swm", "a special attack (attack --power): as Atlatl, in line of sight", "PL p.35", editions=S08, places=POWER),
    Mechanism("Plaeryin Bol", "swm", "a special attack (attack --power): 40 damage to an adjacent enemy, save 11", "PL p.57", editions=S08, places=POWER),
    Mechanism(
        "Homicidal Surgery", "swm", "a special attack (attack --power): 10 damage to an adjacent living character", "PL p.49", editions=S08, places=POWER,
    ),
    Mechanism(
        "Jedi Mind Trick", "swm", "a power (attack --power): a living character within 2 stunned unless a save of 11", "PL p.50", places=POWER,
    ),
    Mechanism(
        "Force Stun", "swm", "a power (attack --power): a living character within 6 counted as activated unless a save of 11", "PL p.47",
        places=POWER,
    ),
    Mechanism(
        "Shockwave", "swm", "a power (attack --power): every character within 6 stunned (2004: counted as activated) unless a save of 11", "PL p.61; CS g.12",
        places=POWER
    ),
    Mechanism("Sith Sorcery", "swm", "a power (attack --power): every enemy within 6 stunned unless a save of 11", "PL p.62", places=POWER),
    Mechanism(
        "Sonic Stunner",
        "swm",
        "a special attack (attack --power): the living target and living characters next to it stunned, save 11",
        "PL p.62",
        editions=S08,
        places=POWER
    ),
    Mechanism("Net Gun", "swm", "a special attack (attack --power): the target and all next to it stunned, save 11", "PL p.55", editions=S08, places=POWER),
    Mechanism(
        "Harpoon Gun", "swm", "a special attack (attack --power): an enemy with Mounted Weapon cannot move, save 11", "PL p.48", editions=S08, places=POWER,
    ),
    Mechanism(
        "Demolition Charge",
        "swm",
        "a special attack (attack --power): an adjacent Huge enemy (or Large with Mounted Weapon) defeated, save 6",
        "PL p.39",
        editions=S08,
        places=POWER
    ),
    Mechanism("Black Sun", "swm", "attack --power: Grenades 10 in a squad with a Vigo or Xizor (R288)", "PL p.34", editions=S08, places=POWER),
    Mechanism("Grenades", "swm", "a special attack (attack --power): the target and all next to it, each saves on 11", "PL p.48; CS g.7", places=POWER),
    Mechanism("Flamethrower", "swm", "a special attack (attack --power): the target and all next to it", "PL p.42; CS g.5", places=POWER),
    Mechanism("Missiles", "swm", "a special attack (attack --power): the target and all next to it, each saves on 11", "PL p.54", places=POWER),
    Mechanism("Spit Poison", "swm", "a special attack (attack --power): a living enemy within 6, save 11", "PL p.63", editions=S08, places=POWER),
    Mechanism("Razorbug", "swm", "a special attack (attack --power): 10 damage to an enemy in sight, save 11", "PL p.58", places=POWER),
    Mechanism("Thud Bug", "swm", "a special attack (attack --power): 10 damage and a stun, save 11", "PL p.64", places=POWER),
    Mechanism("Virulent Poison Dart", "swm", "a special attack (attack --power): 40 damage within 6, save 16", "PL p.66", editions=S08, places=POWER),
    Mechanism("Kouhun Infestation", "swm", "a special attack (attack --power): 60 damage within 12, no sight needed, save 11", "PL p.51; CS g.8", places=POWER),
    Mechanism("Force Grip", "swm", "a power (attack --power): damage, the targeting rules", "PL p.44; CS g.5-6", places=POWER),
    Mechanism("Force Strike", "swm", "a power (attack --power): damage to a Droid or Mounted Weapon", "PL p.47; CS g.6", places=POWER),
    Mechanism("Force Thrust", "swm", "a power (attack --power): damage, a save of 11 halves it", "PL p.47; CS g.6", places=POWER),
    Mechanism("Force Push", "swm", "a power (attack --power): damage and a push", "PL p.45-46", places=POWER),
    Mechanism("Lightsaber Throw", "swm", "a power (attack --power): attacks within 6 (5: in sight, the target and all next to it), counted as ranged",
              "PL p.52-53", places=POWER),
    Mechanism(
        "Slow Effect",
        "ddm",
        "multiple attacks (at most one for an adjacent enemy that fails its save: said with the chance)",
        "glossary 'Slow Effect'",
        editions=("ddm2005",),
    ),
    Mechanism("Hologram", "swm", "targeting (never adjacent to anyone, never the nearest enemy, no commander effects)", "PL p.49", editions=S08),
    Mechanism("Light Spirit", "swm", "targeting (never a legal target, never attacks, gives no cover, no commander effects)", "PL p.51", editions=S08),
    Mechanism("Gallop Attack", "swm", "attack roll (+4 on attacks made while moving: said)", "CS g.7", editions=("swm2004",)),
    Mechanism("Strafe Attack", "swm", "attacks made while flying over enemies (said)", "PL p.64; CS g.13"),
    Mechanism(
        "Breath Weapon",
        "ddm",
        "a power (attack --power, as the card prints it): who may be chosen, the save for half, energy immunity and Resist",
        "glossary 'Breath Weapon'",
        editions=("ddm2005",),
        places=POWER
    ),
    Mechanism("Pounce", "ddm", "multiple attacks (all its melee attacks when charging, each at +2)", "glossary 'Pounce'", editions=("ddm2005",)),
    Mechanism("Leap", "ddm", "one melee attack at +[#] instead of its attacks (said with the roll needed)", "glossary 'Leap'", editions=("ddm2005",)),
    Mechanism("Ghost Step", "ddm", "movement (Invisible: only Blindsight makes attacks of opportunity)", "glossary 'Ghost Step'", editions=("ddm2005",),
              places=("session",)),
    Mechanism("Conceal", "ddm", "the chance to hit (after a hit, d20 >= N or it misses)", "glossary 'Conceal'", editions=("ddm2005",)),
    Mechanism("Incorporeal", "ddm", "the chance to hit (after a hit, d20 >= 11 or no damage)", "glossary 'Incorporeal'", editions=("ddm2005",)),
    Mechanism("DR", "ddm", "damage (melee and ranged base damage reduced; energy and magic not)", "glossary 'DR'", editions=("ddm2005",)),
    Mechanism("Blindsight", "ddm", "Conceal (beaten automatically), Hide and Invisible (seen)", "glossary 'Blindsight'", editions=("ddm2005",)),
    Mechanism("Precise Shot", "ddm", "ranged attack into melee (no +4 AC)", "glossary 'Precise Shot'", editions=("ddm2005",)),
    Mechanism("Construct", "ddm", "critical hits (immune)", "glossary 'Construct'", editions=("ddm2005",)),
    Mechanism("Undead", "ddm", "critical hits (immune)", "glossary 'Undead'", editions=("ddm2005",)),
    Mechanism("Ooze", "ddm", "critical hits and flanking (immune)", "glossary 'Ooze'", editions=("ddm2005",)),
    Mechanism("Elemental", "ddm", "critical hits and flanking (immune)", "glossary 'Elemental'", editions=("ddm2005",)),
    Mechanism("Plant", "ddm", "critical hits (immune)", "glossary 'Plant'", editions=("ddm2005",)),
    Mechanism(
        "Melee Reach", "ddm", "targeting (melee against enemies within [#]; ranged rules for sight and cover)", "glossary 'Melee Reach'", editions=("ddm2005",)
    ),
    Mechanism(
        "Hide", "ddm", "targeting (invisible to a non-adjacent enemy when covered by something not a creature)", "glossary 'Hide'", editions=("ddm2005",)
    ),
    Mechanism(
        "Invisible", "ddm", "targeting (no ranged attack by those who cannot see it); Conceal 11 against, +2 for, attacks it is unseen in",
        "glossary 'Invisible'", editions=("ddm2005",)
    ),
    # what a spell's target resists (rules/ddm_spells.py): attack --power answers it
    Mechanism("Spell Resistance", "ddm", "a spell (attack --power) works on a d20 of 11 or more; SR All: never", "glossary 'Spell Resistance'",
              editions=("ddm2005",), places=POWER),
    Mechanism("Resist", "ddm", "a spell's energy damage (attack --power) reduced by [#]", "glossary 'Resist'", editions=("ddm2005",), places=POWER),
)


@dataclass(frozen=True)
class NoMove:
    """An ability that forbids moving and attacking in the same turn (``kind``: only that attack,
    "melee" or "ranged"). Refused after a move by one rule, :func:`assistant.rules.attack.moved_refusals`,
    like every power that replaces the whole turn (:attr:`assistant.rules.powers.Power.replaces`)."""

    name: str
    game: str
    rule: str
    kind: str | None = None
    editions: tuple[str, ...] = ("swm2004", "swm2008")


DDM = ("ddm2005",)
NO_MOVE: tuple[NoMove, ...] = (
    # "nie może atakować i poruszać się w tej samej turze. Wciąż może wykonywać atak odruchowy"
    NoMove("Heavy Weapon", "swm", "PL p.49; CS g.7"),
    # "Nie może wykonać ataku [wręcz/dystansowego] i ruszyć się w tej samej turze"
    NoMove("Slow Attack", "ddm", "glossary 'Slow Attack'", editions=DDM),
    NoMove("Slow Melee Attack", "ddm", "glossary 'Slow Attack'", kind="melee", editions=DDM),
    NoMove("Slow Ranged Attack", "ddm", "glossary 'Slow Attack'", kind="ranged", editions=DDM),
)


def no_move(game: str, edition: str) -> tuple[NoMove, ...]:
    """The abilities that forbid a move and an attack in one turn, in this edition."""
    return tuple(n for n in NO_MOVE if n.game == game and edition in n.editions)


@cache
def known() -> dict[tuple[str, str], KnownAbility]:
    doc = yaml.safe_load(GLOSSARY_FILE.read_text(encoding="utf-8"))
    return {
        (e["game"], e["name"].lower()): KnownAbility(
            e["name"], e["game"], tuple(e["editions"]), e["source"], e.get("summary", ""), bool(e.get("value")), e.get("category", "other")
        )
        for e in doc["entries"]
    }


@cache
def _modelled() -> dict[tuple[str, str], list[Effect | Mechanism]]:
    out: dict[tuple[str, str], list[Effect | Mechanism]] = {}
    items: tuple[Effect | Mechanism, ...] = (*EFFECTS, *MECHANISMS)
    for item in items:
        out.setdefault((item.game, item.name.lower()), []).append(item)
    return out


@dataclass(frozen=True)
class Classified:
    text: str
    name: str
    value: int | None
    status: Literal["modelled", "known", "unknown"]


def classify(game: str, text: str, edition: str | None = None, places: tuple[Place, ...] = PLACES) -> Classified:
    """Is this ability (as a card writes it) modelled (in one of ``places``), known by name, or unknown?"""
    name, value = split_ability(text)
    key = (game, name.lower())
    if key not in _modelled() and (game, text.strip().lower()) in _modelled():  # a number in the name: "Execute Order 66"
        name, value, key = text.strip(), None, (game, text.strip().lower())
    variable = _variable_name(game, name)
    if variable is not None and key not in known():  # "Smite Evil" is Smite CREATURE
        key = (game, variable.lower())
    items = _modelled().get(key, [])
    if edition is not None:
        items = [i for i in items if edition in i.editions]
    items = [i for i in items if set(i.places) & set(places)]
    if items:
        return Classified(text, name, value, "modelled")
    if key in known() or (game, text.strip().lower()) in known():
        return Classified(text, name, value, "known")
    return Classified(text, name, value, "unknown")


#: DDM names whose second part is a variable word the card fills in (glossary: "Smite CREATURE",
#: "Immune EFFECT", "Resist ENERGY", "Double Damage from ENERGY")
VARIABLE_NAMES = {"ddm": ("Smite", "Immune", "Resist", "Double Damage from ENERGY")}


#: other spellings of a glossary name ("Slow [Melee/Ranged] Attack")
ALIASES = {("ddm", "slow melee attack"): "Slow Attack", ("ddm", "slow ranged attack"): "Slow Attack"}


def _variable_name(game: str, name: str) -> str | None:
    if (game, name.lower()) in ALIASES:
        return ALIASES[(game, name.lower())]
    for base in VARIABLE_NAMES.get(game, ()):
        stem = base.replace(" ENERGY", "")
        if name.lower().startswith(stem.lower() + " ") or name.lower() == stem.lower():
            return base
    return None


def effects_for(game: str, edition: str, text: str) -> list[tuple[Effect, int | None]]:
    """The modelled effects of an ability as written (with its [#] value), for this edition."""
    name, value = split_ability(text)
    return [(i, value) for i in _modelled().get((game, name.lower()), []) if isinstance(i, Effect) and edition in i.editions]


#: card flags a card may also write as a special ability: the rulebooks call "Unique" a special
#: ability (PL p.65-66 "Unique – Unikalny"; CS g.14 "speciální schopnost Unique") and the
#: SW_Minis_Drafter data lists it among them; a DDM card prints Flight as a flag or an ability.
#: Either spelling is the same fact, read here and nowhere else (:func:`has_trait`).
CARD_FLAGS: dict[str, str] = {"Unique": "unique", "Flight": "flight"}


def has_trait(card: object | None, abilities: tuple[str, ...] | None, name: str) -> bool:
    """Is the figure ``name`` (a card flag or its special-ability spelling), by either one?

    >>> has_trait(None, ("Unique",), "Unique"), has_trait(None, ("Droid",), "Unique")
    (True, False)
    """
    flag = CARD_FLAGS.get(name)
    return has(abilities, name) or (flag is not None and getattr(card, flag, None) is True)


def has(abilities: tuple[str, ...] | None, name: str) -> bool:
    """Does this ability list include ``name`` (with or without a [#] value)?"""
    return _has(tuple(abilities or ()), name)


@lru_cache(maxsize=8192)  # pure, and asked thousands of times per answer: a shell or server asks again every query
def _has(abilities: tuple[str, ...], name: str) -> bool:
    return any(split_ability(a)[0].lower() == name.lower() or a.strip().lower() == name.lower() for a in abilities or ())


#: special abilities that make a character count as one with the word in its name, for the effects
#: that name it (swm2008 PL p.57 Pilot, p.65 Trooper, p.67 Wookiee); an edition record that defines
#: the name gives it (reading R287 in docs/readings.md)
NAME_TRAITS = ("Pilot", "Trooper", "Wookiee")


def counts_as_named(phrase: str, name: str, abilities: tuple[str, ...] | None, traits: tuple[str, ...],
                    named: tuple[tuple[str, str], ...] = ()) -> bool:
    """Does a character called ``name`` count as one whose name contains ``phrase`` (a commander
    effect's "with trooper in its name")? By its name; or where the phrase's last word is a trait
    the edition gives (``traits``: PL p.57, p.65, p.67) and the character has that special ability,
    or is one of the characters the rulebook names (``named``: "Chewbacca i Tarfful także
    traktowani są jako Wookiee", PL p.67), the phrase's other words being words of its name (PL
    p.65: "Sith Guard z umiejętnością specjalną Trooper traktowany jest ... też jako Sith
    Trooper"). Reading R287.

    >>> counts_as_named("trooper", "Sith Guard", ("Trooper",), ("Trooper",)), counts_as_named("trooper", "Sith Guard", (), ("Trooper",))
    (True, False)
    >>> counts_as_named("Sith Trooper", "Sith Guard", ("Trooper",), ("Trooper",)), counts_as_named("Clone Trooper", "Sith Guard", ("Trooper",), ("Trooper",))
    (True, False)
    >>> counts_as_named("trooper", "Sith Guard", ("Trooper",), ())  # an edition that gives no such ability
    False
    >>> counts_as_named("wookiee", "Chewbacca, Rebel Hero", (), ("Wookiee",), (("chewbacca", "Wookiee"),))
    True
    """
    if phrase.lower() in name.lower():
        return True
    words = phrase.lower().split()
    lowered = name.lower()
    name_words = set(lowered.replace(",", " ").replace("(", " ").replace(")", " ").split())
    for trait in traits:
        if not words or words[-1] != trait.lower():
            continue
        by_name = any(lowered.startswith(n) for n, t in named if t.lower() == trait.lower())
        if (has(abilities, trait) or by_name) and all(w in name_words for w in words[:-1]):
            return True
    return False


@dataclass(frozen=True)
class Grant:
    """A special ability that gives its character another one while a character whose name contains
    one of ``words`` is in its squad, defeated or not yet placed too (reading R288)."""

    name: str
    words: tuple[str, ...]
    grants: str
    rule: str


#: swm2008 PL p.34: "Black Sun – Czarne Słońce: Jeśli postać jest w tej samej drużynie z postacią,
#: której nazwa zawiera Vigo lub Xizor, postać ta otrzymuje umiejętność specjalną Grenades 10"; an
#: edition record that defines the name gives it (reading R288)
GRANTS: tuple[Grant, ...] = (Grant("Black Sun", ("vigo", "xizor"), "Grenades 10", "PL p.34"),)


def granted(abilities: tuple[str, ...] | None, squad_names: tuple[str, ...], defined: tuple[str, ...]) -> list[tuple[Grant, str]]:
    """The abilities a character's ``GRANTS`` give it, each with the squad member whose name
    gives it; ``defined``: the grant names the edition gives (reading R288).

    >>> [(g.grants, who) for g, who in granted(("Black Sun",), ("Rodian Black Sun Vigo",), ("Black Sun",))]
    [('Grenades 10', 'Rodian Black Sun Vigo')]
    >>> granted(("Black Sun",), ("Boba Fett",), ("Black Sun",)), granted(("Black Sun",), ("Xizor",), ())
    ([], [])
    """
    out = []
    for g in GRANTS:
        if g.name in defined and has(abilities, g.name):
            who = next((n for n in squad_names if any(w in n.lower() for w in g.words)), None)
            if who is not None:
                out.append((g, who))
    return out


#: the one character Order 66 lets a squad be built with, whatever the faction (PL p.56; CS g.10)
ORDER_66_LEADER = "emperor palpatine, sith lord"


def has_order_66(order_66_names: tuple[str, ...], name: str | None, abilities: tuple[str, ...] | None) -> bool:
    """Order 66 by the card's special ability, or by a name the edition's rulebook counts
    (``order_66_names``: the edition record's; R230).

    >>> has_order_66(("clone trooper", "arc trooper"), "ARC Trooper Sniper", ()), has_order_66(("clone trooper",), "ARC Trooper Sniper", ())
    (True, False)
    >>> has_order_66(("clone trooper",), "Clone Trooper Sergeant", ()), has_order_66((), "Obi-Wan", ("Order 66",))
    (True, True)
    """
    if has(abilities, "Order 66"):
        return True
    lowered = (name or "").lower()
    return any(word in lowered for word in order_66_names)


#: abilities the game session applies to turns and moves (game/referee.py, game/movement.py), not
#: the attack advisor: a checked move or turn respects them
SESSION_APPLIED = {
    "swm": (
        "Surprise Move",  # game move FIGURE SQUARE --surprise: 6 squares for 1 Force point before any activation (R306)
        "Force Leap",  # game force ID -1 --power "Force Leap": through enemies, no attacks of opportunity this turn (R305)
        "Heavy Weapon",
        "Extra Attack",
        "Twin Attack",
        "Speed",
        "Accelerate",
        "Wheel Form",
        "Wheeled",
        "Mercenary",
        "Emplacement",
        "Avoid Defeat",
        "Tow Cable",
        "Intuition",
        "Desert Skiff",
        "Affinity",  # the squad check at game new (game/squads.py, swm2008 PL p.33, R166)
        "Rapport",  # the squad's cost at game new, of the two versions PL p.58 states (game/squads.py, R201)
        "Force Renewal",  # [#] Force points each time it activates (PL p.46; CS g.6; game/effects.py, R229)
        "Master of the Force",  # Force points spent up to [#] times a turn (PL p.53; CS g.9; game/referee.py spends_allowed)
        "Order 66",  # the squad check at game new: with Emperor Palpatine, Sith Lord whatever the faction (PL p.56; CS g.10; R230)
        "Recon",  # two d20s for initiative, the higher kept, while a Recon figure sees an enemy (PL p.58; CS g.10; game/initiative.py, R253)
        "Never Tell Me The Odds",  # enemy Recon does not work while it is in play (PL p.55; game/initiative.py, R253)
        "Regeneration",  # [#] damage removed at the end of a turn it did not move (PL p.59; CS g.10-11; game/effects.py, R254)
        "Knight Speed",  # 1 Force point: 4 more squares in its turn (PL p.51; CS g.8; game force --power, R251)
        "Master Speed",  # 1 Force point: 6 more squares in its turn (PL p.53; CS g.9; game force --power, R251)
        # in place of its attacks, damage removed from an adjacent character (game heal --by; MENDS, R272)
        "Heal",
        "Force Heal",
        "Repair",
        "Industrial Repair",
        "Master Tactician",  # its side decides who goes first unless it rolls a 1 (PL p.53; game/initiative.py, R273)
        "Anticipation",  # 1 Force point: its side rerolls once the initiative is settled, the second roll kept (PL p.33; CS g.1; game/initiative.py, R289)
    ),
    "ddm": ("Pounce", "Fearless", "No Reach", "Slow Attack", "Sidestep", "Stagger", "Ghost Step", "Burrow", "Trample"),
}


@dataclass(frozen=True)
class Mend:
    """A special action that removes damage in place of the user's attacks (SWM Heal, Force Heal,
    Repair, Industrial Repair), as each edition's rulebook states it: whom it works on, whether the
    user may mend itself, its Force cost, never above the starting Hit Points (reading R272)."""

    name: str
    #: whom it works on: "living" (swm2008: PL p.53 "Living"), "non-droid" (swm2004: "Nemá efekt na
    #: Droid postavy"; a Cyborg counts as both), "droid" (a Droid or Cyborg), "mounted" (Mounted Weapon)
    works_on: Literal["living", "non-droid", "droid", "mounted"]
    rule: str
    editions: tuple[str, ...]
    self_too: bool = False  # "lub samej sobie" / "nebo sama sobě": the user may mend itself
    cost: int = 0  # Force points (Force Heal: 2)
    wounded: bool = False  # "zranionej" / "zraněné": only a wounded character is chosen
    fixed: int | None = None  # the amount the 2004 glossary prints (CS g.7 "Heal 10", "Industrial Repair 10")


S04 = ("swm2004",)
MENDS: tuple[Mend, ...] = (
    # PL p.49: "zmniejsza o [#] punktów obrażeń sąsiadującej żywej postaci lub samej sobie"
    Mend("Heal", "living", "PL p.49", S08, self_too=True),
    # CS g.7: "vyléčit 10 zranění sousedící postavě nebo sama sobě ... Nemá efekt na Droid postavy"
    Mend("Heal", "non-droid", "CS g.7", S04, self_too=True, fixed=10),
    # PL p.44: "(Moc; 2 Punkty Mocy) ... sąsiadującej zranionej żywej postaci lub samej sobie"
    Mend("Force Heal", "living", "PL p.44", S08, self_too=True, cost=2, wounded=True),
    # CS g.6-7: "(Force; 2 Force point) ... sousedící zraněné postavě nebo sama sobě ... Nemá efekt na Droid postavy"
    Mend("Force Heal", "non-droid", "CS g.6-7", S04, self_too=True, cost=2, wounded=True),
    # PL p.59: "zmniejsza podaną liczbę obrażenia sąsiadującemu Droidowi"
    Mend("Repair", "droid", "PL p.59", S08),
    # CS g.11: "sousedící Droid postavě nebo sama sobě ... Nemá efekt na ne-Droid postavy"
    Mend("Repair", "droid", "CS g.11", S04, self_too=True),
    # PL p.50: "sąsiadującej postaci z umiejętnością specjalną Broń Pokładowa"; CS g.7-8 "Industrial Repair 10"
    Mend("Industrial Repair", "mounted", "PL p.50", S08),
    Mend("Industrial Repair", "mounted", "CS g.7-8", S04, fixed=10),
)


def mends(edition: str) -> tuple[Mend, ...]:
    """The damage-removing special actions this edition's rulebook gives."""
    return tuple(m for m in MENDS if edition in m.editions)


#: SWM Force powers that buy more squares of movement in the figure's own turn for 1 Force point, as
#: Move Faster does (reading R251): the squares and where each rulebook states it
SPEED_POWERS: dict[str, tuple[int, str]] = {
    "Knight Speed": (4, "PL p.11, p.51; CS g.8"),
    "Master Speed": (6, "PL p.53; CS g.9"),
}


#: the cards whose Rapport the rulebook says whom it makes cheaper (swm2008 PL p.58): Clone Commander
#: Cody's Clone Troopers, Queen Amidala's non-Unique Republic followers; any other card's Rapport
#: is on its card alone and not applied (game/squads.py, reading R201 in docs/readings.md)
RAPPORT_STATED = frozenset({"clone commander cody", "queen amidala"})


def catalogue_places(game: str) -> dict[str, set[Place]]:
    """Every ability this catalogue knows the assistant applies, by name, with the places it applies
    it (:data:`Place`): the attack question's and ``--power``'s, and the game session's own list
    (:data:`SESSION_APPLIED`). The edition records' turn rules apply more in the session; they sit
    above this catalogue, so :func:`assistant.rules.applied.modelled_places` adds theirs."""
    found: dict[str, set[Place]] = {}
    for (g, _key), items in _modelled().items():
        if g == game:
            for item in items:
                found.setdefault(item.name, set()).update(item.places)
    for name in SESSION_APPLIED.get(game, ()):
        found.setdefault(name, set()).add("session")
    return found


#: the glossary categories no attack question asks about: what a checked move, the turn or the squad
#: does, and a power used on its own (an ability of these the game session applies -- Speed, Rapport,
#: Force Renewal, Knight Speed -- is not "not modelled" in an attack answer, R252)
NOT_ASKED_AT_THE_ATTACK = ("movement", "squad", "other", "power")


@lru_cache(maxsize=4096)
def modelled_names(game: str) -> list[str]:
    return sorted({i.name for (g, _), items in _modelled().items() if g == game for i in items})
