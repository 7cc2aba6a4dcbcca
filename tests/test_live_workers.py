"""Photo analysis in a worker process (issue 29 §1): the mechanism, not its timing. A job over its
budget is killed and answered with a JSON refusal; a worker that dies is a 503 JSON and the next
photo gets a new worker; a refusal or an error in the job comes back as before (400, 422).

The stand-in jobs below run in the worker process (a fresh interpreter: they are found there by
their module's name); what each does is said by the photo's bytes.
"""

from __future__ import annotations

import os
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

warnings.filterwarnings("ignore", category=DeprecationWarning)
from fastapi.testclient import TestClient  # noqa: E402

import assistant.live.photojobs as photojobs  # noqa: E402
import assistant.live.workers as workers  # noqa: E402
from assistant.cards import default_library  # noqa: E402
from assistant.errors import AssistantError  # noqa: E402
from assistant.game import Game  # noqa: E402
from assistant.live.table import Table  # noqa: E402
from assistant.live.web import create_app  # noqa: E402
from assistant.resources import example_path  # noqa: E402

from .webclient import table_client  # noqa: E402


def stand_in(pos: Any, game: str | None, data: bytes, name: str, language: str) -> Any:
    """A photo job whose photo says what it does: hang, crash, break, refuse, wait for a file,
    or answer at once (with the worker's process id)."""
    if data == b"hang":
        time.sleep(120)
    if data == b"crash":
        os._exit(3)
    if data == b"boom":
        raise ValueError("an image the analysis cannot take")
    if data == b"refuse":
        raise AssistantError("x.jpg is not an image (a stand-in refusal)")
    if data.startswith(b"wait:"):
        flag = Path(data[5:].decode())
        flag.with_suffix(".started").touch()
        deadline = time.monotonic() + 60
        while not flag.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
    return {"query": "photo", "grid_found": False, "error": "a stand-in answer", "pid": os.getpid(),
            "figures": len(pos.figures) if pos is not None else 0, "language": language}


def no_grid(pos: Any, game: str | None, data: bytes, name: str, language: str) -> tuple[int, dict[str, Any]]:
    return 422, {"query": "photo reference", "grid_found": False, "stored": False, "error": "no grid (a stand-in)"}


def new_game(tmp_path: Path) -> Path:
    path = tmp_path / "g.sqlite"
    Game.new(path, example_path("clone-wars-example-combat").read_text(encoding="utf-8"), default_library(), override="tests").close()
    return path


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setattr(photojobs, "read_photo", stand_in)
    monkeypatch.setattr(photojobs, "keep_reference", no_grid)
    c = table_client(create_app(Table(game=new_game(tmp_path), library=default_library())))
    with c:  # the app's shutdown stops its worker
        yield c


def photo(client: TestClient, data: bytes, path: str = "/api/photo") -> Any:
    return client.post(path, files={"photo": ("t.jpg", data, "image/jpeg")})


def test_the_photo_is_read_in_another_process_started_when_first_needed(client: TestClient) -> None:
    pool = client.app.state.photos  # type: ignore[attr-defined]
    assert pool.started == 0  # serve starts without it
    r = photo(client, b"fine")
    assert r.status_code == 200, r.text
    got = r.json()
    assert got["pid"] != os.getpid() and got["figures"] == 5  # the position crossed as data (the example has 5 figures)
    assert photo(client, b"fine").json()["pid"] == got["pid"] and pool.started == 1  # the worker is kept


