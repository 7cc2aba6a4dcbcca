"""The game state as a fold of the log's events, and the registry of the kinds of event.

``fold(events)`` replays every event in force (not undone; an undo may itself be undone).
``check(state, kind, data)`` returns the reasons, each with the edition's own rule, that a
command is refused now; a judge may record it anyway as an override with a reason.

**One place per kind.** Each kind of event the log holds (``move``, ``attack``, ``door``, ...)
is one :class:`EventKind` -- its shape, its check, its fold and its words for the log --
written together in :mod:`.events` and filed here by :func:`event_kind`. This module keeps the
state and the fold loop and looks each event's kind up; it never asks which kind it is.

**An undo never breaks a game.** Undoing an event that later events depend on (an undone
heal makes a later damage defeat the figure, so a still later move names a figure that is
gone) leaves those later events in the log, marked *void* with the reason: the fold skips
them and says why. Every game the log holds opens; ``status``, ``log``, ``export`` and
``replay`` always work.

What a turn may hold is each edition's :class:`~.turns.TurnRules`: SWM move-then-attack,
attack-then-move or a double move; DDM double move, move and one attack, full attack or
charge, with the 1-2-1-2 diagonal count carried over the whole turn's movement.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from typing import Any, Protocol, TypeVar

from ..cards import CardLibrary, cards_from_data, split_ability, with_user_overrides
from ..coords import Square
from ..editions import Edition, cite_for
from ..errors import AssistantError, UnknownNameError
from ..i18n import _, side_name
from ..model import DepartedError, Figure, Position
from ..position import parse_position
from ..rules.engine import Reason
from ..yamlio import YamlReadError, parse_yaml
from .store import Event, Shape, check_shapes, undone_seqs
from .turns import TURN_RULES, TurnRules

ACTIVATIONS_PER_PHASE = 2


@dataclass(frozen=True)
class Entry:
    """One event with where it happened in the game and what it did, for the log and export."""

    event: Event
    round: int
    phase: int
    text: str
    undone: bool = False
    void: str | None = None  # why an event in force no longer applies (an earlier undo changed the game)


@dataclass(frozen=True)
class Fallen:
    """A figure that left the game: when, by whom, how."""

    seq: int | None
    round: int
    by: str | None
    how: str  # "defeated", "fled", "removed"

    def text(self, fid: str) -> str:
        when = (_("at event #{seq}, round {round}").format(seq=self.seq, round=self.round) if self.seq
                else _("in round {round}").format(round=self.round))
        how = {"defeated": _("defeated"), "fled": _("fled"), "removed": _("removed")}.get(self.how, self.how)
        if self.by:
            text = _("{figure} was {how} by {by} ({when})")
        else:
            text = _("{figure} was {how} ({when})")
        return text.format(figure=fid, how=how, by=self.by, when=when)


@dataclass
class Turn:
    """The acting figure's turn so far."""

    figure: str
    moved_before: int = 0  # squares moved before its first attack
    moved_after: int = 0  # squares moved after it
    attacks: int = 0
    targets: list[str] = field(default_factory=list)
    parity: int = 0  # DDM: the next diagonal costs 2 when 1
    charged: bool = False
    provoked: set[str] = field(default_factory=set)  # enemies the move let make an attack of opportunity
    opportunity_by: set[str] = field(default_factory=set)
    burrowed: bool = False  # DDM Burrow: the turn's whole move is underground
    trampled: bool = False  # DDM Trample: once in its turn
    towed: bool = False  # SWM Tow Cable: the move was the whole turn
    faster: int = 0  # SWM Move Faster: the squares its Force points added to this turn's movement
    faster_after_attack: bool = False  # ...bought after its attack (SWM 2004: those squares may follow the attack)
    plain_spend: bool = False  # it spent a Force point in its turn with no use named (a refusal says how to name Move Faster)
    rallied: bool = False  # DDM: a routing creature rallied this turn, and does nothing more in it
    speed_powers: list[str] = field(default_factory=list)  # SWM Knight Speed, Master Speed: bought squares in t.faster (R251)
    force_powers: list[str] = field(default_factory=list)  # SWM: Force powers bought before an attack roll this turn (Sith Rage lasts it, R251)
    leaped: bool = False  # SWM Force Leap used this turn: through enemies, no attacks of opportunity (R305)
    mended: str = ""  # SWM: the Heal, Force Heal, Repair or Industrial Repair used in place of its attacks this turn (R272)

    @property
    def moved(self) -> int:
        return self.moved_before + self.moved_after


