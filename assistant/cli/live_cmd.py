"""``serve`` (the phones' web app) and ``shell`` (an interactive prompt): one running table.

The shell's prompt is :mod:`.shell` and its lines :mod:`.shell_lines` (this module keeps the
command; :func:`run_line` and :func:`complete` are named here too, where callers found them).
"""

from __future__ import annotations

import secrets
import socket
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from .. import i18n
from ..commands.context import resolve_position
from ..errors import AssistantError
from ..i18n import _
from ..limits import check_query
from ..position import load_position
from .common import library
from .output import edge, out
from .shell_lines import complete, run_line

__all__ = ["complete", "run_line", "serve", "shell"]


def _table(ctx: typer.Context, game: Path | None, position: str | None) -> Any:
    # start-up time: the live table and the game package only for serve and the shell
    from ..game.store import latest_current_game
    from ..live.table import CardTable, Table  # start-up time: see the line above (the web app's table)

    if position is not None and game is not None:
        raise AssistantError(_("give --position or --game, not both"))
    if position is not None:
        pos = load_position(resolve_position(position), library(ctx))
        check_query(pos)
        return Table(position=pos, library=library(ctx))
    path = game if game is not None else latest_current_game()
    if path is None:
        raise AssistantError(_("no current game: start one ('python -m assistant game new --position FILE', "
                             "'destiny new TABLE' or 'swtcg new TABLE'), or give --game or --position"))
    if _is_card_game(path):
        return CardTable(path)
    table = Table(game=path, library=library(ctx))
    table.snapshot()  # a damaged or missing game is refused here, before the server starts
    return table


def _is_card_game(path: Path) -> bool:
    from ..cardgames import CARD_GAMES  # start-up time: see _table
    from ..game.store import GameStore  # start-up time: see _table

    store = GameStore.open_readonly(path)
    try:
        return store.meta().get("rules") in CARD_GAMES
    finally:
        store.close()


def _lan_address() -> str:
    """This computer's address on the local network (no packet is sent: a UDP socket is only
    pointed at a private address to ask which interface the system would use)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("10.255.255.255", 1))
        return str(s.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    finally:
        s.close()


def serve(
    ctx: typer.Context,
    game: Annotated[Path | None, typer.Option("--game", help="The game to serve (default: the game made current last, of any kind).", metavar="PATH")] = None,
    position: Annotated[str | None, typer.Option("--position", "-p", help="Serve a bare position (questions only, no turns).")] = None,
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="The port to listen on.")] = 8765,
    lan: Annotated[bool, typer.Option("--lan", help="Listen on the local network (phones join by the QR code; a secret token is required).")] = False,
    spectators: Annotated[bool, typer.Option("--spectators", help="Also print a read-only link for spectators.")] = False,
    lang: Annotated[str | None, typer.Option("--lang", help="Serve every page in en, pl or cs (default: each phone's browser language, "
                                                             "unless 'python -m assistant --lang' chose one).", metavar="LANG")] = None,
) -> None:
    """The live table: a web app the players' phones join (board, targets, turns, photos)."""
    # `serve --lang pl` (as the README writes it) and `--lang pl serve` both choose the table's language
    if lang is not None:
        if lang.strip().lower() not in i18n.LANGUAGES:
            raise typer.BadParameter(_("{lang!r}: the languages are {names}").format(lang=lang, names=", ".join(i18n.LANGUAGES)),
                                     param_hint="--lang")
        i18n.set_language(lang.strip().lower())
    with edge():
        chosen = lang.strip().lower() if lang is not None else (ctx.obj or {}).get("lang")
        table = _table(ctx, game, position)
        try:
            import uvicorn  # noqa: F401  (only to name a missing package here, before anything is printed)

            from ..live import qr, web
        except ImportError as exc:  # pragma: no cover - the dependencies are declared
            raise AssistantError(_("the live table needs its web packages ({name}); reinstall the package").format(name=exc.name)) from None
        token = secrets.token_urlsafe(16) if lan else None
        watch = secrets.token_urlsafe(16) if (lan and spectators) else None
        host = "0.0.0.0" if lan else "127.0.0.1"
        web.check_port(host, port)  # a port in use is said before the table is announced open
        shown = _lan_address() if lan else "127.0.0.1"
        link = f"http://{shown}:{port}/" + (f"?t={token}" if token else "")
        out.print(_("[bold]The table is open:[/] {link}").format(link=escape(link)))
        if lan:
            # black on white with its quiet zone whatever the terminal's theme (see live/qr.py)
            out.file.write(qr.terminal(link) + "\n")
            out.file.flush()
            out.print(_("Scan the code with each phone at the table. Anyone with this link can play: do not post it."))
            if watch:
                out.print(_("Spectators (read-only): http://{shown}:{port}/?t={watch}").format(shown=shown, port=port, watch=watch))
        else:
            out.print(_("Only this computer can join; use --lan to let phones on the local network in."))
        out.print(_("Serving {what}. Ctrl-C stops; the game log keeps everything.").format(what=escape(str(table.game or _("a bare position")))))
        # the names a request's Host may give: a page on another site, or a name rebound to this computer, is refused
        hosts = web.table_hosts(port, shown if lan else None)
        app_ = web.create_app(table, token=token, spectator=watch, language=chosen, invite=link if lan else None, hosts=hosts)
        web.serve_forever(app_, host, port)

def shell(
    ctx: typer.Context,
    game: Annotated[Path | None, typer.Option("--game", help="The game to use (default: the game made current last, of any kind).", metavar="PATH")] = None,
) -> None:
    """An interactive prompt over the current game: the same commands, tab-completed, with history."""
    from .shell import run_shell  # start-up time: the prompt's library only for the shell

    with edge():
        code = run_shell(game, tuple(str(p) for p in ((ctx.find_root().obj or {}).get("cards", []))))
    if code:
        raise typer.Exit(code)
