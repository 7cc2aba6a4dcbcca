"""The live table's web API (FastAPI's test client), its guard, the SVG board, and the shell."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

warnings.filterwarnings("ignore", category=DeprecationWarning)
from fastapi.testclient import TestClient  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from assistant.cards import default_library  # noqa: E402
from assistant.cli.app import app  # noqa: E402
from assistant.game import Game  # noqa: E402
from assistant.live.table import Table  # noqa: E402
from assistant.live.web import create_app  # noqa: E402
from assistant.position import load_position  # noqa: E402
from assistant.resources import example_path  # noqa: E402

from .webclient import table_client  # noqa: E402

runner = CliRunner()


def new_game(tmp_path: Path, example: str = "clone-wars-example-combat") -> Path:
    path = tmp_path / "g.sqlite"
    Game.new(path, example_path(example).read_text(encoding="utf-8"), default_library(), override="tests").close()
    return path


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return table_client(create_app(Table(game=new_game(tmp_path), library=default_library())))


def test_the_page_and_the_board_render(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and 'data-figure="obi"' in page.text and "viewport" in page.text
    svg = client.get("/api/board.svg?selected=sbd")
    assert svg.headers["content-type"].startswith("image/svg+xml")
    assert svg.text.startswith("<svg") and 'stroke="#ffcc00"' in svg.text  # the selected figure's ring


def test_answers_match_the_engine(client: TestClient, tmp_path: Path) -> None:
    from assistant.rules import engine
    from assistant.rules.attack import attack

    pos = load_position(example_path("clone-wars-example-combat"))
    assert client.get("/api/los?viewer=sbd&target=obi").json() == json.loads(json.dumps(engine.sight(pos, "sbd", "obi").as_json()))
    got = client.get("/api/attack?attacker=sbd&target=obi").json()
    want = json.loads(json.dumps({**attack(pos, "sbd", "obi").as_json(), "refused_this_turn": []}))
    assert got == want and got["query"] == "attack" and "needs" in got
    t = client.get("/api/targets?figure=sbd").json()
    assert {r["target"] for r in t["targets"]} == {"obi", "clone"}
    assert client.get("/api/matrix").json()["query"] == "matrix"
    assert client.get("/api/range?a=sbd&b=obi").json()["query"] == "range"
    assert client.get("/api/cover?attacker=sbd&target=obi").json()["query"] == "cover"


def test_a_turn_is_recorded_in_the_same_log_as_the_cli(client: TestClient, tmp_path: Path) -> None:
    r = client.post("/api/act", json={"verb": "initiative", "args": {"rolls": {"light": 5, "dark": 15}}})
    assert r.status_code == 200, r.text
    assert client.get("/api/status").json()["next"] == "dark"
    assert client.post("/api/act", json={"verb": "activate", "args": {"figure": "sbd"}}).status_code == 200
    moved = client.post("/api/act", json={"verb": "move", "args": {"figure": "sbd", "to": "C7"}})
    assert moved.status_code == 200, moved.text
    # the CLI reads the same game
    r = runner.invoke(app, ["game", "status", "--game", str(tmp_path / "g.sqlite"), "--json"])
    st = json.loads(r.stdout)
    assert st["active"] == "sbd" and next(f for f in st["figures"] if f["id"] == "sbd")["at"] == "C7"
    assert client.post("/api/act", json={"verb": "undo", "args": {}}).status_code == 200  # back to B7, which sees Obi-Wan
    att = client.post("/api/act", json={"verb": "attack", "args": {"attacker": "sbd", "target": "obi", "roll": 20}})
    assert att.status_code == 200, att.text
    texts = [e["text"] for e in client.get("/api/events").json()["events"]]
    assert "undo" in texts[-2] and "obi" in texts[-1]


def test_refusals_say_why_with_the_rule_and_change_nothing(client: TestClient) -> None:
    before = client.get("/api/version").json()["version"]
    r = client.post("/api/act", json={"verb": "activate", "args": {"figure": "sbd"}})
    assert r.status_code == 409 and r.json()["refused"] and r.json()["reasons"][0]["rule"]
    assert client.get("/api/version").json()["version"] == before
    for body in (b"not json", b"[1, 2]", b'{"verb": 3}', b'{"verb": "fly", "args": {}}', b'{"verb": "move", "args": []}'):
        r = client.post("/api/act", content=body, headers={"content-type": "application/json"})
        assert r.status_code == 400 and "error" in r.json()
    assert client.get("/api/los?viewer=nobody&target=obi").status_code == 400
    r = client.post("/api/act", json={"verb": "attack", "args": {"attacker": "sbd", "target": "obi", "roll": "x"}})
    assert r.status_code == 400 and "whole number" in r.json()["error"]
    assert client.get("/api/version").json()["version"] == before


def test_lan_mode_needs_the_token_and_spectators_only_read(tmp_path: Path) -> None:
    table = Table(game=new_game(tmp_path), library=default_library())
    anon = table_client(create_app(table, token="s3cret", spectator="watch"))
    assert anon.get("/api/status").status_code == 403
    assert anon.post("/api/act", json={"verb": "note", "args": {"text": "x"}}).status_code == 403
    assert anon.get("/").status_code == 403
    player = table_client(create_app(table, token="s3cret", spectator="watch"))
    first = player.get("/?t=s3cret")
    assert first.status_code == 200
    cookie = first.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie
    assert player.post("/api/act", json={"verb": "note", "args": {"text": "judge: ok"}}).status_code == 200
    watcher = table_client(create_app(table, token="s3cret", spectator="watch"))
    assert watcher.get("/api/status?t=watch").status_code == 200
    assert watcher.post("/api/act", json={"verb": "note", "args": {"text": "x"}}).status_code == 403


def test_a_bare_position_answers_but_records_nothing(tmp_path: Path) -> None:
    c = table_client(create_app(Table(position=load_position(example_path("clone-wars-example-combat")), library=default_library())))
    assert c.get("/api/los?viewer=sbd&target=obi").status_code == 200
    r = c.post("/api/act", json={"verb": "note", "args": {"text": "x"}})
    assert r.status_code == 403 and "game new" in r.json()["error"]


def test_a_photo_upload_is_read_and_applied(client: TestClient, tmp_path: Path) -> None:
    import cv2

    from assistant.photo.synth import render_photo

    pos = load_position(example_path("clone-wars-example-combat"))
    img, truth = render_photo(pos, seed=1, width=1600, height=1200)
    ok, buf = cv2.imencode(".jpg", img)
    r = client.post("/api/photo", files={"photo": ("t.jpg", buf.tobytes(), "image/jpeg")})
    assert r.status_code == 200, r.text
    ans = r.json()
    assert ans["grid_found"] and {row["verdict"] for row in ans["rows"]} <= {"agree", "moved", "missing", "extra"}
    bad = client.post("/api/photo", files={"photo": ("t.jpg", b"not an image", "image/jpeg")})
    assert bad.status_code == 400 and "not an image" in bad.json()["error"]
    applied = client.post("/api/photo/apply", json={"moves": [{"figure": "clone", "at": "N2"}], "source": "photo t.jpg"})
    assert applied.status_code == 200, applied.text
    assert next(f for f in client.get("/api/status").json()["figures"] if f["id"] == "clone")["at"] == "N2"


def test_the_openapi_page_lists_the_api(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/los", "/api/cover", "/api/range", "/api/matrix", "/api/attack", "/api/targets", "/api/photo", "/api/status",
            "/api/events"} <= set(paths)


def test_the_shell_runs_commands_in_process(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from assistant.cli.live_cmd import run_line

    game = new_game(tmp_path)
    assert run_line("los sbd obi --json", game) == 0
    assert json.loads(capsys.readouterr().out)["query"] == "los"
    assert run_line("game status --json", game) == 0
    assert run_line('los "unclosed', game) == 2
    assert run_line("no-such-command", game) == 2


def test_the_shell_keeps_the_verified_log_between_lines_and_still_finds_an_edit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """Each line opens the game file anew: the shell keeps its verified log, so a write and the
    reads after it verify the hash chain once, not at every line; an edit by another program is
    still named on the next line."""
    import sqlite3

    import assistant.game.store as store_module
    from assistant.cli.live_cmd import run_line
    from assistant.game.store import GameStore

    # the bound on kept logs (MAX_WATCHES) counts every file this process keeps; tests before this
    # one may keep eight (live tables not yet collected), and past the bound a store reads on its own
    monkeypatch.setattr(store_module, "_WATCHES", {})
    game = new_game(tmp_path)
    verified: list[int] = []
    real = GameStore._verify
    monkeypatch.setattr(GameStore, "_verify", lambda self, con: verified.append(1) or real(self, con))
    assert run_line("game status --json", game) == 0
    first = len(verified)
    assert first >= 1
    for line in ("game note one", "game status --json", "los sbd obi --json", "game note two", "game status --json"):
        assert run_line(line, game) == 0, line
    assert len(verified) == first  # the shell's own writes are known to its kept log: no chain read again
    con = sqlite3.connect(game)
    con.execute("UPDATE events SET data = replace(data, 'one', 'One') WHERE kind = 'note'")
    con.commit()
    con.close()
    capsys.readouterr()
    assert run_line("game status --json", game) == 2
    assert "event #2 (note) was changed after it was recorded" in json.loads(capsys.readouterr().out)["error"]


def test_a_shell_started_in_polish_answers_every_line_in_polish(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from assistant import i18n
    from assistant.cli.live_cmd import run_line

    game = new_game(tmp_path)
    try:
        i18n.set_language("pl")  # as `--lang pl shell` leaves it
        for _round in range(2):  # the first line's root callback must not reset the second's language
            assert run_line("los sbd obi", game) == 0
            assert "linia wzroku" in capsys.readouterr().out.lower()
    finally:
        i18n.set_language("en")


def test_svg_option_draws_with_the_web_renderer(tmp_path: Path) -> None:
    out = tmp_path / "los.svg"
    r = runner.invoke(app, ["los", "sbd", "obi", "-p", "clone-wars-example-combat", "--svg", str(out)])
    assert r.exit_code == 0, r.output
    text = out.read_text()
    assert text.startswith("<svg") and 'class="witness"' in text


_json = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12),
                     lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4), max_leaves=12)
_verbs = st.sampled_from(["activate", "move", "attack", "end-turn", "initiative", "damage", "note", "undo", "fly", ""])


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(verb=_verbs | st.text(max_size=6), args=st.dictionaries(st.sampled_from(["figure", "to", "attacker", "target", "roll", "amount",
                                                                               "text", "seq", "rolls", "auto", "first"]), _json, max_size=4),
       override=st.none() | st.text(max_size=20) | st.integers())
def test_any_command_body_is_answered_never_a_crash(client: TestClient, verb: str, args: dict, override: object) -> None:
    r = client.post("/api/act", json={"verb": verb, "args": args, "override": override})
    assert r.status_code in (200, 400, 403, 409), r.text
    body = r.json()
    assert ("event" in body) if r.status_code == 200 else ("error" in body)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(["/api/los?viewer={}&target={}", "/api/cover?attacker={}&target={}", "/api/attack?attacker={}&target={}",
                             "/api/range?a={}&b={}", "/api/board.svg?selected={}&target={}", "/api/targets?figure={}{}"]),
       a=st.sampled_from(["sbd", "obi", "", "nobody", "%00", "A1", "x" * 300]), b=st.sampled_from(["obi", "sbd", "", "clone", "\u202e"]))
def test_any_question_is_answered_never_a_crash(client: TestClient, path: str, a: str, b: str) -> None:
    r = client.get(path.format(a, b))
    assert r.status_code in (200, 400, 422), r.text
    if r.status_code != 200:
        assert "error" in r.json() or "detail" in r.json()


def test_a_card_game_table_checks_and_records_plays(tmp_path: Path) -> None:
    from assistant.cardgame.log import CardGameLog
    from assistant.cardgames import find_card_game
    from assistant.live.table import CardTable
    from assistant.resources import card_table_example

    path = tmp_path / "d.sqlite"
    CardGameLog.new(path, find_card_game("destiny"), card_table_example("destiny")).close()
    c = table_client(create_app(CardTable(path)))
    page = c.get("/")
    assert page.status_code == 200 and "May I?" in page.text
    assert c.get("/api/status").json()["lines"][0].startswith("round 1")
    no = c.post("/api/check", json={"command": "A pass"}).json()
    assert no["legal"] is False and "setup phase" in no["said"][0] and "P5" in no["said"][0]  # the refusal's rule shown
    refused = c.post("/api/do", json={"command": "A pass"})
    assert refused.status_code == 409 and "refused" in refused.json()["error"]
    done = c.post("/api/do", json={"command": "A pass", "override": "judge: testing"})
    assert done.status_code == 200 and done.json()["override"] == "judge: testing"
    assert c.get("/api/events").json()["events"][-1]["override"] == "judge: testing"
    assert c.post("/api/undo", json={}).status_code == 200
    assert c.get("/api/los?viewer=a&target=b").status_code == 404  # no grid questions for a card table
    for bad in ({}, {"command": ""}, {"command": 3}):
        assert c.post("/api/do", json=bad).status_code == 400
    # the CLI's serve picks the right table for the file
    from assistant.cli.live_cmd import _is_card_game

    assert _is_card_game(path)


def test_a_bounded_load_on_loopback_loses_and_duplicates_nothing(tmp_path: Path) -> None:
    """8 clients x 500 mixed requests against a real server: no error, every note once."""
    import socket
    import threading
    import time

    import httpx
    import uvicorn

    path = new_game(tmp_path)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app_ = create_app(Table(game=path, library=default_library()))
    srv = uvicorn.Server(uvicorn.Config(app_, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=srv.run, daemon=True).start()
    while not srv.started:
        time.sleep(0.02)
    errors: list[str] = []
    sent: list[str] = []
    lock = threading.Lock()

    def client(k: int) -> None:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60, headers={"x-write-token": app_.state.write_token}) as h:
            for i in range(500):
                if i % 25 == 0:
                    text = f"load {k}-{i}"
                    r = h.post("/api/act", json={"verb": "note", "args": {"text": text}})
                    with lock:
                        sent.append(text)
                else:
                    r = h.get(("/api/version", "/api/status", "/api/los?viewer=sbd&target=obi", "/api/targets?figure=sbd")[i % 4])
                if r.status_code != 200:
                    with lock:
                        errors.append(f"{r.status_code} {r.text[:100]}")

    threads = [threading.Thread(target=client, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    srv.should_exit = True
    assert errors == []
    logged = [e["text"] for e in Table(game=path, library=default_library()).events() if e["kind"] == "note"]
    assert sorted(t.split("note: ", 1)[-1] for t in logged) == sorted(sent) or len(logged) == len(sent) == len(set(logged))


def test_each_phone_reads_the_table_in_its_browser_language(client: TestClient, tmp_path: Path) -> None:
    """Pages and answers follow Accept-Language; the game log's texts too; JSON keys do not change."""
    pl = client.get("/", headers={"accept-language": "pl-PL,pl;q=0.9,en;q=0.5"})
    assert pl.status_code == 200 and '<html lang="pl">' in pl.text and "Dziennik gry" in pl.text and "Atakuj" in pl.text
    assert "Rzut na inicjatywę" in pl.text and "&#34;legal&#34;: &#34;dozwolony&#34;" in pl.text  # the script's texts
    cs = client.get("/api/cover?attacker=sbd&target=obi", headers={"accept-language": "cs"}).json()
    en = client.get("/api/cover?attacker=sbd&target=obi").json()
    assert cs.keys() == en.keys() and cs["sources"] == en["sources"] and "krytí" in cs["reasons"][0]["text"]
    assert en["reasons"][0]["text"].startswith("from ")
    assert client.post("/api/act", json={"verb": "initiative", "args": {"rolls": {"light": 7, "dark": 15}}}).status_code == 200
    log_pl = client.get("/api/events", headers={"accept-language": "pl"}).json()["events"]
    log_en = client.get("/api/events").json()["events"]
    assert "inicjatywa" in log_pl[-1]["text"] and "initiative" in log_en[-1]["text"]  # one fold per language, never mixed


