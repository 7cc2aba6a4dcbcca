"""Where the shipped data lives: the card library, calibration profiles, example maps.

In a wheel the top-level ``cards/`` and ``calib/`` folders are installed as
``assistant/_data/cards`` and ``assistant/_data/calib``; in a source checkout (and an
editable install) they are read from the repository itself.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent

#: Environment variable naming the folder for games (and the cache): see :func:`cache_dir`.
HOME_ENV = "TABLETOP_HOME"


def data_dir(name: str) -> Path:
    """The shipped data folder ``name`` (``cards`` or ``calib``)."""
    installed = PACKAGE_DIR / "_data" / name
    if installed.is_dir():
        return installed
    checkout = PACKAGE_DIR.parent / name
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(f"the shipped {name}/ folder is missing from this installation ({installed})")


def cache_dir() -> Path:
    """Where what can be rebuilt is kept (the validated card library): ``$TABLETOP_HOME/cache``,
    or the user's cache folder (``~/.cache/tabletop-assistant`` on Linux)."""
    home = os.environ.get(HOME_ENV)
    if home:
        return Path(home) / "cache"
    if sys.platform.startswith("linux"):  # platformdirs' own rule there, without its ~10 ms import
        xdg = os.environ.get("XDG_CACHE_HOME", "")
        return Path(xdg if xdg.strip() else os.path.expanduser("~/.cache")) / "tabletop-assistant"
    from platformdirs import user_cache_path  # start-up time: see above

    return user_cache_path("tabletop-assistant", appauthor=False)


def user_data_dir() -> Path:
    """Where what the user keeps lives (games, their own card library): ``$TABLETOP_HOME``, or
    the user's data folder (``$XDG_DATA_HOME/tabletop-assistant``, by default
    ``~/.local/share/tabletop-assistant`` on Linux; the platform's own elsewhere)."""
    home = os.environ.get(HOME_ENV)
    if home:
        return Path(home)
    if sys.platform.startswith("linux"):  # platformdirs' own rule there, without its ~10 ms import
        xdg = os.environ.get("XDG_DATA_HOME", "")
        return Path(xdg if xdg.strip() else os.path.expanduser("~/.local/share")) / "tabletop-assistant"
    from platformdirs import user_data_path  # start-up time: see above

    return user_data_path("tabletop-assistant", appauthor=False)


def user_cards_dir() -> Path:
    """The user's own card library (what ``cards import`` and ``cards set`` write), read by every
    command after the shipped cards: ``<user data folder>/cards``."""
    return user_data_dir() / "cards"


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


def readings_text() -> str:
    """The register of readings (``docs/readings.md``; ``assistant/_data/readings.md`` in a wheel)."""
    for path in (PACKAGE_DIR / "_data" / "readings.md", PACKAGE_DIR.parent / "docs" / "readings.md"):
        if path.is_file():
            return path.read_text(encoding="utf-8")
    raise FileNotFoundError("the register of readings (readings.md) is missing from this installation")


def last_reading() -> int:
    """The number of the register's last reading (R1 to Rn), which a refusal of an unknown id names.

    >>> last_reading() > 300
    True
    """
    return max(int(n) for n in re.findall(r"(?m)^## R(\d+) — ", readings_text()))


def reading(ident: str) -> str | None:
    """One entry of the register by its id (``R7``, ``r7`` or ``7``), heading included; None if absent.

    >>> reading("R1").splitlines()[0]
    '## R1 — Choosing the corner for cover: not the far side of the wall one stands behind'
    """

    m = re.fullmatch(r"[Rr]?(\d{1,3})", ident.strip())
    if not m:
        return None
    for block in re.split(r"(?m)^(?=## R\d+ — )", readings_text()):
        if block.startswith(f"## R{int(m.group(1))} — "):
            return block.rstrip() + "\n"
    return None
