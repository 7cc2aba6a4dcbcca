"""Answers in Polish and Czech: the catalogs are complete and fresh, the language is chosen as
documented, the rulebooks' terms are used, and the demo, the board and the answers read in each
language (JSON keys and machine values stay English)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from assistant import i18n
from assistant.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
catalogs = pytest.importorskip("catalogs", reason="Babel (the [test] extra) extracts the catalogs")
runner = CliRunner()


@pytest.fixture(autouse=True)
def english_after() -> None:
    yield
    i18n.set_language("en")


@pytest.mark.parametrize("lang", ["pl", "cs"])
def test_every_marked_text_is_translated_and_the_compiled_catalog_is_fresh(lang: str) -> None:
    """Both are complete: every text, the Destiny and SW TCG engines and help lines included."""
    tpl = catalogs.template()
    cat = catalogs.updated(lang, tpl)
    assert len(tpl) > 1000
    missing = catalogs.untranslated(cat)
    assert missing == [], f"untranslated in {lang}: run python tools/catalogs.py and translate"
    assert catalogs.fresh(lang, cat), "the .mo is stale: run python tools/catalogs.py"


@pytest.mark.parametrize("lang", ["pl", "cs"])
def test_translations_keep_their_placeholders(lang: str) -> None:
    cat = catalogs.updated(lang, catalogs.template())
    for m in cat:
        if not m.id:
            continue
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        strings = [m.string] if isinstance(m.string, str) else list(m.string)
        want = _fields(ids[-1])
        for s in strings:
            if s:  # an untranslated text is shown in English
                assert _fields(s) == want, (lang, ids[0], s)


def _fields(text: str) -> list[str]:
    """The replacement fields of a format string, with conversion and format spec ({n!r},
    {cells:,}); a text that is no format string (a JSON example) by its braces."""
    import string

    try:
        return sorted(f"{name}!{conv}:{spec}" for _lit, name, spec, conv in string.Formatter().parse(text) if name is not None)
    except ValueError:
        return sorted(re.findall(r"\{[^{}]*\}", text))


def test_the_language_is_chosen_by_option_then_environment_then_locale() -> None:
    assert i18n.choose("pl", {"LANG": "cs_CZ.UTF-8"}) == "pl"
    assert i18n.choose(None, {"TABLETOP_LANG": "cs", "LANG": "pl_PL.UTF-8"}) == "cs"
    assert i18n.choose(None, {"LC_ALL": "pl_PL.UTF-8", "LANG": "en_US"}) == "pl"
    assert i18n.choose(None, {"LANG": "C.UTF-8"}) == "en"
    r = runner.invoke(app, ["--lang", "de", "los", "obi", "sbd", "-p", "clone-wars-corridor"])
    assert r.exit_code == 2 and "the languages are en, pl, cs" in r.output


def test_the_polish_demo_reads_in_polish_with_the_rulebooks_terms() -> None:
    r = runner.invoke(app, ["--lang", "pl", "demo"], env={"COLUMNS": "200"})
    assert r.exit_code == 0
    out = r.stdout
    for term in ("linia wzroku", "osłona", "niski obiekt", "zasady z 2008", "atak łączony", "efekt dowódcy", "trafieniu krytycznym",
                 "17 pól", "strona", "rozmiar", "pytania zadawane przy stole"):
        assert term in out, term
    # what is left in English: rule citations, card and figure names, commands -- no sentence
    from assistant.cards import default_library

    names = sorted(default_library().names(), key=len, reverse=True)
    lines = [re.sub(r"\s+\((?:swm|ddm)\d{4}[^)]*(?:\([^)]*\)[^)]*)*\)\s*$", "", line) for line in out.splitlines()]
    for n in names:  # card names are printed as on the cards
        lines = [line.replace(n, "") for line in lines]
    prose = [line for line in lines if not line.lstrip().startswith(("nie modelowane", "Spróbuj", "+"))]
    english = [line for line in prose if re.search(r"\b(the|is|are|from|every|line|no|of|and)\b", line)]
    assert english == [], english


def test_czech_answers_for_swm_2004_players() -> None:
    r = runner.invoke(app, ["--lang", "cs", "cover", "sbd", "obi", "-p", "clone-wars-corridor"])
    assert r.exit_code == 0 and "krytí" in r.stdout and "zeď" in r.stdout
    r = runner.invoke(app, ["--lang", "cs", "range", "obi", "dooku", "-p", "clone-wars-corridor"])
    assert "17 polí" in r.stdout and "nesousedí" in r.stdout
    r = runner.invoke(app, ["--lang", "cs", "attack", "sbd", "obi", "-p", "clone-wars-example-combat", "--combined-fire", "sbdc"])
    assert r.exit_code == 0 and "kombinovaná střelba" in r.stdout and "kritickém zásahu" in r.stdout


def test_json_keeps_its_keys_and_machine_values_and_translates_the_texts() -> None:
    en = json.loads(runner.invoke(app, ["cover", "sbd", "obi", "-p", "clone-wars-corridor", "--json"]).stdout)
    pl = json.loads(runner.invoke(app, ["--lang", "pl", "cover", "sbd", "obi", "-p", "clone-wars-corridor", "--json"]).stdout)
    assert en.keys() == pl.keys() and en["sources"] == pl["sources"] and en["cover"] == pl["cover"]
    assert [r["rule"] for r in en["reasons"]] == [r["rule"] for r in pl["reasons"]]  # citations as printed
    assert en["reasons"][0]["text"] != pl["reasons"][0]["text"] and "osłon" in pl["reasons"][0]["text"]


def test_the_board_legend_in_each_language() -> None:
    for lang, words in (("pl", ("ściana", "zamknięte drzwi", "rozmiar")), ("cs", ("zeď", "zavřené dveře", "velikost"))):
        r = runner.invoke(app, ["--lang", lang, "show", "clone-wars-corridor"], env={"COLUMNS": "200"})
        assert r.exit_code == 0 and all(w in r.stdout for w in words), (lang, words)


def test_the_glossary_lists_each_term_once_and_the_catalogs_use_it() -> None:
    terms = yaml.safe_load((ROOT / "assistant" / "locale" / "glossary.yaml").read_text(encoding="utf-8"))["terms"]
    assert len({t["en"] for t in terms}) == len(terms)
    for lang in ("pl", "cs"):
        with i18n.language(lang):
            for t in terms:
                if t["en"] in ("line of sight", "cover", "wall", "pit"):
                    assert i18n._(t["en"]) in t[lang], (lang, t["en"])


@pytest.mark.parametrize("lang, words", [
    ("pl", ("aktywuje się", "atakuje", "atakiem łączonym", "trafienie", "zostało 100 z 120 PO", "rusza się na K9", "może się aktywować")),
    ("cs", ("se aktivuje", "útočí na", "kombinovanou střelbou", "zásah", "zbývá 100 z 120 životů", "se pohybuje na K9", "může se aktivovat")),
])
def test_the_game_session_reads_in_each_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str, words: tuple[str, ...]) -> None:
    monkeypatch.setenv("TABLETOP_HOME", str(tmp_path / "home"))
    for cmd in (["game", "new", "-p", "clone-wars-example-combat"], ["game", "initiative", "--roll", "light=7", "--roll", "dark=15"],
                ["game", "activate", "sbd"], ["game", "attack", "sbd", "obi", "--roll", "15", "--combined-fire", "sbdc"],
                ["game", "activate", "dooku"], ["game", "move", "dooku", "K9"]):
        assert runner.invoke(app, ["--lang", lang, *cmd]).exit_code == 0, cmd
    text = runner.invoke(app, ["--lang", lang, "game", "log"], env={"COLUMNS": "300"}).stdout
    text += runner.invoke(app, ["--lang", lang, "game", "status"], env={"COLUMNS": "300"}).stdout
    for w in words:
        assert w in text, (lang, w)
    log = json.loads(runner.invoke(app, ["--lang", lang, "game", "log", "--json"]).stdout)
    assert [e["kind"] for e in log["events"]][:3] == ["setup", "initiative", "activate"]  # machine values stay English


@pytest.mark.parametrize("lang, words", [("pl", ("niedozwolony cel", "jest sojusznikiem", "nie może atakować sojuszników")),
                                         ("cs", ("nepovolený cíl", "je spojencem", "nesmí útočit na spojence"))])
def test_a_refusal_reads_in_each_language(tmp_path: Path, lang: str, words: tuple[str, ...]) -> None:
    f = tmp_path / "allies.yaml"
    stats = "stats: {hp: 10, defense: 12, attack: 5, damage: 10}"
    f.write_text("format: tabletop-position/1\nrules: swm2008\nmap: {cols: 6, rows: 6}\nfigures:\n"
                 f"  - {{id: a, side: x, at: A1, {stats}}}\n  - {{id: b, side: x, at: D4, {stats}}}\n")
    r = runner.invoke(app, ["--lang", lang, "attack", "a", "b", "-p", str(f)], env={"COLUMNS": "300"})
    assert r.exit_code == 0 and all(w in r.stdout for w in words), r.stdout


@pytest.mark.parametrize("lang, words", [("pl", ("błąd", "odmowa", "aktywuje ciemna strona", "Sędzia może")),
                                         ("cs", ("chyba", "odmítnuto", "aktivuje temná strana", "Rozhodčí"))])
def test_a_game_refusal_reads_in_each_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str, words: tuple[str, ...]) -> None:
    monkeypatch.setenv("TABLETOP_HOME", str(tmp_path / "home"))
    assert runner.invoke(app, ["game", "new", "-p", "clone-wars-example-combat"]).exit_code == 0
    assert runner.invoke(app, ["game", "initiative", "--roll", "light=7", "--roll", "dark=15"]).exit_code == 0
    r = runner.invoke(app, ["--lang", lang, "game", "activate", "obi"], env={"COLUMNS": "300"})
    assert r.exit_code == 2 and all(w in r.output for w in words), r.output
    assert "(swm2008 PL p.6, p.16" in r.output  # the citation as printed


def test_no_function_both_calls_the_translator_and_uses_its_name_for_a_throwaway() -> None:
    """``_`` is the translator: a function that also assigns ``_`` (``a, _ = ...``) would call a
    tuple item instead, only in the languages that take that branch."""
    import ast

    bad = []
    for path in (ROOT / "assistant").rglob("*.py"):
        for fn in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            nodes = list(ast.walk(fn))
            stores = any(isinstance(n, ast.Name) and n.id == "_" and isinstance(n.ctx, ast.Store) for n in nodes)
            calls = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "_" for n in nodes)
            if stores and calls:
                bad.append(f"{path.relative_to(ROOT)}:{fn.lineno} {fn.name}")
    assert bad == []


@pytest.mark.parametrize(
    "lang, words",
    [
        ("pl", ("niepoprawny", "2 problemy", "nieznany klucz 'colour'", "czy chodziło o 'cols'", "jest poza mapą", "mapa ma 4 x 4")),
        ("cs", ("neplatný", "2 problémy", "neznámý klíč 'colour'", "mysleli jste 'cols'", "je mimo mapu", "mapa má 4 x 4")),
    ],
)
def test_a_bad_position_file_is_explained_in_each_language(tmp_path: Path, lang: str, words: tuple[str, ...]) -> None:
    f = tmp_path / "bad.yaml"
    f.write_text("format: tabletop-position/1\nrules: swm2008\nmap: {cols: 4, rows: 4, colour: red}\nfigures:\n  - {id: a, side: x, at: K1}\n")
    r = runner.invoke(app, ["--lang", lang, "validate", str(f)], env={"COLUMNS": "300"})
    assert r.exit_code == 2 and all(w in r.output for w in words), r.output
    j = json.loads(runner.invoke(app, ["--lang", lang, "validate", str(f), "--json"]).stdout)
    assert [p["where"] for p in j["files"][0]["problems"]] == ["map.colour", "figures[0].at"]  # machine values stay


@pytest.mark.parametrize("lang, words", [
    ("pl", ("'many' nie jest tu dozwolone: powinno być: liczba całkowita", "-3 nie jest tu dozwolone: powinno być: większe lub równe 0",
            "5 nie jest tu dozwolone: powinno być: lista", "'maybe' nie jest tu dozwolone: powinno być: wartość logiczna (true lub false)",
            "brak wymaganego klucza 'rows'", "powinny tu być klucze z wartościami")),
    ("cs", ("'many' zde není povoleno: má to být: celé číslo", "-3 zde není povoleno: má to být: větší nebo rovno 0",
            "5 zde není povoleno: má to být: seznam", "'maybe' zde není povoleno: má to být: logická hodnota (true nebo false)",
            "chybí povinný klíč 'rows'", "mají tu být klíče s hodnotami")),
])
def test_a_position_files_wrong_values_are_explained_in_each_language(tmp_path: Path, lang: str, words: tuple[str, ...]) -> None:
    """pydantic's own words ("Input should be a valid integer", "Field required") were shown in
    English to Polish and Czech readers (round 20's list); the kinds a position file meets are said
    in the reader's language, the values and keys as written."""
    f = tmp_path / "bad.yaml"
    f.write_text("format: tabletop-position/1\nrules: swm2008\nmap:\n  cols: many\n  squares: {wall: 5}\n  areas: [x]\n"
                 "figures:\n  - {id: a, side: x, at: A1, damage_taken: -3, stats: 7, activated: maybe}\n")
    r = runner.invoke(app, ["--lang", lang, "validate", str(f)], env={"COLUMNS": "400"})
    assert r.exit_code == 2, r.output
    for w in words:
        assert w in r.output, (w, r.output)
    for english in ("should be", "valid integer", "Field required", "missing required"):
        assert english not in r.output, (english, r.output)


@pytest.mark.parametrize("lang, words", [
    ("pl", ("remis rozstrzygnięty: 1 przerzut po remisie (swm2008 PL p.2 (przy remisie rzuca się ponownie))",)),
    ("cs", ("1 opakovaný hod po remíze (swm2008 PL p.2 (při remíze se hází znovu))",)),
])
def test_an_initiative_tie_break_and_its_rule_read_in_each_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str,
                                                                    words: tuple[str, ...]) -> None:
    """The log's tie-break ("rerolled once after a tie") and the rule citations' notes ("ties are
    rerolled") stayed English in Polish and Czech; the log's data stays English (a machine record)."""
    monkeypatch.setenv("TABLETOP_HOME", str(tmp_path / "home"))
    assert runner.invoke(app, ["game", "new", "-p", "clone-wars-example-combat"]).exit_code == 0
    r = runner.invoke(app, ["--lang", lang, "game", "initiative", "--roll", "light=5,12", "--roll", "dark=5,3"], env={"COLUMNS": "400"})
    assert r.exit_code == 0, r.output
    text = runner.invoke(app, ["--lang", lang, "game", "log"], env={"COLUMNS": "400"}).stdout
    for w in words:
        assert w in text, (w, text)
    assert "rerolled" not in text and "ties are" not in text, text
    log = json.loads(runner.invoke(app, ["--lang", lang, "game", "log", "--json"]).stdout)
    assert next(e for e in log["events"] if e["kind"] == "initiative")["tie_break"] == "rerolled once after a tie (swm2008 PL p.2 (ties are rerolled))"
    en = runner.invoke(app, ["game", "log"], env={"COLUMNS": "400"}).stdout
    assert "tie broken: rerolled once after a tie (swm2008 PL p.2 (ties are rerolled))" in en, en


