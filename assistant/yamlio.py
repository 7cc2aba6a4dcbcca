"""Reading YAML files with the line of every value, and writing them atomically.

Only PyYAML's safe loader is used (no arbitrary objects). Aliases are refused: a position
or card file never needs them, and refusing them rules out "billion laughs" blow-ups.
Problems are collected, never raised one by one, so that a user sees all of them at once.
"""

from __future__ import annotations

import dataclasses
import errno
import math
import os
import re
import tempfile
import typing
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from .coords import said
from .errors import AssistantError, Problem, did_you_mean
from .fileread import SQLITE_HEADER, check_regular, read_head, read_limited
from .i18n import _, n_

if TYPE_CHECKING:
    import yaml


class FileWriteError(AssistantError):
    """A file could not be written; the old file, if any, is untouched."""

Path_ = tuple[Any, ...]

#: Files larger than this are refused before parsing: real position and card files are
#: a few kilobytes, and the limit keeps a wrong path (a video, a disk image) harmless.
MAX_FILE_BYTES = 4 * 1024 * 1024


@dataclass
class LineMap:
    """Line numbers (1-based) of every key and value in a parsed document."""

    lines: dict[Path_, int] = field(default_factory=dict)

    def line(self, path: Sequence[Any]) -> int | None:
        """The line of ``path``, or of its nearest ancestor that exists in the file."""
        p = tuple(path)
        while p:
            if p in self.lines:
                return self.lines[p]
            p = p[:-1]
        return self.lines.get((), None)


def format_path(path: Sequence[Any]) -> str:
    """``('figures', 2, 'at')`` -> ``figures[2].at``.

    >>> format_path(("figures", 2, "at"))
    'figures[2].at'
    """
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


class YamlReadError(AssistantError):
    """The document could not be parsed at all; ``problems`` says why and where."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("; ".join(str(p) for p in problems))


def read_text(path: Path | str, display: str | None = None) -> tuple[str, str]:
    """The file's text and the name to show in messages; refuses what is not a small UTF-8 file."""
    p = Path(path)
    name = display or str(path)
    try:
        if p.is_dir():
            raise YamlReadError([Problem(_("is a directory, not a file"), name)])
        size = p.stat().st_size
        if size > MAX_FILE_BYTES:
            raise YamlReadError(
                [
                    Problem(
                        _("is {size} bytes; files over {MAX_FILE_BYTES} bytes are refused (is this the right file?)").format(
                            size=size, MAX_FILE_BYTES=MAX_FILE_BYTES
                        ),
                        name,
                    )
                ]
            )
        raw = read_limited(p, MAX_FILE_BYTES)
    except FileNotFoundError:
        raise YamlReadError([Problem(_("no such file"), name)]) from None
    except PermissionError:
        raise YamlReadError([Problem(_("permission denied"), name)]) from None
    except OSError as exc:
        raise YamlReadError([Problem(_("cannot be read ({why})").format(why=exc.strerror or exc), _short_name(name))]) from None
    except ValueError as exc:  # a NUL byte in the path
        raise YamlReadError([Problem(_("is not a usable file name ({exc})").format(exc=exc), _short_name(name))]) from None
    return decode_text(raw, name), name


def _short_name(name: str, limit: int = 120) -> str:
    return name if len(name) <= limit else name[:60] + "..." + name[-40:]


#: the byte-order marks a YAML file may start with, and the encoding each names (YAML 1.2 §5.2:
#: a processor reads UTF-8, UTF-16 and UTF-32; UTF-32's before UTF-16's, which start the same)
_BOMS = ((b"\x00\x00\xfe\xff", "utf-32"), (b"\xff\xfe\x00\x00", "utf-32"), (b"\xfe\xff", "utf-16"), (b"\xff\xfe", "utf-16"))


def decode_text(raw: bytes, name: str) -> str:
    """The text of a YAML file: UTF-8 (with or without its byte-order mark), or the UTF-16 or
    UTF-32 its byte-order mark names -- Windows Notepad's "Unicode" (reading R400)."""
    encoding = next((enc for bom, enc in _BOMS if raw.startswith(bom)), "utf-8-sig")
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError as exc:
        if encoding != "utf-8-sig":
            raise YamlReadError([Problem(_("is not UTF-8 text, and breaks off at byte {start} as the {encoding} its byte-order mark names: "
                                           "save it again as UTF-8").format(encoding=encoding.upper(), start=exc.start), name)]) from None
        line = raw[: exc.start].count(b"\n") + 1
        raise YamlReadError(
            [Problem(_("is not UTF-8 text (byte {start} is {raw:#04x}): not a YAML file, or one saved in another encoding "
                      "(Windows' \"ANSI\"): save it again as UTF-8").format(
                start=exc.start, raw=raw[exc.start]), name, line)]
        ) from None
    if "\x00" in text:
        raise YamlReadError([Problem(_("contains NUL bytes; it is a binary file, not YAML"), name)])
    return text


