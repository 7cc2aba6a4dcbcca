"""The game log: one SQLite file per game, append-only events, a versioned schema.

- Every change is one event row, committed in its own transaction (``BEGIN IMMEDIATE``), so
  a crash -- even ``kill -9`` mid-write -- loses at most the event being written, never a
  committed one (WAL journal, ``synchronous=FULL``).
- Nothing is ever deleted or rewritten: undo appends an ``undo`` event; the state is a fold
  of the events that are not undone.
- A file that is not a game of ours (or is damaged) is refused with a clear error before
  anything is written to it: it is first opened read-only and checked.
- Two commands on one game at once are serialised by SQLite's locking (``busy_timeout``).
- The log proves itself: each event row carries a SHA-256 over its content and the previous
  row's hash (the first row's "previous" is the game's header: format, rules, created), so an
  edit, a deleted or an inserted row is found by :func:`chain_report`, naming the first event
  that does not match; every read of the log runs that check. A log written before the chain
  gets it when first opened for writing (schema 2), from then on.
"""

from __future__ import annotations

import errno
import hashlib
import json
import logging
import os
import shutil
import sqlite3
import threading
import weakref
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ..errors import AssistantError, CommandLineWordsError
from ..fileread import SQLITE_HEADER, file_marks, read_head
from ..i18n import N_, _
from ..resources import user_data_dir
from ..yamlio import write_text_atomic

FORMAT = "tabletop-game/1"
SCHEMA_VERSION = 2

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
    # the hash chain: each row's SHA-256 over its content and the previous row's hash; the rows
    # of a log from version 1 are chained when it is migrated (GameStore._chain_existing)
    2: ["ALTER TABLE events ADD COLUMN hash TEXT"],
}


class GameFileError(AssistantError):
    """A game file that cannot be used (missing, foreign, damaged, newer schema)."""


class ReadOnlyGameError(GameFileError, CommandLineWordsError):
    """A game file that cannot be written where it lies (the file, its folder or its disk is
    read-only): its reads still answer. ``page`` says it for the live table's phones, without the
    command line's verbs or the path on the table's computer (R347)."""


@dataclass(frozen=True)
class Event:
    seq: int
    at: str
    kind: str
    data: dict[str, Any]
    override: str | None = None
    hash: str | None = None  # the chain's link (:func:`link`); None in a row nobody chained

    def as_json(self) -> dict[str, Any]:
        data = dict(self.data)
        if self.kind == "undo" and "seq" in data:
            data["undoes"] = data.pop("seq")  # the event's own number is "seq"
        out: dict[str, Any] = {**data, "seq": self.seq, "at": self.at, "kind": self.kind}
        if self.override:
            out["override"] = self.override
        return out


# --- the hash chain -----------------------------------------------------------------------

#: the header fields the chain starts from: an edit to the game's rules or start is an edit
GENESIS_KEYS = ("format", "rules", "created")


def _canonical(obj: Any) -> bytes:
    """One encoding for one content: keys sorted, no spaces, ASCII only (a lone surrogate is
    an escape, not an encoding error)."""
    return json.dumps(obj, ensure_ascii=True, sort_keys=True, separators=(",", ":")).encode("ascii")


def genesis(meta: Mapping[str, str]) -> str:
    """The chain's start: the hash of the game's header (what the set-up row links to).

    >>> genesis({"format": "tabletop-game/1", "rules": "swm2008", "created": "2026-01-01T00:00:00+00:00"})[:12]
    '381a4ac1be12'
    """
    return hashlib.sha256(_canonical({k: meta.get(k) for k in GENESIS_KEYS})).hexdigest()


def link(prev: str, seq: int, at: str, kind: str, data: Mapping[str, Any], override: str | None) -> str:
    """An event row's hash: SHA-256 over the previous row's hash and every field of the row (its
    number, time, kind, data as canonical JSON, override reason)."""
    row = {"prev": prev, "seq": seq, "at": at, "kind": kind, "data": data, "override": override}
    return hashlib.sha256(_canonical(row)).hexdigest()


def _link_of(prev: str, e: Event, seq: int | None = None) -> str:
    try:
        return link(prev, e.seq if seq is None else seq, e.at, e.kind, e.data, e.override)
    except (RecursionError, ValueError, TypeError):  # data nested past what JSON writes: no hash matches it
        return ""


@dataclass(frozen=True)
class ChainReport:
    """What :func:`chain_report` found: the head (the last event's hash) and its event number,
    or the first event that does not match (``bad_seq``) and what is wrong with it."""

    head: str
    seq: int
    events: int
    problem: str | None = None
    bad_seq: int | None = None
    since: str | None = None  # a log chained when migrated: "WHEN UPTO" (the header's "chained")
    stored: bool = True  # False: a log from before the chain, read-only, chained in memory now


@dataclass(frozen=True)
class Chain:
    """A verified log: its report and every event's hash in order (to find an exported head)."""

    report: ChainReport
    hashes: tuple[tuple[int, str], ...]

    def find(self, head: str) -> int | None:
        """The event whose hash is ``head`` (or starts with it: at least 16 hex digits)."""
        h = head.strip().lower()
        if len(h) < 16:
            return None
        hits = [seq for seq, x in self.hashes if x == h or x.startswith(h)]
        return hits[0] if len(hits) == 1 else None


