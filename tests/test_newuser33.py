"""Round 33 (newuser33): what a new player and judge met in their first hour, on files the project
did not make and with a server that several writers share."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from assistant.cards import default_library
from assistant.game import Game, store
from assistant.resources import example_path


def _game(tmp_path: Path) -> Path:
    path = tmp_path / "g.sqlite"
    Game.new(path, example_path("clone-wars-example-combat").read_text(encoding="utf-8"), default_library(), override="tests").close()
    return path


def test_a_look_keeps_the_log_files_of_a_connection_opening_the_game_at_that_moment(tmp_path: Path) -> None:
    """Reading R399: a look asked whether anyone had the game open (a lock on the ``-shm``), then
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


def _cli(*args: str) -> tuple[int, str]:
    from typer.testing import CliRunner

    from assistant.cli.app import app

    r = CliRunner().invoke(app, list(args), env={"TABLETOP_LANG": "en", "COLUMNS": "200"})
    assert "Traceback" not in r.output
    return r.exit_code, r.output


#: a position a judge wrote, with a name Notepad keeps only in Unicode ("Tést café")
POSITION = """format: tabletop-position/1
rules: swm2008
map: {name: Tést café, cols: 12, rows: 10, squares: {wall: [F4]}}
figures:
  - {id: obi, card: General Obi-Wan Kenobi, side: light, at: C8}
  - {id: dooku, card: Count Dooku of Serenno, side: dark, at: R8}
"""


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32"])
def test_a_position_windows_saved_as_unicode_is_read_as_its_byte_order_mark_says(tmp_path: Path, encoding: str) -> None:
    """Reading R400: a position file saved by Notepad as "Unicode" (UTF-16 with its byte-order
    mark; YAML 1.2 §5.2 asks every processor to read it) was refused "is not UTF-8 text (byte 0 is
    0xff)". It is read as its mark says, and its problems are placed on the lines they are on."""
    mark = {"utf-16": b"", "utf-16-be": b"\xfe\xff", "utf-32": b""}[encoding]
    path = tmp_path / "table.yaml"
    path.write_bytes(mark + POSITION.replace("\n", "\r\n").encode(encoding))
    code, out = _cli("validate", str(path))
    assert code == 2 and "table.yaml:6: figures[1].at: dooku at R8 is off the map" in out, out  # the file's own mistake, on its line
    path.write_bytes(mark + POSITION.replace("R8", "J8").encode(encoding))
    code, out = _cli("validate", str(path))
    assert code == 0 and out.startswith("ok "), out
    code, out = _cli("show", str(path))
    assert code == 0 and "Tést café" in out, out


def test_a_card_file_windows_saved_as_unicode_is_read(tmp_path: Path) -> None:
    """Reading R400: a card file of one's own (``cards new``) saved again by Notepad as "Unicode"."""
    made = tmp_path / "rex.yaml"
    code, out = _cli("cards", "new", "Clone Captain Rex", "--game", "swm", "-o", str(made))
    assert code == 0, out
    saved = tmp_path / "rex-unicode.yaml"
    saved.write_bytes(made.read_text(encoding="utf-8").replace("\n", "\r\n").encode("utf-16"))
    code, out = _cli("cards", "validate", str(saved))
    assert code == 0 and "1 cards in 1 files" in out, out


def test_a_position_in_windows_1252_is_refused_saying_how_to_save_it(tmp_path: Path) -> None:
    """Reading R400: a file in Windows' "ANSI" (Windows-1252) is not read as a guess -- YAML is
    Unicode -- and the refusal says how to save it (it asked "is it a YAML file?" of a judge's own
    position)."""
    path = tmp_path / "table.yaml"
    path.write_bytes(POSITION.encode("cp1252"))
    code, out = _cli("validate", str(path))
    assert code == 2 and "table.yaml:3: is not UTF-8 text (byte 56 is 0xe9)" in out and "save it again as UTF-8" in out, out


def test_a_look_from_another_thread_keeps_the_locks_of_this_processs_connection(tmp_path: Path) -> None:
    """Reading R399: the check before every open (and ``game_kind``'s look) read the game file's
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
