"""The root's own commands on position files: ``validate``, ``show``, ``normalize``, ``schema``,
``reading``, ``examples`` and ``demo``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from ..commands.context import resolve_position
from ..commands.queries import attack_lines, cover_lines, range_lines, sight_lines
from ..errors import AssistantError
from ..i18n import N_, _, n_
from ..position import check_position_file, dump_position, load_position
from ..resources import example_files, example_path, last_reading, reading, readings_text
from ..rules import engine
from ..yamlio import check_output_path, comment_lines, read_text
from .common import board_view, library, read_state
from .output import JsonOpt, edge, emit_json, err, out, print_lines, print_problems, write_or_print

DEMO_EXAMPLE = "clone-wars-corridor"

#: texts shown inside formatted lines (marked here for the catalogs)
T_DEMO = N_("demo")
T_INVALID = N_("invalid")
T_QUESTIONS_A_TABLE_ASKS = N_("questions a table asks")
T_WHAT_DOES_THE_ATTACK_NEED = N_("what does the attack need?")
T_TRY = N_("Try:")


def validate(
    ctx: typer.Context,
    files: Annotated[list[str], typer.Argument(help="Position files (or bundled example names).", show_default=False)],
    json_out: JsonOpt = False,
    strict: Annotated[bool, typer.Option("--strict", help="Treat warnings as errors.")] = False,
) -> None:
    """Check position files and report every problem with its line. Exit 2 if any is invalid."""
    with edge(json_out, "validate"):
        lib = library(ctx)
        reports = []
        all_ok = True
        for name in files:
            result = check_position_file(resolve_position(name), lib)
            ok = not result.errors and not (strict and result.warnings)
            all_ok &= ok
            reports.append((name, result, ok))
        if json_out:
            obj: dict[str, Any] = {
                "query": "validate",
                "valid": all_ok,
                "files": [
                    {
                        "file": r.file,
                        "valid": ok,
                        "rules": r.position.edition.value if r.position else None,
                        "figures": len(r.position.figures) if r.position else None,
                        "problems": [p.as_json() for p in r.problems],
                    }
                    for _name, r, ok in reports
                ],
            }
            if not all_ok:
                bad = sum(1 for *_rest, ok in reports if not ok)
                obj["error"] = n_("{bad} of {n} file invalid", "{bad} of {n} files invalid", len(reports)).format(bad=bad, n=len(reports))
            emit_json(obj)
        else:
            for _name, r, ok in reports:
                if ok:
                    pos = r.position
                    assert pos is not None
                    out.print(
                        f"[green]ok[/] {escape(r.file)}: "
                        + escape(
                            n_("{edition}, {cols} x {rows}, {n} figure", "{edition}, {cols} x {rows}, {n} figures", len(pos.figures)).format(
                                edition=pos.edition.value, cols=pos.map.cols, rows=pos.map.rows, n=len(pos.figures)
                            )
                        )
                    )
                    print_problems(r.warnings)
                else:
                    n = len(r.errors) + (len(r.warnings) if strict else 0)
                    err.print(f"[bold red]{escape(_(T_INVALID))}[/] {escape(r.file)}: " + escape(n_("{n} problem", "{n} problems", n).format(n=n)))
                    print_problems(r.problems)
        if not all_ok:
            raise typer.Exit(2)


def show(
    ctx: typer.Context,
    file: Annotated[
        str | None, typer.Argument(help="A position file (or a bundled example's name); default: the current game's board.", show_default=False)
    ] = None,
    game: Annotated[Path | None, typer.Option("--game", help="A game file to draw instead of the current game.", metavar="PATH")] = None,
    svg: Annotated[Path | None, typer.Option("--svg", help="Also draw the board to this SVG file (the web app's picture).", metavar="FILE")] = None,
) -> None:
    """Draw the board: terrain in the printed colours, walls and doors on the grid lines, figures by side."""
    with edge():
        if svg is not None:  # refused before the board is printed
            check_output_path(svg)
        if file is not None:
            if game is not None:
                raise AssistantError(_("give a position file or --game, not both"))
            pos = load_position(resolve_position(file), library(ctx))
        else:
            pos = read_state(ctx, game)[0].position
        out.print(board_view(pos), crop=False)
        if svg is not None:
            from ..svg import board_svg, write_svg  # start-up time: the SVG writer only when asked

            write_svg(svg, board_svg(pos, title=pos.map.name or ""))


def normalize(
    ctx: typer.Context,
    file: Annotated[str, typer.Argument(help="A position file.", show_default=False)],
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write here (atomically) instead of stdout.")] = None,
) -> None:
    """Rewrite a position file in canonical form (ranges merged, defaults dropped). Comments are
    not kept: it says which lines had them."""
    with edge():
        path = resolve_position(file)
        pos = load_position(path, library(ctx))
        text = dump_position(pos)
        lost = comment_lines(read_text(path)[0])
        write_or_print(text, output)
        if lost:
            shown = ", ".join(map(str, lost[:8])) + (", ..." if len(lost) > 8 else "")
            err.print(
                n_("[yellow]note:[/] the canonical form has no comments: {n} comment line of {path} is not in it (line {shown})",
                   "[yellow]note:[/] the canonical form has no comments: {n} comment lines of {path} are not in it (line {shown})", len(lost)).format(
                    n=len(lost), path=escape(str(path)), shown=shown
                )
            )


def schema(
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write it to this file instead of stdout.")] = None,
) -> None:
    """The JSON Schema of a position file, for editors that validate and complete YAML."""
    with edge():
        from ..position.jsonschema import position_schema  # start-up time: it imports pydantic

        write_or_print(json.dumps(position_schema(), indent=2) + "\n", output)


def reading_cmd(
    ident: Annotated[str | None, typer.Argument(help="A reading's id as answers cite it (R7); none lists them all.")] = None,
    json_out: JsonOpt = False,
) -> None:
    """A reading of an ambiguous rule that an answer cites ("reading R7 in docs/readings.md"):
    the rule's words from the rulebook, a translation, the reading chosen and why."""
    with edge(json_out, "reading"):
        if ident is None:
            heads = re.findall(r"(?m)^## (R\d+) — (.+)$", readings_text())
            if json_out:
                emit_json({"query": "reading", "readings": [{"id": i, "title": t} for i, t in heads]})
            else:
                for i, t in heads:
                    out.print(f"[bold]{i}[/]  {escape(t)}")
            return
        text = reading(ident)
        if text is None:
            raise AssistantError(
                _("no reading {ident!r}: readings are R1 to R{n} ('python -m assistant reading' lists them)").format(
                    ident=ident, n=last_reading()
                )
            )
        if json_out:
            emit_json({"query": "reading", "id": text.split(" — ")[0][3:], "text": text})
        else:
            out.print(escape(text), end="", soft_wrap=True)


