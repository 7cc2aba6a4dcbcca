"""The JSON Schema of a position file, from the pydantic models of :mod:`.schema`.

Editors (VS Code's YAML extension, JetBrains) validate and complete position files with it::

    # yaml-language-server: $schema=position.schema.json

The models check keys and types; the schema adds what :mod:`.load` checks by hand that a
schema can say: the format string, the editions, and the figures' shape.

>>> s = position_schema()
>>> s["properties"]["format"]["const"], "swm2008" in s["properties"]["rules"]["enum"]
('tabletop-position/1', True)
"""

from __future__ import annotations

from typing import Any

from ..editions import Edition
from .schema import FORMAT, FigureIn, PositionIn


def position_schema() -> dict[str, Any]:
    schema = PositionIn.model_json_schema()
    figure = FigureIn.model_json_schema()
    defs = schema.setdefault("$defs", {})
    defs.update(figure.pop("$defs", {}))
    defs["FigureIn"] = figure
    props = schema["properties"]
    props["format"] = {"const": FORMAT, "description": "the file format and its version"}
    props["rules"] = {"enum": [e.value for e in Edition], "description": "the rules edition in force"}
    props["figures"] = {"type": "array", "items": {"$ref": "#/$defs/FigureIn"}, "default": []}
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "tabletop-assistant position file (tabletop-position/1)"
    return schema
