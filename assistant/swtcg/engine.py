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

from ..cardgame import IllegalCommandError, Outcome, declared_options, naming_fields, registrar
from ..cardgame.notation import Command
from ..errors import NotationError, did_you_mean
from .attack import KEYWORDS, Attack, IllegalRollError, destroyed, lucky_rerolls, overkill, prevent, resolve
from .contest import Contender, check_bid, contest
from .table import ARENAS, STEP_ALIASES, STEPS, AttackState, Table, Unit, other

ISOLATED = {"armor"}  # two sources are one Armor (FAQ L75)
#: keywords the engine applies; any other keyword on a card is reported as not modelled
MODELLED = {"accuracy", "armor", "lucky", "evade", "critical_hit", "shields", "stun", "retaliate", "intercept", "deflect", "overkill",
            "reroll_trigger", "speed", "power", "health"}


def not_modelled(t: Table, *units: Unit) -> list[str]:
    """Keywords these units have that the engine does not apply (Bombard, Ion Cannon, Reserves...)."""
    out = []
    for u in units:
        p = t.pilot_of(u.id)
        names = {k for k, _ in u.keywords} | ({k for k, _ in p.grants} if p else set())
        out += [f"{u.label}: {k}" for k in sorted(names - MODELLED)]
    return out


Handler = Callable[[Table, Command, list[str]], Table]
VERBS: dict[str, Handler] = {}


_verb = registrar(VERBS)


def verbs() -> dict[str, str]:
    return {v: (f.__doc__ or "").strip().split("\n")[0] for v, f in VERBS.items()}


def parse_command(t: Table, text: str) -> Command:
    return Command.parse(text, t.names)


def apply(t: Table, cmd: Command | str) -> Outcome:
    if isinstance(cmd, str):
        cmd = parse_command(t, cmd)
    if cmd.verb not in VERBS:
        known = sorted(VERBS)
        raise NotationError(f"{str(cmd)!r}: unknown verb {cmd.verb!r}{did_you_mean(cmd.verb, known)}; verbs: {', '.join(known)}")
    said: list[str] = []
    handler = VERBS[cmd.verb]
    cmd.check_options(declared_options(handler), ((handler.__doc__ or "").strip().splitlines() or [cmd.verb])[0])
    return Outcome(handler(t, cmd, said), tuple(said))


def _side(cmd: Command) -> str:
    if cmd.actor is None:
        raise NotationError(f"{str(cmd)!r}: say which side does this, e.g. 'DS {cmd.verb} ...'")
    return cmd.actor


def _own(t: Table, cmd: Command, i: int = 0, what: str = "the card") -> Unit:
    u = t.unit(cmd.arg(i, what))
    if u.owner != cmd.actor:
        raise IllegalCommandError(f"{u.label} is {u.owner}'s, not {cmd.actor}'s")
    return u


def _battle(t: Table) -> bool:
    return t.step.startswith("battle-")


# --- stats: what a unit has now (keywords stack unless isolated; pilot bonuses) -----------

def stat(t: Table, u: Unit, name: str) -> int:
    """A unit's speed, power or health now: printed + effects + the bonuses of its pilot
    (only aboard a vehicle; a pilot in the Character arena grants nothing, FAQ L122)."""
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


# --- setup (FAQ L16-20, L126-127) -------------------------------------------------------

def _draw(t: Table, side: str, n: int, said: list[str], why: str) -> Table:
    p = t.player(side)
    k = min(n, p.deck)
    said.append(f"{side} draws {k} ({why})" + (" — the deck is empty: nothing happens and play goes on (FAQ L43)" if k < n else ""))
    return t.with_player(replace(p, hand=p.hand + k, deck=p.deck - k))


def _refuse_in_setup(t: Table, what: str, rule: str) -> None:
    if t.step == "setup":
        raise IllegalCommandError(f"{what} is not allowed in setup ({rule})")


def _contest_check(t: Table, u: Unit, said: list[str]) -> None:
    if not u.unique:
        return
    rival = next((x for x in t.in_arena(owner=other(u.owner)) if x.unique and x.name == u.name), None)
    if rival:
        said.append(f"{u.label} meets {other(u.owner)}'s {rival.label} in battle: a unique-unit contest — a new one whenever the enemy "
                    "unit is still in an arena (FAQ L12); open it with 'contest' during the battle phase (FAQ L5-14; reading R14 in docs/readings.md)")


@_verb("deploy")
def _deploy(t: Table, cmd: Command, said: list[str]) -> Table:
    """Move a unit into its arena: in setup from hand with the 30 BP; in the build step once its counters reach its cost (or it costs 0), or a retreated unit back."""
    side = _side(cmd)
    u = _own(t, cmd, 0, "the unit")
    p = t.player(side)
    if u.kind != "unit":
        if t.step == "setup":
            raise IllegalCommandError(f"{u.label} is a {u.kind}: only units are deployed in setup (FAQ L20; TN L20)")
        if u.kind != "location":
            raise IllegalCommandError(f"{u.label} is a {u.kind}, not a unit")
    arena = u.arena.lower()
    if not arena:
        raise IllegalCommandError(f"{u.label}: its type line {u.type!r} names no arena (Space, Ground or Character)")
    keep = cmd.opt("as")
    if t.step == "setup":
        if p.setup_done:
            raise IllegalCommandError(f"{side} has stopped deploying in setup; the other side goes on until its 30 BP are spent (FAQ L17)")
        if u.zone != "hand":
            raise IllegalCommandError(f"{u.label} is not in {side}'s hand")
        if u.cost > p.setup_bp:
            raise IllegalCommandError(f"{u.label} costs {u.cost} BP and {side} has {p.setup_bp} of the 30 setup BP left (FAQ L17)")
        t = t.with_player(replace(p, setup_bp=p.setup_bp - u.cost, hand=p.hand - 1))
        t = t.with_unit(replace(u, zone=arena, status=""))  # type: ignore[arg-type]
        said.append(f"{side} deploys {u.label} into the {arena} arena for {u.cost} of the setup BP; {t.player(side).setup_bp} left (FAQ L17)")
        t = _draw(t, side, 1, said, "1 card per unit deployed in setup, FAQ L19")
        if t.player(side).setup_bp == 0:
            said.append(f"{side} has spent the 30 setup BP")
        return t
    if t.step != "build":
        raise IllegalCommandError(f"units are deployed in the build step, not the {t.step} step (FAQ L27-30)")
    if u.zone == "build" and u.status == "retreated":
        t = t.with_unit(replace(u, zone=arena, status=""))  # type: ignore[arg-type]
        said.append(f"retreated {u.label} moves from the build zone into the {arena} arena" + (", tapped as it is" if u.tapped else "")
                    + " (FAQ L29; L12)")
        _contest_check(t, t.unit(u.id), said)
        return t
    if u.zone == "hand" and u.cost == 0:
        t = t.with_unit(replace(u, zone=arena)).with_player(replace(p, hand=p.hand - 1))  # type: ignore[arg-type]
        said.append(f"{u.label} costs 0 BP and moves into its arena free (FAQ TN L28)")
        return t
    if u.zone != "build" or u.status != "partial":
        raise IllegalCommandError(f"{u.label} is not being built in the build zone ({u.zone}); start it with 'build' (FAQ L27-28)")
    if u.counters < u.cost:
        raise IllegalCommandError(f"{u.label} has {u.counters} build counters of its cost {u.cost}; it is deployed once counters ≥ cost "
                                  "(FAQ L28-30)")
    if keep == "hidden":
        said.append(f"{u.label} is complete and stays hidden in the build zone, still 'partially built' (FAQ TN L30)")
        return t
    if keep == "retreated":
        t = t.with_unit(replace(u, status="retreated"))
        said.append(f"{u.label} is deployed but kept in the build zone as a retreated unit (FAQ TN L30)")
        return t
    t = t.with_unit(replace(u, zone=arena, status="", counters=0))  # type: ignore[arg-type]
    said.append(f"{u.label} is deployed into the {arena} arena; no card is drawn for deploying in the build step (FAQ L19, L28-30)")
    _contest_check(t, t.unit(u.id), said)
    return t


