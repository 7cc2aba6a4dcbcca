"""A photo's file read and decoded: its size checked from its header first, then OpenCV's decoder.

Apart from the photo package (:mod:`assistant.photo`) so that the command line's ``photo detect``
(:mod:`assistant.cli.fast`) starts the decoding, on a second thread, as soon as OpenCV is loaded:
the package's own modules (the grid search, the bases, the placement: 0.04-0.05 CPU-seconds on the
2-core machine) now load on the main thread while the photo is decoded, where before the decoding
waited for them, and the decoding is the longer of the two (reading R350 in docs/readings.md; round
31 of issue 28). The photo package gives these names as before.

OpenCV's conversion to Lab (:func:`lab`) makes its lookup tables on its first call in a process:
0.1 CPU-seconds, which the printed-lines search of every photo without four corner markers paid on
the main thread. The decoding's thread makes them once the photo is decoded, where that core
waited idle while the command's modules load (reading R360; round 32 of issue 28).
"""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import cv2
import numpy as np

from .errors import AssistantError
from .fileread import read_limited
from .i18n import N_, _

#: the largest photo decoded: 64 megapixels (phone cameras give 12-50), each side at most 20,000 px
MAX_PIXELS = 64_000_000
MAX_SIDE = 20_000
MAX_FILE_BYTES = 200 * 1024 * 1024


def image_size(data: bytes) -> tuple[str, int, int] | None:
    """(format, width, height) read from a PNG, JPEG, BMP or WebP header; None if not one of them.

    >>> image_size(b"\\x89PNG\\r\\n\\x1a\\n" + b"\\x00\\x00\\x00\\rIHDR" + (640).to_bytes(4, "big") + (480).to_bytes(4, "big"))
    ('PNG', 640, 480)
    """
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24 and data[12:16] == b"IHDR":
        return "PNG", int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if data[:2] == b"\xff\xd8":  # JPEG: walk the segments to a start-of-frame marker
        i = 2
        while i + 9 < len(data):
            if data[i] != 0xFF:
                return None
            marker = data[i + 1]
            if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
                i += 2
                continue
            length = int.from_bytes(data[i + 2:i + 4], "big")
            if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
                return "JPEG", int.from_bytes(data[i + 7:i + 9], "big"), int.from_bytes(data[i + 5:i + 7], "big")
            if length < 2:
                return None
            i += 2 + length
        return None
    if data[:2] == b"BM" and len(data) >= 26:
        return "BMP", abs(int.from_bytes(data[18:22], "little", signed=True)), abs(int.from_bytes(data[22:26], "little", signed=True))
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP" and len(data) >= 30:
        kind = data[12:16]
        if kind == b"VP8 ":
            return "WebP", int.from_bytes(data[26:28], "little") & 0x3FFF, int.from_bytes(data[28:30], "little") & 0x3FFF
        if kind == b"VP8L":
            b = int.from_bytes(data[21:25], "little")
            return "WebP", (b & 0x3FFF) + 1, ((b >> 14) & 0x3FFF) + 1
        if kind == b"VP8X":
            return "WebP", int.from_bytes(data[24:27], "little") + 1, int.from_bytes(data[27:30], "little") + 1
    return None