def chain_report(path: Path | str, meta: Mapping[str, str], events: list[Event], seq_ever: int = 0) -> Chain:
    """Check the chain of ``events`` (every row of the log, in order) against the header
    ``meta``; ``seq_ever`` is the highest event number the file ever gave (SQLite's
    AUTOINCREMENT counter), which finds rows deleted from the end. The first event that does
    not match is named with what is wrong: its content changed, a row deleted or inserted
    before it, the set-up or the header edited."""
    start = genesis(meta)
    hashes: list[tuple[int, str]] = []
    since = meta.get("chained")

    def bad(e: Event | None, why: str) -> Chain:
        seq = e.seq if e is not None else 0
        if e is not None:
            what = _("{path}: event #{seq} ({kind}) {why}").format(path=path, seq=seq, kind=e.kind, why=why)
        else:
            what = _("{path}: {why}").format(path=path, why=why)
        head = hashes[-1][1] if hashes else start
        return Chain(ChainReport(head, hashes[-1][0] if hashes else 0, len(hashes), what, seq, since), tuple(hashes))

    stored = meta.get("genesis")
    if stored is None:
        return bad(events[0] if events else None, _("the header has no chain start (genesis): the chain was removed"))
    if stored != start:
        return bad(events[0] if events else None,
                   _("the set-up was edited: the game's header (format, rules or start time) is not the one the chain starts from"))
    prev, last = start, 0
    for i, e in enumerate(events):
        if e.hash is None:
            return bad(e, _("has no hash: a row added to the file by hand (forged)"))
        # a gap in the numbers is a deleted row only where the link breaks: a log from before the
        # chain may have had one when it was chained (then the link over it holds)
        if _link_of(prev, e) != e.hash:
            nxt = events[i + 1] if i + 1 < len(events) else None
            if e.seq <= last:
                why = _("is out of order (after #{last}): rows were moved").format(last=last)
            elif e.seq != last + 1:
                gap = f"#{last + 1}" if e.seq == last + 2 else f"#{last + 1} to #{e.seq - 1}"
                why = _("follows a gap: event {gap} was deleted from the file").format(gap=gap)
            elif i == 0:
                why = _("is the set-up, and it was edited: its content does not match its hash")
            elif i >= 2 and e.hash == _link_of(hashes[-2][1], e, e.seq - 1):
                return bad(events[i - 1], _("was inserted by hand (a forged row; the events after it were renumbered)"))
            elif nxt is not None and nxt.hash == _link_of(prev, nxt, nxt.seq - 1):
                why = _("was inserted by hand (a forged row; the events after it were renumbered)")
            elif nxt is None and any(e.hash == h for _seq, h in hashes):
                why = _("does not match its hash, which is an earlier event's: a row added to the file by hand (forged)")
            elif nxt is None or nxt.hash == _link_of(e.hash, nxt):
                why = _("was changed after it was recorded: its content (data, time, kind or override) does not match its hash")
            else:
                why = _("does not match its hash, nor do the rows after it: rows were changed, deleted, inserted or renumbered from here")
            return bad(e, why)
        prev, last = e.hash, e.seq
        hashes.append((e.seq, e.hash))
    if seq_ever > last:
        gap = f"#{last + 1}" if seq_ever == last + 1 else f"#{last + 1} to #{seq_ever}"
        return bad(None, _("event {gap} was deleted from the end of the log (the file numbered it)").format(gap=gap))
    return Chain(ChainReport(prev, last, len(hashes), None, None, since), tuple(hashes))


def chained(meta: Mapping[str, str], events: list[Event]) -> list[Event]:
    """The events of a log written before the chain, chained now (in memory, or to store when
    the log is migrated)."""
    prev, out = genesis(meta), []
    for e in events:
        prev = _link_of(prev, e)
        out.append(replace(e, hash=prev))
    return out


def export_chain(last: Event, program: str) -> tuple[dict[str, Any], list[str]]:
    """What an export carries of the chain: its head (the last event's hash) as JSON and as
    Markdown lines; ``program`` is the command that verifies it (``game``, ``destiny``, ...)."""
    head = last.hash or ""
    text = _("- Chain head after event #{seq}: `{head}` (SHA-256). '{program} verify --head {head}' shows that a later copy "
             "of this game still holds these events unchanged.").format(seq=last.seq, head=head, program=program)
    return {"head": head, "seq": last.seq, "hash": "sha256"}, ["", _("## Integrity"), "", text]


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
    except (sqlite3.Error, GameFileError):  # an orphan -wal where nothing can be written: opening it says so
        return None
    finally:  # a read-only look leaves no -wal or -shm file behind
        _remove_new_sidecars(path, before)
    if row is None:
        return None
    return str(row[0]) if str(row[0]) in ("destiny", "swtcg") else "miniatures"


def log_marks(path: Path) -> tuple[tuple[int, int], ...]:
    """The game file's and its ``-wal``'s (modification time, size), for caches of the fold keyed
    with :func:`last_seq`: while a connection of ours holds the file (a kept log), a commit by
    another program lands in the ``-wal`` and leaves the main file and the last event number as
    they were (an edit of an old row), so a key of the main file alone would hide the edit."""
    return tuple(file_marks(p) or (-1, -1) for p in (path, path.with_name(path.name + "-wal")))