@dataclass
class GameState:
    position: Position
    round: int = 0
    phase: int = 0
    phase_side: str | None = None
    phase_activations: int = 0
    first_side: str | None = None
    active: str | None = None
    turn: Turn | None = None
    entries: list[Entry] = field(default_factory=list)
    defeated: list[str] = field(default_factory=list)
    fallen: dict[str, Fallen] = field(default_factory=dict)
    fallen_side: dict[str, str] = field(default_factory=dict)
    #: victory points by side (DDM: eliminations and victory areas; SWM: the tie-break total)
    vp: dict[str, int] = field(default_factory=dict)
    #: DDM morale saves due (HP first below half), by figure, with the formula
    morale_due: dict[str, str] = field(default_factory=dict)
    morale_checked: set[str] = field(default_factory=set)
    #: consecutive finished rounds with no attack and no damage (tie-break at 10)
    quiet_rounds: int = 0
    round_had_action: bool = False
    intuition_used: set[str] = field(default_factory=set)  # SWM Intuition: once a round
    surprise_used: set[str] = field(default_factory=set)  # SWM Surprise Move: once a round (R306)
    #: swm2008 Force Sense: the enemies whose Stealth it took until the end of the round, each with its
    #: own written abilities to give back at the next initiative (None: its card's), and who used it (R273)
    stealth_lost: dict[str, tuple[tuple[str, ...] | None, str]] = field(default_factory=dict)
    #: SWM: how many times each figure has spent Force points in the turn now being played (anyone's
    #: turn, or the moment between turns): once per turn (CS r.9; PL p.26)
    force_spends: dict[str, int] = field(default_factory=dict)
    #: DDM: the uses of each figure's spells and limited abilities so far, by (figure, the text as written, lower case)
    spell_uses: dict[tuple[str, str], int] = field(default_factory=dict)
    #: DDM: a creature that has just routed moves at once, out of turn (§ Ucieczka p.21): its move so far,
    #: and whose turn it happens in (the move is over once that turn ends)
    rout_move: Turn | None = None
    rout_during: str | None = None
    #: DDM: who made a creature rout, and in which round (no attack of opportunity on it from them that round)
    routed_by: dict[str, tuple[str, int]] = field(default_factory=dict)
    #: SWM Desert Skiff: the figures carried (off the map, still in play), and by whom
    aboard: dict[str, tuple[Figure, str]] = field(default_factory=dict)
    #: the card library the game was folded with (the user's and the setup's kept cards): a figure placed
    #: mid-game may be any card of it, not only a starting figure's (reading R180)
    library: CardLibrary | None = None
    #: the squares a defeated skiff stood on: its saved passengers are placed next to them
    wrecks: dict[str, tuple[Square, ...]] = field(default_factory=dict)
    last_attacker: str | None = None
    scored_round: int = 0
    ended: str | None = None
    announced_winner: str | None = None
    seq: int | None = None  # the event being applied
    #: the judge's override of the event being applied: without one, what the rules refuse is void (R206)
    override: str | None = None
    #: each figure's last activation in the log's order, undone or not: (its event, the round);
    #: an attack or a move belongs to it, and is void while it is undone
    activations: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: the events the log's undos cancel (an undo undone brings its event back)
    undone: set[int] = field(default_factory=set)

    @property
    def rules(self) -> Edition:
        return self.position.edition

    @property
    def turn_rules(self) -> TurnRules:
        return TURN_RULES[self.rules]

    @property
    def moved(self) -> dict[str, int]:
        """Squares moved this turn by the acting figure."""
        return {self.turn.figure: self.turn.moved} if self.turn and self.turn.moved else {}

    def cite(self, where: str) -> str:
        return cite_for(self.rules, where)

    def winner(self) -> str | None:
        """DDM: the first side to 200 VP; SWM: the last side with figures standing; a game the
        players ended: the tie-break's winner (CS r.5; PL p.16; DDM p.28; reading R49)."""
        return self.outright() or (self.tie_break()[0] if self.ended else None)

    def outright(self) -> str | None:
        """The winner by the edition's victory condition."""
        if self.turn_rules.victory == "vp":
            reached = [s for s, v in self.vp.items() if v >= 200]
            return reached[0] if reached else None
        standing = {f.side for f in self.position.figures}
        return next(iter(standing)) if len(standing) == 1 and self.round > 0 else None

    def tie_break(self) -> tuple[str | None, str, str | None]:
        """The tie-break (CS r.5; PL p.16; DDM p.28): the side with the most points (the costs of
        the enemies it defeated; DDM victory points); tied, the side with the figure nearest the
        map's centre (base centre to map centre: reading R49); still tied, the side whose figure
        there costs the most. (winner or None, how: "points", "centre", "cost" or "tied", the
        figure that decided or, for "tied", the first whose cost is unknown)."""
        sides = self.sides()
        best = max((self.vp.get(s, 0) for s in sides), default=0)
        tied = [s for s in sides if self.vp.get(s, 0) == best]
        if len(tied) == 1:
            return tied[0], "points", None
        m = self.position.map

        def far(f: Figure) -> int:  # squared distance in half squares: exact
            n = f.size.footprint
            return (2 * f.at.col + n - m.cols) ** 2 + (2 * f.at.row + n - m.rows) ** 2

        near = {s: min(far(f) for f in self.position.figures if f.side == s) for s in tied}
        closest = min(near.values(), default=0)
        tied = [s for s in tied if near[s] == closest]
        nearest = [f for f in self.position.figures if f.side in tied and far(f) == closest]
        if len(tied) == 1:
            return tied[0], "centre", nearest[0].id
        if not nearest:  # no figure is left on the map: none is nearest the centre, no side wins
            return None, "tied", None
        costs = {f.id: (card.cost if (card := self.position.card_of(f)) is not None else None) for f in nearest}
        unknown = next((fid for fid, c in costs.items() if c is None), None)
        if unknown is not None:
            return None, "tied", unknown
        top = max(int(c or 0) for c in costs.values())
        by = {f.side for f in nearest if costs[f.id] == top}
        if len(by) == 1:
            return by.pop(), "cost", next(f.id for f in nearest if costs[f.id] == top)
        return None, "tied", None

    def won_on_points(self) -> bool:
        """Was the game won on the tie-break rather than by its victory condition?"""
        return self.outright() is None and self.winner() is not None

    def over(self) -> str | None:
        """Why the game is over, or None."""
        w = self.winner()
        if w:  # in the reader's words: `game status` in Polish said "light has won" (the JSON's "winner" keeps the side)
            return _("{winner} has won").format(winner=side_name(w))
        if self.ended:
            return _("the game was ended ({reason})").format(reason=self.ended)
        return None

    def figure(self, fid: str) -> Figure:
        """The figure; one that has left the game is named with when and by whom."""
        try:
            return self.position.figure(fid)
        except (UnknownNameError, DepartedError):
            if fid in self.fallen:
                raise AssistantError(self.fallen[fid].text(fid)) from None
            if fid in self.aboard:
                raise AssistantError(
                    _(
                        "{id} is aboard {skiff} (Desert Skiff): off the map until it disembarks before the round's first activation (game disembark {id} "
                        "SQUARE); what it does aboard is not checked here"
                    ).format(id=fid, skiff=self.aboard[fid][1])
                ) from None
            raise

    def named(self, data: dict[str, Any]) -> None:
        """Look up every figure the command's data names (figure, attacker, target, helpers):
        an unknown one raises, one that has left the game is named with when and by whom."""
        for key in ("figure", "attacker", "target"):
            if isinstance(data.get(key), str):
                self.figure(data[key])
        for h in data.get("helpers", ()) or ():
            self.figure(h)

    def unactivated(self, side: str) -> list[Figure]:
        return [f for f in self.position.figures if f.side == side and not f.activated]

    def sides(self) -> list[str]:
        return self.position.sides()

    def expected_side(self) -> str | None:
        """Whose activation it is now."""
        if self.round == 0:
            return None
        side = self.phase_side
        if side is not None and self.phase_activations < ACTIVATIONS_PER_PHASE and self.unactivated(side):
            return side
        others = [s for s in self._order() if s != side and self.unactivated(s)]
        if others:
            return others[0]
        return side if side is not None and self.unactivated(side) else None

    def _order(self) -> list[str]:
        sides = self.sides()
        if self.first_side in sides:
            i = sides.index(self.first_side)
            sides = sides[i:] + sides[:i]
        return sides

    def round_over(self) -> bool:
        return all(f.activated for f in self.position.figures)

    def speed(self, f: Figure) -> int:
        """Its speed: written in its stats, else its card's Speed [#] (SWM PL p.63, CS g.12), else
        the edition's 6."""
        stats = self.position.stats_of(f)
        if stats.speed:
            return stats.speed
        for text in stats.abilities or ():
            name, value = split_ability(text)
            if name.lower() == "speed" and value:
                return value
        return self.turn_rules.default_speed


