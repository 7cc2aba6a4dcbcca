"""One running table: the game (or a bare position) that the web app and the shell serve.

It holds no state of its own: every read folds the SQLite log (cached by the log's last event
number and the file's modification time; after a change only the events appended since are
folded onto the fold kept, a whole fold after an undo), every write is one event through
:class:`~assistant.game.Game`, exactly as the CLI records it. A ``kill -9`` loses nothing and a
second process (the CLI, another server) sees the same game.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from rich.text import Text

from ..cardgame.log import CardGameLog
from ..cardgames import CARD_GAMES
from ..cards import CardLibrary, default_library
from ..commands import Session, load_all
from ..commands.context import refuse_empty_note
from ..commands.records import at_least_one, d20_roll
from ..commands.registry import find, from_json, short_text, verb_game, whole_number
from ..coords import parse_square
from ..errors import AssistantError
from ..game import Game
from ..game.actions import attack_event, entry_json, export_text, figure_rows, initiative_event, move_event, parse_save_rolls, record, status_info
from ..game.referee import plan_move, refused_this_turn, targets_this_turn
from ..game.state import copy_state, finish, fold_more, fold_raw
from ..game.store import LogKeeper, last_seq, log_marks, watched_version
from ..i18n import _, cited, current, n_
from ..limits import check_matrix
from ..model import Position
from ..overlay import Overlay, cover_overlay, sight_overlay, targets_overlay
from ..rules import engine
from ..svg import board_svg


class ReadOnlyError(AssistantError):
    """A change asked of a table served without a game (a bare position) or by a spectator."""


@dataclass(frozen=True)
class Snapshot:
    position: Position
    state: Any  # GameState | None
    version: int  # the log's last event number (0 for a bare position)
    #: the questions answered on this snapshot: an answer depends on nothing else (the snapshot
    #: is one state of the game in one language), and every phone at the table asks the same
    #: pair again after each change, when its open answer is recomputed
    answers: dict[tuple[str, ...], Any] = field(default_factory=dict, compare=False, repr=False)
    #: a log from before the hash chain, chained when first written: "WHEN UPTO" (the header's
    #: "chained"); the chain vouches for nothing done to the file before then
    chained: str | None = None


class Table:
    """The game at ``game`` (an SQLite game log) or the bare ``position``."""

    def __init__(self, game: Path | None = None, position: Position | None = None, library: Any = None):
        if (game is None) == (position is None):
            raise AssistantError(_("serve a game or a position, one of them"))
        self.game = game
        self._position = position
        self.library = library
        self._lock = threading.Lock()
        self._folding = threading.Lock()
        self._writing = threading.RLock()
        self._cache: dict[tuple[Any, Any, str], Snapshot] = {}
        #: per language: the fold before it was finished, the log's setup and last event folded
        #: (the next change folds only what was appended: :meth:`_fold`)
        self._raw: dict[str, tuple[Any, Any, Any]] = {}
        self._shown: dict[str, Position] = {}  # per language: the position of the last fold
        #: the reference photo's details, kept per (file's modification time, size, language)
        self._reference: tuple[tuple[int, int, str], dict[str, Any]] | None = None
        #: the game file's verified log kept while the table is served: a read or a write
        #: verifies the chain whole only after another connection wrote to the file
        self._keeper = LogKeeper()
        self.session = Session(game=game, position=position, cache=True, cards_library=library)

    # ------------------------------------------------------------------ reading

    def _open(self, readonly: bool) -> Any:
        assert self.game is not None
        g = Game.open(self.game, self.library, readonly=readonly)
        self._keeper.keep(g.store)
        return g

    def version(self) -> int:
        """The log's last event number: cheap, for clients polling for changes."""
        if self.game is None:
            return 0
        return last_seq(self.game)

    def snapshot(self) -> Snapshot:
        if self.game is None:
            assert self._position is not None
            with self._lock:  # one per language, for its answers (dropped when the library is read again)
                return self._cache.setdefault((0, 0, current()), Snapshot(self._position, None, 0))
        # the fold's texts are written in the reader's language: one cached fold per language; the
        # log's version from the kept log where there is one (it changes with any commit, an edit
        # of an old row by another program too: the next fold verifies the chain and names it)
        kept = self._keeper.key
        seen = watched_version(kept) if kept is not None else None
        key = (seen if seen is not None else self.version(), log_marks(self.game), current())
        with self._lock:
            if key in self._cache:
                return self._cache[key]
        # after a change every phone asks at once: the first folds the log, the others wait for it
        with self._folding:
            with self._lock:
                if key in self._cache:
                    return self._cache[key]
            st, version, chained = self._fold(key[2])
            snap = Snapshot(st.position, st, version, chained=chained)
            with self._lock:
                self._cache = {k: v for k, v in self._cache.items() if k[:2] == key[:2]}
                self._cache[key] = snap
        return snap

    def _fold(self, language: str) -> tuple[Any, int, str | None]:
        """The game's state now and the last event folded into it. The log only grows (an undo
        is appended too), so the fold kept from the last change goes on with the events
        appended since: a change costs its own events, not the setup's position parsed again
        and the whole log replayed. A whole fold when there is none kept, when the log is not
        the one kept (its setup or last event differs: another file put in its place) or when
        an undo came (it may cancel or void earlier events). Called under ``_folding``."""

        assert self.game is not None
        g = self._open(readonly=True)
        try:
            raw = None
            kept = self._raw.get(language)
            if kept is not None:
                base, setup, last = kept
                got = g.store.events_from(last.seq)
                head = [e for e in got if e.seq <= last.seq]
                new = [e for e in got if e.seq > last.seq]
                if head == ([setup] if setup.seq == last.seq else [setup, last]):
                    raw = fold_more(base, setup, new, str(g.path)) if new else base
                    last = new[-1] if new else last
            if raw is None:
                events = g.store.events()
                raw = fold_raw(events, self.library, path=str(g.path))
                setup, last = events[0], events[-1]
            chained = g.store.meta().get("chained")
        finally:
            g.close()
        self._raw[language] = (raw, setup, last)
        # the kept fold is never handed out: readers get their own finished copy
        st = finish(copy_state(raw))
        # with a figure fallen, finishing makes a new position (the fallen named in it) at every
        # change: the one shown before is kept while the board is the same, and with it the
        # lines of sight it has worked out (the same pair asked after a note costs nothing)
        shown = self._shown.get(language)
        if shown is not None and _same_board(shown, st.position):
            st.position = shown
        self._shown[language] = st.position
        return st, last.seq, chained

    def status(self) -> dict[str, Any]:
        snap = self.snapshot()

        if snap.state is None:
            pos = snap.position
            return {"query": "status", "rules": pos.edition.value, "game": None, "version": 0, "round": 0, "phase": None,
                    "figures": figure_rows(pos)}
        # "chained_since": a log written before the hash chain says from when the chain vouches for it
        when, _sep, upto = (snap.chained or "").partition(" ")
        since = {"at": when, "upto": int(upto) if upto.isdigit() else None} if snap.chained else None
        return {**status_info(snap.state), "game": str(self.game), "version": snap.version, "chained_since": since}

    def reference(self) -> dict[str, Any] | None:
        """The empty map's reference photo the game keeps ('photo reference', or sent from a
        phone): which photo, when taken, its map's size; None when there is none. A reference
        that cannot be used (damaged, another map's size) is named with why, as a photo would
        be refused with it. Read once per version of the file (every phone asks at each change)."""
        from ..photo.reference import check_size, load_reference, reference_path  # start-up time: OpenCV only when asked

        if self.game is None:
            return None
        path = reference_path(self.game)
        try:
            st = path.stat()
        except OSError:
            return None
        key = (st.st_mtime_ns, st.st_size, current())
        kept = self._reference
        if kept is not None and kept[0] == key:
            return kept[1]
        info: dict[str, Any] = {"file": path.name}
        try:
            ref = load_reference(path, shown=path.name)
            info.update(name=ref.name, taken=ref.taken, cols=ref.cols, rows=ref.rows)
            pos = self.snapshot().position
            check_size(ref, pos.map.cols, pos.map.rows, path.name)
        except AssistantError as exc:
            info["error"] = str(exc)
        self._reference = (key, info)
        return info

    def events(self) -> list[dict[str, Any]]:
        snap = self.snapshot()
        if snap.state is None:
            return []

        return [entry_json(e) for e in snap.state.entries]

    # ------------------------------------------------------------------ questions

    def _moved(self, snap: Snapshot, figure: str) -> bool:
        return bool(snap.state is not None and snap.state.moved.get(figure, 0) > 0)

    def _ask(self, query: str, args: tuple[str, ...], compute: Callable[[Snapshot], Any]) -> Any:
        """A question's answer, computed once per snapshot (a refusal is not kept: it is raised
        again). Answers are shared: the edges only read them."""
        snap = self.snapshot()
        key = (query, *args)
        answer = snap.answers.get(key)
        if answer is None:
            answer = compute(snap)
            if len(snap.answers) < 4096:  # the matrix of a big board's pairs, and no more
                snap.answers[key] = answer
        return answer

    def targets(self, figure: str) -> list[dict[str, Any]]:
        from ..rules.attack import targets  # start-up time: the attack rules only when a verb attacks

        return list(self._ask("targets", (figure,), lambda snap: targets_this_turn(
            snap.state, figure, targets(snap.position, figure, moved=self._moved(snap, figure)))))

    def los(self, viewer: str, target: str) -> dict[str, Any]:
        return dict(self._ask("los", (viewer, target), lambda snap: engine.sight(snap.position, viewer, target).as_json()))

    def cover(self, attacker: str, target: str) -> dict[str, Any]:
        def compute(snap: Snapshot) -> dict[str, Any]:
            pos = snap.position
            return engine.cover(pos, attacker, target, engine.sight(pos, attacker, target)).as_json()
        return dict(self._ask("cover", (attacker, target), compute))

    def range(self, a: str, b: str) -> dict[str, Any]:
        return dict(self._ask("range", (a, b), lambda snap: engine.range_between(snap.position, a, b).as_json()))

    def attack(self, attacker: str, target: str) -> dict[str, Any]:
        from ..rules.attack import attack  # start-up time: the attack rules only when a verb attacks

        def answer(snap: Snapshot) -> dict[str, Any]:
            now = refused_this_turn(snap.state, attacker, target)
            return {**attack(snap.position, attacker, target, moved=self._moved(snap, attacker)).as_json(),
                    "refused_this_turn": [r.as_json() for r in now]}

        return dict(self._ask("attack", (attacker, target), answer))

    def matrix(self) -> dict[str, Any]:
        pos = self.snapshot().position
        check_matrix(pos)
        return {"query": "matrix", "rules": pos.edition.value, "pairs": engine.matrix(pos)}

    def board_svg(self, selected: str | None = None, target: str | None = None, move_to: str | None = None) -> str:
        """The board; with a selected figure its targets (green legal, red not); with a target
        too, the witness line and the cover fan; with a square, the move's path."""

        # a square or a target with no figure to go from, a move's square with a target, or a move's
        # path on a bare position drew the plain board as if nothing had been asked (R171)
        if selected is None and (target is not None or move_to is not None):
            raise AssistantError(_("the board draws {what} from a figure: give 'selected' too").format(
                what="'target'" if target is not None else "'to'"))
        if target is not None and move_to is not None:
            raise AssistantError(_("the board draws a target's line or a move's path, not both: give 'target' or 'to'"))
        snap = self.snapshot()
        if move_to is not None and snap.state is None:
            raise ReadOnlyError(_("this table serves a position file, not a game: a move's path is drawn in a game ('game new')"))
        pos = snap.position
        overlay: Overlay | None = None
        marks: dict[str, str] = {}
        if selected is not None:
            pos.figure(selected)
            if target is not None:
                s = engine.sight(pos, selected, target)
                overlay = cover_overlay(pos, engine.cover(pos, selected, target, s), s) if s.line_of_sight else sight_overlay(pos, s)
                if s.line_of_sight:
                    overlay.caption = ""
            elif move_to is not None:

                plan = plan_move(snap.state, selected, parse_square(move_to))
                for sq in getattr(plan.route, "path", None) or ():
                    marks[sq.name] = "#1e78dc"
            else:
                rows = self.targets(selected)
                overlay = targets_overlay(pos, selected, rows)
                overlay.caption = ""
                for r in rows:
                    t = pos.figure(r["target"])
                    for sq in t.space:
                        marks[sq.name] = "#28a028" if r.get("legal") and not r.get("refused_this_turn") else "#dc1e1e"
        name = pos.map.name or _("the board")
        return board_svg(pos, overlay, selected=selected, marks=marks, title=f"{name} ({pos.edition.value})")

    # ------------------------------------------------------------------ changes

    def _writable(self) -> None:
        if self.game is None:
            raise ReadOnlyError(_("this table serves a position file, not a game: start a game ('game new') to record turns"))

    def record(self, kind: str, data: dict[str, Any], override: str | None = None, notes: tuple[str, ...] = ()) -> dict[str, Any]:
        """One event, checked by the rules (unless overridden) and appended to the log."""

        self._writable()
        with self._writing:  # a batch (record_all) is not interleaved with another write of this server
            g = self._open(readonly=False)
            g.kept = self._raw.get(current())  # its check folds only what was appended since the last read
            ev, entry = record(g, kind, data, override)
        return {"event": ev.as_json(), "text": entry.text, "round": entry.round, "phase": entry.phase, "notes": list(notes)}

    def record_all(self, kind: str, datas: list[dict[str, Any]], since: int | None = None) -> list[dict[str, Any]]:
        """Several events of one kind (a photo's moves applied): all of them or none, checked and
        recorded in ONE write transaction (:meth:`~assistant.game.Game.do_all`): no other write,
        of this server or of the command line, lands between the checks and the record, and the
        log is read and folded once. ``since``: the version (last event number) they were worked
        out on; none is recorded when the log has changed since (reading R183)."""
        self._writable()

        def on_map(st: Any, data: dict[str, Any]) -> None:
            # a correction is not checked by the rules, but a square off the map would break the board
            moved = st.position.figure(str(data.get("figure"))) if isinstance(data.get("figure"), str) else None
            if moved is not None and not all(st.position.map.on_map(sq) for sq in moved.space):
                raise AssistantError(_("{figure} at {at}: off the {cols} x {rows} map").format(
                    figure=moved.id, at=data.get("at"), cols=st.position.map.cols, rows=st.position.map.rows))

        with self._writing:
            g = self._open(readonly=False)
            g.kept = self._raw.get(current())  # the checks fold only what was appended since the last read
            try:
                events = g.do_all(kind, datas, on_map, since)  # checked and recorded in one write transaction
                entries = {e.event.seq: e for e in g.state().entries}
            finally:
                g.close()
        return [{"event": ev.as_json(), "text": entries[ev.seq].text, "round": entries[ev.seq].round, "phase": entries[ev.seq].phase,
                 "notes": []} for ev in events]

    def find_request(self, rid: str) -> dict[str, Any] | None:
        """The events recorded for the web request ``rid`` (its X-Request-Id, kept in each event's
        data), as a repeat's answer; None when the log has none (or this is a bare position)."""
        if self.game is None:
            return None

        found = [e for e in self.snapshot().state.entries if e.event.data.get("request") == rid]
        if not found:
            return None
        return {"event": found[-1].event.as_json(), "text": found[-1].text, "events": [entry_json(e) for e in found], "repeat": True}

    def act(self, verb: str, args: dict[str, Any], override: str | None = None) -> dict[str, Any]:
        """A player's command by name, as the CLI's ``game`` verbs take it."""

        self._writable()
        takes = ACT_ARGS.get(verb)
        unknown = sorted(set(args) - set(takes or ()))
        if takes is not None and unknown:  # a misspelt or stray argument was ignored: "save" for "saves" recorded no save (R157)
            raise AssistantError(n_("unknown argument {names}: {verb} takes {known}", "unknown arguments {names}: {verb} takes {known}",
                                     len(unknown)).format(
                names=", ".join(repr(str(k)[:40]) for k in unknown[:5]), verb=verb, known=", ".join(takes) or "none"))
        snap = self.snapshot()
        st = snap.state

        def text(key: str) -> str:
            return short_text(key, args.get(key))

        if verb == "activate":
            return self.record("activate", {"figure": text("figure")}, override)
        if verb == "end-turn":
            return self.record("end-turn", {}, override)
        if verb == "move":
            data, notes = move_event(st, text("figure"), parse_square(text("to")))
            return self.record("move", data, override, notes)
        if verb == "attack":
            roll = d20_roll(whole_number("roll", args.get("roll")))
            data = attack_event(st, text("attacker"), text("target"), roll, override=override, after=_save_rolls(args))
            return self.record("attack", data, override)
        if verb == "initiative":
            rolls = args.get("rolls") or {}
            if not isinstance(rolls, dict):
                raise AssistantError(_("initiative: 'rolls' is {side: d20}"))
            given = {str(k): [whole_number("roll", v)] for k, v in rolls.items()}
            first, auto = args.get("first"), args.get("auto")
            if auto is not None and not isinstance(auto, bool):  # "auto": "no" was true (R157)
                raise AssistantError(_("'auto' is true or false"))
            if first is not None and not isinstance(first, str):
                raise AssistantError(_("'first' is the side that goes first, a text"))
            return self.record("initiative", initiative_event(st, given, bool(auto), first or None), override)
        if verb == "damage":
            amount = at_least_one("amount", whole_number("amount", args.get("amount")))
            return self.record("damage", {"figure": text("figure"), "amount": amount}, override)
        if verb == "note":  # refused as 'game note' refuses it: a note of a NUL or a bidi override alone shows nothing (R330, R965)
            said = text("text")
            refuse_empty_note(said)
            return self.record("note", {"text": said}, None)
        if verb == "undo":
            return self.undo(args.get("seq"))
        raise AssistantError(_("unknown command {verb!r}: activate, move, attack, end-turn, initiative, damage, note, undo").format(verb=verb))

    def run(self, name: str, body: dict[str, Any], lines: bool = False) -> dict[str, Any]:
        """Any registered verb by name, its arguments from a JSON object: the same JSON the
        command line prints with ``--json``, the same refusals. A bare position answers the
        questions only. ``lines``: add ``text_lines``, the text a person reads."""
        v = _verb(name, "miniatures")
        if v.library:  # the user's card library (cards set): a table serving a position keeps numbers too
            out = run_verb(self.session, name, body, lines)
            self._reload_library()
            return out
        if v.writes or (v.param("position") is None and not v.anywhere):  # a card looked up at a bare position too (R224)
            self._writable()
        if v.writes:
            with self._writing:
                return run_verb(self.session, name, body, lines)
        return run_verb(self.session, name, body, lines)

    def _reload_library(self) -> None:
        """Read the card library again (a number was kept with ``cards set``): the next question
        answers with it, on a game and on a bare position alike."""
        self.library = CardLibrary.load(list(self.library.files)) if self.library is not None and self.library.files else default_library()
        self.session.cards_library = self.library
        self.session._folds.clear()
        self.session._kept.clear()
        with self._folding, self._lock:
            self._cache.clear()
            self._raw.clear()
            self._shown.clear()
        if self._position is not None:
            cards = {k: self.library.lookup(c.game, c.name) or c for k, c in self._position.cards.items()}
            self._position = replace(self._position, cards=cards)
            self.session.position = self._position

    def undo(self, seq: Any = None) -> dict[str, Any]:
        self._writable()
        with self._writing:
            return self._undo(seq)

    def _undo(self, seq: Any) -> dict[str, Any]:
        g = self._open(readonly=False)
        try:
            ev = g.undo(None if seq in (None, "") else whole_number("seq", seq))
            st = g.state()
        finally:
            g.close()
        return {"event": ev.as_json(), "text": st.entries[-1].text}

    def export(self, fmt: str = "md") -> str:
        """The judge's export (``game export``): Markdown or JSON."""

        self._writable()
        if fmt not in ("md", "json"):
            raise AssistantError(_("unknown format {fmt!r}: json or md").format(fmt=fmt))
        g = self._open(readonly=True)
        try:
            return export_text(g.state(), g.store.meta(), fmt)
        finally:
            g.close()


