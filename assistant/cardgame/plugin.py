"""A card game as a plug-in: the record each game's package exports and the registry
(:mod:`assistant.cardgames`) lists. The shared machinery (the game log, the scenarios, the
CLI's card-game commands, the web table) asks a game for everything through its record, so it
never names a game nor asks which one it is.

A record has two halves. :class:`CardGame` is light (its name, titles, examples): the one-shot
CLI builds every game's command group from it at start-up. :class:`CardGameRules` is the
engine, the table model (pydantic) and the importer: its ``load`` imports them the first time
a game is played or asked about, never at start-up.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import AssistantError
from ..i18n import _
from ..resources import card_table_example

if TYPE_CHECKING:
    from . import Outcome
    from .importers import CardImporter


class UnknownCardGameError(AssistantError):
    """A card game no package registers: refused, naming the ones there are (never a fallback
    to another game's rules)."""

    def __init__(self, game: str, known: tuple[str, ...]):
        self.game = game
        self.known = known
        super().__init__(_("{game!r} is not a card game here ({names})").format(game=game, names=', '.join(known)))


@dataclass(frozen=True)
class CardGameRules:
    """The heavy half of a card game: how its table is read, played, asked, shown and filled."""

    parse_table: Callable[[str, str], Any]  # (text, file name) -> table; TableFileError
    apply: Callable[[Any, str], Outcome]  # (table, command) -> the next table and what happened
    lookup: Callable[[Any, str], Any]  # (table, dotted path) -> one fact (status --get, scenarios)
    verb_help: Callable[[], dict[str, tuple[str, str]]]  # verb -> (kind, what it does), in English
    verbs: Callable[[], dict[str, str]]  # verb -> what it does, in the reader's language
    describe: Callable[[Any], list[str]]  # the table as plain text lines
    summary: Callable[[Any], dict[str, Any]]  # the table as JSON (status --json, the export)
    importer: CardImporter


@dataclass(frozen=True)
class CardGame:
    """One card game, as its package exports it."""

    name: str  # the CLI's command group, the game file's ``rules``, the bundled example's name
    title: str  # as the export's heading names it
    help_title: str  # as the CLI's help names it
    examples: tuple[str, ...]  # table commands the CLI's help shows
    load: Callable[[], CardGameRules]  # imports the engine on first use; cached by the game
    #: scenario kinds other than a table and commands (team building, say), each run on the
    #: scenario's mapping; it returns what did not hold
    scenario_kinds: Mapping[str, Callable[[dict[str, Any]], list[str]]] = field(default_factory=dict)
    #: the options of ``import`` that only some games have (``--elite``, ``--zone``...) that this
    #: one reads: another given to it is refused naming it and the game, never ignored (R317)
    import_options: frozenset[str] = frozenset()

    def refuse_import_options(self, given: Mapping[str, bool]) -> None:
        """Refuse, naming it and this game, the first import option given (``given``: option ->
        whether it was given) that this game does not read."""
        foreign = [o for o, was in given.items() if was and o not in self.import_options]
        if foreign:
            takes = ", ".join(sorted(self.import_options)) or "-"
            raise AssistantError(_("{option} is not an option of {game}'s import: it reads {options}").format(
                option=foreign[0], game=self.title, options=takes))

    def rules(self) -> CardGameRules:
        return self.load()

    def parse_table(self, text: str, name: str) -> Any:
        return self.load().parse_table(text, name)

    def apply(self, table: Any, command: str) -> Outcome:
        return self.load().apply(table, command)

    def lookup(self, table: Any, path: str) -> Any:
        return self.load().lookup(table, path)

    def verbs(self) -> dict[str, str]:
        return self.load().verbs()

    def describe(self, table: Any) -> list[str]:
        return self.load().describe(table)

    def summary(self, table: Any) -> dict[str, Any]:
        return self.load().summary(table)

    def example_table(self) -> str:
        """The bundled example table file (a starting point for one's own)."""
        return card_table_example(self.name)