def last_seq(path: Path) -> int:
    """The log's last event number: cheap (one indexed read), for edges polling for changes and
    for caches of the fold."""
    try:
        con = _game_connect(path, f"file:{quote(str(path))}?mode=ro", uri=True, timeout=5)
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
    """Remove the ``-wal``, ``-shm`` and ``-journal`` files that a look at ``path`` made (not in
    ``before``) -- unless another process has the game open: its connection made them in the
    meantime, and they are its log. Removed, a served table's notes committed into its ``-wal`` were
    lost and its next writes refused as "damaged (disk I/O error)", while ``game note`` and
    ``game log`` ran beside two servers (bench/hostile_table.py, reading R374). A ``-wal`` that
    holds frames is never removed either: they may be events no checkpoint has copied yet.

    The files are removed while this process holds the lock no connection can be opened beside
    (:func:`_no_connection_lock`), so that none opens them between the question and the removal
    (reading R399: a connection that had opened the empty ``-wal`` just after the question wrote its
    notes into the removed file)."""
    made = [p for p in _sidecars(path) if p not in before and p.exists()]
    if not made:
        return
    with _OPEN_HERE_LOCK:  # no thread of this process opens the game meanwhile
        # a connection of this process on the game: its files (POSIX locks are the process's, so
        # the lock below would not see it, and closing the lock's descriptor would drop its locks)
        if _OPEN_HERE.get(os.path.realpath(path)):
            return
        held = _no_connection_lock(path)
        if held is None:
            return
        try:
            for p in made:
                try:
                    if p.name.endswith("-wal") and p.stat().st_size > 0:
                        continue
                    p.unlink()
                except OSError:
                    pass
        finally:
            os.close(held)


#: the game files this process has connections on (or is opening one on), by real path, and how
#: many: a look removes no sidecar of a game another thread of this process has open (R399)
_OPEN_HERE: dict[str, int] = {}
_OPEN_HERE_LOCK = threading.Lock()


class _CountedConnection(sqlite3.Connection):
    """A connection on a game file, counted in :data:`_OPEN_HERE` from before it opens until it
    is closed (or collected unclosed)."""

    _here: str | None = None

    def close(self) -> None:
        try:
            super().close()
        finally:
            self._uncount()

    def _uncount(self) -> None:
        key, self._here = self._here, None
        if key is not None:
            _uncount(key)

    def __del__(self) -> None:
        try:
            self._uncount()
        except Exception:  # at the interpreter's exit the module's lock may be gone: nothing left to count
            pass


def _game_connect(path: Path, target: str, **options: Any) -> sqlite3.Connection:
    """``sqlite3.connect(target, **options)`` on the game file ``path``, counted in
    :data:`_OPEN_HERE` before it opens, so that no look of another thread removes its files."""
    key = os.path.realpath(path)
    with _OPEN_HERE_LOCK:
        _OPEN_HERE[key] = _OPEN_HERE.get(key, 0) + 1
    try:
        con = sqlite3.connect(target, factory=_CountedConnection, **options)
    except BaseException:
        _uncount(key)
        raise
    if isinstance(con, _CountedConnection):
        con._here = key
    else:  # a stand-in for sqlite3.connect (the tests' failing disks): nothing to count
        _uncount(key)
    return con


def _uncount(key: str) -> None:
    with _OPEN_HERE_LOCK:
        left = _OPEN_HERE.get(key, 0) - 1
        if left > 0:
            _OPEN_HERE[key] = left
        else:
            _OPEN_HERE.pop(key, None)


#: SQLite's unix VFS: the bytes of the database file that every open connection of a WAL game
#: holds a read lock on while it lives (its SHARED lock: PENDING_BYTE + 2, 510 bytes); a connection
#: takes it before it opens the ``-wal`` and maps the ``-shm``, and SQLite itself takes it for
#: writing to know it is the last connection before it removes them (sqlite3WalClose)
SHARED_FIRST = 0x40000000 + 2
SHARED_SIZE = 510


def _no_connection_lock(path: Path) -> int | None:
    """A descriptor of the game file holding a write lock on SQLite's SHARED bytes, or None when
    another process has the game open (or the lock cannot be had: no ``fcntl``, a file that cannot
    be opened). Held, no other connection can open the game: one that tries waits (its busy
    timeout) until the descriptor is closed. Closing it drops any lock this process holds on the
    file (POSIX), so it is taken only where this process has no connection on the game
    (:func:`_remove_new_sidecars`)."""
    try:
        import fcntl  # the unix VFS's locks; absent on Windows
    except ImportError:  # pragma: no cover - Windows
        return None
    try:
        fd = os.open(path, os.O_RDWR)  # a write lock needs a descriptor open for writing
    except OSError:  # a file this user may not write: the sidecars are kept, as when in use
        return None
    try:
        # lockf is fcntl(F_SETLK) with the platform's own struct flock (its layout differs by system)
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, SHARED_SIZE, SHARED_FIRST, os.SEEK_SET)
    except OSError:  # held by another process's connection (EAGAIN / EACCES)
        os.close(fd)
        return None
    return fd