@pytest.mark.parametrize("lang, words", [("pl", ("x nachodzi na ctc na A7", "postać 'obi' już stoi na mapie")),
                                         ("cs", ("x se překrývá s ctc na A7", "figurka 'obi' už na mapě stojí"))])
def test_game_place_names_the_figures_by_their_ids_in_each_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str,
                                                                     words: tuple[str, ...]) -> None:
    """`game place`'s refusals named the game's figures by their place in an internal list
    ("overlaps ctc (figures[1])", "duplicate figure id 'obi' (also figures[0])"), which the player
    never wrote."""
    monkeypatch.setenv("TABLETOP_HOME", str(tmp_path / "home"))
    assert runner.invoke(app, ["game", "new", "-p", "clone-wars-corridor"]).exit_code == 0
    out = ""
    for spec in ("{id: x, side: light, at: A7}", "{id: obi, side: light, at: A2}"):
        r = runner.invoke(app, ["--lang", lang, "game", "place", spec], env={"COLUMNS": "400"})
        assert r.exit_code == 2, r.output
        out += r.output
    assert "figures[" not in out and all(w in out for w in words), out


def test_an_attacks_modifiers_keep_their_english_source_in_json_and_add_a_label() -> None:
    args = ["attack", "sbd", "obi", "-p", "clone-wars-example-combat", "--combined-fire", "sbdc", "--json"]
    en = json.loads(runner.invoke(app, args).stdout)
    pl = json.loads(runner.invoke(app, ["--lang", "pl", *args]).stdout)
    assert [m["source"] for m in en["modifiers"]] == [m["source"] for m in pl["modifiers"]]
    assert "combined fire from sbdc" in [m["source"] for m in pl["modifiers"]]
    labels = {m["source"]: m["label"] for m in pl["modifiers"]}
    assert labels["combined fire from sbdc"] == "atak łączony: sbdc" and labels["cover (wall F4)"] == "osłona (ściana F4)"


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