def test_a_table_that_chose_its_language_serves_it_to_every_phone(tmp_path: Path) -> None:
    c = table_client(create_app(Table(game=new_game(tmp_path), library=default_library()), language="cs"))
    page = c.get("/", headers={"accept-language": "pl"})
    assert '<html lang="cs">' in page.text and "Záznam hry" in page.text


def test_a_move_is_previewed_before_it_is_recorded(client: TestClient) -> None:
    """The phone shows the path and its cost first (GET /api/move); nothing is recorded until the move verb."""
    before = client.get("/api/events").json()["events"]
    plan = client.get("/api/move?figure=sbd&to=C7").json()
    assert plan["path"] == ["B7", "C7"] and plan["cost"] == 1  # one square east (sbd stands on B7)
    assert client.get("/api/events").json()["events"] == before
    far = client.get("/api/move?figure=sbd&to=Z99")  # the record's own refusal, before the move is tried
    assert far.status_code == 400 and far.json()["error"] == "Z99 is off the map"
    wall = client.get("/api/move?figure=sbd&to=F5")
    assert wall.status_code == 400 and "is a wall square" in wall.json()["error"] and "swm2008 PL p.6" in wall.json()["error"]
    assert client.get("/api/move?figure=nobody&to=C7").status_code == 400


def test_the_verbs_list_says_each_verbs_arguments(client: TestClient) -> None:
    """GET /api/verbs: every verb with the arguments a request gives (the page builds its forms from them)."""
    out = client.get("/api/verbs").json()
    assert sorted(out["detail"]) == out["verbs"]
    move = out["detail"]["game move"]
    assert move["writes"] and not move["local"]
    assert [p["name"] for p in move["params"]] == ["figure", "to", "burrow", "tow", "surprise", "override"]  # no 'game': the table's own
    assert {p["name"]: p["optional"] for p in move["params"]}["figure"] is False
    assert out["detail"]["cards import"]["local"] and out["detail"]["los"]["writes"] is False


