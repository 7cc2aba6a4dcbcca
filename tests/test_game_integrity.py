"""A log that proves itself (issue 29 §2): every event row carries a SHA-256 over its content and
the previous row's hash, so the plausible edits a person can make to the SQLite file with any
SQLite tool -- a changed d20, changed damage, a deleted or forged row, an edited set-up -- are
found by 'game verify' and refused by every other command, naming the first event that does
not match. The edits below are made with sqlite3 on the file itself, as a tamperer would."""

from __future__ import annotations

import json
import os
import sqlite3
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from assistant.cardgame.log import CardGameLog
from assistant.cardgames import find_card_game
from assistant.cli.app import app
from assistant.commands.context import Session
from assistant.commands.registry import find
from assistant.game import Game
from assistant.game.store import SCHEMA_VERSION, GameFileError, GameStore, chained
from assistant.resources import card_table_example

runner = CliRunner()

POSITION = textwrap.dedent("""\
    format: tabletop-position/1
    rules: swm2008
    map: {cols: 8, rows: 8}
    figures:
      - {id: a1, side: a, at: A1, stats: {hp: 20, defense: 10, attack: 5, damage: 10, speed: 6, level: 2}}
      - {id: z1, side: z, at: H8, stats: {hp: 20, defense: 10, attack: 5, damage: 10, speed: 6, level: 2}}
    """)


def run(*args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, list(args))


@pytest.fixture
def game_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A game of six events recorded through the verbs: #1 setup, #2 initiative, #3 activate,
    #4 attack (d20 14, needs 5, hits for 10), #5 damage 3, #6 note."""
    monkeypatch.setenv("TABLETOP_HOME", str(tmp_path / "home"))
    path = tmp_path / "g.sqlite"
    Game.new(path, POSITION).close()
    s = Session()
    find("game initiative")(s, roll=["a=14", "z=3"], game=path)
    find("game activate")(s, figure="a1", game=path)
    hit = find("game attack")(s, attacker="a1", target="z1", roll=14, game=path)
    assert hit.json["event"]["roll"] == 14 and hit.json["event"]["damage"] == 10
    find("game damage")(s, figure="z1", amount=3, game=path)
    find("game note")(s, text="table 4, round 1", game=path)
    return path


def sql(path: Path, *statements: str) -> None:
    con = sqlite3.connect(path)
    with con:
        for stmt in statements:
            con.execute(stmt)
    con.close()


def rechain(path: Path, *statements: str) -> None:
    """Edit the log with sqlite3 and compute every hash again, as a tamperer who knows the
    chain would: only what the edited events say can give the edit away."""
    sql(path, *statements)
    store = GameStore.open_readonly(path)
    meta, rows = store.meta(), store._rows()
    store.close()
    con = sqlite3.connect(path)
    with con:
        con.executemany("UPDATE events SET hash = ? WHERE seq = ?", [(e.hash, e.seq) for e in chained(meta, rows)])
    con.close()


def refused(path: Path, named: str, why: str) -> None:
    """'game verify' and an ordinary command both refuse the file (exit 2), naming the event."""
    for cmd in (["game", "verify"], ["game", "status"], ["game", "export", "--format", "json"]):
        r = run(*cmd, "--game", str(path))
        assert r.exit_code == 2, (cmd, r.output)
        assert named in r.stderr and why in r.stderr, (cmd, r.stderr)
        assert "Traceback" not in r.output


def test_an_untouched_log_verifies_with_its_head(game_file: Path) -> None:
    r = run("game", "verify", "--game", str(game_file), "--json")
    assert r.exit_code == 0, r.output
    got = json.loads(r.stdout)
    assert got["ok"] is True and got["seq"] == 6 and got["events"] == 6 and len(got["head"]) == 64
    # the head is the last row's hash, as stored in the file
    con = sqlite3.connect(game_file)
    assert con.execute("SELECT hash FROM events WHERE seq = 6").fetchone()[0] == got["head"]
    con.close()


# --- the plausible tamperings: each detected, naming the event ----------------------------------


