"""The shell's lines: what one line runs (:func:`run_line`) and what the prompt completes at each
word of a line (:func:`complete`). The prompt itself (:mod:`.shell`) imports this module after
the prompt is shown, in the background: it brings Typer, rich and the command layer.

A registered verb runs in this process, on the session's folded game (kept between lines while
the game file is unchanged); any other line (``show``, ``cards list``, ``--help``, an option only
the command line has) runs through the whole command tree.
"""

from __future__ import annotations

import difflib
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import typer

from .. import i18n
from ..commands import Session, load_all
from ..commands.registry import Param, Verb, parse_words, split_verb
from ..coords import Square
from ..errors import AssistantError
from ..game.store import GameStore, LogKeeper
from ..i18n import _
from ..model import Position
from ..rules.record import find_edition
from .common import show
from .complete import attach, card_names, game_files, position_names
from .output import ABORTS, click, edge, print_error

__all__ = ["complete", "prepare", "root", "run_line", "split_line"]


def root() -> Any:
    """The whole command tree, once its root module is imported (None before): this module does not
    import it (the tree runs one way), and the root imports this module only when a shell or the web
    app is started, so the root is looked up where it is loaded rather than handed over."""
    tree = sys.modules.get(f"{__package__}.app")
    return getattr(tree, "app", None)

#: the shell's own words and the root's commands that are not verbs
SHELL_WORDS = ("help", "quit", "show", "validate", "examples", "reading", "cards", "photo", "--json", "--override", "--help")
#: commands of the tree the shell does not offer: a shell inside the shell (a second prompt would need
#: two quits), and the web server (it would hold the prompt until Ctrl-C, which a player would
#: take for the shell hanging)
NOT_OFFERED = frozenset({"shell", "serve"})
#: a line's first words that ask for help: alone, every command; before a command, that command's
HELP_WORDS = ("help", "?")

#: parameters that name a figure of the position asked about
FIGURES = frozenset({"figure", "viewer", "target", "attacker", "a", "b", "skiff", "by"})
#: parameters that name a square of its map
SQUARES = frozenset({"to"})
#: parameters that take one of a few fixed words (the verb refuses any other)
CHOICES: dict[str, tuple[str, ...]] = {"action": ("add", "remove"), "state": ("open", "close"), "format": ("json", "md")}
#: parameters that take a d20 roll
ROLLS = frozenset({"roll"})

#: one session per game the shell serves: the folded game and the card library are kept between
#: lines (the session refolds when the game file changes)
_SESSIONS: dict[tuple[Path | None, tuple[str, ...]], Session] = {}


def _session(game: Path | None, cards: tuple[str, ...] = ()) -> Session:
    key = (game, cards)
    if key not in _SESSIONS:
        _SESSIONS.clear()
        _SESSIONS[key] = Session(cards=cards, cache=True)
    return _SESSIONS[key]


def prepare(game: Path | None, cards: tuple[str, ...] = ()) -> None:
    """Everything the first line would otherwise wait for: the verbs, the command tree, the card
    library and the game folded (the prompt calls this in the background once it is shown)."""
    load_all()
    if root() is not None:
        _command()
    _hold(game)
    session = _session(game, cards)
    session.library()
    try:
        session.load(None, game)
    except AssistantError:  # no current game, a damaged file: the first line says so itself
        pass


# --- completion --------------------------------------------------------------------------


def split_line(text: str) -> tuple[list[str], str, str]:
    """(the words before the one being typed, that word, its opening quote or ``""``) of the
    text before the cursor; a word in an unclosed quote is the one being typed.

    >>> split_line('los obi s')
    (['los', 'obi'], 's', '')
    >>> split_line('game move obi ')
    (['game', 'move', 'obi'], '', '')
    >>> split_line('cards show "General Ob')
    (['cards', 'show'], 'General Ob', '"')
    """
    for quote in ("", '"', "'"):
        try:
            words = shlex.split(text + quote)
        except ValueError:
            continue
        if quote:
            return words[:-1], words[-1] if words else "", quote
        if not text or text[-1].isspace():
            return words, "", ""
        return words[:-1], words[-1] if words else "", ""
    return [], "", ""


def _option_value(words: Sequence[str], *names: str) -> str | None:
    for i, w in enumerate(words):
        name, eq, value = w.partition("=")
        if name in names:
            if eq:
                return value
            if i + 1 < len(words):
                return words[i + 1]
    return None


