"""Star Wars: Destiny at the table: apply one command to a :class:`~.table.Table`.

A command is what a player says at the table, in the shared notation
(:mod:`assistant.cardgame.notation`). Turn actions (P5 › Akcje) use up the player's turn;
effect commands record what a card's text does while an action resolves; setup and upkeep
commands walk the round. Every refused command raises an :class:`~assistant.errors.AssistantError`
naming the rule; every accepted one returns the new table and what happened, rule by rule.

>>> from .table import parse_table
>>> t = parse_table('''
... format: destiny-table/1
... players: {A: {}, B: {}}
... battlefield: {owner: A, controller: A}
... characters:
...   - {id: han, owner: A, health: 8, dice: {h1: []}}
...   - {id: vader, owner: B, health: 13, shields: 1}
... ''')
>>> o = apply(t, "A activate han h1=ranged:2")
>>> o = apply(o.table, "B pass")
>>> o = apply(o.table, "A resolve h1 -> vader")
>>> (o.table.card("vader").damage, o.table.card("vader").shields)
(1, 0)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from ..cardgame import IllegalCommandError, Options, Outcome, naming_fields, registrar
from ..cardgame.notation import Command, unknown_verb
from ..errors import AssistantError, NotationError
from ..i18n import N_, _, n_
from .characters import MAX_SHIELDS, MAX_UPGRADES, Character, deal_damage, give_shields, heal, move_damage
from .dice import DAMAGE, Face, IllegalResolveError, PoolDie, Symbol, check_resolve, total_value
from .importers import said_word
from .play import IllegalPlayError, check_play, end_of_round_loser, setup_roll_value, upgrade_cost, upkeep_draw
from .round import ActionPhase, IllegalActionError
from .table import Card, Die, Table

Handler = Callable[[Table, Command, list[str]], Table]
TURN_ACTIONS: dict[str, Handler] = {}
EFFECTS: dict[str, Handler] = {}
STEPS: dict[str, Handler] = {}


#: the KEY= options each verb takes, declared with the verb (``@_turn("resolve", "x", keys="table")``)
OPTIONS: dict[str, Options] = {}
_turn, _effect, _step = registrar(TURN_ACTIONS, OPTIONS), registrar(EFFECTS, OPTIONS), registrar(STEPS, OPTIONS)


def verb_help() -> dict[str, tuple[str, str]]:
    """Every verb: what kind of command it is and what it does, in English (the catalogs' source)."""
    out = {}
    for kind, table in ((N_("turn action"), TURN_ACTIONS), (N_("effect"), EFFECTS), (N_("step"), STEPS)):
        for v, f in table.items():
            out[v] = (kind, " ".join((f.__doc__ or VERB_HELP.get(v, "")).strip().split("\n\n")[0].split()))  # the first paragraph
    return out


def verbs() -> dict[str, str]:
    """Every verb, what kind of command it is and what it does (for help), in the reader's language."""
    return {v: f"[{_(kind)}] {_(text)}" for v, (kind, text) in verb_help().items()}


VERB_HELP = {
    "pass": "'A pass' — always legal; the phase ends when every player passes in a row",
    "decline": "'A decline' — give up an Ambush extra action (not a pass, reading R20 in docs/readings.md)",
    "claim": "'A claim' — claim the battlefield (once per round); then pass automatically",
    "activate": "'A activate CHAR D1=FACE D2=FACE [guard=OPPONENT-DIE] [x=N]' — exhaust it and roll all its and its upgrades' dice",
    "reroll": "'A reroll CARD D1=FACE ...' — discard a card to reroll dice (P5 › Odrzucenie karty w celu przerzucenia kości)",
    "resolve": "'A resolve D1+MOD D2 [DIE=FACE focus turns] [x=N|x=DIE:N,DIE:N] -> TARGET,TARGET' — resolve dice of one symbol; x= gives the value "
               "of a die showing X",
    "roll-in": "'A roll-in DIE=FACE from=CARD' — roll a die from a card not in play into the pool (Ace in the Hole #92)",
    "reroll-effect": "'A reroll-effect DIE=FACE ...' — a card rerolls dice (Comlink #61): any pool die, the opponent's too",
    "play": "'A play ID kind=upgrade|support|event cost=N [on=CHAR] [replace=UPG] [unique=yes] [reduce=N] [ambush=yes]'",
    "damage": "'A damage N [kind=melee|ranged] [unblockable=yes] [replace=CARD] -> CHAR' — damage from a card's text",
    "indirect": "'A indirect N [-> PLAYER]' — a card's text deals indirect damage to a player, who assigns it among their characters",
    "assign": "'B assign N N -> CHAR,CHAR' — the player dealt indirect damage assigns it among their own characters",
    "heal": "'A heal N -> CHAR'",
    "shield": "'A shield N -> CHAR' — at most 3",
    "move-damage": "'A move-damage N -> FROM,TO' — shields ignored, not 'dealt'",
    "defeat": "'A defeat -> CHAR' — an effect defeats a character",
    "gain": "'A gain N' — resources",
    "pay": "'A pay N' — a cost in resources",
    "disrupt": "'A disrupt N [-> OPPONENT]'",
    "discard": "'A discard N [-> OPPONENT] | from=own' — random cards from a hand",
    "draw": "'A draw N'",
    "turn": "'A turn DIE=FACE ...' — an effect turns dice",
    "remove": "'A remove DIE ...' — dice back to their cards",
    "note": "'A note TEXT'",
    "action": "'A action CARD [exhaust=yes]' — use a card's Action; enter its effect with effect commands",
    "battlefield-roll": "'battlefield-roll A=5 B=3' or 'A=melee:2,ranged:1 ...' — setup: the higher total chooses the battlefield",
    "choose-battlefield": "'A choose-battlefield OWNER' — the roll's winner picks whose battlefield is used",
    "setup-shields": "'B setup-shields CHAR=N ...' — the setup shields of the players whose battlefield is not used",
    "mulligan": "'A mulligan N' — setup: shuffle N cards back and draw N (once)",
    "start": "'start' — round 1 begins; the battlefield controller acts first",
    "upkeep": "'A upkeep [discard=N]' — discard, then draw up to the hand limit",
    "discard-upgrade": "'A discard-upgrade UPGRADE [die=DIE]' — discard an upgrade (choose which copy's die leaves)",
}


def parse_command(t: Table, text: str) -> Command:
    return Command.parse(text, t.names)


def apply(t: Table, cmd: Command | str) -> Outcome:
    """Apply one command; raise with the rule if the rules refuse it."""
    if isinstance(cmd, str):
        cmd = parse_command(t, cmd)
    said: list[str] = []
    if t.phase == "over" and cmd.verb != "note":
        raise IllegalCommandError(_("the game is over: {result}").format(result=t.result))
    handler = TURN_ACTIONS.get(cmd.verb) or EFFECTS.get(cmd.verb) or STEPS.get(cmd.verb)
    usage = cmd.verb
    if handler is not None:
        usage = VERB_HELP.get(cmd.verb) or ((handler.__doc__ or "").strip().splitlines() or [cmd.verb])[0]
        # D1=FACE, CHAR=N: keys that name dice or cards on the table are checked by the verb itself
        OPTIONS[cmd.verb].check(cmd, {d.id for d in t.dice} | {c.id for c in t.cards}, usage)
    if t.indirect and cmd.verb not in ("assign", "note"):
        who, n = t.indirect[0]
        raise IllegalCommandError(
            n_("{who} must first assign {n} indirect damage among their characters: '{who} assign N N -> CHARACTER,CHARACTER' (reading R42 in "
               "docs/readings.md)",
               "{who} must first assign {n} indirect damage among their characters: '{who} assign N N -> CHARACTER,CHARACTER' (reading R42 in "
               "docs/readings.md)", n).format(who=who, n=n)
        )
    t = _lapse_redeploys(t, cmd, said)
    after: Table | None = None
    if cmd.verb in TURN_ACTIONS:
        after = _turn_action(t, cmd, said)
    elif cmd.verb in EFFECTS:
        _need_actor(cmd)
        after = EFFECTS[cmd.verb](t, cmd, said)
    elif cmd.verb in STEPS:
        after = STEPS[cmd.verb](t, cmd, said)
    if after is not None:
        cmd.check_args_read(usage)
        return Outcome(after, tuple(said))
    raise unknown_verb(cmd, sorted(verbs()), "destiny")


def _need_actor(cmd: Command) -> str:
    if cmd.actor is None:
        raise NotationError(_("{cmd!r}: say which player does this, e.g. 'A {verb} ...'").format(cmd=str(cmd), verb=cmd.verb))
    return cmd.actor


# --- the action phase: whose turn, and what a turn does ---------------------------------


def _phase(t: Table) -> ActionPhase:
    alive = tuple(n for n in t.names if n not in _eliminated(t))
    return ActionPhase(alive, t.bf_controller, t.turn, t.passes_in_row, t.claimed_by)


def _eliminated(t: Table) -> set[str]:
    return {p.name for p in t.players if t.phase != "setup" and any(c.owner == p.name for c in t.cards if c.kind == "character") and not t.characters(p.name)}


def _turn_action(t: Table, cmd: Command, said: list[str]) -> Table:
    who = _need_actor(cmd)
    t.player(who)
    if t.phase != "action":
        raise IllegalCommandError(_("{verb} is an action, and this is the {phase} phase (Destiny P5 › Rundy gry)").format(verb=cmd.verb, phase=t.phase))
    extra = t.extra_action == who
    if cmd.verb == "decline":
        if not extra:
            raise IllegalCommandError(_("{who} has no extra action to decline").format(who=who))
        said.append(_("{who} gives up the Ambush extra action; it is not a pass toward ending the phase (reading R20 in docs/readings.md)").format(who=who))
        return _advance(replace(t, extra_action=None), who, "action", said)
    if t.extra_action and not extra:
        raise IllegalCommandError(
            _(
                "{extra_action} must first take or decline the Ambush extra action: extra actions are taken at once (Destiny P5 › Akcje, L220; P7 › Zasadzka)"
            ).format(extra_action=t.extra_action)
        )
    if not t.turn and not extra:
        # a table file with neither 'turn:' nor a battlefield's controller, who acts first (P5 › Faza
        # akcji): said as "it is 's turn, not A's" before (reading R329)
        raise IllegalCommandError(
            _("the table does not say whose action it is: write 'turn: {who}' in the table file, or the battlefield's owner "
              "(its controller acts first, Destiny P5 › Faza akcji)").format(who=who))
    if who != t.turn and not extra:
        raise IllegalActionError(_("it is {turn}'s turn, not {who}'s: players alternate actions (Destiny P5 › Faza akcji)").format(turn=t.turn, who=who))
    if t.claimed_by == who and not extra:
        raise IllegalActionError(_("{who} claimed the battlefield this round and passes automatically (Destiny P5 › Zajęcie pola bitwy)").format(who=who))
    pending = [c for c, n in t.discard_down if t.card(c).owner == who]
    if pending:
        raise IllegalCommandError(
            _(
                "{who} must first discard down to {MAX_UPGRADES} upgrades on {names} (reading R24 in docs/readings.md; Destiny P1 › Ulepszenia): "
                "'discard-upgrade UPGRADE'"
            ).format(who=who, MAX_UPGRADES=MAX_UPGRADES, names=', '.join(pending))
        )
    t = replace(t, resolved_this_action=frozenset(), extra_action=None)
    t = TURN_ACTIONS[cmd.verb](t, cmd, said)
    if t.phase == "over":
        return t
    if t.extra_action == who:  # Ambush: the same player acts again at once, then the turn moves on
        return t
    return _advance(t, who, cmd.verb if cmd.verb in ("pass", "claim") else "action", said)


def _advance(t: Table, who: str, move: str, said: list[str]) -> Table:
    phase = _phase(t)
    nxt = phase.take(who, move)  # type: ignore[arg-type]
    said.extend(nxt.log[len(phase.log) + 1 :])  # the automatic passes and the phase's end; the move itself was said already
    t = replace(t, turn=nxt.active, passes_in_row=nxt.passes_in_row, claimed_by=nxt.claimed_by, bf_controller=nxt.controller)
    if nxt.over:
        t = _begin_upkeep(t, said)
    return t


@_turn("pass")
def _pass(t: Table, cmd: Command, said: list[str]) -> Table:
    said.append(_("{actor} passes; passing is always legal and {actor} may act again later this phase (Destiny P5 › Pasowanie)").format(actor=cmd.actor))
    return t


@_turn("decline")
def _decline(t: Table, cmd: Command, said: list[str]) -> Table:
    return t  # handled in _turn_action


@_turn("claim")
def _claim(t: Table, cmd: Command, said: list[str]) -> Table:
    if t.claimed_by is not None:
        raise IllegalActionError(
            _("{claimed_by} already claimed the battlefield this round; only one player may claim per round (Destiny P5 › Zajęcie pola bitwy)").format(
                claimed_by=t.claimed_by
            )
        )
    kept = "keeps" if t.bf_controller == cmd.actor else "takes"
    said.append(
        _(
            "{actor} claims the battlefield and {kept} control; may use its claim ability; passes automatically for the rest of the round and acts first "
            "next round (Destiny P5 › Zajęcie pola bitwy)"
        ).format(actor=cmd.actor, kept=kept)
    )
    return t


@_turn("activate", "guard", "x", keys="verb")
def _activate(t: Table, cmd: Command, said: list[str]) -> Table:
    who = cmd.actor or ""
    card = t.card(cmd.arg(0, N_("the character or support to activate")))
    if card.owner != who:
        raise IllegalPlayError(_("{name} is {owner}'s; a player activates their own cards (Destiny P5 › Aktywowanie)").format(name=card.name, owner=card.owner))
    if card.kind not in ("character", "support"):
        raise IllegalPlayError(
            _("{name} is an {kind}; only a character or a support is activated (Destiny P5 › Aktywowanie)").format(name=card.name, kind=said_word(card.kind))
        )
    if card.defeated:
        raise IllegalPlayError(_("{name} is defeated (Destiny P6 › Pokonane postacie)").format(name=card.name))
    if card.exhausted:
        raise IllegalPlayError(_("{name} is exhausted; only a ready card is activated (Destiny P5 › Aktywowanie; P6 › Wyczerpana)").format(name=card.name))
    own = t.dice_of(card.id)
    ups = [d for u in t.upgrades_on(card.id) for d in t.dice_of(u.id)]
    if card.kind == "support" and not own:
        raise IllegalPlayError(_("support {name} has no die and cannot be activated (Destiny P5 › Aktywowanie)").format(name=card.name))
    guard = cmd.opt("guard")
    if guard is not None:  # Guardian: before the activation, take an opponent's damage die on this character
        t = _guardian(t, card, guard, said, cmd.int_opt("x"))
        card = t.card(card.id)
        if card.defeated:
            said.append(_("{name} was defeated by the die it guarded and is not activated").format(name=card.name))
            return t
    rolled = {k: v for k, v in cmd.opts if k not in ("guard", "x")}
    dice = list(own) + ups
    missing = [d.id for d in dice if d.id not in rolled]
    extra = [k for k in rolled if k not in {d.id for d in dice}]
    if extra:
        raise NotationError(
            _("{cmd!r}: {names} is not a die of {name} or its upgrades ({why})").format(
                cmd=str(cmd), names=', '.join(extra), name=card.name, why=', '.join(d.id for d in dice) or _('it has none')
            )
        )
    if missing:
        raise NotationError(
            _("{cmd!r}: every die is rolled, the upgrades' included, no choosing (Destiny P5 › Aktywowanie); give the face each shows: {names}").format(
                cmd=str(cmd), names=' '.join(d + '=FACE' for d in missing)
            )
        )
    for d in dice:
        if d.showing is not None:
            said.append(
                _("note: die {id} was still in the pool; the rulebook does not say what re-activating does to it (ask the judge) — it is rolled again").format(
                    id=d.id
                )
            )
        t = t.with_die(replace(d, showing=_face_of(d, rolled[d.id], cmd)))
    t = t.with_card(replace(card, exhausted=True))
    if not dice:  # a character that prints no die, with no upgrade that has one (R340)
        said.append(_("{name} is exhausted and rolls nothing: it has no die and no upgrade with one (Destiny P5 › Aktywowanie)").format(name=card.name))
        return t
    said.append(
        n_(
            "{name} is exhausted and rolls {n} die ({names}); its upgrades' dice are rolled too and the upgrades do not exhaust (Destiny P5 › Aktywowanie; "
            "P1 › Ulepszenia)",
            "{name} is exhausted and rolls {n} dice ({names}); its upgrades' dice are rolled too and the upgrades do not exhaust (Destiny P5 › Aktywowanie; "
            "P1 › Ulepszenia)",
            len(dice),
        ).format(name=card.name, n=len(dice), names=', '.join(f'{d.id}={rolled[d.id]}' for d in dice))
    )
    return t


def _face_of(d: Die, text: str, cmd: Command) -> Face:
    f = Face.parse(text)
    if d.faces and f not in d.faces:
        raise NotationError(
            _("{cmd!r}: die {id} has no face {text!r}; its faces: {names}").format(cmd=str(cmd), id=d.id, text=text, names=', '.join(map(str, d.faces)))
        )
    return f


def _guardian(t: Table, guardian: Card, die_id: str, said: list[str], x: int | None = None) -> Table:
    if "guardian" not in guardian.keywords:
        raise IllegalCommandError(_("{name} does not have Guardian (Destiny P7 › Strażnik)").format(name=guardian.name))
    d = t.die(die_id)
    if d.owner == guardian.owner or d.showing is None:
        raise IllegalCommandError(
            _("die {die_id} is not in an opponent's pool; Guardian removes an opponent's die (Destiny P7 › Strażnik)").format(die_id=die_id)
        )
    if d.showing.symbol not in DAMAGE:  # melee or ranged, as L341 prints them; indirect damage goes to a player, not this character
        raise IllegalCommandError(
            _("die {die_id} shows {showing}, not damage; Guardian removes a damage die (Destiny P7 › Strażnik)").format(die_id=die_id, showing=d.showing)
        )
    if d.showing.x and x is None:
        raise NotationError(
            _("die {die_id} shows {showing}: X is set by its card's text; give it: 'x=N' (reading R44 in docs/readings.md)").format(
                die_id=die_id, showing=d.showing
            )
        )
    value = d.showing.with_x(x).value if d.showing.x and x is not None else d.showing.value
    t = t.with_die(replace(d, showing=None))
    said.append(
        _(
            "Guardian: before {name} is activated, die {die_id} ({showing}) is removed — removal is not resolution, so its cost does not matter; a modifier "
            "counts as a damage die with its printed value (reading R19 in docs/readings.md, a house-ruled default) (Destiny P7 › Strażnik; P8 › Usuwanie "
            "kości)"
        ).format(name=guardian.name, die_id=die_id, showing=d.showing)
    )
    return _deal(t, guardian.id, value, said, kind=d.showing.symbol.value)


@_turn("resolve", "x", keys="table")
def _resolve(t: Table, cmd: Command, said: list[str]) -> Table:
    who = cmd.actor or ""
    groups = [[_pool_die(t, x, cmd) for x in arg.split("+")] for arg in cmd.rest() for arg in arg.split(",")]
    groups = _with_x(groups, cmd, said)
    player = t.player(who)
    plan = check_resolve(who, groups, player.resources, t.resolved_this_action, free=player.free_cost_dice)
    said.extend(plan.notes)
    ids = {d.id for g in groups for d in g}
    t = t.with_player(replace(player, resources=player.resources - plan.cost))
    if plan.cost:
        said.append(_("{who} pays {cost} resources for the faces' costs (Destiny P2 › Koszt)").format(who=who, cost=plan.cost))
    sym = plan.symbol
    turns = [k for k, _v in cmd.opts if k != "x"]
    if turns and sym is not Symbol.FOCUS:  # DIE=FACE keys are a focus die's turns: never ignored silently
        raise NotationError(_("{cmd!r}: {keys}: only resolving focus turns dice (Destiny P2 › Skupienie); these dice show {symbol}").format(
            cmd=str(cmd), keys=", ".join(f"{k}=" for k in turns), symbol=sym.value))
    targets = list(cmd.targets)
    units = plan.units
    if targets and sym in (Symbol.FOCUS, Symbol.RESOURCE, Symbol.SPECIAL):  # a target never dropped unsaid
        raise NotationError(_("{cmd!r}: a die showing {symbol} takes no target: '-> {targets}' is not read (a focus die turns the dice "
                              "named DIE=FACE, a resource die gains resources, a special die's card says what it does) (Destiny P2 › "
                              "Symbole na kościach)").format(cmd=str(cmd), symbol=sym.value, targets=",".join(targets)))
    if sym is Symbol.INDIRECT:  # dealt to a player, who assigns it (reading R42 in docs/readings.md)
        opp = _opponent(t, who, cmd)
        total = sum(u.value for u in units)
        said.append(
            n_("{dice}: {n} indirect damage to {opp}", "{dice}: {n} indirect damage to {opp}", total).format(
                dice=", ".join("+".join(d.id for d in (u.base, *u.modifiers)) for u in units), n=total, opp=opp
            )
        )
        for unit in units:
            t = _return_dice(t, [unit.base.id, *(m.id for m in unit.modifiers)], said)
        t = _indirect(t, opp, total, said)
        return replace(t, resolved_this_action=t.resolved_this_action | ids)
    if sym in (Symbol.MELEE, Symbol.RANGED, Symbol.SHIELD):
        if len(targets) == 1 and len(units) > 1 and sym is Symbol.SHIELD:
            targets = targets * len(units)
        if len(targets) != len(units):
            raise NotationError(
                n_(
                    "{cmd!r}: {n} unit to resolve one at a time, each with one target: give {n} target after '->' (Destiny P5 › Rozpatrzenie kości, "
                    "L244; reading R31 in docs/readings.md)",
                    "{cmd!r}: {n} units to resolve one at a time, each with one target: give {n} targets after '->' (Destiny P5 › Rozpatrzenie kości, "
                    "L244; reading R31 in docs/readings.md)",
                    len(units),
                ).format(cmd=str(cmd), n=len(units))
            )
    # the dice go back to their cards as they resolve (P5 › Rozpatrzenie kości, step 3); set-aside dice leave
    for i, unit in enumerate(units):
        v = unit.value
        dice_txt = "+".join(d.id for d in (unit.base, *unit.modifiers))
        if sym in (Symbol.MELEE, Symbol.RANGED):
            tgt = t.card(targets[i])
            if tgt.owner == who:
                said.append(
                    _("note: {name} is {who}'s own character; damage dice may target any character (Destiny P8 › Wybierz (cel))").format(name=tgt.name, who=who)
                )
            said.append(
                _("{dice_txt}: {v} {value} damage to {name}").format(dice_txt=dice_txt, v=v, value=sym.value, name=tgt.name)
                + (_(" (a base die and its modifiers land together, Destiny P2 › Modyfikator)") if unit.modifiers else "")
            )
            t = _deal(t, tgt.id, v, said, kind=sym.value)
        elif sym is Symbol.SHIELD:
            tgt = t.card(targets[i])
            if tgt.kind != "character":
                raise IllegalResolveError(_("{name} is not a character; shields go on characters (Destiny P2 › Osłona)").format(name=tgt.name))
            t = _shield(t, tgt.id, v, said)
        elif sym is Symbol.RESOURCE:
            p = t.player(who)
            t = t.with_player(replace(p, resources=p.resources + v))
            said.append(_("{dice_txt}: {who} gains {v} resources (Destiny P2 › Zasób)").format(dice_txt=dice_txt, who=who, v=v))
        elif sym is Symbol.DISRUPT:
            opp = _opponent(t, who, cmd)
            p = t.player(opp)
            t = t.with_player(replace(p, resources=max(0, p.resources - v)))
            said.append(
                _("{dice_txt}: {opp} loses {v} of {resources} resources — never below 0 (Destiny P2 › Zakłócenie)").format(
                    dice_txt=dice_txt, opp=opp, v=min(v, p.resources), resources=p.resources
                )
            )
        elif sym is Symbol.DISCARD:
            opp = _opponent(t, who, cmd)
            p = t.player(opp)
            n = min(v, p.hand)
            t = t.with_player(replace(p, hand=p.hand - n, discard=p.discard + n))
            said.append(
                n_("{dice_txt}: {opp} discards {n} card at random from {hand} in hand (Destiny P2 › Odrzucenie)",
                   "{dice_txt}: {opp} discards {n} cards at random from {hand} in hand (Destiny P2 › Odrzucenie)", n).format(
                    dice_txt=dice_txt, opp=opp, n=n, hand=p.hand
                )
            )
        elif sym is Symbol.FOCUS:
            t = _focus(t, who, unit.base.id, v, cmd, said)
        elif sym is Symbol.SPECIAL:
            card_id = t.die(unit.base.id).card
            src = t.card(card_id) if any(c.id == card_id for c in t.cards) else None
            said.append(
                _(
                    "{dice_txt}: resolve the special ability of {value} — enter what it does as effect commands (Destiny P2 › Specjalny; P7 › Zdolności "
                    "specjalne)"
                ).format(dice_txt=dice_txt, value=src.name if src else card_id)
            )
        t = _return_dice(t, [unit.base.id, *(m.id for m in unit.modifiers)], said)
    return replace(t, resolved_this_action=t.resolved_this_action | ids)


def _with_x(groups: list[list[PoolDie]], cmd: Command, said: list[str]) -> list[list[PoolDie]]:
    """The dice showing X with the value the player gives (``x=N``, or ``x=DIE:N,DIE:N`` when
    several X dice come from different cards): X is set by the card's text, which the engine does
    not read (reading R44 in docs/readings.md)."""
    given = cmd.opt("x")
    xs = [d for g in groups for d in g if d.face.x]
    if given is None or not xs:
        if given is not None:
            raise NotationError(_("{cmd!r}: x= gives the value of a die showing X, and none of these dice shows X").format(cmd=str(cmd)))
        return groups  # check_resolve refuses an X die without a value, saying how to give it
    values: dict[str, int] = {}
    for part in given.split(","):
        die, sep, num = part.rpartition(":")
        if not num.isdigit() or (sep and not die):
            raise NotationError(_("{cmd!r}: x={given!r} should be a number, or DIE:N for each die showing X").format(cmd=str(cmd), given=given))
        for d in xs if not sep else [d for d in xs if d.id == die]:
            values[d.id] = int(num)
        if sep and die not in {d.id for d in xs}:
            raise NotationError(_("{cmd!r}: die {die} does not show X ({names})").format(cmd=str(cmd), die=die, names=", ".join(d.id for d in xs)))
    for d in xs:
        if d.id in values:
            said.append(
                _("die {id} shows {face}: X is {x}, as the player reads its card (reading R44 in docs/readings.md)").format(
                    id=d.id, face=d.face, x=values[d.id]
                )
            )
    return [[replace(d, face=d.face.with_x(values[d.id])) if d.id in values else d for d in g] for g in groups]


def _indirect(t: Table, player: str, n: int, said: list[str]) -> Table:
    """``player`` is dealt ``n`` indirect damage: they assign it among their own characters (one
    character: all of it goes there; reading R42 in docs/readings.md)."""
    if n <= 0:
        said.append(_("0 indirect damage: nothing to assign"))
        return t
    chars = t.characters(player)
    if len(chars) == 1:
        said.append(
            n_("{player} has one character, {name}: all {n} indirect damage is assigned to it (reading R42 in docs/readings.md)",
               "{player} has one character, {name}: all {n} indirect damage is assigned to it (reading R42 in docs/readings.md)", n).format(
                player=player, name=chars[0].name, n=n
            )
        )
        return _deal(t, chars[0].id, n, said, kind="indirect")
    pending = dict(t.indirect)
    pending[player] = pending.get(player, 0) + n
    said.append(
        n_(
            "{player} assigns {n} indirect damage among their characters ({names}) as they choose: '{player} assign N N -> CHARACTER,CHARACTER' "
            "(reading R42 in docs/readings.md)",
            "{player} assigns {n} indirect damage among their characters ({names}) as they choose: '{player} assign N N -> CHARACTER,CHARACTER' "
            "(reading R42 in docs/readings.md)",
            pending[player],
        ).format(player=player, n=pending[player], names=", ".join(c.id for c in chars))
    )
    return replace(t, indirect=tuple(pending.items()))


def _pool_die(t: Table, did: str, cmd: Command) -> PoolDie:
    d = t.die(did)
    if d.showing is None:
        raise IllegalResolveError(
            _("die {did} is not in a pool (it is on its card {card}); only pool dice are resolved (Destiny P5 › Rozpatrzenie kości)").format(
                did=did, card=d.card
            )
        )
    return PoolDie(d.id, d.owner, d.showing)


def _return_dice(t: Table, ids: list[str], said: list[str]) -> Table:
    for did in ids:
        if not any(d.id == did for d in t.dice):
            continue
        d = t.die(did)
        if d.set_aside_after:
            t = t.without_dice({did})
            said.append(_("die {did} is set aside: it came from a card not in play (Destiny P7 › Zdolności specjalne)").format(did=did))
        else:
            t = t.with_die(replace(d, showing=None))
    return t


def _opponent(t: Table, who: str, cmd: Command) -> str:
    opps = [o for o in t.opponents(who) if o not in _eliminated(t)]
    if cmd.targets:
        if cmd.targets[0] not in opps:
            raise NotationError(
                _("{cmd!r}: {targets!r} is not an opponent of {who} ({names})").format(cmd=str(cmd), targets=cmd.targets[0], who=who, names=', '.join(opps))
            )
        return cmd.targets[0]
    if len(opps) != 1:
        raise NotationError(
            _("{cmd!r}: the player using it chooses which opponent: add '-> PLAYER' ({names}) (Destiny P9 › Każdy na każdego)").format(
                cmd=str(cmd), names=', '.join(opps)
            )
        )
    return opps[0]


def _focus(t: Table, who: str, focus_die: str, value: int, cmd: Command, said: list[str]) -> Table:
    turns = dict(cmd.opts)
    turns.pop("x", None)  # the value of a die showing X (_with_x); every other key names a die to turn
    if len(turns) > value:
        raise IllegalResolveError(_("focus {value} turns up to {value} dice, not {n} (Destiny P2 › Skupienie)").format(value=value, n=len(turns)))
    if not turns:
        said.append(_("focus {value} on die {did}: no die turned (name each die it turns: DIE=FACE) (Destiny P2 › Skupienie)").format(
            value=value, did=focus_die))
    for did, face_text in turns.items():
        d = t.die(did)
        if did == focus_die:
            raise IllegalResolveError(_("focus turns *other* dice, not die {did} itself (Destiny P2 › Skupienie)").format(did=did))
        if d.owner != who or d.showing is None:
            raise IllegalResolveError(
                _("die {did} is not in {who}'s pool; focus turns the player's own dice (Destiny P2 › Skupienie)").format(did=did, who=who)
            )
        f = _face_of(d, face_text, cmd)
        _check_turn(d, f, IllegalResolveError)
        t = t.with_die(replace(d, showing=f))
        said.append(_("focus: die {did} turned from {showing} to {f} (Destiny P2 › Skupienie; P8 › Obracanie)").format(did=did, showing=d.showing, f=f))
    return t


@_effect("more", "x", keys="table")
def _e_more(t: Table, cmd: Command, said: list[str]) -> Table:
    """Resolve more dice in the action under way: dice that came to show the symbol during the
    action may be resolved in it, but no die twice (Destiny P5 › Rozpatrzenie kości, L248-249)."""
    if not t.resolved_this_action:
        raise IllegalCommandError(_("no resolve-dice action is under way; start one with 'PLAYER resolve DICE'"))
    return _resolve(t, cmd, said)


@_turn("reroll", keys="verb")
def _reroll(t: Table, cmd: Command, said: list[str]) -> Table:
    """Discard a card to reroll dice (P5 › Odrzucenie karty w celu przerzucenia kości)."""
    who = cmd.actor or ""
    p = t.player(who)
    if not t.pool(who):
        raise IllegalCommandError(_("{who} has no dice in their pool: discarding to reroll needs at least one (Destiny P5 › Odrzucenie karty)").format(who=who))
    if p.hand < 1:
        raise IllegalCommandError(_("{who} has no card in hand to discard (Destiny P5 › Odrzucenie karty)").format(who=who))
    if not cmd.opts:
        raise NotationError(_("{cmd!r}: name each die rerolled with its new face, e.g. 'A reroll h1=melee:2 h2=blank'").format(cmd=str(cmd)))
    for did, face in cmd.opts:
        d = t.die(did)
        if d.owner != who or d.showing is None:
            raise IllegalCommandError(
                _("die {did} is not in {who}'s pool; this action rerolls only the player's own dice (Destiny P5 › Odrzucenie karty; P8 › Przerzucanie)").format(
                    did=did, who=who
                )
            )
        t = t.with_die(replace(d, showing=_face_of(d, face, cmd)))
    t = t.with_player(replace(p, hand=p.hand - 1, discard=p.discard + 1))
    said.append(
        _("{who} discards a card and rerolls {names}, all chosen before any is rolled (Destiny P5 › Odrzucenie karty w celu przerzucenia kości)").format(
            who=who, names=', '.join(k for k, _unused in cmd.opts)
        )
    )
    return t


@_turn("action", "exhaust")
def _card_action(t: Table, cmd: Command, said: list[str]) -> Table:
    card = t.card(cmd.arg(0, N_("the card whose Action is used")))
    if card.owner != cmd.actor:
        raise IllegalCommandError(_("{name} is {owner}'s (Destiny P5 › Użycie akcji z karty)").format(name=card.name, owner=card.owner))
    if cmd.flag("exhaust"):
        if card.exhausted:
            raise IllegalCommandError(_("{name} is already exhausted, so exhausting it cannot pay the cost (Destiny P6 › Wyczerpana)").format(name=card.name))
        t = t.with_card(replace(card, exhausted=True))
    said.append(
        _("{actor} uses the Action on {name}; enter its effect as effect commands (Destiny P5 › Użycie akcji z karty)").format(actor=cmd.actor, name=card.name)
    )
    return t


@_turn("play", "after", "ambush", "color", "cost", "die", "faces", "kind", "needs", "on", "reduce", "replace", "title", "unique")
def _play(t: Table, cmd: Command, said: list[str]) -> Table:
    who = cmd.actor or ""
    p = t.player(who)
    cid = cmd.arg(0, N_("an id for the card played"))
    kind = cmd.opt("kind", "event")
    if kind not in ("upgrade", "support", "event"):
        raise NotationError(_("{cmd!r}: kind={kind!r}; a card played from hand is an upgrade, support or event").format(cmd=str(cmd), kind=kind))
    if p.hand < 1:
        raise IllegalPlayError(_("{who} has no cards in hand (Destiny P5 › Zagranie karty z ręki)").format(who=who))
    printed = cmd.int_opt("cost", 0) or 0
    title = cmd.opt("title", cid) or cid
    unique = cmd.flag("unique")
    on = cmd.opt("on")
    replacing = cmd.opt("replace")
    reduce = cmd.int_opt("reduce", 0) or 0
    if kind != "event" and any(c.id == cid for c in t.cards):
        raise NotationError(_("{cmd!r}: a card with id {cid!r} is already in play; give the new card another id").format(cmd=str(cmd), cid=cid))
    mine = frozenset(c.title or c.id for c in t.cards if c.owner == who and c.unique and not c.defeated)
    target = None
    if kind == "upgrade":
        if on is None:
            raise NotationError(_("{cmd!r}: an upgrade is played on a character: add on=CHARACTER").format(cmd=str(cmd)))
        target = t.card(on)
        if target.kind != "character" or target.defeated or target.owner != who:
            raise IllegalPlayError(_("{name} is not an undefeated character of {who}'s (Destiny P5 › Zagranie ulepszenia)").format(name=target.name, who=who))
    old = None
    if replacing:
        old = t.card(replacing)
        if old.kind != "upgrade" or old.on != on:
            raise IllegalPlayError(
                _("{name} is not an upgrade on {on}; only an upgrade on the same character is replaced (Destiny P5, L233)").format(name=old.name, on=on)
            )
    cost, why = upgrade_cost(printed, old.cost if old else None)
    paid = max(0, cost - reduce)
    check_play(paid, p.resources, title if unique else None, mine, len(t.upgrades_on(on)) if kind == "upgrade" and on else None, replacing=old is not None)
    t = t.with_player(replace(p, resources=p.resources - paid, hand=p.hand - 1, discard=p.discard + (1 if kind == "event" else 0)))
    said.append(
        _("{who} plays {title} ({kind}) and pays {paid}").format(who=who, title=title, kind=said_word(kind), paid=paid)
        + (f" — {why}" if old else "")
        + (
            _("; {reduce} taken off by an effect, the card's cost stays {printed} (Destiny P8 › Zmniejszenie)").format(reduce=reduce, printed=printed)
            if reduce
            else ""
        )
    )
    if old is not None:
        t = _discard_upgrade(t, old, said, why=N_("replaced"))
    if kind == "event":
        needs = cmd.opt("needs")
        if needs and not any(c.color == needs for c in t.characters(who)):
            said.append(
                _(
                    "{who} has no undefeated {needs} character: the event is legal to play but does nothing; the cost is paid and it is discarded (Destiny "
                    "P8 › Wyznaczanie; P1 › Wydarzenia)"
                ).format(who=who, needs=needs)
            )
        else:
            said.append(_("the event resolves (enter its effect as effect commands) and is discarded (Destiny P1 › Wydarzenia)"))
    else:
        new = Card(cid, who, kind, title if title != cid else "", printed, cmd.opt("color", "grey") or "grey", unique, on=on)  # type: ignore[arg-type]
        t = replace(t, cards=t.cards + (new,))
        die_id = cmd.opt("die")
        if die_id:
            faces = tuple(Face.parse(f) for f in (cmd.opt("faces") or "").split(",") if f)
            if any(d.id == die_id for d in t.dice):
                raise NotationError(_("{cmd!r}: a die {die_id!r} already exists").format(cmd=str(cmd), die_id=die_id))
            t = replace(t, dice=t.dice + (Die(die_id, cid, who, faces),))
    after = cmd.opt("after")
    if after:
        said.append(
            _("after the play is complete: {after} — an 'after' ability waits for the play to finish fully (Destiny P7 › Zdolności „po tym”)").format(
                after=after
            )
        )
    if cmd.flag("ambush"):
        t = replace(t, extra_action=who)
        said.append(_("Ambush: {who} may take one more action at once, in this turn ('decline' gives it up) (Destiny P7 › Zasadzka)").format(who=who))
    return t


# --- effects: what card text does while an action resolves --------------------------------


def _character(t: Table, cid: str) -> Card:
    c = t.card(cid)
    if c.kind != "character":
        raise IllegalCommandError(_("{name} is an {kind}, not a character").format(name=c.name, kind=said_word(c.kind)))
    return c


def _as_char(c: Card) -> Character:
    return Character(c.id, c.health, c.damage, c.shields, c.exhausted, c.defeated)


def _deal(t: Table, cid: str, amount: int, said: list[str], kind: str = "", unblockable: bool = False, choose: str | None = None) -> Table:
    c = _character(t, cid)
    r = deal_damage(_as_char(c), amount, unblockable)
    said.append(
        _("{name}: {dealt} dealt, {blocked} blocked by shields, {taken} taken ({rule})").format(
            name=c.name, dealt=r.dealt, blocked=r.blocked, taken=r.taken, rule=r.rule
        )
    )
    c2 = replace(c, damage=r.character.damage, shields=r.character.shields)
    t = t.with_card(c2)
    if r.taken and kind == "melee":
        for u in t.upgrades_on(c.id):
            if u.discard_when == "takes-melee-damage":
                said.append(
                    _("{name} took melee damage: {name2} is discarded by its own text (Destiny P8 › Zadawanie obrażeń)").format(name=c.name, name2=u.name)
                )
                t = _discard_upgrade(t, u, said, why=N_("its condition"))
    elif r.dealt and not r.taken and any(u.discard_when for u in t.upgrades_on(c.id)):
        said.append(
            _(
                "damage was dealt but none taken (all blocked): 'takes damage' text does not fire (reading R21 in docs/readings.md; Destiny P8 › Zadawanie "
                "obrażeń)"
            )
        )
    if r.defeated_now:
        t = _defeat(t, c.id, said, choose)
    if r.ignored_excess and not r.defeated_now:
        said.append(_("{ignored_excess} excess damage ignored").format(ignored_excess=r.ignored_excess))
    elif r.ignored_excess:
        said.append(_("{ignored_excess} excess damage is ignored (Destiny P6 › Pokonane postacie)").format(ignored_excess=r.ignored_excess))
    return t


def _defeat(t: Table, cid: str, said: list[str], choose: str | None = None) -> Table:
    c = t.card(cid)
    replacements = [(card, amount) for card, amount in c.replaces_defeat]
    if replacements:
        if len(replacements) > 1 and choose is None:
            raise IllegalCommandError(
                _(
                    "{n} replacement effects ({names}) would replace {name}'s defeat: the battlefield controller {bf_controller} picks one and the other "
                    "does not resolve; repeat with replace=CARD (Destiny P7 › Efekty zastępujące)"
                ).format(n=len(replacements), names=', '.join(r for r, _unused in replacements), name=c.name, bf_controller=t.bf_controller)
            )
        pick = next(((r, a) for r, a in replacements if r == choose), replacements[0] if choose is None else None)
        if pick is None:
            raise NotationError(
                _("replace={choose!r} is not a replacement effect on {name} ({names})").format(
                    choose=choose, name=c.name, names=', '.join(r for r, _unused in replacements)
                )
            )
        card, amount = pick
        healed = min(amount, c.health)
        t = t.with_card(replace(c, damage=c.health - healed, replaces_defeat=tuple(x for x in c.replaces_defeat if x[0] != card)))
        said.append(
            _("instead of being defeated, {name} heals {healed} ({card}); it was never defeated, so no 'defeated' abilities fire").format(
                name=c.name, healed=healed, card=card
            )
            + (
                _("; the other replacement effects do not resolve — chosen by the battlefield controller {bf_controller}").format(bf_controller=t.bf_controller)
                if len(replacements) > 1
                else ""
            )
            + _(" (Destiny P7 › Efekty zastępujące)")
        )
        if any(x.id == card for x in t.cards):
            t = _discard_upgrade(t, t.card(card), said, why=N_("used"))
        return t
    ups = t.upgrades_on(c.id) + t.downgrades_on(c.id)  # a downgrade is discarded with its character, as an upgrade is
    redeploy = [u for u in ups if "redeploy" in u.keywords]
    if redeploy:  # reading R25 in docs/readings.md: Redeploy overrides the discard; the upgrade and its die wait for the owner's choice
        for u in redeploy:
            for d in t.dice_of(u.id):
                t = t.with_die(replace(d, showing=None))
        said.append(
            _(
                "Redeploy: {names} may move with its die to another of {owner}'s characters ('redeploy UPGRADE -> CHARACTER') or be discarded "
                "('discard-upgrade UPGRADE') (Destiny P7 › Przepisanie; reading R25 in docs/readings.md)"
            ).format(names=', '.join(u.name for u in redeploy), owner=c.owner)
        )
        ups = tuple(u for u in ups if u not in redeploy)
    gone = {d.id for d in t.dice_of(c.id)} | {d.id for u in ups for d in t.dice_of(u.id)}
    t = t.without_dice(gone)
    for u in ups:
        owner = t.player(u.owner)
        t = t.with_player(replace(owner, discard=owner.discard + 1))
    t = t.without_cards({u.id for u in ups})
    t = t.with_card(replace(t.card(c.id), defeated=True, exhausted=False, shields=0))
    said.append(
        _("{name} is defeated: removed from the game with its dice {why}; its upgrades {why2} are discarded (Destiny P6 › Pokonane postacie)").format(
            name=c.name, why=f"({', '.join(sorted(gone))})" if gone else _("(none)"), why2=f"({', '.join(u.name for u in ups)})" if ups else _("(none)")
        )
    )
    if not t.characters(c.owner):
        alive = [n for n in t.names if n not in _eliminated(t)]
        if len(alive) == 1:
            t = replace(
                t,
                phase="over",
                winner=alive[0],
                result=_("every character of {player} is defeated: the game ends at once and {opponent} wins (Destiny P5 › Zwycięstwo)").format(
                    player=c.owner, opponent=alive[0]
                ),
            )
            said.append(t.result)
        else:
            said.append(_("{owner} is eliminated: every character defeated (Destiny P9 › Eliminacja graczy)").format(owner=c.owner))
    return t


def _discard_upgrade(t: Table, u: Card, said: list[str], why: str, keep_die: str | None = None) -> Table:
    dice = t.dice_of(u.id)
    gone = {d.id for d in dice}
    if keep_die is not None:
        same = [x for x in t.upgrades_on(u.on or "") if x.id != u.id and (x.title or x.id) == (u.title or u.id)]
        kept = t.die(keep_die)
        if not same or kept.card not in {x.id for x in same} | {u.id}:
            raise IllegalCommandError(
                _("die {keep_die} is not a die of {name} or of another copy of it on the same character").format(keep_die=keep_die, name=u.name)
            )
        if kept.card != u.id:  # the player chose which copy's die leaves: swap them (Destiny P2 › Kości opuszczające grę)
            t = t.with_die(replace(dice[0], card=kept.card))
            gone = {keep_die}
    t = t.without_dice(gone)
    owner = t.player(u.owner)
    t = t.with_player(replace(owner, discard=owner.discard + 1)).without_cards({u.id})
    said.append(
        _("{name} is discarded ({why}); die {why2} is set aside (Destiny P2 › Kości opuszczające grę)").format(
            name=u.name, why=_(why), why2=', '.join(sorted(gone)) or _('(none)')
        )
    )
    return t


@_effect("damage", "kind", "replace", "unblockable")
def _e_damage(t: Table, cmd: Command, said: list[str]) -> Table:
    n = cmd.int_arg(0, N_("the damage"))
    for tgt in _targets(cmd, 1):
        t = _deal(t, tgt, n, said, kind=cmd.opt("kind", "") or "", unblockable=cmd.flag("unblockable"), choose=cmd.opt("replace"))
    return t


@_effect("indirect")
def _e_indirect(t: Table, cmd: Command, said: list[str]) -> Table:
    """Indirect damage from a card's text, e.g. ``A indirect 2 -> B``: the player dealt it assigns it among their characters."""
    n = cmd.int_arg(0, N_("the indirect damage"))
    return _indirect(t, _opponent(t, _need_actor(cmd), cmd), n, said)


@_effect("assign")
def _e_assign(t: Table, cmd: Command, said: list[str]) -> Table:
    """``B assign 2 1 -> han,leia``: the player dealt indirect damage assigns all of it among their
    own characters; shields block it as any damage (reading R42 in docs/readings.md)."""
    who = _need_actor(cmd)
    pending = dict(t.indirect)
    if who not in pending:
        raise IllegalCommandError(_("{who} has no indirect damage to assign").format(who=who))
    amounts = [cmd.int_arg(i, N_("an amount")) for i in range(len(cmd.args))]
    targets = cmd.targets
    if not amounts or len(targets) != len(amounts):
        raise NotationError(_("{cmd!r}: give one amount per character, e.g. '{who} assign 2 1 -> han,leia'").format(cmd=str(cmd), who=who))
    if sum(amounts) != pending[who]:
        raise IllegalCommandError(
            n_("{who} assigns {n} indirect damage, all of it: these amounts add up to {got} (reading R42 in docs/readings.md)",
               "{who} assigns {n} indirect damage, all of it: these amounts add up to {got} (reading R42 in docs/readings.md)", pending[who]).format(
                who=who, n=pending[who], got=sum(amounts)
            )
        )
    for tgt in targets:
        c = _character(t, tgt)
        if c.owner != who or c.defeated:
            raise IllegalCommandError(
                _("{name} is not an undefeated character of {who}'s: indirect damage is assigned among the receiving player's own characters "
                  "(reading R42 in docs/readings.md)").format(name=c.name, who=who)
            )
    del pending[who]
    t = replace(t, indirect=tuple(pending.items()))
    said.append(_("{who} assigns the indirect damage: {split} (reading R42 in docs/readings.md)").format(
        who=who, split=", ".join(f"{n} -> {c}" for n, c in zip(amounts, targets, strict=True))))
    for n, tgt in zip(amounts, targets, strict=True):
        if n and not t.card(tgt).defeated and t.phase != "over":
            t = _deal(t, tgt, n, said, kind="indirect")
    return t


@_effect("distribute", "kind")
def _e_distribute(t: Table, cmd: Command, said: list[str]) -> Table:
    """Damage split as the player chooses, e.g. ``A distribute 2 3 -> x,y``: more than a
    character's remaining health may be put on it; the excess is ignored (Destiny P6 › Pokonane postacie)."""
    amounts = [cmd.int_arg(i, N_("an amount")) for i in range(len(cmd.args))]
    targets = cmd.targets
    if not amounts or len(targets) != len(amounts):
        raise NotationError(_("{cmd!r}: give one amount per target, e.g. 'A distribute 2 1 -> han,leia'").format(cmd=str(cmd)))
    for n, tgt in zip(amounts, targets, strict=True):
        t = _deal(t, tgt, n, said, kind=cmd.opt("kind", "") or "")
    return t


def _targets(cmd: Command, n: int | None = None) -> tuple[str, ...]:
    if not cmd.targets or (n is not None and n > 1 and len(cmd.targets) != n):
        raise NotationError(n_("{cmd!r}: give the target after '->'", "{cmd!r}: give the targets after '->'", n or 1).format(cmd=str(cmd)))
    return cmd.targets


@_effect("heal")
def _e_heal(t: Table, cmd: Command, said: list[str]) -> Table:
    n = cmd.int_arg(0, N_("the amount healed"))
    for tgt in _targets(cmd):
        c = _character(t, tgt)
        ch, removed = heal(_as_char(c), n)
        t = t.with_card(replace(c, damage=ch.damage))
        said.append(
            _("{name}: {removed} damage removed").format(name=c.name, removed=removed)
            + (_(", {value} ignored").format(value=n - removed) if n > removed else "")
            + (_("; it was *not* healed") if removed == 0 else "")
            + _(" (Destiny P8 › Ulecz)")
        )
    return t


def _shield(t: Table, cid: str, n: int, said: list[str]) -> Table:
    c = _character(t, cid)
    ch, ignored = give_shields(_as_char(c), n)
    placed = ch.shields - c.shields
    said.append(
        n_("{name}: {value} shield placed, {ignored} ignored — at most {MAX_SHIELDS} (Destiny P2 › Osłona; P6 › Osłony)",
           "{name}: {value} shields placed, {ignored} ignored — at most {MAX_SHIELDS} (Destiny P2 › Osłona; P6 › Osłony)", placed).format(
            name=c.name, value=placed, ignored=ignored, MAX_SHIELDS=MAX_SHIELDS
        )
    )
    return t.with_card(replace(c, shields=ch.shields))


@_effect("shield")
def _e_shield(t: Table, cmd: Command, said: list[str]) -> Table:
    n = cmd.int_arg(0, N_("the shields"))
    for tgt in _targets(cmd):
        t = _shield(t, tgt, n, said)
    return t


@_effect("move-damage")
def _e_move(t: Table, cmd: Command, said: list[str]) -> Table:
    n = cmd.int_arg(0, N_("the damage moved"))
    src, dst = _targets(cmd, 2)
    a, b = _character(t, src), _character(t, dst)
    a2, b2, moved = move_damage(_as_char(a), _as_char(b), n)
    t = t.with_card(replace(a, damage=a2.damage)).with_card(replace(b, damage=b2.damage))
    said.append(
        _("{moved} damage moved from {name} to {name2}: shields are ignored and {name2} is not dealt damage (Destiny P8 › Poruszanie)").format(
            moved=moved, name=a.name, name2=b.name
        )
    )
    if b2.defeated:
        t = _defeat(t, b.id, said)
    return t


@_effect("defeat", "replace")
def _e_defeat(t: Table, cmd: Command, said: list[str]) -> Table:
    for tgt in _targets(cmd):
        c = _character(t, tgt)
        if c.defeated:
            raise IllegalCommandError(_("{name} is already defeated (Destiny P8 › Wybierz (cel))").format(name=c.name))
        t = _defeat(t, c.id, said, cmd.opt("replace"))
    return t


@_effect("gain")
def _e_gain(t: Table, cmd: Command, said: list[str]) -> Table:
    n = cmd.int_arg(0, N_("the resources gained"))
    p = t.player(cmd.actor or "")
    said.append(_("{name} gains {n} resources (Destiny P6 › Zasoby)").format(name=p.name, n=n))
    return t.with_player(replace(p, resources=p.resources + n))


@_effect("pay")
def _e_pay(t: Table, cmd: Command, said: list[str]) -> Table:
    n = cmd.int_arg(0, N_("the resources paid"))
    p = t.player(cmd.actor or "")
    if n > p.resources:
        raise IllegalCommandError(
            _("{name} has {resources} resources and cannot pay {n}: a cost must be paid in full (Destiny P7 › Koszty)").format(
                name=p.name, resources=p.resources, n=n
            )
        )
    said.append(_("{name} pays {n} resources").format(name=p.name, n=n))
    return t.with_player(replace(p, resources=p.resources - n))


@_effect("disrupt")
def _e_disrupt(t: Table, cmd: Command, said: list[str]) -> Table:
    n = cmd.int_arg(0, N_("the resources lost"))
    opp = _opponent(t, cmd.actor or "", cmd)
    p = t.player(opp)
    said.append(_("{opp} loses {n} resources — never below 0 (Destiny P2 › Zakłócenie)").format(opp=opp, n=min(n, p.resources)))
    return t.with_player(replace(p, resources=max(0, p.resources - n)))


@_effect("discard", "from")
def _e_discard(t: Table, cmd: Command, said: list[str]) -> Table:
    n = cmd.int_arg(0, N_("the cards discarded"))
    who = _opponent(t, cmd.actor or "", cmd) if cmd.targets or cmd.opt("from") != "own" else cmd.actor or ""
    p = t.player(who)
    k = min(n, p.hand)
    said.append(n_("{who} discards {k} card at random from a hand of {hand} (Destiny P2 › Odrzucenie)",
                   "{who} discards {k} cards at random from a hand of {hand} (Destiny P2 › Odrzucenie)", k).format(who=who, k=k, hand=p.hand))
    return t.with_player(replace(p, hand=p.hand - k, discard=p.discard + k))


@_effect("draw")
def _e_draw(t: Table, cmd: Command, said: list[str]) -> Table:
    n = cmd.int_arg(0, N_("the cards drawn"))
    p = t.player(cmd.actor or "")
    k = min(n, p.deck)
    said.append(
        _("{name} draws {k}").format(name=p.name, k=k)
        + (_(" ({value} could not be drawn: the deck is empty)").format(value=n - k) if k < n else "")
        + _(" (Destiny P6 › Dobranie karty)")
    )
    return t.with_player(replace(p, hand=p.hand + k, deck=p.deck - k))


@_effect("mill", "then")
def _e_mill(t: Table, cmd: Command, said: list[str]) -> Table:
    """Discard the top N of the deck, *then* do ``then=...``: the then-part happens only if the
    first part happened in full (Destiny P7 › Efekty „następnie”; reading R17 in docs/readings.md)."""
    n = cmd.int_arg(0, N_("the cards discarded from the deck"))
    p = t.player(cmd.actor or "")
    k = min(n, p.deck)
    t = t.with_player(replace(p, deck=p.deck - k, discard=p.discard + k))
    said.append(n_("{name} discards {k} card from the top of the deck", "{name} discards {k} cards from the top of the deck", k).format(name=p.name, k=k))
    then = cmd.opt("then")
    if then:
        if k < n:
            said.append(
                _(
                    "only {k} of {n} could be discarded, so the 'then' part ({then}) does not happen (Destiny P7 › Efekty „następnie”; reading R17 in "
                    "docs/readings.md)"
                ).format(k=k, n=n, then=then)
            )
        else:
            said.append(_("then: {then} (Destiny P7 › Efekty „następnie”)").format(then=then))
    return t


def _showing_die(t: Table, did: str, where: str) -> Die:
    """A die an effect may turn or reroll: one in a pool, or one resolved in this action that the
    effect brings back (D-12, D-15; it stays spent for this action, P5 L249)."""
    d = t.die(did)
    if d.showing is None and did not in t.resolved_this_action:
        raise IllegalCommandError(_("die {did} is not in a pool; only pool dice show a face ({where})").format(did=did, where=where))
    return d


def _check_turn(d: Die, f: Face, err: type[AssistantError]) -> None:
    """Turning must change the face, unless the die has two identical faces (P8 › Obracanie)."""
    if f == d.showing and not (d.faces and d.faces.count(f) > 1):
        raise err(
            _("die {id} already shows {f}; turning must change it to a different face unless the die has two identical faces (Destiny P8 › Obracanie)").format(
                id=d.id, f=f
            )
        )


@_effect("turn", keys="verb")
def _e_turn(t: Table, cmd: Command, said: list[str]) -> Table:
    for did, text in cmd.opts:
        d = _showing_die(t, did, "Destiny P8 › Ścianka widoczna")
        f = _face_of(d, text, cmd)
        _check_turn(d, f, IllegalCommandError)
        t = t.with_die(replace(d, showing=f))
        again = _(" — already resolved in this action, so it cannot be resolved again in it (Destiny P5, L249)") if did in t.resolved_this_action else ""
        said.append(_("die {did} turned to {f}{again} (Destiny P8 › Obracanie)").format(did=did, f=f, again=again))
    return t


@_effect("reroll-effect", keys="verb")
def _e_reroll(t: Table, cmd: Command, said: list[str]) -> Table:
    """A card that rerolls dice (Comlink #61): any pool die, the opponent's too (P8 › Przerzucanie)."""
    for did, text in cmd.opts:
        d = _showing_die(t, did, "Destiny P8 › Przerzucanie")
        t = t.with_die(replace(d, showing=_face_of(d, text, cmd)))
        again = _("; already resolved in this action, so not again (Destiny P5, L249)") if did in t.resolved_this_action else ""
        said.append(
            _("die {did} ({owner}'s) rerolled by a card effect: now {text}{again} (Destiny P8 › Przerzucanie)").format(
                did=did, owner=d.owner, text=text, again=again
            )
        )
    return t


@_effect("remove")
def _e_remove(t: Table, cmd: Command, said: list[str]) -> Table:
    for did in cmd.rest():
        d = t.die(did)
        if d.showing is None:
            raise IllegalCommandError(_("die {did} is not in a pool and cannot be removed (Destiny P8 › Usuwanie kości)").format(did=did))
        t = _return_dice(t, [did], said)
        said.append(_("die {did} removed from the pool back to its card (Destiny P8 › Usuwanie kości)").format(did=did))
    return t


@_effect("roll-in", "from", keys="verb")
def _e_roll_in(t: Table, cmd: Command, said: list[str]) -> Table:
    """Roll a die from a card that is not in play into the pool (Ace in the Hole #92; Destiny P7 › Zdolności specjalne)."""
    src = cmd.opt("from")
    if not src:
        raise NotationError(_("{cmd!r}: say which card the die comes from: from=CARD").format(cmd=str(cmd)))
    for did, text in cmd.opts:
        if did == "from":
            continue
        if any(d.id == did for d in t.dice):
            raise NotationError(_("{cmd!r}: die {did!r} already exists").format(cmd=str(cmd), did=did))
        t = replace(t, dice=t.dice + (Die(did, src, cmd.actor or "", (), Face.parse(text), set_aside_after=True),))
        said.append(
            _(
                "die {did} of {src} rolled into {actor}'s pool showing {text}; its special uses {src}'s special although the card is not in play; it is set "
                "aside once resolved or removed (Destiny P7 › Zdolności specjalne)"
            ).format(did=did, src=src, actor=cmd.actor, text=text)
        )
    return t


@_effect("keyword")
def _e_keyword(t: Table, cmd: Command, said: list[str]) -> Table:
    """``A keyword guardian gain|lose -> X``: a keyword is had or not; gaining twice and losing
    once leaves none (Destiny P7 › Słowa kluczowe)."""
    word, how = cmd.arg(0, N_("the keyword")), cmd.arg(1, N_("gain or lose"))
    if how not in ("gain", "lose"):
        raise NotationError(_("{cmd!r}: {how!r} must be gain or lose").format(cmd=str(cmd), how=how))
    for tgt in _targets(cmd):
        c = t.card(tgt)
        had = word in c.keywords
        kws = c.keywords | {word} if how == "gain" else c.keywords - {word}
        t = t.with_card(replace(c, keywords=frozenset(kws)))
        gained = how == "gain"
        said.append(
            (_("{name} gains {word}") if gained else _("{name} loses {word}")).format(name=c.name, word=word)
            + (_(" (it already had it: a keyword is not counted twice)") if had and gained else "")
            + (
                _("; now it has {word} (Destiny P7 › Słowa kluczowe)") if word in kws else _("; now it does not have {word} (Destiny P7 › Słowa kluczowe)")
            ).format(word=word)
        )
    return t


@_effect("discard-upgrade", "die", "why")
def _e_discard_upgrade(t: Table, cmd: Command, said: list[str]) -> Table:
    u = t.card(cmd.arg(0, N_("the upgrade")))
    if u.kind != "upgrade":
        raise IllegalCommandError(_("{name} is not an upgrade").format(name=u.name))
    t = _discard_upgrade(t, u, said, why=cmd.opt("why") or N_("by choice"), keep_die=cmd.opt("die"))
    left = [(c, n - 1) for c, n in t.discard_down if c == u.on and n > 1] + [(c, n) for c, n in t.discard_down if c != u.on]
    return replace(t, discard_down=tuple(left))


def _waiting_redeploys(t: Table) -> list[Card]:
    """Redeploy upgrades still on a character just defeated: their owner chooses at once."""
    return [u for u in t.cards if u.kind == "upgrade" and u.on and "redeploy" in u.keywords and any(c.id == u.on and c.defeated for c in t.cards)]


def _lapse_redeploys(t: Table, cmd: Command, said: list[str]) -> Table:
    """Redeploy is used at once after the defeat (P7 › Przepisanie, seed line 338); an upgrade
    not redeployed then is discarded with its character (P6 › Pokonane postacie, line 273): any
    other command first discards the waiting upgrades, so none lingers in play."""
    waiting = _waiting_redeploys(t)
    if not waiting:
        return t
    if cmd.verb in ("redeploy", "discard-upgrade") and cmd.args:
        first = cmd.arg(0, N_("the card"))
        named = next((u for u in t.cards if first in (u.id, u.name)), None)
        if named is not None and named in waiting:
            return t
    for u in waiting:
        t = _discard_upgrade(t, t.card(u.id), said, why=N_("not redeployed at once after its character's defeat"))
    said.append(
        n_(
            "{names} was not redeployed at once, so it goes to the discard pile with the defeated character (Destiny P7 › Przepisanie; P6 › Pokonane postacie)",
            "{names} were not redeployed at once, so they go to the discard pile with the defeated character (Destiny P7 › Przepisanie; P6 › Pokonane "
            "postacie)",
            len(waiting),
        ).format(names=', '.join(u.name for u in waiting))
    )
    return t


@_effect("redeploy")
def _e_redeploy(t: Table, cmd: Command, said: list[str]) -> Table:
    """Move an upgrade and its die to another character (Redeploy). Only an upgrade with Redeploy,
    only at once after the defeat of the character it was on. Play restrictions do not apply, so a
    4th upgrade is possible; its controller then discards down to 3."""
    u = t.card(cmd.arg(0, N_("the upgrade")))
    if u.kind != "upgrade" or "redeploy" not in u.keywords:
        raise IllegalCommandError(
            _("{name} does not have Redeploy: only an upgrade with the keyword moves this way (Destiny P7 › Przepisanie)").format(name=u.name)
        )
    if u not in _waiting_redeploys(t):
        raise IllegalCommandError(
            _(
                "{name}'s character has not just been defeated: Redeploy moves an upgrade only at once after the defeat of the character it is attached to "
                "(Destiny P7 › Przepisanie)"
            ).format(name=u.name)
        )
    (dst,) = _targets(cmd, 1)[:1]
    c = _character(t, dst)
    if c.defeated or c.owner != cmd.actor:
        raise IllegalCommandError(_("{name} is not an undefeated character of {actor}'s (Destiny P7 › Przepisanie)").format(name=c.name, actor=cmd.actor))
    t = t.with_card(replace(u, on=c.id))
    n = len(t.upgrades_on(c.id))
    said.append(
        _("{name} and its die move to {name2} (Destiny P7 › Przepisanie; reading R25 in docs/readings.md: Redeploy overrides the discard on defeat)").format(
            name=u.name, name2=c.name
        )
    )
    if n > MAX_UPGRADES:
        t = replace(t, discard_down=t.discard_down + ((c.id, n - MAX_UPGRADES),))
        said.append(
            _(
                "{name} now has {n} upgrades: {owner} discards down to {MAX_UPGRADES}, choosing which (reading R24 in docs/readings.md; Destiny P1 › "
                "Ulepszenia)"
            ).format(name=c.name, n=n, owner=c.owner, MAX_UPGRADES=MAX_UPGRADES)
        )
    return t


@_effect("delay")
def _e_delay(t: Table, cmd: Command, said: list[str]) -> Table:
    """``A delay defeat -> X``: an effect that happens after the current round ends (#23)."""
    what = cmd.arg(0, N_("the delayed effect (defeat)"))
    if what != "defeat":
        raise NotationError(_("{cmd!r}: the delayed effect modelled is 'defeat'").format(cmd=str(cmd)))
    for tgt in _targets(cmd):
        _character(t, tgt)
        t = replace(t, delayed=t.delayed + ((what, tgt),))
        said.append(_("{tgt} will be defeated after the current round ends (Destiny P7 › Efekty opóźnione)").format(tgt=tgt))
    return t


@_effect("hand-limit")
def _e_hand_limit(t: Table, cmd: Command, said: list[str]) -> Table:
    """A card that changes the hand limit while it applies (Emperor's Favor #88; P8 › Zwiększenie)."""
    n = cmd.int_arg(0, N_("the hand limit"))
    p = t.player(cmd.actor or "")
    said.append(
        _("{name}'s hand limit is {n} while the effect applies; upkeep draws up to {n} (Destiny P8 › Zwiększenie; reading R29 in docs/readings.md)").format(
            name=p.name, n=n
        )
    )
    return t.with_player(replace(p, hand_limit=n))


@_effect("free-dice")
def _e_free_dice(t: Table, cmd: Command, said: list[str]) -> Table:
    """A card lets this player's cost-bearing faces resolve free (#171; reading R28 in docs/readings.md: the card's own text decides when)."""
    on = cmd.arg(0, N_("yes or no")) == "yes"
    p = t.player(cmd.actor or "")
    said.append(
        (
            _("{name}'s dice faces with a cost resolve free (Destiny P8 › Za darmo; reading R28 in docs/readings.md)")
            if on
            else _("{name}'s dice faces with a cost resolve at their cost (Destiny P8 › Za darmo; reading R28 in docs/readings.md)")
        ).format(name=p.name)
    )
    return t.with_player(replace(p, free_cost_dice=on))


@_effect("note")
def _e_note(t: Table, cmd: Command, said: list[str]) -> Table:
    said.append(_("note by {actor}: {names}").format(actor=cmd.actor, names=' '.join(cmd.rest())))
    return t


# --- setup (P5 › Przygotowanie) ---------------------------------------------------------


def _named_values(cmd: Command, t: Table) -> dict[str, int]:
    out: dict[str, int] = {}
    for a in cmd.rest():
        name, eq, value = a.partition("=")
        if not eq:
            raise NotationError(_("{cmd!r}: write each player's roll as PLAYER=TOTAL or PLAYER=face,face,... (got {a!r})").format(cmd=str(cmd), a=a))
        t.player(name)
        if re.fullmatch(r"\d+", value):
            out[name] = int(value)
        else:
            out[name] = setup_roll_value([Face.parse(f) for f in value.split(",")])
    return out


@_step("battlefield-roll")
def _s_roll(t: Table, cmd: Command, said: list[str]) -> Table:
    if t.phase != "setup":
        raise IllegalCommandError(_("the battlefield roll is part of setup (Destiny P5 › Przygotowanie)"))
    rolls = _named_values(cmd, t)
    expected = set(n for n, _unused in t.setup_rolls) if t.setup_rolls else set(t.names)
    if set(rolls) != expected:
        raise IllegalCommandError(
            _("this roll is made by {names}").format(names=', '.join(sorted(expected)))
            + (_(" — on a tie only the tied players reroll (Destiny P9 › Przygotowanie)") if t.setup_rolls else "")
        )
    best = max(rolls.values())
    top = sorted(n for n, v in rolls.items() if v == best)
    said.append(
        _("battlefield roll: {names} — the sum of the non-modifier values; modifiers, blanks and specials count 0 (reading R22 in docs/readings.md)").format(
            names=', '.join(f'{n} {v}' for n, v in rolls.items())
        )
    )
    if len(top) > 1:
        said.append(_("tie between {names}: they reroll (Destiny P5 › Przygotowanie)").format(names=', '.join(top)))
        return replace(t, setup_rolls=tuple((n, best) for n in top), roll_winner=None)
    said.append(_("{top} wins the roll and chooses the battlefield (Destiny P5 › Przygotowanie)").format(top=top[0]))
    return replace(t, setup_rolls=(), roll_winner=top[0])


@_step("choose-battlefield")
def _s_choose(t: Table, cmd: Command, said: list[str]) -> Table:
    who = _need_actor(cmd)
    if t.roll_winner != who:
        raise IllegalCommandError(
            _("the winner of the battlefield roll chooses; that is {why} (Destiny P5 › Przygotowanie)").format(why=t.roll_winner or _('nobody yet'))
        )
    owner = cmd.arg(0, N_("whose battlefield is used"))
    t.player(owner)
    others = [n for n in t.names if n != owner]
    shields = 2 if len(t.names) == 2 else 1
    said.append(
        n_(
            "{owner}'s battlefield is used: {owner} controls it and acts first in round 1; {names} sets their battlefield aside and gives ",
            "{owner}'s battlefield is used: {owner} controls it and acts first in round 1; {names} set their battlefield aside and give ",
            len(others),
        ).format(owner=owner, names=', '.join(others))
        + (
            _("2 shields to their characters, split as they choose (Destiny P5 › Przygotowanie)")
            if shields == 2
            else _("1 shield to one character (Destiny P9 › Przygotowanie; reading R26 in docs/readings.md: the owner of the chosen battlefield controls it)")
        )
    )
    owed = tuple((n, shields) for n in others)
    return replace(
        t,
        bf_owner=owner,
        bf_controller=owner,
        turn=owner,
        delayed=t.delayed,
        setup_rolls=owed,
        roll_winner=None,
        notes=t.notes + ("shields owed: " + ", ".join(f"{n} {s}" for n, s in owed),),
    )


@_step("setup-shields", keys="verb")
def _s_shields(t: Table, cmd: Command, said: list[str]) -> Table:
    who = _need_actor(cmd)
    owed = dict(t.setup_rolls)
    if who not in owed or t.roll_winner is not None:
        raise IllegalCommandError(_("{who} is owed no setup shields").format(who=who))
    split = {k: cmd.int_opt(k) or 0 for k, _unused in cmd.opts}
    if sum(split.values()) != owed[who]:
        raise IllegalCommandError(
            n_("{who} gives exactly {owed} shield, not {value} (Destiny P5 › Przygotowanie)",
               "{who} gives exactly {owed} shields, not {value} (Destiny P5 › Przygotowanie)", owed[who]).format(
                who=who, owed=owed[who], value=sum(split.values()))
        )
    if len(t.names) > 2 and len(split) != 1:
        raise IllegalCommandError(_("in free-for-all the 1 shield goes to one character (Destiny P9 › Przygotowanie)"))
    for cid, n in split.items():
        c = _character(t, cid)
        if c.owner != who:
            raise IllegalCommandError(_("{name} is not {who}'s character").format(name=c.name, who=who))
        t = _shield(t, cid, n, said)
    return replace(t, setup_rolls=tuple((n, s) for n, s in t.setup_rolls if n != who))


@_step("mulligan")
def _s_mulligan(t: Table, cmd: Command, said: list[str]) -> Table:
    who = _need_actor(cmd)
    p = t.player(who)
    if t.phase != "setup":
        raise IllegalCommandError(_("the mulligan is part of setup (Destiny P5 › Przygotowanie)"))
    if p.mulliganed:
        raise IllegalCommandError(
            _("{who} has already mulliganed; the rulebook describes one mulligan (Destiny P5 › Przygotowanie, L199: one step of setup)").format(who=who)
        )
    back = cmd.int_arg(0, N_("the cards shuffled back"))
    if back > p.hand:
        raise IllegalCommandError(_("{who} holds {hand} cards and cannot shuffle back {back}").format(who=who, hand=p.hand, back=back))
    drawn = min(back, p.deck + back)
    said.append(
        _("{who} keeps {value}, shuffles {back} back and draws {drawn}: hand {value2}; one mulligan only (Destiny P5 › Przygotowanie, step 4)").format(
            who=who, value=p.hand - back, back=back, drawn=drawn, value2=p.hand - back + drawn
        )
    )
    return t.with_player(replace(p, hand=p.hand - back + drawn, mulliganed=True))


@_step("start")
def _s_start(t: Table, cmd: Command, said: list[str]) -> Table:
    if t.phase != "setup":
        raise IllegalCommandError(_("the game has already started"))
    if not t.bf_controller or t.roll_winner is not None:
        raise IllegalCommandError(_("choose the battlefield first: 'battlefield-roll A=.. B=..' then 'WINNER choose-battlefield OWNER'"))
    if t.setup_rolls:
        raise IllegalCommandError(
            _("setup shields still to place: {names} ('PLAYER setup-shields CHAR=N')").format(names=', '.join(f'{n} {s}' for n, s in t.setup_rolls))
        )
    said.append(
        _("round 1: {bf_controller} controls the battlefield and takes the first action (Destiny P1 › Pola bitwy; P5 › Faza akcji)").format(
            bf_controller=t.bf_controller
        )
    )
    return replace(t, phase="action", round=1, turn=t.bf_controller, passes_in_row=0, claimed_by=None)


# --- upkeep and the end of the round (P5 › Faza utrzymania, Zwycięstwo) -----------------


def _begin_upkeep(t: Table, said: list[str]) -> Table:
    cards = tuple(replace(c, exhausted=False) if c.exhausted else c for c in t.cards)
    t = replace(t, cards=cards, phase="upkeep", turn="", extra_action=None)
    t = _return_dice(t, [d.id for d in t.pool()], said)
    t = replace(t, players=tuple(replace(p, resources=p.resources + 2, upkeep_done=False) for p in t.players))
    said.append(
        _(
            "upkeep: every exhausted card is readied, every pool die returns to its card, each player gains 2 resources; each player "
            "now discards any cards and draws up to the hand limit: 'PLAYER upkeep discard=N' (Destiny P5 › Faza utrzymania)"
        )
    )
    return t


@_step("upkeep", "discard")
def _s_upkeep(t: Table, cmd: Command, said: list[str]) -> Table:
    who = _need_actor(cmd)
    if t.phase != "upkeep":
        raise IllegalCommandError(_("it is the {phase} phase, not upkeep").format(phase=t.phase))
    p = t.player(who)
    if p.upkeep_done:
        raise IllegalCommandError(_("{who} has already drawn this upkeep").format(who=who))
    out = cmd.int_opt("discard", 0) or 0
    if out > p.hand:
        raise IllegalCommandError(_("{who} holds {hand} cards and cannot discard {out}").format(who=who, hand=p.hand, out=out))
    hand = p.hand - out
    n = upkeep_draw(hand, p.hand_limit, p.deck)
    said.append(
        _("{who} discards {out} (hand {hand}) and draws {n} to ").format(who=who, out=out, hand=hand, n=n)
        + (
            _("hand {value} (limit {hand_limit})").format(value=hand + n, hand_limit=p.hand_limit)
            if hand < p.hand_limit
            else _("nothing — the hand is already at or over the limit {hand_limit}, and nobody must discard down").format(hand_limit=p.hand_limit)
        )
        + _(" (Destiny P5 › Faza utrzymania)")
    )
    if hand + n < p.hand_limit and hand < p.hand_limit:
        said.append(_("the deck ran short: {n} drawn").format(n=n))
    t = t.with_player(replace(p, hand=hand + n, deck=p.deck - n, discard=p.discard + out, upkeep_done=True))
    if all(q.upkeep_done for q in t.players if q.name not in _eliminated(t)):
        t = _end_round(t, said)
    return t


def _end_round(t: Table, said: list[str]) -> Table:
    # reading R27 in docs/readings.md (silent; suggested reading): delayed effects first, then the deck-out check
    for what, cid in t.delayed:
        if what == "defeat" and not t.card(cid).defeated:
            said.append(
                _(
                    "after the round: the delayed effect defeats {cid} (Destiny P7 › Efekty opóźnione; reading R27 in docs/readings.md: before the deck-out "
                    "check)"
                ).format(cid=cid)
            )
            t = _defeat(t, cid, said)
            if t.phase == "over":
                return t
    t = replace(t, delayed=())
    alive = [p for p in t.players if p.name not in _eliminated(t)]
    winner, why = end_of_round_loser({p.name: (p.hand, p.deck) for p in alive}, t.bf_controller)
    if why:  # somebody is out of cards
        said.append(why)
        if winner is not None:
            return replace(t, phase="over", winner=winner, result=why)
    nxt = t.bf_controller
    said.append(
        _("round {value}: {nxt} controls the battlefield and acts first (Destiny P5 › Faza akcji; reading R30 in docs/readings.md)").format(
            value=t.round + 1, nxt=nxt
        )
    )
    return replace(t, round=t.round + 1, phase="action", turn=nxt, passes_in_row=0, claimed_by=None, resolved_this_action=frozenset())


# --- questions that change nothing -----------------------------------------------------


@_step("total")
def _s_total(t: Table, cmd: Command, said: list[str]) -> Table:
    """``total DIE ...``: the total value of the dice named (P8 › Łączna wartość)."""

    faces = []
    for did in cmd.rest():
        d = t.die(did)
        if d.showing is None:
            raise IllegalCommandError(_("die {did} is on its card and shows no face (Destiny P8 › Ścianka widoczna)").format(did=did))
        faces.append(d.showing)
    said.append(
        _("total value of {names} = {value} (Destiny P8 › Łączna wartość)").format(
            names=', '.join(f'{did} ({f})' for did, f in zip(cmd.rest(), faces, strict=True)), value=total_value(faces)
        )
    )
    return t


@_step("who-orders")
def _s_who_orders(t: Table, cmd: Command, said: list[str]) -> Table:
    """``who-orders -> A,B``: the owners of abilities waiting at the same time."""
    for o in cmd.targets:
        t.player(o)
    if not cmd.targets:
        raise NotationError(_("{cmd!r}: list the owners of the waiting abilities after '->'").format(cmd=str(cmd)))
    said.append(who_orders(t, list(cmd.targets))[1])
    return t


def who_orders(t: Table, owners: list[str]) -> tuple[str, str]:
    """Who orders abilities waiting together (reading R18 in docs/readings.md): one player's own -- that player; several
    players' -- the battlefield controller (P7 › Kolejka, Zdolności równoczesne)."""
    if len(set(owners)) == 1:
        return owners[0], _(
            "every waiting ability is {owner}'s: {owner} orders them (Destiny P7 › Zdolności równoczesne; reading R18 in docs/readings.md)"
        ).format(owner=owners[0])
    return t.bf_controller, _(
        "abilities of several players wait together: the battlefield controller {controller} decides the order "
        "(Destiny P7 › Kolejka; reading R18 in docs/readings.md)"
    ).format(controller=t.bf_controller)


def _lookup(t: Table, path: str) -> object:
    """A fact of the table by dotted path, for scenarios and ``status --get``:
    ``card.han.damage``, ``player.A.hand``, ``die.h1.showing``, ``upgrades.han`` (ids),
    ``pool.A`` (die ids), ``dice.han`` (die ids), ``in-play.ID`` (bool), or a table field
    (``turn``, ``phase``, ``winner``, ``bf_controller``, ``round``, ...)."""
    head, _unused, rest = path.partition(".")
    key, _unused, attr = rest.partition(".")
    if head == "card":
        v = getattr(t.card(key), attr)
        return sorted(v) if isinstance(v, frozenset) else v
    if head == "player":
        return getattr(t.player(key), attr)
    if head == "die":
        d = t.die(key)
        return str(d.showing) if attr == "showing" and d.showing is not None else getattr(d, attr)
    if head == "upgrades":
        return [u.id for u in t.upgrades_on(key)]
    if head == "pool":
        return [d.id for d in t.pool(key)]
    if head == "dice":
        return [d.id for d in t.dice_of(key)]
    if head == "in-play":
        return any(c.id == key and not c.defeated for c in t.cards)
    if rest or not hasattr(t, head):
        raise NotationError(
            _(
                "{path!r} is not a fact of a Destiny table (card.ID.FIELD, player.NAME.FIELD, die.ID.showing, upgrades.CHAR, pool.PLAYER, dice.CARD, "
                "in-play.ID, turn, phase, winner, round, bf_controller, claimed_by, ...)"
            ).format(path=path)
        )
    return getattr(t, head)


#: a fact of the table by dotted path; a path naming no field is refused with the fields there are
lookup = naming_fields(_lookup)
