"""The command line's entry: the one-shot geometry questions answered without building the tree.

Building the Typer tree costs more than the rest of a one-shot question: Typer and its validating
library (pydantic, which Typer imports to build any command's parameters) take ~150 ms before the
first answer. So exactly these lines are answered here, through the same registered verb, the same
consoles and the same failure report (:mod:`.console`) as the tree's commands::

    [--lang L] (los | cover | range) A B [-p X | --position X | --position=X] [--game X | --game=X] [--json]

and the shell, ``[--lang L] shell [--game X | --game=X]``, whose prompt is shown before the tree is
built (:mod:`.shell`: the tree is imported in the background while the player types), and a
photo read, ``[--lang L] photo detect PHOTO [-p X] [--game X] [--reference F] [--json]`` (each
option once, ``--option=value`` as well), answered by the command's own body
(:func:`.photo_answer.detect_answer`) without the tree: its Typer coercion imports pydantic, 0.1 s of
the 1 s a photo may take (issue 28; round 13), and without Typer itself (round 30).

Anything else -- another option, a repeated one, a value that looks like an option, ``--help``,
``--``, shell completion -- goes to the tree (:func:`.app.main`), which answers it as before; the
tests compare both paths' output and exit codes.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from ..terminal import internal_error, json_text, print_lines, quiet_stdout, report, stdout_gone, write_out

__all__ = ["keep_freed_memory", "main", "one_blas_thread", "parse", "parse_photo", "parse_shell"]

#: the questions answered here, and the names of their two figures (as the tree's commands name them)
QUERIES: dict[str, tuple[str, str]] = {"los": ("viewer", "target"), "cover": ("attacker", "target"), "range": ("a", "b")}
#: each option that takes a value, by the name the verb calls it
_VALUED = {"-p": "position", "--position": "position", "--game": "game"}


def parse(argv: Sequence[str]) -> tuple[str | None, str, dict[str, Any], bool] | None:
    """``(lang, verb, arguments, json)`` for a line the fast path answers; None for any other.

    >>> parse(["los", "obi", "sbd", "-p", "corridor"])
    (None, 'los', {'viewer': 'obi', 'target': 'sbd', 'position': 'corridor', 'game': None}, False)
    >>> parse(["--lang", "pl", "range", "--game=g.sqlite", "a", "b", "--json"])[3]
    True
    >>> parse(["los", "obi", "sbd", "--help"]) is None
    True
    """
    asked = _language(argv)
    if asked is None:
        return None
    lang, words = asked
    if not words or words[0] not in QUERIES:
        return None
    verb = words[0]
    split = _split(words[1:], _VALUED)
    if split is None:
        return None
    figures, options, json_out = split
    if len(figures) != 2:
        return None
    first, second = QUERIES[verb]
    args: dict[str, Any] = {first: figures[0], second: figures[1], "position": options.get("position"), "game": options.get("game")}
    return lang, verb, args, json_out


def _language(argv: Sequence[str]) -> tuple[str | None, list[str]] | None:
    """``(lang, the rest of the line)`` of a line that may start with ``--lang L`` or ``--lang=L``;
    None where the language is missing or not one there is (the tree says which there are)."""
    from ..i18n import LANGUAGES  # start-up time: this module is the entry, kept light

    words = list(argv)
    lang = None
    if words and (words[0] == "--lang" or words[0].startswith("--lang=")):
        if words[0] == "--lang":
            if len(words) < 2:
                return None
            lang, words = words[1], words[2:]
        else:
            lang, words = words[0].partition("=")[2], words[1:]
        if lang.strip().lower() not in LANGUAGES:
            return None
    return lang, words


def _split(rest: list[str], valued: dict[str, str]) -> tuple[list[str], dict[str, str], bool] | None:
    """A command's words after its name: the plain words, the options that take a value (``valued``:
    each by the name the command calls it; each once, ``--option=value`` as well) and ``--json``;
    None for anything else (another option, a repeated one, a value that looks like an option)."""
    plain: list[str] = []
    options: dict[str, str] = {}
    json_out = False
    i = 0
    while i < len(rest):
        word = rest[i]
        name, eq, value = word.partition("=")
        if word == "--json":
            if json_out:
                return None
            json_out = True
        elif word in valued or (eq and name.startswith("--") and name in valued):
            if not eq:
                if i + 1 >= len(rest):
                    return None
                value = rest[i + 1]
                i += 1
            key = valued[name]
            if key in options or not value or value.startswith("-"):
                return None
            options[key] = value
        elif word.startswith("-") or not word:
            return None
        else:
            plain.append(word)
        i += 1
    return plain, options, json_out


def parse_shell(argv: Sequence[str]) -> tuple[str | None, Path | None] | None:
    """``(lang, game)`` for a line that starts the shell and says nothing else; None for any other.

    >>> parse_shell(["shell"])
    (None, None)
    >>> parse_shell(["--lang=pl", "shell", "--game", "g.sqlite"])
    ('pl', PosixPath('g.sqlite'))
    >>> parse_shell(["shell", "--help"]) is None
    True
    """
    from ..i18n import LANGUAGES  # start-up time: see parse

    words = list(argv)
    lang = None
    if words[:1] == ["--lang"] and len(words) >= 2:
        lang, words = words[1], words[2:]
    elif words and words[0].startswith("--lang="):
        lang, words = words[0].partition("=")[2], words[1:]
    if lang is not None and lang.strip().lower() not in LANGUAGES:
        return None  # the tree says which languages there are
    if words[:1] != ["shell"]:
        return None
    rest = words[1:]
    if not rest:
        return lang, None
    if len(rest) == 2 and rest[0] == "--game" and rest[1] and not rest[1].startswith("-"):
        return lang, Path(rest[1])
    if len(rest) == 1 and rest[0].startswith("--game=") and len(rest[0]) > len("--game="):
        return lang, Path(rest[0].partition("=")[2])
    return None


#: ``photo detect``'s options that take a value, by the name its body calls them
_PHOTO_VALUED = {"-p": "position", "--position": "position", "--game": "game", "--reference": "reference"}


def parse_photo(argv: Sequence[str]) -> tuple[str | None, dict[str, str | None], bool] | None:
    """``(lang, arguments, json)`` for a ``photo detect`` line the fast path answers; None for any other.

    >>> parse_photo(["photo", "detect", "t.jpg", "-p", "corridor", "--json"])
    (None, {'image': 't.jpg', 'position': 'corridor', 'game': None, 'reference': None}, True)
    >>> parse_photo(["--lang=pl", "photo", "detect", "--reference=r.npz", "t.jpg"])[1]["reference"]
    'r.npz'
    >>> parse_photo(["photo", "detect", "t.jpg", "--calib", "c.npz"]) is None
    True
    """
    asked = _language(argv)
    if asked is None:
        return None
    lang, words = asked
    if words[:2] != ["photo", "detect"]:
        return None
    split = _split(words[2:], _PHOTO_VALUED)
    if split is None:
        return None
    images, options, json_out = split
    if len(images) != 1:
        return None
    args: dict[str, str | None] = {"image": images[0], **{k: options.get(k) for k in ("position", "game", "reference")}}
    return lang, args, json_out


def _photo(lang: str | None, args: dict[str, str | None], json_out: bool) -> NoReturn:
    """``photo detect`` answered as the tree's command answers it, and the process's exit with its code."""
    from .. import i18n  # start-up time: see main

    keep_freed_memory()  # before the photo's arrays are made (R361)
    i18n.set_language(i18n.choose(lang))
    image, position, game, reference = (args[k] for k in ("image", "position", "game", "reference"))
    assert image is not None
    # the photo's decoder first (OpenCV alone), and the photo decoded on a second thread while the
    # command's own modules load (the card library's, the position reader's, and the photo
    # package's grid search: 0.1-0.15 s of Python the decoder, which lets go of the GIL, does not
    # wait for); before, it started after them (round 15 of issue 28), then after the photo
    # package's (0.04-0.05 s; R350, round 31)
    from ..photofile import decoding

    with decoding(Path(image)) as photo:
        from ..commands.context import Session  # start-up time: loaded while the photo is decoded (see above)
        from .photo_answer import detect_answer  # start-up time: without Typer (its module's docstring)

        try:
            code = detect_answer(Session(cards=()), Path(image), position, None if game is None else Path(game), None, None,
                                 None if reference is None else Path(reference), json_out, photo)
        except BrokenPipeError:  # `... | head -1`: the reader has gone; that is not an error
            quiet_stdout()
            code = 0
        except SystemExit as exc:  # rich's own closed-pipe handling
            if exc.code != 1 or not stdout_gone():
                raise
            code = 0
        except KeyboardInterrupt:
            code = 130
        except Exception as exc:  # the tree's last guard (app.main): the command's edge already reports a user's error
            code = internal_error(exc)
    sys.exit(code)


def _completing() -> bool:
    """Is the shell asking for completions (click's ``_<PROG>_COMPLETE``, Typer's own variables)?"""
    return any(k.startswith("_") and "COMPLETE" in k for k in os.environ)


#: the threads numpy's OpenBLAS may use for a photo read by the command line: its matrix products
#: there are small (the printed lines' combs, 581 x 640 at most, 0.3-2 ms each alone), while a
#: second thread's start and its wait (it spins a while after each product) cost the two-core
#: machine 0.1-0.2 CPU-seconds a photo, on the core the photo's second thread and OpenCV's work on.
#: The answers are the same bit for bit (the 138 diagnosis photos; round 14 of issue 28).
PHOTO_BLAS_THREADS = "1"


#: glibc's ``mallopt`` settings for one photo read by the command line (R361): arrays of up to 32 MiB
#: taken from the heap, not mapped afresh (64 MiB measured no better); memory freed kept (up to 1 GiB)
#: for the next array rather than given back; the heap grown 256 MiB at a time. A 12 MP photo's
#: grid search and reading make and free hundreds of MB of arrays: each given back and asked for
#: again was faulted in anew, page by page (105,000 page faults, 0.25-0.4 CPU-s of the system's
#: a photo; with these about 61,000 and 0.13-0.24 s, the process 75 MB larger at its peak).
#: Keys are glibc's own: M_TRIM_THRESHOLD -1, M_TOP_PAD -2, M_MMAP_THRESHOLD -3.
PHOTO_MALLOC = ((-3, 32 * 1024 * 1024), (-1, 1024 * 1024 * 1024), (-2, 256 * 1024 * 1024))


def keep_freed_memory() -> None:
    """For a one-shot photo read, glibc's allocator set to keep and reuse the memory its arrays free
    (:data:`PHOTO_MALLOC`) -- unless the environment sets any of its ``MALLOC_*`` settings (the
    player's choice stands), or the C library is not glibc (another has no such settings, or
    others: nothing is set). Where the memory lies, not what it holds: the answer is the same."""
    if not sys.platform.startswith("linux") or any(k.startswith("MALLOC_") for k in os.environ):
        return
    import ctypes  # start-up time: numpy imports it too, a moment later

    try:
        libc = ctypes.CDLL(None)
        if not hasattr(libc, "gnu_get_libc_version"):  # musl and others: not glibc's settings
            return
        for key, value in PHOTO_MALLOC:
            libc.mallopt(key, value)
    except OSError:  # no C library to ask: the allocator as it is
        return


def one_blas_thread(argv: Sequence[str]) -> None:
    """For a line that reads photos (``photo``, ``map from-photo``, and ``serve``, whose live table
    reads them beside its answers; ``--lang L`` before it or not), numpy's OpenBLAS held to
    :data:`PHOTO_BLAS_THREADS` -- unless the environment already says how many (the player's
    choice stands), or numpy is loaded already (its pool is made at its import)."""
    words = list(argv)
    if words[:1] == ["--lang"]:
        words = words[2:]
    elif words and words[0].startswith("--lang="):
        words = words[1:]
    reads_photos = words[:1] in (["photo"], ["serve"]) or words[:2] == ["map", "from-photo"]
    if reads_photos and "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", PHOTO_BLAS_THREADS)


def main() -> None:
    """Console-script entry: a one-shot geometry question answered here, anything else by the tree."""
    one_blas_thread(sys.argv[1:])  # before anything imports numpy
    shell = None if _completing() else parse_shell(sys.argv[1:])
    if shell is not None:
        _shell(*shell)
    photo = None if _completing() else parse_photo(sys.argv[1:])
    if photo is not None:
        _photo(*photo)
    plan = None if _completing() else parse(sys.argv[1:])
    if plan is None or not _answer(*plan):
        from .app import main as tree  # start-up time: the whole Typer tree only for other lines

        tree()


def _tree() -> None:
    """Make the whole command tree ready: the shell finds its root once it is imported."""
    from . import app  # noqa: F401  (start-up time: imported by the shell's background thread)


def _shell(lang: str | None, game: Path | None) -> None:
    """The shell, its first prompt shown before the tree is built (see :mod:`.shell`)."""
    from .. import i18n  # start-up time: see main
    from .shell import run_shell  # start-up time: the shell's prompt_toolkit only for the shell

    i18n.set_language(i18n.choose(lang))
    try:
        code = run_shell(game, (), _tree)
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as exc:  # the tree's last guard (app.main), for the shell started without it
        from ..terminal import internal_error

        sys.exit(internal_error(exc))
    sys.exit(code)


def _answer(lang: str | None, verb: str, args: dict[str, Any], json_out: bool) -> bool:
    """Answer as the tree's command would, and exit with its code; False (nothing printed) when the
    answer is one the tree must print."""
    from .. import i18n  # start-up time: see main

    # start-up time: the command layer only once the line is known to be one answered here (this module is
    # every line's entry, the tree's lines included)
    from ..commands.context import Session
    from ..commands.registry import find

    def emit(obj: dict[str, Any]) -> None:
        write_out(json_text(obj) + "\n")

    i18n.set_language(i18n.choose(lang))
    if args["game"] is not None:
        args["game"] = Path(args["game"])
    v = find(verb)
    try:
        try:
            result = v(Session(cards=()), **args)
            if result.text is not None or result.exit_code:
                return False  # printed by the tree (a text block, a refusal's code): rare for a question
            if json_out:
                emit(result.json)
            else:
                print_lines(result.lines)
            code = 0
        except (Exception, KeyboardInterrupt) as exc:
            got = report(exc, json_out, v.query, emit)
            if got is None:
                raise
            code = got
    except BrokenPipeError:  # `... | head -1`: the reader has gone; that is not an error
        quiet_stdout()
        code = 0
    except SystemExit as exc:  # rich's own closed-pipe handling
        if exc.code != 1 or not stdout_gone():
            raise
        code = 0
    sys.exit(code)
