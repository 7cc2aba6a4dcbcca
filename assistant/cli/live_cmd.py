"""``serve`` (the phones' web app) and ``shell`` (an interactive prompt): one running table."""

from __future__ import annotations

import secrets
import shlex
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from .. import i18n
from ..errors import AssistantError
from ..i18n import N_, _


def _table(ctx: typer.Context, game: Path | None, position: str | None) -> Any:
    from ..live.table import Table
    from .app import library, resolve_position

    if position is not None and game is not None:
        raise AssistantError(_("give --position or --game, not both"))
    if position is not None:
        from ..limits import check_query
        from ..position import load_position

        pos = load_position(resolve_position(position), library(ctx))
        check_query(pos)
        return Table(position=pos, library=library(ctx))
    from ..game.store import latest_current_game

    path = game if game is not None else latest_current_game()
    if path is None:
        raise AssistantError(_("no current game: start one ('python -m assistant game new --position FILE', "
                             "'destiny new TABLE' or 'swtcg new TABLE'), or give --game or --position"))
    if _is_card_game(path):
        from ..live.table import CardTable

        return CardTable(path)
    table = Table(game=path, library=library(ctx))
    table.snapshot()  # a damaged or missing game is refused here, before the server starts
    return table


def _is_card_game(path: Path) -> bool:
    from ..cardgames import CARD_GAMES
    from ..game.store import GameStore

    store = GameStore.open_readonly(path)
    try:
        return store.meta().get("rules") in CARD_GAMES
    finally:
        store.close()


