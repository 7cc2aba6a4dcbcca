"""Stage 4: where the figures stand, from the photo's own reading; the record says only who is who.

The photo decides where bases stand: each square's calibrated probability of holding a base
(:mod:`.occupancy`) and the figures read by their base markers (:mod:`.figures`). The record (the
position handed in) may only

- name who is who: a base marker names its figure; the figures without one are given, by a
  minimum-cost assignment, to the bases the photo shows: the naming with the fewest figures moved
  since the record, then the shortest moves;
- give the roster's count and base sizes: a Large base is looked for as a 2 x 2 block of squares
  the photo reads as occupied, and more squares read occupied than the roster's bases cover makes
  the doubtful ones give way first (fewer: the likeliest doubtful ones are read as bases).

It never places a figure the photo does not show (that figure is *not seen*, with no square),
never settles a doubtful square by where it puts a figure, and never orients the grid. Whatever
the answer is unsure of is ranked, least sure first, and the first :data:`MAX_LISTED` squares
are listed for a person to confirm, each with the probability that the answer reads it right.

Pure: scores and a position in, a :class:`Placement` out (unit-tested on hand-made score maps).

>>> from assistant.coords import Square
>>> from assistant.editions import Edition
>>> from assistant.model import Figure, Map, Position
>>> pos = Position(Edition.SWM2008, Map(6, 6), (Figure("a", "light", Square(0, 0)), Figure("b", "dark", Square(5, 5))))
>>> scores = {Square(c, r).name: 0.02 for c in range(6) for r in range(6)} | {"C3": 0.97}
>>> p = place(pos, scores, [], set())
>>> [(s.id, s.at) for s in p.figures], p.not_seen
([('a', 'C3')], ('b',))
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass

from ..coords import Square, parse_square
from ..i18n import _, n_
from ..model import Figure, Position
from .compare import SURE as APPLIED_SURE
from .figures import BETWEEN, Seen, block_squares, space

OCCUPIED = 0.5
#: a square read with less than this probability of being read right is doubtful: it may be
#: settled by the roster's count, and is ranked for a person to confirm
SURE = 0.85
#: at most this many squares are listed to confirm, the least sure first (a list a judge works
#: through); how many more are doubtful is said
MAX_LISTED = 5
#: a square the roster's count read against the classifier (a doubtful square read as empty for
#: too many, as a base for too few, one beside a figure found read as its body or shadow): the
#: classifier and the count disagree, so the reading is a coin toss
COUNT_READ = 0.5
#: with every figure of the roster found, at most this many squares no figure explains are said as
#: possible figures the record lacks (each read as empty and listed, STRANGER_READ: reading R175);
#: more are printed art read as bases (reading R60): a game gains a figure or two the record lacks,
#: never a handful at once
MAX_STRANGERS = 2
#: a photo whose occupancy reading is doubtful (less sure than :data:`SURE`) on more than this share
#: of the squares a figure may stand on is read off its training (a floor art, a light, a grid a
#: little off): its sure-looking squares are no surer, so no figure the roster names there is
#: read as sure. Measured on held-out photos (bench/photo.py, record out of date): photos read
#: well had 0-11 % such squares, the photo whose figures were reported at their old recorded
#: squares without being listed (a grate floor, a grid 0.2 squares off) 31 %
DOUBTFUL_SHARE = 0.2
#: a photo that reads more than this many times the squares the roster's bases cover as occupied,
#: and more than :data:`SATURATED_SHARE` of the squares a figure may stand on, cannot tell bases
#: from the floor (reading R62): the figures without a read base marker are not placed. Measured on
#: the independent renderer's diagnosis photos (seeds 371-382): a printed star field read 124 of
#: 141 squares occupied without the reference, 140 with it, for a roster covering 20 (its unmarked
#: figures were named onto their recorded squares, two of them moved since, silently); every other
#: answered photo read at most 4.7 times the roster's squares and 37 % of its squares (a lava map)
SATURATED = 3.0
#: :func:`.bases.rim_strength` (n = 2) round a 2 x 2 block's centre from which a Large base's rim
#: is read there (:func:`place`'s ``large_rims``). Measured on the independent renderer's
#: diagnosis photos with Large figures (seeds 342-346 and 374-382, 10 photos): at the 24 Large
#: bases' centres 0.07-0.34, 21 of them 0.12 or more; at the other block centres 0.12 or less on
#: 6 of the 10 photos, up to 0.15-0.34 on water, lava and star-field art (where a block read as
#: occupied is the first choice anyway: the rim only adds blocks when the roster has Large figures
#: no such block explains)
LARGE_RIM = 0.12
#: how many times the rim it leaves a block read on only half its squares must show round its
#: centre to take a Large base off a block read on every square (reading R101): on the diagnosis
#: photos it was moved for, 0.39 against 0.05 (s0427) and 0.35 against 0.08 (s0358); on a
#: generated photo whose Large base's own block showed 0.10, a block one over cut through the
#: base's disc and showed 0.15 (tests/test_photo_learned.py, held-out photo 0: two squares wrong,
#: unlisted) -- a rim a hair clearer is no sign where the squares read say otherwise
PARTLY_READ_LEAD = 2.0
#: the probability that a square the roster's count read is read right, where the count's reading
#: proved reliable: a doubtful square read as empty because more squares looked occupied than the
#: roster's bases cover, a doubtful square of a Large base's block, and the squares read as printed
#: art because several more looked occupied than the roster has figures for. Measured on the
#: independent renderer's diagnosis photos (seeds 341-351 and 372-382, 17 answered, with and without
#: the reference): 76 of 81, 25 of 25 and 26 of 26 right (the other readings by the count, a
#: square with no rim read as art, a square read as a base for a figure the count lacked, stay
#: :data:`COUNT_READ`; a body or shadow beside a figure is :data:`BODY_READ`). Above :data:`SURE`:
#: such a square is not listed
COUNT_SETTLED = 0.9
#: how much of the classifier's doubt (1 - its probability for the reading) a square keeps:
#: measured on the same photos, its doubtful squares (a reading's probability 0.5-0.85) were right
#: 225 of 227 times (said 0.61-0.79 on average), so the classifier's doubt is overstated about
#: fourfold on photos from another renderer. Its doubt is a quarter: a square it read at 0.6 is read
#: right with 0.9, not listed; below 0.6 of sure (said 0.4 the other way) it is still listed
CLASSIFIER_DOUBT = 0.25
#: the probability that a square read as a base beside a figure found, with every base of the
#: roster accounted for, is rightly read as that figure's body or shadow (empty), and that a square
#: read as a base that no figure explains is rightly read so. Measured on the independent
#: renderer's diagnosis photos (seeds 371-394, 21 answered, with and without the reference): 71 of
#: 77 bodies and shadows right (first said :data:`COUNT_READ`, which listed them ahead of the
#: squares truly in doubt), 0 of 5 unexplained bases (said 0.5; a figure the record lacks is rare,
#: a body or art read as a base is not). Laplace's estimate of each, (right + 1) / (seen + 2)
BODY_READ = 0.9
UNEXPLAINED = 0.15
#: the probability that a square read as a base that no figure explains, with every figure of the
#: roster found elsewhere, is rightly read as empty (reading R175): on the independent renderer's
#: diagnosis photos 341-550 (both modes) 6 of the 7 such squares were empty -- the seventh the base
#: of a figure named elsewhere, wrong either way. Laplace's estimate (6 + 1) / (7 + 2): listed, a
#: figure the record lacks put to the judge
STRANGER_READ = 0.78
#: the probability that the recorded square of a Medium or smaller figure the photo found nowhere
#: (``not_seen``), read as empty and taken by no other figure, is rightly read so (reading R235): on
#: the independent renderer's diagnosis photos 341-586 (both modes, round 22's code) 6 such squares,
#: 3 of them the figure's base still there, unread (under its own body), 3 empty (the figure moved
#: and its new square read as empty too): a coin toss, Laplace's (3 + 1) / (6 + 2). (A Large
#: figure's recorded corner held its base 1 time of 4, and is one square of its four: not listed.)
NOT_FOUND_READ = 0.5
SATURATED_SHARE = 0.5


@dataclass(frozen=True)
class Placement:
    """Where the photo shows the figures (``figures``), the squares read as holding a base, the
    ranked squares to confirm (``uncertain``: square and the probability it is read right), the
    figures of the roster not seen in the photo (no square), and notes saying why."""

    figures: tuple[Seen, ...]
    occupied: tuple[str, ...]
    uncertain: tuple[tuple[str, float], ...]
    not_seen: tuple[str, ...]
    notes: tuple[str, ...]
    more_doubtful: int = 0


def saturated_reading(pos: Position, scores: Mapping[str, float], by_marker: Sequence[Seen], nowhere: Collection[str]) -> bool:
    """Does the reading see bases nearly everywhere (:data:`SATURATED`, :data:`SATURATED_SHARE`:
    reading R62 (1)), the base markers' squares counted as occupied and the no-standing squares
    (``nowhere``) as empty?

    >>> from assistant.coords import Square
    >>> from assistant.editions import Edition
    >>> from assistant.model import Figure, Map, Position
    >>> pos = Position(Edition.SWM2008, Map(6, 6), (Figure("a", "light", Square(0, 0)),))
    >>> every = {Square(c, r).name: 0.9 for c in range(6) for r in range(6)}
    >>> saturated_reading(pos, every, [], set()), saturated_reading(pos, every | {"A1": 0.1}, [], set(every) - {"A1", "B1", "C1"})
    (True, False)
    """
    standing = [sq for sq in scores if sq not in nowhere]
    occupied = _occupied_count(pos, scores, by_marker, nowhere)
    return _beyond_roster(pos, occupied) and occupied > SATURATED_SHARE * len(standing)


def over_read(pos: Position, scores: Mapping[str, float], by_marker: Sequence[Seen], nowhere: Collection[str]) -> bool:
    """Does the reading see more than :data:`SATURATED` times the squares the roster's bases cover
    as occupied, however much of the board that is (reading R76 in docs/readings.md)? Such a reading
    is off on the map's art (independent photo s0412: a lava floor read 106 of 226 squares occupied
    for a roster covering 15, its bases' own squares among the least likely), whether or not it
    sees bases nearly everywhere (:func:`saturated_reading`): it is worth a second look.

    >>> from assistant.coords import Square
    >>> from assistant.editions import Edition
    >>> from assistant.model import Figure, Map, Position
    >>> pos = Position(Edition.SWM2008, Map(6, 6), (Figure("a", "light", Square(0, 0)),))
    >>> four = {Square(c, r).name: (0.9 if r == 0 and c < 4 else 0.1) for c in range(6) for r in range(6)}
    >>> over_read(pos, four, [], set()), saturated_reading(pos, four, [], set()), over_read(pos, four | {"D1": 0.1}, [], set())
    (True, False, False)
    """
    return _beyond_roster(pos, _occupied_count(pos, scores, by_marker, nowhere))


def _beyond_roster(pos: Position, occupied: int) -> bool:
    """More than :data:`SATURATED` times the squares the roster's bases cover read as occupied."""
    return 0 < SATURATED * sum(f.size.footprint**2 for f in pos.figures) < occupied


def _occupied_count(pos: Position, scores: Mapping[str, float], by_marker: Sequence[Seen], nowhere: Collection[str]) -> int:
    """The squares read as occupied: the base markers' squares, and the others read at least
    :data:`OCCUPIED` that a figure may stand on."""
    marked = {sq for s in by_marker for sq in space(pos, s)}
    return sum(sq in marked or (sq not in nowhere and v >= OCCUPIED) for sq, v in scores.items())