# a photo being read never blocks the server, and a broken or slow analysis is a JSON answer:
# tests/test_live_workers.py (the analysis runs in a worker process)


def _jpeg(img: object) -> bytes:
    import cv2

    ok, buf = cv2.imencode(".jpg", img)
    assert ok
    return buf.tobytes()


def test_the_empty_map_sent_from_a_phone_becomes_the_games_reference(client: TestClient, tmp_path: Path) -> None:
    """A photo of the map with no figures is kept as the game's reference; the status says so,
    and a later photo of the table is compared with it (the answer says which mode answered)."""
    from dataclasses import replace

    from assistant.photo.reference import load_reference, reference_path
    from assistant.photo.synth import render_photo

    pos = load_position(example_path("clone-wars-example-combat"))
    game = tmp_path / "g.sqlite"
    before = client.get("/api/status").json()
    assert before["reference"] is None
    events = len(client.get("/api/events").json()["events"])
    # before a reference: the learned classifier answers, and the answer says so
    img, _truth = render_photo(pos, seed=1, width=1600, height=1200)
    plain = client.post("/api/photo", files={"photo": ("t.jpg", _jpeg(img), "image/jpeg")}).json()
    assert plain["mode"] == "classifier" and plain["reference"] is None

    empty, _t = render_photo(replace(pos, figures=()), seed=1, width=1600, height=1200)
    r = client.post("/api/photo/reference", files={"photo": ("empty map.jpg", _jpeg(empty), "image/jpeg")})
    assert r.status_code == 200, r.text
    ans = r.json()
    assert ans["stored"] and (ans["cols"], ans["rows"]) == (pos.map.cols, pos.map.rows) and ans["name"] == "empty map.jpg"
    kept = load_reference(reference_path(game))  # the same file 'photo reference' writes, next to the game's
    assert kept.name == "empty map.jpg" and kept.taken == ans["taken"]
    st = client.get("/api/status").json()["reference"]
    assert st["name"] == "empty map.jpg" and st["taken"] == ans["taken"] and "error" not in st

    after = client.post("/api/photo", files={"photo": ("t.jpg", _jpeg(img), "image/jpeg")})
    assert after.status_code == 200, after.text
    got = after.json()
    assert got["mode"] == "reference" and got["reference"]["taken"] == ans["taken"]
    assert "compared with the empty-map reference photo empty map.jpg" in got["notes"][0]
    assert len(client.get("/api/events").json()["events"]) == events  # the log is unchanged

    # figures (with marker stickers) on the "empty" map: kept as sent, but the answer warns
    marked = replace(pos, figures=tuple(replace(f, marker=10 + i) for i, f in enumerate(pos.figures)))
    busy, _t = render_photo(marked, seed=2, width=1600, height=1200)
    warned = client.post("/api/photo/reference", files={"photo": ("busy.jpg", _jpeg(busy), "image/jpeg")}).json()
    assert warned["stored"] and any("figure markers: a reference is of the EMPTY map" in n for n in warned["notes"]), warned
    assert ans["notes"] == []  # the empty map gave no such warning


