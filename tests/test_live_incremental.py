"""The live table folds only the events appended since its last fold: the state it reads must be
the very state a whole fold of the log gives, after any sequence of records and undos, and the
phones asking at once must get the same answers."""

from __future__ import annotations

import tempfile
import threading
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.cards import default_library
from assistant.game import Game
from assistant.game.state import Kept, copy_state, finish, fold, fold_on
from assistant.game.store import GameStore
from assistant.live.table import Table
from assistant.resources import example_path

LIB = default_library()
FIGURES = ("obi", "ctc", "clone1", "clone2", "dooku", "sbdc", "sbd", "nobody")

#: one step of a game: an event appended as the log holds it (no rules check: void events too)
#: or an undo (of the last event in force, or of a named earlier one)
step = st.one_of(
    st.tuples(st.just("note"), st.fixed_dictionaries({"text": st.text(max_size=5)})),
    st.tuples(st.just("damage"), st.fixed_dictionaries({"figure": st.sampled_from(FIGURES), "amount": st.integers(1, 200)})),
    st.tuples(st.just("activate"), st.fixed_dictionaries({"figure": st.sampled_from(FIGURES)})),
    st.tuples(st.just("end-turn"), st.just({})),
    st.tuples(st.just("initiative"), st.sampled_from([
        {"rolls": {"light": 14, "dark": 9}, "winner": "light", "first": "light"},
        {"rolls": {"light": 3, "dark": 9}, "winner": "dark", "first": "dark"},
    ])),
    st.tuples(st.just("undo"), st.one_of(st.none(), st.integers(1, 40))),
)


def _new_game() -> Path:
    path = Path(tempfile.mkdtemp()) / "g.sqlite"
    Game.new(path, example_path("clone-wars-corridor").read_text(encoding="utf-8"), LIB).close()
    return path


def _whole(path: Path) -> object:
    store = GameStore.open_readonly(path)
    try:
        return fold(store.events(), LIB, path=str(path))
    finally:
        store.close()


def _append_elsewhere(path: Path, kind: str, data: dict[str, object]) -> None:
    """One event written to the game's log as another process (the CLI, another phone) would."""
    g = Game.open(path, LIB)
    try:
        g.store.append(kind, data)
    finally:
        g.close()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(step, min_size=1, max_size=3), min_size=1, max_size=6))
def test_incremental_fold_is_the_whole_fold(batches: list[list[tuple[str, object]]]) -> None:
    path = _new_game()
    table = Table(game=path, library=LIB)
    table.snapshot()  # a fold kept from the start
    kept: Kept | None = None  # the game's own (the check before a record goes on from it)
    for batch in batches:  # several changes between two reads, as when a phone was asleep
        g = Game.open(path, LIB)
        try:
            for kind, data in batch:
                if kind == "undo":
                    try:
                        g.undo(data if isinstance(data, int) else None)
                    except Exception:  # nothing to undo, or no such event: the step is skipped
                        pass
                else:
                    assert isinstance(data, dict)
                    g.store.append(kind, data)
        finally:
            g.close()
        snap = table.snapshot()
        assert snap.state == _whole(path)
        assert snap.state == Table(game=path, library=LIB).snapshot().state
        assert snap.version == max(e.event.seq for e in snap.state.entries)
        assert snap.state.position.departed == _whole(path).position.departed  # type: ignore[attr-defined]
        store = GameStore.open_readonly(path)
        try:
            kept = fold_on(kept, store.events(), LIB, str(path))
        finally:
            store.close()
        assert finish(copy_state(kept[0])) == _whole(path)


def test_a_fallen_figure_is_named_after_an_incremental_fold() -> None:
    path = _new_game()
    table = Table(game=path, library=LIB)
    table.snapshot()
    _append_elsewhere(path, "damage", {"figure": "sbd", "amount": 500})
    snap = table.snapshot()
    assert "sbd" in snap.state.fallen
    assert "sbd" in snap.position.departed
    assert all(f.id != "sbd" for f in snap.position.figures)


