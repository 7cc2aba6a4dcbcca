"""The card library's cache (assistant.cards.load_folders): a shortcut that never changes an
answer. A hit gives the library a fresh read gives, problems included; an edited file, a damaged
cache file or an unwritable cache folder all fall back to reading the files."""

from __future__ import annotations

import pickle
import shutil
import sys
from pathlib import Path

import pytest

from assistant import cards, i18n
from assistant.cards import _load_folders, cache_file, library_folders, load_folders
from assistant.resources import HOME_ENV, cache_dir, data_dir

BAD_CARD = """format: tabletop-cards/1
game: swm
set: Test
cards:
  - name: Broken
    source: x
    cost: ~
"""


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(HOME_ENV, str(tmp_path / "home"))
    copy = tmp_path / "cards"
    shutil.copytree(data_dir("cards"), copy)
    return copy


def cache_path(tmp_path: Path, folder: Path) -> Path:
    return tmp_path / "home" / "cache" / cache_file([folder])


def no_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(folders: object) -> object:
        raise AssertionError("the cards were read again")

    monkeypatch.setattr(cards, "_load_folders", refuse)


def test_a_hit_gives_the_library_a_read_gives(folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fresh = _load_folders([folder])
    assert load_folders([folder]) == fresh
    assert cache_path(tmp_path, folder).is_file()
    no_reading(monkeypatch)
    cached = load_folders([folder])
    assert cached == fresh
    assert [c.base_stats() for c in cached[0]] == [c.base_stats() for c in fresh[0]]


def test_two_libraries_read_in_turn_keep_each_its_cache(folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # two installs (or checkouts) of the program share the user's cache folder: read one after the
    # other, each was read and validated anew every time (one cache file held the last library read)
    other = tmp_path / "other-cards"
    shutil.copytree(folder, other)
    fresh = _load_folders([folder]), _load_folders([other])
    assert (load_folders([folder]), load_folders([other])) == fresh
    no_reading(monkeypatch)
    assert (load_folders([folder]), load_folders([other]), load_folders([folder])) == (*fresh, fresh[0])


def test_the_shipped_library_is_the_same_from_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(HOME_ENV, str(tmp_path / "home"))
    fresh = _load_folders(library_folders())
    assert load_folders(library_folders()) == fresh
    no_reading(monkeypatch)
    assert load_folders(library_folders()) == fresh


def test_problems_are_the_same_from_the_cache(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (folder / "zz-bad.yaml").write_text(BAD_CARD, encoding="utf-8")
    fresh = _load_folders([folder, folder / "missing"])
    assert fresh[1], "the bad file has problems"
    assert load_folders([folder, folder / "missing"]) == fresh
    no_reading(monkeypatch)
    assert load_folders([folder, folder / "missing"]) == fresh


def test_problems_are_kept_per_language(folder: Path) -> None:
    (folder / "zz-bad.yaml").write_text(BAD_CARD, encoding="utf-8")
    english = load_folders([folder])[1]
    with i18n.language("pl"):
        polish = load_folders([folder])[1]
        assert polish == _load_folders([folder])[1]
    assert polish != english
    assert load_folders([folder])[1] == english


def test_an_edited_card_file_is_read_anew(folder: Path, tmp_path: Path) -> None:
    before = load_folders([folder])
    path = sorted(folder.rglob("*.yaml"))[0]
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("cards:", "cards:\n  - 7", 1), encoding="utf-8")
    after = load_folders([folder])
    assert after == _load_folders([folder]) != before
    assert any("mapping of fields" in p.message for p in after[1])


def test_a_new_card_file_is_read(folder: Path) -> None:
    load_folders([folder])
    (folder / "zz-bad.yaml").write_text(BAD_CARD, encoding="utf-8")
    assert load_folders([folder]) == _load_folders([folder])


@pytest.mark.parametrize("damage", [b"", b"not a pickle", pickle.dumps("a string"), pickle.dumps(("key", None))])
def test_a_damaged_cache_is_ignored_and_written_anew(folder: Path, tmp_path: Path, damage: bytes) -> None:
    fresh = load_folders([folder])
    cache_path(tmp_path, folder).write_bytes(damage)
    assert load_folders([folder]) == fresh
    key, kept = pickle.loads(cache_path(tmp_path, folder).read_bytes())
    assert kept == fresh


def test_an_unwritable_cache_folder_still_reads(folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder would be", encoding="utf-8")
    monkeypatch.setenv(HOME_ENV, str(blocker))
    assert load_folders([folder]) == _load_folders([folder])
    assert load_folders([folder]) == _load_folders([folder])


def test_an_unreadable_card_file_is_reported_as_before(folder: Path) -> None:
    path = folder / "zz-bad.yaml"
    path.write_bytes(b"\xff\xfe not utf-8")
    assert load_folders([folder]) == _load_folders([folder])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the shortcut is Linux's")
@pytest.mark.parametrize("xdg", [None, "", "  ", "/somewhere/cache"])
def test_the_cache_folder_is_platformdirs_own(monkeypatch: pytest.MonkeyPatch, xdg: str | None) -> None:
    from platformdirs import user_cache_path

    monkeypatch.delenv(HOME_ENV, raising=False)
    if xdg is None:
        monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_CACHE_HOME", xdg)
    assert cache_dir() == user_cache_path("tabletop-assistant", appauthor=False)