def test_a_bad_reference_upload_is_refused_and_keeps_the_one_before(client: TestClient, tmp_path: Path) -> None:
    import numpy as np

    from assistant.photo.reference import reference_path

    game = tmp_path / "g.sqlite"
    kept = reference_path(game)
    kept.write_bytes(b"the reference before")
    for files, status in ((None, 415), ({"other": ("x.jpg", b"\xff\xd8", "image/jpeg")}, 400),
                          ({"photo": ("x.jpg", b"not an image", "image/jpeg")}, 400), ({"photo": ("x.jpg", b"", "image/jpeg")}, 400),
                          # an image of no map: no grid is found in it, nothing is kept
                          ({"photo": ("grey.jpg", _jpeg(np.full((600, 800, 3), 128, np.uint8)), "image/jpeg")}, 422)):
        r = client.post("/api/photo/reference", files=files) if files else client.post("/api/photo/reference", json={})
        assert r.status_code == status, (files and list(files), r.status_code, r.text)
        assert r.json()["error"]
        assert kept.read_bytes() == b"the reference before"
    # the damaged file is named in the status, with why (a photo would be refused with it)
    st = client.get("/api/status").json()["reference"]
    assert st["file"] == kept.name and "not a usable map reference" in st["error"]


def test_a_photo_with_no_grid_is_refused_as_a_reference_photo_is(client: TestClient) -> None:
    """A trial's judge at the phone: ``/api/photo`` answered a photo with no grid in it 200 with an
    ``error``, while ``/api/photo/reference`` answered the same photo 422 and ``photo detect`` exits
    2 (a refusal). Both endpoints now refuse it with 422, the same JSON (reading R311)."""
    import numpy as np

    grey = _jpeg(np.full((600, 800, 3), 128, np.uint8))  # an image of no map
    before = client.get("/api/status").json()["version"]
    got = {path: client.post(path, files={"photo": ("grey.jpg", grey, "image/jpeg")}) for path in ("/api/photo", "/api/photo/reference")}
    assert {path: r.status_code for path, r in got.items()} == {"/api/photo": 422, "/api/photo/reference": 422}, {p: r.text for p, r in got.items()}
    answer = got["/api/photo"].json()
    assert answer["query"] == "photo" and answer["grid_found"] is False and "grey.jpg" in answer["error"] and "no grid" in answer["error"]
    assert answer["mode"] == "classifier" and answer["reference"] is None  # the page still says which mode read it
    assert client.get("/api/status").json()["version"] == before  # nothing recorded