def test_another_game_put_in_place_is_folded_whole() -> None:
    path = _new_game()
    table = Table(game=path, library=LIB)
    table.snapshot()
    other = Path(tempfile.mkdtemp()) / "o.sqlite"
    Game.new(other, example_path("pillar-room").read_text(encoding="utf-8"), LIB).close()
    other.replace(path)
    assert table.snapshot().state == _whole(path)
    assert {f.id for f in table.snapshot().position.figures} == {f.id for f in _whole(path).position.figures}  # type: ignore[attr-defined]


def test_phones_asking_at_once_get_the_answers_of_one_asking_alone() -> None:
    path = _new_game()
    table = Table(game=path, library=LIB)
    pairs = [("obi", "sbd"), ("clone1", "dooku"), ("dooku", "obi"), ("sbdc", "clone2")]
    table.act("note", {"text": "a change"})
    answers: list[dict[str, object]] = []
    lock = threading.Lock()

    def phone() -> None:
        got = {f"{q}:{a}:{b}": getattr(table, q)(a, b) for a, b in pairs for q in ("los", "cover", "attack")}
        with lock:
            answers.append(got)

    threads = [threading.Thread(target=phone) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    alone = Table(game=path, library=LIB)
    expected = {f"{q}:{a}:{b}": getattr(alone, q)(a, b) for a, b in pairs for q in ("los", "cover", "attack")}
    assert len(answers) == 8
    assert all(a == expected for a in answers)
    assert expected["los:obi:sbd"]["query"] == "los"


def test_after_a_defeat_a_note_keeps_the_board_and_its_lines_of_sight() -> None:
    path = _new_game()
    table = Table(game=path, library=LIB)
    _append_elsewhere(path, "damage", {"figure": "sbd", "amount": 500})
    before = table.snapshot()
    answer = table.los("obi", "dooku")
    table.act("note", {"text": "a change that leaves the board"})
    after = table.snapshot()
    assert after is not before
    assert after.position is before.position  # the fallen named in it, its memos kept
    assert after.state == _whole(path)
    assert table.los("obi", "dooku") == answer
    table.act("damage", {"figure": "obi", "amount": 1}, "a test")
    assert table.snapshot().position is not before.position  # a figure changed: a new board
    assert table.snapshot().state == _whole(path)


def test_records_through_the_table_are_checked_on_the_state_of_the_whole_log() -> None:
    path = _new_game()
    table = Table(game=path, library=LIB)
    table.act("initiative", {"rolls": {"light": 14, "dark": 9}, "first": "light"})
    table.act("activate", {"figure": "obi"})
    # the kept fold says obi is active: a dark figure is refused, with the rule, as a whole fold says
    whole = Game.open(path, LIB)
    try:
        expected = [r.text for r in whole.refusals("activate", {"figure": "dooku"})]
    finally:
        whole.close()
    assert expected
    try:
        table.act("activate", {"figure": "dooku"})
    except Exception as exc:
        assert expected[0] in str(exc)
    else:
        raise AssertionError("activating dooku was recorded")
    table.act("end-turn", {})
    assert table.snapshot().state == _whole(path)


def test_a_sessions_reads_go_on_from_its_kept_fold_and_equal_a_whole_fold() -> None:
    from assistant.commands import Session

    path = _new_game()
    s = Session(game=path, cache=True, cards_library=LIB)
    s.read_state()
    for kind, data in [("damage", {"figure": "sbd", "amount": 500}), ("note", {"text": "x"}), ("activate", {"figure": "obi"})]:
        g = s.open_game()
        try:
            assert g.kept is not None  # the write's check goes on from the session's fold
            g.do(kind, data, "a test")
        finally:
            g.close()
        assert s.read_state()[0] == _whole(path)
    g = s.open_game()
    try:
        g.undo()
    finally:
        g.close()
    state = s.read_state()[0]
    assert state == _whole(path)
    assert not any(e.event.kind == "activate" and not e.undone for e in state.entries)
