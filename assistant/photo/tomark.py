"""The corner markers a refusal asks the judge to place, where no grid was found with one corner
marker read or none (reading R354 in docs/readings.md).

A map photographed with too few corner markers, whose printed lines and sheet outline give no
grid, is refused; the refusal names the markers to place, not "all four": two markers on opposite
corners give the grid wherever the printed lines confirm the corners they leave free (the markers'
grid checked by the lines, or R126's sheet outline), so the marker across the map from the one read
is the one to place first. The ids are the contract's (CONTRACT §4: ids 0-3 at the NW, NE, SE and
SW corners), so the marker read names its own corner.
"""

from __future__ import annotations

from collections.abc import Collection

from ..i18n import _

#: the corner marker across the map from each (ids 0-3: NW, NE, SE, SW)
ACROSS = {0: 2, 1: 3, 2: 0, 3: 1}


def corners_to_mark(read: Collection[int]) -> str:
    """What to place, translated, for the map-corner markers ``read`` (ids 0-3) of a photo no grid
    was found in: with one read, the one across the map from it; with none, two on opposite corners;
    either way all four as the surest. '' where two or more were read (their refusals name the
    corners already, R348)."""
    corners = sorted({k for k in read if 0 <= k <= 3})
    legend = _("0 north-west, 1 north-east, 2 south-east, 3 south-west; 'python -m assistant calibrate markers' prints them")
    if not corners:
        return _(
            "no corner marker is read: place markers 0 and 2 (or 1 and 3) on opposite corners of the map, or all four ({legend}), and photograph "
            "the whole map"
        ).format(legend=legend)
    if len(corners) == 1:
        (seen,) = corners
        missing = ", ".join(str(k) for k in range(4) if k != seen)
        return _(
            "corner marker {seen} is read: place (or uncover) marker {across} on the map's corner across from it too -- two markers on opposite "
            "corners give the grid where the printed lines confirm them -- or all of markers {missing} ({legend}), and photograph the whole map"
        ).format(seen=seen, across=ACROSS[seen], missing=missing, legend=legend)
    return ""
