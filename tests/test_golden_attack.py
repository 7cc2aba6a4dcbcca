"""Golden attack scenarios: the seeds' worked examples and the digests' attack cases."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from assistant.position import check_position_text
from assistant.rules.attack import attack
from assistant.rules.powers import use_power

GOLDEN = sorted((Path(__file__).parent / "golden_attack").glob("*.yaml"))


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_attack_golden(path: Path) -> None:
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    result = check_position_text(yaml.safe_dump(doc["position"]), path.name)
    assert result.position is not None, [str(p) for p in result.problems]
    pos = result.position
    for exp in doc["expect"]:
        if "power" in exp:  # a Force power that hurts: attack --power
            got = use_power(pos, exp["attacker"], exp["target"], exp["power"], moved=exp.get("moved", False)).as_json()
            for key, value in exp["result"].items():
                assert got[key] == value, f"{key}: {got[key]!r} != {value!r}\n{doc['case']}\n{got}"
            for text in exp.get("illegal_include", ()):
                assert any(text in r["text"] for r in got["illegal_reasons"]), f"no reason says {text!r}\n{got}"
            for text in exp.get("notes_include", ()):
                assert any(text in n["text"] for n in got["notes"]), f"no note says {text!r}\n{got}"
            if "struck" in exp:
                assert {s["figure"]: s["expected_damage"] for s in got["struck"]} == exp["struck"], got
            if "if_overridden" in exp:  # a refused power: whom a judge's override would strike, said apart
                assert {s["figure"]: s["expected_damage"] for s in got.get("if_overridden", [])} == exp["if_overridden"], got
            continue
        ans = attack(
            pos, exp["attacker"], exp["target"], moved=exp.get("moved", False),
            combined_fire=tuple(exp.get("combined_fire", ())), charge=exp.get("charge", False), kind=exp.get("kind"),
            opportunity=exp.get("opportunity", False),
        )
        got = ans.as_json()
        where = f"{doc['case']}: {exp}\n{got}"
        for key, value in exp["result"].items():
            assert got[key] == value, f"{key}: {got[key]!r} != {value!r}\n{where}"
        for source in exp.get("modifiers_include", ()):
            assert source in [m["source"] for m in got["modifiers"]], where
        for item in exp.get("not_modelled_include", ()):
            assert item in got["not_modelled"], where
        if "helpers" in exp:
            assert got["combined_fire"] == exp["helpers"], where
        if "refused" in exp:
            assert len(got["refused_helpers"]) == exp["refused"], where
        if "attacks" in exp:
            assert len(got["attacks"]) == exp["attacks"], where
        if "after_hit" in exp:  # the abilities between the (first) hit and its damage, in order
            assert [s["ability"] for s in got["after_hit"]] == exp["after_hit"], where
        for text in exp.get("notes_include", ()):
            assert any(text in n["text"] for n in got["notes"]), f"no note says {text!r}\n{where}"
        for text in exp.get("illegal_include", ()):
            assert any(text in r["text"] for r in got["illegal_reasons"]), f"no reason says {text!r}\n{where}"
        for number, value in exp.get("attack_expected", {}).items():
            assert got["attacks"][int(number) - 1]["expected_damage"] == value, where
        # the contract's numbers on every answer; an attack that can never be made (a Light Spirit)
        # gives no odds, and never hits
        assert 2 <= got["needs"] <= 20 and 0 <= got["p_hit"] <= 1 and (got["odds"] or got["p_hit"] == 0)
