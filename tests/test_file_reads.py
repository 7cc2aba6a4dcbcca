"""No reader follows a path into a FIFO or a device, and every file is read with a size limit
(issue 29 §4): a FIFO used to hang four commands for ever, and a symlink to /dev/zero in a
``--cards`` folder read 3.8 GB. Each is now refused at once, exit 2, naming the file and what it is."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from typer.testing import CliRunner

from assistant.cli.app import app
from assistant.fileread import FileTooLargeError, NotRegularFileError, read_head, read_limited
from assistant.resources import card_table_example

from .fuzzcases import png

runner = CliRunner()
LIMIT_S = 20


class Hung(Exception):
    """The command did not come back (the CLI's edge reports it as an internal error, exit 1)."""


@contextmanager
def deadline(seconds: int) -> Iterator[None]:
    def ring(signum: int, frame: object) -> None:
        raise Hung()

    old = signal.signal(signal.SIGALRM, ring)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    p = tmp_path / "pipe.yaml"
    os.mkfifo(p)
    return p


@pytest.fixture
def zero(tmp_path: Path) -> Path:
    p = tmp_path / "zero.yaml"
    p.symlink_to("/dev/zero")
    return p


def _commands(path: Path, tmp_path: Path) -> list[list[str]]:
    """Every command that reads a file the user names, reading ``path``."""
    table = tmp_path / "t.yaml"
    table.write_text(card_table_example("swtcg"), encoding="utf-8")
    f = str(path)
    return [
        ["validate", f],
        ["game", "new", "-p", f, "--game", str(tmp_path / "g.sqlite")],
        ["game", "status", "--game", f],
        ["game", "log", "--game", f],
        ["swtcg", "status", "--game", f],
        ["swtcg", "new", f, "--game", str(tmp_path / "s.sqlite")],
        ["swtcg", "scenario", f],
        ["destiny", "import", f],
        ["swtcg", "import", f],
        ["cards", "import", f],
        ["--cards", f, "cards", "list"],
        ["photo", "detect", f, "--position", "clone-wars-corridor"],
        ["map", "from-photo", f, "--cols", "20", "--rows", "14"],
    ]


def _refused(args: list[str], tmp_path: Path, said: str) -> None:
    with deadline(LIMIT_S):
        r = runner.invoke(app, args, env={"TABLETOP_HOME": str(tmp_path / "home"), "COLUMNS": "300"})
    out = r.stdout + r.stderr
    assert r.exit_code == 2, (args, r.exit_code, out, r.exception)
    assert said in out, (args, out)
    assert "Traceback" not in out and "internal error" not in out


def test_a_fifo_is_refused_by_every_reader_at_once(fifo: Path, tmp_path: Path) -> None:
    for args in _commands(fifo, tmp_path):
        _refused(args, tmp_path, "named pipe")


def test_a_device_is_refused_by_every_reader(zero: Path, tmp_path: Path) -> None:
    for args in _commands(zero, tmp_path):
        _refused(args, tmp_path, "device")


def test_a_cards_folder_with_a_link_to_dev_zero_is_refused_naming_it(tmp_path: Path) -> None:
    folder = tmp_path / "cards"
    folder.mkdir()
    (folder / "z.yaml").symlink_to("/dev/zero")
    _refused(["--cards", str(folder), "cards", "list"], tmp_path, "z.yaml")


def test_a_calibration_file_that_is_a_fifo_is_refused(fifo: Path, tmp_path: Path) -> None:
    image = tmp_path / "i.png"
    image.write_bytes(png(64, 64))
    _refused(["photo", "detect", str(image), "--position", "clone-wars-corridor", "--calib", str(fifo)], tmp_path, "named pipe")


def test_read_limited_reads_a_file_and_refuses_past_the_limit(tmp_path: Path) -> None:
    p = tmp_path / "a"
    p.write_bytes(b"x" * 100)
    assert read_limited(p, 100) == b"x" * 100
    assert read_head(p, 4) == b"xxxx"
    with pytest.raises(FileTooLargeError):
        read_limited(p, 99)
    sparse = tmp_path / "sparse"
    with open(sparse, "wb") as fh:  # 10 GB said, nothing written: refused from its size, not read
        fh.truncate(10 * 1024**3)
    with pytest.raises(FileTooLargeError):
        read_limited(sparse, 1024)


def test_read_limited_refuses_a_directory_a_fifo_and_a_device(tmp_path: Path, fifo: Path) -> None:
    for p in (tmp_path, fifo, Path("/dev/zero"), Path("/dev/null")):
        with deadline(5), pytest.raises(NotRegularFileError):
            read_limited(p, 10)
    with pytest.raises(FileNotFoundError):
        read_limited(tmp_path / "none", 10)