def _position(rest: Sequence[str], game: Path | None, cards: tuple[str, ...]) -> Position | None:
    """The position a line asks about: its ``--position``, its ``--game``, else the shell's game."""
    try:
        given = _option_value(rest, "-p", "--position")
        other = _option_value(rest, "--game")
        return _session(game, cards).load(given, None if given else Path(other) if other else game)[0]
    except (AssistantError, OSError):
        return None


def _figure_ids(pos: Position | None) -> list[str]:
    return [f.id for f in pos.figures] if pos is not None else []


def _squares(pos: Position | None, word: str) -> list[str]:
    """The map's squares named as the word begins (every square once a letter is typed; the
    columns' first squares before, so that an empty word does not list the whole map)."""
    if pos is None:
        return []
    if not word:
        return [Square(c, 0).name for c in range(pos.map.cols)]
    return [Square(c, r).name for c in range(pos.map.cols) for r in range(pos.map.rows)
            if Square(c, r).name.lower().startswith(word.lower())]


def _paths(word: str) -> list[str]:
    """Files and folders in the folder being typed (a folder ends in ``/``; hidden ones only once
    a dot is typed)."""
    folder = Path(word).parent if word else Path(".")
    found = []
    for p in sorted(folder.iterdir()):
        if p.name.startswith(".") and not Path(word).name.startswith("."):
            continue
        name = str(p) if str(folder) != "." else p.name
        found.append(name + "/" if p.is_dir() else name)
    return found


def _values(v: Verb, p: Param, rest: Sequence[str], word: str, game: Path | None, cards: tuple[str, ...]) -> list[str]:
    """What may fill one argument of a verb (nothing when the argument is free text)."""
    if p.name == "position":
        return position_names(None, None, word)
    if p.name == "game":
        return game_files(None, None, word)
    if p.kind is Path:
        return _paths(word)
    if p.name in CHOICES:
        return list(CHOICES[p.name])
    if p.name in ROLLS:
        return [str(n) for n in range(1, 21)]
    if p.name == "name" and v.name == "game condition":  # the edition's own list (reading R163)
        pos = _position(rest, game, cards)
        return sorted(find_edition(pos.edition).conditions) if pos is not None else []
    if p.name == "name" and v.name.startswith("cards "):
        return card_names(_CardsContext(cards), None, word)
    if p.name in FIGURES or p.name == "tow":
        return _figure_ids(_position(rest, game, cards))
    if p.name == "combined_fire":  # a comma-separated list: the last name is the one being typed
        head = word.rpartition(",")[0]
        done = set(head.split(",")) if head else set()
        return [(head + "," if head else "") + f for f in _figure_ids(_position(rest, game, cards)) if f not in done]
    if p.name in SQUARES:
        return _squares(_position(rest, game, cards), word)
    if p.name == "edge":
        pos = _position(rest, game, cards)
        return sorted(e.name for e in pos.map.doors) if pos is not None else []
    return []


class _CardsContext:
    """What :func:`.complete.card_names` reads of a click context: the root's ``--cards``."""

    def __init__(self, cards: tuple[str, ...]) -> None:
        self.params = {"cards": list(cards)}

    def find_root(self) -> _CardsContext:
        return self


def _options(v: Verb) -> list[str]:
    """A verb's options: the command layer's, then those only the command line has (``--png``),
    which the shell hands to the whole command tree."""
    options = ["--json"]
    for p in v.params:
        if not p.positional:
            options.append(p.option)
            if p.tri:
                options.append("--not-" + p.name.replace("_", "-"))
    command = _tree_command(v.name.split())
    for param in getattr(command, "params", []):
        for opt in getattr(param, "opts", []) + getattr(param, "secondary_opts", []):
            if opt.startswith("--") and opt not in options and opt != "--help":
                options.append(opt)
    return options


