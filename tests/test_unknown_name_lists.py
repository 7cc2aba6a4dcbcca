"""A figure's name that matches nothing lists the figures there are (a new user's trial, round 23:
``attack sbd xyz`` said only "unknown figure 'xyz'", and the player had to look up the ids)."""

from __future__ import annotations

from typer.testing import CliRunner

from assistant import i18n
from assistant.cli.app import app
from assistant.errors import LISTED_NAMES, UnknownNameError


def test_nothing_alike_lists_the_names_there_are() -> None:
    e = UnknownNameError("figure", "xyz", ["sbd", "obi", "dooku"])
    assert str(e) == "unknown figure 'xyz' (known: dooku, obi, sbd)"


def test_a_name_alike_is_suggested_instead() -> None:
    e = UnknownNameError("figure", "obx", ["sbd", "obi", "dooku"])
    assert str(e) == "unknown figure 'obx' (did you mean 'obi'?)"


def test_a_long_roster_is_cut_and_a_card_library_never_listed() -> None:
    names = [f"f{i:02d}" for i in range(30)]
    said = str(UnknownNameError("figure", "zzz", names))
    assert said.endswith("f11…)") and "f12" not in said and said.count(", ") == LISTED_NAMES - 1
    assert str(UnknownNameError("card", "zzz", ["Luke", "Leia"])) == "unknown card 'zzz'"


def test_in_polish_and_on_the_command_line() -> None:
    with i18n.language("pl"):
        assert str(UnknownNameError("figure", "xyz", ["obi"])) == "nieznany element (postać): 'xyz' (znane: obi)"
    r = CliRunner().invoke(app, ["attack", "sbd", "xyz", "-p", "clone-wars-example-combat"])
    assert r.exit_code == 2
    assert "unknown figure 'xyz' (known: clone, dooku, obi, sbd, sbdc)" in r.output, r.output