@_verb("build")
def _build(t: Table, cmd: Command, said: list[str]) -> Table:
    """Put build counters on a unit or mission in the build zone: 'DS build ID N'."""
    side = _side(cmd)
    u = _own(t, cmd, 0, "the card")
    n = cmd.int_arg(1, "the build points spent")
    p = t.player(side)
    if u.kind in ("battle", "location"):
        raise IllegalCommandError(f"{u.label} is a {u.kind} card: only units and missions are built (FAQ L27)")
    if u.zone in ARENAS or u.aboard is not None:
        where = f"piloting {t.unit(u.aboard).label}" if u.aboard else f"in the {u.zone} arena"
        raise IllegalCommandError(f"{u.label} is {where}: only a card from the hand or a partial build in the build zone takes build "
                                  f"counters (FAQ L27-28)")
    if u.zone == "build" and u.status == "retreated":
        raise IllegalCommandError(f"{u.label} is a retreated unit: it comes back into its arena in the build step without build points "
                                  f"('{side} deploy {u.id}', FAQ L12, L32)")
    if u.zone not in ("hand", "build"):
        raise IllegalCommandError(f"{u.label} is in the {u.zone}: only a card from the hand or the build zone is built (FAQ L27)")
    if n < 1:
        raise IllegalCommandError(f"building {u.label} needs at least 1 BP — even a unit that costs 0 needs 1 BP to be built hidden "
                                  "(FAQ L28; TN L28)")
    if t.step == "setup":
        if u.kind == "mission":
            raise IllegalCommandError(f"{u.label} is a mission: nothing is done with missions in setup (FAQ L20)")
        if p.setup_partial:
            raise IllegalCommandError(f"{side} has made the one partial build of setup (FAQ L19-20)")
        if n > p.setup_bp:
            raise IllegalCommandError(f"{side} has {p.setup_bp} setup BP left, not {n}")
        t = t.with_player(replace(p, setup_bp=p.setup_bp - n, setup_partial=True, setup_done=True, hand=p.hand - 1))
        t = t.with_unit(replace(u, zone="build", status="partial", counters=n))
        said.append(f"{side} ends setup by partially building {u.label} with {n} counters (FAQ L19-20)")
        return _draw(t, side, 1, said, "1 more card for the final partial build, FAQ L19")
    if t.step != "build":
        raise IllegalCommandError(f"building happens in the build step, not the {t.step} step (FAQ L27)")
    if n > p.bp:
        raise IllegalCommandError(f"{side} has {p.bp} BP left and cannot spend {n}; each new build takes at least 1 (FAQ L28)")
    hand = p.hand - (1 if u.zone == "hand" else 0)
    t = t.with_player(replace(p, bp=p.bp - n, hand=hand, bp_spent=p.bp_spent + n))
    t = t.with_unit(replace(u, zone="build", status="partial", counters=u.counters + n))
    u2 = t.unit(u.id)
    said.append(f"{u.label}: {n} build counter(s), {u2.counters} of {u.cost}; {p.bp - n} BP left (FAQ L27-28)"
                + (" — complete: deploy it, keep it hidden (as=hidden) or deploy it as retreated (as=retreated) (FAQ TN L30)"
                   if u2.counters >= u.cost and u.kind == "unit" else ""))
    return t


@_verb("setup-done")
def _setup_done(t: Table, cmd: Command, said: list[str]) -> Table:
    """A side that has run out of units to deploy stops; the other goes on (FAQ L17)."""
    side = _side(cmd)
    if t.step != "setup":
        raise IllegalCommandError("setup is over")
    p = t.player(side)
    said.append(f"{side} stops deploying with {p.setup_bp} BP left; {other(side)} goes on until its 30 BP are spent (FAQ L17)")
    return t.with_player(replace(p, setup_done=True))


@_verb("play")
def _play(t: Table, cmd: Command, said: list[str]) -> Table:
    """Play a battle card from hand: 'DS play ID'; not in setup (TN L20) nor at the end of the turn (FAQ L42)."""
    side = _side(cmd)
    u = _own(t, cmd, 0, "the battle card")
    if u.kind != "battle":
        raise IllegalCommandError(f"{u.label} is a {u.kind}, not a battle card")
    _refuse_in_setup(t, "playing a battle card", "TN L20")
    if t.step == "end":
        raise IllegalCommandError("battle cards cannot be played at the end of the turn; activated abilities still can (FAQ L42)")
    p = t.player(side)
    t = t.with_player(replace(p, hand=p.hand - 1, discard=p.discard + 1)).with_unit(replace(u, zone="discard"))
    said.append(f"{side} plays {u.label}; any triggered abilities it fires wait until it is done (FAQ L57-66)")
    return t


@_verb("ability")
def _ability(t: Table, cmd: Command, said: list[str]) -> Table:
    """Use a unit's activated ability: 'DS ability UNIT [cost=N] [text=...]'."""
    side = _side(cmd)
    u = _own(t, cmd, 0, "the unit")
    if t.step == "setup":
        raise IllegalCommandError("no unit ability works in setup; they start at the start of turn 1 (FAQ L18)")
    if u.zone == "build" and u.status == "partial":
        raise IllegalCommandError(f"{u.label} is partially built: its abilities can't be used until it is deployed (FAQ L45)")
    if u.aboard is not None and cmd.flag("this-unit"):
        raise IllegalCommandError(f"{u.label} is piloting {t.unit(u.aboard).label} and is not a unit: its 'this unit' abilities (printed before "
                                  "'Pilot') do not work (FAQ L144)")
    cost = cmd.int_opt("cost", 0) or 0
    p = t.player(side)
    if cost > p.force:
        raise IllegalCommandError(f"{side} has {p.force} Force and the ability costs {cost}")
    t = t.with_player(replace(p, force=p.force - cost))
    said.append(f"{side} uses an activated ability of {u.label}" + (f", paying {cost} Force" if cost else "")
                + (" — at the end of the turn activated abilities may still be used (FAQ L42)" if t.step == "end" else "")
                + "; each activated ability once per chance (FAQ L46, L86-88)")
    return t


# --- the turn's steps (reading R6 in docs/readings.md: one shared turn, DS first where order matters) ---------

@_verb("next")
def _next(t: Table, cmd: Command, said: list[str]) -> Table:
    """Go to the next step of the shared turn (untap → build points → Force → start of build → build → retreat → battle per arena → end)."""
    if t.attack is not None:
        raise IllegalCommandError(f"{t.attack.attacker}'s attack is under way; finish it with 'end-attack'")
    if t.contest is not None:
        raise IllegalCommandError("a contest is being bid; finish it first")
    if t.step == "setup":
        unfinished = [p.side for p in t.players if not p.setup_done and p.setup_bp > 0]
        if unfinished and not cmd.flag("force"):
            said.append(f"note: {', '.join(unfinished)} still had setup BP")
    i = STEPS.index(t.step)
    if t.step == "end":
        return _new_turn(t, said)
    step = STEPS[i + 1]
    t = replace(t, step=step)
    said.append(f"step: {step}" + {
        "untap": " — every unit untaps, pilots on units too, DS first where order matters (FAQ L23, L129)",
        "build-points": " — the BP roll is entered by the table: 'DS bp N' (reading R7 in docs/readings.md: the dice are not in the source)",
        "force": " — Force gained is entered by the table: 'DS gain-force N' (reading R7 in docs/readings.md), DS first (FAQ L23)",
        "build-start": " — each side draws, collects Bounty and pays Upkeep in the order it chooses; DS collects Bounty first (FAQ L27, L77-78, L162-163; reading R8 in docs/readings.md)",
        "build": " — start partial builds (≥ 1 BP each), add counters, deploy, move each pilot once (FAQ L27-30, L130-134)",
        "retreat": " — untapped units may retreat, tapping (FAQ L32)",
        "end": " — 'when the battle phase ends' abilities resolve; battle cards can't be played, activated abilities can (FAQ L42)",
    }.get(step, " — one play-or-pass for speed boosts, then units act in speed order entered by the table (FAQ L35-36; readings R9, R7 in docs/readings.md)"))
    if step == "untap":
        t = replace(t, units=tuple(replace(u, tapped=False) if u.tapped and u.zone in ARENAS else u for u in t.units))
    if step == "build":
        t = replace(t, pilots_moved=frozenset())
    if step == "end":
        t = replace(t, units=tuple(replace(u, power_bonus=0) if u.power_bonus else u for u in t.units))
        said.append("'until end of battle' effects (Stun) expire now that all three arenas' battles are over (FAQ L40, L153)")
    return t


def _new_turn(t: Table, said: list[str]) -> Table:
    said.append(f"turn {t.turn + 1} begins")
    t = replace(t, turn=t.turn + 1, step="untap", players=tuple(replace(p, drew=False, bp_spent=0) for p in t.players))
    return replace(t, units=tuple(replace(u, tapped=False) if u.tapped and u.zone in ARENAS else u for u in t.units))


@_verb("bp")
def _bp(t: Table, cmd: Command, said: list[str]) -> Table:
    """Record a side's build points for this turn, as rolled at the table (reading R7 in docs/readings.md)."""
    side = _side(cmd)
    n = cmd.int_arg(0, "the build points")
    p = t.player(side)
    if p.bp_spent:
        raise IllegalCommandError(f"{side} has already spent {p.bp_spent} of this turn's build points: the BP are entered once per turn, "
                                  f"before building (FAQ L27); a correction is the judge's --override")
    said.append(f"{side} has {n} BP this turn (entered: the BP roll is not described in the source, reading R7 in docs/readings.md)")
    return t.with_player(replace(p, bp=n))


