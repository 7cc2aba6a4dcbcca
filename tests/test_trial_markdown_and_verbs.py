"""A new user's trial of the product: what a judge's Markdown viewer makes of the exports, which
verbs a player's phone is offered, and a card named as the printed card names it.

The exports are read in a viewer (a forge's, an editor's preview) that renders the raw HTML
Markdown lets through: a ``<script>`` or ``<img onerror=...>`` in a note, a name or an override
reason must reach it as text. The checks render each export with a CommonMark renderer (markdown-it,
installed with rich) and look at its tokens: no raw HTML, and the player's text still shown.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from typer.testing import CliRunner

from assistant.cardgame.log import CardGameLog
from assistant.cardgames import CARD_GAMES, find_card_game
from assistant.cards import CardLibrary, SwmCard, default_library, name_key
from assistant.cli.app import app
from assistant.errors import AmbiguousNameError, UnknownNameError
from assistant.game import Game
from assistant.live.table import CardTable, Table
from assistant.live.web import create_app
from assistant.position.load import parse_position
from assistant.resources import card_table_example, example_path
from assistant.textsafe import code_fence, code_span, markdown_shown, shown

from .webclient import table_client

runner = CliRunner()
HOSTILE = "<script>alert(1)</script> <img src=x onerror=alert(2)> <!-- x --> <https://evil.example>"


def _html_tokens(markdown: str) -> list[str]:
    """The raw HTML a CommonMark viewer would pass on from ``markdown`` (blocks and inline)."""
    found = []
    for tok in MarkdownIt("commonmark").parse(markdown):
        if tok.type == "html_block":
            found.append(tok.content)
        for child in tok.children or []:
            if child.type in ("html_inline", "link_open"):
                found.append(child.content or str(child.attrs))
    return found


def _new_minis_game(tmp_path: Path) -> Path:
    path = tmp_path / "g.sqlite"
    Game.new(path, example_path("clone-wars-example-combat").read_text(encoding="utf-8"), default_library(), override="tests").close()
    return path


def _new_destiny_game(tmp_path: Path) -> Path:
    path = tmp_path / "d.sqlite"
    CardGameLog.new(path, find_card_game("destiny"), card_table_example("destiny")).close()
    return path


def test_a_script_in_a_note_reaches_the_miniatures_export_as_text(tmp_path: Path) -> None:
    game = str(_new_minis_game(tmp_path))
    assert runner.invoke(app, ["game", "note", HOSTILE, "--game", game]).exit_code == 0
    r = runner.invoke(app, ["game", "export", "--game", game])
    assert r.exit_code == 0, r.output
    assert _html_tokens(r.stdout) == []
    html = MarkdownIt("commonmark").render(r.stdout)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html  # the note is still shown, as text
    # the JSON export keeps the text as given (a program reads it)
    js = runner.invoke(app, ["game", "export", "--format", "json", "--game", game])
    assert HOSTILE in js.stdout.replace("\\u003c", "<")


def test_a_script_or_a_backtick_in_a_card_games_export_reaches_the_viewer_as_text(tmp_path: Path) -> None:
    game = _new_destiny_game(tmp_path)
    log = CardGameLog.open(game, CARD_GAMES)
    try:
        log.do("A pass", override=HOSTILE + " ``` `")  # refused in the setup phase: recorded by override
        text = log.export("md")
    finally:
        log.close()
    assert _html_tokens(text) == []
    tokens = MarkdownIt("commonmark").parse(text)
    spans = [c.content for t in tokens for c in t.children or [] if c.type == "code_inline"]
    assert "A pass" in spans  # the command in its code span, as played
    assert any(t.type == "fence" and "Han Solo" in t.content for t in tokens)  # the table, one code block


def test_a_phone_at_a_miniatures_table_is_offered_no_card_games_verbs(tmp_path: Path) -> None:
    client = table_client(create_app(Table(game=_new_minis_game(tmp_path), library=default_library())))
    out = client.get("/api/verbs").json()
    assert out["game"] == "miniatures"
    assert not [v for v in out["verbs"] if v.split(" ")[0] in ("destiny", "swtcg")]
    assert {"game move", "game note", "attack", "los", "cards set"} <= set(out["verbs"])
    assert sorted(out["detail"]) == out["verbs"]
    # another game's verb asked all the same is refused, naming the game, never a 500
    r = client.post("/api/do/destiny/status", json={})
    assert r.status_code == 400 and "miniatures game" in r.json()["error"]


def test_a_card_games_table_lists_its_own_verbs_only(tmp_path: Path) -> None:
    client = table_client(create_app(CardTable(_new_destiny_game(tmp_path))))
    out = client.get("/api/verbs").json()
    assert out["game"] == "destiny"
    assert out["verbs"] and all(v.startswith("destiny ") for v in out["verbs"])


@given(st.text(max_size=60))
def test_no_text_becomes_raw_html_in_markdowns_running_text(text: str) -> None:
    assert _html_tokens(f"- {markdown_shown(text)}") == []
    assert _html_tokens(f"| 1 | {markdown_shown(text).replace('|', chr(92) + '|')} |") == []


@given(st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), min_size=1, max_size=40).filter(lambda t: t.strip(" ") != ""))
def test_a_code_span_shows_its_text_as_written(text: str) -> None:
    tokens = MarkdownIt("commonmark").parse(f"1. {code_span(text)} more")
    spans = [c.content for t in tokens for c in t.children or [] if c.type == "code_inline"]
    assert spans == [shown(text)]


@given(st.lists(st.text(alphabet="`ab <>\n", max_size=12), min_size=1, max_size=5))
def test_a_code_block_is_closed_only_by_its_own_fence(lines: list[str]) -> None:
    body = "\n".join(lines)
    fence = code_fence(body)
    tokens = MarkdownIt("commonmark").parse(f"{fence}\n{body}\n{fence}\n\nafter\n")
    assert [t.type for t in tokens][0] == "fence"
    assert tokens[0].content == body + "\n"


@pytest.mark.parametrize("text, shown_as", [("a < b -> c", "a < b -> c"), ("<b>x</b>", "&lt;b>x&lt;/b>"), ("<!--", "&lt;!--")])
def test_only_an_html_opening_angle_is_escaped(text: str, shown_as: str) -> None:
    assert markdown_shown(text) == shown_as


# -- a card named as the printed card names it ------------------------------------------------


def _library_of(*names: str) -> CardLibrary:
    return CardLibrary([SwmCard(n, "tests", 9, None, False, None, 70, 16, 11, 20, 6, 0, set="Alliance and Empire") for n in names])


def test_a_figure_named_as_its_card_prints_it_finds_the_databases_parenthesised_name() -> None:
    """SW_Minis_Drafter's database writes 'Han Solo (Rogue)'; the card says 'Han Solo, Rogue'."""
    lib = _library_of("Han Solo (Rogue)", "Han Solo, Scoundrel", "Antarian Ranger (#2)", "Antarian Ranger (#18)")
    assert lib.resolve("swm", "Han Solo, Rogue").name == "Han Solo (Rogue)"
    assert lib.resolve("swm", "han solo (scoundrel)").name == "Han Solo, Scoundrel"
    assert lib.resolve("swm", "Antarian Ranger (#2)").name == "Antarian Ranger (#2)"  # a collector number stays apart
    with pytest.raises(AmbiguousNameError):
        lib.resolve("swm", "Antarian Ranger")
    text = "\n".join([
        "format: tabletop-position/1", "rules: swm2008", "map: {name: m, cols: 6, rows: 6}", "figures:",
        "- {id: han, card: 'Han Solo, Rogue', side: light, at: A1}",
        "- {id: rogue, card: 'Han Solo (Scoundrel)', side: dark, at: F6}",
    ])
    pos = parse_position(text, library=lib)
    assert [pos.stats_of(f).hp for f in pos.figures] == [70, 70]


