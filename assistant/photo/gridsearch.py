"""The grid search: where the map's squares lie in the photo (:func:`locate_grid`), from the
corner markers (ArUco ids 0-3), the printed lines, the sheet's outline, the lens's bend and, with the
empty map's reference, its art (:mod:`.artgrid`); :func:`reference_grid` for ``photo reference``.
A :class:`NoGridError` rather than a guess; every search within the work budget (:mod:`.budget`)."""

from __future__ import annotations

import contextvars
import itertools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from ..errors import AssistantError
from ..i18n import N_, _
from ..model import Position
from . import views
from .artgrid import REGISTRATION_COST, grid_from_own_start, grid_from_reference
from .board import Grid, NotAMapError, anchor_offset, find_grid
from .budget import CHECK_COST, CORNERS_ENOUGH, COST_PER_PHOTO_MP, LINES_RESERVE, MAX_MARKER_CANDIDATES, MAX_SCAN_PIXELS, Budget, has_structure
from .markers import MAX_SIDE as MARKER_SIDE
from .markers import Marker, find_corner_marker, find_markers_counted, merge
from .reference import Reference
from .sheetedges import LENS_BETTER, LENS_SHOWN, lens_shown
from .tomark import corners_to_mark


class NoGridError(AssistantError):
    """The photo shows no board that can be trusted."""


def locate_grid(image: np.ndarray, pos: Position, name: str = "<image>", budget: Budget | None = None,
                reference: Reference | None = None, memo: dict[tuple[Any, ...], list[Grid]] | None = None,
                straighten: bool = False) -> tuple[Grid, list[Marker], bool]:
    """The board's grid in the photo, the markers seen, and whether the grid came from the
    printed lines (no corner markers). Raises :class:`NoGridError` rather than guess; every
    search runs within ``budget`` (:class:`.budget.Budget`, a fresh one of 1.6 modelled CPU-seconds by default).
    With the empty map's ``reference``, a grid from the printed lines is turned the way the
    reference's art says (:func:`.reference.orient_by_reference`). ``memo``: the printed-lines
    grids found on this photo so far (:data:`.lines.CandidateMemo`), for a caller that searches again.
    ``straighten`` (or :func:`detect`'s context): a caller that reads the grid's :attr:`.board.Grid.lens` (it then stands on the
    photo straightened, :func:`.lens.straightened`) lets one or more corner markers' refused grid be
    searched for again on the photo its lens's bend straightened (readings R242, R262)."""
    budget = budget if budget is not None else Budget()
    straighten = straighten or _STRAIGHTEN.get()
    search = _Search()
    with views.shared():  # the photo's grey and shrunk copies made once for all its searches
        try:
            found = _locate_grid(image, pos, name, budget, reference, memo, search)
        except NoGridError as refused:
            # corner markers whose grid a lens's bend took off the printed lines (two or more) or the
            # sheet's straight edges (one): the search again on the photo straightened (R242, R262);
            # with a reference, after its registration
            straight = _straightened_grid(image, pos, name, reference, search) if straighten and reference is None else None
            if straight is not None:
                return straight
            if reference is None or not search.structured or not budget.afford(_("the registration on the reference's art"), REGISTRATION_COST):
                # the registration left out by the work budget: a grid the search refused by a little,
                # aligned on the reference's art, costs a seventh of it (R307)
                own = _own_start_on_art(image, reference, search, budget)
                if own is not None:
                    return own, search.markers, False
                # the search on the photo straightened, with a fresh budget of its own, still runs
                # where it would after a refused registration (R262)
                straight = _straightened_grid(image, pos, name, reference, search) if straighten and reference is not None else None
                if straight is not None:
                    return straight
                raise
            # the photo's own grid refused; the judge's reference holds the very art it shows (R80)
            budget.charge(REGISTRATION_COST)
            registered = grid_from_reference(image, reference, search.markers)
            if registered.grid is None:
                # the art's features gave none: a grid the search refused by a little, aligned on the art (R307)
                own = _own_start_on_art(image, reference, search, budget)
                if own is not None:
                    return own, search.markers, False
                straight = _straightened_grid(image, pos, name, reference, search) if straighten else None
                if straight is not None:
                    return straight
                raise NoGridError(_("{refusal} (the empty-map reference's art gave no grid either: {why})").format(
                    refusal=str(refused), why=_(registered.why))) from None
            return registered.grid, search.markers, False
        if straighten:
            # two corner markers on one side: their far side stands on the printed lines alone (R71)
            bent = _bent_far_side(image, pos, name, reference, found)
            if bent is not None:
                return bent
        return found


#: the modelled CPU seconds of aligning one grid the search refused by a little on the reference's
#: art (:func:`.artgrid.grid_from_own_start`: a top-down view, ECC at half its size, the art compared):
#: 0.06 CPU-seconds measured on diagnosis photo s0641 shrinking its 12 MP photo anew, less where the
#: search's shrunk copy is shared (.views)
OWN_START_COST = 0.05


def _own_start_on_art(image: np.ndarray, reference: Reference | None, search: _Search, budget: Budget) -> Grid | None:
    """The grid of :func:`.artgrid.grid_from_own_start` from the grids ``search`` refused by a little,
    each within the work budget; None without a reference, or where none is confirmed (R307)."""
    if reference is None or not search.structured:
        return None
    for start in search.starts:
        if not budget.afford(_("the reference's art aligned on the grid the search refused"), OWN_START_COST):
            return None
        budget.charge(OWN_START_COST)
        grid = grid_from_own_start(image, reference, [start], search.markers)
        if grid is not None:
            return grid
    return None


