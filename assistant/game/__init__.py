"""The game session: an SQLite log of events (:mod:`.store`) folded into a state (:mod:`.state`).

>>> import tempfile, pathlib
>>> from assistant.resources import example_path
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> g = Game.new(d / "g.sqlite", example_path("clone-wars-corridor").read_text())
>>> g.do("initiative", {"rolls": {"light": 14, "dark": 9}, "winner": "light", "first": "light"}).kind
'initiative'
>>> g.state().expected_side()
'light'
>>> g.refusals("activate", {"figure": "dooku"})[0].text
"it is light's activation: each player activates up to 2 characters per phase, alternating"
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..cards import CardLibrary, load_card_file
from ..errors import AssistantError
from ..fileread import read_limited
from ..i18n import _
from ..limits import check_query
from ..model import Position, card_key
from ..position import dump_position, parse_position
from ..resources import data_dir
from ..rules.engine import Reason
from ..rules.record import EDITIONS
from ..textsafe import says_something
from ..yamlio import MAX_FILE_BYTES
from . import events as _events  # noqa: F401  (files every kind of event before any log is folded)
from .state import GameState, Kept, apply, check, copy_state, finish, fold, fold_on
from .store import REQUEST_ID, Event, GameFileError, GameStore, undo_target


class RefusedError(AssistantError):
    """A command the rules refuse now; the message gives every reason and its rule."""

    def __init__(self, reasons: list[Reason]):
        self.reasons = reasons
        #: every reason with its rule, without the command line's way to override (the web page says its own, R173)
        self.why = text = "; ".join(f"{r.text} ({r.rule})" for r in reasons)

        super().__init__(_("refused: {why}. A judge may record it anyway with --override \"reason\"").format(why=text))


class ChangedSinceError(AssistantError):
    """Commands worked out on the log as it was at event ``since`` (a photo compared with the record
    then), which has changed since: nothing is recorded (reading R183)."""

    def __init__(self, since: int, now: int):
        self.since, self.now = since, now
        super().__init__(_("the game changed after the photo was read (it was compared with the log up to event #{since}, the log "
                           "is now at #{now}): nothing was applied; send the photo again").format(since=since, now=now))




class Game:
    def __init__(self, store: GameStore, library: CardLibrary | None = None):
        self.store = store
        self.library = library
        #: a fold of this log that a caller kept (the live table's, in the reader's language):
        #: the checks and :meth:`state` go on from it, folding only the events appended since
        self.kept: Kept | None = None

    @classmethod
    def new(cls, path: Path, position_yaml: str, library: CardLibrary | None = None, override: str | None = None) -> Game:
        """Start a game; squads that break the edition's building rules are refused unless
        overridden with a reason (recorded with the setup)."""
        from .squads import check_squads  # start-up time: the squad rules (and the figure database) only when a squad is checked

        if override is not None and not says_something(override):
            raise AssistantError(_("an override needs a reason"))
        pos = parse_position(position_yaml, "position", library)  # refuse a bad position before creating anything

        check_query(pos, "a game")
        problems, _unchecked = check_squads(pos)
        if problems and not override:
            raise RefusedError(problems)
        store = GameStore.create(path, pos.edition.value, dump_position(pos), _kept_cards(pos, library))
        if override and problems:
            store.append("note", {"text": f"squad-building rules overridden: {'; '.join(p.text for p in problems)}"}, override=override)
        return cls(store, library)

    @classmethod
    def open(cls, path: Path, library: CardLibrary | None = None, readonly: bool = False) -> Game:
        store = GameStore.open_readonly(path) if readonly else GameStore.open(path)
        rules = store.meta().get("rules", "")
        if rules in ("destiny", "swtcg"):
            store.close()

            raise GameFileError(_("{path} is a {rules} game: use 'python -m assistant {rules} ...'").format(path=path, rules=rules))
        if rules not in EDITIONS:  # the registered editions' records (the message names the three there are)
            store.close()

            raise GameFileError(
                _("{path}: the game's rules {rules!r} are not swm2004, swm2008 or ddm2005 (a damaged or edited file)").format(path=path, rules=rules)
            )
        return cls(store, library)

    @property
    def path(self) -> Path:
        return self.store.path

    def events(self) -> list[Event]:
        return self.store.events()

    def state(self, upto: int | None = None) -> GameState:
        if upto is not None:
            return fold(self.store.events(), self.library, upto, str(self.path))
        return self._fold(self.store.events())

    def _fold(self, events: list[Event]) -> GameState:
        """The whole log folded (from :attr:`kept` when it fits), a state of the caller's own."""
        self.kept = fold_on(self.kept, events, self.library, str(self.path))
        return finish(copy_state(self.kept[0]))

    def refusals(self, kind: str, data: dict[str, Any]) -> list[Reason]:
        return check(self.state(), kind, data)

    def do(self, kind: str, data: dict[str, Any], override: str | None = None) -> Event:
        """Record a command. It is checked inside the write lock against the log as it is
        then; refused commands write nothing unless overridden with a reason."""
        rid = REQUEST_ID.get()
        if rid is not None:
            data = {**data, "request": rid}

        def guard(events: list[Event]) -> None:
            state = self._fold(events)
            reasons = check(state, kind, data)
            if reasons and not override:
                raise RefusedError(reasons)
            # the event must apply cleanly to the state (unknown figure, bad square, ...)
            from .state import apply

            state.override = override  # what the rules refuse stands only with one (R206)
            apply(state, kind, data)

        if override is not None and not says_something(override):
            raise AssistantError(_("an override needs a reason"))
        return self.store.append(kind, data, override=override, check=guard)

    def do_all(self, kind: str, datas: list[dict[str, Any]], each: Callable[[GameState, dict[str, Any]], None] | None = None,
               since: int | None = None) -> list[Event]:
        """Record several commands of one kind (a photo's moves applied) in ONE transaction: all
        checked in turn inside the write lock on the log as it is then, each on the state the
        ones before it made (``each(state, data)`` may refuse one more way), and all recorded or,
        one refused, none. The log is read and folded once, not once per command. ``since``: the
        log's last event number the commands were worked out on; a log that has changed since
        records none of them (:class:`ChangedSinceError`, reading R183)."""

        rid = REQUEST_ID.get()
        if rid is not None:
            datas = [{**data, "request": rid} for data in datas]

        def plan(events: list[Event]) -> list[tuple[str, dict[str, Any], str | None]]:
            last = events[-1].seq if events else 0
            if since is not None and last != since:
                raise ChangedSinceError(since, last)
            state = self._fold(events)
            for data in datas:
                reasons = check(state, kind, data)
                if reasons:
                    raise RefusedError(reasons)
                state.override = None
                apply(state, kind, data)
                if each is not None:
                    each(state, data)
            return [(kind, data, None) for data in datas]

        return self.store.append_all(plan)

    def undo(self, seq: int | None = None) -> Event:
        """Undo an event (or, naming an undo, bring back what it cancelled). Later events that
        no longer apply stay in the log, marked void with the reason (see :func:`voided`). The
        event undone is found inside the write lock: "the last one" is the last one then."""

        def plan(events: list[Event]) -> list[tuple[str, dict[str, Any], str | None]]:
            return [("undo", {"seq": undo_target(events, seq)}, None)]

        return self.store.append_all(plan)[0]

    def close(self) -> None:
        self.store.close()


def voided(before: GameState, after: GameState) -> list[tuple[int, str]]:
    """Events that applied before a change (an undo) and are void after it, with why."""
    was = {e.event.seq for e in before.entries if e.void}
    return [(e.event.seq, e.void) for e in after.entries if e.void and e.event.seq not in was]


def _kept_cards(pos: Position, library: CardLibrary | None) -> dict[str, Any] | None:
    """The user's card files (from --cards or $TABLETOP_CARDS) that define the figures' cards,
    kept in the game file so that later commands on it need no --cards."""
    if library is None or not pos.cards:
        return None

    shipped = data_dir("cards").resolve()
    used = set(pos.cards)  # by name and set (model.card_key)
    kept = []
    for file in library.files:
        p = Path(file)
        try:
            if p.resolve().is_relative_to(shipped):
                continue
            got, _ = load_card_file(p)
            if any(card_key(c.name, c.set) in used for c in got):
                kept.append({"file": p.name, "text": read_limited(p, MAX_FILE_BYTES).decode("utf-8")})
        except (OSError, UnicodeDecodeError, ValueError):
            continue
    return {"cards": kept} if kept else None