def place(pos: Position, scores: dict[str, float], by_marker: Sequence[Seen], nowhere: Collection[str],
          no_rim: Collection[str] = (), large_rims: Mapping[str, float] | None = None, second_look: bool = False,
          away: Mapping[str, tuple[float, float]] | None = None, rims: Mapping[str, float] | None = None,
          stickers: Collection[str] = (), sticker_names: Mapping[str, int] | None = None,
          plastic: Mapping[str, float] | None = None, lean: Mapping[str, float] | None = None,
          settled_markers: Collection[str] = (), intact: Collection[str] = (), sticker_patterns: Mapping[str, int] | None = None,
          bare: Collection[str] = (), large_bands: Mapping[str, tuple[float, ...]] | None = None) -> Placement:
    """The figures on the squares the photo shows; see the module's text for what the record may do.

    ``scores``: each square's probability of holding a base (the rules model's no-standing squares,
    ``nowhere``, are read as empty whatever it says); ``by_marker``: the figures read by their base
    markers, which stand where their markers are; ``no_rim``: the squares that show no base's round
    rim (:func:`.bases.rim_strength`): one of them that no figure explains, with every figure of
    the roster found, is printed art read as a base on its texture alone, and is read as empty
    (and listed). ``large_rims``: how clearly a Large base's round rim shows round the centre of
    each 2 x 2 block, by the block's north-west square (:func:`.bases.rim_strength`, n = 2): a
    Large figure no block of squares read as occupied explains is looked for where that rim shows
    (:data:`LARGE_RIM`). ``second_look``: the scores are the second look taken where the first
    reading saw bases nearly everywhere (:func:`.bases.second_reading`): every figure named
    without a base marker is at most :data:`COUNT_READ` sure (listed, never agreed by default).
    ``away``: for each square, the direction on the map away from the camera
    (:func:`.bases.away_from_camera`): a figure's body, standing above its base, leans over the
    squares that way, so of a run of squares read as occupied the base is the one nearest the
    camera (:func:`_body_like`). ``rims``: how clearly a Medium or Small base's round rim shows
    round each square (:func:`.bases.rim_strength`, n = 1): where more squares read as bases than
    the figures left to name, the record's nearest square chose among them, and where the rim
    cannot tell the square named from one beside it passed over, both are listed
    (:func:`_where_by_rim`, reading R90). ``stickers``: the squares that show a base marker's
    sticker whose marker was not read (:func:`.markers.sticker_at`): a base stands there, read
    at least :data:`STICKER_BASE` sure, and it is a figure's that carries a marker -- one without
    is named there only where no other way remains (:data:`STICKER_COST`, reading R102), for a
    Medium base on that square as for a Large base's block holding it. ``sticker_names``: of those
    squares, the ones whose sticker's cells shown name one of the roster's unread markers
    (:func:`.markers.name_among`): a figure carrying another marker, or none, is named there only
    where no other way remains, and the naming of the others counts it (reading R115). ``plastic``:
    how colourful each square's base core is where it is least so (:func:`.bases.plastic_colourfulness`):
    a square read as a base whose core is clearly more colourful than the roster's own bases on the
    photo (:func:`_plastic_grey`) is a disc of colour printed on the map: a figure is named there
    only where no other way remains, and one no figure explains is no figure the record lacks
    (reading R123). ``lean``: how far a point a square above each square is seen shifted away from
    the camera (:func:`.bases.lean_per_height`): a figure named by the roster off its recorded
    square onto a square a found figure's body is seen over (:func:`_under_body`) may be named on
    that body's head or shoulders: it is at most :data:`COUNT_READ` sure, listed (reading R139).
    ``settled_markers``: the ids of the figures read by a base marker between spaces that the
    squares settled off the space nearest the marker (:func:`.figures.settle_by_squares`): each is
    listed on the square it is named on, with its marker's doubt (reading R141).
    ``intact``: the squares whose base core shows the empty-map reference's art intact
    (:func:`.bases.art_intact`, reading R112): a Large or bigger base covers every square of its
    block past its core, so no such base's block holds one of them, whatever its rim or its other
    squares read (reading R144). ``sticker_patterns``: of the squares showing a sticker the cells
    did not name, those whose whole printed pattern names one of the roster's unread markers
    (:func:`.markers.name_by_pattern`): a figure carrying another marker, or none, named there costs
    :data:`PATTERN_COST` more, the odds the pattern is right -- it decides between namings the
    record finds about as likely, never against a figure that stood still (readings R178, R293). ``bare``:
    the squares whose base-marker window showed no sticker, read or unread
    (:func:`assistant.photo.windows.bare_windows`): who is who among the Medium bases named weighs a figure
    carrying a marker on such a square :data:`BARE_COST` more -- the photo shows no sticker there --,
    never where the bases are (reading R282). ``large_bands``: for each 2 x 2 block (by its
    north-west square), how colourful a Large base's band of plastic round its body reads in each
    direction round the block's centre (:func:`.bases.large_bands`, infinity where textured): a
    Large block taken that shows no sign of a base gives way to one whose band shows the roster's
    plastic grey round most of the circle, as to one with a clear Large rim (reading R324, with R279)."""
    cols, rows = pos.map.cols, pos.map.rows
    p = {sq: (0.0 if sq in nowhere else float(v)) for sq, v in scores.items()}
    marked_ids = {s.id for s in by_marker}
    stickers = {sq for sq in stickers if sq in p and sq not in nowhere} if any(
        f.marker is not None and f.id not in marked_ids for f in pos.figures) else set()
    for sq in stickers:  # a sticker on a base: the photo shows a base there, whatever the classifier read
        p[sq] = max(p[sq], STICKER_BASE)
    names = {sq: mid for sq, mid in (sticker_names or {}).items() if sq in stickers}
    patterns = {sq: mid for sq, mid in (sticker_patterns or {}).items() if sq in stickers and sq not in names}

    # R293: the pattern's odds, but as one figure moved (R178) where a base reads on the recorded
    # square of the figure carrying the marker it names: that figure may have stood still, and one
    # figure moved is the most a pattern may weigh and never move it off (the triangle inequality)
    pattern_cost = {sq: PATTERN_STILL_COST if any(g.marker == mid and p.get(g.at.name, 0.0) >= OCCUPIED for g in pos.figures) else PATTERN_COST
                    for sq, mid in patterns.items()}

    def against_sticker(f: Figure, base: Collection[str]) -> float:
        # R102, R115: a sticker on the base's squares that is not this figure's marker; R178, R293:
        # one whose pattern names another marker, weighed by the pattern's odds
        return (STICKER_COST if any(names[sq] != f.marker if sq in names else f.marker is None and sq in stickers for sq in base) else 0.0) + (
            max((pattern_cost[sq] for sq in base if sq in patterns and patterns[sq] != f.marker), default=0.0))

    def at_sticker(f: Figure, sq: str) -> float:
        # R102: a square showing an unread marker's sticker is the base of a figure that carries
        # one; R188: it is named for such a figure whenever one is left to name -- every marked
        # figure gains alike, so who of them is named there is what it was (the record's nearest
        # squares, the cells' and the pattern's costs), but none is named elsewhere leaving the
        # sticker's base to be read away as a body or shadow
        return against_sticker(f, (sq,)) - (STICKER_COST if sq in stickers and f.marker is not None and f.id not in marked_ids else 0.0)

    bare = {sq for sq in bare if sq not in stickers}

    def unshown(f: Figure, base: Collection[str]) -> float:
        # R282: a Medium base whose window showed no sticker is likelier an unmarked figure's
        return BARE_COST if f.marker is not None and len(base) == 1 and not set(base) - bare else 0.0

    notes: list[str] = []
    figures = list(by_marker)
    nowhere = set(nowhere)
    # no Large or bigger base's block holds a square whose art shows intact (R144): each of its
    # squares' base core lies under the base but at its edge, and the base hides the art there
    art_shown = {sq for sq in intact if sq in p}
    marked = {sq for s in by_marker for sq in space(pos, s)}
    marked_surely = {sq for s in by_marker if s.confidence >= BETWEEN for sq in space(pos, s)}
    taken = set(marked)
    reading = {sq: v >= OCCUPIED for sq, v in p.items()} | dict.fromkeys(taken, True)
    by_count: set[str] = set()  # squares the roster's count read against the classifier
    settled: dict[str, float] = {}  # each such square's probability of being read right, by how the count read it (the last reading)

    def doubtful(sq: str) -> bool:
        return sq not in taken and sq not in nowhere and max(p.get(sq, 0.0), 1 - p.get(sq, 0.0)) < SURE

    standing = [sq for sq in p if sq not in nowhere]
    shaky = sum(max(p[sq], 1 - p[sq]) < SURE for sq in standing)
    shaky_photo = shaky > DOUBTFUL_SHARE * max(1, len(standing))

    # the roster's count: more squares read occupied than its bases cover -- the doubtful ones
    # give way, least likely first (where the record puts figures plays no part). The Large blocks
    # are sought on the squares so read; the naming of the smaller figures, on every square the
    # photo reads as a base, the count reading away the doubtful ones no figure took (see
    # reading R104 in docs/readings.md)
    roster_squares = sum(f.size.footprint**2 for f in pos.figures)
    occupied = [sq for sq, on in reading.items() if on]
    saturated = saturated_reading(pos, scores, by_marker, nowhere)
    early_trim: list[str] = []
    if len(occupied) > roster_squares and not saturated:
        early_trim = sorted((sq for sq in occupied if doubtful(sq)), key=lambda sq: (p[sq], _key(sq)))[: len(occupied) - roster_squares]
        for sq in early_trim:
            reading[sq] = False
        by_count |= set(early_trim)
        settled |= dict.fromkeys(early_trim, COUNT_SETTLED)
    unmatched = [f for f in pos.figures if f.id not in {s.id for s in by_marker}]
    not_seen: list[Figure] = []
    if saturated:
        # nearly every square reads as a base: the reading cannot tell bases from the floor, and
        # naming the figures onto it would put each on its recorded square (every square "shows"
        # a base there), confirming the record by default. Only base markers place figures; every
        # other square is doubtful
        notes.append(
            _("{value} of the {total} squares look occupied, {times:.0f} times the squares the roster's bases cover: the photo cannot tell bases "
              "from the floor's art, so only figures with a readable base marker are placed (photograph it again from higher, in even light, "
              "or put base markers on the figures)").format(value=len(occupied), total=len(standing), times=len(occupied) / max(1, roster_squares))
        )
        reading = {sq: sq in taken for sq in p}
        by_count |= set(standing) - taken
        settled |= dict.fromkeys(set(standing) - taken, COUNT_READ)
        not_seen, unmatched = list(unmatched), []
    # a Large or bigger base covers every square of its block past the square's core (R144); its
    # broad body seen from above may cover all four cores, reading them a little colourful, but a
    # block none of whose cores reads within :data:`DISC_BY` of the plastic's grey (R123: the
    # roster's own bases on the photo) is a disc of colour printed on the map, the size of a
    # Large base: a Large figure is named there only where no other way remains (reading R209;
    # diagnosis photo s0566: a printed navy disc's block read on three squares, the cores 0.43-0.49
    # colourful against the found bases' 0.08, taken before the Large base's own block, read on one
    # square with the photo's clearest Large rim)
    block_grey = _plastic_grey(pos, by_marker, [sq for sq, on in reading.items() if on and not doubtful(sq)], plastic)

    def painted_block(block: Sequence[str]) -> bool:
        return plastic is not None and block_grey is not None and all(plastic.get(b, 0.0) > block_grey + DISC_BY for b in block)

    # the photo's grey cores are few (R210): the map's own floor shows no plastic's grey but on a
    # share of its squares no larger than :data:`GREY_DECISIVE` times the squares the roster's bases cover
    grey_decisive = plastic is not None and block_grey is not None and sum(
        plastic.get(sq, 1.0) <= block_grey + GREY_WITHIN for sq in p if sq not in nowhere) <= GREY_DECISIVE * max(1, roster_squares)

    # the n x n blocks a Large or bigger base may cover by the squares' reading ``view``, each scored
    # (``painted``: the blocks of a disc printed on the map too, R209)
    def candidate_blocks(view: Mapping[str, bool], n: int, painted: bool = False) -> list[tuple[float, str, tuple[str, ...]]]:
        found: list[tuple[float, str, tuple[str, ...]]] = []
        for c in range(cols - n + 1):
            for r in range(rows - n + 1):
                corner = Square(c, r).name
                block = tuple(block_squares(corner, n))
                if set(block) & (taken | nowhere | art_shown) or (not painted and painted_block(block)):
                    continue
                on = sum(view.get(b, False) for b in block)
                # a block read on two squares, one of them a Medium base's by its own round rim, is
                # that base beside whatever read the other, no Large base's half (R94; diagnosis photo
                # s0439: a Large base named one square over, onto the block with a Medium base in it)
                if n == 2 and 2 * on == n * n and rims and large_rims and _a_medium_base_in(block, view, rims, large_rims.get(corner, 0.0), 2):
                    continue
                if 2 * on >= n * n and all(view.get(b, False) or doubtful(b) for b in block):
                    # a block whose squares have a square read as occupied beside them toward the
                    # camera is likelier a body leaning over from there (held-out s0384: a Large
                    # base's body read as the block one square down and left of it, away from the
                    # camera; s0386: the block right behind a marked Large base, its body)
                    lean = sum(_body_like(b, view, away, cols, rows, set(block)) for b in block)
                    found.append((sum(p.get(b, 0.0) for b in block) - BODY_WEIGHT * lean, corner, block))
        return found

    # bases of Large and bigger figures: the best n x n blocks of squares the photo reads as
    # occupied (at least half of the block, the rest doubtful: an edge in shadow, under a body),
    # as many as the roster has figures of that size; then who is who among them
    for n in sorted({f.size.footprint for f in unmatched if f.size.footprint > 1}, reverse=True):
        figs = [f for f in unmatched if f.size.footprint == n]
        blocks = candidate_blocks(reading, n)
        # the rims round the centres of the blocks of printed discs show the disc's printed edge, no base's (R209)
        block_rims = large_rims if large_rims is None else {
            c: (0.0 if painted_block(block_squares(c, 2)) else v) for c, v in large_rims.items()}
        chosen: list[tuple[str, tuple[str, ...]]] = []
        used: set[str] = set()
        _take_blocks(blocks, chosen, used, len(figs))
        if len(chosen) < len(figs) and early_trim:
            # a Large figure short: its block read as a base on half its squares or more once the
            # doubtful squares the count read away are seen again, before a block by its rim alone
            # (R104; diagnosis photo s0370: a Large base's K5, L5 read 0.65, 0.71 and read away,
            # the block then read on K4 only, the figure named on art by a rim two blocks over)
            # -- where the block's centre shows at least the faint rim a half-read block needs (R86):
            # without it, the block is as likely art or bases side by side (s0459 with the reference:
            # a block of art and a Medium base, rim 0.05, taken before the Large base's rim 0.19)
            restored = reading | dict.fromkeys(early_trim, True)
            _take_blocks([b for b in candidate_blocks(restored, n) if not block_rims or block_rims.get(b[1], 0.0) >= HALF_READ_RIM],
                         chosen, used, len(figs))
        by_rim: set[str] = set()
        by_body: set[str] = set()  # the blocks by the rim alone, every square read as empty (R111)
        if n == 2 and block_rims and len(chosen) < len(figs):
            # a Large figure's body hides much of its base, and the squares' crops each see a
            # quarter of it: a square or two of the block can read as surely empty (independent
            # photo s0380: a Large base's block read 0.00, 0.60, 0.98, 0.65; another 0.09, 0.37,
            # 0.07, 0.98, both figures then not seen and their squares named for Medium figures).
            # Its round rim round the block's centre (the base's shape and size, issue 28 item 3)
            # shows it: a block with that rim and a square read as occupied is taken, doubtful
            # a Large base covers its block: the block read as a base on more of it first, the rim
            # settling near ties (independent photo s0385: a Medium base's block, one square read,
            # had a rim a hair clearer than the Large base's, two squares read)
            rimmed = _rimmed_blocks(reading, p, taken | nowhere | used | art_shown, block_rims, away, cols, rows, LARGE_RIM, 1)
            if rims:
                # a block read as a base on one square only, that square showing a Medium base's own
                # round rim as clearly as the block shows a Large one's, is that Medium base (R91);
                # on two squares both so, two smaller round things (R236)
                rimmed = [b for b in rimmed if not _smaller_base_in(b[2], reading, rims, block_rims[b[1]])]
            by_rim = {corner for corner, _b in _take_blocks(rimmed, chosen, used, len(figs))}
            if len(chosen) < len(figs):
                # still a Large figure short: a block read as a base on half its squares is one,
                # where a fainter rim shows round its centre (reading R86 in docs/readings.md)
                half_read = _rimmed_blocks(reading, p, taken | nowhere | used | art_shown, block_rims, away, cols, rows, HALF_READ_RIM, 2)
                if rims:  # two squares read, each a smaller base's own rim: no Large base (R236)
                    half_read = [b for b in half_read if not _smaller_base_in(b[2], reading, rims, block_rims[b[1]])]
                by_rim |= {corner for corner, _b in _take_blocks(half_read, chosen, used, len(figs))}
            if len(chosen) < len(figs) and early_trim:
                # still a Large figure short: its block's one square read as a base may be a doubtful
                # one the roster's count read away before any figure was named; seen again, the block
                # with a clear Large rim round its centre is that base (reading R110; diagnosis photo
                # s0468: a Large base's block read 0.60, 0.16, 0.01, 0.20, its centre's rim 0.19, the
                # clearest on the map, A1 read away and the figure reported not seen)
                seen_again = reading | dict.fromkeys(early_trim, True)
                rimmed = _rimmed_blocks(seen_again, p, taken | nowhere | used | art_shown, block_rims, away, cols, rows, LARGE_RIM, 1)
                if rims:
                    rimmed = [b for b in rimmed if not _smaller_base_in(b[2], seen_again, rims, block_rims[b[1]])]
                # the squares say little there (one doubtful square each): the clearest rim first
                by_rim |= {corner for corner, _b in _take_blocks([(block_rims[c], c, b) for _s, c, b in rimmed], chosen, used, len(figs))}
            if len(chosen) < len(figs):
                # still a Large figure short: its broad body over the whole block, every square reads
                # as a body, none as a base; the base's round rim round the block's centre, clearer
                # than bare art shows, and standing out of the map's own rims (a star field draws
                # clear ones everywhere), is where the photo shows it (reading R111)
                seen_again = reading | dict.fromkeys(early_trim, True)
                clear = max(CLEAR_LARGE_RIM, ART_RIM_TIMES * _art_rim(large_rims or {}))
                # (only blocks no square of which reads as a base: the rims above judged the others,
                # a Medium base's edge among them, R91), where the classifier sees a little of a base
                # on some square -- printed circles on bare floor read surely empty all round -- or
                # where most of its squares' cores show the plastic's grey, few on the map (R210, R237)
                rimmed = [b for b in _rimmed_blocks(seen_again, p, taken | nowhere | used | art_shown, block_rims, away, cols, rows, clear, 0)
                          if not any(seen_again.get(x, False) for x in b[2])
                          and (max(p.get(x, 0.0) for x in b[2]) >= GLIMPSED_BASE or grey_decisive and _grey_cores(b[2], plastic, block_grey) >= GREY_OF_BLOCK)]
                by_body = {corner for corner, _b in _take_blocks([(block_rims[c], c, b) for _s, c, b in rimmed], chosen, used, len(figs))}
                by_rim |= by_body
        by_plastic: set[str] = set()
        by_band: set[str] = set()  # the blocks moved onto by a Large base's band of plastic (R324)
        if len(chosen) < len(figs) and grey_decisive:
            # still a figure short, its block's squares read as empty under its body and its rim too
            # faint: a Large base covers every square of its block past the core (R144), so its grey
            # or black plastic shows on the cores of most of them whatever the classifier reads, where
            # the map's floor is colourful enough that grey cores are few (reading R210; diagnosis
            # photos s0424, s0479, s0494, s0530, s0482 without the reference: a Large figure not seen,
            # its block read on one or two squares, three or four cores as grey as the found bases')
            by_plastic = {corner for corner, _b in _take_blocks(
                _plastic_blocks(reading, p, taken | nowhere | used | art_shown, plastic or {}, block_grey, n, cols, rows), chosen, used, len(figs))}
        if n == 2 and block_rims and len(chosen) < len(figs) and grey_decisive:
            # still a Large figure short, every square of its block read as empty under its body and
            # its rim fainter than R111's clear one: the three signs of a base the photo gives
            # together -- a rim round the block's centre as clear as a half-hidden one shows
            # (:data:`HALF_READ_RIM`) and clearer than the map's own, a glimpse of a base on a square,
            # and the plastic's grey on most of its cores -- are where it stands (reading R255)
            faint = _faint_rimmed_grey_blocks(reading, p, taken | nowhere | used | art_shown, block_rims,
                                              plastic or {}, block_grey, cols, rows)
            found_faint = {corner for corner, _b in _take_blocks(faint, chosen, used, len(figs))}
            by_body |= found_faint
            by_rim |= found_faint
        painted_taken: set[str] = set()
        if len(chosen) < len(figs):
            # still a figure short: the block of a disc printed on the map is where the squares read
            # it, no other way remaining (R209), said doubtful and listed
            painted_taken = {corner for corner, _b in _take_blocks(
                [b for b in candidate_blocks(reading, n, painted=True) if painted_block(b[2])], chosen, used, len(figs))}
        if n == 2 and block_rims and rims and early_trim:
            # a block taken that holds a smaller base's own round rim, clearer than its Large rim,
            # gives way to a block the classifier read on all four squares before the roster's count
            # read some away, whose centre shows a clear Large rim its own squares' do not (reading R278)
            cleared = _onto_clear_rimmed(chosen, used, taken | nowhere | art_shown, p, rims, block_rims)
            by_rim |= {corner for corner, _b in cleared if (corner, _b) not in chosen}
            chosen = cleared
        # a block that another block, shifted over it, explains as well (every square of both read
        # as occupied): the squares' readings cannot tell a Large base from one beside a smaller
        # base, so where the base lies is doubtful, not settled by which block scored higher
        full = [(c, set(b)) for _s, c, b in blocks if all(reading.get(x, False) for x in b)]
        if n == 2 and block_rims:
            # a block read on half its squares or more whose centre shows a Large base's rim may take
            # the place of one shifted over it that shows none (R101): the disc's far half under its
            # body reads as empty, the squares one over read as bases by the body leaning there
            partly = _partly_read_blocks(reading, taken | nowhere | art_shown, rims, block_rims, cols, rows)
            chosen = _by_rim_among_shifted(chosen, full, used, block_rims, partly)
            # a block read on half its squares or fewer may be the body leaning away from the
            # camera over the squares behind the base, whose own block toward the camera shows the
            # clear rim the body leaves uncovered (reading R194)
            toward = _toward_camera_by_rim(chosen, reading, used, taken | nowhere | art_shown, block_rims, away)
            by_rim |= {corner for corner, _b in toward if (corner, _b) not in chosen}
            chosen = toward
        if grey_decisive:
            # a block whose cores show no plastic beside one shifted over it whose cores do: the
            # base covers its block past every core, the squares one over read by its body (R238)
            onto_grey = _onto_grey_block(chosen, reading, used, taken | nowhere | art_shown, plastic or {}, block_grey, n)
            by_plastic |= {corner for corner, _b in onto_grey if (corner, _b) not in chosen}
            chosen = onto_grey
            if n == 2 and block_rims:
                # a block whose cores show no plastic at all, within a Large body's reach of a block
                # whose cores show it and whose centre a Large rim: the base is there (reading R256)
                near_grey = _near_grey_rimmed(chosen, used, taken | nowhere | art_shown, plastic or {}, block_grey, block_rims)
                moved = {corner for corner, _b in near_grey if (corner, _b) not in chosen}
                by_plastic |= moved
                by_rim |= moved
                chosen = near_grey
                # a block still taken that shows no sign of a base but the classifier's reading -- no
                # plastic on any core, no Large rim round its centre -- gives way to a block anywhere
                # on the map that the classifier reads on a square, whose cores show the plastic and
                # whose centre a Large rim clearer than the map's art (reading R279)
                # -- or whose band of plastic round the body shows the roster's grey all round,
                # where the rim is lost on dark art (reading R324)
                bands = _band_shares(large_bands or {}, block_grey)
                far_grey = _far_grey_rimmed(chosen, used, taken | nowhere | art_shown, p, plastic or {}, block_grey, block_rims, bands)
                moved = {corner for corner, _b in far_grey if (corner, _b) not in chosen}
                by_plastic |= moved
                by_band |= {corner for corner in moved if bands.get(corner, 0.0) >= BAND_SHARE and not _rim_clearer_than_art(corner, block_rims)}
                by_rim |= moved - by_band
                chosen = far_grey
        shifted = {corner for corner, block in chosen
                   if any(alt != set(block) and alt & set(block) and not alt & (used - set(block)) for _c, alt in full)}
        pairs = assign([[_distance(f.at, parse_square(corner)) + against_sticker(f, b) for corner, b in chosen] for f in figs])
        for f, j in zip(figs, pairs, strict=True):
            if j is None:
                not_seen.append(f)
                continue
            corner, block = chosen[j]
            gaps = [b for b in block if not reading.get(b, False)]
            for b in gaps:  # the base covers them: its edge in shadow, or its own body over it
                reading[b] = True
            by_count |= set(gaps)
            settled |= dict.fromkeys(gaps, COUNT_SETTLED)
            taken |= set(block)
            conf = _confidence(block, p, by_count)
            # each doubt the block was found by, said doubtful and listed with its note
            doubts = (
                (corner in by_body, _("{id}'s base read at {at} by a Large base's round rim there, though every one of its squares reads as "
                                      "empty (its body over the base): confirm")),
                (corner in by_band, _("{id}'s base read at {at}, where a Large base's grey or black plastic shows round its body on half "
                                      "the circle or more and on its squares' centres, though its round rim is lost on the map's dark "
                                      "art; the block first read shows neither: confirm (reading R324)")),
                (corner in by_rim and corner not in by_body,
                 _("{id}'s base read at {at} by a Large base's round rim there, though some of its squares read as empty: confirm")),
                (corner in by_plastic and corner not in by_band,
                 _("{id}'s base read at {at}, where its squares' centres show a base's grey or black plastic on a "
                   "colourful map, though some of them read as empty (its body over the base): confirm")),
                (corner in painted_taken, _("{id}'s base read at {at}, though no square of the block shows a base's grey or black plastic "
                                            "(coloured like a disc printed on the map) and no other block is left: confirm")),
                (corner in shifted, _("{id}'s base read at {at}, though the squares one over read as occupied too (a smaller base beside it): "
                                      "which squares the base covers is doubtful: confirm")),
            )
            for doubtful_by, note in doubts:
                if doubtful_by:
                    conf = min(conf, COUNT_READ)
                    notes.append(note.format(id=f.id, at=corner))
            figures.append(Seen(f.id, corner, conf, "roster"))
    for sq in early_trim:  # the Large blocks taken: the count reads away only what the naming leaves (R104)
        if sq not in taken:
            reading[sq] = True
            by_count.discard(sq)
            settled.pop(sq, None)
    # Medium and smaller: the squares the photo is sure of first, then the doubtful ones it reads
    # as occupied, then (the roster's count short) the likeliest doubtful squares read as empty;
    # at each step who is who by the fewest figures moved since the record, then the shortest moves
    figs = [f for f in unmatched if f.size.footprint == 1]
    sizes = {f.id: f.size.footprint for f in pos.figures}
    sure = [sq for sq, on in reading.items() if on and sq not in taken and not doubtful(sq)]
    unsure = [sq for sq, on in reading.items() if on and sq not in taken and doubtful(sq)]
    # a square read as a base whose core is coloured where the roster's bases show grey plastic is
    # a disc printed on the map: a figure is named there only where no other way remains (R123)
    grey = _plastic_grey(pos, by_marker, sure, plastic)
    painted = {sq for sq, v in (plastic or {}).items() if grey is not None and v > grey + PAINTED_BY}
    steps_painted = sorted((sq for sq in [*sure, *unsure] if sq in painted), key=_key)
    sure, unsure = [sq for sq in sure if sq not in painted], [sq for sq in unsure if sq not in painted]
    # a square read as a base that shows not a trace of a Medium or Small base's round rim (fainter
    # than :data:`NO_RIM`; no sticker) held none on the diagnosis photos: a figure is named there
    # only where no other way remains, before a disc of colour (reading R339)
    rimless = {sq for sq in [*sure, *unsure] if rims is not None and sq in rims and rims[sq] < NO_RIM and sq not in stickers}
    steps_rimless = sorted(rimless, key=_key)
    sure, unsure = [sq for sq in sure if sq not in rimless], [sq for sq in unsure if sq not in rimless]
    # a square read surely as a base where a found figure's body is seen over the map (behind its
    # base, away from the camera, within the reach of its top, and within a square of the body's
    # line) is as likely that body as a base: it is named with the doubtful squares, after the sure
    # squares no body is seen over (reading R191; diagnosis photos s0346, s0489 with the reference:
    # a moved figure named sure onto a found figure's body while its own base read sure or nearly)
    found_now = [(s.id, s.at, sizes.get(s.id, 1)) for s in figures]
    # -- but not a square showing an unread base marker's sticker: a sticker is printed on a base,
    # never on a body, head or shoulders (reading R338; diagnosis photo s0632: f9's own recorded
    # square G1, read 1.00 with its sticker under f7's body, passed over for bare art four squares off)
    behind = {sq for sq in sure if sq not in stickers and _under_body(sq, found_now, away, lean, BODY_ACROSS) is not None}
    sure, unsure = [sq for sq in sure if sq not in behind], [*unsure, *sorted(behind, key=_key)]
    # (after the doubtful squares read as empty that are likeliest a base: a base's plastic under a
    # body read a little empty is likelier a figure's than a disc of colour read as a base)
    steps: list[list[str] | None] = [sure, unsure, None, steps_rimless, steps_painted]
    rim_rivals: list[tuple[str, str, str]] = []  # (figure, its square, the square as rimmed) the photo cannot tell apart
    rim_listed: list[tuple[str, str]] = []  # (figure, a square read empty showing a base's rim) listed with a doubtful naming (R98)
    tied_beside: dict[str, str] = {}  # a square named and the square beside it passed over, read alike (R397)
    record_chose: set[str] = set()  # doubtful squares passed over for ones the photo reads less likely (R104)
    read_away = set(early_trim)  # the doubtful squares the roster's count reads away, as it first read them
    medium_figs = list(figs)
    named_steps: list[tuple[Figure, str, float, str | None]] = []  # (figure, square, the square's confidence, the square the rim ties it with)
    for step in steps:
        if not figs:
            break
        if step is None:  # too few bases for the roster: the doubtful squares likeliest to hold one
            step = sorted((sq for sq, on in reading.items() if not on and doubtful(sq) and sq not in painted), key=lambda sq: (-p[sq], _key(sq)))[: len(figs)]
            for sq in step:
                reading[sq] = True
            by_count |= set(step)
            settled |= dict.fromkeys(step, COUNT_READ)
        squares = sorted(step, key=_key)
        # a square with another read as a base, no figure's yet, next to it toward the camera is
        # likelier that base's body: named last, as if one more figure had half moved (who is who
        # among the squares unchanged). Next to a figure's base already found, it may as well be
        # another base as that figure's body (held-out s0387: a Medium base right behind a Large one)
        # (the doubtful squares the roster's count reads away seen as it reads them: R104 names on
        # them, it does not make them bases for a square beside them to lean from)
        counted = {sq: on and sq not in read_away for sq, on in reading.items()}
        leans = [BODY_WEIGHT * _body_like(sq, counted, away, cols, rows, taken) for sq in squares]
        # a square showing an unread marker's sticker is a marked figure's: one without a marker
        # is named there only where the roster leaves no other way (R102)
        cost = [[_distance(f.at, parse_square(sq)) + leans[j] + at_sticker(f, sq) for j, sq in enumerate(squares)] for f in figs]
        pairs = assign(cost)
        coin: dict[int, str] = {}
        if rims and len(squares) > len(figs):
            # more squares read as bases than figures to name: the cost (figures moved since the
            # record) chose which squares hold them; where the photo cannot tell them apart by a
            # base's round rim, the naming is a coin toss, listed with the square passed over (R90)
            coin = _where_by_rim(figs, squares, pairs, cost, rims)
        # a doubtful square passed over for one the photo reads less likely: the record's nearest
        # squares chose between two the photo shows as bases, not the photo (R104): the naming is
        # doubtful, and the square passed over is listed, not read away by the roster's count
        named_here = {squares[j] for j in pairs if j is not None}
        passed = [sq for sq in squares if sq not in named_here and doubtful(sq)]
        record_chose |= {sq for sq in passed if any(p[sq] > p[named] or _tied_beside(sq, named, p) for named in named_here)}
        rest = []
        for i, (f, j) in enumerate(zip(figs, pairs, strict=True)):
            if j is None:
                rest.append(f)
                continue
            sq = squares[j]
            taken.add(sq)
            conf = _confidence((sq,), p, by_count)
            if any(p[other] > p[sq] or _tied_beside(other, sq, p) for other in passed) or sq in painted or sq in rimless:
                conf = min(conf, COUNT_READ)
            tied = [other for other in passed if p[other] <= p[sq] and _tied_beside(other, sq, p)]
            if tied and coin.get(i) is None:
                tied_beside[sq] = max(tied, key=lambda other: (p[other], _key(other)))
            named_steps.append((f, sq, conf, coin.get(i)))
        figs = rest
    # the steps chose which squares hold the Medium bases, the photo's surest first; who is who
    # among all of them is one assignment (reading R152 in docs/readings.md): named step by step, a figure that
    # stood still on a doubtful square was moved onto a sure square nearer another's record
    # before the doubtful squares were weighed at all
    renamed = _named_together(medium_figs, named_steps, lambda f, sq: at_sticker(f, sq) + unshown(f, (sq,)))
    named_ids = {f.id for f, _sq, _c, _o in renamed}
    for f, sq, conf, tie in renamed:
        head_of = _under_body(sq, [(s.id, s.at, sizes.get(s.id, 1)) for s in figures], away, lean) if sq != f.at.name else None
        if head_of is not None and conf > COUNT_READ:
            # the square may show the found figure's head or shoulders, seen over the map as a
            # dark round top like a base's, and the record's nearest square chose it (R139)
            conf = COUNT_READ
            notes.append(
                _("{id} read at {at}, where {other}'s body is seen leaning over the map from its base: its head or shoulders may look "
                  "like a base there: confirm").format(id=f.id, at=sq, other=head_of))
        if tie is not None:
            conf = min(conf, COUNT_READ)
            rim_rivals.append((f.id, sq, tie))
            notes.append(
                _("{id} read at {at}, the nearer its recorded square, but {other} beside it looks as much like a base (its round rim as clear or "
                  "clearer): the photo cannot tell which it stands on: confirm").format(id=f.id, at=sq, other=tie))
        figures.append(Seen(f.id, sq, conf, "roster"))
    not_seen.extend(f for f in medium_figs if f.id not in named_ids)
    if not_seen:
        notes.append(
            _("{ids} not seen in the photo: no base was found for them, and the record's squares are not assumed (a base hidden under its figure, "
              "or gone from the table): look for them").format(ids=", ".join(f.id for f in not_seen))
        )
    if len(occupied) > roster_squares and not saturated:
        # the count reads away the doubtful squares no figure took, least likely first: read away
        # before the naming, a moved figure's base read a hair less likely than art far off left the
        # figure named onto the art (R104; diagnosis photo s0454 with the reference: f1's base at F1
        # read 0.71 and read away, f1 named on A1, art read 0.72). A square passed over for one the
        # photo reads less likely (the record's nearest square chose) stays a coin toss, listed
        trim = sorted((sq for sq in occupied if doubtful(sq) and sq not in taken and reading[sq]),
                      key=lambda sq: (p[sq], _key(sq)))[: len(occupied) - roster_squares]
        for sq in trim:
            reading[sq] = False
        by_count |= set(trim)
        settled |= {sq: COUNT_READ if sq in record_chose else COUNT_SETTLED for sq in trim}
        if trim:
            notes.append(
                n_("{value} square looks occupied but the roster's bases cover {roster_squares}: the doubtful {names} read as empty",
                   "{value} squares look occupied but the roster's bases cover {roster_squares}: the doubtful {names} read as empty",
                   len(occupied)).format(value=len(occupied), roster_squares=roster_squares, names=_first_six(trim))
            )
    # squares read as bases that no figure of the roster took: with every figure found, one beside
    # a figure (within two squares: its body leaning over, its shadow) is read as that, while the
    # roster's count is exceeded; any other is read as empty and listed (R175: such squares proved art,
    # bodies or shadows, not figures the record lacks) -- while a figure is not seen it stays occupied,
    # listed first; the one beside a figure is said BODY_READ (right about nine times in ten)
    left = sorted((sq for sq, on in reading.items() if on and sq not in taken), key=lambda sq: (p[sq], _key(sq)))

    def read_as_empty(squares: Collection[str], said: float) -> None:
        # squares the roster's count reads as empty against the classifier, each said ``said`` right
        for sq in squares:
            reading[sq] = False
        by_count.update(squares)
        settled.update(dict.fromkeys(squares, said))

    printed = [sq for sq in left if sq in painted]
    if printed:
        # a base is grey or black plastic, the roster's own bases on this photo show how grey under
        # its light: a square no figure explains whose core is coloured all over is printed art (R123)
        read_as_empty(printed, PAINTED_READ)
        left = [sq for sq in left if sq not in printed]
        notes.append(
            _("{names} look occupied, but no figure of the roster was matched there and the square is coloured where the figures' bases show "
              "their grey or black plastic: read as a disc printed on the map (reading R123)").format(names=_first_six(printed)))
    if left and large_rims:
        # a Large figure not seen, while a square read as a base is left unexplained and a Medium
        # figure is named on a square a free Large block holds: the same bases named so that every
        # base is explained and every figure seen (reading R284)
        regrouped = _large_on_a_medium_square(pos, figures, not_seen, left, {sq for s in figures for sq in space(pos, s)},
                                              set(nowhere) | art_shown, large_rims, pinned={s.id for s in figures if s.by == "roster" and any(
                                                  (names.get(sq) or patterns.get(sq)) is not None for sq in space(pos, s))})
        if regrouped is not None:
            figures, large_fig, corner, freed = regrouped
            not_seen = [g for g in not_seen if g.id != large_fig]
            left = [sq for sq in left if sq != freed]
            covered = block_squares(corner, 2)
            gaps = [b for b in covered if not reading.get(b, False)]
            for b in gaps:  # the base covers them (its body over the base)
                reading[b] = True
            by_count |= set(gaps)
            settled |= dict.fromkeys(gaps, COUNT_SETTLED)
            taken |= set(covered)
            notes.append(
                _("{id}'s base read at {at}, a Large base's block holding a square first named for a Medium figure, which is named on {other}, "
                  "a base no figure explained: every base the photo shows explained and every figure seen: confirm (reading R284)").format(
                    id=large_fig, at=corner, other=freed))
    over = sum(reading.values()) - roster_squares
    drop: list[str] = []
    if not not_seen and over > 0:

        def beside(sq: str) -> bool:
            c, r = _col_row(sq)
            return any(max(abs(c - tc), abs(r - tr)) <= 2 for tc, tr in map(_col_row, taken))

        drop = [sq for sq in left if beside(sq)][:over]
        for sq in drop:
            reading[sq] = False
        by_count |= set(drop)
        settled |= dict.fromkeys(drop, BODY_READ)
        left = [sq for sq in left if sq not in drop]
        if drop:
            notes.append(
                _(
                    "{names} look occupied beside a figure already found, while every base of the roster is accounted for: read as its body or shadow over "
                    "the square (or a figure the record lacks): confirm"
                ).format(names=_first_six(drop))
            )
    art = [sq for sq in left if sq in no_rim] if not not_seen else []
    if art:
        read_as_empty(art, COUNT_READ)
        left = [sq for sq in left if sq not in art]
        notes.append(
            _("{names} look occupied, but show no base's round rim and every figure of the roster is found elsewhere: read as printed art: confirm").format(
                names=_first_six(art))
        )
    if not not_seen and left:
        # every figure of the roster found elsewhere: a square no figure explains is no base (R175).
        # Kept occupied as a figure the record lacks, such squares proved wrong every time on the
        # independent renderer's diagnosis photos (MEASURED_RIGHT[UNEXPLAINED]): art, a body or a
        # shadow read as a base. Each is read as empty and listed (STRANGER_READ), so a figure the
        # record lacks (a creature summoned since) is still put to the judge; more than
        # MAX_STRANGERS of them is printed art read as bases, said so and settled (R60: dark discs
        # printed round, crack lines; the discs of colour R123 read as printed count among them:
        # diagnosis photo s0373)
        many = len(left) + len(printed) > MAX_STRANGERS
        read_as_empty(left, COUNT_SETTLED if many else STRANGER_READ)
        if many:
            notes.append(
                n_("{names} look occupied, though every figure of the roster is found elsewhere: {n} base more than the roster has is printed art "
                   "read as a base, not a figure the record lacks: read as empty: confirm",
                   "{names} look occupied, though every figure of the roster is found elsewhere: {n} bases more than the roster has is printed art "
                   "read as bases, not figures the record lacks: read as empty: confirm", len(left)).format(names=_first_six(left), n=len(left)))
        else:
            notes.append(
                _("{names} look occupied, though every figure of the roster is found elsewhere: such a square proved art, a body or a shadow, "
                  "not a figure the record lacks: read as empty: confirm (reading R175 in docs/readings.md)").format(names=_first_six(left)))
        left = []
    if left:
        notes.append(
            _("{names} look occupied but no figure of the record was matched there: confirm").format(
                names=_first_six(left)
            )
        )
    figures, unsure_names, swap_partners = _who_is_who(pos, figures, not_seen, left, lambda f, base: against_sticker(f, base) + unshown(f, base))
    for s in figures:
        marker = pos.figure(s.id).marker
        if s.by == "roster" and marker is not None and any(names.get(sq, patterns.get(sq)) == marker for sq in space(pos, s)):
            notes.append(
                _("{id} named at {at} by its base marker's sticker: its code is half hidden, but what shows of it fits marker {marker} "
                  "clearly better than any other marker the photo left unread (readings R115, R178)").format(id=s.id, at=s.at, marker=marker))
    # a figure named on its square by its own marker's sticker (its cells or its whole pattern:
    # R115, R178) is told apart there by the photo, not by the record: R189
    by_own_sticker = {s.id for s in figures if s.by == "roster" and (marker := pos.figure(s.id).marker) is not None
                      and any(names.get(sq, patterns.get(sq)) == marker for sq in space(pos, s))}
    figures, took = _swappable(pos, figures, not_seen, by_own_sticker)
    for stayed, movers in took:
        notes.append(
            _("{id} is read on its recorded square {at}, but {others} moved since the record and may have taken that square, {id} moving on "
              "(the photo cannot tell figures without a readable base marker apart): confirm who stands where").format(
                id=stayed, at=pos.figure(stayed).at.name, others=", ".join(movers[:4]) + (", ..." if len(movers) > 4 else ""))
        )
    figures, surer = _surer_beside(pos, figures, drop, p)
    for fid, at, other in surer:
        notes.append(
            _("{id} is read on its recorded square {at}, but {other}, within a move of it, looks more like a base and was read as a body or "
              "shadow: the record chose between them, not the photo: confirm where {id} stands").format(id=fid, at=at, other=other))
    if shaky_photo and any(s.by == "roster" for s in figures):
        # the roster names bases by the reading's sure squares; on a photo read this poorly a sure
        # square may be floor art, and a figure named onto its own recorded square there would
        # confirm the record by default
        figures = [Seen(s.id, s.at, min(s.confidence, COUNT_READ), s.by) if s.by == "roster" else s for s in figures]
        notes.append(
            _("the photo is doubtful on {n} of its {total} squares: no figure named without a base marker is read as sure (each is to confirm); "
              "photograph it again from higher, in even light, or use a reference photo of the empty map").format(n=shaky, total=len(standing))
        )
    if second_look and not shaky_photo and any(s.by == "roster" for s in figures):
        # the second look (.bases.second_reading) is the photo's own reading, but its calibration
        # rests on a handful of photos: a figure it names without a base marker is confirmed by a
        # person, never agreed by default
        figures = [Seen(s.id, s.at, min(s.confidence, COUNT_READ), s.by) if s.by == "roster" else s for s in figures]
    if unsure_names:
        notes.append(
            _("who is who is not sure for {ids}: figures without a base marker named by their nearest recorded squares, and another naming needs "
              "little more movement since the record (two that moved may as well have swapped): confirm them, or put base markers on them").format(
                ids=", ".join(unsure_names[:8]) + (", ..." if len(unsure_names) > 8 else ""))
        )
    # a Large figure the roster named on a block whose band shows no plastic round the body gives
    # way to a free block whose band shows the roster's grey round a good part of the circle,
    # read as a base on one square at least; who is who among the Large figures by the record
    # (reading R337)
    first_read = {s.id: s.at for s in figures}
    moved_to_ring = _onto_ringed_blocks(pos, figures, _band_shares(large_bands or {}, block_grey), p, nowhere, cols, rows)
    for corner_from, corner_to in moved_to_ring:
        held_now = {sq for s in figures for sq in block_squares(s.at, sizes.get(s.id, 1))}
        for sq in block_squares(corner_from, 2):
            if sq not in held_now:
                reading[sq] = False
                by_count.discard(sq)
                settled.pop(sq, None)
        for sq in block_squares(corner_to, 2):
            if not reading.get(sq, False):
                by_count.add(sq)
                settled[sq] = COUNT_READ
            reading[sq] = True
    for s in figures:
        if s.at == first_read[s.id]:
            continue
        if sizes.get(s.id, 1) == 2:
            notes.append(
                _("{id} read at {at}: a Large base's grey or black plastic shows round the body there, and the block a Large figure was "
                  "first read on shows none round its centre: confirm (reading R337)").format(id=s.id, at=s.at))
        else:
            notes.append(
                _("{id} read at {at}, in the block a Large figure was first read on; its first square {was} lies under a Large base's "
                  "grey band: confirm (reading R337)").format(id=s.id, at=s.at, was=first_read[s.id]))
    # the answer's doubts, ranked: each square's probability of being read right; a square no
    # figure explains is doubtful whatever the classifier says (a figure the record lacks?)
    right = {sq: (settled.get(sq, COUNT_READ) if sq in by_count else _calibrated(v if reading.get(sq, False) else 1 - v))
             for sq, v in p.items() if sq not in nowhere}
    for sq in left:
        right[sq] = min(right[sq], UNEXPLAINED)
    # a figure's recorded square it is not read on, where the classifier doubts the square is
    # empty: its doubt stands whole, not scaled down -- had the figure not moved, there is the error
    placed_at = {s.id: s.at for s in figures}
    for f in pos.figures:
        rec = f.at.name
        if placed_at.get(f.id) != rec and rec in right and rec not in by_count and not reading.get(rec, False):
            right[rec] = min(right[rec], 1 - p[rec])
    # a Medium or smaller figure the photo found nowhere: its recorded square, read as empty and
    # taken by no other figure, held its base (under its own body) as often as not (R235) -- listed
    # as the coin toss that proved, never said sure
    named_on_now = {sq for s in figures for sq in space(pos, s)}
    lost_at = {f.at.name for f in not_seen if f.size.footprint == 1 and f.at.name in right and not reading.get(f.at.name, False)
               and f.at.name not in named_on_now}
    for sq in lost_at:
        right[sq] = min(right[sq], NOT_FOUND_READ)
    for sq in marked & set(right):
        right[sq] = 1.0  # a base marker read there
    # a base marker read between spaces whose figure the squares settled off the space nearest it
    # names its figure, not surely its space (R141): the square it is named on keeps the marker's
    # doubt, said as it is and listed -- set to 1.0 as a surely read marker's, a Large figure moved
    # by the squares onto another's base was a confident wrong square (diagnosis photo s0515). One
    # left on its nearest space proved right (46 of 46 on the diagnosis photos) and is not listed
    between = {s.at: s.confidence for s in by_marker
               if s.id in settled_markers and s.confidence < BETWEEN and s.at not in marked_surely}
    for sq, v in between.items():
        if sq in right:
            right[sq] = min(right[sq], v)
    for _fid, _at, other in [*surer, *rim_rivals]:  # the square passed over (R64, R90): as doubtful as that naming
        right[other] = min(right[other], COUNT_READ)
    for s in figures:  # who stands there: a figure named by the nearest recorded square alone, another as likely
        if s.by == "roster":
            right[s.at] = min(right.get(s.at, 1.0), s.confidence)
    if rims is not None:
        # each figure named by the roster's count on a doubtful square: the square read as empty
        # that looks likeliest a base by its odds and its round rim shares that naming's doubt
        # (R98): where the naming is wrong, its base is most often there
        named_on = {sq for s in figures for sq in space(pos, s)}
        for s, rival in _rimmed_rivals(figures, p, rims, named_on | nowhere | {sq for sq, on in reading.items() if on}):
            right[rival] = min(right[rival], round(1.0 - RIVAL_SHARE * (1.0 - s.confidence), 6))
            rim_listed.append((s.id, rival))
    for s in by_marker:
        if s.at in nowhere:  # the rules model checks what vision returned
            notes.append(_("{id} seen on {at}, a square no figure can stand on: check the photo").format(id=s.id, at=s.at))
            right[s.at] = 0.0
    # a figure named by the roster's count on its own recorded square, doubtful, and the square the
    # record's choice passed over (R64, R90): left off the list, the record would be confirmed by
    # default (issue 28, item 1); they keep the doubt they are said, whatever that kind of naming
    # proved (R99), as the swap namings' promise has it (SWAP_READ)
    on_record = {s.at for s in figures if s.by == "roster" and s.confidence < SURE and s.at == pos.figure(s.id).at.name}

    def coin_toss(i: int, other: str, note: str) -> None:
        # the i-th figure's naming and the square ``other`` are a coin toss: both listed as said (R246, R363)
        s = figures[i]
        figures[i] = Seen(s.id, s.at, min(s.confidence, COUNT_READ), s.by)
        for sq in (s.at, other):
            right[sq] = min(right.get(sq, 1.0), COUNT_READ)
        on_record.update((s.at, other))
        notes.append(note)

    if rims is not None:
        # a figure the roster named on its own recorded square beside a found Large figure's block,
        # while the count read away a square whose round rim is clearer than that square's: a Large
        # body seen over the square beside its base reads as a base there (R191's bodies), and the
        # classifier's odds alone chose the record's square over the rimmed one (R246; diagnosis photo
        # s0591: f7 moved C7 -> F8, the Large f2's body over C7 read 0.995 with a rim of 0.21, f7's
        # base on F8 read 0.57 with a rim of 0.31 and read away: f7 said 0.99 sure at its old square,
        # unlisted). The naming and the clearest such square are listed as a coin toss; left off, the
        # record would have settled the doubt (issue 28, item 1)
        rimmed_away = sorted((sq for sq in by_count if not reading.get(sq) and p.get(sq, 0.0) >= RIVAL_LEAST and rims.get(sq, 0.0) >= RIVAL_RIM),
                             key=lambda sq: (-rims[sq], _key(sq)))
        beside_large = {nb for s in figures if sizes.get(s.id, 1) >= 2 for sq in space(pos, s) for nb in _neighbours(sq, cols, rows)}
        for i, s in enumerate(figures):
            if s.by != "roster" or sizes.get(s.id, 1) != 1 or s.at != pos.figure(s.id).at.name or s.at not in beside_large:
                continue
            clearer = [sq for sq in rimmed_away if rims[sq] > rims.get(s.at, 0.0)]
            if not clearer:
                continue
            rival = clearer.pop(0)
            rimmed_away.remove(rival)  # one square read away, the rival of one naming
            coin_toss(i, rival, _("{id} read at its recorded square {at}, beside a Large figure's base, but {other}, read as empty by the roster's "
                                  "count, shows a clearer base rim: the photo cannot tell which it stands on: confirm (reading R246)").format(
                id=s.id, at=s.at, other=rival))
    # a Medium or smaller figure named off its recorded square while that square reads as a base and
    # only the roster's count read it away: had the count kept that square, the figure would stand
    # still there and the square it is named on be a body or shadow -- the count chose, not the
    # photo, so the naming and its recorded square are a coin toss, both listed as said (reading R363;
    # diagnosis photo s0688: f8 stood still on E6, read 0.59 and read away, named on D4, f1's body
    # read 0.95, said sure and unlisted)
    for i, s in enumerate(figures):
        recorded = pos.figure(s.id).at.name
        if (s.by != "roster" or sizes.get(s.id, 1) != 1 or s.at == recorded or recorded not in by_count or reading.get(recorded, False)
                or p.get(recorded, 0.0) < OCCUPIED or recorded in nowhere):
            continue
        coin_toss(i, recorded, _("{id} read at {at}, but its recorded square {other} looks like a base too and was read as empty only by the "
                                 "roster's count: had it stood still, {at} is a body or shadow: confirm (reading R363)").format(
            id=s.id, at=s.at, other=recorded))
    # a figure whose name the photo cannot settle (who is who not sure, said in the note above):
    # its square keeps the doubt it is said too. Capped at the count's COUNT_READ, a naming said
    # 0.5-0.85 sure of who it is was ranked as the count's coin tosses proved (R99: 0.86), behind
    # squares said surer, and a name the note asks to confirm was left off the list (reading R120
    # in docs/readings.md)
    unsure_named = {s.at for s in figures if s.by == "roster" and s.id in unsure_names}
    # both sides of a coin toss the rim could not settle (R90): the square the record's nearest square
    # chose keeps its doubt as said, as the square passed over does (reading R316)
    # a naming on a square that shows no base's rim, no other way remaining (R339): listed as said
    named_rimless = {s.at for s in figures if s.by == "roster" and s.at in rimless}
    # a Large or bigger figure the photo found nowhere: the squares of its recorded block, taken by
    # no other figure, listed as one doubt (reading R362)
    # -- a square of it a figure is named on without its marker, doubtfully, stays in the block's
    # doubt: had the Large figure stood still, that naming is its base seen on one square (R398)
    lost_blocks = _lost_blocks(not_seen, right, {sq for s in figures if s.by == "marker" or s.confidence >= SURE for sq in space(pos, s)})
    for lost_block in lost_blocks.values():
        right.update(lost_block)
    lost_block_squares = {sq for lost_block in lost_blocks.values() for sq in lost_block}
    as_said = (on_record | unsure_named | named_rimless | {other for _fid, _at, other in [*surer, *rim_rivals]}
               | (record_chose & by_count) | set(between) | lost_at | {at for _fid, at, _other in rim_rivals} | lost_block_squares)
    # a Medium or smaller figure named off its recorded square, which the classifier doubts is empty:
    # had the figure stood still, both squares are wrong -- one doubt, ranked together (reading R364)
    for s in figures:
        recorded = pos.figure(s.id).at.name
        if (s.by != "roster" or sizes.get(s.id, 1) != 1 or s.at == recorded or recorded not in right or reading.get(recorded, False)
                or recorded in nowhere or not doubtful(recorded) or s.at not in right):
            continue
        shared = min(right[sq] if sq in as_said else _measured(right[sq]) for sq in (s.at, recorded))
        right[s.at] = right[recorded] = shared
        as_said |= {s.at, recorded}
    # a figure whose name the photo cannot settle and the figure it would most likely have swapped
    # with, both named off their recorded squares: had they swapped, both squares are misnamed --
    # one doubt, ranked together (reading R396). (One on its own recorded square is doubted by
    # _swappable, said as the swap namings proved.)
    named_at = {s.id: s.at for s in figures if s.by == "roster" and s.at != pos.figure(s.id).at.name}
    for fid, other in swap_partners.items():
        one, two = named_at.get(fid), named_at.get(other)
        if one is None or two is None or one not in right or two not in right:
            continue
        shared = min(right[sq] if sq in as_said else _measured(right[sq]) for sq in (one, two))
        right[one] = right[two] = shared
        as_said |= {one, two}
    ranked = _ranked(right, as_said)
    listed = tuple((sq, round(v, 3)) for sq, v in ranked[:MAX_LISTED])
    shown = {sq for sq, _v in listed}
    for s in figures:
        if s.by == "roster" and s.at in tied_beside and tied_beside[s.at] in shown and not reading.get(tied_beside[s.at], False):
            notes.append(
                _("{id} read at {at}, the nearer its recorded square, but {other} beside it reads as likely a base: one base read on both "
                  "squares, the photo cannot tell which it stands on: confirm (reading R397)").format(id=s.id, at=s.at, other=tied_beside[s.at]))
    for fid, rival in rim_listed:
        if rival in shown:
            notes.append(
                _("{id} was named by the roster's count on a doubtful square; {other}, read as empty, shows a base's round rim: "
                  "if {id} does not stand where named, look there").format(id=fid, other=rival))
    for f in not_seen:
        if f.at.name in lost_at and f.at.name in shown:
            notes.append(
                _("{id} not seen: its recorded square {at}, read as empty, is listed to confirm: a figure the photo finds nowhere may "
                  "still stand there, its base hidden under its own body (reading R235)").format(id=f.id, at=f.at.name))
    for fid, lost_block in lost_blocks.items():
        if set(lost_block) <= shown:
            notes.append(
                _("{id} not seen: the squares of its recorded block {at} are listed to confirm, as one doubt: a Large figure the photo "
                  "finds nowhere may still stand there, its base hidden under its own broad body (reading R362)").format(
                    id=fid, at=_first_six(lost_block)))
    more = sum(1 for sq, _v in ranked[MAX_LISTED:] if right[sq] < SURE)  # the doubtful ones beyond the list, as before R99
    if more:
        notes.append(
            n_("{n} more doubtful square beyond the {listed} listed: look over the board by eye, or photograph it again (from higher, in even light)",
               "{n} more doubtful squares beyond the {listed} listed: look over the board by eye, or photograph it again (from higher, in even light)",
               more).format(
                n=more, listed=MAX_LISTED)
        )
    occupied_now = tuple(sorted((sq for sq, on in reading.items() if on), key=_key))
    return Placement(tuple(figures), occupied_now, listed, tuple(f.id for f in not_seen), tuple(notes), more)