@_verb("gain-force")
def _gain_force(t: Table, cmd: Command, said: list[str]) -> Table:
    """Add Force to a side's pool once: 'You gain +4 Force' (FAQ L24)."""
    side = _side(cmd)
    n = cmd.int_arg(0, "the Force gained")
    p = t.player(side)
    said.append(f"{side}'s Force pool {p.force} + {n} = {p.force + n}, once (FAQ L24)")
    return t.with_player(replace(p, force=p.force + n))


@_verb("draw")
def _draw_cmd(t: Table, cmd: Command, said: list[str]) -> Table:
    """Draw cards: the start-of-build-step draw (1, reading R8 in docs/readings.md) or a card's draw."""
    side = _side(cmd)
    n = cmd.int_arg(0, "the cards drawn") if cmd.args else 1
    return _draw(t, side, n, said, "the start-of-build-step draw, in the order the side chooses with Bounty and Upkeep (FAQ L27; reading R8 in docs/readings.md)"
                 if t.step == "build-start" else "a card's draw")


@_verb("discard")
def _discard(t: Table, cmd: Command, said: list[str]) -> Table:
    """'DS discard N': discard cards — from hand unless a place is named (FAQ L80)."""
    side = _side(cmd)
    n = cmd.int_arg(0, "the cards discarded")
    where = cmd.opt("from", "hand")
    p = t.player(side)
    if where != "hand":
        raise NotationError(f"{str(cmd)!r}: only the hand is tracked as a count; name the cards another way")
    k = min(n, p.hand)
    said.append(f"{side} discards {k} card(s) from hand: a discard with no place named comes from the hand (FAQ L80)")
    return t.with_player(replace(p, hand=p.hand - k, discard=p.discard + k))


@_verb("collect-bounty")
def _bounty(t: Table, cmd: Command, said: list[str]) -> Table:
    """Collect Bounty earned last turn, at the start of the build step; DS first when both earned (FAQ L77-78)."""
    side = _side(cmd)
    p = t.player(side)
    if t.step != "build-start":
        raise IllegalCommandError("Bounty is collected at the start of the build step (FAQ L77-78)")
    if p.bounties == 0:
        raise IllegalCommandError(f"{side} earned no Bounty last turn")
    if side == "LS" and t.player("DS").bounties:
        raise IllegalCommandError("both sides earned Bounty: the Dark Side collects first (FAQ L77-78)")
    said.append(f"{side} collects {p.bounties} Bounty reward(s); the reward is the card's own (FAQ L77-78); Upkeep and the draw may come "
                "before or after, as the side chooses (FAQ L162-163)")
    return t.with_player(replace(p, bounties=0))


def upkeep_owed(t: Table, side: str) -> list[Unit]:
    """Units whose Upkeep is owed: in an arena, retreated, in a stack, or piloting (FAQ L160; reading R12 in docs/readings.md)."""
    return [u for u in t.units if u.owner == side and u.upkeep and (u.zone in ARENAS or (u.zone == "build" and u.status == "retreated"))]


@_verb("pay-upkeep")
def _upkeep(t: Table, cmd: Command, said: list[str]) -> Table:
    """Pay every Upkeep owed, at the start of the build step: 'DS pay-upkeep' (FAQ L159-163)."""
    side = _side(cmd)
    owed = upkeep_owed(t, side)
    if not owed:
        raise IllegalCommandError(f"{side} owes no Upkeep")
    total = sum(u.upkeep for u in owed)
    p = t.player(side)
    where = ", ".join(f"{u.label} {u.upkeep}" + (" (retreated)" if u.status == "retreated" else "") + (" (piloting)" if u.aboard else "")
                      + (f" (stack of {u.stacked + 1})" if u.stacked else "") for u in owed)
    said.append(f"{side} owes Upkeep {total}: {where} — still owed when retreated, stacked or piloting (FAQ L160; reading R12 in docs/readings.md); a side that can "
                "pay must (FAQ L159); the currency is not in the source, Force assumed")
    if total > p.force:
        said.append(f"{side} has {p.force} Force and cannot pay {total}: the consequence is not in the source — ask the judge")
        return t
    return t.with_player(replace(p, force=p.force - total))


# --- pilots (FAQ L115-147) ----------------------------------------------------------------

def _pilot_fits(pilot: Unit, vehicle: Unit) -> str | None:
    if "Droid" in vehicle.subtypes:
        return f"{vehicle.label} has the Droid subtype: no pilot goes on it (FAQ L120)"
    if pilot.pilots not in vehicle.subtypes:
        return (f"{pilot.label} is a '{pilot.pilots} Pilot' and {vehicle.label} is {' '.join(vehicle.subtypes) or 'no vehicle'}: a pilot "
                f"goes only on the type written before 'Pilot' (FAQ L118)")
    return None


@_verb("board")
def _board(t: Table, cmd: Command, said: list[str]) -> Table:
    """Move a pilot onto a vehicle: 'DS board PILOT -> VEHICLE' (build step, once per pilot)."""
    side = _side(cmd)
    pilot = _own(t, cmd, 0, "the pilot")
    (vid,) = cmd.targets[:1] or (None,)
    if vid is None:
        raise NotationError(f"{str(cmd)!r}: name the vehicle after '->'")
    v = t.unit(vid)
    if t.step == "setup":
        raise IllegalCommandError("no pilot goes on a unit in setup: pilots deploy to the Character arena and board in a later build step "
                                  "(FAQ L126-127)")
    if t.step != "build":
        raise IllegalCommandError(f"pilots move in the build step, not the {t.step} step (FAQ L130)")
    if not pilot.pilots:
        raise IllegalCommandError(f"{pilot.label} has no Pilot ability")
    if pilot.id in t.pilots_moved:
        raise IllegalCommandError(f"{pilot.label} has already moved this build step; each pilot moves once (FAQ L131)")
    if v.owner != side or v.kind != "unit":
        raise IllegalCommandError(f"{v.label} is not one of {side}'s units")
    why = _pilot_fits(pilot, v)
    if why:
        raise IllegalCommandError(why)
    if t.pilot_of(v.id) is not None:
        raise IllegalCommandError(f"{v.label} already has a pilot: one pilot per unit (FAQ L119)")
    transfer = pilot.aboard is not None
    if not transfer and v.zone not in ("space", "ground"):
        raise IllegalCommandError(f"boarding from the {pilot.zone} needs a vehicle in the Space or Ground arena; {v.label} is in the {v.zone} "
                                  "(FAQ L132)")
    if transfer and v.zone not in ("space", "ground", "build"):
        raise IllegalCommandError("a transfer goes to a vehicle in an arena or the build zone (FAQ L133)")
    t = t.with_unit(replace(pilot, aboard=v.id, zone=v.zone))
    said.append(f"{pilot.label} {'transfers to' if transfer else 'boards'} {v.label}; it is no longer a unit but part of it, and grants its "
                f"bonuses printed after 'Pilot' (FAQ L121-123, L132-133)")
    return replace(t, pilots_moved=t.pilots_moved | {pilot.id})


@_verb("disembark")
def _disembark(t: Table, cmd: Command, said: list[str]) -> Table:
    """Move a pilot off its vehicle: 'DS disembark PILOT to=character|build'."""
    pilot = _own(t, cmd, 0, "the pilot")
    to = cmd.opt("to", "character") or "character"
    if pilot.aboard is None:
        raise IllegalCommandError(f"{pilot.label} is not on a vehicle")
    if t.step != "build" and not cmd.flag("forced"):
        raise IllegalCommandError("pilots move in the build step (FAQ L130)")
    if pilot.id in t.pilots_moved and not cmd.flag("forced"):
        raise IllegalCommandError(f"{pilot.label} has already moved this build step; each pilot moves once (FAQ L131)")
    if to not in ("character", "build"):
        raise NotationError(f"{str(cmd)!r}: to= is character or build")
    v = t.unit(pilot.aboard)
    t = t.with_unit(replace(pilot, aboard=None, zone=to))  # type: ignore[arg-type]
    said.append(f"{pilot.label} leaves {v.label} for the {to} {'arena' if to == 'character' else 'zone'}; {v.label} stays and loses its "
                "bonuses (FAQ L124, L134)")
    return replace(t, pilots_moved=t.pilots_moved | {pilot.id})


