"""``python -m assistant shell``: the prompt. Its first prompt is shown before anything the
answers need is imported.

Start-up time: a player waits for the first prompt, so this module imports only the prompt's own
library (prompt_toolkit; this module is imported only to start the shell) and nothing of the command tree, Typer, rich or the rules. Once the prompt
is drawn, a background thread imports the shell's lines (:mod:`.shell_lines`: the command layer,
Typer, rich), the command tree, the card library and folds the game (:func:`.shell_lines.prepare`)
while the player types; the first line (or the first Tab) waits for that thread to finish. The
thread only imports and reads (it prints nothing and records nothing), so a line can never see a
half-done state: it waits for the whole.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator
from html import escape
from pathlib import Path
from typing import Any

from prompt_toolkit import PromptSession, print_formatted_text
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import HTML
from prompt_toolkit.history import FileHistory, InMemoryHistory

from ..i18n import N_, _
from ..resources import user_data_dir

__all__ = ["SHELL_HELP", "ShellCompleter", "run_shell"]

SHELL_HELP = N_("Commands are the CLI's without 'python -m assistant': los A B, cover A B, attack A B, targets A, "
              "game status, game activate A, game move A D5, game attack A B --roll 14, game end-turn, game undo, show. "
              "'help' lists every command; 'quit' leaves.")


class _Warm:
    """What the lines need, made ready in a background thread once the prompt is drawn."""

    def __init__(self, game: Path | None, cards: tuple[str, ...], tree: Callable[[], None] | None) -> None:
        self.game, self.cards, self.tree = game, cards, tree
        self.thread: threading.Thread | None = None

    def start(self, *_args: Any) -> None:
        if self.thread is None:
            self.thread = threading.Thread(target=self._run, name="shell-warm", daemon=True)
            self.thread.start()

    def _run(self) -> None:
        try:
            if self.tree is not None:
                self.tree()
            from . import shell_lines  # start-up time: see the module's docstring

            shell_lines.prepare(self.game, self.cards)
        except Exception:  # nothing is lost: the first line imports and reads the same, and reports
            pass

    def done(self) -> bool:
        return self.thread is not None and not self.thread.is_alive()

    def ready(self) -> Any:
        """The shell's lines module, once everything is ready (waiting for the thread if needed)."""
        self.start()
        assert self.thread is not None
        self.thread.join()
        if self.tree is not None:  # the thread may have failed before the tree was built
            self.tree()
        from . import shell_lines  # start-up time: see the module's docstring

        return shell_lines


class ShellCompleter(Completer):
    """Every word of a line completes (see :func:`.shell_lines.complete`); a value with a space
    (a card's name) is offered in quotes."""

    def __init__(self, game: Path | None = None, cards: tuple[str, ...] = (), warm: _Warm | None = None) -> None:
        self.game, self.cards = game, cards
        self.warm = warm if warm is not None else _Warm(game, cards, None)

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
        if not complete_event.completion_requested and not self.warm.done():
            return  # completing as one types: never hold a key back while the shell is still starting
        lines = self.warm.ready()
        before, current, quote = lines.split_line(document.text_before_cursor)
        for w in lines.complete(before, current, self.game, self.cards):
            text = f'"{w}"' if (" " in w or quote) else w
            yield Completion(text, start_position=-len(current) - len(quote), display=w)


def run_shell(game: Path | None, cards: tuple[str, ...] = (), tree: Callable[[], None] | None = None) -> int:
    """The prompt, until ``quit`` or end of input; the exit status: 0 at a terminal, and for lines
    from a file or a pipe the highest status a line gave (2: a line refused). ``tree``: makes the
    whole command tree ready (imports it), for a shell started without it (the command line's fast
    path); the lines no verb answers run through it."""
    warm = _Warm(game, cards, tree)
    if not sys.stdin.isatty():
        return _run_piped(warm, game, cards)
    print_formatted_text(HTML(f"<b>tabletop-assistant shell</b> -- {escape(_(SHELL_HELP))}"))
    try:
        home = user_data_dir()
        home.mkdir(parents=True, exist_ok=True)
        history: Any = FileHistory(str(home / "shell-history"))
    except OSError:
        history = InMemoryHistory()
    session: PromptSession[str] = PromptSession(history=history, completer=ShellCompleter(game, cards, warm))
    # the warm-up starts once the prompt is on the screen (not before: it would slow the drawing)
    session.app.after_render += warm.start
    while True:
        try:
            line = session.prompt("table> ")
        except KeyboardInterrupt:  # Ctrl-C drops the line being typed, as a terminal's shell does (R371)
            continue
        except EOFError:  # Ctrl-D leaves
            break
        line = line.strip()
        if line in ("quit", "exit", "q"):
            break
        try:
            warm.ready().run_line(line, game, cards)
        except KeyboardInterrupt:  # Ctrl-C stops the line running, not the shell
            print_formatted_text(_("interrupted: the rest of that line was not run; 'quit' leaves the shell"))
    return 0


def _run_piped(warm: _Warm, game: Path | None, cards: tuple[str, ...]) -> int:
    """Lines from a file or a pipe (``shell < plays.txt``): each runs as typed at the prompt, with no
    prompt, banner or line editing -- prompt_toolkit, given no terminal, warned "Input is not a
    terminal" and ran none of them. Blank lines and ``#`` comments are skipped; ``quit`` stops."""
    worst = 0
    for raw in sys.stdin:
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line in ("quit", "exit", "q"):
            break
        worst = max(worst, warm.ready().run_line(line, game, cards))
    return worst