# --- the kinds of event ------------------------------------------------------------------------

Data = dict[str, Any]


@dataclass(frozen=True)
class EventKind:
    """One kind of event, all of it in one place: what its data must hold (checked when the log
    is read), why it is refused now, what it does to the state, and its words for the log."""

    name: str
    #: key -> type (a tuple of types: any of them); a key ending in ``?`` may be left out
    shape: Shape
    #: the reasons, each with its rule, that the command is refused now (empty: allowed);
    #: an unknown figure raises, one that has left the game is named with when and by whom
    check: Callable[[GameState, Data], list[Reason]]
    #: apply the event to the state; returns what followed (doors, defeats, points)
    fold: Callable[[GameState, Data], list[str]]
    #: the event in words, as the log shows it, read against the state before it applies
    describe: Callable[[GameState, Data], str]
    #: the figure whose activation the event is part of (an attack, a move), if any
    activation_of: Callable[[Data], str | None] | None = None
    #: the event opens its figure's activation (``activation_of`` names the figure)
    opens_activation: bool = False


class KindRules(Protocol):
    """What a class filed by :func:`event_kind` writes: the three functions of its kind. A kind
    that is part of a figure's activation also writes ``activation_of(data)`` (the figure), and
    the kind that opens one sets ``opens_activation = True`` (:func:`_fold_one` voids an event
    whose activation is undone)."""

    def check(self, state: GameState, data: Data) -> list[Reason]: ...

    def fold(self, state: GameState, data: Data) -> list[str]: ...

    def describe(self, state: GameState, data: Data) -> str: ...


