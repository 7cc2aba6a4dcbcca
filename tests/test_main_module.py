"""``python -m assistant`` run by a Python without the project's dependencies: a plain word, exit 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import assistant.cli.fast
from assistant import __main__ as entry

ROOT = Path(__file__).resolve().parent.parent


def test_a_python_without_the_dependencies_is_told_what_to_install() -> None:
    # -S: no site-packages, so the package is found in the checkout but typer is not (the system
    # python3 beside the virtual environment the README installs into)
    done = subprocess.run([sys.executable, "-S", "-m", "assistant", "--help"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "the package typer is not installed for this Python" in done.stderr
    assert "pip install ." in done.stderr and sys.executable in done.stderr


def test_the_word_is_said_in_the_language_asked(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def missing() -> None:
        raise ModuleNotFoundError("No module named 'cv2'", name="cv2")

    monkeypatch.setattr(assistant.cli.fast, "main", missing)
    monkeypatch.setattr(sys, "argv", ["assistant", "--lang", "pl", "photo", "detect", "x.jpg"])
    with pytest.raises(SystemExit) as ended:
        entry.run()
    assert ended.value.code == 2
    assert "pakiet cv2 nie jest zainstalowany" in capsys.readouterr().err


def test_a_missing_module_of_the_project_itself_still_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing() -> None:
        raise ModuleNotFoundError("No module named 'assistant.nowhere'", name="assistant.nowhere")

    monkeypatch.setattr(assistant.cli.fast, "main", missing)
    monkeypatch.setattr(sys, "argv", ["assistant", "--help"])
    with pytest.raises(ModuleNotFoundError):
        entry.run()