#: how often a figure named without a base marker stood where named, by the confidence its naming
#: was stated with (the least stated of each band, and the share right, counted once more right and
#: once wrong), on the even seeds of the diagnosis photos (342-526, both modes, round 18's base):
#: stated 0.8 or more, 69 of 69 right; 0.45-0.8, 242 of 282; 0.25-0.45, 21 of 39; below, 1 of 7
#: (reading R142 in docs/readings.md)
NAMING_RIGHT = ((0.8, 0.98), (0.45, 0.86), (0.25, 0.54), (0.0, 0.22))


def said_sure(stated: float) -> float:
    """How sure a figure named without a base marker is said to stand where named, given the
    confidence its naming was ``stated`` with (reading R142): the share of namings stated so that
    proved right (:data:`NAMING_RIGHT`) -- but never raised to ``compare.SURE`` (0.8) or above
    from below it, where a naming is agreed or applied without asking: the namings the placement
    asks to confirm (a swap, the count's coin toss) stay asked, however often they proved right.

    >>> said_sure(0.3), said_sure(0.5), said_sure(0.75), said_sure(0.95), said_sure(0.1)
    (0.54, 0.79, 0.79, 0.98, 0.22)
    """
    right = next(v for least, v in NAMING_RIGHT if stated >= least)
    return right if stated >= APPLIED_SURE else min(right, round(APPLIED_SURE - 0.01, 2))


