from __future__ import annotations

import os
import tempfile
import textwrap
from pathlib import Path

import pytest
import typer.testing
from hypothesis import HealthCheck, settings

from assistant.cards import default_library
from assistant.i18n import set_language
from assistant.position import check_position_text

# the tests read English answers, whatever the machine's locale says (the other languages have
# their own tests)
os.environ["TABLETOP_LANG"] = "en"
# ... and never the user's own games, card library or cache: a folder of the test run's own
# (a test that needs another sets $TABLETOP_HOME itself)
os.environ["TABLETOP_HOME"] = tempfile.mkdtemp(prefix="tabletop-tests-")
# ... and read the answers unwrapped, as a pipe gets them, whatever terminal the run started in (a
# test that wants a width sets COLUMNS itself). pytest imports GNU readline, which exports
# COLUMNS=80 into the process's environment: a plain run's own os.environ never saw it, but the
# workers of a parallel run (`pytest -n auto`) inherit it, and every CLI answer that named a long
# temporary path came back wrapped mid-path (reading R412). Unset at the C level too, so the
# commands the tests start see the same environment in a plain run and in a parallel one.
for _terminal_size in ("COLUMNS", "LINES"):
    os.environ.pop(_terminal_size, None)
    os.unsetenv(_terminal_size)

# The test run's verdict must not depend on the draw: "ci" (the default) draws the same examples on
# every run (derandomize): a rare draw found by chance in one run this round failed on a bug in a
# test's own generator (tests/test_photo_grid_ridges.py drew a grey level over 255). Exploring new draws is a deliberate act:
# HYPOTHESIS_PROFILE=explore pytest ... (and every case it finds is fixed, then kept as an @example).
settings.register_profile("ci", max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("explore", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# typer's CliRunner builds the click command from the app anew on every invoke: 0.15 s for this
# CLI, nine tenths of a typical call, and the tests make thousands of calls. The command is built
# once per app instead, as the CLI's own shell does (the root group translates its help for each
# call's --lang, so a built command serves every language).
_build_command = typer.testing._get_command
_built: dict[int, tuple[object, object]] = {}


def _command_built_once(app: typer.Typer) -> object:
    app_and_command = _built.get(id(app))
    if app_and_command is None or app_and_command[0] is not app:
        app_and_command = _built[id(app)] = (app, _build_command(app))
    return app_and_command[1]


typer.testing._get_command = _command_built_once  # type: ignore[assignment]

MINIMAL = """\
format: tabletop-position/1
rules: swm2008
map: {cols: 10, rows: 8}
figures: []
"""


@pytest.fixture(autouse=True)
def _english_after_each_test():
    """A CLI call with ``--lang pl`` sets the process's language, and it stays for the next test
    that calls the engine directly (round 22: test_booming_voice read a Polish label after a pl
    call in test_attack_cli): every test starts from the English the module-level setting asks."""
    yield
    set_language("en")


@pytest.fixture(scope="session")
def library():
    return default_library()


def check(text: str, name: str = "t.yaml"):
    """Load YAML text (dedented) and return the LoadResult."""
    return check_position_text(textwrap.dedent(text), name)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A game folder of its own: the data folder inside it and the working folder it (a module's own
    ``home`` fixture, where it has one, stands instead)."""
    monkeypatch.setenv("TABLETOP_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def write(tmp_path: Path):
    def _write(text: str, name: str = "pos.yaml") -> Path:
        p = tmp_path / name
        p.write_text(textwrap.dedent(text), encoding="utf-8")
        return p

    return _write


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):  # type: ignore[no-untyped-def]
    """Keep each phase's report on the test item (the browser tests screenshot on failure)."""
    outcome = yield
    rep = outcome.get_result()
    setattr(item, f"rep_{rep.when}", rep)
