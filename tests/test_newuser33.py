"""Round 33 (newuser33): what a new player and judge met in their first hour, on files the project
did not make and with a server that several writers share."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from assistant.cards import default_library
from assistant.game import Game, store
from assistant.resources import example_path


def _game(tmp_path: Path) -> Path:
    path = tmp_path / "g.sqlite"
    Game.new(path, example_path("clone-wars-example-combat").read_text(encoding="utf-8"), default_library(), override="tests").close()
    return path


def test_a_look_keeps_the_log_files_of_a_connection_opening_the_game_at_that_moment(tmp_path: Path) -> None:
    """Reading R951: a look asked whether anyone had the game open (a lock on the ``-shm``), then
    removed the sidecars it had made. A connection that opened the game between the question and
    the removal had taken SQLite's shared lock on the game file and opened the empty ``-wal``, but
    not yet mapped the ``-shm``: the look removed both, and the notes that connection then
    committed went into the removed ``-wal`` (bench/hostile_table.py: acknowledged notes missing
    from the log, other writes refused as "damaged (disk I/O error)"). Here another process holds
    that moment still: SQLite's SHARED lock on the game file's bytes (os_unix.c) and the ``-wal``
    open."""
    path = _game(tmp_path)
    con = store._ro_connect(path)  # a look, as game_kind's: it makes the -wal and the -shm
    con.execute("SELECT count(*) FROM events").fetchone()
    con.close()
    wal, shm = Path(f"{path}-wal"), Path(f"{path}-shm")
    assert wal.exists() and shm.exists()
    opener = subprocess.Popen(
        [sys.executable, "-c",
         "import fcntl, os, struct, sys; fd = os.open(sys.argv[1], os.O_RDWR); "
         "fcntl.fcntl(fd, fcntl.F_SETLK, struct.pack('hhqqi', fcntl.F_RDLCK, 0, 0x40000002, 510, 0)); "
         "w = os.open(sys.argv[1] + '-wal', os.O_RDWR | os.O_CREAT); print('opening', flush=True); sys.stdin.readline()",
         str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert opener.stdout is not None and opener.stdout.readline().strip() == "opening"
        store._remove_new_sidecars(path, set())  # the look that made them ends
        assert wal.exists() and shm.exists(), "the opening connection's -wal and -shm were removed"
    finally:
        opener.communicate("go\n", timeout=30)
    store._remove_new_sidecars(path, set())  # nobody has the game open now: a look leaves nothing behind
    assert not wal.exists() and not shm.exists()
    assert os.path.getsize(path) > 0


def test_a_look_from_another_thread_keeps_the_locks_of_this_processs_connection(tmp_path: Path) -> None:
    """Reading R951: the check before every open (and ``game_kind``'s look) read the game file's
    first bytes through a descriptor of its own and closed it -- which drops every lock this process
    holds on the file (POSIX), the shared lock of a served table's connection in another thread
    too. Another process's connection, closing, then found itself the last one and removed the
    ``-wal`` and ``-shm`` under the table: the table's next notes were answered and lost (four
    processes of three threads each, noting at once: 94 acknowledged, 60 in the log). Here one
    connection of this process stays open while a look is made, another process opens and closes
    the game, and the kept connection writes on."""
    path = _game(tmp_path)
    kept = store.GameStore.open(path)  # a served table's connection, in its worker thread
    try:
        kept.append("note", {"text": "before the look"})
        store.GameStore.open_readonly(path).close()  # another thread's look: the check before an open
        store.game_kind(path)
        other = subprocess.run([sys.executable, "-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
                                "c.execute('SELECT count(*) FROM events').fetchone(); c.close()", str(path)],
                               capture_output=True, text=True, check=False, timeout=60)
        assert other.returncode == 0, other.stderr
        kept.append("note", {"text": "after the look"})
    finally:
        kept.close()
    r = subprocess.run([sys.executable, "-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
                        "print([r[0] for r in c.execute(\"SELECT kind FROM events ORDER BY seq\")])", str(path)],
                       capture_output=True, text=True, check=False, timeout=60)
    assert r.stdout.strip().endswith("'note', 'note']"), r.stdout + r.stderr
