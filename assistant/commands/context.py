"""Where a verb finds its game: the session an edge opens (the card files it was given, the game
it serves) and the game files of each kind.

A one-shot command line makes a session per command; the shell and the web app keep one for
their life, so a question answered twice folds the log once (the fold is cached by the log's
last event, the file's and its -wal's size and time, and the language its texts are written in).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..cards import CardLibrary, default_library
from ..errors import AssistantError
from ..i18n import _, current
from ..limits import check_query
from ..model import Map, Position
from ..position import load_position
from ..resources import example_path
from ..textsafe import says_something

if TYPE_CHECKING:
    from ..game import Game
    from ..game.state import GameState


def opened_by(kind: str) -> str:
    """How a kind of game is started and opened (the card games' names read from their registry
    only here: it imports every card game, which a geometry question does not need)."""
    from .games import card_game_names  # start-up time: see above

    return {"miniatures": "python -m assistant game", **{name: f"python -m assistant {name}" for name in card_game_names()}}[kind]


def resolve_position(path: str) -> Path:
    """A position file path; a bundled example's name works too (``corridor``)."""
    p = Path(path)
    try:
        if p.exists():
            return p
    except (OSError, ValueError):  # a name too long for the file system, a NUL byte: not an existing file
        return p
    ex = example_path(path) if len(path) < 256 and "\x00" not in path else None
    return ex if ex is not None else p


def game_path(explicit: Path | None, kind: str = "miniatures") -> Path:
    """The game file a command works on: the one named, or the current game of its kind. A game
    of another kind is refused, naming the commands that open it."""
    # start-up time: the game package only once a game is named or looked for
    from ..game.store import current_game_path, game_kind

    start = "game new --position FILE" if kind == "miniatures" else f"{kind} new TABLE"
    if explicit is None:
        cur = current_game_path(kind)
        if cur is None:
            raise AssistantError(
                _("no current {kind} game: start one with 'python -m assistant {start}' or name one with --game").format(kind=kind, start=start)
            )
        return cur
    if kind != "miniatures" and not os.path.lexists(explicit):  # the store's own words name the miniatures' 'game new'
        raise AssistantError(_("no game at {path}: start one with 'python -m assistant {start}'").format(path=explicit, start=start))
    found = game_kind(explicit) if explicit.is_file() else None
    if found is not None and found != kind:
        raise AssistantError(
            _("{explicit} is a {found} game: open it with '{OPENED_BY} ...' (for example '{OPENED_BY} status --game {explicit}')").format(
                explicit=explicit, found=found, OPENED_BY=opened_by(found)
            )
        )
    return explicit


@dataclass
class Session:
    """An edge's view of the table: ``cards``, extra card files; ``game``, the game a verb that
    names none works on (the shell's, the web's), else the current game of its kind;
    ``position``, a bare position served instead of a game (questions only); ``cache``, whether
    to keep folded games between verbs (a long-lived edge); ``cards_library``, the library when
    the edge has loaded it already."""

    cards: tuple[str, ...] = ()
    game: Path | None = None
    position: Position | None = None
    cache: bool = False
    cards_library: CardLibrary | None = None  # a library already loaded (the web app's)
    _folds: dict[tuple[Any, ...], tuple[GameState, dict[str, str]]] = field(default_factory=dict, repr=False)
    #: the newest game's fold kept to go on from (:attr:`~assistant.game.Game.kept`): after a
    #: change only the events appended are folded, in a shell or a served table alike
    _kept: dict[tuple[Any, ...], Any] = field(default_factory=dict, repr=False)

    def library(self) -> CardLibrary:
        return self.cards_library if self.cards_library is not None else default_library(list(self.cards))

    def game_path(self, explicit: Path | None = None, kind: str = "miniatures") -> Path:
        return game_path(explicit if explicit is not None else self.game, kind)

    def open_game(self, path: Path | None = None, readonly: bool = False) -> Game:
        from ..game import Game  # start-up time: a question asked of a position file folds no game

        where = self.game_path(path)
        g = Game.open(where, self.library(), readonly=readonly)
        if self.cache:
            g.kept = self._kept.get(self._kept_key(where))
        return g

    def _kept_key(self, where: Path) -> tuple[Any, ...]:
        return (str(where.resolve()), current(), self.cards)

    def read_state(self, path: Path | None = None, upto: int | None = None) -> tuple[GameState, dict[str, str]]:
        """The game's state (read-only: works on a read-only folder), and its meta."""
        where = self.game_path(path)
        key: tuple[Any, ...] | None = None
        if self.cache and upto is None:
            from ..game.store import last_seq, log_marks  # start-up time: see game_path

            key = (str(where.resolve()), last_seq(where), log_marks(where), current(), self.cards)
            hit = self._folds.get(key)
            if hit is not None:
                return hit
        from ..game import Game  # start-up time: a question asked of a position file folds no game

        g = Game.open(where, self.library(), readonly=True)
        if key is not None:
            g.kept = self._kept.get(self._kept_key(where))
        try:
            events = g.events()
            if upto is not None:
                last = events[-1].seq if events else 0
                if not 1 <= upto <= last:
                    raise AssistantError(_("--to {upto}: the log has events #1 to #{last}").format(upto=upto, last=last))
            folded = g.state(upto=upto), g.store.meta()
        finally:
            g.close()
        if key is not None:
            self._folds = {key: folded}  # one game at a time: the newest fold only
            self._kept = {self._kept_key(where): g.kept}
        return folded

    def load(self, position: str | None = None, game: Path | None = None) -> tuple[Position, GameState | None]:
        """(position, game state or None) a question is asked of. Without a position file the
        game's log supplies the state: positions, damage, who has activated this round and who
        moved this turn."""
        if position is not None and game is not None:
            raise AssistantError(_("give --position or --game, not both"))
        if position is not None:
            pos = load_position(resolve_position(position), self.library())
            check_query(pos)
            return pos, None
        if game is None and self.position is not None:
            return self.position, None
        st, _meta = self.read_state(game)
        check_query(st.position)
        return st.position, st


def current_game_map(session: Session, cols: int, rows: int) -> tuple[Map, Path] | None:
    """The current miniatures game's map and its file, where that map is ``cols`` x ``rows``
    squares: the map an empty-map photo of that size most likely shows, whose printed terrain may
    tell which way round the photo's markerless grid lies (``map from-photo``, reading R931).
    None where there is no current game, it cannot be read (the photo is read without it, as
    before: a game is no input the command asked for), or its map is of another size."""
    from ..game.store import current_game_path  # start-up time: the game package only when a map photo looks for a game

    where = current_game_path()
    if where is None:
        return None
    try:
        state, _meta = session.read_state(where)
    except (AssistantError, OSError):  # damaged, foreign, newer, unreadable: the photo alone, as without a game
        return None
    found = state.position.map
    return (found, where) if (found.cols, found.rows) == (cols, rows) else None


def refuse_empty_note(text: str) -> None:
    """A judge's note, of a miniatures game or a card game, must say something a reader sees: a
    note of a NUL alone, or of a bidi override alone, was recorded from a phone as an event that
    shows nothing (reading R330); the card games' note had no check of its own."""
    if not says_something(text):
        raise AssistantError(_("an empty note"))
