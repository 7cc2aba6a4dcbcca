"""What follows from events, shared by the kinds that cause it: damage and defeat, victory
points, the end of a turn or a round, the game's last words.

Every function here changes the :class:`~.state.GameState` being folded and returns what
followed, in words for the log entry. The kinds (:mod:`.events`) call them; the fold loop
(:mod:`.state`) never needs them, so this module sits between the state and the kinds.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..abilities import has
from ..cards import DdmCard, split_ability
from ..editions import cite_for
from ..errors import AssistantError, CommandLineWordsError, UnknownNameError
from ..i18n import _, n_, side_name
from ..model import DepartedError, Figure, Position
from ..rules.record import find_edition
from ..rules.saves import avoid_defeat_from
from .state import Fallen, GameState, Turn


def with_figure(pos: Position, fig: Figure | None, fid: str) -> Position:
    """The position with ``fig`` in place of figure ``fid`` (added when new; ``None``: removed)."""
    figs = tuple(f for f in pos.figures if f.id != fid)
    if fig is not None:
        figs = tuple((fig if f.id == fid else f) for f in pos.figures) if any(f.id == fid for f in pos.figures) else figs + (fig,)
    return Position(pos.edition, pos.map, figs, pos.cards)


def set_figure(state: GameState, fig: Figure) -> None:
    """Put the changed figure into the state's position."""
    state.position = with_figure(state.position, fig, fig.id)


def rout_move(state: GameState, fid: str) -> Turn | None:
    """The immediate move of a creature that has just routed (DDM § Ucieczka p.21), while it lasts:
    within the turn during which it routed (reading R53 in docs/readings.md)."""
    m = state.rout_move
    if m is None or m.figure != fid or state.active != state.rout_during or state.active == fid:
        return None
    return m


def turn_of(state: GameState, fid: str) -> Turn:
    """The turn of ``fid``; a judge's override on another figure gets a turn of its own."""
    fleeing = rout_move(state, fid)
    if fleeing is not None:
        return fleeing
    if state.turn is None or state.turn.figure != fid:
        state.turn = Turn(fid)
        state.active = fid
    return state.turn


def hit(state: GameState, a: Figure, target: Figure, data: dict[str, Any]) -> list[str]:
    """An attack's outcome as rolled: the Force its target's saves spent, then the damage it deals."""
    roll_agrees(data)
    state.last_attacker = a.id
    for fid, cost in (data.get("force_spent") or {}).items():  # a Force-costed save the defender made (Lightsaber Block, ...)
        spend_force(state, fid, int(cost))
    if data.get("hit") and int(data.get("damage") or 0) > 0:
        return damage(state, target.id, int(data["damage"]), a.id, data.get("saves"))
    return []


def roll_agrees(data: dict[str, Any]) -> None:
    """Refuse an attack whose record its own d20 contradicts: a hit on a roll that misses, a miss
    on one that hits, damage on a miss. No command writes one (:func:`~.actions.roll_outcome`
    derives the hit from the die), but an exported log's hashes can be made again by hand, so
    the fold voids it (reading R196). The number needed itself is not derived again here."""
    roll, needs = (data.get("reroll"), data.get("reroll_needs")) if data.get("reroll") is not None else (data.get("roll"), data.get("needs"))
    if not isinstance(roll, int) or not isinstance(needs, int):
        return
    hits = roll != 1 and (roll >= needs or roll == 20 or bool(data.get("critical")))
    if data.get("hit") and not hits:
        raise AssistantError(_("roll {roll} needs {needs} is a miss, yet the record says a hit: the log was edited").format(roll=roll, needs=needs))
    if data.get("hit") is False and roll != 1 and (roll >= needs or roll == 20):
        raise AssistantError(_("roll {roll} needs {needs} is a hit, yet the record says a miss: the log was edited").format(roll=roll, needs=needs))
    if data.get("hit") is False and int(data.get("damage") or 0) > 0:
        raise AssistantError(_("a miss recorded with {damage} damage: the log was edited").format(damage=data.get("damage")))


