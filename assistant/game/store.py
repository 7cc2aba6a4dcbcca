"""The game log: one SQLite file per game, append-only events, a versioned schema.

- Every change is one event row, committed in its own transaction (``BEGIN IMMEDIATE``), so
  a crash -- even ``kill -9`` mid-write -- loses at most the event being written, never a
  committed one (WAL journal, ``synchronous=FULL``).
- Nothing is ever deleted or rewritten: undo appends an ``undo`` event; the state is a fold
  of the events that are not undone.
- A file that is not a game of ours (or is damaged) is refused with a clear error before
  anything is written to it: it is first opened read-only and checked.
- Two commands on one game at once are serialised by SQLite's locking (``busy_timeout``).
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ..errors import AssistantError
from ..fileread import read_head
from ..i18n import _
from ..resources import user_data_dir

FORMAT = "tabletop-game/1"
SCHEMA_VERSION = 1

#: schema migrations: version -> statements that bring the previous version to it
MIGRATIONS: dict[int, list[str]] = {
    1: [
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        """CREATE TABLE events (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            at TEXT NOT NULL,
            kind TEXT NOT NULL,
            data TEXT NOT NULL,
            override TEXT
        )""",
    ],
}


class GameFileError(AssistantError):
    """A game file that cannot be used (missing, foreign, damaged, newer schema)."""


@dataclass(frozen=True)
class Event:
    seq: int
    at: str
    kind: str
    data: dict[str, Any]
    override: str | None = None

    def as_json(self) -> dict[str, Any]:
        data = dict(self.data)
        if self.kind == "undo" and "seq" in data:
            data["undoes"] = data.pop("seq")  # the event's own number is "seq"
        out: dict[str, Any] = {**data, "seq": self.seq, "at": self.at, "kind": self.kind}
        if self.override:
            out["override"] = self.override
        return out


#: the kinds of game that each have their own current game
GAME_KINDS = ("miniatures", "destiny", "swtcg")


def games_home() -> Path:
    """Where games and the current-game pointers live: the user's data folder
    (:func:`~..resources.user_data_dir`)."""
    return user_data_dir()


def game_kind(path: Path) -> str | None:
    """``miniatures``, ``destiny`` or ``swtcg`` for a game file; None if it cannot be read as one."""
    before = {p for p in _sidecars(path) if p.exists()}
    try:
        con = _ro_connect(path)
        try:
            row = con.execute("SELECT value FROM meta WHERE key = 'rules'").fetchone()
        finally:
            con.close()
    except sqlite3.Error:
        return None
    finally:  # a read-only look leaves no -wal or -shm file behind
        _remove_new_sidecars(path, before)
    if row is None:
        return None
    return str(row[0]) if str(row[0]) in ("destiny", "swtcg") else "miniatures"


def last_seq(path: Path) -> int:
    """The log's last event number: cheap (one indexed read), for edges polling for changes and
    for caches of the fold."""
    try:
        con = sqlite3.connect(f"file:{quote(str(path))}?mode=ro", uri=True, timeout=5)
        try:
            row = con.execute("SELECT MAX(seq) FROM events").fetchone()
        finally:
            con.close()
    except (sqlite3.Error, UnicodeDecodeError) as exc:  # a damaged schema's message may not be text
        raise AssistantError(_("{game}: cannot read the game log ({exc})").format(game=path, exc=exc)) from None
    return int(row[0] or 0)


def current_game_path(kind: str = "miniatures") -> Path | None:
    """The current game of one kind (each kind has its own, so a card game never hides the
    miniatures game in play). A pointer from before kinds had their own is honoured for its kind."""
    home = games_home()
    pointer = home / f"current-{kind}"
    if pointer.is_file():
        text = pointer.read_text(encoding="utf-8").strip()
        return Path(text) if text else None
    legacy = home / "current"
    if legacy.is_file():
        text = legacy.read_text(encoding="utf-8").strip()
        if text and game_kind(Path(text)) == kind:
            return Path(text)
    return None


def latest_current_game() -> Path | None:
    """The current game made current last, of whichever kind (what ``serve`` and ``shell`` open
    when no game is named)."""
    home = games_home()
    pointers = [p for p in (home / f"current-{k}" for k in GAME_KINDS) if p.is_file()]
    for p in sorted(pointers, key=lambda p: p.stat().st_mtime, reverse=True):
        text = p.read_text(encoding="utf-8").strip()
        if text:
            return Path(text)
    return current_game_path("miniatures")


def set_current_game(path: Path, kind: str = "miniatures") -> None:
    from ..yamlio import write_text_atomic

    home = games_home()
    home.mkdir(parents=True, exist_ok=True)
    write_text_atomic(home / f"current-{kind}", str(path.resolve()) + "\n")


def _sidecars(path: Path) -> list[Path]:
    if not path.name:
        return []
    return [path.with_name(path.name + suffix) for suffix in ("-wal", "-shm", "-journal")]


def _check_readonly(path: Path) -> None:
    """Refuse a file that is not one of our games, without writing to it.

    SQLite may create ``-wal``/``-shm`` files beside a database it only reads; the ones this
    check created are removed again, so a refused file leaves nothing behind.
    """
    before = {p for p in _sidecars(path) if p.exists()}
    try:
        _check_readonly_inner(path)
    except GameFileError:
        _remove_new_sidecars(path, before)
        raise


def _remove_new_sidecars(path: Path, before: set[Path]) -> None:
    for p in _sidecars(path):
        if p not in before:
            try:
                p.unlink()
            except OSError:
                pass


def _ro_connect(path: Path) -> sqlite3.Connection:
    """A read-only connection; on a read-only directory (no ``-shm`` can be made) the file is
    opened as immutable, which is safe because nobody can write there either."""
    uri = f"file:{quote(str(path))}?mode=ro"
    con = sqlite3.connect(uri, uri=True)
    try:
        con.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return con
    except UnicodeDecodeError:  # SQLite's message quotes a schema text that is no longer UTF-8 (a flipped byte)
        con.close()
        raise sqlite3.DatabaseError(_("malformed database schema (not UTF-8 text)")) from None
    except sqlite3.OperationalError:
        con.close()
        if os.access(path.parent, os.W_OK):
            raise
        return sqlite3.connect(f"file:{quote(str(path))}?immutable=1", uri=True)


def _check_readonly_inner(path: Path) -> None:
    if path.is_dir():
        raise GameFileError(_("{path} is a directory, not a game file").format(path=path))
    try:
        head = read_head(path, 16)  # a FIFO or a device is refused here, and a big file is not read whole
    except OSError as exc:
        raise GameFileError(_("cannot read the game file {path}: {why}").format(path=path, why=exc.strerror or exc)) from None
    if head != b"SQLite format 3\x00":
        raise GameFileError(_("{path} is not a game file (not an SQLite database); it was not modified").format(path=path))
    try:
        con = _ro_connect(path)
        try:
            ok = con.execute("PRAGMA quick_check").fetchone()[0]
            if ok != "ok":
                raise GameFileError(_("{path} is damaged (SQLite reports: {ok}); it was not modified").format(path=path, ok=ok))
            version = con.execute("PRAGMA user_version").fetchone()[0]
            tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if not {"meta", "events"} <= tables:
                raise GameFileError(_("{path} is an SQLite database but not a game of this program; it was not modified").format(path=path))
            cols = {r[1] for r in con.execute("PRAGMA table_info(events)")}
            if not {"seq", "at", "kind", "data", "override"} <= cols:
                raise GameFileError(
                    _("{path}: the events table lacks columns ({names}); it was not modified").format(
                        path=path, names=', '.join(sorted({'seq', 'at', 'kind', 'data', 'override'} - cols))
                    )
                )
            fmt = con.execute("SELECT value FROM meta WHERE key='format'").fetchone()
            if not fmt or fmt[0] != FORMAT:
                raise GameFileError(
                    _("{path} is not a {FORMAT} game (format {found}); it was not modified").format(
                        path=path, FORMAT=FORMAT, found=fmt[0] if fmt else 'missing'
                    )
                )
            if version > SCHEMA_VERSION:
                raise GameFileError(
                    _("{path} was written by a newer version (schema {version} > {SCHEMA_VERSION}); it was not modified").format(
                        path=path, version=version, SCHEMA_VERSION=SCHEMA_VERSION
                    )
                )
            if version < 1:
                raise GameFileError(
                    _("{path}: schema version {version} is not one this program writes (a damaged or edited file); it was not modified").format(
                        path=path, version=version
                    )
                )
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        raise GameFileError(_("{path} is damaged or not a game file ({exc}); it was not modified").format(path=path, exc=exc)) from None
    except UnicodeDecodeError:  # SQLite's message quotes a schema text that is no longer UTF-8 (a flipped byte)
        raise GameFileError(_("{path} is damaged (its schema is not readable text); it was not modified").format(path=path)) from None


def _write_error(path: Path, exc: BaseException) -> GameFileError:
    """A write that failed, in words: a read-only place, a full disk, a locked file."""
    text = str(exc)
    if isinstance(exc, OSError):
        text = exc.strerror or text
    low = text.lower()
    if "readonly" in low or "read-only" in low or "permission" in low or "unable to open" in low:
        why = "the file or its folder is read-only; it can be read (status, log, export, replay, snapshot) but not written"
    elif "full" in low or "no space" in low or "too large" in low:
        why = "the disk is full; nothing was written"
    elif "disk i/o" in low:
        why = "the disk is full or failing (SQLite: disk I/O error); nothing was written"
    elif "locked" in low or "busy" in low:
        why = "another program holds the game's write lock; try again"
    else:
        why = text
    return GameFileError(_("cannot write to the game {path}: {why}").format(path=path, why=why))


class GameStore:
    """An open game file."""

    def __init__(self, path: Path, con: sqlite3.Connection):
        self.path = path
        self.con = con
        self.readonly = False

    # -- opening ---------------------------------------------------------------------

    @classmethod
    def create(cls, path: Path, rules: str, position_yaml: str, extra: dict[str, Any] | None = None) -> GameStore:
        """A new game file, written whole beside ``path`` and moved into place, so that a full
        disk or a crash never leaves an empty or half-made game behind."""
        if path.exists():
            raise GameFileError(_("{path} already exists; choose another --game path or remove it").format(path=path))
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise GameFileError(_("cannot create a game at {path}: {why}").format(path=path, why=exc.strerror or exc)) from None
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        con: sqlite3.Connection | None = None
        try:
            con = sqlite3.connect(str(tmp), isolation_level=None)
            con.execute("PRAGMA journal_mode=DELETE")
            con.execute("BEGIN IMMEDIATE")
            for version in sorted(MIGRATIONS):
                for stmt in MIGRATIONS[version]:
                    con.execute(stmt)
            con.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            con.executemany(
                "INSERT INTO meta(key, value) VALUES (?, ?)",
                [
                    ("format", FORMAT),
                    ("rules", rules),
                    ("created", _now()),
                ],
            )
            payload = json.dumps({"position": position_yaml, **(extra or {})}, ensure_ascii=False, sort_keys=True)
            con.execute("INSERT INTO events(at, kind, data, override) VALUES (?, 'setup', ?, NULL)", (_now(), payload))
            con.execute("COMMIT")
            con.close()
            con = None
            os.replace(tmp, path)
        except (sqlite3.Error, OSError) as exc:
            raise _write_error(path, exc) from None
        finally:
            if con is not None:
                con.close()
            for p in [tmp, *_sidecars(tmp)]:
                try:
                    p.unlink()
                except OSError:
                    pass
        return cls.open(path)

    @classmethod
    def open_readonly(cls, path: Path) -> GameStore:
        """Open for reading only: works on a read-only folder or file, writes nothing."""
        if not path.exists():
            raise GameFileError(_("no game at {path}: start one with 'python -m assistant game new --position FILE'").format(path=path))
        _check_readonly(path)
        store = cls(path, _ro_connect(path))
        store.readonly = True
        return store

    @classmethod
    def open(cls, path: Path) -> GameStore:
        if not path.exists():
            raise GameFileError(_("no game at {path}: start one with 'python -m assistant game new --position FILE'").format(path=path))
        _check_readonly(path)
        if not os.access(path, os.W_OK) or not os.access(path.parent, os.W_OK):
            return cls.open_readonly(path)
        try:
            con = cls._connect(path)
            store = cls(path, con)
            store._migrate()
        except sqlite3.Error as exc:
            raise _write_error(path, exc) from None
        return store

    @staticmethod
    def _connect(path: Path) -> sqlite3.Connection:
        con = sqlite3.connect(str(path), timeout=10.0, isolation_level=None)
        con.execute("PRAGMA journal_mode=WAL")
        con.execute("PRAGMA synchronous=FULL")
        con.execute("PRAGMA busy_timeout=10000")
        return con

    def _migrate(self) -> None:
        version = self.con.execute("PRAGMA user_version").fetchone()[0]
        if version == SCHEMA_VERSION:
            return
        self.con.execute("BEGIN IMMEDIATE")
        try:
            for v in range(version + 1, SCHEMA_VERSION + 1):
                for stmt in MIGRATIONS[v]:
                    self.con.execute(stmt)
            self.con.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            self.con.execute("COMMIT")
        except BaseException:
            self.con.execute("ROLLBACK")
            raise

    def close(self) -> None:
        self.con.close()

    # -- reading and writing ---------------------------------------------------------

    def meta(self) -> dict[str, str]:
        try:
            return {str(k): str(v) for k, v in self.con.execute("SELECT key, value FROM meta")}
        except sqlite3.DatabaseError as exc:
            raise GameFileError(_("{path}: the meta table cannot be read ({exc})").format(path=self.path, exc=exc)) from None

    def events(self, upto: int | None = None) -> list[Event]:
        q = "SELECT seq, at, kind, data, override FROM events"
        try:
            rows = self.con.execute(q + (" WHERE seq <= ?" if upto is not None else "") + " ORDER BY seq", (upto,) if upto is not None else ()).fetchall()
        except sqlite3.DatabaseError as exc:
            raise GameFileError(_("{path}: the events cannot be read ({exc}); the file was not modified").format(path=self.path, exc=exc)) from None
        return [_decode(self.path, row) for row in rows]

    def events_from(self, seq: int) -> list[Event]:
        """The setup event (the first) and the events from ``seq`` on: what a reader that
        folded the log up to ``seq`` needs to check that it is still the same log and to go on."""
        q = "SELECT seq, at, kind, data, override FROM events WHERE seq = (SELECT MIN(seq) FROM events) OR seq >= ? ORDER BY seq"
        try:
            rows = self.con.execute(q, (seq,)).fetchall()
        except sqlite3.DatabaseError as exc:
            raise GameFileError(_("{path}: the events cannot be read ({exc}); the file was not modified").format(path=self.path, exc=exc)) from None
        return [_decode(self.path, row) for row in rows]

    def append(
        self,
        kind: str,
        data: dict[str, Any],
        override: str | None = None,
        check: Callable[[list[Event]], None] | None = None,
    ) -> Event:
        """Commit one event in its own transaction.

        ``check(events)`` runs inside the write lock on the events as they are now and may
        raise to refuse the command: then nothing is written. Holding the lock while checking
        makes two commands on one game at once safe (the second sees the first's event).
        """
        if self.readonly:
            raise _write_error(self.path, PermissionError(13, "read-only"))
        at = _now()
        payload = json.dumps(data, ensure_ascii=False, sort_keys=True)
        try:
            self.con.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise _write_error(self.path, exc) from None
        try:
            if check is not None:
                check(self._read_events())
            cur = self.con.execute("INSERT INTO events(at, kind, data, override) VALUES (?, ?, ?, ?)", (at, kind, payload, override))
            self.con.execute("COMMIT")
        except sqlite3.Error as exc:
            try:
                self.con.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            raise _write_error(self.path, exc) from None
        except BaseException:
            try:
                self.con.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            raise
        return Event(int(cur.lastrowid or 0), at, kind, data, override)

    def _read_events(self) -> list[Event]:
        return self.events()


def _decode(path: Path, row: tuple[Any, ...]) -> Event:
    """One event row, or a :class:`GameFileError` naming the event that cannot be read."""
    seq, at, kind, data, override = row
    try:
        obj = json.loads(data) if isinstance(data, (str, bytes)) else None
    except (ValueError, RecursionError):
        obj = None
    if not isinstance(seq, int) or not isinstance(kind, str) or not isinstance(obj, dict):
        raise GameFileError(_("{path}: event #{seq} cannot be read (its data is not a JSON object); the file was not modified").format(path=path, seq=seq))
    try:
        json.dumps(obj, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise GameFileError(
            _("{path}: event #{seq} holds half a character (a lone \\uD800-\\uDFFF escape); the log was edited").format(path=path, seq=seq)
        ) from None
    if override is not None and not isinstance(override, str):
        override = str(override)
    return Event(seq, str(at), kind, obj, override)


#: what each kind of event must hold: key -> type (a tuple of types: any of them)
Shape = dict[str, Any]


def check_shapes(path: Path | str, events: list[Event], shapes: dict[str, Shape]) -> None:
    """Refuse a log whose rows were edited into something no command writes, naming the event:
    the first event is the one setup, every kind is known, every event has its keys with the
    right types, and an undo names an earlier event. A log is refused whole, never half-folded."""
    if not events or events[0].kind != "setup":
        raise GameFileError(_("{path}: the log does not start with its setup event (a damaged or edited log); it was not modified").format(path=path))
    last = 0
    for e in events:
        where = _("{path}: event #{seq}").format(path=path, seq=e.seq)
        if e.seq <= last:
            raise GameFileError(_("{where} is out of order (after #{last}); the log was edited").format(where=where, last=last))
        last = e.seq
        if e.kind == "setup" and e is not events[0]:
            raise GameFileError(_("{where} is a second setup; the log was edited").format(where=where))
        shape = shapes.get(e.kind)
        if shape is None:
            raise GameFileError(_("{where} has an unknown kind {kind!r} (a damaged log, or one written by another program)").format(where=where, kind=e.kind))
        for key, types in shape.items():
            optional = key.endswith("?")
            k = key.rstrip("?")
            if k not in e.data:
                if optional:
                    continue
                raise GameFileError(_("{where} ({kind}) lacks its {k!r}; the log was edited").format(where=where, kind=e.kind, k=k))
            v = e.data[k]
            ok = isinstance(v, types) and not (isinstance(v, bool) and bool not in (types if isinstance(types, tuple) else (types,)))
            if not ok:
                raise GameFileError(
                    _("{where} ({kind}): {k!r} is {type_} {v!r}; the log was edited").format(
                        where=where, kind=e.kind, k=k, type_=type(v).__name__, v=str(v)[:40]
                    )
                )
        if e.kind == "undo" and not 0 < e.data["seq"] < e.seq:
            raise GameFileError(
                _("{where} undoes event #{undone}, which is not an earlier event; the log was edited").format(where=where, undone=e.data['seq'])
            )


def undone_seqs(events: list[Event], upto: int | None = None) -> set[int]:
    """The events an undo cancels, counting only undos made by event ``upto``.

    An undo may itself be undone (that restores the event it cancelled), so the log is read
    backwards: an undo counts only if no later undo that counts names it.
    """
    undos = [e for e in events if e.kind == "undo" and (upto is None or e.seq <= upto)]
    cancelled: set[int] = set()
    for u in reversed(undos):
        if u.seq in cancelled:
            continue
        target = u.data.get("seq")
        if isinstance(target, int):
            cancelled.add(target)
    return cancelled


def undo_target(events: list[Event], seq: int | None) -> int:
    """The event an undo names: ``seq``, or the last event still in force that is not an undo.

    Naming an undo that is in force undoes the undo (the event it cancelled is back). The setup
    and events already undone cannot be undone.
    """
    undone = undone_seqs(events)
    in_force = [e for e in events if e.kind != "setup" and e.seq not in undone]
    if seq is None:
        plain = [e for e in in_force if e.kind != "undo"]
        if not plain:
            raise AssistantError(_("nothing to undo"))
        return plain[-1].seq
    if seq not in {e.seq for e in in_force}:
        last = events[-1].seq if events else 0
        why = (
            "the setup cannot be undone"
            if any(e.seq == seq and e.kind == "setup" for e in events)
            else "it is already undone"
            if seq in undone
            else f"there is no event #{seq} (the log has events #1 to #{last})"
        )
        raise AssistantError(_("event {seq} cannot be undone: {why}").format(seq=seq, why=why))
    return seq


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
