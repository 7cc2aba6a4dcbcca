"""The marker windows: the squares searched once more, a window each, for the base markers the
board-wide pass did not read (:func:`marker_windows`, :func:`recorded_windows`,
:func:`named_windows`), and what the stickers those windows showed say (:func:`unread_sticker_squares`,
:func:`bare_windows`, :func:`named_stickers`, :func:`pattern_named_stickers`)."""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping, Sequence

import numpy as np

from ..coords import Square
from ..model import Position
from .figures import Seen
from .markers import Sticker, name_among, name_by_pattern
from .placement import _col_row
from .placement import _key as _square_key

#: the most squares searched again for a base marker the board-wide pass missed (a window each)
NEAR_WINDOWS = 40
#: windows per square covered by the bases whose marker is unread. Measured on 30 answered held-out
#: photos (bench/photo.py's seeds 2,000,000-2,000,019 and 2,000,100-2,000,123, 2400 px, a record
#: out of date): 871 windows searched (0.05-0.07 CPU-seconds each), 19 read a marker, each within
#: the first 1.5 windows per square so covered (the 10th window of 7 squares at worst)
NEAR_PER_SQUARE = 2
#: windows searched between looking whether every unread marker has been read
NEAR_CHUNK = 4


#: P(a base) from which a square is searched again for an unread base marker
NEAR_LEAST = 0.3


#: the most recorded squares of marked figures searched once more for their unread marker
#: (:func:`recorded_windows`, reading R211): a chunk of windows, 0.02-0.05 CPU-seconds each
RECORDED_WINDOWS = NEAR_CHUNK


def recorded_windows(pos: Position, unread: Collection[int], searched: Collection[str]) -> list[str]:
    """The recorded squares (a Large or bigger base's north-west square: each of its squares'
    windows shows the block's middle, R134) of the figures whose base marker (``unread``) is still
    unread, not ``searched`` already, at most :data:`RECORDED_WINDOWS`, in the roster's order: the
    record says where to look again, never where the figure stands -- only a marker or a sticker
    the photo shows there counts (reading R211 in docs/readings.md).

    >>> from assistant.editions import Edition
    >>> from assistant.model import Figure, Map
    >>> pos = Position(Edition.SWM2008, Map(6, 6), (Figure("a", "light", Square(1, 1), marker=23), Figure("b", "dark", Square(4, 4), marker=24),
    ...                                               Figure("c", "dark", Square(3, 0))))
    >>> recorded_windows(pos, {23, 24}, {"E5"}), recorded_windows(pos, {24}, set())
    (['B2'], ['E5'])
    """
    out = [f.at.name for f in pos.figures if f.marker is not None and f.marker in unread and f.at.name not in searched]
    return list(dict.fromkeys(out))[:RECORDED_WINDOWS]


def named_windows(pos: Position, named: Sequence[Seen], seen: Sequence[Seen], searched: Collection[str]) -> list[str]:
    """The Medium bases the roster named (``named``: the placement's figures) that no window
    ``searched``, where who is who among them mixes a figure carrying a marker the photo has not
    read (``seen``: the figures read by their marker) with one carrying none -- a window that shows
    no sticker tells those apart (reading R282); at most :data:`RECORDED_WINDOWS`, in the naming's
    order (reading R294 in docs/readings.md).

    >>> from assistant.editions import Edition
    >>> from assistant.model import Figure, Map
    >>> pos = Position(Edition.SWM2008, Map(6, 6), (Figure("a", "light", Square(1, 1), marker=23), Figure("b", "dark", Square(4, 4))))
    >>> named = [Seen("a", "C3", 0.5, "roster"), Seen("b", "E2", 0.5, "roster")]
    >>> named_windows(pos, named, [], {"C3"}), named_windows(pos, named[1:], [], set()), named_windows(pos, named, [Seen("a", "C3", 1.0, "marker")], set())
    (['E2'], [], [])
    """
    by_id = {f.id: f for f in pos.figures}
    read = {s.id for s in seen}
    roster = [s for s in named if s.by == "roster" and by_id[s.id].size.footprint == 1]
    marked = [s for s in roster if by_id[s.id].marker is not None and s.id not in read]
    if not marked or len(marked) == len(roster):
        return []
    return [s.at for s in roster if s.at not in searched][:RECORDED_WINDOWS]


