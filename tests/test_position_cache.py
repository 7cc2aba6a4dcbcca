"""The position cache (assistant.position.load.check_position_file): a shortcut that never changes
an answer. A file read before is answered without validating it again (nor importing pydantic),
with the position, the problems and the warnings a fresh read gives; an edited file, another
language, another card library or a damaged cache file all read the file anew."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from assistant import i18n
from assistant.cards import CardLibrary, default_library
from assistant.position import check_position_file, check_position_text
from assistant.position import load as load_module
from assistant.resources import HOME_ENV, example_path

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(HOME_ENV, str(tmp_path / "home"))
    return tmp_path / "home"


@pytest.fixture
def corridor(tmp_path: Path) -> Path:
    path = example_path("clone-wars-corridor")
    assert path is not None
    copy = tmp_path / "corridor.yaml"
    shutil.copy(path, copy)
    return copy


def fresh(path: Path) -> load_module.LoadResult:
    return check_position_text(path.read_text(encoding="utf-8"), str(path), default_library())


def no_checking(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> object:
        raise AssertionError("the file was checked again")

    monkeypatch.setattr(load_module, "check_position_text", refuse)


def test_a_hit_gives_what_a_read_gives(home: Path, corridor: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = check_position_file(corridor)
    assert list((home / "cache" / "positions").iterdir())
    no_checking(monkeypatch)
    again = check_position_file(corridor)
    monkeypatch.undo()
    want = fresh(corridor)
    assert again.position == first.position == want.position and again.position is not None
    assert again.problems == want.problems and again.file == want.file


def test_problems_and_warnings_are_the_same_from_the_cache(home: Path, corridor: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = corridor.read_text(encoding="utf-8")
    corridor.write_text(text.replace("figures:", "bogus: 1\nfigures:", 1), encoding="utf-8")
    first = check_position_file(corridor)
    assert first.errors and first.position is None
    no_checking(monkeypatch)
    assert check_position_file(corridor).problems == first.problems


def test_an_edited_file_is_read_anew(home: Path, corridor: Path) -> None:
    before = check_position_file(corridor)
    corridor.write_text(corridor.read_text(encoding="utf-8").replace("figures:", "bogus: 1\nfigures:", 1), encoding="utf-8")
    after = check_position_file(corridor)
    assert after.problems == fresh(corridor).problems != before.problems


def test_the_reader_s_code_changed_reads_a_file_anew(home: Path, corridor: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A checkout whose position checker changed without a version bump was answered the old
    checker's reading from the cache (user21, round 21): the reader's files are in the key."""
    check_position_file(corridor)
    assert any("check.py" in name for name, _size, _mtime in load_module.reader_code())
    changed = tuple((name, size + 1, mtime) for name, size, mtime in load_module.reader_code())
    monkeypatch.setattr(load_module, "reader_code", lambda: changed)
    read: list[str] = []
    real = load_module.check_position_text
    monkeypatch.setattr(load_module, "check_position_text", lambda *a, **k: read.append("again") or real(*a, **k))
    assert check_position_file(corridor).position is not None and read == ["again"]


def test_problems_are_kept_per_language(home: Path, corridor: Path) -> None:
    corridor.write_text(corridor.read_text(encoding="utf-8").replace("figures:", "bogus: 1\nfigures:", 1), encoding="utf-8")
    english = check_position_file(corridor).problems
    i18n.set_language("pl")
    try:
        polish = check_position_file(corridor).problems
        assert polish == fresh(corridor).problems != english
    finally:
        i18n.set_language("en")
    assert check_position_file(corridor).problems == english


def test_two_card_libraries_reading_a_file_in_turn_keep_each_its_cache(home: Path, corridor: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # two installs (or checkouts) of the program, each its own card library, read one photo's record
    # in turn: each read checked the file anew (one cache slot a file name)
    shipped = default_library()
    assert shipped.key is not None
    other = CardLibrary(shipped.cards(), shipped.files, shipped.key + b" another install")
    first = check_position_file(corridor, shipped), check_position_file(corridor, other)
    no_checking(monkeypatch)
    again = check_position_file(corridor, shipped), check_position_file(corridor, other), check_position_file(corridor, shipped)
    assert [r.position for r in again] == [r.position for r in (*first, first[0])]


def test_a_library_built_in_code_is_not_cached(home: Path, corridor: Path) -> None:
    library = CardLibrary(default_library().cards())
    assert library.key is None
    assert check_position_file(corridor, library).position == fresh(corridor).position
    assert not (home / "cache" / "positions").exists()


@pytest.mark.parametrize("damage", [b"", b"not a pickle", b"\x80\x05K\x01."])
def test_a_damaged_cache_is_ignored(home: Path, corridor: Path, damage: bytes) -> None:
    want = check_position_file(corridor)
    for slot in (home / "cache" / "positions").iterdir():
        slot.write_bytes(damage)
    assert check_position_file(corridor).position == want.position


def test_a_cached_one_shot_query_imports_no_pydantic_model_of_positions(home: Path) -> None:
    code = (
        "import sys\n"
        "from assistant.position import load_position\n"
        "load_position(sys.argv[1])\n"
        "print('assistant.position.check' in sys.modules, 'assistant.position.schema' in sys.modules)\n"
    )
    path = str(example_path("clone-wars-corridor"))
    env = {"PYTHONPATH": str(ROOT), HOME_ENV: str(home), "PATH": ""}
    first = subprocess.run([sys.executable, "-c", code, path], env=env, capture_output=True, text=True, check=True)
    assert first.stdout.split() == ["True", "True"]
    again = subprocess.run([sys.executable, "-c", code, path], env=env, capture_output=True, text=True, check=True)
    assert again.stdout.split() == ["False", "False"]