#: how much likelier one naming of the bases is than another that costs ``d`` more (:func:`_distance`:
#: figures moved since the record, and how far): exp(-d / IDENTITY_SCALE). A figure that has not
#: moved is the likeliest; two unmarked figures that both moved may as well have swapped. Chosen on
#: generated photos apart from the bench's (seeds 3,000,000 up, the record out of date): named
#: figures at 0.8 or more stood where named 96 % of the time, at 0.5-0.8 80 %
IDENTITY_SCALE = 0.5


def _named_together(figs: Sequence[Figure], named: Sequence[tuple[Figure, str, float, str | None]],
                    against: Callable[[Figure, str], float]) -> list[tuple[Figure, str, float, str | None]]:
    """Who is who among the Medium bases the steps of :func:`place` named (``named``: each figure,
    its square, the square's confidence, the square the rim ties it with), as one assignment of all
    the Medium figures left to name (``figs``) to all those squares (reading R152): the fewest
    figures moved since the record, then the shortest moves (:func:`_distance`, plus ``against``,
    the stickers' cost). Each square keeps what the photo says of it (its confidence, its rim's
    tie); only the figure named on it may change. The steps' naming stands where the joint one
    costs no less (a tie is not reopened).

    >>> from assistant.editions import Size
    >>> a, b = Figure("a", "light", Square(0, 2), Size.MEDIUM), Figure("b", "dark", Square(5, 3), Size.MEDIUM)
    >>> # step one named a (recorded at A3) on the sure C1, the nearer of the two; step two b on the
    >>> # doubtful A3, where a stood still: one move of 1.7 squares explains the photo, not two
    >>> steps = [(a, "C1", 0.95, None), (b, "A3", 0.6, None)]
    >>> [(f.id, sq, c) for f, sq, c, _t in _named_together([a, b], steps, lambda f, sq: 0.0)]
    [('b', 'C1', 0.95), ('a', 'A3', 0.6)]
    """
    if len(named) < 2 and len(figs) <= len(named):
        return list(named)
    squares = [sq for _f, sq, _c, _t in named]

    def cost(f: Figure, sq: str) -> float:
        return _distance(f.at, parse_square(sq)) + against(f, sq)

    pairs = assign([[cost(f, sq) for sq in squares] for f in figs])
    joint = sum(cost(f, squares[j]) for f, j in zip(figs, pairs, strict=True) if j is not None)
    if joint >= sum(cost(f, sq) for f, sq, _c, _t in named) - 1e-9:
        return list(named)
    return [(f, squares[j], named[j][2], named[j][3]) for f, j in sorted(
        ((f, j) for f, j in zip(figs, pairs, strict=True) if j is not None), key=lambda fj: fj[1])]


def _large_on_a_medium_square(pos: Position, figures: list[Seen], not_seen: Sequence[Figure], left: Sequence[str], held: Collection[str],
                              blocked: Collection[str], large_rims: Mapping[str, float],
                              pinned: Collection[str] = ()) -> tuple[list[Seen], str, str, str] | None:
    """Where a Large figure is not seen (``not_seen``) while squares read as a base are left
    unexplained (``left``): the Medium figures the roster named (not by a marker, nor by a sticker
    naming them: ``pinned``) named again over their squares less one and one square of ``left``,
    the Large figure on the block holding that one square, clear of every other figure's square
    (``held``) and of ``blocked``, whose centre shows the clearest Large rim -- at least
    :data:`HALF_READ_RIM` and clearer than the map's own (:func:`_art_rim`), a base's edge half
    hidden by its body (R86, R255) -- and that does not cover the square left; of every such naming,
    the one with the shortest moves since the record (:func:`_distance`, who is who as the roster
    names it). Returns the figures so named (each doubtful, :data:`COUNT_READ`), the Large figure's
    id, its block's north-west square and the square of ``left`` now named; None where no such
    naming exists (reading R284 in docs/readings.md).

    The photo shows as many bases as the roster has figures, one of them read on a square only (the
    Large body over the rest of its block) and, by its own rim, taken for a Medium base; the Medium
    figure named there leaves a base of its own unexplained and the Large figure unseen (diagnosis
    photos without the reference: s0586, O1 read 0.98, its own rim 0.21, the Large block's 0.13,
    f5 named there while its own base D5 was left; s0568, R9 of the Large block Q9:R10).

    >>> from assistant.editions import Edition, Size
    >>> from assistant.model import Map
    >>> big, small = Figure("L", "dark", Square(6, 4), Size.LARGE), Figure("m", "light", Square(1, 1), Size.MEDIUM)
    >>> pos = Position(Edition.SWM2008, Map(8, 8), (big, small))
    >>> out = _large_on_a_medium_square(pos, [Seen("m", "F4", 0.8, "roster")], [big], ["B2"], {"F4"}, (), {"F4": 0.14, "E4": 0.05})
    >>> [(s.id, s.at, s.confidence) for s in out[0]], out[1:]
    ([('m', 'B2', 0.5), ('L', 'F4', 0.5)], ('L', 'F4', 'B2'))

    A Medium figure named by its marker stays; no square left, or no free block: nothing.

    >>> _large_on_a_medium_square(pos, [Seen("m", "F4", 1.0, "marker")], [big], ["B2"], {"F4"}, (), {"F4": 0.14}) is None
    True
    >>> _large_on_a_medium_square(pos, [Seen("m", "F4", 0.8, "roster")], [big], [], {"F4"}, (), {"F4": 0.14}) is None
    True
    """
    by_id = {f.id: f for f in pos.figures}
    large = [g for g in not_seen if g.size.footprint == 2]
    medium = [k for k, s in enumerate(figures) if s.by == "roster" and by_id[s.id].size.footprint == 1 and s.id not in pinned]
    if not large or not left or not medium:
        return None
    cols, rows = pos.map.cols, pos.map.rows
    art = _art_rim(large_rims)
    best: tuple[float, str, str, str, list[tuple[int, str]]] | None = None
    for k in medium:
        sq = figures[k].at
        c, r = _col_row(sq)
        free = [(large_rims[corner], corner) for dc in (0, 1) for dr in (0, 1)
                if 0 <= c - dc < cols - 1 and 0 <= r - dr < rows - 1
                and (corner := Square(c - dc, r - dr).name) in large_rims
                and not (set(block_squares(corner, 2)) - {sq}) & (set(held) | set(blocked))]
        if not free:
            continue
        rim, corner = max(free, key=lambda rc: (rc[0], [-x for x in _key(rc[1])]))
        if rim < HALF_READ_RIM or rim <= art:
            continue  # no Large base's edge round the block's centre, clearer than the map's own (R86, R255)
        for x in left:
            if x in block_squares(corner, 2):
                continue  # the base left is one the block would cover: one base, not two
            squares = [figures[j].at for j in medium if j != k] + [x]
            figs = [by_id[figures[j].id] for j in medium]
            pairs = assign([[_distance(f.at, parse_square(at)) for at in squares] for f in figs])
            if any(j is None for j in pairs):
                continue
            for g in large:
                cost = sum(_distance(f.at, parse_square(squares[j])) for f, j in zip(figs, pairs, strict=True) if j is not None)
                cost += _distance(g.at, parse_square(corner))
                if best is None or cost < best[0] - 1e-9:
                    best = (cost, g.id, corner, x, [(medium[i], squares[j]) for i, j in enumerate(pairs) if j is not None])
    if best is None:
        return None
    _cost, gid, corner, x, named = best
    out = list(figures)
    for k, at in named:
        s = out[k]
        if at != s.at:  # named again: who is who by the record alone
            out[k] = Seen(s.id, at, min(s.confidence, COUNT_READ), s.by)
    out.append(Seen(gid, corner, COUNT_READ, "roster"))
    return out, gid, corner, x


def _who_is_who(pos: Position, figures: list[Seen], not_seen: Sequence[Figure], left: Sequence[str],
                against_sticker: Callable[[Figure, Collection[str]], float] = lambda f, base: 0.0
                ) -> tuple[list[Seen], list[str], dict[str, str]]:
    """Each figure named by the record alone (no base marker) with its confidence times how sure
    the naming is: every other way to name the same bases -- two of them swapped, three of them
    round in a ring (each on the next one's base: reading R121 in docs/readings.md), another figure
    (one not seen) standing there instead, or this one on a base nobody took -- costs some squares
    of movement more than the chosen one; each such way takes its share (:data:`IDENTITY_SCALE`).
    A naming that puts a figure under a sticker that is not its marker's costs as much more as the
    placement counted it (``against_sticker``: R102, R115). Also the ids of the figures whose
    naming alone is less sure than :data:`SURE`, and for each of them the figure named by the roster
    it would most likely have swapped with (the swap of two that costs the least movement more:
    reading R396)."""
    by_id = {f.id: f for f in pos.figures}
    named = [(k, s) for k, s in enumerate(figures) if s.by == "roster"]
    out = list(figures)
    unsure: list[str] = []
    partners: dict[str, str] = {}

    costs: dict[tuple[str, str], float] = {}  # the rings weigh each figure on each base many times

    def cost(g: Figure, at: str) -> float:
        if (g.id, at) not in costs:
            costs[g.id, at] = _distance(g.at, parse_square(at)) + against_sticker(g, block_squares(at, g.size.footprint))
        return costs[g.id, at]

    for k, s in named:
        f = by_id[s.id]
        d = cost(f, s.at)
        extra = []
        alike = [(s2, by_id[s2.id]) for k2, s2 in named if k2 != k and by_id[s2.id].size.footprint == f.size.footprint]
        swaps: list[tuple[float, str]] = []  # each swap of two: its movement more, the other figure
        for s2, g in alike:
            extra.append(cost(f, s2.at) + cost(g, s.at) - d - cost(g, s2.at))
            swaps.append((extra[-1], s2.id))
            # three round in a ring (R121): f on g's base, g on h's, h on f's. The photo shows the
            # same bases; weighed against the swaps of two alone, three figures that all moved were
            # named surer than all the namings of their bases allow (s0469: 0.53-0.57 said, all three wrong)
            extra += [cost(f, s2.at) + cost(g, s3.at) + cost(h, s.at) - d - cost(g, s2.at) - cost(h, s3.at)
                      for s3, h in alike if h is not g]
        extra += [cost(g, s.at) - d for g in not_seen if g.size.footprint == f.size.footprint]
        if f.size.footprint == 1:
            extra += [cost(f, x) - d for x in left]
        sure = 1.0 / (1.0 + sum(math.exp(-max(0.0, e) / IDENTITY_SCALE) for e in extra))
        out[k] = Seen(s.id, s.at, round(s.confidence * sure, 3), s.by)
        if sure < SURE:
            unsure.append(s.id)
            if swaps:
                partners[s.id] = min(swaps)[1]
    return out, unsure, partners


