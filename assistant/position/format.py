"""The position file format's name, apart from its pydantic schema (:mod:`.schema`), so that
saving or loading a cached position need not import pydantic."""

FORMAT = "tabletop-position/1"
