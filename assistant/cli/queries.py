"""``los``, ``cover``, ``range``, ``nearest``, ``matrix``, ``targets``, ``attack``: the table's
geometry questions (CONTRACT §3), thin over the command layer (:mod:`assistant.commands.queries`).

Each is the same body, written once in :func:`_ask`: the verb loads the position and answers;
here the answer is drawn (``--png``, ``--svg``) and printed.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from ..commands.result import Result
from ..i18n import _
from ..model import Position
from ..yamlio import check_output_path
from .common import PngOpt, PositionOpt, QueryGameOpt, SvgOpt, run
from .output import JsonOpt, err

GameOpt = QueryGameOpt
MovedOpt = Annotated[bool | None, typer.Option("--moved/--not-moved", help="Whether the attacker moved this turn (default: from the game's log, else not).")]
StatOpt = Annotated[
    list[str] | None,
    typer.Option("--stat", help="A number for this question only, over the card (repeatable): ID.STAT=N, e.g. obi.attack=14.", metavar="ID.STAT=N"),
]

#: the picture of an answer: (position, the verb's answer) -> overlay
Picture = Callable[[Position, Any], Any]


def _sight_picture(pos: Position, ans: Any) -> Any:
    from ..overlay import sight_overlay  # start-up time: only a picture needs the overlays

    return sight_overlay(pos, ans)


def _cover_picture(pos: Position, ans: Any) -> Any:
    from ..overlay import cover_overlay  # start-up time: only a picture needs the overlays

    cover, sight = ans
    return cover_overlay(pos, cover, sight)


def _targets_picture(attacker: str) -> Picture:
    def picture(pos: Position, rows: Any) -> Any:
        from ..overlay import targets_overlay  # start-up time: only a picture needs the overlays

        return targets_overlay(pos, attacker, rows)

    return picture


def _ask(ctx: typer.Context, name: str, json_out: bool, png: Path | None = None, svg: Path | None = None,
         picture: Picture | None = None, **args: Any) -> Result:
    """Load → answer → picture → print, for every question."""
    result = run(ctx, name, json_out, **args) if picture is None or (png is None and svg is None) else \
        _drawn(ctx, name, json_out, png, svg, picture, args)
    if png is not None and not json_out and name in ("los", "targets"):
        err.print(_("drew {png}").format(png=escape(str(png))))
    return result


def _drawn(ctx: typer.Context, name: str, json_out: bool, png: Path | None, svg: Path | None, picture: Picture,
           args: dict[str, Any]) -> Result:
    """The answer drawn before it is printed (a picture that cannot be written fails the command)."""
    from .common import find, session, show  # start-up time: the command layer's session only for a drawn answer (the fast path answers the rest)
    from .output import edge  # start-up time: with the session above, only for a drawn answer

    v = find(name)
    with edge(json_out, v.query):
        for path in (png, svg):  # both refused before either picture is written or the answer printed
            if path is not None:
                check_output_path(path)
        result = v(session(ctx), **args)
        overlay = picture(result.position, result.answer)
        if png is not None:
            from .picture import draw, save_png  # start-up time: OpenCV only for a PNG

            save_png(draw(result.position, overlay), str(png))
        if svg is not None:
            from ..svg import board_svg, write_svg  # start-up time: the SVG writer only for --svg

            write_svg(svg, board_svg(result.position, picture(result.position, result.answer)))
        show(name, result, json_out)
    return result


def los(
    ctx: typer.Context,
    viewer: Annotated[str, typer.Argument(help="The figure that looks (its id).", show_default=False)],
    target: Annotated[str, typer.Argument(help="The figure looked at.", show_default=False)],
    position: PositionOpt = None,
    game: GameOpt = None,
    json_out: JsonOpt = False,
    png: PngOpt = None,
    svg: SvgOpt = None,
) -> None:
    """Line of sight from one figure to another, with a witness line anyone can re-check."""
    _ask(ctx, "los", json_out, png, svg, _sight_picture, viewer=viewer, target=target, position=position, game=game)


def cover(
    ctx: typer.Context,
    attacker: Annotated[str, typer.Argument(help="The attacking figure.", show_default=False)],
    target: Annotated[str, typer.Argument(help="The target figure.", show_default=False)],
    position: PositionOpt = None,
    game: GameOpt = None,
    json_out: JsonOpt = False,
    png: PngOpt = None,
    svg: SvgOpt = None,
) -> None:
    """Whether the target has cover, from the attacker's best corner, and what gives it."""
    _ask(ctx, "cover", json_out, png, svg, _cover_picture, attacker=attacker, target=target, position=position, game=game)