def _same_board(a: Position, b: Position) -> bool:
    """The same position: its parts the very same objects (nothing folded since changed them)
    and the same fallen named."""
    return a.edition is b.edition and a.map is b.map and a.figures is b.figures and a.cards is b.cards and a.departed == b.departed


def _verb(name: str, game: str) -> Any:
    load_all()
    v = find(name, game)
    if v.local:
        raise ReadOnlyError(_("this command works on this computer's files: run it there, not over the web"))
    return v


def question_verb(name: str, game: str) -> Any:
    """``name``'s verb when it only answers (records nothing, keeps no number): what ``GET
    /api/ask/{verb}`` may ask, a spectator's link included (reading R232); any other is refused."""
    v = _verb(name, game)
    if v.writes or v.library:
        raise ReadOnlyError(_("{verb!r} records or keeps something: it is sent by POST from a player's page, not asked").format(verb=name))
    return v


def run_verb(session: Session, name: str, body: dict[str, Any], lines: bool = False, game: str = "miniatures") -> dict[str, Any]:
    """A verb over the web: its arguments read from JSON, its answer's JSON (with ``lines``, and
    ``text_lines``: the lines the command line prints, their markup taken off). ``game``: the
    table's kind of game, whose verbs an unknown name lists."""
    v = _verb(name, game)
    if verb_game(name) != game and not (v.anywhere or v.library):
        # refused here, before the verb opens the table's file: its refusal would name the
        # server's path to the game (a card table asked a miniatures question, or the reverse)
        if verb_game(name) == "miniatures":
            why = _("{verb!r} is a question of the miniatures games: this table plays {game} (its commands: GET /api/verbs)")
        elif game == "miniatures":
            why = _("{verb!r} is a command of {other}: this table plays a miniatures game (its commands: GET /api/verbs)")
        else:
            why = _("{verb!r} is a command of {other}: this table plays {game} (its commands: GET /api/verbs)")
        raise AssistantError(why.format(verb=name, other=verb_game(name), game=game))
    result = v(session, **from_json(v, body))
    if not lines:
        return result.json
    # a question answered by rows (targets, matrix) says each row: its lines alone were none, or the
    # rules' footer, and the page showed an empty answer (reading R332)
    rows = list(result.table.said()) if result.table is not None else []
    said = rows + (list(result.lines) if result.lines else (result.text or "").splitlines())
    return {**result.json, "text_lines": [cited(Text.from_markup(line).plain) for line in said]}  # readings named (R275)