#: how far a figure may have gone since the record, in squares (king's moves), when asking whether
#: an unmarked figure that moved may stand on another's recorded square: one usual move (Speed 6 in
#: both games). Beyond it the record's naming stands: reading R58 in docs/readings.md (a move of
#: 7-12 squares onto another's square is not considered; it would list nearly every unmarked
#: figure of a small map whenever one moves)
REACH = 6
#: how sure a naming is that a figure that moved may have swapped with (:func:`_swappable`): listed
#: (below :data:`SURE`) and not agreed or applied without asking (below ``compare.SURE``), yet ranked
#: after the squares whose occupancy is in doubt -- such a naming is right most of the time
#: (the record's naming has one figure fewer moved, and a move ending exactly on another's old
#: square is the rarer turn)
SWAP_READ = 0.75


def _surer_beside(pos: Position, figures: list[Seen], dropped: Sequence[str], p: Mapping[str, float]) -> tuple[list[Seen], list[tuple[str, str, str]]]:
    """The figures named by the roster on their own recorded squares while a square read at least
    as surely as a base, within :data:`REACH` of it, was read as a body or shadow (the roster's
    count exceeded): the assignment's cost, which counts figures moved since the record, chose
    the recorded square, so the record settled it -- each such naming at most :data:`COUNT_READ`
    (a coin toss between the two squares: listed with the square passed over, before the swaps
    of :func:`_swappable`; never agreed by default), with the square it passed over (reading R64)."""
    if not dropped:
        return figures, []
    out: list[Seen] = []
    found: list[tuple[str, str, str]] = []
    for s in figures:
        fig = pos.figure(s.id)
        rival = None
        if s.by == "roster" and fig.at is not None and fig.at.name == s.at:
            rivals = [sq for sq in dropped if p.get(sq, 0.0) >= p.get(s.at, 0.0) and _reach(parse_square(sq), fig.at) <= REACH]
            rival = min(rivals, key=lambda sq: (-p.get(sq, 0.0), _key(sq))) if rivals else None
        if rival is not None and s.confidence > COUNT_READ:
            out.append(Seen(s.id, s.at, COUNT_READ, s.by))
            found.append((s.id, s.at, rival))
        else:
            out.append(s)
    return out, found


def _swappable(pos: Position, figures: list[Seen], not_seen: Sequence[Figure],
               by_own_sticker: Collection[str] = ()) -> tuple[list[Seen], list[tuple[str, list[str]]]]:
    """The figures named by the roster on their own recorded squares that another unmarked figure
    of their size, one that moved since the record, may stand in for: the moved one (named on
    another square, or not seen) is within :data:`REACH` of that square, and the figure itself
    within reach of where the moved one is read. The photo shows the same bases either way (the
    record's naming has one figure moved, the other two; both are turns the rules allow), so the
    naming is the record's guess: each such figure, and each moved figure it may be swapped with,
    is read no surer than :data:`SWAP_READ` (listed, never agreed or applied without asking).
    Also, for each figure on its own square so doubted, the ids that may have taken its place.

    A figure named on its square by its own base marker's sticker (``by_own_sticker``: the cells or
    the whole pattern of the sticker seen there name its marker, R115, R178) neither is doubted nor
    doubts another: the photo shows its marker there, and a figure that took its place would show
    another marker's sticker or none (reading R189 in docs/readings.md: diagnosis photo s0539, the
    two such figures' squares tied with a moved figure's old square at ``SWAP_READ`` and ranked
    before it by name, that one left off the list of five).

    >>> from assistant.editions import Edition, Size
    >>> from assistant.model import Map
    >>> a, b = Figure("a", "light", Square(0, 0), Size.MEDIUM, marker=20), Figure("b", "dark", Square(3, 3), Size.MEDIUM)
    >>> pos = Position(Edition.SWM2008, Map(6, 6), (a, b))
    >>> seen = [Seen("a", "A1", 0.9, "roster"), Seen("b", "B2", 0.9, "roster")]
    >>> [s.confidence for s in _swappable(pos, seen, [])[0]], [s.confidence for s in _swappable(pos, seen, [], {"a"})[0]]
    ([0.75, 0.75], [0.9, 0.9])
    """
    by_id = {f.id: f for f in pos.figures}
    named = [s for s in figures if s.by == "roster" and s.id not in by_own_sticker]
    doubted: set[str] = set()
    took: list[tuple[str, list[str]]] = []
    for s in named:
        f = by_id[s.id]
        if s.at != f.at.name:
            continue
        here = f.at
        movers = [
            s2.id for s2 in named
            if s2.id != s.id and by_id[s2.id].size.footprint == f.size.footprint and s2.at != by_id[s2.id].at.name
            and _reach(by_id[s2.id].at, here) <= REACH and _reach(here, parse_square(s2.at)) <= REACH
        ] + [g.id for g in not_seen if g.size.footprint == f.size.footprint and _reach(g.at, here) <= REACH]
        if movers:
            doubted |= {s.id, *movers}
            took.append((s.id, movers))
    out = [Seen(s.id, s.at, min(s.confidence, SWAP_READ), s.by) if s.id in doubted and s.by == "roster" else s for s in figures]
    return out, took


def _reach(a: Square, b: Square) -> int:
    """Squares (king's moves) from ``a`` to ``b``."""
    return max(abs(a.col - b.col), abs(a.row - b.row))


#: :func:`.bases.rim_strength` (n = 1) by which the square a figure was named on must show a base's
#: round rim more clearly than a square beside it passed over (read as a base alike) for the photo
#: to agree with the naming; closer than this, or fainter, the record chose and the naming is a coin
#: toss (:data:`COUNT_READ`, both listed: reading R90). The rim does not settle it the other way
#: (see :func:`_where_by_rim`)
RIM_CLEAR = 0.05
#: :func:`.bases.rim_strength` (n = 1) below which a square shows no base's rim (``bases.RIM_MIN``)
RIM_SHOWN = 0.08
#: :func:`.bases.rim_strength` (n = 1) below which a square read as a base is named for a Medium or
#: Small figure only where no other way remains (reading R339): on the diagnosis photos 551-720
#: (274 scene-modes, both modes) the squares read as bases (0.5 or more) no marker explained showed
#: a rim under 0.06 on no Medium base (114 empty, 93 a Large base's corner), 0.06-0.08 on 3 Medium
#: bases of 279 squares: half :data:`RIM_SHOWN` keeps a margin below the faintest Medium base seen
NO_RIM = RIM_SHOWN / 2
#: squares (king's moves) within which a square read as a base and passed over competes with the
#: square a figure was named on (reading R90): a figure's body or shadow lies over the squares
#: beside its base, as the roster's count reads them (:func:`place`'s squares "beside a figure")
BESIDE = 2
#: :func:`.bases.rim_strength` (n = 1) from which a square read as empty shows a base's round rim
#: clearly enough to be the rival of a doubtful naming (reading R98): the Medium bases on the
#: diagnosis photos show 0.12-0.30; a square read empty with 0.15 or more held a base about one
#: time in twelve, fainter one in a hundred or fewer
RIVAL_RIM = 0.15
#: the classifier's odds below which a square read as empty is no rival whatever its rim: the
#: classifier is sure of it (reading R98)
RIVAL_LEAST = 0.05
#: how often, where a doubtful naming was wrong, the figure's base stood on the square listed as
#: its rival (reading R98; diagnosis photos 341-454, without and with the reference: 32 of 46):
#: the rival is said wrong that share of the naming's doubt
RIVAL_SHARE = 0.7
# the rival is listed, never named instead: against its doubtful naming it stood right 11 times in
# 416 on the diagnosis photos 341-610, the naming 325 (reading R247 in docs/readings.md)


def _where_by_rim(figs: Sequence[Figure], squares: Sequence[str], pairs: Sequence[int | None], cost: Sequence[Sequence[float]],
                  rims: Mapping[str, float]) -> dict[int, str]:
    """The figures (by index) whose square the record chose among squares the photo cannot tell
    apart, each with the square passed over (reading R90 in docs/readings.md).

    The naming's cost (``cost``, :func:`_distance`: figures moved since the record, then the
    shortest moves) names who is who; where more ``squares`` read as bases than figures are left
    (``figs``), it also chose which squares hold them -- those nearest the record -- and the rest
    were then read as bodies or shadows, unlisted: the record decided where a figure stands
    (independent photo s0426: a figure named on G11, a shadow's square two squares nearer its
    recorded E9 than its base at I11, both read 0.99-1.0 with the reference). A base is round
    plastic of known size, but its rim does not settle it: on the diagnosis photos, moving such a
    figure onto the square passed over whose rim (:func:`.bases.rim_strength`, n = 1) showed
    :data:`RIM_CLEAR` more clearly put it right 5 times in 13 (bodies and printed discs show
    rims too). So where a square passed over within :data:`BESIDE` of the one named (and within
    :data:`REACH` of the figure's recorded square) shows a base's rim not clearly fainter, the
    naming is a coin toss: listed, with that square. Where the named square's rim is the clearer
    by :data:`RIM_CLEAR`, the photo agrees with the naming.

    >>> from assistant.editions import Size
    >>> f = [Figure("a", "light", Square(4, 8), Size.MEDIUM)]
    >>> sqs = ["G11", "I11"]
    >>> cost = [[_distance(f[0].at, parse_square(sq)) for sq in sqs]]
    >>> pairs = assign(cost)
    >>> [sqs[j] for j in pairs if j is not None]
    ['G11']
    >>> _where_by_rim(f, sqs, pairs, cost, {"G11": 0.11, "I11": 0.19}), _where_by_rim(f, sqs, pairs, cost, {"G11": 0.25, "I11": 0.19})
    ({0: 'I11'}, {})
    """
    chosen = {j for j in pairs if j is not None}
    coin: dict[int, str] = {}
    for i, j in enumerate(pairs):
        if j is None:
            continue
        here = parse_square(squares[j])
        tied = [k for k in range(len(squares)) if k not in chosen and _reach(parse_square(squares[k]), here) <= BESIDE
                and _reach(figs[i].at, parse_square(squares[k])) <= REACH
                and rims.get(squares[k], 0.0) >= max(RIM_SHOWN, rims.get(squares[j], 0.0) - RIM_CLEAR + 1e-9)]
        if tied:
            coin[i] = squares[max(tied, key=lambda k: (rims.get(squares[k], 0.0), -cost[i][k]))]
    return coin


#: the classifier's odds within which a doubtful square passed over, beside the square a figure was
#: named on, reads as likely a base as that square (reading R397): one base read on two squares side
#: by side, the record's nearest square chose between them, not the photo
TIED_READ = 0.05


def _tied_beside(passed: str, named: str, p: Mapping[str, float]) -> bool:
    """Whether the square ``passed`` over lies beside the square ``named`` (a king's move) and reads
    as a base within :data:`TIED_READ` of it: a coin toss the record's nearest square settled
    (reading R397, as R104's squares passed over that read likelier).

    >>> _tied_beside("K5", "L5", {"K5": 0.555, "L5": 0.559}), _tied_beside("J5", "L5", {"J5": 0.555, "L5": 0.559})
    (True, False)
    >>> _tied_beside("K5", "L5", {"K5": 0.5, "L5": 0.559})
    False
    """
    return _reach(parse_square(passed), parse_square(named)) <= 1 and p[passed] >= p[named] - TIED_READ


def _neighbours(name: str, cols: int, rows: int) -> list[str]:
    """The squares round ``name`` (its eight neighbours) on a ``cols`` x ``rows`` map.

    >>> _neighbours("A1", 3, 3)
    ['A2', 'B1', 'B2']
    """
    c, r = _col_row(name)
    return [Square(c + dc, r + dr).name for dc in (-1, 0, 1) for dr in (-1, 0, 1)
            if (dc or dr) and 0 <= c + dc < cols and 0 <= r + dr < rows]


def _rimmed_rivals(figures: Sequence[Seen], p: Mapping[str, float], rims: Mapping[str, float],
                   excluded: Collection[str]) -> list[tuple[Seen, str]]:
    """Each figure named by the roster's count on a doubtful square (below :data:`SURE`), least sure
    first, with the square read as empty likeliest to be where it stands instead (reading R98 in
    docs/readings.md): a square not ``excluded`` (named, read as occupied, no-standing) whose round
    rim (:func:`.bases.rim_strength`, n = 1) shows a base's (at least :data:`RIVAL_RIM`) and whose
    odds are not negligible (at least :data:`RIVAL_LEAST`), the likeliest first by odds times rim
    (as the marker search ranks its windows, reading R93); each square the rival of one figure.

    The naming chose among the squares read as bases; a base the classifier read as empty -- its
    top under a body or a shadow, its colour the art's -- is never among them, and its square was
    said sure (its doubt scaled down by :data:`CLASSIFIER_DOUBT`), so a wrong naming left the
    true square unlisted (independent photo s0446: f1 named on J1, a rimless art square read 0.56,
    its base at H5 read 0.29 with a clear rim, 0.22, and unlisted).

    >>> a = Seen("a", "J1", 0.53, "roster")
    >>> p = {"J1": 0.56, "H5": 0.29, "C3": 0.02, "D4": 0.3}
    >>> _rimmed_rivals([a], p, {"J1": 0.05, "H5": 0.22, "C3": 0.3, "D4": 0.09}, {"J1"})
    [(Seen(id='a', at='J1', confidence=0.53, by='roster'), 'H5')]
    >>> _rimmed_rivals([Seen("a", "J1", 0.9, "roster")], p, {"H5": 0.22}, {"J1"})
    []
    """
    weak = sorted((s for s in figures if s.by == "roster" and s.confidence < SURE), key=lambda s: (s.confidence, s.id))
    if not weak:
        return []
    rivals = sorted((sq for sq, v in p.items() if sq not in excluded and v >= RIVAL_LEAST and rims.get(sq, 0.0) >= RIVAL_RIM),
                    key=lambda sq: (-p[sq] * rims[sq], _key(sq)))
    return list(zip(weak, rivals, strict=False))  # fewer rivals than namings: the rest have none


#: how tall a figure's body stands, in squares, by its base's footprint (a Medium figure's on a
#: one-inch base about 40 mm, a Large one's about 65 mm, the head's top): how far over the map its
#: body is seen from its base (:func:`_under_body`, reading R139)
BODY_HEIGHT = {1: 1.6, 2: 2.6}


def _under_body(sq: str, found: Sequence[tuple[str, str, int]], away: Mapping[str, tuple[float, float]] | None,
                lean: Mapping[str, float] | None, width: float = 0.5) -> str | None:
    """The first of the ``found`` figures (id, its base's north-west square, footprint) whose body
    is seen over ``sq`` beyond its own base: ``sq``'s centre lies within ``width`` squares (half a
    square: the body's own line, R139; :data:`BODY_ACROSS`: any square the body overlaps, R191) of the line
    from the base's centre away from the camera (``away`` at the base's square) out to where the
    top of a body :data:`BODY_HEIGHT` tall is seen (``lean`` there times the height), past the
    base's own rim. None where no body reaches it, or without the camera's directions.

    >>> away = {"C3": (0.0, -1.0)}; lean = {"C3": 0.5}  # the camera to the south, twice as far off as it is high
    >>> _under_body("C2", [("f1", "C3", 1)], away, lean), _under_body("C1", [("f1", "C3", 1)], away, lean)
    ('f1', None)
    >>> _under_body("C2", [("f1", "C3", 1)], away, {"C3": 0.2}), _under_body("D2", [("f1", "C3", 1)], away, lean)
    (None, None)
    """
    if not away or not lean:
        return None
    x, y = _col_row(sq)
    for fid, at, n in found:
        c, r = _col_row(at)
        d = away.get(at)
        if d is None or d == (0.0, 0.0) or x in range(c, c + n) and y in range(r, r + n):
            continue
        vx, vy = x + 0.5 - (c + n / 2), y + 0.5 - (r + n / 2)
        along, across = vx * d[0] + vy * d[1], abs(vx * d[1] - vy * d[0])
        top = lean.get(at, 0.0) * BODY_HEIGHT.get(n, BODY_HEIGHT[2])
        if across < width and n / 2 < along <= top + 0.5 and top > n / 2:
            return fid
    return None


#: how far (squares) off the line a found figure's body is seen along a square's centre may lie for
#: the body to be seen over that square in the naming's order (reading R191): the body's half width
#: and the square's. Measured on the 222 diagnosis photos (341-562, both modes): one square, 29
#: squares right that were wrong and 9 wrong that were right; half a square (R139's head), on the
#: scene-modes with a wrong square, 13 right and none wrong
BODY_ACROSS = 1.0


#: what a square read as occupied with another read as occupied next to it toward the camera
#: (:func:`_body_like`) counts against it as a base: half a figure moved since the record in the
#: naming's cost, half a square read as a base in a block's
BODY_WEIGHT = 0.5


def _toward_camera(sq: str, away: Mapping[str, tuple[float, float]] | None, cols: int, rows: int) -> str | None:
    """The square one square from ``sq``'s centre toward the camera (against ``away``); None off
    the map, with no direction, or where the step stays on ``sq``.

    >>> _toward_camera("C3", {"C3": (-0.66, 0.75)}, 6, 6), _toward_camera("C3", {"C3": (0.0, 1.0)}, 6, 6), _toward_camera("A1", {"A1": (0.0, 1.0)}, 6, 6)
    ('D2', 'C2', None)
    """
    d = (away or {}).get(sq)
    if d is None or d == (0.0, 0.0):
        return None
    c, r = _col_row(sq)
    x, y = math.floor(c + 0.5 - d[0]), math.floor(r + 0.5 - d[1])
    if not (0 <= x < cols and 0 <= y < rows) or (x, y) == (c, r):
        return None
    return Square(x, y).name


def _body_like(sq: str, reading: Mapping[str, bool], away: Mapping[str, tuple[float, float]] | None, cols: int, rows: int,
               within: Collection[str] = ()) -> bool:
    """Whether ``sq`` reads like a figure's body rather than its base: the square next to it toward
    the camera (:func:`_toward_camera`), outside ``within`` (the block ``sq`` is judged in, and the
    figures' bases already found), is read as occupied. A body stands above its base and is seen leaning away from the camera over the
    squares behind; a base lies on the map, at the near end of what reads as occupied."""
    n = _toward_camera(sq, away, cols, rows)
    return n is not None and n not in within and reading.get(n, False)


#: :func:`.bases.rim_strength` (n = 2) round a 2 x 2 block's centre from which a block read as a base
#: on at least half its squares is taken for a Large figure no other block explains (reading R86).
#: Measured on the independent renderer's diagnosis photo s0424: a Large base under a broad body,
#: half its disc on tinted terrain, read 0.09 (its block's squares 1.0, 0.71, 0.47, 0.14); see
#: :data:`LARGE_RIM` for the rest, where a bare block's centre reads up to 0.12 on plain floors
HALF_READ_RIM = 0.08
#: :func:`.bases.rim_strength` (n = 2) round a 2 x 2 block's centre from which a Large figure still
#: short is read on the block with no square read as a base (reading R111). Measured on the 150
#: diagnosis photos without the reference: the Large bases so found 0.19-0.30; 0.14-0.18 give the
#: same answers, 0.12 three squares more wrong (art's rims), 0.20 eight (s0459's base at 0.19)
CLEAR_LARGE_RIM = 0.18
#: the probability of a base a square of such a block must read at least: the body hides the base,
#: but the classifier glimpses some of it (on the diagnosis photos the Large bases so found read
#: 0.20-0.49 on their likeliest square); printed circles on bare floor read surely empty
GLIMPSED_BASE = 0.15
#: how many times the map's own block rims (:func:`_art_rim`) such a rim must be: art that draws
#: rims everywhere (a star field's bright stars on black) draws clear ones too
ART_RIM_TIMES = 2.0
#: the share of the map's block centres whose rim :func:`_art_rim` reads as the art's: a few
#: blocks are bases' (and the blocks one over, across their discs), most are bare art
ART_RIM_SHARE = 0.9


def _art_rim(large_rims: Mapping[str, float]) -> float:
    """The Large rim the map's art shows by itself: the rim :data:`ART_RIM_SHARE` of the block
    centres show at most.

    >>> _art_rim({f"A{i}": i / 100 for i in range(1, 11)})
    0.09
    """
    rims = sorted(large_rims.values())
    return rims[max(0, min(len(rims) - 1, int(ART_RIM_SHARE * len(rims)) - 1))] if rims else 0.0


def _blocks_and_rims(large_rims: Mapping[str, float], cols: int, rows: int) -> Iterator[tuple[str, tuple[str, ...], float]]:
    """Every 2 x 2 block of the map: its first square, its squares, and the Large base's rim read
    round its centre (0 where none was read)."""
    for c in range(cols - 1):
        for r in range(rows - 1):
            corner = Square(c, r).name
            yield corner, tuple(block_squares(corner, 2)), large_rims.get(corner, 0.0)


