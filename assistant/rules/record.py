"""One record per edition, registered once and looked up by name.

Everything in which one rules edition differs from another is held by, or pointed to from, its
:class:`EditionRecord`: the board it plays on (:class:`~assistant.editions.EditionRules`), its
geometry and turn rules (:mod:`.params`), its family's attack model (:class:`AttackModel`), the
words it uses (:class:`Words`), and the abilities and rules its rulebook alone gives. Code
outside the records asks the record (``find_edition(pos.edition).defines("Twin Attack")``), never
which edition it is, so a new edition is one module, one :func:`register_edition` call and its
tests -- and an edition that lacks a capability fails loudly instead of quietly borrowing
another family's rules.

The registry is filled once by the edition modules (:mod:`.ddm.ddm2005`, :mod:`.swm.swm2004`,
:mod:`.swm.swm2008`, in that order), each registering its own record when imported; the first
lookup (:func:`find_edition`, :func:`editions`) imports the built-in families (:data:`BUILT_IN`),
so a lookup always finds them all, and a one-shot command that needs no edition's rules (``--help``,
a card query) does not build them (the python-chess pattern: ``VARIANTS`` and ``find_variant``).

The record lives here rather than in :mod:`assistant.editions` because it points to the geometry
and turn rules of this package, and the board model below must not import them.

>>> find_edition("swm2008").words.defense
'Defense'
>>> find_edition("ddm2005").attack.family
'ddm'
>>> [r.name for r in editions()]
['ddm2005', 'swm2004', 'swm2008']
>>> find_edition("swm2011")
Traceback (most recent call last):
...
assistant.rules.record.EditionError: unknown rules edition 'swm2011' (known: ddm2005, swm2004, swm2008)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields
from functools import cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from ..editions import Edition, EditionRules, Size
from ..errors import AssistantError
from ..i18n import _

if TYPE_CHECKING:  # imported where a record is checked: the engine's import needs neither
    from .params import GeometryRules, TurnRules


class EditionError(AssistantError, LookupError):
    """An edition that is not registered, or a record that lacks what the rules need from it."""


@dataclass(frozen=True)
class Words:
    """The words an edition's answers use where the families' rulebooks differ (msgids: each is
    shown through ``_()`` where it is used)."""

    #: the stat an attack roll is made against: "Defense" (SWM) or "AC" (DDM)
    defense: str
    #: a clear any-point line of sight, and a blocked one (the sight blockers differ by family)
    clear_line: str
    blocked_line: str


@dataclass(frozen=True)
class ConditionRule:
    """A figure condition an edition's engine applies (reading R163): the rule that gives it, and
    whether a figure under it may still move or attack in its turn (a routing creature's flight is
    its own move: R53)."""

    #: where the rulebook gives it
    rule: str
    #: it cannot move (DDM stunned, helpless; SWM stunned: it skips its turn)
    no_move: bool = False
    #: it makes no attack, charge or power (those, and a routing creature)
    no_attack: bool = False
    #: it is not able to act (DDM glossary 'active': routing, asleep, stunned, paralyzed, helpless;
    #: SWM stunned): no threatened area, no flanking, no attacks of opportunity, no commanding
    inactive: bool = False
    #: able to act, yet it makes no attacks of opportunity and commands no one (DDM confused:
    #: glossary 'Confusion', its commander rating and effect count for nothing)
    no_reactions: bool = False
    #: what its activation must settle at the table that the engine does not (a msgid): said
    #: when the figure is activated (DDM confused: the d20 table)
    at_activation: str | None = None


@dataclass(frozen=True)
class AttackModel:
    """How a family rolls an attack and uses a power: SWM (d20 + Attack against Defense, Force
    rerolls) or DDM (the melee and ranged tables against AC, saves of d20 + Level).

    The functions are named as ``"module:function"`` and imported on first use: the attack code
    pulls in the card and ability catalogues, which a line-of-sight query does not need.
    """

    family: str
    #: ``attack(pos, a, t, *, moved, helpers, kind, charge, opportunity, for_power) -> AttackAnswer``
    attack: str
    #: ``power(pos, user, target, name, *, abilities_of, cite, legal_target, refusals_of, attack_expected) -> PowerAnswer``
    power: str
    #: a Force point rerolls the attack roll just made (SWM PL p.11, CS r.9)
    force_reroll: bool
    #: figure conditions the attack applies itself (the others are listed as not modelled)
    modelled_conditions: frozenset[str]
    #: the kind an attack of opportunity is (DDM: melee; SWM: None, its own Melee Attack rule)
    opportunity_kind: str | None
    #: a save is d20 + Level against a DC (DDM); else a d20 against a number (SWM)
    save_adds_level: bool

    def run_attack(self) -> Callable[..., Any]:
        return _load(self.family, "attack", self.attack)

    def run_power(self) -> Callable[..., Any]:
        return _load(self.family, "power", self.power)


@cache
def _load(family: str, what: str, path: str) -> Callable[..., Any]:
    module, _sep, name = path.partition(":")
    try:
        found: object = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError, ValueError) as err:
        raise EditionError(_("the {family} attack model's {what} function {path!r} cannot be loaded: {err}").format(
            family=family, what=what, path=path, err=err)) from err
    if not callable(found):
        raise EditionError(_("the {family} attack model's {what} {path!r} is not a function").format(family=family, what=what, path=path))
    return found


@dataclass(frozen=True)
class EditionRecord:
    """Everything one rules edition is: what the board needs, its geometry, its turns, its
    family's attack model, its words, and the rules only its rulebook gives."""

    #: the position file's ``rules:`` value, and the prefix of every citation
    name: str
    #: the card family whose stat cards it uses: "swm" or "ddm"
    family: str
    board: EditionRules
    geometry: GeometryRules
    turns: TurnRules
    attack: AttackModel
    words: Words
    #: abilities whose rules differ between editions, that the code applies only where this
    #: edition's rulebook gives them (SWM 2008 Twin Attack, DDM Trample, SWM Intuition...)
    abilities: frozenset[str]
    #: an attack of opportunity ignores the targeting rules (swm2008 PL p.33)
    opportunity_ignores_targeting: bool
    #: damage Disintegration adds after doubling against a Large or bigger target (swm2008 PL p.39-40)
    disintegration_large_extra: int
    #: the Rend value when the card prints none (the 2004 glossary's fixed 20, CS g.11)
    rend_default: int | None
    #: a power written without its number takes the one the rulebook prints (the 2004 glossary)
    power_value_defaults: bool
    #: the largest ally Tow Cable may tow (swm2008: Medium; None: the rulebook sets no size)
    tow_cable_max_size: Size | None
    #: the points a side's squad or warband may cost (SWM 100, DDM 200)
    build_points: int
    #: a squad's factions must fit one era's side (swm2008 PL p.15)
    faction_eras: bool
    #: every figure condition the engine applies in this edition, each with the rule that gives
    #: it: ``game condition ... add`` refuses any other name, naming these (reading R163)
    conditions: Mapping[str, ConditionRule] = field(hash=False)
    #: names that count as having Order 66 though the card does not print it, lower case: the
    #: rulebook's "characters from earlier sets whose names contain ..." (reading R230)
    order_66_names: tuple[str, ...] = ()
    #: characters the rulebook counts as having a name trait without the special ability, lower
    #: case, with the trait: "Chewbacca i Tarfful także traktowani są jako Wookiee" (reading R287)
    trait_names: tuple[tuple[str, str], ...] = ()
    #: what an attacker Betrayal turns (a natural 1 against the character) may still do, in this
    #: rulebook's words, and their rule; empty where the rulebook has no Betrayal (reading R410)
    betrayal_words: tuple[str, str] = ("", "")

    def defines(self, ability: str) -> bool:
        """Does this edition's rulebook give ``ability`` the rules the code applies for it?

        >>> find_edition("swm2008").defines("Light Spirit"), find_edition("swm2004").defines("Light Spirit")
        (True, False)
        """
        return ability in self.abilities

    def inactive(self, conditions: Iterable[str]) -> list[str]:
        """The conditions among ``conditions`` that leave a figure unable to act (no threatened
        area, no flanking, not in melee), in order; empty: it is able (reading R185).

        >>> find_edition("ddm2005").inactive(["confused", "stunned"]), find_edition("swm2008").inactive(["jedi mind trick"])
        (['stunned'], ['jedi mind trick'])
        """
        return sorted(c for c in set(conditions) if (r := self.conditions.get(c)) is not None and r.inactive)

    def unable_to_react(self, conditions: Iterable[str]) -> list[str]:
        """The conditions among ``conditions`` under which a figure makes no attacks of
        opportunity and commands no one (no commander rating at initiative, no commander effect,
        no morale bonus): those that leave it unable to act, and DDM's confused (reading R185).

        >>> find_edition("ddm2005").unable_to_react(["confused", "invisible"])
        ['confused']
        """
        return sorted(c for c in set(conditions) if (r := self.conditions.get(c)) is not None and (r.inactive or r.no_reactions))

    def unknown_condition(self, name: str) -> str | None:
        """Why ``name`` is no condition of this edition, naming those that are (reading R163:
        `game condition ... add` and `game place` refuse it alike); None when it is one.

        >>> find_edition("swm2004").unknown_condition("routing")
        "'routing' is not a condition the assistant applies in swm2004 (it applies: jedi mind trick, stunned)"
        """
        if name in self.conditions:
            return None
        return _("{condition!r} is not a condition the assistant applies in {edition} (it applies: {known})").format(
            condition=name, edition=self.name, known=", ".join(sorted(self.conditions)))

    def cite(self, where: str) -> str:
        """A rule citation in the form used in every answer: ``swm2008 PL p.9``."""
        return f"{self.name} {where}"

    @property
    def edition(self) -> Edition:
        return self.board.edition


