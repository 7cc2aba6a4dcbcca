"""What can be rebuilt, kept between runs: the validated card library and the last reading of each
position file, each under a key of everything it depends on.

Validating with pydantic costs more than the rest of a one-shot question (importing it alone is
~100 ms), so a file read before is answered from here. The cache is only a shortcut: any failure to
read or write it, or a damaged file, falls back to computing the answer.
"""

from __future__ import annotations

import importlib.util
import pickle
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from . import __version__
from .fileread import read_limited
from .i18n import current
from .resources import cache_dir
from .yamlio import write_bytes_atomic

T = TypeVar("T")

#: a cache file bigger than this was not written here (the card library's is a few MB)
MAX_CACHE_BYTES = 256 * 1024 * 1024


class Key:
    """What a cached answer depends on, kept whole (compared byte for byte, no digest: hashlib's
    import alone costs a one-shot question ~5 ms, and the files are small). It starts with what every answer depends on:
    this package's and Python's versions, the validating library's install (pydantic's messages
    are in the answers) and the language the answer's messages are written in."""

    def __init__(self) -> None:
        self._parts: list[bytes] = []
        spec = importlib.util.find_spec("pydantic")  # its version without importing it (~100 ms)
        origin = Path(spec.origin) if spec is not None and spec.origin else None
        version_file = origin.parent / "version.py" if origin is not None else None
        stat = version_file.stat() if version_file is not None and version_file.exists() else None
        self.add(__version__, sys.version, current(), str(version_file), stat and (stat.st_size, stat.st_mtime_ns))

    def add(self, *parts: object) -> None:
        for part in parts:
            data = part if isinstance(part, bytes) else repr(part).encode("utf-8", "surrogatepass")
            self._parts.append(len(data).to_bytes(8, "little") + data)

    def value(self) -> bytes:
        return b"".join(self._parts)


def cached(file: str, key: bytes, compute: Callable[[], T]) -> T:
    """The answer kept in ``file`` (under :func:`~.resources.cache_dir`) when it was kept under
    ``key``; else ``compute()``, kept there for the next run."""
    try:
        path: Path | None = cache_dir() / file
    except Exception:  # no cache folder can be named: compute it
        path = None
    if path is None:
        return compute()
    try:
        cached_key, result = pickle.loads(read_limited(path, MAX_CACHE_BYTES))
        if cached_key == key:
            return result  # type: ignore[no-any-return,unused-ignore]  # pickle gives Any
    except Exception:  # no cache yet, or a damaged one: compute it and write it anew
        pass
    result = compute()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_bytes_atomic(path, pickle.dumps((key, result), protocol=pickle.HIGHEST_PROTOCOL))
    except Exception:  # an unwritable cache folder: the answer was computed all the same
        pass
    return result
