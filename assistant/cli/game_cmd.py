"""``python -m assistant game ...``: the game session -- log, sequence, edits, undo, export.

Thin over the command layer (:mod:`assistant.commands.records`): each command here says its
options and help, and the verb of the same name does the rest.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from ..commands.context import game_path, resolve_position
from ..i18n import N_, _, n_
from ..position import parse_position, save_position
from ..yamlio import read_text
from .common import HeadOpt, ReplayEventArg, ReplayToOpt, find, library, read_state, replay_event, run, session
from .output import JsonOpt, edge, emit_json, err, out, write_or_print

app = typer.Typer(help="The game session: a judge-replayable log of rounds, activations and edits.", no_args_is_help=True)

GameOpt = Annotated[Path | None, typer.Option("--game", help="The game file (default: the current game).", metavar="PATH")]
OverrideOpt = Annotated[str | None, typer.Option("--override", help="Record it even if the rules refuse, with this reason.", metavar="REASON")]


@app.command("new")
def new(
    ctx: typer.Context,
    position: Annotated[str, typer.Option("--position", "-p", help="The starting position file (or a bundled example).")],
    game: GameOpt = None,
    override: OverrideOpt = None,
) -> None:
    """Start a game from a position file (each side a squad, checked) and make it the current game."""
    # start-up time: the game session's modules only for the commands that open a game here
    from ..game import Game
    from ..game.squads import check_squads  # start-up time: the squad rules only when a game is started
    from ..game.store import games_home, set_current_game  # start-up time: the games' folder only when a game is started

    with edge():
        text, _unused = read_text(resolve_position(position))
        path = game or games_home() / "games" / f"{Path(position).stem}-{datetime.now().strftime('%Y%m%d-%H%M%S')}.sqlite"
        _problems, unchecked = check_squads(parse_position(text, str(position), library(ctx)))
        g = Game.new(path, text, library(ctx), override)
        g.close()
        set_current_game(path)
        out.print(_("new game {path} (now the current game)").format(path=escape(str(path))))
        for line in unchecked:
            out.print(_("  [yellow]squad check incomplete:[/] {line}").format(line=escape(line)))


@app.command("import")
def import_(
    ctx: typer.Context,
    file: Annotated[str, typer.Argument(help="A position file to start a game from, or a game log exported with 'game export --format json'.")],
    game: GameOpt = None,
    override: OverrideOpt = None,
) -> None:
    """Start a game from a position file (the same as 'game new --position FILE'), or read back an
    exported JSON log: its chain and result checked, the same game to replay, undo and go on with."""
    from ..cardgames import CARD_GAMES  # start-up time: see new
    from ..game.logimport import import_export, looks_like_export  # start-up time: an export's reader only when one is imported
    from ..game.store import GameFileError, games_home, set_current_game  # start-up time: the games' folder only when a game is imported

    with edge():
        text, _unused = read_text(resolve_position(file))
        exported = looks_like_export(text, file)
        if exported is not None:
            if override:
                raise GameFileError(_("--override is for a position file's squads; an exported log is imported as it was played; nothing was written"))
            path = game or games_home() / "games" / f"{Path(file).stem}-{datetime.now().strftime('%Y%m%d-%H%M%S')}.sqlite"
            rules = exported.get("rules")
            if isinstance(rules, str) and rules in CARD_GAMES:  # a Destiny or SW TCG export: the same chain, its own fold (R267)
                from ..cardgame.log import import_export as import_card_game  # start-up time: a card game's log and engine only for a card game's export

                count = import_card_game(path, exported, file, CARD_GAMES[rules])
                set_current_game(path, rules)
                out.print(n_("imported {count} event of {file} as {path} (now the current {game} game): its chain and table check",
                             "imported {count} events of {file} as {path} (now the current {game} game): its chain and table check",
                             count).format(count=count, file=escape(file), path=escape(str(path)), game=rules))
                return
            count, unmarked = import_export(path, exported, file, library(ctx))
            set_current_game(path)
            if unmarked:  # the hashes check, yet the dice contradict what was recorded (R196): said, not hidden
                out.print(n_("imported {count} event of {file} as {path} (now the current game): its chain checks, but events the export "
                             "shows standing are void when replayed, as the log was edited: {which}",
                             "imported {count} events of {file} as {path} (now the current game): its chain checks, but events the export "
                             "shows standing are void when replayed, as the log was edited: {which}", count).format(
                    count=count, file=escape(file), path=escape(str(path)),
                    which=escape("; ".join(f"#{seq}: {why}" for seq, why in unmarked))))
                return
            out.print(n_("imported {count} event of {file} as {path} (now the current game): its chain and result check",
                         "imported {count} events of {file} as {path} (now the current game): its chain and result check", count).format(
                count=count, file=escape(file), path=escape(str(path))))
            return
    new(ctx, file, game, override)


@app.command("use")
def use(game: Annotated[Path, typer.Argument(help="A game file.")]) -> None:
    """Make a game file the current miniatures game (each kind of game has its own current game)."""
    from ..game import Game  # start-up time: see new
    from ..game.store import set_current_game  # start-up time: the games' folder only when a game is chosen

    with edge():
        g = Game.open(game_path(game), readonly=True)
        try:
            g.state()  # a log that cannot be folded is refused here, not at the next command
        finally:
            g.close()
        set_current_game(game)
        out.print(_("current miniatures game: {game}").format(game=escape(str(game))))


#: a game file's kind as `game list` says it; Destiny and the SW TCG are the games' own names
KIND_WORDS = {"miniatures": N_("miniatures")}


@app.command("list")
def list_games(json_out: JsonOpt = False) -> None:
    """The games in the games folder, each with its kind; the current game of each kind is marked."""
    from ..game.store import GAME_KINDS, current_game_path, game_kind, games_home  # start-up time: see new

    with edge(json_out, "games"):
        home = games_home()
        current = {k: current_game_path(k) for k in GAME_KINDS}
        files = sorted((home / "games").glob("*.sqlite")) if (home / "games").is_dir() else []
        files += [p for p in current.values() if p is not None and p not in files]
        rows: list[dict[str, Any]] = []  # one per game file, as the JSON shows it
        for p in files:
            kind = game_kind(p) if p.is_file() else None
            rows.append({"path": str(p), "kind": kind, "current": any(c is not None and c.resolve() == p.resolve() for c in current.values()),
                         "exists": p.is_file()})
        if json_out:
            emit_json({"query": "games", "home": str(home), "games": rows,
                       "current": {k: (str(v) if v else None) for k, v in current.items()}})
            return
        out.print(
            _("games in {value}:").format(value=escape(str(home / 'games'))) if rows else _("no games yet in {value}").format(value=escape(str(home / 'games')))
        )
        # the marks and kinds in the reader's words (a Czech list said "* current miniatures"); the JSON keeps the kinds
        current_word = "* " + _("current") + " "
        for r in rows:
            mark = f"[green]{escape(current_word)}[/]" if r["current"] else " " * len(current_word)
            kind = _(KIND_WORDS[r["kind"]]) if r["kind"] in KIND_WORDS else r["kind"] or (_("missing") if not r["exists"] else _("not a game"))
            out.print(f"{mark}{escape(kind):<10} {escape(r['path'])}")


@app.command("status")
def status(ctx: typer.Context, game: GameOpt = None, json_out: JsonOpt = False) -> None:
    """The round, the phase, whose activation it is, and every figure: where, damage, conditions."""
    run(ctx, "game status", json_out, game=game)


@app.command("log")
def log(ctx: typer.Context, game: GameOpt = None, json_out: JsonOpt = False) -> None:
    """Every event in order, with its round and phase."""
    run(ctx, "game log", json_out, game=game)


@app.command("undo")
def undo(
    ctx: typer.Context,
    seq: Annotated[int | None, typer.Argument(help="The event to undo (default: the last one).")] = None,
    game: GameOpt = None,
) -> None:
    """Undo an event (it stays in the log, marked undone)."""
    run(ctx, "game undo", seq=seq, game=game)


@app.command("replay")
def replay(
    ctx: typer.Context,
    event: ReplayEventArg = None,
    to: ReplayToOpt = None,
    game: GameOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """The board and the status as they were after event N ('replay N' or 'replay --to N')."""
    run(ctx, "game replay", json_out, to=replay_event(event, to), game=game)


@app.command("export")
def export(
    ctx: typer.Context,
    fmt: Annotated[str, typer.Option("--format", help="json or md (Markdown for a judge).")] = "md",
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write to this file instead of stdout.")] = None,
    game: GameOpt = None,
) -> None:
    """The whole game, event by event, with overrides and their reasons."""
    with edge():
        text = find("game export")(session(ctx), format=fmt, game=game).text
        assert text is not None
        write_or_print(text, output)


@app.command("verify")
def verify(ctx: typer.Context, head: HeadOpt = None, game: GameOpt = None, json_out: JsonOpt = False) -> None:
    """Check the log's hash chain: intact (its head), or the first event that was edited, deleted or inserted."""
    run(ctx, "game verify", json_out, head=head, game=game)


