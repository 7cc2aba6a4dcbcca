"""The Star Wars TCG at the table: apply one command to a :class:`~.table.Table`.

Commands use the shared notation (:mod:`assistant.cardgame.notation`) with the sides ``DS``
and ``LS`` as actors. The source is a clarifications FAQ (``swtcg.md``); where it is silent
the published keyword definitions apply (see :mod:`.attack`), and every line of an answer
says where its rule comes from: ``FAQ Lnn`` (the seed's line), ``TN`` (the translator's
note), ``B-nn`` (the digest's best reading) or the published keywords.

>>> from .table import parse_table
>>> t = parse_table('''
... format: swtcg-table/1
... step: battle-ground
... players: {DS: {}, LS: {}}
... units:
...   - {id: aat, owner: DS, type: "Ground - Trade Federation Vehicle", power: 3, health: 4, zone: ground}
...   - {id: trooper, owner: LS, type: "Ground - Republic Trooper", power: 2, health: 3, zone: ground, keywords: {armor: true}}
... ''')
>>> o = apply(t, "DS attack aat -> trooper")
>>> o = apply(o.table, "DS roll 4,5,6")
>>> o.table.attack.hits   # Armor: hit on 5+
2
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ..cardgame import IllegalCommandError, Options, Outcome, naming_fields, registrar
from ..cardgame.notation import Command, unknown_verb
from ..errors import NotationError
from ..i18n import N_, _, n_
from .attack import KEYWORDS, Attack, IllegalRollError, destroyed, lucky_rerolls, overkill, prevent, resolve
from .contest import Contender, check_bid, contest
from .table import ARENAS, MAX_NUMBER, REACHES_OTHERS, STEP_ALIASES, STEPS, AttackState, Table, Unit, other, step_name, upkeep_choices

ISOLATED = {"armor"}  # two sources are one Armor (FAQ L75)
#: keywords the engine applies; any other keyword on a card is reported as not modelled
MODELLED = {"accuracy", "armor", "lucky", "evade", "critical_hit", "shields", "stun", "retaliate", "intercept", "deflect", "overkill",
            "reroll_trigger", "speed", "power", "health"}


def dice_of_damage(n: int) -> str:
    """"1 die of damage", "2 dice of damage": the count said as it asks (the answers said "1 dice of damage")."""
    return n_("{n} die of damage", "{n} dice of damage", n).format(n=n)


def keyword_words(key: str, value: object) -> str:
    """A keyword as the cards print it, from the table file's key and value (reading R327).

    >>> keyword_words("ion_cannon", 2), keyword_words("hidden_cost", 3), keyword_words("reserves", None)
    ('Ion Cannon 2', 'Hidden Cost 3', 'Reserves')
    """
    if isinstance(value, (list, tuple)):  # one value per instance of the keyword (evade: [2, 1])
        return ", ".join(keyword_words(key, v) for v in value)
    words = " ".join(w.capitalize() for w in key.split("_"))
    return words if value is None or value is True else f"{words} {value}"


def not_modelled(t: Table, *units: Unit) -> list[str]:
    """What of these units the engine does not apply: keywords (Bombard, Ion Cannon, Reserves...), their
    cards' words listed as conditional or not applied, and the words of any other unit in an arena that
    reach other units (an aura such as Darth Vader (H)'s +2 power to each other unit)."""
    out = []
    for u in units:
        p = t.pilot_of(u.id)
        values = dict(u.keywords) | (dict(p.grants) if p else {})
        for k in sorted(set(values) - MODELLED):
            said = keyword_words(k, values[k])
            # an imported card lists its printed keyword among its words too ("Ion Cannon 2"): once
            if not any(c.lower().startswith(said.lower()) for c in u.conditional):
                out.append(f"{u.label}: {said}")
        out += [f"{u.label}: {c}" for c in u.conditional]
    ids = {u.id for u in units}
    for bystander in t.units:
        if bystander.id not in ids and bystander.zone in ARENAS:
            out += [f"{bystander.label}: {c}" for c in bystander.conditional if REACHES_OTHERS.search(c)]
    return out


Handler = Callable[[Table, Command, list[str]], Table]
VERBS: dict[str, Handler] = {}


#: the KEY= options each verb takes, declared with the verb (``@_verb("deploy", "as")``)
OPTIONS: dict[str, Options] = {}
_verb = registrar(VERBS, OPTIONS)


def verb_help() -> dict[str, tuple[str, str]]:
    """Every verb and what it does, in English (the catalogs' source)."""
    return {v: ("", " ".join((f.__doc__ or "").strip().split("\n\n")[0].split())) for v, f in VERBS.items()}  # the first paragraph


def verbs() -> dict[str, str]:
    """Every verb and what it does, in the reader's language."""
    return {v: _(text) for v, (_kind, text) in verb_help().items()}


def parse_command(t: Table, text: str) -> Command:
    """The play read, bounded once for every verb: none gives a number past MAX_NUMBER (reading R300)."""
    return Command.parse(text, t.names, most=MAX_NUMBER)


def apply(t: Table, cmd: Command | str) -> Outcome:
    # a command built rather than read is bounded too (a fresh one: nothing of it is read yet)
    cmd = parse_command(t, cmd) if isinstance(cmd, str) else replace(cmd, most=MAX_NUMBER)
    if cmd.verb not in VERBS:
        raise unknown_verb(cmd, sorted(VERBS), "swtcg")
    said: list[str] = []
    handler = VERBS[cmd.verb]
    usage = ((handler.__doc__ or "").strip().splitlines() or [cmd.verb])[0]
    OPTIONS[cmd.verb].check(cmd, (), usage)
    after = handler(t, cmd, said)
    cmd.check_args_read(usage)
    return Outcome(after, tuple(said))


def _side(cmd: Command) -> str:
    if cmd.actor is None:
        raise NotationError(_("{cmd!r}: say which side does this, e.g. 'DS {verb} ...'").format(cmd=str(cmd), verb=cmd.verb))
    return cmd.actor


def _own(t: Table, cmd: Command, i: int = 0, what: str = N_("the card")) -> Unit:
    u = t.unit(cmd.arg(i, what))
    if u.owner != cmd.actor:
        raise IllegalCommandError(_("{label} is {owner}'s, not {actor}'s").format(label=u.label, owner=u.owner, actor=cmd.actor))
    return u


def _battle(t: Table) -> bool:
    return t.step.startswith("battle-")


# --- stats: what a unit has now (keywords stack unless isolated; pilot bonuses) -----------


class VariableStatError(IllegalCommandError):
    """A stat printed '*' (set by the card's text) that the answer needs: asked for, never taken as 0."""

    def __init__(self, u: Unit, name: str):
        super().__init__(
            _("{label}'s {stat} is '*' on its card (its text sets it): give the number it has now first, e.g. '{side} set-stat {id} {stat}=N'").format(
                label=u.label, stat=name, side=u.owner, id=u.id
            )
        )


def stat(t: Table, u: Unit, name: str) -> int:
    """A unit's speed, power or health now: printed + effects + the bonuses of its pilot
    (only aboard a vehicle; a pilot in the Character arena grants nothing, FAQ L122)."""
    if name in u.variable:
        raise VariableStatError(u, name)
    base = {"speed": u.speed + u.speed_bonus, "power": u.power + u.power_bonus, "health": u.health}[name]
    p = t.pilot_of(u.id)
    return base + (int(dict(p.grants).get(name, 0)) if p else 0)


def keyword(t: Table, u: Unit, name: str) -> int | bool | tuple[int, ...]:
    """A keyword's total on a unit: its own plus its pilot's grants. Cumulative keywords add
    (Accuracy, Lucky; FAQ L46, L103); Armor is had or not (FAQ L75); Evade instances are kept
    apart, each usable once per damage (FAQ L46)."""
    p = t.pilot_of(u.id)
    values = [u.kw(name, None)] + ([dict(p.grants).get(name)] if p else [])
    values = [v for v in values if v is not None]
    if name == "evade":
        return tuple(x for v in values for x in (v if isinstance(v, tuple) else (v,)))
    if name in ISOLATED or any(isinstance(v, bool) for v in values):
        return any(values)
    return sum(int(v) for v in values)


def keyword_value(t: Table, u: Unit, name: str) -> int:
    """A numbered or had-or-not keyword's total as a number (Accuracy 2, Armor 1 or 0); Evade's
    instances are read with :func:`keyword`, kept apart."""
    value = keyword(t, u, name)
    assert not isinstance(value, tuple), name  # only Evade is a tuple, and no caller counts it
    return int(value)


# --- setup (FAQ L16-20, L126-127) -------------------------------------------------------


def _draw(t: Table, side: str, n: int, said: list[str], why: str) -> Table:
    p = t.player(side)
    k = min(n, p.deck)
    said.append(
        _("{side} draws {k} ({why})").format(side=side, k=k, why=_(why))
        + (_(" — the deck is empty: nothing happens and play goes on (FAQ L43)") if k < n else "")
    )
    return t.with_player(replace(p, hand=p.hand + k, deck=p.deck - k))


def _refuse_in_setup(t: Table, what: str, rule: str) -> None:
    if t.step == "setup":
        raise IllegalCommandError(_("{what} is not allowed in setup ({rule})").format(what=_(what), rule=rule))


def _contest_check(t: Table, u: Unit, said: list[str]) -> None:
    if not u.unique:
        return
    rival = next((x for x in t.in_arena(owner=other(u.owner)) if x.unique and x.name == u.name), None)
    if rival:
        said.append(
            _(
                "{label} meets {value}'s {label2} in battle: a unique-unit contest — a new one whenever the enemy unit is still in an arena (FAQ L12); open "
                "it with 'contest' during the battle phase (FAQ L5-14; reading R14 in docs/readings.md)"
            ).format(label=u.label, value=other(u.owner), label2=rival.label)
        )


@_verb("deploy", "as")
def _deploy(t: Table, cmd: Command, said: list[str]) -> Table:
    # the docstring's first line is the verb's usage text (check_options quotes it), so it stays one line
    """Move a unit into its arena: in setup from hand with the 30 BP; in the build step once its counters reach its cost (or it costs 0), or a retreated unit back."""  # noqa: E501
    side = _side(cmd)
    u = _own(t, cmd, 0, N_("the unit"))
    p = t.player(side)
    if u.kind != "unit":
        if t.step == "setup":
            raise IllegalCommandError(_("{label} is a {kind}: only units are deployed in setup (FAQ L20; TN L20)").format(label=u.label, kind=u.kind))
        if u.kind != "location":
            raise IllegalCommandError(_("{label} is a {kind}, not a unit").format(label=u.label, kind=u.kind))
    arena = u.arena.lower()
    if not arena:
        raise IllegalCommandError(_("{label}: its type line {type!r} names no arena (Space, Ground or Character)").format(label=u.label, type=u.type))
    keep = cmd.opt("as")
    if t.step == "setup":
        if p.setup_done:
            raise IllegalCommandError(_("{side} has stopped deploying in setup; the other side goes on until its 30 BP are spent (FAQ L17)").format(side=side))
        if u.zone != "hand":
            raise IllegalCommandError(_("{label} is not in {side}'s hand").format(label=u.label, side=side))
        if u.cost > p.setup_bp:
            raise IllegalCommandError(
                _("{label} costs {cost} BP and {side} has {setup_bp} of the 30 setup BP left (FAQ L17)").format(
                    label=u.label, cost=u.cost, side=side, setup_bp=p.setup_bp
                )
            )
        t = t.with_player(replace(p, setup_bp=p.setup_bp - u.cost, hand=p.hand - 1))
        t = t.with_unit(replace(u, zone=arena, status=""))  # type: ignore[arg-type]
        said.append(
            _("{side} deploys {label} into the {arena} arena for {cost} of the setup BP; {setup_bp} left (FAQ L17)").format(
                side=side, label=u.label, arena=arena, cost=u.cost, setup_bp=t.player(side).setup_bp
            )
        )
        t = _draw(t, side, 1, said, N_("1 card per unit deployed in setup, FAQ L19"))
        if t.player(side).setup_bp == 0:
            said.append(_("{side} has spent the 30 setup BP").format(side=side))
        return t
    if t.step != "build":
        raise IllegalCommandError(_("units are deployed in the build step, not the {step} step (FAQ L27-30)").format(step=step_name(t.step)))
    if u.zone == "build" and u.status == "retreated":
        t = t.with_unit(replace(u, zone=arena, status=""))  # type: ignore[arg-type]
        said.append(
            _("retreated {label} moves from the build zone into the {arena} arena").format(label=u.label, arena=arena)
            + (_(", tapped as it is") if u.tapped else "")
            + _(" (FAQ L29; L12)")
        )
        _contest_check(t, t.unit(u.id), said)
        return t
    if u.zone == "hand" and u.cost == 0:
        t = t.with_unit(replace(u, zone=arena)).with_player(replace(p, hand=p.hand - 1))  # type: ignore[arg-type]
        said.append(_("{label} costs 0 BP and moves into its arena free (FAQ TN L28)").format(label=u.label))
        return t
    if u.zone != "build" or u.status != "partial":
        raise IllegalCommandError(
            _("{label} is not being built in the build zone ({zone}); start it with 'build' (FAQ L27-28)").format(label=u.label, zone=u.zone)
        )
    if u.counters < u.cost:
        raise IllegalCommandError(
            n_("{label} has {counters} build counter of its cost {cost}; it is deployed once counters ≥ cost (FAQ L28-30)",
               "{label} has {counters} build counters of its cost {cost}; it is deployed once counters ≥ cost (FAQ L28-30)", u.counters).format(
                label=u.label, counters=u.counters, cost=u.cost
            )
        )
    if keep == "hidden":
        said.append(_("{label} is complete and stays hidden in the build zone, still 'partially built' (FAQ TN L30)").format(label=u.label))
        return t
    if keep == "retreated":
        t = t.with_unit(replace(u, status="retreated"))
        said.append(_("{label} is deployed but kept in the build zone as a retreated unit (FAQ TN L30)").format(label=u.label))
        return t
    t = t.with_unit(replace(u, zone=arena, status="", counters=0))  # type: ignore[arg-type]
    said.append(
        _("{label} is deployed into the {arena} arena; no card is drawn for deploying in the build step (FAQ L19, L28-30)").format(label=u.label, arena=arena)
    )
    _contest_check(t, t.unit(u.id), said)
    return t


@_verb("build")
def _build(t: Table, cmd: Command, said: list[str]) -> Table:
    """Put build counters on a unit or mission in the build zone: 'DS build ID N'."""
    side = _side(cmd)
    u = _own(t, cmd, 0, N_("the card"))
    n = cmd.int_arg(1, N_("the build points spent"))
    p = t.player(side)
    if u.kind in ("battle", "location"):
        raise IllegalCommandError(_("{label} is a {kind} card: only units and missions are built (FAQ L27)").format(label=u.label, kind=u.kind))
    if u.zone in ARENAS or u.aboard is not None:
        where = _("piloting {unit}").format(unit=t.unit(u.aboard).label) if u.aboard else _("in the {zone} arena").format(zone=u.zone)
        raise IllegalCommandError(
            _("{label} is {where}: only a card from the hand or a partial build in the build zone takes build counters (FAQ L27-28)").format(
                label=u.label, where=where
            )
        )
    if u.zone == "build" and u.status == "retreated":
        raise IllegalCommandError(
            _("{label} is a retreated unit: it comes back into its arena in the build step without build points ('{side} deploy {id}', FAQ L12, L32)").format(
                label=u.label, side=side, id=u.id
            )
        )
    if u.zone not in ("hand", "build"):
        raise IllegalCommandError(
            _("{label} is in the {zone}: only a card from the hand or the build zone is built (FAQ L27)").format(label=u.label, zone=u.zone)
        )
    if n < 1:
        raise IllegalCommandError(
            _("building {label} needs at least 1 BP — even a unit that costs 0 needs 1 BP to be built hidden (FAQ L28; TN L28)").format(label=u.label)
        )
    if t.step == "setup":
        if u.kind == "mission":
            raise IllegalCommandError(_("{label} is a mission: nothing is done with missions in setup (FAQ L20)").format(label=u.label))
        if p.setup_partial:
            raise IllegalCommandError(_("{side} has made the one partial build of setup (FAQ L19-20)").format(side=side))
        if n > p.setup_bp:
            raise IllegalCommandError(_("{side} has {setup_bp} setup BP left, not {n}").format(side=side, setup_bp=p.setup_bp, n=n))
        t = t.with_player(replace(p, setup_bp=p.setup_bp - n, setup_partial=True, setup_done=True, hand=p.hand - 1))
        t = t.with_unit(replace(u, zone="build", status="partial", counters=n))
        said.append(_("{side} ends setup by partially building {label} with {n} counters (FAQ L19-20)").format(side=side, label=u.label, n=n))
        return _draw(t, side, 1, said, N_("1 more card for the final partial build, FAQ L19"))
    if t.step != "build":
        raise IllegalCommandError(_("building happens in the build step, not the {step} step (FAQ L27)").format(step=step_name(t.step)))
    if n > p.bp:
        raise IllegalCommandError(_("{side} has {bp} BP left and cannot spend {n}; each new build takes at least 1 (FAQ L28)").format(side=side, bp=p.bp, n=n))
    hand = p.hand - (1 if u.zone == "hand" else 0)
    t = t.with_player(replace(p, bp=p.bp - n, hand=hand, bp_spent=p.bp_spent + n))
    t = t.with_unit(replace(u, zone="build", status="partial", counters=u.counters + n))
    u2 = t.unit(u.id)
    said.append(
        n_("{label}: {n} build counter, {counters} of {cost}; {value} BP left (FAQ L27-28)",
           "{label}: {n} build counters, {counters} of {cost}; {value} BP left (FAQ L27-28)", n).format(
            label=u.label, n=n, counters=u2.counters, cost=u.cost, value=p.bp - n
        )
        + (
            _(" — complete: deploy it, keep it hidden (as=hidden) or deploy it as retreated (as=retreated) (FAQ TN L30)")
            if u2.counters >= u.cost and u.kind == "unit"
            else ""
        )
    )
    return t


@_verb("setup-done")
def _setup_done(t: Table, cmd: Command, said: list[str]) -> Table:
    """A side that has run out of units to deploy stops; the other goes on (FAQ L17)."""
    side = _side(cmd)
    if t.step != "setup":
        raise IllegalCommandError(_("setup is over"))
    p = t.player(side)
    said.append(
        _("{side} stops deploying with {setup_bp} BP left; {value} goes on until its 30 BP are spent (FAQ L17)").format(
            side=side, setup_bp=p.setup_bp, value=other(side)
        )
    )
    return t.with_player(replace(p, setup_done=True))


@_verb("play")
def _play(t: Table, cmd: Command, said: list[str]) -> Table:
    """Play a battle card from hand: 'DS play ID'; not in setup (TN L20) nor at the end of the turn (FAQ L42)."""
    side = _side(cmd)
    u = _own(t, cmd, 0, N_("the battle card"))
    if u.kind != "battle":
        raise IllegalCommandError(_("{label} is a {kind}, not a battle card").format(label=u.label, kind=u.kind))
    _refuse_in_setup(t, N_("playing a battle card"), "TN L20")
    if t.step == "end":
        raise IllegalCommandError(_("battle cards cannot be played at the end of the turn; activated abilities still can (FAQ L42)"))
    p = t.player(side)
    t = t.with_player(replace(p, hand=p.hand - 1, discard=p.discard + 1)).with_unit(replace(u, zone="discard"))
    said.append(_("{side} plays {label}; any triggered abilities it fires wait until it is done (FAQ L57-66)").format(side=side, label=u.label))
    return t


@_verb("ability", "cost", "text", "this-unit")
def _ability(t: Table, cmd: Command, said: list[str]) -> Table:
    """Use a unit's activated ability: 'DS ability UNIT [cost=N] [text=...]'."""
    side = _side(cmd)
    u = _own(t, cmd, 0, N_("the unit"))
    if t.step == "setup":
        raise IllegalCommandError(_("no unit ability works in setup; they start at the start of turn 1 (FAQ L18)"))
    if u.zone == "build" and u.status == "partial":
        raise IllegalCommandError(_("{label} is partially built: its abilities can't be used until it is deployed (FAQ L45)").format(label=u.label))
    if u.aboard is not None and cmd.flag("this-unit"):
        raise IllegalCommandError(
            _("{label} is piloting {label2} and is not a unit: its 'this unit' abilities (printed before 'Pilot') do not work (FAQ L144)").format(
                label=u.label, label2=t.unit(u.aboard).label
            )
        )
    cost = cmd.int_opt("cost", 0) or 0
    p = t.player(side)
    if cost > p.force:
        raise IllegalCommandError(_("{side} has {force} Force and the ability costs {cost}").format(side=side, force=p.force, cost=cost))
    t = t.with_player(replace(p, force=p.force - cost))
    said.append(
        _("{side} uses an activated ability of {label}").format(side=side, label=u.label)
        + (_(", paying {cost} Force").format(cost=cost) if cost else "")
        + (_(" — at the end of the turn activated abilities may still be used (FAQ L42)") if t.step == "end" else "")
        + _("; each activated ability once per chance (FAQ L46, L86-88)")
    )
    return t


# --- the turn's steps (reading R6 in docs/readings.md: one shared turn, DS first where order matters) ---------


#: what the table does in each step, said when the step begins (the FAQ's lines; readings R6-R9)
STEP_DUTIES = {
    "untap": N_("every unit untaps, pilots on units too, DS first where order matters (FAQ L23, L129)"),
    "build-points": N_("the BP roll is entered by the table: 'DS bp N' (reading R7 in docs/readings.md: the dice are not in the source)"),
    "force": N_("Force gained is entered by the table: 'DS gain-force N' (reading R7 in docs/readings.md), DS first (FAQ L23)"),
    "build-start": N_("each side draws, collects Bounty and pays Upkeep in the order it chooses; DS collects Bounty first (FAQ L27, L77-78, "
                      "L162-163; reading R8 in docs/readings.md)"),
    "build": N_("start partial builds (≥ 1 BP each), add counters, deploy, move each pilot once (FAQ L27-30, L130-134)"),
    "retreat": N_("untapped units may retreat, tapping (FAQ L32)"),
    "end": N_("'when the battle phase ends' abilities resolve; battle cards can't be played, activated abilities can (FAQ L42)"),
}
#: a battle step's duty (each arena's)
BATTLE_DUTY = N_("one play-or-pass for speed boosts, then units act in speed order entered by the table (FAQ L35-36; readings R9, R7 in "
                 "docs/readings.md)")


@_verb("next", "force")
def _next(t: Table, cmd: Command, said: list[str]) -> Table:
    """Go to the next step of the shared turn (untap → build points → Force → start of build → build → retreat → battle per arena → end)."""
    if t.attack is not None:
        raise IllegalCommandError(_("{attacker}'s attack is under way; finish it with 'end-attack'").format(attacker=t.attack.attacker))
    if t.contest is not None:
        raise IllegalCommandError(_("a contest is being bid; finish it first"))
    if t.step == "setup":
        unfinished = [p.side for p in t.players if not p.setup_done and p.setup_bp > 0]
        if unfinished and not cmd.flag("force"):
            said.append(_("note: {names} still had setup BP").format(names=', '.join(unfinished)))
    i = STEPS.index(t.step)
    if t.step == "end":
        return _new_turn(t, said)
    step = STEPS[i + 1]
    t = replace(t, step=step)
    said.append(
        _("step: {step}").format(step=step_name(step))
        + " — "
        + _(STEP_DUTIES.get(step, BATTLE_DUTY))
    )
    if step == "untap":
        t = replace(t, units=tuple(replace(u, tapped=False) if u.tapped and u.zone in ARENAS else u for u in t.units))
    if step == "build":
        t = replace(t, pilots_moved=frozenset())
    if step == "end":
        t = replace(t, units=tuple(replace(u, power_bonus=0) if u.power_bonus else u for u in t.units))
        said.append(_("'until end of battle' effects (Stun) expire now that all three arenas' battles are over (FAQ L40, L153)"))
    return t


def _new_turn(t: Table, said: list[str]) -> Table:
    said.append(_("turn {value} begins").format(value=t.turn + 1))
    t = replace(t, turn=t.turn + 1, step="untap", players=tuple(replace(p, drew=False, bp_spent=0) for p in t.players))
    return replace(t, units=tuple(replace(u, tapped=False) if u.tapped and u.zone in ARENAS else u for u in t.units))


@_verb("bp")
def _bp(t: Table, cmd: Command, said: list[str]) -> Table:
    """Record a side's build points for this turn, as rolled at the table (reading R7 in docs/readings.md)."""
    side = _side(cmd)
    n = cmd.int_arg(0, N_("the build points"))
    p = t.player(side)
    if p.bp_spent:
        raise IllegalCommandError(
            _(
                "{side} has already spent {bp_spent} of this turn's build points: the BP are entered once per turn, before building (FAQ L27); a correction "
                "is the judge's --override"
            ).format(side=side, bp_spent=p.bp_spent)
        )
    said.append(_("{side} has {n} BP this turn (entered: the BP roll is not described in the source, reading R7 in docs/readings.md)").format(side=side, n=n))
    return t.with_player(replace(p, bp=n))


@_verb("gain-force")
def _gain_force(t: Table, cmd: Command, said: list[str]) -> Table:
    """Add Force to a side's pool once: 'You gain +4 Force' (FAQ L24)."""
    side = _side(cmd)
    n = cmd.int_arg(0, N_("the Force gained"))
    p = t.player(side)
    said.append(_("{side}'s Force pool {force} + {n} = {value}, once (FAQ L24)").format(side=side, force=p.force, n=n, value=p.force + n))
    return t.with_player(replace(p, force=p.force + n))


@_verb("draw")
def _draw_cmd(t: Table, cmd: Command, said: list[str]) -> Table:
    """Draw cards: the start-of-build-step draw (1, reading R8 in docs/readings.md) or a card's draw."""
    side = _side(cmd)
    n = cmd.int_arg(0, N_("the cards drawn")) if cmd.args else 1
    return _draw(
        t,
        side,
        n,
        said,
        N_("the start-of-build-step draw, in the order the side chooses with Bounty and Upkeep (FAQ L27; reading R8 in docs/readings.md)")
        if t.step == "build-start"
        else N_("a card's draw"),
    )


@_verb("discard", "from")
def _discard(t: Table, cmd: Command, said: list[str]) -> Table:
    """'DS discard N': discard cards — from hand unless a place is named (FAQ L80)."""
    side = _side(cmd)
    n = cmd.int_arg(0, N_("the cards discarded"))
    where = cmd.opt("from", "hand")
    p = t.player(side)
    if where != "hand":
        raise NotationError(_("{cmd!r}: only the hand is tracked as a count; name the cards another way").format(cmd=str(cmd)))
    k = min(n, p.hand)
    said.append(n_("{side} discards {k} card from hand: a discard with no place named comes from the hand (FAQ L80)",
                   "{side} discards {k} cards from hand: a discard with no place named comes from the hand (FAQ L80)", k).format(side=side, k=k))
    return t.with_player(replace(p, hand=p.hand - k, discard=p.discard + k))


@_verb("collect-bounty")
def _bounty(t: Table, cmd: Command, said: list[str]) -> Table:
    """Collect Bounty earned last turn, at the start of the build step; DS first when both earned (FAQ L77-78)."""
    side = _side(cmd)
    p = t.player(side)
    if t.step != "build-start":
        raise IllegalCommandError(_("Bounty is collected at the start of the build step (FAQ L77-78)"))
    if p.bounties == 0:
        raise IllegalCommandError(_("{side} earned no Bounty last turn").format(side=side))
    if side == "LS" and t.player("DS").bounties:
        raise IllegalCommandError(_("both sides earned Bounty: the Dark Side collects first (FAQ L77-78)"))
    said.append(
        n_(
            "{side} collects {bounties} Bounty reward; the reward is the card's own (FAQ L77-78); Upkeep and the draw may come before or after, as the "
            "side chooses (FAQ L162-163)",
            "{side} collects {bounties} Bounty rewards; the reward is the card's own (FAQ L77-78); Upkeep and the draw may come before or after, as the "
            "side chooses (FAQ L162-163)",
            p.bounties,
        ).format(side=side, bounties=p.bounties)
    )
    return t.with_player(replace(p, bounties=0))


def upkeep_owed(t: Table, side: str) -> list[Unit]:
    """Units whose Upkeep is owed: in an arena, retreated, in a stack, or piloting (FAQ L160; reading R12 in docs/readings.md)."""
    return [u for u in t.units if u.owner == side and (u.upkeep or u.upkeep_text) and (u.zone in ARENAS or (u.zone == "build" and u.status == "retreated"))]


@_verb("pay-upkeep", "pay")
def _upkeep(t: Table, cmd: Command, said: list[str]) -> Table:
    """Pay every Upkeep owed, at the start of the build step: 'DS pay-upkeep [pay=UNIT:tap,UNIT2:bp]' (FAQ L159-163)."""
    side = _side(cmd)
    owed = upkeep_owed(t, side)
    if not owed:
        raise IllegalCommandError(_("{side} owes no Upkeep").format(side=side))
    plain = [u for u in owed if not u.upkeep_text]
    plans = _upkeep_plans(t, cmd, [u for u in owed if u.upkeep_text])  # every choice checked before anything is paid
    if plain:
        t = _pay_plain_upkeep(t, side, plain, said)
    for u, pick, n, text in plans:
        t = _pay_printed_upkeep(t, t.unit(u.id), pick, n, text, said)
    return t


def _upkeep_plans(t: Table, cmd: Command, printed: list[Unit]) -> list[tuple[Unit, str, int, str]]:
    """The choice each printed Upkeep is paid with: the one it has, or the one pay=UNIT:CHOICE names."""
    picks: dict[str, str] = {}
    for item in filter(None, (cmd.opt("pay", "") or "").split(",")):
        uid, _sep, choice = item.partition(":")
        picks[t.unit(uid.strip()).id] = choice.strip().lower()
    plans = []
    for u in printed:
        choices, unread = upkeep_choices(u.upkeep_text)
        options = {k: (n, "") for k, n in choices} | ({"hand": (0, "; ".join(unread))} if unread else {})
        pick = picks.pop(u.id, None)
        if pick is None and len(options) == 1:
            pick = next(iter(options))
        if pick not in options:
            raise IllegalCommandError(
                _("{label}'s Upkeep is '{text}': say which choice it is paid with, e.g. 'pay={id}:{first}' (choices: {names})").format(
                    label=u.label, text=u.upkeep_text, id=u.id, first=next(iter(options)), names=", ".join(options)
                )
            )
        n, text = options[pick]
        plans.append((u, pick, n, text))
    if picks:
        raise NotationError(_("pay={names}: no Upkeep with choices is owed by these").format(names=", ".join(picks)))
    return plans


def _pay_printed_upkeep(t: Table, u: Unit, pick: str, n: int, text: str, said: list[str]) -> Table:
    p = t.player(u.owner)
    why = _("(FAQ L159-163: owed even when retreated, stacked or piloting)")
    if pick in ("force", "bp"):
        have = p.force if pick == "force" else p.bp
        if have < n:
            raise IllegalCommandError(_("{label}'s Upkeep: {side} has {have} and the choice costs {n}; choose another").format(
                label=u.label, side=u.owner, have=have, n=n))
        said.append(_("{label} pays Upkeep: {n} {what} {why}").format(label=u.label, n=n, what=_("Force") if pick == "force" else _("build points"), why=why))
        return t.with_player(replace(p, force=p.force - n) if pick == "force" else replace(p, bp=p.bp - n))
    if pick == "tap":
        if u.tapped:
            raise IllegalCommandError(_("{label} is already tapped: tapping it can't pay its Upkeep; choose another").format(label=u.label))
        said.append(_("{label} pays Upkeep by tapping {why}").format(label=u.label, why=why))
        return t.with_unit(replace(u, tapped=True))
    if pick == "discard":
        if p.hand < n:
            raise IllegalCommandError(_("{label}'s Upkeep: {side} has {have} cards in hand and the choice discards {n}; choose another").format(
                label=u.label, side=u.owner, have=p.hand, n=n))
        said.append(n_("{label} pays Upkeep: {side} discards {n} card from the hand {why}",
                       "{label} pays Upkeep: {side} discards {n} cards from the hand {why}", n).format(label=u.label, side=u.owner, n=n, why=why))
        return t.with_player(replace(p, hand=p.hand - n, discard=p.discard + n))
    if pick == "damage":
        said.append(n_("{label} pays Upkeep: {n} damage counter on it {why}",
                       "{label} pays Upkeep: {n} damage counters on it {why}", n).format(label=u.label, n=n, why=why))
        return t.with_unit(replace(u, damage=u.damage + n))
    said.append(_("{label}'s Upkeep is done by hand: {text} (not modelled)").format(label=u.label, text=text))
    return t


def _pay_plain_upkeep(t: Table, side: str, owed: list[Unit], said: list[str]) -> Table:
    total = sum(u.upkeep for u in owed)
    p = t.player(side)
    where = ", ".join(
        f"{u.label} {u.upkeep}"
        + (" (retreated)" if u.status == "retreated" else "")
        + (" (piloting)" if u.aboard else "")
        + (f" (stack of {u.stacked + 1})" if u.stacked else "")
        for u in owed
    )
    said.append(
        _(
            "{side} owes Upkeep {total}: {where} — still owed when retreated, stacked or piloting (FAQ L160; reading R12 in docs/readings.md); a side that "
            "can pay must (FAQ L159); the currency is not in the source, Force assumed"
        ).format(side=side, total=total, where=where)
    )
    if total > p.force:
        said.append(
            _("{side} has {force} Force and cannot pay {total}: the consequence is not in the source — ask the judge").format(
                side=side, force=p.force, total=total
            )
        )
        return t
    return t.with_player(replace(p, force=p.force - total))


# --- pilots (FAQ L115-147) ----------------------------------------------------------------


def pilot_kinds(pilot: Unit) -> tuple[str, ...]:
    """The vehicle kinds a pilot may fly: "Starfighter, Capital Ship" (the import writes each kind
    printed before "Pilot"; "Starfighter and Capital Ship Pilot" flies either)."""
    return tuple(k.strip() for k in re.split(r"\s*(?:,|/|\band\b|\bor\b)\s*", pilot.pilots) if k.strip())


def _fits(kind: str, subtypes: tuple[str, ...]) -> bool:
    """A kind of one or more words ("Capital Ship") is among the vehicle's subtypes, in order;
    a plural on either side is the same kind ("Capital ships")."""
    words = [w.lower().rstrip("s") for w in kind.split()]
    subs = [w.lower().rstrip("s") for w in subtypes]
    return any(subs[i : i + len(words)] == words for i in range(len(subs) - len(words) + 1))


def _pilot_fits(pilot: Unit, vehicle: Unit) -> str | None:
    if "Droid" in vehicle.subtypes:
        return _("{label} has the Droid subtype: no pilot goes on it (FAQ L120)").format(label=vehicle.label)
    if not any(_fits(kind, vehicle.subtypes) for kind in pilot_kinds(pilot)):
        return _("{label} is a '{pilots} Pilot' and {label2} is {why}: a pilot goes only on the type written before 'Pilot' (FAQ L118)").format(
            label=pilot.label, pilots=pilot.pilots, label2=vehicle.label, why=' '.join(vehicle.subtypes) or _('no vehicle')
        )
    return None


@_verb("board")
def _board(t: Table, cmd: Command, said: list[str]) -> Table:
    """Move a pilot onto a vehicle: 'DS board PILOT -> VEHICLE' (build step, once per pilot)."""
    side = _side(cmd)
    pilot = _own(t, cmd, 0, N_("the pilot"))
    (vid,) = cmd.targets[:1] or (None,)
    if vid is None:
        raise NotationError(_("{cmd!r}: name the vehicle after '->'").format(cmd=str(cmd)))
    v = t.unit(vid)
    if t.step == "setup":
        raise IllegalCommandError(_("no pilot goes on a unit in setup: pilots deploy to the Character arena and board in a later build step (FAQ L126-127)"))
    if t.step != "build":
        raise IllegalCommandError(_("pilots move in the build step, not the {step} step (FAQ L130)").format(step=step_name(t.step)))
    if not pilot.pilots:
        raise IllegalCommandError(_("{label} has no Pilot ability").format(label=pilot.label))
    if pilot.id in t.pilots_moved:
        raise IllegalCommandError(_("{label} has already moved this build step; each pilot moves once (FAQ L131)").format(label=pilot.label))
    if v.owner != side or v.kind != "unit":
        raise IllegalCommandError(_("{label} is not one of {side}'s units").format(label=v.label, side=side))
    why = _pilot_fits(pilot, v)
    if why:
        raise IllegalCommandError(why)
    if t.pilot_of(v.id) is not None:
        raise IllegalCommandError(_("{label} already has a pilot: one pilot per unit (FAQ L119)").format(label=v.label))
    transfer = pilot.aboard is not None
    # a pilot boards from the Character arena or the build zone (FAQ L130-134): one in the hand,
    # or built to less than its cost, is not yet a card in play, and boarding would deploy it free
    if not transfer and pilot.zone == "hand":
        raise IllegalCommandError(
            _("{label} is in the hand: build it first ('{side} build {id} N'), then it boards from the build zone once complete (FAQ L27-30, L132)").format(
                label=pilot.label, side=side, id=pilot.id
            )
        )
    if not transfer and pilot.zone == "build" and pilot.status == "partial" and pilot.counters < pilot.cost:
        raise IllegalCommandError(
            n_("{label} has {counters} build counter of its cost {cost}: a pilot boards once complete (FAQ L28-30, L132)",
               "{label} has {counters} build counters of its cost {cost}: a pilot boards once complete (FAQ L28-30, L132)", pilot.counters).format(
                label=pilot.label, counters=pilot.counters, cost=pilot.cost
            )
        )
    if not transfer and v.zone not in ("space", "ground"):
        raise IllegalCommandError(
            _("boarding from the {zone} needs a vehicle in the Space or Ground arena; {label} is in the {zone2} (FAQ L132)").format(
                zone=pilot.zone, label=v.label, zone2=v.zone
            )
        )
    if transfer and v.zone not in ("space", "ground", "build"):
        raise IllegalCommandError(_("a transfer goes to a vehicle in an arena or the build zone (FAQ L133)"))
    if transfer:
        t = t.with_unit(replace(pilot, aboard=v.id, zone=v.zone))
    else:  # from the build zone it is deployed onto the unit: its build counters come off (FAQ L28-30)
        t = t.with_unit(replace(pilot, aboard=v.id, zone=v.zone, status="", counters=0))
    said.append(
        (
            _("{label} transfers to {label2}; it is no longer a unit but part of it, and grants its bonuses printed after 'Pilot' (FAQ L121-123, L132-133)")
            if transfer
            else _("{label} boards {label2}; it is no longer a unit but part of it, and grants its bonuses printed after 'Pilot' (FAQ L121-123, L132-133)")
        ).format(label=pilot.label, label2=v.label)
    )
    return replace(t, pilots_moved=t.pilots_moved | {pilot.id})


@_verb("disembark", "forced", "to")
def _disembark(t: Table, cmd: Command, said: list[str]) -> Table:
    """Move a pilot off its vehicle: 'DS disembark PILOT to=character|build'."""
    pilot = _own(t, cmd, 0, N_("the pilot"))
    to = cmd.opt("to", "character") or "character"
    if pilot.aboard is None:
        raise IllegalCommandError(_("{label} is not on a vehicle").format(label=pilot.label))
    if t.step != "build" and not cmd.flag("forced"):
        raise IllegalCommandError(_("pilots move in the build step (FAQ L130)"))
    if pilot.id in t.pilots_moved and not cmd.flag("forced"):
        raise IllegalCommandError(_("{label} has already moved this build step; each pilot moves once (FAQ L131)").format(label=pilot.label))
    if to not in ("character", "build"):
        raise NotationError(_("{cmd!r}: to= is character or build").format(cmd=str(cmd)))
    v = t.unit(pilot.aboard)
    t = t.with_unit(replace(pilot, aboard=None, zone=to))  # type: ignore[arg-type]
    said.append(
        (
            _("{label} leaves {label2} for the character arena; {label2} stays and loses its bonuses (FAQ L124, L134)")
            if to == "character"
            else _("{label} leaves {label2} for the build zone; {label2} stays and loses its bonuses (FAQ L124, L134)")
        ).format(label=pilot.label, label2=v.label)
    )
    return replace(t, pilots_moved=t.pilots_moved | {pilot.id})


@_verb("restack", "pilots")
def _restack(t: Table, cmd: Command, said: list[str]) -> Table:
    """A unique pilot's stack gets a new top card: 'DS restack PILOT pilots=Speeder' (FAQ L145-147)."""
    pilot = _own(t, cmd, 0, N_("the pilot"))
    new = cmd.opt("pilots")
    if not new:
        raise NotationError(_("{cmd!r}: give the new top card's vehicle type: pilots=Speeder").format(cmd=str(cmd)))
    t = t.with_unit(replace(pilot, pilots=new))
    said.append(_("the top card of {label}'s stack is now a '{new} Pilot'; only the top card's bonuses count (FAQ L146)").format(label=pilot.label, new=new))
    if pilot.aboard:
        v = t.unit(pilot.aboard)
        if new not in v.subtypes:
            fits = [u.label for u in t.in_arena(owner=pilot.owner) if new in u.subtypes and t.pilot_of(u.id) is None and "Droid" not in u.subtypes]
            said.append(
                _("{label} is not a {new}: {label2} must move — to a {new} ({why}), the Character arena or the build zone (FAQ L147)").format(
                    label=v.label, new=new, label2=pilot.label, why=', '.join(fits) or 'none in play'
                )
            )
    return t


# --- retreat (FAQ L32, L136) -------------------------------------------------------------


@_verb("retreat", "forced")
def _retreat(t: Table, cmd: Command, said: list[str]) -> Table:
    """Retreat a unit to the build zone: 'DS retreat UNIT' (retreat step; forced=yes when a card makes it)."""
    u = _own(t, cmd, 0, N_("the unit"))
    forced = cmd.flag("forced")
    if u.zone not in ARENAS:
        raise IllegalCommandError(_("{label} is not in an arena").format(label=u.label))
    if forced:
        t = t.with_unit(replace(u, zone="build", status="retreated", aboard=None))
        said.append(_("{label} retreats by a card's effect: tapped or not, and its tap state does not change (FAQ L32)").format(label=u.label))
        return _carry_pilot(t, u, "build", said)
    if t.step != "retreat":
        raise IllegalCommandError(_("units retreat in the retreat step, not the {step} step (FAQ L32)").format(step=step_name(t.step)))
    if u.tapped:
        raise IllegalCommandError(_("{label} is tapped: only an untapped unit retreats in the retreat step (FAQ L32)").format(label=u.label))
    if u.aboard is not None:  # a pilot retreating alone
        t = t.with_unit(replace(u, zone="build", status="retreated", aboard=None, tapped=True))
        said.append(_("{label} retreats alone and taps; the vehicle stays (FAQ L136)").format(label=u.label))
        return t
    pilot = t.pilot_of(u.id)
    if pilot is not None and pilot.tapped:
        raise IllegalCommandError(
            _("{label} is piloted by tapped {label2}: both must be untapped to retreat (FAQ L136)").format(label=u.label, label2=pilot.label)
        )
    t = t.with_unit(replace(u, zone="build", status="retreated", tapped=True))
    said.append(_("{label} retreats to the build zone and taps (FAQ L32)").format(label=u.label))
    if pilot is not None:
        t = t.with_unit(replace(pilot, zone="build", tapped=True))
        said.append(_("its pilot {label} goes with it and taps too (FAQ L136)").format(label=pilot.label))
    return t


def _piles_after_move(t: Table, before: Unit) -> Table:
    """The owner's hand and discard counts after ``before`` changed zone: the counts are every card
    in the pile, a card the table lists as a unit included (play and discard count it so), so a
    unit destroyed, or moved by a card's effect, into or out of the hand or the discard pile
    counts there too."""
    after = t.unit(before.id)
    if after.zone == before.zone or before.owner not in (p.side for p in t.players):
        return t
    p = t.player(before.owner)
    counts = {"hand": p.hand, "discard": p.discard}
    if before.zone in counts:
        counts[before.zone] = max(0, counts[before.zone] - 1)
    if after.zone in counts:
        counts[after.zone] += 1
    return t.with_player(replace(p, hand=counts["hand"], discard=counts["discard"]))


def _carry_pilot(t: Table, vehicle: Unit, zone: str, said: list[str]) -> Table:
    pilot = t.pilot_of(vehicle.id)
    if pilot is None:
        return t
    said.append(_("its pilot {label} goes with it to the {zone} (FAQ L125, L142)").format(label=pilot.label, zone=zone))
    if zone in ("discard", "hand"):
        return _piles_after_move(t.with_unit(replace(pilot, zone=zone, aboard=None, damage=0)), pilot)  # type: ignore[arg-type]
    return t.with_unit(replace(pilot, zone=zone))  # type: ignore[arg-type]


@_verb("move-card", "to")
def _move_card(t: Table, cmd: Command, said: list[str]) -> Table:
    """A card's effect moves a unit or pilot: 'DS move-card ID to=discard|hand|build'."""
    u = t.unit(cmd.arg(0, N_("the card")))
    to = cmd.opt("to")
    if to not in ("discard", "hand", "build"):
        raise NotationError(_("{cmd!r}: to= is discard, hand or build").format(cmd=str(cmd)))
    if u.aboard is not None:
        v = t.unit(u.aboard)
        t = _piles_after_move(t.with_unit(replace(u, zone=to, aboard=None)), u)  # type: ignore[arg-type]
        said.append(
            _("pilot {label} goes to the {to}; {label2} stays where it is and loses the pilot's bonuses (FAQ L124)").format(
                label=u.label, to=to, label2=v.label
            )
        )
        return t
    t = _piles_after_move(t.with_unit(replace(u, zone=to, status="retreated" if to == "build" else "")), u)  # type: ignore[arg-type]
    said.append(_("{label} goes to the {to}").format(label=u.label, to=to))
    return _carry_pilot(t, u, to, said)


# --- battle (FAQ L33-40, L67-114, L148-157) ---------------------------------------------


def _current_arena(t: Table) -> str:
    return t.step.removeprefix("battle-")


def _can_attack(t: Table, attacker: Unit, target: Unit) -> str | None:
    if target.aboard is not None:
        return _("{label} is piloting {label2}: a pilot is not a unit and can't be attacked (FAQ L139)").format(
            label=target.label, label2=t.unit(target.aboard).label
        )
    if target.kind != "unit" or target.zone not in ARENAS:
        return _("{label} is not a unit in an arena").format(label=target.label)
    if target.owner == attacker.owner:
        return _("{label} is {owner}'s own unit").format(label=target.label, owner=attacker.owner)
    if target.zone != attacker.zone:
        return _("{label} is in the {zone} arena and {label2} in the {zone2}: attacks stay in one arena (FAQ L84, L149)").format(
            label=target.label, zone=target.zone, label2=attacker.label, zone2=attacker.zone
        )
    if target.cannot_attack:
        return _("{label} can't be attacked (e.g. Han Enchained, FAQ TN L70)").format(label=target.label)
    return None


@_verb("attack")
def _attack(t: Table, cmd: Command, said: list[str]) -> Table:
    """'DS attack UNIT -> DEFENDER': the attack begins when the defender is chosen (FAQ L34)."""
    _side(cmd)
    a = _own(t, cmd, 0, N_("the attacker"))
    if not _battle(t):
        raise IllegalCommandError(_("attacks happen in a battle step, not the {step} step (FAQ L33-36)").format(step=step_name(t.step)))
    if t.attack is not None:
        raise IllegalCommandError(_("{attacker} is attacking; finish that attack first ('end-attack')").format(attacker=t.attack.attacker))
    if a.zone != _current_arena(t) or a.aboard is not None:
        raise IllegalCommandError(
            _("{label} is not a unit in the {value} arena, whose battle step this is (FAQ L36)").format(label=a.label, value=_current_arena(t))
        )
    if a.tapped:
        raise IllegalCommandError(_("{label} is tapped; only untapped units attack (FAQ L37, inference)").format(label=a.label))
    if a.cannot_attack:
        raise IllegalCommandError(_("{label} can't attack (e.g. Han Enchained; it may still tap and zap, FAQ TN L70)").format(label=a.label))
    if not cmd.targets:
        raise NotationError(_("{cmd!r}: name the defender after '->'").format(cmd=str(cmd)))
    d = t.unit(cmd.targets[0])
    why = _can_attack(t, a, d)
    if why:
        raise IllegalCommandError(why)
    t = t.with_unit(replace(a, tapped=True))
    power = stat(t, a, "power")
    t = replace(t, attack=AttackState(a.id, d.id, power, window="before-roll"))
    said.append(
        _(
            "{label} (power {power}) attacks {label2}; the choice to attack can't be changed now (FAQ L34, L69). Before the roll: Retaliate, Intercept and "
            "power cards (FAQ L85-88, L150-151)"
        ).format(label=a.label, power=power, label2=d.label)
    )
    odd = not_modelled(t, a, d)
    if odd:
        said.append(_("not modelled (apply by hand with effect commands): {names}").format(names=', '.join(odd)))
    return t


def _need_attack(t: Table) -> AttackState:
    if t.attack is None:
        raise IllegalCommandError(_("no attack is under way"))
    return t.attack


def _once(at: AttackState, key: str, what: str) -> None:
    if key in at.used:
        raise IllegalCommandError(
            _(
                "{what} was already used in this attack's chance; each activated ability once per chance, and starting the attack opened only one (FAQ L86-89)"
            ).format(what=_(what))
        )


@_verb("intercept", "cost")
def _intercept(t: Table, cmd: Command, said: list[str]) -> Table:
    """'LS intercept UNIT [cost=N]': another unit in the same arena becomes the defender; no new attack (FAQ L84-88)."""
    side = _side(cmd)
    at = _need_attack(t)
    u = _own(t, cmd, 0, N_("the intercepting unit"))
    if at.window != "before-roll":
        raise IllegalCommandError(_("Intercept is used before the attacker rolls (FAQ L85-88)"))
    if not keyword(t, u, "intercept"):
        raise IllegalCommandError(_("{label} does not have Intercept").format(label=u.label) + _conditional_hint(u, "intercept"))
    _once(at, f"{u.id}:intercept", f"{u.label}'s Intercept")
    defender = t.unit(at.defender)
    if defender.owner != side or u.id == defender.id:
        raise IllegalCommandError(_("Intercept protects another of {side}'s units that is being attacked (FAQ L84)").format(side=side))
    t = _pay(t, side, _keyword_cost(cmd, u, "intercept", said, t))
    at = replace(at, used=at.used + (f"{u.id}:intercept",))
    why = _can_attack(t, t.unit(at.attacker), u)
    if why:
        said.append(
            _(
                "Intercept has no effect: the attacker can't attack {label} ({why}); costs paid gain nothing and the defender stays {label2} (FAQ L85; "
                "reading R11 in docs/readings.md)"
            ).format(label=u.label, why=why, label2=defender.label)
        )
        return replace(t, attack=at)
    said.append(
        _("{label} intercepts: {label2} now attacks {label}; it is the same attack, not a new one (FAQ L85-88)").format(
            label=u.label, label2=t.unit(at.attacker).label
        )
    )
    return replace(t, attack=replace(at, defender=u.id))


def _pay(t: Table, side: str, cost: int) -> Table:
    p = t.player(side)
    if cost > p.force:
        raise IllegalCommandError(_("{side} has {force} Force and the cost is {cost}").format(side=side, force=p.force, cost=cost))
    return t.with_player(replace(p, force=p.force - cost))


@_verb("retaliate", "cost")
def _retaliate(t: Table, cmd: Command, said: list[str]) -> Table:
    """'LS retaliate UNIT [cost=N]': before the roll; X dice of damage to the attacker when the attack ends (FAQ L148-151)."""
    side = _side(cmd)
    at = _need_attack(t)
    u = _own(t, cmd, 0, N_("the retaliating unit"))
    x = keyword_value(t, u, "retaliate")
    if not x:
        raise IllegalCommandError(_("{label} does not have Retaliate").format(label=u.label) + _conditional_hint(u, "retaliate"))
    if at.window != "before-roll":
        raise IllegalCommandError(_("Retaliate is activated before the attacker rolls (FAQ L150-151)"))
    if u.id != at.defender:
        raise IllegalCommandError(_("{label} is not the unit being attacked (Retaliate: 'if a unit attacks this unit', FAQ L149)").format(label=u.label))
    _once(at, f"{u.id}:retaliate", f"{u.label}'s Retaliate")
    t = _pay(t, side, _keyword_cost(cmd, u, "retaliate", said, t))
    said.append(
        _("{label} retaliates: {dice} to {label2} when the attack ends, even if {label} is discarded by then (FAQ L150-151)").format(
            label=u.label, dice=dice_of_damage(int(x)), label2=t.unit(at.attacker).label
        )
    )
    return replace(t, attack=replace(at, used=at.used + (f"{u.id}:retaliate",), retaliate=at.retaliate + ((u.id, x),)))


def _keyword_cost(cmd: Command, u: Unit, word: str, said: list[str], t: Table, instance: int = 0) -> int:
    """The Force a keyword costs: cost=N as said at the table, else the printed cost — the unit's
    own instances first, then those its pilot grants (each with its own printed cost)."""
    own = [c for k, v in u.costs if k == word for c in (v if isinstance(v, tuple) else (v,))]
    own_n = len(_instances(u.kw(word, None)))
    p = t.pilot_of(u.id)
    granted = [c for k, v in (p.grant_costs if p else ()) if k == word for c in (v if isinstance(v, tuple) else (v,))]
    printed: int | None
    if instance < own_n:
        printed = own[instance] if instance < len(own) else (own[0] if len(own) == 1 and word != "evade" else None)
    else:
        j = instance - own_n
        printed = granted[j] if j < len(granted) else None
    given = cmd.int_opt("cost", None)
    if given is None and printed:
        said.append(_("{label} pays {printed} Force for its {value}, as printed").format(label=u.label, printed=printed, value=word.replace('_', ' ').title()))
    return given if given is not None else (printed or 0)


def _instances(v: Any) -> tuple[Any, ...]:
    if v is None or v is False:
        return ()
    return v if isinstance(v, tuple) else (v,)


def _conditional_hint(u: Unit, word: str) -> str:
    """When a unit lacks a keyword its card gives under a condition: say so, and how to give it."""
    name = word.replace("_", " ")
    cond = [c for c in u.conditional if name in c.lower()]
    if not cond:
        return ""
    return _(" — its card gives {name} only under a condition the engine can't check ({text}); if it holds, give it first: '{side} grant {word} N -> {id}'").format(  # noqa: E501
        name=name.title(), text=cond[0], side=u.owner, word=word, id=u.id
    )


@_verb("overload")
def _overload(t: Table, cmd: Command, said: list[str]) -> Table:
    """'DS overload X Y': +X power for this attack; Y damage to itself when it ends (FAQ L109-114)."""
    at = _need_attack(t)
    x, y = cmd.int_arg(0, N_("the power added")), cmd.int_arg(1, N_("the damage to itself"))
    if at.window != "before-roll":
        raise IllegalCommandError(_("Overload is used when the unit attacks, before the roll (FAQ L110)"))
    said.append(
        _(
            "Overload: +{x} power for this attack only ({power} -> {value}); when the attack ends the unit deals {y} damage to itself, which can be "
            "prevented, evaded or deflected; usable again on each attack (FAQ L110-114)"
        ).format(x=x, power=at.power, value=at.power + x, y=y)
    )
    return replace(t, attack=replace(at, power=at.power + x, overload_self=at.overload_self + y))


@_verb("power")
def _power(t: Table, cmd: Command, said: list[str]) -> Table:
    """'LS power -5': a power card played in the before-roll window (Tyranus's Gift); the attacker stays committed (FAQ L69)."""
    at = _need_attack(t)
    n = cmd.signed_arg(0, N_("the power change"))
    said.append(
        _(
            "{label}: power {power} {n:+d} for this attack; the player chose to attack and can't switch to a 'play only when this unit would attack' "
            "ability now (FAQ L69)"
        ).format(label=t.unit(at.attacker).label, power=at.power, n=n)
    )
    return replace(t, attack=replace(at, power=max(0, at.power + n)))


def _attack_spec(t: Table, at: AttackState) -> Attack:
    a, d = t.unit(at.attacker), t.unit(at.defender)
    return Attack(at.power, keyword_value(t, a, "accuracy"), keyword_value(t, a, "critical_hit"), bool(keyword(t, d, "armor")),
                  keyword_value(t, d, "shields"))


def _rolls(cmd: Command, i: int = 0) -> list[int]:
    text = cmd.arg(i, N_("the dice, e.g. 4,5,6"))
    if not re.fullmatch(r"\d(,\d)*", text):
        raise NotationError(_("{cmd!r}: {text!r} is not a list of die rolls such as 4,5,6").format(cmd=str(cmd), text=text))
    return [int(x) for x in text.split(",")]


@_verb("roll")
def _roll(t: Table, cmd: Command, said: list[str]) -> Table:
    """'DS roll 4,5,6': the attack dice as rolled (dice = power)."""
    at = _need_attack(t)
    if at.window != "before-roll":
        raise IllegalCommandError(_("the attack dice are already rolled; rerolls come through Lucky and reroll cards"))
    r = resolve(_attack_spec(t, at), _rolls(cmd))
    said.extend(r.steps)
    pending = _reroll_triggers(t, at)
    said.append(
        _("reroll chance: ")
        + (_("first the triggered rerolls ({names}), then ").format(names=', '.join(pending)) if pending else "")
        + _("the play-or-pass, DS first, until both pass in a row (FAQ L92-101; reading R6 in docs/readings.md)")
    )
    return replace(
        t,
        attack=replace(
            at,
            rolls=r.rolls,
            hits=r.hits,
            critical=r.critical,
            damage=r.damage,
            window="reroll",
            window_turn="DS",
            passes=0,
            used=tuple(u for u in at.used if u.endswith("retaliate")),
            lucky_used=tuple(f"pending:{p}" for p in pending),
        ),
    )


def _reroll_triggers(t: Table, at: AttackState) -> list[str]:
    out = []
    for uid in (at.attacker, at.defender):
        u = t.unit(uid)
        if keyword(t, u, "reroll_trigger"):
            out.append(u.id)
    return out


def _rescore(t: Table, at: AttackState, rolls: list[int], said: list[str]) -> Table:
    r = resolve(_attack_spec(t, at), rolls)
    said.append(
        n_("now {rolls}: {hits} hit, {damage} damage", "now {rolls}: {hits} hits, {damage} damage", r.hits).format(
            rolls=list(r.rolls), hits=r.hits, damage=r.damage
        )
        + (_(" (Critical Hit +{critical})").format(critical=r.critical) if r.critical else "")
    )
    return replace(t, attack=replace(at, rolls=r.rolls, hits=r.hits, critical=r.critical, damage=r.damage))


@_verb("reroll-trigger")
def _reroll_trigger(t: Table, cmd: Command, said: list[str]) -> Table:
    """'LS reroll-trigger UNIT 1=5 3=2': a triggered reroll (Veers, Jar Jar Binks A) before the play-or-pass (FAQ L92-96)."""
    at = _need_attack(t)
    uid = cmd.arg(0, N_("the unit whose triggered reroll resolves"))
    if f"pending:{uid}" not in at.lucky_used:
        raise IllegalCommandError(_("{uid} has no triggered reroll waiting in this attack").format(uid=uid))
    pending = [p for p in at.lucky_used if p.startswith("pending:")]
    if cmd.actor == "LS" and any(t.unit(p[8:]).owner == "DS" for p in pending):
        raise IllegalCommandError(_("the Dark Side's triggered abilities resolve first (FAQ L55)"))
    rolls = list(at.rolls)
    for k, _unused, v in (a.partition("=") for a in cmd.rest(1)):
        if not k.isdigit():
            raise NotationError(_("{cmd!r}: {k!r} is not a die position; write N=ROLL, e.g. 2=5").format(cmd=str(cmd), k=k))
        i = int(k) - 1
        if not 0 <= i < len(rolls) or not v.isdigit() or not 1 <= int(v) <= 6:
            raise NotationError(_("{cmd!r}: {k}={v} is not die N=ROLL for these {n} dice").format(cmd=str(cmd), k=k, v=v, n=len(rolls)))
        rolls[i] = int(v)
    said.append(_("{label}'s triggered reroll resolves before the reroll play-or-pass (FAQ L92-96)").format(label=t.unit(uid).label))
    t = _rescore(t, at, rolls, said)
    return replace(t, attack=replace(_need_attack(t), lucky_used=tuple(p for p in at.lucky_used if p != f"pending:{uid}")))


def _window_turn(t: Table, at: AttackState, side: str, what: str) -> None:
    if at.window != "reroll":
        raise IllegalCommandError(_("{what} is used in the reroll chance after the attack roll (FAQ L91-104)").format(what=_(what)))
    if any(p.startswith("pending:") for p in at.lucky_used):
        raise IllegalCommandError(
            _("triggered rerolls resolve before the play-or-pass: ") + ", ".join(p[8:] for p in at.lucky_used if p.startswith("pending:")) + _(" (FAQ L92-96)")
        )
    if side != at.window_turn:
        raise IllegalCommandError(
            _("it is {window_turn}'s turn in the reroll play-or-pass (DS first, reading R6 in docs/readings.md)").format(window_turn=at.window_turn)
        )


@_verb("lucky", "dice")
def _lucky(t: Table, cmd: Command, said: list[str]) -> Table:
    """'DS lucky UNIT 3,5': use Lucky in the reroll play-or-pass, rerolling exactly min(Lucky, attacker's power) dice."""
    side = _side(cmd)
    at = _need_attack(t)
    _window_turn(t, at, side, N_("Lucky"))
    u = _own(t, cmd, 0, N_("the unit with Lucky"))
    if u.id not in (at.attacker, at.defender):
        raise IllegalCommandError(_("{label} is neither the attacker nor the defender").format(label=u.label))
    x = keyword_value(t, u, "lucky")
    if not x:
        raise IllegalCommandError(_("{label} does not have Lucky").format(label=u.label))
    if u.id in at.lucky_used:
        raise IllegalCommandError(_("{label} already used Lucky in this attack").format(label=u.label))
    n = lucky_rerolls(x, at.power)
    new = _rolls(cmd, 1)
    if len(new) != n:
        raise IllegalCommandError(
            _("Lucky {x} with attacker power {power} rerolls exactly {n} dice — all or nothing (FAQ L97-104; reading R13 in docs/readings.md)").format(
                x=x, power=at.power, n=n
            )
        )
    which_text = cmd.opt("dice") or ",".join(str(i + 1) for i in range(n))
    if not re.fullmatch(r"\d+(,\d+)*", which_text):
        raise NotationError(_("{cmd!r}: dice={which_text!r} lists die positions such as 1,3").format(cmd=str(cmd), which_text=which_text))
    which = [int(i) - 1 for i in which_text.split(",")]
    if len(which) != n or any(not 0 <= i < len(at.rolls) for i in which):
        raise NotationError(
            _("{cmd!r}: dice= names {n} of the {n2} dice by position (the choice is the Lucky user's, reading R13 in docs/readings.md)").format(
                cmd=str(cmd), n=n, n2=len(at.rolls)
            )
        )
    rolls = list(at.rolls)
    for i, v in zip(which, new, strict=True):
        rolls[i] = v
    src = "" if u.kw("lucky", 0) == x else _(" (Lucky stacks: {own} + pilot's {pilot}, FAQ L102-104)").format(own=u.kw("lucky", 0), pilot=x - u.kw("lucky", 0))
    said.append(
        _("{side} uses {label}'s Lucky {x}{src}: rerolls {n} dice (= the attacker's power at most, FAQ L97-104)").format(
            side=side, label=u.label, x=x, src=src, n=n
        )
    )
    t = _rescore(t, at, rolls, said)
    at2 = t.attack
    assert at2 is not None
    return replace(t, attack=replace(at2, lucky_used=at2.lucky_used + (u.id,), window_turn=other(side), passes=0))


@_verb("pass")
def _pass(t: Table, cmd: Command, said: list[str]) -> Table:
    """Pass in the current play-or-pass; two passes in a row end it (FAQ L93-101; reading R6 in docs/readings.md)."""
    side = _side(cmd)
    if t.contest is not None:
        return _bid(t, cmd, said)
    at = _need_attack(t)
    _window_turn(t, at, side, N_("passing"))
    passes = at.passes + 1
    if passes >= 2:
        said.append(
            _(
                "{side} passes; both passed in a row: the reroll chance ends and unused Lucky is lost for this attack (FAQ L94, L100-101). Prevention "
                "chance: 'prevent N', 'evade UNIT', 'deflect UNIT -> TARGET', then 'end-attack'"
            ).format(side=side)
        )
        return replace(t, attack=replace(at, window="prevention", passes=0))
    said.append(_("{side} passes; {value} may still act (FAQ L99-101)").format(side=side, value=other(side)))
    return replace(t, attack=replace(at, passes=passes, window_turn=other(side)))


@_verb("prevent")
def _prevent(t: Table, cmd: Command, said: list[str]) -> Table:
    """'LS prevent N': a prevention card or ability; prevention beyond the damage is wasted (FAQ L38)."""
    at = _need_attack(t)
    if at.window != "prevention":
        raise IllegalCommandError(_("damage is prevented in the prevention chance, after the reroll chance (FAQ L38, L58-66)"))
    n = cmd.int_arg(0, N_("the damage prevented"))
    left, used, wasted = prevent(at.damage - at.prevented, [n])
    said.append(
        _("prevent {n}: {used} prevented").format(n=n, used=used)
        + (_(", {wasted} wasted (FAQ L38)").format(wasted=wasted) if wasted else "")
        + _("; {left} damage left").format(left=left)
    )
    return replace(t, attack=replace(at, prevented=at.prevented + used))


@_verb("evade", "cost", "instance")
def _evade(t: Table, cmd: Command, said: list[str]) -> Table:
    """'LS evade UNIT [instance=N] [cost=N]': one Evade instance, once per damage dealt (FAQ L46)."""
    side = _side(cmd)
    at = _need_attack(t)
    u = _own(t, cmd, 0, N_("the evading unit"))
    if at.window != "prevention":
        raise IllegalCommandError(_("Evade is used in the prevention chance"))
    inst = keyword(t, u, "evade")
    assert isinstance(inst, tuple)
    if not inst:
        why = ""
        if u.aboard is None and u.pilots and dict(u.grants).get("evade"):
            why = _(" — its Evade is a pilot bonus, which works only aboard a {pilots} (FAQ L122)").format(pilots=u.pilots)
        raise IllegalCommandError(_("{label} has no Evade{why}").format(label=u.label, why=why) + _conditional_hint(u, "evade"))
    if u.id != at.defender:
        raise IllegalCommandError(_("{label} is not being dealt this damage").format(label=u.label))
    i = (cmd.int_opt("instance", 1) or 1) - 1
    if not 0 <= i < len(inst):
        raise NotationError(n_("{cmd!r}: {label} has {n} Evade instance",
                               "{cmd!r}: {label} has {n} Evade instances", len(inst)).format(cmd=str(cmd), label=u.label, n=len(inst)))
    _once(at, f"{u.id}:evade:{i}", f"Evade instance {i + 1} of {u.label}")
    t = _pay(t, side, _keyword_cost(cmd, u, "evade", said, t, i))
    left, used, wasted = prevent(at.damage - at.prevented, [inst[i]])
    said.append(
        _(
            "{label} Evade {inst} (instance {value} of {n}; each instance is its own ability, usable each time damage is dealt, FAQ L46): {used} prevented, "
            "{left} left ({KEYWORDS}: Evade X prevents up to X)"
        ).format(label=u.label, inst=inst[i], value=i + 1, n=len(inst), used=used, left=left, KEYWORDS=KEYWORDS)
    )
    return replace(t, attack=replace(at, prevented=at.prevented + used, used=at.used + (f"{u.id}:evade:{i}",)))


@_verb("deflect", "cost")
def _deflect(t: Table, cmd: Command, said: list[str]) -> Table:
    """'LS deflect UNIT -> TARGET [cost=N]': prevent Deflect X and deal that much to a unit in the same arena; the printed Force cost is paid."""
    side = _side(cmd)
    at = _need_attack(t)
    u = _own(t, cmd, 0, N_("the deflecting unit"))
    x = keyword_value(t, u, "deflect")
    if not x:
        raise IllegalCommandError(_("{label} does not have Deflect").format(label=u.label) + _conditional_hint(u, "deflect"))
    if at.window != "prevention" or u.id != at.defender:
        raise IllegalCommandError(_("Deflect is used by the unit dealt the damage, in the prevention chance"))
    _once(at, f"{u.id}:deflect", f"{u.label}'s Deflect")
    tgt = t.unit(cmd.targets[0]) if cmd.targets else None
    if tgt is None or tgt.zone != u.zone or tgt.aboard is not None:
        raise NotationError(_("{cmd!r}: name a unit in the {zone} arena after '->'").format(cmd=str(cmd), zone=u.zone))
    t = _pay(t, side, _keyword_cost(cmd, u, "deflect", said, t))
    _unused, used, _unused = prevent(at.damage - at.prevented, [x])
    said.append(_("{label} deflects {used} damage onto {label2} ({KEYWORDS}: Deflect X)").format(label=u.label, used=used, label2=tgt.label, KEYWORDS=KEYWORDS))
    t = replace(t, attack=replace(at, prevented=at.prevented + used, used=at.used + (f"{u.id}:deflect",)))
    return _land(t, u, tgt, used, said, N_("deflected"))


def _land(t: Table, source: Unit | None, target: Unit, n: int, said: list[str], how: str) -> Table:
    """Damage lands on a unit or pilot: Stun if the *source* has it and damaged *another* unit
    (FAQ L153-157: never the damage a unit does to itself, e.g. Overload); destroyed at damage
    >= health (reading R10 in docs/readings.md). ``source`` None: a card's effect with no unit named as its source."""
    stuns = source is not None and source.id != target.id and bool(keyword(t, source, "stun"))
    if n <= 0:
        if stuns:
            said.append(_("no damage dealt to {label}: no Stun (FAQ L154)").format(label=target.label))
        return t
    target = t.unit(target.id)
    dmg = target.damage + n
    t = t.with_unit(replace(target, damage=dmg))
    said.append(
        _("{label} takes {n} ({how}): damage {dmg} of health {value}").format(label=target.label, n=n, how=_(how), dmg=dmg, value=stat(t, target, 'health'))
    )
    stun = keyword_value(t, source, "stun") if stuns and source is not None else 0
    if source is not None and source.id == target.id and keyword(t, source, "stun"):
        said.append(_("{label} damaged itself: its Stun works only when it damages another unit (FAQ L153)").format(label=target.label))
    if stun and source is not None and target.aboard is None:  # a Stun has a source
        t = t.with_unit(replace(t.unit(target.id), power_bonus=t.unit(target.id).power_bonus - stun))
        said.append(
            _("Stun {stun} from {label}: {label2} gets -{stun} power until the end of the battle phase (FAQ L153-157)").format(
                stun=stun, label=source.label, label2=target.label
            )
        )
    if destroyed(dmg, stat(t, target, "health")):
        before = t.unit(target.id)
        t = _piles_after_move(t.with_unit(replace(before, zone="discard", aboard=None, tapped=False, status="")), before)
        said.append(
            _(
                "{label} is destroyed and goes to the discard pile (damage ≥ health, reading R10 in docs/readings.md: the pilot text says 'more than' — the "
                "judge may rule otherwise)"
            ).format(label=target.label)
            + (_("; {label} keeps its own damage (FAQ L142-143)").format(label=t.unit(target.aboard).label) if target.aboard else "")
        )
        if target.aboard is None:
            t = _carry_pilot(t, target, "discard", said)
    return t


@_verb("end-attack", "double", "overkill", "self-deflect", "self-evade", "self-prevent")
def _end_attack(t: Table, cmd: Command, said: list[str]) -> Table:
    # the docstring's first line is the verb's usage text (check_options quotes it), so it stays one line
    """Assign and land the damage, then the end-of-attack effects: 'end-attack [overkill=UNIT] [double=yes] [self-prevent=N] [self-evade=I] [self-deflect=UNIT]'."""  # noqa: E501
    at = _need_attack(t)
    if at.window == "before-roll":
        raise IllegalCommandError(_("the attack dice have not been rolled ('roll 4,5,6')"))
    if at.window == "reroll":
        raise IllegalCommandError(_("the reroll chance is still open: both sides pass in a row to end it (FAQ L93-94)"))
    a, d = t.unit(at.attacker), t.unit(at.defender)
    damage = at.damage
    to_def, to_other = damage, 0
    spill = cmd.opt("overkill")
    if spill:
        if not keyword(t, a, "overkill"):
            raise IllegalCommandError(_("{label} does not have Overkill").format(label=a.label))
        to_def, to_other = overkill(damage, stat(t, d, "health") - d.damage)
    factor = 2 if cmd.flag("double") else 1
    if factor == 2:
        said.append(
            _("damage doubled after it is assigned: {to_def} -> {value}").format(to_def=to_def, value=to_def * 2)
            + (f", {to_other} -> {to_other * 2}" if to_other else "")
            + _(" (FAQ L107-108)")
        )
    to_def, to_other = to_def * factor, to_other * factor
    landed = max(0, to_def - at.prevented)
    t = _land(t, a, d, landed, said, N_("the attack"))
    if to_other and spill:
        o = t.unit(spill)
        if o.zone != d.zone or o.owner != d.owner:
            raise IllegalCommandError(_("Overkill's extra damage goes to another of {owner}'s units in the same arena (FAQ L106-108)").format(owner=d.owner))
        said.append(
            n_("Overkill: {value} hit beyond {label}'s remaining health goes to {label2} (FAQ L106-108)",
               "Overkill: {value} hits beyond {label}'s remaining health go to {label2} (FAQ L106-108)", to_other // factor).format(
                value=to_other // factor, label=d.label, label2=o.label
            )
        )
        t = _land(t, a, o, to_other, said, N_("Overkill"))
    for uid, x in at.retaliate:
        u = t.unit(uid)
        said.append(
            _("the attack ends: {label}'s Retaliate deals {dice} to {label2}").format(label=u.label, dice=dice_of_damage(int(x)), label2=a.label)
            + (_(" although it has been discarded") if u.zone == "discard" else "")
            + n_(" — roll it with 'dice-damage {x} source={uid} -> {id}' (FAQ L150-151)",
                 " — roll them with 'dice-damage {x} source={uid} -> {id}' (FAQ L150-151)", int(x)).format(x=x, uid=uid, id=a.id)
        )
    if at.overload_self:
        t = _overload_damage(t, cmd, a, at.overload_self, said)
    said.append(_("bonuses 'for this attack' end (FAQ L113); waiting triggered abilities now resolve, DS first (FAQ L34, L55)"))
    return replace(t, attack=None)


def _overload_damage(t: Table, cmd: Command, a: Unit, total: int, said: list[str]) -> Table:
    """Overload's damage to the attacker itself when the attack ends: it may be prevented (a card,
    self-prevent=N), evaded with its own Evade (self-evade=I, the instance) or deflected with its own
    Deflect (self-deflect=UNIT), like any damage (FAQ L110-112)."""
    said.append(_("the attack ends: Overload — {label} deals {total} damage to itself (FAQ L110-114)").format(label=a.label, total=total))
    left = total
    prevented = cmd.int_opt("self-prevent", 0) or 0
    if prevented:
        left, used, _unused = prevent(left, [prevented])
        said.append(_("{used} prevented").format(used=used))
    ev = cmd.opt("self-evade")
    if ev:
        inst = keyword(t, a, "evade")
        assert isinstance(inst, tuple)
        i = (int(ev) if ev.isdigit() else 1) - 1
        if not inst or not 0 <= i < len(inst):
            raise IllegalCommandError(_("{label} has no Evade instance {value} to evade its own Overload damage").format(label=a.label, value=i + 1))
        left, used, _unused = prevent(left, [inst[i]])
        said.append(_("{label} evades {used} of its own Overload damage with Evade {inst} (FAQ L112)").format(label=a.label, used=used, inst=inst[i]))
    dv = cmd.opt("self-deflect")
    if dv:
        x = keyword_value(t, a, "deflect")
        if not x:
            raise IllegalCommandError(_("{label} does not have Deflect").format(label=a.label))
        tgt = t.unit(dv)
        if tgt.zone != a.zone or tgt.aboard is not None or tgt.id == a.id:
            raise NotationError(_("self-deflect={dv}: name another unit in the {zone} arena").format(dv=dv, zone=a.zone))
        left, used, _unused = prevent(left, [x])
        said.append(_("{label} deflects {used} of its own Overload damage onto {label2} (FAQ L112)").format(label=a.label, used=used, label2=tgt.label))
        t = _land(t, a, tgt, used, said, N_("deflected"))
    return _land(t, a, t.unit(a.id), left, said, N_("Overload"))


@_verb("dice-damage", "prevent", "rolls", "source", "then")
def _dice_damage(t: Table, cmd: Command, said: list[str]) -> Table:
    """'DS dice-damage N source=UNIT rolls=4,5 -> TARGET': dice of damage, which are not an attack (no Accuracy)."""
    n = cmd.int_arg(0, N_("the dice of damage"))
    src = t.unit(cmd.opt("source") or "")
    if not cmd.targets:
        raise NotationError(_("{cmd!r}: name the target after '->'").format(cmd=str(cmd)))
    tgt = t.unit(cmd.targets[0])
    rolls_text = cmd.opt("rolls") or ""
    if not re.fullmatch(r"(\d(,\d)*)?", rolls_text):
        raise NotationError(_("{cmd!r}: rolls={rolls_text!r} is not a list of die rolls such as 4,5").format(cmd=str(cmd), rolls_text=rolls_text))
    rolls = [int(x) for x in rolls_text.split(",") if x]
    if len(rolls) != n:
        raise IllegalRollError(n_("{dice}: give {n} roll, rolls=4", "{dice}: give {n} rolls, rolls=4,5,...", n).format(dice=dice_of_damage(n), n=n))
    r = resolve(Attack(n, 0, 0, bool(keyword(t, tgt, "armor"))), rolls)
    acc = keyword_value(t, src, "accuracy")
    said.append(
        n_("{dice} from {label}: {hits} hit", "{dice} from {label}: {hits} hits", r.hits).format(dice=dice_of_damage(n), label=src.label, hits=r.hits)
        + (_("; its Accuracy {acc} does not apply — dice of damage are not an attack (FAQ L39, L72; inference)").format(acc=acc) if acc else "")
    )
    said.append(
        _("the reroll and prevention chances come now, after the roll and the damage")
        + (
            _(", before the 'then' part ({value}); other triggered abilities fired meanwhile wait until the card is done (FAQ L48-50)").format(
                value=cmd.opt('then')
            )
            if cmd.opt("then")
            else _(" (FAQ L48-50)")
        )
    )
    return _land(t, src, tgt, max(0, r.hits - (cmd.int_opt("prevent", 0) or 0)), said, N_("dice of damage"))


@_verb("zap")
def _zap(t: Table, cmd: Command, said: list[str]) -> Table:
    """'DS zap UNIT N -> TARGET': a 'play only when this unit would attack' ability that deals damage without dice; not an attack."""
    a = _own(t, cmd, 0, N_("the unit"))
    n = cmd.int_arg(1, N_("the damage"))
    if t.attack is not None and t.attack.attacker == a.id:
        raise IllegalCommandError(_("{label} chose to attack; the choice can't be switched to a 'would attack' ability (FAQ L69)").format(label=a.label))
    if not _battle(t) or a.zone != _current_arena(t):
        raise IllegalCommandError(_("{label} acts when its turn to attack comes in its arena's battle step (FAQ L36, L69)").format(label=a.label))
    if a.tapped:
        raise IllegalCommandError(_("{label} is tapped").format(label=a.label))
    tgt = t.unit(cmd.targets[0]) if cmd.targets else None
    if tgt is None:
        raise NotationError(_("{cmd!r}: name the target after '->'").format(cmd=str(cmd)))
    t = t.with_unit(replace(a, tapped=True))
    said.append(
        _(
            "{label} taps to deal {n} damage to {label2} without dice: not an attack, so attack triggers don't fire and cards that need an attack (Rebel "
            "Surrender) can't be used"
        ).format(label=a.label, n=n, label2=tgt.label)
        + (_("; Han Enchained does not stop it (FAQ L70)") if a.cannot_attack or tgt.cannot_attack else "")
        + _(" (FAQ L69; TN L69)")
    )
    return _land(t, a, tgt, n, said, N_("tap and zap"))


@_verb("as-if-attacking")
def _as_if(t: Table, cmd: Command, said: list[str]) -> Table:
    """'DS as-if-attacking UNIT': step through a unit when the opponent has no units in the arena (FAQ L36)."""
    side = _side(cmd)
    a = _own(t, cmd, 0, N_("the unit"))
    arena = _current_arena(t)
    if not _battle(t) or a.zone != arena:
        raise IllegalCommandError(_("{label} is not in the arena whose battle step this is").format(label=a.label))
    if t.in_arena(arena, other(side)):
        raise IllegalCommandError(_("{value} has units in the {arena} arena: attack one of them").format(value=other(side), arena=arena))
    said.append(
        _(
            "{value} has no units in the {arena} arena: {label} still takes its turn in speed order 'as if attacking', for Bombard, Ion Cannon and 'play "
            "only when this unit would attack' abilities (FAQ L36)"
        ).format(value=other(side), arena=arena, label=a.label)
    )
    return t


@_verb("untap")
def _untap(t: Table, cmd: Command, said: list[str]) -> Table:
    """'DS untap UNIT': an effect untaps a unit; in its own battle step it may attack again (FAQ L37)."""
    u = _own(t, cmd, 0, N_("the unit"))
    t = t.with_unit(replace(u, tapped=False))
    again = _("; in the {zone} battle step it may attack again (FAQ L37)").format(zone=u.zone) if _battle(t) and u.zone == _current_arena(t) else ""
    said.append(_("{label} untaps{again}").format(label=u.label, again=again))
    return t


@_verb("damage", "source")
def _damage(t: Table, cmd: Command, said: list[str]) -> Table:
    """'DS damage N -> TARGET': damage from a card's text (pilots keep their own damage, FAQ L142-143)."""
    n = cmd.int_arg(0, N_("the damage"))
    if not cmd.targets:
        raise NotationError(_("{cmd!r}: name the target after '->'").format(cmd=str(cmd)))
    tgt = t.unit(cmd.targets[0])
    src = t.unit(source) if (source := cmd.opt("source")) else None
    if src is None:
        said.append(_("no source unit named (source=UNIT): the damage carries no Stun (FAQ L153)"))
    return _land(t, src, tgt, n, said, N_("an effect"))


@_verb("speed")
def _speed(t: Table, cmd: Command, said: list[str]) -> Table:
    """'DS speed 10 -> UNIT': a speed boost; boosts add up (FAQ L46)."""
    n = cmd.signed_arg(0, N_("the speed change"))
    u = t.unit(cmd.targets[0]) if cmd.targets else None
    if u is None:
        raise NotationError(_("{cmd!r}: name the unit after '->'").format(cmd=str(cmd)))
    t = t.with_unit(replace(u, speed_bonus=u.speed_bonus + n))
    said.append(_("{label}: speed {n:+d}, now {value}; effects add up (FAQ L46)").format(label=u.label, n=n, value=stat(t, t.unit(u.id), 'speed')))
    return t


#: the largest number 'set-stat' takes (reading R286): the table file's own bound
MAX_STAT = MAX_NUMBER


@_verb("set-stat", "cost", "health", "power", "speed")
def _set_stat(t: Table, cmd: Command, said: list[str]) -> Table:
    """'DS set-stat UNIT power=N [speed=N] [health=N] [cost=N]': the number a stat printed '*' has now, as the card's text sets it."""
    u = t.unit(cmd.arg(0, N_("the unit")))
    given: dict[str, int] = {}
    for k in ("cost", "speed", "power", "health"):
        v = cmd.int_opt(k, bounded=False)
        if v is not None:
            if v > MAX_STAT:
                raise NotationError(_("{cmd!r}: {stat}={value} is more than any card has; a stat is at most {limit} (reading R286)").format(
                    cmd=str(cmd), stat=k, value=v, limit=MAX_STAT))
            given[k] = v
    if not given:
        raise NotationError(_("{cmd!r}: give the stat and its number, e.g. power=3").format(cmd=str(cmd)))
    before = dict(u.printed)  # a stat set before: what its card prints, not the number set then
    for k, v in given.items():
        was = before[k] if k in before else (None if k in u.variable else getattr(u, k))
        before.setdefault(k, was)
        printed = _("printed '*', set by the card's text") if was is None else _("printed {value}").format(value=was)
        said.append(_("{label}: {stat} {value} ({printed}); say it again when the text changes it").format(label=u.label, stat=k, value=v, printed=printed))
    u = replace(u, cost=given.get("cost", u.cost), speed=given.get("speed", u.speed), power=given.get("power", u.power),
                health=given.get("health", u.health), printed=tuple(before.items()))
    return t.with_unit(replace(u, variable=tuple(k for k in u.variable if k not in given)))


@_verb("grant")
def _grant(t: Table, cmd: Command, said: list[str]) -> Table:
    """'DS grant KEYWORD [X] -> UNIT': an effect gives a keyword; Armor from two sources is one Armor (FAQ L75)."""
    name = cmd.arg(0, N_("the keyword"))
    x = cmd.int_arg(1, N_("its number")) if len(cmd.args) > 1 else True
    u = t.unit(cmd.targets[0]) if cmd.targets else None
    if u is None:
        raise NotationError(_("{cmd!r}: name the unit after '->'").format(cmd=str(cmd)))
    kws = dict(u.keywords)
    if name not in MODELLED:
        said.append(_("note: {name} is recorded but not modelled — its effect is applied by hand").format(name=name))
    if name in ISOLATED or x is True:
        had = bool(kws.get(name))
        kws[name] = True
        said.append(_("{label} has {name}").format(label=u.label, name=name) + (_(" — from a second source it is still one Armor (FAQ L75)") if had else ""))
    elif name == "evade":
        old = kws.get(name, ())
        kws[name] = (old if isinstance(old, tuple) else (old,)) + (int(x),)
        said.append(_("{label} gains another Evade instance; each is used separately (FAQ L46)").format(label=u.label))
    else:
        kws[name] = int(kws.get(name, 0)) + int(x)
        said.append(_("{label}: {name} {kws} (cumulative, FAQ L46, L103)").format(label=u.label, name=name, kws=kws[name]))
    return t.with_unit(replace(u, keywords=tuple(kws.items())))


@_verb("disrupt")
def _disrupt(t: Table, cmd: Command, said: list[str]) -> Table:
    """'DS disrupt CARD': cancel a battle card as it is played — one's own too (FAQ L82)."""
    side = _side(cmd)
    c = t.unit(cmd.arg(0, N_("the battle card")))
    if c.kind != "battle":
        raise IllegalCommandError(_("{label} is not a battle card").format(label=c.label))
    own = _(" (its own card: allowed)") if c.owner == side else ""
    said.append(_("{side} disrupts {label}{own}: the card is cancelled (FAQ L82)").format(side=side, label=c.label, own=own))
    return t


# --- contests (FAQ L4-14; reading R14 in docs/readings.md) ---------------------------------------------


def _pairs(t: Table) -> list[tuple[Unit, Unit]]:
    ds = [u for u in t.in_arena(owner="DS") if u.unique]
    ls = [u for u in t.in_arena(owner="LS") if u.unique]
    return [(a, b) for a in ds for b in ls if a.name and a.name == b.name]


@_verb("contest")
def _contest(t: Table, cmd: Command, said: list[str]) -> Table:
    """'contest [DS-UNIT LS-UNIT]': open a unique-unit contest; with several pairs DS picks which first (FAQ L10)."""
    if t.step == "setup" or not (_battle(t) or t.step == "end"):
        raise IllegalCommandError(_("contests happen during the battle phase (FAQ L6)"))
    pairs = _pairs(t)
    if not pairs:
        raise IllegalCommandError(
            _("no unique unit of one name is in battle on both sides (FAQ L6; reading R14 in docs/readings.md: the build zone does not count)")
        )
    if cmd.args:
        a, b = t.unit(cmd.arg(0, N_("the DS unit"))), t.unit(cmd.arg(1, N_("the LS unit")))
        if (a, b) not in pairs:
            raise IllegalCommandError(_("{label} and {label2} are not a DS/LS pair of same-name unique units in battle").format(label=a.label, label2=b.label))
        if len(pairs) > 1 and cmd.actor != "DS":
            raise IllegalCommandError(_("several contests at once: the Dark Side chooses which is bid first (FAQ L10)"))
    elif len(pairs) > 1:
        raise IllegalCommandError(
            _("{n} contests at once ({names}): the Dark Side chooses which is bid first — 'DS contest DS-UNIT LS-UNIT' (FAQ L10)").format(
                n=len(pairs), names=', '.join(f'{a.id}/{b.id}' for a, b in pairs)
            )
        )
    else:
        a, b = pairs[0]
    said.append(
        _(
            "contest: {label} (DS) v {label2} (LS); DS bids first, then LS, each raising only their own bid, until both decline in a row (FAQ L7; TN L7; "
            "reading R14 in docs/readings.md)"
        ).format(label=a.label, label2=b.label)
    )
    return replace(t, contest=(a.id, b.id, -1, -1, "DS", 0))


@_verb("bid")
def _bid(t: Table, cmd: Command, said: list[str]) -> Table:
    """'DS bid N' in a contest; 'DS pass' declines to raise."""
    side = _side(cmd)
    if t.contest is None:
        raise IllegalCommandError(_("no contest is being bid"))
    a, b, dsb, lsb, turn, declines = t.contest
    if side != turn:
        raise IllegalCommandError(_("it is {turn}'s bid (DS first, then alternating; reading R14 in docs/readings.md)").format(turn=turn))
    own = dsb if side == "DS" else lsb
    if cmd.verb == "pass":
        if own < 0:
            own = 0
            said.append(_("{side} bids 0").format(side=side))
        declines += 1
        said.append(_("{side} does not raise").format(side=side))
    else:
        n = cmd.int_arg(0, N_("the Force bid"))
        check_bid(side, own, n, t.player(side).force)  # type: ignore[arg-type]
        own, declines = n, 0
        said.append(_("{side} bids {n} (it need not top the other bid, TN L7)").format(side=side, n=n))
    dsb, lsb = (own, lsb) if side == "DS" else (dsb, own)
    if declines >= 2:
        return _settle(t, a, b, max(dsb, 0), max(lsb, 0), said)
    return replace(t, contest=(a, b, dsb, lsb, other(side), declines))


def _settle(t: Table, a: str, b: str, dsb: int, lsb: int, said: list[str]) -> Table:
    ua, ub = t.unit(a), t.unit(b)
    r = contest(Contender(dsb, ua.cost, ua.stacked), Contender(lsb, ub.cost, ub.stacked))
    said.append(r.explanation)
    win, lose = (ua, ub) if r.winner == "DS" else (ub, ua)
    p = t.player(r.winner)
    t = t.with_player(replace(p, force=p.force - r.winner_pays))
    t = t.with_unit(replace(lose, zone="build", status="retreated", tapped=False))
    said.append(
        _(
            "{label} retreats to the build zone untapped; it may come back in {owner}'s next build step, and if {label2} is still in an arena there is a "
            "new contest (FAQ L9, L12)"
        ).format(label=lose.label, owner=lose.owner, label2=win.label)
    )
    t = _carry_pilot(t, lose, "build", said)
    return replace(t, contest=None)


# --- triggered abilities (FAQ L51-66; reading R6 in docs/readings.md) ----------------------------------------------


@_verb("trigger", "source")
def _trigger(t: Table, cmd: Command, said: list[str]) -> Table:
    """'DS trigger TEXT [source=UNIT]': a triggered ability fires (all its conditions true now) and waits in the pool."""
    side = _side(cmd)
    text = " ".join(cmd.rest()) or "(ability)"
    said.append(_("{side}'s '{text}' fires and waits; it will resolve even if its conditions stop being true (FAQ L52-54)").format(side=side, text=text))
    return replace(t, triggers=t.triggers + ((side, text),))


@_verb("resolve-triggers")
def _resolve_triggers(t: Table, cmd: Command, said: list[str]) -> Table:
    """Resolve the waiting triggered abilities: all DS ones in the order DS picks, then LS (FAQ L55)."""
    if t.attack is not None and t.attack.window in ("reroll", "prevention"):
        raise IllegalCommandError(_("triggered abilities are held during the {window} chance (FAQ L57-66)").format(window=t.attack.window))
    if not t.triggers:
        raise IllegalCommandError(_("no triggered ability is waiting"))
    order = [x for x in t.triggers if x[0] == "DS"] + [x for x in t.triggers if x[0] == "LS"]
    said.append(
        _("resolve in this order — all Dark Side abilities first (in the order DS chooses), then the Light Side's (FAQ L55): ")
        + "; ".join(f"{s}: {text}" for s, text in order)
    )
    return replace(t, triggers=())


# --- questions ----------------------------------------------------------------------------


@_verb("is-a")
def _is_a(t: Table, cmd: Command, said: list[str]) -> Table:
    """'is-a UNIT Droid': does an effect naming a subtype affect this unit? The type line decides, not the name (FAQ L3)."""
    u = t.unit(cmd.arg(0, N_("the unit")))
    word = cmd.arg(1, N_("the subtype"))
    yes = word in u.subtypes
    said.append(
        (
            _("{label} ({type}) is a {word}: an effect naming a subtype reads the type line, not the card's name (FAQ L3)")
            if yes
            else _("{label} ({type}) is not a {word}: an effect naming a subtype reads the type line, not the card's name (FAQ L3)")
        ).format(label=u.label, type=u.type, word=word)
    )
    return t


@_verb("reads")
def _reads(t: Table, cmd: Command, said: list[str]) -> Table:
    """'reads UNIT TEXT': how to read a card's text that names the card itself (FAQ L14; reading R15 in docs/readings.md)."""
    u = t.unit(cmd.arg(0, N_("the unit")))
    text = " ".join(cmd.rest(1))
    if u.name and u.name in text and not u.unique:
        said.append(
            _("{label} is not unique: read '{name}' in its text as 'this unit' — {value} (FAQ L14; reading R15 in docs/readings.md)").format(
                label=u.label, name=u.name, value=text.replace(u.name, _('this unit'))
            )
        )
    else:
        said.append(_("{text} (as printed)").format(text=text))
    return t


def _lookup(t: Table, path: str) -> object:
    """A fact by dotted path: ``unit.ID.FIELD``, ``stat.ID.speed|power|health``,
    ``keyword.ID.NAME``, ``player.DS.FIELD``, ``attack.FIELD``, ``contest``, ``step``, ``turn``."""
    head, _unused, rest = path.partition(".")
    key, _unused, attr = rest.partition(".")
    if head == "unit":
        return getattr(t.unit(key), attr)
    if head == "stat":
        return stat(t, t.unit(key), attr)
    if head == "keyword":
        v = keyword(t, t.unit(key), attr)
        return list(v) if isinstance(v, tuple) else v
    if head == "player":
        return getattr(t.player(key), attr)
    if head == "attack":
        if t.attack is None:
            return None
        v = getattr(t.attack, rest)
        return list(v) if isinstance(v, tuple) else v
    if head in ("step", "turn", "contest", "triggers") and not rest:
        return getattr(t, head)
    if head == "upkeep-owed":
        return sum(u.upkeep for u in upkeep_owed(t, key))
    raise NotationError(
        _(
            "{path!r} is not a fact of an SW TCG table (unit.ID.FIELD, stat.ID.speed, keyword.ID.NAME, player.DS.FIELD, attack.FIELD, upkeep-owed.DS, step, "
            "turn, contest, triggers)"
        ).format(path=path)
    )


__all__ = ["apply", "lookup", "verbs", "Outcome", "IllegalCommandError", "STEP_ALIASES"]


#: a fact of the table by dotted path; a path naming no field is refused with the fields there are
lookup = naming_fields(_lookup)
