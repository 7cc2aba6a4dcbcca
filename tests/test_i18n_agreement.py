"""Polish and Czech said right (round 28, readings R297-R298): a participle or adjective never agrees
with a name whose gender the sentence cannot know -- the noun (postać/postava, karta, ulepšení,
gracz/hráč) is said before the name, as round 27 did for an exhausted card -- and a count of
indirect damage takes the form Polish and Czech give 1, 2-4 and 5+ (obrażenie / obrażenia /
obrażeń; zranění / zranění / zranění with nepřímé / nepřímá / nepřímých)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from assistant.cardgame import IllegalCommandError
from assistant.cli.app import app
from assistant.destiny.engine import apply
from assistant.destiny.render import describe
from assistant.destiny.table import parse_table
from assistant.i18n import language

runner = CliRunner()

TABLE = """format: destiny-table/1
players: {A: {resources: 3}, B: {}}
battlefield: {owner: A, controller: A}
characters:
  - {id: han, owner: A, health: 10, dice: {h1: [indirect:1, indirect:2, indirect:5, blank, blank, melee:1]}}
  - {id: vader, owner: B, health: 13}
  - {id: tarkin, owner: B, health: 10}
"""

INDIRECT = {
    ("pl", 1): ("h1: 1 obrażenie pośrednie dla B", "B musi najpierw przydzielić 1 obrażenie pośrednie swoim postaciom",
                "oczekuje: B przydziela 1 obrażenie pośrednie swoim postaciom"),
    ("pl", 2): ("h1: 2 obrażenia pośrednie dla B", "B musi najpierw przydzielić 2 obrażenia pośrednie swoim postaciom",
                "oczekuje: B przydziela 2 obrażenia pośrednie swoim postaciom"),
    ("pl", 5): ("h1: 5 obrażeń pośrednich dla B", "B musi najpierw przydzielić 5 obrażeń pośrednich swoim postaciom",
                "oczekuje: B przydziela 5 obrażeń pośrednich swoim postaciom"),
    ("cs", 1): ("h1: 1 nepřímé zranění hráči B", "B musí nejprve rozdělit 1 nepřímé zranění mezi své postavy",
                "čeká: B rozděluje 1 nepřímé zranění mezi své postavy"),
    ("cs", 2): ("h1: 2 nepřímá zranění hráči B", "B musí nejprve rozdělit 2 nepřímá zranění mezi své postavy",
                "čeká: B rozděluje 2 nepřímá zranění mezi své postavy"),
    ("cs", 5): ("h1: 5 nepřímých zranění hráči B", "B musí nejprve rozdělit 5 nepřímých zranění mezi své postavy",
                "čeká: B rozděluje 5 nepřímých zranění mezi své postavy"),
}


@pytest.mark.parametrize("lang", ["pl", "cs"])
def test_a_count_of_indirect_damage_takes_the_form_its_number_needs(lang: str) -> None:
    """Before: "1 obrażeń pośrednich", "2 obrażeń pośrednich" (pl); "nepřímé zranění 2" (cs). 5 is
    the third form, which Polish already said right."""
    for n in (1, 2, 5):
        dealt, first, pending = INDIRECT[(lang, n)]
        t = parse_table(TABLE + f"pool: {{h1: indirect:{n}}}\n", "t")
        with language(lang):
            out = apply(t, "A resolve h1")
            assert dealt in out.said, out.said
            assert pending in describe(out.table)
            with pytest.raises(IllegalCommandError) as refused:
                apply(out.table, "B pass")
            assert str(refused.value).startswith(first), str(refused.value)


@pytest.mark.parametrize(("lang", "said"), [("pl", "B ma jedną postać, vader: wszystkie 2 obrażenia pośrednie trafiają do niej"),
                                            ("cs", "B má jednu postavu, vader: všechna 2 nepřímá zranění jdou na ni")])
def test_all_the_indirect_damage_to_a_lone_character_is_counted_right(lang: str, said: str) -> None:
    t = parse_table(TABLE.replace("  - {id: tarkin, owner: B, health: 10}\n", "") + "pool: {h1: indirect:2}\n", "t")
    with language(lang):
        out = apply(t, "A resolve h1")
    assert any(s.startswith(said) for s in out.said), out.said


@pytest.mark.parametrize(("lang", "defeated", "again"), [
    ("pl", "Postać tarkin zostaje pokonana: usunięta z gry wraz z kośćmi (brak); jej ulepszenia (brak) są odrzucane",
     "Postać tarkin jest już pokonana"),
    ("cs", "Postava tarkin je poražena: odstraněna ze hry se svými kostkami (žádné); její vylepšení (žádné) se odhazují",
     "Postava tarkin je už poražena"),
])
def test_a_defeated_character_is_said_with_its_noun(lang: str, defeated: str, again: str) -> None:
    """Before (pl): "tarkin zostaje pokonana: usunięta z gry wraz z kośćmi (none)", "tarkin jest już
    pokonana" -- feminine, agreeing with a "postać" the sentence did not say, and "none" in English."""
    t = parse_table(TABLE, "t")
    with language(lang):
        out = apply(t, "A defeat -> tarkin")
        assert out.said[0].startswith(defeated), out.said
        with pytest.raises(IllegalCommandError) as refused:
            apply(out.table, "A defeat -> tarkin")
    assert str(refused.value).startswith(again), str(refused.value)


