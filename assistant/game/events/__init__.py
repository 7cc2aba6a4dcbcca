"""Every kind of event a miniatures game's log holds, each in one place: its shape, its check,
its fold and its words for the log, filed in :data:`~assistant.game.state.EVENT_KINDS` by
:func:`~assistant.game.state.event_kind` as its module loads.

This package is the one list of the modules that hold kinds; :mod:`assistant.game` imports
it, so every kind is filed before any log is folded. A new kind is one class in the module
of its part of the game (or a new module named here) and its tests.

- :mod:`.rounds`: initiative, activate, end-turn, end
- :mod:`.moves`: move, door, embark, disembark
- :mod:`.combat`: attack, opportunity, charge, power, damage
- :mod:`.figures`: heal, force, condition, morale, flee
- :mod:`.bookkeeping`: the log's own setup and undo, and the judge's place, relocate, remove, note
"""

from __future__ import annotations

from . import bookkeeping, combat, figures, moves, rounds

__all__ = ["bookkeeping", "combat", "figures", "moves", "rounds"]
