"""Photo position checks: one stage per module behind :func:`detect` (the façade).

markers (ArUco) -> board (the grid's homography from the corner markers, or else from the
printed lines, oriented by the map's terrain) -> figures (base markers read on the top-down
view) and occupancy (a small CNN on each square's crop, :mod:`.occupancy`), then the rules
model sanity-checks what vision returned (no figure in a wall or pit; no more bases than the
roster has).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from ..errors import AssistantError
from ..i18n import N_, _
from ..model import Position
from .bases import reference_probabilities
from .board import Grid, NotAMapError, find_grid
from .budget import MAX_MARKER_CANDIDATES, has_structure
from .figures import Seen, figures_by_marker
from .markers import Marker, find_base_markers, find_markers, find_markers_counted, find_markers_near, merge
from .occupancy import TableProfile, square_probabilities
from .reference import Reference, check_size, orient_by_reference, rotations

OCCUPIED = 0.5
#: calibrated probabilities within this of 0.5 are listed for the user to confirm
UNCERTAIN_BAND = 0.35


class NoGridError(AssistantError):
    """The photo shows no board that can be trusted."""


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

    def as_json(self) -> dict[str, Any]:
        return {
            "query": "photo", "image": self.image, "grid_found": self.grid_found,
            "reprojection_error_px": None if self.reprojection_error_px is None else round(self.reprojection_error_px, 3),
            "figures": [{"id": s.id, "at": s.at, "confidence": s.confidence, "by": s.by} for s in self.figures],
            "occupied": self.occupied, "uncertain": self.uncertain, "seconds": round(self.seconds, 3), "notes": self.notes,
        }


#: the largest photo decoded: 64 megapixels (phone cameras give 12-50), each side at most 20,000 px
MAX_PIXELS = 64_000_000
MAX_SIDE = 20_000
MAX_FILE_BYTES = 200 * 1024 * 1024


def image_size(data: bytes) -> tuple[str, int, int] | None:
    """(format, width, height) read from a PNG, JPEG, BMP or WebP header; None if not one of them.

    >>> image_size(b"\\x89PNG\\r\\n\\x1a\\n" + b"\\x00\\x00\\x00\\rIHDR" + (640).to_bytes(4, "big") + (480).to_bytes(4, "big"))
    ('PNG', 640, 480)
    """
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24 and data[12:16] == b"IHDR":
        return "PNG", int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if data[:2] == b"\xff\xd8":  # JPEG: walk the segments to a start-of-frame marker
        i = 2
        while i + 9 < len(data):
            if data[i] != 0xFF:
                return None
            marker = data[i + 1]
            if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
                i += 2
                continue
            length = int.from_bytes(data[i + 2:i + 4], "big")
            if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
                return "JPEG", int.from_bytes(data[i + 7:i + 9], "big"), int.from_bytes(data[i + 5:i + 7], "big")
            if length < 2:
                return None
            i += 2 + length
        return None
    if data[:2] == b"BM" and len(data) >= 26:
        return "BMP", abs(int.from_bytes(data[18:22], "little", signed=True)), abs(int.from_bytes(data[22:26], "little", signed=True))
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP" and len(data) >= 30:
        kind = data[12:16]
        if kind == b"VP8 ":
            return "WebP", int.from_bytes(data[26:28], "little") & 0x3FFF, int.from_bytes(data[28:30], "little") & 0x3FFF
        if kind == b"VP8L":
            b = int.from_bytes(data[21:25], "little")
            return "WebP", (b & 0x3FFF) + 1, ((b >> 14) & 0x3FFF) + 1
        if kind == b"VP8X":
            return "WebP", int.from_bytes(data[24:27], "little") + 1, int.from_bytes(data[27:30], "little") + 1
    return None


def load_image(path: str | Path) -> np.ndarray:
    """A photo, decoded only after its header shows a size within the pixel budget (a small file
    can claim, or decompress to, gigabytes)."""
    p = Path(path)
    if p.is_dir():
        raise AssistantError(_("{p} is a directory, not an image").format(p=p))
    try:
        size = p.stat().st_size
        if size > MAX_FILE_BYTES:
            raise AssistantError(
                _("{p} is {mib} MiB: photos over {limit_mib} MiB are refused").format(p=p, mib=size // (1024 * 1024), limit_mib=MAX_FILE_BYTES // (1024 * 1024))
            )
        data = p.read_bytes()
    except FileNotFoundError:
        raise AssistantError(_("no such image: {p}").format(p=p)) from None
    except OSError as exc:
        raise AssistantError(_("{p} cannot be read ({why})").format(p=p, why=exc.strerror or exc)) from None
    head = image_size(data[:65536])
    if head is None:
        raise AssistantError(_("{p} is not an image (not a PNG, JPEG, BMP or WebP photo; its first bytes are {data!r})").format(p=p, data=data[:8]))
    fmt, w, h = head
    if w <= 0 or h <= 0:
        raise AssistantError(_("{p}: the {fmt} header gives a size of {w} x {h} pixels").format(p=p, fmt=fmt, w=w, h=h))
    if w > MAX_SIDE or h > MAX_SIDE or w * h > MAX_PIXELS:
        raise AssistantError(
            _("{p}: a {fmt} of {w} x {h} pixels ({mp:.0f} MP) is over the limit of {limit_mp} MP and {MAX_SIDE} px a side; refused before decoding").format(
                p=p, fmt=fmt, w=w, h=h, mp=w * h / 1e6, limit_mp=MAX_PIXELS // 1_000_000, MAX_SIDE=MAX_SIDE
            )
        )
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if img is None:
        raise AssistantError(_("{p} is a damaged {fmt} file (OpenCV cannot decode it)").format(p=p, fmt=fmt))
    if min(img.shape[:2]) < 16:
        raise AssistantError(_("{p} is {w} x {h} pixels: too small to show a board").format(p=p, w=img.shape[1], h=img.shape[0]))
    return img


def locate_grid(image: np.ndarray, pos: Position, name: str = "<image>", reference: Reference | None = None) -> tuple[Grid, list[Marker], bool]:
    """The board's grid in the photo, the markers seen, and whether the grid came from the
    printed lines (no corner markers). Raises :class:`NoGridError` rather than guess. With the
    empty map's ``reference``, a grid from the printed lines is turned the way the reference's
    art says (:func:`.reference.orient_by_reference`)."""
    cols, rows = pos.map.cols, pos.map.rows
    # the work budget (.budget): an image with no plausible structure (noise) gets no marker
    # search and no printed-lines search, whose cost on it runs to minutes
    structured = has_structure(image)
    markers = find_markers(image) if structured else []
    # small corner markers: look again, harder, then at full resolution, then (a photo of under
    # 12 MP) enlarged twice
    passes = ([(False, 1.0), (True, 1.0)] + ([(True, 2.0)] if max(image.shape[:2]) <= 4000 else [])) if structured else []
    for full, upscale in passes:
        if len({m.id for m in markers if m.id < 4}) < 4:
            found, candidates = find_markers_counted(image, small_markers=True, full_resolution=full, upscale=upscale)
            extra = [m for m in found if m.id < 4]
            markers = merge(markers, _consistent(markers, extra, cols, rows))
            if candidates > MAX_MARKER_CANDIDATES:  # the next search, on more pixels, would cost more still
                break
    from .lines import GridMismatchError, check_with_lines, find_grid_from_lines

    try:
        grid = find_grid(markers, cols, rows)
        if grid is not None:  # the markers' grid must agree with the printed lines
            grid = check_with_lines(image, grid, cols, rows)
    except (NotAMapError, GridMismatchError) as exc:
        raise NoGridError(_("no grid in {name}: {exc}").format(name=name, exc=exc)) from None
    by_lines = False
    if grid is None and structured:
        grid = find_grid_from_lines(image, pos, markers)
        by_lines = grid is not None
        if grid is not None and reference is not None:  # the printed art is not symmetric: it says which way round
            grid = orient_by_reference(image, rotations(grid, cols, rows), reference) or grid
    if grid is None:
        n = len({m.id for m in markers if m.id <= 3})
        raise NoGridError(
            _(
                "no grid found in {name}: {n} of the 4 map-corner markers (ArUco 4x4_50 ids 0-3) are visible, and the printed grid could not be matched to "
                "the map. Place the four corner markers on the map's corners ('python -m assistant calibrate markers' prints them) and photograph the whole "
                "map"
            ).format(name=name, n=n)
        )
    return grid, markers, by_lines


#: how far (squares) a corner marker from the harder search may lie from where the others put its
#: corner: loose, because three markers extrapolate the fourth corner only to within about half a square
MARKER_AGREEMENT = 1.0


def _consistent(found: list[Marker], extra: list[Marker], cols: int, rows: int) -> list[Marker]:
    """Corner markers from a harder search, kept only where the markers already found agree:
    when three or more give a grid, a new marker's corner nearest the map must lie within
    :data:`MARKER_AGREEMENT` of the map corner it names (a harder search also reads the odd false or half-hidden
    marker)."""
    new = [m for m in extra if m.id not in {k.id for k in found}]
    try:
        grid = find_grid(found, cols, rows)
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
    grid, markers, by_lines = locate_grid(image, pos, name, reference)
    if any(f.marker is not None for f in pos.figures):  # read base markers where they are: on the top-down view
        markers = merge(markers, find_base_markers(image, grid.H, cols, rows))
    seen, notes = figures_by_marker(pos, markers, grid)
    if reference is not None:
        scores = reference_probabilities(image, grid, reference)
        notes.insert(0, _("compared with the empty-map reference photo {name} (taken {taken})").format(name=reference.name, taken=reference.taken))
    else:
        scores = square_probabilities(image, grid, cols, rows, table)
        notes.insert(0, _("no reference photo: the learned classifier answered, less sure on printed-art maps"))
    missing = {f.marker for f in pos.figures if f.marker is not None} - {m.id for m in markers}
    if missing:  # read base markers once more where a base stands and no marker was read
        known = {sq for f in seen for sq in _space(pos, f)}
        near = sorted((sq for sq, v in scores.items() if v >= 0.3 and sq not in known), key=lambda sq: -scores[sq])[:40]
        found = [m for m in find_markers_near(image, grid.H, [_col_row(sq) for sq in near]) if m.id in missing]
        if found:
            markers = merge(markers, found)
            seen, notes = figures_by_marker(pos, markers, grid)
    # the rules model judges what vision sees: no figure stands in a wall square, a pit (or, DDM,
    # on a statue), so dark printed terrain there is terrain, not a base
    nowhere = {sq.name for kind in pos.edition.board.no_standing for sq in pos.map.squares.get(kind, ())}
    dark_terrain = sorted((sq for sq in nowhere if scores.get(sq, 0.0) >= OCCUPIED), key=_square_key)
    for sq in nowhere:
        scores[sq] = 0.0
    if dark_terrain:
        notes.append(
            _(
                "{n} wall, pit or statue square(s) look dark like a base ({names}{value}): the map says no figure can stand there, so they are read as terrain"
            ).format(n=len(dark_terrain), names=', '.join(dark_terrain[:6]), value=', ...' if len(dark_terrain) > 6 else '')
        )
    occupied = sorted((s for s, v in scores.items() if v >= OCCUPIED), key=_square_key)
    marked = {sq for f in seen for sq in _space(pos, f)}
    occupied = sorted(set(occupied) | marked, key=_square_key)
    uncertain = [
        {"square": s, "confidence": round(1 - abs(v - OCCUPIED) / UNCERTAIN_BAND, 3)}
        for s, v in scores.items()
        if abs(v - OCCUPIED) < UNCERTAIN_BAND and s not in marked
    ]
    # the roster says how many squares its bases cover. More occupied squares than that means a
    # figure the record lacks or a false square, fewer means a base missed or a figure gone: the
    # doubtful squares (within the uncertain band) give way to the count first, and are listed
    # for a person to confirm either way
    roster_squares = sum(f.size.footprint**2 for f in pos.figures)
    listed = {u["square"] for u in uncertain}

    def doubtful(sq: str) -> bool:
        return abs(scores.get(sq, 0.0) - OCCUPIED) < UNCERTAIN_BAND

    def listing(squares: Collection[str]) -> None:
        have = {u["square"] for u in uncertain}
        uncertain.extend({"square": s, "confidence": 0.0} for s in sorted(squares, key=_square_key) if s not in have)

    found_ids = {f.id for f in seen}
    # where the record puts a figure no marker placed, a doubtful square is settled by the record
    homes = {sq for f in pos.figures if f.id not in found_ids for sq in _block(f.at.name, f.size.footprint)}
    if len(occupied) > roster_squares:
        extra = sorted((s for s in occupied if s not in marked and s not in homes), key=lambda s: scores.get(s, 1.0))[: len(occupied) - roster_squares]
        dropped = [s for s in extra if s in listed]
        occupied = [s for s in occupied if s not in dropped]
        listing(extra)
        notes.append(
            _("{value} squares look occupied but the roster's bases cover {roster_squares}: confirm {names}").format(
                value=len(occupied) + len(dropped), roster_squares=roster_squares, names=', '.join(sorted(extra, key=_square_key)[:6])
            )
            + (_(" ({n} doubtful square(s) read as empty)").format(n=len(dropped)) if dropped else "")
        )
    # roster figures not identified by a marker (none on the base, or it was not readable) are
    # matched to the remaining occupied squares, the closest (figure, place) pairs first, so a
    # figure standing where the record says is never displaced by a neighbour's search; a
    # Large or bigger base takes a whole block of occupied squares
    unmatched = [f for f in pos.figures if f.id not in found_ids]
    free = {s for s in occupied if s not in marked}
    # a big base read with a square or two of its block doubtful-empty (its edge in shadow, a
    # body over it) still fits there: those squares join it and are listed
    maybe = {s for s in scores if doubtful(s) and s not in occupied and s not in marked and s not in nowhere}
    placed: set[int] = set()

    def place(k: int, corner: str, block: tuple[str, ...], confidence: float, by_record: bool = False) -> None:
        nonlocal occupied, free, maybe
        placed.add(k)
        filled = [b for b in block if b not in free]
        free -= set(block)
        maybe -= set(block)
        if filled:
            occupied = sorted(set(occupied) | set(filled), key=_square_key)
            listing(filled)
        if by_record:
            listing(block)
        seen.append(Seen(unmatched[k].id, corner, round(min(1.0, confidence), 3), "roster"))

    def sureness(block: tuple[str, ...]) -> float:
        """How sure vision is of a block: its least sure square, 1 for a square read surely either way."""
        return min(abs(scores.get(b, 1.0) - OCCUPIED) for b in block) / (1 - OCCUPIED)

    def match(max_gaps: Callable[[int], int]) -> None:
        """Unplaced figures onto blocks of free squares, allowing ``max_gaps(n)`` doubtful ones."""
        pairs = []
        for k, f in enumerate(unmatched):
            if k in placed:
                continue
            n = f.size.footprint
            for sq in free | maybe:
                for dc in range(n):  # every block that holds this square
                    for dr in range(n):
                        corner = _shift(sq, -dc, -dr, cols, rows)
                        if corner is None:
                            continue
                        block = tuple(_block(corner, n))
                        gaps = [b for b in block if b not in free]
                        if all(b in maybe for b in gaps) and len(gaps) <= max_gaps(n):
                            pairs.append((_dist(corner, f.at.name) + 2 * len(gaps), k, corner, block))
        for _score, k, sq, block in sorted(set(pairs), key=lambda p: (p[0], p[1], _square_key(p[2]))):
            if k in placed or not all(b in free or b in maybe for b in block):
                continue
            place(k, sq, block, sureness(block))

    # 0. a Large or bigger base where the record puts it, half its block or more read as occupied
    # and none of it another's: it stands there (the rest is its edge in shadow, or under its
    # body). First, so that smaller figures searching farther do not take its squares
    for k, f in enumerate(unmatched):
        n = f.size.footprint
        if n > 1 and f.at.col + n <= cols and f.at.row + n <= rows:
            block = tuple(_block(f.at.name, n))
            if 2 * sum(b in free for b in block) >= n * n and not set(block) & (marked | nowhere):
                place(k, f.at.name, block, sureness(block))
    # 1. onto squares read as occupied (a big base may have a quarter of its block doubtful)
    match(lambda n: n * n // 4 if n > 1 else 0)
    # 2. a figure vision found nowhere: its base hidden under its own figure (a camera straight
    # above, a dark body) or gone from the table. Where the record puts it is free: it is read as
    # standing there, and listed for a person to confirm
    taken = {sq for f in seen for sq in _space(pos, f)}
    by_record = []
    for k, f in enumerate(unmatched):
        block = tuple(_block(f.at.name, f.size.footprint))
        if k not in placed and not set(block) & (taken | nowhere):
            place(k, f.at.name, block, 0.0, by_record=True)
            taken |= set(block)
            by_record.append(f"{f.id} {f.at.name}")
    if by_record:
        notes.append(
            _("not seen in the photo, read as standing where the record says (a base hidden under its figure, or gone from the table): confirm {names}").format(
                names=", ".join(by_record[:6]) + (", ..." if len(by_record) > 6 else "")
            )
        )
    # 3. the rest (their recorded squares taken by another): onto doubtful squares, nearest first
    match(lambda n: n * n)
    short = sum(f.size.footprint**2 for k, f in enumerate(unmatched) if k not in placed)
    if short:
        # still short: the likeliest other squares are listed for a person to look at
        likeliest = sorted((s for s in scores if s not in occupied and s not in nowhere), key=lambda s: -scores[s])[: min(2 * short, 12)]
        listing(likeliest)
        notes.append(
            _("{ids} not found in the photo: look at {names}").format(
                ids=", ".join(f.id for k, f in enumerate(unmatched) if k not in placed),
                names=", ".join(sorted(likeliest, key=_square_key)[:6]) + (", ..." if len(likeliest) > 6 else ""),
            )
        )
    # where vision cannot tell, the record decides: a figure matched far from where the record
    # puts it, onto a doubtful square, while its recorded square is doubtful too and free, is
    # read as standing where the record says -- the far square is read as empty; both are listed
    taken = {sq for f in seen for sq in _space(pos, f)}
    for k, sf in enumerate(seen):
        rec = pos.figure(sf.id)
        home = rec.at.name
        if (
            sf.by == "roster"
            and rec.size.footprint == 1
            and _dist(sf.at, home) > 2
            and doubtful(sf.at)
            and doubtful(home)
            and home not in taken
            and home not in nowhere
        ):
            notes.append(
                _("{id}: the photo cannot tell {there} from {home}, both doubtful; read as standing where the record says, {home}: confirm both").format(
                    id=sf.id, there=sf.at, home=home
                )
            )
            occupied = sorted((set(occupied) - {sf.at}) | {home}, key=_square_key)
            taken = (taken - {sf.at}) | {home}
            listing([sf.at, home])
            seen[k] = Seen(sf.id, home, 0.0, "roster")
    # occupied squares no figure of the record explains (a body leaning over its neighbour, a
    # shadow, or a figure the record lacks) are listed for a person to confirm
    listed = {u["square"] for u in uncertain}
    over = len(occupied) - roster_squares
    if over > 0:
        # still more than the roster covers, every figure found: the doubtful squares no figure
        # took are read as empty, then those beside a figure found (where its body leans and its
        # shadow falls), least sure first. One far from every figure stays: the photo may show a
        # figure the record lacks
        def beside(s: str) -> bool:
            c, r = _col_row(s)
            return any(max(abs(c - tc), abs(r - tr)) <= 2 for tc, tr in map(_col_row, taken))

        cands = [s for s in free if doubtful(s) or (not short and beside(s))]
        drop = sorted(cands, key=lambda s: (not doubtful(s), scores.get(s, 1.0)))[:over]
        occupied = [s for s in occupied if s not in drop]
        free -= set(drop)
        listing(drop)
        listed |= set(drop)
        sure = sorted((s for s in drop if not doubtful(s)), key=_square_key)
        if sure:
            notes.append(
                _(
                    "{names} look occupied beside a figure already found, while every base of the roster is accounted for: read as its body or shadow over "
                    "the square (or a figure the record lacks): confirm"
                ).format(names=", ".join(sure[:6]) + (", ..." if len(sure) > 6 else ""))
            )
    unexplained = sorted((s for s in free if s not in listed), key=_square_key)
    if unexplained:
        listing(unexplained)
        notes.append(
            _("{names} look occupied but no figure of the record was matched there: confirm").format(
                names=", ".join(unexplained[:6]) + (", ..." if len(unexplained) > 6 else "")
            )
        )
    # the rules model checks what vision returned: a base marker read on a wall or pit square
    for sf in seen:
        if sf.at in nowhere:
            notes.append(_("{id} seen on {at}, a square no figure can stand on: check the photo").format(id=sf.id, at=sf.at))
            uncertain.append({"square": sf.at, "confidence": 0.0})
    if by_lines:
        notes.insert(
            0,
            _("grid found from the printed lines (no corner markers); which way round it lies was chosen by {how}").format(
                how=_(grid.oriented_by or N_("the map's terrain"))
            ),
        )
    return PhotoResult(name, True, grid.reprojection_error_px, seen, occupied, uncertain, time.perf_counter() - t0, notes)


def _space(pos: Position, seen: Seen) -> list[str]:
    return _block(seen.at, pos.figure(seen.id).size.footprint)


def _shift(name: str, dc: int, dr: int, cols: int, rows: int) -> str | None:
    """The square ``dc`` columns and ``dr`` rows away, or None off the map."""
    from ..coords import parse_square

    at = parse_square(name)
    c, r = at.col + dc, at.row + dr
    return at.offset(dc, dr).name if 0 <= c < cols and 0 <= r < rows else None


def _block(name: str, n: int) -> list[str]:
    """The n x n squares whose north-west corner is ``name``."""
    from ..coords import parse_square

    at = parse_square(name)
    return [at.offset(dc, dr).name for dc in range(n) for dr in range(n)]


def _col_row(name: str) -> tuple[int, int]:
    from ..coords import parse_square

    s = parse_square(name)
    return (s.col, s.row)


def _square_key(name: str) -> tuple[int, int]:
    from ..coords import parse_square

    s = parse_square(name)
    return (s.row, s.col)


def _dist(a: str, b: str) -> int:
    from ..coords import parse_square

    x, y = parse_square(a), parse_square(b)
    return abs(x.col - y.col) + abs(x.row - y.row)
