"""Bad input never ends in exit 1: a seeded sweep over every family of generated bad input
(mutated position, card, table and importer files, random argument vectors, tampered game
logs, hostile images, numbers out of range). ``bench/fuzz.py`` runs the same families at
100,000 cases and more."""

from __future__ import annotations

from pathlib import Path

import pytest

from .fuzzcases import FAMILIES, run_case

CASES_PER_FAMILY = 25


@pytest.mark.parametrize("family", FAMILIES)
def test_no_bad_input_ends_in_exit_1(family: str, tmp_path: Path) -> None:
    failures = []
    for seed in range(CASES_PER_FAMILY):
        o = run_case(family, 10_000 + seed, tmp_path, limit_s=20)
        if o.problem:
            args = [a if len(a) < 80 else a[:40] + "..." for a in o.args]
            failures.append(f"seed {10_000 + seed}: {o.problem}: {args}\n    {o.output.strip()[-300:]}")
    assert not failures, "\n".join(failures)