#: every kind of event the log holds, by name, filed by :func:`event_kind` when :mod:`.events` loads
EVENT_KINDS: dict[str, EventKind] = {}
#: what each kind must carry, as the store checks it (the same kinds as :data:`EVENT_KINDS`)
SHAPES: dict[str, Shape] = {}

K = TypeVar("K", bound=KindRules)


def event_kind(name: str, shape: Shape) -> Callable[[type[K]], type[K]]:
    """File the decorated class's ``check``, ``fold`` and ``describe`` as the kind ``name``.

    A name filed twice is a programming error, said at import time rather than by a log that
    folds differently depending on which module loaded last."""

    def file(cls: type[K]) -> type[K]:
        if name in EVENT_KINDS:
            raise ValueError(f"event kind {name!r} is filed twice")
        rules = cls()
        EVENT_KINDS[name] = EventKind(name, shape, rules.check, rules.fold, rules.describe,
                                      getattr(rules, "activation_of", None), bool(getattr(cls, "opens_activation", False)))
        SHAPES[name] = shape
        return cls

    return file


# --- folding the log ------------------------------------------------------------------------


def _snapshot(state: GameState) -> dict[str, Any]:
    """The state's fields, containers copied, so a failed event can be rolled back."""
    snap: dict[str, Any] = {}
    for f in fields(state):
        v = getattr(state, f.name)
        if f.name == "entries":
            snap[f.name] = v
        elif isinstance(v, (dict, list, set)):
            snap[f.name] = type(v)(v)
        elif isinstance(v, Turn):
            snap[f.name] = replace(v, targets=list(v.targets), provoked=set(v.provoked), opportunity_by=set(v.opportunity_by))
        else:
            snap[f.name] = v
    return snap


def fold(events: list[Event], library: CardLibrary | None = None, upto: int | None = None, path: str = "the game log") -> GameState:
    return finish(fold_raw(events, library, upto, path))


def fold_raw(events: list[Event], library: CardLibrary | None = None, upto: int | None = None, path: str = "the game log") -> GameState:
    """The fold before :func:`finish`: the state that :func:`fold_more` goes on from."""
    check_shapes(path, events, SHAPES)
    undone = undone_seqs(events, upto)
    state: GameState | None = None
    for e in events:
        if upto is not None and e.seq > upto:
            break
        if e.kind == "setup":  # the first event, and the only setup (check_shapes)
            lib = _setup_library(e, library)
            state = GameState(parse_position(e.data["position"], "game setup", lib), library=lib)
            state.undone = set(undone)
            state.entries.append(Entry(e, 0, 0, describe(state, e)))
            continue
        assert state is not None
        _fold_one(state, e, e.seq in undone)
    assert state is not None
    return state


