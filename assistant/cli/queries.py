"""``los``, ``cover``, ``range``, ``matrix``, ``nearest``: the table's geometry questions (CONTRACT §3)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from ..coords import count_squares
from ..i18n import N_, _, source_names
from ..rules import engine
from ..rules.engine import Reason
from ..rules.record import find_edition

#: texts shown inside formatted lines (marked here for the catalogs)
T_NOT_MODELLED_HERE_CHECK_BY_HAND = N_("not modelled here, check by hand:")
T_LINE_OF_SIGHT = N_("line of sight")
T_NO_LINE_OF_SIGHT = N_("no line of sight")
T_WITNESS = N_("witness")
T_COVER = N_("cover")
T_NO_COVER = N_("no cover")
T_BEST_CORNER = N_("best corner")
T_SOURCES = N_("sources")
T_LEGAL = N_("legal")
T_NOT_A_LEGAL_TARGET = N_("not a legal target")
T_HELPER_REFUSED = N_("helper refused:")

#: the kinds of attack and the stats a modifier changes, as the answers name them (the JSON keeps these keys)
ATTACK_KINDS = {"ranged": N_("ranged"), "melee": N_("melee"), "nonmelee": N_("nonmelee")}
STATS = {"attack": N_("attack"), "defense": N_("defense"), "damage": N_("damage"), "AC": N_("AC")}

PositionOpt = Annotated[
    str | None,
    typer.Option("--position", "-p", help="The position file (or a bundled example's name). Default: the current game.", show_default=False),
]
GameOpt = Annotated[Path | None, typer.Option("--game", help="Answer from this game file (default: the current game).", metavar="PATH")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print exactly one JSON object on stdout.")]
PngOpt = Annotated[Path | None, typer.Option("--png", help="Also draw the answer to this PNG file.", metavar="FILE")]
SvgOpt = Annotated[Path | None, typer.Option("--svg", help="Also draw the answer to this SVG file (the web app's picture).", metavar="FILE")]


def _save_svg(pos, overlay, path: Path | None) -> None:  # type: ignore[no-untyped-def]
    if path is None:
        return
    from ..svg import board_svg, write_svg

    write_svg(path, board_svg(pos, overlay))


def _load(ctx: typer.Context, position: str | None, game: Path | None = None):
    """The position asked about: a file, or the current state of a game."""
    return _load_with_state(ctx, position, game)[0]


def _load_with_state(ctx: typer.Context, position: str | None, game: Path | None = None):
    """(position, game state or None). Without --position the game's log supplies the state:
    positions, damage, who has activated this round and who moved this turn."""
    from ..position import load_position
    from .app import library, resolve_position

    if position is not None and game is not None:
        from ..errors import AssistantError

        raise AssistantError(_("give --position or --game, not both"))
    from ..limits import check_query

    if position is not None:
        pos = load_position(resolve_position(position), library(ctx))
        check_query(pos)
        return pos, None
    from .game_cmd import open_game

    g = open_game(ctx, game, readonly=True)
    try:
        st = g.state()
    finally:
        g.close()
    check_query(st.position)
    return st.position, st


def _print_reasons(reasons: tuple[Reason, ...]) -> None:
    from .app import out

    for r in reasons:
        out.print(f"  • {escape(r.text)}  [dim]({escape(r.rule)})[/]")


def _print_not_modelled(items: tuple[str, ...]) -> None:
    from .app import out

    if items:
        out.print(f"  [yellow]{escape(_(T_NOT_MODELLED_HERE_CHECK_BY_HAND))}[/] {escape(', '.join(items))}")


def print_sight(ans: engine.SightAnswer) -> None:
    from .app import out

    verdict = f"[bold green]{_(T_LINE_OF_SIGHT)}[/]" if ans.line_of_sight else f"[bold red]{_(T_NO_LINE_OF_SIGHT)}[/]"
    out.print(f"{ans.viewer} → {ans.target}: {verdict}  ({ans.rules.value})")
    if ans.witness:
        p, q = ans.witness
        out.print(f"  {_(T_WITNESS)}: {engine.point_name(p)} → {engine.point_name(q)}: {engine.fmt_point(p)} → {engine.fmt_point(q)}")
    _print_reasons(ans.reasons)
    _print_not_modelled(ans.not_modelled)


def print_cover(ans: engine.CoverAnswer) -> None:
    from .app import out

    if ans.cover is None:
        verdict = f"[bold red]{_(T_NO_LINE_OF_SIGHT)}[/]"
    elif ans.cover:
        verdict = f"[bold yellow]{_(T_COVER)}[/] (+{ans.bonus})"
    else:
        verdict = f"[bold green]{_(T_NO_COVER)}[/]"
    out.print(f"{ans.attacker} → {ans.target}: {verdict}  ({ans.rules.value}, {_(ATTACK_KINDS.get(ans.kind, ans.kind))})")
    if ans.best_corner is not None:
        out.print(f"  {_(T_BEST_CORNER)}: {engine.fmt_point(ans.best_corner)}")
    if ans.sources:
        out.print(f"  {_(T_SOURCES)}: " + escape(source_names(ans.sources)))
    _print_reasons(ans.reasons)
    _print_not_modelled(ans.not_modelled)


def print_range(ans: engine.RangeAnswer) -> None:
    from .app import out

    n = _("unreachable") if ans.squares is None else count_squares(ans.squares)
    out.print(f"{ans.a} ↔ {ans.b}: [bold]{n}[/]  ({ans.rules.value})")
    _print_reasons(ans.reasons)


def register(app: typer.Typer) -> None:
    from .app import edge, emit_json, err, out

    @app.command()
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
        with edge(json_out, "los"):
            pos = _load(ctx, position, game)
            ans = engine.sight(pos, viewer, target)
            if png is not None or svg is not None:
                from ..overlay import sight_overlay

                if png is not None:
                    from .picture import draw, save_png

                    save_png(draw(pos, sight_overlay(pos, ans)), str(png))
                _save_svg(pos, sight_overlay(pos, ans), svg)
            if json_out:
                emit_json(ans.as_json())
                return
            print_sight(ans)
            if png is not None:
                err.print(_("drew {png}").format(png=escape(str(png))))

    @app.command()
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
        with edge(json_out, "cover"):
            pos = _load(ctx, position, game)
            s = engine.sight(pos, attacker, target)
            ans = engine.cover(pos, attacker, target, s)
            if png is not None or svg is not None:
                from ..overlay import cover_overlay

                if png is not None:
                    from .picture import draw, save_png

                    save_png(draw(pos, cover_overlay(pos, ans, s)), str(png))
                _save_svg(pos, cover_overlay(pos, ans, s), svg)
            if json_out:
                emit_json(ans.as_json())
                return
            print_cover(ans)

    @app.command("range")
    def range_(
        ctx: typer.Context,
        a: Annotated[str, typer.Argument(help="One figure.", show_default=False)],
        b: Annotated[str, typer.Argument(help="The other figure.", show_default=False)],
        position: PositionOpt = None,
        game: GameOpt = None,
        json_out: JsonOpt = False,
    ) -> None:
        """Range in squares, counted the way the edition counts "within N squares"."""
        with edge(json_out, "range"):
            pos = _load(ctx, position, game)
            ans = engine.range_between(pos, a, b)
            if json_out:
                emit_json(ans.as_json())
                return
            print_range(ans)

    @app.command()
    def nearest(
        ctx: typer.Context,
        figure: Annotated[str, typer.Argument(help="The figure whose nearest enemies to find.", show_default=False)],
        position: PositionOpt = None,
        game: GameOpt = None,
        json_out: JsonOpt = False,
    ) -> None:
        """The nearest enemies in line of sight (all of them when tied)."""
        with edge(json_out, "nearest"):
            pos = _load(ctx, position, game)
            d, ids = engine.nearest_enemies(pos, figure)
            rule = engine.Board.of(pos).rules.nearest_rule
            if json_out:
                emit_json({"query": "nearest", "rules": pos.edition.value, "figure": figure, "squares": d, "enemies": ids,
                           "reasons": [{"text": _("closest enemies in line of sight, ties all count"), "rule": rule}]})
                return
            if not ids:
                text = _("{figure}: no enemy in line of sight").format(figure=figure)
            else:
                text = _("{figure}: nearest enemies {ids} at {squares}").format(figure=figure, ids=", ".join(ids), squares=count_squares(d))
            out.print(f"{escape(text)}  [dim]({escape(rule)})[/]")

    @app.command()
    def matrix(
        ctx: typer.Context,
        position: PositionOpt = None,
        game: GameOpt = None,
        json_out: JsonOpt = False,
    ) -> None:
        """Who sees whom: line of sight, cover and range for every ordered pair of figures."""
        with edge(json_out, "matrix"):
            from ..limits import check_matrix

            pos = _load(ctx, position, game)
            check_matrix(pos)
            rows = engine.matrix(pos)
            if json_out:
                emit_json({"query": "matrix", "rules": pos.edition.value, "pairs": rows})
                return
            from rich.table import Table

            table = Table(header_style="bold", box=None, pad_edge=False)
            for col in (N_("from"), N_("to"), N_("sight"), N_("cover"), N_("range"), N_("witness")):
                table.add_column(_(col))
            yes, no, covered, uncovered = _("yes"), _("no"), _("cover"), _("no cover")
            for r in rows:
                sight = f"[green]{yes}[/]" if r["line_of_sight"] else f"[red]{no}[/]"
                cov = "-" if r["cover"] is None else (f"[yellow]{covered}[/]" if r["cover"] else uncovered)
                w = "" if r["witness"] is None else f"{engine.fmt_point(r['witness'][0])} → {engine.fmt_point(r['witness'][1])}"
                table.add_row(r["from"], r["to"], sight, cov, "-" if r["range"] is None else str(r["range"]), w)
            out.print(table)
            out.print(f"[dim]{pos.edition.value}: {escape(engine.Board.of(pos).rules.sight_rule)}; {escape(engine.Board.of(pos).rules.cover_rule)}[/]")


def print_attack(ans) -> None:
    from .app import out

    verdict = f"[bold green]{_(T_LEGAL)}[/]" if ans.legal else f"[bold red]{_(T_NOT_A_LEGAL_TARGET)}[/]"
    out.print(_("{a} attacks {t}").format(a=ans.attacker, t=ans.target) + f": {verdict}  ({ans.rules.value}, {_(ATTACK_KINDS.get(ans.kind, ans.kind))})")
    for r in ans.illegal_reasons:
        out.print(f"  [red]✗[/] {escape(r.text)}  [dim]({escape(r.rule)})[/]")
    chance = f"{ans.p_hit * 100:.0f}%"
    out.print("  " + escape(_("roll {needs}+ on the d20 ({chance}): attack {bonus} against {stat} {defense}; critical on {crit}").format(
        needs=ans.needs, chance=chance, bonus=f"{ans.attack_bonus:+d}", stat=_(find_edition(ans.rules).words.defense),
        defense=ans.defense, crit=", ".join(map(str, ans.critical_on)))))
    out.print("  " + escape(_("damage {damage} ({critical} on a critical); expected {expected} per attack").format(
        damage=ans.damage, critical=ans.critical_damage, expected=f"{ans.expected_damage:g}")))
    if ans.p_defeat:
        out.print("  " + escape(_("defeats {t} ({left} Hit Points left): {chance}").format(
            t=ans.target, left=ans.target_hp_left, chance=f"{ans.p_defeat * 100:.1f}%".replace(".0%", "%"))))
    for step in getattr(ans, "after_hit", ()):
        out.print("  " + escape(_("after a hit: {what} ({chance})").format(what=step.text, chance=f"{float(step.p_success()) * 100:.0f}%"))
                  + f"  [dim]({escape(step.rule)})[/]")
    if ans.force_reroll is not None:
        r = ans.force_reroll
        text = (_("with a Force reroll after a miss (1 Force point, +{bonus} on the reroll): {needs}+ again, {chance} in all; expected {expected}")
                if r.bonus else _("with a Force reroll after a miss (1 Force point): {needs}+ again, {chance} in all; expected {expected}"))
        out.print("  " + escape(text.format(bonus=r.bonus, needs=r.needs, chance=f"{r.p_hit * 100:.0f}%", expected=f"{r.expected_damage:g}"))
                  + f"  [dim]({escape(r.rule)})[/]")
    for m in ans.modifiers:
        out.print(f"  {m.value:+d} {escape(_(STATS.get(m.applies_to, m.applies_to)))}: {escape(m.label or m.source)}  [dim]({escape(m.rule)})[/]")
    if len(ans.attacks) > 1:
        for a in ans.attacks[1:]:
            out.print("  " + escape(_("attack {n}: roll {needs}+ for {damage}").format(n=a.number, needs=a.needs, damage=a.damage))
                      + f"  [dim]({escape(a.condition)})[/]")
    for r in ans.refused_helpers:
        out.print(f"  [yellow]{escape(_(T_HELPER_REFUSED))}[/] {escape(r.text)}  [dim]({escape(r.rule)})[/]")
    for r in ans.notes:
        out.print(f"  • {escape(r.text)}  [dim]({escape(r.rule)})[/]")
    _print_not_modelled(ans.not_modelled)


def print_power(ans: Any) -> None:
    from .app import out

    verdict = f"[bold green]{_(T_LEGAL)}[/]" if ans.legal else f"[bold red]{_(T_NOT_A_LEGAL_TARGET)}[/]"
    out.print(_("{a} uses {power} on {t}").format(a=ans.user, power=ans.power, t=ans.target) + f": {verdict}  ({ans.rules.value})")
    for r in ans.illegal_reasons:
        out.print(f"  [red]✗[/] {escape(r.text)}  [dim]({escape(r.rule)})[/]")
    left = "" if ans.force_left is None or ans.force_left < 0 else _(", {left} left").format(left=ans.force_left)
    out.print("  " + escape(_("costs {cost} Force points{left}; {roll}").format(
        cost=ans.cost, left=left, roll=_("an attack roll") if ans.roll == "attack" else _("no attack roll"))) + f"  [dim]({escape(ans.rule)})[/]")
    for s in ans.struck:
        out.print("  " + escape(_("{figure}: {damage} damage, {expected} expected").format(figure=s.figure, damage=s.damage, expected=f"{s.expected:g}")))
        for step in s.steps:
            out.print("    " + escape(step.text) + f"  [dim]({escape(step.rule)})[/]")
    for r in ans.notes:
        out.print(f"  • {escape(r.text)}  [dim]({escape(r.rule)})[/]")


def register_attack(app: typer.Typer) -> None:
    from .app import edge, emit_json, err, out

    @app.command("attack")
    def attack_cmd(
        ctx: typer.Context,
        attacker: Annotated[str, typer.Argument(help="The attacking figure.", show_default=False)],
        target: Annotated[str, typer.Argument(help="The target figure.", show_default=False)],
        position: PositionOpt = None,
        game: GameOpt = None,
        moved: Annotated[bool | None, typer.Option("--moved/--not-moved", help="Whether the attacker moved this turn (default: from the game's log, else not).")] = None,
        combined_fire: Annotated[
            str | None, typer.Option("--combined-fire", help="SWM: allies joining, ID[,ID...].", metavar="IDS")
        ] = None,
        charge: Annotated[bool, typer.Option("--charge", help="DDM: the attacker charges.")] = False,
        ranged: Annotated[bool, typer.Option("--ranged", help="DDM: use the ranged attack line.")] = False,
        melee: Annotated[bool, typer.Option("--melee", help="DDM: use the melee attack line.")] = False,
        opportunity: Annotated[bool, typer.Option("--opportunity", help="An attack of opportunity (SWM: one attack, no combined fire; DDM: a melee attack).")] = False,
        power: Annotated[str | None, typer.Option("--power", help="A power that hurts instead: SWM Force powers and special attacks (Force Lightning, Sith Grip, Grenades, ...); DDM spells and Breath Weapon written as the card prints them.", metavar="NAME")] = None,
        json_out: JsonOpt = False,
    ) -> None:
        """What the attack needs to roll: legality, every modifier with its rule, odds, damage."""
        from ..errors import AssistantError
        from ..rules.attack import attack

        with edge(json_out, "attack"):
            if ranged and melee:
                raise AssistantError(_("choose --ranged or --melee, not both"))
            pos, st = _load_with_state(ctx, position, game)
            if moved is None:
                moved = bool(st and st.moved.get(attacker, 0) > 0)
            if power is not None:
                from ..rules.powers import use_power

                answer = use_power(pos, attacker, target, power)
                if json_out:
                    emit_json(answer.as_json())
                else:
                    print_power(answer)
                return
            helpers = tuple(h.strip() for h in (combined_fire or "").split(",") if h.strip())
            kind = "ranged" if ranged else "melee" if melee else None
            ans = attack(pos, attacker, target, moved=moved, combined_fire=helpers, charge=charge, kind=kind, opportunity=opportunity)
            if json_out:
                emit_json(ans.as_json())
                return
            print_attack(ans)

    @app.command("targets")
    def targets_cmd(
        ctx: typer.Context,
        attacker: Annotated[str, typer.Argument(help="The attacking figure.", show_default=False)],
        position: PositionOpt = None,
        game: GameOpt = None,
        moved: Annotated[bool | None, typer.Option("--moved/--not-moved", help="Whether the attacker moved this turn (default: from the game's log, else not).")] = None,
        json_out: JsonOpt = False,
        png: PngOpt = None,
        svg: SvgOpt = None,
    ) -> None:
        """Who can I attack? Every enemy: legal or why not, what to roll, the chance."""
        from ..rules.attack import targets

        with edge(json_out, "targets"):
            pos, st = _load_with_state(ctx, position, game)
            if moved is None:
                moved = bool(st and st.moved.get(attacker, 0) > 0)
            rows = targets(pos, attacker, moved=moved)
            if png is not None or svg is not None:
                from ..overlay import targets_overlay

                if png is not None:
                    from .picture import draw, save_png

                    save_png(draw(pos, targets_overlay(pos, attacker, rows)), str(png))
                _save_svg(pos, targets_overlay(pos, attacker, rows), svg)
            if json_out:
                emit_json({"query": "targets", "rules": pos.edition.value, "attacker": attacker, "targets": rows})
                return
            from rich.table import Table

            table = Table(header_style="bold", box=None, pad_edge=False)
            for col in (N_("target"), N_("legal"), N_("roll"), N_("chance"), N_("expected"), N_("why")):
                table.add_column(_(col))
            yes, no = _("yes"), _("no")
            for r in rows:
                if r["legal"] is None:
                    table.add_row(r["target"], "?", "-", "-", "-", escape(r["error"]))
                    continue
                why = "; ".join(x["text"] for x in r["illegal_reasons"]) or "-"
                table.add_row(r["target"], f"[green]{yes}[/]" if r["legal"] else f"[red]{no}[/]", f"{r['needs']}+",
                              f"{r['p_hit'] * 100:.0f}%", f"{r['expected_damage']:g}", escape(why))
            out.print(table)
            if png is not None:
                err.print(_("drew {png}").format(png=escape(str(png))))

    @app.command("abilities")
    def abilities_cmd(
        game: Annotated[str | None, typer.Option("--game", "-g", help="Only this game: swm or ddm.")] = None,
        json_out: JsonOpt = False,
    ) -> None:
        """The ability catalogue's coverage: modelled, known by name, and named on shipped cards."""
        from ..abilities import CATEGORIES, applied_names, classify, known, modelled_names
        from ..cards import default_library
        from .cards_cmd import _check_game

        with edge(json_out, "abilities"):
            g_only = _check_game(game)
            report = {}
            for g in ([g_only] if g_only else ["swm", "ddm"]):
                on_cards: dict[str, str] = {}
                for card in default_library().cards(g):
                    names = list(card.special_abilities) + [p.name for p in getattr(card, "force_powers", ())]
                    for text in names:
                        on_cards[text] = classify(g, text).status
                applied = {n.lower() for n in applied_names(g)}
                entries = [{"name": k.name, "game": g, "category": k.category, "modelled": k.name.lower() in applied, "source": k.source}
                           for (gg, _name), k in sorted(known().items()) if gg == g]
                by_category = {c: {"known": sum(1 for e in entries if e["category"] == c),
                                   "modelled": sum(1 for e in entries if e["category"] == c and e["modelled"])} for c in CATEGORIES}
                report[g] = {
                    "known_by_name": len(entries),
                    "modelled": modelled_names(g),
                    "by_category": by_category,
                    "entries": entries,
                    "on_shipped_cards": {k: on_cards[k] for k in sorted(on_cards)},
                }
            if json_out:
                emit_json({"query": "abilities", "games": report})
                return
            for g, rep in report.items():
                on = rep["on_shipped_cards"]
                n_mod = sum(1 for v in on.values() if v == "modelled")
                out.print(_("[bold]{value}[/]: {rep} glossary names known, {n} modelled; on the shipped cards {n2} names, {n_mod} modelled").format(value=g.upper(), rep=rep['known_by_name'], n=len(rep['modelled']), n2=len(on), n_mod=n_mod))
                out.print(_("  by category (modelled / known): ") + ", ".join(
                    f"{c} {n['modelled']}/{n['known']}" for c, n in rep["by_category"].items() if n["known"]))
                out.print("  modelled: " + escape(", ".join(rep["modelled"])))
                for name, status in on.items():
                    colour = {"modelled": "green", "known": "yellow", "unknown": "red"}[status]
                    out.print(f"  [{colour}]{status:8s}[/] {escape(name)}")
