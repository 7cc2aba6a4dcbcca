"""What the card games share: the table-command notation (:mod:`.notation`), the outcome of a
command, and the game log over the SQLite event store (:mod:`.log`)."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from ..errors import AssistantError
from ..i18n import _


class IllegalCommandError(AssistantError):
    """A table command the rules do not allow now; the message names the rule."""


@dataclass(frozen=True)
class Outcome:
    """A command's result: the next table and what happened, each line with its rule."""

    table: Any
    said: tuple[str, ...]


F = TypeVar("F", bound=Callable[..., Any])


def entity_keys(usage: str) -> bool:
    """Does the verb's usage take keys that name things on the table (``D1=FACE``, ``CHAR=N``)?"""
    import re

    return re.search(r"\b[A-Z][A-Z0-9]*=", usage) is not None


def declared_options(handler: Callable[..., Any], usage: str = "") -> set[str]:
    """The KEY= options a verb takes: those its help line (docstring) writes and those its code
    reads (``cmd.opt("x")``, ``cmd.int_opt``, ``cmd.flag``). Any other option is refused rather
    than silently ignored."""
    import inspect
    import re

    found = set(re.findall(r"\b([a-z][a-z0-9-]*)=", (handler.__doc__ or "") + " " + usage))
    try:
        src = inspect.getsource(handler)
    except (OSError, TypeError):
        src = ""
    found |= set(re.findall(r"\bcmd\.(?:opt|int_opt|flag|signed_opt)\(\s*[\"']([a-z][a-z0-9-]*)[\"']", src))
    return found


def registrar(table: dict[str, Any]) -> Callable[[str], Callable[[F], F]]:
    """A decorator factory that files each command handler under its verb in ``table``."""

    def verb(name: str) -> Callable[[F], F]:
        def reg(f: F) -> F:
            table[name] = f
            return f
        return reg
    return verb


def naming_fields(inner: Callable[[Any, str], Any]) -> Callable[[Any, str], Any]:
    """Wrap a table's ``lookup(table, path)``: a path naming no field is refused with the fields
    there are, never an internal error."""
    import functools

    @functools.wraps(inner)
    def lookup(t: Any, path: str) -> Any:
        from ..errors import NotationError

        if any(part.startswith("__") for part in path.split(".")):  # Python's insides (__class__) are no fact of the table
            raise NotationError(_("{path!r}: no fact of the table is named with '__'").format(path=path))
        try:
            return inner(t, path)
        except (KeyError, IndexError) as e:  # a field a table's own mapping does not have (stat.ID.NAME)
            raise NotationError(_("{path!r}: no field {name!r} there").format(path=path, name=str(e.args[0]) if e.args else "?")) from None
        except AttributeError as e:
            import re
            from dataclasses import fields, is_dataclass

            from ..errors import NotationError

            name = getattr(e, "name", None) or (re.findall(r"attribute '([^']*)'", str(e)) or ["?"])[0]
            obj = getattr(e, "obj", None)
            there = ", ".join(f.name for f in fields(obj)) if obj is not None and is_dataclass(obj) else "see --help"
            raise NotationError(_("{path!r}: no field {name!r} there; fields: {there}").format(path=path, name=name, there=there)) from None
    return lookup