@app.command("snapshot")
def snapshot(ctx: typer.Context, output: Annotated[Path, typer.Option("--output", "-o", help="The position file to write.")], game: GameOpt = None) -> None:
    """Save the current state as a position file."""
    with edge():
        st, _meta = read_state(ctx, game)
        save_position(st.position, output)
        err.print(_("wrote {output}").format(output=escape(str(output))))


@app.command("initiative")
def initiative(
    ctx: typer.Context,
    roll: Annotated[
        list[str] | None, typer.Option("--roll", help="A side's d20 as SIDE=N; after a tie give the rerolls too: SIDE=N,N2 (repeat for each side).")
    ] = None,
    auto: Annotated[bool, typer.Option("--auto", help="Let the assistant roll the dice (ties rerolled).")] = False,
    first: Annotated[str | None, typer.Option("--first", help="Who goes first (the winner's choice; default the winner).")] = None,
    anticipation: Annotated[
        list[str] | None,
        typer.Option("--anticipation", help="SWM: a figure uses Anticipation once the roll is settled, with its side's reroll as FIGURE=N "
                     "(FIGURE=N,N2 for a side with Recon; FIGURE alone with --auto)."),
    ] = None,
    game: GameOpt = None,
    override: OverrideOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Roll initiative for a new round (SWM d20, ties rerolled; DDM d20 + best able commander rating, ties to the higher rating)."""
    run(ctx, "game initiative", json_out, roll=roll, auto=auto, first=first, game=game, override=override, anticipation=anticipation)


@app.command("activate")
def activate(
    ctx: typer.Context,
    figure: Annotated[str, typer.Argument(help="The figure to activate.")],
    game: GameOpt = None,
    override: OverrideOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Activate a figure (refused out of turn or twice in a round, unless overridden)."""
    run(ctx, "game activate", json_out, figure=figure, game=game, override=override)


@app.command("end-turn")
def end_turn(ctx: typer.Context, game: GameOpt = None, override: OverrideOpt = None, json_out: JsonOpt = False) -> None:
    """End the acting figure's turn (SWM doors open or close by who stands next to them; refused
    when nobody is acting, unless overridden)."""
    run(ctx, "game end-turn", json_out, game=game, override=override)


@app.command("move")
def move(
    ctx: typer.Context,
    figure: Annotated[str, typer.Argument(help="The figure.")],
    to: Annotated[str, typer.Argument(help="The square it moves to.")],
    burrow: Annotated[bool, typer.Option("--burrow", help="DDM Burrow: the move is underground.")] = False,
    tow: Annotated[
        str | None, typer.Option("--tow", help="SWM Tow Cable: the adjacent ally towed and where it ends, ALLY=SQUARE.", metavar="ALLY=SQUARE")
    ] = None,
    surprise: Annotated[
        bool, typer.Option("--surprise", help="SWM Surprise Move: 1 Force point, up to 6 squares after initiative, before any activation.")
    ] = False,
    game: GameOpt = None,
    override: OverrideOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Move the acting figure: the path, its cost and the turn's options are checked; enemies whose reach it leaves are named."""
    run(ctx, "game move", json_out, figure=figure, to=to, burrow=burrow, tow=tow, surprise=surprise, game=game, override=override)


RollOpt = Annotated[int, typer.Option("--roll", help="The d20 as rolled at the table.", min=1, max=20)]
SaveOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--save",
        help="A save between the hit and its damage, as rolled: ABILITY=N (Shields=N,N; a Force-costed one not used: ABILITY=no); repeat for each.",
        metavar="ABILITY=N",
    ),
]
SavesOpt = Annotated[
    str | None, typer.Option("--saves", help="SWM Avoid Defeat: its two saves as rolled, N,N (asked for when the damage would defeat it).", metavar="N,N")
]