def _ro_connect(path: Path) -> sqlite3.Connection:
    """A read-only connection; on a read-only directory (no ``-shm`` can be made) the file is
    opened as immutable, which is safe because nobody can write there either."""
    uri = f"file:{quote(str(path))}?mode=ro"
    before = {p for p in _sidecars(path) if p.exists()}
    con = _game_connect(path, uri, uri=True)
    try:
        con.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return con
    except UnicodeDecodeError:  # SQLite's message quotes a schema text that is no longer UTF-8 (a flipped byte)
        con.close()
        raise sqlite3.DatabaseError(_("malformed database schema (not UTF-8 text)")) from None
    except sqlite3.OperationalError as exc:
        con.close()
        full = _disk_full(exc, path)
        if os.access(path.parent, os.W_OK) and not full:
            raise
        wal, shm = path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")
        if wal.is_file() and wal.stat().st_size > 0 and not shm.exists():
            # immutable would read the file without its -wal: committed events hidden, silently
            where = _("the disk is full") if full else _("the folder is read-only")
            raise GameFileError(
                _("{path}: {where} and the game's write-ahead log {wal} ({size} bytes) has no -shm index beside it, "
                  "so the events committed in it cannot be read here; copy the game file with its -wal to a writable folder "
                  "with room (or make room here) and open it there; nothing was modified").format(
                    path=path, where=where, wal=wal.name, size=wal.stat().st_size)
            ) from None
        if full and not (wal.is_file() and wal.stat().st_size > 0):
            _remove_new_sidecars(path, before)  # the empty -wal and the stub -shm SQLite could not finish
        # nobody can write here (a read-only folder, a full disk), and no -wal holds events:
        # the file as it is on the disk is the whole log
        return sqlite3.connect(f"file:{quote(str(path))}?immutable=1", uri=True)


def _game_head(path: Path) -> bytes:
    """The game file's first bytes, read only while no connection of this process is open on it
    (none opens meanwhile): closing a descriptor of the file drops every lock this process holds
    on it (POSIX), SQLite's shared lock of another thread's connection too, and another process's
    last connection then removed the -wal and -shm under it, its acknowledged events with them
    (reading R399). With one open, the file is an SQLite file that connection reads; were it
    replaced since, SQLite refuses it in the check that follows."""
    with _OPEN_HERE_LOCK:
        if _OPEN_HERE.get(os.path.realpath(path)):
            return SQLITE_HEADER
        return read_head(path, len(SQLITE_HEADER))


