"""How much work one command may take on, stated once and named in every refusal.

A position file may describe a map up to 702 x 702 squares (the notation's last column is ZZ)
and any number of figures. The geometry is exact, and its cost grows with the map's area and
with the number of figure pairs, so each kind of question has a budget chosen to answer within
a few seconds on a 2-core machine (``bench/geometry.py``):

* line of sight, cover, range, nearest, attack, targets, moves and games: maps of at most
  40,000 squares (200 x 200);
* the full matrix: at most 60 figures (3,540 ordered pairs), and figures x squares at most
  400,000 (one distance map per figure: 25 figures on 126 x 126, 10 on 200 x 200);
* drawing the board in a terminal: at most 200 x 200 squares;
* reading a photo: maps of at most 100 x 100 squares (the rectified view is 40 px a square).

A bigger question is refused with its size and the limit, never left to run for minutes.
"""

from __future__ import annotations

from .errors import AssistantError
from .i18n import _
from .model import Position

MAX_QUERY_SQUARES = 40_000
MAX_MATRIX_FIGURES = 60
MAX_MATRIX_WORK = 400_000
MAX_DRAW_SIDE = 200
MAX_PHOTO_SIDE = 100


class TooLargeError(AssistantError):
    """A question bigger than the program answers in reasonable time; says the limit."""


def check_query(pos: Position, what: str = "this question") -> None:
    cells = pos.map.cols * pos.map.rows
    if cells > MAX_QUERY_SQUARES:
        raise TooLargeError(
            _("the map is {cols} x {rows} = {cells:,} squares; {what} is answered on maps of at most {MAX_QUERY_SQUARES:,} squares (e.g. 200 x 200)").format(
                cols=pos.map.cols, rows=pos.map.rows, cells=cells, what=what, MAX_QUERY_SQUARES=MAX_QUERY_SQUARES
            )
        )


def check_matrix(pos: Position) -> None:
    check_query(pos, "the matrix")
    n = len(pos.figures)
    if n > MAX_MATRIX_FIGURES:
        raise TooLargeError(
            _(
                "{n} figures make {pairs:,} ordered pairs; the matrix is answered for at most {MAX_MATRIX_FIGURES} figures -- ask about pairs with los, "
                "cover and range, or use targets for one figure"
            ).format(n=n, pairs=n * (n - 1), MAX_MATRIX_FIGURES=MAX_MATRIX_FIGURES)
        )
    work = n * pos.map.cols * pos.map.rows
    if work > MAX_MATRIX_WORK:
        raise TooLargeError(
            _(
                "{n} figures on {squares:,} squares is {work:,} figure-squares of counting; the matrix is answered up to {MAX_MATRIX_WORK:,} (fewer figures "
                "or a smaller map)"
            ).format(n=n, squares=pos.map.cols * pos.map.rows, work=work, MAX_MATRIX_WORK=MAX_MATRIX_WORK)
        )


def check_draw(pos: Position) -> None:
    if pos.map.cols > MAX_DRAW_SIDE or pos.map.rows > MAX_DRAW_SIDE:
        raise TooLargeError(
            _("the map is {cols} x {rows}; boards of at most {MAX_DRAW_SIDE} x {MAX_DRAW_SIDE} squares are drawn in a terminal").format(
                cols=pos.map.cols, rows=pos.map.rows, MAX_DRAW_SIDE=MAX_DRAW_SIDE
            )
        )


def check_photo(pos: Position) -> None:
    if pos.map.cols > MAX_PHOTO_SIDE or pos.map.rows > MAX_PHOTO_SIDE:
        raise TooLargeError(
            _("the map is {cols} x {rows}; photos are read for maps of at most {MAX_PHOTO_SIDE} x {MAX_PHOTO_SIDE} squares").format(
                cols=pos.map.cols, rows=pos.map.rows, MAX_PHOTO_SIDE=MAX_PHOTO_SIDE
            )
        )
