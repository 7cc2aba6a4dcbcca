"""DDM 2005, issue 30: golden cases written from the Polish rulebook's words (the seed) before the
fixes -- the diagonal count over a turn, commander effects, magic damage, Invisible, reach,
area spells, routing, spell uses and Flight."""

from __future__ import annotations

import json
import textwrap

from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.coords import Square, parse_square
from assistant.game.movement import route
from assistant.model import Position
from assistant.position import parse_position
from assistant.rules.attack import attack
from assistant.rules.powers import use_power
from tests.test_game_turns import ok, refused, start, status

BOARD = textwrap.dedent("""\
    format: tabletop-position/1
    rules: ddm2005
    map:
      cols: 14
      rows: 10
    figures:
      - {id: runner, side: a, at: L4, stats: {hp: 40, defense: 18, attack: 8, damage: 10, speed: 6, level: 4}}
      - {id: orc, side: b, at: B9, stats: {hp: 30, defense: 14, attack: 6, damage: 10, speed: 6, level: 3}}
    """)


def test_diagonal_count_runs_over_single_square_moves(home) -> None:
    """§ Ruch › Przekątne p.10: "pierwsza przekątna liczy się jako 1 pole, druga jako 2 pola, trzecia jako 1 ...
    Licz parzyste przekątne jako 2 pola, nawet jeśli pomiędzy pojawia się ruch po prostej": four diagonals
    L4→K5→J6→I7→H8 cost 1+2+1+2 = 6 whether moved at once or one square at a time."""
    start(home, BOARD)
    ok("game", "initiative", "--roll", "a=15", "--roll", "b=3")
    ok("game", "activate", "runner")
    costs = [json.loads(ok("game", "move", "runner", sq, "--json"))["event"]["cost"] for sq in ("K5", "J6", "I7", "H8")]
    assert costs == [1, 2, 1, 2]


def _board(at: str, walls: list[str], difficult: list[str]) -> str:
    return textwrap.dedent(f"""\
        format: tabletop-position/1
        rules: ddm2005
        map:
          cols: 7
          rows: 7
          squares:
            wall: [{", ".join(walls)}]
            difficult: [{", ".join(difficult)}]
        figures:
          - {{id: m, side: a, at: {at}, stats: {{hp: 10, defense: 10, attack: 1, damage: 5, speed: 6, level: 1}}}}
        """)


_SQUARES = [Square(c, r).name for c in range(7) for r in range(7)]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(_SQUARES), max_size=8), st.lists(st.sampled_from(_SQUARES), max_size=8),
       st.sampled_from(_SQUARES), st.sampled_from(_SQUARES), st.integers(0, 1), st.data())
def test_a_move_split_into_steps_never_costs_more_than_at_once(walls, difficult, a, b, parity, data) -> None:
    """The diagonal count is state carried through the search: moving along the cheapest path in legs
    (one square at a time, or cut at chosen squares; the turn's parity carried from leg to leg) costs
    no more than the whole path at once."""
    walls = sorted(set(walls) - {a, b})
    difficult = sorted(set(difficult) - set(walls))
    pos = parse_position(_board(a, walls, difficult))
    whole = route(pos, pos.figure("m"), parse_square(b), parity)
    if whole.cost is None or len(whole.path) < 3:
        return
    cuts = data.draw(st.one_of(st.just(list(whole.path[1:])),
                               st.lists(st.sampled_from(whole.path[1:-1]), min_size=1, max_size=3, unique=True)))
    legs = [s for s in whole.path[1:] if s in cuts or s == whole.path[-1]]
    total, here, par = 0, a, parity
    for leg in legs:
        p = parse_position(_board(here, walls, difficult))
        r = route(p, p.figure("m"), leg, par)
        assert r.cost is not None, r.text
        total, here, par = total + r.cost, leg.name, r.parity
    assert total <= whole.cost, (legs, whole.text)