#: (what the tamperer did, the SQL, the event named, what is said wrong)
TAMPERINGS = [
    # the log would read "roll 3 needs 5 -> hits": a roll changed after the fact
    ("a changed d20", "UPDATE events SET data = json_set(data, '$.roll', 3) WHERE seq = 4",
     "event #4 (attack)", "was changed after it was recorded"),
    ("changed damage in an attack", "UPDATE events SET data = json_set(data, '$.damage', 20) WHERE seq = 4",
     "event #4 (attack)", "was changed after it was recorded"),
    ("a changed damage amount", "UPDATE events SET data = json_set(data, '$.amount', 13) WHERE seq = 5",
     "event #5 (damage)", "was changed after it was recorded"),
    ("a deleted row", "DELETE FROM events WHERE seq = 4", "event #5 (damage)", "follows a gap: event #4 was deleted"),
    ("the last row deleted", "DELETE FROM events WHERE seq = 6", "event #6 was deleted from the end of the log", ""),
    ("a forged row added at the end", """INSERT INTO events(seq, at, kind, data, override) VALUES
        (7, '2026-11-26T10:00:00+00:00', 'damage', '{"amount": 7, "figure": "z1"}', NULL)""",
     "event #7 (damage)", "has no hash: a row added to the file by hand (forged)"),
    ("a forged row with a copied hash", """INSERT INTO events(seq, at, kind, data, override, hash) SELECT
        7, at, 'damage', '{"amount": 7, "figure": "z1"}', NULL, hash FROM events WHERE seq = 6""",
     "event #7 (damage)", "does not match its hash"),
]


@pytest.mark.parametrize(("what", "statement", "named", "why"), TAMPERINGS, ids=[t[0] for t in TAMPERINGS])
def test_a_tampering_is_detected_naming_the_event(game_file: Path, what: str, statement: str, named: str, why: str) -> None:
    sql(game_file, statement)
    refused(game_file, named, why)


def test_a_forged_row_inserted_in_the_middle_is_detected(game_file: Path) -> None:
    # room made by renumbering the later rows (from the last down), then the forged row put in
    con = sqlite3.connect(game_file)
    with con:
        for seq in (6, 5, 4):
            con.execute("UPDATE events SET seq = ? WHERE seq = ?", (seq + 1, seq))
        con.execute("""INSERT INTO events(seq, at, kind, data, override, hash) SELECT 4, at, 'damage',
            '{"amount": 5, "figure": "a1"}', NULL, hash FROM events WHERE seq = 3""")
    con.close()
    refused(game_file, "event #4 (damage)", "was inserted by hand")


def test_an_edited_setup_is_detected(game_file: Path) -> None:
    # z1 set up next to a1 instead of across the map
    sql(game_file, "UPDATE events SET data = json_set(data, '$.position', replace(json_extract(data, '$.position'), 'H8', 'B2')) WHERE seq = 1")
    refused(game_file, "event #1 (setup)", "is the set-up, and it was edited")


def test_an_edited_header_is_detected(game_file: Path) -> None:
    # the game's rules changed from SWM 2008 to SWM 2004 in the header
    sql(game_file, "UPDATE meta SET value = 'swm2004' WHERE key = 'rules'")
    refused(game_file, "event #1 (setup)", "the set-up was edited: the game's header")


def test_an_edited_time_or_override_reason_is_detected(game_file: Path, tmp_path: Path) -> None:
    con = sqlite3.connect(game_file)
    recorded = con.execute("SELECT at FROM events WHERE seq = 3").fetchone()[0]
    con.close()
    sql(game_file, "UPDATE events SET at = '2026-01-01T00:00:00+00:00' WHERE seq = 3")
    refused(game_file, "event #3 (activate)", "was changed after it was recorded")
    # put back as it was (not another event's time: on a loaded machine #2 and #3 may be a second apart)
    sql(game_file, f"UPDATE events SET at = '{recorded}' WHERE seq = 3")
    assert run("game", "verify", "--game", str(game_file)).exit_code == 0
    sql(game_file, "UPDATE events SET override = 'the judge allowed it' WHERE seq = 4")
    refused(game_file, "event #4 (attack)", "was changed after it was recorded")


def test_swapped_rows_are_detected(game_file: Path) -> None:
    con = sqlite3.connect(game_file)
    with con:
        rows = {seq: (kind, data) for seq, kind, data in con.execute("SELECT seq, kind, data FROM events WHERE seq IN (5, 6)")}
        con.execute("UPDATE events SET kind = ?, data = ? WHERE seq = 5", rows[6])
        con.execute("UPDATE events SET kind = ?, data = ? WHERE seq = 6", rows[5])
    con.close()
    refused(game_file, "event #5 (note)", "does not match its hash")


def test_a_removed_chain_is_detected(game_file: Path) -> None:
    """A file set back to schema 1 without its hashes (so that it would be chained anew) keeps
    its chain's start in the header: refused."""
    sql(game_file, "ALTER TABLE events DROP COLUMN hash", "PRAGMA user_version = 1")
    r = run("game", "status", "--game", str(game_file))
    assert r.exit_code == 2 and "the chain was removed" in r.stderr


