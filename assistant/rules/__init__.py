"""The rules editions: one module per edition, one engine reading their parameters.

The editions are split by family (:mod:`.swm`, :mod:`.ddm`); importing them here, before anything
else in the package, registers every built-in edition's record (:mod:`.record`), so whatever
can import a rules module finds them all by name.
"""

from . import ddm, swm
from .engine import (
    CoverAnswer,
    RangeAnswer,
    Reason,
    SightAnswer,
    adjacent,
    cover,
    matrix,
    nearest_enemies,
    range_between,
    sight,
)
from .record import EditionError, EditionRecord, editions, find_edition

__all__ = [
    "CoverAnswer", "RangeAnswer", "Reason", "SightAnswer",
    "adjacent", "cover", "matrix", "nearest_enemies", "range_between", "sight",
    "EditionError", "EditionRecord", "editions", "find_edition", "ddm", "swm",
]