#: what PyYAML's context says was left open, and how to name it to a person
_OPENED = {
    "while parsing a flow mapping": "'{'",
    "while parsing a flow sequence": "'['",
    "while scanning a quoted scalar": "quote",
    "while parsing a flow node": "'{' or '['",
}


def _syntax_problem(exc: yaml.MarkedYAMLError, text: str, name: str) -> Problem:
    """A YAML syntax error, placed where a person must look: an unclosed bracket or quote is
    reported at the line where it opened (the parser notices only lines later, often at the
    end of the file), the place the parser stopped given too."""
    what = exc.problem or exc.context or "invalid YAML"
    stop = exc.problem_mark.line + 1 if exc.problem_mark is not None else None
    opened = _OPENED.get(exc.context or "")
    if opened and exc.context_mark is not None and exc.context_mark.line + 1 != stop:
        start = exc.context_mark.line + 1
        if opened == "quote":
            lines = text.splitlines()
            row = lines[start - 1] if start - 1 < len(lines) else ""
            q = row[exc.context_mark.column] if exc.context_mark.column < len(row) else '"'
            opened = f"the {q} quote"
        else:
            opened = f"the {opened}"
        where = f"line {stop}" if stop is not None else "the end of the file"
        return Problem(
            _("not valid YAML: {opened} opened on line {start} is not closed ({what} on {where})").format(opened=opened, start=start, what=what, where=where),
            name,
            start,
        )
    return Problem(_("not valid YAML: {what}").format(what=what), name, stop)


def _fast_compose(yaml: ModuleType, text: str) -> tuple[Any, Any]:
    """The document's node tree read by libyaml, when PyYAML has it (about 20 times faster than
    the pure-Python reader: a library of a thousand imported cards reads in a fraction of a
    second instead of seconds), and the loader that builds its scalars; (None, None) when libyaml
    is missing or finds any fault, so that the pure-Python reader reads it again and reports the
    fault with the messages and lines it always has."""
    if not getattr(yaml, "__with_libyaml__", False):
        return None, None
    loader = yaml.CSafeLoader(text)
    try:
        return loader.get_single_node(), loader
    except Exception:  # any fault: reported by the pure-Python reader, as before
        return None, None
    finally:
        loader.dispose()


def parse_yaml(text: str, name: str) -> tuple[Any, LineMap, list[Problem]]:
    """Parse one YAML document with the safe loader.

    Returns the plain data (dicts, lists, scalars), the line of every key and value, and
    the structural problems found on the way (duplicate keys, aliases, complex keys). Raises
    :class:`YamlReadError` when the text is not YAML at all.
    """
    import yaml  # start-up time (~15 ms): a question answered from the cache reads no YAML

    node, loader = _fast_compose(yaml, text)
    try:
        if loader is None:  # not read by libyaml: PyYAML's own loader, whose messages say where
            loader = yaml.SafeLoader(text)
            node = loader.get_single_node()
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1 if isinstance(exc.position, int) else None
        raise YamlReadError(
            [
                Problem(
                    _("not valid YAML: character {character!r} is not allowed in a YAML file").format(character=exc.character), name, line, value=exc.character
                )
            ]
        ) from None
    except yaml.MarkedYAMLError as exc:
        raise YamlReadError([_syntax_problem(exc, text, name)]) from None
    except yaml.YAMLError as exc:
        raise YamlReadError([Problem(_("not valid YAML: {exc}").format(exc=exc), name)]) from None
    except RecursionError:
        raise YamlReadError([Problem(_("not valid here: nested too deeply"), name)]) from None
    finally:
        if loader is not None:
            loader.dispose()

    lines = LineMap()
    problems: list[Problem] = []
    if node is None:
        return None, lines, problems
    lines.lines[()] = node.start_mark.line + 1
    seen: set[int] = set()

    def build(n: yaml.Node, path: Path_) -> Any:
        if id(n) in seen:
            problems.append(Problem(_("YAML aliases (*name) are not supported here; write the value out"), name, lines.line(path), format_path(path)))
            return None
        seen.add(id(n))
        if isinstance(n, yaml.MappingNode):
            out: dict[Any, Any] = {}
            for key_node, value_node in n.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    problems.append(Problem(_("YAML merge keys (<<) are not supported here"), name, key_node.start_mark.line + 1, format_path(path)))
                    continue
                if not isinstance(key_node, yaml.ScalarNode):
                    problems.append(Problem(_("a key must be a plain name"), name, key_node.start_mark.line + 1, format_path(path)))
                    continue
                key = _scalar(loader, key_node)
                kpath = path + (key,)
                if key in out:
                    problems.append(
                        Problem(
                            _("key {key!r} appears twice (lines {value} and {value2})").format(
                                key=key, value=lines.lines.get(kpath), value2=key_node.start_mark.line + 1
                            ),
                            name,
                            key_node.start_mark.line + 1,
                            format_path(kpath),
                            key,
                        )
                    )
                lines.lines[kpath] = key_node.start_mark.line + 1
                out[key] = build(value_node, kpath)
            return out
        if isinstance(n, yaml.SequenceNode):
            items = []
            for i, item in enumerate(n.value):
                lines.lines[path + (i,)] = item.start_mark.line + 1
                items.append(build(item, path + (i,)))
            return items
        value = _scalar(loader, n)
        if isinstance(value, str) and _SURROGATE.search(value):
            raise YamlReadError([Problem(_("a \\uD800-\\uDFFF escape is half of a character, not text"), name, n.start_mark.line + 1, format_path(path))])
        return value

    try:
        data = build(node, ())
    except RecursionError:
        raise YamlReadError([Problem(_("not valid here: nested too deeply"), name)]) from None
    return data, lines, problems


