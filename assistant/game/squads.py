"""Squad and warband building checks (``shared/rules/swm.md`` §9.11, ``ddm.md`` §9.1).

Each side of the position is one squad. A check that needs a value the card library does
not know (most printed costs and factions are ``unknown``) is reported as not checked,
never passed or failed by guess.
"""

from __future__ import annotations

from collections.abc import Callable

from ..abilities import ORDER_66_LEADER, RAPPORT_STATED, has_order_66, has_trait
from ..cards import Card, DdmCard, SwmCard
from ..editions import cite_for
from ..i18n import _, side_name
from ..model import Figure, Position
from ..rules.engine import Reason
from ..rules.record import EditionRecord, find_edition
from ..swmdb import faction_name

#: swm2008 PL p.15: the factions each era allows, per side
SWM_ERAS: dict[str, tuple[set[str], set[str]]] = {
    "The Old Republic": ({"Old Republic"}, {"Sith", "Mandalorians"}),
    "Rise of the Empire": ({"Republic"}, {"Separatists", "Empire"}),
    "The Rebellion Era": ({"Rebel Alliance"}, {"Empire"}),
    "The New Republic": ({"New Republic"}, {"Empire"}),
    "The New Jedi Order": ({"New Republic", "Empire"}, {"Yuuzhan Vong"}),
}


#: the factions that fight for each side in some era (the table above; CS r.4: each card's symbol
#: says its side, Fringe joins either); the Empire is on both (with the New Republic in the New Jedi Order)
SIDE_FACTIONS: dict[str, set[str]] = {
    "light": set().union(*(light for light, _dark in SWM_ERAS.values())),
    "dark": set().union(*(dark for _light, dark in SWM_ERAS.values())),
}
#: the rule each SWM edition states it in
_SIDE_RULE = "PL p.14-15; CS r.4"


def person(name: str) -> str:
    """SWM Unique names: versions of one person count as one (PL p.65-66): the part before a comma."""
    return name.split(",")[0].strip().lower()


def check_squads(pos: Position, bought: bool = True) -> tuple[list[Reason], list[str]]:
    """(rule violations, checks that could not be made for lack of card data); ``bought=False``: a
    figure joined mid-game, not bought (reading R204): the points limit, DDM's 8 creatures and a
    creature's 140 points are not checked, the factions and Unique persons are."""
    problems: list[Reason] = []
    unchecked: list[str] = []
    rec = find_edition(pos.edition)
    family = _FAMILY_RULES.get(rec.family)
    if family is None:  # a new family's squads are not checked by another family's rules
        raise NotImplementedError(f"squad-building rules of the {rec.family} family ({rec.name}) are not written")
    points_rule, side_rules = family
    limit = rec.build_points

    def cite(w: str) -> str:
        return cite_for(pos.edition, w)

    for side in pos.sides():
        figs = [f for f in pos.figures if f.side == side]
        cards = [(f, pos.card_of(f)) for f in figs]
        lowered = _rapport(side, cards, unchecked) if rec.defines("Rapport") else {}
        costs = [lowered.get(f.id, c.cost) for f, c in cards if c is not None and c.cost is not None]
        unknown_cost = [f.id for f, c in cards if c is None or c.cost is None]
        total = sum(costs)
        if bought and total > limit and lowered:  # the verdict says the points are Rapport's, and as printed (R218)
            printed = sum(c.cost for _f, c in cards if c is not None and c.cost is not None)
            problems.append(
                Reason(_("{side}'s squad costs {total} points with Rapport ({printed} as printed; {rule}), over the limit of {limit}").format(
                    side=side_name(side), total=total, printed=printed, rule=cite(RAPPORT_RULE), limit=limit), cite(points_rule))
            )
        elif bought and total > limit:
            problems.append(
                Reason(_("{side}'s squad costs {total} points, over the limit of {limit}").format(side=side_name(side), total=total, limit=limit),
                       cite(points_rule))
            )
        if unknown_cost and bought:
            unchecked.append(
                _("{side}: points not fully checked ({total} known; cost unknown for {names})").format(
                    side=side_name(side), total=total, names=", ".join(unknown_cost))
            )
        side_rules(pos, rec, side, cards, problems, unchecked, bought)
    return problems, unchecked


_Cards = list[tuple[Figure, Card | None]]


def _clone_trooper(card: Card) -> bool | None:
    # "Clone Trooperów": a character with "Clone Trooper" in its name, as PL p.56 counts them for Order 66 (R201)
    return "clone trooper" in card.name.lower()


def _non_unique_republic_follower(card: Card) -> bool | None:
    # PL p.58 "nie-Unikalnych Republikańskich podwładnych"; a follower has no commander effect (PL glossary): None where unknown
    if not isinstance(card, SwmCard):
        return None
    if card.unique or has_trait(card, card.special_abilities, "Unique") or (card.factions is not None and "Republic" not in card.factions):
        return False
    if card.unique is None or card.factions is None or card.commander_effect is None:
        return None
    return card.commander_effect == "none"