#: what each of ``POST /api/act``'s commands takes in its "args" (anything else is refused, R157)
ACT_ARGS: dict[str, tuple[str, ...]] = {
    "activate": ("figure",), "end-turn": (), "move": ("figure", "to"), "attack": ("attacker", "target", "roll", "saves"),
    "initiative": ("rolls", "auto", "first"), "damage": ("figure", "amount"), "note": ("text",), "undo": ("seq",),
}


def _save_rolls(args: dict[str, Any]) -> dict[str, list[int | None]] | None:
    """``"saves": {"Parry": [12], "Shields": [11, 8], "Lightsaber Block": ["no"]}``: the saves between a hit and its damage."""

    given = args.get("saves")
    if given is None:
        return None
    if not isinstance(given, dict) or not all(isinstance(k, str) and isinstance(v, list) for k, v in given.items()):
        raise AssistantError(_("'saves' is an object of ability: [d20, ...]"))
    return parse_save_rolls(f"{k}={','.join(str(x) for x in v)}" for k, v in given.items())


class CardTable:
    """A Destiny or SW TCG game (no grid): the table now, the log, and plays in the games'
    notation, checked by the same engine as ``destiny do`` / ``swtcg do``."""

    def __init__(self, game: Path):
        self.game = game
        log = CardGameLog.open(game, CARD_GAMES)  # refuses a miniatures game or a damaged file, naming it
        self.kind = log.game
        log.close()
        #: the game as a player names it ("Star Wars: Destiny"): the page's heading said "destiny", the log's word
        self.title = CARD_GAMES[self.kind].title
        # the play the page shows as its example, in this game's own players' names (an SW TCG
        # table was shown Destiny's "A pass", and 'A' is no player there)
        examples = CARD_GAMES[self.kind].examples
        self.play_example = next((e for e in examples if e.endswith(" pass")), examples[0])
        self.session = Session(game=game, cache=True)
        self._lock = threading.Lock()
        #: the log verified, kept while the table is served (as :class:`Table` keeps it)
        self._keeper = LogKeeper()

    def run(self, name: str, body: dict[str, Any], lines: bool = False) -> dict[str, Any]:
        """Any registered verb by name (the questions refuse a card game, naming its commands)."""
        return run_verb(self.session, name, body, lines, self.kind)

    def _log(self) -> Any:
        log = CardGameLog.open(self.game, CARD_GAMES, self.kind)
        self._keeper.keep(log.store)
        return log

    def version(self) -> int:
        return last_seq(self.game)

    def status(self) -> dict[str, Any]:
        log = self._log()
        try:
            t = log.table()
        finally:
            log.close()
        return {"query": "status", "game": self.kind, "title": self.title, "version": self.version(), "lines": log.rules.describe(t),
                **log.rules.summary(t)}

    def events(self) -> list[dict[str, Any]]:
        log = self._log()
        try:
            _, entries = log.fold()
        finally:
            log.close()
        return [{"seq": e.event.seq, "command": e.command, "text": e.text, "said": list(e.said), "applied": e.applied,
                 "undone": e.undone, "override": e.event.override} for e in entries]

    def check(self, command: str) -> dict[str, Any]:
        log = self._log()
        try:
            ok, said = log.check(command)
        finally:
            log.close()
        return {"query": "check", "game": self.kind, "command": command, "legal": ok, "said": list(said)}

    def find_request(self, rid: str) -> dict[str, Any] | None:
        """The play recorded for the web request ``rid`` (its X-Request-Id, kept in the command's
        data), answered as :meth:`do` answers it, marked a repeat; None when the log has none."""
        log = self._log()
        try:
            # every write with a new id asks this: the rows are read (the chain checked), and the
            # plays folded only when one carries the id, a retry's rare case
            events = log.store.events()
            if not any(ev.data.get("request") == rid for ev in events):
                return None
            _table, entries = log.fold(events)
        finally:
            log.close()
        e = [x for x in entries if x.event.data.get("request") == rid][-1]
        return {"query": "do", "game": self.kind, "seq": e.event.seq, "command": e.event.data.get("command"), "applied": e.applied,
                "said": list(e.said), "override": e.event.override, "repeat": True}

    def do(self, command: str, override: str | None = None) -> dict[str, Any]:
        log = self._log()
        try:
            done = log.do(command, override)
        finally:
            log.close()
        return {"query": "do", "game": self.kind, "seq": done.event.seq, "command": command, "applied": done.applied,
                "said": list(done.said), "override": override}

    def undo(self, seq: int | None = None) -> dict[str, Any]:
        log = self._log()
        try:
            ev = log.undo(seq)
        finally:
            log.close()
        return {"seq": ev.seq, "undid": ev.data["seq"]}

    def export(self, fmt: str = "md") -> str:
        if fmt not in ("md", "json"):
            raise AssistantError(_("unknown format {fmt!r}: md or json").format(fmt=fmt))
        log = self._log()
        try:
            return str(log.export(fmt))
        finally:
            log.close()
