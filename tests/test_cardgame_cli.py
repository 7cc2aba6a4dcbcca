"""The card games at the table through the CLI: scripted games of Star Wars: Destiny and the
SW TCG, the log (refusals, overrides, undo, export), bad input, and the notation and table
parsers under Hypothesis."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from assistant.cardgame.notation import Command
from assistant.cli.app import app
from assistant.destiny import engine as destiny
from assistant.destiny.table import dump_table as dump_destiny
from assistant.destiny.table import parse_table as parse_destiny
from assistant.errors import AssistantError, NotationError
from assistant.resources import card_table_example
from assistant.swtcg import engine as swtcg
from assistant.swtcg.table import dump_table as dump_swtcg
from assistant.swtcg.table import parse_table as parse_swtcg

runner = CliRunner()
HERE = Path(__file__).parent


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TABLETOP_HOME", str(tmp_path / "home"))
    return tmp_path


def cli(*args: str) -> tuple[int, str]:
    r = runner.invoke(app, list(args))
    return r.exit_code, r.output


def test_a_scripted_destiny_game_runs_and_its_export_shows_the_sequence(tmp_path: Path) -> None:
    table = tmp_path / "t.yaml"
    assert cli("destiny", "example", "-o", str(table))[0] == 0
    g = str(tmp_path / "d.sqlite")
    assert cli("destiny", "new", str(table), "--game", g)[0] == 0
    script = [
        "battlefield-roll A=2 B=2",  # tie: reroll
        "battlefield-roll A=5 B=3",
        "A choose-battlefield B",
        "A setup-shields han=1 leia=1",
        "start",
        "B activate vader v1=melee:2",
        "A activate han h1=ranged:2 h2=+ranged:2",
        "B resolve v1 -> han",
        "A resolve h1+h2 -> vader",
        "B claim",
        "A pass",
        "A upkeep discard=1",
        "B upkeep",
    ]
    for c in script:
        code, out = cli("destiny", "do", c, "--game", g)
        assert code == 0, (c, out)
    # a refused play names its rule and writes nothing
    code, out = cli("destiny", "do", "A pass", "--game", g)
    assert code == 2 and "it is B's turn" in out and "Faza akcji" in out
    # "may I?" answers without recording
    code, out = cli("destiny", "check", "B activate vader v1=blank", "--game", g, "--json")
    assert code == 0 and json.loads(out)["legal"] is True
    code, out = cli("destiny", "check", "A pass", "--game", g, "--json")  # refused by the rules: exit 3
    assert code == 3 and json.loads(out)["legal"] is False and "B's turn" in json.loads(out)["said"][0]
    code, out = cli("destiny", "check", "A frobnicate", "--game", g)  # cannot be read: exit 2
    assert code == 2 and "unknown verb" in out
    code, out = cli("destiny", "check", "B activate vader v1=-", "--game", g)  # a swdestinydb face: '-' is blank
    assert code == 0
    code, out = cli("destiny", "status", "--game", g)
    assert "dice: v1 on the card" in out
    # a judge's override is recorded with its reason
    assert cli("destiny", "do", "A pass", "--override", "judge: B stepped away", "--game", g)[0] == 0
    code, out = cli("destiny", "status", "--get", "round", "--game", g)
    assert out.strip() == "2"
    assert cli("destiny", "status", "--get", "card.vader.damage", "--game", g)[1].strip() == "4"  # 4 ranged, no shields on Vader
    assert cli("destiny", "status", "--get", "card.han.damage", "--game", g)[1].strip() == "1"  # 2 melee, 1 shield
    code, md = cli("destiny", "export", "--game", g)
    assert code == 0
    positions = [md.index(f"`{c}`") for c in script]
    assert positions == sorted(positions)  # the export shows the plays in order
    assert "judge: B stepped away" in md and "the rules refuse it" in md
    assert "B controls the battlefield and acts first" in md
    data = json.loads(cli("destiny", "export", "--format", "json", "--game", g)[1])
    assert [e["command"] for e in data["events"]][1:len(script) + 1] == script
    assert data["final"]["round"] == 2 and data["events"][-1]["override"] == "judge: B stepped away"


def test_undo_and_replay_in_a_card_game(tmp_path: Path) -> None:
    table = tmp_path / "t.yaml"
    table.write_text(card_table_example("destiny").replace("phase: setup", "phase: action\nturn: A\nbattlefield: {owner: A, controller: A}"))
    g = str(tmp_path / "d.sqlite")
    assert cli("destiny", "new", str(table), "--game", g)[0] == 0
    assert cli("destiny", "do", "A activate han h1=ranged:2 h2=blank", "--game", g)[0] == 0
    assert cli("destiny", "status", "--get", "turn", "--game", g)[1].strip() == "B"
    code, out = cli("destiny", "undo", "--game", g)
    assert code == 0 and "undid event 2" in out
    assert cli("destiny", "status", "--get", "turn", "--game", g)[1].strip() == "A"
    assert cli("destiny", "status", "--get", "card.han.exhausted", "--game", g)[1].strip() == "False"
    code, out = cli("destiny", "replay", "--to", "2", "--game", g)
    assert code == 0 and "exhausted" in out
    assert cli("destiny", "replay", "2", "--game", g) == (code, out)  # a user's trial: 'replay 2' wanted '--to'
    code, out = cli("destiny", "log", "--json", "--game", g)
    events = json.loads(out)["events"]
    assert events[1]["undone"] is True and events[2]["command"] == "undo #2"


def test_a_scripted_swtcg_game_runs_and_its_export_shows_the_sequence(tmp_path: Path) -> None:
    table = tmp_path / "s.yaml"
    assert cli("swtcg", "example", "-o", str(table))[0] == 0
    g = str(tmp_path / "s.sqlite")
    assert cli("swtcg", "new", str(table), "--game", g)[0] == 0
    script = [
        "DS build tie 2", "DS deploy tie", "LS board luke -> xwing",
        "next", "next",  # retreat, space battle
        "DS attack tie -> xwing", "DS roll 2,6", "DS pass", "LS pass", "end-attack",
        "next",  # ground battle
        "DS attack aat -> trooper", "LS retaliate trooper cost=1", "DS roll 4,5,6", "DS pass", "LS pass", "end-attack",
        "next", "next",  # character battle, end of turn
    ]
    for c in script:
        code, out = cli("swtcg", "do", c, "--game", g)
        assert code == 0, (c, out)
    code, out = cli("swtcg", "do", "DS attack vader -> luke", "--game", g)
    assert code == 2 and "battle step" in out
    code, out = cli("swtcg", "status", "--json", "--game", g)
    final = json.loads(out)
    units = {u["id"]: u for u in final["units"]}
    assert units["trooper"]["zone"] == "discard" and units["xwing"]["damage"] == 1 and final["step"] == "end"
    assert final["players"]["LS"]["force"] == 3
    md = cli("swtcg", "export", "--game", g)[1]
    lines = [line for line in md.splitlines() if line[:1].isdigit()]
    assert lines[1:] == [f"{i + 2}. `{c}`" for i, c in enumerate(script)]  # every play, numbered, in order
    data = json.loads(cli("swtcg", "export", "--format", "json", "--game", g)[1])
    assert [e["command"] for e in data["events"][1:]] == script
    assert "Retaliate deals 1 die of damage" in md and "roll it with" in md and "FAQ L150-151" in md


def test_each_card_game_opens_only_its_own_files(tmp_path: Path) -> None:
    table = tmp_path / "s.yaml"
    table.write_text(card_table_example("swtcg"))
    g = str(tmp_path / "s.sqlite")
    assert cli("swtcg", "new", str(table), "--game", g)[0] == 0
    code, out = cli("destiny", "status", "--game", g)
    assert code == 2 and "is a swtcg game" in out
    code, out = cli("game", "status", "--game", g)
    assert code == 2 and "python -m assistant swtcg" in out


def test_bad_input_is_refused_with_where_and_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: destiny-table/1\nplayers: {A: {resources: -1}, B: {hnad: 3}}\n")
    code, out = cli("destiny", "new", str(bad), "--game", str(tmp_path / "g.sqlite"))
    assert code == 2 and "bad.yaml:2: players.A.resources" in out and "unknown key 'hnad'" in out and "did you mean 'hand'" in out
    bad.write_text("format: destiny-table/1\nplayers: {A: {}, B: {}}\ncharacters:\n  - {id: x, owner: C, health: 3}\n")
    code, out = cli("destiny", "new", str(bad), "--game", str(tmp_path / "g.sqlite"))
    assert code == 2 and "bad.yaml:4: characters[0].owner" in out
    assert not (tmp_path / "g.sqlite").exists()  # nothing half-written
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all" * 50)
    before = junk.read_bytes()
    code, out = cli("destiny", "status", "--game", str(junk))
    assert code == 2 and "Traceback" not in out and junk.read_bytes() == before
    good = tmp_path / "t.yaml"
    good.write_text(card_table_example("destiny"))
    g = str(tmp_path / "d.sqlite")
    assert cli("destiny", "new", str(good), "--game", g)[0] == 0
    for command, says in [("A frobnicate", "unknown verb"), ("Z pass", "not a player"), ("A damage 2 -> nobody", "unknown card 'nobody'"),
                          ("A resolve 'unclosed", "No closing quotation")]:
        code, out = cli("destiny", "do", command, "--game", g)
        assert code == 2 and says in out, (command, out)
    code, out = cli("destiny", "do", "A damage 2 -> nobody", "--override", "x", "--game", g)
    assert code == 2  # a wrong name is not a ruling: never recorded
    assert len(json.loads(cli("destiny", "log", "--json", "--game", g)[1])["events"]) == 1


def test_the_scenario_command_runs_golden_files() -> None:
    files = [str(HERE / "golden_destiny" / "d-07.yaml"), str(HERE / "golden_swtcg" / "t-03.yaml")]
    code, out = cli("destiny", "scenario", *files)
    assert code == 0 and out.count("holds") == 2


def test_a_scenario_run_that_finds_no_scenario_is_refused(tmp_path: Path) -> None:
    """Only tables, or an empty folder: nothing was checked, so the run must not say all is well."""
    (tmp_path / "_cards.yaml").write_text("format: destiny\n")
    (tmp_path / "misspelt.yaml").write_text("gaem: destiny\nformat: destiny\n")
    code, out = cli("swtcg", "scenario", str(tmp_path))
    assert code == 2 and "no scenario in" in out and str(tmp_path) in out, out
    empty = tmp_path / "none"
    empty.mkdir()
    code, out = cli("swtcg", "scenario", str(empty))
    assert code == 2 and "no scenario in" in out, out
    code, out = cli("swtcg", "scenario", str(tmp_path), str(HERE / "golden_swtcg" / "t-03.yaml"))
    assert code == 0 and out.count("holds") == 1 and out.count("skipped") == 2, out


def test_verbs_are_listed_with_what_they_do() -> None:
    code, out = cli("destiny", "verbs")
    assert code == 0 and "resolve" in out and "[turn action]" in out
    code, out = cli("swtcg", "verbs")
    assert code == 0 and "end-attack" in out and "Lucky" in out


# --- parsers and invariants ----------------------------------------------------------

WORD = st.text(st.sampled_from("abcxyz019-:+"), min_size=1, max_size=6).filter(lambda w: w[0].isalpha())


# a verb is never spelled like a player (player names are case-insensitive: 'ds pass' is 'DS pass')
@given(st.sampled_from([None, "A", "DS"]), st.from_regex(r"[a-z][a-z-]{0,8}", fullmatch=True).filter(lambda v: v not in ("a", "ds")),
       st.lists(WORD, max_size=3),
       st.dictionaries(st.from_regex(r"[a-z][a-z0-9-]{0,5}", fullmatch=True), WORD, max_size=3), st.lists(WORD, max_size=3))
def test_command_notation_round_trips(actor: str | None, verb: str, args: list[str], opts: dict[str, str], targets: list[str]) -> None:
    args = [a for a in args if "=" not in a and not a[0].islower() or a[0].islower() and "=" not in a]
    c = Command(actor, verb, tuple(args), tuple(opts.items()), tuple(t.replace(",", "") for t in targets if t.replace(",", "")))
    assert Command.parse(str(c), ("A", "DS")) == c


def test_an_unknown_option_is_refused_not_ignored() -> None:
    from assistant.swtcg.engine import apply as swtcg_apply
    from assistant.swtcg.table import parse_table as parse_t

    spec = {"format": "swtcg-table/1", "step": "battle-ground", "players": {"DS": {"force": 5}, "LS": {"force": 5}},
            "units": [{"id": "aat", "owner": "DS", "type": "Ground - Vehicle", "power": 2, "health": 6, "speed": 20, "zone": "ground"},
                      {"id": "tr", "owner": "LS", "type": "Ground - Clone", "power": 2, "health": 6, "speed": 20, "zone": "ground"}]}
    t = swtcg_apply(parse_t(yaml.safe_dump(spec), "x"), "DS attack aat -> tr").table
    with pytest.raises(NotationError, match="roll takes no option overkil="):
        swtcg_apply(t, "DS roll 4,4 overkil=tr")
    with pytest.raises(NotationError, match="end-attack takes no option"):
        swtcg_apply(t, "end-attack dubble=yes")


def test_player_names_are_case_insensitive() -> None:
    c = Command.parse("ds attack aat -> trooper", ("DS", "LS"))
    assert (c.actor, c.verb, c.args, c.targets) == ("DS", "attack", ("aat",), ("trooper",))
    assert Command.parse("a pass", ("A", "B")).actor == "A"


@given(st.text(max_size=40))
def test_command_parser_never_crashes(text: str) -> None:
    try:
        Command.parse(text)
    except NotationError as e:
        assert repr(text) in str(e) or text.strip() == "" or "'" in str(e)


@pytest.mark.parametrize("game", ["destiny", "swtcg"])
def test_example_tables_round_trip(game: str) -> None:
    parse, dump = (parse_destiny, dump_destiny) if game == "destiny" else (parse_swtcg, dump_swtcg)
    t = parse(card_table_example(game), game)
    assert parse(dump(t), "again") == t


@given(st.text(max_size=200))
@settings(suppress_health_check=[HealthCheck.too_slow])
def test_table_parsers_refuse_junk_with_a_domain_error(text: str) -> None:
    for parse in (parse_destiny, parse_swtcg):
        try:
            parse(text, "fuzz")
        except AssistantError:
            pass


DESTINY = parse_destiny((HERE / "golden_destiny" / "_heroes.yaml").read_text(), "heroes")
SWTCG = parse_swtcg(card_table_example("swtcg"), "swtcg")
VERB_WORDS = st.sampled_from(sorted(destiny.verbs()) + sorted(swtcg.VERBS))
ARG_WORDS = st.sampled_from(["han", "leia", "vader", "h1", "h2", "l1", "v1", "aat", "trooper", "luke", "xwing", "tie", "2", "0", "9",
                             "h1=ranged:2", "h2=+ranged:2", "v1=blank", "1,2", "4,5,6", "x=y", "kind=upgrade", "on=han"])


@given(st.lists(st.tuples(st.sampled_from(["A", "B", "DS", "LS", ""]), VERB_WORDS, st.lists(ARG_WORDS, max_size=3),
                          st.sampled_from(["", " -> han", " -> vader", " -> trooper", " -> B"])), min_size=1, max_size=12))
@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
def test_random_command_streams_never_crash_and_keep_the_invariants(stream: list[tuple[str, str, list[str], str]]) -> None:
    """Whatever is typed, the engines answer or refuse with a domain error; shields stay 0..3,
    damage within health, resources and hands never negative."""
    for game, table in (("destiny", DESTINY), ("swtcg", SWTCG)):
        eng = destiny if game == "destiny" else swtcg
        for actor, verb, args, tail in stream:
            text = " ".join(x for x in [actor, verb, *args] if x) + tail
            try:
                table = eng.apply(table, text).table
            except AssistantError:
                continue
        if game == "destiny":
            assert all(0 <= c.shields <= 3 and 0 <= c.damage <= max(c.health, 0) for c in table.cards if c.kind == "character")
            assert all(p.resources >= 0 and p.hand >= 0 and p.deck >= 0 for p in table.players)
        else:
            assert all(p.force >= 0 and p.hand >= 0 and p.deck >= 0 and p.bp >= 0 for p in table.players)


def test_unmodelled_keywords_are_reported_never_silently_ignored() -> None:
    t = parse_swtcg("""