def fold_more(raw: GameState, setup: Event, new: list[Event], path: str = "the game log") -> GameState | None:
    """``raw`` (a :func:`fold_raw`, never changed here) with the events appended after it
    folded on: the same state as folding the whole log again, without parsing the setup's
    position again. None when an undo is among them (it may cancel or void earlier events:
    only a whole fold is exact then)."""
    check_shapes(path, [setup, *new], SHAPES)
    if any(e.kind in ("undo", "setup") for e in new):
        return None
    state = copy_state(raw)
    for e in new:
        _fold_one(state, e, False)
    return state


#: a fold kept to go on from: the :func:`fold_raw` state (never changed), the log's setup event
#: and the last event folded into it
Kept = tuple[GameState, Event, Event]


def fold_on(kept: Kept | None, events: list[Event], library: CardLibrary | None = None, path: str = "the game log") -> Kept:
    """The whole log ``events`` folded, from ``kept`` when the log is the one it was folded
    from with events appended (its setup and its last event still there, no undo since); a
    whole fold otherwise. Finish a copy of the state to read it: ``finish(copy_state(...))``."""
    if kept is not None and events:
        base, setup, last = kept
        at = next((i for i in range(len(events) - 1, -1, -1) if events[i].seq <= last.seq), None)
        if at is not None and events[0] == setup and events[at] == last:
            raw = fold_more(base, setup, events[at + 1:], path) if at + 1 < len(events) else base
            if raw is not None:
                return raw, setup, events[-1]
    return fold_raw(events, library, path=path), events[0], events[-1]


def _activation(state: GameState, e: Event) -> int | None:
    """The activation event ``e`` is part of, when that activation is undone: an attack or a
    move belongs to its figure's activation (the figure's last ``activate`` before it in the
    log, in the same round), so undoing the activation voids them -- also when an undo of the
    attack's undo brings the attack back while its activation stays undone. Records an
    activation as the figure's last, undone or not."""
    found = EVENT_KINDS.get(e.kind)
    if found is None or found.activation_of is None:
        return None
    try:
        who = found.activation_of(e.data)
    except (KeyError, TypeError, ValueError):
        return None
    if who is None:
        return None
    if found.opens_activation:
        state.activations[who] = (e.seq, state.round)
        return None
    seq, round_ = state.activations.get(who, (None, None))
    return seq if seq is not None and round_ == state.round and seq in state.undone else None


def _fold_one(state: GameState, e: Event, undone: bool) -> None:
    if e.kind == "undo" or undone:
        _activation(state, e)  # an undone activation is still the one its attacks belong to
        state.entries.append(Entry(e, state.round, state.phase, _describe_safely(state, e), undone=undone))
        return
    text = _describe_safely(state, e)
    cancelled = _activation(state, e)
    if cancelled is not None:
        why = _("its activation (event #{seq}) is undone: an attack or a move is part of its figure's activation").format(seq=cancelled)
        state.entries.append(Entry(e, state.round, state.phase, text, void=why))
        return
    snap = _snapshot(state)
    state.seq, state.override = e.seq, e.override
    try:
        if not e.override and e.kind not in UNCHECKED_AT_FOLD:
            refused = check(state, e.kind, e.data)
            if refused:
                raise AssistantError(_("recorded without a judge's override, yet the rules refuse it: {reasons}; {cause}").format(
                    reasons="; ".join(r.text + (f" ({r.rule})" if r.rule else "") for r in refused), cause=fold_cause(state)))
        said = apply(state, e.kind, e.data)
    except (AssistantError, KeyError, ValueError, TypeError, AttributeError) as exc:
        state.__dict__.update(snap)
        state.entries.append(Entry(e, state.round, state.phase, text, void=_void_reason(exc)))
        return
    if e.override:
        said.append(_("override: {override}").format(override=e.override))
    state.entries.append(Entry(e, state.round, state.phase, "; ".join([text, *said])))