_REGISTRY: dict[str, EditionRecord] = {}
#: every registered edition by name, in registration order (read-only: register with
#: :func:`register_edition`); the built-in ones are there once a lookup has loaded them
EDITIONS: Mapping[str, EditionRecord] = MappingProxyType(_REGISTRY)
#: the families whose modules register the built-in editions, imported by the first lookup
BUILT_IN = ("assistant.rules.ddm", "assistant.rules.swm")
_built_in_loaded = False


def _load_built_in() -> None:
    global _built_in_loaded
    if not _built_in_loaded:
        _built_in_loaded = True
        for package in BUILT_IN:
            importlib.import_module(package)


def _check(record: EditionRecord) -> None:
    """A record's every capability is given, and all of it is this edition's: a record that
    lacks one, or points to another edition's rules or another family's attack model, is
    refused here rather than answering with rules that are not its own."""
    from .params import GeometryRules, TurnRules  # start-up time: only registering an edition needs them

    missing = [f.name for f in fields(record) if getattr(record, f.name) is None and f.name not in _OPTIONAL]
    missing += [f"attack.{f.name}" for f in fields(AttackModel) if isinstance(record.attack, AttackModel)
                and getattr(record.attack, f.name) in (None, "") and f.name not in _OPTIONAL_ATTACK]
    missing += [f"words.{f.name}" for f in fields(Words) if isinstance(record.words, Words) and not getattr(record.words, f.name)]
    if missing:
        raise EditionError(_("edition {name!r} lacks {what}: every edition gives all of them").format(
            name=record.name, what=", ".join(missing)))
    for part, kind in (("board", EditionRules), ("geometry", GeometryRules), ("turns", TurnRules), ("attack", AttackModel), ("words", Words)):
        if not isinstance(getattr(record, part), kind):
            raise EditionError(_("edition {name!r}: its {part} is not a {kind}").format(name=record.name, part=part, kind=kind.__name__))
    for part in ("board", "geometry", "turns"):
        own = getattr(record, part).edition.value
        if own != record.name:
            raise EditionError(_("edition {name!r}: its {part} rules are those of {own!r}").format(name=record.name, part=part, own=own))
    if record.attack.family != record.family or record.board.family != record.family:
        raise EditionError(_("edition {name!r} is of the {family} family but its attack model is {model}'s").format(
            name=record.name, family=record.family, model=record.attack.family))
    unlisted = sorted(record.attack.modelled_conditions - set(record.conditions))
    if unlisted:
        raise EditionError(_("edition {name!r}: its attack applies conditions its record does not list: {names}").format(
            name=record.name, names=", ".join(unlisted)))
    for path in (record.attack.attack, record.attack.power):
        if ":" not in path:
            raise EditionError(_("edition {name!r}: {path!r} is not a 'module:function' name").format(name=record.name, path=path))


_OPTIONAL = frozenset({"rend_default", "tow_cable_max_size"})
_OPTIONAL_ATTACK = frozenset({"opportunity_kind"})


def register_edition(record: EditionRecord) -> EditionRecord:
    """Register an edition once (each edition module does so for its own record)."""
    _check(record)
    if record.name in _REGISTRY:
        raise EditionError(_("edition {name!r} is already registered").format(name=record.name))
    _REGISTRY[record.name] = record
    return record


def unregister_edition(name: str) -> None:
    """Forget an edition (for tests that register a made-up one)."""
    _REGISTRY.pop(name, None)


def find_edition(name: str | Edition) -> EditionRecord:
    """The record of the edition named ``name`` (a position's ``rules:`` value or an :class:`Edition`)."""
    key = name.value if isinstance(name, Edition) else name
    if key not in _REGISTRY:
        _load_built_in()
    try:
        return _REGISTRY[key]
    except KeyError:
        raise EditionError(_("unknown rules edition {name!r} (known: {known})").format(
            name=key, known=", ".join(_REGISTRY))) from None


def editions() -> tuple[EditionRecord, ...]:
    """Every registered edition, in registration order."""
    _load_built_in()
    return tuple(_REGISTRY.values())
