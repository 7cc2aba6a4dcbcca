"""The overrides file's shape, checked by pydantic at the file's boundary (imported only when the
user has such a file: pydantic costs ~100 ms that a question without one does not pay). The
commander effect is checked against the card records' own form by :mod:`assistant.cards` when
the entry is laid over its card."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr


class OverrideEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: Literal["swm", "ddm"]
    name: StrictStr = Field(min_length=1, max_length=200)
    set: StrictStr | None = Field(default=None, max_length=200)
    stats: dict[str, StrictInt | StrictStr] = Field(default_factory=dict)
    commander_effect: dict[str, Any] | None = None
    source: StrictStr = Field(default="", max_length=500)


class OverridesFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    format: Literal["tabletop-card-overrides/1"]
    overrides: list[OverrideEntry] = Field(default_factory=list)