def test_a_reference_needs_a_game_and_a_players_link(tmp_path: Path) -> None:
    import numpy as np

    pos = load_position(example_path("clone-wars-example-combat"))
    bare = table_client(create_app(Table(position=pos, library=default_library())))
    photo = {"photo": ("x.jpg", _jpeg(np.zeros((60, 80, 3), np.uint8)), "image/jpeg")}
    r = bare.post("/api/photo/reference", files=photo)
    assert r.status_code == 403 and "position file" in r.json()["error"]
    assert bare.get("/api/status").json()["reference"] is None
    watch = table_client(create_app(Table(game=new_game(tmp_path), library=default_library()), token="p", spectator="s"))
    r = watch.post("/api/photo/reference?t=s", files=photo)
    assert r.status_code == 403 and "read-only" in r.json()["error"]


def test_an_unknown_verb_lists_the_tables_own_verbs_not_every_games(tmp_path: Path, client: TestClient) -> None:
    """A user's trial: 'POST /api/do/nope/nope' at a miniatures table listed every verb the program
    has, the Destiny and SW TCG ones among them, which the table then refuses; the card tables listed
    the miniatures' verbs the same way."""
    from assistant.cardgame.log import CardGameLog
    from assistant.cardgames import find_card_game
    from assistant.live.table import CardTable
    from assistant.resources import card_table_example

    r = client.post("/api/do/nope/nope", json={})
    assert r.status_code == 400, r.text
    said = r.json()["error"]
    assert "unknown command 'nope nope'" in said and "game move" in said and "destiny" not in said and "swtcg" not in said
    path = tmp_path / "s.sqlite"
    CardGameLog.new(path, find_card_game("swtcg"), card_table_example("swtcg")).close()
    r = table_client(create_app(CardTable(path))).post("/api/do/nope", json={})
    assert r.status_code == 400, r.text
    said = r.json()["error"]
    assert "swtcg do" in said and "game move" not in said and "destiny" not in said and "cards " not in said


@pytest.mark.parametrize("game, example, not_there", [("swtcg", "<code>DS pass</code>", "<code>A pass</code>"), ("destiny", "<code>B pass</code>", "<code>DS")])
def test_a_card_tables_page_shows_a_play_in_its_own_players_names(tmp_path: Path, game: str, example: str, not_there: str) -> None:
    """A user's trial at 390 x 844: the SW TCG page said "Play (the game's notation, e.g. A pass)",
    though its players are DS and LS ('A pass' is refused there: 'A' is not a player)."""
    from assistant.cardgame.log import CardGameLog
    from assistant.cardgames import find_card_game
    from assistant.live.table import CardTable
    from assistant.resources import card_table_example

    path = tmp_path / "c.sqlite"
    CardGameLog.new(path, find_card_game(game), card_table_example(game)).close()
    page = table_client(create_app(CardTable(path))).get("/").text
    assert example in page and not_there not in page