def _check_readonly_inner(path: Path) -> None:
    if path.is_dir():
        raise GameFileError(_("{path} is a directory, not a game file").format(path=path))
    try:
        head = _game_head(path)  # a FIFO or a device is refused here, and a big file is not read whole
    except OSError as exc:
        raise GameFileError(_("cannot read the game file {path}: {why}").format(path=path, why=exc.strerror or exc)) from None
    if head != SQLITE_HEADER:
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
            if version >= 2 and "hash" not in cols:
                raise GameFileError(_("{path}: the events table lacks its hash column (the chain was removed); it was not modified").format(path=path))
            if version < 2 and con.execute("SELECT 1 FROM meta WHERE key='genesis'").fetchone():
                raise GameFileError(
                    _("{path}: the file says schema {version} but holds a chain's start: the chain was removed (an edited file); it was not modified").format(
                        path=path, version=version
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
        if _disk_full(exc, path):  # SQLite could not make its -shm or temporary files: not a damaged file
            raise GameFileError(_("{path} cannot be opened: the disk is full (SQLite: {exc}); it was not modified").format(path=path, exc=exc)) from None
        raise GameFileError(_("{path} is damaged or not a game file ({exc}); it was not modified").format(path=path, exc=exc)) from None
    except UnicodeDecodeError:  # SQLite's message quotes a schema text that is no longer UTF-8 (a flipped byte)
        raise GameFileError(_("{path} is damaged (its schema is not readable text); it was not modified").format(path=path)) from None


SQLITE_FULL = 13  # SQLite's result code for a full disk (the sqlite3 module names it from Python 3.11, typeshed not yet)
#: free space below which a failed SQLite open or write is put down to a full disk
FULL_BELOW = 64 * 1024


def _disk_full(exc: BaseException, path: Path | None = None) -> bool:
    """A full disk, as SQLite (SQLITE_FULL) or the system (ENOSPC) says it -- or an I/O error
    where the game's folder has no room left (SQLite reports a -shm or -wal it cannot make on a
    full disk as "disk I/O error")."""
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return True
    code = getattr(exc, "sqlite_errorcode", None)
    text = str(exc).lower()
    if code == SQLITE_FULL or "database or disk is full" in text or "no space left" in text:
        return True  # the words too: an error passed on without its number (a wrapped OSError)
    if path is None or not (isinstance(exc, OSError) or "disk i/o" in str(exc).lower()):
        return False
    try:
        return shutil.disk_usage(path.parent if path.name else path).free < FULL_BELOW
    except OSError:
        return False


#: why a write failed, said in the reader's language (the reasons were English inside a Polish or Czech sentence)
DISK_FULL = N_("the disk is full; nothing was written")
READ_ONLY = N_("the file or its folder is read-only; it can be read (status, log, export, replay, snapshot) but not written")
DISK_FAILING = N_("the disk is full or failing (SQLite: disk I/O error); nothing was written")
LOCKED = N_("another program holds the game's write lock; try again")
FILE_TOO_LARGE = N_("the game file has reached the largest file this system lets the program write (File too large); "
                    "nothing was written")


def _write_error(path: Path, exc: BaseException) -> GameFileError:
    """A write that failed, in words: a read-only place, a full disk (:func:`_disk_full`, the one
    test of it, by number or by words), a file at its size limit, a failing disk, a locked file."""
    text = str(exc)
    if isinstance(exc, OSError):
        text = exc.strerror or text
    low = text.lower()
    if _disk_full(exc, path):
        why = _(DISK_FULL)
    elif "readonly" in low or "read-only" in low or "permission" in low or "unable to open" in low:
        # a phone is told it without the command line's verbs and the table's own path (R347)
        page = _("the game's file on the table's computer ({name}) is read-only: nothing was recorded; the board and the "
                 "questions still answer").format(name=path.name)
        return ReadOnlyGameError(_("cannot write to the game {path}: {why}").format(path=path, why=_(READ_ONLY)), page)
    elif (isinstance(exc, OSError) and exc.errno == errno.EFBIG) or "file too large" in low:
        # the file's own limit (the file system's largest file, ``ulimit -f``): the disk may have room (R369)
        why = _(FILE_TOO_LARGE)
    elif "disk i/o" in low:
        why = _(DISK_FAILING)
    elif "locked" in low or "busy" in low:
        why = _(LOCKED)
    else:
        why = text
    return GameFileError(_("cannot write to the game {path}: {why}").format(path=path, why=why))


# --- the chain verified once per process -------------------------------------------------

#: game files watched at once in this process (each holds one connection open)
MAX_WATCHES = 8


def _reopened(con: sqlite3.Connection, path: Path, connect: Callable[[Path], sqlite3.Connection]) -> sqlite3.Connection:
    """A new connection in place of ``con`` (closed), so that no page ``con`` keeps in its cache
    hides bytes written into the file by hand; ``con`` itself when no new one can be made."""
    try:
        fresh = connect(path)
    except (sqlite3.Error, OSError):
        return con
    con.close()
    return fresh


class _Watch:
    """One game file's verified log, shared by every store this process has open on the file,
    with the one connection that reads and writes it (:meth:`GameStore.chain`,
    :meth:`GameStore.append_all`).

    The log is verified whole once; then ``PRAGMA data_version`` on this connection says
    whether any OTHER connection (another process, another store of ours) committed since: it
    does not change for this connection's own commits. Unchanged: the events verified before,
    plus the ones this connection appended, are the log as it is (no read, no hash). Changed:
    the whole chain is verified again, so an edit made by anyone else is still named on the next
    read. Kept while a store of ours has the file open (the last one closing it closes this, so
    SQLite checkpoints its -wal as before); the file is known by its device and inode, which no
    other file can take while this connection holds it open."""

    def __init__(self, key: tuple[int, int], con: sqlite3.Connection):
        self.key, self.con = key, con
        self.lock = threading.RLock()  # one statement or transaction at a time on the connection
        self.users = 0
        #: (data_version and the file's stamp when verified, the chain, its events)
        self.kept: tuple[tuple[int, tuple[int, int]], Chain, tuple[Event, ...]] | None = None

    def version(self) -> int:
        return int(self.con.execute("PRAGMA data_version").fetchone()[0])

    def refresh(self, path: Path) -> None:
        """Before a transaction: the main file changed since it was verified (bytes written into it
        by hand, or a checkpoint) -- a new connection, so that no page this one keeps in its cache
        hides the change, and the next read verifies the whole chain."""
        kept = self.kept
        if kept is None or self.con.in_transaction:
            return
        mark = file_marks(path)
        if mark is None or mark == kept[0][1]:
            return
        self.kept = None
        self.con = _reopened(self.con, path, GameStore._connect)  # if none can be made, the old one verifies the whole chain

    def stamp(self, path: Path) -> tuple[int, tuple[int, int]]:
        """What says the file is as verified: the data version, and the main file's modification
        time and size (bytes written into the file by hand, not through SQLite, change them; our
        own checkpoints do too, rarely: then the chain is verified again)."""
        return self.version(), file_marks(path) or (-1, -1)


_WATCHES: dict[tuple[int, int], _Watch] = {}
_WATCHES_LOCK = threading.Lock()


def _watch(store: GameStore) -> _Watch | None:
    """The file's watch, made if needed; None where a store must read on its own (a read-only
    place, a log from before the chain, a connection that cannot be made)."""
    path = store.path
    if store.immutable or not store.chained or not os.access(path, os.W_OK) or not os.access(path.parent, os.W_OK):
        return None
    try:
        st = path.stat()
    except OSError:
        return None
    key = (st.st_dev, st.st_ino)
    with _WATCHES_LOCK:
        w = _WATCHES.get(key)
        if w is None:
            if len(_WATCHES) >= MAX_WATCHES:
                return None  # past the bound: read on its own, as before
            con = None
            try:
                con = GameStore._connect(path)
                w = _Watch(key, con)
                w.version()  # a connection that cannot read (a full disk, ...): the store reads on its own
            except (sqlite3.Error, OSError):
                if con is not None:
                    con.close()
                return None
            _WATCHES[key] = w
        w.users += 1
    return w


def _unwatch(w: _Watch) -> None:
    with _WATCHES_LOCK:
        w.users -= 1
        if w.users > 0:
            return
        _WATCHES.pop(w.key, None)
    with w.lock:
        w.con.close()


class LogKeeper:
    """One game file's verified log kept for a reader that lives long and opens the file again and
    again (the live table, the shell; :meth:`GameStore.hold`): with nothing keeping it, each open
    after a write verified the whole hash chain again. The file is known by device and inode, so a
    file put in its place is kept instead and the old one let go; let go too when the keeper is."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._held: tuple[tuple[int, int], weakref.finalize[Any, Any]] | None = None

    @property
    def key(self) -> tuple[int, int] | None:
        """Which file is kept (device, inode); None: none."""
        held = self._held
        return None if held is None else held[0]

    def keep(self, store: GameStore) -> None:
        """Keep ``store``'s file's log, letting the one kept before go (a file that cannot be
        watched: none kept; its reads verify on their own, as before)."""
        with self._lock:
            held = self._held
            if held is not None and store.watching() == held[0]:
                return
            got = store.hold()
            self._held = None if got is None else (got[0], weakref.finalize(self, got[1]))
        if held is not None:
            held[1]()


def watched_version(key: tuple[int, int]) -> tuple[int, int] | None:
    """A watched file's (data version, last event number): it changes with every commit, this
    process's or anyone's (an edit of an old row too, which leaves the last number as it was);
    None when the file is no longer watched."""
    with _WATCHES_LOCK:
        w = _WATCHES.get(key)
    if w is None:
        return None
    with w.lock:
        try:
            return w.version(), int(w.con.execute("SELECT MAX(seq) FROM events").fetchone()[0] or 0)
        except sqlite3.Error:  # closed meanwhile, or unreadable: the caller reads the file itself
            return None


class GameStore:
    """An open game file."""

    def __init__(self, path: Path, con: sqlite3.Connection, immutable: bool = False):
        self.path = path
        self.con = con
        self.readonly = False
        #: opened immutable (a read-only folder): no watch, every read verifies
        self.immutable = immutable
        self._chained: bool | None = None
        self._watched: _Watch | None | bool = False  # False: not looked for yet
        #: what opening this store did to an old log (chained it), in words; None: nothing
        self.migrated: str | None = None
        #: the main file's (modification time, size) when this store last read it with no watch
        self._marks: tuple[int, int] | None = None

    @property
    def chained(self) -> bool:
        """Whether the file keeps the hash chain (a log from before it, opened read-only, does not:
        its chain is worked out in memory and stored when it is first opened for writing)."""
        if self._chained is None:
            self._chained = "hash" in {r[1] for r in self.con.execute("PRAGMA table_info(events)")}
        return self._chained

    # -- opening ---------------------------------------------------------------------

    @classmethod
    def create(cls, path: Path, rules: str, position_yaml: str, extra: dict[str, Any] | None = None) -> GameStore:
        """A new game file, written whole beside ``path`` and moved into place, so that a full
        disk or a crash never leaves an empty or half-made game behind."""
        header = {"format": FORMAT, "rules": rules, "created": _now()}
        data = json.loads(json.dumps({"position": position_yaml, **(extra or {})}, ensure_ascii=False, sort_keys=True))
        return cls.create_from(path, header, chained(header, [Event(1, _now(), "setup", data)]))

    @classmethod
    def create_from(cls, path: Path, header: Mapping[str, str], events: list[Event]) -> GameStore:
        """A game file holding ``events`` as they are, each with its own hash (an imported log,
        its chain verified by the caller: :mod:`.logimport`), after the header ``header``
        (format, rules, created); written whole beside ``path`` and moved into place, so that a
        refusal, a full disk or a crash never leaves an empty or half-made game behind."""
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
            head = {k: header[k] for k in GENESIS_KEYS}
            con.executemany("INSERT INTO meta(key, value) VALUES (?, ?)", [*head.items(), ("genesis", genesis(head))])
            con.executemany("INSERT INTO events(seq, at, kind, data, override, hash) VALUES (?, ?, ?, ?, ?, ?)",
                            [(e.seq, e.at, e.kind, json.dumps(e.data, ensure_ascii=False, sort_keys=True), e.override, e.hash)
                             for e in events])
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
        before = {p for p in _sidecars(path) if p.exists()}
        con: sqlite3.Connection | None = None
        try:
            con = cls._connect(path)
            store = cls(path, con)
            store._migrate()
        except (sqlite3.Error, OSError) as exc:
            if con is not None:
                con.close()
            _remove_new_sidecars(path, before)  # a full disk leaves no empty -wal or -shm behind
            raise _write_error(path, exc) from None
        return store

    @staticmethod
    def _connect(path: Path) -> sqlite3.Connection:
        # any thread may use it (the live table's worker threads): a store's or a watch's own lock
        # keeps it to one at a time
        con = _game_connect(path, str(path), timeout=10.0, isolation_level=None, check_same_thread=False)
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
                if v == 2:
                    self._chained = True
                    self._chain_existing()
            self.con.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            self.con.execute("COMMIT")
        except BaseException:
            self.con.execute("ROLLBACK")
            raise
        if self.migrated is not None:
            # said once (the file is chained once): on the command line's stderr (logging's last
            # resort, where nothing else is set up), in the server's log; the web status says it too
            logging.getLogger("assistant.game").warning("%s", self.migrated)

    def _chain_existing(self) -> None:
        """Chain a log written before the chain (inside the migration's transaction), and say so
        in the header: the chain vouches for these events from now on, not for what was done to
        the file before."""
        meta = self.meta()
        events = chained(meta, self._rows())
        self.con.executemany("UPDATE events SET hash = ? WHERE seq = ?", [(e.hash, e.seq) for e in events])
        # the counter that finds rows deleted from the end starts from the log as it is chained
        self.con.execute("UPDATE sqlite_sequence SET seq = ? WHERE name = 'events'", (events[-1].seq if events else 0,))
        self.con.executemany("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)",
                             [("genesis", genesis(meta)), ("chained", f"{_now()} {events[-1].seq if events else 0}")])
        self.migrated = _("{path}: this log was written before the hash chain; its events #1 to #{upto} were chained now "
                          "(schema 2): from here on an edit is found, but nothing shows what was done to the file before").format(
            path=self.path, upto=events[-1].seq if events else 0)

    def close(self) -> None:
        w, self._watched = self._watched, None
        if isinstance(w, _Watch):
            _unwatch(w)
        self.con.close()

    def hold(self) -> tuple[tuple[int, int], Callable[[], None]] | None:
        """Keep the file's verified log (:class:`_Watch`) after this store closes, for a reader
        that lives long and opens the file again and again (the live table): (which file:
        device and inode, the function that lets it go); None where the file is not watched."""
        w = self._watch()
        if w is None:
            return None
        with _WATCHES_LOCK:
            w.users += 1
        return w.key, lambda: _unwatch(w)

    def watching(self) -> tuple[int, int] | None:
        """Which file's verified log this store shares (device, inode); None: it reads on its own."""
        w = self._watch()
        return None if w is None else w.key

    def _watch(self) -> _Watch | None:
        if self._watched is False:
            self._watched = _watch(self)
        return self._watched if isinstance(self._watched, _Watch) else None

    # -- reading and writing ---------------------------------------------------------

    def meta(self, con: sqlite3.Connection | None = None) -> dict[str, str]:
        try:
            return {str(k): str(v) for k, v in (con or self.con).execute("SELECT key, value FROM meta")}
        except sqlite3.DatabaseError as exc:
            raise GameFileError(_("{path}: the meta table cannot be read ({exc})").format(path=self.path, exc=exc)) from None

    def _rows(self, where: str = "", args: tuple[Any, ...] = ()) -> list[Event]:
        return self._rows_counted(where, args)[0]

    def _rows_counted(self, where: str = "", args: tuple[Any, ...] = (), con: sqlite3.Connection | None = None) -> tuple[list[Event], int]:
        """The rows, and the highest event number SQLite ever gave in this file (AUTOINCREMENT's
        counter), read by one statement: one snapshot, so a write committed meanwhile by another
        process is in both or in neither."""
        cols = "seq, at, kind, data, override, " + ("hash" if self.chained else "NULL")
        counter = "(SELECT seq FROM sqlite_sequence WHERE name = 'events')"
        try:
            rows = (con or self.con).execute(f"SELECT {cols}, {counter} FROM events {where} ORDER BY seq", args).fetchall()
        except sqlite3.DatabaseError as exc:
            raise GameFileError(_("{path}: the events cannot be read ({exc}); the file was not modified").format(path=self.path, exc=exc)) from None
        ever = rows[-1][-1] if rows else 0
        return [_decode(self.path, row[:-1]) for row in rows], ever if isinstance(ever, int) else 0

    def chain(self, fresh: bool = False) -> tuple[Chain, list[Event]]:
        """Every event, and the chain over them checked: its head, or the first event that does
        not match. A log from before the chain (read-only, not migrated) is chained in memory
        (``report.stored`` False: nothing in the file vouches for it). Verified whole once per
        process while the file is open here, and again whenever another connection wrote to it
        (:class:`_Watch`); ``fresh``: verified whole now (``verify``)."""
        w = None if fresh else self._watch()
        if w is None:
            self._reconnect_if_rewritten()
            return self._verify(self.con)
        with w.lock:
            w.refresh(self.path)
            began = not w.con.in_transaction
            if began:  # the data version and the rows read in one snapshot
                w.con.execute("BEGIN")
            try:
                return self._verified(w)
            finally:
                if began:
                    w.con.execute("COMMIT")

    def _reconnect_if_rewritten(self) -> None:
        """With no watch (a read-only place, past the bound on kept logs), before a read or a
        write: the main file's bytes changed since this store last used it (written by hand, not
        through SQLite: no data version and no -wal index shows that) -- a new connection, as a
        watch makes one (:meth:`_Watch.refresh`)."""
        if self.immutable or self.con.in_transaction:
            return  # immutable: nobody can write there; in a transaction: this store's own write
        mark = file_marks(self.path)
        if mark is None:
            return
        seen, self._marks = self._marks, mark
        if seen is not None and seen != mark:
            self.con = _reopened(self.con, self.path, _ro_connect if self.readonly else GameStore._connect)

    def _verified(self, w: _Watch) -> tuple[Chain, list[Event]]:
        """Under ``w.lock``, inside a transaction on its connection."""
        version = w.stamp(self.path)
        kept = w.kept
        if kept is not None and kept[0] == version:
            return kept[1], list(kept[2])
        found, events = self._verify(w.con)
        w.kept = (version, found, tuple(events)) if found.report.problem is None else None
        return found, events

    def _verify(self, con: sqlite3.Connection) -> tuple[Chain, list[Event]]:
        meta = self.meta(con)
        events, ever = self._rows_counted(con=con)
        if not self.chained:
            events = chained(meta, events)
            found = chain_report(self.path, {**meta, "genesis": genesis(meta)}, events)  # an old log as it is: never refused for its numbers
            return Chain(replace(found.report, stored=False), found.hashes), events
        return chain_report(self.path, meta, events, ever), events

    def events(self, upto: int | None = None) -> list[Event]:
        """The log's events (up to ``upto``), its chain checked first: a log edited outside this
        program is refused, naming the first event that does not match."""
        found, events = self.chain()
        if found.report.problem is not None:
            raise GameFileError(_("{problem}; the log was edited outside this program and is refused (it was not modified)").format(
                problem=found.report.problem))
        return events if upto is None else [e for e in events if e.seq <= upto]

    def events_from(self, seq: int) -> list[Event]:
        """The setup event (the first) and the events from ``seq`` on: what a reader that
        folded the log up to ``seq`` needs to check that it is still the same log and to go on.
        Every read verifies the whole chain: cheaply where this process keeps the file's verified
        log (again only after another connection wrote), whole otherwise (a read-only place, past
        the bound on kept logs) -- reading only the tail there would miss an old row edited by
        another program."""
        events = self.events()
        return [e for e in events if e is events[0] or e.seq >= seq]

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
        def plan(events: list[Event]) -> list[tuple[str, dict[str, Any], str | None]]:
            if check is not None:
                check(events)
            return [(kind, data, override)]

        return self.append_all(plan)[0]

    def append_all(self, plan: Callable[[list[Event]], list[tuple[str, dict[str, Any], str | None]]]) -> list[Event]:
        """Commit the events ``plan(events)`` returns, (kind, data, override) each, in ONE
        transaction: ``plan`` runs inside the write lock (``BEGIN IMMEDIATE``) on the log as it
        is then, so no other write -- another phone's, the command line's -- lands between what it
        checked and what is recorded; it may raise to refuse them all: then nothing is written.
        The log is read (and its chain verified) once, however many events are written."""
        if self.readonly:
            raise _write_error(self.path, PermissionError(13, "read-only"))
        w = self._watch()
        if w is None:
            self._reconnect_if_rewritten()
            return self._append_all(self.con, plan, None)
        with w.lock:
            w.refresh(self.path)
            return self._append_all(w.con, plan, w)

    def _append_all(self, con: sqlite3.Connection, plan: Callable[[list[Event]], list[tuple[str, dict[str, Any], str | None]]],
                    w: _Watch | None) -> list[Event]:
        at = _now()
        try:
            con.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise _write_error(self.path, exc) from None
        try:
            # the chain checked: nothing is added to an edited log
            found, events = self._verified(w) if w is not None else self._verify(con)
            if found.report.problem is not None:
                raise GameFileError(_("{problem}; the log was edited outside this program and is refused (it was not modified)").format(
                    problem=found.report.problem))
            if not events:
                raise GameFileError(_("{path}: the log has no events, not even its setup (an edited file); it was not modified").format(path=self.path))
            wanted = plan(events)
            written: list[Event] = []
            seq, prev = events[-1].seq, events[-1].hash or ""
            for kind, data, override in wanted:
                payload = json.dumps(data, ensure_ascii=False, sort_keys=True)
                stored = json.loads(payload)  # the data as a read gives it back
                seq += 1
                prev = link(prev, seq, at, kind, stored, override)
                con.execute("INSERT INTO events(seq, at, kind, data, override, hash) VALUES (?, ?, ?, ?, ?, ?)",
                            (seq, at, kind, payload, override, prev))
                written.append(Event(seq, at, kind, stored, override, prev))
            version = w.stamp(self.path) if w is not None else None
            con.execute("COMMIT")
        except sqlite3.Error as exc:
            try:
                con.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            raise _write_error(self.path, exc) from None
        except BaseException:
            try:
                con.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            raise
        if w is not None and version is not None:
            # our own commit leaves the data version as it was: the log is the one verified plus these
            w.kept = (version, _extended(found, written), (*events, *written))
        return [replace(e, data=d) for e, (_k, d, _o) in zip(written, wanted, strict=True)]


def _extended(found: Chain, written: list[Event]) -> Chain:
    """The chain ``found`` with the events just written after its head."""
    if not written:
        return found
    r = found.report
    report = replace(r, head=written[-1].hash or "", seq=written[-1].seq, events=r.events + len(written))
    return Chain(report, found.hashes + tuple((e.seq, e.hash or "") for e in written))


def _decode(path: Path, row: tuple[Any, ...]) -> Event:
    """One event row, or a :class:`GameFileError` naming the event that cannot be read."""
    seq, at, kind, data, override, digest = row
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
    return Event(seq, str(at), kind, obj, override, digest if isinstance(digest, str) else None)


#: what each kind of event must hold: key -> type (a tuple of types: any of them)
Shape = dict[str, Any]


#: the X-Request-Id of the web request now recording (set by the live table's guard): kept in the
#: event's data as "request" by every log that records commands (the miniatures' Game.do, the card
#: games' CardGameLog.do), so that a retry after a restart finds it in the log and is not recorded
#: twice (the server's memory of answered ids is gone with it)
REQUEST_ID: ContextVar[str | None] = ContextVar("request_id", default=None)


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
        if e.kind == "undo" and e.data["seq"] == events[0].seq:
            # no command undoes the setup (undo_target): the game would have nothing to start from
            raise GameFileError(_("{where} undoes the setup (event #{undone}), which no command does; the log was edited").format(
                where=where, undone=e.data["seq"]))


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
            _("the setup cannot be undone")
            if any(e.seq == seq and e.kind == "setup" for e in events)
            else _("it is already undone")
            if seq in undone
            else _("there is no event #{seq} (the log has events #1 to #{last})").format(seq=seq, last=last)
        )
        raise AssistantError(_("event {seq} cannot be undone: {why}").format(seq=seq, why=why))
    return seq


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
