"""The web table's photo work as jobs for a worker process (:mod:`assistant.live.workers`):
plain data in (the position, the reference's file, the photo's bytes and name, the reader's
language), plain data out (the answer's JSON). Nothing here touches the game log: the server
does what it did with the answer.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from .. import i18n
from ..i18n import _
from ..limits import check_photo
from ..model import Position


def read_photo(pos: Position, game: str | None, data: bytes, name: str, language: str) -> dict[str, Any] | tuple[int, dict[str, Any]]:
    """Detect the position in an uploaded photo and compare it with the recorded one (and with
    the empty map's reference kept next to the ``game``'s file, when there is one). No grid is
    (422, answer), as for a reference photo: the command line's ``photo detect`` says it with
    exit 2, a refusal, so the page's request is refused too (reading R311)."""
    from ..photo import NoGridError, detect  # start-up time: OpenCV and the photo stack only when a photo is read
    from ..photo.compare import compare  # start-up time: OpenCV and the photo stack only when a photo is read

    with i18n.language(language):
        check_photo(pos)
        img = decode_upload(data, name)
        ref = _reference(game, pos)
        # which mode answered, for the page's short line (the notes say it in words)
        mode = ({"mode": "reference", "reference": {"name": ref.name, "taken": ref.taken}} if ref is not None
                else {"mode": "classifier", "reference": None})
        try:
            res = detect(img, pos, name, reference=ref)
        except NoGridError as exc:
            return 422, {"query": "photo", "grid_found": False, "error": str(exc), **mode}
        return {**res.as_json(), "rows": [r.as_json() for r in compare(pos, res).rows], **mode}


def keep_reference(pos: Position, game: str | None, data: bytes, name: str, language: str) -> tuple[int, dict[str, Any]]:
    """Keep an uploaded photo of the empty map as the ``game``'s reference (``photo reference``):
    the grid found in it, the map seen from above, written whole next to the game's file.
    (status, answer): no grid is a 422 answer and the reference before is kept."""
    from ..photo import NoGridError, reference_grid, reference_lens_note  # start-up time: OpenCV and the photo stack only when a photo is read
    from ..photo.reference import (  # start-up time: OpenCV and the photo stack only when a photo is read
        figures_seen_warning,
        make_reference,
        reference_path,
        save_reference,
    )

    assert game is not None  # the endpoint refuses a position file first
    with i18n.language(language):
        check_photo(pos)
        img = decode_upload(data, name)
        try:
            grid, markers, by_lines = reference_grid(img, pos, name)  # a lines grid straightened by the lens's bend (R258)
        except NoGridError as exc:
            return 422, {"query": "photo reference", "grid_found": False, "stored": False,
                         "error": _("{why}; the reference photo was not kept").format(why=exc)}
        ref = make_reference(img, grid, pos.map.cols, pos.map.rows, name)
        save_reference(ref, reference_path(Path(game)))
        notes = [_("the grid from the printed lines (no corner markers): check that the map lies the way the game's map does")] if by_lines else []
        notes += figures_seen_warning([m.id for m in markers])  # kept as sent, but figures stood on the map
        lens_said = reference_lens_note(grid, by_lines)  # the lens's bend the grid was found under (R257, R280)
        notes += [lens_said] if lens_said else []
        return 200, {"query": "photo reference", "grid_found": True, "stored": True, "name": ref.name, "taken": ref.taken,
                     "cols": ref.cols, "rows": ref.rows, "grid": "lines" if by_lines else "markers", "notes": notes}


def _reference(game: str | None, pos: Position) -> Any:
    """The empty map's reference kept next to the served game, or None."""
    from ..photo.reference import check_size, load_reference, reference_path  # start-up time: OpenCV and the photo stack only when a photo is read

    if game is None or not reference_path(Path(game)).is_file():
        return None
    path = reference_path(Path(game))
    # named as GET /api/status names it: the file alone, not where the server keeps it
    ref = load_reference(path, shown=path.name)
    check_size(ref, pos.map.cols, pos.map.rows, path.name)
    return ref


def decode_upload(data: bytes, name: str) -> Any:
    """An uploaded image as the photo pipeline reads a file (the same checks and limits)."""
    from ..photo import load_image  # start-up time: OpenCV and the photo stack only when a photo is read

    with tempfile.NamedTemporaryFile(suffix=".img") as tmp:
        tmp.write(data)
        tmp.flush()
        return load_image(tmp.name, shown=name)