#: whether the grid search's caller reads :attr:`.board.Grid.lens` (:func:`.detect` sets it, :func:`lens_read`): as ``straighten``
_STRAIGHTEN: contextvars.ContextVar[bool] = contextvars.ContextVar("photo_straighten", default=False)


@contextmanager
def lens_read() -> Iterator[None]:
    """Within it, :func:`locate_grid` searches as with ``straighten``: its caller (:func:`.detect`)
    reads the grid's lens (R242); a context, not an argument its callers' stand-ins take."""
    token = _STRAIGHTEN.set(True)
    try:
        yield
    finally:
        _STRAIGHTEN.reset(token)


#: how much better than straight the printed lines' crossings round two corner markers' grid must
#: fit their bend for it to be tried where the sheet's edges read none (reading R260). Measured on
#: the 77 diagnosis photos (341-610, game and empty map) with two corner markers read, against the
#: renderer's lens (ours is about 0.73 of its k1): all 15 crossings' bends of at least
#: :data:`LENS_SHOWN` that fit 1.4 times better or more have its sign and 0.76-1.42 of its size
#: (s0359's game photo -0.035 at 1.44, s0600's -0.069 at 1.49); at 1.25-1.4 one of three is twice
#: too strong (s0539's game photo, -0.127 at 1.32); under 1.25 five of 13 have the wrong sign
CROSSINGS_BETTER = 1.4


def bend_of_two(crossings: tuple[float, float, float], edges: Callable[[], tuple[float, float, float]]) -> float:
    """Two corner markers' bend (0: none): the printed lines' crossings round their grid (R242)
    where they show it; else the sheet's edges (``edges``, read only then: R244); else, where the
    edges read none either, the crossings' bend where it fits :data:`CROSSINGS_BETTER` times better
    than straight (reading R260). Whichever is taken, the search on the photo straightened by it
    must still find the grid with every check it has."""
    k = lens_shown(*crossings)
    if k == 0.0:
        k = lens_shown(*edges()) or lens_shown(*crossings, better=CROSSINGS_BETTER)
    return k


def _straightened_grid(image: np.ndarray, pos: Position, name: str, reference: Reference | None,
                       search: _Search) -> tuple[Grid, list[Marker], bool] | None:
    """Corner markers whose grid the search refused, in a photo whose lens bends it (reading R242):
    the bend, read from the markers' own corners (three or four), from the printed lines' crossings
    round their grid or the sheet's edges (two, :func:`bend_of_two`), or from the sheet's edges
    (one: its outline read from straight edges, R261, needs a straight photo; reading R262), and
    the grid search run again on the photo straightened by it, the markers' corners straightened
    with it (not searched again). None where the photo shows no bend (:data:`LENS_SHOWN`) or the
    straightened search refuses too."""
    from . import (
        lens,  # start-up time: 0.01-0.02 s, only where a bend is read (the CLI: during the decoding)
    )

    corner = [m for m in search.markers if m.id < 4]
    ids = {m.id for m in corner}
    if not search.structured or not ids:
        return lens.sheet_bent_grid(image, pos, search.markers) if search.structured else None  # no corner marker: R401
    cols, rows = pos.map.cols, pos.map.rows
    if len(ids) >= 3:
        k = lens_shown(*lens.bend_of_markers(corner, image.shape, cols, rows))
    elif len(ids) == 2:
        k = bend_of_two(lens.bend_of_crossings(*lens.crossings_of_markers(image, corner, cols, rows)),
                        lambda: lens.bend_of_outline(image, corner))
    else:
        k = lens_shown(*lens.bend_of_outline(image, corner))  # one marker: the sheet's edges alone (R262)
    found = _search_straightened(image, pos, name, reference, search.markers, k) if k else None
    if found is not None and len(ids) == 1 and found[2]:
        # one marker: only its own grid from the sheet's outline (R133, R239, R261) is taken there;
        # the printed lines' grid on a photo straightened by the edges' bend stood 0.27 squares off
        # on s0540's game photo (the search forced on every one-marker photo, R262)
        return None
    return found


def _search_straightened(image: np.ndarray, pos: Position, name: str, reference: Reference | None,
                         markers: list[Marker], k: float) -> tuple[Grid, list[Marker], bool] | None:
    """The grid search run again on the photo straightened by the bend ``k``, the corner markers
    read on the photo straightened with it (not searched for again), with a fresh budget; the grid
    found stands on the straightened photo (its ``lens`` ``k``). None where it refuses."""
    from . import (
        lens,  # start-up time: 0.01-0.02 s, only where a bend is read (the CLI: during the decoding)
    )

    straight = lens.straightened(image, k)
    moved = [Marker(m.id, lens.straighten_points(m.corners, image.shape, k)) for m in markers]
    try:
        grid, seen, by_lines = _locate_grid(straight, pos, name, Budget(), reference, None, _Search(), known=moved)
    except NoGridError:
        return None
    return replace(grid, lens=k), seen, by_lines


