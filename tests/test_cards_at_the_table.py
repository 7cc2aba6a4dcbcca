"""The cards at the table (trial22): a name shared with a card's versions is listed (R222), an
imported card's notes in the reader's language (R223), and a card looked up from the phone (R224)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from assistant.cards import CardLibrary, SwmCard
from assistant.cli.app import app
from assistant.errors import AmbiguousNameError
from assistant.live.table import Table
from assistant.live.web import create_app
from assistant.resources import HOME_ENV, example_path

from .test_swm_import import make_db
from .webclient import table_client

runner = CliRunner()


def _card(name: str, set_name: str) -> SwmCard:
    return SwmCard(name, "tests", 9, None, False, None, 70, 16, 11, 20, 6, 0, set=set_name)


def test_a_name_its_versions_share_is_listed_with_them_never_one_card_silently() -> None:
    """SW_Minis_Drafter writes "Padme Amidala" (Clone Strike) and "Padmé Amidala (Senator)" (The
    Clone Wars): `cards show "Padmé Amidala"` gave the Clone Strike card alone (R222, as R217 at
    `import --entry`)."""
    lib = CardLibrary([_card("Padme Amidala", "Clone Strike"), _card("Padmé Amidala (Senator)", "The Clone Wars"),
                       _card("Imperial Knight (#20)", "Legacy"), _card("Imperial Knight", "Legacy")])
    with pytest.raises(AmbiguousNameError) as err:
        lib.find("Padmé Amidala")
    assert err.value.matches == ("Padme Amidala (Clone Strike)", "Padmé Amidala (Senator) (The Clone Wars)")
    assert lib.find("Padmé Amidala", set="Clone Strike").name == "Padme Amidala"  # the set chooses
    assert lib.find("padme amidala, senator").name == "Padmé Amidala (Senator)"
    assert lib.find("Imperial Knight").name == "Imperial Knight"  # a collector number is no version
    assert lib.resolve("swm", "Padmé Amidala").name == "Padme Amidala"  # a position file's figure: unchanged (R198)



def test_a_choice_typed_back_as_the_list_wrote_it_is_found() -> None:
    """A list to choose from writes each card as "name (set)" (R217): `cards show "Darth Maul"`
    on SW_Minis_Drafter's database listed 'Darth Maul (Clone Strike)', and typing that back said
    "unknown card". A name followed by a set that prints it is that card; a set that does not
    print it stays unknown."""
    lib = CardLibrary([_card("Darth Maul", "Clone Strike"), _card("Darth Maul (Sith Apprentice)", "Jedi Academy"),
                       _card("Darth Maul (Champion of the Sith)", "Champions of the Force")])
    with pytest.raises(AmbiguousNameError) as err:
        lib.find("Darth Maul")
    for choice in err.value.matches:
        found = lib.find(choice)
        assert f"{found.name} ({found.set})" == choice
    assert lib.find("darth maul (clone strike)").set == "Clone Strike"
    with pytest.raises(LookupError):
        lib.find("Darth Maul (Jedi Academy)")  # Jedi Academy prints "Darth Maul (Sith Apprentice)", not "Darth Maul"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    h = tmp_path / "home"
    monkeypatch.setenv(HOME_ENV, str(h))
    return h


def test_an_imported_cards_notes_are_said_in_the_readers_language(tmp_path: Path, home: Path) -> None:
    """Imported in Polish, shown in Czech (and imported in English, shown in Polish): the notes
    were stored in the import's language and printed so (R223)."""
    db = make_db(tmp_path / "SWminis.db")
    assert runner.invoke(app, ["--lang", "pl", "cards", "import", str(db)]).exit_code == 0
    cs = runner.invoke(app, ["--lang", "cs", "cards", "show", "Test General"], env={"COLUMNS": "300"})
    assert cs.exit_code == 0, cs.output
    assert "karta má efekt velitele; SW_Minis_Drafter DB/SWminis.db neuvádí jeho text" in cs.output
    assert "karta ma efekt dowódcy" not in cs.output
    en = runner.invoke(app, ["cards", "show", "Test General"], env={"COLUMNS": "300"})
    assert "the card has a commander effect; SW_Minis_Drafter DB/SWminis.db does not give its text" in en.output
    pl = runner.invoke(app, ["--lang", "pl", "cards", "show", "Test General"], env={"COLUMNS": "300"})
    assert "karta ma efekt dowódcy; SW_Minis_Drafter DB/SWminis.db nie podaje jego treści" in pl.output
    assert "Speed 8" in pl.output and "the card's" not in pl.output  # the Speed note's value kept, its words said in Polish


def test_a_card_is_looked_up_over_the_web_in_the_readers_language_and_hostile_input_is_a_4xx_json() -> None:
    """`cards show` is one registered verb (R224): the phone asks it at POST /api/do/cards/show, at
    a game's table and at a bare position's alike; it was on the command line and in the shell only."""
    client = table_client(create_app(_bare_table()))
    listed = client.get("/api/verbs", headers={"accept-language": "pl"}).json()
    assert "cards show" in listed["verbs"] and listed["detail"]["cards show"]["label"] == "znajdź kartę"
    assert [p["name"] for p in listed["detail"]["cards show"]["params"]] == ["name", "in_set"]  # the game is the table's
    r = client.post("/api/do/cards/show?lines=true", json={"name": "dooku"}, headers={"accept-language": "pl"})
    assert r.status_code == 200, r.text
    assert r.json()["card"]["name"] == "Count Dooku of Serenno" and r.json()["text_lines"][0].startswith("Count Dooku of Serenno")
    assert any(line.startswith("źródło:") for line in r.json()["text_lines"])
    for body, status in (({"name": "no such card"}, 400), ({"name": "x" * 5000}, 400), ({"name": ["dooku"]}, 400), ({}, 400),
                         ({"name": "dooku", "path": "/etc/passwd"}, 400), ({"name": "dooku", "game": "swm"}, 400)):
        r = client.post("/api/do/cards/show", json=body, headers={"accept-language": "cs"})
        assert r.status_code == status and "Traceback" not in r.text and r.json()["error"], (body, r.text)
    r = client.post("/api/do/cards/show", content=b"{not json", headers={"content-type": "application/json"})
    assert 400 <= r.status_code < 500 and "error" in r.json()


def _bare_table() -> Table:
    """The web app serving a bare position file (no game): a card is asked there too."""
    from assistant.cards import default_library
    from assistant.position.load import parse_position

    lib = default_library()
    pos = parse_position(example_path("clone-wars-example-combat").read_text(encoding="utf-8"), library=lib)
    return Table(position=pos, library=lib)


def test_the_card_verb_reads_the_same_on_every_edge() -> None:
    cli = runner.invoke(app, ["cards", "show", "dooku", "--json"])
    web = table_client(create_app(_bare_table())).post("/api/do/cards/show", json={"name": "dooku"})
    assert cli.exit_code == 0 and json.loads(cli.stdout) == web.json()