@pytest.mark.parametrize("game, title, now", [("destiny", "Star Wars: Destiny", "round 1, setup phase"), ("swtcg", "Star Wars TCG", "turn 1, step build")])
def test_a_card_tables_heading_names_the_game_and_the_round(tmp_path: Path, game: str, title: str, now: str) -> None:
    """A user's trial (round 17): the Destiny page's heading said just "destiny", the log's word
    for the game, and nothing of the round or the phase; the page's title said "destiny table"."""
    import re

    from assistant.cardgame.log import CardGameLog
    from assistant.cardgames import find_card_game
    from assistant.live.table import CardTable
    from assistant.resources import card_table_example

    path = tmp_path / "c.sqlite"
    CardGameLog.new(path, find_card_game(game), card_table_example(game)).close()
    client = table_client(create_app(CardTable(path)))
    page = client.get("/").text
    heading = re.search(r'<header id="status"[^>]*>(.*?)</header>', page, re.S)
    assert heading is not None and title in heading[1] and now in heading[1]
    assert f"<title>{title} table" in page
    assert client.get("/api/status").json()["title"] == title


def test_the_attack_answer_says_when_the_acting_figures_turn_refuses_it(client: TestClient) -> None:
    """A user's trial (round 18): after a double move the phone's verdict said "legal — needs 11+"
    and the Attack button was then refused; the answer now carries the turn's refusal."""
    for verb, args in (("initiative", {"rolls": {"light": 5, "dark": 15}}), ("activate", {"figure": "sbd"}), ("move", {"figure": "sbd", "to": "I7"})):
        assert client.post("/api/act", json={"verb": verb, "args": args}).status_code == 200
    got = client.get("/api/attack?attacker=sbd&target=obi").json()
    assert got["legal"] and "a double move leaves no attack" in got["refused_this_turn"][0]["text"]
    assert client.get("/api/attack?attacker=obi&target=sbd").json()["refused_this_turn"] == []
    rows = client.get("/api/targets?figure=sbd").json()["targets"]
    assert rows and all("double move" in r["refused_this_turn"][0]["text"] for r in rows if r["legal"]), rows
    board = client.get("/api/board.svg?selected=sbd").text  # the board's target lines say it too, red
    assert "not this turn" in board and "15+" not in board


# ---------------------------------------------------------------- round 20: the page's words, not the command line's


def _game_client(tmp_path: Path, text: str) -> TestClient:
    path = tmp_path / "words.sqlite"
    Game.new(path, text, default_library(), override="tests").close()
    return table_client(create_app(Table(game=path, library=default_library())))


def test_a_refusal_tells_a_phone_its_override_field_not_the_command_lines_flag(tmp_path: Path) -> None:
    """R173: a miniatures refusal's "error" ended "A judge may record it anyway with --override
    "reason"", a flag no phone has: it names the page's "Override reason" field, in the
    reader's language, and the reasons and rules stay as they were."""
    from .test_game_turns import SWM

    c = _game_client(tmp_path, SWM.format(rules="swm2008"))
    for lang, field in (("en", "Override reason"), ("pl", "Uzasadnienie decyzji sędziego"), ("cs", "Důvod rozhodnutí rozhodčího")):
        r = c.post("/api/do/game/attack", json={"attacker": "hero", "target": "droid", "roll": 5}, headers={"accept-language": lang})
        body = r.json()
        assert r.status_code == 409 and body["refused"] is True, r.text
        assert "--override" not in body["error"] and field in body["error"] and field in body["hint"], body
        assert body["reasons"] and all(x["rule"] in body["error"] for x in body["reasons"])


def test_the_400s_that_named_command_line_flags_say_the_pages_words(tmp_path: Path) -> None:
    """R173: a power made of attacks told a phone to type "game attack hero TARGET --roll N
    --override ...", and a Large figure's move "record them with --override": the page's words
    (its verbs' labels, its override field), and the command line keeps its own (test_game_turns)."""
    from .test_game_turns import SWM

    sweep = SWM.format(rules="swm2008").replace(
        "{id: hero, side: light, at: B2, stats: {hp: 60, defense: 16, attack: 10, damage: 20, speed: 6, abilities: [Double Attack]}}",
        "{id: hero, side: light, at: C2, stats: {hp: 60, defense: 16, attack: 10, damage: 20, speed: 6, force: 2, abilities: [Lightsaber Sweep]}}")
    sweep = sweep.replace("- {id: flyer, side: light, at: A5,", "- {id: walker, side: light, size: large, at: A5,")
    c = _game_client(tmp_path, sweep)
    assert c.post("/api/do/game/initiative", json={"roll": ["light=15", "dark=3"]}).status_code == 200
    assert c.post("/api/do/game/activate", json={"figure": "hero"}).status_code == 200
    r = c.post("/api/do/game/power", json={"figure": "hero", "target": "droid", "power": "Lightsaber Sweep"})
    assert r.status_code == 400 and "made of attacks" in r.json()["error"], r.text
    assert "--" not in r.json()["error"] and "record an attack" in r.json()["error"]
    pl = c.post("/api/do/game/power", json={"figure": "hero", "target": "droid", "power": "Lightsaber Sweep"}, headers={"accept-language": "pl"})
    assert "zapisz atak" in pl.json()["error"] and "--" not in pl.json()["error"]
    r = c.get("/api/move?figure=walker&to=A7")
    assert r.status_code == 400 and "Large" in r.json()["error"] and "--override" not in r.json()["error"], r.text


