"""The verbs, registered once: a name as the command line spells it (``los``, ``game move``,
``destiny do``), the function that answers it, and its arguments read from that function's
signature. Every edge is an adapter over this table: the CLI calls the functions with the
values it parsed, the shell reads the words of a line (:func:`parse_words`), the web app the
JSON of a request (:func:`from_json`).

A verb function takes the :class:`~.context.Session` first, then its arguments by keyword; the
``positional`` ones are said in order (``game move FIGURE TO``), the others as options
(``--roll 14``, ``--combined-fire a,b``; a ``bool`` is a flag, ``bool | None`` a pair
``--moved/--not-moved``, a ``list[str]`` is repeated).
"""

from __future__ import annotations

import importlib
import inspect
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import AssistantError
from ..i18n import _, n_
from .context import Session
from .result import Result

VerbFunction = Callable[..., Result]


@dataclass(frozen=True)
class Param:
    """One argument of a verb: its name (the function's), its type (``str``, ``int``, ``bool``,
    ``list``, ``Path``), whether it may be left out, and its default."""

    name: str
    kind: type
    optional: bool
    default: Any
    positional: bool
    tri: bool = False  # bool | None: --name / --not-name

    @property
    def option(self) -> str:
        return "--" + self.name.replace("_", "-")


@dataclass(frozen=True)
class Verb:
    name: str
    function: VerbFunction
    params: tuple[Param, ...]
    query: str  # the "query" an error names under --json
    writes: bool  # records an event (refused to a spectator, to a bare position)
    local: bool  # works on this computer's files (a table file to start from): not over the web
    fixed: tuple[tuple[str, Any], ...] = ()  # arguments the registration fixes (which card game)
    library: bool = False  # writes the user's card library (cards set): a table serving a position may too
    anywhere: bool = False  # needs no game nor position (cards show: the library's card), asked at any table (R224)

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)

    def __call__(self, session: Session, **args: Any) -> Result:
        return self.function(session, **dict(self.fixed), **args)


REGISTRY: dict[str, Verb] = {}
#: what a session, not the verb, chooses: the web app and the shell fix them
SESSION_PARAMS = frozenset({"game", "position"})
#: the card games' verbs begin with the game's name; every other verb (the questions, ``game``,
#: ``cards``: the stat-card library) belongs to the miniatures games
CARD_GAME_PREFIXES = ("destiny", "swtcg")


def verb_game(name: str) -> str:
    """The kind of game a verb works on (``miniatures``, ``destiny`` or ``swtcg``, as
    :data:`~..game.store.GAME_KINDS` names them): what a table of that kind offers its players."""
    first = name.split(" ")[0]
    return first if first in CARD_GAME_PREFIXES else "miniatures"


def _kind(hint: Any) -> tuple[type, bool, bool]:
    """(base type, optional, tri-state bool) of an annotation."""
    args = typing.get_args(hint)
    optional = type(None) in args
    base = [a for a in args if a is not type(None)] if args and typing.get_origin(hint) is not list else [hint]
    t = base[0] if base else str
    if typing.get_origin(t) is list:
        return list, optional, False
    return t, optional, optional and t is bool


def verb(name: str, *, positional: Sequence[str] = (), query: str | None = None, writes: bool = False,
         local: bool = False, fixed: Mapping[str, Any] | None = None, library: bool = False,
         anywhere: bool = False) -> Callable[[VerbFunction], VerbFunction]:
    """Register a verb function under ``name`` (the words the command line says)."""

    def register(fn: VerbFunction) -> VerbFunction:
        hints = typing.get_type_hints(fn)
        params = []
        for p in list(inspect.signature(fn).parameters.values())[1:]:
            if fixed and p.name in fixed:
                continue
            kind, optional, tri = _kind(hints[p.name])
            has_default = p.default is not inspect.Parameter.empty
            params.append(Param(p.name, kind, optional or has_default, p.default if has_default else None, p.name in positional, tri))
        order = {n: i for i, n in enumerate(positional)}
        params.sort(key=lambda p: (not p.positional, order.get(p.name, 0)))
        REGISTRY[name] = Verb(name, fn, tuple(params), query or name.split()[-1], writes, local, tuple((fixed or {}).items()), library, anywhere)
        return fn

    return register


def find(name: str, game: str | None = None) -> Verb:
    """The verb of this name; its module is imported now if it was not (start-up time: a
    one-shot ``los`` loads neither the game session's verbs nor the card games'). ``game``: the
    kind of game asking (:func:`verb_game`): an unknown name lists that game's verbs only, those a
    player there can use, not every game's."""
    if name not in REGISTRY:
        first = name.split()[0] if name.split() else ""
        module = "queries" if " " not in name.strip() else "records" if first == "game" else "cardverbs" if first == "cards" else "cardgames"
        importlib.import_module(f"{__package__}.{module}")
    found = REGISTRY.get(name)
    if found is None:
        names = sorted(n for n in REGISTRY if game is None or verb_game(n) == game)
        raise AssistantError(_("unknown command {verb!r}: {names}").format(verb=name, names=", ".join(names)))
    return found


def split_verb(words: Sequence[str]) -> tuple[Verb, list[str]] | None:
    """The registered verb a line starts with (the longest name that fits), and the rest."""
    for n in (2, 1):
        v = REGISTRY.get(" ".join(words[:n]))
        if v is not None and len(words) >= n:
            return v, list(words[n:])
    return None


# --- the shell: words ------------------------------------------------------------------


