"""What a player reads in Polish and Czech (round 23): a card's fields and its data words in the
reader's language (reading R233), and decimals written with the reader's decimal sign (R234)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from assistant.cli.app import app
from assistant.live.table import Table
from assistant.live.web import create_app
from assistant.position import load_position
from assistant.resources import example_path

from .webclient import table_client

runner = CliRunner()


def _show(lang: str, *args: str) -> str:
    r = runner.invoke(app, ["--lang", lang, *args], env={"COLUMNS": "300"})
    assert r.exit_code == 0, r.output
    return r.output


@pytest.mark.parametrize(("lang", "said", "english"), [
    ("pl", ["koszt: 51", "frakcje: Separatyści", "unikalna: tak", "rozmiar: średni", "punkty obrażeń: 130", "obrona: 21",
            "zdolności specjalne: Double Attack", "Moce: Force Lightning 2 (koszt 2", "efekt dowódcy: brak",
            "uwaga (efekt dowódcy):"], ["cost:", "factions:", "hp:", "True", "special_abilities", "force_powers", "Separatists"]),
    ("cs", ["cena: 51", "frakce: Separatisté", "unikátní: ano", "velikost: střední", "životy: 130", "obrana: 21", "body Síly: 5",
            "speciální schopnosti: Double Attack", "velitelský efekt: na kartě není"], ["cost:", "factions:", "hp:", "True", "nikdo", "Separatists", "žádný"]),
    ("en", ["cost: 51", "factions: Separatists", "unique: yes", "size: medium", "hit points: 130", "Force points: 5",
            "special abilities: Double Attack", "Force powers: Force Lightning 2 (cost 2", "commander effect: none on the card"],
     ["hp:", "True", "special_abilities"]),
])
def test_a_cards_fields_and_words_are_said_in_the_readers_language(lang: str, said: list[str], english: list[str]) -> None:
    """Round 22 left (R233): `cards show dooku` said "cost: 51", "hp: 130", "unique: True",
    "special_abilities: ..." in Polish and Czech, the field names as the card file's keys. The
    fields are the rulebooks' words now, a yes-or-no a word, the factions as the rulebooks name
    them (swm2008 PL p.14); ability and Force power names stay as the cards print them."""
    out = _show(lang, "cards", "show", "dooku")
    for text in said:
        assert text in out, (text, out)
    for text in english:
        assert text not in out, (text, out)
    data = json.loads(_show(lang, "cards", "show", "dooku", "--json"))["card"]  # the JSON keeps its keys and values
    assert data["hp"] == 130 and data["unique"] is True and data["factions"] == ["Separatists"]


def test_a_value_no_source_gives_is_said_as_not_given_in_the_readers_language() -> None:
    """The DDM Wood Elf Ranger's card lacks most numbers: "unknown" was printed in English on a
    Polish and a Czech screen (the catalog's "unknown" is a feminine adjective: "koszt: nieznana")."""
    pl = _show("pl", "cards", "show", "Wood Elf Ranger")
    assert "koszt: brak danych" in pl and "KP: brak danych" in pl and "atak wręcz: premia brak danych; obrażenia 10" in pl, pl
    cs = _show("cs", "cards", "show", "Wood Elf Ranger")
    assert "cena: neuvedeno" in cs and "útok na blízko: bonus neuvedeno; zranění 10" in cs, cs
    assert "unknown" not in pl.split("\n", 2)[2].split("uwaga")[0] and ": unknown" not in cs


def test_the_phone_reads_a_card_in_its_language() -> None:
    """The phone's Card answer is the same lines (text_lines), in the page's language."""
    c = table_client(create_app(Table(position=load_position(example_path("clone-wars-example-combat")))))
    r = c.post("/api/do/cards/show?lines=true", json={"name": "dooku"}, headers={"accept-language": "cs"})
    assert r.status_code == 200, r.text
    lines = r.json()["text_lines"]
    assert "  životy: 130" in lines and "  frakce: Separatisté" in lines, lines


@pytest.mark.parametrize(("lang", "expected"), [("en", "6.5"), ("pl", "6,5"), ("cs", "6,5")])
def test_a_decimal_is_written_with_the_readers_decimal_sign(lang: str, expected: str) -> None:
    """Round 22 left (R234): the Security Battle Droid's expected damage on Obi-Wan (15+ on the
    d20: 25 % a hit of 20, 5 % a critical of 30, 6.5 in all) was printed "6.5" in Polish and Czech, which write 6,5. The answer's line
    and the targets table say it with the reader's sign; the JSON keeps the number."""
    out = _show(lang, "attack", "sbd", "obi", "--position", "clone-wars-example-combat")
    assert f" {expected} " in out, out
    other = "6,5" if expected == "6.5" else "6.5"
    assert other not in out, out
    table = _show(lang, "targets", "sbd", "--position", "clone-wars-example-combat")
    assert f" {expected} " in table and other not in table, table
    data = json.loads(_show(lang, "attack", "sbd", "obi", "--position", "clone-wars-example-combat", "--json"))
    assert data["expected_damage"] == 6.5


def test_a_photos_numbers_are_written_with_the_readers_decimal_sign(tmp_path: Path) -> None:
    """`photo detect` said "błąd reprojekcji 0.11 px", "pewność 0.98" in Polish (R234)."""
    import cv2

    from assistant.photo.synth import render_photo

    img, _truth = render_photo(load_position(example_path("clone-wars-example-combat")), seed=3, width=1600, height=1200)
    photo = tmp_path / "table.jpg"
    assert cv2.imwrite(str(photo), img)
    for lang, said in (("pl", "pewność 0,"), ("cs", "jistota 0,"), ("en", "confidence 0.")):
        out = _show(lang, "photo", "detect", str(photo), "--position", "clone-wars-example-combat")
        assert said in out and re.search(r"\d\.\d" if lang != "en" else r"\d,\d", out.split("\n")[0]) is None, out
