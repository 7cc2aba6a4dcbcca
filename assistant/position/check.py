"""The checks of one position file's data (CONTRACT §2): every problem collected, each with the
file, the line and the offending value. Imported by :mod:`.load` only when a file is not in the
cache (it validates with pydantic, whose import costs ~100 ms)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import Annotated, Any

from pydantic import BaseModel, TypeAdapter, ValidationError

from ..cards import CardLibrary, card_label
from ..coords import Corner, Edge, Square, column_name, edge_run_size, parse_corner, parse_edges, parse_square, parse_squares
from ..editions import CONTRACT_SIZES, EDITION_RULES, Edition, Size, SquareTerrain
from ..errors import AmbiguousNameError, NotationError, Problem, UnknownNameError, did_you_mean
from ..i18n import _, term
from ..model import Figure, Map, Position, Stats, card_key
from ..yamlio import LineMap, format_path, problems_from_validation
from .schema import FORMAT, FigureIn, MapIn, PositionIn

_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]*$")
_ID_MAX = 40


class Checker:
    """One pass over one file's data, collecting problems."""

    def __init__(self, name: str, lines: LineMap, library: CardLibrary, in_file: bool = True):
        self.name = name
        self.lines = lines
        self.library = library
        #: the problems point into a file the reader has ("also figures[2]"); False where the reader
        #: typed one figure (`game place`) and the others are the game's, known by their ids
        self.in_file = in_file
        self.problems: list[Problem] = []

    # -- reporting ---------------------------------------------------------------------

    def error(self, path: Sequence[Any], message: str, value: Any = None) -> None:
        self.problems.append(Problem(message, self.name, self.lines.line(path), format_path(path), value))

    def warn(self, path: Sequence[Any], message: str, value: Any = None) -> None:
        self.problems.append(Problem(message, self.name, self.lines.line(path), format_path(path), value, "warning"))

    def validate(self, model: type[BaseModel], data: Any, path: tuple[Any, ...]) -> Any:
        """Validate ``data`` field by field, so one bad field does not hide the others.

        Returns the model built from the fields that are valid (defaults for the optional
        ones that are not), or None when a required field is missing or invalid.
        """
        if not isinstance(data, dict):
            self.error(path, _("expected a mapping of keys ({keys}), got {data!r}").format(keys=', '.join(model.model_fields), data=_short(data)), _short(data))
            return None
        allowed = list(model.model_fields)
        for key in data:
            if key not in model.model_fields:
                self.error(
                    path + (key,),
                    _("unknown key {key!r}{suggestion}; allowed here: {allowed}").format(
                        key=key, suggestion=did_you_mean(str(key), allowed), allowed=', '.join(allowed)
                    ),
                    key,
                )
        values: dict[str, Any] = {}
        complete = True
        for name, info in model.model_fields.items():
            if name not in data:
                if info.is_required():
                    self.error(path, _("missing required key {what!r}").format(what=name))
                    complete = False
                continue
            raw = data[name]
            sub = info.annotation if isinstance(info.annotation, type) and issubclass(info.annotation, BaseModel) else None
            if sub is not None and (raw is None or isinstance(raw, dict)):
                value = self.validate(sub, raw or {}, path + (name,))
                valid = value is not None
            else:
                try:
                    value = _field_adapter(model, name).validate_python(raw)
                    valid = True
                except ValidationError as exc:
                    self.problems += problems_from_validation(exc, self.lines, self.name, info.annotation, prefix=path + (name,))
                    valid = False
            if not valid:
                if info.is_required():
                    complete = False
                continue
            values[name] = value
        if not complete:
            return None
        return model.model_construct(**values)

    # -- the file ----------------------------------------------------------------------

    def check(self, data: Any) -> Position | None:
        if data is None:
            self.error((), _("the file is empty; a position file starts with 'format: {FORMAT}'").format(FORMAT=FORMAT))
            return None
        if not isinstance(data, dict):
            self.error((), _("a position file is a YAML mapping (format, rules, map, figures), not a {kind}").format(kind=type(data).__name__), _short(data))
            return None
        for key in data:
            if key not in PositionIn.model_fields:
                allowed = list(PositionIn.model_fields)
                self.error(
                    (key,),
                    _("unknown key {key!r}{suggestion}; allowed here: {allowed}").format(
                        key=key, suggestion=did_you_mean(str(key), allowed), allowed=', '.join(allowed)
                    ),
                    key,
                )
        edition = self.check_header(data)
        game_map = None
        if "map" not in data:
            self.error((), _("missing required key 'map'"))
        else:
            map_in = self.validate(MapIn, data["map"], ("map",))
            if map_in is not None:
                game_map = self.check_map(map_in, edition)
        figures_raw = data.get("figures", [])
        if figures_raw is None:
            figures_raw = []
        if not isinstance(figures_raw, list):
            self.error(("figures",), _("'figures' must be a list of figures"), _short(figures_raw))
            figures_raw = []
        figures, cards = self.check_figures(figures_raw, game_map, edition)
        sides = list(dict.fromkeys(f.side for f in figures))
        most = edition.board.max_sides if edition is not None else None
        if most is not None and len(sides) > most and edition is not None:
            first = next(i for i, f in enumerate(figures) if f.side == sides[most])
            self.warn(
                ("figures", first, "side"),
                _(
                    "{n} sides ({sides}): the {edition} rules have two ({rule}); give teammates one side. "
                    "Here each figure takes every other side as its enemy, and the turn order of more "
                    "sides is not in the rulebook"
                ).format(n=len(sides), sides=", ".join(sides), edition=edition.value, rule=edition.board.cite(edition.board.sides_rule)),
                sides[most],
            )
        if edition is None or game_map is None or any(p.severity == "error" for p in self.problems):
            return None
        return Position(edition, game_map, tuple(figures), cards)

    def check_header(self, data: dict[Any, Any]) -> Edition | None:
        fmt = data.get("format")
        if "format" not in data:
            self.error((), _("missing required key 'format' (write 'format: {FORMAT}' at the top)").format(FORMAT=FORMAT))
        elif fmt != FORMAT:
            if isinstance(fmt, str) and fmt.startswith("tabletop-position/"):
                self.error(("format",), _("unsupported format version {fmt!r}; this program reads {FORMAT}").format(fmt=fmt, FORMAT=FORMAT), fmt)
            else:
                self.error(("format",), _("{fmt!r} is not a position file format; expected {FORMAT!r}").format(fmt=fmt, FORMAT=FORMAT), fmt)
        rules = data.get("rules")
        if "rules" not in data:
            self.error((), _("missing required key 'rules' (swm2004, swm2008 or ddm2005)"))
            return None
        names = [e.value for e in Edition]
        if isinstance(rules, str) and rules.strip().lower() in names:
            return Edition(rules.strip().lower())
        self.error(
            ("rules",),
            _("unknown rules edition {rules!r}{suggestion}; known: {names}").format(
                rules=rules, suggestion=did_you_mean(str(rules), names), names=', '.join(names)
            ),
            rules,
        )
        return None

    # -- the map -----------------------------------------------------------------------

    def check_map(self, m: MapIn, edition: Edition | None) -> Map | None:
        cols, rows = m.cols, m.rows
        rules = edition.board if edition else None
        bounds = _("the map is {cols} x {rows}: A1 to {last}").format(cols=cols, rows=rows, last=f"{column_name(cols - 1)}{rows}")

        def squares_in(items: list[str], path: tuple[Any, ...]) -> frozenset[Square]:
            out: set[Square] = set()
            for i, text in enumerate(items):
                got = self.parse_on_map(text, path + (i,), cols, rows, bounds)
                out |= got
            return frozenset(out)

        squares: dict[SquareTerrain, frozenset[Square]] = {}
        for kind in SquareTerrain:
            items = getattr(m.squares, kind.value)
            if not items:
                continue
            path: tuple[Any, ...] = ("map", "squares", kind.value)
            if rules is not None and kind not in rules.square_terrain:
                known = ", ".join(k.value for k in rules.square_terrain)
                self.error(
                    path,
                    _("terrain {value!r} has no rules in {edition} ({terrain_rule}); {edition} knows: {known}").format(
                        value=kind.value, edition=edition, terrain_rule=rules.terrain_rule, known=known
                    ),
                    kind.value,
                )
            squares[kind] = squares_in(items, path)
        walls_sq = squares.get(SquareTerrain.WALL, frozenset())
        for kind, sqs in squares.items():
            if kind is not SquareTerrain.WALL and walls_sq & sqs:
                clash = sorted(walls_sq & sqs)[0]
                self.error(
                    ("map", "squares", kind.value),
                    _("{what} is both a wall square and {value}; a wall square is solid").format(what=clash.name, value=term(kind.value)),
                    clash.name,
                )

        walls = self.edges_in(m.edges.wall, ("map", "edges", "wall"), cols, rows, bounds)
        doors = self.edges_in(m.edges.door, ("map", "edges", "door"), cols, rows, bounds)
        if doors and rules is not None and not rules.has_doors:
            self.error(
                ("map", "edges", "door"),
                _("{edition} has no doors (its rulebook knows only walls); draw a wall or leave the edge open").format(edition=edition),
            )
        for e in sorted(walls & doors):
            self.error(("map", "edges", "door"), _("edge {what} is both a wall and a door").format(what=e.name), e.name)
        open_doors = self.edges_in(m.open_doors, ("map", "open_doors"), cols, rows, bounds)
        for i, text in enumerate(m.open_doors):
            try:
                named = set(parse_edges(text))
            except NotationError:
                continue
            for e in sorted(named - doors):
                self.error(
                    ("map", "open_doors", i), _("{what} is listed as an open door but is not a door (add it to map.edges.door)").format(what=e.name), text
                )

        open_corners: set[Corner] = set()
        touching = {pt for e in walls | doors for pt in e.endpoints} | {c for sq in walls_sq for c in sq.corners()}
        for i, text in enumerate(m.open_corners):
            path = ("map", "open_corners", i)
            try:
                pt = parse_corner(text)
            except NotationError as exc:
                self.error(path, str(exc), text)
                continue
            if not (0 <= pt.x <= cols and 0 <= pt.y <= rows):
                self.error(path, _("corner {text!r} is off the map ({bounds})").format(text=text, bounds=bounds), text)
                continue
            if pt not in touching:
                self.warn(path, _("open corner {what} touches no wall or door, so it changes nothing").format(what=pt.name), text)
            open_corners.add(pt)

        areas: dict[str, frozenset[Square]] = {}
        for area, items in m.areas.items():
            path = ("map", "areas", area)
            if not area.strip():
                self.error(path, _("an area needs a name"), area)
                continue
            areas[area] = squares_in(items, path)

        # Even with errors above, the valid parts make a map: figures are still checked against it.
        return Map(
            cols=cols,
            rows=rows,
            name=m.name,
            squares=squares,
            walls=walls,
            doors=doors,
            open_doors=open_doors,
            open_corners=frozenset(open_corners),
            areas=areas,
        )

    def parse_on_map(self, text: str, path: tuple[Any, ...], cols: int, rows: int, bounds: str) -> frozenset[Square]:
        """A square or range, every square of it on the map (checked before expanding)."""
        try:
            if ":" in text:
                a, _colon, b = text.partition(":")
                ends = [parse_square(a), parse_square(b)]
            else:
                ends = [parse_square(text)]
        except NotationError as exc:
            self.error(path, str(exc), text)
            return frozenset()
        off = [s for s in ends if not (s.col < cols and s.row < rows)]
        if off:
            self.error(path, _("{square} is off the map ({bounds})").format(square=off[0].name, bounds=bounds), text)
            return frozenset()
        try:
            return parse_squares(text)
        except NotationError as exc:
            self.error(path, str(exc), text)
            return frozenset()

    def edges_in(self, items: list[str], path: tuple[Any, ...], cols: int, rows: int, bounds: str) -> frozenset[Edge]:
        out: set[Edge] = set()
        for i, text in enumerate(items):
            p = path + (i,)
            try:
                if edge_run_size(text) > 4 * cols * rows + 4:
                    raise NotationError(_("{text!r} names more edges than the map has").format(text=text))
                edges = parse_edges(text)
            except NotationError as exc:
                self.error(p, str(exc), text)
                continue
            off = [e for e in edges if not _edge_on_map(e, cols, rows)]
            if off:
                self.error(p, _("edge {square} is off the map ({bounds})").format(square=off[0].name, bounds=bounds), text)
                continue
            out.update(edges)
        return frozenset(out)

    # -- the figures -------------------------------------------------------------------

    def check_figures(self, raw: list[Any], game_map: Map | None, edition: Edition | None) -> tuple[list[Figure], dict[str, Any]]:
        figures: list[Figure] = []
        cards: dict[str, Any] = {}
        ids: dict[str, int] = {}
        markers: dict[int, str] = {}
        occupied: dict[Square, tuple[str, int]] = {}
        for i, item in enumerate(raw):
            path = ("figures", i)
            if not isinstance(item, dict):
                self.error(path, _("each figure is a mapping with at least id, side and at"), _short(item))
                continue
            f = self.validate(FigureIn, item, path)
            if f is None:
                continue
            ok = True
            fid = f.id.strip()
            if not _ID_RE.match(fid) or len(fid) > _ID_MAX:
                self.error(
                    path + ("id",),
                    _(
                        "figure id {figure!r} must be a short handle: letters, digits, '_', '-' or '.', starting with a letter or digit, at most {most} "
                        "characters"
                    ).format(figure=f.id, most=_ID_MAX),
                    f.id,
                )
                ok = False
            elif fid in ids:
                self.error(path + ("id",), _("duplicate figure id {fid!r} (also figures[{index}])").format(fid=fid, index=ids[fid]) if self.in_file
                           else _("a figure {fid!r} is already on the map: give this one another id").format(fid=fid), fid)
                ok = False
            else:
                ids[fid] = i
            if not f.side.strip():
                self.error(path + ("side",), _("a figure needs a side (figures with the same side are allies)"), f.side)
                ok = False
            try:
                at = parse_square(f.at)
            except NotationError as exc:
                self.error(path + ("at",), str(exc), f.at)
                at, ok = None, False

            card = None
            if f.set is not None and f.card is None:
                self.error(path + ("set",), _("'set' names the set of the figure's card: give 'card' too"), f.set)
                ok = False
            if f.card is not None and edition is not None:
                card = self.figure_card(f, edition, path)
                if card is None:
                    ok = False
                else:
                    cards[card_key(card.name, card.set)] = card

            size = self.check_size(f, card, edition, path)
            if size is None:
                ok = False

            if f.marker is not None:
                if f.marker < 4:
                    self.error(
                        path + ("marker",),
                        _("marker {marker}: ids 0-3 are the map-corner markers of photos; figure bases use 4-49").format(marker=f.marker),
                        f.marker,
                    )
                    ok = False
                elif f.marker in markers:
                    self.error(
                        path + ("marker",), _("marker {marker} is already on figure {other!r}").format(marker=f.marker, other=markers[f.marker]), f.marker
                    )
                    ok = False
                else:
                    markers[f.marker] = fid

            conditions = tuple(c.strip().lower() for c in f.conditions)
            for j, c in enumerate(conditions):
                if not c:
                    self.error(path + ("conditions", j), _("an empty condition"), f.conditions[j])
                    ok = False

            given: dict[str, Any] = {k: (tuple(v) if isinstance(v, list) else v) for k, v in f.stats.model_dump().items()}
            stats = Stats(**given)
            if at is None or size is None:
                continue
            fig = Figure(
                id=fid,
                side=f.side.strip(),
                at=at,
                size=size,
                card=card.name if card else None,
                card_set=card.set if card else None,
                damage_taken=f.damage_taken,
                activated=f.activated,
                stats=stats,
                marker=f.marker,
                conditions=conditions,
            )
            hp = (card.base_stats() if card else Stats()).overlay(stats).hp
            # Only damage defeats: a card printing 0 Hit Points (a Light Spirit, a Hologram, Han Solo
            # in Carbonite) has none to lose and is placed like any figure; the rules for what may
            # target it are its abilities' (PL p.47, p.49, p.51).
            if hp is not None and f.damage_taken > 0 and f.damage_taken >= hp and edition is not None:
                self.error(
                    path + ("damage_taken",),
                    _("{fid} has taken {damage_taken} damage with {hp} hit points: a defeated figure is removed from the map ({rule})").format(
                        fid=fid, damage_taken=f.damage_taken, hp=hp, rule=edition.board.cite(edition.board.defeat_rule)
                    ),
                    f.damage_taken,
                )
            if game_map is not None and self.check_placement(fig, game_map, edition, path):
                for sq in sorted(fig.space):
                    if sq in occupied:
                        other_id, other_i = occupied[sq]
                        self.error(
                            path + ("at",),
                            _("{fid} overlaps {other_id} (figures[{other_i}]) on {what}; one figure per square").format(
                                fid=fid, other_id=other_id, other_i=other_i, what=sq.name
                            ) if self.in_file
                            else _("{fid} overlaps {other_id} on {what}; one figure per square").format(fid=fid, other_id=other_id, what=sq.name),
                            f.at,
                        )
                        break
                for sq in fig.space:
                    occupied.setdefault(sq, (fid, i))
            if ok:
                figures.append(fig)
        return figures, cards

    def figure_card(self, f: FigureIn, edition: Edition, path: tuple[Any, ...]) -> Any:
        """The card a figure names: its exact name (in its ``set``, when given), else a unique part
        of the name. Several sets printing it with different values are an error listing each;
        printings with the same values are one card to the rules (the first set serves, and a
        warning says which). None (with the problem reported) when there is no such card."""
        assert f.card is not None
        game = edition.game
        try:
            card = self.library.resolve(game, f.card, f.set)
        except AmbiguousNameError as exc:
            found = self.library.candidates(game, f.card, f.set)
            if len({c.set.lower() for c in found}) == len(found):
                text = _("figure {fid!r}: card {card!r} is ambiguous: it matches {choices}; add 'set:' (or the whole name) to choose")
            else:  # one set prints two of them (the importer's "Imperial Knight (#20)", "(#21)"): 'set:' cannot choose
                text = _("figure {fid!r}: card {card!r} is ambiguous: it matches {choices}; one set prints more than one of them, "
                         "so write the whole name to choose: {names}")
            self.error(
                path + ("card",),
                text.format(fid=f.id, card=f.card, choices="; ".join(exc.matches), names=", ".join(repr(c.name) for c in found)),
                f.card,
            )
            return None
        except UnknownNameError:
            # another family's card? (every family the editions' records name, but this one)
            other = next(
                (g for g in sorted({r.family for r in EDITION_RULES.values()} - {game}) if self.library.candidates(g, f.card, f.set, partial=False)), None
            )
            if other is not None:
                self.error(
                    path + ("card",),
                    _("{card!r} is a {game} card; this position plays {edition}").format(card=f.card, game=other.upper(), edition=edition),
                    f.card,
                )
            elif f.set is not None and self.library.candidates(game, f.card):
                sets = sorted({c.set for c in self.library.candidates(game, f.card)})
                self.error(
                    path + ("set",),
                    _("no card {card!r} in the set {set!r}; it is in: {sets}").format(card=f.card, set=f.set, sets="; ".join(sets)),
                    f.set,
                )
            else:
                self.error(
                    path + ("card",),
                    _("unknown card {card!r}{suggestion}").format(card=f.card, suggestion=did_you_mean(f.card, self.library.names(game))),
                    f.card,
                )
            return None
        others = [c for c in self.library.candidates(game, f.card, f.set) if c is not card]
        if others:
            self.warn(
                path + ("card",),
                _("card {card!r} is printed in several sets with the same values; using {used} (source: {source}); also in: {others}").format(
                    card=f.card, used=card_label(card), source=card.source, others="; ".join(c.set for c in others)
                ),
                f.card,
            )
        return card

    def check_size(self, f: FigureIn, card: Any, edition: Edition | None, path: tuple[Any, ...]) -> Size | None:
        if f.size is None:
            if card is not None and card.size is not None:
                size: Size = card.size  # every card record's size is a Size
                return size
            return Size.MEDIUM
        text = f.size.strip().lower()
        names = [s.value for s in Size]
        if text not in names:
            self.error(
                path + ("size",),
                _("unknown size {size!r}{suggestion}; sizes: {sizes}").format(
                    size=f.size, suggestion=did_you_mean(text, names), sizes=', '.join(s.value for s in CONTRACT_SIZES)
                ),
                f.size,
            )
            return None
        size = Size(text)
        if edition is None:
            return size
        rules = edition.board
        if size not in rules.sizes:
            if size in CONTRACT_SIZES:
                self.warn(
                    path + ("size",),
                    _("{edition} defines only {sizes} ({sizes_rule}); a {value} figure takes the contract's {footprint}x{footprint} space").format(
                        edition=edition, sizes=', '.join(s.value for s in rules.sizes), sizes_rule=rules.sizes_rule, value=size.value, footprint=size.footprint
                    ),
                    f.size,
                )
            else:
                self.error(
                    path + ("size",),
                    _("size {value!r} does not exist in {edition} ({sizes_rule})").format(value=size.value, edition=edition, sizes_rule=rules.sizes_rule),
                    f.size,
                )
                return None
        if card is not None and card.size is not None and card.size is not size:
            self.warn(
                path + ("size",),
                _("the card {what!r} says {value}; this file says {value2}").format(what=card.name, value=card.size.value, value2=size.value),
                f.size,
            )
        return size

    def check_placement(self, fig: Figure, game_map: Map, edition: Edition | None, path: tuple[Any, ...]) -> bool:
        """Off the map, in solid terrain, or astride a wall: each is an error. True when it stands legally."""
        n = fig.size.footprint
        at_path = path + ("at",)
        off = [sq for sq in fig.space if not game_map.on_map(sq)]
        if off:
            bounds = _("the map is {cols} x {rows}: A1 to {last}").format(
                cols=game_map.cols, rows=game_map.rows, last=f"{column_name(game_map.cols - 1)}{game_map.rows}"
            )
            if n == 1:
                self.error(at_path, _("{figure} at {what} is off the map ({bounds})").format(figure=fig.id, what=fig.at.name, bounds=bounds), fig.at.name)
            else:
                self.error(
                    at_path,
                    _("{figure} is {value} ({n}x{n}): at {what} it needs {space}, which runs off the map ({bounds})").format(
                        figure=fig.id, value=fig.size.value, n=n, what=fig.at.name, space=fig.space_name(), bounds=bounds
                    ),
                    fig.at.name,
                )
            return False
        ok = True
        if edition is not None:
            no_standing, why = edition.board.no_standing, edition.board.cite(edition.board.no_standing_rule)
        else:  # unknown edition: what every edition forbids
            no_standing, why = (SquareTerrain.WALL, SquareTerrain.PIT), "in every edition"
        for sq in sorted(fig.space):
            bad = [k for k in no_standing if k in game_map.terrain(sq)]
            if bad:
                self.error(
                    at_path,
                    _("{figure} stands on {what}, a {terrain} square; no figure may stand there ({why})").format(
                        figure=fig.id, what=sq.name, terrain=term(bad[0].value), why=why
                    ),
                    fig.at.name,
                )
                ok = False
                break
        blocking = game_map.blocking_edges()
        inner = {e for sq in fig.space for e in sq.edges() if all(s in fig.space for s in e.squares)}
        astride = sorted(inner & blocking)
        if astride:
            e = astride[0]
            what = _("closed door") if e in game_map.doors else _("wall")
            self.error(
                at_path,
                _("{figure} ({space}) stands astride the {what} on {what2}; a figure's space cannot contain a {what}").format(
                    figure=fig.id, space=fig.space_name(), what=what, what2=e.name
                ),
                fig.at.name,
            )
            ok = False
        return ok


def _edge_on_map(e: Edge, cols: int, rows: int) -> bool:
    if e.axis == "V":
        return 0 <= e.x <= cols and 0 <= e.y < rows
    return 0 <= e.x < cols and 0 <= e.y <= rows


def _short(value: Any, limit: int = 60) -> Any:
    text = repr(value)
    return value if len(text) <= limit else text[: limit - 3] + "..."


@cache
def _field_adapter(model: type[BaseModel], name: str) -> TypeAdapter[Any]:
    info = model.model_fields[name]
    annotation: Any = info.annotation
    if info.metadata:  # the field's constraints (lengths, bounds) travel with its type
        annotation = Annotated.__class_getitem__((annotation, *info.metadata))  # type: ignore[attr-defined]
    return TypeAdapter(annotation)