#: the kinds whose refusals the fold does not ask again: every other kind's are (readings R206, R226):
#: an exported log's hashes anyone can make again, so an event the rules refuse (a move through a
#: wall, an activation out of turn), recorded without an override, is void like an attack its dice
#: contradict. The set-up was checked when the game began; an undo and a note refuse nothing.
UNCHECKED_AT_FOLD = frozenset({"setup", "undo", "note"})


def fold_cause(state: GameState) -> str:
    """Why a recorded event no longer follows from the position it is folded in (R203, R206): an
    earlier event undone since (the position it was recorded in is gone), else an edit of the log,
    or numbers that changed (a card corrected with `cards set`, a rule fixed in a later version)."""
    gone = sorted(s for s in state.undone if state.seq is not None and s < state.seq)
    if gone:
        return _("an event before it is undone ({events}), so the position it was recorded in is gone").format(
            events=", ".join(f"#{s}" for s in gone))
    return _("the log was edited, or a card's numbers (cards set) or the assistant's rules changed since it was recorded")


def copy_state(state: GameState) -> GameState:
    """A state that folding more events into leaves ``state`` as it was: the containers the
    fold changes are copied (the ones :func:`_snapshot` rolls a failed event back with)."""
    snap = _snapshot(state)
    snap["entries"] = list(state.entries)
    return GameState(**snap)


def finish(state: GameState) -> GameState:
    """The folded state as readers see it (the fallen figures' stories in its position)."""
    state.seq, state.override = None, None
    if state.fallen:
        p = state.position
        state.position = Position(p.edition, p.map, p.figures, p.cards, {k: v.text(k) for k, v in state.fallen.items()})
    return state


def _setup_library(e: Event, library: CardLibrary | None) -> CardLibrary | None:
    """The library with the cards the game was started with (kept in the setup event)."""
    kept = e.data.get("cards")
    if not kept:
        return library

    extra = []
    for item in kept if isinstance(kept, list) else ():
        if not isinstance(item, dict) or not isinstance(item.get("text"), str):
            continue
        try:
            data, lines, problems = parse_yaml(item["text"], str(item.get("file", "game cards")))
        except YamlReadError:
            continue
        got, _problems = cards_from_data(data, lines, str(item.get("file", "game cards")), problems)
        extra += got
    base = list(library.cards()) if library is not None else []
    return CardLibrary(base + with_user_overrides(extra))


def _void_reason(exc: BaseException) -> str:
    if isinstance(exc, AssistantError):
        return str(exc)
    if isinstance(exc, KeyError):
        return _("its data lacks {key}").format(key=exc)
    return _("its data cannot be applied ({exc})").format(exc=exc)


def _describe_safely(state: GameState, e: Event) -> str:
    try:
        return describe(state, e)
    except (KeyError, ValueError, TypeError, AttributeError):
        return f"{e.kind} (unreadable data)"


def apply(state: GameState, kind: str, data: Data) -> list[str]:
    """Apply one event; returns what followed from it (doors, defeats, points, the winner)."""
    found = EVENT_KINDS.get(kind)
    if found is None:
        raise ValueError(f"unknown event kind {kind!r}")
    said = found.fold(state, data)
    w = state.winner()
    if w and state.announced_winner != w:
        state.announced_winner = w
        tr = state.turn_rules
        said.append(_("{side} wins").format(side=side_name(w)) + f" ({tr.cite(tr.cite_tie_break if state.won_on_points() else tr.cite_victory)})")
    return said


# --- what may happen next ------------------------------------------------------------------


def check(state: GameState, kind: str, data: Data) -> list[Reason]:
    """Why this command is refused now (empty: allowed). Unknown or fallen figures raise."""
    found = EVENT_KINDS.get(kind)
    if found is None:  # refused when applied (:func:`apply`); the figures it names are still looked up
        state.named(data)
        return []
    return found.check(state, data)


# --- words for the log ------------------------------------------------------------------------


def describe_setup(pos: Position) -> str:
    figures = ", ".join(_("{figure} ({side}) at {at}").format(figure=f.id, side=side_name(f.side), at=f.at.name) for f in pos.figures)
    return _("{edition}, {cols} x {rows}, figures {figures}").format(edition=pos.edition.value, cols=pos.map.cols, rows=pos.map.rows, figures=figures)


def describe(state: GameState, e: Event) -> str:
    found = EVENT_KINDS.get(e.kind)
    return found.describe(state, e.data) if found is not None else e.kind