def straighten_lines_grid(image: np.ndarray, grid: Grid, cols: int, rows: int) -> Grid:
    """A grid the printed lines gave (no corner marker placed it), refitted on the photo
    straightened by the lens's bend its own crossings show (reading R257): one homography follows
    a bent photo's lines in the middle and lets them drift toward the map's edges (a raw lens,
    k -0.11: 0.39 squares off at the corners, own render 764). The bend is read from the printed
    lines' crossings found round the grid (:func:`.lens.bend_of_crossings`, as for two corner
    markers, R242) and taken where it is shown (:data:`LENS_SHOWN`, :data:`LENS_BETTER`); the
    grid is then the homography carrying the straightened crossings onto the lattice, its
    orientation kept (the same lattice points), ``lens`` set (``H`` then maps the photo
    straightened, :func:`.lens.straightened`). Else ``grid`` as it is."""
    from . import (
        lens,  # start-up time: 0.01-0.02 s, only where a bend is read (the CLI: during the decoding)
    )

    if grid.lens:
        return grid
    board, img, shape, scale = lens.crossings_round(image, grid.H, cols, rows)
    k, at_k, at_0 = lens.bend_of_crossings(board, img, shape)
    if abs(k) < LENS_SHOWN or at_0 < LENS_BETTER * at_k:
        return grid
    H, mask = cv2.findHomography(lens.straighten_points(img, shape, k), board, cv2.RANSAC, lens.FIT)
    if H is None or int(mask.sum()) < 12:
        return grid
    return replace(grid, H=H @ np.diag([scale, scale, 1.0]), lens=k)


def lens_note(k: float) -> str:
    """What an answer whose printed-lines grid was refitted on the photo its lens's bend ``k``
    straightened says (:func:`straighten_lines_grid`, reading R257)."""
    return _("the lens bends this photo (k = {k:+.3f}): the grid was fitted to the printed lines on the photo straightened by it "
             "(reading R257)").format(k=k)


def straightened_note(k: float, reading: str) -> str:
    """What an answer whose corner markers' grid was found on the photo its lens's bend ``k``
    straightened says, naming the ``reading`` that straightened it (R242, R259, R262, R263)."""
    return _("the lens bends this photo (k = {k:+.3f}): the grid was found on the photo straightened by it (reading {reading})").format(
        k=k, reading=reading)


def grid_note(grid: Grid, by_lines: bool, corners_seen: int) -> str | None:
    """What an answer says first of how its grid was found where the corner markers did not give
    it alone: from the printed lines, with the ``corners_seen`` corner markers on their corners or
    none read (``by_lines``: :func:`locate_grid`'s), or registered onto the empty map's reference;
    None where the corner markers gave it."""
    if by_lines and corners_seen:  # two markers the lines near their grid did not confirm (locate_grid)
        return _("grid found from the printed lines, which put the {n} corner markers seen on their corners; which way round it lies was "
                 "chosen by {how}").format(n=corners_seen, how=_(grid.oriented_by or N_("the map's terrain")))
    if grid.by_reference:
        return _("grid found by registering the photo onto {how}: the photo's own corner markers and printed lines gave none").format(how=_(grid.oriented_by))
    if by_lines:
        return _("grid found from the printed lines (no corner markers); which way round it lies was chosen by {how}").format(
            how=_(grid.oriented_by or N_("the map's terrain")))
    return None


def reference_lens_note(grid: Grid, by_lines: bool) -> str | None:
    """What ``photo reference`` says of the lens's bend its grid was found under (:func:`reference_grid`):
    a printed-lines grid refitted (R257, :func:`lens_note`), a corner markers' grid searched again
    straightened (:func:`straightened_note`); None where the grid stands on the photo as taken."""
    if not grid.lens:
        return None
    return lens_note(grid.lens) if by_lines else straightened_note(grid.lens, grid.lens_reading)


def reference_grid(image: np.ndarray, pos: Position, name: str = "<image>") -> tuple[Grid, list[Marker], bool]:
    """The grid ``photo reference`` makes the empty map's reference through: :func:`locate_grid`'s
    as ``photo detect`` searches a game photo (``straighten``: two corner markers on one side whose
    far side a lens's bend carried off searched for again on the photo straightened, R259/R263,
    and markers' refused grids so, R242/R262: reading R280), a grid from the printed lines
    refitted on the photo its lens's bend straightened where the lines' crossings show one
    (:func:`straighten_lines_grid`, reading R257). The reference's view is then made from the
    photo straightened by the grid's lens (:func:`.reference.make_reference`). Without that second
    look the empty map's grid stood 0.25 squares off on diagnosis scene 499 (markers 0 and 1, the
    renderer's k1 -0.11; now 0.03) and 0.88 off on fresh render 2624 (markers 0 and 3, k1 -0.09;
    now 0.11): a reference holding shifted art."""
    grid, markers, by_lines = locate_grid(image, pos, name, straighten=True)
    if by_lines:
        grid = straighten_lines_grid(image, grid, pos.map.cols, pos.map.rows)
    return grid, markers, by_lines


#: two corner markers on one side of the map (not diagonal): their grid's far side is extrapolated
SIDE_PAIRS = ({0, 1}, {1, 2}, {2, 3}, {0, 3})


#: how far (squares) a lens's bend must carry the far side of two markers' grid off the grid its
#: near side gives, for the grid to be searched for again straightened (reading R259): the printed
#: lines' check (:func:`.lines.check_with_lines`) refits a grid to crossings within 0.12 squares of
#: it, and so follows a lesser drift itself; measured 0.19-0.64 where the far side stood 0.14-0.43
#: squares off, 0.09-0.14 where it stood 0.11-0.13 off and a search straightened gained nothing sure
FAR_SIDE_DRIFT = 0.15


