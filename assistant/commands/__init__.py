"""One command layer under every edge: each verb a player or judge can say -- the miniatures
questions, the game session's records, the card games' plays -- is one function here,
registered once (:mod:`.registry`), answering a :class:`~.result.Result` (the JSON and the
lines). The CLI, the shell and the web app are adapters over it; this package imports no edge
(no typer, fastapi, rich or prompt_toolkit).

The verbs' modules register on import; :func:`load_all` imports them all (the shell, the web
app, the tests). A one-shot command imports only the module its verb is in.
"""

from __future__ import annotations

from .context import Session
from .registry import REGISTRY, Verb, find, verb
from .result import Result


def load_all() -> dict[str, Verb]:
    """Every registered verb, by name (importing every verb module)."""
    from . import cardgames, cardverbs, queries, records  # noqa: F401  (they register on import)

    return REGISTRY


__all__ = ["REGISTRY", "Result", "Session", "Verb", "find", "load_all", "verb"]