def test_an_undo_retargeted_is_detected(game_file: Path) -> None:
    find("game undo")(Session(), seq=5, game=game_file)  # #7 undoes the damage
    sql(game_file, "UPDATE events SET data = json_set(data, '$.seq', 4) WHERE seq = 7")
    refused(game_file, "event #7 (undo)", "was changed")


def test_nothing_is_written_to_an_edited_log(game_file: Path) -> None:
    sql(game_file, "UPDATE events SET data = json_set(data, '$.roll', 3) WHERE seq = 4")
    before = game_file.read_bytes()
    r = run("game", "note", "after the edit", "--game", str(game_file))
    assert r.exit_code == 2 and "event #4 (attack)" in r.stderr
    con = sqlite3.connect(game_file)
    assert con.execute("SELECT MAX(seq) FROM events").fetchone()[0] == 6
    con.close()
    assert game_file.read_bytes() == before


# --- the exported head ------------------------------------------------------------------------


def test_the_export_carries_the_head_and_a_later_file_still_holds_it(game_file: Path) -> None:
    exported = json.loads(run("game", "export", "--format", "json", "--game", str(game_file)).stdout)
    head = exported["chain"]["head"]
    assert exported["chain"]["seq"] == 6
    md = run("game", "export", "--game", str(game_file)).stdout
    assert "## Integrity" in md and f"`{head}`" in md
    find("game note")(Session(), text="later", game=game_file)
    r = run("game", "verify", "--head", head, "--game", str(game_file), "--json")
    assert r.exit_code == 0, r.output
    got = json.loads(r.stdout)
    assert got["head_at"] == 6 and got["seq"] == 7
    r = run("game", "verify", "--head", head[:16], "--game", str(game_file))
    assert r.exit_code == 0 and "events #1 to #6 are as they were exported; 1 recorded since" in r.stdout


def test_a_whole_chain_rewritten_is_caught_only_by_the_exported_head(game_file: Path) -> None:
    """What the chain cannot do alone: a tamperer who edits an event and computes every hash
    again has a log that verifies. The head exported before the edit is no longer in it."""
    head = json.loads(run("game", "verify", "--json", "--game", str(game_file)).stdout)["head"]
    rechain(game_file, "UPDATE events SET data = json_set(data, '$.roll', 3) WHERE seq = 4")
    assert run("game", "verify", "--game", str(game_file)).exit_code == 0
    r = run("game", "verify", "--head", head, "--game", str(game_file))
    assert r.exit_code == 2 and "no event of this log has that hash" in r.stderr


def test_a_short_head_is_refused(game_file: Path) -> None:
    r = run("game", "verify", "--head", "abc", "--game", str(game_file))
    assert r.exit_code == 2 and "at least its first 16" in r.stderr


# --- a log from before the chain --------------------------------------------------------------


def old_log(path: Path) -> None:
    """The file as version 1 wrote it: no hash column, no chain start, schema 1."""
    sql(path, "ALTER TABLE events DROP COLUMN hash", "DELETE FROM meta WHERE key = 'genesis'", "PRAGMA user_version = 1")


