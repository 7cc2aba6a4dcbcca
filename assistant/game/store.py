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
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from ..errors import AssistantError

FORMAT = "tabletop-game/1"
SCHEMA_VERSION = 1
HOME_ENV = "TABLETOP_HOME"

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
        out: dict[str, Any] = {"seq": self.seq, "at": self.at, "kind": self.kind, **self.data}
        if self.override:
            out["override"] = self.override
        return out


def games_home() -> Path:
    env = os.environ.get(HOME_ENV)
    base = Path(env) if env else Path.home() / ".local" / "share" / "tabletop-assistant"
    return base


def current_game_path() -> Path | None:
    pointer = games_home() / "current"
    if pointer.is_file():
        text = pointer.read_text(encoding="utf-8").strip()
        return Path(text) if text else None
    return None


def set_current_game(path: Path) -> None:
    from ..yamlio import write_text_atomic

    home = games_home()
    home.mkdir(parents=True, exist_ok=True)
    write_text_atomic(home / "current", str(path.resolve()) + "\n")


def _check_readonly(path: Path) -> None:
    """Refuse a file that is not one of our games, without writing to it."""
    try:
        head = path.read_bytes()[:16]
    except OSError as exc:
        raise GameFileError(f"cannot read the game file {path}: {exc.strerror or exc}") from None
    if head != b"SQLite format 3\x00":
        raise GameFileError(f"{path} is not a game file (not an SQLite database); it was not modified")
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            ok = con.execute("PRAGMA quick_check").fetchone()[0]
            if ok != "ok":
                raise GameFileError(f"{path} is damaged (SQLite reports: {ok}); it was not modified")
            version = con.execute("PRAGMA user_version").fetchone()[0]
            tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if not {"meta", "events"} <= tables:
                raise GameFileError(f"{path} is an SQLite database but not a game of this program; it was not modified")
            fmt = con.execute("SELECT value FROM meta WHERE key='format'").fetchone()
            if not fmt or fmt[0] != FORMAT:
                raise GameFileError(f"{path} is not a {FORMAT} game (format {fmt[0] if fmt else 'missing'}); it was not modified")
            if version > SCHEMA_VERSION:
                raise GameFileError(f"{path} was written by a newer version (schema {version} > {SCHEMA_VERSION}); it was not modified")
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        raise GameFileError(f"{path} is damaged or not a game file ({exc}); it was not modified") from None


class GameStore:
    """An open game file."""

    def __init__(self, path: Path, con: sqlite3.Connection):
        self.path = path
        self.con = con

    # -- opening ---------------------------------------------------------------------

    @classmethod
    def create(cls, path: Path, rules: str, position_yaml: str) -> "GameStore":
        if path.exists():
            raise GameFileError(f"{path} already exists; choose another --game path or remove it")
        path.parent.mkdir(parents=True, exist_ok=True)
        con = cls._connect(path)
        try:
            with con:
                for version in sorted(MIGRATIONS):
                    for stmt in MIGRATIONS[version]:
                        con.execute(stmt)
                con.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                con.executemany("INSERT INTO meta(key, value) VALUES (?, ?)", [
                    ("format", FORMAT), ("rules", rules), ("created", _now()),
                ])
            store = cls(path, con)
            store.append("setup", {"position": position_yaml})
            return store
        except BaseException:
            con.close()
            try:
                path.unlink()
            except OSError:
                pass
            raise

    @classmethod
    def open(cls, path: Path) -> "GameStore":
        if not path.exists():
            raise GameFileError(f"no game at {path}: start one with 'python -m assistant game new --position FILE'")
        _check_readonly(path)
        con = cls._connect(path)
        store = cls(path, con)
        store._migrate()
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
        return dict(self.con.execute("SELECT key, value FROM meta"))

    def events(self, upto: int | None = None) -> list[Event]:
        q = "SELECT seq, at, kind, data, override FROM events"
        rows = self.con.execute(q + (" WHERE seq <= ?" if upto is not None else "") + " ORDER BY seq", (upto,) if upto is not None else ())
        return [Event(seq, at, kind, json.loads(data), override) for seq, at, kind, data, override in rows]

    def append(
        self, kind: str, data: dict[str, Any], override: str | None = None,
        check: Callable[[list[Event]], None] | None = None,
    ) -> Event:
        """Commit one event in its own transaction.

        ``check(events)`` runs inside the write lock on the events as they are now and may
        raise to refuse the command: then nothing is written. Holding the lock while checking
        makes two commands on one game at once safe (the second sees the first's event).
        """
        at = _now()
        payload = json.dumps(data, ensure_ascii=False, sort_keys=True)
        self.con.execute("BEGIN IMMEDIATE")
        try:
            if check is not None:
                check(self._read_events())
            cur = self.con.execute("INSERT INTO events(at, kind, data, override) VALUES (?, ?, ?, ?)", (at, kind, payload, override))
            self.con.execute("COMMIT")
        except BaseException:
            self.con.execute("ROLLBACK")
            raise
        return Event(int(cur.lastrowid), at, kind, data, override)

    def _read_events(self) -> list[Event]:
        rows = self.con.execute("SELECT seq, at, kind, data, override FROM events ORDER BY seq")
        return [Event(seq, at, kind, json.loads(data), override) for seq, at, kind, data, override in rows]


def undo_target(events: list[Event], seq: int | None) -> int:
    """The event an undo names: ``seq``, or the last event still in force. The setup, undos
    and events already undone cannot be undone."""
    undone = {e.data["seq"] for e in events if e.kind == "undo"}
    candidates = [e for e in events if e.kind not in ("setup", "undo") and e.seq not in undone]
    if seq is None:
        if not candidates:
            raise AssistantError("nothing to undo")
        return candidates[-1].seq
    if seq not in {e.seq for e in candidates}:
        raise AssistantError(f"event {seq} cannot be undone (it is the setup, an undo, already undone, or does not exist)")
    return seq


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