def _duel(a_extra: str = "", t_extra: str = "", squares: str = "", t_at: str = "C2") -> Position:
    return parse_position(textwrap.dedent(f"""\
        format: tabletop-position/1
        rules: ddm2005
        map:
          cols: 8
          rows: 8
          squares: {{{squares}}}
        figures:
          - {{id: a, side: a, at: B2, stats: {{hp: 40, defense: 15, attack: 5, damage: 10, ranged_attack: 4, ranged_damage: 10, speed: 6, level: 3{a_extra}}}}}
          - {{id: t, side: b, at: {t_at}, stats: {{hp: 40, defense: 15, attack: 5, damage: 10, speed: 6, level: 3{t_extra}}}}}
        """))


def test_sacred_circle_damage_is_magic_and_ignores_damage_reduction() -> None:
    """PL p.26 Święty krąg: "Wszystkie obrażenia, które zadaj tymi atakami, są liczone jako obrażenia od magii, które
    ignorują RO"; glossary DR: "Obrażenia od energii, czarów i magiczne nie są redukowane przez RO"."""
    plain = attack(_duel(t_extra=", abilities: [DR 5]"), "a", "t", kind="melee")
    assert plain.damage == 5  # 10 - DR 5 off the circle
    circle = attack(_duel(t_extra=", abilities: [DR 5]", squares="sacred_circle: [B2]"), "a", "t", kind="melee")
    assert circle.damage == 10 and circle.critical_damage == 20
    assert any(m.source == "sacred circle" and m.value == 2 for m in circle.modifiers)
    assert any("magic" in n.text and "DR" in n.text for n in circle.notes)


def test_invisible_defender_has_conceal_11_in_melee() -> None:
    """PL glossary Invisible: "Ta istota zyskuje Rozmycie 11 przeciwko atakującym, którzy jej nie widzą"; p.17 table:
    "Atakujący nie widzi broniącego się: Broniący się tymczasowo ma zdolność specjalną Conceal 11"."""
    ans = attack(_duel(t_extra=", abilities: [Invisible]"), "a", "t", kind="melee")
    assert ans.legal
    # p_hit: needs 10 (d20 + 5 against AC 15): 11 in 20, then a further d20 of 11+ (10 in 20)
    assert ans.needs == 10 and abs(ans.p_hit - 11 / 20 * 10 / 20) < 1e-9
    seer = attack(_duel(a_extra=", abilities: [Blindsight]", t_extra=", abilities: [Invisible]"), "a", "t", kind="melee")
    assert abs(seer.p_hit - 11 / 20) < 1e-9  # Blindsight sees it: no concealment


def test_invisible_attacker_gains_2_against_an_enemy_that_cannot_see_it() -> None:
    """PL glossary Invisible: "premię +2 do testów ataku przeciwko wrogom, którzy jej nie widzą"; p.17 table
    "Broniący się nie widzi atakującego: premia +2 do testu ataku"."""
    ans = attack(_duel(a_extra=", abilities: [Invisible]"), "a", "t", kind="melee")
    assert ans.needs == 8 and ans.attack_bonus == 7
    seen = attack(_duel(a_extra=", abilities: [Invisible]", t_extra=", abilities: [Blindsight]"), "a", "t", kind="melee")
    assert seen.needs == 10


def test_no_reach_attack_of_opportunity_is_illegal_in_the_query() -> None:
    """PL glossary No Reach: "Nie może wykonywać ataków okazjonalnych"."""
    ans = attack(_duel(a_extra=", abilities: [No Reach]"), "a", "t", opportunity=True)
    assert not ans.legal
    assert any("No Reach" in r.text and "glossary 'No Reach'" in r.rule for r in ans.illegal_reasons)
    assert attack(_duel(a_extra=", abilities: [No Reach]"), "a", "t", kind="melee").legal  # its own attack stands


