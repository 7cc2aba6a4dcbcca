"""An undo never breaks a game (random streams with random undos), and the game file's edge
conditions end in a clear message with exit 2: read-only folders, a full disk, a replay out of
range, an event row that cannot be read, stray -wal/-shm files."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from assistant.cli.app import app
from assistant.errors import AssistantError
from assistant.game import Game
from assistant.game.actions import status_info

runner = CliRunner()

POSITION = textwrap.dedent("""\
    format: tabletop-position/1
    rules: {rules}
    map: {{cols: 8, rows: 8, areas: {{victory_a: ["A1:B2"]}}}}
    figures:
      - {{id: a1, side: a, at: A1, stats: {{hp: 20, defense: 10, attack: 5, damage: 10, speed: 6, level: 2}}}}
      - {{id: a2, side: a, at: B3, stats: {{hp: 20, defense: 10, attack: 5, damage: 10, speed: 6, level: 2}}}}
      - {{id: z1, side: z, at: H8, stats: {{hp: 20, defense: 10, attack: 5, damage: 10, speed: 6, level: 2}}}}
      - {{id: z2, side: z, at: G6, stats: {{hp: 20, defense: 10, attack: 5, damage: 10, speed: 6, level: 2}}}}
    """)
FIGS = ["a1", "a2", "z1", "z2"]
SQUARES = [f"{c}{r}" for c in "ABCDEFGH" for r in range(1, 9)]

command = st.one_of(
    st.tuples(st.just("initiative"), st.sampled_from(["a", "z"])),
    st.tuples(st.just("activate"), st.sampled_from(FIGS)),
    st.tuples(st.just("end-turn"), st.none()),
    st.tuples(st.just("move"), st.tuples(st.sampled_from(FIGS), st.sampled_from(SQUARES))),
    st.tuples(st.just("damage"), st.tuples(st.sampled_from(FIGS), st.integers(1, 25))),
    st.tuples(st.just("heal"), st.tuples(st.sampled_from(FIGS), st.integers(1, 25))),
    st.tuples(st.just("attack"), st.tuples(st.sampled_from(FIGS), st.sampled_from(FIGS), st.integers(1, 20))),
    st.tuples(st.just("condition"), st.sampled_from(FIGS)),
    st.tuples(st.just("flee"), st.sampled_from(FIGS)),
    st.tuples(st.just("undo"), st.integers(1, 40)),
    st.tuples(st.just("end"), st.none()),
)


def _data(kind: str, arg):  # type: ignore[no-untyped-def]
    if kind == "initiative":
        return {"rolls": {"a": 10, "z": 5}, "winner": arg, "first": arg}
    if kind == "activate":
        return {"figure": arg}
    if kind == "move":
        return {"figure": arg[0], "to": arg[1], "cost": 1}
    if kind in ("damage", "heal"):
        return {"figure": arg[0], "amount": arg[1]}
    if kind == "attack":
        return {"attacker": arg[0], "target": arg[1], "roll": arg[2], "needs": 10, "hit": arg[2] >= 10, "damage": 10 if arg[2] >= 10 else 0}
    if kind == "condition":
        return {"figure": arg, "add": True, "condition": "stunned"}
    if kind == "flee":
        return {"figure": arg}
    if kind == "end":
        return {"reason": "time"}
    return {}


@pytest.mark.parametrize("rules", ["swm2008", "ddm2005"])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cmds=st.lists(command, min_size=1, max_size=30))
def test_random_streams_with_random_undos_always_open(tmp_path_factory, rules, cmds) -> None:
    path = tmp_path_factory.mktemp("undo") / "g.sqlite"
    g = Game.new(path, POSITION.format(rules=rules), override="random stream")
    try:
        for kind, arg in cmds:
            try:
                if kind == "undo":
                    g.undo(arg if arg % 3 else None)
                else:
                    g.do(kind, _data(kind, arg), override="random stream")
            except AssistantError:
                pass  # refused (a gone figure, nothing to undo): nothing written
        # whatever was recorded and undone, every view of the game works
        events = g.events()
        for upto in (None, *range(1, len(events) + 1, 5)):
            state = g.state(upto=upto)
            json.dumps(status_info(state))
            assert len(state.entries) == (upto or len(events))
        assert all(e.text for e in g.state().entries)
    finally:
        g.close()


def test_undo_of_an_undo_brings_the_event_back(tmp_path) -> None:
    g = Game.new(tmp_path / "g.sqlite", POSITION.format(rules="swm2008"))
    g.do("initiative", _data("initiative", "a"))
    g.do("activate", {"figure": "a1"})
    dmg = g.do("damage", {"figure": "z1", "amount": 5})
    u = g.undo()
    assert g.state().position.figure("z1").damage_taken == 0
    g.undo(u.seq)
    assert g.state().position.figure("z1").damage_taken == 5
    with pytest.raises(AssistantError, match="already undone"):
        g.undo(u.seq)  # an undone undo is not undone twice
    with pytest.raises(AssistantError, match="there is no event #99"):
        g.undo(99)
    assert dmg.seq < u.seq
    g.close()


def test_a_correction_off_the_map_is_refused_and_nothing_is_recorded(tmp_path) -> None:
    """A relocation (a photo's or a judge's correction) checks no rule, but the map is 8 x 8: Z99
    and I1 are no squares of it, and the log stays as it was."""
    g = Game.new(tmp_path / "g.sqlite", POSITION.format(rules="swm2008"))
    before = len(g.events())
    for at in ("Z99", "I1"):
        with pytest.raises(AssistantError, match=f"a1 cannot be set to {at}: {at} is off the map"):
            g.do("relocate", {"figure": "a1", "at": at})
    assert len(g.events()) == before
    g.do("relocate", {"figure": "a1", "at": "H1"})
    assert g.state().position.figure("a1").at.name == "H1"
    g.close()


# --- edge conditions --------------------------------------------------------------------------


@pytest.fixture
def game_file(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("TABLETOP_HOME", str(tmp_path / "home"))
    path = tmp_path / "g.sqlite"
    g = Game.new(path, POSITION.format(rules="swm2008"))
    g.do("initiative", _data("initiative", "a"))
    g.close()
    return path


def run(*args: str):
    return runner.invoke(app, list(args))


def test_a_read_only_folder_reads_and_refuses_writes_clearly(game_file, monkeypatch) -> None:
    real_access = os.access
    folder = game_file.parent

    def no_write(p, mode, *a, **k):  # type: ignore[no-untyped-def]
        if mode & os.W_OK and Path(p).resolve() in (folder.resolve(), game_file.resolve()):
            return False
        return real_access(p, mode, *a, **k)

    monkeypatch.setattr(os, "access", no_write)  # root ignores permissions; the program asks os.access
    for args in (["status"], ["log"], ["export"], ["replay", "--to", "2"], ["snapshot", "-o", str(folder.parent / "snap.yaml")]):
        r = run("game", *args, "--game", str(game_file))
        assert r.exit_code == 0, (args, r.stderr)
    r = run("game", "activate", "a1", "--game", str(game_file))
    assert r.exit_code == 2 and "read-only" in r.stderr


def test_a_full_disk_leaves_no_half_made_game(tmp_path) -> None:
    script = textwrap.dedent(f"""
        import resource, signal, sys
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (2048, 2048))
        from typer.testing import CliRunner
        from assistant.cli.app import app
        r = CliRunner().invoke(app, ["game", "new", "-p", "clone-wars-corridor", "--game", {str(tmp_path / "g.sqlite")!r}])
        sys.stderr.write(r.stderr)
        sys.exit(r.exit_code)
    """)
    env = {**os.environ, "TABLETOP_HOME": str(tmp_path / "home")}
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 2, p.stderr
    assert "cannot write to the game" in p.stderr and "disk is full" in p.stderr and "nothing was written" in p.stderr
    assert not list(tmp_path.glob("*g.sqlite*")), list(tmp_path.iterdir())


def test_replay_out_of_range(game_file) -> None:
    for n in ("0", "-3", "999"):
        r = run("game", "replay", "--to", n, "--game", str(game_file))
        assert r.exit_code == 2 and "the log has events #1 to #" in r.stderr


def test_an_unreadable_event_row_is_named_and_use_catches_it(game_file) -> None:
    con = sqlite3.connect(game_file)
    con.execute("UPDATE events SET data = 'not json' WHERE seq = 2")
    con.commit()
    con.close()
    before = game_file.read_bytes()
    for args in (["game", "use", str(game_file)], ["game", "status", "--game", str(game_file)]):
        r = run(*args)
        assert r.exit_code == 2 and "event #2 cannot be read" in r.stderr, r.stderr
    assert game_file.read_bytes() == before


def test_an_unknown_event_kind_is_refused(game_file) -> None:
    con = sqlite3.connect(game_file)
    con.execute("UPDATE events SET kind = 'teleport' WHERE seq = 2")
    con.commit()
    con.close()
    r = run("game", "log", "--game", str(game_file))
    # the hash chain finds the edit first (tests/test_game_integrity.py), naming the event
    assert r.exit_code == 2 and "event #2 (teleport) was changed after it was recorded" in r.stderr


def test_a_refused_file_leaves_no_wal_or_shm_behind(tmp_path) -> None:
    other = tmp_path / "other.sqlite"
    con = sqlite3.connect(other)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("CREATE TABLE t (x)")
    con.commit()
    con.close()
    for suffix in ("-wal", "-shm"):
        (tmp_path / f"other.sqlite{suffix}").unlink(missing_ok=True)
    r = run("game", "status", "--game", str(other))
    assert r.exit_code == 2 and "not a game of this program" in r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.sqlite"]


def test_a_read_only_games_refusal_is_whole_in_the_readers_language(game_file, monkeypatch) -> None:
    """Reading R347: "nie można zapisać do gry ...: the file or its folder is read-only; ..." (the
    reason was English in a Polish or Czech sentence)."""
    real_access = os.access

    def no_write(p, mode, *a, **k):  # type: ignore[no-untyped-def]
        if mode & os.W_OK and Path(p).resolve() in (game_file.parent.resolve(), game_file.resolve()):
            return False
        return real_access(p, mode, *a, **k)

    monkeypatch.setattr(os, "access", no_write)
    r = run("--lang", "pl", "game", "activate", "a1", "--game", str(game_file))
    assert r.exit_code == 2 and "plik lub jego folder jest tylko do odczytu" in r.stderr and "read-only" not in r.stderr, r.stderr
    r = run("--lang", "cs", "game", "activate", "a1", "--game", str(game_file))
    assert r.exit_code == 2 and "soubor nebo jeho složka je jen pro čtení" in r.stderr, r.stderr