def _far_side_drift(grid: Grid, ids: set[int], cols: int, rows: int, shape: tuple[int, ...], k: float) -> float:
    """How far (squares, at worst) the lattice ``grid`` puts in the photo lies, straightened by the
    bend ``k``, from the homography its third nearest the markers' side gives: how far the bend
    alone carries the far side off a grid the near side pins (reading R259)."""
    from . import (
        lens,  # start-up time: 0.01-0.02 s, only where a bend is read (the CLI: during the decoding)
    )

    board = np.array([(c, r) for r in range(rows + 1) for c in range(cols + 1)], np.float64)
    straight = lens.straighten_points(cv2.perspectiveTransform(board[None], np.linalg.inv(grid.H))[0], shape, k)
    ends = {0: (0.0, 0.0), 1: (float(cols), 0.0), 2: (float(cols), float(rows)), 3: (0.0, float(rows))}
    a, b = (np.array(ends[i]) for i in sorted(ids))
    side = (b - a) / np.linalg.norm(b - a)
    across = np.abs(side[0] * (board[:, 1] - a[1]) - side[1] * (board[:, 0] - a[0]))
    near = across <= across.max() / 3
    H_near, _mask = cv2.findHomography(straight[near], board[near], 0)
    if H_near is None:
        return 0.0
    return float(np.max(np.linalg.norm(cv2.perspectiveTransform(straight[None], H_near)[0] - board, axis=1)))


def _bent_far_side(image: np.ndarray, pos: Position, name: str, reference: Reference | None,
                   found: tuple[Grid, list[Marker], bool]) -> tuple[Grid, list[Marker], bool] | None:
    """Two corner markers on one side whose grid the printed lines confirmed, in a photo whose
    lens's bend no crossing round their grid can read (too few of them hold one homography: reading
    R259). The lines' check holds a far side a barrel lens bent 0.3-0.4 squares off (own renders of
    the independent renderer, seeds 659, 1350, 1370: k -0.08 to -0.10); the sheet's edges, straight
    on the table, read the bend there (R244), and the grid is searched for again on the photo
    straightened by it. A bend the crossings read themselves is acted on the same way (R263: seed
    4345, k -0.076 read clearly, its far side 0.33 squares off). None -- the grid found stands --
    where the crossings read no bend or one fitting less than :data:`LENS_BETTER` better, where
    none read it and the edges show none, where the bend carries the far side less than
    :data:`FAR_SIDE_DRIFT` off (:func:`_far_side_drift`), or where the straightened search refuses."""
    from . import (
        lens,  # start-up time: 0.01-0.02 s, only where a bend is read (the CLI: during the decoding)
    )

    grid, markers, by_lines = found
    corner = [m for m in markers if m.id < 4]
    if by_lines or grid.lens or {m.id for m in corner} not in SIDE_PAIRS or len(corner) != 2:
        return None
    cols, rows = pos.map.cols, pos.map.rows
    crossings = lens.bend_of_crossings(*lens.crossings_of_markers(image, corner, cols, rows))
    if crossings == (0.0, 0.0, 0.0):
        # too few crossings round the markers hold one homography: the sheet's edges read it (R259)
        k, reading = lens_shown(*lens.bend_of_outline(image, corner)), "R259"
    else:
        # the crossings read the bend (or that there is none), and a bend they read is straightened
        # too: the lines' check had held the far side it bent (independent seed 4345: k -0.076 read,
        # the grid 0.33 squares off at the far side; reading R263)
        k, reading = lens_shown(*crossings), "R263"
    if not k or _far_side_drift(grid, {m.id for m in corner}, cols, rows, image.shape, k) < FAR_SIDE_DRIFT:
        return None
    again = _search_straightened(image, pos, name, reference, markers, k)
    return None if again is None else (replace(again[0], lens_reading=reading), again[1], again[2])


@dataclass
class _Search:
    """What a grid search saw before it refused: the registration on the reference's art (R80)
    checks its grid against the corner markers seen, and runs only on a structured image."""

    markers: list[Marker] = field(default_factory=list)
    structured: bool = False
    #: the grids the search found and refused by a little, which the reference's art may confirm (R307)
    starts: list[Grid] = field(default_factory=list)


