"""Golden scenarios for Star Wars: Destiny and the SW TCG: every test case of ``destiny.md``
§9 and ``swtcg.md`` §9 as a table, commands and the expected answer
(:mod:`assistant.cardgame.scenario`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from assistant.cardgames import run_scenario

HERE = Path(__file__).parent
FILES = sorted(p for d in ("golden_destiny", "golden_swtcg") for p in (HERE / d).glob("[!_]*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_card_game_scenario(path: Path) -> None:
    spec = yaml.safe_load(path.read_text(encoding="utf-8"))
    failures = run_scenario(spec, path.parent)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("digest, prefix, folder", [("destiny.md", "D", "golden_destiny"), ("swtcg.md", "T", "golden_swtcg")])
def test_every_digest_case_has_a_golden_scenario(digest: str, prefix: str, folder: str) -> None:
    text = (HERE.parent.parent / "shared" / "rules" / digest)
    if not text.exists():
        pytest.skip("the digests live beside the project (../shared/rules)")
    ids = set(re.findall(rf"^\| ({prefix}-\d+b?) \|", text.read_text(encoding="utf-8"), re.M))
    covered = {yaml.safe_load(p.read_text(encoding="utf-8"))["case"] for p in (HERE / folder).glob("[!_]*.yaml")}
    assert ids - covered == set(), f"cases without a golden scenario: {sorted(ids - covered)}"