def test_an_old_log_is_chained_on_open_and_says_so(game_file: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Chained on its first write, and said once (a warning of the "assistant.game" logger: on the
    command line's stderr, where nothing else handles it; in the server's log)."""
    old_log(game_file)
    r = run("game", "verify", "--game", str(game_file), "--json")  # read only: chained in memory
    assert r.exit_code == 0 and json.loads(r.stdout)["stored"] is False
    r = run("game", "status", "--game", str(game_file))
    assert r.exit_code == 0
    caplog.set_level("WARNING", logger="assistant.game")
    assert run("game", "note", "first write", "--game", str(game_file)).exit_code == 0  # migrates, and says so
    assert run("game", "note", "second write", "--game", str(game_file)).exit_code == 0
    said = [r.getMessage() for r in caplog.records if r.name == "assistant.game"]
    assert len(said) == 1 and "written before the hash chain; its events #1 to #6 were chained now" in said[0], said
    con = sqlite3.connect(game_file)
    assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert con.execute("SELECT count(*) FROM events WHERE hash IS NULL").fetchone()[0] == 0
    con.close()
    r = run("game", "verify", "--game", str(game_file), "--json")
    got = json.loads(r.stdout)
    assert r.exit_code == 0 and got["stored"] is True and got["chained_since"]["upto"] == 6 and got["seq"] == 8
    r = run("game", "verify", "--game", str(game_file))
    assert "when the log held events #1 to #6" in r.stdout
    sql(game_file, "UPDATE events SET data = json_set(data, '$.amount', 13) WHERE seq = 5")
    refused(game_file, "event #5 (damage)", "was changed after it was recorded")


def test_an_old_log_with_a_gap_is_chained_as_it_is(game_file: Path) -> None:
    """Rows missing from a log before it was chained (events #4 and #6 gone): the chain starts
    from the log as it is then, so it is not refused for them; an edit after it is found."""
    sql(game_file, "DELETE FROM events WHERE seq IN (4, 6)")
    old_log(game_file)
    assert run("game", "verify", "--game", str(game_file)).exit_code == 0
    assert run("game", "note", "first write", "--game", str(game_file)).exit_code == 0  # migrates
    r = run("game", "verify", "--game", str(game_file), "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["seq"] == 6, r.output
    sql(game_file, "DELETE FROM events WHERE seq = 6")
    refused(game_file, "event #6 was deleted from the end of the log", "")


# --- the card games' logs ---------------------------------------------------------------------


@pytest.mark.parametrize("game", ["destiny", "swtcg"])
def test_a_card_games_log_is_chained_and_verified(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: str) -> None:
    monkeypatch.setenv("TABLETOP_HOME", str(tmp_path / "home"))
    path = tmp_path / "c.sqlite"
    lg = CardGameLog.new(path, find_card_game(game), card_table_example(game))
    lg.note("first")
    lg.note("second")
    lg.close()
    r = run(game, "verify", "--game", str(path), "--json")
    assert r.exit_code == 0, r.output
    head = json.loads(r.stdout)["head"]
    assert json.loads(run(game, "export", "--format", "json", "--game", str(path)).stdout)["chain"]["head"] == head
    assert head in run(game, "export", "--game", str(path)).stdout
    sql(path, """UPDATE events SET data = '{"text": "third"}' WHERE seq = 2""")
    for cmd in ("verify", "log"):
        r = run(game, cmd, "--game", str(path))
        assert r.exit_code == 2 and "event #2 (note) was changed after it was recorded" in r.stderr, r.output


def test_the_store_refuses_reading_an_edited_log(game_file: Path) -> None:
    sql(game_file, "UPDATE events SET data = json_set(data, '$.roll', 3) WHERE seq = 4")
    with pytest.raises(GameFileError, match=r"event #4 \(attack\) was changed"):
        Game.open(game_file).state()
    assert os.path.exists(game_file)


# --- undo and undo of undo: one consistent state -----------------------------------------------
#
# SWM 2008, PL p.6: "Kiedy postać zostanie aktywowana rozpoczyna się jej tura. [...] W czasie
# tury aktywowana postać może wykonać jedną z następujących czynności: poruszyć a następnie
# wykonać atak [...]" -- when a character is activated its turn begins; in that turn it may move
# and attack. An attack is part of its figure's activation: with the activation undone it did
# not happen, whatever undos of undos came between.


def undo(path: Path, seq: int) -> dict:  # type: ignore[type-arg]
    return find("game undo")(Session(), seq=seq, game=path).json


def z1_damage(path: Path) -> int:
    st, _meta = Session().read_state(path)
    return st.position.figure("z1").damage_taken


def test_an_attack_whose_activation_is_undone_is_void(game_file: Path) -> None:
    # #3 activate a1, #4 a1 attacks z1 for 10, #5 damage z1 3
    assert z1_damage(game_file) == 13
    got = undo(game_file, 3)  # #7: the activation undone
    assert {v["seq"] for v in got["void"]} == {4}
    assert "its activation (event #3) is undone" in got["void"][0]["why"]
    assert z1_damage(game_file) == 3  # the judge's damage (#5) is no part of the activation


def test_undoing_an_undo_does_not_bring_back_an_attack_whose_activation_is_undone(game_file: Path) -> None:
    u_attack = undo(game_file, 4)["event"]["seq"]  # #7 undoes the attack
    u_act = undo(game_file, 3)["event"]["seq"]  # #8 undoes the activation
    assert z1_damage(game_file) == 3
    undo(game_file, u_attack)  # #9 undoes #7: the attack is back in force, its activation is not
    assert z1_damage(game_file) == 3
    st, _meta = Session().read_state(game_file)
    attack = next(e for e in st.entries if e.event.seq == 4)
    assert not attack.undone and attack.void and "event #3" in attack.void
    assert st.active is None  # nobody is acting: a1's activation is undone
    undo(game_file, u_act)  # #10 brings the activation back: its attack with it
    assert z1_damage(game_file) == 13
    st, _meta = Session().read_state(game_file)
    assert st.active == "a1" and st.turn is not None and st.turn.attacks == 1


def test_a_later_activation_owns_the_attacks_after_it(game_file: Path) -> None:
    """The activation undone and made again: the attack recorded after the new one stands."""
    undo(game_file, 4)  # #7 the attack undone
    undo(game_file, 3)  # #8 the activation undone
    s = Session()
    find("game activate")(s, figure="a1", game=game_file)  # #9
    find("game attack")(s, attacker="a1", target="z1", roll=14, game=game_file)  # #10
    assert z1_damage(game_file) == 13


# --- a read-only folder with an orphan -wal; a full disk -----------------------------------------


class _Unopenable:
    """What SQLite's read-only connection does where it cannot make its -shm index: every
    statement fails (root makes it anyway, so the tests stand in for it)."""

    def __init__(self, why: str) -> None:
        self.why = why

    def execute(self, *args: object) -> None:
        raise sqlite3.OperationalError(self.why)

    def close(self) -> None:
        pass


def no_shm(monkeypatch: pytest.MonkeyPatch, path: Path, why: str) -> None:
    real = sqlite3.connect

    def connect(target, *args, **kwargs):  # type: ignore[no-untyped-def]
        if isinstance(target, str) and "mode=ro" in target and path.name in target:
            return _Unopenable(why)
        return real(target, *args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", connect)


def test_an_orphan_wal_in_a_read_only_folder_is_said(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Five notes committed to the -wal, the file copied with its -wal but not its -shm into a
    folder nobody can write to: the notes are not silently hidden."""
    monkeypatch.setenv("TABLETOP_HOME", str(tmp_path / "home"))
    src, ro = tmp_path / "src", tmp_path / "ro"
    src.mkdir()
    ro.mkdir()
    g = Game.new(src / "g.sqlite", POSITION)
    g.store.con.execute("PRAGMA wal_autocheckpoint = 0")  # the notes stay in the -wal
    for i in range(5):
        g.store.append("note", {"text": f"note {i}"})
    for suffix in ("", "-wal"):
        (ro / f"g.sqlite{suffix}").write_bytes((src / f"g.sqlite{suffix}").read_bytes())
    g.close()
    game = ro / "g.sqlite"
    assert (ro / "g.sqlite-wal").stat().st_size > 0 and not (ro / "g.sqlite-shm").exists()
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, *a, **k: False if mode & os.W_OK and Path(p) in (ro, game) else real_access(p, mode, *a, **k))
    no_shm(monkeypatch, game, "unable to open database file")
    for cmd in (["game", "log"], ["game", "verify"]):
        r = run(*cmd, "--game", str(game))
        assert r.exit_code == 2, r.output
        assert "the folder is read-only" in r.stderr and "g.sqlite-wal" in r.stderr and "cannot be read here" in r.stderr
    assert not (ro / "g.sqlite-shm").exists()


def test_a_full_disk_is_reported_as_a_full_disk(game_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a full disk SQLite cannot make the -shm and -wal it reads and writes with and says
    "disk I/O error": the game still reads (nobody can write to it), a write says the disk is
    full, and nothing is written."""
    import collections

    from assistant.game import store

    before = game_file.read_bytes()
    usage = collections.namedtuple("usage", "total used free")
    monkeypatch.setattr(store.shutil, "disk_usage", lambda p: usage(10**6, 10**6, 0))
    no_shm(monkeypatch, game_file, "disk I/O error")

    def full(path: Path) -> sqlite3.Connection:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(GameStore, "_connect", staticmethod(full))
    r = run("game", "status", "--game", str(game_file))
    assert r.exit_code == 0, r.output
    r = run("game", "note", "one more", "--game", str(game_file))
    assert r.exit_code == 2 and "the disk is full; nothing was written" in r.stderr, r.stderr
    assert "damaged" not in r.stderr
    assert game_file.read_bytes() == before
    assert not [p for p in game_file.parent.iterdir() if p.name.startswith("g.sqlite-")]


def test_sqlite_full_on_a_write_is_a_full_disk(game_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLITE_FULL ("database or disk is full") mid-transaction: rolled back, said as a full disk."""
    real = GameStore._connect

    class Full:
        def __init__(self, con: sqlite3.Connection) -> None:
            self.con = con

        def execute(self, sql_: str, *args: object):  # type: ignore[no-untyped-def]
            if sql_.startswith("INSERT INTO events"):
                raise sqlite3.OperationalError("database or disk is full")
            return self.con.execute(sql_, *args)

        def close(self) -> None:
            self.con.close()

        def __getattr__(self, name: str) -> object:  # in_transaction and the rest: the real connection's
            return getattr(self.con, name)

    monkeypatch.setattr(GameStore, "_connect", staticmethod(lambda p: Full(real(p))))
    r = run("game", "note", "one more", "--game", str(game_file))
    assert r.exit_code == 2 and "the disk is full; nothing was written" in r.stderr, r.stderr
    con = sqlite3.connect(game_file)
    assert con.execute("SELECT MAX(seq) FROM events").fetchone()[0] == 6
    con.close()


# --- any one edit to a committed event is found, naming that event (Hypothesis) -----------------

FIELDS = ("at", "kind", "data", "override")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(row=st.integers(1, 6), column=st.sampled_from(FIELDS), text=st.text(min_size=1, max_size=12),
       number=st.integers(-(10**6), 10**6))
def test_any_one_edit_to_a_committed_event_is_named(game_file: Path, tmp_path_factory: pytest.TempPathFactory, row: int,
                                                     column: str, text: str, number: int) -> None:
    path = tmp_path_factory.mktemp("edit") / "g.sqlite"
    path.write_bytes(game_file.read_bytes())
    con = sqlite3.connect(path)
    with con:
        old = con.execute(f"SELECT {column} FROM events WHERE seq = ?", (row,)).fetchone()[0]
        if column == "data":
            obj = json.loads(old)
            key = sorted(obj)[number % len(obj)] if obj and number % 2 else f"k{text}"
            obj[key] = number if obj.get(key) != number else number + 1
            new: object = json.dumps(obj)
        else:
            new = text if text != old else text + "x"
        con.execute(f"UPDATE events SET {column} = ? WHERE seq = ?", (new, row))
    con.close()
    store = GameStore.open_readonly(path)
    try:
        found, events = store.chain()
    finally:
        store.close()
    kind = next(e.kind for e in events if e.seq == row)
    assert found.report.problem is not None and found.report.bad_seq == row
    assert f"event #{row} ({kind})" in found.report.problem


# --- the chain verified once per process, and again after any other connection wrote (issue 29 §1) -----


def test_an_edit_by_another_connection_is_named_while_the_log_stays_open(game_file: Path) -> None:
    """A store that stays open verifies the chain whole once; an edit made meanwhile with sqlite3
    from another connection (the changed d20 of event #4) is named on its next read and refuses
    its next append, which writes nothing."""
    store = GameStore.open(game_file)
    try:
        assert [e.seq for e in store.events()] == [1, 2, 3, 4, 5, 6]
        store.append("note", {"text": "#7, recorded through the open store"})
        assert store.events()[-1].data == {"text": "#7, recorded through the open store"}
        sql(game_file, "UPDATE events SET data = json_set(data, '$.roll', 3) WHERE seq = 4")
        with pytest.raises(GameFileError, match=r"event #4 \(attack\) was changed after it was recorded"):
            store.events()
        with pytest.raises(GameFileError, match=r"event #4 \(attack\)"):
            store.append("note", {"text": "never written"})
    finally:
        store.close()
    con = sqlite3.connect(game_file)
    assert con.execute("SELECT MAX(seq) FROM events").fetchone()[0] == 7
    con.close()


@pytest.mark.parametrize("kept", [True, False], ids=["kept-log", "no-kept-log"])
def test_the_live_table_names_an_edit_made_while_it_is_served(game_file: Path, kept: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The served table keeps the verified log between requests; a row deleted by another
    program is named by its next read and its next write. With no kept log (a read-only place,
    past the bound on kept logs) the table caches its fold by the file's marks: the deletion
    lands in the -wal and leaves the main file and the last event number as they were, and was
    served from that cache (a test order that opened eight tables before this one showed it)."""
    from assistant.game import store as store_module
    from assistant.live.table import Table

    if not kept:
        monkeypatch.setattr(store_module, "MAX_WATCHES", 0)
    table = Table(game=game_file)
    assert table.status()["version"] == 6
    table.run("game note", {"text": "#7 from a phone"})
    assert table.status()["version"] == 7
    sql(game_file, "DELETE FROM events WHERE seq = 5")
    with pytest.raises(GameFileError, match=r"event #6 \(note\) follows a gap: event #5 was deleted"):
        table.snapshot()
    with pytest.raises(GameFileError, match=r"event #6 \(note\) follows a gap"):
        table.run("game note", {"text": "never written"})


def test_a_card_table_names_an_edit_made_while_it_is_served(tmp_path: Path) -> None:
    from assistant.live.table import CardTable

    path = tmp_path / "d.sqlite"
    CardGameLog.new(path, find_card_game("destiny"), card_table_example("destiny")).close()
    table = CardTable(path)
    table.status()
    log = CardGameLog.open(path, {"destiny": find_card_game("destiny")})
    log.note("a note")
    log.close()
    sql(path, "UPDATE events SET data = json_set(data, '$.text', 'another note') WHERE seq = 2")
    with pytest.raises(GameFileError, match=r"event #2 \(note\) was changed after it was recorded"):
        table.status()


def test_a_batch_is_checked_and_recorded_in_one_write_transaction(game_file: Path) -> None:
    """photo apply's moves (Game.do_all): checked inside the write lock, so a write from another
    connection cannot land between the check and the record: while another connection holds the
    write lock the batch waits, and then checks against the log as that write left it."""
    import threading

    other = sqlite3.connect(game_file, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process in the middle of a write
    g = Game.open(game_file)
    done: list[object] = []

    def apply() -> None:
        try:
            done.append(g.do_all("relocate", [{"figure": "a1", "at": "B2", "source": "photo", "confidence": 1.0},
                                              {"figure": "z1", "at": "G7", "source": "photo", "confidence": 1.0}]))
        except Exception as exc:  # the test reads what happened
            done.append(exc)

    t = threading.Thread(target=apply)
    t.start()
    t.join(0.5)
    assert t.is_alive() and not done, done  # waiting for the write lock, nothing checked against a log about to change
    other.execute("ROLLBACK")
    other.close()
    t.join(15)
    g.close()
    events = done[0]
    assert isinstance(events, list) and [e.seq for e in events] == [7, 8]
    assert len({e.at for e in events}) == 1  # one transaction: one time
    con = sqlite3.connect(game_file)
    assert [r[0] for r in con.execute("SELECT kind FROM events WHERE seq > 6")] == ["relocate", "relocate"]
    con.close()


def test_a_batch_with_one_refused_records_nothing(game_file: Path) -> None:
    g = Game.open(game_file)
    try:
        with pytest.raises(Exception, match="nobody|unknown|no figure"):
            g.do_all("relocate", [{"figure": "a1", "at": "B2", "source": "photo", "confidence": 1.0},
                                  {"figure": "nobody", "at": "C3", "source": "photo", "confidence": 1.0}])
        assert g.events()[-1].seq == 6
    finally:
        g.close()


def test_two_undos_at_once_undo_two_events(game_file: Path) -> None:
    """The event "undo" takes back is found inside the write lock: two undos from two
    connections at once undo the last two events, never the same one twice."""
    import threading

    gate = threading.Barrier(2)
    out: list[object] = []

    def undo() -> None:
        g = Game.open(game_file)
        try:
            gate.wait(5)
            out.append(g.undo().data["seq"])
        finally:
            g.close()

    threads = [threading.Thread(target=undo) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(out) == [5, 6]  # the note (#6) and the damage (#5)


def test_the_web_status_says_from_when_an_old_log_is_chained(game_file: Path) -> None:
    from assistant.live.table import Table

    old_log(game_file)
    table = Table(game=game_file)
    assert table.status()["chained_since"] is None  # read only: not chained yet
    table.run("game note", {"text": "the first write chains it"})
    since = table.status()["chained_since"]
    assert since["upto"] == 6 and since["at"][:4].isdigit()


@pytest.mark.parametrize("kept", [True, False], ids=["kept-log", "no-kept-log"])
def test_bytes_written_into_the_file_by_hand_are_found_while_the_log_stays_open(game_file: Path, kept: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """An edit that does not go through SQLite (the file's bytes changed in place) changes no
    data version: the file's modification time and size say it, and the log is read again
    through a new connection (no page kept in a cache hides it) -- with a kept log, and without
    one (past the bound on kept logs: the full suite's earlier tests held eight and showed it)."""
    from assistant.game import store as store_module

    if not kept:
        monkeypatch.setattr(store_module, "MAX_WATCHES", 0)
    store = GameStore.open(game_file)
    try:
        assert store.events()[-1].data["text"] == "table 4, round 1"
        raw = game_file.read_bytes()
        assert raw.count(b"table 4, round 1") == 1  # the note (#6) is in the file itself, not in a -wal
        was = game_file.stat()
        game_file.write_bytes(raw.replace(b"table 4, round 1", b"table 5, round 1"))
        # a later modification time than the one verified, however coarse the file system's clock
        os.utime(game_file, ns=(was.st_atime_ns, was.st_mtime_ns + 1_000_000))
        with pytest.raises(GameFileError, match=r"event #6 \(note\) was changed after it was recorded"):
            store.events()
    finally:
        store.close()


# --- edits the chain cannot catch (every hash computed again), refused by what they say --------


def test_an_undo_of_the_setup_is_refused_as_an_edit(game_file: Path) -> None:
    """No command undoes the setup (the game would start from nothing); a log that says one did
    was edited, and every command refuses it, naming the event."""
    find("game undo")(Session(), seq=5, game=game_file)  # #7 undoes the damage
    rechain(game_file, "UPDATE events SET data = json_set(data, '$.seq', 1) WHERE seq = 7")
    assert run("game", "verify", "--game", str(game_file)).exit_code == 0  # the chain itself holds
    for cmd in (["game", "status"], ["game", "export", "--format", "json"], ["game", "note", "later"]):
        r = run(*cmd, "--game", str(game_file))
        assert r.exit_code == 2 and "event #7 undoes the setup (event #1)" in r.stderr, (cmd, r.output)
        assert "Traceback" not in r.output


def test_an_initiative_won_by_a_side_not_on_the_map_is_void(game_file: Path) -> None:
    """The initiative command names only the sides on the map; an initiative edited to be won
    by another side begins no round: the event is void with its reason, and the game stands as
    it would with that initiative undone (round 0; the later events as an undo leaves them)."""
    rechain(game_file, "UPDATE events SET data = json_set(data, '$.winner', 'q', '$.first', 'q') WHERE seq = 2")
    r = run("game", "log", "--game", str(game_file), "--json")
    assert r.exit_code == 0, r.output
    entries = {e["seq"]: e for e in json.loads(r.stdout)["events"]}
    assert "side q has no figure on the map (sides: a, z)" in entries[2]["void"]
    status = run("game", "status", "--game", str(game_file))
    assert status.exit_code == 0 and "no round yet" in status.stdout, status.output


@pytest.mark.parametrize("lang, one, two", [
    ("en", "the log is intact: 1 event, checked by its SHA-256", "the log is intact: 2 events, each linked"),
    ("pl", "dziennik jest nienaruszony: 1 zdarzenie, sprawdzone", "dziennik jest nienaruszony: 2 zdarzenia, każde"),
    ("cs", "záznam je neporušený: 1 událost, ověřená", "záznam je neporušený: 2 události, každá"),
])
def test_a_game_just_begun_is_one_event_in_the_readers_grammar(tmp_path: Path, lang: str, one: str, two: str) -> None:
    """A stranger's first `game verify` (round 31): "1 events" (Polish "1 zdarzeń", Czech "1 událostí")."""
    path = tmp_path / "g.sqlite"
    from assistant.cards import default_library
    from assistant.resources import example_path

    Game.new(path, example_path("clone-wars-example-combat").read_text(encoding="utf-8"), default_library(), override="tests").close()
    r = runner.invoke(app, ["--lang", lang, "game", "verify", "--game", str(path)], env={"NO_COLOR": "1", "COLUMNS": "200"})
    assert r.exit_code == 0 and r.stdout.startswith(one), r.stdout
    assert runner.invoke(app, ["game", "note", "n", "--game", str(path)]).exit_code == 0
    r = runner.invoke(app, ["--lang", lang, "game", "verify", "--game", str(path)], env={"NO_COLOR": "1", "COLUMNS": "200"})
    assert r.exit_code == 0 and r.stdout.startswith(two), r.stdout


def test_a_file_at_its_size_limit_is_not_said_a_full_disk(game_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading R369 (round 32): _write_error said DISK_FULL from two branches; its second took "File
    too large" (EFBIG: the file system's largest file, ``ulimit -f``) for a full disk on a disk with
    room. One test of a full disk now (by number or by words), and a file at its limit said as such."""
    import errno

    before = game_file.read_bytes()

    def too_large(path: Path) -> sqlite3.Connection:
        raise OSError(errno.EFBIG, "File too large")

    monkeypatch.setattr(GameStore, "_connect", staticmethod(too_large))
    r = run("game", "note", "one more", "--game", str(game_file))
    assert r.exit_code == 2 and "largest file this system lets the program write" in r.stderr, r.stderr
    assert "disk is full" not in r.stderr and "Traceback" not in r.stderr
    assert game_file.read_bytes() == before

    def no_room(path: Path) -> sqlite3.Connection:  # the words without their number (a wrapped error)
        raise OSError("No space left on device")

    monkeypatch.setattr(GameStore, "_connect", staticmethod(no_room))
    r = run("game", "note", "one more", "--game", str(game_file))
    assert r.exit_code == 2 and "the disk is full; nothing was written" in r.stderr, r.stderr
    assert game_file.read_bytes() == before
