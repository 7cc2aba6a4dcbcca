"""The joining link as a QR code: for the terminal ``serve --lan`` prints, and as SVG for the
host's page. Both draw dark modules dark on a light ground with a quiet zone of four modules,
whatever the terminal's or the page's own colours (a code drawn light on dark is read by few
phone cameras).
"""

from __future__ import annotations

from html import escape

import segno

#: the quiet zone around the code, in modules (the QR standard's four)
BORDER = 4
#: 256-colour palette entries: 16 is black and 231 white in every xterm-compatible terminal
#: (the 16 "named" colours are the ones themes remap, so they are not used)
DARK, LIGHT = 16, 231


def matrix(text: str) -> list[list[bool]]:
    """The code's modules, quiet zone included: True is dark."""
    qr = segno.make(text, error="m")
    return [[bool(m) for m in row] for row in qr.matrix_iter(border=BORDER)]


def terminal(text: str) -> str:
    """The code for a terminal: one character per module across, two modules down (an upper
    half block whose foreground is the upper module and background the lower), every cell with
    explicit colours so that light and dark terminal themes print the same black on white."""
    rows = matrix(text)
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))  # the quiet zone grows by half a line
    lines = []
    for top, bottom in zip(rows[::2], rows[1::2], strict=True):
        cells = []
        for up, down in zip(top, bottom, strict=True):
            cells.append(f"\x1b[38;5;{DARK if up else LIGHT}m\x1b[48;5;{DARK if down else LIGHT}m\u2580")
        lines.append("".join(cells) + "\x1b[0m")
    return "\n".join(lines)


def svg(text: str, title: str = "", size: int = 240) -> str:
    """The code as an inline SVG: one path of unit squares on a white ground (crisp at any
    zoom; ``shape-rendering`` keeps the modules' edges sharp)."""
    rows = matrix(text)
    n = len(rows)
    path = "".join(f"M{x} {y}h1v1h-1z" for y, row in enumerate(rows) for x, dark in enumerate(row) if dark)
    label = f"<title>{escape(title)}</title>" if title else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="qr" viewBox="0 0 {n} {n}" width="{size}" height="{size}" '
            f'role="img" shape-rendering="crispEdges">{label}<rect width="{n}" height="{n}" fill="#fff"/>'
            f'<path fill="#000" d="{path}"/></svg>')