def test_a_record_lacking_a_number_says_the_pages_form_not_cards_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """R173: ``game attack`` at a target whose card gives no Defense answered the command line's
    "keep it for the card with: cards set ..."; the page's words name its form ("keep for
    CARD"), ``in_game`` says the number must be kept for a record, and ``cli`` keeps the command
    line's words (the form's title)."""
    from .unknowncard import write_unknown_card

    home = tmp_path / "home"
    monkeypatch.setenv("TABLETOP_HOME", str(home))
    write_unknown_card(home)
    text = ("format: tabletop-position/1\nrules: swm2008\nmap: {cols: 8, rows: 8}\nfigures:\n"
            "  - {id: arc, card: Unprinted Trooper, side: light, at: B2}\n  - {id: sbd, card: Security Battle Droid, side: dark, at: F6}\n")
    c = _game_client(tmp_path, text)
    assert c.post("/api/do/game/initiative", json={"roll": ["light=3", "dark=15"]}).status_code == 200
    assert c.post("/api/do/game/activate", json={"figure": "sbd"}).status_code == 200
    r = c.post("/api/do/game/attack", json={"attacker": "sbd", "target": "arc", "roll": 15})
    body = r.json()
    assert r.status_code == 400 and body["in_game"] is True and body["missing"][0]["card"] == "Unprinted Trooper", r.text
    assert "cards set" not in body["error"] and "keep for Unprinted Trooper" in body["error"], body["error"]
    assert "cards set" in body["cli"]
    q = c.get("/api/attack?attacker=sbd&target=arc", headers={"accept-language": "pl"}).json()  # a question: its form, in Polish
    assert "--stat" not in q["error"] and "formularzu" in q["error"] and q["in_game"] is False, q


def test_a_number_given_wrongly_names_the_pages_field_not_stat(tmp_path: Path) -> None:
    """R173: a question's "numbers given" field (``stat``) written wrongly was refused as "--stat
    'x' is not ID.STAT=N (for example --stat obi.attack=14)" on the phone; the page names its
    field's label, the command line keeps its flag."""
    c = table_client(create_app(Table(game=new_game(tmp_path), library=default_library())))
    for stat, says in (("x", "is not ID.STAT=N"), ("obi.speed=-2", "never below 0"), ("obi.atack=3", "is not a stat")):
        r = c.post("/api/do/targets", json={"attacker": "sbd", "stat": [stat]})
        assert r.status_code == 400 and says in r.json()["error"], r.text
        assert "--stat" not in r.json()["error"] and "numbers given (name.stat=N)" in r.json()["error"]
    pl = c.post("/api/do/targets", json={"attacker": "sbd", "stat": ["x"]}, headers={"accept-language": "pl"}).json()["error"]
    assert "podane liczby (nazwa.cecha=N)" in pl and "--stat" not in pl
    cli = runner.invoke(app, ["targets", "sbd", "--stat", "x", "-p", str(example_path("clone-wars-example-combat"))])
    assert cli.exit_code == 2 and "--stat 'x' is not ID.STAT=N" in cli.output, cli.output


def test_an_initiative_tie_on_the_page_says_its_fields_and_the_fields_take_the_rerolls(tmp_path: Path) -> None:
    """trial20 (reading R182): a tie at initiative told a phone "e.g. --roll light=5,N", a flag no
    page has, and the page's fields were number inputs where "5,12" cannot be typed: a tie rolled
    at the table could not be recorded from a phone (only "Let the assistant roll")."""
    from .test_game_turns import SWM

    c = _game_client(tmp_path, SWM.format(rules="swm2008"))
    for lang, words in (("en", "in its field"), ("pl", "w jej polu"), ("cs", "do jejího pole")):
        r = c.post("/api/do/game/initiative", json={"roll": ["light=5", "dark=5"]}, headers={"accept-language": lang})
        assert r.status_code == 400 and "--" not in r.json()["error"] and words in r.json()["error"], r.text
        assert "5,N" in r.json()["error"], r.text
    r = c.post("/api/do/game/initiative", json={"roll": ["light=5,12", "dark=5,3"]})
    assert r.status_code == 200 and r.json()["event"]["winner"] == "light", r.text
    page = (Path(__file__).resolve().parent.parent / "assistant" / "live" / "static" / "app.js").read_text(encoding="utf-8")
    field = next(line for line in page.splitlines() if 'id="init-${i}"' in line)
    assert 'type="number"' not in field and 'inputmode="numeric"' in field, field
    g = str(tmp_path / "cli.sqlite")
    assert CliRunner().invoke(app, ["game", "new", "-p", "clone-wars-corridor", "--game", g]).exit_code == 0
    r = CliRunner().invoke(app, ["game", "initiative", "--roll", "light=7", "--roll", "dark=7", "--game", g])
    assert r.exit_code == 2 and "e.g. --roll light=7,N" in r.output, r.output  # the command line keeps its flag


