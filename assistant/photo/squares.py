"""The squares' reading on the grid found (:func:`read_squares`): each square read by the learned
classifier (:mod:`.occupancy`) and, with the empty map's reference, compared with it (:mod:`.bases`),
the rims checked, the base markers read (the board-wide search's and the marker windows'
(:mod:`.windows`)), then the figures placed (:mod:`.placement`): where they stand, what is to confirm."""

from __future__ import annotations

from concurrent.futures import Future
from dataclasses import dataclass, replace

import numpy as np

from ..coords import Square
from ..i18n import _, n_
from ..model import Position
from .bases import (
    away_from_camera,
    fused_and_compared,
    large_bands,
    large_rims,
    lean_per_height,
    neutral_reading,
    plain_paper,
    plastic_colourfulness,
    rim_check,
    rim_strength,
    second_reading,
    square_rims,
    with_art_intact,
)
from .board import Grid, to_board
from .figures import Seen, figures_by_marker, settle_by_squares, space
from .markers import Marker, Sticker, find_markers_and_stickers_near, merge
from .occupancy import TableProfile, square_probabilities
from .placement import SURE, Placement, _col_row, over_read, place, said_sure, saturated_reading
from .placement import _key as _square_key
from .reference import ART_DISAGREES_MOST, Reference, align_view, art_disagreement
from .windows import (
    NEAR_CHUNK,
    bare_windows,
    marker_windows,
    named_stickers,
    named_windows,
    pattern_named_stickers,
    recorded_windows,
    unread_sticker_squares,
)

OCCUPIED = 0.5


@dataclass(frozen=True)
class SquaresRead:
    """What :func:`read_squares` found on the grid: the figures' placement (``placement``: each
    figure named without a base marker said as sure as the namings so stated proved right, R142;
    its notes every reading's, the mode that answered first) and every marker read on the way
    (``markers``: the grid search's, the board-wide base markers' and the windows'), whose corner
    markers the answer's note on the grid counts."""

    placement: Placement
    markers: tuple[Marker, ...]


