"""Each kind of event a miniatures game's log holds is one :class:`~assistant.game.state.EventKind`,
its shape, check, fold and words filed together: the registry is whole, it is exactly what the
store accepts, and every kind reads in the log as it always has (a stored log is evidence: its
words must not change). The expected texts below were produced by the chains of ``if kind ==``
this registry replaced."""

from __future__ import annotations

import pathlib
import sqlite3
from typing import Any

import pytest

from assistant.game import Game
from assistant.game.state import EVENT_KINDS, SHAPES, GameState, describe
from assistant.game.store import Event, GameFileError
from assistant.resources import example_path

#: every kind the log has ever held (a kind lost in a refactor would orphan stored games)
ALL_KINDS = {"setup", "undo", "initiative", "activate", "end-turn", "move", "attack", "opportunity", "charge", "damage", "heal", "force",
             "condition", "door", "place", "relocate", "remove", "flee", "morale", "note", "end", "embark", "disembark", "power"}

#: (kind, data, its words in the log) on the Clone Wars corridor, before round 1
DESCRIBED: list[tuple[str, dict[str, Any], str]] = [
    ('undo', {'seq': 3}, 'undo of event 3'),
    (
        'initiative',
        {'rolls': {'light': 14, 'dark': 9}, 'winner': 'light', 'first': 'dark'},
        'round 1: initiative (light 14, dark 9); light wins, dark goes first',
    ),
    (
        'initiative',
        {
            'rolls': {'light': 12, 'dark': 3},
            'totals': {'light': 14, 'dark': 3},
            'ratings': {'light': 2, 'dark': 0},
            'rerolls': [{'light': 5, 'dark': 5}],
            'winner': 'light',
            'first': 'light',
            'tie_break': 'rerolled once',
        },
        'round 1: initiative (roll 1: light 5, dark 5 (tied: reroll); light 12 + commander 2 = 14, dark 3); light wins, light goes first; tie broken: '
        'rerolled once',
    ),
    ('activate', {'figure': 'obi'}, 'obi activates'),
    ('end-turn', {}, 'end of turn'),
    ('move', {'figure': 'obi', 'to': 'D8', 'cost': 1, 'path': ['C8', 'D8']}, 'obi moves to D8 (1 square)'),
    (
        'move',
        {
            'figure': 'obi',
            'to': 'E9',
            'cost': 3,
            'path': ['C8', 'D8', 'E9'],
            'provokes': ['dooku'],
            'mode': 'burrow',
            'trample': ['sbd'],
            'tow': {'figure': 'clone1', 'to': 'D9'},
        },
        "obi moves to E9 (3 squares via C8 → D8 → E9); leaves dooku's reach: attack of opportunity possible; underground (Burrow); tramples sbd; tows "
        "clone1 to D9 (Tow Cable)",
    ),
    ('move', {'figure': 'obi', 'to': 'D8', 'mode': 'intuition'}, 'obi moves to D8 (? squares); Intuition, before any activation'),
    ('attack', {'attacker': 'obi', 'target': 'dooku', 'roll': 1, 'needs': 12, 'hit': False}, 'obi attacks dooku: roll 1 needs 12 -> misses'),
    (
        'attack',
        {'attacker': 'obi', 'target': 'dooku', 'roll': 15, 'needs': 12, 'hit': True, 'damage': 20, 'helpers': ['clone1']},
        'obi attacks dooku with combined fire from clone1: roll 15 needs 12 -> hits for 20 damage',
    ),
    (
        'attack',
        {'attacker': 'obi', 'target': 'dooku', 'roll': 20, 'needs': 12, 'hit': True, 'critical': True, 'damage': 40},
        'obi attacks dooku: roll 20 needs 12 -> critical hit for 40 damage',
    ),
    (
        'attack',
        {'attacker': 'obi', 'target': 'dooku', 'roll': 20, 'needs': 12, 'hit': True, 'critical': True, 'damage': 0},
        'obi attacks dooku: roll 20 needs 12 -> critical hit',
    ),
    (
        'opportunity',
        {'attacker': 'dooku', 'target': 'obi', 'roll': 13, 'needs': 10, 'hit': True, 'damage': 0},
        'dooku makes an attack of opportunity on obi: roll 13 needs 10 -> hits',
    ),
    (
        'charge',
        {'figure': 'obi', 'target': 'dooku', 'to': 'Q8', 'cost': 8, 'roll': 4, 'needs': 12, 'hit': False},
        'obi charges dooku, moving to Q8 (8 squares), +2 on its attack: roll 4 needs 12 -> misses',
    ),
    (
        'charge',
        {'figure': 'obi', 'target': 'dooku', 'to': 'Q8'},
        'obi charges dooku, moving to Q8 (? squares), +2 on its attack: roll None needs None -> misses',
    ),
    ('damage', {'figure': 'dooku', 'amount': 10}, 'dooku takes 10 damage'),
    ('damage', {'figure': 'dooku', 'amount': 10, 'by': 'obi'}, 'dooku takes 10 damage from obi'),
    (
        'power',
        {
            'figure': 'dooku',
            'target': 'obi',
            'power': 'Force Lightning',
            'cost': 2,
            'struck': [{'figure': 'obi', 'damage': 20}, {'figure': 'clone1', 'damage': 0}],
        },
        'dooku uses Force Lightning on obi (2 Force points): obi 20, clone1 0',
    ),
    (  # a user's trial: "(1 Force points)"
        'power',
        {'figure': 'dooku', 'target': 'obi', 'power': 'Force Grip', 'cost': 1, 'struck': [{'figure': 'obi', 'damage': 10}]},
        'dooku uses Force Grip on obi (1 Force point): obi 10',
    ),
    ('heal', {'figure': 'obi', 'amount': 10}, 'obi heals 10'),
    ('force', {'figure': 'obi', 'delta': -2}, 'obi Force -2'),
    ('force', {'figure': 'obi', 'delta': 3}, 'obi Force +3'),
    ('condition', {'figure': 'obi', 'add': True, 'condition': 'stunned'}, 'obi gains condition stunned'),
    ('condition', {'figure': 'obi', 'add': False, 'condition': 'stunned'}, 'obi loses condition stunned'),
    ('door', {'edge': 'I5.N', 'open': True}, 'door I5.N opened by hand'),
    ('door', {'edge': 'I5.N', 'open': False}, 'door I5.N closed by hand'),
    ('place', {'figure': {'id': 'clone9', 'card': 'Clone Trooper', 'side': 'light', 'at': 'A1'}}, 'clone9 placed at A1'),
    ('relocate', {'figure': 'obi', 'at': 'C9'}, 'obi set to C9 (correction)'),
    ('relocate', {'figure': 'obi', 'at': 'C9', 'source': 'photo'}, 'obi set to C9 (photo)'),
    ('remove', {'figure': 'clone1'}, 'clone1 removed'),
    ('flee', {'figure': 'clone1'}, 'clone1 flees off the map'),
    ('flee', {'figure': 'clone1', 'by': 'dooku'}, 'clone1 flees off the map (caused by dooku)'),
    ('morale', {'figure': 'clone1', 'roll': 20, 'held': True, 'level': 3, 'total': 23}, 'clone1 morale save: d20 20 + Level 3 = 23 vs 20 (natural 20): holds'),
    (
        'morale',
        {'figure': 'clone1', 'roll': 1, 'held': False, 'level': 3, 'commander': 2, 'commander_by': 'ctc', 'total': 6},
        'clone1 morale save: d20 1 + Level 3 + commander 2 (ctc) = 6 vs 20 (natural 1): fails',
    ),
    # a save with no Level recorded: every save recorded before round 18 carried its Level (0 where none was known) and
    # its total, so none read "Level 0 = None"; since round 18 only a natural 20 or 1 is recorded without one
    ('morale', {'figure': 'clone1', 'roll': 1, 'held': False}, 'clone1 morale save: d20 1 + Level ? = ? vs 20 (natural 1): fails'),
    ('morale', {'figure': 'clone1', 'roll': 9, 'held': False, 'level': 0, 'total': 9}, 'clone1 morale save: d20 9 + Level 0 = 9 vs 20: fails'),
    ('note', {'text': "a judge's word"}, "judge's note: a judge's word"),
    ('end', {}, 'end of the game'),
    ('end', {'reason': 'time'}, 'end of the game: time'),
    ('embark', {'figure': 'clone1', 'skiff': 'skiff'}, 'clone1 boards skiff (Desert Skiff)'),
    ('disembark', {'figure': 'clone1', 'at': 'B2'}, 'clone1 disembarks at B2'),
]