@_verb("restack")
def _restack(t: Table, cmd: Command, said: list[str]) -> Table:
    """A unique pilot's stack gets a new top card: 'DS restack PILOT pilots=Speeder' (FAQ L145-147)."""
    pilot = _own(t, cmd, 0, "the pilot")
    new = cmd.opt("pilots")
    if not new:
        raise NotationError(f"{str(cmd)!r}: give the new top card's vehicle type: pilots=Speeder")
    t = t.with_unit(replace(pilot, pilots=new))
    said.append(f"the top card of {pilot.label}'s stack is now a '{new} Pilot'; only the top card's bonuses count (FAQ L146)")
    if pilot.aboard:
        v = t.unit(pilot.aboard)
        if new not in v.subtypes:
            fits = [u.label for u in t.in_arena(owner=pilot.owner) if new in u.subtypes and t.pilot_of(u.id) is None and "Droid" not in u.subtypes]
            said.append(f"{v.label} is not a {new}: {pilot.label} must move — to a {new} ({', '.join(fits) or 'none in play'}), the Character "
                        "arena or the build zone (FAQ L147)")
    return t


# --- retreat (FAQ L32, L136) -------------------------------------------------------------

@_verb("retreat")
def _retreat(t: Table, cmd: Command, said: list[str]) -> Table:
    """Retreat a unit to the build zone: 'DS retreat UNIT' (retreat step; forced=yes when a card makes it)."""
    u = _own(t, cmd, 0, "the unit")
    forced = cmd.flag("forced")
    if u.zone not in ARENAS:
        raise IllegalCommandError(f"{u.label} is not in an arena")
    if forced:
        t = t.with_unit(replace(u, zone="build", status="retreated", aboard=None))
        said.append(f"{u.label} retreats by a card's effect: tapped or not, and its tap state does not change (FAQ L32)")
        return _carry_pilot(t, u, "build", said)
    if t.step != "retreat":
        raise IllegalCommandError(f"units retreat in the retreat step, not the {t.step} step (FAQ L32)")
    if u.tapped:
        raise IllegalCommandError(f"{u.label} is tapped: only an untapped unit retreats in the retreat step (FAQ L32)")
    if u.aboard is not None:  # a pilot retreating alone
        t = t.with_unit(replace(u, zone="build", status="retreated", aboard=None, tapped=True))
        said.append(f"{u.label} retreats alone and taps; the vehicle stays (FAQ L136)")
        return t
    pilot = t.pilot_of(u.id)
    if pilot is not None and pilot.tapped:
        raise IllegalCommandError(f"{u.label} is piloted by tapped {pilot.label}: both must be untapped to retreat (FAQ L136)")
    t = t.with_unit(replace(u, zone="build", status="retreated", tapped=True))
    said.append(f"{u.label} retreats to the build zone and taps (FAQ L32)")
    if pilot is not None:
        t = t.with_unit(replace(pilot, zone="build", tapped=True))
        said.append(f"its pilot {pilot.label} goes with it and taps too (FAQ L136)")
    return t


def _carry_pilot(t: Table, vehicle: Unit, zone: str, said: list[str]) -> Table:
    pilot = t.pilot_of(vehicle.id)
    if pilot is None:
        return t
    said.append(f"its pilot {pilot.label} goes with it to the {zone} (FAQ L125, L142)")
    if zone in ("discard", "hand"):
        return t.with_unit(replace(pilot, zone=zone, aboard=None, damage=0))  # type: ignore[arg-type]
    return t.with_unit(replace(pilot, zone=zone))  # type: ignore[arg-type]


@_verb("move-card")
def _move_card(t: Table, cmd: Command, said: list[str]) -> Table:
    """A card's effect moves a unit or pilot: 'DS move-card ID to=discard|hand|build'."""
    u = t.unit(cmd.arg(0, "the card"))
    to = cmd.opt("to")
    if to not in ("discard", "hand", "build"):
        raise NotationError(f"{str(cmd)!r}: to= is discard, hand or build")
    if u.aboard is not None:
        v = t.unit(u.aboard)
        t = t.with_unit(replace(u, zone=to, aboard=None))  # type: ignore[arg-type]
        said.append(f"pilot {u.label} goes to the {to}; {v.label} stays where it is and loses the pilot's bonuses (FAQ L124)")
        return t
    t = t.with_unit(replace(u, zone=to, status="retreated" if to == "build" else ""))  # type: ignore[arg-type]
    said.append(f"{u.label} goes to the {to}")
    return _carry_pilot(t, u, to, said)


# --- battle (FAQ L33-40, L67-114, L148-157) ---------------------------------------------

def _current_arena(t: Table) -> str:
    return t.step.removeprefix("battle-")


def _can_attack(t: Table, attacker: Unit, target: Unit) -> str | None:
    if target.aboard is not None:
        return f"{target.label} is piloting {t.unit(target.aboard).label}: a pilot is not a unit and can't be attacked (FAQ L139)"
    if target.kind != "unit" or target.zone not in ARENAS:
        return f"{target.label} is not a unit in an arena"
    if target.owner == attacker.owner:
        return f"{target.label} is {attacker.owner}'s own unit"
    if target.zone != attacker.zone:
        return f"{target.label} is in the {target.zone} arena and {attacker.label} in the {attacker.zone}: attacks stay in one arena (FAQ L84, L149)"
    if target.cannot_attack:
        return f"{target.label} can't be attacked (e.g. Han Enchained, FAQ TN L70)"
    return None


@_verb("attack")
def _attack(t: Table, cmd: Command, said: list[str]) -> Table:
    """'DS attack UNIT -> DEFENDER': the attack begins when the defender is chosen (FAQ L34)."""
    _side(cmd)
    a = _own(t, cmd, 0, "the attacker")
    if not _battle(t):
        raise IllegalCommandError(f"attacks happen in a battle step, not the {t.step} step (FAQ L33-36)")
    if t.attack is not None:
        raise IllegalCommandError(f"{t.attack.attacker} is attacking; finish that attack first ('end-attack')")
    if a.zone != _current_arena(t) or a.aboard is not None:
        raise IllegalCommandError(f"{a.label} is not a unit in the {_current_arena(t)} arena, whose battle step this is (FAQ L36)")
    if a.tapped:
        raise IllegalCommandError(f"{a.label} is tapped; only untapped units attack (FAQ L37, inference)")
    if a.cannot_attack:
        raise IllegalCommandError(f"{a.label} can't attack (e.g. Han Enchained; it may still tap and zap, FAQ TN L70)")
    if not cmd.targets:
        raise NotationError(f"{str(cmd)!r}: name the defender after '->'")
    d = t.unit(cmd.targets[0])
    why = _can_attack(t, a, d)
    if why:
        raise IllegalCommandError(why)
    t = t.with_unit(replace(a, tapped=True))
    power = stat(t, a, "power")
    t = replace(t, attack=AttackState(a.id, d.id, power, window="before-roll"))
    said.append(f"{a.label} (power {power}) attacks {d.label}; the choice to attack can't be changed now (FAQ L34, L69). Before the roll: "
                f"Retaliate, Intercept and power cards (FAQ L85-88, L150-151)")
    odd = not_modelled(t, a, d)
    if odd:
        said.append(f"not modelled (apply by hand with effect commands): {', '.join(odd)}")
    return t


def _need_attack(t: Table) -> AttackState:
    if t.attack is None:
        raise IllegalCommandError("no attack is under way")
    return t.attack


def _once(at: AttackState, key: str, what: str) -> None:
    if key in at.used:
        raise IllegalCommandError(f"{what} was already used in this attack's chance; each activated ability once per chance, and starting the "
                                  "attack opened only one (FAQ L86-89)")


@_verb("intercept")
def _intercept(t: Table, cmd: Command, said: list[str]) -> Table:
    """'LS intercept UNIT': another unit in the same arena becomes the defender; no new attack (FAQ L84-88)."""
    side = _side(cmd)
    at = _need_attack(t)
    u = _own(t, cmd, 0, "the intercepting unit")
    if at.window != "before-roll":
        raise IllegalCommandError("Intercept is used before the attacker rolls (FAQ L85-88)")
    if not keyword(t, u, "intercept"):
        raise IllegalCommandError(f"{u.label} does not have Intercept")
    _once(at, f"{u.id}:intercept", f"{u.label}'s Intercept")
    defender = t.unit(at.defender)
    if defender.owner != side or u.id == defender.id:
        raise IllegalCommandError(f"Intercept protects another of {side}'s units that is being attacked (FAQ L84)")
    cost = cmd.int_opt("cost", 0) or 0
    t = _pay(t, side, cost)
    at = replace(at, used=at.used + (f"{u.id}:intercept",))
    why = _can_attack(t, t.unit(at.attacker), u)
    if why:
        said.append(f"Intercept has no effect: the attacker can't attack {u.label} ({why}); costs paid gain nothing and the defender stays "
                    f"{defender.label} (FAQ L85; reading R11 in docs/readings.md)")
        return replace(t, attack=at)
    said.append(f"{u.label} intercepts: {t.unit(at.attacker).label} now attacks {u.label}; it is the same attack, not a new one (FAQ L85-88)")
    return replace(t, attack=replace(at, defender=u.id))