def range_(
    ctx: typer.Context,
    a: Annotated[str, typer.Argument(help="One figure.", show_default=False)],
    b: Annotated[str, typer.Argument(help="The other figure.", show_default=False)],
    position: PositionOpt = None,
    game: GameOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Range in squares, counted the way the edition counts "within N squares"."""
    _ask(ctx, "range", json_out, a=a, b=b, position=position, game=game)


def nearest(
    ctx: typer.Context,
    figure: Annotated[str, typer.Argument(help="The figure whose nearest enemies to find.", show_default=False)],
    position: PositionOpt = None,
    game: GameOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """The nearest enemies in line of sight (all of them when tied)."""
    _ask(ctx, "nearest", json_out, figure=figure, position=position, game=game)


def matrix(
    ctx: typer.Context,
    position: PositionOpt = None,
    game: GameOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Who sees whom: line of sight, cover and range for every ordered pair of figures."""
    _ask(ctx, "matrix", json_out, position=position, game=game)


def attack(
    ctx: typer.Context,
    attacker: Annotated[str, typer.Argument(help="The attacking figure.", show_default=False)],
    target: Annotated[str, typer.Argument(help="The target figure.", show_default=False)],
    position: PositionOpt = None,
    game: GameOpt = None,
    moved: MovedOpt = None,
    combined_fire: Annotated[str | None, typer.Option("--combined-fire", help="SWM: allies joining, ID[,ID...].", metavar="IDS")] = None,
    charge: Annotated[bool, typer.Option("--charge", help="DDM: the attacker charges.")] = False,
    ranged: Annotated[bool, typer.Option("--ranged", help="DDM: use the ranged attack line.")] = False,
    melee: Annotated[bool, typer.Option("--melee", help="DDM: use the melee attack line.")] = False,
    opportunity: Annotated[
        bool, typer.Option("--opportunity", help="An attack of opportunity (SWM: one attack, no combined fire; DDM: a melee attack).")
    ] = False,
    power: Annotated[
        str | None,
        typer.Option(
            "--power",
            help="A power that hurts instead: SWM Force powers and special attacks (Force Lightning, Sith Grip, Grenades, ...); DDM spells and Breath Weapon "
            "written as the card prints them.",
            metavar="NAME",
        ),
    ] = None,
    stat: StatOpt = None,
    spend_force: Annotated[
        str | None,
        typer.Option("--spend-force", help="SWM: a Force power the attacker spends its Force point on before the roll (Sith Rage, Lightsaber Precision).",
                     metavar="POWER"),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """What the attack needs to roll: legality, every modifier with its rule, odds, damage."""
    _ask(
        ctx,
        "attack",
        json_out,
        attacker=attacker,
        target=target,
        position=position,
        game=game,
        moved=moved,
        combined_fire=combined_fire,
        charge=charge,
        ranged=ranged,
        melee=melee,
        opportunity=opportunity,
        power=power,
        stat=stat,
        spend_force=spend_force,
    )


def targets(
    ctx: typer.Context,
    attacker: Annotated[str, typer.Argument(help="The attacking figure.", show_default=False)],
    position: PositionOpt = None,
    game: GameOpt = None,
    moved: MovedOpt = None,
    stat: StatOpt = None,
    json_out: JsonOpt = False,
    png: PngOpt = None,
    svg: SvgOpt = None,
) -> None:
    """Who can I attack? Every enemy: legal or why not, what to roll, the chance."""
    _ask(ctx, "targets", json_out, png, svg, _targets_picture(attacker), attacker=attacker, position=position, game=game, moved=moved,
         stat=stat)