def test_a_photo_over_its_budget_is_refused_and_its_worker_replaced(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    r = photo(client, b"fine")  # the worker started, this module imported in it (not the budget's to count)
    assert r.status_code == 200, r.text
    first = r.json()["pid"]
    monkeypatch.setattr(workers, "BUDGET", 1.0)
    t0 = time.monotonic()
    r = photo(client, b"hang")
    assert time.monotonic() - t0 < 30  # not the job's 120 s
    assert r.status_code == 422 and r.json()["too_long"] is True and "took too long" in r.json()["error"], r.text
    assert "over 1 s" in r.json()["error"] and "game log is unchanged" in r.json()["error"]
    with pytest.raises(ProcessLookupError):  # the worker that ran past its budget was killed
        os.kill(first, 0)
    monkeypatch.setattr(workers, "BUDGET", 60.0)  # the new worker imports this module again in its first job
    again = photo(client, b"fine")
    assert again.status_code == 200 and again.json()["pid"] != first


def test_a_worker_that_dies_is_a_503_and_the_next_photo_works(client: TestClient) -> None:
    r = photo(client, b"crash")
    assert r.status_code == 503 and "stopped before it answered" in r.json()["error"] and r.headers["retry-after"], r.text
    again = photo(client, b"fine")
    assert again.status_code == 200 and again.json()["error"] == "a stand-in answer"
    assert client.app.state.photos.started == 2  # type: ignore[attr-defined]


def test_a_refusal_or_an_error_in_the_job_is_answered_as_before(client: TestClient) -> None:
    pid = photo(client, b"fine").json()["pid"]
    r = photo(client, b"refuse")
    assert r.status_code == 400 and r.json()["error"] == "x.jpg is not an image (a stand-in refusal)"
    r = photo(client, b"boom")
    assert r.status_code == 422 and "could not be analysed (ValueError)" in r.json()["error"]
    assert photo(client, b"fine").json()["pid"] == pid  # neither cost the worker
    ref = photo(client, b"fine", "/api/photo/reference")
    assert ref.status_code == 422 and ref.json()["error"] == "no grid (a stand-in)"


def test_a_photo_being_read_never_blocks_the_server(client: TestClient, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """While a photo is read the page's other questions are answered, and a second photo (or a
    reference photo) is told to come again (503, JSON)."""
    import threading

    import assistant.live.web as web

    monkeypatch.setattr(web, "PHOTO_WAIT", 0.2)
    flag = tmp_path / "go"
    answers: list[Any] = []
    first = threading.Thread(target=lambda: answers.append(photo(client, b"wait:" + str(flag).encode())))
    first.start()
    try:
        deadline = time.monotonic() + 60
        while not flag.with_suffix(".started").exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert flag.with_suffix(".started").exists()
        status = client.get("/api/status")
        assert status.status_code == 200 and "figures" in status.json()
        for path in ("/api/photo", "/api/photo/reference"):
            second = photo(client, b"fine", path)
            assert second.status_code == 503 and "another photo" in second.json()["error"] and second.headers["retry-after"]
    finally:
        flag.touch()
        first.join(60)
    assert answers[0].status_code == 200
    from assistant.photo.reference import reference_path

    assert not reference_path(tmp_path / "g.sqlite").exists()  # the refused reference photo kept nothing


def test_the_pool_outside_the_web_app(tmp_path: Path) -> None:
    """The pool on its own: an overrun and a crash raise its own errors, the worker is replaced."""
    pool = workers.Pool(1)
    try:
        with pytest.raises(workers.Overrun):
            pool.run(stand_in, (None, None, b"hang", "x", "en"), budget=0.5)
        with pytest.raises(workers.Crashed):
            pool.run(stand_in, (None, None, b"crash", "x", "en"))
        assert pool.started == 2
    finally:
        pool.close()


def test_a_job_that_is_not_plain_data_is_refused_and_the_worker_kept(tmp_path: Path) -> None:
    pool = workers.Pool(1)
    try:
        assert pool.run(stand_in, (None, None, b"fine", "x", "en"), budget=60)["error"] == "a stand-in answer"
        with pytest.raises(workers.Broken):
            pool.run(stand_in, (lambda: None, None, b"fine", "x", "en"))  # a lambda does not cross
        assert pool.run(stand_in, (None, None, b"fine", "x", "en"))["error"] == "a stand-in answer" and pool.started == 1
    finally:
        pool.close()