def _rimmed_blocks(reading: Mapping[str, bool], p: Mapping[str, float], blocked: Collection[str], large_rims: Mapping[str, float],
                   away: Mapping[str, tuple[float, float]] | None, cols: int, rows: int, least_rim: float,
                   least_read: int) -> list[tuple[float, str, tuple[str, ...]]]:
    """The 2 x 2 blocks clear of ``blocked``, read as occupied on at least ``least_read`` squares,
    whose centre shows a Large base's rim of ``least_rim`` or more, scored by their squares' P(a
    base) and the rim, less a body leaning over them: :func:`place`'s blocks the rim gives
    (:data:`LARGE_RIM`, one square read) and, a Large figure still short, half-read ones
    (:data:`HALF_READ_RIM`, two squares read; reading R86 in docs/readings.md).

    A Large figure's broad body hides half its base and may read as surely empty on the squares it
    covers (the classifier sees a body, not a base), so no block of squares read as occupied or
    doubtful explains the figure, and its rim, half hidden, is fainter than :data:`LARGE_RIM`. The
    roster says a Large figure is there; half a block read as a base with a rim round the block's
    centre is where the photo shows one. Said doubtful and listed like any block the rim gave."""
    out = []
    for corner, block, rim in _blocks_and_rims(large_rims, cols, rows):
        if rim >= least_rim and not set(block) & set(blocked) and sum(reading.get(b, False) for b in block) >= least_read:
            lean = sum(_body_like(b, reading, away, cols, rows, set(block)) for b in block)
            out.append((sum(p.get(b, 0.0) for b in block) + rim - BODY_WEIGHT * lean, corner, block))
    return out


def _a_medium_base_in(block: Sequence[str], reading: Mapping[str, bool], rims: Mapping[str, float], large_rim: float, read_on: int) -> bool:
    """Whether the 2 x 2 ``block``, read as a base on exactly ``read_on`` squares, is no Large base:
    one of those squares shows a Medium or Small base's own round rim (:func:`.bases.rim_strength`,
    n = 1) at least as clearly as the Large base's rim round the block's centre (``large_rim``), so
    that square is a smaller base (beside whatever read the other) -- reading R91 in
    docs/readings.md for a block read on one square, R94 for one read on two.

    A Medium base on a square at a block's corner puts part of its edge on the circle a Large base's
    rim is looked for on, so the block reads a Large rim; a Large base's own quarter square shows no
    Medium rim of its own, its edge passing the square's corner, not round its centre (independent
    photo s0442, a star field read by its second look: a Medium base at B1, its own rim 0.31, gave
    the block A1:B2 a Large rim of 0.25; the Large figure was named there and the Medium one, then
    another, pushed off their squares, 6 squares wrong; s0439: a Medium base at B6, its rim 0.21,
    in the block A5:B6 read on two squares, Large rim 0.12).

    >>> _a_medium_base_in(("A1", "B1", "A2", "B2"), {"B1": True}, {"B1": 0.31}, 0.25, 1)
    True
    >>> block = ("A1", "B1", "A2", "B2")
    >>> _a_medium_base_in(block, {"B1": True}, {"B1": 0.1}, 0.25, 1), _a_medium_base_in(block, {"A1": True, "B1": True}, {"A1": 0.3, "B1": 0.3}, 0.2, 1)
    (False, False)
    >>> block = ("A5", "B5", "A6", "B6")
    >>> _a_medium_base_in(block, {"B5": True, "B6": True}, {"B5": 0.07, "B6": 0.21}, 0.12, 2)
    True
    >>> _a_medium_base_in(("A4", "B4", "A5", "B5"), {"A4": True, "B5": True}, {"A4": 0.07, "B5": 0.07}, 0.15, 2)
    False
    """
    read = [b for b in block if reading.get(b, False)]
    return len(read) == read_on and any(rims.get(b, 0.0) >= large_rim for b in read)


def _smaller_base_in(block: Sequence[str], reading: Mapping[str, bool], rims: Mapping[str, float], large_rim: float) -> bool:
    """Whether the 2 x 2 ``block`` holds smaller bases by their own round rims, no Large base: read
    as a base on one square that shows a Medium or Small base's own rim (n = 1) at least as clearly
    as the block's centre shows a Large one's (:func:`_a_medium_base_in`, R91), or on two squares
    that both show one as clear and clear enough to be a base's (:data:`RIVAL_RIM`, R98; reading
    R236 in docs/readings.md): the rim steps of :func:`place` take no such block.

    A Large base's own quarter squares show no Medium rim of their own round their centres (R91);
    one such rim among two read squares may be a Large base's near square (its edge crossing the
    square) -- diagnosis photos s0426, s0484 and s0582 without the reference: Large bases read on two
    squares, one showing a rim 0.13-0.51 as clear as the block's, the other 0.05-0.23 -- both are
    two round things, a Medium base and another or its body (s0474: D3:E4, read on D4 and E4, their
    own rims 0.26 and 0.20 against the block's 0.15, taken for a Large figure whose base two columns
    over no square read); rims too faint for a base's tell nothing (s0482: a Large base's D12 and
    E13 0.11 and 0.10 against its centre's 0.10).

    >>> block = ("D3", "D4", "E3", "E4")
    >>> _smaller_base_in(block, {"D4": True, "E4": True}, {"D4": 0.26, "E4": 0.20}, 0.15)
    True
    >>> _smaller_base_in(block, {"D4": True, "E4": True}, {"D4": 0.26, "E4": 0.05}, 0.15)
    False
    >>> _smaller_base_in(block, {"D4": True}, {"D4": 0.26}, 0.15), _smaller_base_in(block, {"D3": True, "D4": True, "E4": True}, {"D4": 0.26, "E4": 0.20}, 0.15)
    (True, False)
    """
    read = [b for b in block if reading.get(b, False)]
    return _a_medium_base_in(block, reading, rims, large_rim, 1) or len(read) == 2 and all(rims.get(b, 0.0) >= max(large_rim, RIVAL_RIM) for b in read)


def _by_rim_among_shifted(chosen: list[tuple[str, tuple[str, ...]]], full: Sequence[tuple[str, set[str]]], used: set[str],
                          large_rims: Mapping[str, float], partly: Sequence[tuple[str, set[str]]] = ()) -> list[tuple[str, tuple[str, ...]]]:
    """The Large blocks taken, each moved onto the block shifted over it whose centre shows a Large
    base's round rim where its own shows none (reading R85 in docs/readings.md; onto a block read
    on half its squares, ``partly``, only where its rim is :data:`PARTLY_READ_LEAD` times the one
    it leaves, R101); ``used`` is kept to the blocks taken.

    Where two overlapping 2 x 2 blocks read as occupied on every square, the squares' readings
    cannot tell the Large base from a body leaning over the squares beyond it, or from a smaller
    base beside it -- with the empty-map reference the more so, as the comparison reads a body or
    its shadow as changed like a base (independent photo s0426: a Large base at H9 read at I10, its
    body over J10 and J11 read as a base on the reference, 0.16 and 0.07 by the classifier). A Large
    base is a round disc two squares wide round its block's centre: its rim shows there
    (:data:`LARGE_RIM`), not round the centre of a block one square over, which cuts through it.
    Only a clear rim against none moves a block; the squares stay doubtful (:func:`place`'s note).

    >>> used = {"A1", "B1", "A2", "B2"}
    >>> _by_rim_among_shifted([("A1", ("A1", "B1", "A2", "B2"))], [("A1", set(used)), ("B1", {"B1", "C1", "B2", "C2"})], used,
    ...                       {"A1": 0.05, "B1": 0.2})
    [('B1', ('B1', 'B2', 'C1', 'C2'))]
    >>> sorted(used)
    ['B1', 'B2', 'C1', 'C2']

    A block read on half its squares takes it only by a rim twice the one it leaves (R101):

    >>> partly = [("B1", {"B1", "C1", "B2", "C2"})]
    >>> _by_rim_among_shifted([("A1", ("A1", "B1", "A2", "B2"))], [], {"A1", "B1", "A2", "B2"}, {"A1": 0.10, "B1": 0.15}, partly)
    [('A1', ('A1', 'B1', 'A2', 'B2'))]
    >>> _by_rim_among_shifted([("A1", ("A1", "B1", "A2", "B2"))], [], {"A1", "B1", "A2", "B2"}, {"A1": 0.05, "B1": 0.39}, partly)
    [('B1', ('B1', 'B2', 'C1', 'C2'))]
    """
    out = []
    for corner, block in chosen:
        others = used - set(block)
        own = large_rims.get(corner, 0.0)
        alternatives = [(large_rims.get(c, 0.0), c, alt) for c, alt in full
                        if c != corner and alt & set(block) and not alt & others]
        alternatives += [(large_rims.get(c, 0.0), c, alt) for c, alt in partly
                         if c != corner and alt & set(block) and not alt & others and large_rims.get(c, 0.0) >= PARTLY_READ_LEAD * own]
        if alternatives and own < LARGE_RIM:
            rim, alt_corner, alt_block = max(alternatives, key=lambda a: (a[0], -_key(a[1])[0], -_key(a[1])[1]))
            if rim >= LARGE_RIM:
                used -= set(block)
                used |= alt_block
                out.append((alt_corner, tuple(block_squares(alt_corner, 2))))
                continue
        out.append((corner, block))
    return out


#: squares (king's moves) within which :func:`_toward_camera_by_rim` looks, toward the camera, for
#: the base of a Large figure whose body a half-read block is (reading R194): a Large figure's body
#: (``BODY_HEIGHT`` 2.6 squares tall) leans one to two squares over the map beyond its base on the
#: diagnosis photos (s0527: the block two squares over and one down)
BODY_REACH = 2


def _toward_camera_by_rim(chosen: list[tuple[str, tuple[str, ...]]], reading: Mapping[str, bool], used: set[str], blocked: Collection[str],
                          large_rims: Mapping[str, float], away: Mapping[str, tuple[float, float]] | None) -> list[tuple[str, tuple[str, ...]]]:
    """The Large blocks taken, each read as a base on half its squares or fewer moved onto the block
    toward the camera, within :data:`BODY_REACH` squares, whose centre shows a Large base's rim
    clearly (:data:`CLEAR_LARGE_RIM`) and :data:`PARTLY_READ_LEAD` times the block's own, where no
    other base and nothing in ``blocked`` lies (reading R194 in docs/readings.md); ``used`` is kept
    to the blocks taken.

    A Large figure is tall and broad: seen from the side, its body leans away from the camera over
    the squares behind its base, and those squares can read as a base on half a block, while the
    base's own squares, under the body, read as empty. The base's round rim on the camera's side is
    what the body leaves uncovered: a clear rim there, twice the half-read block's, is the base
    (diagnosis photo s0527: a Large base at J2, its squares 0.22, 0.08, 0.20, 0.39 and rim 0.28; its
    body read H2 and I2 0.90, 0.91, the block H1's rim 0.13, the figure named at H1). A block read
    on three or four squares stays: on the diagnosis photos such blocks with a rim twice theirs toward
    the camera were the bases (s0362, s0475).

    >>> used = {"C3", "D3", "C4", "D4"}
    >>> reading = {"C4": True, "D4": True}
    >>> _toward_camera_by_rim([("C3", ("C3", "D3", "C4", "D4"))], reading, used, (), {"C3": 0.10, "D4": 0.25, "B2": 0.4}, {"C3": (-0.7, -0.7)})
    [('D4', ('D4', 'D5', 'E4', 'E5'))]
    >>> sorted(used)
    ['D4', 'D5', 'E4', 'E5']

    Not onto a block away from the camera, nor by a rim less than twice the block's own:

    >>> _toward_camera_by_rim([("C3", ("C3", "D3", "C4", "D4"))], reading, {"C3", "D3", "C4", "D4"}, (), {"C3": 0.10, "D4": 0.19}, {"C3": (-0.7, -0.7)})
    [('C3', ('C3', 'D3', 'C4', 'D4'))]
    """
    out = []
    for corner, block in chosen:
        own = large_rims.get(corner, 0.0)
        d = (away or {}).get(corner)
        if d is None or d == (0.0, 0.0) or 2 * sum(reading.get(b, False) for b in block) > len(block):
            out.append((corner, block))
            continue
        others = (used - set(block)) | set(blocked)
        c0, r0 = _col_row(corner)
        best: tuple[float, str] | None = None
        for dc in range(-BODY_REACH, BODY_REACH + 1):
            for dr in range(-BODY_REACH, BODY_REACH + 1):
                if dc * d[0] + dr * d[1] >= 0 or c0 + dc < 0 or r0 + dr < 0:
                    continue  # not toward the camera
                alt = Square(c0 + dc, r0 + dr).name
                rim = large_rims.get(alt)  # None: the block runs off the map
                if rim is None or rim < max(CLEAR_LARGE_RIM, PARTLY_READ_LEAD * own) or set(block_squares(alt, 2)) & others:
                    continue
                if best is None or (rim, -_key(alt)[0], -_key(alt)[1]) > (best[0], -_key(best[1])[0], -_key(best[1])[1]):
                    best = (rim, alt)
        if best is None:
            out.append((corner, block))
            continue
        used -= set(block)
        alt_block = tuple(block_squares(best[1], 2))
        used |= set(alt_block)
        out.append((best[1], alt_block))
    return out




def _grey_cores(block: Sequence[str], plastic: Mapping[str, float] | None, grey: float | None) -> int:
    """How many of ``block``'s squares' base cores are as grey as the photo's plastic
    (:func:`.bases.plastic_colourfulness` within :data:`GREY_WITHIN` of ``grey``, R210); none where
    the plastic is not measured.

    >>> _grey_cores(("A1", "B1", "A2", "B2"), {"A1": 0.13, "B1": 0.14, "A2": 0.30, "B2": 0.12}, 0.10)
    3
    >>> _grey_cores(("A1", "B1"), None, 0.10), _grey_cores(("A1", "B1"), {"A1": 0.1}, None)
    (0, 0)
    """
    if plastic is None or grey is None:
        return 0
    return sum(plastic.get(b, 1.0) <= grey + GREY_WITHIN for b in block)


def _onto_grey_block(chosen: list[tuple[str, tuple[str, ...]]], reading: Mapping[str, bool], used: set[str], blocked: Collection[str],
                     plastic: Mapping[str, float], grey: float | None, n: int) -> list[tuple[str, tuple[str, ...]]]:
    """The Large (or bigger) blocks taken, each whose squares' cores show the photo's plastic grey on
    at most one square moved onto the block shifted one square over it (overlapping it) read as a
    base on half its squares or more, clear of the other bases and of ``blocked``, whose cores show
    it on :data:`GREY_OF_BLOCK` or more (:func:`_grey_cores`); the most grey cores, then the most
    squares read; ``used`` is kept to the blocks taken (reading R238 in docs/readings.md). Called
    only where the plastic's grey is decisive on the map (R210).

    A Large base covers every square of its block past the square's core (R144), so its grey or
    black plastic shows on the cores of most of them whatever the classifier reads there; the squares
    one over, read as a base by the broad body leaning over them, show the map's colour at their
    cores (diagnosis photo s0562 without the reference: the base at I8:J9, cores 0.13, 0.08, 0.13,
    0.13 against the plastic's 0.14, I8 read 0.02 under the body; J7:K8, read on three squares, cores
    0.21, 0.23, 0.08, 0.32, taken).

    >>> plastic = {"A1": 0.3, "B1": 0.3, "A2": 0.3, "B2": 0.1, "A3": 0.1, "B3": 0.1}
    >>> reading = {"A1": True, "B1": True, "A2": True, "B2": True, "B3": True}
    >>> used = {"A1", "B1", "A2", "B2"}
    >>> _onto_grey_block([("A1", ("A1", "A2", "B1", "B2"))], reading, used, (), plastic, 0.1, 2)
    [('A2', ('A2', 'A3', 'B2', 'B3'))]
    >>> sorted(used)
    ['A2', 'A3', 'B2', 'B3']

    A block with two grey cores stays, as does one whose shifted block holds another base:

    >>> plastic["A1"] = 0.1
    >>> _onto_grey_block([("A1", ("A1", "A2", "B1", "B2"))], reading, {"A1", "B1", "A2", "B2"}, (), plastic, 0.1, 2)
    [('A1', ('A1', 'A2', 'B1', 'B2'))]
    >>> plastic["A1"] = 0.3
    >>> _onto_grey_block([("A1", ("A1", "A2", "B1", "B2"))], reading, {"A1", "B1", "A2", "B2"}, {"A3"}, plastic, 0.1, 2)
    [('A1', ('A1', 'A2', 'B1', 'B2'))]
    """
    def score(alt: str, alt_block: tuple[str, ...]) -> tuple[float, ...] | None:
        if any(b not in plastic for b in alt_block):
            return None  # off the map
        grey_at, read = _grey_cores(alt_block, plastic, grey), sum(reading.get(b, False) for b in alt_block)
        return (grey_at, read) if grey_at >= GREY_OF_BLOCK * n * n // 4 and 2 * read >= n * n else None

    return _moved_blocks(chosen, used, blocked, n, 1, lambda block: _grey_cores(block, plastic, grey) > 1, score)


def _moved_blocks(chosen: list[tuple[str, tuple[str, ...]]], used: set[str], blocked: Collection[str], n: int, reach: int,
                  stays: Callable[[tuple[str, ...]], bool],
                  score: Callable[[str, tuple[str, ...]], tuple[float, ...] | None]) -> list[tuple[str, tuple[str, ...]]]:
    """The n x n blocks taken, each that ``stays`` does not keep moved onto the block within ``reach``
    squares of it (king's moves), clear of the other blocks taken and of ``blocked``, that ``score``
    ranks highest (None: no such block), ties to the first in board order; ``used`` is kept to the
    blocks taken (readings R238, R256)."""
    out = []
    for corner, block in chosen:
        if stays(block):
            out.append((corner, block))
            continue
        others = (used - set(block)) | set(blocked)
        c0, r0 = _col_row(corner)
        best: tuple[tuple[float, ...], str] | None = None
        for dc in range(-reach, reach + 1):
            for dr in range(-reach, reach + 1):
                if (dc, dr) == (0, 0) or c0 + dc < 0 or r0 + dr < 0:
                    continue
                alt = Square(c0 + dc, r0 + dr).name
                alt_block = tuple(block_squares(alt, n))
                if set(alt_block) & others:
                    continue
                ranked = score(alt, alt_block)
                if ranked is not None:
                    ranked += (-_key(alt)[0], -_key(alt)[1])
                    if best is None or ranked > best[0]:
                        best = (ranked, alt)
        if best is None:
            out.append((corner, block))
            continue
        used -= set(block)
        alt_block = tuple(block_squares(best[1], n))
        used |= set(alt_block)
        out.append((best[1], alt_block))
    return out


#: the grey cores (:func:`_grey_cores`) a block within a Large body's reach must show to take a
#: Large base off a block whose cores show none (reading R256): half its squares -- the body over
#: the far half hides the rest (diagnosis photo s0581: H5 and H6 grey, I5 and I6 under the body)
GREY_NEAR = 2


def _near_grey_rimmed(chosen: list[tuple[str, tuple[str, ...]]], used: set[str], blocked: Collection[str], plastic: Mapping[str, float],
                      grey: float | None, large_rims: Mapping[str, float]) -> list[tuple[str, tuple[str, ...]]]:
    """The Large blocks taken, each none of whose squares' cores shows the photo's plastic grey
    (:func:`_grey_cores`) moved onto the block within :data:`BODY_REACH` squares of it, clear of the
    other bases and of ``blocked``, whose centre shows a Large base's rim (:data:`LARGE_RIM`) and
    whose cores show the grey on :data:`GREY_NEAR` squares or more; the most grey cores, then the
    clearest rim; ``used`` is kept to the blocks taken (reading R256 in docs/readings.md). Called
    only where the plastic's grey is decisive on the map (R210).

    A Large base covers every square of its block past the core (R144): a block none of whose four
    cores shows its plastic is printed art or the figure's body, read as a base by its dark or
    textured paint (diagnosis photos without the reference: s0356, a block on difficult-terrain art,
    cores 0.11-0.17 over the plastic's grey, the true block two squares over four grey cores and a
    rim of 0.15; s0581, a block of art read on three squares, the true block two squares off
    diagonally, two grey cores and a rim of 0.14).

    >>> plastic = dict.fromkeys(("A1", "B1", "A2", "B2"), 0.4) | dict.fromkeys(("C3", "D3", "C4", "D4"), 0.1)
    >>> rims = {"A1": 0.2, "C3": 0.14}
    >>> used = {"A1", "B1", "A2", "B2"}
    >>> _near_grey_rimmed([("A1", ("A1", "A2", "B1", "B2"))], used, (), plastic, 0.1, rims)
    [('C3', ('C3', 'C4', 'D3', 'D4'))]
    >>> sorted(used)
    ['C3', 'C4', 'D3', 'D4']

    A block with a grey core stays, as does one whose neighbour shows no rim or one grey core:

    >>> _near_grey_rimmed([("A1", ("A1", "A2", "B1", "B2"))], {"A1", "B1", "A2", "B2"}, (), plastic | {"B2": 0.1}, 0.1, rims)
    [('A1', ('A1', 'A2', 'B1', 'B2'))]
    >>> _near_grey_rimmed([("A1", ("A1", "A2", "B1", "B2"))], {"A1", "B1", "A2", "B2"}, (), plastic, 0.1, rims | {"C3": 0.10})
    [('A1', ('A1', 'A2', 'B1', 'B2'))]
    >>> _near_grey_rimmed([("A1", ("A1", "A2", "B1", "B2"))], {"A1", "B1", "A2", "B2"}, (), plastic | {"C4": 0.4, "D3": 0.4, "D4": 0.4}, 0.1, rims)
    [('A1', ('A1', 'A2', 'B1', 'B2'))]
    """
    def score(alt: str, alt_block: tuple[str, ...]) -> tuple[float, ...] | None:
        rim = large_rims.get(alt)  # None: the block runs off the map
        if rim is None or rim < LARGE_RIM or any(b not in plastic for b in alt_block):
            return None
        grey_at = _grey_cores(alt_block, plastic, grey)
        return (grey_at, rim) if grey_at >= GREY_NEAR else None

    return _moved_blocks(chosen, used, blocked, 2, BODY_REACH, lambda block: _grey_cores(block, plastic, grey) > 0, score)