def _pay(t: Table, side: str, cost: int) -> Table:
    p = t.player(side)
    if cost > p.force:
        raise IllegalCommandError(f"{side} has {p.force} Force and the cost is {cost}")
    return t.with_player(replace(p, force=p.force - cost))


@_verb("retaliate")
def _retaliate(t: Table, cmd: Command, said: list[str]) -> Table:
    """'LS retaliate UNIT [cost=N]': before the roll; X dice of damage to the attacker when the attack ends (FAQ L148-151)."""
    side = _side(cmd)
    at = _need_attack(t)
    u = _own(t, cmd, 0, "the retaliating unit")
    x = int(keyword(t, u, "retaliate"))
    if not x:
        raise IllegalCommandError(f"{u.label} does not have Retaliate")
    if at.window != "before-roll":
        raise IllegalCommandError("Retaliate is activated before the attacker rolls (FAQ L150-151)")
    if u.id != at.defender:
        raise IllegalCommandError(f"{u.label} is not the unit being attacked (Retaliate: 'if a unit attacks this unit', FAQ L149)")
    _once(at, f"{u.id}:retaliate", f"{u.label}'s Retaliate")
    t = _pay(t, side, _keyword_cost(cmd, u, "retaliate", said))
    said.append(f"{u.label} retaliates: {x} dice of damage to {t.unit(at.attacker).label} when the attack ends, even if {u.label} is "
                "discarded by then (FAQ L150-151)")
    return replace(t, attack=replace(at, used=at.used + (f"{u.id}:retaliate",), retaliate=at.retaliate + ((u.id, x),)))


def _keyword_cost(cmd: Command, u: Unit, word: str, said: list[str]) -> int:
    """The Force a keyword costs: cost=N as said at the table, else the printed cost."""
    printed = dict(u.costs).get(word)
    given = cmd.int_opt("cost", None)
    if given is None and printed:
        said.append(f"{u.label} pays {printed} Force for its {word.replace('_', ' ').title()}, as printed")
    return given if given is not None else (printed or 0)


@_verb("overload")
def _overload(t: Table, cmd: Command, said: list[str]) -> Table:
    """'DS overload X Y': +X power for this attack; Y damage to itself when it ends (FAQ L109-114)."""
    at = _need_attack(t)
    x, y = cmd.int_arg(0, "the power added"), cmd.int_arg(1, "the damage to itself")
    if at.window != "before-roll":
        raise IllegalCommandError("Overload is used when the unit attacks, before the roll (FAQ L110)")
    said.append(f"Overload: +{x} power for this attack only ({at.power} -> {at.power + x}); when the attack ends the unit deals {y} damage to "
                "itself, which can be prevented, evaded or deflected; usable again on each attack (FAQ L110-114)")
    return replace(t, attack=replace(at, power=at.power + x, overload_self=at.overload_self + y))


@_verb("power")
def _power(t: Table, cmd: Command, said: list[str]) -> Table:
    """'LS power -5': a power card played in the before-roll window (Tyranus's Gift); the attacker stays committed (FAQ L69)."""
    at = _need_attack(t)
    n = cmd.signed_arg(0, "the power change")
    said.append(f"{t.unit(at.attacker).label}: power {at.power} {n:+d} for this attack; the player chose to attack and can't switch to a "
                "'play only when this unit would attack' ability now (FAQ L69)")
    return replace(t, attack=replace(at, power=max(0, at.power + n)))


def _attack_spec(t: Table, at: AttackState) -> Attack:
    a, d = t.unit(at.attacker), t.unit(at.defender)
    return Attack(at.power, int(keyword(t, a, "accuracy")), int(keyword(t, a, "critical_hit")), bool(keyword(t, d, "armor")),
                  int(keyword(t, d, "shields")))


def _rolls(cmd: Command, i: int = 0) -> list[int]:
    text = cmd.arg(i, "the dice, e.g. 4,5,6")
    if not re.fullmatch(r"\d(,\d)*", text):
        raise NotationError(f"{str(cmd)!r}: {text!r} is not a list of die rolls such as 4,5,6")
    return [int(x) for x in text.split(",")]


@_verb("roll")
def _roll(t: Table, cmd: Command, said: list[str]) -> Table:
    """'DS roll 4,5,6': the attack dice as rolled (dice = power)."""
    at = _need_attack(t)
    if at.window != "before-roll":
        raise IllegalCommandError("the attack dice are already rolled; rerolls come through Lucky and reroll cards")
    r = resolve(_attack_spec(t, at), _rolls(cmd))
    said.extend(r.steps)
    pending = _reroll_triggers(t, at)
    said.append("reroll chance: " + (f"first the triggered rerolls ({', '.join(pending)}), then " if pending else "")
                + "the play-or-pass, DS first, until both pass in a row (FAQ L92-101; reading R6 in docs/readings.md)")
    return replace(t, attack=replace(at, rolls=r.rolls, hits=r.hits, critical=r.critical, damage=r.damage, window="reroll",
                                     window_turn="DS", passes=0, used=tuple(u for u in at.used if u.endswith("retaliate")),
                                     lucky_used=tuple(f"pending:{p}" for p in pending)))


def _reroll_triggers(t: Table, at: AttackState) -> list[str]:
    out = []
    for uid in (at.attacker, at.defender):
        u = t.unit(uid)
        if keyword(t, u, "reroll_trigger"):
            out.append(u.id)
    return out


def _rescore(t: Table, at: AttackState, rolls: list[int], said: list[str]) -> Table:
    r = resolve(_attack_spec(t, at), rolls)
    said.append(f"now {list(r.rolls)}: {r.hits} hit(s), {r.damage} damage" + (f" (Critical Hit +{r.critical})" if r.critical else ""))
    return replace(t, attack=replace(at, rolls=r.rolls, hits=r.hits, critical=r.critical, damage=r.damage))


@_verb("reroll-trigger")
def _reroll_trigger(t: Table, cmd: Command, said: list[str]) -> Table:
    """'LS reroll-trigger UNIT 1=5 3=2': a triggered reroll (Veers, Jar Jar Binks A) before the play-or-pass (FAQ L92-96)."""
    at = _need_attack(t)
    uid = cmd.arg(0, "the unit whose triggered reroll resolves")
    if f"pending:{uid}" not in at.lucky_used:
        raise IllegalCommandError(f"{uid} has no triggered reroll waiting in this attack")
    pending = [p for p in at.lucky_used if p.startswith("pending:")]
    if cmd.actor == "LS" and any(t.unit(p[8:]).owner == "DS" for p in pending):
        raise IllegalCommandError("the Dark Side's triggered abilities resolve first (FAQ L55)")
    rolls = list(at.rolls)
    for k, _, v in (a.partition("=") for a in cmd.args[1:]):
        if not k.isdigit():
            raise NotationError(f"{str(cmd)!r}: {k!r} is not a die position; write N=ROLL, e.g. 2=5")
        i = int(k) - 1
        if not 0 <= i < len(rolls) or not v.isdigit() or not 1 <= int(v) <= 6:
            raise NotationError(f"{str(cmd)!r}: {k}={v} is not die N=ROLL for these {len(rolls)} dice")
        rolls[i] = int(v)
    said.append(f"{t.unit(uid).label}'s triggered reroll resolves before the reroll play-or-pass (FAQ L92-96)")
    t = _rescore(t, at, rolls, said)
    return replace(t, attack=replace(t.attack, lucky_used=tuple(p for p in at.lucky_used if p != f"pending:{uid}")))  # type: ignore[arg-type]


def _window_turn(t: Table, at: AttackState, side: str, what: str) -> None:
    if at.window != "reroll":
        raise IllegalCommandError(f"{what} is used in the reroll chance after the attack roll (FAQ L91-104)")
    if any(p.startswith("pending:") for p in at.lucky_used):
        raise IllegalCommandError("triggered rerolls resolve before the play-or-pass: "
                                  + ", ".join(p[8:] for p in at.lucky_used if p.startswith("pending:")) + " (FAQ L92-96)")
    if side != at.window_turn:
        raise IllegalCommandError(f"it is {at.window_turn}'s turn in the reroll play-or-pass (DS first, reading R6 in docs/readings.md)")