def marker_windows(scores: dict[str, float], rims: dict[str, float], known: set[str] | frozenset[str], covered: int,
                   own: Mapping[str, float] | None = None, blocks: Mapping[str, float] | None = None) -> list[str]:
    """The squares searched again for the base markers the board-wide pass did not read, likeliest
    first: at most :data:`NEAR_PER_SQUARE` for each of the ``covered`` squares the bases with an
    unread marker cover (:data:`NEAR_WINDOWS` at most), among those read a base at
    :data:`NEAR_LEAST` or more outside the ``known`` figures' squares.

    Ranked by the odds of a base times its round rim (``rims``: :func:`.bases.square_rims`, a
    Large base's round a square's corner counted): a base is round plastic of known size, and
    squares read as bases on the map's art alone show no rim. By the odds alone a star field's
    squares read 0.96-1.0 with no rim (0.07-0.09) took every window, and a marked base read 0.91
    with a rim of 0.25 went unsearched, its figure then named by the record's nearest square onto
    the art (independent photo s0408 with the reference; reading R93 in docs/readings.md).

    >>> art = {f"A{r}": 0.99 for r in range(1, 6)}
    >>> marker_windows(art | {"C3": 0.91}, dict.fromkeys(art, 0.07) | {"C3": 0.25}, set(), 1)
    ['C3', 'A1']
    """
    near = sorted((sq for sq, v in scores.items() if v >= NEAR_LEAST and sq not in known),
                  key=lambda sq: (-scores[sq] * rims.get(sq, 0.0), _square_key(sq)))
    most = min(NEAR_WINDOWS, NEAR_PER_SQUARE * covered)
    if own is None or blocks is None:
        return near[:most]
    return _one_window_a_large_base(near, scores, own, blocks, most)


def _one_window_a_large_base(near: Sequence[str], scores: Mapping[str, float], own: Mapping[str, float], blocks: Mapping[str, float],
                             most: int) -> list[str]:
    """``most`` of the squares ``near`` (read as bases, :func:`marker_windows`), ranked by the odds
    of a base times its round rim, a Large base's rim (``blocks``: :func:`.bases.large_rims`, by
    the 2 x 2 block's north-west square) counted for ONE of its four squares: a window spans two
    squares round its square's middle, so each of the four shows the block's middle, where a Large
    base's marker lies -- one base, one window (reading R134 in docs/readings.md). The other three rank by their own
    rim (``own``: :func:`.bases.rim_strength` of a Medium base on the square) and the Large rims
    round their other corners not yet searched.

    With the empty-map reference the squares of Large figures without a marker read surer (0.54 ->
    0.90): each Large base took three or four windows, and a Medium base whose marker the photo
    without a reference read went unsearched (diagnosis photos s0509: f8 at E2, then read a Large
    figure's block with its neighbour; s0391: f7 at J4).

    >>> own = {"A1": 0.1, "B1": 0.1, "A2": 0.1, "B2": 0.1, "E5": 0.3}
    >>> _one_window_a_large_base(["A1", "B1", "A2", "B2", "E5"], dict.fromkeys(own, 1.0), own, {"A1": 0.4}, 2)
    ['A1', 'E5']
    """
    corners: dict[str, list[str]] = {}  # square -> the 2 x 2 blocks it is in, by their north-west squares
    for sq in near:
        c, r = _col_row(sq)
        corners[sq] = [Square(c + dc, r + dr).name for dc in (-1, 0) for dr in (-1, 0) if c + dc >= 0 and r + dr >= 0]
    searched: set[str] = set()  # the Large blocks a window already shows

    def rim(sq: str) -> tuple[float, str | None]:
        """The square's clearest rim but for the Large blocks already searched, and that block (None: its own rim)."""
        block = max((b for b in corners[sq] if b in blocks and b not in searched), key=lambda b: blocks[b], default=None)
        return (blocks[block], block) if block is not None and blocks[block] > own.get(sq, 0.0) else (own.get(sq, 0.0), None)

    left, out = list(near), list[str]()
    while left and len(out) < most:
        best = min(left, key=lambda sq: (-scores[sq] * rim(sq)[0], left.index(sq)))
        if (block := rim(best)[1]) is not None:
            searched.add(block)
        out.append(best)
        left.remove(best)
    return out


#: squares (board units) within which a sticker seen lies of a marker read, to be that marker's
#: own sticker, seen once more from a neighbouring square's window (R102): a base's sticker is
#: under half a square across, so two bases' stickers lie most of a square apart
SAME_STICKER = 0.6