def test_a_spectator_asks_a_card_and_a_question_by_get_and_still_writes_nothing(tmp_path: Path) -> None:
    """Round 22 left (reading R232): a spectator's link had no Card button -- its POSTs are refused,
    and a card lookup was a POST. A question is asked by GET now (``/api/ask/{verb}?args={json}``),
    from either link; a verb that records or keeps a number is refused there, to everyone, and the
    spectator's POSTs stay refused."""
    path = new_game(tmp_path)
    watch = table_client(create_app(Table(game=path, library=default_library()), token="p", spectator="s"))
    before = watch.get("/api/version?t=s").json()["version"]
    r = watch.get("/api/ask/cards/show", params={"t": "s", "args": json.dumps({"name": "dooku"}), "lines": "true"})
    assert r.status_code == 200, r.text
    assert r.json()["card"]["name"] == "Count Dooku of Serenno" and r.json()["text_lines"][0].startswith("Count Dooku")
    r = watch.get("/api/ask/los", params={"t": "s", "args": json.dumps({"viewer": "sbd", "target": "obi"})})
    assert r.status_code == 200 and r.json()["query"] == "los", r.text
    for verb, args in (("game/note", {"text": "x"}), ("game/undo", {}), ("cards/set", {"name": "dooku", "values": ["attack=3"]})):
        r = watch.get(f"/api/ask/{verb}", params={"t": "s", "args": json.dumps(args)})
        assert r.status_code == 403 and "records or keeps" in r.json()["error"], (verb, r.text)
    for bad, said in (("[1]", "JSON object"), ('{"name": "a", "name": "b"}', "more than once"), ("{", "not JSON"),
                      ('{"name": "' + "x" * 5000 + '"}', "args")):
        r = watch.get("/api/ask/cards/show", params={"t": "s", "args": bad})
        assert r.status_code in (400, 422) and said in r.json()["error"], (bad[:20], r.text)
    r = watch.get("/api/ask/cards/show", params={"t": "s", "args": json.dumps({"name": "no such card"})})
    assert r.status_code == 400 and "no such card" in r.json()["error"]
    assert watch.get("/api/ask/nope", params={"t": "s"}).status_code == 400
    assert watch.post("/api/do/cards/show?t=s", json={"name": "dooku"}).status_code == 403  # a spectator's POST: refused as before
    assert watch.get("/api/version?t=s").json()["version"] == before
    verbs = watch.get("/api/verbs?t=s").json()["detail"]
    assert verbs["cards set"]["library"] and not verbs["cards show"]["library"]


@pytest.mark.parametrize("game", ["destiny", "swtcg"])
def test_a_card_tables_page_offers_the_json_log_that_game_import_reads_back(tmp_path: Path, game: str) -> None:
    """trial26: the card tables' log offered only the Markdown export, so a judge at the table had
    no file to replay; its JSON export now reads back with 'game import' (R267), as the miniatures
    page's does."""
    import json
    import re

    from assistant.cardgame.log import CardGameLog
    from assistant.cardgames import find_card_game
    from assistant.game.logimport import verified_events
    from assistant.live.table import CardTable
    from assistant.resources import card_table_example

    path = tmp_path / "c.sqlite"
    CardGameLog.new(path, find_card_game(game), card_table_example(game)).close()
    client = table_client(create_app(CardTable(path)))
    links = re.findall(r'<a [^>]*href="(api/export\?format=[a-z]+)"', client.get("/").text)
    assert sorted(links) == ["api/export?format=json", "api/export?format=md"]
    exported = client.get("/" + links[links.index("api/export?format=json")]).json()
    header, events, hashed = verified_events(exported, "the page's export")
    assert hashed and header["rules"] == game and [e.kind for e in events] == ["setup"]
    assert json.loads(json.dumps(events[0].data))["position"] == card_table_example(game)


def test_api_act_is_the_game_verbs_adapter_and_refuses_what_they_refuse(tmp_path: Path) -> None:
    """/api/act had a dispatch of its own beside the registered verbs, and drifted from them: it
    recorded an initiative d20 of 25 that ``game initiative`` refuses ("a d20 shows 1 to 20"), and a
    DDM confused creature's activation said nothing of its Confusion table that ``game activate``
    says (R185). It is now an adapter over the verbs (R352): the same checks, the same notes."""
    board = "\n".join([
        "format: tabletop-position/1", "rules: ddm2005", "map: {cols: 14, rows: 8}", "figures:",
        "  - {id: sol, side: a, at: E2, conditions: [confused], stats: {hp: 20, defense: 15, attack: 5, damage: 10, speed: 6, level: 2}}",
        "  - {id: orc, side: b, at: L2, stats: {hp: 30, defense: 14, attack: 6, damage: 10, speed: 6, level: 3}}", ""])
    path = tmp_path / "g.sqlite"
    Game.new(path, board, default_library(), override="tests").close()
    client = table_client(create_app(Table(game=path, library=default_library())))
    too_high = client.post("/api/act", json={"verb": "initiative", "args": {"rolls": {"a": 25, "b": 3}}})
    assert too_high.status_code == 400 and "from 1 to 20" in too_high.json()["error"], too_high.text
    assert [e["kind"] for e in client.get("/api/events").json()["events"]] == ["setup"]  # nothing recorded
    assert client.post("/api/act", json={"verb": "initiative", "args": {"rolls": {"a": 15, "b": 3}}}).status_code == 200
    said = client.post("/api/act", json={"verb": "activate", "args": {"figure": "sol"}}).json()
    assert any("sol is confused: roll a d20 on the Confusion table" in n for n in said["notes"]), said
    assert said["event"]["kind"] == "activate" and said["round"] == 1
    saves = client.post("/api/act", json={"verb": "attack", "args": {"attacker": "sol", "target": "orc", "roll": 12, "saves": []}})
    assert saves.status_code == 400 and "'saves' is an object of ability: [d20, ...]" in saves.json()["error"]
    long_reason = client.post("/api/act", json={"verb": "end-turn", "args": {}, "override": "r" * 300})
    assert long_reason.status_code == 400 and "at most 200" in long_reason.json()["error"], long_reason.text
