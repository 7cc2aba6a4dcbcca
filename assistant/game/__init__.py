"""The game session: an SQLite log of events (:mod:`.store`) folded into a state (:mod:`.state`).

>>> import tempfile, pathlib
>>> from assistant.resources import example_path
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> g = Game.new(d / "g.sqlite", example_path("clone-wars-corridor").read_text())
>>> g.do("initiative", {"rolls": {"light": 14, "dark": 9}, "winner": "light", "first": "light"}).kind
'initiative'
>>> g.state().expected_side()
'light'
>>> g.refusals("activate", {"figure": "dooku"})[0].text
"it is light's activation: each player activates up to 2 characters per phase, alternating"
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..cards import CardLibrary
from ..errors import AssistantError
from ..position import dump_position, parse_position
from ..rules.engine import Reason
from .state import GameState, check, fold
from .store import Event, GameStore


class RefusedError(AssistantError):
    """A command the rules refuse now; the message gives every reason and its rule."""

    def __init__(self, reasons: list[Reason]):
        self.reasons = reasons
        text = "; ".join(f"{r.text} ({r.rule})" for r in reasons)
        super().__init__(f"refused: {text}. A judge may record it anyway with --override \"reason\"")


class Game:
    def __init__(self, store: GameStore, library: CardLibrary | None = None):
        self.store = store
        self.library = library

    @classmethod
    def new(cls, path: Path, position_yaml: str, library: CardLibrary | None = None, override: str | None = None) -> "Game":
        """Start a game; squads that break the edition's building rules are refused unless
        overridden with a reason (recorded with the setup)."""
        from .squads import check_squads

        pos = parse_position(position_yaml, "position", library)  # refuse a bad position before creating anything
        problems, _unchecked = check_squads(pos)
        if problems and not override:
            raise RefusedError(problems)
        store = GameStore.create(path, pos.rules.value, dump_position(pos))
        if override:
            store.append("note", {"text": f"squad-building rules overridden: {'; '.join(p.text for p in problems)}"}, override=override)
        return cls(store, library)

    @classmethod
    def open(cls, path: Path, library: CardLibrary | None = None) -> "Game":
        store = GameStore.open(path)
        rules = store.meta().get("rules", "")
        if rules in ("destiny", "swtcg"):
            store.close()
            from .store import GameFileError

            raise GameFileError(f"{path} is a {rules} game: use 'python -m assistant {rules} ...'")
        return cls(store, library)

    @property
    def path(self) -> Path:
        return self.store.path

    def events(self) -> list[Event]:
        return self.store.events()

    def state(self, upto: int | None = None) -> GameState:
        return fold(self.store.events(), self.library, upto)

    def refusals(self, kind: str, data: dict[str, Any]) -> list[Reason]:
        return check(self.state(), kind, data)

    def do(self, kind: str, data: dict[str, Any], override: str | None = None) -> Event:
        """Record a command. It is checked inside the write lock against the log as it is
        then; refused commands write nothing unless overridden with a reason."""

        def guard(events: list[Event]) -> None:
            state = fold(events, self.library)
            reasons = check(state, kind, data)
            if reasons and not override:
                raise RefusedError(reasons)
            # the event must apply cleanly to the state (unknown figure, bad square, ...)
            from .state import apply

            apply(state, kind, data)

        if override is not None and not override.strip():
            raise AssistantError("an override needs a reason")
        return self.store.append(kind, data, override=override, check=guard)

    def undo(self, seq: int | None = None) -> Event:
        from .store import undo_target

        return self.store.append("undo", {"seq": undo_target(self.store.events(), seq)})

    def close(self) -> None:
        self.store.close()
