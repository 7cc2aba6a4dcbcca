"""los / cover / range / matrix / nearest from the command line, exactly as CONTRACT §3."""

from __future__ import annotations

import json

import cv2
import pytest
from typer.testing import CliRunner

from assistant.cli.app import app

runner = CliRunner()
P = ["--position", "clone-wars-corridor"]


def run(*args):
    return runner.invoke(app, list(args))


def one_json(result) -> dict:
    return json.loads(result.stdout)  # fails unless stdout is exactly one JSON document


def test_los_json_keys() -> None:
    r = run("los", "obi", "sbd", *P, "--json")
    assert r.exit_code == 0, r.output
    obj = one_json(r)
    assert {"query", "rules", "from", "to", "line_of_sight", "witness", "reasons"} <= set(obj)
    assert obj["query"] == "los" and obj["rules"] == "swm2008" and obj["line_of_sight"] is True
    (x0, y0), (x1, y1) = obj["witness"]
    for v in (x0, y0, x1, y1):
        assert (v * 1024) == int(v * 1024)  # binary fractions
    assert all({"text", "rule"} <= set(reason) for reason in obj["reasons"])
    assert obj["reasons"][0]["rule"].startswith("swm2008")


def test_los_blocked_still_exit_0() -> None:
    r = run("los", "obi", "dooku", *P, "--json")
    assert r.exit_code == 0
    obj = one_json(r)
    assert obj["line_of_sight"] is False and obj["witness"] is None
    assert "O8" in obj["reasons"][0]["text"]


def test_cover_json_keys() -> None:
    obj = one_json(run("cover", "sbd", "obi", *P, "--json"))
    assert {"query", "rules", "attacker", "target", "line_of_sight", "cover", "best_corner", "sources", "reasons"} <= set(obj)
    assert obj["cover"] is True and obj["best_corner"] == [16.0, 5.0]
    assert {"kind": "wall", "where": "E7"} in obj["sources"]


def test_cover_without_sight_is_null() -> None:
    obj = one_json(run("cover", "obi", "dooku", *P, "--json"))
    assert obj["line_of_sight"] is False and obj["cover"] is None and obj["best_corner"] is None


def test_range_json() -> None:
    obj = one_json(run("range", "obi", "dooku", *P, "--json"))
    assert obj == {**obj, "query": "range", "rules": "swm2008", "from": "obi", "to": "dooku", "squares": 17}


def test_matrix_json_matches_the_single_queries() -> None:
    obj = one_json(run("matrix", *P, "--json"))
    assert obj["query"] == "matrix" and obj["rules"] == "swm2008"
    pairs = obj["pairs"]
    assert len(pairs) == 7 * 6
    for pair in pairs[:12]:
        assert set(pair) >= {"from", "to", "line_of_sight", "witness", "cover", "best_corner", "range"}
        los = one_json(run("los", pair["from"], pair["to"], *P, "--json"))
        assert los["line_of_sight"] == pair["line_of_sight"]
        cov = one_json(run("cover", pair["from"], pair["to"], *P, "--json"))
        assert (cov["cover"], cov["best_corner"]) == (pair["cover"], pair["best_corner"])
        rng = one_json(run("range", pair["from"], pair["to"], *P, "--json"))
        assert rng["squares"] == pair["range"]
        if not pair["line_of_sight"]:
            assert pair["cover"] is None and pair["best_corner"] is None


def test_unknown_figure_exit_2_with_error_json() -> None:
    r = run("los", "obi", "vader", *P, "--json")
    assert r.exit_code == 2
    obj = one_json(r)
    assert "unknown figure 'vader'" in obj["error"]
    r = run("cover", "obi", "dookuu", *P)
    assert r.exit_code == 2 and "did you mean 'dooku'" in r.stderr


def test_bad_position_file_exit_2(tmp_path) -> None:
    bad = tmp_path / "b.yaml"
    bad.write_text("format: tabletop-position/1\nrules: swm2008\nmap: {cols: 2, rows: 2}\nfigures: [{id: a, side: x, at: C3}]\n")
    r = run("matrix", "--position", str(bad), "--json")
    assert r.exit_code == 2 and "off the map" in one_json(r)["error"]


@pytest.mark.parametrize("cmd", [["los", "obi", "dooku"], ["cover", "sbd", "obi"]])
def test_png_is_drawn(tmp_path, cmd) -> None:
    out = tmp_path / "x.png"
    r = run(*cmd, *P, "--png", str(out))
    assert r.exit_code == 0, r.output
    img = cv2.imread(str(out))
    assert img is not None and img.shape[0] > 300 and img.shape[1] > 600


def test_human_output_names_the_rule() -> None:
    r = run("cover", "sbd", "obi", *P)
    assert r.exit_code == 0 and "cover (+4)" in r.stdout and "PL p.10" in r.stdout
    r = run("nearest", "sbd", *P)
    assert r.exit_code == 0 and "clone1" in r.stdout


def test_ddm_melee_cover_from_cli(tmp_path) -> None:
    pos = tmp_path / "m.yaml"
    pos.write_text("format: tabletop-position/1\nrules: ddm2005\nmap: {cols: 4, rows: 4, squares: {wall: [C2]}}\n"
                   "figures: [{id: orc, side: a, at: B2}, {id: dwarf, side: b, at: C3}]\n")
    obj = one_json(run("cover", "orc", "dwarf", "--position", str(pos), "--json"))
    assert obj["cover"] is True and obj["attack"] == "melee" and obj["sources"] == [{"kind": "melee-corner", "where": "C2"}]


def test_a_figure_and_itself_is_refused() -> None:
    r = run("los", "obi", "obi", *P, "--json")
    assert r.exit_code == 2 and "two different figures" in one_json(r)["error"]