@pytest.fixture
def game(tmp_path: pathlib.Path) -> Game:
    path = example_path("clone-wars-corridor")
    assert path is not None
    return Game.new(tmp_path / "g.sqlite", path.read_text())


@pytest.fixture
def state(game: Game) -> GameState:
    st = game.state()
    game.close()
    return st


def test_every_kind_has_its_shape_check_fold_and_words() -> None:
    for name, kind in EVENT_KINDS.items():
        assert kind.name == name
        assert isinstance(kind.shape, dict) and all(isinstance(k, str) for k in kind.shape), name
        assert callable(kind.check) and callable(kind.fold) and callable(kind.describe), name


def test_the_registry_is_what_the_store_accepts_and_every_kind_ever_logged() -> None:
    assert set(EVENT_KINDS) == set(SHAPES) == ALL_KINDS
    assert all(SHAPES[name] is kind.shape for name, kind in EVENT_KINDS.items())


def test_every_kind_has_a_description_test() -> None:
    assert {kind for kind, _data, _text in DESCRIBED} | {"setup"} == set(EVENT_KINDS)


@pytest.mark.parametrize("kind, data, text", DESCRIBED)
def test_each_kind_reads_in_the_log_as_it_always_has(state: GameState, kind: str, data: dict[str, Any], text: str) -> None:
    assert describe(state, Event(9, "2026-01-01T00:00:00+00:00", kind, data, None)) == text


def test_the_setup_reads_as_the_log_s_first_entry(state: GameState) -> None:
    assert (
        state.entries[0].text
        == 'setup: swm2008, 20 x 14, figures obi (light) at C8, ctc (light) at A7, clone1 (light) at B6, clone2 (light) at B9, dooku (dark) at R8, sbdc '
        '(dark) at S10, sbd (dark) at Q6'
    )


def test_an_unknown_kind_is_refused_as_before(game: Game) -> None:
    with pytest.raises(ValueError, match="unknown event kind 'teleport'"):
        game.do("teleport", {"figure": "obi", "to": "D8"})
    for log_event in ("setup", "undo"):  # the log writes these itself: no command records them
        with pytest.raises(ValueError, match=f"unknown event kind '{log_event}'"):
            game.do(log_event, {"seq": 1} if log_event == "undo" else {"position": "x"})
    assert game.refusals("teleport", {}) == []
    assert [e.kind for e in game.events()] == ["setup"]  # nothing was written
    game.close()


def test_a_log_holding_an_unknown_kind_is_refused_whole(game: Game) -> None:
    path = game.path
    game.store.append("note", {"text": "fine"})
    game.close()
    con = sqlite3.connect(path)
    with con:
        con.execute("UPDATE events SET kind = 'teleport' WHERE seq = 2")
    con.close()
    with pytest.raises(GameFileError, match=r"event #2 \(teleport\) was changed after it was recorded"):  # the hash chain names it
        Game.open(path).state()
