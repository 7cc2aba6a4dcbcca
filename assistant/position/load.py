"""Loading and validating position files (CONTRACT §2).

Every problem is collected -- syntax, keys, names, geometry, cards -- each with the file,
the line and the offending value, and the file is refused as a whole if any is an error.
Warnings (a size the edition's rulebook does not define, an open corner on no wall) do not
refuse the file; ``validate`` shows them.
"""

from __future__ import annotations

import os
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from ..cache import Key, cached
from ..cards import CardLibrary, default_library
from ..errors import PositionError, Problem
from ..i18n import _
from ..model import Position
from ..yamlio import YamlReadError, parse_yaml, read_text


@dataclass
class LoadResult:
    """What reading a file found: the position (None when any error was found) and every problem."""

    file: str
    position: Position | None
    problems: list[Problem] = field(default_factory=list)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "warning"]

    def raise_for_errors(self) -> Position:
        if self.errors or self.position is None:
            raise PositionError(self.errors or [Problem(_("invalid position"), self.file)])
        return self.position


def load_position(path: Path | str, library: CardLibrary | None = None) -> Position:
    """Load a position file; raises :class:`PositionError` listing every problem."""
    return check_position_file(path, library).raise_for_errors()


def parse_position(text: str, name: str = "<position>", library: CardLibrary | None = None) -> Position:
    """Load a position from text; raises :class:`PositionError` listing every problem."""
    return check_position_text(text, name, library).raise_for_errors()


#: the code a position's reading depends on beyond its text: this package's reader and checker
#: (the edition records' rules they apply: squads, sizes) and the model it builds
_READER_CODE = tuple(Path(__file__).parent / name for name in ("load.py", "check.py", "schema.py")) + tuple(
    Path(__file__).parent.parent / name for name in ("yamlio.py", "model.py"))


def reader_code() -> tuple[tuple[str, int, int], ...]:
    """The reader's own files as the cache key holds them (name, size, modification time): a
    checkout's code changed without a version bump read a position anew, not from a stale
    reading (round 21: a checker's fix was served the old answer from the cache)."""
    return tuple((str(p), (st := os.stat(p)).st_size, st.st_mtime_ns) for p in _READER_CODE)


def check_position_file(path: Path | str, library: CardLibrary | None = None) -> LoadResult:
    try:
        text, name = read_text(path)
    except YamlReadError as exc:
        return LoadResult(str(path), None, exc.problems)
    library = library if library is not None else default_library()
    if library.key is None:  # a library built in code has no key to be cached under
        return check_position_text(text, name, library)
    # A file read before is answered from the cache (:mod:`..cache`), without pydantic: one slot a
    # file, under a key of its name and text, the card library read and the language and versions.
    key = Key()
    key.add("position", name, text, library.key, reader_code())
    # one slot a file and card library: with the name's alone, two installs (or checkouts) of the
    # program reading one file in turn evicted each other's, and each read validated it anew (round 17 of issue 28)
    slot = f"{zlib.crc32(library.key, zlib.crc32(name.encode('utf-8', 'surrogatepass'))):08x}"  # two in one slot: each reads anew
    return cached(f"positions/{slot}.pickle", key.value(), lambda: check_position_text(text, name, library))


def check_position_text(text: str, name: str = "<position>", library: CardLibrary | None = None, in_file: bool = True) -> LoadResult:
    """The position in ``text`` and its problems; ``in_file=False`` where the reader typed one figure
    and the rest is the game's (`game place`): no problem names a figure by its place in a list."""
    try:
        data, lines, problems = parse_yaml(text, name)
    except YamlReadError as exc:
        return LoadResult(name, None, exc.problems)
    from .check import Checker  # start-up time: pydantic only when a file is not in the cache

    checker = Checker(name, lines, library if library is not None else default_library(), in_file)
    checker.problems += problems
    position = checker.check(data)
    result = LoadResult(name, position, checker.problems)
    if result.errors:
        result.position = None
    return result