def _verb_words(v: Verb, rest: Sequence[str], word: str, game: Path | None, cards: tuple[str, ...]) -> list[str]:
    """What may come next after a verb's name and ``rest``: the value of the option just named,
    else the next positional argument's values, and the options."""
    by_option = {p.option: p for p in v.params if not p.positional}
    if v.param("position") is not None:
        by_option["-p"] = by_option["--position"]
    positional = [p for p in v.params if p.positional]
    given = 0
    i = 0
    while i < len(rest):
        w = rest[i]
        if w.startswith("-") and not w[1:].isdigit():
            p = by_option.get(w.partition("=")[0])
            if p is not None and p.kind is not bool and "=" not in w:
                if i + 1 == len(rest):  # the word being typed is this option's value
                    return _values(v, p, rest, word, game, cards)
                i += 1
        else:
            given += 1
        i += 1
    if word.startswith("--") and "=" in word:  # --option=value
        p = by_option.get(word.partition("=")[0])
        if p is None or p.kind is bool:
            return []
        prefix = word.partition("=")[0] + "="
        return [prefix + value for value in _values(v, p, rest, word.partition("=")[2], game, cards)]
    values: list[str] = []
    if not word.startswith("-") and positional:
        if given < len(positional):
            values = _values(v, positional[given], rest, word, game, cards)
        elif positional[-1].kind is list:
            values = _values(v, positional[-1], rest, word, game, cards)
    return values + _options(v)


def _tree_command(path: Sequence[str]) -> Any:
    """The command tree's command at ``path`` (None before the tree is loaded, or none there)."""
    if root() is None:
        return None
    command = _command()
    for name in path:
        commands = getattr(command, "commands", None)
        if commands is None or name not in commands:
            return None
        command = commands[name]
    return command


class _InProcess(click.shell_completion.ShellComplete):
    """click's completion of a line asked in this process (no shell script, no environment); the
    click the command tree is built with (Typer may vendor its own)."""

    def source_vars(self) -> dict[str, Any]:
        return {}

    def get_completion_args(self) -> tuple[list[str], str]:
        return [], ""

    def format_completion(self, item: Any) -> str:
        return str(item.value)


def _tree_completions(before: Sequence[str], word: str) -> list[str]:
    """What click's own completion offers for a line of the whole tree (``show``, ``cards list``,
    ``photo``), with the completers of :mod:`.complete` (bundled examples, card names)."""
    if root() is None:
        return []
    found = _InProcess(_command(), {}, "table>", "").get_completions(list(before), word)
    return [item.value for item in found if item.type == "plain"]


def complete(before: Sequence[str], word: str, game: Path | None = None, cards: tuple[str, ...] = ()) -> list[str]:
    """The words that may come next, at every word of a line: a verb's first word, then its
    second (``game`` -> ``move``), then, for a registered verb, the values of the argument or
    option being typed (figure ids of the position the line asks about, squares of its map,
    bundled examples, game files, card names, add/remove, a d20 roll) and the verb's options;
    any other line is completed as the command tree completes it. A completion never fails:
    what cannot be read completes nothing.

    >>> complete(["game"], "mo")
    ['morale', 'move']
    """
    verbs = load_all()
    try:
        if not before:
            tree = [n for n in getattr(_tree_command(()), "commands", {}) if n not in NOT_OFFERED]
            candidates = sorted({n.split()[0] for n in verbs} | set(tree) | set(SHELL_WORDS) - {"--json", "--override", "--help"})
        elif len(before) == 1 and any(n.startswith(before[0] + " ") for n in verbs):
            candidates = sorted({n.split()[1] for n in verbs if n.startswith(before[0] + " ")} | set(_tree_completions(before, word)))
        else:
            found = split_verb(list(before))
            if found is None:
                candidates = _tree_completions(before, word)
            else:
                candidates = _verb_words(found[0], found[1], word, game, cards)
    except Exception:  # completion must never break the shell: nothing to offer instead
        return []
    low = word.lower()
    seen: set[str] = set()
    return [c for c in candidates if c.lower().startswith(low) and not (c in seen or seen.add(c))]  # type: ignore[func-returns-value]


# --- one line ----------------------------------------------------------------------------


def run_line(line: str, game: Path | None, cards: tuple[str, ...] = ()) -> int:
    """One line of the shell: a registered verb runs in this process on the session's folded
    game (milliseconds); any other line runs as the command line would run it."""
    _hold(game)  # before the line, so that its reads are the kept log's
    try:
        return _run_line(line, game, cards)
    finally:
        _hold(game)  # and after: the line may have made the game (game new) or put another in its place


