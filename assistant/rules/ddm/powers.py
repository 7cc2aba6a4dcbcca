"""The D&D Miniatures attack model's powers, named by :mod:`.family`: a spell or spell-format
ability that deals damage (:mod:`assistant.rules.ddm_spells`) checks its own targets. The answer's
shape is shared with SWM (:mod:`assistant.rules.powers`).
"""

from __future__ import annotations

from collections.abc import Callable

from ...model import Figure, Position
from .. import ddm_spells
from ..attack import _ddm_type
from ..engine import Reason
from ..powers import PowerAnswer, Struck


def ddm_answer(pos: Position, user: Figure, target: Figure, name: str, *, abilities_of: Callable[[Figure], tuple[str, ...]],
               cite: Callable[[str], str], legal_target: Callable[[], list[Reason]],
               refusals_of: Callable[[Figure], list[Reason]] | None = None, attack_expected: Callable[[Figure], float] | None = None) -> PowerAnswer:
    """The DDM attack model's powers (:mod:`.family` names it): a spell checks its own targets."""
    return _ddm_answer(pos, user, target, name, abilities_of=abilities_of, cite=cite)


def _ddm_answer(
    pos: Position, user: Figure, target: Figure, name: str, *, abilities_of: Callable[[Figure], tuple[str, ...]], cite: Callable[[str], str]
) -> PowerAnswer:
    """A D&D Miniatures spell or spell-format ability that deals damage (ddm_spells.py)."""
    undecided: list[Reason] = []
    spell, illegal, notes, save, damage, on_save, expected = ddm_spells.answer(
        pos, user, target, name, abilities_of=abilities_of, cite=cite, type_of=lambda f: _ddm_type(pos, f), undecided=undecided
    )
    rule = cite("§ Czary p.22-23")
    return PowerAnswer(
        pos.edition,
        user.id,
        target.id,
        spell.written,
        False if illegal else None if undecided else True,
        tuple(illegal),
        0,
        None,
        "none",
        save,
        (Struck(target.id, damage, expected, (), on_save if save else None),),
        tuple(notes),
        rule,
        undecided=tuple(undecided),
    )