CAPTAIN_CARDS = textwrap.dedent("""\
    format: tabletop-cards/1
    game: ddm
    set: House
    cards:
      - name: House Captain
        source: written for this test
        cost: 20
        factions: [LG]
        level: 4
        speed: 6
        flight: false
        ac: 16
        hp: 30
        melee: [{bonus: 6, damage: 10}]
        ranged: []
        type: Humanoid
        size: medium
        commander_rating: 2
        commander_effect:
          text: "Followers within 6 squares get +2 on attack rolls."
          effects: [{affects: followers, range: 6, attack: 2}]
      - name: House Sage
        source: written for this test
        cost: 20
        factions: [LG]
        level: 4
        speed: 6
        flight: false
        ac: 16
        hp: 30
        melee: [{bonus: 6, damage: 10}]
        ranged: []
        type: Humanoid
        size: medium
        commander_rating: 1
        commander_effect: {text: "Followers within 6 squares may reroll one save each turn."}
    """)

CAPTAIN_BOARD = textwrap.dedent("""\
    format: tabletop-position/1
    rules: ddm2005
    map: {cols: 14, rows: 8}
    figures:
      - {id: cap, card: House Captain, side: a, at: A1}
      - {id: sol, side: a, at: E2, stats: {hp: 20, defense: 15, attack: 5, damage: 10, speed: 6, level: 2}}
      - {id: far, side: a, at: L2, stats: {hp: 20, defense: 15, attack: 5, damage: 10, speed: 6, level: 2}}
      - {id: orc, side: b, at: F2, stats: {hp: 30, defense: 14, attack: 6, damage: 10, speed: 6, level: 3}}
      - {id: ogre, side: b, at: M2, stats: {hp: 30, defense: 14, attack: 6, damage: 10, speed: 6, level: 3}}
    """)


def test_commander_effect_gives_followers_within_6_squares_its_bonus(home) -> None:
    """§ Wpływy dowodzenia p.19-20: "Większość dowódców zapewnia korzyści sojusznikom: istotom w ich drużynie, które nie są
    dowódcami. Aby użyć korzyści ... sojusznicy muszą być: w zasięgu dowodzenia tego dowódcy; i w odległości 6 pól
    od dowódcy." A captain's +2 to followers within 6 squares: the follower 4 squares away needs 2 less; one 11 squares
    away and the captain itself do not; a routing captain commands no one (§ Kiedy dowódca nie może dowodzić)."""
    (home / "cards.yaml").write_text(CAPTAIN_CARDS, encoding="utf-8")
    (home / "p.yaml").write_text(CAPTAIN_BOARD, encoding="utf-8")
    q = json.loads(ok("--cards", str(home / "cards.yaml"), "attack", "sol", "orc", "-p", str(home / "p.yaml"), "--json"))
    assert q["needs"] == 14 - 5 - 2 and any(m["source"].startswith("commander effect of cap") for m in q["modifiers"])
    far = json.loads(ok("--cards", str(home / "cards.yaml"), "attack", "far", "ogre", "-p", str(home / "p.yaml"), "--json"))
    assert far["needs"] == 14 - 5
    ok("--cards", str(home / "cards.yaml"), "game", "new", "-p", str(home / "p.yaml"), "--game", str(home / "g.sqlite"), "--override", "test squads")
    ok("game", "initiative", "--roll", "a=15", "--roll", "b=3")
    ok("game", "activate", "sol")
    ev = json.loads(ok("game", "attack", "sol", "orc", "--roll", "8", "--json"))["event"]
    assert ev["needs"] == 7 and ev["hit"]
    ok("game", "condition", "cap", "add", "routing")
    ok("game", "activate", "far")  # (the second activation of side a's phase; any figure will do)
    q = json.loads(ok("attack", "sol", "orc", "--json"))
    assert q["needs"] == 14 - 5  # a routing commander's effect does not work