#: the current game file's verified log, kept while the shell runs: a line opens the file anew,
#: and with nothing keeping the log each open after a write verified the whole hash chain again
#: (a 3,000-event log: a note and the query after it, about a second each)
_KEEPER = LogKeeper()


def _hold(game: Path | None) -> None:
    """Keep ``game``'s verified log; nothing where there is no game, or where the file is no game
    (the line that reads it says what is wrong)."""
    if game is None:
        return
    try:
        st = game.stat()
    except OSError:
        return
    if _KEEPER.key == (st.st_dev, st.st_ino):  # the file kept already: no store opened a line
        return
    if not game.is_file():
        return
    try:
        store = GameStore.open(game)
    except (AssistantError, OSError):
        return
    try:
        _KEEPER.keep(store)
    finally:
        store.close()


def _run_line(line: str, game: Path | None, cards: tuple[str, ...]) -> int:
    try:
        args = shlex.split(line)
    except ValueError as exc:
        print_error(str(exc))
        return 2
    if not args:
        return 0
    if args[0] in HELP_WORDS:  # 'help' lists every command; 'help game move' is that command's own help
        while args and args[0] in HELP_WORDS:
            args = args[1:]
        args = [*args, "--help"]
    elif not args[0].startswith("-") and args[0] not in NOT_OFFERED and root() is not None \
            and args[0] not in _first_words():
        return _unknown_command(args[0])
    if args[0] == "serve":  # typed anyway: it would hold this prompt until Ctrl-C
        print_error(_("the web app runs beside the shell, not inside it: start it in another terminal "
                      "('python -m assistant serve'); both use the same games"))
        return 2
    if args[0] in NOT_OFFERED:  # typed anyway: a second prompt inside this one would need two quits
        print_error(_("you are already in the shell: type its commands here ('quit' leaves it)"))
        return 2
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
    return _run_cli(args, game, cards)


def _first_words() -> set[str]:
    """The words a line may start with: the verbs' first words and the tree's commands."""
    return {n.split()[0] for n in load_all()} | set(getattr(_tree_command(()), "commands", {}))


def _unknown_command(word: str) -> int:
    """A first word no command has (a typo, a word of another program's): said in the shell's own
    words, with the commands nearest it -- Click offered "Did you mean 'shell'?" for "helo", a
    command the shell refuses, and pointed at "table> -h" (reading R371)."""
    near = difflib.get_close_matches(word, sorted((_first_words() - NOT_OFFERED) | set(HELP_WORDS[:1]) | {"quit"}), n=3, cutoff=0.6)
    text = _("no command '{word}': 'help' lists every command, 'help COMMAND' what one takes; 'quit' leaves").format(word=word)
    if near:
        text += " " + _("(did you mean {names}?)").format(names=", ".join(f"'{n}'" for n in near))
    print_error(text)
    return 2


def _run_cli(args: list[str], game: Path | None, cards: tuple[str, ...] = ()) -> int:
    """A line through the whole command tree, as the command line runs it."""
    if game is not None and (args[0] == "game" or args[0] in ("los", "cover", "range", "attack", "targets", "matrix", "nearest")) \
            and "--game" not in args and "--position" not in args and "-p" not in args:
        args += ["--game", str(game)]
    root_options = [w for c in cards for w in ("--cards", c)]
    try:
        # every line answers in the language the shell was started in (the root option is per line)
        rc = _command().main(["--lang", i18n.current(), *root_options, *args], standalone_mode=False, prog_name="table>")
        if isinstance(rc, int):  # click returns the exit code of ctx.exit() when not standalone
            return rc
    except SystemExit as exc:
        return int(exc.code or 0)
    except ABORTS:  # Click turns Ctrl-C into Abort, whose text is empty ("error: " alone was printed)
        raise KeyboardInterrupt from None
    except Exception as exc:
        print_error(str(exc))
        return 2
    return 0


_COMMAND: Any = None


def _command() -> Any:
    """The CLI as one click command, built once (typer builds it anew on every call otherwise),
    its completers attached."""
    global _COMMAND
    if _COMMAND is None:
        import typer.main  # start-up time: Typer's command tree only when the shell first needs it

        tree = root()
        if tree is None:
            raise AssistantError(_("the shell runs inside the command line ('python -m assistant shell')"))
        _COMMAND = typer.main.get_command(tree)
        attach(_COMMAND)
    return _COMMAND
