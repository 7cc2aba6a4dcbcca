"""The rules editions: one module per edition, one engine reading their parameters.

The editions are split by family (:mod:`.swm`, :mod:`.ddm`); each edition's module registers its
record (:mod:`.record`), and the first lookup by name loads them all.
"""

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
    "EditionError", "EditionRecord", "editions", "find_edition",
]