def test_a_confused_commanders_effect_does_not_work(home) -> None:
    """Glossary 'Confusion': "Zagubiony dowódca nie może dowodzić innymi istotami ani dodawać swojej Wartości Dowodzenia
    do testów inicjatywy, a jego Wpływ Dowodzenia nie działa." The attack gave the follower the confused captain's +2
    (its list of conditions that stop commanding lacked confused, the game's had it: reading R185)."""
    (home / "cards.yaml").write_text(CAPTAIN_CARDS, encoding="utf-8")
    (home / "p.yaml").write_text(CAPTAIN_BOARD.replace("side: a, at: A1}", "side: a, at: A1, conditions: [confused]}"), encoding="utf-8")
    q = json.loads(ok("--cards", str(home / "cards.yaml"), "attack", "sol", "orc", "-p", str(home / "p.yaml"), "--json"))
    assert q["needs"] == 14 - 5 and not any(m["source"].startswith("commander effect of cap") for m in q["modifiers"])


def test_a_confused_creatures_activation_says_its_d20_table(home) -> None:
    """Glossary 'Confusion': "Za każdym razem, gdy zagubiona istota jest aktywowana, rzuć 1k20 i sprawdź wynik w tej
    tabelce." The activation of a confused creature said nothing; the table is not modelled, so it is said (R185)."""
    start(home, CAPTAIN_BOARD.replace("side: a, at: E2, stats:", "side: a, at: E2, conditions: [confused], stats:")
          .replace("card: House Captain,", "stats: {hp: 30, defense: 16, attack: 6, damage: 10, speed: 6, level: 4},"))
    ok("game", "initiative", "--roll", "a=15", "--roll", "b=3")
    out = " ".join(ok("game", "activate", "sol").split())
    assert "sol is confused: roll a d20 on the Confusion table" in out and "ddm2005 glossary 'Confusion'" in out, out
    out = ok("game", "activate", "cap")
    assert "Confusion" not in out


def test_commander_effect_not_applied_is_listed_as_not_modelled(home) -> None:
    """An effect the assistant cannot apply (free text only; or not known) is listed in `not_modelled`, never ignored."""
    (home / "cards.yaml").write_text(CAPTAIN_CARDS, encoding="utf-8")
    (home / "p.yaml").write_text(CAPTAIN_BOARD.replace("card: House Captain", "card: House Sage"), encoding="utf-8")
    q = json.loads(ok("--cards", str(home / "cards.yaml"), "attack", "sol", "orc", "-p", str(home / "p.yaml"), "--json"))
    assert q["needs"] == 14 - 5
    assert any("cap" in x and "commander effect" in x and "reroll one save" in x for x in q["not_modelled"])


def test_a_spell_with_one_use_is_cast_once(home) -> None:
    """§ Czary › Ilość użyć p.22: "Większość czarów może być rzucona tylko ograniczoną ilością razy ... zaznaczone to jest
    ilością kratek (□) po nazwie czaru, jedna na każde użycie czaru." One box: the second cast is refused."""
    start(home, textwrap.dedent("""\
        format: tabletop-position/1
        rules: ddm2005
        map: {cols: 10, rows: 6}
        figures:
          - {id: mage, side: a, at: B2, stats: {hp: 30, defense: 14, attack: 2, damage: 5, speed: 6, level: 5,
                                              abilities: ['Magic Missile □ (sight; 10 force damage)', 'Burning Hands □□ (cone; 5 fire damage)']}}
          - {id: orc, side: b, at: F2, stats: {hp: 60, defense: 14, attack: 6, damage: 10, speed: 6, level: 3}}
        """))
    ok("game", "initiative", "--roll", "a=15", "--roll", "b=3")
    ok("game", "activate", "mage")
    ok("game", "power", "mage", "orc", "Magic Missile")
    ok("game", "end-turn")
    ok("game", "activate", "orc")
    ok("game", "end-turn")
    ok("game", "initiative", "--roll", "a=15", "--roll", "b=3")
    ok("game", "activate", "mage")
    err = refused("game", "power", "mage", "orc", "Magic Missile")
    assert "Magic Missile" in err and "1 use" in err and "Ilość użyć" in err
    ok("game", "power", "mage", "orc", "Burning Hands")  # another spell, with two boxes: its first use
    ok("game", "undo")  # the undone cast of Burning Hands is not counted ...
    first = next(e["seq"] for e in json.loads(ok("game", "log", "--json"))["events"] if e.get("kind") == "power")
    ok("game", "undo", str(first))  # ... and undoing the first Magic Missile gives its use back
    ok("game", "power", "mage", "orc", "Magic Missile")


