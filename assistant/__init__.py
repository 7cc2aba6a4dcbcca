"""tabletop-assistant: an exact, explained referee for tabletop miniatures and card games.

The library is usable without the CLI::

    >>> from assistant.position import parse_position
    >>> pos = parse_position('''
    ... format: tabletop-position/1
    ... rules: swm2008
    ... map: {cols: 6, rows: 4, edges: {wall: ["C1:C3.E"]}}
    ... figures:
    ...   - {id: obi, side: light, at: B2, card: General Obi-Wan Kenobi}
    ... ''')
    >>> pos.stats_of(pos.figure("obi")).defense
    22
"""

from __future__ import annotations

#: kept equal to pyproject.toml's version (a test checks); read here without importlib.metadata,
#: which costs every command about 60 ms at start-up
__version__ = "0.1.0"
