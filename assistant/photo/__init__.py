"""Photo position checks: the stages behind :func:`detect` (the façade), each a module.

The grid search (:mod:`.gridsearch`: the corner markers' ArUco, :mod:`.markers`; the printed
lines, :mod:`.lines`; the lens, the sheet's outline, the reference's art) gives the :class:`.board.Grid`;
the map's view from above (:mod:`.reference`) and the base markers (:mod:`.markers`) are read on
it; the squares' reading (:mod:`.squares`: the learned classifier, :mod:`.occupancy`, the
reference compared, :mod:`.bases`, the marker windows, :mod:`.windows`) places the figures
(:mod:`.placement`), the rules model sanity-checking what vision returned (no figure in a wall or
pit; no more bases than the roster has). :func:`detect` composes the answer, a :class:`PhotoResult`.
"""

from __future__ import annotations

import contextvars
import time
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from ..model import Position
from ..photofile import decoding as _decoding
from ..photofile import load_image
from . import views
from .board import map_corners_px
from .figures import Seen
from .gridsearch import (
    FAR_SIDE_DRIFT,
    LENS_SHOWN,
    SIDE_PAIRS,
    NoGridError,
    bend_of_two,
    grid_note,
    lens_read,
    locate_grid,
    reference_grid,
    reference_lens_note,
    straighten_lines_grid,
    straightened_note,
)
from .markers import find_base_markers
from .occupancy import TableProfile
from .reference import Reference, check_size, top_down
from .squares import read_squares

#: the package's names: the stages' entry points and the answer, and the stages' own public names
#: that callers read from the package (each defined in its stage's module)
__all__ = [
    "FAR_SIDE_DRIFT", "LENS_SHOWN", "SIDE_PAIRS", "NoGridError",
    "PhotoResult", "bend_of_two", "decoding", "detect", "load_image", "locate_grid",
    "ready_to_detect", "reference_grid", "reference_lens_note",
    "straighten_lines_grid",
]


def decoding(image: Path) -> AbstractContextManager[Future[np.ndarray]]:
    """The photo decoded on a second thread (:func:`assistant.photofile.decoding`) by this
    package's :func:`load_image`, the name the photo commands read photos by."""
    return _decoding(image, load_image)


def ready_to_detect() -> None:
    """Load now the modules :func:`detect` loads on its way (numpy's masked arrays, which its
    medians ask for; numpy's random generator, which the corner markers' grid error draws from;
    the lens's bend and the straightening, which the grid search loads where it may need them):
    0.02 CPU-seconds on the 2-core machine. The command line calls it while the photo is decoded
    on the other core (:func:`decoding`), where the main thread waited idle (round 30 of issue 28);
    nothing :func:`detect` computes changes."""
    import numpy.ma
    import numpy.random  # noqa: F401

    from . import lens, straighten  # noqa: F401


@dataclass
class PhotoResult:
    image: str
    grid_found: bool
    reprojection_error_px: float | None = None
    figures: list[Seen] = field(default_factory=list)
    occupied: list[str] = field(default_factory=list)
    uncertain: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    #: figures of the roster the photo does not show: reported with no square (the record's is not assumed)
    not_seen: list[str] = field(default_factory=list)
    #: doubtful squares beyond the ones listed in ``uncertain`` (the first few, least sure first)
    more_uncertain: int = 0
    #: the grid the answer stood on: the map's NW, NE, SE, SW corner points in the photo's pixels
    map_corners_px: list[list[float]] | None = None
    #: the lens's bend the grid was found under (:mod:`.lens`, R242): 0 for the photo read as it is
    lens: float = 0.0

    def as_json(self) -> dict[str, Any]:
        return {
            "query": "photo", "image": self.image, "grid_found": self.grid_found,
            "reprojection_error_px": None if self.reprojection_error_px is None else round(self.reprojection_error_px, 3),
            "figures": [{"id": s.id, "at": s.at, "confidence": s.confidence, "by": s.by} for s in self.figures],
            "occupied": self.occupied, "uncertain": self.uncertain, "more_uncertain": self.more_uncertain, "not_seen": self.not_seen,
            "seconds": round(self.seconds, 3), "notes": self.notes,
            **({} if self.map_corners_px is None else {"map_corners_px": self.map_corners_px}),
            **({"lens_k": round(self.lens, 4)} if self.lens else {}),
        }




def detect(image: np.ndarray, pos: Position, name: str = "<image>", camera: Any = None, table: TableProfile | None = None,
           reference: Reference | None = None) -> PhotoResult:
    """Where the figures stand. ``camera``: a calibration to undistort with first; ``table``:
    a profile from ``photo adapt`` that refits the occupancy classifier to one's own table;
    ``reference``: the empty map photographed at set-up (``photo reference``), each square
    compared with it (:mod:`.bases`) rather than judged alone by the learned classifier."""
    t0 = time.perf_counter()
    if camera is not None:
        image = cv2.undistort(image, camera.camera_matrix, camera.distortion_coefficients)
    cols, rows = pos.map.cols, pos.map.rows
    if reference is not None:
        check_size(reference, cols, rows, reference.name)
    with ThreadPoolExecutor(max_workers=1) as second_core:
        with views.shared():
            # the map's view from above made within the grid search's copies (.views): where the
            # reference's orientation looked at the map through this very grid, its view is not
            # made again (round 23 of issue 28), and the photo its lens's bend straightened is
            # made once (R242); the copies are let go once the view is made
            with lens_read():  # detect reads the grid's lens (R242)
                grid, markers, by_lines = locate_grid(image, pos, name, reference=reference)
            if grid.lens:
                from .lens import straightened  # start-up time: as the lens's other imports here

                image = straightened(image, grid.lens)  # the grid stands on it, and so the squares are read on it
            # the map's view from above, then the base markers read on the top-down view (OpenCV lets
            # go of the GIL), on the second core while the learned classifier reads the squares and
            # the reference is compared: none reads another's result, so the answer is the same,
            # 0.05-0.15 s sooner (round 13 of issue 28); each in a copy of this thread's context, so
            # a refusal it raises is said in the player's language (a context variable)
            view_made = second_core.submit(contextvars.copy_context().run, top_down, image, grid, cols, rows)
        base_search = (second_core.submit(contextvars.copy_context().run, find_base_markers, image, grid.H, cols, rows)
                       if any(f.marker is not None for f in pos.figures) else None)  # read base markers where they are
        read = read_squares(image, pos, reference, table, grid, markers, view_made, base_search)
        placed = read.placement
        how = grid_note(grid, by_lines, len({m.id for m in read.markers if m.id < 4}))
        notes = ([how] if how is not None else []) + list(placed.notes)
        corners = map_corners_px(grid, cols, rows)
        if grid.lens:
            from .lens import bend_points  # start-up time: as the lens's other imports here

            # where the photo itself shows the corners: the grid's are the straightened photo's (R242)
            corners = [[round(float(x), 1), round(float(y), 1)] for x, y in bend_points(np.array(corners), image.shape, grid.lens)]
            notes.append(straightened_note(grid.lens, grid.lens_reading))
        return PhotoResult(
            name, True, grid.reprojection_error_px, list(placed.figures), list(placed.occupied),
            [{"square": sq, "confidence": v} for sq, v in placed.uncertain], time.perf_counter() - t0, notes,
            list(placed.not_seen), placed.more_doubtful, corners, grid.lens,
        )
