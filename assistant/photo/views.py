"""The photo's grey and shrunk copies, and its corner-marker searches, made once per grid search.

:func:`assistant.photo.locate_grid` looks at one photo many times: its structure (:mod:`.budget`),
up to four corner-marker searches (:mod:`.markers`), the printed lines' check of a markers' grid
and the printed-lines search (:mod:`.lines`). Each made its own grey copy of the whole photo and
its own shrunk copy (the 2,400-px copy of the default and the harder marker search, the 1,600-px
copy of the lines): on a 12 MP photo without corner markers 8 grey conversions and 5 resizes, 0.3-0.9
CPU-seconds of its 1.5-3 (independent diagnosis photos s0371, s0388; cProfile). Within
:func:`shared`, each copy of the same photo is made once and handed out again; outside it, made
afresh as before. The copies are the same arrays either way, so no answer changes. The marker
searches (:func:`.markers.find_markers_counted`) are remembered so too: ``map from-photo``
(:func:`.terrain.read_map_photo`) ran the default search again after a markerless grid search.

>>> img = np.zeros((40, 60, 3), np.uint8)
>>> with shared():
...     a, b = gray(img), gray(img)
>>> a is b, gray(img) is a
(True, False)
>>> shrunk(img, 0.5, cv2.INTER_AREA).shape
(20, 30, 3)
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar, cast

import cv2
import numpy as np

#: the copies made within :func:`shared`, by (the photo's id, what was made); each entry keeps
#: the photo itself too, so that its id is not reused by another array while the scope lasts
_CACHE: contextvars.ContextVar[dict[tuple[Any, ...], tuple[np.ndarray, Any]] | None] = contextvars.ContextVar("photo_views", default=None)

T = TypeVar("T")


@contextmanager
def shared() -> Iterator[None]:
    """Within it, :func:`gray` and :func:`shrunk` of the same photo are made once (a scope
    inside another shares the outer one's copies)."""
    if _CACHE.get() is not None:
        yield
        return
    token = _CACHE.set({})
    try:
        yield
    finally:
        _CACHE.reset(token)


def sharing() -> bool:
    """Whether this thread is within :func:`shared` (what :func:`once` makes is kept)."""
    return _CACHE.get() is not None


def once(image: np.ndarray, what: tuple[Any, ...], make: Callable[[], T]) -> T:
    """``make()``, what was made of ``image`` (``what`` names it, with its arguments): within
    :func:`shared`, made once and handed out again."""
    cache = _CACHE.get()
    if cache is None:
        return make()
    key = (id(image), image.shape, *what)
    hit = cache.get(key)
    if hit is not None and hit[0] is image:
        return cast(T, hit[1])
    out = make()
    cache[key] = (image, out)
    return out


def gray(image: np.ndarray) -> np.ndarray:
    """The photo in grey (itself where it is grey already)."""
    if image.ndim != 3:
        return image
    return once(image, ("gray",), lambda: cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))


def shrunk(image: np.ndarray, scale: float, interpolation: int) -> np.ndarray:
    """``image`` resized by ``scale`` (both ways) with ``interpolation``, as ``cv2.resize`` makes it."""
    return once(image, ("resize", float(scale), int(interpolation)),
                 lambda: cv2.resize(image, None, fx=scale, fy=scale, interpolation=interpolation))
