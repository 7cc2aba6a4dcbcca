"""The card library's verbs: ``cards import`` reads the community's SWM database into the user's
own card library (:func:`~assistant.resources.user_cards_dir`), which every command reads after
the shipped cards."""

from __future__ import annotations

import time
from pathlib import Path

from ..cards import forget_loaded_libraries
from ..i18n import _
from ..resources import user_cards_dir
from .context import Session
from .registry import verb
from .result import Result, escape

#: partial and refused figures the text answer lists (all of them under --json)
SHOWN = 25


@verb("cards import", positional=("path",), query="cards import", local=True)
def import_cards(s: Session, path: Path) -> Result:
    """Read SW_Minis_Drafter's database (DB/SWminis.db) into your card library, a file a set; say
    what each figure became: imported, imported with a part not modelled, or refused (and why)."""
    from ..swmdb import import_database, write_files  # start-up time: sqlite3 and the catalogue only when importing

    started = time.perf_counter()
    imported = import_database(path)
    folder = user_cards_dir() / "swm"
    written = write_files(folder, imported.files)
    forget_loaded_libraries()  # a shell or the web app asks again in this process: read the new files
    seconds = round(time.perf_counter() - started, 2)
    report = imported.report
    json = {
        "query": "cards import",
        "game": "swm",
        "folder": str(folder),
        "files": [{"file": str(p), "set": imported.sets[p.name]} for p in written],
        "report": report.to_json(),
        "seconds": seconds,
    }
    lines = [escape(line) for line in report.lines(SHOWN)]
    lines.append(
        _("[green]wrote[/] {n} card files (one a set) to {folder}: every command now reads them after the shipped cards").format(
            n=len(written), folder=escape(str(folder))
        )
    )
    return Result(json, tuple(lines))