@contextmanager
def decoding(image: Path, read: Callable[[Path], np.ndarray] | None = None) -> Iterator[Future[np.ndarray]]:
    """The photo read and decoded (``read``, by default :func:`load_image`) on a second thread
    (OpenCV's decoder lets go of the GIL) while the position and the reference load: 0.05-0.1 s of
    a 12 MP JPEG off the player's wait (round 13 of issue 28); the command line's fast path starts
    it before its command's own modules load (round 15), and before the photo package's (R350).
    Its refusal (no such file, not an image) is raised where the result is asked for, after the
    position's own, as before; a command that fails before asking waits for it. The thread runs in
    a copy of this one's context: the reader's language (``--lang``, a context variable a new
    thread would not see) says its refusal, as it did before it had a thread."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        decoded = pool.submit(contextvars.copy_context().run, load_image if read is None else read, image)
        tables = pool.submit(_tables_after, decoded)  # after the photo, on the same core (R360)
        try:
            yield decoded
        except BaseException:
            tables.cancel()  # a command that failed before they were begun does not wait for them
            raise


#: held by each conversion to Lab: OpenCV makes its tables on the first one without a lock of its
#: own, so a conversion on another thread while they are made would read them half made (R360)
_LAB_TABLES = threading.Lock()


def lab(image: np.ndarray) -> np.ndarray:
    """``cv2.cvtColor(image, cv2.COLOR_BGR2Lab)``, one conversion at a time (:data:`_LAB_TABLES`):
    the same array, made after OpenCV's tables are whole, whichever thread made them.

    >>> lab(np.array([[[255, 255, 255]]], np.uint8)).tolist()
    [[[255, 128, 128]]]
    """
    with _LAB_TABLES:
        return cv2.cvtColor(image, cv2.COLOR_BGR2Lab)


def _tables_after(decoded: Future[np.ndarray]) -> None:
    """:func:`make_lab_tables`, for a photo decoded (``decoded`` is done: the pool's one thread ran
    it first); nothing where it was refused, whose command stops there."""
    if decoded.exception() is None:
        make_lab_tables()


def make_lab_tables() -> None:
    """OpenCV's Lab tables made now (one pixel converted; nothing where they are made already), so
    that the first conversion that reads a photo finds them made: :func:`decoding` calls it on its
    thread once the photo is decoded (R360)."""
    lab(np.zeros((1, 1, 3), np.uint8))


def load_image(path: str | Path, shown: str | None = None) -> np.ndarray:
    """A photo, decoded only after its header shows a size within the pixel budget (a small file
    can claim, or decompress to, gigabytes). ``shown``: the name every message gives the photo
    (an upload's own file name: the server's temporary file means nothing to the player)."""
    p = Path(path)
    name = shown if shown is not None else str(p)
    if p.is_dir():
        raise AssistantError(_("{p} is a directory, not an image").format(p=name))
    try:
        size = p.stat().st_size
        if size > MAX_FILE_BYTES:
            raise AssistantError(
                _("{p} is {mib} MiB: photos over {limit_mib} MiB are refused").format(
                    p=name, mib=size // (1024 * 1024), limit_mib=MAX_FILE_BYTES // (1024 * 1024))
            )
        data = read_limited(p, MAX_FILE_BYTES)
    except FileNotFoundError:
        raise AssistantError(_("no such image: {p}").format(p=name)) from None
    except OSError as exc:
        raise AssistantError(_("{p} cannot be read ({why})").format(p=name, why=exc.strerror or exc)) from None
    if not data:
        raise AssistantError(_("{p} is empty (0 bytes): not an image").format(p=name))
    # the whole file: a JPEG's segments are walked by their lengths (a few steps), and a phone's
    # EXIF and maker notes before the frame header can run past 64 KB
    head = image_size(data)
    if head is None:
        kind = unsupported_image_kind(data)
        if kind is not None:  # a real photo in a format not read: say which, and what to send instead
            raise AssistantError(
                _("{p} is a {kind} image, which is not read: send the photo as JPEG or PNG (on an iPhone: Settings > Camera > "
                  "Formats > Most Compatible, or share it as JPEG)").format(p=name, kind=kind)
            )
        cut = cut_short_kind(data)
        if cut is not None:  # it starts like a photo but its header ends early: an upload or copy stopped (R346)
            raise AssistantError(_(CUT_SHORT).format(p=name, fmt=cut, n=len(data)))
        raise AssistantError(_("{p} is not an image (not a PNG, JPEG, BMP or WebP photo; its first bytes are {data!r})").format(p=name, data=data[:8]))
    fmt, w, h = head
    if w <= 0 or h <= 0:
        raise AssistantError(_("{p}: the {fmt} header gives a size of {w} x {h} pixels").format(p=name, fmt=fmt, w=w, h=h))
    if w > MAX_SIDE or h > MAX_SIDE or w * h > MAX_PIXELS:
        raise AssistantError(
            _("{p}: a {fmt} of {w} x {h} pixels ({mp:.0f} MP) is over the limit of {limit_mp} MP and {MAX_SIDE} px a side; refused before decoding").format(
                p=name, fmt=fmt, w=w, h=h, mp=w * h / 1e6, limit_mp=MAX_PIXELS // 1_000_000, MAX_SIDE=MAX_SIDE
            )
        )
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if img is None:
        if cut_short_kind(data) is not None:  # its size was read, but the picture ends early (R346)
            raise AssistantError(_(CUT_SHORT).format(p=name, fmt=fmt, n=len(data)))
        raise AssistantError(_("{p} is a damaged {fmt} file (OpenCV cannot decode it)").format(p=name, fmt=fmt))
    if min(img.shape[:2]) < 16:
        raise AssistantError(_("{p} is {w} x {h} pixels: too small to show a board").format(p=name, w=img.shape[1], h=img.shape[0]))
    return img


#: a photo that starts as one of the formats read but stops before its end (R346)
CUT_SHORT = N_("{p} is cut short: it starts as a {fmt} photo but ends after {n} bytes, before the picture does "
               "(an upload or a copy that stopped early); send the whole photo again")


def cut_short_kind(data: bytes) -> str | None:
    """The format a file starts as (JPEG, PNG, WebP or BMP) when it ends before that format's own
    end: a JPEG with no end-of-image marker after its last start-of-scan (the scan's bytes never
    hold either marker: a 0xFF in them is followed by 0x00), a PNG with no IEND chunk, a WebP or
    BMP shorter than the size its header gives. None for a whole file or another kind of file.

    >>> cut_short_kind(b"\\xff\\xd8\\xff\\xe0\\x00\\x10JFIF")
    'JPEG'
    >>> cut_short_kind(b"\\xff\\xd8\\xff\\xda\\x00\\x02\\x12\\xff\\xd9") is None
    True
    """
    if len(data) < 12:  # cut inside its signature (a RIFF's names its WebP at bytes 8-11)
        for fmt, signature in (("PNG", b"\x89PNG\r\n\x1a\n"), ("JPEG", b"\xff\xd8\xff"), ("WebP", b"RIFF")):
            if len(data) >= 2 and (signature.startswith(data) or (data.startswith(signature) and fmt == "WebP")):
                return fmt
    if data[:2] == b"\xff\xd8":
        scan = data.rfind(b"\xff\xda")
        return "JPEG" if scan < 0 or data.rfind(b"\xff\xd9") < scan else None
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "PNG" if data.rfind(b"IEND") < 8 else None
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WebP" if len(data) < 12 or int.from_bytes(data[4:8], "little") + 8 > len(data) else None
    if data[:2] == b"BM" and len(data) >= 6:
        return "BMP" if int.from_bytes(data[2:6], "little") > len(data) else None
    return None


def unsupported_image_kind(data: bytes) -> str | None:
    """The name of an image format a phone or an editor may hand over that is not read (HEIC,
    AVIF, TIFF, GIF), from its first bytes; None for anything else.

    >>> unsupported_image_kind(b"\\x00\\x00\\x00\\x18ftypheic\\x00\\x00\\x00\\x00")
    'HEIC'
    >>> unsupported_image_kind(b"hello") is None
    True
    """
    if data[4:8] == b"ftyp":  # an ISO media file: its brand says which
        brand = data[8:12]
        if brand in (b"avif", b"avis"):
            return "AVIF"
        if brand in (b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1"):
            return "HEIC"
        return None
    if data[:4] in (b"II*\x00", b"MM\x00*"):
        return "TIFF"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "GIF"
    return None
