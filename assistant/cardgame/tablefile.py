"""The file boundary the card games' table files share: safe YAML, then a strict pydantic
model; every problem is reported with its file line."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from ..errors import AssistantError, Problem
from ..i18n import n_
from ..yamlio import LineMap, YamlReadError, parse_yaml, problems_from_validation

M = TypeVar("M", bound=BaseModel)


class TableFileError(AssistantError):
    """A table file that cannot be loaded; carries every problem found."""

    def __init__(self, name: str, problems: list[Problem]):
        self.problems = problems
        count = n_("{n} problem", "{n} problems", len(problems)).format(n=len(problems))
        super().__init__("\n".join([f"{name}: {count}"] + [f"  {p}" for p in problems]))


def load_model(text: str, name: str, model: type[M]) -> tuple[M, LineMap]:
    """Parse ``text`` and validate it against ``model``; raise :class:`TableFileError`."""
    try:
        data, lines, problems = parse_yaml(text, name)
    except YamlReadError as e:
        raise TableFileError(name, e.problems) from None
    if problems:
        raise TableFileError(name, problems)
    try:
        return model.model_validate(data), lines
    except ValidationError as e:
        raise TableFileError(name, problems_from_validation(e, lines, name, model)) from None


def problem_at(name: str, lines: LineMap, where: str, value: Any, message: str) -> Problem:
    """A problem at a dotted path such as ``characters[2].owner``."""
    path = tuple(int(x) if x.isdigit() else x for x in where.replace("[", ".").replace("]", "").split("."))
    return Problem(message, name, lines.line(path), where, value)