@_verb("lucky")
def _lucky(t: Table, cmd: Command, said: list[str]) -> Table:
    """'DS lucky UNIT 3,5': use Lucky in the reroll play-or-pass, rerolling exactly min(Lucky, attacker's power) dice."""
    side = _side(cmd)
    at = _need_attack(t)
    _window_turn(t, at, side, "Lucky")
    u = _own(t, cmd, 0, "the unit with Lucky")
    if u.id not in (at.attacker, at.defender):
        raise IllegalCommandError(f"{u.label} is neither the attacker nor the defender")
    x = int(keyword(t, u, "lucky"))
    if not x:
        raise IllegalCommandError(f"{u.label} does not have Lucky")
    if u.id in at.lucky_used:
        raise IllegalCommandError(f"{u.label} already used Lucky in this attack")
    n = lucky_rerolls(x, at.power)
    new = _rolls(cmd, 1)
    if len(new) != n:
        raise IllegalCommandError(f"Lucky {x} with attacker power {at.power} rerolls exactly {n} dice — all or nothing (FAQ L97-104; reading R13 in docs/readings.md)")
    which_text = cmd.opt("dice") or ",".join(str(i + 1) for i in range(n))
    if not re.fullmatch(r"\d+(,\d+)*", which_text):
        raise NotationError(f"{str(cmd)!r}: dice={which_text!r} lists die positions such as 1,3")
    which = [int(i) - 1 for i in which_text.split(",")]
    if len(which) != n or any(not 0 <= i < len(at.rolls) for i in which):
        raise NotationError(f"{str(cmd)!r}: dice= names {n} of the {len(at.rolls)} dice by position (the choice is the Lucky user's, reading R13 in docs/readings.md)")
    rolls = list(at.rolls)
    for i, v in zip(which, new, strict=True):
        rolls[i] = v
    src = "" if u.kw("lucky", 0) == x else f" (Lucky stacks: {u.kw('lucky', 0)} + pilot's {x - u.kw('lucky', 0)}, FAQ L102-104)"
    said.append(f"{side} uses {u.label}'s Lucky {x}{src}: rerolls {n} dice (= the attacker's power at most, FAQ L97-104)")
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
    _window_turn(t, at, side, "passing")
    passes = at.passes + 1
    if passes >= 2:
        said.append(f"{side} passes; both passed in a row: the reroll chance ends and unused Lucky is lost for this attack (FAQ L94, L100-101). "
                    "Prevention chance: 'prevent N', 'evade UNIT', 'deflect UNIT -> TARGET', then 'end-attack'")
        return replace(t, attack=replace(at, window="prevention", passes=0))
    said.append(f"{side} passes; {other(side)} may still act (FAQ L99-101)")
    return replace(t, attack=replace(at, passes=passes, window_turn=other(side)))


@_verb("prevent")
def _prevent(t: Table, cmd: Command, said: list[str]) -> Table:
    """'LS prevent N': a prevention card or ability; prevention beyond the damage is wasted (FAQ L38)."""
    at = _need_attack(t)
    if at.window != "prevention":
        raise IllegalCommandError("damage is prevented in the prevention chance, after the reroll chance (FAQ L38, L58-66)")
    n = cmd.int_arg(0, "the damage prevented")
    left, used, wasted = prevent(at.damage - at.prevented, [n])
    said.append(f"prevent {n}: {used} prevented" + (f", {wasted} wasted (FAQ L38)" if wasted else "") + f"; {left} damage left")
    return replace(t, attack=replace(at, prevented=at.prevented + used))


@_verb("evade")
def _evade(t: Table, cmd: Command, said: list[str]) -> Table:
    """'LS evade UNIT [instance=N] [cost=N]': one Evade instance, once per damage dealt (FAQ L46)."""
    side = _side(cmd)
    at = _need_attack(t)
    u = _own(t, cmd, 0, "the evading unit")
    if at.window != "prevention":
        raise IllegalCommandError("Evade is used in the prevention chance")
    inst = keyword(t, u, "evade")
    assert isinstance(inst, tuple)
    if not inst:
        why = ""
        if u.aboard is None and u.pilots and dict(u.grants).get("evade"):
            why = f" — its Evade is a pilot bonus, which works only aboard a {u.pilots} (FAQ L122)"
        raise IllegalCommandError(f"{u.label} has no Evade{why}")
    if u.id != at.defender:
        raise IllegalCommandError(f"{u.label} is not being dealt this damage")
    i = (cmd.int_opt("instance", 1) or 1) - 1
    if not 0 <= i < len(inst):
        raise NotationError(f"{str(cmd)!r}: {u.label} has {len(inst)} Evade instance(s)")
    _once(at, f"{u.id}:evade:{i}", f"Evade instance {i + 1} of {u.label}")
    t = _pay(t, side, _keyword_cost(cmd, u, "evade", said))
    left, used, wasted = prevent(at.damage - at.prevented, [inst[i]])
    said.append(f"{u.label} Evade {inst[i]} (instance {i + 1} of {len(inst)}; each instance is its own ability, usable each time damage is "
                f"dealt, FAQ L46): {used} prevented, {left} left ({KEYWORDS}: Evade X prevents up to X)")
    return replace(t, attack=replace(at, prevented=at.prevented + used, used=at.used + (f"{u.id}:evade:{i}",)))


@_verb("deflect")
def _deflect(t: Table, cmd: Command, said: list[str]) -> Table:
    """'LS deflect UNIT -> TARGET': prevent Deflect X and deal that much to a unit in the same arena."""
    at = _need_attack(t)
    u = _own(t, cmd, 0, "the deflecting unit")
    x = int(keyword(t, u, "deflect"))
    if not x:
        raise IllegalCommandError(f"{u.label} does not have Deflect")
    if at.window != "prevention" or u.id != at.defender:
        raise IllegalCommandError("Deflect is used by the unit dealt the damage, in the prevention chance")
    _once(at, f"{u.id}:deflect", f"{u.label}'s Deflect")
    tgt = t.unit(cmd.targets[0]) if cmd.targets else None
    if tgt is None or tgt.zone != u.zone or tgt.aboard is not None:
        raise NotationError(f"{str(cmd)!r}: name a unit in the {u.zone} arena after '->'")
    _, used, _ = prevent(at.damage - at.prevented, [x])
    said.append(f"{u.label} deflects {used} damage onto {tgt.label} ({KEYWORDS}: Deflect X)")
    t = replace(t, attack=replace(at, prevented=at.prevented + used, used=at.used + (f"{u.id}:deflect",)))
    return _land(t, u, tgt, used, said, "deflected")


def _land(t: Table, source: Unit | None, target: Unit, n: int, said: list[str], how: str) -> Table:
    """Damage lands on a unit or pilot: Stun if the *source* has it and damaged *another* unit
    (FAQ L153-157: never the damage a unit does to itself, e.g. Overload); destroyed at damage
    >= health (reading R10 in docs/readings.md). ``source`` None: a card's effect with no unit named as its source."""
    stuns = source is not None and source.id != target.id and bool(keyword(t, source, "stun"))
    if n <= 0:
        if stuns:
            said.append(f"no damage dealt to {target.label}: no Stun (FAQ L154)")
        return t
    target = t.unit(target.id)
    dmg = target.damage + n
    t = t.with_unit(replace(target, damage=dmg))
    said.append(f"{target.label} takes {n} ({how}): damage {dmg} of health {stat(t, target, 'health')}")
    stun = int(keyword(t, source, "stun")) if stuns and source is not None else 0
    if source is not None and source.id == target.id and keyword(t, source, "stun"):
        said.append(f"{target.label} damaged itself: its Stun works only when it damages another unit (FAQ L153)")
    if stun and target.aboard is None:
        t = t.with_unit(replace(t.unit(target.id), power_bonus=t.unit(target.id).power_bonus - stun))
        said.append(f"Stun {stun} from {source.label}: {target.label} gets -{stun} power until the end of the battle phase (FAQ L153-157)")
    if destroyed(dmg, stat(t, target, "health")):
        t = t.with_unit(replace(t.unit(target.id), zone="discard", aboard=None, tapped=False, status=""))
        said.append(f"{target.label} is destroyed and goes to the discard pile (damage ≥ health, reading R10 in docs/readings.md: the pilot text says 'more than' — "
                    "the judge may rule otherwise)" + (f"; {t.unit(target.aboard).label} keeps its own damage (FAQ L142-143)" if target.aboard else ""))
        if target.aboard is None:
            t = _carry_pilot(t, target, "discard", said)
    return t