@given(st.from_regex(r"[A-Z][a-z]{1,8}( [A-Z][a-z]{1,8})?", fullmatch=True), st.from_regex(r"[A-Za-z][a-z]{1,10}( [a-z]{2,6})?", fullmatch=True))
def test_a_version_after_a_comma_or_in_parentheses_is_one_name(who: str, version: str) -> None:
    assert name_key(f"{who} ({version})") == name_key(f"{who}, {version}") == name_key(f"  {who.upper()},  {version} ")
    assert name_key(f"{who} (#{len(version)})") != name_key(f"{who}, #{len(version)}")


# -- a note in a card game's log ---------------------------------------------------------------


def test_a_card_games_log_shows_a_notes_words(tmp_path: Path) -> None:
    """`destiny log` and the phone's game log listed a note as 'note', its words nowhere."""
    game = _new_destiny_game(tmp_path)
    assert runner.invoke(app, ["destiny", "note", "A looked at B's hand", "--game", str(game)]).exit_code == 0
    out = runner.invoke(app, ["destiny", "log", "--game", str(game)]).stdout
    assert "judge's note: A looked at B's hand" in out.splitlines()[-1]
    events = table_client(create_app(CardTable(game))).get("/api/events").json()["events"]
    assert events[-1]["text"] == "judge's note: A looked at B's hand" and events[-1]["command"] == "note"


