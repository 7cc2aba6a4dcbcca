"""The web server refuses what it did not expect (issue 29 §1) and never answers 500 (§5's web fuzz).

Each golden case says what a page on another site, a DNS-rebound name, a stray content type or a
hostile body sends, and what the table must answer: a 4xx JSON naming what was wrong, and the game
log unchanged. The Hypothesis cases then send any mix of them to every endpoint.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

warnings.filterwarnings("ignore", category=DeprecationWarning)
from fastapi.testclient import TestClient  # noqa: E402

from assistant.cards import default_library  # noqa: E402
from assistant.game import Game  # noqa: E402
from assistant.live import web  # noqa: E402
from assistant.live.table import Table  # noqa: E402
from assistant.live.web import create_app  # noqa: E402
from assistant.resources import example_path  # noqa: E402

from .webclient import BASE, table_client  # noqa: E402

JSON = {"content-type": "application/json"}


def new_game(tmp_path: Path) -> Path:
    path = tmp_path / "g.sqlite"
    Game.new(path, example_path("clone-wars-example-combat").read_text(encoding="utf-8"), default_library(), override="tests").close()
    return path


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return table_client(create_app(Table(game=new_game(tmp_path), library=default_library())))


def version(c: TestClient) -> int:
    return int(c.get("/api/version").json()["version"])


NOTE = {"verb": "note", "args": {"text": "written by another site"}}


# ---------------------------------------------------------------- cross-site writes


def test_the_tables_own_page_writes(client: TestClient) -> None:
    """The page carries the write token in a meta tag, and a POST with it (and the page's own
    Origin) is recorded: the control for every refusal below."""
    page = client.get("/").text
    token = client.app.state.write_token  # type: ignore[attr-defined]
    assert f'<meta name="write-token" content="{token}">' in page
    before = version(client)
    r = client.post("/api/act", json=NOTE, headers={"origin": BASE})
    assert r.status_code == 200 and version(client) == before + 1


@pytest.mark.parametrize("headers, status, says", [
    ({"origin": "http://evil.example"}, 403, "evil.example"),  # a page on another site
    ({"origin": "null"}, 403, "null"),  # a sandboxed frame, a file:// page
    ({"origin": "http://127.0.0.1:9999"}, 403, "127.0.0.1:9999"),  # another server on this computer
    ({"host": "evil.example:8765"}, 403, "evil.example"),  # DNS rebinding: the attacker's name, this computer's address
    ({"x-write-token": ""}, 403, "X-Write-Token"),  # no token: a form or fetch from a page that could not read it
    ({"x-write-token": "guessed"}, 403, "X-Write-Token"),
    ({"content-type": "text/plain"}, 415, "text/plain"),  # what a cross-site form or no-cors fetch can send
    ({"content-type": "application/x-www-form-urlencoded"}, 415, "x-www-form-urlencoded"),
    ({"content-type": "multipart/form-data; boundary=x"}, 415, "multipart/form-data"),
])
def test_a_write_from_elsewhere_is_refused_and_records_nothing(client: TestClient, headers: dict[str, str], status: int, says: str) -> None:
    before = version(client)
    r = client.post("/api/act", content=json.dumps(NOTE), headers={**JSON, **headers})
    assert r.status_code == status, r.text
    assert says in r.json()["error"]
    assert version(client) == before
    # only a refused token is flagged for the table's own page to read its token again (R215)
    assert (r.json().get("write_token") == "invalid") == (says == "X-Write-Token"), r.json()


def test_a_rebound_name_cannot_read_the_table_either(client: TestClient) -> None:
    """DNS rebinding reads too: a page at evil.example whose name now points at 127.0.0.1 would
    read the page (and its write token) as same-origin. The Host is not the table's: 403."""
    for path in ("/", "/api/status", "/api/events", "/api/export"):
        r = client.get(path, headers={"host": "evil.example:8765"})
        assert r.status_code == 403 and "evil.example" in r.json()["error"]
        assert client.app.state.write_token not in r.text  # type: ignore[attr-defined]


def test_a_cross_site_read_gets_no_cors_header(client: TestClient) -> None:
    r = client.get("/api/status", headers={"origin": "http://evil.example"})
    assert r.status_code == 403 and "access-control-allow-origin" not in r.headers
    pre = client.options("/api/act", headers={"origin": "http://evil.example", "access-control-request-method": "POST",
                                              "access-control-request-headers": "content-type, x-write-token"})
    assert pre.status_code == 403 and "access-control-allow-origin" not in pre.headers


def test_the_served_names_are_the_loopback_names_at_the_port_or_the_lan_address() -> None:
    hosts = web.table_hosts(8765)
    assert hosts == ["127.0.0.1:8765", "localhost:8765", "[::1]:8765"]
    lan = web.table_hosts(8765, "192.168.1.20")
    assert "192.168.1.20:8765" in lan and "127.0.0.1:8765" in lan and "192.168.1.20:9999" not in lan
    app = create_app(Table(position=_position(), library=default_library()), hosts=hosts)
    c = TestClient(app, base_url="http://127.0.0.1:8765")
    assert c.get("/api/status").status_code == 200
    assert TestClient(app, base_url="http://localhost:8765").get("/api/status").status_code == 200
    assert TestClient(app, base_url="http://127.0.0.1:9999").get("/api/status").status_code == 403  # not the port served
    assert TestClient(app, base_url="http://192.168.1.20:8765").get("/api/status").status_code == 403  # not --lan


def _position() -> object:
    from assistant.position import load_position

    return load_position(example_path("clone-wars-example-combat"), default_library())


def test_a_spectators_page_carries_no_write_token(tmp_path: Path) -> None:
    app = create_app(Table(game=new_game(tmp_path), library=default_library()), token="p", spectator="s")
    c = table_client(app)
    assert 'name="write-token"' not in c.get("/?t=s").text
    assert f'content="{app.state.write_token}"' in table_client(app).get("/?t=p").text


# ---------------------------------------------------------------- bad bodies: 4xx, never 500


@pytest.mark.parametrize("body", [
    b'{"verb": "note", "args": {"text": "\\ud800"}}',  # a lone surrogate (SQLite cannot store it)
    b'{"verb": "note", "args": {"text": "a\\udfffb"}}',
    b'{"verb": "note", "args": {"\\ud800": 1}}',
    b"[" * 5000 + b"]" * 5000,  # deeper than the parser goes
    b'{"verb": "note", "args": ' + b'{"a": ' * 40 + b"1" + b"}" * 40 + b"}",  # deeper than any request of ours
    b'{"verb": "note", "args": {"text": NaN}}',
    b'{"verb": "note", "args": {"text": Infinity}}',
    b'{"verb": "note", "args": {"text": 1e999}}',
    b'{"verb": "note", "args": {"text": ' + b"9" * 5000 + b"}}",
    b'{"verb": "note", "args": {"text": ' + b"9" * 30 + b"}}",
    b"\xff\xfe\x00garbage",
    b'"just a text"',
])
def test_a_hostile_body_is_a_400_and_records_nothing(client: TestClient, body: bytes) -> None:
    before = version(client)
    for path in ("/api/act", "/api/do/game/note", "/api/photo/apply"):
        r = client.post(path, content=body, headers=JSON)
        assert r.status_code == 400, (path, r.status_code, r.text)
        assert r.json()["error"]
    assert version(client) == before