@_verb("end-attack")
def _end_attack(t: Table, cmd: Command, said: list[str]) -> Table:
    """Assign and land the damage, then the end-of-attack effects: 'end-attack [overkill=UNIT] [double=yes] [self-prevent=N] [self-evade=I] [self-deflect=UNIT]'."""
    at = _need_attack(t)
    if at.window == "before-roll":
        raise IllegalCommandError("the attack dice have not been rolled ('roll 4,5,6')")
    if at.window == "reroll":
        raise IllegalCommandError("the reroll chance is still open: both sides pass in a row to end it (FAQ L93-94)")
    a, d = t.unit(at.attacker), t.unit(at.defender)
    damage = at.damage
    to_def, to_other = damage, 0
    spill = cmd.opt("overkill")
    if spill:
        if not keyword(t, a, "overkill"):
            raise IllegalCommandError(f"{a.label} does not have Overkill")
        to_def, to_other = overkill(damage, stat(t, d, "health") - d.damage)
    factor = 2 if cmd.flag("double") else 1
    if factor == 2:
        said.append(f"damage doubled after it is assigned: {to_def} -> {to_def * 2}" + (f", {to_other} -> {to_other * 2}" if to_other else "")
                    + " (FAQ L107-108)")
    to_def, to_other = to_def * factor, to_other * factor
    landed = max(0, to_def - at.prevented)
    t = _land(t, a, d, landed, said, "the attack")
    if to_other and spill:
        o = t.unit(spill)
        if o.zone != d.zone or o.owner != d.owner:
            raise IllegalCommandError(f"Overkill's extra damage goes to another of {d.owner}'s units in the same arena (FAQ L106-108)")
        said.append(f"Overkill: {to_other // factor} hit(s) beyond {d.label}'s remaining health go to {o.label} (FAQ L106-108)")
        t = _land(t, a, o, to_other, said, "Overkill")
    for uid, x in at.retaliate:
        u = t.unit(uid)
        said.append(f"the attack ends: {u.label}'s Retaliate deals {x} dice of damage to {a.label}"
                    + (" although it has been discarded" if u.zone == "discard" else "")
                    + f" — roll them with 'dice-damage {x} source={uid} -> {a.id}' (FAQ L150-151)")
    if at.overload_self:
        t = _overload_damage(t, cmd, a, at.overload_self, said)
    said.append("bonuses 'for this attack' end (FAQ L113); waiting triggered abilities now resolve, DS first (FAQ L34, L55)")
    return replace(t, attack=None)


def _overload_damage(t: Table, cmd: Command, a: Unit, total: int, said: list[str]) -> Table:
    """Overload's damage to the attacker itself when the attack ends: it may be prevented (a card,
    self-prevent=N), evaded with its own Evade (self-evade=I, the instance) or deflected with its own
    Deflect (self-deflect=UNIT), like any damage (FAQ L110-112)."""
    said.append(f"the attack ends: Overload — {a.label} deals {total} damage to itself (FAQ L110-114)")
    left = total
    prevented = cmd.int_opt("self-prevent", 0) or 0
    if prevented:
        left, used, _ = prevent(left, [prevented])
        said.append(f"{used} prevented")
    ev = cmd.opt("self-evade")
    if ev:
        inst = keyword(t, a, "evade")
        assert isinstance(inst, tuple)
        i = (int(ev) if ev.isdigit() else 1) - 1
        if not inst or not 0 <= i < len(inst):
            raise IllegalCommandError(f"{a.label} has no Evade instance {i + 1} to evade its own Overload damage")
        left, used, _ = prevent(left, [inst[i]])
        said.append(f"{a.label} evades {used} of its own Overload damage with Evade {inst[i]} (FAQ L112)")
    dv = cmd.opt("self-deflect")
    if dv:
        x = int(keyword(t, a, "deflect"))
        if not x:
            raise IllegalCommandError(f"{a.label} does not have Deflect")
        tgt = t.unit(dv)
        if tgt.zone != a.zone or tgt.aboard is not None or tgt.id == a.id:
            raise NotationError(f"self-deflect={dv}: name another unit in the {a.zone} arena")
        left, used, _ = prevent(left, [x])
        said.append(f"{a.label} deflects {used} of its own Overload damage onto {tgt.label} (FAQ L112)")
        t = _land(t, a, tgt, used, said, "deflected")
    return _land(t, a, t.unit(a.id), left, said, "Overload")


@_verb("dice-damage")
def _dice_damage(t: Table, cmd: Command, said: list[str]) -> Table:
    """'DS dice-damage N source=UNIT rolls=4,5 -> TARGET': dice of damage, which are not an attack (no Accuracy)."""
    n = cmd.int_arg(0, "the dice of damage")
    src = t.unit(cmd.opt("source") or "")
    if not cmd.targets:
        raise NotationError(f"{str(cmd)!r}: name the target after '->'")
    tgt = t.unit(cmd.targets[0])
    rolls_text = cmd.opt("rolls") or ""
    if not re.fullmatch(r"(\d(,\d)*)?", rolls_text):
        raise NotationError(f"{str(cmd)!r}: rolls={rolls_text!r} is not a list of die rolls such as 4,5")
    rolls = [int(x) for x in rolls_text.split(",") if x]
    if len(rolls) != n:
        raise IllegalRollError(f"{n} dice of damage: give {n} rolls, rolls=4,5,...")
    r = resolve(Attack(n, 0, 0, bool(keyword(t, tgt, "armor"))), rolls)
    acc = int(keyword(t, src, "accuracy"))
    said.append(f"{n} dice of damage from {src.label}: {r.hits} hit(s)" + (f"; its Accuracy {acc} does not apply — dice of damage are not an "
                "attack (FAQ L39, L72; inference)" if acc else ""))
    said.append("the reroll and prevention chances come now, after the roll and the damage" + (f", before the 'then' part ({cmd.opt('then')}); "
                "other triggered abilities fired meanwhile wait until the card is done (FAQ L48-50)" if cmd.opt("then") else " (FAQ L48-50)"))
    return _land(t, src, tgt, max(0, r.hits - (cmd.int_opt("prevent", 0) or 0)), said, "dice of damage")


@_verb("zap")
def _zap(t: Table, cmd: Command, said: list[str]) -> Table:
    """'DS zap UNIT N -> TARGET': a 'play only when this unit would attack' ability that deals damage without dice; not an attack."""
    a = _own(t, cmd, 0, "the unit")
    n = cmd.int_arg(1, "the damage")
    if t.attack is not None and t.attack.attacker == a.id:
        raise IllegalCommandError(f"{a.label} chose to attack; the choice can't be switched to a 'would attack' ability (FAQ L69)")
    if not _battle(t) or a.zone != _current_arena(t):
        raise IllegalCommandError(f"{a.label} acts when its turn to attack comes in its arena's battle step (FAQ L36, L69)")
    if a.tapped:
        raise IllegalCommandError(f"{a.label} is tapped")
    tgt = t.unit(cmd.targets[0]) if cmd.targets else None
    if tgt is None:
        raise NotationError(f"{str(cmd)!r}: name the target after '->'")
    t = t.with_unit(replace(a, tapped=True))
    said.append(f"{a.label} taps to deal {n} damage to {tgt.label} without dice: not an attack, so attack triggers don't fire and cards that "
                "need an attack (Rebel Surrender) can't be used" + ("; Han Enchained does not stop it (FAQ L70)" if a.cannot_attack or tgt.cannot_attack else "")
                + " (FAQ L69; TN L69)")
    return _land(t, a, tgt, n, said, "tap and zap")


@_verb("as-if-attacking")
def _as_if(t: Table, cmd: Command, said: list[str]) -> Table:
    """'DS as-if-attacking UNIT': step through a unit when the opponent has no units in the arena (FAQ L36)."""
    side = _side(cmd)
    a = _own(t, cmd, 0, "the unit")
    arena = _current_arena(t)
    if not _battle(t) or a.zone != arena:
        raise IllegalCommandError(f"{a.label} is not in the arena whose battle step this is")
    if t.in_arena(arena, other(side)):
        raise IllegalCommandError(f"{other(side)} has units in the {arena} arena: attack one of them")
    said.append(f"{other(side)} has no units in the {arena} arena: {a.label} still takes its turn in speed order 'as if attacking', for Bombard, "
                "Ion Cannon and 'play only when this unit would attack' abilities (FAQ L36)")
    return t


@_verb("untap")
def _untap(t: Table, cmd: Command, said: list[str]) -> Table:
    """'DS untap UNIT': an effect untaps a unit; in its own battle step it may attack again (FAQ L37)."""
    u = _own(t, cmd, 0, "the unit")
    t = t.with_unit(replace(u, tapped=False))
    again = f"; in the {u.zone} battle step it may attack again (FAQ L37)" if _battle(t) and u.zone == _current_arena(t) else ""
    said.append(f"{u.label} untaps{again}")
    return t


@_verb("damage")
def _damage(t: Table, cmd: Command, said: list[str]) -> Table:
    """'DS damage N -> TARGET': damage from a card's text (pilots keep their own damage, FAQ L142-143)."""
    n = cmd.int_arg(0, "the damage")
    if not cmd.targets:
        raise NotationError(f"{str(cmd)!r}: name the target after '->'")
    tgt = t.unit(cmd.targets[0])
    src = t.unit(cmd.opt("source")) if cmd.opt("source") else None
    if src is None:
        said.append("no source unit named (source=UNIT): the damage carries no Stun (FAQ L153)")
    return _land(t, src, tgt, n, said, "an effect")