BAT_CARDS = textwrap.dedent("""\
    format: tabletop-cards/1
    game: ddm
    set: House
    cards:
      - name: House Bat
        source: written for this test
        cost: 10
        factions: [LG]
        level: 2
        speed: 6
        flight: true
        ac: 14
        hp: 10
        melee: [{bonus: 2, damage: 5}]
        ranged: []
        type: Animal
        size: medium
        commander_rating: none
    """)


def test_a_cards_flight_flag_is_flight_and_a_flier_does_not_end_on_a_pit(home) -> None:
    """Glossary Flight: "Przed wartością Szybkości na karcie statystyk tej istoty znajduje się litera „F”" (the card's
    flag is the ability) "... Może przelecieć nad dziurami, ale nie może zakończyć na nich swojego ruchu"; § Doły p.25:
    "tylko istoty z Lotem /Flight/ mogą wejść na pole dołu. Każda istota, która zakończy ruch na polu dołu, jest
    eliminowana"."""
    (home / "cards.yaml").write_text(BAT_CARDS, encoding="utf-8")
    (home / "p.yaml").write_text(textwrap.dedent("""\
        format: tabletop-position/1
        rules: ddm2005
        map: {cols: 10, rows: 6, squares: {pit: ["C1:C6"]}}
        figures:
          - {id: bat, card: House Bat, side: a, at: B2}
          - {id: hawk, side: a, at: B4, stats: {hp: 10, defense: 14, attack: 2, damage: 5, speed: 6, level: 1, abilities: [Flight]}}
          - {id: orc, side: b, at: I6, stats: {hp: 30, defense: 14, attack: 6, damage: 10, speed: 6, level: 3}}
        """), encoding="utf-8")
    ok("--cards", str(home / "cards.yaml"), "game", "new", "-p", str(home / "p.yaml"), "--game", str(home / "g.sqlite"), "--override", "test squads")
    ok("game", "initiative", "--roll", "a=15", "--roll", "b=3")
    ok("game", "activate", "bat")
    err = refused("game", "move", "bat", "C2")
    assert "pit" in err and "Flight" in err
    ev = json.loads(ok("game", "move", "bat", "D2", "--json"))["event"]  # over the pit: the card's flag is Flight
    assert ev["cost"] == 2
    ok("game", "activate", "hawk")
    err = refused("game", "move", "hawk", "C4")
    assert "pit" in err and "must end on a legal square" in err


ROUT_BOARD = textwrap.dedent("""\
    format: tabletop-position/1
    rules: ddm2005
    map:
      cols: 14
      rows: 8
      areas: {exit_b: ["N1:N8"]}
    figures:
      - {id: knight, side: a, at: E4, stats: {hp: 40, defense: 18, attack: 8, damage: 10, speed: 6, level: 4, commander_rating: 2}}
      - {id: guard, side: a, at: E5, stats: {hp: 40, defense: 16, attack: 6, damage: 10, speed: 6, level: 3}}
      - {id: orc, side: b, at: F4, stats: {hp: 30, defense: 14, attack: 6, damage: 10, speed: 6, level: 3}}
      - {id: boss, side: b, at: M8, stats: {hp: 30, defense: 14, attack: 6, damage: 10, speed: 6, level: 3, commander_rating: 1}}
    """)


