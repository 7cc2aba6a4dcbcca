"""What the card games share: the table-command notation (:mod:`.notation`), the outcome of a
command, and the game log over the SQLite event store (:mod:`.log`)."""

import functools
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, fields, is_dataclass
from typing import Any, Literal, TypeVar

from ..errors import AssistantError, NotationError
from ..i18n import _


class IllegalCommandError(AssistantError):
    """A table command the rules do not allow now; the message names the rule."""


@dataclass(frozen=True)
class Outcome:
    """A command's result: the next table and what happened, each line with its rule."""

    table: Any
    said: tuple[str, ...]


F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Options:
    """The KEY= options a verb takes, declared where the verb is filed (never guessed from its
    help line or its code: an option its handler reads in a helper is declared all the same).

    ``keys``: what a key that is not one of ``names`` may be -- nothing (``options``); a die or a
    card on the table (``table``: ``A resolve f1 p1=ranged:1``, the focus turning die p1); or
    whatever the verb itself checks, key by key (``verb``: ``h1=ranged:2`` naming the dice an
    activation rolls, ``ai=special`` a die rolled in from outside the game)."""

    names: frozenset[str] = frozenset()
    keys: Literal["options", "table", "verb"] = "options"

    def check(self, cmd: Any, on_table: Collection[str], usage: str) -> None:
        """Refuse an option the verb does not take (a typo must not be silently ignored)."""
        if self.keys == "verb":
            return
        given = {k for k, _unused in cmd.opts}
        named = {k for k in given if k in on_table} if self.keys == "table" else set()
        cmd.check_options(set(self.names) | named, usage)


def registrar(table: dict[str, Any], options: dict[str, Options]) -> Callable[..., Callable[[F], F]]:
    """A decorator factory that files each command handler under its verb in ``table``, and the
    options it takes in ``options``: ``@verb("resolve", "x", keys="table")``."""

    def verb(name: str, *names: str, keys: Literal["options", "table", "verb"] = "options") -> Callable[[F], F]:
        def reg(f: F) -> F:
            table[name] = f
            options[name] = Options(frozenset(names), keys)
            return f
        return reg
    return verb



def naming_fields(inner: Callable[[Any, str], Any]) -> Callable[[Any, str], Any]:
    """Wrap a table's ``lookup(table, path)``: a path naming no field is refused with the fields
    there are, never an internal error."""

    @functools.wraps(inner)
    def lookup(t: Any, path: str) -> Any:
        if any(part.startswith("__") for part in path.split(".")):  # Python's insides (__class__) are no fact of the table
            raise NotationError(_("{path!r}: no fact of the table is named with '__'").format(path=path))
        try:
            return inner(t, path)
        except (KeyError, IndexError) as e:  # a field a table's own mapping does not have (stat.ID.NAME)
            raise NotationError(_("{path!r}: no field {name!r} there").format(path=path, name=str(e.args[0]) if e.args else "?")) from None
        except AttributeError as e:
            name = getattr(e, "name", None) or (re.findall(r"attribute '([^']*)'", str(e)) or ["?"])[0]
            obj = getattr(e, "obj", None)
            there = ", ".join(f.name for f in fields(obj)) if obj is not None and is_dataclass(obj) else "see --help"
            raise NotationError(_("{path!r}: no field {name!r} there; fields: {there}").format(path=path, name=name, there=there)) from None
    return lookup