def examples(json_out: JsonOpt = False) -> None:
    """List the bundled example positions (usable by name with show and validate)."""
    with edge(json_out, "examples"):
        files = example_files()
        if json_out:
            emit_json({"query": "examples", "examples": [{"name": p.stem, "path": str(p)} for p in files]})
            return
        for p in files:
            out.print(f"[bold]{p.stem}[/]  {escape(str(p))}")


def demo(ctx: typer.Context) -> None:
    """Run the main job on a bundled example: load, validate and show it."""
    with edge():
        path = example_path(DEMO_EXAMPLE)
        if path is None:
            raise AssistantError(_("the bundled example {DEMO_EXAMPLE!r} is missing from this installation").format(DEMO_EXAMPLE=DEMO_EXAMPLE))
        result = check_position_file(path, library(ctx))
        pos = result.raise_for_errors()
        out.rule(f"[bold]{_(T_DEMO)}[/]: {path.stem}")
        out.print(
            escape(_("valid position file ({edition}); {n} figures; cards from the shipped library.").format(edition=pos.edition.value, n=len(pos.figures)))
        )
        out.print(board_view(pos), crop=False)
        out.rule(f"[bold]{escape(_(T_QUESTIONS_A_TABLE_ASKS))}[/]")
        for viewer, target in (("sbd", "obi"), ("obi", "dooku")):
            print_lines(sight_lines(engine.sight(pos, viewer, target)))
        print_lines(cover_lines(engine.cover(pos, "sbd", "obi")))
        print_lines(range_lines(engine.range_between(pos, "obi", "dooku")))
        from ..rules.attack import attack  # start-up time: the attack model only for the demo

        combat_path = example_path("clone-wars-example-combat")
        if combat_path is not None:
            combat = load_position(combat_path, library(ctx))
            out.rule(f"[bold]{escape(_(T_WHAT_DOES_THE_ATTACK_NEED))}[/] " + escape(_("(the rulebook's example combat, PL p.24-25)")))
            print_lines(attack_lines(attack(combat, "sbd", "obi", combined_fire=("sbdc",))))
        out.print()
        out.print(
            f"{escape(_(T_TRY))} [bold]python -m assistant matrix -p {path.stem}[/], [bold]python -m assistant cover sbd obi -p {path.stem} --png "
            f"cover.png[/], "
            "[bold]python -m assistant cards show dooku[/]"
        )
