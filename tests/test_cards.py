"""The shipped card library matches the seeds, and bad card files are refused with their lines."""

from __future__ import annotations

import textwrap

import pytest

from assistant.cards import CardLibrary, DdmCard, SwmCard, library_folders, load_card_file, load_folders, split_ability
from assistant.errors import AmbiguousNameError, CardLibraryError, UnknownNameError


def test_shipped_library_validates() -> None:
    cards, problems, files = load_folders(library_folders())
    assert not problems, [str(p) for p in problems]
    assert len(files) >= 4
    assert {c.game for c in cards} == {"swm", "ddm"}


# Values the seeds state; each line cites where (shared/rules/swm.md §11, ddm.md §1.2)
SEED_VALUES = [
    ("swm", "General Obi-Wan Kenobi", {"defense": 22, "hp": 120, "cost": 55, "force": 2}),  # PL p.7, p.11, p.15
    ("swm", "Count Dooku of Serenno", {"attack": 16, "damage": 20, "force": 5}),  # PL p.7, p.11
    ("swm", "Security Battle Droid", {"attack": 3, "damage": 10}),  # PL p.24-25
    ("swm", "Clone Trooper", {"cost": 9}),  # PL p.15: 3 for 27
    ("swm", "ARC Trooper", {"cost": 18}),  # PL p.15
    ("swm", "General Grievous, Supreme Commander", {"attack": 12, "damage": 20}),  # CS r.7
    ("swm", "Obi-Wan Kenobi, Jedi Master", {"defense": 21}),  # CS r.7
    ("swm", "Shaak Ti", {"force": 3}),  # CS r.9
]


@pytest.mark.parametrize("game, name, values", SEED_VALUES, ids=[v[1] for v in SEED_VALUES])
def test_seed_numbers(library, game: str, name: str, values: dict) -> None:
    card = library.get(game, name)
    for key, expected in values.items():
        assert getattr(card, key) == expected, f"{name}.{key}"


def test_commander_effects_are_structured(library) -> None:
    sbdc = library.get("swm", "Super Battle Droid Commander")
    (bonus,) = sbdc.commander_effect.effects
    assert (bonus.affects, bonus.requires, bonus.range, bonus.attack, bonus.conditions, bonus.overrides) == (
        "allies", "Droid", 6, 4, ("did-not-move",), ("Droid",),
    )
    obi = library.get("swm", "General Obi-Wan Kenobi")
    assert obi.commander_effect.effects[0].attack == obi.commander_effect.effects[0].defense == 4
    assert "od niego" in obi.commander_effect.reading  # the ambiguity is visible
    assert library.get("swm", "Count Dooku of Serenno").commander_effect == "none"


def test_brass_samurai_extra_damage(library) -> None:
    samurai = library.get("ddm", "Brass Samurai")
    assert isinstance(samurai, DdmCard)
    (line,) = samurai.melee
    assert (line.bonus, line.damage, line.damage_type) == (None, 10, "magic")
    assert [(e.amount, e.type) for e in line.extra] == [(5, "fire")]


def test_no_invented_numbers(library) -> None:
    # every DDM card in the booklet is partial: no stat line is printed, so none is filled in
    for card in library.cards("ddm"):
        assert not card.complete
        assert card.ac is None and card.hp is None


def test_lookup_is_case_insensitive_and_suggests(library) -> None:
    assert library.get("swm", "count dooku of serenno").name == "Count Dooku of Serenno"
    with pytest.raises(UnknownNameError) as info:
        library.get("swm", "Count Doku")
    assert "Count Dooku of Serenno" in info.value.suggestions
    assert library.find("dooku").name == "Count Dooku of Serenno"
    with pytest.raises(AmbiguousNameError):
        library.find("obi-wan")


def test_split_ability() -> None:
    assert split_ability("Bounty Hunter +4") == ("Bounty Hunter", 4)
    assert split_ability("Force Lightning 2") == ("Force Lightning", 2)
    assert split_ability("Droid") == ("Droid", None)


def write(tmp_path, text: str):
    p = tmp_path / "c.yaml"
    p.write_text(textwrap.dedent(text))
    return p


SWM_OK = """\
format: tabletop-cards/1
game: swm
set: Test
cards:
  - name: Test Trooper
    source: physical card
    cost: 10
    factions: [Republic]
    unique: false
    size: medium
    hp: 10
    defense: 14
    attack: 6
    damage: 10
    speed: 6
    force: 0
"""


def test_a_complete_card_loads(tmp_path) -> None:
    cards, problems = load_card_file(write(tmp_path, SWM_OK))
    assert not problems
    (card,) = cards
    assert isinstance(card, SwmCard) and card.set == "Test" and card.commander_effect == "none"


@pytest.mark.parametrize(
    "change, line, fragment",
    [
        (("    hp: 10\n", ""), 5, "missing required key 'hp'"),
        (("    hp: 10\n", "    hp:\n"), 11, "write 'unknown'"),
        (("    hp: 10\n", "    hp: ten\n"), 11, "valid integer"),
        (("    hp: 10\n", "    hp: -4\n"), 11, "greater than or equal to 0"),
        (("    size: medium\n", "    size: enormous\n"), 10, "'enormous' is not allowed here"),
        (("    speed: 6\n", "    sped: 6\n"), 15, "unknown key 'sped' (did you mean 'speed'?)"),
        (("game: swm\n", "game: chess\n"), 2, "'chess' is not allowed here"),
        (("format: tabletop-cards/1\n", "format: cards/9\n"), 1, "is not allowed here"),
    ],
)
def test_bad_card_files_name_the_line(tmp_path, change, line: int, fragment: str) -> None:
    text = SWM_OK.replace(*change)
    cards, problems = load_card_file(write(tmp_path, text))
    assert not cards
    hits = [p for p in problems if fragment in p.message]
    assert hits, [str(p) for p in problems]
    assert hits[0].line == line, str(hits[0])


def test_a_name_and_set_defined_twice_with_different_values_is_refused(tmp_path) -> None:
    (tmp_path / "a.yaml").write_text(SWM_OK)
    (tmp_path / "b.yaml").write_text(SWM_OK.replace("hp: 10", "hp: 20"))
    with pytest.raises(CardLibraryError, match="'Test Trooper' of the set 'Test' is defined twice with different values"):
        CardLibrary.load([tmp_path])


def test_the_same_card_twice_is_one_card_and_other_sets_are_other_cards(tmp_path) -> None:
    (tmp_path / "a.yaml").write_text(SWM_OK)
    (tmp_path / "b.yaml").write_text(SWM_OK.replace("source: physical card", "source: another printing"))
    (tmp_path / "c.yaml").write_text(SWM_OK.replace("set: Test", "set: Other").replace("hp: 10", "hp: 20"))
    lib = CardLibrary.load([tmp_path])
    assert [(c.name, c.set, c.hp) for c in lib.cards("swm")] == [("Test Trooper", "Other", 20), ("Test Trooper", "Test", 10)]
    assert lib.get("swm", "Test Trooper", "test").hp == 10
    with pytest.raises(AmbiguousNameError, match=r"Test Trooper \(Other\).*Test Trooper \(Test\)"):
        lib.get("swm", "Test Trooper")


def test_not_yaml_card_file(tmp_path) -> None:
    p = tmp_path / "x.yaml"
    p.write_bytes(b"\xff\xfe\x00binary")
    cards, problems = load_card_file(p)
    assert not cards and "not UTF-8" in problems[0].message
