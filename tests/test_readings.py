"""Answers cite what ships: the rulebooks, or the project's own register of readings
(docs/readings.md, shipped as assistant/_data/readings.md) -- never shared/ or a digest."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from assistant.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
READINGS = ROOT / "docs" / "readings.md"
runner = CliRunner()


def test_every_reading_cited_has_an_entry_with_the_seeds_words() -> None:
    text = READINGS.read_text(encoding="utf-8")
    entries = {int(m) for m in re.findall(r"^## R(\d+) — ", text, re.M)}
    cited = set()
    for path in list((ROOT / "assistant").rglob("*.py")) + list((ROOT / "cards").rglob("*.yaml")):
        cited |= {int(m) for m in re.findall(r"reading R(\d+) in docs/readings\.md", path.read_text(encoding="utf-8"))}
    assert cited and cited <= entries, sorted(cited - entries)
    for block in re.split(r"^## ", text, flags=re.M)[1:]:
        assert "> **" in block and "**Reading.**" in block and "**Why.**" in block, block[:60]


def test_miniatures_answers_cite_no_digest() -> None:
    answers = []
    for args in (["attack", "sbd", "obi", "-p", "clone-wars-example-combat", "--json"],
                 ["cover", "sbd", "obi", "-p", "clone-wars-example-combat", "--json"],
                 ["targets", "sbd", "-p", "clone-wars-example-combat", "--json"],
                 ["matrix", "-p", "pillar-room", "--json"], ["matrix", "-p", "ddm-forest-field", "--json"],
                 ["matrix", "-p", "clone-wars-corridor", "--json"]):
        r = runner.invoke(app, args)
        assert r.exit_code == 0, r.output
        answers.append(r.stdout)
    for out in answers:
        json.loads(out)
        assert not re.search(r"shared/|CONTRACT|\w+\.md §|\b[A-D]-\d{1,2}\b", out), re.search(r"shared/|CONTRACT|\w+\.md §|\b[A-D]-\d{1,2}\b", out)