#: the versions of Rapport (swm2008 PL p.58) the rulebook says whom they make cheaper, by the card
#: that has it; every other card's Rapport names its own character and condition on the card, which
#: no source here prints: it is not applied, and said (reading R201 in docs/readings.md)
RAPPORT: dict[str, Callable[[Card], bool | None]] = {
    "clone commander cody": _clone_trooper,
    "queen amidala": _non_unique_republic_follower,
}
assert set(RAPPORT) == RAPPORT_STATED
#: where the rulebook states Rapport (only swm2008 defines it)
RAPPORT_RULE = "PL p.58"


def _rapport(side: str, cards: _Cards, unchecked: list[str]) -> dict[str, int]:
    """swm2008 PL p.58 (Rapport): each figure's cost lowered by 1 for each different Rapport of
    its squad that names it (the same Rapport twice lowers it once), to no less than 1; only the
    figures whose cost it lowers. A Rapport whose target the rulebook does not say is reported."""
    versions = {c.name.lower() for _f, c in cards if isinstance(c, SwmCard) and "rapport" in (a.lower() for a in c.special_abilities)}
    for name in sorted(versions - set(RAPPORT)):
        card = next(c for _f, c in cards if c is not None and c.name.lower() == name)
        unchecked.append(_("{side}: the Rapport of {card} is not applied (whom it makes cheaper is on its card, in no source here): "
                           "the squad may cost less").format(side=side_name(side), card=card.name))
    lowered: dict[str, int] = {}
    for f, c in cards:
        if c is None or c.cost is None:
            continue
        named = [RAPPORT[v](c) for v in sorted(versions & set(RAPPORT))]
        if None in named:
            unchecked.append(_("{side}: Rapport not checked for {fid} ({card}): its card does not say whether it is named").format(
                side=side_name(side), fid=f.id, card=c.name))
        n = sum(1 for x in named if x)
        if n:
            lowered[f.id] = min(c.cost, max(1, c.cost - n))
    return lowered


def _warband(pos: Position, rec: EditionRecord, side: str, cards: _Cards, problems: list[Reason], unchecked: list[str], bought: bool) -> None:
    """DDM: at most 8 creatures, none over 140 points, a commander, one shared faction."""
    figs = [f for f, _c in cards]

    def cite(w: str) -> str:
        return cite_for(pos.edition, w)

    if len(figs) > 8 and bought:
        problems.append(Reason(_("{side}'s warband has {n} creatures; at most 8").format(side=side_name(side), n=len(figs)), cite("§ Tworzenie drużyny p.6-7")))
    for f, c in cards:
        if bought and c is not None and c.cost is not None and c.cost > 140:
            problems.append(
                Reason(_("{id} costs {cost}: no creature may cost more than 140 in a Skirmish").format(id=f.id, cost=c.cost), cite("§ Tworzenie drużyny p.6-7"))
            )
    # a rating of 0 is "no commander" (reading R160: `commander_rating=0` for a creature that is
    # none); only a rating of 1 or more makes a commander (reading R162)
    ratings = [pos.stats_of(f).commander_rating for f in figs]
    has_commander = any(r is not None and r > 0 for r in ratings)
    surely_none = all(r == 0 or (r is None and isinstance(c, DdmCard) and c.commander_rating in ("none", 0)) for r, (_f, c) in zip(ratings, cards, strict=True))
    if not has_commander and surely_none:
        problems.append(Reason(_("{side}'s warband has no commander").format(side=side_name(side)), cite("§ Tworzenie drużyny p.6-7")))
    elif not has_commander:
        unchecked.append(_("{side}: commander not checked (commander ratings unknown)").format(side=side_name(side)))
    factions = [set(c.factions) for _fid, c in cards if isinstance(c, DdmCard) and c.factions]
    if len(factions) == len(cards) and factions and not set.intersection(*factions):
        problems.append(Reason(_("{side}'s creatures share no faction (each must show the warband's faction)").format(side=side_name(side)),
                               cite("§ Frakcje p.6")))
    elif len(factions) < len(cards):
        unchecked.append(_("{side}: faction not fully checked (factions unknown)").format(side=side_name(side)))


