"""The card files' validators: the pydantic side of :mod:`assistant.cards`, imported only when a
card file is read (pydantic costs about 100 ms to import, which a one-shot question answered
from the cached library does not pay).

The card records are plain frozen dataclasses in :mod:`assistant.cards`, annotated with the
names defined here (:data:`ANNOTATION_NAMES`); pydantic reads those annotations from that
module, so :func:`assistant.cards.card_adapter` puts these names there before it first builds
a validator.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictInt, TypeAdapter, ValidationError

from .editions import Size
from .i18n import _

__all__ = ["ANNOTATION_NAMES", "CardFile", "TypeAdapter", "ValidationError"]


def _unknown(value: Any) -> Any:
    if isinstance(value, str) and value.strip().lower() == "unknown":
        return None
    if value is None:
        raise ValueError(_("empty value: write 'unknown' where the source does not give one"))
    return value


def _none_or_unknown(value: Any) -> Any:
    if isinstance(value, str) and value.strip().lower() == "none":
        return "none"
    return _unknown(value)


#: A number the card states, or ``unknown`` (stored as None).
KnownInt = Annotated[StrictInt | None, BeforeValidator(_unknown)]
KnownCount = Annotated[Annotated[StrictInt, Field(ge=0)] | None, BeforeValidator(_unknown)]
KnownBool = Annotated[bool | None, BeforeValidator(_unknown)]
KnownSize = Annotated[Size | None, BeforeValidator(_unknown)]
KnownText = Annotated[str | None, BeforeValidator(_unknown)]
KnownNames = Annotated[tuple[str, ...] | None, BeforeValidator(_unknown)]
#: ``none`` (said so), ``unknown`` (stored as None) or the value
NoneOrUnknown = BeforeValidator(_none_or_unknown)
#: a field the source may leave ``unknown``
Unknown = BeforeValidator(_unknown)

#: the names the card records' annotations use, beyond those :mod:`assistant.cards` defines
ANNOTATION_NAMES: dict[str, Any] = {
    "StrictInt": StrictInt, "Field": Field, "KnownInt": KnownInt, "KnownCount": KnownCount,
    "KnownBool": KnownBool, "KnownSize": KnownSize, "KnownText": KnownText, "KnownNames": KnownNames,
    "NoneOrUnknown": NoneOrUnknown, "Unknown": Unknown,
}


class CardFile(BaseModel):
    """The header of a card file; each card is validated on its own for precise messages."""

    model_config = ConfigDict(extra="forbid")

    format: Literal["tabletop-cards/1"]
    game: Literal["swm", "ddm"]
    set: str
    cards: list[Any]