TAGS = st.sampled_from(["pl", "pl-PL", "cs", "cs-CZ", "en", "en-GB", "de", "fr-FR", "*", "sk"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(TAGS, st.one_of(st.none(), st.floats(0, 1).map(lambda q: round(q, 3)))), max_size=6))
def test_accept_language_picks_the_most_wanted_language_we_have(parts: list[tuple[str, float | None]]) -> None:
    header = ", ".join(tag if q is None else f"{tag};q={q}" for tag, q in parts)
    got = i18n.from_accept_language(header)
    ours = [
        (1.0 if q is None else q, tag.split("-")[0]) for tag, q in parts if tag.split("-")[0] in i18n.LANGUAGES and (q is None or q > 0)
    ]  # q=0 means "not this one"
    if not ours:
        assert got == "en"
    else:
        best = max(q for q, _lang in ours)
        assert got in {lang for q, lang in ours if q == best}


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80), st.dictionaries(st.sampled_from(["TABLETOP_LANG", "LC_ALL", "LC_MESSAGES", "LANG"]), st.text(max_size=20)))
def test_choosing_a_language_never_fails_and_always_names_one_we_have(requested: str, env: dict[str, str]) -> None:
    assert i18n.choose(requested or None, env) in i18n.LANGUAGES
    assert i18n.from_accept_language(requested) in i18n.LANGUAGES


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("pl", ("Linia wzroku od jednej postaci", "Argumenty", "Opcje", "[wymagany]", "Pokaż tę pomoc i zakończ.", "Użycie:")),
        ("cs", ("Na dohled z jedné postavy", "Argumenty", "Volby", "[povinný]", "Zobrazit tuto nápovědu a skončit.", "Použití:")),
    ],
)
def test_help_reads_in_each_language_and_english_again_after(lang: str, words: tuple[str, ...]) -> None:
    r = runner.invoke(app, ["--lang", lang, "los", "--help"], env={"COLUMNS": "200"})
    assert r.exit_code == 0
    for word in words:
        assert word in r.stdout, word
    # the list of commands (short help from the translated help) and the root's own texts
    r = runner.invoke(app, ["--lang", lang, "--help"], env={"COLUMNS": "200"})
    assert words[0] in r.stdout and "Show the version" not in r.stdout
    # the next run in English starts from the English originals
    r = runner.invoke(app, ["los", "--help"], env={"COLUMNS": "200"})
    assert "Line of sight from one figure to another" in r.stdout and "Options" in r.stdout and "Usage:" in r.stdout
    assert words[2] not in r.stdout and words[-1] not in r.stdout


