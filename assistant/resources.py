"""Where the shipped data lives: the card library, calibration profiles, example maps.

In a wheel the top-level ``cards/`` and ``calib/`` folders are installed as
``assistant/_data/cards`` and ``assistant/_data/calib``; in a source checkout (and an
editable install) they are read from the repository itself.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """The shipped data folder ``name`` (``cards`` or ``calib``)."""
    installed = PACKAGE_DIR / "_data" / name
    if installed.is_dir():
        return installed
    checkout = PACKAGE_DIR.parent / name
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(f"the shipped {name}/ folder is missing from this installation ({installed})")


def examples_dir() -> Path:
    return PACKAGE_DIR / "examples"


def example_files() -> list[Path]:
    return sorted(examples_dir().glob("*.yaml"))


def example_path(name: str) -> Path | None:
    """A bundled example by file name or stem (``corridor`` or ``corridor.yaml``)."""
    for p in example_files():
        if name in (p.name, p.stem):
            return p
    return None


def card_table_example(game: str) -> str:
    """The bundled example table of a card game (``destiny`` or ``swtcg``)."""
    return (examples_dir() / "tables" / f"{game}.yaml").read_text(encoding="utf-8")
