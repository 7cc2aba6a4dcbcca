"""Each card-game verb's KEY= options are declared with the verb (issue 30): an option its handler
reads in a helper is taken all the same, and every option any handler reads is declared. The
declaration is checked here against the handlers' code, read through every helper they call."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from assistant.cardgame import Options
from assistant.destiny import engine as destiny
from assistant.destiny.table import parse_table
from assistant.errors import NotationError
from assistant.swtcg import engine as swtcg

PKG = Path(destiny.__file__).resolve().parent.parent
READERS = {"opt", "int_opt", "flag", "signed_opt"}

TABLE = """
format: destiny-table/1
players: {A: {}, B: {}}
battlefield: {owner: A, controller: A}
characters:
  - {id: han, owner: A, health: 8, dice: {f1: [], r1: [], p1: []}}
  - {id: vader, owner: B, health: 13}
"""


def play(*commands: str):
    t = parse_table(TABLE)
    for c in commands:
        t = destiny.apply(t, c).table
    return t


def test_more_resolves_a_die_that_came_to_show_the_symbol_and_turns_with_its_focus() -> None:
    # Destiny L248: "Gracz może rozpatrzyć dowolne kości przedstawiające ten sam symbol, nawet jeśli nie
    # przedstawiały one tego symbolu, kiedy gracz rozpoczynał rozpatrywanie kości."
    t = play("A activate han f1=focus:1 r1=melee:1 p1=melee:2", "B pass",
             "A resolve f1 r1=focus:1",  # r1 comes to show focus during the action
             "A more r1 p1=ranged:1")  # ...and is resolved in it: its focus turns p1
    assert str(t.die("p1").showing) == "ranged:1" and t.die("r1").showing is None
    t = destiny.apply(destiny.apply(t, "B pass").table, "A resolve p1 -> vader").table
    assert t.card("vader").damage == 1


@pytest.mark.parametrize("command", ["A more r1 q9=ranged:1", "A more r1 frees=yes"])
def test_more_still_refuses_a_key_that_is_neither_an_option_nor_a_die(command: str) -> None:
    t = play("A activate han f1=focus:1 r1=melee:1 p1=melee:2", "B pass", "A resolve f1 r1=focus:1")
    with pytest.raises(NotationError, match="takes no option"):
        destiny.apply(t, command)


def test_a_die_to_turn_given_to_a_resolve_that_is_not_focus_is_refused() -> None:
    t = play("A activate han f1=focus:1 r1=ranged:1 p1=melee:2", "B pass")
    with pytest.raises(NotationError, match="only resolving focus turns dice"):
        destiny.apply(t, "A resolve r1 p1=ranged:1 -> vader")


@pytest.mark.parametrize("die", ["f1", "r1", "p1"])
def test_a_target_given_to_a_die_that_takes_none_is_refused_not_ignored(die: str) -> None:
    """trial26 on real CONV cards: 'B resolve phasma2 -> mace' (phasma2 showing focus:2) answered
    "legal" and nothing else; the target was dropped unsaid. A focus, resource or special die takes
    no target: refused, naming it, as any word a play does not take is."""
    t = play("A activate han f1=focus:1 r1=resource:1 p1=special", "B pass")
    with pytest.raises(NotationError, match="takes no target"):
        destiny.apply(t, f"A resolve {die} -> vader")


def test_a_focus_resolved_with_no_die_named_says_so() -> None:
    t = play("A activate han f1=focus:1 r1=melee:1 p1=melee:2", "B pass")
    out = destiny.apply(t, "A resolve f1")
    assert any("no die turned" in line and "Skupienie" in line for line in out.said), out.said
    assert out.table.die("f1").showing is None and str(out.table.die("r1").showing) == "melee:1"


def test_an_option_no_verb_declares_is_refused_in_swtcg_too() -> None:
    assert swtcg.OPTIONS["deploy"] == Options(frozenset({"as"}))
    assert not swtcg.OPTIONS["attack"].names and swtcg.OPTIONS["attack"].keys == "options"


# --- the declarations against the code ------------------------------------------------------------


def _functions(*folders: str) -> dict[str, ast.FunctionDef]:
    out: dict[str, ast.FunctionDef] = {}
    for folder in folders:
        for p in sorted((PKG / folder).glob("*.py")):
            for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
                if isinstance(node, ast.FunctionDef):
                    out.setdefault(node.name, node)
    return out


def _reads(fn: ast.FunctionDef, funcs: dict[str, ast.FunctionDef], seen: set[str]) -> tuple[set[str], bool]:
    """The option keys a handler reads (``cmd.opt("x")``...), through every function of the game's
    package it calls; and whether it reads the options as a whole (keys naming dice or cards)."""
    if fn.name in seen:
        return set(), False
    seen.add(fn.name)
    keys: set[str] = set()
    whole = False
    for node in ast.walk(fn):
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Attribute) and f.attr in READERS and node.args and isinstance(node.args[0], ast.Constant):
                keys.add(str(node.args[0].value))
            if isinstance(f, ast.Name) and f.id in funcs:
                more, w = _reads(funcs[f.id], funcs, seen)
                keys |= more
                whole |= w
        if isinstance(node, ast.Attribute) and node.attr == "opts":
            whole = True
    return keys, whole


def _verbs() -> list[tuple[str, str, object, Options, dict[str, ast.FunctionDef]]]:
    d = _functions("destiny", "cardgame")
    s = _functions("swtcg", "cardgame")
    rows = [("destiny", v, h, destiny.OPTIONS[v], d) for table in (destiny.TURN_ACTIONS, destiny.EFFECTS, destiny.STEPS) for v, h in table.items()]
    rows += [("swtcg", v, h, swtcg.OPTIONS[v], s) for v, h in swtcg.VERBS.items()]
    return rows


@pytest.mark.parametrize(("game", "verb", "handler", "declared", "funcs"), _verbs(), ids=lambda x: x if isinstance(x, str) else "")
def test_every_option_a_handler_reads_is_declared(game: str, verb: str, handler, declared: Options, funcs) -> None:
    keys, whole = _reads(funcs[handler.__name__], funcs, set())
    assert keys <= declared.names, f"{game} {verb} reads {sorted(keys - declared.names)} without declaring them"
    if whole:
        assert declared.keys != "options", f"{game} {verb} reads its options as a whole (dice, cards): declare keys='table' or 'verb'"


def test_every_declared_option_is_read_or_written_in_the_verbs_help() -> None:
    for game, verb, handler, declared, funcs in _verbs():
        keys, _whole = _reads(funcs[handler.__name__], funcs, set())
        usage = (destiny.VERB_HELP.get(verb, "") if game == "destiny" else "") + " " + (handler.__doc__ or "")  # type: ignore[attr-defined]
        unused = {k for k in declared.names - keys if f"{k}=" not in usage}
        assert not unused, f"{game} {verb} declares {sorted(unused)}: neither read nor said in its help"