format: swtcg-table/1
step: battle-ground
players: {DS: {}, LS: {}}
units:
  - {id: a, owner: DS, type: Ground - Imperial Walker, power: 2, health: 4, zone: ground, keywords: {bombard: 2}}
  - {id: b, owner: LS, type: Ground - Rebel Trooper, power: 2, health: 4, zone: ground}
""", "t")
    out = swtcg.apply(t, "DS attack a -> b")
    assert any("not modelled" in s and "Bombard 2" in s for s in out.said)
    assert any("not modelled" in s for s in swtcg.apply(t, "DS grant reserves 2 -> a").said)


def test_redeploy_overrides_the_discard_on_defeat() -> None:
    text = (HERE / "golden_destiny" / "_upgraded.yaml").read_text().replace(
        "{id: blaster, owner: A, title: DL-44 Heavy Blaster, cost: 2,", "{id: blaster, owner: A, title: DL-44 Heavy Blaster, cost: 2, keywords: [redeploy],")
    t = parse_destiny(text, "t")
    out = destiny.apply(t, "B defeat -> han")
    assert any("Redeploy" in s and "reading R25 in docs/readings.md" in s for s in out.said)
    t2 = destiny.apply(out.table, "A redeploy blaster -> leia").table
    assert "blaster" in [u.id for u in t2.upgrades_on("leia")] and [d.id for d in t2.dice_of("blaster")] == ["bl1"]
    assert "vest" not in [c.id for c in t2.cards]  # the others were discarded


def test_each_kind_of_game_has_its_own_current_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert cli("game", "new", "-p", "clone-wars-corridor")[0] == 0
    for game in ("destiny", "swtcg"):
        assert cli(game, "example", "-o", str(tmp_path / f"{game}.yaml"))[0] == 0
        code, out = cli(game, "new", str(tmp_path / f"{game}.yaml"))
        assert code == 0 and f"now the current {game} game" in out
    # a card game started after the miniatures game does not hide it, nor each other
    assert cli("game", "status")[0] == 0
    assert cli("destiny", "status")[0] == 0 and cli("swtcg", "status")[0] == 0
    code, out = cli("game", "list", "--json")
    listed = json.loads(out)
    assert code == 0 and sorted(g["kind"] for g in listed["games"] if g["current"]) == ["destiny", "miniatures", "swtcg"]
    # a card-game file handed to 'game' names the command that opens it; 'use' switches per kind
    dfile = listed["current"]["destiny"]
    code, out = cli("game", "status", "--game", dfile)
    assert code == 2 and "is a destiny game" in out and "python -m assistant destiny" in out
    assert cli("game", "use", dfile)[0] == 2
    assert cli("destiny", "use", dfile)[0] == 0
    # without $TABLETOP_HOME the games live in the user's data folder, $XDG_DATA_HOME honoured
    monkeypatch.delenv("TABLETOP_HOME")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    from assistant.game.store import games_home

    assert games_home() == tmp_path / "xdg" / "tabletop-assistant"


def test_a_pointer_from_before_kinds_is_honoured_for_its_own_kind(tmp_path: Path) -> None:
    assert cli("game", "new", "-p", "clone-wars-corridor")[0] == 0
    home = tmp_path / "home"
    (home / "current").write_text((home / "current-miniatures").read_text())
    (home / "current-miniatures").unlink()
    assert cli("game", "status")[0] == 0
    code, out = cli("destiny", "status")
    assert code == 2 and "no current destiny game" in out


@pytest.mark.parametrize("game, play, alone", [("swtcg", "DS build tie 1 LS pass", "DS build tie 1"), ("destiny", "B pass now please", "B pass")])
def test_words_a_verb_does_not_take_are_refused_not_dropped(tmp_path: Path, game: str, play: str, alone: str) -> None:
    """A user's trial: 'DS build tie 1 LS pass' (two plays on one line, or a newline inside one) was
    recorded as the build alone, and 'A pass now please' as a pass: the words a verb did not read
    were silently dropped, as an unknown option never is."""
    table = tmp_path / "t.yaml"
    table.write_text(card_table_example(game), encoding="utf-8")
    g = str(tmp_path / "g.sqlite")
    assert cli(game, "new", str(table), "--game", g)[0] == 0
    if game == "destiny":
        for setup in ("battlefield-roll A=5 B=3", "A choose-battlefield B", "A setup-shields han=1 leia=1", "start"):
            assert cli(game, "do", setup, "--game", g)[0] == 0, setup
    code, out = cli(game, "do", play, "--game", g)
    extra = play[len(alone) + 1:]
    assert code == 2 and f"does not take {extra!r}" in out and "one play a line" in out, out
    assert play not in cli(game, "log", "--game", g)[1]  # nothing recorded
    assert cli(game, "check", alone, "--game", g)[0] == 0  # the play alone is legal


@pytest.mark.parametrize("game, play", [("swtcg", "DS status"), ("destiny", "A log")])
def test_a_log_command_typed_as_a_play_is_named_as_the_command_it_is(tmp_path: Path, game: str, play: str) -> None:
    """A user's trial: 'swtcg do "DS status"' answered "unknown verb 'status'" and the table's 45 verbs."""
    table = tmp_path / "t.yaml"
    table.write_text(card_table_example(game), encoding="utf-8")
    g = str(tmp_path / "g.sqlite")
    assert cli(game, "new", str(table), "--game", g)[0] == 0
    code, out = cli(game, "do", play, "--game", g)
    verb = play.split()[1]
    assert code == 2 and f"is a command of its own, not a play: python -m assistant {game} {verb}" in out and "verbs:" not in out, out


@pytest.mark.parametrize("kind", ["destiny", "swtcg"])
def test_a_card_games_json_export_is_read_back_by_game_import(tmp_path: Path, kind: str) -> None:
    """A judge is sent a card game's JSON export: 'game import' writes the same game (R267), which
    replays to the same table; an edited export is refused naming its event, a miniatures-only
    message never blames an export nobody edited."""
    table = tmp_path / "t.yaml"
    assert cli(kind, "example", "-o", str(table))[0] == 0
    g = str(tmp_path / "g.sqlite")
    assert cli(kind, "new", str(table), "--game", g)[0] == 0
    plays = (["battlefield-roll A=5 B=3", "A choose-battlefield B", "A setup-shields han=1 leia=1", "start",
              "B activate vader v1=melee:2", "A activate han h1=ranged:2 h2=blank", "B resolve v1 -> han"] if kind == "destiny"
             else ["DS build tie 2", "DS deploy tie", "LS board luke -> xwing", "next"])
    for play in plays:
        assert cli(kind, "do", play, "--game", g)[0] == 0, play
    assert cli(kind, "note", "judge: looked at the table", "--game", g)[0] == 0
    assert cli(kind, "undo", "--game", g)[0] == 0
    exported = tmp_path / "g.json"
    assert cli(kind, "export", "--format", "json", "-o", str(exported), "--game", g)[0] == 0
    copy = tmp_path / "copy.sqlite"
    code, out = cli("game", "import", str(exported), "--game", str(copy))
    assert code == 0, out
    assert "imported" in out and str(len(plays) + 3) in out  # setup, the plays, the note and its undo
    for ask in (["status", "--json"], ["log", "--json"], ["replay", "--to", "3"], ["verify"]):
        original = cli(kind, *ask, "--game", g)
        again = cli(kind, *ask, "--game", str(copy))
        assert again == (original[0], original[1].replace(g, str(copy))), ask
    assert json.loads(cli(kind, "export", "--format", "json", "--game", str(copy))[1]) == json.loads(exported.read_text())
    # an edited export: a play changed
    data = json.loads(exported.read_text())
    data["events"][1]["data"]["command"] = "next"
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(data))
    code, out = cli("game", "import", str(edited), "--game", str(tmp_path / "no.sqlite"))
    assert code == 2 and "event #2" in out and "edited" in out and not (tmp_path / "no.sqlite").exists()
    # an export written before it carried each event's data cannot give the table back: said so
    for e in data["events"]:
        del e["data"], e["hash"]
    edited.write_text(json.dumps(data))
    code, out = cli("game", "import", str(edited), "--game", str(tmp_path / "no.sqlite"))
    assert code == 2 and "export the game again" in out and "edited after the export" not in out
    assert not (tmp_path / "no.sqlite").exists()


@pytest.mark.parametrize("kind", ["destiny", "swtcg"])
def test_a_card_game_file_not_there_says_how_to_start_that_game(tmp_path: Path, kind: str) -> None:
    """'swtcg status --game nothere.sqlite' named the miniatures' 'game new --position FILE'; it
    names the card game's own 'new TABLE', as with no current game (trial26)."""
    for args in (["status"], ["do", "DS pass" if kind == "swtcg" else "A pass"], ["log"], ["export"]):
        code, out = cli(kind, *args, "--game", str(tmp_path / "nothere.sqlite"))
        assert code == 2 and "nothere.sqlite" in out, args
        assert f"python -m assistant {kind} new TABLE" in out and "game new --position" not in out, (args, out)
    assert not (tmp_path / "nothere.sqlite").exists()


