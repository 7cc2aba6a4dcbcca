"""A Polish or Czech table reads its answers in its language (round 26): the readings a rule
cites (R275), a card's text without the data's markup (R276), and the conditions and sides of
the board and the status (R277). The JSON answers keep their English machine values."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from assistant import cardtext, i18n
from assistant.cards import default_library
from assistant.cli.app import app
from assistant.game import Game
from assistant.live.table import Table
from assistant.live.web import create_app
from assistant.resources import example_path

from .webclient import table_client

runner = CliRunner()


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TABLETOP_HOME", str(tmp_path / "home"))
    yield tmp_path
    i18n.set_language("en")


@pytest.mark.parametrize(("lang", "said"), [("pl", "(efekt dowódcy); liczy się tylko najwyższy: odczyt R3 w docs/readings.md"),
                                            ("cs", "(velitelský efekt); počítá se jen nejvyšší: čtení R3 v docs/readings.md")])
def test_a_rule_citing_a_reading_names_it_in_the_readers_language(lang: str, said: str) -> None:
    """The commander effect's citation ends "only the highest counts: reading R3 in
    docs/readings.md": a Polish answer said "reading ... in" in the middle of Polish (R275)."""
    args = ["attack", "sbd", "obi", "-p", "clone-wars-example-combat", "--combined-fire", "sbdc"]
    r = runner.invoke(app, ["--lang", lang, *args])
    assert r.exit_code == 0, r.output
    text = " ".join(r.stdout.split())  # the terminal's wrapping taken off
    assert said in text
    assert not re.search(r"\breadings? R\d", text) and "in docs/readings.md" not in text and "only the highest counts" not in text
    # the JSON answer cites as printed, in every language
    en = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    local = json.loads(runner.invoke(app, ["--lang", lang, *args, "--json"]).stdout)
    rules = [m["rule"] for m in local["modifiers"]]
    assert rules == [m["rule"] for m in en["modifiers"]] and any("reading R3 in docs/readings.md" in x for x in rules)


@pytest.mark.parametrize(("lang", "said"), [("pl", "PL p.58 Zasięg, p.8 (liczone jak przy ruchu, przekątna = 2"),
                                            ("cs", "PL p.58 Vzdálenost, p.8 (počítá se jako při pohybu, úhlopříčka = 2")])
def test_a_geometry_rules_explanation_reads_in_the_readers_language(lang: str, said: str) -> None:
    """"(count as for movement, diagonal = 2, around walls and closed doors)" closed a Polish range
    answer: the geometry's citations are in the catalogs, their page and book as printed (R275)."""
    args = ["range", "obi", "dooku", "-p", "clone-wars-corridor"]
    text = " ".join(runner.invoke(app, ["--lang", lang, *args], env={"COLUMNS": "250"}).stdout.split())
    assert said in text and "count as for movement" not in text and "adjacent: next to it" not in text
    rules = [r["rule"] for r in json.loads(runner.invoke(app, ["--lang", lang, *args, "--json"]).stdout)["reasons"]]
    assert any(r.startswith("swm2008 PL p.58 Range, p.8 (count as for movement") for r in rules)


def test_cited_names_one_reading_or_several_and_leaves_english_and_other_words_alone() -> None:
    rule = "FAQ L35-36; readings R35 and R36; reading R7 in docs/readings.md (a reading of the rulebook)"
    assert i18n.cited(rule) == rule
    with i18n.language("pl"):
        assert i18n.cited(rule) == "FAQ L35-36; odczyty R35, R36; odczyt R7 w docs/readings.md (a reading of the rulebook)"
    with i18n.language("cs"):
        assert i18n.cited("(reading R250 in docs/readings.md)") == "(čtení R250 v docs/readings.md)"


