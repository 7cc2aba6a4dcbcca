"""Short figure labels, unique on one board: the terminal's board (3 characters a square) and
the web's SVG board (6) draw a figure's id shortened to what its square holds.

>>> short_labels(["obi-wan-kenobi", "super-battle-droid-1", "super-battle-droid-2", "sbd"], 6)
{'obi-wan-kenobi': 'obi-wa', 'super-battle-droid-1': 'super1', 'super-battle-droid-2': 'super2', 'sbd': 'sbd'}
"""

from __future__ import annotations

from collections.abc import Sequence


def short_labels(ids: Sequence[str], width: int) -> dict[str, str]:
    """A label of at most ``width`` characters per figure id, unique among ``ids``.

    An id that fits is its own label; a longer one tries its first ``width`` characters, then
    fewer of its first ones plus more of its last ones (``clone1``, ``clone2`` become ``cl1``,
    ``cl2`` at width 3; ``super-battle-droid-1`` becomes ``super1`` at 6), skipping any label
    that another figure's id or first characters would also suggest, then its first letter and
    its place, then ``#`` and its place.
    """
    prefixes: dict[str, int] = {}
    for fid in ids:
        prefixes[fid[:width]] = prefixes.get(fid[:width], 0) + 1
    used = {fid for fid in ids if len(fid) <= width}
    labels: dict[str, str] = {}
    for i, fid in enumerate(ids):
        if len(fid) <= width:
            labels[fid] = fid
            continue
        candidates = [fid[:width - k] + fid[len(fid) - k:] for k in range(width)]
        candidates += [f"{fid[0]}{i}"[:width], f"#{i}"[-width:]]
        label = next((c for c in candidates if c not in used and not (c == fid[:width] and prefixes[c] > 1)), str(i)[-width:])
        used.add(label)
        labels[fid] = label
    return labels