_SURROGATE = re.compile("[\ud800-\udfff]")


def _scalar(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
    try:
        value = loader.construct_object(node, deep=True)
    except Exception:
        # an unconstructible scalar (a bad !!timestamp, an integer of thousands of digits): keep
        # its text, and the schema refuses it with the field's name and line
        value = node.value
    if isinstance(value, float) and not math.isfinite(value):
        return node.value  # .inf and .nan are no count of anything: the schema refuses the text
    try:
        hash(value)
    except TypeError:
        return repr(value)
    return value


def comment_lines(text: str) -> list[int]:
    r"""Line numbers (1-based) of the YAML text that hold a comment, which a rewrite loses.

    >>> comment_lines("# map\nrules: swm2008  # the 2008 edition\nname: 'A # B'\n")
    [1, 2]
    """
    found = []
    for n, line in enumerate(text.splitlines(), 1):
        quote = None
        for i, ch in enumerate(line):
            if quote:
                if ch == quote:
                    quote = None
            elif ch in "'\"" and (i == 0 or line[i - 1] in " \t:[{,-"):
                quote = ch
            elif ch == "#" and (i == 0 or line[i - 1] in " \t"):
                found.append(n)
                break
    return found


def write_text_atomic(path: Path | str, text: str) -> None:
    """Write ``text`` to ``path`` so that a crash leaves either the old file or the new one."""
    write_bytes_atomic(path, text.encode("utf-8"))


def _is_sqlite(path: Path) -> bool:
    """Whether the file at ``path`` is an SQLite database, a game's log, which no output replaces
    (a file not there, not readable or not a regular file: no)."""
    try:
        return read_head(path, len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:
        return False


#: the process's umask, read once (reading it means setting it, which threads must not race)
_UMASK = os.umask(0o022)
os.umask(_UMASK)


def _mode_for(target: Path) -> int:
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        return 0o666 & ~_UMASK


def _refuse_not_a_file(target: Path) -> None:
    """A FIFO or a device (``-o /dev/null``) would be replaced by a plain file, a directory
    refused only after the whole write: what is there and is not a file is refused first."""
    try:
        check_regular(target)
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise FileWriteError(_("cannot write {target}: {why}").format(target=target, why=exc.strerror or exc)) from None


def _refuse_game_log(target: Path) -> None:
    """A game's log named by mistake as an output (``photo reference EMPTY.jpg -o game.sqlite``)
    would be replaced whole, the game's record lost: no command writes a log this way."""
    if _is_sqlite(target):
        raise FileWriteError(_("cannot write {target}: it is a game's log (SQLite), which this would replace and lose; "
                               "name another file").format(target=target))


def check_output_path(path: Path | str) -> None:
    """Refuse an output file (``--svg``, ``--png``, ``-o``) that :func:`write_bytes_atomic` would
    refuse, before the command prints or writes anything else: a directory, a FIFO or a device, a
    game's log, a folder that is not there or not writable. The write itself still checks (the
    path may change in between); this only puts the refusal first, so that a refused command has
    done nothing."""
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    _refuse_not_a_file(target)
    _refuse_game_log(target)
    if not directory.is_dir():
        raise FileWriteError(_("cannot write {target}: {why}").format(target=target, why=os.strerror(errno.ENOENT)))
    if not os.access(directory, os.W_OK | os.X_OK):
        raise FileWriteError(_("cannot write {target}: {why}").format(target=target, why=os.strerror(errno.EACCES)))


def write_bytes_atomic(path: Path | str, data: bytes) -> None:
    """Write ``data`` to ``path`` so that a crash leaves either the old file or the new one."""
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    _refuse_not_a_file(target)
    if not data.startswith(SQLITE_HEADER):
        _refuse_game_log(target)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise FileWriteError(_("cannot write {target}: {why}").format(target=target, why=exc.strerror or exc)) from None
    try:
        # mkstemp makes the file 0600; a file the user writes gets the mode a plain write would
        # give it: the old file's, or 0666 less the umask
        os.chmod(tmp, _mode_for(target))
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise FileWriteError(_("cannot write {target}: {why}").format(target=target, why=exc.strerror or exc)) from None
        raise


@cache
def _dumper() -> type[yaml.SafeDumper]:
    """Safe dumper whose strings always read back as written."""
    import yaml  # start-up time: see parse_yaml

    class Dumper(yaml.SafeDumper):
        pass

    Dumper.add_representer(str, _represent_str)
    return Dumper


def _represent_str(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    # PyYAML writes NEL, LS and PS raw inside plain and single-quoted scalars, and reads them
    # back as line breaks; double quotes make it escape them (\N, \L, \P).
    if any(ch in value for ch in "\x85\u2028\u2029"):
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style='"')
    return dumper.represent_str(value)


def dump_yaml(data: Any) -> str:
    """Block-style YAML with keys in the given order (never sorted)."""
    import yaml  # start-up time: see parse_yaml

    return yaml.dump(data, Dumper=_dumper(), sort_keys=False, allow_unicode=True, default_flow_style=None, width=100)


# --- pydantic errors as problems ----------------------------------------------------------


def _allowed_keys(model: Any, loc: Sequence[Any]) -> list[str]:
    """The keys the schema allows at ``loc`` (for "did you mean" on an unknown key)."""

    t = model
    for part in loc:
        origin = typing.get_origin(t)
        args = typing.get_args(t)
        if origin is typing.Annotated:
            t, origin, args = args[0], typing.get_origin(args[0]), typing.get_args(args[0])
        if origin in (list, tuple, dict) or (origin is not None and args):
            # containers: step into the element type (skip the index or key)
            candidates = [a for a in args if a is not Ellipsis and a is not type(None)]
            t = candidates[-1] if candidates else Any
            if isinstance(part, int) or origin is dict:
                continue
        fields_ = getattr(t, "model_fields", None)
        if fields_ is not None and part in fields_:
            t = fields_[part].annotation
            continue
        if dataclasses.is_dataclass(t):
            hints = typing.get_type_hints(t, include_extras=True)
            if part in hints:
                t = hints[part]
                continue
        return []
    fields_ = getattr(t, "model_fields", None)
    if fields_ is not None:
        return [f.alias or k for k, f in fields_.items()]
    if dataclasses.is_dataclass(t):
        return [f.name for f in dataclasses.fields(t)]
    return []


def _or_list(expected: str) -> str:
    """pydantic's list of allowed values ("'a', 'b' or 'c'") with its last "or" in the reader's language."""
    head, sep, last = expected.rpartition(" or ")
    return head + _(" or ") + last if sep else expected


def _should_be(kind: str, ctx: dict[str, Any]) -> str | None:
    """What pydantic's error of ``kind`` says a value should be, in the reader's language; None for a
    kind not listed here (its English words are shown). pydantic's own texts are English only."""
    simple = {
        "int_type": _("a valid integer"), "int_parsing": _("a valid integer"),
        "int_from_float": _("a valid integer, not a number with a fractional part"),
        "float_type": _("a valid number"), "float_parsing": _("a valid number"), "finite_number": _("a finite number"),
        "bool_type": _("a valid boolean (true or false)"), "bool_parsing": _("a valid boolean (true or false)"),
        "string_type": _("a valid string"), "list_type": _("a valid list"), "tuple_type": _("a valid list"),
        "set_type": _("a valid list"), "frozen_set_type": _("a valid list"), "iterable_type": _("a valid list"),
        "dict_type": _("a valid dictionary"), "mapping_type": _("a valid dictionary"),
        "none_required": _("empty (null)"),
    }
    if kind in simple:
        return simple[kind]
    bounds = {
        "greater_than": (_("greater than {bound}"), "gt"), "greater_than_equal": (_("greater than or equal to {bound}"), "ge"),
        "less_than": (_("less than {bound}"), "lt"), "less_than_equal": (_("less than or equal to {bound}"), "le"),
        "multiple_of": (_("a multiple of {bound}"), "multiple_of"),
    }
    if kind in bounds and bounds[kind][1] in ctx:
        text, key = bounds[kind]
        return text.format(bound=ctx[key])
    if kind in ("literal_error", "enum") and "expected" in ctx:
        return _or_list(str(ctx["expected"]))
    if kind in ("too_short", "string_too_short") and "min_length" in ctx:
        n = int(ctx["min_length"])
        return (n_("at least {n} item", "at least {n} items", n) if kind == "too_short"
                else n_("at least {n} character", "at least {n} characters", n)).format(n=n)
    if kind in ("too_long", "string_too_long") and "max_length" in ctx:
        n = int(ctx["max_length"])
        return (n_("at most {n} item", "at most {n} items", n) if kind == "too_long"
                else n_("at most {n} character", "at most {n} characters", n)).format(n=n)
    if kind == "string_pattern_mismatch" and "pattern" in ctx:
        return _("text matching the pattern {pattern!r}").format(pattern=ctx["pattern"])
    return None


def pydantic_words(err: Any) -> str:
    """One of pydantic's errors (an item of ``ValidationError.errors()``) in the reader's language:
    the value and what it should be; pydantic's English words where its kind is not listed."""
    value, msg = err.get("input"), str(err.get("msg", ""))
    if isinstance(value, str):
        value = said(value)  # a refused text is repeated to its start only: a 50,000-letter query value was echoed whole
    expected = _should_be(str(err.get("type")), err.get("ctx") or {})
    if expected is None and msg.startswith("Input should be "):  # a kind _should_be does not list
        expected = msg[len("Input should be ") :]
    if expected is not None:
        return _("{value!r} is not allowed here: it should be {expected}").format(value=value, expected=expected)
    return f"{value!r}: {msg}" if value is not None else msg


def problems_from_validation(exc: Any, lines: LineMap, name: str, model: Any, prefix: Sequence[Any] = ()) -> list[Problem]:
    """Turn a pydantic ``ValidationError`` into problems with lines and plain words."""

    out: list[Problem] = []
    for err in exc.errors(include_url=False):
        # pydantic puts union member names (e.g. 'int', 'literal[...]') into loc; drop them
        loc = tuple(p for p in err["loc"] if not (isinstance(p, str) and ("[" in p or p in {"int", "str", "bool", "function-before", "function-after"})))
        path = tuple(prefix) + loc
        kind = err["type"]
        value = err.get("input")
        msg = err["msg"]
        if kind in ("extra_forbidden", "unexpected_keyword_argument"):
            key = loc[-1] if loc else value
            allowed = _allowed_keys(model, loc[:-1])
            suggestion = did_you_mean(str(key), allowed)
            message = (_("unknown key {key!r}{suggestion}; allowed here: {allowed}").format(key=key, suggestion=suggestion, allowed=", ".join(allowed))
                       if allowed else _("unknown key {key!r}{suggestion}").format(key=key, suggestion=suggestion))
            value = key
        elif kind in ("missing", "missing_keyword_argument", "missing_argument"):
            message = _("missing required key {key!r}").format(key=loc[-1]) if loc else _("missing a required value")
            value = None
        elif kind == "model_type":  # pydantic names its class ("instance of _TableModel"), which the user never wrote
            message = (_("{value!r} is not allowed here: it should be keys with values ('key: value' lines)").format(value=value) if path
                       else _("{value!r} is not allowed as the file: the file should be keys with values ('key: value' lines)").format(value=value))
        elif msg.startswith("Value error, "):
            message = msg[len("Value error, ") :]
        else:
            message = pydantic_words(err)
        out.append(Problem(message, name, lines.line(path), format_path(path), value))
    return out
