"""The shape of a ``tabletop-position/1`` file (CONTRACT §2), as pydantic models.

These models only check keys and types; everything that needs the map, the edition or the
card library (square names, overlaps, walls) is checked in :mod:`.check`, which reports
problems with the same file/line precision.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from .format import FORMAT as FORMAT  # re-exported: its home is .format

#: Largest map side: 702 columns is "ZZ", the last two-letter column.
MAX_SIDE = 702


def _none_is_empty_list(value: Any) -> Any:
    # `wall:` with nothing after it is how people write "none" in YAML
    return [] if value is None else value


def _none_is_empty_dict(value: Any) -> Any:
    return {} if value is None else value


Names = Annotated[list[StrictStr], BeforeValidator(_none_is_empty_list)]
NonNeg = Annotated[StrictInt, Field(ge=0)]

_STRICT = ConfigDict(extra="forbid")


class SquaresIn(BaseModel):
    model_config = _STRICT

    wall: Names = []
    low: Names = []
    difficult: Names = []
    pit: Names = []
    forest: Names = []
    statue: Names = []
    fog: Names = []
    risky: Names = []
    spike_stones: Names = []
    sacred_circle: Names = []
    blood_rock: Names = []
    teleporter: Names = []


class EdgesIn(BaseModel):
    model_config = _STRICT

    wall: Names = []
    door: Names = []


class MapIn(BaseModel):
    model_config = _STRICT

    name: StrictStr | None = None
    cols: Annotated[StrictInt, Field(ge=1, le=MAX_SIDE)]
    rows: Annotated[StrictInt, Field(ge=1, le=MAX_SIDE)]
    squares: Annotated[SquaresIn, BeforeValidator(_none_is_empty_dict)] = SquaresIn()
    edges: Annotated[EdgesIn, BeforeValidator(_none_is_empty_dict)] = EdgesIn()
    open_doors: Names = []
    open_corners: Names = []
    areas: Annotated[dict[StrictStr, Names], BeforeValidator(_none_is_empty_dict)] = {}


class StatsIn(BaseModel):
    model_config = _STRICT

    hp: NonNeg | None = None
    defense: NonNeg | None = None
    attack: StrictInt | None = None
    damage: NonNeg | None = None
    ranged_attack: StrictInt | None = None
    ranged_damage: NonNeg | None = None
    speed: NonNeg | None = None
    force: NonNeg | None = None
    level: NonNeg | None = None
    commander_rating: NonNeg | None = None
    abilities: list[StrictStr] | None = None


class FigureIn(BaseModel):
    model_config = _STRICT

    id: StrictStr
    card: StrictStr | None = None
    #: the project's extension: the set of the card (the same figure is printed in several sets)
    set: StrictStr | None = None
    side: StrictStr
    at: StrictStr
    size: StrictStr | None = None
    damage_taken: NonNeg = 0
    activated: StrictBool = False
    stats: Annotated[StatsIn, BeforeValidator(_none_is_empty_dict)] = StatsIn()
    marker: Annotated[StrictInt, Field(ge=0, le=49)] | None = None
    #: the project's extension: conditions the figure is under (stunned, ...)
    conditions: Names = []


class PositionIn(BaseModel):
    """Top level. ``format`` and ``rules`` are plain strings here and checked by hand, so
    that a wrong version or an unknown edition gets a message of its own."""

    model_config = _STRICT

    format: StrictStr
    rules: StrictStr
    map: MapIn
    figures: Annotated[list[Any], BeforeValidator(_none_is_empty_list)] = []
