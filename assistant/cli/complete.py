"""Shell completion of the values a command takes: figure ids, position files and bundled
examples, game files, card names. Installed with ``tabletop-assistant --install-completion``.

The completers are attached to the built command tree by parameter name (one place, not on each
of some fifty parameters). A completer never fails: whatever it cannot read completes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

#: parameters that name a figure of the position asked about
FIGURE_PARAMS = frozenset({"figure", "viewer", "target", "attacker", "a", "b"})
#: (command, parameter) pairs that take a position file or a bundled example's name
POSITION_PARAMS = frozenset({("*", "position"), ("show", "file"), ("validate", "files"), ("normalize", "file"), ("import", "file")})
#: parameters that take a game file
GAME_PARAMS = frozenset({"game", "game_file"})


def _matching(words: list[str], incomplete: str) -> list[str]:
    return sorted({w for w in words if w.startswith(incomplete)})


def _quietly(fn: Callable[[Any, Any, str], list[str]]) -> Callable[[Any, Any, str], list[str]]:
    def safe(ctx: Any, param: Any, incomplete: str) -> list[str]:
        try:
            return fn(ctx, param, incomplete)
        except Exception:  # completion must never break the shell: nothing to offer instead
            return []

    return safe


@_quietly
def figure_ids(ctx: Any, param: Any, incomplete: str) -> list[str]:
    """The figures of the position the command is asked about: ``--position``, ``--game``, or
    the current game."""
    from ..position import load_position  # start-up time: a completion reads the position (pydantic) only when Tab asks for figure ids
    from ..resources import example_path  # start-up time: the bundled examples' paths only when a completion reads one

    given = ctx.params.get("position")
    if given:
        path = Path(given) if Path(given).is_file() else example_path(given)
        ids = [f.id for f in load_position(path).figures] if path else []
    else:
        from ..game import Game  # start-up time: the game log and its engine only when a completion reads the current game
        from ..game.store import current_game_path  # start-up time: the games' folder only when a completion reads the current game

        game = ctx.params.get("game") or current_game_path("miniatures")
        if game is None:  # no game in play: no figures to offer
            return []
        g = Game.open(Path(game), readonly=True)
        try:
            ids = [f.id for f in g.state().position.figures]
        finally:
            g.close()
    return _matching(ids, incomplete)


def _files_typed(incomplete: str, suffixes: tuple[str, ...]) -> list[str]:
    """Files with these suffixes in the folder being typed, named as the user is typing them."""
    folder = Path(incomplete).parent if incomplete else Path(".")
    return [str(p) if str(folder) != "." else p.name for p in folder.iterdir() if p.suffix in suffixes]


@_quietly
def position_names(ctx: Any, param: Any, incomplete: str) -> list[str]:
    """Bundled examples by name, and YAML files from the folder being typed."""
    from ..resources import example_files  # start-up time: the bundled examples' list only when Tab asks for one

    return _matching([p.stem for p in example_files()] + _files_typed(incomplete, (".yaml", ".yml")), incomplete)


@_quietly
def game_files(ctx: Any, param: Any, incomplete: str) -> list[str]:
    """Game files from the folder being typed, and those in the games folder."""
    from ..game.store import games_home  # start-up time: the games' folder only when Tab asks for a game file

    kept = [str(p) for p in (games_home() / "games").glob("*.sqlite")]
    return _matching(_files_typed(incomplete, (".sqlite", ".db")) + kept, incomplete)


@_quietly
def card_names(ctx: Any, param: Any, incomplete: str) -> list[str]:
    """Card names of the library in use (``--cards`` given before the command counts)."""
    from ..cards import default_library  # start-up time: the card library (every set file read) only when Tab asks for a card

    root = ctx.find_root()
    extra = (root.params.get("cards") if root is not None else None) or ()
    low = incomplete.lower()
    return sorted({n for n in default_library(extra).names() if n.lower().startswith(low)})


@_quietly
def rules_games(ctx: Any, param: Any, incomplete: str) -> list[str]:
    """The miniatures games a card belongs to (``abilities --game``: a game, not a game file)."""
    from ..cards import GAMES  # start-up time: the card library's module only when Tab asks for a game's name

    return _matching(list(GAMES), incomplete)


def _walk(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    """The commands built so far (a lazy group's ``loaded()``: one built later is attached then)."""
    yield path, command
    commands = getattr(command, "commands", {})
    for name, sub in (commands.loaded() if hasattr(commands, "loaded") else commands).items():
        yield from _walk(sub, (*path, name))


def attach(root: Any, at: tuple[str, ...] = ()) -> None:
    """Give every figure, position, game and card parameter of the command tree its completer
    (``at``: where ``root`` sits in the whole tree)."""
    for path, command in _walk(root, at):
        name = path[-1] if path else ""
        for p in getattr(command, "params", []):
            if getattr(p, "param_type_name", "") == "argument" and p.name in FIGURE_PARAMS:
                p._custom_shell_complete = figure_ids
            elif ("*", p.name) in POSITION_PARAMS or (name, p.name) in POSITION_PARAMS:
                p._custom_shell_complete = position_names
            elif name == "abilities" and p.name == "game":
                p._custom_shell_complete = rules_games
            elif p.name in GAME_PARAMS:
                p._custom_shell_complete = game_files
            elif path[:1] == ("cards",) and name == "show" and p.name == "name":
                p._custom_shell_complete = card_names
