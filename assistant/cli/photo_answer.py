"""``photo detect``'s answer without Typer: the command's body, shared by the tree's command
(:mod:`.photo_cmd`) and the command line's fast path (:mod:`.fast`).

Typer's import (0.02 CPU-seconds on the 2-core machine, with click's and the standard library's
modules it brings) was the fast path's only use of it to catch the command's refusal,
``typer.Exit``: here the body returns its exit code instead, and the tree's command raises
``typer.Exit`` with it. Rich's markup is loaded only where the answer is printed as text (a
``--json`` answer is written as it is; :mod:`assistant.terminal`). Round 30 of issue 28.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import AssistantError
from ..i18n import _, decimal
from ..limits import check_photo
from ..terminal import emit_json, err, out, report

if TYPE_CHECKING:  # the photo package loads OpenCV: only the photo commands import it, when run
    from ..commands.context import Session


def camera(calib: Path | None) -> Any:
    """The camera calibration file ``calib`` read, or None."""
    if calib is None:
        return None
    from ..photo.calibrate import load  # start-up time: the photo package (numpy, OpenCV), only with --calib

    return load(calib)


def table_profile(table: Path | None) -> Any:
    """The table profile ``table`` ('photo adapt') read, or None."""
    if table is None:
        return None
    from ..photo.occupancy import load_profile  # start-up time: the photo package (numpy, OpenCV), only with --table

    return load_profile(table)


def session_reference(sess: Session, reference: Path | None, pos: Any, position: str | None = None, game: Path | None = None) -> Any:
    """The empty map's reference to compare a photo with, for the command line's session ``sess``:
    the file named, else the game's own (``GAME.reference.npz``, made by 'photo reference'), else
    None (the learned classifier answers)."""
    from ..photo.reference import check_size, load_reference, reference_path  # start-up time: the photo package, when a photo is read

    path = reference
    if path is None and position is None:
        try:
            path = reference_path(sess.game_path(game))
        except AssistantError:  # no current game: a position file was asked about
            return None
        if not path.is_file():
            return None
    if path is None:
        return None
    ref = load_reference(path)
    check_size(ref, pos.map.cols, pos.map.rows, str(path))
    return ref


def say_no_grid(json_out: bool, query: str, image: Path, exc: Exception) -> None:
    """No grid in the photo, said: ``"grid_found": false`` in the JSON answer (CONTRACT §3), for
    ``photo detect`` and ``photo check`` alike; the caller exits 2."""
    if json_out:
        emit_json({"query": query, "image": str(image), "grid_found": False, "error": str(exc)})
    else:
        from rich.markup import escape  # start-up time: see the module's docstring

        err.print(_("[bold red]error:[/] {exc}").format(exc=escape(str(exc))))


def answered(json_out: bool, query: str, body: Callable[[], int]) -> int:
    """``body()``'s exit code, or the code of its failure once reported (a user error 2, an
    interruption 130, a bug 1: :func:`~assistant.terminal.report`), as the tree's commands' edge
    (:func:`.output.edge`) reports it."""
    try:
        return body()
    except SystemExit:
        raise
    except (Exception, KeyboardInterrupt) as exc:
        code = report(exc, json_out, query, emit_json)
        if code is None:
            raise
        return code


def detect_answer(sess: Session, image: Path, position: str | None, game: Path | None, calib: Path | None, table: Path | None,
                  reference: Path | None, json_out: bool, decoded: Future[Any] | None = None) -> int:
    """``photo detect``'s answer printed, for the command line's session ``sess``, and its exit
    code (0, or 2 where the photo or the position is refused or no grid is found): the tree's
    command and the fast path's (:mod:`.fast`, which answers it without building the tree).
    ``decoded``: the photo's decoding (:func:`~assistant.photo.decoding`) where the caller started it already."""
    # start-up time: the photo package (0.04-0.05 CPU-s beyond numpy and OpenCV): on the fast path, loaded here while the
    # photo is decoded on the other core (R350); not at photo --help (the tree's photo commands import this module)
    from ..photo import NoGridError, decoding, detect, ready_to_detect

    def body() -> int:
        with contextlib.nullcontext(decoded) if decoded is not None else decoding(image) as photo:
            pos = sess.load(position, game)[0]
            check_photo(pos)
            profile = table_profile(table)
            ref = session_reference(sess, reference, pos, position, game)
            if not photo.done():  # the main thread's wait for the decoding put to use
                ready_to_detect()
            img = photo.result()
            try:
                res = detect(img, pos, str(image), camera(calib), profile, ref)
            except NoGridError as exc:
                say_no_grid(json_out, "photo", image, exc)
                return 2
        if json_out:
            emit_json(res.as_json())
        else:
            _print_detection(res)
        return 0

    return answered(json_out, "photo", body)


def _print_detection(res: Any) -> None:
    """A detection's answer as text."""
    from rich.markup import escape  # start-up time: see the module's docstring

    out.print(escape(_("grid found (reprojection error {error} px) in {seconds} s").format(
        error="?" if res.reprojection_error_px is None else decimal(res.reprojection_error_px, ".2f"), seconds=decimal(res.seconds, ".2f"))))
    for f in res.figures:
        out.print("  " + escape(_("{figure} at {at} ({by}, confidence {confidence})").format(
            figure=f.id, at=f.at, by=_(f.by), confidence=decimal(f.confidence, ".2f"))))
    out.print("  " + escape(_("occupied: {squares}").format(squares=", ".join(res.occupied) or "-")))
    for fid in res.not_seen:
        out.print("  [yellow]" + escape(_("{figure} not seen in the photo (no square)").format(figure=fid)) + "[/]")
    for u in res.uncertain:
        text = escape(_("confirm {square}").format(square=u["square"]))
        out.print(f"  [yellow]{text}[/] " + escape(_("(confidence {confidence})").format(confidence=decimal(u['confidence'], ".2f"))))
    for n in res.notes:
        out.print(f"  [yellow]{escape(n)}[/]")
