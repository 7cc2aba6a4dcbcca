"""Golden scenarios: every geometry test case of the digests (tests/golden/*.yaml).

Each file is a position (CONTRACT §2) and the answers the digest expects for it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from assistant.position import check_position_text
from assistant.rules import adjacent, cover, nearest_enemies, range_between, sight

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.yaml"))


def load(path: Path):
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    result = check_position_text(yaml.safe_dump(doc["position"]), path.name)
    assert result.position is not None, [str(p) for p in result.problems]
    return doc, result.position


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden(path: Path) -> None:
    doc, pos = load(path)
    for exp in doc["expect"]:
        q = exp["query"]
        where = f"{doc['case']}: {exp}"
        if q == "los":
            got = sight(pos, exp["from"], exp["to"])
            assert got.line_of_sight is exp["line_of_sight"], f"{where}\n{got.reasons}"
            if got.line_of_sight:
                assert got.witness is not None
        elif q == "cover":
            got = cover(pos, exp["attacker"], exp["target"])
            assert got.cover is exp["cover"], f"{where}\n{got.as_json()}"
            if "attack" in exp:
                assert got.kind == exp["attack"], where
            if "sources" in exp:
                assert [{"kind": s.kind, "where": s.where} for s in got.sources] == exp["sources"], f"{where}\n{got.as_json()}"
            if "best_corner" in exp:
                assert list(got.best_corner) == exp["best_corner"], f"{where}\n{got.as_json()}"
            if "corners_with_cover" in exp:
                with_cover = sorted([list(c) for c, s in got.corners if s])
                assert with_cover == sorted(exp["corners_with_cover"]), f"{where}\n{got.corners}"
        elif q == "range":
            got = range_between(pos, exp["from"], exp["to"])
            assert got.squares == exp["squares"], where
        elif q == "adjacent":
            assert adjacent(pos, pos.figure(exp["a"]), pos.figure(exp["b"])) is exp["adjacent"], where
        elif q == "nearest":
            d, ids = nearest_enemies(pos, exp["figure"])
            assert (d, sorted(ids)) == (exp["squares"], sorted(exp["enemies"])), where
        else:  # pragma: no cover
            raise AssertionError(f"unknown query {q}")


def test_every_digest_case_has_a_golden_file() -> None:
    names = " ".join(yaml.safe_load(p.read_text())["case"] for p in GOLDEN)
    for case in ["D-1", "D-2", "D-3a", "D-3b", "D-4", "D-5", "D-6", "D-7", "D-8", "D-9",
                 "TC-01", "TC-06", "TC-10", "TC-11", "TC-12", "TC-13a", "TC-13b", "TC-14", "TC-15", "TC-16",
                 "TC-17", "TC-18", "TC-20", "TC-30", "TC-34", "TC-35", "TC-36", "TC-37"]:
        assert case in names, case


def test_start_corner_rule_is_explained() -> None:
    doc, pos = load(Path(__file__).parent / "golden" / "swm-5-7-rule-3-far-side-of-the-wall.yaml")
    got = cover(pos, "shooter", "beast")
    texts = " ".join(r.text for r in got.reasons)
    assert "[1, 1], [1, 2]" in texts and "stands behind" in texts
    assert any("reading R1 in docs/readings.md" in r.rule for r in got.reasons)
