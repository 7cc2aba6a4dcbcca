"""One command layer under every edge: every registered verb is a command of the CLI, a verb of
the shell and an endpoint of the web app, and for the same question each edge answers the same
JSON (and the same refusal)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

warnings.filterwarnings("ignore", category=DeprecationWarning)
from typer.main import get_command  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from assistant.cards import default_library  # noqa: E402
from assistant.cli.app import app  # noqa: E402
from assistant.cli.live_cmd import complete, run_line  # noqa: E402
from assistant.commands import Session, load_all  # noqa: E402
from assistant.commands.registry import split_verb  # noqa: E402
from assistant.game import Game  # noqa: E402
from assistant.live.table import Table  # noqa: E402
from assistant.live.web import create_app  # noqa: E402
from assistant.resources import example_path  # noqa: E402

from .webclient import table_client  # noqa: E402

runner = CliRunner()

#: what a player or judge can say: the verbs the issue names, each registered once
EXPECTED = {"los", "cover", "range", "targets", "attack", "matrix", "nearest"} | {
    f"game {v}" for v in ("initiative", "activate", "end-turn", "move", "attack", "aoo", "power", "charge", "morale", "flee",
                          "end", "damage", "heal", "force", "condition", "door", "embark", "disembark", "place", "remove", "note",
                          "undo", "status", "log", "export")} | {
    f"{g} {v}" for g in ("destiny", "swtcg") for v in ("new", "do", "check", "status", "log", "undo", "export", "import")}


def new_game(tmp_path: Path) -> Path:
    path = tmp_path / "g.sqlite"
    Game.new(path, example_path("clone-wars-example-combat").read_text(encoding="utf-8"), default_library(), override="tests").close()
    return path


def test_every_verb_is_registered_once() -> None:
    assert EXPECTED <= set(load_all())


def test_the_cli_has_a_command_for_every_verb() -> None:
    root = get_command(app)
    for name in load_all():
        command = root
        for word in name.split():
            command = command.commands[word]  # type: ignore[attr-defined]
        assert command.callback is not None, name


def test_the_shell_reads_and_completes_every_verb() -> None:
    for name in load_all():
        words = name.split()
        found = split_verb(words)
        assert found is not None and found[0].name == name
        assert words[-1] in complete(words[:-1], words[-1][:1])


def test_the_web_app_answers_every_verb(tmp_path: Path) -> None:
    client = table_client(create_app(Table(game=new_game(tmp_path), library=default_library())))
    # the list offers the miniatures table's own verbs; the card games' are answered too, refused
    assert set(client.get("/api/verbs").json()["verbs"]) == {v for v in load_all() if v.split(" ")[0] not in ("destiny", "swtcg")}
    routes = {getattr(r, "path", "") for r in client.app.routes}  # type: ignore[attr-defined]
    assert "/api/do/{verb:path}" in routes
    for name in load_all():  # each is answered (a missing argument is a 400, never a 404 or a 500)
        r = client.post("/api/do/" + name.replace(" ", "/"), json={})
        assert r.status_code in (200, 400, 403, 409), (name, r.text)


@pytest.mark.parametrize("verb, words, body", [
    ("los", ["sbd", "obi"], {"viewer": "sbd", "target": "obi"}),
    ("cover", ["sbd", "obi"], {"attacker": "sbd", "target": "obi"}),
    ("attack", ["sbd", "obi"], {"attacker": "sbd", "target": "obi"}),
    ("targets", ["sbd"], {"attacker": "sbd"}),
    ("game status", [], {}),
    ("game log", [], {}),
])
def test_the_cli_the_shell_and_the_web_answer_the_same_json(tmp_path: Path, capsys: pytest.CaptureFixture[str], verb: str,
                                                             words: list[str], body: dict[str, object]) -> None:
    game = new_game(tmp_path)
    cli = runner.invoke(app, [*verb.split(), *words, "--game", str(game), "--json"])
    assert cli.exit_code == 0, cli.output
    capsys.readouterr()
    assert run_line(" ".join([verb, *words, "--json"]), game) == 0
    shell = json.loads(capsys.readouterr().out)
    web = table_client(create_app(Table(game=game, library=default_library()))).post("/api/do/" + verb.replace(" ", "/"), json=body)
    assert web.status_code == 200, web.text
    assert json.loads(cli.stdout) == shell == web.json()


def test_a_refusal_is_the_same_on_every_edge(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = new_game(tmp_path)
    cli = runner.invoke(app, ["game", "charge", "sbd", "obi", "--roll", "12", "--game", str(game), "--json"])
    assert cli.exit_code == 2
    capsys.readouterr()
    assert run_line("game charge sbd obi --roll 12 --json", game) == 2
    shell = json.loads(capsys.readouterr().out)
    web = table_client(create_app(Table(game=game, library=default_library()))).post("/api/do/game/charge", json={"figure": "sbd", "target": "obi", "roll": 12})
    assert web.status_code in (400, 409)
    assert json.loads(cli.stdout)["error"] == shell["error"]
    # the same reasons and rules on every edge; how a judge overrides is each edge's own: the command
    # line's --override, the page's "Override reason" field (R173)
    why = "; ".join(f"{r['text']} ({r['rule']})" for r in web.json()["reasons"])
    assert shell["error"].startswith(f"refused: {why}. ") and "--override" in shell["error"]
    assert web.json()["error"].startswith(f"Refused: {why}. ") and "--override" not in web.json()["error"]


def test_a_record_through_the_web_is_the_clis_record(tmp_path: Path) -> None:
    game = new_game(tmp_path)
    client = table_client(create_app(Table(game=game, library=default_library())))
    r = client.post("/api/do/game/note", json={"text": "judge: ok"})
    assert r.status_code == 200 and r.json()["query"] == "game" and r.json()["event"]["kind"] == "note"
    assert client.post("/api/do/game/note", json={"text": "x", "game": "/etc/passwd"}).status_code == 400
    assert client.post("/api/do/destiny/new", json={}).status_code == 403


def test_the_command_layer_imports_no_edge() -> None:
    import ast

    for path in Path("assistant/commands").glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        names |= {(n.module or "").split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and not n.level}
        assert not names & {"typer", "click", "fastapi", "starlette", "rich", "prompt_toolkit"}, path


def test_a_session_folds_a_game_once(tmp_path: Path) -> None:
    s = Session(cache=True)
    game = new_game(tmp_path)
    first = s.read_state(game)
    assert s.read_state(game) is first


def test_the_web_and_the_shell_refuse_what_the_command_line_parser_refuses(tmp_path: Path) -> None:
    """The CLI's parser refuses damage or healing below 1 and a d20 outside 1-20; the other edges
    reach the verb directly, so the verb refuses them itself, and nothing is recorded."""
    game = new_game(tmp_path)
    client = table_client(create_app(Table(game=game, library=default_library())))
    before = client.get("/api/events").json()
    for verb, body, said in (("game/damage", {"figure": "obi", "amount": 0}, "amount is at least 1, not 0"),
                             ("game/heal", {"figure": "obi", "amount": -3}, "amount is at least 1, not -3"),
                             ("game/attack", {"attacker": "sbd", "target": "obi", "roll": 21}, "a d20 shows 1 to 20, not 21")):
        r = client.post(f"/api/do/{verb}", json=body)
        assert r.status_code == 400 and r.json()["error"] == said, (verb, r.text)
    for args, said in (({"verb": "damage", "args": {"figure": "obi", "amount": 0}}, "amount is at least 1, not 0"),
                       ({"verb": "attack", "args": {"attacker": "sbd", "target": "obi", "roll": 21}}, "a d20 shows 1 to 20, not 21")):
        r = client.post("/api/act", json=args)  # the page's older door says the same
        assert r.status_code == 400 and r.json()["error"] == said, r.text
    assert client.get("/api/events").json() == before
    assert runner.invoke(app, ["game", "damage", "obi", "0", "--game", str(game)]).exit_code == 2


def test_a_request_nested_too_deeply_is_a_400_not_a_500(tmp_path: Path) -> None:
    client = table_client(create_app(Table(game=new_game(tmp_path), library=default_library())), raise_server_exceptions=False)
    r = client.post("/api/do/game/note", content=b'{"text": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
                    headers={"content-type": "application/json"})
    assert r.status_code == 400 and "nested too deeply" in r.json()["error"]


FIXTURES = Path(__file__).parent / "fixtures"


def test_a_card_games_import_is_one_verb_the_cli_and_the_shell_answer_alike(capsys: pytest.CaptureFixture[str]) -> None:
    """``destiny import`` / ``swtcg import`` are verbs of the command layer (they were the CLI's own
    until round 30): the shell answers them as the command line does, an SW TCG entry's zone is
    the hand by its importer's record when none is given, and another game's option is refused
    on both edges (R317)."""
    sample = FIXTURES / "lackey-swtcg-sample.txt"
    cli = runner.invoke(app, ["swtcg", "import", str(sample), "--entry", "Test Walker Group", "--id", "walker", "--json"])
    assert cli.exit_code == 0, cli.output
    capsys.readouterr()
    assert run_line(f"swtcg import {sample} --entry 'Test Walker Group' --id walker --json", None) == 0
    shell = json.loads(capsys.readouterr().out)
    assert json.loads(cli.stdout) == shell
    assert shell["entry"]["zone"] == "hand" and shell["entry"]["id"] == "walker"
    assert run_line(f"swtcg import {sample} --elite --json", None) == 2
    assert "--elite is not an option of" in json.loads(capsys.readouterr().out)["error"]
    assert split_verb(["swtcg", "import"]) is not None  # the shell reads it as a verb, not through the command-line parser
    destiny = FIXTURES / "swdestinydb-sample.json"
    assert run_line(f"destiny import {destiny} --entry 'Test Smuggler' --dice 0 --json", None) == 2  # the parser's min=1, on the shell too
    assert "at least 1 die" in json.loads(capsys.readouterr().out)["error"]
