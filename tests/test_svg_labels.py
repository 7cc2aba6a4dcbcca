"""The web board's figure labels: unique on the board and within their base (a trial's judge at
a 360 px phone read "super-ba" on two droids and "obi-wan-" running into the next square)."""

from __future__ import annotations

import re

from assistant.cli.board import figure_labels
from assistant.position.load import parse_position
from assistant.svg import board_svg

BOARD = """
format: tabletop-position/1
rules: swm2008
map: {cols: 14, rows: 10}
figures:
  - {id: obi-wan-kenobi, card: General Obi-Wan Kenobi, set: "The Clone Wars starter (2008)", side: light, at: G3, damage_taken: 10}
  - {id: clone-trooper-1, card: Clone Trooper, set: "The Clone Wars starter (2008)", side: light, at: N1}
  - {id: clone-trooper-2, card: Clone Trooper, set: "The Clone Wars starter (2008)", side: light, at: M1}
  - {id: super-battle-droid-1, card: Security Battle Droid, set: "The Clone Wars starter (2008)", side: dark, at: B7}
  - {id: super-battle-droid-2, card: Security Battle Droid, set: "The Clone Wars starter (2008)", side: dark, at: C7}
  - {id: sbd, card: Security Battle Droid, set: "The Clone Wars starter (2008)", side: dark, at: D7}
"""


def _labels(svg: str) -> list[str]:
    return re.findall(r'<text [^>]*paint-order="stroke" pointer-events="none"[^>]*>([^<]*)</text>', svg)


def test_each_figure_has_its_own_label_no_wider_than_its_square() -> None:
    pos = parse_position(BOARD, "trial.yaml")
    svg = board_svg(pos)
    labels = [t for t in _labels(svg) if not t.startswith("−")]
    assert sorted(labels) == sorted(["obi-wa", "clone1", "clone2", "super1", "super2", "sbd"]), labels
    assert "−10" in _labels(svg)  # the damage under its label, not widening it
    # a label the font may draw wider than its square is fitted to it (40 units less a margin)
    for m in re.finditer(r'<text [^>]*textLength="([0-9.]+)"[^>]*>([^<]*)</text>', svg):
        assert float(m.group(1)) <= 36, m.group(0)
    assert all(f'data-figure="{f.id}"' in svg for f in pos.figures)  # the whole id still names the figure
    # the terminal's board shortens the same way, to its 3 characters a square
    assert {k: v.label for k, v in figure_labels(pos).items()} == {
        "obi-wan-kenobi": "obi", "clone-trooper-1": "cl1", "clone-trooper-2": "cl2",
        "super-battle-droid-1": "su1", "super-battle-droid-2": "su2", "sbd": "sbd"}
