"""Golden scenarios for the card games: a table, the commands that set it up, one question,
and the answer the rules give. A scenario file (YAML)::

    case: D-07                       # the digest's test case
    rule: P6 › Osłony                # what the case checks, as the rulebook names it
    game: NAME                       # a registered card game (assistant.cardgames)
    table: _heroes.yaml              # a table file beside the scenario, or the table inline
    given: [A shield 2 -> han]       # commands that bring the table to the case's premise
    when: B damage 3 -> han          # the command asked about (or a list of them)
    then: {card.han.damage: 1}       # facts of the table afterwards (dotted paths)
    said: [2 blocked]                # phrases the answer must contain (rules included)
    refused: [already]               # instead of then/said: the last 'when' is refused, saying this
    lang: en                         # the language said/refused are written in (default en): the
                                     # commands are answered in it, whatever the reader's (R249)

:func:`run` returns what did not hold; an empty list is a pass. Which game a scenario names is
the registry's to say (:func:`assistant.cardgames.run_scenario`); a game may add scenario kinds
of its own (:attr:`assistant.cardgame.plugin.CardGame.scenario_kinds`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import AssistantError
from ..i18n import LANGUAGES, _, language

if TYPE_CHECKING:
    from .plugin import CardGame


def _as_list(v: Any) -> list[Any]:
    return [] if v is None else v if isinstance(v, list) else [v]


def _same(got: Any, want: Any) -> bool:
    if isinstance(want, list):
        return isinstance(got, (list, tuple)) and [str(g) for g in got] == [str(w) for w in want]
    if isinstance(want, bool) or want is None:
        return got == want
    if isinstance(want, int):
        return got == want
    return str(got) == str(want)


class ScenarioError(AssistantError):
    """A file that is not a runnable scenario (its shape, its table, or a premise the rules refuse)."""


def game_named(spec: Any) -> object:
    """The ``game`` a scenario names; :class:`ScenarioError` when the file is not a scenario."""
    if not isinstance(spec, dict):
        raise ScenarioError(_("not a scenario: expected a mapping with game, table, when and then/said/refused"))
    return spec.get("game")


def scenario_language(spec: dict[str, Any]) -> str:
    """The language a scenario's phrases are written in: its ``lang``, else English. Its commands
    are answered in it: a Polish reader's run compared the English phrases with Polish answers, and
    most bundled scenarios "failed" (reading R249)."""
    lang = spec.get("lang", "en")
    if lang not in LANGUAGES:
        raise ScenarioError(_("'lang' is the language the scenario's phrases are written in ({langs}), not {lang!r}").format(
            langs=", ".join(LANGUAGES), lang=str(lang)[:20]))
    return str(lang)


def run(spec: dict[str, Any], here: Path, game: CardGame) -> list[str]:
    """What did not hold for a scenario of ``game``'s table and commands (an empty list: the
    scenario holds); :class:`ScenarioError` when the file is not a runnable scenario."""
    for key in ("given", "when", "said", "refused"):
        if any(not isinstance(c, (str, int)) for c in _as_list(spec.get(key))):
            raise ScenarioError(_("'{key}' is a command or phrase, or a list of them").format(key=key))
    if not isinstance(spec.get("then") or {}, dict):
        raise ScenarioError(_("'then' maps dotted paths to the facts expected"))
    if spec.get("refused") is not None and not _as_list(spec.get("when")):
        raise ScenarioError(_("'refused' names what the last 'when' is refused with: give a 'when'"))
    try:
        return _run(spec, here, game)
    except ScenarioError:
        raise
    except AssistantError as e:
        raise ScenarioError(_("the scenario cannot be set up: {e}").format(e=e)) from None
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, RecursionError) as e:
        raise ScenarioError(_("not a scenario ({error}: {e})").format(error=type(e).__name__, e=e)) from None


def _run(spec: dict[str, Any], here: Path, rules: CardGame) -> list[str]:
    from ..yamlio import read_text  # start-up time: YAML only when a scenario is run

    table_spec = spec.get("table")
    if isinstance(table_spec, str):
        text, _unused = read_text(here / table_spec)
    elif isinstance(table_spec, dict):
        text = _dump(table_spec)
    else:
        raise ScenarioError(_("'table' is a table file beside the scenario, or the table itself"))
    lang = scenario_language(spec)
    with language(lang):
        table = rules.parse_table(text, str(table_spec) if isinstance(table_spec, str) else "inline table")
    failures: list[str] = []
    for cmd in _as_list(spec.get("given")):
        try:
            with language(lang):
                table = rules.apply(table, str(cmd)).table
        except AssistantError as e:
            raise ScenarioError(_("its premise {cmd!r} is refused: {e}").format(cmd=cmd, e=e)) from None
    said: list[str] = []
    whens = _as_list(spec.get("when"))
    refused_want = _as_list(spec.get("refused"))
    for i, cmd in enumerate(whens):
        last = i == len(whens) - 1
        try:
            with language(lang):
                out = rules.apply(table, cmd)
        except AssistantError as e:
            if last and refused_want:
                msg = str(e)
                failures += [
                    _("refusal of {cmd!r} does not say {w!r}: {msg}").format(cmd=cmd, w=w, msg=msg) for w in refused_want if str(w).lower() not in msg.lower()
                ]
                return failures
            return failures + [f"{cmd!r} was refused: {e}"]
        table, said = out.table, said + list(out.said)
    if refused_want:
        failures.append(
            _("{whens!r} was accepted, expected a refusal saying {refused_want}; it said: {said}").format(whens=whens[-1], refused_want=refused_want, said=said)
        )
    text_said = "\n".join(said).lower()
    for w in _as_list(spec.get("said")):
        if str(w).lower() not in text_said:
            failures.append(_("the answer does not say {w!r}; it said:\n  ").format(w=w) + "\n  ".join(said))
    for path, want in (spec.get("then") or {}).items():
        try:
            with language(lang):
                got = rules.lookup(table, path)
        except AssistantError as e:
            failures.append(f"{path}: {e}")
            continue
        if not _same(got, want):
            failures.append(_("{path}: expected {want!r}, got {got!r}").format(path=path, want=want, got=got))
    return failures


def _dump(data: Any) -> str:
    import yaml  # start-up time: YAML only when a scenario is run

    return yaml.safe_dump(data, sort_keys=False)