def test_every_help_text_of_the_command_tree_is_in_the_catalogs() -> None:
    from typer.main import get_command

    from assistant.cli.helptext import help_texts

    ids = {m.id for m in catalogs.template() if isinstance(m.id, str)}
    texts = [text for _command, text in help_texts(get_command(app))]
    assert len(texts) > 150
    assert [t for t in texts if t not in ids] == []


@pytest.mark.parametrize("lang, words", [
    ("pl", {"setup": ("wygrywa rzut i wybiera pole bitwy", "osłon"), "turn": ("teraz kolej gracza B", "Faza akcji"),
            "verb": "nieznany czasownik", "status": "zasoby", "build": "żetony budowy",
            "attack": "ataki odbywają się w etapie bitwy"}),
    ("cs", {"setup": ("vyhrává hod a volí bojiště (Destiny P5 › Przygotowanie)", "položen 1 štít"),
            "turn": ("na tahu je B, ne A", "Faza akcji"), "verb": "neznámé sloveso", "status": "zdroje 2",
            "build": "2 žetony stavby", "attack": "útoky probíhají v kroku bitvy"}),
])
def test_destiny_and_sw_tcg_answer_in_each_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str,
                                                    words: dict[str, Any]) -> None:
    """The card games' verdicts, refusals and table read in Polish, with the rulebooks' words
    (pole bitwy, osłony, zasoby; jednostka, arena, Moc), and in Czech (bojiště, štíty, zdroje;
    žetony stavby, Síla), their rule citations kept as printed."""
    monkeypatch.setenv("TABLETOP_HOME", str(tmp_path / "home"))
    table = tmp_path / "t.yaml"
    assert runner.invoke(app, ["destiny", "example", "-o", str(table)]).exit_code == 0
    g = str(tmp_path / "d.sqlite")
    assert runner.invoke(app, ["destiny", "new", str(table), "--game", g]).exit_code == 0
    said = []
    for play in ("battlefield-roll A=5 B=3", "A choose-battlefield B", "A setup-shields han=1 leia=1", "start"):
        r = runner.invoke(app, ["--lang", lang, "destiny", "do", play, "--game", g])
        assert r.exit_code == 0, r.output
        said.append(r.output)
    text = " ".join(said)
    assert all(w in text for w in words["setup"]), text
    r = runner.invoke(app, ["--lang", lang, "destiny", "do", "A pass", "--game", g])
    assert r.exit_code == 2 and all(w in r.output for w in words["turn"]), r.output
    r = runner.invoke(app, ["--lang", lang, "destiny", "do", "A frobnicate", "--game", g])
    assert r.exit_code == 2 and words["verb"] in r.output
    r = runner.invoke(app, ["--lang", lang, "destiny", "status", "--game", g], env={"COLUMNS": "200"})
    assert words["status"] in r.output and " resources" not in r.output and "shields" not in r.output, r.output

    table = tmp_path / "s.yaml"
    assert runner.invoke(app, ["swtcg", "example", "-o", str(table)]).exit_code == 0
    g = str(tmp_path / "s.sqlite")
    assert runner.invoke(app, ["swtcg", "new", str(table), "--game", g]).exit_code == 0
    r = runner.invoke(app, ["--lang", lang, "swtcg", "do", "DS build tie 2", "--game", g])
    assert r.exit_code == 0 and words["build"] in r.output, r.output
    r = runner.invoke(app, ["--lang", lang, "swtcg", "do", "DS attack tie -> xwing", "--game", g])
    assert r.exit_code == 2 and words["attack"] in r.output, r.output