def parse_words(v: Verb, words: Sequence[str]) -> dict[str, Any]:
    """A verb's arguments from the words of a line, as the command line reads them."""
    args: dict[str, Any] = {}
    positional = [p for p in v.params if p.positional]
    by_option: dict[str, tuple[Param, Any]] = {}
    for p in v.params:
        if p.positional:
            continue
        if p.kind is bool:
            by_option[p.option] = (p, True)
            if p.tri:
                by_option["--not-" + p.name.replace("_", "-")] = (p, False)
        else:
            by_option[p.option] = (p, None)
    if v.param("position") is not None:
        by_option["-p"] = by_option["--position"]
    if v.param("output") is not None:
        by_option["-o"] = by_option["--output"]
    rest = list(words)
    given: list[str] = []
    while rest:
        w = rest.pop(0)
        if w.startswith("-") and not _number(w):
            name, eq, value = w.partition("=")
            if name not in by_option:
                raise AssistantError(_("no such option: {name}").format(name=name))
            p, flag = by_option[name]
            if flag is not None:
                args[p.name] = flag
                continue
            if not eq:
                if not rest:
                    raise AssistantError(_("option {name} requires an argument").format(name=name))
                value = rest.pop(0)
            if p.kind is list:
                args.setdefault(p.name, []).append(value)
            else:
                args[p.name] = _convert(p, value)
        else:
            given.append(w)
    rest_list = bool(positional) and positional[-1].kind is list  # the last positional takes every word left (cards set NAME K=V ...)
    if len(given) > len(positional) and not rest_list:
        raise AssistantError(_("got unexpected extra argument ({value})").format(value=" ".join(given[len(positional):])))
    for i, p in enumerate(positional):
        if p.kind is list:
            if given[i:]:
                args[p.name] = list(given[i:])
        elif i < len(given):
            args[p.name] = _convert(p, given[i])
    for p in v.params:
        if p.name not in args and not p.optional:
            raise AssistantError(_("missing argument {name}").format(name=p.option if not p.positional else p.name.upper()))
    return args


def _number(word: str) -> bool:
    return word[1:].isdigit()


def _convert(p: Param, value: str) -> Any:
    if p.kind is int:
        try:
            return int(value)
        except ValueError:
            raise AssistantError(_("{key!r} must be a whole number, not {v!r}").format(key=p.name, v=value)) from None
    if p.kind is Path:
        return Path(value)
    return value


# --- the web: JSON ---------------------------------------------------------------------


def from_json(v: Verb, body: Mapping[str, Any]) -> dict[str, Any]:
    """A verb's arguments from a request's JSON object; what the session chooses (the game, a
    position file) and paths on the server are not the request's to say."""
    args: dict[str, Any] = {}
    for p in v.params:
        if p.name in SESSION_PARAMS or p.kind is Path:
            if body.get(p.name) is not None:
                raise AssistantError(_("{key!r} is not given over the web: the table serves one game").format(key=p.name))
            continue
        if p.name not in body or body[p.name] is None:
            if not p.optional:
                raise AssistantError(_("{key!r} is missing or not a short text").format(key=p.name))
            continue
        args[p.name] = json_value(p, body[p.name])
    unknown = sorted(set(body) - {p.name for p in v.params})
    if unknown:
        raise AssistantError(n_("unknown argument {names}: {verb} takes {known}", "unknown arguments {names}: {verb} takes {known}", len(unknown)).format(
            names=", ".join(map(repr, unknown)), verb=v.name, known=", ".join(p.name for p in v.params if p.name not in SESSION_PARAMS) or "none"))
    return args


def json_value(p: Param, v: Any) -> Any:
    """One argument from JSON, refused plainly when it is not the kind the verb takes."""
    if p.kind is bool:
        if not isinstance(v, bool):
            raise AssistantError(_("{key!r} must be true or false, not {v!r}").format(key=p.name, v=v))
        return v
    if p.kind is int:
        return whole_number(p.name, v)
    if p.kind is list:
        if not isinstance(v, list) or not all(isinstance(x, str) and len(x) <= MOST_TEXT for x in v) or len(v) > 50:
            raise AssistantError(_("{key!r} must be a list of short texts").format(key=p.name))
        return list(v)
    return short_text(p.name, v)


#: the longest text a request's argument may give (a note, a name, a square)
MOST_TEXT = 200


def short_text(key: str, v: Any) -> str:
    if isinstance(v, str) and len(v) > MOST_TEXT:  # a phone's long note said only "missing or not a short text"
        raise AssistantError(n_("{key!r} is {n} character long: at most {most}", "{key!r} is {n} characters long: at most {most}", len(v)).format(
            key=key, n=len(v), most=MOST_TEXT))
    if not isinstance(v, str) or not v.strip():
        raise AssistantError(_("{key!r} is missing or not a short text").format(key=key))
    return v.strip()


#: the largest number a request's argument may give (a d20, an amount of damage, an event's number)
MOST_NUMBER = 10**6 - 1


def whole_number(key: str, v: Any) -> int:
    if isinstance(v, bool):
        raise AssistantError(_("{key!r} must be a whole number, not {v!r}").format(key=key, v=v))
    digits = v.strip() if isinstance(v, str) and v.strip().isascii() and v.strip().lstrip("-").isdigit() else None
    if digits is None and not isinstance(v, int):
        raise AssistantError(_("{key!r} must be a whole number, not {v!r}").format(key=key, v=v))
    if digits is not None and len(digits) < 8:
        v = int(digits)
    if isinstance(v, int) and abs(v) <= MOST_NUMBER:
        return v
    # a whole number, too large: "must be a whole number, not 999999999999" said it was none
    shown = str(v) if len(str(v)) <= 24 else str(v)[:23] + "…"
    raise AssistantError(_("{key!r} is {v}: past the numbers the table takes ({least} to {most})").format(
        key=key, v=shown, least=-MOST_NUMBER, most=MOST_NUMBER))
