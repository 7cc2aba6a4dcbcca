"""``python -m assistant destiny ...`` and ``python -m assistant swtcg ...``: the card games at
the table. One set of commands serves every card game (each command reads which game from the
group it was called under); the plays go through the command layer
(:mod:`assistant.commands.cardgames`), the rules live in the library.

A game starts from a table file (``new``); each player's move is one command in the table
notation (``do "A resolve h1+h2 -> vader"``); ``check`` answers "may I?" without recording.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from ..cardgames import find_card_game, run_scenario
from ..commands.games import card_game_names
from ..errors import AssistantError
from ..game.store import set_current_game
from ..i18n import _
from ..yamlio import parse_yaml, read_text
from .common import HeadOpt, ReplayEventArg, ReplayToOpt, find, replay_event, run, session
from .output import JsonOpt, edge, out, write_or_print

GameOpt = Annotated[Path | None, typer.Option("--game", help="The game file (default: the current game).", metavar="PATH")]

def kind(ctx: typer.Context) -> str:
    """Which card game a command was called for: the name of its group (``destiny``, ``swtcg``)."""
    parent = ctx.parent
    assert parent is not None and parent.info_name is not None
    return parent.info_name


def new(
    ctx: typer.Context,
    table: Annotated[Path, typer.Argument(help="The table file to start from (see 'example').")],
    game_file: GameOpt = None,
) -> None:
    """Start a game from a table file and make it the current game."""
    run(ctx, f"{kind(ctx)} new", table=table, game=game_file)


def use(ctx: typer.Context, game_file: Annotated[Path, typer.Argument(help="A game file.")]) -> None:
    """Make a game file the current game of this kind (each kind of game has its own)."""
    # start-up time: a card game's log and engine only when one is opened
    from ..commands.cardgames import open_log

    game = kind(ctx)
    with edge():
        with open_log(session(ctx), game, game_file) as log:
            log.table()  # a log that cannot be replayed is refused here, not at the next command
        set_current_game(game_file, game)
        out.print(_("current {game} game: {game_file}").format(game=game, game_file=escape(str(game_file))))


def example(ctx: typer.Context, output: Annotated[Path | None, typer.Option("--output", "-o", help="Write it here instead of stdout.")] = None) -> None:
    """Print the bundled example table file (a starting point for your own)."""
    with edge():
        text = find_card_game(kind(ctx)).example_table()
        write_or_print(text, output)


def do(
    ctx: typer.Context,
    command: Annotated[str, typer.Argument(help="One table command, e.g. 'A pass'. See 'verbs'.")],
    override: Annotated[str | None, typer.Option("--override", help="Record it even if the rules refuse, with this reason.",
                                                    metavar="REASON")] = None,
    game_file: GameOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Record one play; the rules check it first and say what it did, rule by rule."""
    run(ctx, f"{kind(ctx)} do", json_out, command=command, override=override, game=game_file)