@pytest.mark.parametrize(("lang", "placed", "refused"), [
    ("pl", "Postać rex postawiona na A1", "Postaci x nie można postawić: "),
    ("cs", "Postava rex umístěna na A1", "x nelze postavit: "),
])
def test_a_placed_figure_is_said_with_its_noun(tmp_path: Path, lang: str, placed: str, refused: str) -> None:
    """Before (pl): "rex postawiona na A1", "x nie może zostać postawiona" -- a feminine participle on
    a name (Rex is a man); (cs) "rex umístěna"."""
    g = str(tmp_path / "g.sqlite")
    assert runner.invoke(app, ["game", "new", "-p", "clone-wars-corridor", "--game", g]).exit_code == 0
    r = runner.invoke(app, ["--lang", lang, "game", "place", "{id: rex, side: light, at: A1, stats: {hp: 10, defense: 14}}",
                            "--game", g, "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["text"] == placed
    r = runner.invoke(app, ["--lang", lang, "game", "place", "{id: x, side: light, at: E7}", "--game", g, "--json"])
    assert r.exit_code == 2 and json.loads(r.output)["error"].startswith(refused), r.output


@pytest.mark.parametrize(("lang", "said"), [("pl", "działa na żywą postać; postać r2 nie jest żywa"),
                                            ("cs", "působí na živou postavu; postava r2 není živá")])
def test_a_nonliving_figure_refused_a_heal_is_said_with_its_noun(home: Path, lang: str, said: str) -> None:
    """Before: "r2 nie jest żywa", "r2 není živá" -- feminine on a droid's name (R2-D2)."""
    from .test_game_turns import refused
    from .test_mending import medic_turn

    medic_turn(home, "swm2008", "Heal 10")
    assert said in refused("--lang", lang, "game", "heal", "r2", "10", "--by", "medic")


@pytest.mark.parametrize(("lang", "one", "two"), [
    ("pl", "zaimportowano 1 zdarzenie z g1.json", "zaimportowano 2 zdarzenia z g2.json"),
    ("cs", "importováno 1 událost z g1.json", "importováno 2 události z g2.json"),
    ("en", "imported 1 event of g1.json", "imported 2 events of g2.json"),
])
def test_an_imported_log_counts_its_events_with_their_numbers_form(home: Path, lang: str, one: str, two: str) -> None:
    """Before: "zaimportowano 1 zdarzeń", "2 zdarzeń"; "importováno 1 událostí"; "imported 1 events"."""
    from .test_game_turns import ok

    ok("game", "new", "-p", "clone-wars-corridor", "--game", "g.sqlite")
    ok("game", "export", "--format", "json", "-o", "g1.json", "--game", "g.sqlite")
    ok("game", "note", "table 4", "--game", "g.sqlite")
    ok("game", "export", "--format", "json", "-o", "g2.json", "--game", "g.sqlite")
    assert " ".join(ok("--lang", lang, "game", "import", "g1.json", "--game", "c1.sqlite").split()).startswith(one)
    assert " ".join(ok("--lang", lang, "game", "import", "g2.json", "--game", "c2.sqlite").split()).startswith(two)


def test_an_sw_tcg_side_is_said_with_its_noun() -> None:
    """Before (pl): "DS nie zdobył Bounty" -- masculine on a side, where the catalog says "druga
    strona" (feminine) a line before; Czech already agreed with an implied "strana"."""
    import yaml

    from assistant.swtcg.engine import apply as apply_swtcg
    from assistant.swtcg.table import parse_table as parse_swtcg

    t = parse_swtcg(yaml.safe_dump({"format": "swtcg-table/1", "step": "build-start", "players": {"DS": {}, "LS": {}}, "units": []}), "x")
    for lang, said in (("pl", "Strona DS nie zdobyła Bounty w poprzedniej turze"), ("cs", "DS minulý tah nezískala žádné Bounty")):
        with language(lang), pytest.raises(IllegalCommandError) as refused:
            apply_swtcg(t, "DS collect-bounty")
        assert str(refused.value).startswith(said), str(refused.value)


@pytest.mark.parametrize(("lang", "moved", "double", "activated"), [
    ("pl", "postać hero ruszyła się przed atakiem", "postać boss przeszła 9 pól, więcej niż szybkość 6",
     "postać hero już się aktywowała w tej rundzie"),
    ("cs", "postava hero se pohnula před útokem", "postava boss se pohnula o 9 polí, víc než je její rychlost 6",
     "postava hero se v tomto kole už aktivovala"),
])
def test_a_figures_turn_refused_is_said_with_its_noun(home: Path, lang: str, moved: str, double: str, activated: str) -> None:
    """Round 29 (reading R309): the turn's refusals said a bare name with a feminine past tense --
    "hero ruszyła się przed atakiem", "boss przeszła", "hero se pohnula" -- for any figure (Rex,
    a droid, a boss); the noun is said now, so the verb agrees with it."""
    from .test_game_turns import SWM, ok, refused, start

    start(home, SWM.format(rules="swm2008"))
    ok("game", "initiative", "--roll", "light=9,17", "--roll", "dark=9,4")
    ok("game", "activate", "hero")
    ok("game", "move", "hero", "C2")
    ok("game", "attack", "hero", "droid", "--roll", "2")
    assert moved in refused("--lang", lang, "game", "move", "hero", "C3")
    ok("game", "activate", "scout")
    assert activated in refused("--lang", lang, "game", "activate", "hero")
    ok("game", "end-turn")
    ok("game", "activate", "boss")
    ok("game", "move", "boss", "J2")
    ok("game", "move", "boss", "F2")
    assert double in refused("--lang", lang, "game", "attack", "boss", "hero", "--roll", "18")


@pytest.mark.parametrize(("lang", "said"), [("pl", "3 podstawki więcej, niż ma lista figur, to nadruk mapy"),
                                            ("cs", "3 podstavce navíc oproti sestavě jsou potisk mapy")])
def test_a_photos_count_of_bases_takes_its_numbers_form(lang: str, said: str) -> None:
    """Round 29 (reading R310): "3 podstawek więcej" (pl), "3 podstavců navíc" (cs) -- the third
    form for a count of 2-4. Three bases far from a roster all found are read as printed art."""
    from assistant.coords import Square
    from assistant.photo.figures import Seen
    from assistant.photo.placement import place

    from .test_photo_placement_rim import COLS, ROWS, record

    scores = {Square(c, r).name: 0.02 for c in range(COLS) for r in range(ROWS)} | {"B2": 0.99, "G5": 0.99, "A6": 0.97, "H1": 0.96, "C6": 0.95}
    with language(lang):
        placed = place(record(), scores, [Seen("a", "B2", 1.0, "marker"), Seen("b", "G5", 1.0, "marker")], set())
    assert any(said in n for n in placed.notes), placed.notes


@pytest.mark.parametrize(("lang", "said"), [("pl", "istota mole kopie w tej turze: cały jej ruch odbywa się pod ziemią"),
                                            ("cs", "bytost mole v tomto tahu hrabe: celý její pohyb je pod zemí")])
def test_a_ddm_creatures_refusal_is_said_with_its_noun(home: Path, lang: str, said: str) -> None:
    """Round 29 (reading R309): a message only DDM gives says its creature "istota"/"bytost"; before,
    "mole kopie w tej turze: cały jej ruch" -- "jej" on a bare name (a mole, a dragon, an orc)."""
    from .test_game_turns import DIG, ok, refused, start

    start(home, DIG)
    ok("game", "initiative", "--roll", "a=15", "--roll", "b=3")
    ok("game", "activate", "mole")
    ok("game", "move", "mole", "F3", "--burrow")
    assert said in refused("--lang", lang, "game", "move", "mole", "F4")