def _locate_grid(image: np.ndarray, pos: Position, name: str, budget: Budget, reference: Reference | None,
                 memo: dict[tuple[Any, ...], list[Grid]] | None, search: _Search, known: list[Marker] | None = None) -> tuple[Grid, list[Marker], bool]:
    """:func:`locate_grid`'s search; ``known``: the markers already read (the photo straightened
    by its lens, R242), searched for no more."""
    cols, rows = pos.map.cols, pos.map.rows
    # the work budget (.budget): an image with no plausible structure (noise) gets no marker
    # search and no printed-lines search, whose cost on it runs to minutes
    structured = has_structure(image)
    search.structured = structured
    megapixels = image.shape[0] * image.shape[1] / 1e6
    budget.charge(COST_PER_PHOTO_MP * megapixels)  # its decoding and the structure just measured
    shrunk = megapixels * min(1.0, MARKER_SIDE / max(image.shape[:2])) ** 2  # what a search not at full resolution scans
    markers: list[Marker] = []
    crowded = False  # a search handed more candidates than MAX_MARKER_CANDIDATES: the harder ones would cost more still
    if structured and known is not None:
        markers = search.markers = known
    elif structured:
        markers, candidates = find_markers_counted(image)
        search.markers = markers
        budget.searched(megapixels, shrunk, candidates, first=True)
        crowded = candidates > MAX_MARKER_CANDIDATES
    # small corner markers: look again, harder, then at full resolution, then (a photo small
    # enough) enlarged, up to MAX_SCAN_PIXELS; each only while the budget holds its predicted
    # cost (its pixels, and as many candidates as the most a search before it was handed) with
    # the printed-lines search's share kept back
    enlarge = min(2.0, float(np.sqrt(MAX_SCAN_PIXELS / max(1.0, megapixels * 1e6))))
    passes = [(False, 1.0, _("the harder corner-marker search")), (True, 1.0, _("the full-resolution corner-marker search"))]
    if enlarge >= 1.25:
        passes.append((True, enlarge, _("the enlarged corner-marker search")))
    from .lines import (
        ANCHOR_TOLERANCE,
        ExtrapolatedCornerError,
        GridMismatchError,
        MarkersOffGridError,
        UnconfirmedMarkersError,
        UnorientedGridError,
        check_with_lines,
        find_grid_from_lines,
        outline_confirms_diagonal,
        outline_far_side,
        outline_fourth_corner,
        pins_one_side,
    )  # looked up at each call, not bound at import: the tests stand in for the printed-lines search (lines.find_grid_from_lines)

    checked: dict[bytes, Grid | GridMismatchError] = {}
    # kept back for the printed-lines search, and with a reference for the registration on its art (R80)
    reserve = LINES_RESERVE + (REGISTRATION_COST if reference is not None else 0.0)

    def check(grid: Grid) -> Grid:
        # the printed lines' check of one markers' grid, once: two markers no search adds to are
        # checked before each full-resolution search and after them (0.1-0.3 CPU-seconds each)
        key = grid.H.tobytes()
        if key not in checked:
            try:
                checked[key] = check_with_lines(image, grid, cols, rows)
            except GridMismatchError as exc:
                checked[key] = exc
            budget.charge(CHECK_COST)  # uncounted, two checks took s0419 past its 2 CPU-seconds (reading R88)
        found = checked[key]
        if isinstance(found, GridMismatchError):
            raise found
        return found

    one_marker = _OneMarker(image, cols, rows)

    def kept_for(markers: list[Marker]) -> float:
        # two corner markers or more: their grid's check by the printed lines follows the searches
        return reserve + (CHECK_COST if len({m.id for m in markers if m.id < 4}) >= 2 else 0.0)

    readings: dict[int, list[Marker]] = {}  # every pass's reading of each corner marker
    _note_readings(readings, markers)
    confirmed: Grid | None = None  # two corner markers' grid the printed lines confirmed before the full-resolution searches
    full_run = False  # whether a corner-marker search at full resolution ran (R308)
    for full, upscale, label in passes if structured and not crowded and known is None else []:
        if len({m.id for m in markers if m.id < 4}) >= CORNERS_ENOUGH:
            break
        if full and upscale == 1.0 and shrunk >= megapixels:
            continue  # a photo no larger than the marker search's copy: the same search over again
        if full and {m.id for m in markers if m.id < 4} in ({0, 2}, {1, 3}):
            # two diagonal markers the printed lines confirm give the grid (as they do after every search):
            # the whole-photo searches for a third cost 0.4-1.3 CPU-seconds and read none on the 48
            # independent diagnosis photos; the check costs 0.1-0.2. Two on one side (R71) leave
            # the far side to the lines: a third marker, where a search reads one, pins it better
            # (generated held-out photo 21 of bench/photo_grid.py: 0.18 squares off from markers 0
            # and 1, 0.05 with the third the full-resolution search reads)
            confirmed = _confirmed_pair(markers, cols, rows, check, GridMismatchError)
            if confirmed is not None:
                break
        scanned = megapixels * upscale ** 2 if full else shrunk
        if upscale > 1.0 and budget.left() - kept_for(markers) >= budget.predict(megapixels, scanned) and one_marker.read(markers, budget, reserve) is not None:
            # one corner marker whose grid the sheet's outline and the printed lines give (R133): the
            # enlarged search for another (0.4-0.6 CPU-seconds) took the budget that grid needs
            # (independent photo s0461: one marker, refused with the enlarged search run). Tried
            # here only where the enlarged search would run: where that search is left out, the
            # printed-lines search keeps all it had (scene 462's empty map: its fourth outline,
            # which gives its grid, was left out when this was charged first)
            break
        kept = kept_for(markers)
        if not budget.afford(label, budget.predict(megapixels, scanned), reserve=kept):
            break  # the searches after it scan more pixels still
        found, candidates = find_markers_counted(image, small_markers=True, full_resolution=full, upscale=upscale)
        full_run = full_run or full
        budget.searched(megapixels, scanned, candidates)
        extra = [m for m in found if m.id < 4]
        markers = merge(markers, _consistent(markers, extra, cols, rows))
        search.markers = markers
        _note_readings(readings, [m for m in extra if any(k.id == m.id for k in markers)])
        if candidates > MAX_MARKER_CANDIDATES:  # the next search, on more pixels, would cost more still
            break
    # two corner markers the printed lines near their grid do not confirm: the grid the printed
    # lines give alone is taken where it puts both markers' map corners where they stand
    unconfirmed: tuple[Grid, UnconfirmedMarkersError] | None = None
    grid: Grid | None = None
    try:
        # within the work budget, or the first readings stand; not charged: it runs only when three or
        # more markers were read, which give the grid, and the printed-lines search is not needed
        if budget.left() >= READINGS_COST:
            markers = _best_readings(markers, readings, cols, rows)
            search.markers = markers
        grid = confirmed or find_grid(markers, cols, rows)
        if grid is not None and confirmed is None:  # the markers' grid must agree with the printed lines
            try:
                grid = check(grid)
            except UnconfirmedMarkersError as exc:
                if grid.corner_markers != 2:
                    raise
                unconfirmed, grid = (grid, exc), None
            except GridMismatchError as exc:
                # three markers' grid the lines do not confirm: the fourth, where a figure hides a
                # corner of it, read by its pattern where the three put it (reading R83 in docs/readings.md)
                fourth = _fourth_corner_marker(image, grid, markers, cols, rows)
                if fourth is None:
                    # nor that: the sheet's outline, its margin even at the three marked corners, gives
                    # the fourth corner where the printed lines are too faint to (reading R202)
                    by_outline = outline_fourth_corner(image, grid, markers, cols, rows) if isinstance(exc, ExtrapolatedCornerError) else None
                    if by_outline is None:
                        raise
                    return by_outline, markers, False
                markers = merge(markers, _consistent(markers, [fourth], cols, rows))
                search.markers = markers
                grid = find_grid(markers, cols, rows)
                if grid is None or grid.corner_markers != 4:
                    raise
                grid = check(grid)
    except (NotAMapError, GridMismatchError) as exc:
        if isinstance(exc, ExtrapolatedCornerError) and grid is not None:
            search.starts.append(grid)  # three markers' grid, its free corner uncorrected: the reference's art may confirm it (R307)
        raise NoGridError(_("no grid in {name}: {exc}").format(name=name, exc=exc)) from None
    if grid is None and unconfirmed is not None and structured:
        # two diagonal markers' grid the printed lines do not confirm: a sheet outline with an even
        # margin that puts the free corners where the markers do confirms it (reading R126)
        grid = outline_confirms_diagonal(image, unconfirmed[0], markers, cols, rows)
        if grid is not None:
            return grid, markers, False
    # with the empty map's reference, the registration on its art keeps its share: where the
    # budget holds only one of the two, the printed-lines search is the one left out. Two corner
    # markers on one side that the lines did not confirm had spent their check, and the lines'
    # search the rest: independent photo s0493 was refused with the registration, which places
    # its grid 0.12 squares off, never run (reading R122 in docs/readings.md). Not where one corner
    # marker's sheet outline gives R133 a start: R133 comes before the registration there (R177)
    registration_share = REGISTRATION_COST if reference is not None else 0.0
    if grid is None and unconfirmed is not None and structured and pins_one_side(unconfirmed[0], cols, rows):
        # two markers on one side, their far side extrapolated too far off for the printed lines to be
        # found near it: the sheet's outline, read in its own frame, gives a start the printed lines
        # must confirm -- one check, before the printed-lines search that costs several (reading R125).
        # With a reference it keeps back the registration's share (R80: on scene 359 it answers where
        # these checks and the printed lines do not), and so does the printed-lines search after
        # it (R122); without, it keeps back the printed-lines search's
        grid = _confirmed_by_outline(image, unconfirmed[0], markers, cols, rows, check, budget,
                                     REGISTRATION_COST if reference is not None else LINES_RESERVE)
        if grid is not None:
            return grid, markers, False
    by_lines = False
    lines_run = ""  # the printed-lines search once it has run: a refusal names it, not the budget, as what failed
    lines_refused: list[str] = []  # why each grid the printed lines gave was not claimed, the best outline's first (R95)
    if grid is None and structured and (one_marker.grid is not None or one_marker.has_start(markers)):
        # one corner marker whose sheet outline gives R133 a start (or whose grid R133 found): the
        # printed-lines search and R133 after it run as they do without the reference, keeping nothing
        # back for the registration, which runs after them where what is left holds it. Keeping its
        # share left R133 out: scenes 352 and 540 were refused with their reference (whose
        # registration found too few features), answered by R133's grid without it (reading R177)
        registration_share = 0.0
    if grid is None and structured and budget.afford(_("the printed-lines search"), LINES_RESERVE, reserve=registration_share):
        budget.charge(LINES_RESERVE)
        lines_run = _("the printed-lines search")
        # outlines beyond its reserve leave the registration its share, and one corner marker whose
        # sheet outline gives a start one start's work (R133 after it: reading R140)
        budget.kept = registration_share + (COST_PER_START if one_marker.has_start(markers) else 0.0)
        try:
            grid = find_grid_from_lines(image, pos, markers, reference, memo, budget, lines_refused)
        except UnorientedGridError as exc:
            # the printed lines' grid puts the one corner marker off its corner: it is not the map's
            # lattice, and the marker's own grid (R133), confirmed by the lines near it, is (R140).
            # Not aligned on the reference's art (R307): one marker does not stand the aligned grid on
            # the map (diagnosis photo s0636: the lines' grid 0.20 squares off, aligned 0.19)
            one = one_marker.read(markers, budget, registration_share) if isinstance(exc, MarkersOffGridError) else None
            if one is not None:
                return one, markers, False
            raise NoGridError(_("no grid in {name}: {exc}").format(name=name, exc=unconfirmed[1] if unconfirmed else exc)) from None
        by_lines = grid is not None
    if grid is None and unconfirmed is None and structured:
        one = one_marker.read(markers, budget, registration_share)
        if one is not None:
            return one, markers, False
    if unconfirmed is not None and grid is None:
        # two markers on one side, the printed lines too faint for the far side: the map's outline gives it (reading R100)
        grid = outline_far_side(image, unconfirmed[0], markers, cols, rows)
        if grid is not None:
            return grid, markers, False
    if unconfirmed is not None and (grid is None or anchor_offset(unconfirmed[0], grid.H) > ANCHOR_TOLERANCE):
        raise NoGridError(_("no grid in {name}: {exc}").format(name=name, exc=unconfirmed[1]))
    if grid is None:
        n = len({m.id for m in markers if m.id <= 3})
        # the stage that refused the printed lines' grid, where one was found, before what the budget left out
        # and, one corner marker read, where its sheet's outline gave it no start (reading R269)
        # -- not the enlarged corner-marker search where the full-resolution one ran and no search
        # read a corner marker at all: small markers it reads beside the others', it would not have
        # given the grid (reading R308)
        unnamed = [label for _full, upscale, label in passes if upscale > 1.0] if n == 0 and full_run else []
        why = "; ".join(w for w in (_(lines_refused[0]) if lines_refused else "", one_marker.why(markers), budget.explain(lines_run, unnamed)) if w)
        # one corner marker read or none: the refusal names the markers to place, the one across the
        # map first (reading R354); two or more: all four, as their own refusals name the corners
        to_mark = corners_to_mark({m.id for m in markers}) if n <= 1 else ""
        raise NoGridError(
            (_(
                "no grid found in {name}: {n} of the 4 map-corner markers (ArUco 4x4_50 ids 0-3) are visible, and the printed grid could not be matched to "
                "the map. Place the four corner markers on the map's corners ('python -m assistant calibrate markers' prints them) and photograph the whole "
                "map"
            ).format(name=name, n=n) if not to_mark else _(
                "no grid found in {name}: {n} of the 4 map-corner markers (ArUco 4x4_50 ids 0-3) are visible, and the printed grid could not be matched to "
                "the map; {to_mark}"
            ).format(name=name, n=n, to_mark=to_mark))
            + (f" ({why})" if why else "")
        )
    return grid, markers, by_lines