@pytest.mark.parametrize("confidence", ["abc", "nan", "NaN", "inf", -0.5, 1.5, True, [], {}])
def test_a_photo_moves_confidence_is_a_number_from_0_to_1(client: TestClient, confidence: object) -> None:
    before = version(client)
    r = client.post("/api/photo/apply", json={"moves": [{"figure": "obi", "at": "C3", "confidence": confidence}]})
    assert r.status_code == 400 and "confidence" in r.json()["error"]
    assert version(client) == before


def test_photo_apply_is_all_or_nothing(client: TestClient) -> None:
    """One bad move among good ones: 4xx and NOTHING recorded (the good moves included)."""
    before = version(client)
    for bad in ({"figure": "zzz", "at": "C4"}, {"figure": "clone", "at": "Z99"}, {"figure": "clone", "at": ""}):
        r = client.post("/api/photo/apply", json={"moves": [{"figure": "obi", "at": "C3"}, bad]})
        assert 400 <= r.status_code < 500, (bad, r.text)
        assert version(client) == before, bad
    r = client.post("/api/photo/apply", json={"moves": [{"figure": "obi", "at": "C3"}, {"figure": "clone", "at": "C4"}]})
    assert r.status_code == 200 and len(r.json()["applied"]) == 2 and version(client) == before + 2
    # what the phone shows, said in the form its count asks (it said "2 figure(s) moved")
    assert r.json()["said"] == "2 figures moved; Undo takes a correction back"
    r = client.post("/api/photo/apply", json={"moves": [{"figure": "obi", "at": "C4"}]}, headers={"accept-language": "pl"})
    assert r.status_code == 200 and r.json()["said"] == "przesunięto 1 postać; Cofnij wycofuje poprawkę", r.text


def test_a_photo_read_before_the_game_changed_is_not_applied(client: TestClient, tmp_path: Path) -> None:
    """A judge's undo (or another phone's record) while a photo was being read: the photo's answer
    compared the photo with the record before it, and its moves were applied to the record after
    it (a figure the undo put back was left where the photo's old comparison said it "agrees").
    The answer carries the version it was compared with; an apply naming an older one is 409 and
    records nothing (reading R183); an apply without one is taken as before."""
    from .test_browser import _clone_moved_photo

    before = version(client)
    photo = _clone_moved_photo(tmp_path).read_bytes()
    r = client.post("/api/photo", files={"photo": ("t.jpg", photo, "image/jpeg")})
    assert r.status_code == 200 and r.json()["version"] == before, r.text
    moved = [{"figure": x["figure"], "at": x["photo"]} for x in r.json()["rows"] if x["verdict"] == "moved"]
    assert moved == [{"figure": "clone", "at": "N2"}], r.json()["rows"]
    assert client.post("/api/do/game note", json={"text": "another phone"}).status_code == 200  # the game changes
    r2 = client.post("/api/photo/apply", json={"moves": moved, "version": before})
    assert r2.status_code == 409 and r2.json()["changed"] is True and f"event #{before}" in r2.json()["error"], r2.text
    assert version(client) == before + 1  # nothing applied
    r3 = client.post("/api/photo/apply", json={"moves": moved, "version": before}, headers={"accept-language": "cs"})
    assert r3.status_code == 409 and "pošlete fotografii znovu" in r3.json()["error"], r3.text
    for bad in ("1", True, -1, 1.5):
        r4 = client.post("/api/photo/apply", json={"moves": moved, "version": bad})
        assert r4.status_code == 400 and "'version'" in r4.json()["error"], (bad, r4.text)
    assert version(client) == before + 1
    r5 = client.post("/api/photo/apply", json={"moves": moved, "version": before + 1})  # read again: the log as it is
    assert r5.status_code == 200 and len(r5.json()["applied"]) == 1 and version(client) == before + 2, r5.text


def test_photo_apply_has_a_bound_and_records_its_moves_in_one_transaction(client: TestClient) -> None:
    """More moves than the README's bound (500) is a 400 naming it, nothing recorded; 300 moves
    are recorded together, one transaction (one time for all, numbered one after another)."""
    import assistant.live.web as web

    before = version(client)
    r = client.post("/api/photo/apply", json={"moves": [{"figure": "obi", "at": "C3"}] * (web.MAX_MOVES + 1)})
    assert r.status_code == 400 and r.json()["error"] == "at most 500 moves at once" and version(client) == before
    squares = ["C3", "C4", "D3"]
    r = client.post("/api/photo/apply", json={"moves": [{"figure": "obi", "at": squares[i % 3]} for i in range(300)]})
    assert r.status_code == 200, r.text
    applied = [a["event"] for a in r.json()["applied"]]
    assert [e["seq"] for e in applied] == list(range(before + 1, before + 301)) and len({e["at"] for e in applied}) == 1


def test_a_confidence_of_nan_never_reaches_the_export(client: TestClient) -> None:
    """The export's JSON stays JSON (json.loads refuses NaN only in strict parsers: check the text)."""
    for body in (b'{"moves": [{"figure": "obi", "at": "C3", "confidence": NaN}]}',
                 b'{"moves": [{"figure": "obi", "at": "C3", "confidence": "nan"}]}'):
        assert client.post("/api/photo/apply", content=body, headers=JSON).status_code == 400
    client.post("/api/photo/apply", json={"moves": [{"figure": "obi", "at": "C3", "confidence": 0.5}]})
    text = client.get("/api/export?format=json").text
    json.loads(text, parse_constant=lambda name: pytest.fail(f"{name} in the export"))


def test_a_body_over_the_limit_is_refused_by_its_length(client: TestClient) -> None:
    r = client.post("/api/act", content=b"{" + b" " * (web.MAX_JSON + 10) + b"}", headers=JSON)
    assert r.status_code == 413 and "1 MiB" in r.json()["error"]


def test_a_jpeg_with_64_kb_of_metadata_before_the_image_is_read(tmp_path: Path) -> None:
    """A phone's EXIF and maker notes may run past 64 KB before the frame header: still a JPEG."""
    import cv2
    import numpy as np

    from assistant.photo import load_image

    ok, enc = cv2.imencode(".jpg", np.full((64, 80, 3), 200, np.uint8))
    assert ok
    data = enc.tobytes()
    app1 = b"\xff\xe1" + (65533).to_bytes(2, "big") + b"Exif\x00\x00" + b"\x00" * (65533 - 8)
    app2 = b"\xff\xe2" + (20000).to_bytes(2, "big") + b"\x00" * (20000 - 2)
    fat = data[:2] + app1 + app2 + data[2:]
    assert fat.index(b"\xff\xc0") > 65536  # the frame header past the first 64 KB
    path = tmp_path / "fat.jpg"
    path.write_bytes(fat)
    assert load_image(path).shape[:2] == (64, 80)


# ---------------------------------------------------------------- limits on a real server


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[int, Path, object]]:
    import uvicorn

    game = new_game(tmp_path)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    app = create_app(Table(game=game, library=default_library()))
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=1))
    th = threading.Thread(target=srv.run, daemon=True)
    th.start()
    while not srv.started:
        time.sleep(0.02)
    yield port, game, app
    app.state.hub.close()
    srv.should_exit = True
    th.join(5)