def test_no_refusal_or_reason_is_written_as_an_untranslated_literal() -> None:
    """A refusal (``raise SomeError("...")``) or a verdict's reason (``Reason("...")``) written as
    a plain or f-string literal would reach Polish and Czech readers in English: they go through
    ``_()``. Internal errors (ValueError and the like, turned into messages elsewhere) and the
    name errors, whose first argument is the kind of name, are exempt."""
    import ast

    internal = {
        "ValueError",
        "RuntimeError",
        "FileNotFoundError",
        "AssertionError",
        "TypeError",
        "KeyError",
        "NotImplementedError",
        "OSError",
        "IndexError",
        "UnknownNameError",
        "AmbiguousNameError",
    }
    found = []
    for path in (ROOT / "assistant").rglob("*.py"):
        src = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(src)):
            call = None
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                func = node.exc.func
                if (func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")) not in internal:
                    call = node.exc
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Reason":
                call = node
            if call is None or not call.args:
                continue
            first = call.args[0]
            words = (
                "".join(v.value for v in first.values if isinstance(v, ast.Constant))
                if isinstance(first, ast.JoinedStr)
                else first.value
                if isinstance(first, ast.Constant) and isinstance(first.value, str)
                else ""
            )
            if len(re.findall(r"[A-Za-z]{3,}", words)) >= 2:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []


def test_no_marked_text_counts_with_an_s_in_brackets() -> None:
    """A user's trial (round 19): "2 comment line(s)", "1 figure marker(s)", "unknown argument(s)"
    -- a count is said with n_() in the form its number asks (Polish and Czech have three), never
    with "(s)"."""
    texts = [m.id if isinstance(m.id, str) else m.id[0] for m in catalogs.template() if m.id]
    texts += [m.id[1] for m in catalogs.template() if isinstance(m.id, tuple)]
    assert len(texts) > 1000
    assert [t for t in texts if "(s)" in t] == []


#: names printed in English on the cards and in the SW TCG FAQ, said as printed in every language
#: (a card's or a keyword's name is how the player finds it on the card), and the scenario file's
#: keys; a catalog entry may keep these English and nothing else
PROPER_NAMES = ("Never Tell Me The Odds", "Doctrine of Fear", "Ace in the Hole", "tap and zap", "Powerful Charge",
                "Programmed Target", "Fire Control", "Critical Hit", "Recon", "Gunner", "Spotter", "Shields",
                "Penetration", "Lucky", "Overkill", "Overload", "Fringe", "KEYWORDS", "FAQ", "AC")
#: words a Polish or Czech text never needs but an English one can hardly do without (not "a", "to",
#: "no", "on", "by": Polish or Czech words too)
ENGLISH_WORDS = re.compile(r"\b(the|of|and|is|are|with|which|this|that|from|when|where|must|cannot|its|their|will|"
                           r"would|should|was|were|be|has|have|for|or|not|it|an|into|than|there|these|those|only|"
                           r"each|every|after|before|gets|takes|gives|reads|read|shown|said|square|squares|figure|"
                           r"turn|reading|readings|in)\b", re.IGNORECASE)
#: what a translation keeps as written: fields, quoted commands and names, options, KEY=VALUE,
#: machine values with hyphens or dots or listed in brackets, the scenario file's keys
#: when/then/said/refused, and the Destiny rulebook's (Polish) section titles cited
_KEPT = re.compile(r"\{[^{}]*\}|'[^']*'|\"[^\"]*\"|`[^`]*`|„[^”]*”|--[\w-]+|\b\w+[=.]\S*|\b\w+(?:-\w+)+\b|"
                   r"\b(?:when|then|said|refused)\b(?=[,/ ]|$)|\((?:[\w.-]+, )+(?:[\w.-]+|\.\.\.)\)|Destiny P\d+ › [^;)]*")


def _english_left(text: str) -> list[str]:
    """The English words a translated text still says (outside what is kept as written)."""
    for name in PROPER_NAMES:
        text = text.replace(name, " ")
    return ENGLISH_WORDS.findall(_KEPT.sub(" ", text))


def test_english_left_in_a_text_is_found() -> None:
    """The check below on texts whose answer is known: a Polish text that kept its English reading
    note, a Czech one that kept an English clause, and clean ones with names and commands kept."""
    assert _english_left("rzut o pole bitwy (reading R22 in docs/readings.md)") == ["reading", "in"]
    assert _english_left("karta {card}: the card is not in play") == ["the", "is", "not", "in"]
    assert _english_left("rzut o pole bitwy (odczyt R22 w docs/readings.md)") == []
    assert _english_left("{label} nie może atakować (np. Han Enchained; może jednak użyć tap and zap, FAQ TN L70)") == []
    assert _english_left("Tylko gdy: did-not-move, target-adjacent (można powtarzać); 'A draw N' --to POLE") == []


@pytest.mark.parametrize("lang", ["pl", "cs"])
def test_no_catalog_entry_is_left_in_english(lang: str) -> None:
    """A Polish or Czech reader reads every text in their language: no translation keeps an
    English clause or reading note (R274), and one equal to its English text is only a name,
    a number's field or a citation (the allow-list above)."""
    with catalogs.po_path(lang).open("rb") as fh:
        cat = catalogs.read_po(fh, locale=lang)
    left = {}
    for m in cat:
        if not m.id:
            continue
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        for s in [m.string] if isinstance(m.string, str) else list(m.string):
            english = _english_left(s)
            if s == ids[0] and not english:
                english = [w for w in re.findall(r"\b[A-Za-z]{3,}\b", _KEPT.sub(" ", s))
                           if not any(w in name.split() for name in PROPER_NAMES)
                           and w not in {"teleporter", "format", "text", "bonus", "problem", "pilot", "label", "Destiny"}]
            if english:
                left[ids[0][:80]] = english
    assert left == {}, f"{lang}: {len(left)} texts keep English words: {left}"
