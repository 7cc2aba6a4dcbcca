"""The board as SVG: the web app's board and ``--svg`` on the commands that draw.

It draws what the rules engine decided (the same :class:`~assistant.cli.picture.Overlay` as
the PNG) and decides nothing itself. Squares carry ``data-square`` and figures ``data-figure``
so a page can make them tappable; labels are Unicode text with a white halo so no line hides
them; closed doors are solid blue bars across the grid line, open doors hollow ones.

>>> from assistant.model import Map, Position, Figure
>>> from assistant.coords import parse_square
>>> svg = board_svg(Position(__import__("assistant.editions").editions.Edition.SWM2008, Map(3, 2), (Figure("obi", "light", parse_square("B2")),)))
>>> svg.startswith("<svg") and 'data-figure="obi"' in svg
True
"""

from __future__ import annotations

from html import escape
from typing import Any

from . import i18n
from .coords import Square, column_name, parse_square
from .editions import SquareTerrain
from .figurelabels import short_labels
from .geometry.fan import fan
from .i18n import _, term
from .model import Position
from .yamlio import write_text_atomic

S = 40  # user units per square (the page scales the picture; 40 keeps tap targets >= 40 px at 1x)
M = 22  # margin for coordinates
LABEL = 6  # a figure label's characters: about what a 40-unit square holds at font size 11
GLYPH = 6.6  # a label character's width at font size 11, about (sans-serif), to keep a label in its base

FILL = {
    SquareTerrain.WALL: "#aa2828",
    SquareTerrain.LOW: "#96dc96",
    SquareTerrain.DIFFICULT: "#f0e68c",
    SquareTerrain.PIT: "#f58c3c",
    SquareTerrain.FOREST: "#3c8c3c",
    SquareTerrain.STATUE: "#aaaaaa",
    SquareTerrain.FOG: "#cdcdcd",
    SquareTerrain.RISKY: "#dc96d2",
    SquareTerrain.SPIKE_STONES: "#d2b48c",
    SquareTerrain.SACRED_CIRCLE: "#faf0aa",
    SquareTerrain.BLOOD_ROCK: "#781e1e",
    SquareTerrain.TELEPORTER: "#78dce6",
}
SIDE_FILL = ["#2870c8", "#c83c3c", "#3ca03c", "#dcb428", "#a03ca0", "#787878"]


def _x(v: float) -> float:
    return round(M + v * S, 2)