SpendForceOpt = Annotated[
    str | None,
    typer.Option("--spend-force", help="SWM: the Force power its Force point bought before the roll (Sith Rage, Lightsaber Precision).", metavar="POWER"),
]



@app.command("attack")
def attack_cmd(
    ctx: typer.Context,
    attacker: Annotated[str, typer.Argument(help="The attacking figure.")],
    target: Annotated[str, typer.Argument(help="The target.")],
    roll: RollOpt,
    combined_fire: Annotated[str | None, typer.Option("--combined-fire", help="SWM helpers, ID[,ID...].", metavar="IDS")] = None,
    ranged: Annotated[bool, typer.Option("--ranged", help="DDM: a ranged attack.")] = False,
    saves: SavesOpt = None,
    save: SaveOpt = None,
    reroll: Annotated[int | None, typer.Option("--reroll", help="SWM: the d20 of the reroll a Force point bought (it stands; Mettle adds +4).",
                                               min=1, max=20)] = None,
    game: GameOpt = None,
    override: OverrideOpt = None,
    spend_force: SpendForceOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Record an attack with the die as rolled: hit or miss, the damage, and a defeat follow the rules."""
    run(
        ctx,
        "game attack",
        json_out,
        attacker=attacker,
        target=target,
        roll=roll,
        combined_fire=combined_fire,
        ranged=ranged,
        saves=saves,
        save=save,
        reroll=reroll,
        game=game,
        override=override,
        spend_force=spend_force,
    )


@app.command("aoo")
def aoo(
    ctx: typer.Context,
    attacker: Annotated[str, typer.Argument(help="The figure making the attack of opportunity.")],
    target: Annotated[str, typer.Argument(help="The enemy leaving its reach (the figure moving now).")],
    roll: RollOpt,
    save: SaveOpt = None,
    game: GameOpt = None,
    override: OverrideOpt = None,
    spend_force: SpendForceOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Record an attack of opportunity: out of turn, without activating, one per turn (record it before the move that provokes it)."""
    run(ctx, "game aoo", json_out, attacker=attacker, target=target, roll=roll, save=save, game=game, override=override, spend_force=spend_force)


@app.command("power")
def power_cmd(
    ctx: typer.Context,
    figure: Annotated[str, typer.Argument(help="The figure using the power.")],
    target: Annotated[str, typer.Argument(help="The enemy it is used on.")],
    power: Annotated[str, typer.Argument(help="The power, as its card names it (Force Lightning 2, Force Grip, ...).")],
    save: Annotated[
        list[str] | None,
        typer.Option(
            "--save",
            help="A save a struck figure makes, as rolled: ID:ABILITY=N (Shields=N,N), or ID:save=N for the power's own save (Force Thrust).",
            metavar="ID:ABILITY=N",
        ),
    ] = None,
    game: GameOpt = None,
    override: OverrideOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Record a Force power that hurts (SWM): its Force points spent, and each struck figure's damage through its saves."""
    run(ctx, "game power", json_out, figure=figure, target=target, power=power, save=save, game=game, override=override)


@app.command("charge")
def charge(
    ctx: typer.Context,
    figure: Annotated[str, typer.Argument(help="The charging creature (DDM).")],
    target: Annotated[str, typer.Argument(help="The nearest enemy it sees.")],
    roll: RollOpt,
    to: Annotated[str | None, typer.Option("--to", help="The square it ends on (default: the nearest square next to the target).")] = None,
    game: GameOpt = None,
    override: OverrideOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """DDM: charge -- the move and its one melee attack at +2, checked (nearest enemy, nearest square, 2 to 2x Speed, clear route)."""
    run(ctx, "game charge", json_out, figure=figure, target=target, roll=roll, to=to, game=game, override=override)


@app.command("morale")
def morale(
    ctx: typer.Context,
    figure: Annotated[str, typer.Argument(help="The creature making the save (DDM).")],
    roll: RollOpt,
    game: GameOpt = None,
    override: OverrideOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """DDM: record a morale save (d20 + Level + the best commander rating in range, DC 20): it holds, or the creature routs."""
    run(ctx, "game morale", json_out, figure=figure, roll=roll, game=game, override=override)


@app.command("flee")
def flee(
    ctx: typer.Context,
    figure: Annotated[str, typer.Argument(help="The creature that leaves the map.")],
    by: Annotated[str | None, typer.Option("--by", help="The side or figure that caused it (default: the opponent).")] = None,
    game: GameOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """A creature flees or is driven off the map: eliminated, its cost scored as for a defeat."""
    run(ctx, "game flee", json_out, figure=figure, by=by, game=game)


@app.command("end")
def end_game(
    ctx: typer.Context,
    reason: Annotated[str, typer.Option("--reason", help="Why the game ends (time, concession, ...).")] = "time",
    game: GameOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """End the game (on time, by concession): the round's points are kept and the result recorded."""
    run(ctx, "game end", json_out, reason=reason, game=game)


@app.command("damage")
def damage(
    ctx: typer.Context,
    figure: Annotated[str, typer.Argument()],
    amount: Annotated[int, typer.Argument(min=1)],
    by: Annotated[str | None, typer.Option("--by", help="The figure or side that dealt it (scores the defeat).")] = None,
    saves: SavesOpt = None,
    game: GameOpt = None,
    override: OverrideOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Record damage taken (a figure at 0 Hit Points is defeated and removed)."""
    run(ctx, "game damage", json_out, figure=figure, amount=amount, by=by, saves=saves, game=game, override=override)


@app.command("heal")
def heal(
    ctx: typer.Context,
    figure: Annotated[str, typer.Argument()],
    amount: Annotated[int, typer.Argument(min=1)],
    by: Annotated[str | None, typer.Option("--by", help="The figure whose Heal, Force Heal, Repair or Industrial Repair removes it, "
                                                      "in its turn in place of its attacks (SWM; checked, reading R272).")] = None,
    ability: Annotated[str | None, typer.Option("--ability", help="Which of the healer's special actions, when it has several.")] = None,
    game: GameOpt = None,
    override: OverrideOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Remove damage (never below none); --by HEALER: its Heal, Force Heal, Repair or Industrial Repair, checked."""
    run(ctx, "game heal", json_out, figure=figure, amount=amount, by=by, ability=ability, game=game, override=override)


@app.command("force", context_settings={"ignore_unknown_options": True})  # "game force obi -1": the -1 is the delta, not an option
def force(
    ctx: typer.Context,
    figure: Annotated[str, typer.Argument()],
    delta: Annotated[int, typer.Argument(help="Points gained (+) or spent (-).")],
    faster: Annotated[bool, typer.Option("--faster", help="Move Faster: the acting figure pays 1 point for 2 more squares this turn.")] = False,
    game: GameOpt = None,
    override: OverrideOpt = None,
    power: Annotated[str | None, typer.Option("--power", help="SWM: the Force power the point is spent on: Knight Speed (4 more squares), Master Speed (6), "
                                              "Force Sense (every enemy loses Stealth until the end of the round), "
                                              "Force Leap (through enemies, no attacks of opportunity this turn).",
                                              metavar="POWER")] = None,
    json_out: JsonOpt = False,
) -> None:
    """Spend or gain Force points (SWM: once per turn); --faster: Move Faster, 1 point for 2 more squares this turn."""
    run(ctx, "game force", json_out, figure=figure, delta=delta, faster=faster, game=game, override=override, power=power)


@app.command("condition")
def condition(
    ctx: typer.Context,
    figure: Annotated[str, typer.Argument()],
    action: Annotated[str, typer.Argument(help="add or remove")],
    name: Annotated[str, typer.Argument(help="e.g. stunned")],
    game: GameOpt = None,
    override: OverrideOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Add or remove a condition (stunned, helpless, ...): one the edition's engine applies (reading R163)."""
    run(ctx, "game condition", json_out, figure=figure, action=action, name=name, game=game, override=override)


@app.command("door")
def door(
    ctx: typer.Context,
    edge_name: Annotated[str, typer.Argument(metavar="EDGE", help="The door's edge, e.g. H5.S")],
    state: Annotated[str, typer.Argument(help="open or close")],
    game: GameOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Open or close a door by hand (the SWM door rule also runs at every end of turn)."""
    run(ctx, "game door", json_out, edge=edge_name, state=state, game=game)


@app.command("embark")
def embark(
    ctx: typer.Context,
    figure: Annotated[str, typer.Argument(help="The passenger, next to the skiff at the end of its move.")],
    skiff: Annotated[str, typer.Argument(help="The figure with Desert Skiff.")],
    game: GameOpt = None,
    override: OverrideOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """SWM 2008 Desert Skiff: a passenger boards (one Large or two Medium or Small allies) and rides off the map."""
    run(ctx, "game embark", json_out, figure=figure, skiff=skiff, game=game, override=override)


@app.command("disembark")
def disembark(
    ctx: typer.Context,
    figure: Annotated[str, typer.Argument(help="The passenger.")],
    to: Annotated[str, typer.Argument(help="The square next to the skiff it is placed on.")],
    game: GameOpt = None,
    override: OverrideOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """SWM 2008 Desert Skiff: a passenger gets off just before the round's first activation, next to the skiff."""
    run(ctx, "game disembark", json_out, figure=figure, to=to, game=game, override=override)


@app.command("place")
def place(
    ctx: typer.Context,
    spec: Annotated[str, typer.Argument(help="The figure as a position file writes it: '{id: rex, side: light, at: B2, card: ...}'.")],
    game: GameOpt = None,
    override: OverrideOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Put a figure on the map mid-game (a reinforcement, a judge's fix), written as a position file's figure: '{id: rex, side: light, at: B2, card: ...}'."""
    run(ctx, "game place", json_out, spec=spec, game=game, override=override)


@app.command("remove")
def remove(ctx: typer.Context, figure: Annotated[str, typer.Argument()], game: GameOpt = None, json_out: JsonOpt = False) -> None:
    """Take a figure off the table."""
    run(ctx, "game remove", json_out, figure=figure, game=game)


@app.command("note")
def note(ctx: typer.Context, text: Annotated[str, typer.Argument(help="The judge's note.")],
         on: Annotated[int | None, typer.Option("--on", help="The earlier event the note is about (its number in 'game log').", min=1,
                                                metavar="N")] = None,
         game: GameOpt = None, json_out: JsonOpt = False) -> None:
    """Annotate the log (shown in the export), or one event of it with --on N."""
    run(ctx, "game note", json_out, text=text, on=on, game=game)