def _onto_clear_rimmed(chosen: list[tuple[str, tuple[str, ...]]], used: set[str], blocked: Collection[str], p: Mapping[str, float],
                       rims: Mapping[str, float], large_rims: Mapping[str, float]) -> list[tuple[str, tuple[str, ...]]]:
    """The Large blocks taken, each one of whose squares shows a Medium or Small base's own round rim
    (``rims``, n = 1) clear enough to be a base's (:data:`RIVAL_RIM`) and clearer than the block's
    Large rim, moved onto the block anywhere on the map, clear of the other bases and of ``blocked``,
    every square of which the classifier reads as a base (``p`` at least :data:`OCCUPIED`, before
    the roster's count), whose centre shows a clear Large rim (:data:`CLEAR_LARGE_RIM`), by
    :data:`RIM_CLEAR` clearer than the taken block's and clearer than any of its own squares'
    smaller rims; the clearest rim first; ``used`` is kept to the blocks taken (reading R278 in
    docs/readings.md).

    A Large base's quarter squares show no smaller base's rim round their centres (R91), and its
    own edge round the block's centre is the Large rim; a block whose square shows the smaller rim
    more clearly is likelier a Medium base and its neighbours, read as one block, while the block
    that shows the Large rim clearly and no smaller one is the Large base's, though the roster's
    count read some of its squares away as doubtful before any block was sought (diagnosis photo
    s0589 with the reference: A8:B9 taken, read on four squares, Large rim 0.15, B8 a Medium base's
    own rim 0.45; the Large base on C10:D11, read 0.65, 0.74, 0.83, 0.97, three of them read away
    by the count, the map's clearest Large rim 0.39, its squares' own 0.09-0.20).

    >>> rims = {"B1": 0.45, "C3": 0.1, "D3": 0.2, "C4": 0.15, "D4": 0.15}
    >>> large = {"A1": 0.15, "C3": 0.39}
    >>> p = dict.fromkeys(("A1", "B1", "A2", "B2", "C3", "D3", "C4", "D4"), 0.8)
    >>> used = {"A1", "B1", "A2", "B2"}
    >>> _onto_clear_rimmed([("A1", ("A1", "A2", "B1", "B2"))], used, (), p, rims, large)
    [('C3', ('C3', 'C4', 'D3', 'D4'))]

    No smaller rim in the block taken, a square of the other read as empty, or its rim not clear: stays.

    >>> _onto_clear_rimmed([("A1", ("A1", "A2", "B1", "B2"))], {"A1", "B1", "A2", "B2"}, (), p, rims | {"B1": 0.1}, large)
    [('A1', ('A1', 'A2', 'B1', 'B2'))]
    >>> _onto_clear_rimmed([("A1", ("A1", "A2", "B1", "B2"))], {"A1", "B1", "A2", "B2"}, (), p | {"D4": 0.3}, rims, large)
    [('A1', ('A1', 'A2', 'B1', 'B2'))]
    >>> _onto_clear_rimmed([("A1", ("A1", "A2", "B1", "B2"))], {"A1", "B1", "A2", "B2"}, (), p, rims, large | {"C3": 0.17})
    [('A1', ('A1', 'A2', 'B1', 'B2'))]
    """
    reach = max(_col_row(sq)[i] for sq in p for i in (0, 1)) + 1
    out: list[tuple[str, tuple[str, ...]]] = []
    for corner, block in chosen:
        own = large_rims.get(corner, 0.0)

        def score(alt: str, alt_block: tuple[str, ...], own: float = own) -> tuple[float, ...] | None:
            rim = large_rims.get(alt)  # None: the block runs off the map
            if rim is None or rim < max(CLEAR_LARGE_RIM, own + RIM_CLEAR):
                return None
            return None if any(b not in p or p[b] < OCCUPIED or rims.get(b, 0.0) >= rim for b in alt_block) else (rim,)

        def stays(taken: tuple[str, ...], own: float = own) -> bool:
            return not any(rims.get(b, 0.0) >= RIVAL_RIM and rims.get(b, 0.0) > own for b in taken)

        out += _moved_blocks([(corner, block)], used, blocked, 2, reach, stays, score)
    return out


#: the share of the directions round a block's centre whose band (:func:`_band_shares`) reads as
#: the roster's plastic for a Large figure named elsewhere to be moved there (reading R337), and the
#: share under which the block it was named on shows no band at all. Measured on the photos 700
#: and 701 of this round's seeds without the reference: the true Large blocks a wrong naming passed
#: over 0.31-0.54, the blocks wrongly taken 0.0-0.06
RING_MOVE = 0.3
RING_NONE = 0.1
#: a block the classifier reads as a base on all four squares this surely keeps its Large figure,
#: band or none (photo 720 of this round's seeds: a true Large block H1:I2 read 0.83-0.89, its band
#: 0.06 of the circle, a Medium base's block beside grey bands 0.81; the blocks wrongly taken in 700
#: and 701 read 0.66 and 0.01 on their least read square; reading R337)
RING_BLOCK_READ = 0.8


def _onto_ringed_blocks(pos: Position, figures: list[Seen], shares: Mapping[str, float], p: Mapping[str, float],
                        blocked: Collection[str], cols: int, rows: int) -> list[tuple[str, str]]:
    """Move each Large figure the roster named (not by a marker) on a block whose band shows the
    plastic on less than :data:`RING_NONE` of its circle, read as a base under
    :data:`RING_BLOCK_READ` on one square at least, to the free block -- no other figure's
    square, none of ``blocked`` -- whose band shows it on :data:`RING_MOVE` or more, the most first,
    read as a base (``p`` at least a half) on one square or more; then who is who among the Large
    figures the roster named, by the shortest moves since the record. ``figures`` is changed in
    place, each Large figure moved or renamed said :data:`COUNT_READ` sure. Returns the moves (the
    block left, the block taken; reading R337).

    >>> from assistant.editions import Edition, Size
    >>> from assistant.model import Map
    >>> big = Figure("L", "dark", Square(6, 6), Size.LARGE)
    >>> pos = Position(Edition.SWM2008, Map(10, 10), (big,))
    >>> seen = [Seen("L", "G7", 0.79, "roster")]
    >>> p = {Square(c, r).name: 0.0 for c in range(10) for r in range(10)} | {"B2": 0.9}
    >>> _onto_ringed_blocks(pos, seen, {"G7": 0.0, "B2": 0.4, "E5": 0.6}, p, (), 10, 10), seen
    ([('G7', 'B2')], [Seen(id='L', at='B2', confidence=0.5, by='roster')])

    A block with some band, or no free ringed block read as a base: nothing moves.

    >>> _onto_ringed_blocks(pos, seen, {"B2": 0.2, "E5": 0.6}, p, (), 10, 10)
    []
    """
    by_id = {f.id: f for f in pos.figures}
    large = [k for k, s in enumerate(figures) if s.by == "roster" and by_id[s.id].size.footprint == 2]
    moves: list[tuple[str, str]] = []
    for k in sorted(large, key=lambda k: shares.get(figures[k].at, 0.0)):
        s = figures[k]
        if shares.get(s.at, 0.0) >= RING_NONE or all(p.get(b, 0.0) >= RING_BLOCK_READ for b in block_squares(s.at, 2)):
            continue  # some band shows, or the classifier reads a base on all four squares (s0720: H1:I2)
        # a Medium figure the roster named on a square of the ringed block may be the one whose base
        # the block first read holds (R284's naming the other way round): it goes there
        movable = {j for j, o in enumerate(figures) if j != k and o.by == "roster" and by_id[o.id].size.footprint == 1}
        held = {sq for j, o in enumerate(figures) if j != k and j not in movable for sq in block_squares(o.at, by_id[o.id].size.footprint)}
        vacated = [sq for sq in block_squares(s.at, 2) if sq not in held and sq not in blocked]
        free = [(v, corner) for corner, v in shares.items() if v >= RING_MOVE
                and not set(block_squares(corner, 2)) & (held | set(blocked) | set(block_squares(s.at, 2)))
                and all(b in p for b in block_squares(corner, 2))
                and any(p.get(b, 0.0) >= 0.5 for b in block_squares(corner, 2))
                and sum(figures[j].at in block_squares(corner, 2) for j in movable) <= len(vacated)]
        if not free:
            continue
        _v, corner = max(free, key=lambda vc: (vc[0], -_key(vc[1])[0], -_key(vc[1])[1]))
        moves.append((s.at, corner))
        figures[k] = Seen(s.id, corner, min(s.confidence, COUNT_READ), s.by)
        displaced = [j for j in sorted(movable) if figures[j].at in block_squares(corner, 2)]
        for j, sq in zip(displaced, sorted(vacated, key=lambda sq: (-p.get(sq, 0.0), _key(sq))), strict=False):
            figures[j] = Seen(figures[j].id, sq, min(figures[j].confidence, COUNT_READ), figures[j].by)
    if moves:
        corners = [figures[k].at for k in large]
        pairs = assign([[_distance(by_id[figures[k].id].at, parse_square(c)) for c in corners] for k in large])
        renamed = [(figures[k], corners[j]) for k, j in zip(large, pairs, strict=True) if j is not None]
        for k, (s, at) in zip(large, renamed, strict=True):
            figures[k] = Seen(s.id, at, min(s.confidence, COUNT_READ) if at != s.at else s.confidence, s.by)
    return moves


#: the share of the directions round a block's centre in which a Large base's band
#: (:func:`.bases.large_bands`) must read smooth and within :data:`GREY_WITHIN` of the roster's
#: plastic grey to show that plastic round the body (reading R324): the body and the figure's
#: shadow cover part of it. Measured on the diagnosis photos 551-670 without the reference: the
#: Large bases' blocks 0.0-0.9 (a body over it, a lit band), the lava block taken in s0669 0.02,
#: the Large base's there 0.54
BAND_SHARE = 0.5


def _band_shares(bands: Mapping[str, tuple[float, ...]], grey: float | None) -> dict[str, float]:
    """For each block (north-west square), the share of the directions in which its Large base's
    band reads as the photo's plastic: smooth and within :data:`GREY_WITHIN` of ``grey``
    (:func:`_plastic_grey`); nothing where the plastic's grey is not measured (reading R324).

    >>> _band_shares({"A1": (0.05, 0.1, float("inf"), 0.3)}, 0.08)
    {'A1': 0.5}
    """
    if grey is None:
        return {}
    return {corner: sum(v <= grey + GREY_WITHIN for v in band) / max(1, len(band)) for corner, band in bands.items()}


def _rim_clearer_than_art(corner: str, large_rims: Mapping[str, float]) -> bool:
    """Whether the block's centre shows a Large base's rim (:data:`LARGE_RIM`) clearer than the
    map's own block rims (:func:`_art_rim`): R279's sign of a base."""
    rim = large_rims.get(corner)
    return rim is not None and rim >= LARGE_RIM and rim > _art_rim(large_rims)


def _far_grey_rimmed(chosen: list[tuple[str, tuple[str, ...]]], used: set[str], blocked: Collection[str], p: Mapping[str, float],
                     plastic: Mapping[str, float], grey: float | None, large_rims: Mapping[str, float],
                     bands: Mapping[str, float] | None = None) -> list[tuple[str, tuple[str, ...]]]:
    """The Large blocks taken, each none of whose squares' cores shows the photo's plastic grey
    (:func:`_grey_cores`) and whose centre shows no Large base's rim (:data:`LARGE_RIM`), moved onto
    the block anywhere on the map, clear of the other bases and of ``blocked``, that the classifier
    reads as a base on a square (``p`` at least :data:`OCCUPIED`, before the roster's count), whose
    cores show the grey on :data:`GREY_OF_BLOCK` squares or more and whose centre shows a Large rim
    of :data:`LARGE_RIM` or more, clearer than the map's own block rims (:func:`_art_rim`); the most
    grey cores, then the clearest rim; ``used`` is kept to the blocks taken (reading R279 in
    docs/readings.md). Called only where the plastic's grey is decisive on the map (R210).

    A Large base covers every square of its block past the core (R144) and shows its round edge
    round the block's centre: a block showing neither, read as a base by the classifier alone, is
    as likely dark art, while a block showing both and read by the classifier on a square has three
    signs of a base; beyond a body's reach (R256) no body explains it (diagnosis photo s0359 without
    the reference: G1:H2 read on four squares, cores 0.29-0.54 against the plastic's 0.08, rim 0.11,
    taken; the base on N3:O4, read on N4 only, three grey cores, the map's clearest Large rim 0.17).

    >>> plastic = dict.fromkeys(("A1", "B1", "A2", "B2"), 0.4) | dict.fromkeys(("F5", "G5", "F6", "G6"), 0.1)
    >>> rims = {"A1": 0.05, "F5": 0.17, "C3": 0.05}
    >>> used = {"A1", "B1", "A2", "B2"}
    >>> _far_grey_rimmed([("A1", ("A1", "A2", "B1", "B2"))], used, (), {"F6": 0.6}, plastic, 0.1, rims)
    [('F5', ('F5', 'F6', 'G5', 'G6'))]
    >>> sorted(used)
    ['F5', 'F6', 'G5', 'G6']

    A block taken with a Large rim of its own stays, as does one where no square of the far block
    is read as a base:

    >>> _far_grey_rimmed([("A1", ("A1", "A2", "B1", "B2"))], {"A1", "B1", "A2", "B2"}, (), {"F6": 0.6}, plastic, 0.1, rims | {"A1": 0.13})
    [('A1', ('A1', 'A2', 'B1', 'B2'))]
    >>> _far_grey_rimmed([("A1", ("A1", "A2", "B1", "B2"))], {"A1", "B1", "A2", "B2"}, (), {"F6": 0.4}, plastic, 0.1, rims)
    [('A1', ('A1', 'A2', 'B1', 'B2'))]

    ``bands``: each block's share of its Large base's band showing the plastic (:func:`_band_shares`):
    on dark art a Large base's rim is lost (dark plastic on a dark floor), but its band of moulded
    plastic round the body shows; a block whose band shows it on :data:`BAND_SHARE` of the circle
    counts as a rim does, and a block taken with such a band stays (reading R324; diagnosis photo
    s0669 without the reference: a lava block B5:C6 taken, cores 0.21-0.53 against the plastic's
    0.11, rim 0.05, band 0.02; the Large base on J2:K3, read on J2 and J3, four grey cores, rim
    0.09 under the map's art rims, band 0.54):

    >>> faint = rims | {"F5": 0.09}
    >>> _far_grey_rimmed([("A1", ("A1", "A2", "B1", "B2"))], {"A1", "B1", "A2", "B2"}, (), {"F6": 0.6}, plastic, 0.1, faint)
    [('A1', ('A1', 'A2', 'B1', 'B2'))]
    >>> _far_grey_rimmed([("A1", ("A1", "A2", "B1", "B2"))], {"A1", "B1", "A2", "B2"}, (), {"F6": 0.6}, plastic, 0.1, faint, {"F5": 0.54})
    [('F5', ('F5', 'F6', 'G5', 'G6'))]
    >>> _far_grey_rimmed([("A1", ("A1", "A2", "B1", "B2"))], {"A1", "B1", "A2", "B2"}, (), {"F6": 0.6}, plastic, 0.1, faint,
    ...                  {"F5": 0.54, "A1": 0.6})
    [('A1', ('A1', 'A2', 'B1', 'B2'))]
    """
    band = bands or {}

    def score(alt: str, alt_block: tuple[str, ...]) -> tuple[float, ...] | None:
        rimmed = _rim_clearer_than_art(alt, large_rims)
        if alt not in large_rims or not (rimmed or band.get(alt, 0.0) >= BAND_SHARE) or any(b not in plastic for b in alt_block):
            return None
        if max(p.get(b, 0.0) for b in alt_block) < OCCUPIED:
            return None
        grey_at = _grey_cores(alt_block, plastic, grey)
        # a block with R279's rim before one with the band alone (R324), then the grey cores
        return (float(rimmed), grey_at, large_rims[alt], band.get(alt, 0.0)) if grey_at >= GREY_OF_BLOCK else None

    reach = max(_col_row(sq)[i] for sq in plastic for i in (0, 1)) + 1
    return _moved_blocks(chosen, used, blocked, 2, reach,
                         lambda block: (_grey_cores(block, plastic, grey) > 0 or large_rims.get(block[0], 0.0) >= LARGE_RIM
                                        or band.get(block[0], 0.0) >= BAND_SHARE), score)


def _plastic_blocks(reading: Mapping[str, bool], p: Mapping[str, float], blocked: Collection[str], plastic: Mapping[str, float],
                    grey: float | None, n: int, cols: int, rows: int) -> list[tuple[float, str, tuple[str, ...]]]:
    """The n x n blocks clear of ``blocked`` read as a base on at least one square and as empty on at
    least one, at least :data:`GREY_OF_BLOCK` of whose squares' base cores are as grey as the photo's
    plastic (:func:`.bases.plastic_colourfulness` within :data:`GREY_WITHIN` of ``grey``), scored by the
    grey squares and those of them read as empty, then their squares' P(a base) (reading R210).

    >>> read = {"A1": True, "B1": False, "A2": False, "B2": False}
    >>> [c for _s, c, _b in _plastic_blocks(read, {"A1": 0.9}, (), {"A1": 0.1, "B1": 0.12, "A2": 0.11, "B2": 0.5}, 0.1, 2, 2, 2)]
    ['A1']
    >>> _plastic_blocks(read, {"A1": 0.9}, (), {"A1": 0.1, "B1": 0.4, "A2": 0.11, "B2": 0.5}, 0.1, 2, 2, 2)
    []
    """
    if grey is None:
        return []
    out = []
    for c in range(cols - n + 1):
        for r in range(rows - n + 1):
            corner = Square(c, r).name
            block = tuple(block_squares(corner, n))
            on = sum(reading.get(b, False) for b in block)
            grey_cores = [b for b in block if plastic.get(b, 1.0) <= grey + GREY_WITHIN]
            # the grey cores read as empty first: a body over a base's plastic, what no other base
            # read beside them explains (diagnosis photo s0530: the block one over, holding a Medium
            # base read 0.97, had as many grey cores)
            hidden = sum(not reading.get(b, False) for b in grey_cores)
            if 0 < on < len(block) and len(grey_cores) >= GREY_OF_BLOCK * n * n // 4 and not set(block) & set(blocked):
                out.append((len(grey_cores) + hidden + sum(p.get(b, 0.0) for b in block) / len(block), corner, block))
    return out