def unread_sticker_squares(shown_at: Sequence[tuple[tuple[int, int], tuple[float, float]]], read_at: Sequence[np.ndarray],
                           known: Collection[str]) -> set[str]:
    """The squares whose window showed a base marker's sticker (``shown_at``: square, the sticker's
    middle in board units) that is no read marker's: not on a figure's square read by its marker
    (``known``), nor within :data:`SAME_STICKER` of a read marker's middle (``read_at``) -- its own
    sticker, seen off the middle of a window beside it (diagnosis photo s0426: the sticker of f4,
    read at F5, seen from G5's window, a figure then named on G5's printed art).

    >>> sorted(unread_sticker_squares([((6, 4), (6.1, 4.5)), ((8, 10), (8.5, 10.4))], [np.array([5.6, 4.5])], set()))
    ['I11']
    """
    out = set()
    for (col, row), (x, y) in shown_at:
        name = Square(col, row).name
        if name not in known and all(math.hypot(x - float(r[0]), y - float(r[1])) > SAME_STICKER for r in read_at):
            out.add(name)
    return out


def bare_windows(searched: Sequence[str], shown: Sequence[tuple[int, int]], read_at: Sequence[np.ndarray]) -> set[str]:
    """The squares whose window (:func:`.markers.find_markers_and_stickers_near`: two squares across,
    round the square's middle) was searched and showed a base marker's sticker neither read nor
    unread (``shown``: the windows' squares that showed one; ``read_at``: every marker read, board
    units): a base there carries no sticker the photo shows -- evidence, not proof, against a marked
    figure standing there (reading R282).

    >>> sorted(bare_windows(["C3", "F6", "H2"], [(5, 5)], [np.array([7.9, 1.2])]))
    ['C3']
    """
    out = set()
    shown_names = {Square(c, r).name for c, r in shown}
    for name in searched:
        c, r = _col_row(name)
        if name in shown_names or any(abs(float(m[0]) - (c + 0.5)) < 1.0 and abs(float(m[1]) - (r + 0.5)) < 1.0 for m in read_at):
            continue
        out.add(name)
    return out


def named_stickers(shown: Sequence[Sticker], unread: Collection[str], pos: Position, seen: Sequence[Seen]) -> dict[str, int]:
    """The squares showing an unread marker's sticker (``unread``, of the windows' ``shown``) whose
    cells name one of the markers the roster carries and the photo has not read (reading R115 in
    docs/readings.md: :func:`.markers.name_among`): square -> that marker's id. Where two windows
    name one marker on different squares, neither is kept (the cells did not tell it).

    >>> from assistant.editions import Edition
    >>> from assistant.model import Figure, Map
    >>> from .markers import _codes
    >>> pos = Position(Edition.SWM2008, Map(6, 6), (Figure("a", "light", Square(1, 1), marker=23), Figure("b", "dark", Square(4, 4), marker=24)))
    >>> cells = np.where(_codes()[23, 0], 1, 0).astype(np.int8)
    >>> named_stickers([Sticker((2, 2), (2.5, 2.4), cells)], {"C3"}, pos, [])
    {'C3': 23}
    """
    return _named_once(shown, unread, _unread_markers(pos, seen), lambda st, candidates: name_among(st.cells, candidates))


def pattern_named_stickers(shown: Sequence[Sticker], unread: Collection[str], pos: Position, seen: Sequence[Seen],
                           named: Mapping[str, int]) -> dict[str, int]:
    """The squares showing an unread marker's sticker (``unread``, of the windows' ``shown``) that the
    cells did not name (``named``: :func:`named_stickers`) whose whole printed pattern names one of
    the markers the roster carries that neither the photo nor the cells read (reading R178 in
    docs/readings.md: :func:`.markers.name_by_pattern`): square -> that marker's id. Where two
    windows name one marker on different squares, neither is kept."""
    return _named_once(shown, set(unread) - set(named), _unread_markers(pos, seen) - set(named.values()), name_by_pattern)


def _unread_markers(pos: Position, seen: Sequence[Seen]) -> set[int]:
    """The markers the roster's figures carry that the photo has not read (``seen``: the figures
    named by a marker read)."""
    read = {s.id for s in seen}
    return {f.marker for f in pos.figures if f.marker is not None and f.id not in read}


def _named_once(shown: Sequence[Sticker], unread: Collection[str], candidates: set[int],
                name: Callable[[Sticker, set[int]], int | None]) -> dict[str, int]:
    """Each square of ``unread`` showing a sticker (of the windows' ``shown``) that ``name`` names
    among ``candidates``: square -> that marker's id, less every marker named on two squares (the
    sticker did not tell it: R115, R178)."""
    named: dict[str, int] = {}
    for st in shown:
        square = Square(*st.square).name
        if square in unread and (mid := name(st, candidates)) is not None:
            named[square] = mid
    twice = {mid for mid in named.values() if list(named.values()).count(mid) > 1}
    return {sq: mid for sq, mid in named.items() if mid not in twice}
