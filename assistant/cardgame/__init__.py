"""What the card games share: the table-command notation (:mod:`.notation`), the outcome of a
command, and the game log over the SQLite event store (:mod:`.log`)."""

from dataclasses import dataclass
from typing import Any, Callable, TypeVar

from ..errors import AssistantError


class IllegalCommandError(AssistantError):
    """A table command the rules do not allow now; the message names the rule."""


@dataclass(frozen=True)
class Outcome:
    """A command's result: the next table and what happened, each line with its rule."""

    table: Any
    said: tuple[str, ...]


F = TypeVar("F", bound=Callable[..., Any])


def registrar(table: dict[str, Any]) -> Callable[[str], Callable[[F], F]]:
    """A decorator factory that files each command handler under its verb in ``table``."""

    def verb(name: str) -> Callable[[F], F]:
        def reg(f: F) -> F:
            table[name] = f
            return f
        return reg
    return verb
