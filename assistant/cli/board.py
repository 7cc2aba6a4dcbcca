"""The board in a terminal: Rich text in the colours of the printed maps.

Walls and doors are drawn on the grid lines where they are (not smeared onto squares):
red heavy lines for walls, blue double lines for closed doors, blue dotted lines for open
doors, a ring where a wall corner is bevelled (open). Square terrain fills its cell; a
figure's label is written over its terrain in its side's colour. Presentation only: no
rules are decided here.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.text import Text

from ..coords import Corner, Edge, Square, column_name, format_squares
from ..editions import SquareTerrain
from ..figurelabels import short_labels
from ..i18n import N_, _, condition_name, side_name
from ..limits import check_draw
from ..model import Figure, Position
from ..textsafe import shown

#: texts shown inside formatted lines (marked here for the catalogs)
T_WALL = N_("wall")
T_CLOSED_DOOR = N_("closed door")
T_OPEN_DOOR = N_("open door")
T_OPEN_BEVELLED_CORNER = N_("open (bevelled) corner")
T_AREA_BORDER = N_("area border")

CELL = 3  # characters per square

#: (glyph, style) per square terrain; backgrounds follow the printed borders
TERRAIN_STYLE: dict[SquareTerrain, tuple[str, str, str]] = {
    SquareTerrain.WALL: ("███", "red", N_("wall square (red)")),
    SquareTerrain.LOW: (" = ", "black on green3", N_("low object (green)")),
    SquareTerrain.DIFFICULT: (" : ", "black on yellow3", N_("difficult terrain (yellow)")),
    SquareTerrain.PIT: (" v ", "black on dark_orange", N_("pit (orange)")),
    SquareTerrain.FOREST: (" ♣ ", "bright_white on dark_green", N_("forest")),
    SquareTerrain.STATUE: (" Ω ", "black on grey70", N_("statue")),
    SquareTerrain.FOG: (" ~ ", "black on grey50", N_("fog or smoke")),
    SquareTerrain.RISKY: (" ! ", "black on orchid", N_("risky terrain")),
    SquareTerrain.SPIKE_STONES: (" ^ ", "black on tan", N_("spike stones")),
    SquareTerrain.SACRED_CIRCLE: (" o ", "black on light_goldenrod1", N_("sacred circle")),
    SquareTerrain.BLOOD_ROCK: (" * ", "bright_white on dark_red", N_("blood rock")),
    SquareTerrain.TELEPORTER: (" @ ", "black on cyan", N_("teleporter")),
}
#: the sizes as the legend names them (marked here for the catalogs)
SIZE_NAMES = (N_("tiny"), N_("small"), N_("medium"), N_("large"), N_("huge"), N_("gargantuan"), N_("colossal"))
# which terrain shows when a square has several (most important for play first)
_PRECEDENCE = list(TERRAIN_STYLE)

SIDE_STYLES = ("bold bright_cyan", "bold bright_magenta", "bold bright_green", "bold bright_yellow", "bold bright_white", "bold blue")

WALL_STYLE = "bold red"
DOOR_STYLE = "bold blue"
GRID_STYLE = "grey35"
AREA_STYLE = "white"

# heavy box-drawing junctions indexed by (north, east, south, west)
_JUNCTION = {
    (0, 0, 0, 0): "·", (1, 0, 1, 0): "┃", (0, 1, 0, 1): "━",
    (1, 0, 0, 0): "╹", (0, 1, 0, 0): "╺", (0, 0, 1, 0): "╻", (0, 0, 0, 1): "╸",
    (1, 1, 0, 0): "┗", (0, 1, 1, 0): "┏", (0, 0, 1, 1): "┓", (1, 0, 0, 1): "┛",
    (1, 1, 1, 0): "┣", (0, 1, 1, 1): "┳", (1, 0, 1, 1): "┫", (1, 1, 0, 1): "┻",
    (1, 1, 1, 1): "╋",
}


@dataclass(frozen=True)
class FigureLabel:
    label: str
    style: str
    figure: Figure


def figure_labels(pos: Position, cell: int = CELL) -> dict[str, FigureLabel]:
    """A short label (at most 3 characters) per figure id, unique on the board.

    Ids of 3 characters or fewer are their own label; longer ids try ``abc``, then ``ab``
    plus the last character, then ``a`` plus the last two, skipping any label that another
    figure's id or first three letters would also suggest (``clone1``, ``clone2`` become
    ``cl1``, ``cl2``). On the compact board (``cell`` 1) a label is one character: the id's
    first letter, or another of its letters, or a free letter or digit.
    """
    side_style = {side: SIDE_STYLES[i % len(SIDE_STYLES)] for i, side in enumerate(pos.sides_to_colour())}
    if cell == 1:
        return _one_character_labels(pos, side_style)
    short = short_labels([fig.id for fig in pos.figures], CELL)
    return {fig.id: FigureLabel(short[fig.id], side_style[fig.side], fig) for fig in pos.figures}


def _one_character_labels(pos: Position, side_style: dict[str, str]) -> dict[str, FigureLabel]:
    pool = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    used: set[str] = set()
    labels: dict[str, FigureLabel] = {}
    for fig in pos.figures:
        wanted = [c for c in fig.id if c.isalnum()] + [c.swapcase() for c in fig.id if c.isalpha()] + list(pool)
        label = next((c for c in wanted if c not in used), "?")
        used.add(label)
        labels[fig.id] = FigureLabel(label, side_style[fig.side], fig)
    return labels


def board_width(pos: Position, cell: int = CELL) -> int:
    """Characters across the drawn board, margins included."""
    margin = len(str(pos.map.rows))
    return 2 * (margin + 1) + pos.map.cols * (cell + 1) + 1


def render_board(pos: Position, width: int | None = None) -> RenderableType:
    """The board and its legend; drawn compact (two characters a square) when the full board
    would not fit ``width`` characters (a phone's terminal)."""

    check_draw(pos)
    cell = 1 if width is not None and board_width(pos) > width else CELL
    return Group(render_grid(pos, cell), Text(""), render_legend(pos, cell))


def render_grid(pos: Position, cell: int = CELL) -> Text:
    m = pos.map
    labels = figure_labels(pos, cell)
    by_square = {sq: labels[f.id] for f in pos.figures for sq in f.space}
    walls, doors, open_doors = m.walls, m.doors, m.open_doors
    wall_squares = m.squares.get(SquareTerrain.WALL, frozenset())
    margin = len(str(m.rows))
    out = Text(no_wrap=True, overflow="ignore")

    def col_header() -> None:
        out.append(" " * (margin + 1))
        for c in range(m.cols):
            name = column_name(c)
            # compact: two characters a column; letters past Z (AA...) show their last letter
            out.append(name.center(cell + 1) if cell > 1 else name[-1] + " ", style="bold")
        out.append("\n")

    area_sets = list(m.areas.values())

    def edge_style(e: Edge) -> tuple[str, str] | None:
        """(kind, style) of what is drawn on edge ``e``: wall, door, open door or nothing."""
        if e in walls:
            return "wall", WALL_STYLE
        if e in doors:
            return ("open", DOOR_STYLE) if e in open_doors else ("door", DOOR_STYLE)
        return None

    def filler(e: Edge) -> tuple[str, str] | None:
        """What fills a plain edge: solid between two wall squares, dashed on an area's border."""
        a, b = e.squares
        if a in wall_squares and b in wall_squares:
            return ("█" if e.axis == "V" else "█" * cell), "red"
        if any((a in area) != (b in area) for area in area_sets) and m.on_map(a) and m.on_map(b):
            return ("╎" if e.axis == "V" else "╌" * cell), AREA_STYLE
        return None

    def corner_glyph(x: int, y: int) -> tuple[str, str]:
        corner = Corner(x, y)
        marks = [edge_style(e) for e in corner.lines]
        key = tuple(1 if mk else 0 for mk in marks)
        if corner in m.open_corners:
            return "○", WALL_STYLE
        if not any(key):
            around_squares = [sq in wall_squares for sq in corner.squares]
            if all(around_squares):
                return "█", "red"
            return ("·", WALL_STYLE) if any(around_squares) else ("·", GRID_STYLE)
        style = WALL_STYLE if any(mk and mk[0] == "wall" for mk in marks) else DOOR_STYLE
        return _JUNCTION[key], style  # type: ignore[index]

    col_header()
    for y in range(m.rows + 1):
        # the grid line above row y
        out.append(" " * (margin + 1))
        for x in range(m.cols + 1):
            out.append(*corner_glyph(x, y))
            if x < m.cols:
                mark = edge_style(Edge(x, y, "H"))
                if mark is None:
                    out.append(*(filler(Edge(x, y, "H")) or (" " * cell, "")))
                else:
                    glyph = {"wall": "━", "door": "═", "open": "┄"}[mark[0]]
                    out.append(glyph * cell, style=mark[1])
        out.append("\n")
        if y == m.rows:
            break
        out.append(str(y + 1).rjust(margin) + " ", style="bold")
        for x in range(m.cols + 1):
            mark = edge_style(Edge(x, y, "V"))
            if mark is None:
                out.append(*(filler(Edge(x, y, "V")) or (" ", "")))
            else:
                out.append({"wall": "┃", "door": "║", "open": "┆"}[mark[0]], style=mark[1])
            if x < m.cols:
                sq = Square(x, y)
                glyph, style = _cell(m.terrain(sq), cell)
                fl = by_square.get(sq)
                if fl is not None:
                    bg = style.partition(" on ")[2]
                    out.append(fl.label.center(cell), style=f"{fl.style} on {bg}" if bg else fl.style)
                else:
                    out.append(glyph, style=style)
        out.append(" " + str(y + 1), style="bold")
        out.append("\n")
    col_header()
    return out


def _cell(kinds: frozenset[SquareTerrain], cell: int = CELL) -> tuple[str, str]:
    for kind in _PRECEDENCE:
        if kind in kinds:
            glyph, style, _what = TERRAIN_STYLE[kind]
            return (glyph if cell == CELL else glyph.strip()[:1] or glyph[:1]), style
    return " " * cell, ""


def render_legend(pos: Position, cell: int = CELL) -> RenderableType:
    m = pos.map
    parts: list[RenderableType] = []
    # a user's text is escaped before it becomes a Text, which would delete BEL, BS, VT, FF and CR
    title = Text()
    title.append(shown(m.name) if m.name else _("Unnamed map"), style="bold")
    title.append("  " + _("{cols} x {rows}  rules: {edition} ({title})").format(
        cols=m.cols, rows=m.rows, edition=pos.edition.value, title=_(pos.edition.board.title)))
    parts.append(title)

    key = Text()
    for kind in SquareTerrain:
        if m.squares.get(kind):
            glyph, style, what = TERRAIN_STYLE[kind]
            key.append(glyph if cell == CELL else _cell(frozenset({kind}), cell)[0], style=style)
            key.append(f" {_(what)}   ")
    if m.walls:
        key.append("━┃", style=WALL_STYLE)
        key.append(f" {_(T_WALL)}   ")
    if m.closed_doors():
        key.append("═║", style=DOOR_STYLE)
        key.append(f" {_(T_CLOSED_DOOR)}   ")
    if m.open_doors:
        key.append("┄┆", style=DOOR_STYLE)
        key.append(f" {_(T_OPEN_DOOR)}   ")
    if m.open_corners:
        key.append("○", style=WALL_STYLE)
        key.append(f" {_(T_OPEN_BEVELLED_CORNER)}   ")
    if key.plain:
        parts.append(key)
    if m.areas:
        areas = Text()
        areas.append("╌╎", style=AREA_STYLE)
        areas.append(f" {_(T_AREA_BORDER)}   ")
        for name, squares in m.areas.items():
            areas.append(f"{shown(name)}: ", style="bold")
            areas.append(", ".join(format_squares(squares)) + "   ")
        parts.append(areas)

    if pos.figures:
        from rich.table import Table  # start-up time: Rich's tables only where one is drawn

        labels = figure_labels(pos, cell)
        rows = []
        for fig in pos.figures:
            hp = pos.stats_of(fig).hp
            damage = f"{fig.damage_taken}/{hp}" if hp is not None else f"{fig.damage_taken}/?"
            state = ", ".join(([_("activated")] if fig.activated else []) + [condition_name(c) for c in fig.conditions])
            rows.append((labels[fig.id], fig, damage, state or "-"))
        if cell == 1:
            # on the compact board (a phone's terminal) the legend is a line a figure: a table's eight
            # columns in 40 characters cut the ids and the damage ("0/1…" for 0/130 reads as a number)
            lines = Text(" ".join((_("id"), _("at"), _("damage"), _("state"), _("card"))) + f" ({_('side')}, {_('size')})", style="bold")
            for fl, fig, damage, state in rows:
                lines.append("\n")
                lines.append(fl.label, style=fl.style)
                lines.append(f" {shown(fig.id)} {fig.space_name()} {damage} {shown(state)} {shown(fig.card or '-')} (")
                lines.append(shown(side_name(fig.side)), style=fl.style)
                lines.append(f", {_(fig.size.value)})")
            parts.append(lines)
        else:
            table = Table(box=None, pad_edge=False, header_style="bold")
            for col in ("", N_("id"), N_("side"), N_("card"), N_("size"), N_("at"), N_("damage"), N_("state")):
                table.add_column(_(col) if col else col)
            for fl, fig, damage, state in rows:
                table.add_row(Text(fl.label, style=fl.style), fig.id, Text(shown(side_name(fig.side)), style=fl.style), fig.card or "-",
                              _(fig.size.value), fig.space_name(), damage, state)
            parts.append(table)
    else:
        parts.append(Text(_("no figures"), style="italic"))
    return Group(*parts)
