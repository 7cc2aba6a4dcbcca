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

from ..cardgame import IllegalCommandError, Outcome, declared_options, entity_keys, naming_fields, registrar
from ..cardgame.notation import Command
from ..errors import AssistantError, NotationError
from .characters import MAX_SHIELDS, MAX_UPGRADES, Character, deal_damage, give_shields, heal, move_damage
from .dice import Face, IllegalResolveError, PoolDie, Symbol, check_resolve
from .play import IllegalPlayError, check_play, end_of_round_loser, setup_roll_value, upgrade_cost, upkeep_draw
from .round import ActionPhase, IllegalActionError
from .table import Card, Die, Table

Handler = Callable[[Table, Command, list[str]], Table]
TURN_ACTIONS: dict[str, Handler] = {}
EFFECTS: dict[str, Handler] = {}
STEPS: dict[str, Handler] = {}


_turn, _effect, _step = registrar(TURN_ACTIONS), registrar(EFFECTS), registrar(STEPS)


def verbs() -> dict[str, str]:
    """Every verb, what kind of command it is and what it does (for help)."""
    out = {}
    for kind, table in (("turn action", TURN_ACTIONS), ("effect", EFFECTS), ("step", STEPS)):
        for v, f in table.items():
            out[v] = f"[{kind}] " + (f.__doc__ or VERB_HELP.get(v, "")).strip().split("\n")[0]
    return out