def test_a_routing_creature_flees_at_once_provokes_and_rallies(home) -> None:
    """§ Ucieczka p.21: a creature that fails its morale save "Natychmiast rusza się z podwojoną szybkością ... w kierunku
    wyjścia" (out of turn, double Speed); § Uciekanie i ataki okazyjne: fleeing "często poruszają się przez obszary
    zagrożenia wrogów prowokując ataki okazji", but "Wróg, który zmusił istotę do ucieczki ... nie może wykonać w tej
    samej rundzie ataku okazji przeciwko tejże istocie"; § Zawracanie: "Jeśli się on uda, istota już nie ucieka, ale nie
    może robić nic więcej w tej turze"."""
    start(home, ROUT_BOARD)
    ok("game", "initiative", "--roll", "a=15", "--roll", "b=3")
    ok("game", "activate", "knight")
    ok("game", "attack", "knight", "orc", "--roll", "19")  # 10 damage
    ok("game", "damage", "orc", "6", "--by", "knight")  # 16 of 30 taken: below half, a morale save is due
    ok("game", "morale", "orc", "--roll", "2")  # 2 + 3 (+1 boss) < 20: it routs
    # leaving their threatened area as it flees: attacks of opportunity, recorded before the move that provokes them
    err = refused("game", "aoo", "knight", "orc", "--roll", "15")  # the knight made it flee this round
    assert "made orc flee" in err and "Ucieczka" in err
    ok("game", "aoo", "guard", "orc", "--roll", "2")  # out of turn, against the fleeing creature
    err = refused("game", "aoo", "guard", "orc", "--roll", "2")
    assert "already made an attack of opportunity" in err
    out = json.loads(ok("game", "move", "orc", "L4", "--json"))  # at once, out of turn, up to double Speed (12)
    ev = out["event"]
    # the knight, whose reach it leaves too, made it flee: the move names the guard only and says why not the knight
    # (it named the knight among those who may make an attack of opportunity, which `game aoo` refuses: reading R165)
    assert ev["cost"] == 6 and "guard" in ev.get("provokes", []) and "knight" not in ev.get("provokes", [])
    assert any("knight made orc flee this round" in n for n in out["notes"]), out["notes"]
    ev = json.loads(ok("game", "move", "orc", "L8", "--json"))["event"]  # the rest of its 12 squares
    assert ev["cost"] == 4
    ok("game", "end-turn")
    err = refused("game", "move", "orc", "K8")
    assert "activate it first" in err  # the immediate move is over once the knight's turn has ended
    ok("game", "activate", "guard")
    ok("game", "end-turn")
    ok("game", "activate", "orc")
    assert "routing" in next(f for f in status()["figures"] if f["id"] == "orc")["conditions"]
    out = ok("game", "morale", "orc", "--roll", "19")  # the rally: 19 + 3 + 1 >= 20
    assert "rallies" in out
    assert "routing" not in next(f for f in status()["figures"] if f["id"] == "orc")["conditions"]
    err = refused("game", "move", "orc", "K4")
    assert "rallied" in err
    # R297: said with its noun, not "orc zawrócił" (masculine on a name, beside the catalog's feminine "postać")
    assert "Postać orc zawróciła w tej turze" in refused("--lang", "pl", "game", "move", "orc", "K4")
    assert "Postava orc se v tomto tahu vzpamatovala" in refused("--lang", "cs", "game", "move", "orc", "K4")


FIREBALL = "Fireball □ (sight; radius 2; 20 fire damage; DC 15)"


def _area(target_at: str, spell: str = FIREBALL) -> Position:
    return parse_position(textwrap.dedent(f"""\
        format: tabletop-position/1
        rules: ddm2005
        map: {{cols: 14, rows: 8}}
        figures:
          - {{id: mage, side: a, at: B2, stats: {{hp: 30, defense: 14, attack: 2, damage: 5, speed: 6, level: 5,
                                              abilities: ['{spell}']}}}}
          - {{id: orc, side: b, at: E2, stats: {{hp: 30, defense: 14, attack: 6, damage: 10, speed: 6, level: 3}}}}
          - {{id: other, side: b, at: {target_at}, stats: {{hp: 30, defense: 14, attack: 6, damage: 10, speed: 6, level: 3}}}}
        """))