def board_svg(pos: Position, overlay: Any = None, selected: str | None = None, damage: dict[str, int] | None = None,
              marks: dict[str, str] | None = None, title: str = "") -> str:
    """The whole board. ``selected``: a figure drawn with a ring; ``damage``: figure -> damage
    taken, shown under its label; ``marks``: square name -> CSS colour, a tinted square (the
    web's legal targets, a move's path)."""
    m = pos.map
    w, h = M * 2 + m.cols * S, M * 2 + m.rows * S + (20 if overlay is not None and overlay.caption else 0)
    # min-width keeps every square at least 40 px wide on a phone (tap targets); the page scrolls
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" class="board" '
           f'style="min-width: {w}px" role="img" aria-label="{escape(title or "the board")}" font-family="sans-serif">',
           '<rect width="100%" height="100%" fill="#ffffff"/>']
    if title:
        out.append(f"<title>{escape(title)}</title>")
    terrain: dict[Square, list[SquareTerrain]] = {}
    for kind, squares in m.squares.items():
        for sq in squares:
            terrain.setdefault(sq, []).append(kind)
    for r in range(m.rows):
        for c in range(m.cols):
            sq = Square(c, r)
            kinds = terrain.get(sq, [])
            fill = FILL.get(kinds[0], "#dddddd") if kinds else "#fbfaf5"
            label = f"{sq.name}" + (f" ({', '.join(term(k.value) for k in kinds)})" if kinds else "")  # in the reader's words
            out.append(f'<rect class="sq" data-square="{sq.name}" x="{_x(c)}" y="{_x(r)}" width="{S}" height="{S}" fill="{fill}" '
                       f'stroke="#d7d7d7" stroke-width="1"><title>{escape(label)}</title></rect>')
    for name, colour in (marks or {}).items():

        square = parse_square(name)
        out.append(f'<rect x="{_x(square.col)}" y="{_x(square.row)}" width="{S}" height="{S}" fill="{escape(colour)}" fill-opacity="0.35" '
                   f'pointer-events="none"/>')
    for c in range(m.cols):
        out.append(f'<text x="{_x(c + 0.5)}" y="{M - 7}" font-size="11" text-anchor="middle">{column_name(c)}</text>')
    for r in range(m.rows):
        out.append(f'<text x="{M - 4}" y="{_x(r + 0.5) + 4}" font-size="11" text-anchor="end">{r + 1}</text>')
    if overlay is not None and overlay.fan_corner is not None and overlay.fan_target:

        poly = fan(overlay.fan_corner, list(overlay.fan_target))
        pts = " ".join(f"{_x(float(p[0]))},{_x(float(p[1]))}" for p in poly)
        out.append(f'<polygon points="{pts}" fill="#ff8c00" fill-opacity="0.3" pointer-events="none"/>')
    wall = term("wall")
    for e in m.walls:
        a, b = e.endpoints
        out.append(f'<line x1="{_x(a.x)}" y1="{_x(a.y)}" x2="{_x(b.x)}" y2="{_x(b.y)}" stroke="#c81e1e" stroke-width="5" '
                   f'stroke-linecap="round"><title>{escape(wall)} {e.name}</title></line>')
    for e in m.doors:
        a, b = e.endpoints
        closed = e not in m.open_doors
        door = (_("closed door {edge}") if closed else _("open door {edge}")).format(edge=e.name)
        for i in range(4):
            t0, t1 = i / 4 + 0.03, i / 4 + 0.2
            p = (a.x + (b.x - a.x) * t0, a.y + (b.y - a.y) * t0)
            q = (a.x + (b.x - a.x) * t1, a.y + (b.y - a.y) * t1)
            style = 'stroke="#1e5ac8" stroke-width="6"' if closed else 'stroke="#1e5ac8" stroke-width="2" stroke-dasharray="2 2"'
            out.append(f'<line x1="{_x(p[0])}" y1="{_x(p[1])}" x2="{_x(q[0])}" y2="{_x(q[1])}" {style}>'
                       f'<title>{escape(door)}</title></line>')
    for corner in m.open_corners:
        out.append(f'<circle cx="{_x(corner.x)}" cy="{_x(corner.y)}" r="4" fill="#fff" stroke="#c81e1e"/>')
    sides = {s: SIDE_FILL[i % len(SIDE_FILL)] for i, s in enumerate(pos.sides_to_colour())}
    labels: list[tuple[float, float, str, int, float]] = []
    # a label unique on the board and no wider than its base: 8 characters of the id ran into the
    # next square and named two figures alike ("super-ba" twice on a 360 px phone; reading R312)
    short = short_labels([f.id for f in pos.figures], LABEL)
    for f in pos.figures:
        n = f.size.footprint
        cx, cy = _x(f.at.col + n / 2), _x(f.at.row + n / 2)
        ring = ' stroke="#ffcc00" stroke-width="4"' if f.id == selected else ' stroke="#000" stroke-width="1"'
        name = _("{figure} ({side}) on {square}").format(figure=f.id, side=side_name(f.side), square=f.space_name())
        out.append(f'<g class="fig" data-figure="{escape(f.id)}" data-side="{escape(f.side)}" tabindex="0">'
                   f'<circle cx="{cx}" cy="{cy}" r="{S * n * 0.42:.1f}" fill="{sides[f.side]}"{ring}/>'
                   f'<title>{escape(name)}</title></g>')
        dmg = (damage or {}).get(f.id) or f.damage_taken
        labels.append((cx, cy, short[f.id], dmg, S * n - 4))
    if overlay is not None:
        for (c, r) in overlay.highlight_squares:
            out.append(f'<rect x="{_x(c)}" y="{_x(r)}" width="{S}" height="{S}" fill="none" stroke="#c828c8" stroke-width="3" pointer-events="none"/>')
        for (x, y, axis) in overlay.highlight_edges:
            end = (x + 1, y) if axis == "H" else (x, y + 1)
            out.append(f'<line x1="{_x(x)}" y1="{_x(y)}" x2="{_x(end[0])}" y2="{_x(end[1])}" stroke="#c828c8" stroke-width="7"/>')
        if overlay.blocker is not None:
            b = overlay.blocker
            if b.square is not None:
                out.append(f'<rect x="{_x(b.square[0])}" y="{_x(b.square[1])}" width="{S}" height="{S}" fill="none" stroke="#ff0000" stroke-width="4"/>')
            if b.edge is not None:
                x, y, axis = b.edge
                e2 = (x + 1, y) if axis == "H" else (x, y + 1)
                out.append(f'<line x1="{_x(x)}" y1="{_x(y)}" x2="{_x(e2[0])}" y2="{_x(e2[1])}" stroke="#ff0000" stroke-width="8"/>')
            if b.at is not None:
                out.append(f'<circle cx="{_x(float(b.at[0]))}" cy="{_x(float(b.at[1]))}" r="6" fill="none" stroke="#ff0000" stroke-width="2"/>')
        for p, q, legal, label in overlay.target_lines:
            colour = "#28a028" if legal else "#dc1e1e"
            out.append(f'<line x1="{_x(p[0])}" y1="{_x(p[1])}" x2="{_x(q[0])}" y2="{_x(q[1])}" stroke="{colour}" stroke-width="2" pointer-events="none"/>')
            labels.append(((_x(p[0]) + _x(q[0])) / 2, (_x(p[1]) + _x(q[1])) / 2 - 6, label, 0, 0.0))
        if overlay.attempt is not None:
            p, q = overlay.attempt
            out.append(f'<line x1="{_x(p[0])}" y1="{_x(p[1])}" x2="{_x(q[0])}" y2="{_x(q[1])}" stroke="#999" stroke-width="1.5" '
                       f'stroke-dasharray="4 3" pointer-events="none"/>')
        if overlay.fan_corner is not None:
            out.append(f'<circle cx="{_x(overlay.fan_corner[0])}" cy="{_x(overlay.fan_corner[1])}" r="5" fill="#ff8c00"/>')
        if overlay.witness is not None:
            p, q = overlay.witness
            out.append(f'<line class="witness" x1="{_x(float(p[0]))}" y1="{_x(float(p[1]))}" x2="{_x(float(q[0]))}" '
                       f'y2="{_x(float(q[1]))}" stroke="#1ea01e" stroke-width="3" pointer-events="none"/>')
            for pt in (p, q):
                out.append(f'<circle cx="{_x(float(pt[0]))}" cy="{_x(float(pt[1]))}" r="4" fill="#1ea01e"/>')
    # labels last, with a halo, so no line or terrain hides them
    for x, y, text, dmg, room in labels:
        # a figure's damage under its label, so the label keeps its base's width (room: 0 for a line's label)
        fit = f' textLength="{room:g}" lengthAdjust="spacingAndGlyphs"' if room and len(text) * GLYPH > room else ""
        under = room and dmg
        t = escape(str(text)) + (f" −{dmg}" if dmg and not under else "")
        out.append(f'<text x="{x}" y="{y + (0 if under else 4)}" font-size="11" text-anchor="middle" fill="#000" stroke="#fff" stroke-width="3" '
                   f'paint-order="stroke" pointer-events="none"{fit}>{t}</text>')
        if under:
            out.append(f'<text x="{x}" y="{y + 12}" font-size="11" text-anchor="middle" fill="#b00000" stroke="#fff" stroke-width="3" '
                       f'paint-order="stroke" pointer-events="none">−{dmg}</text>')
    if overlay is not None and overlay.caption:
        out.append(f'<text x="6" y="{h - 6}" font-size="12">{escape(overlay.caption[:160])}</text>')
    out.append("</svg>")
    return "\n".join(out)


def write_svg(path: Any, svg: str) -> None:
    write_text_atomic(path, svg + "\n")


def side_name(side: str) -> str:
    """A side as the reader says it (:func:`assistant.i18n.side_name`)."""
    return i18n.side_name(side)
