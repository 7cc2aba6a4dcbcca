"""Saving then loading gives the same position; no input of any kind crashes the loader."""

from __future__ import annotations

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.position import check_position_text, dump_position, load_position, parse_position, save_position
from assistant.resources import example_files

from .strategies import positions


@given(positions())
def test_save_then_load_gives_the_same_position(pos) -> None:
    text = dump_position(pos)
    again = parse_position(text)
    assert again == pos
    assert dump_position(again) == text  # canonical: a second save writes the same bytes


def test_examples_round_trip(tmp_path) -> None:
    for path in example_files():
        pos = load_position(path)
        out = tmp_path / path.name
        save_position(pos, out)
        assert load_position(out) == pos


def test_save_is_atomic_and_leaves_no_temp_files(tmp_path) -> None:
    pos = load_position(example_files()[0])
    target = tmp_path / "p.yaml"
    target.write_text("old")
    save_position(pos, target)
    assert [p.name for p in tmp_path.iterdir()] == ["p.yaml"]


def _no_crash(text: str) -> None:
    result = check_position_text(text, "fuzz.yaml")
    # either a position, or problems that each name the file
    if result.position is None:
        assert result.errors
        assert all(p.file == "fuzz.yaml" for p in result.problems)


@given(st.text(max_size=400))
def test_any_text_is_refused_cleanly(text: str) -> None:
    _no_crash(text)


yaml_scalars = st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.floats(allow_nan=True) | st.text(max_size=12)
yaml_values = st.recursive(yaml_scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=25)
keys = st.sampled_from(
    [
        "format",
        "rules",
        "map",
        "figures",
        "cols",
        "rows",
        "squares",
        "edges",
        "wall",
        "door",
        "id",
        "side",
        "at",
        "size",
        "card",
        "stats",
        "hp",
        "marker",
        "areas",
        "open_doors",
        "open_corners",
    ]
)


@given(st.dictionaries(keys, yaml_values | st.dictionaries(keys, yaml_values, max_size=6), max_size=6))
def test_any_yaml_structure_is_refused_cleanly(data) -> None:
    _no_crash(yaml.safe_dump(data))


@settings(max_examples=200)
@given(positions(), st.data())
def test_mutated_valid_files_never_crash(pos, data) -> None:
    text = dump_position(pos)
    if not text:
        return
    i = data.draw(st.integers(0, len(text) - 1))
    j = data.draw(st.integers(i, min(len(text), i + 8)))
    junk = data.draw(st.text(max_size=6))
    _no_crash(text[:i] + junk + text[j:])


def test_line_break_characters_in_names_round_trip() -> None:
    # PyYAML would write U+0085 raw and read it back as a line break (found by Hypothesis)
    from assistant.editions import Edition
    from assistant.model import Map, Position

    for name in ["\x85", "a\u2028b", "Mosiężny Samuraj", "a\u2029"]:
        pos = Position(Edition.DDM2005, Map(cols=2, rows=2, name=name))
        assert parse_position(dump_position(pos)) == pos