def test_a_chunked_upload_is_cut_at_the_limit_while_it_streams(served: tuple[int, Path, object]) -> None:
    """200 MB sent chunked (no Content-Length): refused with 413 after about the limit, not read whole."""
    port, game, app = served
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall((f"POST /api/act HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                  f"X-Write-Token: {app.state.write_token}\r\nTransfer-Encoding: chunked\r\n\r\n").encode())  # type: ignore[attr-defined]
    chunk = b"10000\r\n" + b" " * 0x10000 + b"\r\n"
    sent = 0
    sock.settimeout(0.5)
    answer = b""
    cut = False
    try:
        while sent < 200 * 1024 * 1024:
            sock.sendall(chunk)
            sent += 0x10000
            try:
                answer += sock.recv(4096, socket.MSG_DONTWAIT)
            except BlockingIOError:
                continue
            if answer:
                break
    except OSError:  # the server closed the connection: reset, broken pipe
        cut = True
    else:
        cut = False
    sock.settimeout(5)
    try:
        while b"\r\n\r\n" not in answer:
            got = sock.recv(4096)
            if not got:
                break
            answer += got
    except OSError:
        pass
    sock.close()
    # the 413 answer, or (when the reset after it came first) the connection cut, long before the 200 MB
    assert answer.startswith(b"HTTP/1.1 413") or (cut and not answer), answer[:200]
    assert sent < 8 * web.MAX_JSON, sent
    assert Table(game=game, library=default_library()).version() == 1  # nothing recorded


def test_bodies_stalled_after_their_first_bytes_hold_no_work_slot_and_are_answered_408(
        served: tuple[int, Path, object], monkeypatch: pytest.MonkeyPatch) -> None:
    """R155: POSTs whose bodies stop after their first byte (Content-Length 100, 1 byte sent) held
    all four work slots for as long as their connections lived: a player's record was answered 503
    "busy" after 5 s, and the stalled connections were never answered. Now a body is read whole
    before a slot is taken, and one not whole by its deadline is answered 408 JSON, the connection
    closed."""
    import httpx

    monkeypatch.setattr(web, "BODY_WAIT", 1.5)
    monkeypatch.setattr(web, "PHOTO_BODY_WAIT", 1.5)
    port, game, app = served
    token = app.state.write_token  # type: ignore[attr-defined]
    stalled = []
    for i in range(web.HEAVY_SLOTS + 2):  # the last one a photo's form, stalled too
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        photo = i == web.HEAVY_SLOTS + 1
        path, kind = ("/api/photo", "multipart/form-data; boundary=b") if photo else ("/api/do/game/note", "application/json")
        start = '--b\r\nContent-Disposition: form-data; name="photo"; filename="a.jpg"\r\n\r\nJ' if photo else "{"
        s.sendall((f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: {kind}\r\n"
                   f"X-Write-Token: {token}\r\nContent-Length: 1000\r\n\r\n{start}").encode())
        stalled.append(s)
    time.sleep(0.3)
    t0 = time.monotonic()
    r = httpx.post(f"http://127.0.0.1:{port}/api/do/game/note", json={"text": "a player's note"},
                   headers={"x-write-token": token}, timeout=20)
    assert r.status_code == 200 and time.monotonic() - t0 < 1.0, (r.status_code, r.text[:200])
    for s in stalled:
        answer = b""
        while b"}" not in answer:
            got = s.recv(4096)
            if not got:
                break
            answer += got
        s.close()
        assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
        assert b"did not arrive within 1.5 s" in answer and b"application/json" in answer
    assert Table(game=game, library=default_library()).version() == 2  # the player's note, nothing else


def test_a_chunked_body_without_length_is_refused_past_the_limit(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"verb": "note", "args": {"text": "'
        for _ in range(40):
            yield b"x" * 65536
        yield b'"}}'
    before = version(client)
    r = client.post("/api/act", content=chunks(), headers=JSON)
    assert r.status_code == 413 and "1 MiB" in r.json()["error"]
    assert version(client) == before


def test_the_event_streams_are_capped(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    monkeypatch.setattr(hub, "streams", web.MAX_STREAMS)
    r = client.get("/api/stream")
    assert r.status_code == 503 and str(web.MAX_STREAMS) in r.json()["error"]


@contextmanager
def serving_forever(tmp_path: Path, settings: str) -> Iterator[int]:
    """``serve_forever`` (the command's own server: its connection cap and timers) on a new game in
    a process of its own, ``settings`` (Python, e.g. ``web.HEAD_WAIT = 1.5``) run first; its port."""
    import subprocess
    import sys

    game = new_game(tmp_path)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    code = ("import sys; from pathlib import Path; from assistant.cards import default_library; "
            f"from assistant.live import web; from assistant.live.table import Table; {settings}; "
            "web.serve_forever(web.create_app(Table(game=Path(sys.argv[1]), library=default_library())), '127.0.0.1', int(sys.argv[2]))")
    root = Path(__file__).resolve().parent.parent
    server = subprocess.Popen([sys.executable, "-c", code, str(game), str(port)], cwd=root, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(400):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        yield port
    finally:
        server.terminate()
        server.communicate(timeout=10)


def test_idle_connections_are_capped_and_closed(tmp_path: Path) -> None:
    """More idle connections than the cap: the ones past it are closed at once, the server keeps
    answering, and a silent connection is closed after IDLE_CONNECTION seconds."""
    import httpx

    with serving_forever(tmp_path, "web.MAX_CONNECTIONS = 20; web.IDLE_CONNECTION = 1.0") as port:
        time.sleep(1.5)  # the probe's connection closed by the idle timer
        idle = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(60)]
        time.sleep(0.3)
        closed = 0
        for s in idle:
            s.settimeout(0.2)
            try:
                closed += s.recv(1) == b""
            except TimeoutError:
                pass
        assert closed >= 60 - 20, closed  # those past the cap closed as they arrived
        time.sleep(1.5)
        for s in idle:
            s.close()
        assert httpx.get(f"http://127.0.0.1:{port}/api/version").status_code == 200  # the server still answers


# ---------------------------------------------------------------- Hypothesis: every endpoint, any headers


#: examples in the normal suite; WEB_FUZZ_EXAMPLES=20000 for the issue's long run
EXAMPLES = int(os.environ.get("WEB_FUZZ_EXAMPLES", "80"))
POSTS = ["/api/act", "/api/do/game/note", "/api/do/game/move", "/api/do/game/undo", "/api/do/los", "/api/photo/apply",
         "/api/photo", "/api/photo/reference", "/api/stream", "/api/nothing"]
GETS = ["/", "/api/status", "/api/events", "/api/version", "/api/verbs", "/api/los?viewer=sbd&target=obi",
        "/api/board.svg?selected=obi", "/api/move?figure=obi&to=C3", "/api/export?format=json", "/docs", "/invite",
        "/manifest.webmanifest", "/api/targets?figure=%ED%A0%80"]
json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)
bodies = st.one_of(
    st.binary(max_size=200),
    json_values.map(lambda v: json.dumps(v).encode()),
    st.fixed_dictionaries({"verb": st.sampled_from(["note", "move", "attack", "undo", "damage", 3, None]), "args": json_values,
                           "override": st.none() | st.text(max_size=10)}).map(lambda v: json.dumps(v).encode()),
    st.fixed_dictionaries({"moves": st.lists(st.fixed_dictionaries({"figure": st.sampled_from(["obi", "sbd", "zzz", 1]),
                                                                     "at": st.sampled_from(["C3", "F5", "Z99", ""]),
                                                                     "confidence": json_values}), max_size=3)}).map(lambda v: json.dumps(v).encode()),
)
origins = st.sampled_from([None, BASE, "http://evil.example", "null", "http://127.0.0.1:9999", "\x00", "http://localhost:8765"])
hosts = st.sampled_from([None, "evil.example:8765", "127.0.0.1", "localhost:8765", "[::1]:8765", "", "127.0.0.1:8765\x00"])
types = st.sampled_from([None, "application/json", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=b",
                         "application/json; charset=utf-8", "APPLICATION/JSON", "junk"])
tokens = st.sampled_from(["right", None, "", "wrong", "right "])  # None: the client sends its own header, the right token


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(post=st.booleans(), path=st.sampled_from(POSTS), get=st.sampled_from(GETS), body=bodies, origin=origins, host=hosts,
       kind=types, token=tokens, rid=st.none() | st.text(max_size=140))
def test_any_request_is_answered_below_500_and_a_refused_write_records_nothing(
        client: TestClient, post: bool, path: str, get: str, body: bytes, origin: str | None, host: str | None, kind: str | None,
        token: str | None, rid: str | None) -> None:
    headers: dict[str, str] = {}
    if origin is not None:
        headers["origin"] = origin
    if host is not None:
        headers["host"] = host
    if kind is not None:
        headers["content-type"] = kind
    if token is not None:
        right = client.app.state.write_token  # type: ignore[attr-defined]
        headers["x-write-token"] = right if token == "right" else right + " " if token == "right " else token
    if rid is not None:
        headers["x-request-id"] = rid
    raw = {k: v.encode("utf-8", "surrogatepass") for k, v in headers.items()}  # any bytes a client may send
    before = version(client)
    try:
        r = client.post(path, content=body, headers=raw) if post else client.get(get, headers=raw)
    except Exception as exc:  # a header the HTTP client itself refuses to send (a NUL, a newline): not the server's
        if "header" in str(exc).lower() or "invalid" in str(exc).lower():
            return
        raise
    assert r.status_code < 500, (r.status_code, r.text[:300])
    hostile = (origin not in (None, BASE) or host not in (None, "127.0.0.1", "localhost:8765", "[::1]:8765")
               or token not in ("right", None) or (kind or "").split(";")[0].strip().lower() != "application/json")
    if r.status_code >= 400 or (post and hostile):
        assert version(client) == before, (path, headers, r.status_code)
    if post and hostile:
        assert r.status_code in (400, 403, 404, 405, 413, 415), (r.status_code, r.text[:200])


def test_an_overridden_write_the_game_cannot_apply_is_a_4xx(client: TestClient) -> None:
    """A judge's override on a disembark of a figure that is not aboard a Desert Skiff (PL p.39: only
    passengers disembark) was a 500; it is a 400 that names the figure, and nothing is recorded."""
    before = version(client)
    r = client.post("/api/do/game/disembark", json={"figure": "obi", "to": "J6", "override": "judge"})
    assert r.status_code == 400, (r.status_code, r.text)
    assert "obi is not aboard a Desert Skiff" in r.json()["error"] and version(client) == before


# ---------------------------------------------------------------- idempotent across a restart


def test_a_retry_after_a_restart_is_not_recorded_twice(tmp_path: Path) -> None:
    """kill -9 right after a commit: the answer never came, and the server that answers the retry
    has no memory of the id. The id is kept with the event in the log: the retry gets the event
    recorded before, and nothing is recorded again."""
    import signal
    import subprocess
    import sys

    import httpx

    game = new_game(tmp_path)
    code = ("import sys; from pathlib import Path; from assistant.cards import default_library; "
            "from assistant.live import web; from assistant.live.table import Table; "
            "web.serve_forever(web.create_app(Table(game=Path(sys.argv[1]), library=default_library()), write_token='w'), "
            "'127.0.0.1', int(sys.argv[2]))")
    root = Path(__file__).resolve().parent.parent

    def start() -> tuple[subprocess.Popen[str], str]:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        proc = subprocess.Popen([sys.executable, "-c", code, str(game), str(port)], cwd=root, stderr=subprocess.PIPE, text=True)
        base = f"http://127.0.0.1:{port}"
        for _ in range(400):
            try:
                httpx.get(base + "/api/version")
                return proc, base
            except httpx.HTTPError:
                time.sleep(0.05)
        raise AssertionError("the server did not start")

    headers = {"x-write-token": "w", "x-request-id": "0b7c6f1e-retry"}
    first, base = start()
    try:
        r1 = httpx.post(base + "/api/act", json={"verb": "move", "args": {"figure": "obi", "to": "G4"}, "override": "test"}, headers=headers)
        assert r1.status_code == 200, r1.text
        seq = r1.json()["event"]["seq"]
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait(10)
    second, base = start()
    try:
        r2 = httpx.post(base + "/api/act", json={"verb": "move", "args": {"figure": "obi", "to": "G4"}, "override": "test"}, headers=headers)
        assert r2.status_code == 200 and r2.headers.get("x-request-repeat") == "1", r2.text
        assert r2.json()["event"]["seq"] == seq and r2.json()["repeat"] is True
        assert httpx.get(base + "/api/version").json()["version"] == seq  # nothing recorded again
        other = httpx.post(base + "/api/act", json={"verb": "note", "args": {"text": "new"}}, headers={**headers, "x-request-id": "other"})
        assert other.status_code == 200 and other.json()["event"]["seq"] == seq + 1
    finally:
        second.send_signal(signal.SIGKILL)
        second.wait(10)


def test_a_photo_apply_retried_on_a_new_server_records_nothing_again(tmp_path: Path) -> None:
    game = new_game(tmp_path)
    body = {"moves": [{"figure": "obi", "at": "C3"}, {"figure": "clone", "at": "C4"}]}
    rid = {"x-request-id": "apply-1"}
    first = table_client(create_app(Table(game=game, library=default_library())))
    assert first.post("/api/photo/apply", json=body, headers=rid).status_code == 200
    v = version(first)
    again = table_client(create_app(Table(game=game, library=default_library())))  # a new server: no memory of the id
    r = again.post("/api/photo/apply", json=body, headers=rid)
    assert r.status_code == 200 and r.headers["x-request-repeat"] == "1" and len(r.json()["events"]) == 2
    assert version(again) == v


def test_serve_answers_its_own_names_at_its_port_only(tmp_path: Path) -> None:
    """The command line's `serve`: the page read by its printed link, a write with the page's
    token recorded; a rebound name and another port's name refused."""
    import re
    import subprocess
    import sys

    import httpx

    game = new_game(tmp_path)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.Popen([sys.executable, "-m", "assistant", "serve", "--game", str(game), "--port", str(port)], cwd=root,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                page = httpx.get(base + "/")
                break
            except httpx.HTTPError:
                time.sleep(0.05)
        assert page.status_code == 200
        token = re.search(r'<meta name="write-token" content="([^"]+)">', page.text)
        assert token is not None
        assert httpx.get(f"http://localhost:{port}/api/version").status_code == 200
        assert httpx.get(base + "/api/version", headers={"host": "evil.example"}).status_code == 403
        assert httpx.get(base + "/api/version", headers={"host": f"127.0.0.1:{port + 1}"}).status_code == 403
        r = httpx.post(base + "/api/act", json=NOTE, headers={"x-write-token": token.group(1), "origin": base})
        assert r.status_code == 200, r.text
        assert httpx.post(base + "/api/act", json=NOTE, headers={"origin": base}).status_code == 403
    finally:
        proc.terminate()
        proc.communicate(timeout=10)


def test_a_cross_site_refusal_is_in_the_readers_language(client: TestClient) -> None:
    r = client.post("/api/act", json=NOTE, headers={"origin": "http://evil.example", "accept-language": "pl"})
    assert r.status_code == 403 and "inna witryna" in r.json()["error"]


def test_a_card_game_play_retried_on_a_new_server_is_not_recorded_twice(tmp_path: Path) -> None:
    """The card games' log keeps the request's id with the play, as the miniatures' log does: a
    new server (its memory of answered ids gone with the old one) answers the retry from the log."""
    from assistant.cardgame.log import CardGameLog
    from assistant.cardgames import find_card_game
    from assistant.live.table import CardTable
    from assistant.resources import card_table_example

    path = tmp_path / "d.sqlite"
    CardGameLog.new(path, find_card_game("destiny"), card_table_example("destiny")).close()
    body = {"command": "A pass", "override": "judge: testing"}
    rid = {"x-request-id": "play-1"}
    first = table_client(create_app(CardTable(path)))
    r1 = first.post("/api/do", json=body, headers=rid)
    assert r1.status_code == 200, r1.text
    seq = r1.json()["seq"]
    again = table_client(create_app(CardTable(path)))
    r2 = again.post("/api/do", json=body, headers=rid)
    assert r2.status_code == 200 and r2.headers["x-request-repeat"] == "1", r2.text
    assert r2.json()["seq"] == seq and r2.json()["command"] == "A pass" and r2.json()["repeat"] is True
    assert again.get("/api/version").json()["version"] == seq  # nothing recorded again
    other = again.post("/api/do", json=body, headers={"x-request-id": "play-2"})
    assert other.status_code == 200 and other.json()["seq"] == seq + 1


@pytest.mark.parametrize("path", ["/api/photo", "/api/photo/reference"])
@pytest.mark.parametrize("body, content_type", [
    (b"x", "multipart/form-data"),  # no boundary
    (b"--zz\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"" + b"a" * 5000 + b".jpg\"\r\n\r\nxx\r\n--zz--\r\n",
     "multipart/form-data; boundary=zz"),  # a part's header past the parser's limit
])
def test_a_photo_upload_that_is_no_multipart_form_is_refused_as_every_request_is(
        client: TestClient, path: str, body: bytes, content_type: str) -> None:
    """Before: starlette's own ``{"detail": "Missing boundary in multipart."}``, in English and
    without the "error" every other refusal carries (the page showed 'error 400')."""
    r = client.post(path, content=body, headers={"content-type": content_type, "accept-language": "pl"})
    assert r.status_code == 400, r.text
    assert "photo" in r.json()["error"], r.text
    assert client.get("/api/version").status_code == 200  # the server answers on


def test_the_frameworks_own_refusals_come_as_every_refusal_does(client: TestClient) -> None:
    """No such address, a method the address does not take, a question's parameter missing: before,
    starlette's and FastAPI's own ``{"detail": ...}`` (in English, a list of dicts for the last),
    where the README promises ``{"error": ...}`` and the page shows that; now ``{"error": ...}``
    naming the address or the parameter, in the player's language."""
    r = client.get("/api/no-such-thing")
    assert r.status_code == 404 and r.json() == {"error": "no such address on this table: /api/no-such-thing"}
    r = client.get("/api/do/note")
    assert r.status_code == 405 and set(r.json()) == {"error"} and "/api/do/note" in r.json()["error"] and "GET" in r.json()["error"]
    r = client.get("/api/los", params={"viewer": "obi"})
    assert r.status_code == 422 and set(r.json()) == {"error"}, r.text
    assert "target (query): missing" in r.json()["error"] and "viewer" not in r.json()["error"]
    r = client.get("/api/no-such-thing", headers={"accept-language": "pl"})
    assert r.status_code == 404 and "/api/no-such-thing" in r.json()["error"] and "no such address" not in r.json()["error"]


@pytest.mark.parametrize("method, path", [("DELETE", "/api/status"), ("PUT", "/api/do/game/note"), ("PATCH", "/"), ("DELETE", "/api/events")])
def test_a_method_no_address_takes_is_answered_405_not_415(client: TestClient, method: str, path: str) -> None:
    """A user's trial: 'DELETE /api/status' was answered 415 "this request is sent as application/json,
    not ''", as if its body were the fault; no address of the table takes DELETE, PUT or PATCH."""
    r = client.request(method, path)
    assert r.status_code == 405 and r.json()["error"].startswith(f"{path} does not take {method} requests; it takes "), r.text
    assert r.headers["allow"] in r.json()["error"]


@pytest.mark.parametrize("method, path, allow", [
    ("DELETE", "/api/status", "GET, HEAD"), ("OPTIONS", "/api/act", "POST"), ("GET", "/api/act", "POST"),
    ("POST", "/api/status", "GET, HEAD"), ("OPTIONS", "/api/photo", "POST"), ("PUT", "/", "GET, HEAD"),
    ("DELETE", "/static/app.js", "GET, HEAD"),
])
def test_a_refused_method_names_the_ones_its_address_takes(client: TestClient, method: str, path: str, allow: str) -> None:
    """A stranger's curl (round 31): every refused method was answered "Allow: GET, HEAD, POST"
    whatever the address took, and "does not take a OPTIONS request"; now the answer and its Allow
    header name what the address takes (RFC 9110 §15.5.6)."""
    before = version(client)
    r = client.request(method, path, headers=JSON)
    assert r.status_code == 405 and r.headers["allow"] == allow, (r.status_code, r.headers.get("allow"), r.text)
    assert r.json()["error"] == f"{path} does not take {method} requests; it takes {allow}", r.text
    assert version(client) == before


@pytest.mark.parametrize("method", ["DELETE", "PUT", "PATCH", "OPTIONS"])
def test_a_method_sent_to_no_address_is_a_404_not_a_405(client: TestClient, method: str) -> None:
    """DELETE /api/nothing-here was "405 does not take a DELETE request", as if the address were there."""
    r = client.request(method, "/api/nothing-here")
    assert r.status_code == 404 and r.json()["error"] == "no such address on this table: /api/nothing-here", r.text


@pytest.mark.parametrize("path, status, says", [
    ("/api/events?since=abc", 422, "since (query)"),
    ("/api/events?since=-1", 422, "since (query)"),
    ("/api/events?sinse=1", 400, "/api/events takes no parameter 'sinse'; it takes: since"),
    ("/api/los?viewer=obi&targt=sbd", 400, "takes no parameter 'targt'; it takes: target, viewer"),
    ("/api/status?x=1", 400, "/api/status takes no query parameters; it was sent 'x'"),
    ("/api/los?viewer=obi&viewer=sbd&target=sbd", 400, "/api/los was sent 'viewer' more than once; give each once"),
    ("/api/events?since=1&since=2", 400, "/api/events was sent 'since' more than once; give each once"),
])
def test_a_query_parameter_the_address_does_not_take_is_refused_not_ignored(client: TestClient, path: str, status: int,
                                                                            says: str) -> None:
    """A user's trial (round 18): ``/api/events?since=abc`` answered the whole log, 200, as if the
    parameter was not sent; so did a misspelt one on any address, and one sent twice answered for
    its last value alone (the trial's leftover). Each is a 4xx naming it."""
    r = client.get(path)
    assert r.status_code == status and says in r.json()["error"]


def test_the_log_since_an_event_lists_only_the_events_after_it(client: TestClient) -> None:
    for text in ("one", "two"):
        client.post("/api/do/game/note", json={"text": text}, headers={**JSON, web.WRITE_HEADER: client.app.state.write_token})
    every = client.get("/api/events").json()["events"]
    after = client.get(f"/api/events?since={every[-2]['seq']}").json()["events"]
    assert [e["seq"] for e in after] == [every[-1]["seq"]]
    assert client.get("/api/events?since=0&t=whatever").status_code == 200  # the link's token is taken everywhere


@pytest.mark.parametrize("path", ["/api/photo", "/api/photo/reference"])
def test_a_photo_field_sent_twice_is_refused_not_one_of_them_read(client: TestClient, path: str) -> None:
    """R156: two files in the form field 'photo' were answered for the last one, the first dropped
    unsaid (as a query parameter sent twice was, before it was refused)."""
    import cv2

    from assistant.photo.synth import render_photo
    from assistant.position import load_position

    img, _ = render_photo(load_position(example_path("clone-wars-example-combat")), seed=3, width=400, height=300)
    jpeg = cv2.imencode(".jpg", img)[1].tobytes()
    before = version(client)
    r = client.post(path, files=[("photo", ("a.jpg", jpeg, "image/jpeg")), ("photo", ("b.jpg", jpeg, "image/jpeg"))])
    assert r.status_code == 400, r.text
    assert r.json()["error"] == "send one photo at a time: the form field 'photo' came 2 times"
    assert version(client) == before and client.get("/api/status").json()["reference"] is None


@pytest.mark.parametrize("args, says", [
    ({"attacker": "sbd", "target": "obi", "roll": 15, "save": {"Parry": [12]}}, "unknown argument 'save': attack takes attacker, target, roll, saves"),
    ({"text": "hi", "game": "/tmp/other.sqlite"}, "unknown argument 'game': note takes text"),
    ({"figure": "sbd", "to": "B6", "override": "judge"}, "unknown argument 'override': move takes figure, to"),
])
def test_a_command_argument_act_does_not_take_is_refused_not_ignored(client: TestClient, args: dict[str, object], says: str) -> None:
    """R157: ``POST /api/act`` recorded the command and ignored what it did not know -- an attack
    whose "save" (for "saves") was dropped, so the hit's damage was recorded with no Parry roll."""
    verb = "attack" if "attacker" in args else "note" if "text" in args else "move"
    before = version(client)
    r = client.post("/api/act", json={"verb": verb, "args": args})
    assert r.status_code == 400 and r.json()["error"] == says, r.text
    assert version(client) == before


@pytest.mark.parametrize("auto", ["no", "false", 0, 1, [True]])
def test_initiative_auto_is_true_or_false_not_any_value(client: TestClient, auto: object) -> None:
    """R157: ``"auto": "no"`` was read as true (Python's bool of a text) and the dice were rolled."""
    before = version(client)
    r = client.post("/api/act", json={"verb": "initiative", "args": {"rolls": {"light": 5, "dark": 15}, "auto": auto}})
    assert r.status_code == 400 and r.json()["error"] == "'auto' is true or false", r.text
    assert version(client) == before
    ok = client.post("/api/act", json={"verb": "initiative", "args": {"rolls": {"light": 5, "dark": 15}, "auto": False}})
    assert ok.status_code == 200, ok.text


def test_a_request_head_sent_a_byte_at_a_time_is_cut_at_its_deadline(tmp_path: Path) -> None:
    """R158: a request's line and headers trickled a byte every 0.3 s held the connection for as long
    as the client liked (each byte stopped uvicorn's idle timer), so 256 such connections shut every
    phone out; the head now has HEAD_WAIT seconds from its first byte, and a quick request on the
    same server is still answered."""
    import httpx

    with serving_forever(tmp_path, "web.HEAD_WAIT = 1.5") as port:
        slow = socket.create_connection(("127.0.0.1", port), timeout=5)
        slow.settimeout(0.01)
        t0, closed_after = time.monotonic(), None
        for byte in b"GET /api/version HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 40:
            try:
                slow.sendall(bytes([byte]))
                if slow.recv(1) == b"":
                    closed_after = time.monotonic() - t0
                    break
            except TimeoutError:
                pass
            except OSError:
                closed_after = time.monotonic() - t0
                break
            time.sleep(0.3)
        slow.close()
        assert closed_after is not None and 1.4 < closed_after < 4.0, closed_after  # 75 bytes would take 22 s
        assert httpx.get(f"http://127.0.0.1:{port}/api/version").status_code == 200


@pytest.mark.parametrize("path", ["/api/status/", "/api/los/", "/api/board.svg/"])
def test_an_address_with_a_trailing_slash_is_refused_as_json_not_redirected(client: TestClient, path: str) -> None:
    """A user's trial (round 19): /api/status/ answered a 307 redirect with an empty body, the one
    answer of the API that was neither JSON nor the page's own."""
    r = client.get(path, follow_redirects=False)
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("application/json")
    assert path in r.json()["error"]


# ---------------------------------------------------------------- round 20: malformed, not large; a board asked half


@pytest.mark.parametrize("size", [b"-1", b"1e3", b"abc", b"\xb2"])  # the last read as Latin-1 "²", a digit to str.isdigit
def test_a_content_length_that_is_no_number_is_a_malformed_request_400(client: TestClient, size: bytes) -> None:
    """R172: ``Content-Length: -1`` was answered 413 "the request is over 1024 KiB": it is not a
    large request but a malformed one (400), and the answer says which header."""
    before = version(client)
    r = client.post("/api/act", content=json.dumps(NOTE).encode(), headers={**JSON, "content-length": size})
    assert r.status_code == 400, r.text
    assert "Content-Length" in r.json()["error"] and "KiB" not in r.json()["error"]
    assert version(client) == before


def test_a_request_the_server_cannot_parse_is_answered_400_json(tmp_path: Path) -> None:
    """R172: the command's own server (h11) answered a request it could not parse (``Content-Length:
    -1``, a header with no colon) in uvicorn's plain text "Invalid HTTP request received.": now
    the JSON ``{"error": ...}`` every other refusal has, and the connection closed."""
    with serving_forever(tmp_path, "pass") as port:
        for head in ("Content-Length: -1", "Content-Length: 1e3", "No colon here"):
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            s.sendall((f"POST /api/act HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n{head}\r\n\r\n{{}}").encode())
            answer = b""
            while got := s.recv(4096):
                answer += got
            s.close()
            status, _sep, body = answer.partition(b"\r\n\r\n")
            assert status.startswith(b"HTTP/1.1 400") and b"application/json" in status, answer[:300]
            assert "not well-formed HTTP" in json.loads(body)["error"], body


@pytest.mark.parametrize("query, says", [
    ("to=C3", "'selected'"),  # a move's square with no figure moving: the plain board was drawn
    ("target=obi", "'selected'"),
    ("selected=&to=C3", "'selected'"),
    ("selected=sbd&target=obi&to=C3", "not both"),  # the target's line was drawn, the square dropped
])
def test_a_board_asked_for_a_square_or_target_without_its_figure_is_refused(client: TestClient, query: str, says: str) -> None:
    """R171: ``/api/board.svg?to=C3`` with no ``selected`` answered the plain board, ``to``
    ignored silently (and with a ``target`` too, the target's line and no path): 400 naming what
    is missing."""
    r = client.get("/api/board.svg?" + query)
    assert r.status_code == 400, r.text[:200]
    assert says in r.json()["error"]
    assert client.get("/api/board.svg?selected=sbd&to=C3").status_code == 200  # the page's own asks stand


def test_a_move_path_on_a_bare_position_is_refused(tmp_path: Path) -> None:
    """R171: a table serving a position (no game) drew the plain board for ``selected`` + ``to``,
    the path never drawn: refused, naming why (a move's path needs a game)."""
    c = table_client(create_app(Table(position=_position(), library=default_library())))  # type: ignore[arg-type]
    r = c.get("/api/board.svg?selected=sbd&to=C3")
    assert r.status_code == 403 and "game" in r.json()["error"], r.text[:200]
    assert c.get("/api/board.svg?selected=sbd").status_code == 200


@pytest.mark.parametrize("body", [
    b'{"verb": "note", "args": {"text": "a"}, "verb": "undo"}',  # the parser kept the last: an undo was recorded
    b'{"verb": "note", "args": {"text": "a", "text": "b"}}',
    b'{"verb": "attack", "args": {"attacker": "obi", "target": "sbd", "roll": 1, "roll": 20}}',
])
def test_a_name_given_twice_in_a_json_object_is_refused(client: TestClient, body: bytes) -> None:
    """R174: ``{"verb": "note", ..., "verb": "undo"}`` recorded an undo -- the JSON parser keeps a
    repeated name's last value silently, as the framework kept a repeated query parameter's last
    (refused since round 19). Now 400 naming the name, nothing recorded, in the reader's language."""
    before = version(client)
    r = client.post("/api/act", content=body, headers=JSON)
    assert r.status_code == 400 and "more than once" in r.json()["error"], r.text
    assert version(client) == before
    pl = client.post("/api/act", content=body, headers={**JSON, "accept-language": "pl"})
    assert pl.status_code == 400 and "more than once" not in pl.json()["error"]
    for path in ("/api/do/game/note", "/api/photo/apply"):
        assert client.post(path, content=b'{"text": "a", "text": "b", "moves": []}', headers=JSON).status_code == 400
    assert version(client) == before


def test_a_photos_name_with_a_bidi_override_is_shown_escaped(client: TestClient) -> None:
    """Round 20: a photo sent with the name "\\u202egpj.jpg" (a right-to-left override) was named
    raw in the refusal, and the page's message line was drawn reversed around it; a control
    character likewise. The name is shown with those written as escapes."""
    r = client.post("/api/photo", files={"photo": ("\u202egpj.jpg", b"\x00" * 64, "image/jpeg")})
    assert r.status_code == 400, r.text
    said = r.json()["error"]
    assert "\u202e" not in said and "\\u202egpj.jpg" in said, said


def test_a_huge_square_name_is_refused_without_being_repeated_whole(client: TestClient) -> None:
    """Round 23's hostile tour: ``/api/move?to=AAAA...`` (60,000 letters) was answered 400 with every
    letter of it in the message (60 kB back for a typo's refusal). The refusal repeats its start."""
    for path in ("/api/move?figure=obi&to=" + "A" * 20000, "/api/move?figure=obi&to=" + "7" * 20000):
        r = client.get(path)
        assert r.status_code == 400 and len(r.content) < 400, (r.status_code, len(r.content))
        assert "…" in r.json()["error"] and "is not a square name" in r.json()["error"]
    r = client.post("/api/do/game/move", json={"figure": "obi", "to": "B" * 5000})
    assert r.status_code == 400 and len(r.content) < 400, r.text[:200]


def test_a_play_too_long_is_said_so_not_asked_for(tmp_path: Path) -> None:
    """Round 23's hostile tour: a 100,000-character play sent to a card table's /api/check or
    /api/do was refused "say the play as 'command'" -- it had been said so. The refusal says it is
    too long; nothing is recorded."""
    from assistant.cardgame.log import CardGameLog
    from assistant.cardgames import find_card_game
    from assistant.live.table import CardTable
    from assistant.resources import card_table_example

    path = tmp_path / "d.sqlite"
    CardGameLog.new(path, find_card_game("destiny"), card_table_example("destiny")).close()
    c = table_client(create_app(CardTable(path)))
    before = version(c)
    for address in ("/api/check", "/api/do"):
        r = c.post(address, json={"command": "A " + "x" * 100000})
        assert r.status_code == 400 and "100002 characters long" in r.json()["error"] and "at most 2000" in r.json()["error"], r.text[:200]
        r = c.post(address, json={"command": 5})
        assert r.status_code == 400 and "say the play as 'command'" in r.json()["error"]
    assert version(c) == before


def test_a_question_of_another_game_is_refused_without_the_servers_path(tmp_path: Path) -> None:
    """A miniatures question asked at a Destiny table (by GET or POST) was refused with the
    server's path to the game file in its text; it is refused naming the two games only."""
    from assistant.cardgame.log import CardGameLog
    from assistant.cardgames import find_card_game
    from assistant.live.table import CardTable
    from assistant.resources import card_table_example

    path = tmp_path / "secret-folder" / "d.sqlite"
    path.parent.mkdir()
    CardGameLog.new(path, find_card_game("destiny"), card_table_example("destiny")).close()
    c = table_client(create_app(CardTable(path)))
    for r in (c.get("/api/ask/los", params={"args": '{"viewer": "A1", "target": "B2"}'}),
              c.post("/api/do/los", json={"viewer": "A1", "target": "B2"}),
              c.post("/api/do/swtcg/status", json={})):
        assert r.status_code == 400, r.text
        assert "secret-folder" not in r.text and "this table plays destiny" in r.json()["error"], r.text
    assert c.get("/api/ask/destiny/status").status_code == 200


def test_a_refused_query_value_is_repeated_to_its_start_only(tmp_path: Path) -> None:
    """A 50,000-letter ``args`` on ``GET /api/ask/los`` (the limit is 4,000) was refused with all
    of it repeated in the error; the refusal repeats its start and says the limit."""
    c = table_client(create_app(Table(game=new_game(tmp_path), library=default_library())))
    r = c.get("/api/ask/los", params={"args": "x" * 50000})
    assert r.status_code == 422, r.text
    assert len(r.text) < 600 and "at most 4000 characters" in r.json()["error"], r.text[:300]


# ---------------------------------------------------------------- round 24: HEAD


@pytest.mark.parametrize("path", ["/", "/api/status", "/api/version", "/api/board.svg", "/api/verbs", "/manifest.webmanifest"])
def test_head_of_a_get_address_is_its_get_without_the_body(client: TestClient, path: str) -> None:
    """A user's trial (round 23): ``HEAD /`` was answered 405 while the answer's own ``allow`` header
    named HEAD (RFC 9110 9.3.2: HEAD is every GET address's). It is answered as its GET, no body."""
    got = client.get(path)
    head = client.head(path)
    assert got.status_code == 200 and head.status_code == 200, (path, head.status_code, head.text[:200])
    assert head.content == b""
    assert head.headers["content-type"] == got.headers["content-type"]


def test_head_of_a_post_address_is_405_and_head_of_nothing_404(client: TestClient) -> None:
    r = client.head("/api/do/game/note")
    assert r.status_code == 405 and r.content == b""
    assert client.head("/api/no-such-thing").status_code == 404


def test_head_of_the_stream_ends_on_a_real_server(tmp_path: Path) -> None:
    """``/api/stream`` runs as long as its page is open; its HEAD answers the headers and ends (the
    app hears the client has gone), on uvicorn as the phone meets it."""
    import httpx

    with serving_forever(tmp_path, "pass") as port:
        r = httpx.head(f"http://127.0.0.1:{port}/api/stream", timeout=5)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream") and r.content == b""
        r = httpx.head(f"http://127.0.0.1:{port}/", timeout=5)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html") and r.content == b""
        assert httpx.get(f"http://127.0.0.1:{port}/api/version", timeout=5).status_code == 200


@pytest.mark.parametrize("headers, says", [
    ({"content-encoding": "gzip"}, "gzip"),  # a client that compresses its bodies: was "the request is not JSON"
    ({"content-encoding": "br"}, "br"),
    ({"content-encoding": "identity, deflate"}, "deflate"),
    ({"content-type": "application/json; charset=utf-16"}, "utf-16"),  # RFC 8259: JSON between systems is UTF-8
    ({"content-type": "application/json; charset=ISO-8859-1"}, "iso-8859-1"),
])
def test_a_body_in_a_form_the_table_does_not_read_is_a_415_naming_it(client: TestClient, headers: dict[str, str], says: str) -> None:
    """Reading R299: a compressed or non-UTF-8 body is refused as such (415 JSON naming the
    encoding), not answered 'not JSON' as if the play were broken; nothing is recorded."""
    import gzip
    before = version(client)
    raw = json.dumps(NOTE).encode()
    body = gzip.compress(raw) if headers.get("content-encoding") == "gzip" else raw
    for path in ("/api/act", "/api/do/game/note"):
        r = client.post(path, content=body, headers={**JSON, **headers})
        assert r.status_code == 415, (path, r.status_code, r.text)
        assert says in r.json()["error"] and "not JSON" not in r.json()["error"]
    assert version(client) == before


def test_a_compressed_photo_is_a_415_too(client: TestClient) -> None:
    r = client.post("/api/photo", files={"photo": ("x.jpg", b"\xff\xd8", "image/jpeg")}, headers={"content-encoding": "gzip"})
    assert r.status_code == 415 and "gzip" in r.json()["error"], r.text


def test_a_utf8_charset_and_identity_encoding_are_read(client: TestClient) -> None:
    before = version(client)
    r = client.post("/api/act", content=json.dumps(NOTE), headers={"content-type": "application/json; charset=UTF-8", "content-encoding": "identity"})
    assert r.status_code == 200, r.text
    assert version(client) == before + 1


@pytest.mark.parametrize("rid", ["é".encode().decode("latin-1"), "\xe9\xe9", "a\x7fb", "a\tb"])
def test_a_request_id_not_in_visible_ascii_is_a_400_and_records_nothing(client: TestClient, rid: str) -> None:
    """Reading R302: a header's bytes are read as Latin-1, so an X-Request-Id sent as UTF-8 'é'
    was recorded in the game log as 'Ã©' (hostile sweep, round 28). Refused, nothing recorded."""
    before = version(client)
    r = client.post("/api/act", content=json.dumps(NOTE), headers={**JSON, "x-request-id": rid.encode("latin-1")})  # type: ignore[dict-item]
    assert r.status_code == 400 and "X-Request-Id" in r.json()["error"], r.text
    assert version(client) == before


def test_a_body_with_both_content_length_and_transfer_encoding_is_a_400_on_a_real_server(served: tuple[int, Path, object]) -> None:
    """Reading R302: a POST giving its body's end twice (Content-Length and chunked) was read by
    the chunks and recorded; RFC 9112 6.3 says such a message ought to be handled as an error (a
    proxy in front may read it the other way). 400 JSON, nothing recorded."""
    port, game, app = served
    note = json.dumps(NOTE).encode()
    def logged() -> int:
        g = Game.open(game, readonly=True)
        try:
            return len(g.events())
        finally:
            g.close()

    before = logged()
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall((f"POST /api/act HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                  f"X-Write-Token: {app.state.write_token}\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n"  # type: ignore[attr-defined]
                  f"Connection: close\r\n\r\n").encode() + b"%x\r\n" % len(note) + note + b"\r\n0\r\n\r\n")
    answer = b""
    while chunk := sock.recv(65536):
        answer += chunk
    sock.close()
    head, _sep, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400"), answer[:300]
    assert "Transfer-Encoding" in json.loads(body)["error"]
    assert logged() == before


def _a_photo(ext: str) -> bytes:
    import cv2
    import numpy as np

    ok, enc = cv2.imencode(ext, np.tile(np.arange(120, dtype=np.uint8)[None, :, None], (90, 1, 3)))
    assert ok
    return enc.tobytes()


@pytest.mark.parametrize("ext", [".jpg", ".png", ".webp", ".bmp"])
@pytest.mark.parametrize("keep", [0.002, 0.1, 0.5, 0.98])
def test_a_photo_cut_short_is_said_cut_short_not_not_an_image(tmp_path: Path, ext: str, keep: float) -> None:
    """A photo whose upload or copy stopped early starts as a JPEG (or PNG...): round 30 said it was
    'not an image (not a PNG, JPEG ...)' before its size was read, 'damaged' after (R346)."""
    from assistant.errors import AssistantError
    from assistant.photo import load_image

    whole = _a_photo(ext)
    path = tmp_path / f"half{ext}"
    path.write_bytes(whole[:max(3, int(len(whole) * keep))])
    with pytest.raises(AssistantError) as refused:
        load_image(path)
    said = str(refused.value)
    assert "is cut short" in said and "not an image" not in said and "damaged" not in said, said
    path.write_bytes(whole)
    assert load_image(path).shape[:2] == (90, 120)  # the whole photo is read as before


def test_a_cut_short_upload_is_a_400_saying_so_and_records_nothing(client: TestClient) -> None:
    before = version(client)
    data = _a_photo(".jpg")[:300]
    r = client.post("/api/photo", files={"photo": ("table.jpg", data, "image/jpeg")})
    assert r.status_code == 400, r.text
    said = r.json()["error"]
    assert "table.jpg is cut short" in said and "JPEG" in said and "300 bytes" in said and "not an image" not in said, said
    assert version(client) == before


@pytest.mark.parametrize("path", ["/api/photo", "/api/photo/reference"])
@pytest.mark.parametrize("filename, extra", [("a" * 5000 + ".jpg", {}), ("x.jpg", {"note": "z" * 1_100_000})])
def test_a_photo_form_the_parser_gives_up_on_is_not_said_to_lack_its_photo(client: TestClient, path: str, filename: str,
                                                                          extra: dict[str, str]) -> None:
    """A stranger's upload (round 31): a photo sent in the field 'photo' with a file name of 5,000
    characters, or beside a field of over 1 MiB, was told "send the photo as the form field 'photo'"."""
    before = version(client)
    r = client.post(path, files={"photo": (filename, b"\xff\xd8\xff", "image/jpeg")}, data=extra)
    assert r.status_code == 400, r.text
    said = r.json()["error"]
    assert said.startswith("the photo's form cannot be read") and "file name" in said, said
    assert version(client) == before


def test_a_read_only_game_refuses_a_phones_write_in_its_words_and_still_answers(tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading R347: a game log the table's computer cannot write (a read-only file, folder or disk)
    was refused to the phone as 400 "cannot write to the game /the/servers/path: ...; it can be read
    (status, log, export, replay, snapshot)": the command line's verbs and the server's own path,
    and English inside a Polish sentence. Now 403 in the page's words; reads answer on."""
    game = new_game(tmp_path)
    real_access = os.access

    def no_write(p: object, mode: int, *a: object, **k: object) -> bool:  # root ignores permissions; the store asks os.access
        if mode & os.W_OK and Path(str(p)).resolve() in (tmp_path.resolve(), game.resolve()):
            return False
        return real_access(p, mode, *a, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "access", no_write)
    c = table_client(create_app(Table(game=game, library=default_library())))
    before = version(c)
    for lang, says in (("en", "the game's file on the table's computer (g.sqlite) is read-only: nothing was recorded"),
                       ("pl", "plik gry na komputerze stołu (g.sqlite) jest tylko do odczytu: nic nie zapisano")):
        r = c.post("/api/act", json=NOTE, headers={"accept-language": lang})
        assert r.status_code == 403, r.text
        said = r.json()["error"]
        assert said.startswith(says) and str(tmp_path) not in said and "snapshot" not in said, said
    assert version(c) == before
    assert c.get("/api/status").status_code == 200
    assert c.get("/api/targets", params={"figure": "sbd"}).status_code == 200