def force_paid(state: GameState, attacker: str, power: str | None) -> bool:
    """Has the attacker's own turn paid for this Force power already (Sith Rage lasts the turn, R251)?"""
    t = state.turn
    return power is not None and t is not None and t.figure == attacker and power.strip().lower() in {p.lower() for p in t.force_powers}


def spend_force(state: GameState, fid: str, cost: int) -> None:
    """Force points spent (never below none), counted toward the turn's one spend (CS r.9; PL p.26)."""
    if cost <= 0:
        return
    f = state.figure(fid)
    now = state.position.stats_of(f).force or 0
    set_figure(state, replace(f, stats=replace(f.stats, force=max(0, now - cost))))
    state.force_spends[fid] = state.force_spends.get(fid, 0) + 1


#: where each SWM rulebook states Force Renewal (reading R229 in docs/readings.md)
FORCE_RENEWAL_RULE = "PL p.11, p.46; CS g.6; reading R229 in docs/readings.md"


def renew_force(state: GameState, f: Figure) -> list[str]:
    """SWM Force Renewal [#]: each time the figure activates it gets [#] Force points, and may have
    more than it began the skirmish with (swm2008 PL p.46, Obi-Wan's p.11; swm2004 CS g.6). The
    card's number is the points (the data writes 1, 2 or 3); one written without a number is said,
    not guessed (reading R229). Figures whose Force points are unknown are said too."""
    rec = find_edition(state.position.edition)
    if not rec.defines("Force Renewal"):
        return []
    stats = state.position.stats_of(f)
    rule = cite_for(state.position.edition, FORCE_RENEWAL_RULE)
    said: list[str] = []
    for text in stats.abilities or ():
        name, value = split_ability(text)
        if name.lower() != "force renewal":
            continue
        if not value:
            said.append(_("{figure}'s {ability} names no number: the Force points it gives on activating are on its card; record them with "
                          "'game force {figure} +N' ({rule})").format(figure=f.id, ability=text, rule=rule))
        elif stats.force is None:
            said.append(_("{figure}'s {ability}: its Force points are unknown, so the {n} it gets on activating is not counted ({rule})").format(
                figure=f.id, ability=text, n=value, rule=rule))
        else:
            now = stats.force + value
            f = state.figure(f.id)
            set_figure(state, replace(f, stats=replace(f.stats, force=now)))
            said.append(n_("{figure} gets {n} Force point by {ability} (now {now}) ({rule})",
                           "{figure} gets {n} Force points by {ability} (now {now}) ({rule})", value).format(
                figure=f.id, n=value, ability=text, now=now, rule=rule))
        break
    return said


def hp_text(state: GameState, f: Figure) -> str:
    """The Hit Points a figure has left, for the log."""
    hp = state.position.stats_of(f).hp
    if hp is None:
        return _("{figure} has taken {damage} damage (HP unknown)").format(figure=f.id, damage=f.damage_taken)
    return _("{figure} has {left} of {hp} HP left").format(figure=f.id, left=hp - f.damage_taken, hp=hp)