def test_an_area_spell_reaches_only_what_its_template_around_the_nearest_can_hold() -> None:
    """§ Czary p.22 Wybieranie celu: "Czary dystansowe ... działają tylko na najbliższego sprzymierzeńca lub najbliższego
    wroga"; glossary radius 2: "wpływa na wszystkie istoty w promieniu 2 pól ... Umieść wybraną istotę wewnątrz szerokiego
    na 4 pola otworu w środku wzornika". The orc (3 squares away) is the nearest: an enemy five squares past it cannot
    stand in a radius-2 template whose 4-square middle holds the orc; one 3 squares past it can (the middle reaches
    F, 2 more reach H), one 4 past cannot."""
    far = use_power(_area("J2"), "mage", "other", "Fireball")  # 5 squares past the orc
    assert far.legal is False and any("radius 2" in r.text and "orc" in r.text for r in far.illegal_reasons)
    assert far.as_json()["legal"] is False
    assert use_power(_area("J2"), "mage", "orc", "Fireball").legal is True
    assert use_power(_area("F3"), "mage", "other", "Fireball").legal is True  # next to the orc
    assert use_power(_area("H2"), "mage", "other", "Fireball").legal is True  # middle E2:F3, then G2, H2
    assert use_power(_area("I2"), "mage", "other", "Fireball").legal is False
    assert use_power(_area("H4"), "mage", "other", "Fireball").legal is True  # middle E2:F3; G4 diagonal 1, H4 2
    assert use_power(_area("H5"), "mage", "other", "Fireball").legal is False  # from F3: 2 across, 2 down = 3


def test_a_cone_beside_the_nearest_is_for_the_table() -> None:
    """Glossary cone: "działa na wszystkie istoty w odległości do 6 pól od aktywnej istoty w promieniu 90 stopni": the
    cone aimed at the nearest may or may not hold another creature within 6 squares -- the answer says legality is
    unknown, never legal; one farther than 6 squares is refused."""
    breath = "Breath Weapon (cone; 20 fire damage; DC 15)"
    beside = use_power(_area("F4", breath), "mage", "other", "Breath Weapon")
    assert beside.legal is None and beside.as_json()["legal"] is None and beside.undecided
    assert use_power(_area("L2", breath), "mage", "other", "Breath Weapon").legal is False  # 10 squares away
    assert use_power(_area("F4", breath), "mage", "orc", "Breath Weapon").legal is True


def test_no_attack_of_opportunity_on_an_invisible_creature_from_an_enemy_that_cannot_see_it(home) -> None:
    """Glossary Invisible: "Wróg, który nie widzi Niewidzialnej istoty, nie może wykonywać ataków okazyjnych przeciwko
    niej" -- in the query, and in the game: leaving such an enemy's side provokes nothing."""
    ans = attack(_duel(t_extra=", abilities: [Invisible]"), "a", "t", opportunity=True)
    assert not ans.legal and any("Invisible" in r.text for r in ans.illegal_reasons)
    assert attack(_duel(a_extra=", abilities: [Blindsight]", t_extra=", abilities: [Invisible]"), "a", "t", opportunity=True).legal
    start(home, textwrap.dedent("""\
        format: tabletop-position/1
        rules: ddm2005
        map: {cols: 10, rows: 6}
        figures:
          - {id: ghost, side: a, at: B2, stats: {hp: 20, defense: 15, attack: 4, damage: 5, speed: 6, level: 2, abilities: [Invisible]}}
          - {id: orc, side: b, at: C2, stats: {hp: 30, defense: 14, attack: 6, damage: 10, speed: 6, level: 3}}
          - {id: bat, side: b, at: C3, stats: {hp: 30, defense: 14, attack: 6, damage: 10, speed: 6, level: 3, abilities: [Blindsight]}}
        """))
    ok("game", "initiative", "--roll", "a=15", "--roll", "b=3")
    ok("game", "activate", "ghost")
    assert "Invisible" in refused("game", "aoo", "orc", "ghost", "--roll", "15")
    ok("game", "aoo", "bat", "ghost", "--roll", "2")
    ev = json.loads(ok("game", "move", "ghost", "A5", "--json"))["event"]
    assert ev.get("provokes") == ["bat"]