#: what R133 costs for each start the sheet's outline gives (:func:`.onemarker.one_marker_grid`:
#: the printed lines' free-corner search round it, once or twice): 0.09-0.22 CPU-seconds measured
#: a start on independent photos s0352, s0416, s0418, s0425, s0461, s0462 (one to four starts a
#: photo); the outlines themselves are read once a grid search, for the printed-lines search too
COST_PER_START = 0.15


class _OneMarker:
    """The grid of one corner marker and the sheet's outline (reading R133,
    :func:`.onemarker.one_marker_grid`), read once a photo, where exactly one corner marker is
    read and the work budget holds it: before the enlarged corner-marker search (which it makes
    needless where it answers), or after the printed-lines search found no grid. Where it answers
    first, the printed-lines search still runs, and answers where it finds the grid: its lattice is
    fitted to the whole map's lines (independent photos s0364 and s0418: 0.03 and 0.06 squares
    off, this one 0.13 and 0.17)."""

    def __init__(self, image: np.ndarray, cols: int, rows: int) -> None:
        self.image, self.cols, self.rows = image, cols, rows
        self.tried = False
        self.grid: Grid | None = None

    def read(self, markers: list[Marker], budget: Budget, reserve: float) -> Grid | None:
        """The grid, where found (now or before); ``reserve``: the work kept for the stages after it."""
        if self.tried or len({m.id for m in markers if m.id <= 3}) != 1:
            return self.grid
        from .onemarker import one_marker_grid  # imports .lines, as _locate_grid does

        self.tried = True

        def afford_start() -> bool:  # each start the printed lines search round, as the budget holds it
            if not budget.afford(_("the one corner marker's grid from the sheet's outline"), COST_PER_START, reserve=reserve):
                return False
            budget.charge(COST_PER_START)
            return True

        self.grid = one_marker_grid(self.image, markers, self.cols, self.rows, afford_start)
        return self.grid

    def why(self, markers: list[Marker]) -> str:
        """Why :meth:`read` found no grid, translated, where the sheet's outline gave the marker no
        start (:func:`.onemarker.why_no_frame`, reading R269); '' where it was not run or found one."""
        if not self.tried or self.grid is not None:
            return ""
        from .onemarker import why_no_frame  # imports .lines, as _locate_grid does

        reason = why_no_frame(self.image, markers, self.cols, self.rows)
        return _(reason) if reason else ""

    def has_start(self, markers: list[Marker]) -> bool:
        """Whether :meth:`read` has yet to run and its sheet outline gives a start (:func:`.onemarker.has_frame_start`)."""
        from .onemarker import has_frame_start  # imports .lines, as _locate_grid does

        return not self.tried and has_frame_start(self.image, markers, self.cols, self.rows)