def damage(state: GameState, fid: str, amount: int, by: str | None = None, saves: list[int] | None = None) -> list[str]:
    """Damage taken: a DDM morale save falling due, SWM Avoid Defeat, or the figure's defeat."""
    state.round_had_action = True
    f = state.figure(fid)
    by = by or state.last_attacker
    f = replace(f, damage_taken=f.damage_taken + amount)
    stats = state.position.stats_of(f)
    hp = stats.hp
    said: list[str] = []
    tr = state.turn_rules
    if tr.morale and hp is not None and fid not in state.morale_checked and 2 * (hp - f.damage_taken) < hp and f.damage_taken < hp:
        state.morale_checked.add(fid)  # once per battle, pass or fail
        if fearless(state.position, f):
            said.append(_("{fid} is below half its HP but Fearless: no morale save ({value})").format(fid=fid, value=tr.cite(tr.cite_morale)))
        else:
            due = _("morale save due (HP below half): d20 + Level {level} + the best commander rating in command range >= 20").format(
                level=stats.level if stats.level is not None else "?")
            state.morale_due[fid] = due
            if by:  # should it rout, this enemy made it flee (no attack of opportunity on it from them this round)
                state.routed_by[fid] = (by, state.round)
            said.append(f"{fid}: {due} ({tr.cite(tr.cite_morale)})")
    if hp is not None and f.damage_taken >= hp and avoids_defeat(state, f, saves):
        f = replace(f, damage_taken=hp - 10)
        set_figure(state, f)
        said.append(_("{figure} would be defeated, but its Avoid Defeat saves ({rolls}) both succeed: it stays with 10 Hit Points ({rule})").format(
            figure=fid, rolls=", ".join(map(str, saves or ())), rule=tr.cite("PL p.34; CS g.2")))
    elif hp is not None and f.damage_taken >= hp:
        if saves and has(stats.abilities or (), "Avoid Defeat"):
            said.append(_("{figure}'s Avoid Defeat saves ({rolls}): not both 11 or better").format(figure=fid, rolls=", ".join(map(str, saves))))
        # the damage itself is the event's own description (the attack's roll, the power's struck, the
        # damage written by hand): what it did is said here, once
        said.append(_("{figure} is defeated ({taken} damage of {hp} HP)").format(figure=fid, taken=f.damage_taken, hp=hp))
        said += eliminate(state, f, by, "defeated")
    else:
        set_figure(state, f)
        said.insert(0, hp_text(state, f))
    return said


def avoids_defeat(state: GameState, f: Figure, saves: list[int] | None) -> bool:
    """SWM Avoid Defeat: when it would be defeated, two saves of 11; both succeed and it stays with 10
    Hit Points (PL p.34; CS g.2). The two d20s are given with the damage (``--saves``)."""

    if avoid_defeat_from(state.position, f) is None:  # its own, or an adjacent ally's Emergency Life Support (swm2004 CS g.5; R290)
        return False
    if saves is None or len(saves) != 2:
        # the page's forms take them in their "saves as rolled" field, not the command line's flag (R197)
        raise CommandLineWordsError(
            _("{figure} has Avoid Defeat: this damage would defeat it, so give its two saves of 11 as rolled (--saves N,N)").format(figure=f.id),
            _("{figure} has Avoid Defeat: this damage would defeat it, so write its two saves of 11 as rolled under '{field}' (N,N)").format(
                figure=f.id, field=_("saves as rolled")))
    return all(r == 20 or (r != 1 and r >= 11) for r in saves)


def eliminate(state: GameState, f: Figure, by: str | None, how: str) -> list[str]:
    """A figure leaves the game: defeated, or fled off the map (DDM: eliminated either way)."""
    state.position = with_figure(state.position, None, f.id)
    state.defeated.append(f.id)
    state.fallen[f.id] = Fallen(state.seq, state.round, by, how)
    state.fallen_side[f.id] = f.side
    state.morale_due.pop(f.id, None)
    said: list[str] = [] if how == "defeated" else [f"{f.id} {how}: eliminated"]
    card = state.position.card_of(f)
    by_side = side_of(state, by)
    sides = [s for s in state.sides() if s != f.side] or ([by_side] if by_side else [])
    scorer = by_side if by_side and by_side != f.side else (sides[0] if len(sides) == 1 else None)
    if scorer is not None and card is not None and card.cost is not None:
        state.vp[scorer] = state.vp.get(scorer, 0) + card.cost
        tr = state.turn_rules
        what = _("victory points") if tr.victory == "vp" else _("points toward the tie-break")
        said.append(
            _("{scorer} scores {cost} {what} for {id} (now {vp}) ({value})").format(
                scorer=scorer, cost=card.cost, what=what, id=f.id, vp=state.vp[scorer], value=tr.cite(tr.cite_elimination)
            )
        )
    if state.active == f.id:
        state.active, state.turn = None, None
    carried = [p for p, (_fig, skiff) in state.aboard.items() if skiff == f.id]
    if carried:
        state.wrecks[f.id] = tuple(f.space)
        said.append(
            _(
                "{skiff} carried {figures}: each is defeated with it unless it makes a save of 11; one that saves is placed next to where {skiff} stood "
                "(game disembark ID SQUARE; game remove ID for one that fails) ({rule})"
            ).format(skiff=f.id, figures=", ".join(carried), rule=cite_for(state.rules, "PL p.39"))
        )
    return said