# -- ending a turn nobody began ---------------------------------------------------------------


def test_ending_a_turn_when_nobody_is_acting_is_refused_and_writes_nothing(tmp_path: Path) -> None:
    """The phone's End turn (or 'game end-turn') before any activation recorded an 'end of turn'
    that changed nothing and read in the log as a turn ended."""
    game = str(_new_minis_game(tmp_path))
    before = runner.invoke(app, ["game", "log", "--game", game, "--json"]).stdout
    r = runner.invoke(app, ["game", "end-turn", "--game", game])
    assert r.exit_code == 2 and "nobody is acting" in r.output
    assert runner.invoke(app, ["game", "log", "--game", game, "--json"]).stdout == before
    # a judge may still record it, with a reason
    assert runner.invoke(app, ["game", "end-turn", "--game", game, "--override", "judge: tests"]).exit_code == 0


# -- a power the figure lacks, asked with its damage ------------------------------------------


@pytest.mark.parametrize("power", ["Force Grip 20", "Sith Lightning 30", "Force Grip"])
def test_a_known_power_the_figure_lacks_is_named_as_lacking(power: str) -> None:
    """sbd (a Security Battle Droid) has no Force power: 'Force Grip 20', the form R113 itself
    asks for, was answered "not a damaging power the assistant answers" (whose list holds it)."""
    r = runner.invoke(app, ["attack", "sbd", "obi", "-p", "clone-wars-example-combat", "--power", power])
    assert r.exit_code == 2 and f"sbd has no {power}" in r.output, r.output


def test_an_unknown_power_is_still_named_unknown() -> None:
    r = runner.invoke(app, ["attack", "sbd", "obi", "-p", "clone-wars-example-combat", "--power", "Frobnicate 20"])
    assert r.exit_code == 2 and "is not a damaging power the assistant answers" in r.output


def test_a_name_typed_without_its_accent_or_punctuation_finds_the_card() -> None:
    """A player's trial on the imported SW_Minis_Drafter database (R198): it writes "Padme Amidala"
    (Clone Strike #21) and "Padmé Amidala (Senator)" (The Clone Wars #17). "Padme" named only the
    first, silently; "padme amidala senator" named none."""
    lib = _library_of("Padme Amidala", "Padmé Amidala (Senator)", "Imperial Knight (#20)", "Imperial Knight (#21)")
    with pytest.raises(AmbiguousNameError) as err:
        lib.resolve("swm", "Padme")
    assert "Padmé Amidala (Senator)" in str(err.value) and "'Padme Amidala (Alliance and Empire)'" in str(err.value)
    assert lib.resolve("swm", "PADMÉ AMIDALA").name == "Padme Amidala"  # the exact name, accent aside, wins
    assert lib.resolve("swm", "padme amidala senator").name == "Padmé Amidala (Senator)"
    assert lib.resolve("swm", "Padmé Amidala, Senator").name == "Padmé Amidala (Senator)"
    assert lib.resolve("swm", "imperial knight #20").name == "Imperial Knight (#20)"  # a collector number keeps its '#'
    with pytest.raises(UnknownNameError):
        lib.resolve("swm", "padme amidala queen")