def read_squares(image: np.ndarray, pos: Position, reference: Reference | None, table: TableProfile | None,
                 grid: Grid, markers: list[Marker], view_made: Future[np.ndarray],
                 base_search: Future[list[Marker]] | None) -> SquaresRead:
    """:func:`.detect` once the grid is found: the squares read, the figures placed; ``view_made``
    the top-down view and ``base_search`` the base markers' search, made beside it, each joined
    where it is first read."""
    cols, rows = pos.map.cols, pos.map.rows
    notes: list[str] = []  # which mode answered and the readings' notes; the base markers' after them
    scores = square_probabilities(image, grid, cols, rows, table)
    view = view_made.result()  # the map from above (reference.top_down): the reference's comparison and the bases' rims
    aligned = None  # the view aligned onto the reference's: the fused reading and the second look compare it
    not_art: frozenset[str] = frozenset()  # squares the reference shows are no art (R87)
    intact: frozenset[str] = frozenset()  # squares whose base core shows the reference's art intact (R112)
    first_reading: dict[str, float] = {}  # with the reference: the fused reading before R112, rim-checked as the answer's squares are
    set_aside = None  # the share of the map whose art is not the reference's, where it was set aside (R109)
    if reference is not None:
        aligned = align_view(view, reference.view)
        disagreement = art_disagreement(aligned, reference.view, cols, rows)
        if disagreement > ART_DISAGREES_MOST:
            # most of the map shows art the reference does not: no figures cover most of a map, so
            # the reference is not of this map as it lies in the photo (another print of it, the
            # grid read differently); compared with it, every square reads changed (R109)
            reference, aligned, set_aside = None, None, disagreement
    if reference is not None and aligned is not None:
        # both readings: the classifier knows what a base looks like, the comparison that printed
        # art is background; either alone reads more squares wrong (bench/photo_reference.py)
        classifier = scores
        fused = fused_and_compared(image, grid, reference, classifier, aligned, aligned=True)
        # a square both readings are sure of is no printed art: the empty map shows it changed (R87)
        not_art_first = frozenset(sq for sq, v in fused.compared.items() if v >= SURE and classifier[sq] >= SURE)
        # the squares whose base core shows the empty map's art intact are read as empty (R112); the
        # fused reading as the models read it still decides whether it read the art as bases (R76)
        intact, first_reading = fused.intact, dict(fused.scores)
        scores, not_art = with_art_intact(fused.scores, intact), not_art_first - intact
        notes.insert(
            0,
            _(
                "reference mode: the learned classifier and the photo compared with the empty-map reference photo {name} (taken {taken}) answered together"
            ).format(name=reference.name, taken=reference.taken),
        )
        art_read_as_bases = sorted((sq for sq in intact if classifier[sq] >= OCCUPIED), key=_square_key)
        if art_read_as_bases:
            notes.insert(1, n_("{n} square the learned classifier read as a base shows the empty map's art intact where a base would hide it "
                               "({names}{more}): read as empty (reading R112 in docs/readings.md)",
                               "{n} squares the learned classifier read as bases show the empty map's art intact where a base would hide it "
                               "({names}{more}): read as empty (reading R112 in docs/readings.md)", len(art_read_as_bases)).format(
                n=len(art_read_as_bases), names=", ".join(art_read_as_bases[:6]), more=", ..." if len(art_read_as_bases) > 6 else ""))
        # the comparison read a change there, but none with a base's shape: it cannot tell a
        # shadow or a body leaning over from a base, and the classifier's reading stands (R127)
        shapeless = sorted((sq for sq in fused.shapeless if fused.compared[sq] >= OCCUPIED and sq not in intact), key=_square_key)
        if shapeless:
            notes.insert(1 + bool(art_read_as_bases), n_(
                "{n} square changed since the empty-map reference photo shows neither a base's edge nor the art hidden under one "
                "({names}{more}): a shadow or a figure's body leaning over, which the comparison cannot tell from a base; "
                "the learned classifier's reading kept (reading R127 in docs/readings.md)",
                "{n} squares changed since the empty-map reference photo show neither a base's edge nor the art hidden under one "
                "({names}{more}): a shadow or a figure's body leaning over, which the comparison cannot tell from a base; "
                "the learned classifier's reading kept (reading R127 in docs/readings.md)", len(shapeless)).format(
                n=len(shapeless), names=", ".join(shapeless[:6]), more=", ..." if len(shapeless) > 6 else ""))
    elif set_aside is not None:
        notes.insert(0, _("the empty-map reference photo was set aside: the map's art in this photo differs from it on {pct:.0f} % of the squares "
                          "(a reference of another map or another print of it, or the map's grid read differently); the learned classifier "
                          "answered alone, less sure on printed-art maps (reading R109 in docs/readings.md)").format(pct=100 * set_aside))
    else:
        notes.insert(0, _("no reference photo: the learned classifier answered, less sure on printed-art maps"))
    if base_search is not None:
        markers = merge(markers, base_search.result())
    seen, marker_notes = figures_by_marker(pos, markers, grid)
    no_rim: frozenset[str] = frozenset()
    large = any(f.size.footprint == 2 for f in pos.figures)
    # a Large base's rim round each inner grid corner: the rim check and the placement both read it
    rims2 = rim_strength(view, cols, rows, 2) if large and cols > 1 and rows > 1 else None
    # each square's own round rim, a Medium or Small base's: the rim check and the placement (which
    # of the squares read as bases a figure stands on, R90) both read it
    rims1 = rim_strength(view, cols, rows, 1)
    square_rim = {Square(c, r).name: float(v) for (r, c), v in np.ndenumerate(rims1.reshape(rows, cols))}
    # a Large base's round rim round each block's middle: the marker windows (R134) and, for a Large
    # figure no block read as occupied explains, the placement read it
    large_rim = large_rims(view, cols, rows, rims2) if large else None
    # the rim check reads Medium, Small and Large bases' rims (none larger on the roster)
    rims_read = max((f.size.footprint for f in pos.figures), default=1) <= 2
    if rims_read:
        # a base is round plastic of known size: a square read as one that shows no base's rim
        # was read on its texture alone (printed art), and is doubtful (.bases.rim_check)
        scores, no_rim = rim_check(scores, view, cols, rows, large, rims2, not_art, rims1)
        if intact:
            first_reading = rim_check(first_reading, view, cols, rows, large, rims2, not_art_first, rims1)[0]
    if not intact:
        first_reading = scores
    # the rules model's no-standing squares: no figure stands in a wall square, a pit (or, DDM, on a statue)
    nowhere = {sq.name for kind in pos.edition.board.no_standing for sq in pos.map.squares.get(kind, ())}
    second_look = False
    if over_read(pos, first_reading, seen, nowhere):
        # bases read nearly everywhere (a star field, a carpet's repeating print), or on more than
        # three times the roster's squares (R76: a lava floor's dark patches): a second look
        # at what the art hides, against the reference -- or the photo's own median square -- with
        # the art allowed a pixel or two off (.bases.second_reading); taken only where decisive
        roster_squares = sum(f.size.footprint**2 for f in pos.figures)
        look = (second_reading(view, None, cols, rows, roster_squares) if aligned is None or reference is None
                else second_reading(aligned, reference.view, cols, rows, roster_squares, aligned=True))
        if look is not None:
            scores, no_rim, second_look = look, frozenset(), True
            notes.append(
                _("the first reading saw bases on nearly every square: the squares were read again by what the map's art no longer shows there "
                  "(against {against}); figures without a base marker named on that reading are to confirm").format(
                    against=_("the empty-map reference photo") if reference is not None else _("the photo's own typical square")))
        elif (look := neutral_reading(view, cols, rows, roster_squares, dim_art=saturated_reading(pos, first_reading, seen, nowhere),
                                      classifier=first_reading, rims=rims1)) is not None:
            # the art changed too much for that (shadows, bodies, light on lava): a base is grey or
            # black plastic, the squares whose base core is neutral on colourful art, neutral and
            # lighter than the sky on near-black art (R73), neutral and lighter than the rock on dim art (R108);
            # a base tinted a little, read neutral one threshold looser, where the classifier is sure of it (R124); a base whose figure
            # covers most of its top, partly neutral, sure to the classifier and rimmed, is doubtful (R131)
            scores, no_rim, second_look = look, frozenset(), True
            notes.append(
                _("the first reading saw bases on nearly every square: the squares were read again by colour, a base's grey plastic "
                  "against the map's colourful, dim or near-black art; figures without a base marker named on that reading are to confirm"))
    if second_look and rims_read:
        # the second look reads a square by what the art no longer shows there, or by its colour:
        # a base is still round plastic of known size, and a square read so that shows no base's
        # round rim is as doubtful as on the first reading (.bases.rim_check; reading R159)
        scores, no_rim = rim_check(scores, view, cols, rows, large, rims2, not_art, rims1)
    missing = {f.marker for f in pos.figures if f.marker is not None} - {m.id for m in markers}
    shown_at: list[Sticker] = []  # squares showing a sticker no marker was read in (R102)
    windowed: list[str] = []  # the squares whose window was searched (R282: a bare one names no marked figure as surely)
    if missing:  # read base markers once more where a base stands and no marker was read
        known = {sq for f in seen for sq in space(pos, f)}
        # the squares most likely under a base, at most NEAR_PER_SQUARE for each square the bases
        # with an unread marker cover: the windows cost 0.05 CPU-seconds each and most find nothing
        # (a body hides the marker); a marker is read in one of the first few
        covered = sum(f.size.footprint ** 2 for f in pos.figures if f.marker in missing)
        # a Large base's rim counted for one of its four squares: one base, one window (R134)
        near = marker_windows(scores, square_rims(view, cols, rows, large, rims2, rims1), known, covered, square_rim, large_rim or {})
        found = []
        for k in range(0, len(near), NEAR_CHUNK):  # until every unread marker is read
            chunk, shown = find_markers_and_stickers_near(image, grid.H, [_col_row(sq) for sq in near[k:k + NEAR_CHUNK]])
            windowed += near[k:k + NEAR_CHUNK]
            found += [m for m in chunk if m.id in missing]
            shown_at += shown
            if missing <= {m.id for m in found}:
                break
        # a marked figure whose base no square read as one (its body over the core, the second
        # look's colours): its recorded square is looked at once more -- the record says where to
        # look, never where the figure is: only a marker or a sticker the photo shows there counts
        # (reading R211; diagnosis photo s0574: f7's base on K10 read 0.07 with its sticker showing)
        again = recorded_windows(pos, missing - {m.id for m in found}, set(near) | known)
        if again:
            chunk, shown = find_markers_and_stickers_near(image, grid.H, [_col_row(sq) for sq in again])
            windowed += again
            found += [m for m in chunk if m.id in missing]
            shown_at += shown
        if found:
            markers = merge(markers, found)
            # read again with the markers found: its notes replace the first reading's, not the mode's
            seen, marker_notes = figures_by_marker(pos, markers, grid)
    notes.extend(marker_notes)
    # a base marker half a square off the space it names (a Large base's, seen shifted): the space
    # the photo reads as a base -- not where it reads bases nearly everywhere, which can then tell
    # no base from the floor's art (a speckled lava floor: a marker-read Large figure moved onto art)
    settled_markers: set[str] = set()
    # which way each square's figure body leans on the top-down view: away from the camera (.bases)
    away = away_from_camera(grid.H, image.shape[1], image.shape[0], cols, rows)
    if not saturated_reading(pos, scores, seen, nowhere):
        unsettled = {s.id: s.at for s in seen}
        seen = settle_by_squares(pos, markers, grid, seen, scores, away)
        settled_markers = {s.id for s in seen if s.by == "marker" and unsettled.get(s.id) != s.at}  # listed (R141)
    # the rules model judges what vision sees: dark printed terrain where no figure stands is terrain, not a base
    dark_terrain = sorted((sq for sq in nowhere if scores.get(sq, 0.0) >= OCCUPIED), key=_square_key)
    if dark_terrain:
        notes.append(
            n_(
                "{n} wall, pit or statue square looks dark like a base ({names}{value}): the map says no figure can stand there, so it is read as terrain",
                "{n} wall, pit or statue squares look dark like a base ({names}{value}): the map says no figure can stand there, so they are read as terrain",
                len(dark_terrain),
            ).format(n=len(dark_terrain), names=', '.join(dark_terrain[:6]), value=', ...' if len(dark_terrain) > 6 else '')
        )
    # where the figures stand is the photo's answer; the record only names who is who and counts
    # the roster (.placement)
    lean = lean_per_height(grid.H, image.shape[1], image.shape[0], cols, rows)  # how far a body is seen over the map (R139)
    # each square's base core's colour where least colourful: a base's plastic is grey or black (R123)
    # -- not asked on plain paper, which prints no disc of colour: a coloured core there is a
    # figure's painted body over its base (R132)
    plastic = None if plain_paper(view, cols, rows) else {
        Square(c, r).name: float(v) for (r, c), v in np.ndenumerate(plastic_colourfulness(view, cols, rows).reshape(rows, cols))}
    # a Large base's band of plastic round its body, where its rim is lost on dark art (R324)
    bands = large_bands(view, cols, rows) if large and plastic is not None else None

    def name_figures(seen: list[Seen], markers: list[Marker], settled_markers: set[str]) -> tuple[Placement, set[str]]:
        # the placement with what the marker windows searched so far showed (R102, R115, R178,
        # R282), and the squares showing an unread sticker
        read_at = [to_board(grid, m.corners.mean(axis=0)[None])[0] for m in markers]  # each read marker's middle, board units
        unread_stickers = unread_sticker_squares([(st.square, st.middle) for st in shown_at], read_at,
                                                 {sq for f in seen for sq in space(pos, f)})
        sticker_names = named_stickers(shown_at, unread_stickers, pos, seen)
        bare = bare_windows(windowed, [st.square for st in shown_at], read_at)
        return place(pos, scores, seen, nowhere, no_rim, large_rim, second_look, away, square_rim, unread_stickers,
                     sticker_names, plastic, lean, settled_markers, intact,
                     pattern_named_stickers(shown_at, unread_stickers, pos, seen, sticker_names), bare, bands), unread_stickers

    placed, unread_stickers = name_figures(seen, markers, settled_markers)
    # R294: who is who weighs a window that showed no sticker (R282) only where one was searched: a
    # Medium base the roster named that no window searched says nothing, and a marked figure whose
    # window there was bare was named onto it. Each such base is searched once (at most
    # RECORDED_WINDOWS) and the figures named again; a marker read there names its figure as any
    # read marker does
    again = named_windows(pos, placed.figures, seen, set(windowed) | set(unread_stickers)) if missing else []
    if again:
        chunk, shown = find_markers_and_stickers_near(image, grid.H, [_col_row(sq) for sq in again])
        windowed += again
        shown_at += shown
        new = [m for m in chunk if m.id in missing and m.id not in {k.id for k in markers}]
        if new:
            markers = merge(markers, new)
            for line in marker_notes:  # read again with the markers found: its notes replace the first reading's
                notes.remove(line)
            seen, marker_notes = figures_by_marker(pos, markers, grid)
            notes.extend(marker_notes)
            if not saturated_reading(pos, scores, seen, nowhere):
                unsettled = {s.id: s.at for s in seen}
                seen = settle_by_squares(pos, markers, grid, seen, scores, away)
                settled_markers = {s.id for s in seen if s.by == "marker" and unsettled.get(s.id) != s.at}  # listed (R141)
        placed, unread_stickers = name_figures(seen, markers, settled_markers)
    notes.extend(placed.notes)
    # each figure named without a base marker is said as sure as the namings stated so proved right
    # (R142); the placement ranked and listed the doubts as it stated them
    said = tuple(Seen(s.id, s.at, said_sure(s.confidence), s.by) if s.by == "roster" else s for s in placed.figures)
    return SquaresRead(replace(placed, figures=said, notes=tuple(notes)), tuple(markers))