def _squad(pos: Position, rec: EditionRecord, side: str, cards: _Cards, problems: list[Reason], unchecked: list[str], bought: bool) -> None:
    """SWM: one version of each Unique person; (swm2008) factions that fit one era's side."""

    def cite(w: str) -> str:
        return cite_for(pos.edition, w)

    # Unique by the card's flag or written among its special abilities (abilities.has_trait: one reading)
    names = [(f.id, person(c.name)) for f, c in cards if isinstance(c, SwmCard) and has_trait(c, c.special_abilities, "Unique")]
    seen: dict[str, str] = {}
    for fid, n in names:
        if n in seen:
            problems.append(Reason(_("{fid} and {seen} are the same Unique character").format(fid=fid, seen=seen[n]), cite("PL p.65-66; CS g.14")))
        seen.setdefault(n, fid)
    if any(isinstance(c, SwmCard) and c.unique is None and not has_trait(c, c.special_abilities, "Unique") for _fid, c in cards):
        unchecked.append(_("{side}: Unique not fully checked (unknown on some cards)").format(side=side_name(side)))
    # swm2008 PL p.33 (Affinity): a figure may be in the squad of a faction its card names, its faction
    # then counting as the squad's (reading R166 in docs/readings.md); an edition without the rule reads the card's factions alone
    affinity = rec.defines("Affinity")
    # PL p.56 (CS g.10): a character with Order 66 may be in a squad with Emperor Palpatine, Sith Lord,
    # whatever its faction: its faction is not asked there (reading R230 in docs/readings.md)
    leader = any(c is not None and c.name.strip().lower() == ORDER_66_LEADER for _f, c in cards)
    order_66 = {f.id for f, c in cards if leader and isinstance(c, SwmCard) and has_order_66(rec.order_66_names, c.name, c.special_abilities)}
    cards = [(f, c) for f, c in cards if f.id not in order_66]
    with_joins = [(fig, c, _affinity(c) if affinity else ()) for fig, c in cards]  # each card's: () without Affinity
    for fig, c, joins in with_joins:  # CS r.4: "postavy, které odpovídají vámi vybrané straně nebo mají Fringe symbol"
        factions = _factions(c)
        if c is None or side not in SIDE_FACTIONS or not factions or "Fringe" in factions or set(factions) & SIDE_FACTIONS[side]:
            continue
        if joins and set(joins) & SIDE_FACTIONS[side]:
            continue
        if joins is None:
            unchecked.append(_("{fid} ({card}): side not checked (the card has Affinity; the faction it may join is unknown)").format(
                fid=fig.id, card=c.name))
            continue
        problems.append(Reason(_("{fid} ({card}) is of the {factions}, not a faction of the {side} side (nor Fringe)").format(
            fid=fig.id, card=c.name, factions=", ".join(factions), side=side_name(side)), cite(_SIDE_RULE)))
    joining = [(f, _factions(c), joins) for f, c, joins in with_joins if joins != ()]
    known = [set(_factions(c)) - {"Fringe"} for _fid, c, joins in with_joins if joins == () and _factions(c)]
    wanted = set().union(*known) if known else set()
    if rec.faction_eras:
        fits = [allowed for era in SWM_ERAS.values() for allowed in era if wanted <= allowed]
        # a figure with Affinity fits an era's side of its own faction or of one its card names
        fits_all = [allowed for allowed in fits if all(not own or "Fringe" in own or (set(own) | set(joins or ())) & allowed for _f, own, joins in joining)]
        unsure = [f.id for f, own, joins in joining if joins is None]
        if (wanted or joining) and not fits_all and not (unsure and fits):
            # the figures without Affinity alone fit no era: they are named; else every figure's own factions
            shown = wanted if not fits else wanted | {x for _f, own, _j in joining for x in own if x != "Fringe"}
            problems.append(Reason(_("{side}'s factions {names} fit no era's side").format(side=side_name(side), names=', '.join(sorted(shown))),
                                   cite("PL p.15")))
        elif unsure and not fits_all:
            unchecked.append(_("{side}: factions not fully checked (the faction that {names} may join by Affinity is unknown)").format(
                side=side_name(side), names=", ".join(unsure)))
    if any(isinstance(c, SwmCard) and c.factions is None for _fid, c in cards) or any(c is None for _fid, c in cards):
        unchecked.append(_("{side}: factions not fully checked (unknown on some figures)").format(side=side_name(side)))


def _factions(card: Card | None) -> tuple[str, ...]:
    """An SWM card's factions as the era table names them: a card imported from SW_Minis_Drafter
    (or written by hand) may say "Imperial" or "Rebel" for the Empire or the Rebel Alliance."""
    if not isinstance(card, SwmCard) or not card.factions:
        return ()
    return tuple(dict.fromkeys(faction_name(f) for f in card.factions))


def _affinity(card: Card | None) -> tuple[str, ...] | None:
    """The factions an SWM card may join by Affinity (swm2008 PL p.33), as the era table names them:
    () without the ability, None where the card has it and the faction it names is unknown (R166)."""
    if not isinstance(card, SwmCard) or not has_trait(card, card.special_abilities, "Affinity"):
        return ()
    if not card.affinity:
        return None
    return tuple(dict.fromkeys(faction_name(f) for f in card.affinity))


_SideRules = Callable[[Position, EditionRecord, str, _Cards, list[Reason], list[str], bool], None]
#: each family's squad-building rules: the rule citing its points limit, and the rest per side
_FAMILY_RULES: dict[str, tuple[str, _SideRules]] = {
    "ddm": ("§ Tworzenie drużyny p.6-7", _warband),
    "swm": ("PL p.15; CS r.2, r.4", _squad),
}
