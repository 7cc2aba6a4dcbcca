"""Destiny free-for-all (destiny.md §10, P9 › Każdy na każdego): three players."""

from __future__ import annotations

import pytest

from assistant.destiny.engine import apply
from assistant.destiny.table import parse_table
from assistant.errors import AssistantError

TABLE = """
format: destiny-table/1
phase: setup
players: {A: {}, B: {}, C: {}}
characters:
  - {id: a1, owner: A, health: 5}
  - {id: b1, owner: B, health: 5}
  - {id: c1, owner: C, health: 5}
"""


def run(*commands: str):
    t = parse_table(TABLE, "ffa")
    said: list[str] = []
    for c in commands:
        out = apply(t, c)
        t, said = out.table, said + list(out.said)
    return t, said


def test_only_the_tied_players_reroll_and_every_other_player_gets_one_shield() -> None:
    t, said = run("battlefield-roll A=5 B=5 C=2")
    assert "tie between A, B" in said[-1]
    with pytest.raises(AssistantError, match="only the tied players reroll"):
        apply(t, "battlefield-roll A=1 B=2 C=6")
    t, said = run("battlefield-roll A=5 B=5 C=2", "battlefield-roll A=3 B=1", "A choose-battlefield A")
    assert "1 shield to one character" in said[-1] and "reading R26 in docs/readings.md" in said[-1]
    with pytest.raises(AssistantError, match="one character"):
        apply(t, "B setup-shields b1=1 x=0")
    t, _ = run("battlefield-roll A=5 B=5 C=2", "battlefield-roll A=3 B=1", "A choose-battlefield A", "B setup-shields b1=1",
               "C setup-shields c1=1", "start")
    assert (t.turn, t.card("b1").shields, t.card("c1").shields, t.card("a1").shields) == ("A", 1, 1, 0)


def test_turns_go_clockwise_and_the_phase_ends_only_when_all_pass_in_a_row() -> None:
    start = ("battlefield-roll A=3 B=1 C=1", "A choose-battlefield A", "B setup-shields b1=1", "C setup-shields c1=1", "start")
    t, _ = run(*start, "A pass", "B pass")
    assert (t.turn, t.phase) == ("C", "action")
    t, _ = run(*start, "A pass", "B pass", "C pass")
    assert t.phase == "upkeep"


def test_an_opponent_must_be_chosen_and_an_eliminated_player_is_skipped() -> None:
    start = ("battlefield-roll A=3 B=1 C=1", "A choose-battlefield A", "B setup-shields b1=1", "C setup-shields c1=1", "start")
    t, _ = run(*start)
    with pytest.raises(AssistantError, match="chooses which opponent"):
        apply(t, "A disrupt 1")
    t, said = run(*start, "A defeat -> b1")
    assert "B is eliminated" in said[-1] and t.phase == "action"
    t, _ = run(*start, "A defeat -> b1", "A pass")
    assert t.turn == "C"  # B is out of the turn order
    t, said = run(*start, "A defeat -> b1", "A defeat -> c1")
    assert t.winner == "A" and t.phase == "over"