@_verb("speed")
def _speed(t: Table, cmd: Command, said: list[str]) -> Table:
    """'DS speed 10 -> UNIT': a speed boost; boosts add up (FAQ L46)."""
    n = cmd.signed_arg(0, "the speed change")
    u = t.unit(cmd.targets[0]) if cmd.targets else None
    if u is None:
        raise NotationError(f"{str(cmd)!r}: name the unit after '->'")
    t = t.with_unit(replace(u, speed_bonus=u.speed_bonus + n))
    said.append(f"{u.label}: speed {n:+d}, now {stat(t, t.unit(u.id), 'speed')}; effects add up (FAQ L46)")
    return t


@_verb("grant")
def _grant(t: Table, cmd: Command, said: list[str]) -> Table:
    """'DS grant KEYWORD [X] -> UNIT': an effect gives a keyword; Armor from two sources is one Armor (FAQ L75)."""
    name = cmd.arg(0, "the keyword")
    x = cmd.int_arg(1, "its number") if len(cmd.args) > 1 else True
    u = t.unit(cmd.targets[0]) if cmd.targets else None
    if u is None:
        raise NotationError(f"{str(cmd)!r}: name the unit after '->'")
    kws = dict(u.keywords)
    if name not in MODELLED:
        said.append(f"note: {name} is recorded but not modelled — its effect is applied by hand")
    if name in ISOLATED or x is True:
        had = bool(kws.get(name))
        kws[name] = True
        said.append(f"{u.label} has {name}" + (" — from a second source it is still one Armor (FAQ L75)" if had else ""))
    elif name == "evade":
        old = kws.get(name, ())
        kws[name] = (old if isinstance(old, tuple) else (old,)) + (int(x),)
        said.append(f"{u.label} gains another Evade instance; each is used separately (FAQ L46)")
    else:
        kws[name] = int(kws.get(name, 0)) + int(x)
        said.append(f"{u.label}: {name} {kws[name]} (cumulative, FAQ L46, L103)")
    return t.with_unit(replace(u, keywords=tuple(kws.items())))


@_verb("disrupt")
def _disrupt(t: Table, cmd: Command, said: list[str]) -> Table:
    """'DS disrupt CARD': cancel a battle card as it is played — one's own too (FAQ L82)."""
    side = _side(cmd)
    c = t.unit(cmd.arg(0, "the battle card"))
    if c.kind != "battle":
        raise IllegalCommandError(f"{c.label} is not a battle card")
    own = " (its own card: allowed)" if c.owner == side else ""
    said.append(f"{side} disrupts {c.label}{own}: the card is cancelled (FAQ L82)")
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
        raise IllegalCommandError("contests happen during the battle phase (FAQ L6)")
    pairs = _pairs(t)
    if not pairs:
        raise IllegalCommandError("no unique unit of one name is in battle on both sides (FAQ L6; reading R14 in docs/readings.md: the build zone does not count)")
    if cmd.args:
        a, b = t.unit(cmd.args[0]), t.unit(cmd.arg(1, "the LS unit"))
        if (a, b) not in pairs:
            raise IllegalCommandError(f"{a.label} and {b.label} are not a DS/LS pair of same-name unique units in battle")
        if len(pairs) > 1 and cmd.actor != "DS":
            raise IllegalCommandError("several contests at once: the Dark Side chooses which is bid first (FAQ L10)")
    elif len(pairs) > 1:
        raise IllegalCommandError(f"{len(pairs)} contests at once ({', '.join(f'{a.id}/{b.id}' for a, b in pairs)}): the Dark Side chooses which is "
                                  "bid first — 'DS contest DS-UNIT LS-UNIT' (FAQ L10)")
    else:
        a, b = pairs[0]
    said.append(f"contest: {a.label} (DS) v {b.label} (LS); DS bids first, then LS, each raising only their own bid, until both decline in a row "
                "(FAQ L7; TN L7; reading R14 in docs/readings.md)")
    return replace(t, contest=(a.id, b.id, -1, -1, "DS", 0))


@_verb("bid")
def _bid(t: Table, cmd: Command, said: list[str]) -> Table:
    """'DS bid N' in a contest; 'DS pass' declines to raise."""
    side = _side(cmd)
    if t.contest is None:
        raise IllegalCommandError("no contest is being bid")
    a, b, dsb, lsb, turn, declines = t.contest
    if side != turn:
        raise IllegalCommandError(f"it is {turn}'s bid (DS first, then alternating; reading R14 in docs/readings.md)")
    own = dsb if side == "DS" else lsb
    if cmd.verb == "pass":
        if own < 0:
            own = 0
            said.append(f"{side} bids 0")
        declines += 1
        said.append(f"{side} does not raise")
    else:
        n = cmd.int_arg(0, "the Force bid")
        check_bid(side, own, n, t.player(side).force)  # type: ignore[arg-type]
        own, declines = n, 0
        said.append(f"{side} bids {n} (it need not top the other bid, TN L7)")
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
    said.append(f"{lose.label} retreats to the build zone untapped; it may come back in {lose.owner}'s next build step, and if {win.label} is still "
                "in an arena there is a new contest (FAQ L9, L12)")
    t = _carry_pilot(t, lose, "build", said)
    return replace(t, contest=None)


# --- triggered abilities (FAQ L51-66; reading R6 in docs/readings.md) ----------------------------------------------

@_verb("trigger")
def _trigger(t: Table, cmd: Command, said: list[str]) -> Table:
    """'DS trigger TEXT [source=UNIT]': a triggered ability fires (all its conditions true now) and waits in the pool."""
    side = _side(cmd)
    text = " ".join(cmd.args) or "(ability)"
    said.append(f"{side}'s '{text}' fires and waits; it will resolve even if its conditions stop being true (FAQ L52-54)")
    return replace(t, triggers=t.triggers + ((side, text),))


@_verb("resolve-triggers")
def _resolve_triggers(t: Table, cmd: Command, said: list[str]) -> Table:
    """Resolve the waiting triggered abilities: all DS ones in the order DS picks, then LS (FAQ L55)."""
    if t.attack is not None and t.attack.window in ("reroll", "prevention"):
        raise IllegalCommandError(f"triggered abilities are held during the {t.attack.window} chance (FAQ L57-66)")
    if not t.triggers:
        raise IllegalCommandError("no triggered ability is waiting")
    order = [x for x in t.triggers if x[0] == "DS"] + [x for x in t.triggers if x[0] == "LS"]
    said.append("resolve in this order — all Dark Side abilities first (in the order DS chooses), then the Light Side's (FAQ L55): "
                + "; ".join(f"{s}: {text}" for s, text in order))
    return replace(t, triggers=())


# --- questions ----------------------------------------------------------------------------

@_verb("is-a")
def _is_a(t: Table, cmd: Command, said: list[str]) -> Table:
    """'is-a UNIT Droid': does an effect naming a subtype affect this unit? The type line decides, not the name (FAQ L3)."""
    u = t.unit(cmd.arg(0, "the unit"))
    word = cmd.arg(1, "the subtype")
    yes = word in u.subtypes
    said.append(f"{u.label} ({u.type}) {'is' if yes else 'is not'} a {word}: an effect naming a subtype reads the type line, not the card's "
                "name (FAQ L3)")
    return t


@_verb("reads")
def _reads(t: Table, cmd: Command, said: list[str]) -> Table:
    """'reads UNIT TEXT': how to read a card's text that names the card itself (FAQ L14; reading R15 in docs/readings.md)."""
    u = t.unit(cmd.arg(0, "the unit"))
    text = " ".join(cmd.args[1:])
    if u.name and u.name in text and not u.unique:
        said.append(f"{u.label} is not unique: read '{u.name}' in its text as 'this unit' — {text.replace(u.name, 'this unit')} (FAQ L14; reading R15 in docs/readings.md)")
    else:
        said.append(f"{text} (as printed)")
    return t


def _lookup(t: Table, path: str) -> object:
    """A fact by dotted path: ``unit.ID.FIELD``, ``stat.ID.speed|power|health``,
    ``keyword.ID.NAME``, ``player.DS.FIELD``, ``attack.FIELD``, ``contest``, ``step``, ``turn``."""
    head, _, rest = path.partition(".")
    key, _, attr = rest.partition(".")
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
    raise NotationError(f"{path!r} is not a fact of an SW TCG table (unit.ID.FIELD, stat.ID.speed, keyword.ID.NAME, player.DS.FIELD, "
                        "attack.FIELD, upkeep-owed.DS, step, turn, contest, triggers)")


__all__ = ["apply", "lookup", "verbs", "Outcome", "IllegalCommandError", "STEP_ALIASES"]


#: a fact of the table by dotted path; a path naming no field is refused with the fields there are
lookup = naming_fields(_lookup)