VERB_HELP = {
    "pass": "'A pass' — always legal; the phase ends when every player passes in a row",
    "decline": "'A decline' — give up an Ambush extra action (not a pass, reading R20 in docs/readings.md)",
    "claim": "'A claim' — claim the battlefield (once per round); then pass automatically",
    "activate": "'A activate CHAR D1=FACE D2=FACE [guard=OPPONENT-DIE]' — exhaust it and roll all its and its upgrades' dice",
    "reroll": "'A reroll CARD D1=FACE ...' — discard a card to reroll dice (P5 › Odrzucenie karty w celu przerzucenia kości)",
    "resolve": "'A resolve D1+MOD D2 [DIE=FACE focus turns] -> TARGET,TARGET' — resolve dice of one symbol",
    "roll-in": "'A roll-in DIE=FACE from=CARD' — roll a die from a card not in play into the pool (Ace in the Hole #92)",
    "reroll-effect": "'A reroll-effect DIE=FACE ...' — a card rerolls dice (Comlink #61): any pool die, the opponent's too",
    "play": "'A play ID kind=upgrade|support|event cost=N [on=CHAR] [replace=UPG] [unique=yes] [reduce=N] [ambush=yes]'",
    "damage": "'A damage N [kind=melee|ranged] [unblockable=yes] [replace=CARD] -> CHAR' — damage from a card's text",
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
        raise IllegalCommandError(f"the game is over: {t.result}")
    handler = TURN_ACTIONS.get(cmd.verb) or EFFECTS.get(cmd.verb) or STEPS.get(cmd.verb)
    if handler is not None:
        usage = VERB_HELP.get(cmd.verb) or ((handler.__doc__ or "").strip().splitlines() or [cmd.verb])[0]
        # D1=FACE, CHAR=N: keys that name dice, cards or players are checked by the verb itself
        if not entity_keys(usage):
            cmd.check_options(declared_options(handler, usage), usage)
    t = _lapse_redeploys(t, cmd, said)
    if cmd.verb in TURN_ACTIONS:
        return Outcome(_turn_action(t, cmd, said), tuple(said))
    if cmd.verb in EFFECTS:
        _need_actor(cmd)
        return Outcome(EFFECTS[cmd.verb](t, cmd, said), tuple(said))
    if cmd.verb in STEPS:
        return Outcome(STEPS[cmd.verb](t, cmd, said), tuple(said))
    known = sorted(verbs())
    from ..errors import did_you_mean
    raise NotationError(f"{str(cmd)!r}: unknown verb {cmd.verb!r}{did_you_mean(cmd.verb, known)}; verbs: {', '.join(known)}")


def _need_actor(cmd: Command) -> str:
    if cmd.actor is None:
        raise NotationError(f"{str(cmd)!r}: say which player does this, e.g. 'A {cmd.verb} ...'")
    return cmd.actor


# --- the action phase: whose turn, and what a turn does ---------------------------------

def _phase(t: Table) -> ActionPhase:
    alive = tuple(n for n in t.names if n not in _eliminated(t))
    return ActionPhase(alive, t.bf_controller, t.turn, t.passes_in_row, t.claimed_by)


def _eliminated(t: Table) -> set[str]:
    return {p.name for p in t.players if t.phase != "setup" and any(c.owner == p.name for c in t.cards if c.kind == "character")
            and not t.characters(p.name)}


def _turn_action(t: Table, cmd: Command, said: list[str]) -> Table:
    who = _need_actor(cmd)
    t.player(who)
    if t.phase != "action":
        raise IllegalCommandError(f"{cmd.verb} is an action, and this is the {t.phase} phase (Destiny P5 › Rundy gry)")
    extra = t.extra_action == who
    if cmd.verb == "decline":
        if not extra:
            raise IllegalCommandError(f"{who} has no extra action to decline")
        said.append(f"{who} gives up the Ambush extra action; it is not a pass toward ending the phase (reading R20 in docs/readings.md)")
        return _advance(replace(t, extra_action=None), who, "action", said)
    if t.extra_action and not extra:
        raise IllegalCommandError(f"{t.extra_action} must first take or decline the Ambush extra action: extra actions are taken at once "
                                  "(Destiny P5 › Akcje, L220; P7 › Zasadzka)")
    if who != t.turn and not extra:
        raise IllegalActionError(f"it is {t.turn}'s turn, not {who}'s: players alternate actions (Destiny P5 › Faza akcji)")
    if t.claimed_by == who and not extra:
        raise IllegalActionError(f"{who} claimed the battlefield this round and passes automatically (Destiny P5 › Zajęcie pola bitwy)")
    pending = [c for c, n in t.discard_down if t.card(c).owner == who]
    if pending:
        raise IllegalCommandError(f"{who} must first discard down to {MAX_UPGRADES} upgrades on {', '.join(pending)} (reading R24 in docs/readings.md; "
                                  "Destiny P1 › Ulepszenia): 'discard-upgrade UPGRADE'")
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
    said.extend(nxt.log[len(phase.log) + 1:])  # the automatic passes and the phase's end; the move itself was said already
    t = replace(t, turn=nxt.active, passes_in_row=nxt.passes_in_row, claimed_by=nxt.claimed_by, bf_controller=nxt.controller)
    if nxt.over:
        t = _begin_upkeep(t, said)
    return t


@_turn("pass")
def _pass(t: Table, cmd: Command, said: list[str]) -> Table:
    said.append(f"{cmd.actor} passes; passing is always legal and {cmd.actor} may act again later this phase (Destiny P5 › Pasowanie)")
    return t


@_turn("decline")
def _decline(t: Table, cmd: Command, said: list[str]) -> Table:
    return t  # handled in _turn_action


@_turn("claim")
def _claim(t: Table, cmd: Command, said: list[str]) -> Table:
    if t.claimed_by is not None:
        raise IllegalActionError(f"{t.claimed_by} already claimed the battlefield this round; only one player may claim per round "
                                 "(Destiny P5 › Zajęcie pola bitwy)")
    kept = "keeps" if t.bf_controller == cmd.actor else "takes"
    said.append(f"{cmd.actor} claims the battlefield and {kept} control; may use its claim ability; passes automatically for the rest of "
                f"the round and acts first next round (Destiny P5 › Zajęcie pola bitwy)")
    return t


@_turn("activate")
def _activate(t: Table, cmd: Command, said: list[str]) -> Table:
    who = cmd.actor or ""
    card = t.card(cmd.arg(0, "the character or support to activate"))
    if card.owner != who:
        raise IllegalPlayError(f"{card.name} is {card.owner}'s; a player activates their own cards (Destiny P5 › Aktywowanie)")
    if card.kind not in ("character", "support"):
        raise IllegalPlayError(f"{card.name} is an {card.kind}; only a character or a support is activated (Destiny P5 › Aktywowanie)")
    if card.defeated:
        raise IllegalPlayError(f"{card.name} is defeated (Destiny P6 › Pokonane postacie)")
    if card.exhausted:
        raise IllegalPlayError(f"{card.name} is exhausted; only a ready card is activated (Destiny P5 › Aktywowanie; P6 › Wyczerpana)")
    own = t.dice_of(card.id)
    ups = [d for u in t.upgrades_on(card.id) for d in t.dice_of(u.id)]
    if card.kind == "support" and not own:
        raise IllegalPlayError(f"support {card.name} has no die and cannot be activated (Destiny P5 › Aktywowanie)")
    guard = cmd.opt("guard")
    if guard is not None:  # Guardian: before the activation, take an opponent's damage die on this character
        t = _guardian(t, card, guard, said)
        card = t.card(card.id)
        if card.defeated:
            said.append(f"{card.name} was defeated by the die it guarded and is not activated")
            return t
    rolled = {k: v for k, v in cmd.opts if k != "guard"}
    dice = list(own) + ups
    missing = [d.id for d in dice if d.id not in rolled]
    extra = [k for k in rolled if k not in {d.id for d in dice}]
    if extra:
        raise NotationError(f"{str(cmd)!r}: {', '.join(extra)} is not a die of {card.name} or its upgrades "
                            f"({', '.join(d.id for d in dice) or 'it has none'})")
    if missing:
        raise NotationError(f"{str(cmd)!r}: every die is rolled, the upgrades' included, no choosing (Destiny P5 › Aktywowanie); "
                            f"give the face each shows: {' '.join(d + '=FACE' for d in missing)}")
    for d in dice:
        if d.showing is not None:
            said.append(f"note: die {d.id} was still in the pool; the rulebook does not say what re-activating does to it (ask the judge) "
                        "— it is rolled again")
        t = t.with_die(replace(d, showing=_face_of(d, rolled[d.id], cmd)))
    t = t.with_card(replace(card, exhausted=True))
    said.append(f"{card.name} is exhausted and rolls {len(dice)} dice ({', '.join(f'{d.id}={rolled[d.id]}' for d in dice)}); its upgrades' "
                "dice are rolled too and the upgrades do not exhaust (Destiny P5 › Aktywowanie; P1 › Ulepszenia)")
    return t


def _face_of(d: Die, text: str, cmd: Command) -> Face:
    f = Face.parse(text)
    if d.faces and f not in d.faces:
        raise NotationError(f"{str(cmd)!r}: die {d.id} has no face {text!r}; its faces: {', '.join(map(str, d.faces))}")
    return f


def _guardian(t: Table, guardian: Card, die_id: str, said: list[str]) -> Table:
    if "guardian" not in guardian.keywords:
        raise IllegalCommandError(f"{guardian.name} does not have Guardian (Destiny P7 › Strażnik)")
    d = t.die(die_id)
    if d.owner == guardian.owner or d.showing is None:
        raise IllegalCommandError(f"die {die_id} is not in an opponent's pool; Guardian removes an opponent's die (Destiny P7 › Strażnik)")
    if d.showing.symbol not in (Symbol.MELEE, Symbol.RANGED):
        raise IllegalCommandError(f"die {die_id} shows {d.showing}, not damage; Guardian removes a damage die (Destiny P7 › Strażnik)")
    value = d.showing.value
    t = t.with_die(replace(d, showing=None))
    said.append(f"Guardian: before {guardian.name} is activated, die {die_id} ({d.showing}) is removed — removal is not resolution, so its "
                f"cost does not matter; a modifier counts as a damage die with its printed value (reading R19 in docs/readings.md, a house-ruled default) "
                "(Destiny P7 › Strażnik; P8 › Usuwanie kości)")
    return _deal(t, guardian.id, value, said, kind=d.showing.symbol.value)


@_turn("resolve")
def _resolve(t: Table, cmd: Command, said: list[str]) -> Table:
    who = cmd.actor or ""
    groups = [[_pool_die(t, x, cmd) for x in arg.split("+")] for arg in cmd.args for arg in arg.split(",")]
    player = t.player(who)
    plan = check_resolve(who, groups, player.resources, t.resolved_this_action, free=player.free_cost_dice)
    said.extend(plan.notes)
    ids = {d.id for g in groups for d in g}
    t = t.with_player(replace(player, resources=player.resources - plan.cost))
    if plan.cost:
        said.append(f"{who} pays {plan.cost} resources for the faces' costs (Destiny P2 › Koszt)")
    sym = plan.symbol
    targets = list(cmd.targets)
    units = plan.units
    if sym in (Symbol.MELEE, Symbol.RANGED, Symbol.SHIELD):
        if len(targets) == 1 and len(units) > 1 and sym is Symbol.SHIELD:
            targets = targets * len(units)
        if len(targets) != len(units):
            raise NotationError(f"{str(cmd)!r}: {len(units)} unit(s) to resolve one at a time, each with one target: give "
                                f"{len(units)} target(s) after '->' (Destiny P5 › Rozpatrzenie kości, L244; reading R31 in docs/readings.md)")
    # the dice go back to their cards as they resolve (P5 › Rozpatrzenie kości, step 3); set-aside dice leave
    for i, unit in enumerate(units):
        v = unit.value
        dice_txt = "+".join(d.id for d in (unit.base, *unit.modifiers))
        if sym in (Symbol.MELEE, Symbol.RANGED):
            tgt = t.card(targets[i])
            if tgt.owner == who:
                said.append(f"note: {tgt.name} is {who}'s own character; damage dice may target any character (Destiny P8 › Wybierz (cel))")
            said.append(f"{dice_txt}: {v} {sym.value} damage to {tgt.name}" + (" (a base die and its modifiers land together, "
                        "Destiny P2 › Modyfikator)" if unit.modifiers else ""))
            t = _deal(t, tgt.id, v, said, kind=sym.value)
        elif sym is Symbol.SHIELD:
            tgt = t.card(targets[i])
            if tgt.kind != "character":
                raise IllegalResolveError(f"{tgt.name} is not a character; shields go on characters (Destiny P2 › Osłona)")
            t = _shield(t, tgt.id, v, said)
        elif sym is Symbol.RESOURCE:
            p = t.player(who)
            t = t.with_player(replace(p, resources=p.resources + v))
            said.append(f"{dice_txt}: {who} gains {v} resources (Destiny P2 › Zasób)")
        elif sym is Symbol.DISRUPT:
            opp = _opponent(t, who, cmd)
            p = t.player(opp)
            t = t.with_player(replace(p, resources=max(0, p.resources - v)))
            said.append(f"{dice_txt}: {opp} loses {min(v, p.resources)} of {p.resources} resources — never below 0 (Destiny P2 › Zakłócenie)")
        elif sym is Symbol.DISCARD:
            opp = _opponent(t, who, cmd)
            p = t.player(opp)
            n = min(v, p.hand)
            t = t.with_player(replace(p, hand=p.hand - n, discard=p.discard + n))
            said.append(f"{dice_txt}: {opp} discards {n} card(s) at random from {p.hand} in hand (Destiny P2 › Odrzucenie)")
        elif sym is Symbol.FOCUS:
            t = _focus(t, who, unit.base.id, v, cmd, said)
        elif sym is Symbol.SPECIAL:
            card_id = t.die(unit.base.id).card
            src = t.card(card_id) if any(c.id == card_id for c in t.cards) else None
            said.append(f"{dice_txt}: resolve the special ability of {src.name if src else card_id} — enter what it does as effect "
                        "commands (Destiny P2 › Specjalny; P7 › Zdolności specjalne)")
        t = _return_dice(t, [unit.base.id, *(m.id for m in unit.modifiers)], said)
    return replace(t, resolved_this_action=t.resolved_this_action | ids)


def _pool_die(t: Table, did: str, cmd: Command) -> PoolDie:
    d = t.die(did)
    if d.showing is None:
        raise IllegalResolveError(f"die {did} is not in a pool (it is on its card {d.card}); only pool dice are resolved "
                                  "(Destiny P5 › Rozpatrzenie kości)")
    return PoolDie(d.id, d.owner, d.showing)


def _return_dice(t: Table, ids: list[str], said: list[str]) -> Table:
    for did in ids:
        if not any(d.id == did for d in t.dice):
            continue
        d = t.die(did)
        if d.set_aside_after:
            t = t.without_dice({did})
            said.append(f"die {did} is set aside: it came from a card not in play (Destiny P7 › Zdolności specjalne)")
        else:
            t = t.with_die(replace(d, showing=None))
    return t


def _opponent(t: Table, who: str, cmd: Command) -> str:
    opps = [o for o in t.opponents(who) if o not in _eliminated(t)]
    if cmd.targets:
        if cmd.targets[0] not in opps:
            raise NotationError(f"{str(cmd)!r}: {cmd.targets[0]!r} is not an opponent of {who} ({', '.join(opps)})")
        return cmd.targets[0]
    if len(opps) != 1:
        raise NotationError(f"{str(cmd)!r}: the player using it chooses which opponent: add '-> PLAYER' ({', '.join(opps)}) "
                            "(Destiny P9 › Każdy na każdego)")
    return opps[0]


def _focus(t: Table, who: str, focus_die: str, value: int, cmd: Command, said: list[str]) -> Table:
    turns = dict(cmd.opts)
    turns.pop("free", None)
    if len(turns) > value:
        raise IllegalResolveError(f"focus {value} turns up to {value} dice, not {len(turns)} (Destiny P2 › Skupienie)")
    for did, face_text in turns.items():
        d = t.die(did)
        if did == focus_die:
            raise IllegalResolveError(f"focus turns *other* dice, not die {did} itself (Destiny P2 › Skupienie)")
        if d.owner != who or d.showing is None:
            raise IllegalResolveError(f"die {did} is not in {who}'s pool; focus turns the player's own dice (Destiny P2 › Skupienie)")
        f = _face_of(d, face_text, cmd)
        _check_turn(d, f, IllegalResolveError)
        t = t.with_die(replace(d, showing=f))
        said.append(f"focus: die {did} turned from {d.showing} to {f} (Destiny P2 › Skupienie; P8 › Obracanie)")
    return t


@_effect("more")
def _e_more(t: Table, cmd: Command, said: list[str]) -> Table:
    """Resolve more dice in the action under way: dice that came to show the symbol during the
    action may be resolved in it, but no die twice (Destiny P5 › Rozpatrzenie kości, L248-249)."""
    if not t.resolved_this_action:
        raise IllegalCommandError("no resolve-dice action is under way; start one with 'PLAYER resolve DICE'")
    return _resolve(t, cmd, said)


@_turn("reroll")
def _reroll(t: Table, cmd: Command, said: list[str]) -> Table:
    """Discard a card to reroll dice (P5 › Odrzucenie karty w celu przerzucenia kości)."""
    who = cmd.actor or ""
    p = t.player(who)
    if not t.pool(who):
        raise IllegalCommandError(f"{who} has no dice in their pool: discarding to reroll needs at least one (Destiny P5 › Odrzucenie karty)")
    if p.hand < 1:
        raise IllegalCommandError(f"{who} has no card in hand to discard (Destiny P5 › Odrzucenie karty)")
    if not cmd.opts:
        raise NotationError(f"{str(cmd)!r}: name each die rerolled with its new face, e.g. 'A reroll h1=melee:2 h2=blank'")
    for did, face in cmd.opts:
        d = t.die(did)
        if d.owner != who or d.showing is None:
            raise IllegalCommandError(f"die {did} is not in {who}'s pool; this action rerolls only the player's own dice "
                                      "(Destiny P5 › Odrzucenie karty; P8 › Przerzucanie)")
        t = t.with_die(replace(d, showing=_face_of(d, face, cmd)))
    t = t.with_player(replace(p, hand=p.hand - 1, discard=p.discard + 1))
    said.append(f"{who} discards a card and rerolls {', '.join(k for k, _ in cmd.opts)}, all chosen before any is rolled "
                "(Destiny P5 › Odrzucenie karty w celu przerzucenia kości)")
    return t


@_turn("action")
def _card_action(t: Table, cmd: Command, said: list[str]) -> Table:
    card = t.card(cmd.arg(0, "the card whose Action is used"))
    if card.owner != cmd.actor:
        raise IllegalCommandError(f"{card.name} is {card.owner}'s (Destiny P5 › Użycie akcji z karty)")
    if cmd.flag("exhaust"):
        if card.exhausted:
            raise IllegalCommandError(f"{card.name} is already exhausted, so exhausting it cannot pay the cost (Destiny P6 › Wyczerpana)")
        t = t.with_card(replace(card, exhausted=True))
    said.append(f"{cmd.actor} uses the Action on {card.name}; enter its effect as effect commands (Destiny P5 › Użycie akcji z karty)")
    return t


@_turn("play")
def _play(t: Table, cmd: Command, said: list[str]) -> Table:
    who = cmd.actor or ""
    p = t.player(who)
    cid = cmd.arg(0, "an id for the card played")
    kind = cmd.opt("kind", "event")
    if kind not in ("upgrade", "support", "event"):
        raise NotationError(f"{str(cmd)!r}: kind={kind!r}; a card played from hand is an upgrade, support or event")
    if p.hand < 1:
        raise IllegalPlayError(f"{who} has no cards in hand (Destiny P5 › Zagranie karty z ręki)")
    printed = cmd.int_opt("cost", 0) or 0
    title = cmd.opt("title", cid) or cid
    unique = cmd.flag("unique")
    on = cmd.opt("on")
    replacing = cmd.opt("replace")
    reduce = cmd.int_opt("reduce", 0) or 0
    if kind != "event" and any(c.id == cid for c in t.cards):
        raise NotationError(f"{str(cmd)!r}: a card with id {cid!r} is already in play; give the new card another id")
    mine = frozenset(c.title or c.id for c in t.cards if c.owner == who and c.unique and not c.defeated)
    target = None
    if kind == "upgrade":
        if on is None:
            raise NotationError(f"{str(cmd)!r}: an upgrade is played on a character: add on=CHARACTER")
        target = t.card(on)
        if target.kind != "character" or target.defeated or target.owner != who:
            raise IllegalPlayError(f"{target.name} is not an undefeated character of {who}'s (Destiny P5 › Zagranie ulepszenia)")
    old = None
    if replacing:
        old = t.card(replacing)
        if old.kind != "upgrade" or old.on != on:
            raise IllegalPlayError(f"{old.name} is not an upgrade on {on}; only an upgrade on the same character is replaced (Destiny P5, L233)")
    cost, why = upgrade_cost(printed, old.cost if old else None)
    paid = max(0, cost - reduce)
    check_play(paid, p.resources, title if unique else None, mine,
               len(t.upgrades_on(on)) if kind == "upgrade" and on else None, replacing=old is not None)
    t = t.with_player(replace(p, resources=p.resources - paid, hand=p.hand - 1,
                              discard=p.discard + (1 if kind == "event" else 0)))
    said.append(f"{who} plays {title} ({kind}) and pays {paid}" + (f" — {why}" if old else "")
                + (f"; {reduce} taken off by an effect, the card's cost stays {printed} (Destiny P8 › Zmniejszenie)" if reduce else ""))
    if old is not None:
        t = _discard_upgrade(t, old, said, why="replaced")
    if kind == "event":
        needs = cmd.opt("needs")
        if needs and not any(c.color == needs for c in t.characters(who)):
            said.append(f"{who} has no undefeated {needs} character: the event is legal to play but does nothing; the cost is paid and it "
                        "is discarded (Destiny P8 › Wyznaczanie; P1 › Wydarzenia)")
        else:
            said.append("the event resolves (enter its effect as effect commands) and is discarded (Destiny P1 › Wydarzenia)")
    else:
        new = Card(cid, who, kind, title if title != cid else "", printed, cmd.opt("color", "grey") or "grey", unique, on=on)  # type: ignore[arg-type]
        t = replace(t, cards=t.cards + (new,))
        die_id = cmd.opt("die")
        if die_id:
            faces = tuple(Face.parse(f) for f in (cmd.opt("faces") or "").split(",") if f)
            if any(d.id == die_id for d in t.dice):
                raise NotationError(f"{str(cmd)!r}: a die {die_id!r} already exists")
            t = replace(t, dice=t.dice + (Die(die_id, cid, who, faces),))
    after = cmd.opt("after")
    if after:
        said.append(f"after the play is complete: {after} — an 'after' ability waits for the play to finish fully "
                    "(Destiny P7 › Zdolności „po tym”)")
    if cmd.flag("ambush"):
        t = replace(t, extra_action=who)
        said.append(f"Ambush: {who} may take one more action at once, in this turn ('decline' gives it up) (Destiny P7 › Zasadzka)")
    return t


# --- effects: what card text does while an action resolves --------------------------------

def _character(t: Table, cid: str) -> Card:
    c = t.card(cid)
    if c.kind != "character":
        raise IllegalCommandError(f"{c.name} is an {c.kind}, not a character")
    return c


def _as_char(c: Card) -> Character:
    return Character(c.id, c.health, c.damage, c.shields, c.exhausted, c.defeated)


def _deal(t: Table, cid: str, amount: int, said: list[str], kind: str = "", unblockable: bool = False, choose: str | None = None) -> Table:
    c = _character(t, cid)
    r = deal_damage(_as_char(c), amount, unblockable)
    said.append(f"{c.name}: {r.dealt} dealt, {r.blocked} blocked by shields, {r.taken} taken ({r.rule})")
    c2 = replace(c, damage=r.character.damage, shields=r.character.shields)
    t = t.with_card(c2)
    if r.taken and kind == "melee":
        for u in t.upgrades_on(c.id):
            if u.discard_when == "takes-melee-damage":
                said.append(f"{c.name} took melee damage: {u.name} is discarded by its own text (Destiny P8 › Zadawanie obrażeń)")
                t = _discard_upgrade(t, u, said, why="its condition")
    elif r.dealt and not r.taken and any(u.discard_when for u in t.upgrades_on(c.id)):
        said.append("damage was dealt but none taken (all blocked): 'takes damage' text does not fire (reading R21 in docs/readings.md; Destiny P8 › Zadawanie obrażeń)")
    if r.defeated_now:
        t = _defeat(t, c.id, said, choose)
    if r.ignored_excess and not r.defeated_now:
        said.append(f"{r.ignored_excess} excess damage ignored")
    elif r.ignored_excess:
        said.append(f"{r.ignored_excess} excess damage is ignored (Destiny P6 › Pokonane postacie)")
    return t


def _defeat(t: Table, cid: str, said: list[str], choose: str | None = None) -> Table:
    c = t.card(cid)
    replacements = [(card, amount) for card, amount in c.replaces_defeat]
    if replacements:
        if len(replacements) > 1 and choose is None:
            raise IllegalCommandError(f"{len(replacements)} replacement effects ({', '.join(r for r, _ in replacements)}) would replace "
                                      f"{c.name}'s defeat: the battlefield controller {t.bf_controller} picks one and the other does not "
                                      "resolve; repeat with replace=CARD (Destiny P7 › Efekty zastępujące)")
        pick = next(((r, a) for r, a in replacements if r == choose), replacements[0] if choose is None else None)
        if pick is None:
            raise NotationError(f"replace={choose!r} is not a replacement effect on {c.name} ({', '.join(r for r, _ in replacements)})")
        card, amount = pick
        healed = min(amount, c.health)
        t = t.with_card(replace(c, damage=c.health - healed, replaces_defeat=tuple(x for x in c.replaces_defeat if x[0] != card)))
        said.append(f"instead of being defeated, {c.name} heals {healed} ({card}); it was never defeated, so no 'defeated' abilities fire"
                    + (f"; the other replacement effects do not resolve — chosen by the battlefield controller {t.bf_controller}"
                       if len(replacements) > 1 else "") + " (Destiny P7 › Efekty zastępujące)")
        if any(x.id == card for x in t.cards):
            t = _discard_upgrade(t, t.card(card), said, why="used")
        return t
    ups = t.upgrades_on(c.id)
    redeploy = [u for u in ups if "redeploy" in u.keywords]
    if redeploy:  # reading R25 in docs/readings.md: Redeploy overrides the discard; the upgrade and its die wait for the owner's choice
        for u in redeploy:
            for d in t.dice_of(u.id):
                t = t.with_die(replace(d, showing=None))
        said.append(f"Redeploy: {', '.join(u.name for u in redeploy)} may move with its die to another of {c.owner}'s characters "
                    "('redeploy UPGRADE -> CHARACTER') or be discarded ('discard-upgrade UPGRADE') (Destiny P7 › Przepisanie; reading R25 in docs/readings.md)")
        ups = tuple(u for u in ups if u not in redeploy)
    gone = {d.id for d in t.dice_of(c.id)} | {d.id for u in ups for d in t.dice_of(u.id)}
    t = t.without_dice(gone)
    for u in ups:
        owner = t.player(u.owner)
        t = t.with_player(replace(owner, discard=owner.discard + 1))
    t = t.without_cards({u.id for u in ups})
    t = t.with_card(replace(t.card(c.id), defeated=True, exhausted=False, shields=0))
    said.append(f"{c.name} is defeated: removed from the game with its dice ({', '.join(sorted(gone)) or 'none'}); its upgrades "
                f"({', '.join(u.name for u in ups) or 'none'}) are discarded (Destiny P6 › Pokonane postacie)")
    if not t.characters(c.owner):
        alive = [n for n in t.names if n not in _eliminated(t)]
        if len(alive) == 1:
            t = replace(t, phase="over", winner=alive[0],
                        result=f"every character of {c.owner} is defeated: the game ends at once and {alive[0]} wins (Destiny P5 › Zwycięstwo)")
            said.append(t.result)
        else:
            said.append(f"{c.owner} is eliminated: every character defeated (Destiny P9 › Eliminacja graczy)")
    return t


def _discard_upgrade(t: Table, u: Card, said: list[str], why: str, keep_die: str | None = None) -> Table:
    dice = t.dice_of(u.id)
    gone = {d.id for d in dice}
    if keep_die is not None:
        same = [x for x in t.upgrades_on(u.on or "") if x.id != u.id and (x.title or x.id) == (u.title or u.id)]
        kept = t.die(keep_die)
        if not same or kept.card not in {x.id for x in same} | {u.id}:
            raise IllegalCommandError(f"die {keep_die} is not a die of {u.name} or of another copy of it on the same character")
        if kept.card != u.id:  # the player chose which copy's die leaves: swap them (Destiny P2 › Kości opuszczające grę)
            t = t.with_die(replace(dice[0], card=kept.card))
            gone = {keep_die}
    t = t.without_dice(gone)
    owner = t.player(u.owner)
    t = t.with_player(replace(owner, discard=owner.discard + 1)).without_cards({u.id})
    said.append(f"{u.name} is discarded ({why}); die {', '.join(sorted(gone)) or '(none)'} is set aside (Destiny P2 › Kości opuszczające grę)")
    return t


@_effect("damage")
def _e_damage(t: Table, cmd: Command, said: list[str]) -> Table:
    n = cmd.int_arg(0, "the damage")
    for tgt in _targets(cmd, 1):
        t = _deal(t, tgt, n, said, kind=cmd.opt("kind", "") or "", unblockable=cmd.flag("unblockable"), choose=cmd.opt("replace"))
    return t


@_effect("distribute")
def _e_distribute(t: Table, cmd: Command, said: list[str]) -> Table:
    """Damage split as the player chooses, e.g. ``A distribute 2 3 -> x,y``: more than a
    character's remaining health may be put on it; the excess is ignored (D-21)."""
    amounts = [cmd.int_arg(i, "an amount") for i in range(len(cmd.args))]
    targets = cmd.targets
    if not amounts or len(targets) != len(amounts):
        raise NotationError(f"{str(cmd)!r}: give one amount per target, e.g. 'A distribute 2 1 -> han,leia'")
    for n, tgt in zip(amounts, targets, strict=True):
        t = _deal(t, tgt, n, said, kind=cmd.opt("kind", "") or "")
    return t


def _targets(cmd: Command, n: int | None = None) -> tuple[str, ...]:
    if not cmd.targets or (n is not None and n > 1 and len(cmd.targets) != n):
        raise NotationError(f"{str(cmd)!r}: give the target{'s' if n and n > 1 else ''} after '->'")
    return cmd.targets


@_effect("heal")
def _e_heal(t: Table, cmd: Command, said: list[str]) -> Table:
    n = cmd.int_arg(0, "the amount healed")
    for tgt in _targets(cmd):
        c = _character(t, tgt)
        ch, removed = heal(_as_char(c), n)
        t = t.with_card(replace(c, damage=ch.damage))
        said.append(f"{c.name}: {removed} damage removed" + (f", {n - removed} ignored" if n > removed else "")
                    + ("; it was *not* healed" if removed == 0 else "") + " (Destiny P8 › Ulecz)")
    return t


def _shield(t: Table, cid: str, n: int, said: list[str]) -> Table:
    c = _character(t, cid)
    ch, ignored = give_shields(_as_char(c), n)
    said.append(f"{c.name}: {ch.shields - c.shields} shield(s) placed, {ignored} ignored — at most {MAX_SHIELDS} (Destiny P2 › Osłona; P6 › Osłony)")
    return t.with_card(replace(c, shields=ch.shields))


@_effect("shield")
def _e_shield(t: Table, cmd: Command, said: list[str]) -> Table:
    n = cmd.int_arg(0, "the shields")
    for tgt in _targets(cmd):
        t = _shield(t, tgt, n, said)
    return t


@_effect("move-damage")
def _e_move(t: Table, cmd: Command, said: list[str]) -> Table:
    n = cmd.int_arg(0, "the damage moved")
    src, dst = _targets(cmd, 2)
    a, b = _character(t, src), _character(t, dst)
    a2, b2, moved = move_damage(_as_char(a), _as_char(b), n)
    t = t.with_card(replace(a, damage=a2.damage)).with_card(replace(b, damage=b2.damage))
    said.append(f"{moved} damage moved from {a.name} to {b.name}: shields are ignored and {b.name} is not dealt damage (Destiny P8 › Poruszanie)")
    if b2.defeated:
        t = _defeat(t, b.id, said)
    return t


@_effect("defeat")
def _e_defeat(t: Table, cmd: Command, said: list[str]) -> Table:
    for tgt in _targets(cmd):
        c = _character(t, tgt)
        if c.defeated:
            raise IllegalCommandError(f"{c.name} is already defeated (Destiny P8 › Wybierz (cel))")
        t = _defeat(t, c.id, said, cmd.opt("replace"))
    return t


@_effect("gain")
def _e_gain(t: Table, cmd: Command, said: list[str]) -> Table:
    n = cmd.int_arg(0, "the resources gained")
    p = t.player(cmd.actor or "")
    said.append(f"{p.name} gains {n} resources (Destiny P6 › Zasoby)")
    return t.with_player(replace(p, resources=p.resources + n))


@_effect("pay")
def _e_pay(t: Table, cmd: Command, said: list[str]) -> Table:
    n = cmd.int_arg(0, "the resources paid")
    p = t.player(cmd.actor or "")
    if n > p.resources:
        raise IllegalCommandError(f"{p.name} has {p.resources} resources and cannot pay {n}: a cost must be paid in full (Destiny P7 › Koszty)")
    said.append(f"{p.name} pays {n} resources")
    return t.with_player(replace(p, resources=p.resources - n))


@_effect("disrupt")
def _e_disrupt(t: Table, cmd: Command, said: list[str]) -> Table:
    n = cmd.int_arg(0, "the resources lost")
    opp = _opponent(t, cmd.actor or "", cmd)
    p = t.player(opp)
    said.append(f"{opp} loses {min(n, p.resources)} resources — never below 0 (Destiny P2 › Zakłócenie)")
    return t.with_player(replace(p, resources=max(0, p.resources - n)))


@_effect("discard")
def _e_discard(t: Table, cmd: Command, said: list[str]) -> Table:
    n = cmd.int_arg(0, "the cards discarded")
    who = _opponent(t, cmd.actor or "", cmd) if cmd.targets or cmd.opt("from") != "own" else cmd.actor or ""
    p = t.player(who)
    k = min(n, p.hand)
    said.append(f"{who} discards {k} card(s) at random from a hand of {p.hand} (Destiny P2 › Odrzucenie)")
    return t.with_player(replace(p, hand=p.hand - k, discard=p.discard + k))


@_effect("draw")
def _e_draw(t: Table, cmd: Command, said: list[str]) -> Table:
    n = cmd.int_arg(0, "the cards drawn")
    p = t.player(cmd.actor or "")
    k = min(n, p.deck)
    said.append(f"{p.name} draws {k}" + (f" ({n - k} could not be drawn: the deck is empty)" if k < n else "") + " (Destiny P6 › Dobranie karty)")
    return t.with_player(replace(p, hand=p.hand + k, deck=p.deck - k))


@_effect("mill")
def _e_mill(t: Table, cmd: Command, said: list[str]) -> Table:
    """Discard the top N of the deck, *then* do ``then=...``: the then-part happens only if the
    first part happened in full (Destiny P7 › Efekty „następnie”; reading R17 in docs/readings.md)."""
    n = cmd.int_arg(0, "the cards discarded from the deck")
    p = t.player(cmd.actor or "")
    k = min(n, p.deck)
    t = t.with_player(replace(p, deck=p.deck - k, discard=p.discard + k))
    said.append(f"{p.name} discards {k} card(s) from the top of the deck")
    then = cmd.opt("then")
    if then:
        if k < n:
            said.append(f"only {k} of {n} could be discarded, so the 'then' part ({then}) does not happen (Destiny P7 › Efekty „następnie”; reading R17 in docs/readings.md)")
        else:
            said.append(f"then: {then} (Destiny P7 › Efekty „następnie”)")
    return t


def _showing_die(t: Table, did: str, where: str) -> Die:
    """A die an effect may turn or reroll: one in a pool, or one resolved in this action that the
    effect brings back (D-12, D-15; it stays spent for this action, P5 L249)."""
    d = t.die(did)
    if d.showing is None and did not in t.resolved_this_action:
        raise IllegalCommandError(f"die {did} is not in a pool; only pool dice show a face ({where})")
    return d


def _check_turn(d: Die, f: Face, err: type[AssistantError]) -> None:
    """Turning must change the face, unless the die has two identical faces (P8 › Obracanie)."""
    if f == d.showing and not (d.faces and d.faces.count(f) > 1):
        raise err(f"die {d.id} already shows {f}; turning must change it to a different face unless the die has two identical faces "
                  "(Destiny P8 › Obracanie)")


@_effect("turn")
def _e_turn(t: Table, cmd: Command, said: list[str]) -> Table:
    for did, text in cmd.opts:
        d = _showing_die(t, did, "Destiny P8 › Ścianka widoczna")
        f = _face_of(d, text, cmd)
        _check_turn(d, f, IllegalCommandError)
        t = t.with_die(replace(d, showing=f))
        again = " — already resolved in this action, so it cannot be resolved again in it (Destiny P5, L249)" if did in t.resolved_this_action else ""
        said.append(f"die {did} turned to {f}{again} (Destiny P8 › Obracanie)")
    return t


@_effect("reroll-effect")
def _e_reroll(t: Table, cmd: Command, said: list[str]) -> Table:
    """A card that rerolls dice (Comlink #61): any pool die, the opponent's too (P8 › Przerzucanie)."""
    for did, text in cmd.opts:
        d = _showing_die(t, did, "Destiny P8 › Przerzucanie")
        t = t.with_die(replace(d, showing=_face_of(d, text, cmd)))
        again = "; already resolved in this action, so not again (Destiny P5, L249)" if did in t.resolved_this_action else ""
        said.append(f"die {did} ({d.owner}'s) rerolled by a card effect: now {text}{again} (Destiny P8 › Przerzucanie)")
    return t


@_effect("remove")
def _e_remove(t: Table, cmd: Command, said: list[str]) -> Table:
    for did in cmd.args:
        d = t.die(did)
        if d.showing is None:
            raise IllegalCommandError(f"die {did} is not in a pool and cannot be removed (Destiny P8 › Usuwanie kości)")
        t = _return_dice(t, [did], said)
        said.append(f"die {did} removed from the pool back to its card (Destiny P8 › Usuwanie kości)")
    return t


@_effect("roll-in")
def _e_roll_in(t: Table, cmd: Command, said: list[str]) -> Table:
    """Roll a die from a card that is not in play into the pool (Ace in the Hole #92, D-53)."""
    src = cmd.opt("from")
    if not src:
        raise NotationError(f"{str(cmd)!r}: say which card the die comes from: from=CARD")
    for did, text in cmd.opts:
        if did == "from":
            continue
        if any(d.id == did for d in t.dice):
            raise NotationError(f"{str(cmd)!r}: die {did!r} already exists")
        t = replace(t, dice=t.dice + (Die(did, src, cmd.actor or "", (), Face.parse(text), set_aside_after=True),))
        said.append(f"die {did} of {src} rolled into {cmd.actor}'s pool showing {text}; its special uses {src}'s special although the card "
                    "is not in play; it is set aside once resolved or removed (Destiny P7 › Zdolności specjalne)")
    return t


@_effect("keyword")
def _e_keyword(t: Table, cmd: Command, said: list[str]) -> Table:
    """``A keyword guardian gain|lose -> X``: a keyword is had or not; gaining twice and losing
    once leaves none (Destiny P7 › Słowa kluczowe; D-45)."""
    word, how = cmd.arg(0, "the keyword"), cmd.arg(1, "gain or lose")
    if how not in ("gain", "lose"):
        raise NotationError(f"{str(cmd)!r}: {how!r} must be gain or lose")
    for tgt in _targets(cmd):
        c = t.card(tgt)
        had = word in c.keywords
        kws = c.keywords | {word} if how == "gain" else c.keywords - {word}
        t = t.with_card(replace(c, keywords=frozenset(kws)))
        said.append(f"{c.name} {'gains' if how == 'gain' else 'loses'} {word}"
                    + (" (it already had it: a keyword is not counted twice)" if had and how == "gain" else "")
                    + f"; now {'has' if word in kws else 'does not have'} {word} (Destiny P7 › Słowa kluczowe)")
    return t


@_effect("discard-upgrade")
def _e_discard_upgrade(t: Table, cmd: Command, said: list[str]) -> Table:
    u = t.card(cmd.arg(0, "the upgrade"))
    if u.kind != "upgrade":
        raise IllegalCommandError(f"{u.name} is not an upgrade")
    t = _discard_upgrade(t, u, said, why=cmd.opt("why", "by choice") or "by choice", keep_die=cmd.opt("die"))
    left = [(c, n - 1) for c, n in t.discard_down if c == u.on and n > 1] + [(c, n) for c, n in t.discard_down if c != u.on]
    return replace(t, discard_down=tuple(left))


def _waiting_redeploys(t: Table) -> list[Card]:
    """Redeploy upgrades still on a character just defeated: their owner chooses at once."""
    return [u for u in t.cards if u.kind == "upgrade" and u.on and "redeploy" in u.keywords
            and any(c.id == u.on and c.defeated for c in t.cards)]


def _lapse_redeploys(t: Table, cmd: Command, said: list[str]) -> Table:
    """Redeploy is used at once after the defeat (P7 › Przepisanie, seed line 338); an upgrade
    not redeployed then is discarded with its character (P6 › Pokonane postacie, line 273): any
    other command first discards the waiting upgrades, so none lingers in play."""
    waiting = _waiting_redeploys(t)
    if not waiting:
        return t
    if cmd.verb in ("redeploy", "discard-upgrade") and cmd.args:
        named = next((u for u in t.cards if cmd.args[0] in (u.id, u.name)), None)
        if named is not None and named in waiting:
            return t
    for u in waiting:
        t = _discard_upgrade(t, t.card(u.id), said, why="not redeployed at once after its character's defeat")
    said.append(f"{', '.join(u.name for u in waiting)} {'was' if len(waiting) == 1 else 'were'} not redeployed at once, so "
                f"{'it goes' if len(waiting) == 1 else 'they go'} to the discard pile with the defeated character "
                "(Destiny P7 › Przepisanie; P6 › Pokonane postacie)")
    return t


@_effect("redeploy")
def _e_redeploy(t: Table, cmd: Command, said: list[str]) -> Table:
    """Move an upgrade and its die to another character (Redeploy). Only an upgrade with Redeploy,
    only at once after the defeat of the character it was on. Play restrictions do not apply, so a
    4th upgrade is possible; its controller then discards down to 3."""
    u = t.card(cmd.arg(0, "the upgrade"))
    if u.kind != "upgrade" or "redeploy" not in u.keywords:
        raise IllegalCommandError(f"{u.name} does not have Redeploy: only an upgrade with the keyword moves this way (Destiny P7 › Przepisanie)")
    if u not in _waiting_redeploys(t):
        raise IllegalCommandError(f"{u.name}'s character has not just been defeated: Redeploy moves an upgrade only at once after the "
                                  f"defeat of the character it is attached to (Destiny P7 › Przepisanie)")
    (dst,) = _targets(cmd, 1)[:1]
    c = _character(t, dst)
    if c.defeated or c.owner != cmd.actor:
        raise IllegalCommandError(f"{c.name} is not an undefeated character of {cmd.actor}'s (Destiny P7 › Przepisanie)")
    t = t.with_card(replace(u, on=c.id))
    n = len(t.upgrades_on(c.id))
    said.append(f"{u.name} and its die move to {c.name} (Destiny P7 › Przepisanie; reading R25 in docs/readings.md: Redeploy overrides the discard on defeat)")
    if n > MAX_UPGRADES:
        t = replace(t, discard_down=t.discard_down + ((c.id, n - MAX_UPGRADES),))
        said.append(f"{c.name} now has {n} upgrades: {c.owner} discards down to {MAX_UPGRADES}, choosing which (reading R24 in docs/readings.md; Destiny P1 › Ulepszenia)")
    return t


@_effect("delay")
def _e_delay(t: Table, cmd: Command, said: list[str]) -> Table:
    """``A delay defeat -> X``: an effect that happens after the current round ends (#23)."""
    what = cmd.arg(0, "the delayed effect (defeat)")
    if what != "defeat":
        raise NotationError(f"{str(cmd)!r}: the delayed effect modelled is 'defeat'")
    for tgt in _targets(cmd):
        _character(t, tgt)
        t = replace(t, delayed=t.delayed + ((what, tgt),))
        said.append(f"{tgt} will be defeated after the current round ends (Destiny P7 › Efekty opóźnione)")
    return t


@_effect("hand-limit")
def _e_hand_limit(t: Table, cmd: Command, said: list[str]) -> Table:
    """A card that changes the hand limit while it applies (Emperor's Favor #88; P8 › Zwiększenie)."""
    n = cmd.int_arg(0, "the hand limit")
    p = t.player(cmd.actor or "")
    said.append(f"{p.name}'s hand limit is {n} while the effect applies; upkeep draws up to {n} (Destiny P8 › Zwiększenie; reading R29 in docs/readings.md)")
    return t.with_player(replace(p, hand_limit=n))


@_effect("free-dice")
def _e_free_dice(t: Table, cmd: Command, said: list[str]) -> Table:
    """A card lets this player's cost-bearing faces resolve free (#171; reading R28 in docs/readings.md: the card's own text decides when)."""
    on = cmd.arg(0, "yes or no") == "yes"
    p = t.player(cmd.actor or "")
    said.append(f"{p.name}'s dice faces with a cost resolve {'free' if on else 'at their cost'} (Destiny P8 › Za darmo; reading R28 in docs/readings.md)")
    return t.with_player(replace(p, free_cost_dice=on))


@_effect("note")
def _e_note(t: Table, cmd: Command, said: list[str]) -> Table:
    said.append(f"note by {cmd.actor}: {' '.join(cmd.args)}")
    return t


# --- setup (P5 › Przygotowanie) ---------------------------------------------------------

def _named_values(cmd: Command, t: Table) -> dict[str, int]:
    out: dict[str, int] = {}
    for a in cmd.args:
        name, eq, value = a.partition("=")
        if not eq:
            raise NotationError(f"{str(cmd)!r}: write each player's roll as PLAYER=TOTAL or PLAYER=face,face,... (got {a!r})")
        t.player(name)
        if re.fullmatch(r"\d+", value):
            out[name] = int(value)
        else:
            out[name] = setup_roll_value([Face.parse(f) for f in value.split(",")])
    return out


@_step("battlefield-roll")
def _s_roll(t: Table, cmd: Command, said: list[str]) -> Table:
    if t.phase != "setup":
        raise IllegalCommandError("the battlefield roll is part of setup (Destiny P5 › Przygotowanie)")
    rolls = _named_values(cmd, t)
    expected = set(n for n, _ in t.setup_rolls) if t.setup_rolls else set(t.names)
    if set(rolls) != expected:
        raise IllegalCommandError(f"this roll is made by {', '.join(sorted(expected))}" + (" — on a tie only the tied players reroll "
                                  "(Destiny P9 › Przygotowanie)" if t.setup_rolls else ""))
    best = max(rolls.values())
    top = sorted(n for n, v in rolls.items() if v == best)
    said.append(f"battlefield roll: {', '.join(f'{n} {v}' for n, v in rolls.items())} — the sum of the non-modifier values; modifiers, "
                "blanks and specials count 0 (reading R22 in docs/readings.md)")
    if len(top) > 1:
        said.append(f"tie between {', '.join(top)}: they reroll (Destiny P5 › Przygotowanie)")
        return replace(t, setup_rolls=tuple((n, best) for n in top), roll_winner=None)
    said.append(f"{top[0]} wins the roll and chooses the battlefield (Destiny P5 › Przygotowanie)")
    return replace(t, setup_rolls=(), roll_winner=top[0])


@_step("choose-battlefield")
def _s_choose(t: Table, cmd: Command, said: list[str]) -> Table:
    who = _need_actor(cmd)
    if t.roll_winner != who:
        raise IllegalCommandError(f"the winner of the battlefield roll chooses; that is {t.roll_winner or 'nobody yet'} (Destiny P5 › Przygotowanie)")
    owner = cmd.arg(0, "whose battlefield is used")
    t.player(owner)
    others = [n for n in t.names if n != owner]
    shields = 2 if len(t.names) == 2 else 1
    said.append(f"{owner}'s battlefield is used: {owner} controls it and acts first in round 1; "
                f"{', '.join(others)} set{'s' if len(others) == 1 else ''} their battlefield aside and give{'s' if len(others) == 1 else ''} "
                + ("2 shields to their characters, split as they choose (Destiny P5 › Przygotowanie)" if shields == 2 else
                   "1 shield to one character (Destiny P9 › Przygotowanie; reading R26 in docs/readings.md: the owner of the chosen battlefield controls it)"))
    owed = tuple((n, shields) for n in others)
    return replace(t, bf_owner=owner, bf_controller=owner, turn=owner, delayed=t.delayed, setup_rolls=owed, roll_winner=None,
                   notes=t.notes + ("shields owed: " + ", ".join(f"{n} {s}" for n, s in owed),))


@_step("setup-shields")
def _s_shields(t: Table, cmd: Command, said: list[str]) -> Table:
    who = _need_actor(cmd)
    owed = dict(t.setup_rolls)
    if who not in owed or t.roll_winner is not None:
        raise IllegalCommandError(f"{who} is owed no setup shields")
    split = {k: cmd.int_opt(k) or 0 for k, _ in cmd.opts}
    if sum(split.values()) != owed[who]:
        raise IllegalCommandError(f"{who} gives exactly {owed[who]} shield(s), not {sum(split.values())} (Destiny P5 › Przygotowanie)")
    if len(t.names) > 2 and len(split) != 1:
        raise IllegalCommandError("in free-for-all the 1 shield goes to one character (Destiny P9 › Przygotowanie)")
    for cid, n in split.items():
        c = _character(t, cid)
        if c.owner != who:
            raise IllegalCommandError(f"{c.name} is not {who}'s character")
        t = _shield(t, cid, n, said)
    return replace(t, setup_rolls=tuple((n, s) for n, s in t.setup_rolls if n != who))


@_step("mulligan")
def _s_mulligan(t: Table, cmd: Command, said: list[str]) -> Table:
    who = _need_actor(cmd)
    p = t.player(who)
    if t.phase != "setup":
        raise IllegalCommandError("the mulligan is part of setup (Destiny P5 › Przygotowanie)")
    if p.mulliganed:
        raise IllegalCommandError(f"{who} has already mulliganed; the rulebook describes one mulligan (Destiny P5 › Przygotowanie, L199: one step of setup)")
    back = cmd.int_arg(0, "the cards shuffled back")
    if back > p.hand:
        raise IllegalCommandError(f"{who} holds {p.hand} cards and cannot shuffle back {back}")
    drawn = min(back, p.deck + back)
    said.append(f"{who} keeps {p.hand - back}, shuffles {back} back and draws {drawn}: hand {p.hand - back + drawn}; one mulligan only "
                "(Destiny P5 › Przygotowanie, step 4)")
    return t.with_player(replace(p, hand=p.hand - back + drawn, mulliganed=True))


@_step("start")
def _s_start(t: Table, cmd: Command, said: list[str]) -> Table:
    if t.phase != "setup":
        raise IllegalCommandError("the game has already started")
    if not t.bf_controller or t.roll_winner is not None:
        raise IllegalCommandError("choose the battlefield first: 'battlefield-roll A=.. B=..' then 'WINNER choose-battlefield OWNER'")
    if t.setup_rolls:
        raise IllegalCommandError(f"setup shields still to place: {', '.join(f'{n} {s}' for n, s in t.setup_rolls)} ('PLAYER setup-shields CHAR=N')")
    said.append(f"round 1: {t.bf_controller} controls the battlefield and takes the first action (Destiny P1 › Pola bitwy; P5 › Faza akcji)")
    return replace(t, phase="action", round=1, turn=t.bf_controller, passes_in_row=0, claimed_by=None)


# --- upkeep and the end of the round (P5 › Faza utrzymania, Zwycięstwo) -----------------

def _begin_upkeep(t: Table, said: list[str]) -> Table:
    cards = tuple(replace(c, exhausted=False) if c.exhausted else c for c in t.cards)
    t = replace(t, cards=cards, phase="upkeep", turn="", extra_action=None)
    t = _return_dice(t, [d.id for d in t.pool()], said)
    t = replace(t, players=tuple(replace(p, resources=p.resources + 2, upkeep_done=False) for p in t.players))
    said.append("upkeep: every exhausted card is readied, every pool die returns to its card, each player gains 2 resources; each player "
                "now discards any cards and draws up to the hand limit: 'PLAYER upkeep discard=N' (Destiny P5 › Faza utrzymania)")
    return t


@_step("upkeep")
def _s_upkeep(t: Table, cmd: Command, said: list[str]) -> Table:
    who = _need_actor(cmd)
    if t.phase != "upkeep":
        raise IllegalCommandError(f"it is the {t.phase} phase, not upkeep")
    p = t.player(who)
    if p.upkeep_done:
        raise IllegalCommandError(f"{who} has already drawn this upkeep")
    out = cmd.int_opt("discard", 0) or 0
    if out > p.hand:
        raise IllegalCommandError(f"{who} holds {p.hand} cards and cannot discard {out}")
    hand = p.hand - out
    n = upkeep_draw(hand, p.hand_limit, p.deck)
    said.append(f"{who} discards {out} (hand {hand}) and draws {n} to " + (f"hand {hand + n} (limit {p.hand_limit})" if hand < p.hand_limit else
                f"nothing — the hand is already at or over the limit {p.hand_limit}, and nobody must discard down") + " (Destiny P5 › Faza utrzymania)")
    if hand + n < p.hand_limit and hand < p.hand_limit:
        said.append(f"the deck ran short: {n} drawn")
    t = t.with_player(replace(p, hand=hand + n, deck=p.deck - n, discard=p.discard + out, upkeep_done=True))
    if all(q.upkeep_done for q in t.players if q.name not in _eliminated(t)):
        t = _end_round(t, said)
    return t


def _end_round(t: Table, said: list[str]) -> Table:
    # reading R27 in docs/readings.md (silent; suggested reading): delayed effects first, then the deck-out check
    for what, cid in t.delayed:
        if what == "defeat" and not t.card(cid).defeated:
            said.append(f"after the round: the delayed effect defeats {cid} (Destiny P7 › Efekty opóźnione; reading R27 in docs/readings.md: before the deck-out check)")
            t = _defeat(t, cid, said)
            if t.phase == "over":
                return t
    t = replace(t, delayed=())
    alive = [p for p in t.players if p.name not in _eliminated(t)]
    winner, why = end_of_round_loser({p.name: (p.hand, p.deck) for p in alive}, t.bf_controller)
    if why != "nobody is out of cards":
        said.append(why)
        if winner is not None:
            return replace(t, phase="over", winner=winner, result=why)
    nxt = t.bf_controller
    said.append(f"round {t.round + 1}: {nxt} controls the battlefield and acts first (Destiny P5 › Faza akcji; reading R30 in docs/readings.md)")
    return replace(t, round=t.round + 1, phase="action", turn=nxt, passes_in_row=0, claimed_by=None, resolved_this_action=frozenset())


# --- questions that change nothing -----------------------------------------------------

@_step("total")
def _s_total(t: Table, cmd: Command, said: list[str]) -> Table:
    """``total DIE ...``: the total value of the dice named (P8 › Łączna wartość)."""
    from .dice import total_value

    faces = []
    for did in cmd.args:
        d = t.die(did)
        if d.showing is None:
            raise IllegalCommandError(f"die {did} is on its card and shows no face (Destiny P8 › Ścianka widoczna)")
        faces.append(d.showing)
    said.append(f"total value of {', '.join(f'{did} ({f})' for did, f in zip(cmd.args, faces, strict=True))} = {total_value(faces)} "
                "(Destiny P8 › Łączna wartość)")
    return t


@_step("who-orders")
def _s_who_orders(t: Table, cmd: Command, said: list[str]) -> Table:
    """``who-orders -> A,B``: the owners of abilities waiting at the same time."""
    for o in cmd.targets:
        t.player(o)
    if not cmd.targets:
        raise NotationError(f"{str(cmd)!r}: list the owners of the waiting abilities after '->'")
    said.append(who_orders(t, list(cmd.targets))[1])
    return t


def who_orders(t: Table, owners: list[str]) -> tuple[str, str]:
    """Who orders abilities waiting together (reading R18 in docs/readings.md): one player's own -- that player; several
    players' -- the battlefield controller (P7 › Kolejka, Zdolności równoczesne)."""
    if len(set(owners)) == 1:
        return owners[0], (f"every waiting ability is {owners[0]}'s: {owners[0]} orders them (Destiny P7 › Zdolności równoczesne; reading R18 in docs/readings.md)")
    return t.bf_controller, (f"abilities of several players wait together: the battlefield controller {t.bf_controller} decides the order "
                             "(Destiny P7 › Kolejka; reading R18 in docs/readings.md)")


def _lookup(t: Table, path: str) -> object:
    """A fact of the table by dotted path, for scenarios and ``status --get``:
    ``card.han.damage``, ``player.A.hand``, ``die.h1.showing``, ``upgrades.han`` (ids),
    ``pool.A`` (die ids), ``dice.han`` (die ids), ``in-play.ID`` (bool), or a table field
    (``turn``, ``phase``, ``winner``, ``bf_controller``, ``round``, ...)."""
    head, _, rest = path.partition(".")
    key, _, attr = rest.partition(".")
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
        raise NotationError(f"{path!r} is not a fact of a Destiny table (card.ID.FIELD, player.NAME.FIELD, die.ID.showing, upgrades.CHAR, "
                            "pool.PLAYER, dice.CARD, in-play.ID, turn, phase, winner, round, bf_controller, claimed_by, ...)")
    return getattr(t, head)


#: a fact of the table by dotted path; a path naming no field is refused with the fields there are
lookup = naming_fields(_lookup)