def _lan_address() -> str:
    """This computer's address on the local network (no packet is sent: a UDP socket is only
    pointed at a private address to ask which interface the system would use)."""
    import socket

    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("10.255.255.255", 1))
        return str(s.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    finally:
        s.close()


def register(app: typer.Typer) -> None:
    @app.command()
    def serve(
        ctx: typer.Context,
        game: Annotated[Path | None, typer.Option("--game", help="The game to serve (default: the game made current last, of any kind).", metavar="PATH")] = None,
        position: Annotated[str | None, typer.Option("--position", "-p", help="Serve a bare position (questions only, no turns).")] = None,
        port: Annotated[int, typer.Option("--port", min=1, max=65535, help="The port to listen on.")] = 8765,
        lan: Annotated[bool, typer.Option("--lan", help="Listen on the local network (phones join by the QR code; a secret token is required).")] = False,
        spectators: Annotated[bool, typer.Option("--spectators", help="Also print a read-only link for spectators.")] = False,
    ) -> None:
        """The live table: a web app the players' phones join (board, targets, turns, photos)."""
        from .app import edge, out

        with edge():
            table = _table(ctx, game, position)
            try:
                import segno
                import uvicorn

                from ..live.web import create_app
            except ImportError as exc:  # pragma: no cover - the dependencies are declared
                raise AssistantError(_("the live table needs its web packages ({name}); reinstall the package").format(name=exc.name)) from None
            token = secrets.token_urlsafe(16) if lan else None
            watch = secrets.token_urlsafe(16) if (lan and spectators) else None
            host = "0.0.0.0" if lan else "127.0.0.1"
            shown = _lan_address() if lan else "127.0.0.1"
            link = f"http://{shown}:{port}/" + (f"?t={token}" if token else "")
            out.print(_("[bold]The table is open:[/] {link}").format(link=escape(link)))
            if lan:
                qr = segno.make(link, error="m")
                qr.terminal(compact=True)
                out.print(_("Scan the code with each phone at the table. Anyone with this link can play: do not post it."))
                if watch:
                    out.print(_("Spectators (read-only): http://{shown}:{port}/?t={watch}").format(shown=shown, port=port, watch=watch))
            else:
                out.print(_("Only this computer can join; use --lan to let phones on the local network in."))
            out.print(_("Serving {what}. Ctrl-C stops; the game log keeps everything.").format(what=escape(str(table.game or _("a bare position")))))
            app_ = create_app(table, token=token, spectator=watch, language=(ctx.obj or {}).get("lang"))
            uvicorn.run(app_, host=host, port=port, log_level="warning")

    @app.command()
    def shell(
        ctx: typer.Context,
        game: Annotated[Path | None, typer.Option("--game", help="The game to use (default: the game made current last, of any kind).", metavar="PATH")] = None,
    ) -> None:
        """An interactive prompt over the current game: the same commands, tab-completed, with history."""
        from .app import edge

        with edge():
            run_shell(ctx, game)


SHELL_HELP = N_("Commands are the CLI's without 'python -m assistant': los A B, cover A B, attack A B, targets A, "
              "game status, game activate A, game move A D5, game attack A B --roll 14, game end-turn, game undo, show. "
              "'help' lists every command; 'quit' leaves.")


def shell_words(ctx: typer.Context, game: Path | None) -> list[str]:
    """What the prompt completes: the commands, the game verbs and the figure ids."""
    words = ["los", "cover", "range", "attack", "targets", "matrix", "nearest", "show", "help", "quit", "game", "status", "log",
             "activate", "move", "end-turn", "undo", "initiative", "damage", "heal", "note", "export", "--roll", "--json", "--override",
             "--auto"]
    try:
        table = _table(ctx, game, None)
        if hasattr(table, "snapshot"):
            words += [f.id for f in table.snapshot().position.figures]
    except AssistantError:
        pass
    return words


_COMMAND: Any = None


def _command() -> Any:
    """The CLI as one click command, built once (typer builds it anew on every call otherwise)."""
    global _COMMAND
    if _COMMAND is None:
        import typer.main

        from .app import app

        _COMMAND = typer.main.get_command(app)
    return _COMMAND


def run_line(line: str, game: Path | None) -> int:
    """One line of the shell, run as the CLI would run it (in this process: milliseconds)."""

    try:
        args = shlex.split(line)
    except ValueError as exc:
        from .app import T_ERROR, err

        err.print(f"[bold red]{escape(_(T_ERROR))}:[/] {escape(str(exc))}")
        return 2
    if not args:
        return 0
    if game is not None and (args[0] == "game" or args[0] in ("los", "cover", "range", "attack", "targets", "matrix", "nearest")) \
            and "--game" not in args and "--position" not in args and "-p" not in args:
        args += ["--game", str(game)]
    try:
        # every line answers in the language the shell was started in (the root option is per line)
        rc = _command().main(["--lang", i18n.current(), *args], standalone_mode=False, prog_name="table>")
        if isinstance(rc, int):  # click returns the exit code of ctx.exit() when not standalone
            return rc
    except SystemExit as exc:
        return int(exc.code or 0)
    except Exception as exc:
        from .app import T_ERROR, err

        err.print(f"[bold red]{escape(_(T_ERROR))}:[/] {escape(str(exc))}")
        return 2
    return 0


def run_shell(ctx: typer.Context, game: Path | None) -> None:
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import WordCompleter
    from prompt_toolkit.history import FileHistory, InMemoryHistory

    from ..game.store import games_home
    from .app import out

    out.print(f"[bold]tabletop-assistant shell[/] -- {escape(_(SHELL_HELP))}")
    try:
        home = games_home()
        home.mkdir(parents=True, exist_ok=True)
        history: Any = FileHistory(str(home / "shell-history"))
    except OSError:
        history = InMemoryHistory()
    session: PromptSession[str] = PromptSession(history=history)
    while True:
        completer = WordCompleter(shell_words(ctx, game), ignore_case=True, sentence=True)
        try:
            line = session.prompt("table> ", completer=completer)
        except (EOFError, KeyboardInterrupt):
            break
        line = line.strip()
        if line in ("quit", "exit", "q"):
            break
        if line in ("help", "?"):
            line = "--help"
        run_line(line, game)