def _faint_rimmed_grey_blocks(reading: Mapping[str, bool], p: Mapping[str, float], blocked: Collection[str], large_rims: Mapping[str, float],
                              plastic: Mapping[str, float], grey: float | None, cols: int, rows: int) -> list[tuple[float, str, tuple[str, ...]]]:
    """The 2 x 2 blocks clear of ``blocked`` read as empty on every square, whose centre shows a
    Large base's round rim of :data:`HALF_READ_RIM` or more and clearer than the map's own block rims
    (:func:`_art_rim`), a square of which the classifier reads as a base at least
    :data:`GLIMPSED_BASE`, and at least :data:`GREY_OF_BLOCK` of whose squares' cores show the
    photo's plastic grey (:func:`_grey_cores`); scored by the grey cores, then the rim and the
    squares' P(a base) (reading R255 in docs/readings.md). Called only where that grey is decisive
    on the map (R210).

    A Large figure's broad body can hide its base so that every square of the block reads as a body,
    none as a base, and the rim round its centre as only half a rim (diagnosis photos s0553, s0597,
    s0606, s0565 without the reference: 0.115-0.17 against R111's 0.18; the squares 0.18-0.48 on the
    likeliest); each sign alone is art's as often -- the faint rim, the classifier's glimpse, the grey
    cores -- the three on one block are a base's.

    >>> rims = {"A1": 0.14, "B1": 0.05, "A2": 0.05, "B2": 0.05}
    >>> plastic = {"A1": 0.1, "B1": 0.1, "A2": 0.1, "B2": 0.4, "C1": 0.4, "C2": 0.4, "A3": 0.4, "B3": 0.4, "C3": 0.4}
    >>> [c for _s, c, _b in _faint_rimmed_grey_blocks({}, {"A1": 0.2}, (), rims, plastic, 0.1, 3, 3)]
    ['A1']

    No glimpse, too few grey cores, a square read as a base, or a rim below :data:`HALF_READ_RIM` or
    no clearer than the map's own: none.

    >>> _faint_rimmed_grey_blocks({}, {"A1": 0.1}, (), rims, plastic, 0.1, 3, 3)
    []
    >>> _faint_rimmed_grey_blocks({}, {"A1": 0.2}, (), rims, plastic | {"A2": 0.4}, 0.1, 3, 3)
    []
    >>> _faint_rimmed_grey_blocks({"B2": True}, {"A1": 0.2}, (), rims, plastic, 0.1, 3, 3)
    []
    >>> _faint_rimmed_grey_blocks({}, {"A1": 0.2}, (), rims | {"A1": 0.07}, plastic, 0.1, 3, 3)
    []
    >>> _faint_rimmed_grey_blocks({}, {"A1": 0.2}, (), rims | {"B1": 0.14, "A2": 0.14, "B2": 0.14}, plastic, 0.1, 3, 3)
    []
    """
    if grey is None:
        return []
    art = _art_rim(large_rims)
    out = []
    for corner, block, rim in _blocks_and_rims(large_rims, cols, rows):
        if rim < HALF_READ_RIM or rim <= art or set(block) & set(blocked) or any(reading.get(b, False) for b in block):
            continue
        grey_at = _grey_cores(block, plastic, grey)
        if grey_at >= GREY_OF_BLOCK and max(p.get(b, 0.0) for b in block) >= GLIMPSED_BASE:
            out.append((grey_at + rim + sum(p.get(b, 0.0) for b in block) / len(block), corner, block))
    return out


def _partly_read_blocks(reading: Mapping[str, bool], blocked: Collection[str], rims: Mapping[str, float] | None,
                      large_rims: Mapping[str, float], cols: int, rows: int) -> list[tuple[str, set[str]]]:
    """The 2 x 2 blocks clear of ``blocked`` read as a base on two or three of their squares, whose
    centre shows a Large base's round rim (:data:`LARGE_RIM`), less those that hold a Medium base by
    its own rim (:func:`_a_medium_base_in`, R94): the blocks :func:`_by_rim_among_shifted` may move
    a Large base onto besides those read on every square (reading R101 in docs/readings.md).

    A Large figure's body hides the far half of its base and the classifier can read those squares
    as surely empty, while the squares one over toward the camera read as a base under its leaning
    body: the block read on every square is then the shifted one, and the rim round the true
    block's centre is the photo's clearest (independent photos s0427, s0358: 0.39 and 0.35 against
    0.05 and 0.08 round the block taken).

    >>> [(corner, sorted(block)) for corner, block in _partly_read_blocks({"B1": True, "B2": True, "C1": True}, (), None, {"A1": 0.1, "B1": 0.3}, 3, 2)]
    [('B1', ['B1', 'B2', 'C1', 'C2'])]
    >>> _partly_read_blocks({"B1": True, "B2": True}, (), {"B1": 0.4}, {"A1": 0.2, "B1": 0.3}, 3, 2)
    []
    """
    out = []
    for c in range(cols - 1):
        for r in range(rows - 1):
            corner = Square(c, r).name
            block = tuple(block_squares(corner, 2))
            on = sum(reading.get(b, False) for b in block)
            rim = large_rims.get(corner, 0.0)
            if on in (2, 3) and rim >= LARGE_RIM and not set(block) & set(blocked) \
                    and not (rims and on == 2 and _a_medium_base_in(block, reading, rims, rim, 2)):
                out.append((corner, set(block)))
    return out


def _take_blocks(candidates: Sequence[tuple[float, str, tuple[str, ...]]], chosen: list[tuple[str, tuple[str, ...]]], used: set[str],
                 wanted: int) -> list[tuple[str, tuple[str, ...]]]:
    """Blocks (score, north-west square, squares) taken best first, ties by square, none
    overlapping another taken, until ``chosen`` holds ``wanted``; ``chosen`` and ``used`` are
    added to. Returns the blocks taken here."""
    taken_here = []
    for _score, corner, block in sorted(candidates, key=lambda b: (-b[0], _key(b[1]))):
        if len(chosen) >= wanted:
            break
        if not set(block) & used:
            chosen.append((corner, block))
            used |= set(block)
            taken_here.append((corner, block))
    return taken_here


def _calibrated(r: float) -> float:
    """The classifier's probability that a square is read right, with its doubt scaled to what it
    proved (:data:`CLASSIFIER_DOUBT`); a reading against the classifier (below one half) unchanged.

    >>> _calibrated(0.6), _calibrated(0.98), _calibrated(0.3)
    (0.9, 0.995, 0.3)
    """
    return r if r < 0.5 else round(1.0 - CLASSIFIER_DOUBT * (1.0 - r), 6)


def _confidence(block: Sequence[str], p: dict[str, float], by_count: Collection[str]) -> float:
    """How likely the photo holds a base on every square of the block: its least likely square."""
    return round(min(COUNT_READ if b in by_count else p.get(b, 0.0) for b in block), 3)


def assign(cost: Sequence[Sequence[float]]) -> list[int | None]:
    """The minimum-cost assignment of rows (figures) to columns (places the photo shows): for each
    row its column, or None where there are fewer columns than rows (the Hungarian method).

    >>> assign([[1, 0], [0, 1]]), assign([[5, 1, 9]]), assign([[1], [0]]), assign([[]])
    ([1, 0], [1], [None, 0], [None])
    """
    n = len(cost)
    m = len(cost[0]) if n else 0
    if n == 0 or m == 0:
        return [None] * n
    if n > m:  # more rows than columns: assign the columns to rows, then read it back
        back = assign([[cost[i][j] for i in range(n)] for j in range(m)])
        out: list[int | None] = [None] * n
        for j, i in enumerate(back):
            if i is not None:
                out[i] = j
        return out
    inf = math.inf
    u, v = [0.0] * (n + 1), [0.0] * (m + 1)
    owner, way = [0] * (m + 1), [0] * (m + 1)
    for i in range(1, n + 1):
        owner[0] = i
        j0 = 0
        minv, used = [inf] * (m + 1), [False] * (m + 1)
        while True:
            used[j0] = True
            i0, delta, j1 = owner[j0], inf, 0
            for j in range(1, m + 1):
                if not used[j]:
                    cur = cost[i0 - 1][j - 1] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j], way[j] = cur, j0
                    if minv[j] < delta:
                        delta, j1 = minv[j], j
            for j in range(m + 1):
                if used[j]:
                    u[owner[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if owner[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
    result: list[int | None] = [None] * n
    for j in range(1, m + 1):
        if owner[j]:
            result[owner[j] - 1] = j - 1
    return result


#: how sure a square showing an unread marker's sticker is read to hold a base (R102): surer than
#: :data:`SURE`, so the roster's count never reads it as empty; the sticker showed on no base
#: without a marker and on no printed art but one of 151 squares read as bases (0.36, under
#: :data:`.markers.STICKER_SHOWN`) on the diagnosis photos
STICKER_BASE = 0.9
#: what naming a figure without a base marker on a square showing a sticker costs, above any
#: naming by movement (:func:`_distance`: at most a few usual moves): the figures that carry one
#: are named there first (R102)
STICKER_COST = 20.0
#: what naming a figure on a square whose sticker's printed pattern names another marker costs
#: (R178, R293): the odds the pattern is right, as a cost of moves (``IDENTITY_SCALE`` * ln odds,
#: as :data:`BARE_COST`). On all the diagnosis photos 341-634 (both modes, at 68cacc3) the pattern
#: named 105 distinct unread stickers right and 1 wrong (s0416: 20's sticker read as 16): the odds'
#: 95 % lower bound is 18 to 1, 0.5 ln 18 = 1.45, taken as 1.5. Below two figures moved
#: (:func:`_distance`): it decides between namings the record finds about as likely (s0406; s0602's
#: ring of three marked figures that all moved, 1.1 of moves apart); where the marker it names may
#: have stood still, :data:`PATTERN_STILL_COST` (s0416, the one wrong naming: at 2.0 everywhere it
#: moved f9, carrying 16, off D5 where it stood still)
PATTERN_COST = 1.5
#: the pattern's cost where a base reads on the recorded square of the figure carrying the marker
#: it names (R178, R293): one figure moved, the most that never moves a figure that stood still off
#: its square -- moving it onto the pattern's square and the figure there onto its own costs at
#: least one figure moved more (:func:`_distance`, the triangle inequality)
PATTERN_STILL_COST = 1.0

#: what naming a figure that carries a base marker (unread) on a Medium base whose marker window
#: showed no sticker costs more (reading R282): the photo shows no sticker there, as it shows none
#: on an unmarked figure's base. On the diagnosis photos 341-436 (582110d, both modes) the
#: windows searched on the true squares of Medium figures whose marker was unread showed no sticker
#: for 111 of 318, and a sticker on none of 214 unmarked figures' bases: a naming of a marked figure
#: there is 0.35 times as likely, IDENTITY_SCALE * ln(318 / 111) = 0.53 as a cost of moves
BARE_COST = 0.5

#: squares of a usual move (Speed 6 in both games): naming a base costs one for each figure that
#: moved since the record, plus its distance in usual moves
MOVE = 6.0
# (linear in the move's length: the squares of the moves, their logarithm or square root named
# fewer figures right on the diagnosis photos 341-610: reading R247 in docs/readings.md)


def _distance(a: Square, b: Square) -> float:
    """What naming a base at ``b`` for a figure recorded at ``a`` costs: nothing where it stands
    still, else one figure more that moved plus how far (north-west corner to corner) in usual
    moves -- an explanation with fewer figures moved is the likelier, then the shorter moves.

    >>> _distance(Square(2, 2), Square(2, 2)), round(_distance(Square(2, 2), Square(5, 6)), 3)
    (0.0, 1.833)
    """
    if (a.col, a.row) == (b.col, b.row):
        return 0.0
    return 1.0 + math.hypot(a.col - b.col, a.row - b.row) / MOVE


#: how much more colourful (:func:`.bases.plastic_colourfulness`) than the photo's plastic grey
#: (:func:`_plastic_grey`) a square read as a base must be to read as a disc printed on the map
#: (reading R123). Measured on the independent renderer's 162 diagnosis photos: 8 of 1,056 Medium
#: bases' squares beyond it (a broad body over the whole core), 27 of 34 bare squares read as bases
PAINTED_BY = 0.12
#: the found Medium and Small bases the comparison needs: fewer, and the photo's own plastic grey is unknown
PLASTIC_FOUND = 2
#: the probability that a square no figure explains, read as a printed disc by :data:`PAINTED_BY`,
#: is read right: on the diagnosis photos 175 of 182 held no base (Laplace 0.96; said less). Above
#: :data:`SURE`: not listed
PAINTED_READ = 0.9
#: how much more colourful than the photo's plastic grey every core of a 2 x 2 block must read for
#: the block to be a disc printed on the map, no Large base (R209): twice :data:`PAINTED_BY`, since
#: a Large figure's broad body, seen from above, covers all four cores (diagnosis photos s0529 and
#: s0562, cameras nearly overhead: their Large bases' blocks read 0.165 and 0.12 over the grey at
#: their least colourful core; the printed disc of s0566, 0.35)
DISC_BY = 2 * PAINTED_BY
#: a reading of the squares' cores by the plastic's grey decides where a Large base is (R210) where
#: at most this many times the squares the roster's bases cover show it: the second look's share
#: (:data:`.bases.DECISIVE`), for the same reason -- more, and grey art is as likely as plastic
GREY_DECISIVE = 2.0
#: how much more colourful than the photo's plastic grey (:func:`_plastic_grey`) a square's core may
#: read and still show that plastic (R210): half the margin a printed disc stands out by
#: (:data:`PAINTED_BY`), so that a floor read between the two is neither plastic nor disc
GREY_WITHIN = PAINTED_BY / 2
#: the squares of a Large base's block whose cores must show its plastic's grey (R210): its
#: body may cover one square's core whole (the cone over the far square)
GREY_OF_BLOCK = 3


def _plastic_grey(pos: Position, by_marker: Sequence[Seen], sure: Sequence[str], plastic: Mapping[str, float] | None) -> float | None:
    """How colourful the roster's bases' grey or black plastic reads on this photo (its light, its
    white balance): the median :func:`.bases.plastic_colourfulness` of the squares of the Medium and
    Small figures read by their base markers, or, fewer than :data:`PLASTIC_FOUND` of them, of the
    squares the photo surely reads as bases (``sure``; most of them bases, a few printed art). None
    where fewer than :data:`PLASTIC_FOUND` show it (reading R123).

    >>> from assistant.coords import Square
    >>> from assistant.editions import Edition
    >>> from assistant.model import Figure, Map, Position
    >>> pos = Position(Edition.SWM2008, Map(6, 6), (Figure("a", "light", Square(0, 0)), Figure("b", "dark", Square(5, 5))))
    >>> plastic = {"A1": 0.05, "F6": 0.12, "C3": 0.45, "D4": 0.15}
    >>> _plastic_grey(pos, [Seen("a", "A1", 1.0, "marker"), Seen("b", "F6", 1.0, "marker")], ["C3"], plastic)
    0.085
    >>> _plastic_grey(pos, [Seen("a", "A1", 1.0, "marker")], ["C3", "D4", "F6"], plastic), _plastic_grey(pos, [], ["C3"], plastic)
    (0.15, None)
    """
    if plastic is None:
        return None
    marked = [plastic[s.at] for s in by_marker if pos.figure(s.id).size.footprint == 1 and s.at in plastic]
    shown = marked if len(marked) >= PLASTIC_FOUND else [plastic[sq] for sq in sure if sq in plastic]
    if len(shown) < PLASTIC_FOUND:
        return None
    shown.sort()
    mid = len(shown) // 2
    return round(shown[mid] if len(shown) % 2 else (shown[mid - 1] + shown[mid]) / 2, 6)


def _lost_blocks(not_seen: Sequence[Figure], right: Mapping[str, float], named_on: Collection[str]) -> dict[str, dict[str, float]]:
    """For each Large or bigger figure of ``not_seen`` (the photo found it nowhere), the squares of its
    recorded block, each with the doubt the block is listed with (reading R362): the least sure
    reading of the block's squares (``right``: each square's probability of being read right), at
    most :data:`NOT_FOUND_READ`. A block one of whose squares a figure is named on (``named_on``: the
    caller passes the squares of figures named by their marker or surely, reading R398), or that runs
    off the map, is not listed. The block is one base: either it stands there or it does
    not, so its squares share one doubt and are ranked together -- listing some of them leaves the
    board wrong after confirming the list (R235 listed the corner alone, then not at all).

    >>> from assistant.editions import Size
    >>> big = Figure("g", "light", Square(5, 4), Size.LARGE)
    >>> _lost_blocks([big], {"F5": 0.95, "G5": 0.6, "F6": 0.9, "G6": 0.99}, ())
    {'g': {'F5': 0.5, 'G5': 0.5, 'F6': 0.5, 'G6': 0.5}}
    >>> _lost_blocks([big], {"F5": 0.05, "G5": 0.6, "F6": 0.9, "G6": 0.99}, ())
    {'g': {'F5': 0.05, 'G5': 0.05, 'F6': 0.05, 'G6': 0.05}}
    >>> _lost_blocks([big], {"F5": 0.95, "G5": 0.6, "F6": 0.9, "G6": 0.99}, {"G6"}), _lost_blocks([big], {"F5": 0.9}, ())
    ({}, {})
    """
    lost: dict[str, dict[str, float]] = {}
    for f in not_seen:
        n = f.size.footprint
        if n < 2:
            continue
        block = sorted(block_squares(f.at.name, n), key=_key)
        if any(sq not in right or sq in named_on for sq in block):
            continue
        doubt = min(NOT_FOUND_READ, *(right[sq] for sq in block))
        lost[f.id] = dict.fromkeys(block, doubt)
    return lost


def _first_six(squares: Collection[str]) -> str:
    """The squares' names in board order for a note: the first six, then "..." where there are more."""
    return ", ".join(sorted(squares, key=_key)[:6]) + (", ..." if len(squares) > 6 else "")


def _col_row(name: str) -> tuple[int, int]:
    s = parse_square(name)
    return (s.col, s.row)


def _key(name: str) -> tuple[int, int]:
    s = parse_square(name)
    return (s.row, s.col)


#: what each reading's stated probability of being right proved, for ranking and listing the squares
#: to confirm (reading R99): measured on the independent renderer's diagnosis photos (seeds
#: 341-454, 194 answers with and without the reference), Laplace's estimate (right + 1) / (seen + 2):
#: squares no figure explains 0 of 20 right (said :data:`UNEXPLAINED`), the count's coin tosses and
#: the figures it names (said :data:`COUNT_READ`) 193 of 223 -- ahead of the classifier's own
#: doubts (right 58-81 %), they were ranked first and crowded them out --, namings that may have
#: swapped (said :data:`SWAP_READ`) 153 of 156 (listed, yet almost always right), the squares the
#: count settled and the bodies and shadows (said :data:`COUNT_SETTLED`, :data:`BODY_READ`) 660 of
#: 690 (never listed, yet 30 of the wrong squares: the figures the count read away)
MEASURED_RIGHT = {UNEXPLAINED: 0.05, COUNT_READ: 0.86, SWAP_READ: 0.975, COUNT_SETTLED: 0.955, BODY_READ: 0.955}
#: the classifier's readings stated at :data:`STATED_DOUBT_FROM` or surer kept this much of their stated
#: doubt on the same photos (stated 0.90-0.95: 17 of 651 wrong, 0.95-0.99: 20 of 2451, both 0.38 of
#: the doubt stated); below it the stated value stands (0.85-0.90: 7 of 163 wrong, right 0.957)
STATED_DOUBT_KEPT = 0.38
STATED_DOUBT_FROM = 0.9
#: a square is listed to confirm (the least sure first, at most :data:`MAX_LISTED`) while its
#: measured probability of being right is below this: the readings right 95-96 % of the time hold
#: a third of the wrong squares, the next (97 % and surer) few of them among many squares; only
#: those stated below :data:`SURE` are counted as more doubtful squares beyond the list
LISTED_BELOW = 0.96


def _measured(stated: float) -> float:
    """The probability that a square read with the ``stated`` probability is read right, as each
    reading proved (reading R99: :data:`MEASURED_RIGHT`, :data:`STATED_DOUBT_KEPT`).

    >>> _measured(COUNT_READ), _measured(0.7), _measured(0.95), _measured(1.0)
    (0.86, 0.7, 0.981, 1.0)
    """
    known = MEASURED_RIGHT.get(round(stated, 6))
    if known is not None:
        return known
    return stated if stated < STATED_DOUBT_FROM else round(1.0 - STATED_DOUBT_KEPT * (1.0 - stated), 6)


def _ranked(right: Mapping[str, float], as_said: Collection[str] = ()) -> list[tuple[str, float]]:
    """The squares to confirm, each with its measured probability of being read right
    (:func:`_measured`), below :data:`LISTED_BELOW`, the least sure first (ties: the less sure stated first, then by
    square). The squares ``as_said`` keep their stated probability: a doubtful figure named on its
    own recorded square, which left off the list would confirm the record by default (R99).

    >>> _ranked({"A1": SWAP_READ, "B2": 0.6}), _ranked({"A1": SWAP_READ, "B2": 0.6}, {"A1"})
    ([('B2', 0.6)], [('B2', 0.6), ('A1', 0.75)])
    """
    measured = {sq: (v if sq in as_said else _measured(v)) for sq, v in right.items()}
    return sorted(((sq, m) for sq, m in measured.items() if m < LISTED_BELOW), key=lambda kv: (kv[1], right[kv[0]], _key(kv[0])))