def _confirmed_by_outline(image: np.ndarray, grid: Grid, markers: list[Marker], cols: int, rows: int,
                          check: Callable[[Grid], Grid], budget: Budget, reserve: float) -> Grid | None:
    """Two corner markers on one side: the grid of the sheet's outline read in its own frame
    (:func:`.lines.outline_frame_grids`) that the printed lines confirm (``check``:
    :func:`.lines.check_with_lines`, as they would the markers' own grid), each check within the
    work budget, ``reserve`` kept back (for the printed-lines search after it, or the registration
    on the reference's art, R80, which answers where these refuse: scene 359 with its reference);
    None where none is confirmed, or two confirmed give lattices apart by more than
    :data:`.lines.ANCHOR_TOLERANCE` (reading R125)."""
    from .lines import GridMismatchError, lattices_agree, outline_frame_grids  # as _locate_grid imports them

    confirmed: list[Grid] = []
    for start in outline_frame_grids(image, grid, markers, cols, rows):
        if not budget.afford(_("the printed lines' check of the sheet outline's grid"), CHECK_COST, reserve=reserve):
            break
        try:
            confirmed.append(check(start))
        except GridMismatchError:
            continue
    if not confirmed or not lattices_agree([g.H for g in confirmed], cols, rows):
        return None
    return confirmed[0]


