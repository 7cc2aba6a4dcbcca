"""Reading a photo does not import the photo generator (issue 28, round 11: a photo in a second,
most of which was the process start). The synthetic-photo generator (:mod:`assistant.photo.synth`)
and its scenery are for the tests and benchmarks; the detector needs only what the table prints
(:mod:`assistant.photo.printed`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PHOTO = ROOT / "assistant" / "photo"
#: the generator's modules, and the detector's: every other module of the photo package
GENERATOR = ("assistant.photo.synth", "assistant.photo.scenery")
DETECTOR = sorted(f"assistant.photo.{p.stem}" for p in PHOTO.glob("*.py")
                  if p.stem != "__init__" and f"assistant.photo.{p.stem}" not in GENERATOR)


def _loaded_after_importing(module: str) -> set[str]:
    """The modules a fresh interpreter holds after importing ``module`` (and nothing else)."""
    code = f"import sys, {module}; print('\\n'.join(sorted(sys.modules)))"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0, run.stderr[-2000:]
    return set(run.stdout.split())


@pytest.mark.parametrize("module", ["assistant.photo", *DETECTOR])
def test_a_detector_module_does_not_import_the_generator(module: str) -> None:
    assert not _loaded_after_importing(module) & set(GENERATOR)


def test_the_generator_still_offers_what_the_table_prints() -> None:
    # tests and benchmarks draw their photos with the same dictionary and corner side the detector reads
    from assistant.photo import printed, synth

    assert (synth.DICT, synth.MARKER_SQUARES) == (printed.DICT, printed.MARKER_SQUARES)
