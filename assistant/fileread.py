"""Reading a file the user named: only a regular file, and never more than a limit.

A path can lead somewhere no reader should go: a FIFO (reading waits for a writer that never
comes: the command hangs), a device (``/dev/zero`` never ends, a symlink to it in a ``--cards``
folder read 3.8 GB), a directory. Every reader of a user's file goes through :func:`read_limited`
(or, for a file another library opens by name, such as SQLite, :func:`check_regular`): it looks
at what the path leads to before opening it, opens it without waiting (``O_NONBLOCK``: a FIFO
cannot hang the open), looks again at what it opened (the path may have changed in between), and
reads at most ``limit`` bytes.

A refusal is an :class:`OSError` (its ``strerror`` says why, its ``filename`` names the file), so
every reader's own ``except OSError`` names the file and the reason as it always has.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from .i18n import _

#: how much is read at a time
CHUNK = 1 << 20


class NotRegularFileError(OSError):
    """The path leads to a FIFO, a device, a socket or a directory, not to a file."""


class FileTooLargeError(OSError):
    """The file holds more than the reader takes."""

    def __init__(self, path: Path | str, limit: int, size: int | None = None) -> None:
        self.limit, self.size = limit, size
        why = (_("{size:,} bytes; files over {limit:,} bytes are refused (is this the right file?)").format(size=size, limit=limit)
               if size is not None else _("more than {limit:,} bytes; files over that are refused (is this the right file?)").format(limit=limit))
        super().__init__(errno.EFBIG, why, str(path))


def file_marks(path: Path) -> tuple[int, int] | None:
    """A file's (modification time in ns, size), to tell that it changed since it was last read
    (a write by another program, bytes changed by hand); None when it cannot be looked at."""
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return _("a directory")
    if stat.S_ISFIFO(mode):
        return _("a named pipe")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return _("a device")
    if stat.S_ISSOCK(mode):
        return _("a socket")
    return _("not a regular file")


def _refuse(path: Path | str, mode: int) -> NotRegularFileError:
    return NotRegularFileError(errno.EISDIR if stat.S_ISDIR(mode) else errno.EINVAL,
                               _("it is {kind}, not a regular file").format(kind=_kind(mode)), str(path))


def check_regular(path: Path | str) -> None:
    """Refuse a path (followed through its links) that leads anywhere but to a regular file;
    a path that does not exist raises :class:`FileNotFoundError`, as opening it would."""
    mode = os.stat(path).st_mode
    if not stat.S_ISREG(mode):
        raise _refuse(path, mode)


def _open_regular(path: Path | str) -> tuple[int, int]:
    """An open descriptor of the regular file at ``path``, and its size: looked at before opening
    (opening a device may itself do something), opened without waiting (a FIFO cannot hang the
    open), and looked at again (the path may have been changed in between)."""
    check_regular(path)
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0))
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise _refuse(path, st.st_mode)
    return fd, st.st_size


def read_limited(path: Path | str, limit: int) -> bytes:
    """The bytes of the regular file at ``path``, refused (:class:`OSError`) when the path leads
    elsewhere or the file holds more than ``limit`` bytes.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "a.txt"
    >>> _ = p.write_bytes(b"hello")
    >>> read_limited(p, 5)
    b'hello'
    >>> read_limited(p, 4)
    Traceback (most recent call last):
    ...
    assistant.fileread.FileTooLargeError: [Errno 27] 5 bytes; files over 4 bytes are refused (is this the right file?): '...a.txt'
    >>> read_limited("/dev/zero", 10)
    Traceback (most recent call last):
    ...
    assistant.fileread.NotRegularFileError: [Errno 22] it is a device, not a regular file: '/dev/zero'
    """
    fd, size = _open_regular(path)
    try:
        if size > limit:
            raise FileTooLargeError(path, limit, size)
        chunks: list[bytes] = []
        total = 0
        while True:  # the size said is not trusted: a file may grow while it is read
            chunk = os.read(fd, min(CHUNK, limit + 1 - total))
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise FileTooLargeError(path, limit)
    finally:
        os.close(fd)


#: the first bytes of an SQLite database (a game's log)
SQLITE_HEADER = b"SQLite format 3\x00"


def read_head(path: Path | str, n: int) -> bytes:
    """The first ``n`` bytes of the regular file at ``path`` (fewer when it is shorter): what
    kind of file it is, without reading the rest."""
    fd, _size = _open_regular(path)
    try:
        return os.read(fd, n)
    finally:
        os.close(fd)