def _fourth_corner_marker(image: np.ndarray, grid: Grid, markers: list[Marker], cols: int, rows: int) -> Marker | None:
    """The one corner marker of four that the searches did not read, looked for by its pattern where
    the other three's ``grid`` puts it (:func:`.markers.find_corner_marker`), as wide as they are
    seen through it; None where three corner markers were not read, or it is not found."""
    read = [m for m in markers if m.id <= 3]
    if grid.corner_markers != 3 or len(read) != 3:
        return None
    missing = next(k for k in range(4) if k not in {m.id for m in read})
    seen = [cv2.perspectiveTransform(np.asarray(m.corners, np.float64)[None], grid.H)[0] for m in read]
    side = float(np.median([np.linalg.norm(np.roll(b, 1, axis=0) - b, axis=1).mean() for b in seen]))
    return find_corner_marker(image, grid.H, missing, cols, rows, side)


def _confirmed_pair(markers: list[Marker], cols: int, rows: int, check: Callable[[Grid], Grid], mismatch: type[Exception]) -> Grid | None:
    """The grid of two corner markers where the printed lines confirm it (``check``:
    :func:`.lines.check_with_lines` on the photo); None where they do not, or refuse it (``mismatch``: its
    :class:`.lines.GridMismatchError`): the searches go on, and the grid is decided after them
    as it would have been."""
    try:
        grid = find_grid(markers, cols, rows)
        return check(grid) if grid is not None else None
    except (NotAMapError, mismatch):
        return None


#: the most combinations of corner-marker readings :func:`_best_readings` compares (each a
#: :func:`.board.find_grid`, about 0.025 CPU-seconds)
MAX_READING_SETS = 8
#: the CPU seconds :func:`_best_readings` may cost at most
READINGS_COST = 0.25


def _note_readings(readings: dict[int, list[Marker]], found: list[Marker]) -> None:
    """Adds each corner marker's reading unless one already noted has the same corners (within half a pixel)."""
    for m in found:
        if m.id > 3:
            continue
        seen = readings.setdefault(m.id, [])
        if all(float(np.max(np.abs(np.asarray(k.corners) - np.asarray(m.corners)))) > 0.5 for k in seen):
            seen.append(m)


def _best_readings(markers: list[Marker], readings: dict[int, list[Marker]], cols: int, rows: int) -> list[Marker]:
    """The corner markers with, for each, the reading (of those the searches made) that fits one
    square grid best together with the others. A marker against dark floor art, read at one
    resolution, can have a corner pulled several pixels onto the art (measured: 5-7 px on a
    marker 80 px wide, the grid then 0.48 squares off at the far corner), read at another it is
    right; three or more markers over-determine the grid, so the set with the least reprojection
    error (relative to the markers' size) is the consistent one. Two markers fit any readings
    exactly and leave the first pass's."""
    ids = sorted({m.id for m in markers if m.id <= 3})
    options = [readings.get(i) or [next(m for m in markers if m.id == i)] for i in ids]
    if len(ids) < 3 or all(len(o) == 1 for o in options) or int(np.prod([len(o) for o in options])) > MAX_READING_SETS:
        return markers
    best: tuple[float, tuple[Marker, ...]] | None = None
    for combo in itertools.product(*options):
        try:
            grid = find_grid(list(combo), cols, rows, uncertainty=False, reassign=False)
        except NotAMapError:
            continue
        if grid is None:
            continue
        side = float(np.mean([np.linalg.norm(np.roll(m.corners, 1, axis=0) - m.corners, axis=1).mean() for m in combo]))
        score = grid.reprojection_error_px / max(1.0, side)
        if best is None or score < best[0]:
            best = (score, combo)
    if best is None:
        return markers
    chosen = {m.id: m for m in best[1]}
    return [chosen.get(m.id, m) for m in markers]


#: how far (squares) a corner marker from the harder search may lie from where the others put its
#: corner: loose, because three markers extrapolate the fourth corner only to within about half a square
MARKER_AGREEMENT = 1.0


def _consistent(found: list[Marker], extra: list[Marker], cols: int, rows: int) -> list[Marker]:
    """Corner markers from a harder search, kept only where the markers already found agree:
    when three or more give a grid, a new marker's corner nearest the map must lie within
    :data:`MARKER_AGREEMENT` of the map corner it names (a harder search also reads the odd false or half-hidden
    marker)."""
    new = [m for m in extra if m.id not in {k.id for k in found}]
    if not new or len({k.id for k in found if 0 <= k.id <= 3}) < 3:
        # nothing to judge, or too few markers to judge by whatever their grid: the grid is not fitted
        # (two markers on one side: 0.1 CPU-seconds a search, independent diagnosis photo s0371)
        return new
    try:
        grid = find_grid(found, cols, rows, uncertainty=False, reassign=False)
    except NotAMapError:
        grid = None
    if grid is None or grid.corner_markers < 3 or not new:  # two markers give too rough a grid to judge by
        return new
    corner = {0: (0, 0), 1: (cols, 0), 2: (cols, rows), 3: (0, rows)}
    keep = []
    for m in new:
        pts = cv2.perspectiveTransform(np.asarray(m.corners, np.float64)[None], grid.H)[0]
        if float(np.min(np.linalg.norm(pts - np.array(corner[m.id], np.float64), axis=1))) <= MARKER_AGREEMENT:
            keep.append(m)
    return keep
