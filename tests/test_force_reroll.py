"""SWM: a Force point rerolls the attack roll just made, and the second result stands (PL p.11, CS
r.9); Mettle adds +4 to the reroll (PL p.54). The game could not record it (reading R187): `game
force obi -1` spent the point, and the rerolled attack was refused as one attack more than Double
Attack allows (or, undoing the miss and recording the second die, read without Mettle's +4)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from assistant.cli.app import app

runner = CliRunner()


def ok(*args: str) -> str:
    r = runner.invoke(app, list(args))
    assert r.exit_code == 0, (args, r.output)
    return r.output


@pytest.fixture
def obi_by_dooku(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """clone-wars-example-combat (swm2008): Obi-Wan (Attack 14, Mettle, 2 Force points) next to Count
    Dooku (Defense 21, +4 Lightsaber Duelist against an adjacent Force user), in Obi-Wan's turn."""
    monkeypatch.setenv("TABLETOP_HOME", str(tmp_path / "home"))
    path = tmp_path / "g.sqlite"
    ok("game", "new", "-p", "clone-wars-example-combat", "--game", str(path))
    ok("game", "initiative", "--roll", "light=3", "--roll", "dark=10")
    ok("game", "activate", "dooku")
    ok("game", "move", "dooku", "H4")  # G3's neighbour
    ok("game", "end-turn")
    ok("game", "activate", "sbd")
    ok("game", "end-turn")
    ok("game", "activate", "obi")
    return path


def _figure(fid: str) -> dict:  # type: ignore[type-arg]
    return next(f for f in json.loads(ok("game", "status", "--json"))["figures"] if f["id"] == fid)


def test_a_force_reroll_is_recorded_with_mettle_and_its_point(obi_by_dooku: Path) -> None:
    # the first roll needs 25 - 14 = 11; the reroll 25 - 14 - 4 (Mettle) = 7: a 9 hits for 20
    out = json.loads(ok("game", "attack", "obi", "dooku", "--roll", "3", "--reroll", "9", "--save", "Makashi Style Master=4", "--json"))
    ev = out["event"]
    assert (ev["roll"], ev["needs"], ev["reroll"], ev["reroll_needs"], ev["hit"], ev["damage"]) == (3, 11, 9, 7, True, 20)
    assert ev["force_spent"] == {"obi": 1}
    # 2 Force points, 1 more by Force Renewal 1 on activating (PL p.11, p.46; R229), 1 spent
    assert _figure("obi")["force"] == 2 and _figure("dooku")["damage_taken"] == 20
    assert "rerolled with a Force point" in ok("game", "log")
    # a second attack (Double Attack: it has not moved) may be rerolled too (Master of the Force 2: two spends a turn)
    ev = json.loads(ok("game", "attack", "obi", "dooku", "--roll", "2", "--reroll", "6", "--json"))["event"]
    assert not ev["hit"] and _figure("obi")["force"] == 1  # 6 < 7: the reroll stands, a miss


def test_a_figure_without_force_points_cannot_reroll(obi_by_dooku: Path) -> None:
    r = runner.invoke(app, ["game", "attack", "obi", "sbd", "--roll", "3", "--reroll", "9"])
    assert r.exit_code == 2  # sbd is not adjacent: refused before any reroll
    ok("game", "end-turn")
    ok("game", "activate", "clone")
    r = runner.invoke(app, ["game", "attack", "clone", "dooku", "--roll", "3", "--reroll", "19"])
    assert r.exit_code == 2 and "cannot reroll this attack with a Force point" in r.output, r.output
