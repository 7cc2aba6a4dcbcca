"""``serve`` (the phones' web app) and ``shell`` (an interactive prompt): one running table.

The shell reads a line's words as the command layer's verbs take them (every registered verb,
in this process, from the game it has already folded) and hands any other line (``show``,
``cards list``, ``--help``) to the whole command tree.
"""

from __future__ import annotations

import secrets
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from .. import i18n
from ..commands import Session, load_all
from ..commands.context import resolve_position
from ..commands.registry import parse_words, split_verb
from ..errors import AssistantError
from ..i18n import N_, _
from ..limits import check_query
from ..position import load_position
from .common import library, show
from .output import edge, out, print_error

#: the whole command tree (set by the root that assembles it: this module does not import it)
ROOT: Any = None


def _table(ctx: typer.Context, game: Path | None, position: str | None) -> Any:
    # start-up time: the live table and the game package only for serve and the shell
    from ..game.store import latest_current_game
    from ..live.table import CardTable, Table

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
        app_ = web.create_app(table, token=token, spectator=watch, language=chosen, invite=link if lan else None)
        web.serve_forever(app_, host, port)

def shell(
    ctx: typer.Context,
    game: Annotated[Path | None, typer.Option("--game", help="The game to use (default: the game made current last, of any kind).", metavar="PATH")] = None,
) -> None:
    """An interactive prompt over the current game: the same commands, tab-completed, with history."""
    with edge():
        run_shell(ctx, game)


SHELL_HELP = N_("Commands are the CLI's without 'python -m assistant': los A B, cover A B, attack A B, targets A, "
              "game status, game activate A, game move A D5, game attack A B --roll 14, game end-turn, game undo, show. "
              "'help' lists every command; 'quit' leaves.")

#: the shell's own words and the root's commands that are not verbs
SHELL_WORDS = ("help", "quit", "show", "validate", "examples", "reading", "cards", "photo", "--json", "--override", "--help")

#: one session per game the shell serves: the folded game is kept between lines
_SESSIONS: dict[tuple[Path | None, tuple[str, ...]], Session] = {}


def _session(game: Path | None, cards: tuple[str, ...] = ()) -> Session:
    key = (game, cards)
    if key not in _SESSIONS:
        _SESSIONS.clear()
        _SESSIONS[key] = Session(cards=cards, cache=True)
    return _SESSIONS[key]


def _figures(game: Path | None, cards: tuple[str, ...] = ()) -> list[str]:
    try:
        return [f.id for f in _session(game, cards).load(None, game)[0].figures]
    except AssistantError:
        return []


def shell_words(ctx: typer.Context, game: Path | None) -> list[str]:
    """What the prompt completes: every verb's words, the shell's own, and the figure ids."""
    words = sorted({w for name in load_all() for w in name.split()} | set(SHELL_WORDS))
    return words + _figures(game)


def complete(before: Sequence[str], word: str, game: Path | None = None, figures: Sequence[str] = ()) -> list[str]:
    """The words that may come next (every word of a line, not only the first): a verb's first
    word, then its second (``game`` → ``move``), then its options and the figures."""
    verbs = load_all()
    if not before:
        candidates = sorted({n.split()[0] for n in verbs} | set(SHELL_WORDS) - {"--json", "--override", "--help"})
    elif len(before) == 1 and any(n.startswith(before[0] + " ") for n in verbs):
        candidates = sorted(n.split()[1] for n in verbs if n.startswith(before[0] + " "))
    else:
        found = split_verb(list(before))
        options: list[str] = ["--json"]
        if found is not None:
            for p in found[0].params:
                if not p.positional:
                    options.append(p.option)
                    if p.tri:
                        options.append("--not-" + p.name.replace("_", "-"))
        candidates = options + list(figures)
    return [c for c in candidates if c.lower().startswith(word.lower())]


def run_line(line: str, game: Path | None, cards: tuple[str, ...] = ()) -> int:
    """One line of the shell: a registered verb runs in this process on the session's folded
    game (milliseconds); any other line runs as the command line would run it."""
    try:
        args = shlex.split(line)
    except ValueError as exc:
        print_error(str(exc))
        return 2
    if not args:
        return 0
    load_all()
    found = split_verb(args) if not {"--help", "-h"} & set(args) else None
    if found is not None:
        v, words = found
        json_out = "--json" in words
        words = [w for w in words if w != "--json"]
        try:
            parsed = parse_words(v, words)
        except AssistantError:
            parsed = None  # an option only the command line has (--png): the command line runs it
        if parsed is not None:
            if game is not None and (v.name.startswith("game ") or v.param("position") is not None) \
                    and parsed.get("game") is None and parsed.get("position") is None:
                parsed["game"] = game
            try:
                with edge(json_out, v.query):
                    result = v(_session(game, cards), **parsed)
                    show(v.name, result, json_out)
            except (typer.Exit, SystemExit) as exc:
                code = exc.exit_code if isinstance(exc, typer.Exit) else exc.code
                return int(code or 0)
            return result.exit_code
    return _run_cli(args, game)


def _run_cli(args: list[str], game: Path | None) -> int:
    """A line through the whole command tree, as the command line runs it."""
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
        print_error(str(exc))
        return 2
    return 0


_COMMAND: Any = None


def _command() -> Any:
    """The CLI as one click command, built once (typer builds it anew on every call otherwise)."""
    global _COMMAND
    if _COMMAND is None:
        import typer.main

        if ROOT is None:
            raise AssistantError(_("the shell runs inside the command line ('python -m assistant shell')"))
        _COMMAND = typer.main.get_command(ROOT)
    return _COMMAND


def run_shell(ctx: typer.Context, game: Path | None) -> None:
    # start-up time: the prompt's library only for the shell
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import Completer, Completion
    from prompt_toolkit.history import FileHistory, InMemoryHistory

    from ..game.store import games_home

    cards = tuple(str(p) for p in ((ctx.find_root().obj or {}).get("cards", [])))

    class _Words(Completer):
        def get_completions(self, document: Any, complete_event: Any) -> Any:
            text = document.text_before_cursor
            try:
                words = shlex.split(text)
            except ValueError:
                return
            current = "" if not text or text[-1].isspace() else (words.pop() if words else "")
            for w in complete(words, current, game, _figures(game, cards) if words else ()):
                yield Completion(w, start_position=-len(current))

    out.print(f"[bold]tabletop-assistant shell[/] -- {escape(_(SHELL_HELP))}")
    try:
        home = games_home()
        home.mkdir(parents=True, exist_ok=True)
        history: Any = FileHistory(str(home / "shell-history"))
    except OSError:
        history = InMemoryHistory()
    session: PromptSession[str] = PromptSession(history=history, completer=_Words())
    while True:
        try:
            line = session.prompt("table> ")
        except (EOFError, KeyboardInterrupt):
            break
        line = line.strip()
        if line in ("quit", "exit", "q"):
            break
        if line in ("help", "?"):
            line = "--help"
        run_line(line, game, cards)