def test_the_phone_page_gets_the_words_its_script_cites_readings_with(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    Game.new(path, example_path("clone-wars-corridor").read_text(encoding="utf-8"), default_library(), override="tests").close()
    page = table_client(create_app(Table(game=path, library=default_library()), language="pl")).get("/").text
    ui = json.loads(__import__("html").unescape(re.search(r'data-ui="([^"]*)"', page).group(1)))
    assert ui["reading {ids} in docs/readings.md"] == "odczyt {ids} w docs/readings.md"
    assert ui["readings {ids}"] == "odczyty {ids}"
    assert ui["swm2008 PL p.10, p.18-19 Cover"] == "swm2008 PL p.10, p.18-19 Osłona"  # the script shows rules as the terminal does
    common = (Path(__file__).resolve().parent.parent / "assistant" / "live" / "static" / "common.js").read_text(encoding="utf-8")
    assert "function cite(" in common and "shownText(cite(text))" in common
    script = (Path(__file__).resolve().parent.parent / "assistant" / "live" / "static" / "app.js").read_text(encoding="utf-8")
    # each cited id a link to the reading whole (R351), the words said by cite as before
    assert "citeHtml(tr(r.rule))" in script and "esc(cite(m[0]))" in common


# --- a card's text -----------------------------------------------------------------------------


def test_a_destiny_cards_markup_is_read_as_words_and_its_symbols_named() -> None:
    text = ("<b>Action</b> - Give a non-<i>vehicle</i> character 1 shield.\n"
            "[special] - Deal 2 [melee] &amp; 1 [indirect] ([AW]).")
    assert cardtext.plain(text) == ("Action - Give a non-vehicle character 1 shield.\n"
                                    "[special] - Deal 2 [melee damage] & 1 [indirect damage] ([AW]).")
    with i18n.language("pl"):
        assert cardtext.plain(text).endswith("[specjalny] - Deal 2 [obrażenia wręcz] & 1 [obrażenia pośrednie] ([AW]).")
    with i18n.language("cs"):
        assert "[zranění na blízko]" in cardtext.plain(text) and "[speciální]" in cardtext.plain(text)
    assert cardtext.rich(text).startswith("[bold]Action[/bold] - Give a non-[italic]vehicle[/italic] character")
    # a list is a line an item; a tag the data never closes is closed, one never opened dropped
    assert cardtext.plain("Choose 1<ul><li>Draw 1.</li><li>Gain 1 [resource].</li></ul>") == "Choose 1\n• Draw 1.\n• Gain 1 [resource]."
    assert cardtext.rich("<i>Droid</i.> and <b>more") == "[italic]Droid[/italic] and [bold]more[/bold]"
    assert cardtext.rich("plain</b> words") == "plain words"


def test_an_sw_tcg_cards_granted_ability_is_quoted() -> None:
    text = "Each player's unit cards get &Deploy: Gain 1 Force.& | Critical Hit 1"
    assert cardtext.plain(text) == "Each player's unit cards get \u201cDeploy: Gain 1 Force.\u201d | Critical Hit 1"


def test_a_cards_text_is_never_markup_to_the_terminal_nor_html_to_the_page() -> None:
    """Card text is data: a card file that writes Rich markup or HTML shows it as words."""
    hostile = '<b>Action</b> [red]x[/red] <script>alert(1)</script> <img src=x onerror=alert(1)>'
    shown = cardtext.rich(hostile)
    from rich.text import Text

    assert Text.from_markup(shown).plain == "Action [red]x[/red] alert(1)"
    assert [s.style for s in Text.from_markup(shown).spans] == ["bold"]
    assert "<" not in cardtext.plain(hostile) and cardtext.plain(hostile) == "Action [red]x[/red] alert(1)"


def _set_file(tmp_path: Path) -> Path:
    card = {"code": "90501", "name": "Test Blaster", "type_code": "upgrade", "affiliation_code": "neutral", "faction_code": "gray",
            "is_unique": False, "has_die": True, "has_errata": False, "deck_limit": 2, "position": 1, "set_code": "TST", "cost": 1,
            "sides": ["1RD", "2RD", "+1RD", "Sp", "1R", "-"],
            "text": "<b>Action</b> - [special]: deal 1 damage to a <i>droid</i> character.[/bold] [red]no[/red]"}
    path = tmp_path / "set.json"
    path.write_text(json.dumps([card]), encoding="utf-8")
    return path


@pytest.mark.parametrize(("lang", "symbol"), [("en", "[special]"), ("pl", "[specjalny]"), ("cs", "[speciální]")])
def test_destiny_import_shows_a_cards_text_as_a_player_reads_it(tmp_path: Path, lang: str, symbol: str) -> None:
    f = _set_file(tmp_path)
    r = runner.invoke(app, ["--lang", lang, "destiny", "import", str(f), "--entry", "90501", "--on", "han"])
    assert r.exit_code == 0, r.output
    line = next(x for x in r.stderr.splitlines() if "Action" in x)
    assert line.endswith(f"Action - {symbol}: deal 1 damage to a droid character.[/bold] [red]no[/red]")
    assert "<b>" not in r.stderr and "<i>" not in r.stderr
    data = json.loads(runner.invoke(app, ["--lang", lang, "destiny", "import", str(f), "--entry", "90501", "--on", "han", "--json"]).stdout)
    # the card's type in the reader's words where an answer names it (it said "Test Blaster to upgrade")
    no_on = runner.invoke(app, ["--lang", lang, "destiny", "import", str(f), "--entry", "90501"])
    assert no_on.exit_code == 2 and {"en": "is an upgrade", "pl": "to ulepszenie", "cs": "je vylepšení"}[lang] in no_on.stderr
    assert data["text"].startswith("<b>Action</b> - [special]")  # the data's own text, as it came
    assert data["text_shown"] == f"Action - {symbol}: deal 1 damage to a droid character.[/bold] [red]no[/red]"


# --- conditions and sides ----------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "stunned", "light"), [("pl", "ogłuszona", "jasna strona"), ("cs", "omráčena", "světlá strana")])
def test_a_condition_and_a_side_read_in_the_readers_language(tmp_path: Path, lang: str, stunned: str, light: str) -> None:
    """A Polish status said "stunned" and the board's table "light" (R277); the JSON keeps the
    machine names."""
    g = str(tmp_path / "g.sqlite")
    assert runner.invoke(app, ["game", "new", "-p", "clone-wars-corridor", "--game", g]).exit_code == 0
    said = runner.invoke(app, ["--lang", lang, "game", "condition", "obi", "add", "stunned", "--game", g]).stdout
    assert stunned in said and "stunned" not in said
    status = runner.invoke(app, ["--lang", lang, "game", "status", "--game", g]).stdout
    assert stunned in next(x for x in status.splitlines() if "obi" in x)
    board = runner.invoke(app, ["--lang", lang, "show", "--game", g], env={"COLUMNS": "200"}).stdout
    row = next(x for x in board.splitlines() if x.startswith("obi "))
    assert light in row and stunned in row and " light " not in row
    log = runner.invoke(app, ["--lang", lang, "game", "log", "--game", g]).stdout
    assert stunned in log and "stunned" not in log
    data = json.loads(runner.invoke(app, ["--lang", lang, "game", "status", "--game", g, "--json"]).stdout)
    obi = next(f for f in data["figures"] if f["id"] == "obi")
    assert obi["conditions"] == ["stunned"] and obi["side"] == "light"


def test_every_condition_an_edition_applies_has_its_name_in_each_language() -> None:
    from assistant.editions import Edition
    from assistant.rules.record import find_edition

    names = {c for e in Edition for c in find_edition(e.value).conditions}
    assert names <= set(i18n.CONDITIONS)
    for lang in ("pl", "cs"):
        with i18n.language(lang):
            for name in names:
                assert i18n.condition_name(name) != name, (lang, name)


@pytest.mark.parametrize(("lang", "head", "final"), [("pl", ": dziennik gry (rozpoczęta ", "## Stół na koniec"),
                                                     ("cs", ": deník hry (začata ", "## Stůl na konci")])
def test_a_card_games_export_has_its_headings_in_the_readers_language(tmp_path: Path, lang: str, head: str, final: str) -> None:
    """The Destiny export's "game log (started ...)" and "Final table" were English in a Polish file."""
    table = str(tmp_path / "table.yaml")
    assert runner.invoke(app, ["destiny", "example", "-o", table]).exit_code == 0
    assert runner.invoke(app, ["destiny", "new", table]).exit_code == 0
    r = runner.invoke(app, ["--lang", lang, "destiny", "export", "--format", "md"])
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("# Star Wars: Destiny" + head) and final in r.stdout and "Final table" not in r.stdout
