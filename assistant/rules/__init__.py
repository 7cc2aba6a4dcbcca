"""The rules editions: one module per edition, one engine reading their parameters."""

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

__all__ = [
    "CoverAnswer", "RangeAnswer", "Reason", "SightAnswer",
    "adjacent", "cover", "matrix", "nearest_enemies", "range_between", "sight",
]
