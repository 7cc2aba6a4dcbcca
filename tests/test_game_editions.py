"""The game package asks each edition's record what its rules are, never which edition it is:
no ``Edition.X`` comparison is left in ``assistant/game``, and a family whose rules the game has
not written fails loudly instead of borrowing another family's."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from assistant.game import squads
from assistant.position import parse_position
from assistant.resources import example_path
from assistant.rules.record import EditionRecord, find_edition

GAME = Path(__file__).resolve().parent.parent / "assistant" / "game"


def test_no_edition_is_compared_by_name_in_the_game_package() -> None:
    found = [f"{p.relative_to(GAME)}:{i}" for p in sorted(GAME.rglob("*.py"))
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if re.search(r"\bEdition\.[A-Z]", line)]
    assert found == []


def test_squads_of_a_family_without_squad_rules_fail_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    path = example_path("clone-wars-corridor")
    assert path is not None
    pos = parse_position(path.read_text(), "position")
    assert squads.check_squads(pos)[0] == []  # the real record: its squads pass

    def made_up(name: object) -> EditionRecord:
        return dataclasses.replace(find_edition("swm2008"), family="starship")

    monkeypatch.setattr(squads, "find_edition", made_up)
    with pytest.raises(NotImplementedError, match="starship"):
        squads.check_squads(pos)
