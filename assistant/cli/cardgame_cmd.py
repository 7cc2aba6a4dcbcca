"""``python -m assistant destiny ...`` and ``python -m assistant swtcg ...``: the card games at
the table. One factory makes every card game's command group from the game's record
(:mod:`assistant.cardgames`); the rules live in the library.

A game starts from a table file (``new``); each player's move is one command in the table
notation (``do "A resolve h1+h2 -> vader"``); ``check`` answers "may I?" without recording.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from ..cardgame.scenario import ScenarioError
from ..cardgames import CARD_GAMES, find_card_game, run_scenario
from ..errors import AssistantError
from ..i18n import _

if TYPE_CHECKING:
    from ..cardgame.log import CardGameLog

GameOpt = Annotated[Path | None, typer.Option("--game", help="The game file (default: the current game).", metavar="PATH")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print exactly one JSON object on stdout.")]


def make_app(game: str) -> typer.Typer:
    record = find_card_game(game)
    ex = "\n\n".join(f"  {e}" for e in record.examples)
    app = typer.Typer(help=f"{record.help_title}: record the table, check and log each play.\n\nCommands look like:\n\n{ex}",
                      no_args_is_help=True)

    @contextmanager
    def open_log(path: Path | None) -> Iterator[CardGameLog]:
        from ..cardgame.log import CardGameLog
        from .game_cmd import game_path

        log = CardGameLog.open(game_path(path, game), CARD_GAMES, game)
        try:
            yield log
        finally:
            log.close()

    @app.command("new")
    def new(
        table: Annotated[Path, typer.Argument(help="The table file to start from (see 'example').")],
        game_file: GameOpt = None,
    ) -> None:
        """Start a game from a table file and make it the current game."""
        from ..cardgame.log import CardGameLog
        from ..game.store import games_home, set_current_game
        from ..yamlio import read_text
        from .app import edge, out

        with edge():
            text, _unused = read_text(table)
            path = game_file or games_home() / "games" / f"{game}-{table.stem}-{datetime.now().strftime('%Y%m%d-%H%M%S')}.sqlite"
            log = CardGameLog.new(path, record, text, str(table))
            log.close()
            set_current_game(path, game)
            out.print(_("new {game} game {path} (now the current {game} game)").format(game=game, path=escape(str(path))))

    @app.command("use")
    def use(game_file: Annotated[Path, typer.Argument(help="A game file.")]) -> None:
        """Make a game file the current game of this kind (each kind of game has its own)."""
        from ..game.store import set_current_game
        from .app import edge, out

        with edge():
            with open_log(game_file) as log:
                log.table()  # a log that cannot be replayed is refused here, not at the next command
            set_current_game(game_file, game)
            out.print(_("current {game} game: {game_file}").format(game=game, game_file=escape(str(game_file))))

    @app.command("example")
    def example(output: Annotated[Path | None, typer.Option("--output", "-o", help="Write it here instead of stdout.")] = None) -> None:
        """Print the bundled example table file (a starting point for your own)."""
        from .app import edge, write_or_print

        with edge():
            text = record.example_table()
            write_or_print(text, output)

    @app.command("do")
    def do(
        command: Annotated[str, typer.Argument(help="One table command, e.g. 'A pass'. See 'verbs'.")],
        override: Annotated[str | None, typer.Option("--override", help="Record it even if the rules refuse, with this reason.",
                                                        metavar="REASON")] = None,
        game_file: GameOpt = None,
        json_out: JsonOpt = False,
    ) -> None:
        """Record one play; the rules check it first and say what it did, rule by rule."""
        from .app import edge, emit_json, out

        with edge(json_out, "do"):
            with open_log(game_file) as log:
                done = log.do(command, override)
            if json_out:
                emit_json({"query": "do", "game": game, "seq": done.event.seq, "command": command, "applied": done.applied,
                           "said": list(done.said), "override": override})
                return
            out.print(f"[green]#{done.event.seq}[/] {escape(command)}")
            for line in done.said:
                out.print(f"  {escape(line)}")

    @app.command("check")
    def check(
        command: Annotated[str, typer.Argument(help="The play to check, e.g. 'A resolve h1 h2 -> vader'.")],
        game_file: GameOpt = None,
        json_out: JsonOpt = False,
    ) -> None:
        """May I? Check a play against the current table without recording it.

        Exit codes: 0 the play is legal; 3 the rules refuse it (the answer says why); 2 the
        command or the game file cannot be read.
        """
        from .app import edge, emit_json, out

        with edge(json_out, "check"):
            with open_log(game_file) as log:
                ok, said = log.check(command)
            if json_out:
                emit_json({"query": "check", "game": game, "command": command, "legal": ok, "said": list(said)})
            else:
                out.print(("[green]legal[/]" if ok else _("[red]not legal[/]")) + f": {escape(command)}")
                for line in said:
                    out.print(f"  {escape(line)}")
        if not ok:
            raise typer.Exit(CHECK_REFUSED)

    @app.command("status")
    def status(
        get: Annotated[str | None, typer.Option("--get", help="One fact by path, e.g. card.han.damage or unit.aat.tapped.")] = None,
        game_file: GameOpt = None,
        json_out: JsonOpt = False,
    ) -> None:
        """The table now."""
        from .app import edge, emit_json, out

        with edge(json_out, "status"):
            with open_log(game_file) as log:
                table = log.table()
            if get is not None:
                value = log.rules.lookup(table, get)
                if json_out:
                    emit_json({"query": "status", "get": get, "value": value if isinstance(value, (int, str, bool, list, type(None))) else str(value)})
                else:
                    out.print(escape(str(value)))
                return
            if json_out:
                emit_json({"query": "status", "game": game, **log.rules.summary(table)})
                return
            for line in log.rules.describe(table):
                out.print(escape(line))

    @app.command("log")
    def log_cmd(game_file: GameOpt = None, json_out: JsonOpt = False) -> None:
        """Every play in order with what it did."""
        from .app import edge, emit_json, out

        with edge(json_out, "log"):
            with open_log(game_file) as log:
                _table, entries = log.fold()
            if json_out:
                emit_json({"query": "log", "events": [{"seq": e.event.seq, "command": e.command, "said": list(e.said), "applied": e.applied,
                                                       "undone": e.undone, "override": e.event.override} for e in entries]})
                return
            for e in entries:
                mark = " [dim](undone)[/]" if e.undone else ""
                over = f" [yellow]override: {escape(e.event.override)}[/]" if e.event.override else ""
                out.print(f"#{e.event.seq:<4} {escape(e.command)}{mark}{over}")

    @app.command("undo")
    def undo(seq: Annotated[int | None, typer.Argument(help="The event to undo (default: the last).")] = None, game_file: GameOpt = None) -> None:
        """Undo a play (it stays in the log, marked undone)."""
        from .app import edge, out

        with edge():
            with open_log(game_file) as log:
                ev = log.undo(seq)
            out.print(_("[green]#{seq}[/] undid event {data}").format(seq=ev.seq, data=ev.data['seq']))

    @app.command("note")
    def note(text: Annotated[str, typer.Argument(help="The note, e.g. a judge's ruling.")], game_file: GameOpt = None) -> None:
        """Add a note to the log."""
        from .app import edge, out

        with edge():
            with open_log(game_file) as log:
                ev = log.note(text)
            out.print(_("[green]#{seq}[/] note recorded").format(seq=ev.seq))

    @app.command("replay")
    def replay(to: Annotated[int, typer.Option("--to", help="Show the table as it was after this event.")], game_file: GameOpt = None) -> None:
        """The table as it was after event N."""
        from .app import edge, out

        with edge():
            with open_log(game_file) as log:
                table = log.table(upto=to)
            out.print(_("after event #{to}:").format(to=to))
            for line in log.rules.describe(table):
                out.print(escape(line))

    @app.command("export")
    def export(
        fmt: Annotated[str, typer.Option("--format", help="md (for a judge) or json.")] = "md",
        output: Annotated[Path | None, typer.Option("--output", "-o", help="Write to this file instead of stdout.")] = None,
        game_file: GameOpt = None,
    ) -> None:
        """The whole game, play by play, with what each did, overrides and their reasons."""
        from .app import edge, write_or_print

        with edge():
            if fmt not in ("md", "json"):
                raise AssistantError(_("unknown format {fmt!r}: md or json").format(fmt=fmt))
            with open_log(game_file) as log:
                text = log.export(fmt)
            write_or_print(text, output)

    @app.command("import")
    def import_cmd(
        file: Annotated[Path, typer.Argument(help="Destiny: a swdestinydb card-data JSON file. SW TCG: a LackeyCCG set file.")],
        entry: Annotated[str | None, typer.Option("--entry", help="Print a table-file entry for this card (code or name).")] = None,
        as_id: Annotated[str, typer.Option("--id", help="The id the entry gets on the table.")] = "card",
        owner: Annotated[str, typer.Option("--owner", help="Who owns it (Destiny: A, B...; SW TCG: DS or LS; default the first).")] = "",
        elite: Annotated[bool, typer.Option("--elite", help="Destiny: an elite character (two dice).")] = False,
        zone: Annotated[str, typer.Option("--zone", help="SW TCG: where the card is (hand, build, space, ground, character).")] = "hand",
        on: Annotated[str | None, typer.Option("--on", help="Destiny: the character an upgrade is attached to.")] = None,
        json_out: JsonOpt = False,
    ) -> None:
        """Read a community card-data file: list its cards, or print one as a table-file entry."""
        from ..cardgame.importers import EntryOptions, read_card_file
        from ..yamlio import dump_yaml
        from .app import edge, emit_json, err, out

        with edge(json_out, "import"):
            text, notes = read_card_file(file)
            importer = record.rules().importer
            read = importer.read(text, str(file))
            cards, keys, unused = read.cards, read.by_key, list(read.unused_columns)
            notes += read.skipped
            notes += [f"{c.name}: {n}" for c in cards for n in c.notes]
            if not json_out:
                for n in notes:
                    err.print(_("[yellow]note:[/] {n}").format(n=escape(n)))
            if entry is not None:
                owner = owner or importer.default_owner
                card = keys.get(entry)
                if card is None:
                    from ..errors import UnknownNameError

                    raise UnknownNameError("card", entry, list(keys))
                data = importer.entry(card, as_id, EntryOptions(owner, elite, zone, on))
                if json_out:
                    emit_json({"query": "import", "entry": data, "notes": notes})
                else:
                    typer.echo(dump_yaml([data]), nl=False)
                return
            if json_out:
                emit_json({"query": "import", "cards": [_card_json(c) for c in cards], "unused_columns": unused, "notes": notes})
                return
            for c in cards:
                out.print(escape(importer.line(c)))
            out.print(_("{n} cards").format(n=len(cards)) + (_("; columns not used: {names}").format(names=', '.join(unused)) if unused else ""))

    @app.command("verbs")
    def verbs_cmd() -> None:
        """Every command verb and what it does."""
        from .app import out

        for v, what in sorted(record.verbs().items()):
            out.print(f"{v:<18} {escape(what)}")

    @app.command("scenario")
    def scenario(files: Annotated[list[Path], typer.Argument(help="Golden scenario files (YAML) or folders of them.")]) -> None:
        """Run scenario files (a table, commands, the expected answer) and say which hold.

        Exit codes: 0 every scenario holds; 3 some do not (each says why); 2 a file cannot be read.
        Table files beside the scenarios (a name starting with '_', or no 'game' key) are skipped.
        """
        from ..yamlio import parse_yaml, read_text
        from .app import edge, out

        with edge():
            failed = 0
            paths: list[Path] = []
            for f in files:
                paths += sorted(f.glob("*.yaml")) if f.is_dir() else [f]
            for f in paths:
                text, name = read_text(f)
                spec, _lines, _problems = parse_yaml(text, name)
                if f.name.startswith("_") or (isinstance(spec, dict) and "game" not in spec and "format" in spec):
                    out.print(_("[dim]skipped {f}: a table the scenarios use, not a scenario[/]").format(f=escape(str(f))))
                    continue
                try:
                    problems = run_scenario(spec, f.parent)
                except ScenarioError as e:
                    raise AssistantError(f"{f}: {e}") from None
                failed += bool(problems)
                out.print(("[green]holds[/] " if not problems else "[red]fails[/] ") + escape(str(f)))
                for p in problems:
                    out.print(f"  {escape(p)}")
            if failed:
                raise typer.Exit(SCENARIO_FAILS)

    return app


#: the exit code of 'check' when the rules refuse the play (0: legal; 2: unreadable input)
CHECK_REFUSED = 3
#: the exit code of 'scenario' when some scenario does not hold
SCENARIO_FAILS = 3


def _card_json(c: object) -> dict:
    from dataclasses import asdict

    d = asdict(c)  # type: ignore[call-overload]
    if "faces" in d:
        d["faces"] = None if c.faces is None else [str(f) for f in c.faces]  # type: ignore[attr-defined]
    return d