def side_of(state: GameState, who: str | None) -> str | None:
    """The side of a figure (standing or fallen) or a side's own name; ``None`` for nobody."""
    if who is None:
        return None
    if who in state.sides():
        return who
    try:
        return state.position.figure(who).side
    except (UnknownNameError, DepartedError):
        return state.fallen_side.get(who)


def fearless(pos: Position, f: Figure) -> bool:
    """DDM: Constructs, Oozes and Undead are Fearless (Living Constructs are not)."""
    card = pos.card_of(f)
    words = " ".join([card.type or ""] if isinstance(card, DdmCard) else []).lower()
    words = words.replace("living construct", "")
    abilities = [a.lower() for a in pos.stats_of(f).abilities or ()]
    return any(t in words for t in ("construct", "ooze", "undead")) or any(
        a.startswith(("fearless", "construct", "ooze", "undead")) and not a.startswith("living construct") for a in abilities
    )


def lose_stealth(state: GameState, user: Figure) -> list[str]:
    """swm2008 Force Sense used (PL p.46): every enemy of ``user`` loses Stealth until the end of the
    round; each one's written abilities are kept to give back at the next initiative (R273)."""
    lost = []
    for e in state.position.figures:
        abl = state.position.stats_of(e).abilities or ()
        if e.side != user.side and has(abl, "Stealth"):
            state.stealth_lost.setdefault(e.id, (e.stats.abilities, user.id))
            set_figure(state, replace(e, stats=replace(e.stats, abilities=tuple(a for a in abl if not has((a,), "Stealth")))))
            lost.append(e.id)
    return [_("Stealth lost until the end of the round: {names}").format(names=", ".join(lost))] if lost else []


def give_stealth_back(state: GameState) -> None:
    """The round over, Force Sense's enemies have their Stealth again (PL p.46; R273)."""
    for fid, (written, _user) in state.stealth_lost.items():
        if any(f.id == fid for f in state.position.figures):
            f = state.figure(fid)
            set_figure(state, replace(f, stats=replace(f.stats, abilities=written)))
    state.stealth_lost = {}


def end_of_round(state: GameState) -> list[str]:
    """A new round's initiative closes the last one, whoever has not activated."""
    return score_if_round_over(state, force=True)


def score_if_round_over(state: GameState, force: bool = False) -> list[str]:
    """At the end of each round: DDM victory areas (10 VP for any of your creatures in one of
    your own), and the count of quiet rounds toward the 10-round tie-break (both games)."""
    if state.round == 0 or state.scored_round >= state.round:
        return []
    if not force and not (state.round_over() and state.active is None):
        return []
    state.scored_round = state.round
    said: list[str] = []
    tr = state.turn_rules
    if tr.victory == "vp":
        for side in state.sides():
            area = state.position.map.areas.get(f"victory_{side}")
            holders = [f.id for f in state.position.figures if f.side == side and area and any(sq in area for sq in f.space)]
            if holders:
                state.vp[side] = state.vp.get(side, 0) + 10
                said.append(
                    _("end of round {round}: {side} scores 10 VP for its victory area ({names}), now {vp} ({value})").format(
                        round=state.round, side=side_name(side), names=', '.join(holders), vp=state.vp[side], value=tr.cite('§ Scenariusz starcia p.28')
                    )
                )
    state.quiet_rounds = 0 if state.round_had_action else state.quiet_rounds + 1
    state.round_had_action = False
    if state.quiet_rounds >= 10:
        said.append(_("10 rounds without an attack or damage: the game ends on the tie-break ({value})").format(value=tr.cite(tr.cite_tie_break)))
    return said