def check(
    ctx: typer.Context,
    command: Annotated[str, typer.Argument(help="The play to check, e.g. 'A resolve h1 h2 -> vader'.")],
    game_file: GameOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """May I? Check a play against the current table without recording it.

    Exit codes: 0 the play is legal; 3 the rules refuse it (the answer says why); 2 the
    command or the game file cannot be read.
    """
    run(ctx, f"{kind(ctx)} check", json_out, command=command, game=game_file)


def status(
    ctx: typer.Context,
    get: Annotated[str | None, typer.Option("--get", help="One fact by path, e.g. card.han.damage or unit.aat.tapped.")] = None,
    game_file: GameOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """The table now."""
    run(ctx, f"{kind(ctx)} status", json_out, get=get, game=game_file)


def log_cmd(ctx: typer.Context, game_file: GameOpt = None, json_out: JsonOpt = False) -> None:
    """Every play in order with what it did."""
    run(ctx, f"{kind(ctx)} log", json_out, game=game_file)


def undo(ctx: typer.Context, seq: Annotated[int | None, typer.Argument(help="The event to undo (default: the last).")] = None,
         game_file: GameOpt = None) -> None:
    """Undo a play (it stays in the log, marked undone)."""
    run(ctx, f"{kind(ctx)} undo", seq=seq, game=game_file)


def note(ctx: typer.Context, text: Annotated[str, typer.Argument(help="The note, e.g. a judge's ruling.")], game_file: GameOpt = None) -> None:
    """Add a note to the log."""
    run(ctx, f"{kind(ctx)} note", text=text, game=game_file)


def replay(ctx: typer.Context, event: ReplayEventArg = None, to_opt: ReplayToOpt = None, game_file: GameOpt = None) -> None:
    """The table as it was after event N ('replay N' or 'replay --to N')."""
    from ..commands.cardgames import open_log  # start-up time: see use

    to = replay_event(event, to_opt)
    game = kind(ctx)
    with edge():
        with open_log(session(ctx), game, game_file) as log:
            table = log.table(upto=to)
        out.print(_("after event #{to}:").format(to=to))
        for line in log.rules.describe(table):
            out.print(escape(line))


def export(
    ctx: typer.Context,
    fmt: Annotated[str, typer.Option("--format", help="md (for a judge) or json.")] = "md",
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write to this file instead of stdout.")] = None,
    game_file: GameOpt = None,
) -> None:
    """The whole game, play by play, with what each did, overrides and their reasons."""
    with edge():
        text = find(f"{kind(ctx)} export")(session(ctx), format=fmt, game=game_file).text
        assert text is not None
        write_or_print(text, output)


def verify(ctx: typer.Context, head: HeadOpt = None, game_file: GameOpt = None, json_out: JsonOpt = False) -> None:
    """Check the log's hash chain: intact (its head), or the first event that was edited, deleted or inserted."""
    run(ctx, f"{kind(ctx)} verify", json_out, head=head, game=game_file)


def import_cmd(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(help="Destiny: a swdestinydb card-data JSON file. SW TCG: a LackeyCCG set file. Or a folder of them.")],
    entry: Annotated[str | None, typer.Option("--entry", help="Print a table-file entry for this card (code or name).")] = None,
    as_id: Annotated[str, typer.Option("--id", help="The id the entry gets on the table.")] = "card",
    owner: Annotated[str, typer.Option("--owner", help="Who owns it (Destiny: A, B..., default the first; SW TCG: DS or LS, default the card's side).")] = "",
    elite: Annotated[bool, typer.Option("--elite", help="Destiny: an elite character (two dice).")] = False,
    dice: Annotated[int | None, typer.Option("--dice", help="Destiny: how many dice the character brings (1-3, as its points allow).",
                                             min=1)] = None,
    zone: Annotated[str | None, typer.Option("--zone", help="SW TCG: where the card is (hand, build, space, ground, character; default hand).")] = None,
    on: Annotated[str | None, typer.Option("--on", help="Destiny: the character an upgrade or a downgrade is attached to.")] = None,
    json_out: JsonOpt = False,
) -> None:
    """Read a community card-data file: list its cards and the import report (imported, partial,
    refused, each with why), or print one card as a table-file entry.

    Exit codes: 0 read (cards refused alone are in the report); 2 the file cannot be read as a card list.
    """
    run(ctx, f"{kind(ctx)} import", json_out, file=file, entry=entry, id=as_id, owner=owner, elite=elite, dice=dice, zone=zone, on=on)


def verbs_cmd(ctx: typer.Context) -> None:
    """Every command verb and what it does."""
    for v, what in sorted(find_card_game(kind(ctx)).verbs().items()):  # the game's engine loads only when asked
        out.print(f"{v:<18} {escape(what)}")


def scenario(ctx: typer.Context, files: Annotated[list[Path], typer.Argument(help="Golden scenario files (YAML) or folders of them.")]) -> None:
    """Run scenario files (a table, commands, the expected answer) and say which hold.

    Exit codes: 0 every scenario holds; 3 some do not (each says why); 2 a file cannot be read, or
    no scenario was found among the files given. Table files beside the scenarios (a name starting
    with '_', or no 'game' key) are skipped.
    """
    from ..cardgame.scenario import ScenarioError  # start-up time: the engines only when a scenario runs

    with edge():
        failed = ran = 0
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
            ran += 1
            out.print((_("[green]holds[/]") if not problems else _("[red]fails[/]")) + " " + escape(str(f)))
            for p in problems:
                out.print(f"  {escape(p)}")
        if not ran:  # a run that checked nothing must not read as "every scenario holds"
            raise AssistantError(_("no scenario in {files}: each file was a table the scenarios use (a name starting with '_', "
                                   "or a 'format' key and no 'game' key), or the folders held no .yaml file").format(
                files=", ".join(str(f) for f in files)))
        if failed:
            raise typer.Exit(SCENARIO_FAILS)


#: the exit code of 'scenario' when some scenario does not hold
SCENARIO_FAILS = 3

#: the commands of every card game's group, by name, in the order help lists them
COMMANDS = (("new", new), ("use", use), ("example", example), ("do", do), ("check", check), ("status", status), ("log", log_cmd),
            ("undo", undo), ("note", note), ("replay", replay), ("export", export), ("verify", verify), ("import", import_cmd), ("verbs", verbs_cmd),
            ("scenario", scenario))


def make_app(game: str) -> typer.Typer:
    """One card game's command group: the shared commands under the game's title and examples."""
    record = find_card_game(game)
    ex = "\n\n".join(f"  {e}" for e in record.examples)
    app = typer.Typer(help=f"{record.help_title}: record the table, check and log each play.\n\nCommands look like:\n\n{ex}",
                      no_args_is_help=True)
    for name, fn in COMMANDS:
        app.command(name)(fn)
    return app


def card_games() -> tuple[str, ...]:
    """The card games the command line has a group for."""
    return card_game_names()