@pytest.mark.parametrize("kind", ["destiny", "swtcg", "game"])
def test_an_export_whose_rehashed_log_no_command_writes_is_refused_naming_it_once(tmp_path: Path, kind: str) -> None:
    """trial26 as a cheat: an undo of event #99 written into an export with its hashes made again is
    refused, naming the file once ("forged.json: forged.json: event #2 ..." said it twice)."""
    from assistant.game.store import genesis, link

    g = str(tmp_path / "g.sqlite")
    if kind == "game":
        assert cli("game", "new", "-p", "clone-wars-example-combat", "--game", g)[0] == 0
    else:
        table = tmp_path / "t.yaml"
        assert cli(kind, "example", "-o", str(table))[0] == 0 and cli(kind, "new", str(table), "--game", g)[0] == 0
    assert cli(kind, "note", "a note", "--game", g)[0] == 0
    exported = tmp_path / "e.json"
    assert cli(kind, "export", "--format", "json", "-o", str(exported), "--game", g)[0] == 0
    data = json.loads(exported.read_text())
    data["events"][1]["kind"], data["events"][1]["data"] = "undo", {"seq": 99}
    prev = genesis({k: data[k] for k in ("format", "rules", "created")})
    for e in data["events"]:
        prev = e["hash"] = link(prev, e["seq"], e["at"], e["kind"], e["data"], e.get("override"))
    data["chain"]["head"] = prev
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(data))
    code, out = cli("game", "import", str(forged), "--game", str(tmp_path / "no.sqlite"))
    assert code == 2 and "#99" in out and "nothing was written" in out, out
    assert " ".join(out.split()).count("forged.json") == 1, out
    assert not (tmp_path / "no.sqlite").exists()