def final_words(state: GameState) -> str:
    """The game's end in words: the winner, or the tie-break and whom it names."""
    w = state.outright()
    if w:
        return _("the game ends: {winner} has won").format(winner=side_name(w))
    pts = ", ".join(f"{s} {v}" for s, v in sorted(state.vp.items(), key=lambda kv: -kv[1])) or _("no points")
    winner, how, fid = state.tie_break()
    if how == "points":
        lead = _("; {side} leads on points").format(side=side_name(winner or ""))
    elif how == "centre":
        lead = _("; tied on points: {side}'s {figure} stands nearest the centre").format(side=side_name(winner or ""), figure=fid)
    elif how == "cost":
        lead = _("; tied on points and nearest the centre: {side}'s {figure} costs the most").format(side=side_name(winner or ""), figure=fid)
    elif fid is not None:
        lead = _("; tied on points and nearest the centre: the cost of {figure} is unknown, the table decides").format(figure=fid)
    else:
        lead = _("; tied on points, nearest the centre and on cost: no winner")
    return _("the game ends ({why}): points {points}{lead} ({rule})").format(
        why=state.ended, points=pts, lead=lead, rule=state.turn_rules.cite(state.turn_rules.cite_tie_break)
    )


#: where each SWM rulebook states Regeneration (reading R254 in docs/readings.md)
REGENERATION_RULE = "PL p.59; CS g.10-11"


def regenerate(state: GameState) -> list[str]:
    """SWM Regeneration [#] at the end of the acting figure's turn: if it did not move in its turn it
    removes [#] of its damage, never above its starting Hit Points (swm2008 PL p.59: "Jeśli postać ta
    nie porusza się w swojej turze, zmniejsza o [#] punktów swoje obrażenia na koniec tury"; swm2004
    CS g.10-11 "Regeneration 10"). One written without a number is said, not guessed (reading R254)."""
    t = state.turn
    rec = find_edition(state.position.edition)
    if t is None or not rec.defines("Regeneration"):
        return []
    f = next((x for x in state.position.figures if x.id == t.figure), None)  # defeated in its own turn: gone
    if f is None:
        return []
    rule = cite_for(state.position.edition, REGENERATION_RULE) + "; reading R254 in docs/readings.md"
    for text in state.position.stats_of(f).abilities or ():
        name, value = split_ability(text)
        if name.lower() != "regeneration" or f.damage_taken <= 0:
            continue
        if not value:
            return [_("{figure}'s {ability} names no number: the damage it removes is on its card; record it with 'game heal {figure} N' ({rule})").format(
                figure=f.id, ability=text, rule=rule)]
        if t.moved > 0 or t.towed or t.charged:
            return [_("{figure} moved this turn: no {ability} ({rule})").format(figure=f.id, ability=text, rule=rule)]
        healed = min(value, f.damage_taken)
        set_figure(state, replace(f, damage_taken=f.damage_taken - healed))
        return [_("{figure} removes {n} damage by {ability}: it did not move this turn; {left} ({rule})").format(
            figure=f.id, n=healed, ability=text, left=hp_text(state, state.figure(f.id)), rule=rule)]
    return []


def end_turn(state: GameState) -> list[str]:
    """End the active figure's turn (SWM Regeneration first); SWM doors open or close by who stands next to them."""
    state.force_spends = {}  # a new turn (or the moment between two): Force points may be spent again
    state.last_attacker = None  # damage written by hand after this names its dealer with --by (R53's default is this turn's attacker)
    if state.active is None:
        return []
    said: list[str] = regenerate(state)
    state.active, state.turn = None, None
    tr = state.turn_rules
    if tr.doors_follow_occupancy:
        m = state.position.map
        occupied = {s for f in state.position.figures for s in f.space}
        opened = {door for door in m.doors if any(sq in occupied for sq in door.squares)}
        for door in sorted(opened - m.open_doors, key=lambda d: d.name):
            said.append(_("door {door} opens").format(door=door.name) + f" ({tr.cite(tr.cite_doors)})")
        for door in sorted(m.open_doors - opened, key=lambda d: d.name):
            said.append(_("door {door} closes").format(door=door.name) + f" ({tr.cite(tr.cite_doors)})")
        if frozenset(opened) != m.open_doors:
            state.position = Position(state.rules, replace(m, open_doors=frozenset(opened)), state.position.figures, state.position.cards)
    said += score_if_round_over(state)
    return said
