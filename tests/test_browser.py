"""The live table in a real browser: Chromium (the system's) driven by Playwright at a phone's
viewport, against a real server on loopback. Screenshots are saved on failure.

Outside CI these tests are skipped when Playwright or Chromium is missing; in CI (``CI`` set)
they fail instead, so a missing browser never passes silently.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from assistant.cards import default_library
from assistant.game import Game
from assistant.resources import example_path

from .unknowncard import write_unknown_card

CHROMIUM = next((p for p in (os.environ.get("CHROMIUM"), shutil.which("chromium"), shutil.which("chromium-browser"),
                             shutil.which("google-chrome")) if p), None)
SHOTS = Path(__file__).resolve().parent.parent / "bench" / "out" / "browser"

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover
    sync_playwright = None  # type: ignore[assignment]

if sync_playwright is None or CHROMIUM is None:
    if os.environ.get("CI"):
        pytest.fail("the browser tests need Playwright and Chromium (apt-get install chromium)", pytrace=False)
    pytest.skip("Playwright or Chromium missing (apt-get install chromium; pip install -e '.[test]')", allow_module_level=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def _serving(table: Any, port: int | None = None) -> Iterator[str]:
    """A real server on loopback for ``table`` (a live Table), its address while it runs (at
    ``port``, or a free one)."""
    from assistant.live.web import create_app

    with _serving_app(create_app(table), port) as url:
        yield url


@contextmanager
def _serving_app(app: Any, port: int | None = None) -> Iterator[str]:
    """A real server on loopback for a made app (a spectator's link, a token), its address while it runs."""
    import uvicorn

    port = port or _free_port()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    for _ in range(100):
        if srv.started:
            break
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        _stop(app, srv, thread)


def _stop(app: Any, srv: Any, thread: threading.Thread) -> None:
    """Stop a served app as ``serve`` does on Ctrl-C: the phones' event streams ended first (a page
    left open keeps its stream, and uvicorn waits on it: each test's teardown sat out the whole 5 s
    join), then the server."""
    app.state.hub.close()
    srv.should_exit = True
    thread.join(timeout=5)


def _game_server(tmp_path: Path, position_text: str) -> Iterator[tuple[str, Path]]:
    """A game started on ``position_text``, served."""
    from assistant.live.table import Table

    path = tmp_path / "g.sqlite"
    Game.new(path, position_text, default_library(), override="tests").close()
    with _serving(Table(game=path, library=default_library())) as url:
        yield url, path


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    yield from _game_server(tmp_path, example_path("clone-wars-example-combat").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:  # one browser for the whole module (each test opens its own pages)
    with sync_playwright() as p:  # type: ignore[misc]
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


def phone(browser: Any) -> Any:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True)
    return ctx.new_page()


@pytest.fixture(autouse=True)
def screenshot_on_failure(request: pytest.FixtureRequest, browser: Any) -> Iterator[None]:
    yield
    rep = getattr(request.node, "rep_call", None)
    pages = getattr(request.node, "pages", [])
    if rep is not None and rep.failed:
        SHOTS.mkdir(parents=True, exist_ok=True)
        for i, page in enumerate(pages):
            try:
                page.screenshot(path=str(SHOTS / f"{request.node.name}-{i}.png"), full_page=True)
            except Exception:
                pass


def _tap_figure(page: Any, fid: str) -> None:
    page.locator(f'#board [data-figure="{fid}"] circle').first.click()


def _phone_targets(url: str, browser: Any, request: pytest.FixtureRequest, fid: str, row: str) -> Any:
    """A phone's page on the table, `fid` tapped and its targets table shown down to `row`."""
    page = phone(browser)
    request.node.pages = [page]
    page.goto(url)
    _tap_figure(page, fid)
    page.wait_for_selector(row)
    return page


def _initiative(page: Any, rolls: dict[str, str]) -> None:
    """Roll initiative on the page: each side's d20 entered in its own field."""
    page.click("#b-initiative")
    for side, roll in rolls.items():
        page.fill(f'#initiative-form input[data-side="{side}"]', roll)
    page.click("#b-init-record")
    page.wait_for_selector("#message.ok")
    _settled(page)


def _settled(page: Any) -> None:
    """Wait until the page shows the game's current version with no redraw in flight: a tap
    that lands while the board is being replaced (the change's own news arriving after the
    record's reply) may find no figure under it."""
    version = page.evaluate("fetch('api/version').then((r) => r.json()).then((j) => j.version)")
    page.wait_for_function(
        "(v) => document.body.dataset.synced === String(v) && document.body.dataset.syncing !== 'yes'", arg=version)


def test_select_a_figure_and_read_its_targets(server: tuple[str, Path], browser: Any, request: pytest.FixtureRequest) -> None:
    url, _ = server
    page = _phone_targets(url, browser, request, "sbd", "#answer tr[data-target]")
    rows = page.locator("#answer tr[data-target]").all_inner_texts()
    assert any("obi" in r for r in rows)
    page.locator('#answer tr[data-target="obi"]').click()
    page.wait_for_selector("#answer h3:has-text('sbd → obi')")
    text = page.locator("#answer").inner_text()
    assert "Line of sight" in text and "Attack" in text
    assert page.locator("#board line.witness").count() == 1
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "phone-targets.png"), full_page=True)


def test_a_cited_reading_opens_whole_from_the_phones_answer(server: tuple[str, Path], browser: Any, request: pytest.FixtureRequest) -> None:
    # reading R351: sbd's attack on obi cites readings R3 and R5 (the highest modifier; cover); each id
    # is a link, on the phone's screen once "Why" is open, and opens the reading beside the table
    url, _ = server
    page = _phone_targets(url, browser, request, "sbd", '#answer tr[data-target="obi"]')
    page.locator('#answer tr[data-target="obi"]').click()
    page.wait_for_selector("#answer h3:has-text('sbd → obi')")
    page.locator("#why summary").click()
    link = page.locator('#why a.reading[href="/reading/R3"]').first
    link.scroll_into_view_if_needed()
    box = link.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["height"] > 0
    # a figure named like a droid is no reading: only the cited ids are links
    made = page.evaluate("citeHtml('R2-D2 moves; reading R3 in docs/readings.md')")
    assert made.count("<a ") == 1 and 'href="/reading/R3"' in made and made.startswith("R2-D2 moves; ")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "phone-reading-link.png"))
    with page.context.expect_page() as opened:
        link.click()
    reading = opened.value
    request.node.pages = [page, reading]
    reading.wait_for_load_state()
    assert reading.locator("#reading-heading").inner_text().startswith("R3 — ")
    text = reading.locator("#reading-text")
    assert "Applies to" in text.inner_text()
    width = reading.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width  # the reading wraps on the phone: nothing off the screen's side
    reading.screenshot(path=str(SHOTS / "phone-reading-page.png"))


def test_a_cited_readings_link_is_thumb_sized_in_the_why_and_the_log_on_a_small_phone(tmp_path: Path, browser: Any,
                                                                                      request: pytest.FixtureRequest) -> None:
    """Reading R375 (round 32): a game made by the command line (initiative, an activation that
    cites R229, a note, an undo) on a 320 x 568 phone: the log's "R229" and the attack's "R3" were
    links of 42 x 19 px inside their lines; each is now a 44 px target, its line no taller."""
    import subprocess
    import sys

    from assistant.live.table import Table

    path = tmp_path / "g.sqlite"
    env = {**os.environ, "TABLETOP_HOME": str(tmp_path / "home")}
    for step in (["game", "new", "-p", "clone-wars-example-combat"], ["game", "initiative", "--roll", "light=15", "--roll", "dark=7"],
                 ["game", "activate", "obi"], ["game", "note", "obi stands"], ["game", "undo"]):
        r = subprocess.run([sys.executable, "-m", "assistant", *step, "--game", str(path)], env=env, capture_output=True, text=True,
                           check=False, timeout=120)
        assert r.returncode == 0, r.stderr
    with _serving(Table(game=path, library=default_library())) as url:
        page = browser.new_context(viewport={"width": 320, "height": 568}, is_mobile=True, has_touch=True, device_scale_factor=2).new_page()
        request.node.pages = [page]
        page.goto(url)
        page.wait_for_selector("body[data-ready=yes] #board .hits [data-figure]")
        page.locator("#log-box summary").click()
        link = page.locator('#log a.reading[href="/reading/R229"]').first
        link.scroll_into_view_if_needed()
        entry = link.locator("xpath=ancestor::li[1]")
        box, line = _box(page, '#log a.reading[href="/reading/R229"]'), entry.bounding_box()
        assert box["width"] >= MIN_TAP and box["height"] >= MIN_TAP, box
        plain = page.evaluate("""(sel) => { const a = document.querySelector(sel), li = a.closest('li');
            const h = li.getBoundingClientRect().height; a.classList.remove('reading'); const bare = li.getBoundingClientRect().height;
            a.classList.add('reading'); return [h, bare]; }""", '#log a.reading[href="/reading/R229"]')
        assert line is not None and abs(plain[0] - plain[1]) < 1.5, plain  # the link's line no taller than without it
        assert [t for t in _small_targets(page) if t.startswith("A ")] == []


def test_a_polish_phone_reads_the_table_in_polish(server: tuple[str, Path], browser: Any, request: pytest.FixtureRequest) -> None:
    url, _ = server
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale="pl-PL")
    page = ctx.new_page()
    request.node.pages = [page]
    page.goto(url)
    assert page.locator("html").get_attribute("lang") == "pl" and "Dziennik gry" in page.locator("#log-box summary").inner_text()
    _tap_figure(page, "sbd")
    page.wait_for_selector("#answer tr[data-target]")
    assert "cele" in page.locator("#answer h3").inner_text()
    page.locator('#answer tr[data-target="obi"]').click()
    page.wait_for_selector("#answer h3:has-text('sbd → obi')")
    text = page.locator("#verdict").inner_text()
    assert "Linia wzroku:" in text and "Osłona:" in text and "Atak:" in text
    page.click("#why summary")  # the reasons and rules, one tap further
    assert "osłona (" in page.locator("#why").inner_text()


def test_record_a_turn_undo_it_and_a_second_phone_sees_it(server: tuple[str, Path], browser: Any, request: pytest.FixtureRequest) -> None:
    url, path = server
    page, other = phone(browser), phone(browser)
    request.node.pages = [page, other]
    page.goto(url)
    other.goto(url)
    page.on("dialog", lambda d: d.accept())  # Undo asks first
    _initiative(page, {"light": "5", "dark": "15"})
    other.wait_for_function("document.getElementById('round').textContent.includes('round 1')", timeout=3000)
    _tap_figure(page, "sbd")
    page.click("#b-activate")
    page.wait_for_function("document.getElementById('message').textContent.includes('activates')")
    page.locator('#answer tr[data-target="obi"]').click()
    page.wait_for_selector("#answer h3:has-text('sbd → obi')")
    page.fill("#roll", "20")
    page.click("#b-attack")
    page.wait_for_function("document.getElementById('message').textContent.includes('obi')")
    assert page.input_value("#roll") == ""  # the die is used once: the field is emptied
    other.wait_for_function("document.getElementById('log').textContent.includes('obi')", timeout=3000)
    page.click("#b-undo")  # confirm() is accepted by the dialog handler
    page.wait_for_function("document.getElementById('message').textContent.includes('undo')")
    other.wait_for_function("document.getElementById('log').textContent.includes('undone')", timeout=3000)


def test_move_by_tapping_a_square(server: tuple[str, Path], browser: Any, request: pytest.FixtureRequest) -> None:
    from assistant.live.table import Table

    url, path = server
    page = phone(browser)
    request.node.pages = [page]
    page.goto(url)
    _initiative(page, {"light": "5", "dark": "15"})
    _tap_figure(page, "sbd")
    page.click("#b-activate")
    page.wait_for_function("document.getElementById('message').textContent.includes('activates')")
    page.click("#b-move")
    page.locator('#board rect[data-square="C7"]').click()
    # the path and its cost first, drawn on the board; nothing recorded until confirmed
    page.wait_for_selector("#move-preview:has-text('B7 → C7')")
    assert "cost 1" in page.locator("#move-preview").inner_text()
    assert page.locator('#board rect[fill="#1e78dc"]').count() >= 2
    assert Table(game=path, library=default_library()).events()[-1]["kind"] != "move"
    page.click("#b-move-confirm")
    page.wait_for_function("document.getElementById('message').textContent.includes('C7')")
    st = Table(game=path, library=default_library()).status()
    assert next(f for f in st["figures"] if f["id"] == "sbd")["at"] == "C7"


def _clone_moved_photo(tmp_path: Path) -> Path:
    """A drawn photo of the combat example with the clone moved from N1 to N2."""
    from dataclasses import replace

    import cv2

    from assistant.coords import parse_square
    from assistant.model import Position
    from assistant.photo.synth import render_photo
    from assistant.position import load_position

    pos = load_position(example_path("clone-wars-example-combat"))
    moved = Position(pos.edition, pos.map, tuple(replace(f, at=parse_square("N2")) if f.id == "clone" else f for f in pos.figures), pos.cards)
    img, _ = render_photo(moved, seed=3, width=1600, height=1200)
    photo = tmp_path / "table.jpg"
    cv2.imwrite(str(photo), img)
    return photo


def test_upload_a_photo_and_apply_it(server: tuple[str, Path], browser: Any, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    url, path = server
    photo = _clone_moved_photo(tmp_path)
    page = phone(browser)
    request.node.pages = [page]
    page.goto(url)
    page.set_input_files("#photo", str(photo))
    page.wait_for_selector("#photo-answer table", timeout=15000)
    assert "moved" in page.locator("#photo-answer").inner_text()
    page.locator("#photo-answer").screenshot(path=str(SHOTS / "phone-photo-answer.png"))  # looked at by a person
    page.click("#b-apply")
    page.wait_for_function("document.getElementById('message').textContent.includes('moved')")
    assert page.locator("#b-apply").is_disabled()  # applied once: a second tap records nothing more
    from assistant.live.table import Table

    st = Table(game=path, library=default_library()).status()
    assert next(f for f in st["figures"] if f["id"] == "clone")["at"] == "N2"


def test_a_photo_read_while_the_judge_undid_a_move_is_said_stale_and_not_applied(server: tuple[str, Path], browser: Any,
                                                                                  request: pytest.FixtureRequest, tmp_path: Path) -> None:
    """The judge undoes the clone's move while a photo of the table is being read: the answer,
    compared with the record before the undo, said "clone N2 N2 agree" and offered Apply, which
    left the record at N1 and the table at N2 (reading R183)."""
    import httpx

    url, path = server
    photo = _clone_moved_photo(tmp_path)
    page = browser.new_context(viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True, locale="cs").new_page()
    request.node.pages = [page]
    page.goto(url)
    page.wait_for_selector("body[data-ready=yes]")
    token = page.get_attribute('meta[name="write-token"]', "content")
    judge = httpx.Client(base_url=url, headers={"x-write-token": token or ""})
    assert judge.post("api/do/game move", json={"figure": "clone", "to": "N2", "override": "tests"}).status_code == 200
    page.wait_for_function("document.body.dataset.synced === '2'")
    # the photo is read against the log at event 2; the judge's undo lands before its answer reaches the page
    page.expose_function("judgeUndo", lambda: judge.post("api/do/game undo", json={}).status_code)
    page.evaluate("""() => { const send = window.fetch;
        window.fetch = async (url, init) => { const r = await send(url, init);
            if (String(url).endsWith('api/photo')) await window.judgeUndo(); return r; }; }""")
    page.set_input_files("#photo", str(photo))
    page.wait_for_selector("#photo-answer table", timeout=20000)
    page.wait_for_selector("#photo-stale", timeout=10000)
    assert page.locator("#b-apply").is_disabled()
    assert "pošlete fotografii znovu" in page.locator("#photo-stale").inner_text()
    stale = _box(page, "#photo-stale")
    assert stale["width"] <= 360 and stale["height"] > 0
    page.screenshot(path=str(SHOTS / "phone-photo-stale.png"))
    from assistant.live.table import Table

    st = Table(game=path, library=default_library()).status()
    assert next(f for f in st["figures"] if f["id"] == "clone")["at"] == "N1"  # the undo stands; nothing applied
    page.context.close()


def test_a_photos_answer_and_its_apply_button_are_on_a_small_phones_screen(server: tuple[str, Path], browser: Any,
                                                                             request: pytest.FixtureRequest, tmp_path: Path) -> None:
    """A 360 x 640 phone and a phone held sideways (844 x 390): the photo's table and its Apply button
    were drawn 820-1090 px (590-860 px) down the sheet, out of sight: the player saw "photo read in
    0.4 s" and nothing else. The answer is scrolled onto the screen now."""
    url, _ = server
    photo = _clone_moved_photo(tmp_path)
    for w, h in ((360, 640), (844, 390)):
        page = browser.new_context(viewport={"width": w, "height": h}, is_mobile=True, has_touch=True, device_scale_factor=2).new_page()
        request.node.pages = [*getattr(request.node, "pages", []), page]
        page.goto(url)
        page.wait_for_selector("body[data-ready=yes] #board .hits [data-figure]")
        page.set_input_files("#photo", str(photo))
        page.wait_for_selector("#b-apply", timeout=30000)
        page.wait_for_timeout(300)  # a smooth scroll, if the browser makes one, has ended
        assert "moved" in page.locator("#photo-answer").inner_text()
        assert _inside(_box(page, "#b-apply"), w, h), (_box(page, "#b-apply"), w, h)
        assert _inside(_box(page, "#photo-answer table"), w, h), (_box(page, "#photo-answer table"), w, h)
        page.screenshot(path=str(tmp_path / f"photo-{w}x{h}.png"))
        page.context.close()


def test_the_empty_map_is_sent_as_the_reference_from_the_phone(server: tuple[str, Path], browser: Any, request: pytest.FixtureRequest,
                                                                tmp_path: Path) -> None:
    """The reference control sits with the table's photo: with the photo part brought up in the
    sheet, both are on the phone's screen at once (no scrolling inside it to find the second);
    the page says whether a reference is kept and which mode read each photo."""
    from dataclasses import replace

    import cv2

    from assistant.photo.reference import reference_path
    from assistant.photo.synth import render_photo
    from assistant.position import load_position

    url, path = server
    pos = load_position(example_path("clone-wars-example-combat"))
    empty_img, _t = render_photo(replace(pos, figures=()), seed=3, width=1600, height=1200)
    table_img, _t = render_photo(pos, seed=3, width=1600, height=1200)
    empty, table = tmp_path / "empty.jpg", tmp_path / "table.jpg"
    cv2.imwrite(str(empty), empty_img)
    cv2.imwrite(str(table), table_img)
    page = phone(browser)
    request.node.pages = [page]
    page.on("dialog", lambda d: d.accept())  # "This is the empty map: keep it as the reference?"
    page.goto(url)
    page.wait_for_selector("body[data-ready=yes]")
    page.evaluate("document.getElementById('photo-box').scrollIntoView({block: 'start'})")
    sheet = _box(page, "#sheet")
    for sel in ("#photo-title", "label.photo:has(#photo)", "label.reference", "#reference-state"):
        b = _box(page, sel)
        assert _inside(b, 390, 844) and b["y"] >= sheet["y"] and b["y"] + b["height"] <= sheet["y"] + sheet["height"], (sel, b, sheet)
    assert page.locator("label.reference").is_visible()
    assert "No reference yet" in page.locator("#reference-state").inner_text()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "phone-reference-none.png"))  # looked at by a person

    page.set_input_files("#reference-photo", str(empty))
    page.wait_for_function("document.getElementById('reference-state').textContent.startsWith('Reference: the empty map')", timeout=15000)
    assert "reference kept" in page.locator("#message").inner_text()
    assert reference_path(path).is_file()
    page.screenshot(path=str(SHOTS / "phone-reference-set.png"))

    page.set_input_files("#photo", str(table))
    page.wait_for_selector("#photo-answer table", timeout=15000)
    assert page.locator("#photo-mode").inner_text().startswith("Compared with the empty-map reference")
    page.evaluate("document.getElementById('photo-box').scrollIntoView({block: 'start'})")
    page.screenshot(path=str(SHOTS / "phone-reference-answer.png"))


def test_a_refused_photo_is_said_beside_the_photo_buttons(server: tuple[str, Path], browser: Any, request: pytest.FixtureRequest,
                                                          tmp_path: Path) -> None:
    """A file that is no photo (a text file, an iPhone's HEIC) sent from the photo buttons: the
    refusal stands in the photo part, on the screen the player is looking at, in place of the
    answer to the photo before (round 9's trial: it went only to the sheet's message line,
    scrolled out of sight, and the previous photo's table stayed as if it were this photo's)."""
    url, _path = server
    text = tmp_path / "IMG_0042.jpg"
    text.write_text("not a photo")
    page = phone(browser)
    request.node.pages = [page]
    page.on("dialog", lambda d: d.accept())  # "This is the empty map: keep it as the reference?"
    page.goto(url)
    page.wait_for_selector("body[data-ready=yes]")
    for control in ("#photo", "#reference-photo"):
        page.evaluate("document.getElementById('photo-answer').innerHTML = '<table id=\"before\"><tr><td>f1</td></tr></table>'")
        page.evaluate("document.getElementById('photo-box').scrollIntoView({block: 'start'})")
        page.set_input_files(control, str(text))
        refusal = page.locator("#photo-answer .illegal")
        refusal.wait_for(timeout=15000)
        assert refusal.inner_text().startswith("IMG_0042.jpg is not an image"), refusal.inner_text()
        assert page.locator("#before").count() == 0  # the answer to the photo before is gone
        assert _inside(_box(page, "#photo-answer .illegal"), 390, 844)  # on the phone's screen as it stands
    # a photo of no map is refused (422, reading R311) and said with the mode that tried to read it
    import cv2
    import numpy as np

    grey = tmp_path / "grey.jpg"
    cv2.imwrite(str(grey), np.full((600, 800, 3), 128, np.uint8))
    page.evaluate("document.getElementById('photo-answer').innerHTML = ''")
    page.set_input_files("#photo", str(grey))
    refusal = page.locator("#photo-answer .illegal")
    refusal.wait_for(timeout=30000)
    assert refusal.inner_text().startswith("no grid found in grey.jpg"), refusal.inner_text()
    assert page.locator("#photo-mode").inner_text().startswith("No reference photo"), page.locator("#photo-answer").inner_text()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "phone-photo-refused.png"))  # looked at by a person


PARTIAL_POSITION = """\
format: tabletop-position/1
rules: swm2008
map: {cols: 8, rows: 8}
figures:
  - {id: arc, card: Unprinted Trooper, side: light, at: B2}
  - {id: sbd, card: Security Battle Droid, side: dark, at: F6}
"""


@pytest.fixture
def partial_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, Path]]:
    """A table serving a bare position whose figure's card gives no Defense (a test card that prints
    only its cost, in the table's own user data folder: every bundled SWM figure has its numbers,
    R153)."""
    from assistant.live.table import Table
    from assistant.position import load_position

    home = tmp_path / "home"
    monkeypatch.setenv("TABLETOP_HOME", str(home))
    write_unknown_card(home)
    path = tmp_path / "partial.yaml"
    path.write_text(PARTIAL_POSITION, encoding="utf-8")
    with _serving(Table(position=load_position(path, default_library()), library=default_library())) as url:
        yield url, home


def _ask_sbd_at_arc(page: Any) -> None:
    _tap_figure(page, "sbd")
    page.wait_for_selector('#answer tr[data-target="arc"]')
    page.locator('#answer tr[data-target="arc"]').click()
    page.wait_for_selector("#missing-form")


def _in_view(page: Any, element_id: str) -> bool:
    """The whole element is on the phone's screen (the page brings it there; the player scrolls nothing)."""
    page.wait_for_function(f"""(() => {{ const r = document.getElementById('{element_id}').getBoundingClientRect();
        return r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth; }})()""", timeout=3000)
    return True


def test_a_missing_number_is_asked_on_the_phone(partial_server: tuple[str, Path], browser: Any, request: pytest.FixtureRequest) -> None:
    url, home = partial_server
    page = phone(browser)
    request.node.pages = [page]
    page.goto(url)
    _ask_sbd_at_arc(page)
    assert "arc's Defense" in page.locator("#missing-form").inner_text()
    assert _in_view(page, "missing-form")  # the form is on the screen: nothing to scroll to
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "phone-missing-number.png"))
    page.fill("#miss-0", "16")
    page.click("#missing-ask")
    # Security Battle Droid: Attack 3, +4 Cunning Attack against a figure that has not activated; Defense 16: 16 - 7 = 9
    page.wait_for_selector("#answer:has-text('needs 9+')")
    page.screenshot(path=str(SHOTS / "phone-missing-number-answered.png"))
    assert not (home / "card-overrides.yaml").exists()  # given for the question only


def test_a_missing_number_is_kept_for_the_card_from_the_phone(partial_server: tuple[str, Path], browser: Any,
                                                                request: pytest.FixtureRequest) -> None:
    url, home = partial_server
    page = phone(browser)
    request.node.pages = [page]
    page.goto(url)
    _ask_sbd_at_arc(page)
    page.fill("#miss-0", "16")
    page.check("#keep-0")
    page.click("#missing-ask")
    page.wait_for_selector("#answer:has-text('needs 9+')")
    assert "defense: 16" in (home / "card-overrides.yaml").read_text(encoding="utf-8")
    other = phone(browser)  # a second phone asks the same and is answered at once: the card keeps it
    request.node.pages.append(other)
    other.goto(url)
    _tap_figure(other, "sbd")
    other.wait_for_selector('#answer tr[data-target="arc"]')
    assert "9+" in other.locator('#answer tr[data-target="arc"]').inner_text()


# ---------------------------------------------------------------------------------------------
# The phone is the table (issue 27): every bundled example at a phone's size (portrait and
# landscape, touch), a tablet's and a laptop's.

EXAMPLES = sorted(p.stem for p in (Path(__file__).resolve().parent.parent / "assistant" / "examples").glob("*.yaml"))
VIEWPORTS = {
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2},
    "phone-landscape": {"viewport": {"width": 844, "height": 390}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2},
    "tablet": {"viewport": {"width": 768, "height": 1024}, "is_mobile": True, "has_touch": True},
    "laptop": {"viewport": {"width": 1280, "height": 800}},
}
#: a tap target's least side in CSS px (WCAG 2.5.5 / Apple HIG 44 pt), less a rounding pixel
MIN_TAP = 43.5


@pytest.fixture(scope="module")
def example_tables(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, tuple[str, Path]]]:
    """A game started from each bundled example, each served on its own port (one server a game, for the module)."""
    import uvicorn

    from assistant.live.table import Table
    from assistant.live.web import create_app

    servers, out = [], {}
    for name in EXAMPLES:
        path = tmp_path_factory.mktemp(name) / "g.sqlite"
        Game.new(path, example_path(name).read_text(encoding="utf-8"), default_library(), override="tests").close()
        port = _free_port()
        app = create_app(Table(game=path, library=default_library()))
        srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
        thread = threading.Thread(target=srv.run, daemon=True)
        thread.start()
        servers.append((app, srv, thread))
        out[name] = (f"http://127.0.0.1:{port}/", path)
    for _, srv, _ in servers:
        for _ in range(100):
            if srv.started:
                break
            time.sleep(0.05)
    yield out
    for app, srv, thread in servers:
        _stop(app, srv, thread)


class Watch:
    """A page's console errors, failed requests and requests to any other host."""

    def __init__(self, page: Any, url: str) -> None:
        from urllib.parse import urlsplit

        self.errors: list[str] = []
        self.foreign: list[str] = []
        host = urlsplit(url).netloc
        self.refusals: list[str] = []
        # Chromium logs every 4xx answer as "Failed to load resource": the answers are checked
        # here instead -- a refusal or a question lacking a number is JSON the page shows (400,
        # 409), anything else (404, 5xx, a page) is an error
        page.on("console", lambda m: self.errors.append(m.text)
                if m.type == "error" and not m.text.startswith("Failed to load resource") else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("request", lambda r: self.foreign.append(r.url) if urlsplit(r.url).netloc not in (host, "") else None)
        page.on("response", self._answer)

    def _answer(self, r: Any) -> None:
        if r.status < 400:
            return
        if r.status in (400, 409) and "json" in (r.headers.get("content-type") or ""):
            self.refusals.append(f"{r.status} {r.url}")
        else:
            self.errors.append(f"{r.status} {r.url}")

    def check(self) -> None:
        assert self.errors == [], self.errors
        assert self.foreign == [], self.foreign


def _open(browser: Any, url: str, size: str, request: pytest.FixtureRequest) -> tuple[Any, Watch]:
    page = browser.new_context(**VIEWPORTS[size]).new_page()
    request.node.pages = [*getattr(request.node, "pages", []), page]
    watch = Watch(page, url)
    page.goto(url)
    page.wait_for_selector("body[data-ready=yes] #board .hits [data-figure]")
    return page, watch


def _box(page: Any, selector: str) -> dict[str, float]:
    for _ in range(20):  # the board is redrawn when the game changes: the element may be replaced just then
        box = page.locator(selector).first.bounding_box()
        if box is not None:
            return dict(box)
        time.sleep(0.05)
    raise AssertionError(f"{selector} is not on the page")


def _inside(box: dict[str, float], w: int, h: int) -> bool:
    return box["x"] >= -0.5 and box["y"] >= -0.5 and box["x"] + box["width"] <= w + 0.5 and box["y"] + box["height"] <= h + 0.5


def _small_targets(page: Any) -> list[str]:
    """Every visible tap target (the board's figures and squares, the page's buttons, fields,
    rows, disclosure triangles, links and checkboxes' labels) smaller than 44 x 44 CSS px, by its
    bounding box."""
    return list(page.evaluate("""(min) => {
        const out = [];
        const sel = '#board .hits [data-figure], #board .hits [data-square], button, select, summary, tr.tap, input[type=number], input[type=text], ' +
                    'a[href], label:has(> input[type=checkbox])';
        for (const el of document.querySelectorAll(sel)) {
            const r = el.getBoundingClientRect();
            if (!r.width || !r.height || el.closest('[hidden]') || getComputedStyle(el).visibility === 'hidden') continue;
            if (!el.closest('#board') && !el.checkVisibility()) continue;
            const name = el.id || el.dataset.figure || el.dataset.square || el.tagName;
            if (r.width < min || r.height < min) out.push(name + ' ' + r.width.toFixed(1) + 'x' + r.height.toFixed(1));
        }
        return out;
    }""", MIN_TAP))


def _tap(page: Any, selector: str, touch: bool) -> None:
    box = _box(page, selector)
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    if touch:
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)


@pytest.mark.parametrize("size", list(VIEWPORTS))
@pytest.mark.parametrize("example", EXAMPLES)
def test_the_whole_map_fits_targets_are_thumb_sized_and_the_verdict_is_on_screen(
        example_tables: dict[str, tuple[str, Path]], browser: Any, request: pytest.FixtureRequest, example: str, size: str) -> None:
    url, path = example_tables[example]
    page, watch = _open(browser, url, size, request)
    vw, vh = VIEWPORTS[size]["viewport"]["width"], VIEWPORTS[size]["viewport"]["height"]
    touch = bool(VIEWPORTS[size].get("has_touch"))
    # the whole map on screen after load, nothing to scroll
    board = _box(page, "#board svg")
    assert _inside(board, vw, vh), (board, vw, vh)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth && document.documentElement.scrollHeight <= window.innerHeight")
    assert _small_targets(page) == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{example}-{size}-load.png"))
    # mine, then a target from the board: the pair's verdict on screen without scrolling
    figures = page.eval_on_selector_all("#board .hits [data-figure]", "els => els.map(e => e.dataset.figure)")
    assert len(figures) >= 2
    mine = figures[0]
    _tap(page, f'#board .hits [data-figure="{mine}"]', touch)
    page.wait_for_selector("#answer tr[data-target]")
    assert page.locator("#mine-id").inner_text() == mine
    assert _small_targets(page) == []
    target = page.locator("#answer tr[data-target]").first.get_attribute("data-target")
    _tap(page, f'#board .hits [data-figure="{target}"]', touch)
    page.wait_for_selector(f"#answer h3:has-text('{mine} → {target}')")
    assert page.locator("#mine-id").inner_text() == mine and page.locator("#target-id").inner_text() == target  # not re-targeted
    if page.locator("#verdict").count():
        verdict = _box(page, "#verdict")
        assert _inside(verdict, vw, vh), (verdict, vw, vh)
        text = page.locator("#verdict").inner_text()
        assert "Line of sight" in text and "Cover" in text and "Attack" in text
    else:  # the card lacks a number: the form asking for it is on screen instead
        assert _inside(_box(page, "#missing-form"), vw, vh)
    assert _small_targets(page) == []
    page.screenshot(path=str(SHOTS / f"{example}-{size}-pair.png"))
    # every verb the server answers is on the page (the local ones shown, disabled)
    verbs = page.evaluate("fetch('api/verbs').then(r => r.json())")
    listed = page.eval_on_selector_all("#verb-select option[data-verb]", "els => els.map(e => [e.value, e.disabled])")
    assert sorted(v for v, _ in listed) == sorted(verbs["verbs"])
    assert all(off == verbs["detail"][v]["local"] for v, off in listed)
    watch.check()
    page.context.close()


#: the small and the square screens (round 32, reading R370): a 320 x 568 phone, a 360 x 640 one, a
#: tablet on its side, and a browser zoomed to 200 % (its page is half as many CSS px, each two device px)
SMALL_VIEWPORTS = {
    "phone-320x568": {"viewport": {"width": 320, "height": 568}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2},
    "phone-360x640": {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2},
    "tablet-1024x768": {"viewport": {"width": 1024, "height": 768}, "is_mobile": True, "has_touch": True},
    "zoom200-768x1024": {"viewport": {"width": 384, "height": 512}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2},
    "zoom200-1024x768": {"viewport": {"width": 512, "height": 384}, "device_scale_factor": 2},
}


@pytest.mark.parametrize("size", list(SMALL_VIEWPORTS))
@pytest.mark.parametrize("example", EXAMPLES)
def test_on_a_small_or_zoomed_screen_the_map_fits_and_the_pairs_whole_verdict_is_on_screen(
        example_tables: dict[str, tuple[str, Path]], browser: Any, request: pytest.FixtureRequest, example: str, size: str) -> None:
    url, _ = example_tables[example]
    spec = SMALL_VIEWPORTS[size]
    vw, vh = spec["viewport"]["width"], spec["viewport"]["height"]
    page = browser.new_context(**spec).new_page()
    request.node.pages = [page]
    watch = Watch(page, url)
    page.goto(url)
    page.wait_for_selector("body[data-ready=yes] #board .hits [data-figure]")
    assert _inside(_box(page, "#board svg"), vw, vh)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth && document.documentElement.scrollHeight <= window.innerHeight")
    assert _small_targets(page) == []
    touch = bool(spec.get("has_touch"))
    figures = page.eval_on_selector_all("#board .hits [data-figure]", "els => els.map(e => e.dataset.figure)")
    _tap(page, f'#board .hits [data-figure="{figures[0]}"]', touch)
    page.wait_for_selector("#answer tr[data-target]")
    target = page.locator("#answer tr[data-target]").first.get_attribute("data-target")
    _tap(page, f'#board .hits [data-figure="{target}"]', touch)
    page.wait_for_selector(f"#answer h3:has-text('{figures[0]} → {target}')")
    if page.locator("#verdict").count():
        # the verdict's every line (the Attack line's chance and damage, or its first reason) and the pair's title
        assert _inside(_box(page, "#verdict"), vw, vh), (_box(page, "#verdict"), vw, vh)
        assert _inside(_box(page, "#answer h3"), vw, vh)
    else:
        assert _inside(_box(page, "#missing-form"), vw, vh)
    assert _small_targets(page) == []
    watch.check()
    page.context.close()


def test_pinch_double_tap_and_fit(example_tables: dict[str, tuple[str, Path]], browser: Any, request: pytest.FixtureRequest) -> None:
    url, _ = example_tables["clone-wars-corridor"]
    page, watch = _open(browser, url, "phone", request)
    fit = _box(page, "#board svg")
    b = _box(page, "#board")
    cx, cy = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
    # two fingers spread apart (pointer events, as a phone's browser sends them)
    page.evaluate("""([cx, cy]) => {
        const board = document.getElementById('board');
        const ev = (type, id, x) => board.dispatchEvent(new PointerEvent(type,
            {pointerId: id, pointerType: 'touch', clientX: x, clientY: cy, bubbles: true, isPrimary: id === 1}));
        ev('pointerdown', 1, cx - 20); ev('pointerdown', 2, cx + 20);
        for (let d = 20; d <= 80; d += 10) { ev('pointermove', 1, cx - d); ev('pointermove', 2, cx + d); }
        ev('pointerup', 1, cx - 80); ev('pointerup', 2, cx + 80);
    }""", [cx, cy])
    pinched = _box(page, "#board svg")
    assert pinched["width"] > fit["width"] * 3.5  # spread 40 -> 160 px: four times
    assert _small_targets(page) == []  # still 44 px at this zoom
    page.screenshot(path=str(SHOTS / "corridor-phone-pinched.png"))
    page.click("#b-fit")
    assert _box(page, "#board svg") == fit
    # a double tap on an empty square zooms in there; another goes back to the whole map
    empty = page.evaluate("""() => { const figs = [...document.querySelectorAll('#board .hits circle')]
            .map(c => [+c.getAttribute('cx'), +c.getAttribute('cy'), +c.getAttribute('r')]);
        for (const r of document.querySelectorAll('#board .hits rect')) {
            const x = +r.dataset.cx, y = +r.dataset.cy;
            if (figs.every(([fx, fy, fr]) => Math.hypot(x - fx, y - fy) > fr + 2)) return r.dataset.square; } }""")
    box = _box(page, f'#board .hits rect[data-square="{empty}"]')
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.touchscreen.tap(x, y)
    page.touchscreen.tap(x, y)
    page.wait_for_function(f"document.querySelector('#board svg').getBoundingClientRect().width > {fit['width'] * 2}")
    page.touchscreen.tap(x, y)
    page.touchscreen.tap(x, y)
    page.wait_for_function(f"Math.abs(document.querySelector('#board svg').getBoundingClientRect().width - {fit['width']}) < 1")
    watch.check()
    page.context.close()


def test_a_tap_on_the_sight_line_falls_through_and_taps_record_once(example_tables: dict[str, tuple[str, Path]], browser: Any,
                                                                      request: pytest.FixtureRequest) -> None:
    url, path = example_tables["clone-wars-example-combat"]
    page, watch = _open(browser, url, "phone", request)
    _tap(page, '#board .hits [data-figure="sbd"]', True)
    page.wait_for_selector('#answer tr[data-target="obi"]')
    _tap(page, '#board .hits [data-figure="obi"]', True)
    page.wait_for_selector("#board line.witness")
    # every point of the witness line (and its end dots) gives the tap to the hit layer, not the drawing
    under = page.evaluate("""() => { const l = document.querySelector('#board line.witness').getBoundingClientRect();
        return [0.02, 0.5, 0.98].map(f => { const el = document.elementFromPoint(l.left + l.width * f, l.top + l.height * f);
                                           return !!(el && el.closest('.hits')); }); }""")
    assert under == [True, True, True]
    # the other figure taps into the target slot: "mine" stays sbd
    _tap(page, '#board .hits [data-figure="dooku"]', True)
    page.wait_for_selector("#answer h3:has-text('sbd → dooku')")
    assert page.locator("#mine-id").inner_text() == "sbd"
    # combined fire: tap the helper, the verdict asks with it
    page.locator('#answer').wait_for()
    _tap(page, '#board .hits [data-figure="obi"]', True)  # back to obi as the target
    page.wait_for_selector("#answer h3:has-text('sbd → obi')")
    page.click("#b-helpers")
    _tap(page, '#board .hits [data-figure="sbdc"]', True)
    page.wait_for_selector("#answer h3:has-text('sbdc')")
    assert "sbdc" in page.locator("#helpers").inner_text() and page.locator("#target-id").inner_text() == "obi"
    # a record whose first answer is lost is sent again with the same request id
    ids: list[str] = []
    page.on("request", lambda r: ids.append(r.headers.get("x-request-id", "")) if "/api/do/game/" in r.url else None)
    page.click("#b-activate")  # refused before initiative: the refusal names its rule
    page.wait_for_function("document.getElementById('message').textContent.includes('initiative')")
    assert "PL p." in page.locator("#message").inner_text()
    dropped = []

    def drop_first(route: Any) -> None:
        if not dropped:
            dropped.append(route.request.url)
            route.abort()
        else:
            route.continue_()
    page.route("**/api/do/game/initiative", drop_first)
    page.click("#b-initiative")
    page.fill('#initiative-form input[data-side="light"]', "5")
    page.fill('#initiative-form input[data-side="dark"]', "15")
    page.click("#b-init-record")
    page.wait_for_function("document.getElementById('round').textContent.includes('round 1')")
    assert len(ids) == 3 and ids[1] == ids[2] and len(ids[1]) == 36 and ids[0] != ids[1]  # a fresh id per action
    watch.check()
    page.context.close()


def test_every_game_verb_opens_its_form_from_the_phone(example_tables: dict[str, tuple[str, Path]], browser: Any,
                                                       request: pytest.FixtureRequest) -> None:
    url, _ = example_tables["clone-wars-example-combat"]
    page, watch = _open(browser, url, "phone", request)
    _tap(page, '#board .hits [data-figure="sbd"]', True)
    page.wait_for_selector('#answer tr[data-target="obi"]')
    _tap(page, '#board .hits [data-figure="obi"]', True)
    page.wait_for_selector("#answer h3:has-text('sbd → obi')")
    options = page.eval_on_selector_all("#verb-select option[data-verb]:not([disabled])", "els => els.map(e => e.value)")
    page.click("#verbs-box summary")
    for verb in options:
        page.select_option("#verb-select", verb)
        page.wait_for_selector(f'#verb-form[data-verb="{verb}"]')
    # a chip fills the form from the slots: damage to mine
    page.click('#verb-chips [data-verb="game damage"]')
    page.wait_for_selector('#verb-form[data-verb="game damage"]')
    assert page.input_value('#verb-form input[data-name="figure"]') == "sbd"
    page.fill('#verb-form input[data-name="amount"]', "10")
    page.click("#verb-go")
    page.wait_for_function("document.getElementById('message').textContent.includes('sbd')")
    page.screenshot(path=str(SHOTS / "phone-verb-recorded.png"))
    watch.check()
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_the_export_link_and_the_checkboxes_are_thumb_sized(example_tables: dict[str, tuple[str, Path]], browser: Any,
                                                           request: pytest.FixtureRequest, lang: str) -> None:
    """The judge's export link under the game log was a line of text 19 px high, and a verb form's
    checkbox (ranged, burrow, Move Faster, let the assistant roll) a 24 px box beside a 22 px label:
    a thumb missed them (round 21's sweep at 360 x 640 to 1024 x 768)."""
    url, _ = example_tables["clone-wars-example-combat"]
    page = browser.new_context(viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True, locale=lang).new_page()
    request.node.pages = [page]
    watch = Watch(page, url)
    page.goto(url)
    page.wait_for_selector("body[data-ready=yes] #board .hits [data-figure]")
    page.click("#log-box summary")
    export = _box(page, "#export")
    assert export["height"] >= MIN_TAP and export["width"] >= MIN_TAP, export
    page.click("#verbs-box summary")
    for verb, name in (("game attack", "ranged"), ("game move", "burrow"), ("game initiative", "auto")):
        page.select_option("#verb-select", verb)
        page.wait_for_selector(f'#verb-form[data-verb="{verb}"]')
        label = page.locator(f'#verb-form label:has(input[data-name="{name}"])')
        label.scroll_into_view_if_needed()
        box = label.bounding_box()
        assert box is not None and box["height"] >= MIN_TAP and box["width"] >= MIN_TAP, (verb, box)
        _tap(page, f'#verb-form label:has(input[data-name="{name}"])', True)
        assert page.locator(f'#verb-form input[data-name="{name}"]').is_checked(), verb  # the label's tap ticks it
        assert _small_targets(page) == []
    page.screenshot(path=str(SHOTS / f"phone-360-checkbox-{lang}.png"))
    watch.check()
    page.context.close()


def test_the_card_games_page_fits_a_phone(tmp_path: Path, browser: Any, request: pytest.FixtureRequest) -> None:
    import uvicorn

    from assistant.cardgame.log import CardGameLog
    from assistant.cardgames import find_card_game
    from assistant.live.table import CardTable
    from assistant.live.web import create_app
    from assistant.resources import card_table_example

    for kind in ("destiny", "swtcg"):
        path = tmp_path / f"{kind}.sqlite"
        CardGameLog.new(path, find_card_game(kind), card_table_example(kind)).close()
        port = _free_port()
        app = create_app(CardTable(path))
        srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
        thread = threading.Thread(target=srv.run, daemon=True)
        thread.start()
        for _ in range(100):
            if srv.started:
                break
            time.sleep(0.05)
        try:
            url = f"http://127.0.0.1:{port}/"
            page = browser.new_context(**VIEWPORTS["phone"]).new_page()
            request.node.pages = [page]
            watch = Watch(page, url)
            page.goto(url)
            page.wait_for_selector("#lines")
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            assert _small_targets(page) == []
            page.click("#log-box summary")  # the judge's export link under the log
            # the judge's Markdown export and the JSON log that `game import` replays
            downloads = page.locator('#log-box a[download]')
            assert downloads.count() == 2
            assert all(downloads.nth(i).is_visible() for i in range(2)) and _small_targets(page) == []
            page.screenshot(path=str(SHOTS / f"{kind}-phone.png"), full_page=True)
            watch.check()
            page.context.close()
        finally:
            _stop(app, srv, thread)


@contextmanager
def _destiny_phone(tmp_path: Path, browser: Any, request: pytest.FixtureRequest) -> Iterator[tuple[Any, Any]]:
    """A phone's page on a new Destiny table, served: the page and its console watch."""
    from assistant.cardgame.log import CardGameLog
    from assistant.cardgames import find_card_game
    from assistant.live.table import CardTable
    from assistant.resources import card_table_example

    path = tmp_path / "destiny.sqlite"
    CardGameLog.new(path, find_card_game("destiny"), card_table_example("destiny")).close()
    with _serving(CardTable(path)) as url:
        page = browser.new_context(**VIEWPORTS["phone"]).new_page()
        request.node.pages = [page]
        watch = Watch(page, url)
        page.goto(url)
        page.wait_for_selector("#lines")
        yield page, watch


@pytest.mark.parametrize("size", [(360, 640), (844, 390)])
def test_a_card_plays_answer_and_refusal_are_on_a_small_phones_screen(tmp_path: Path, browser: Any, request: pytest.FixtureRequest,
                                                                       size: tuple[int, int]) -> None:
    """A 360 x 640 phone (and a phone held sideways): the answer to "May I?" and the refusal of
    "Record" were drawn below the game log, 711 and 857 px down a 640 px screen, so the player saw
    nothing happen. They are under the buttons now, scrolled onto the screen."""
    from assistant.cardgame.log import CardGameLog
    from assistant.cardgames import find_card_game
    from assistant.live.table import CardTable
    from assistant.resources import card_table_example

    w, h = size
    path = tmp_path / "destiny.sqlite"
    CardGameLog.new(path, find_card_game("destiny"), card_table_example("destiny")).close()
    with _serving(CardTable(path)) as url:
        page = browser.new_context(viewport={"width": w, "height": h}, is_mobile=True, has_touch=True, device_scale_factor=2).new_page()
        request.node.pages = [page]
        watch = Watch(page, url)
        page.goto(url)
        page.wait_for_selector("#lines")
        page.fill("#command", "A pass")  # the setup phase: the rules refuse a pass
        page.tap("#b-check")
        page.wait_for_selector("#answer p.illegal")
        page.wait_for_timeout(300)  # a smooth scroll, if the browser makes one, has ended
        assert _inside(_box(page, "#answer"), w, h), (_box(page, "#answer"), w, h)
        page.screenshot(path=str(tmp_path / f"destiny-{w}x{h}-check.png"))
        page.tap("#b-do")
        page.wait_for_function("document.getElementById('message').textContent.includes('Refused')")
        page.wait_for_timeout(300)
        assert _inside(_box(page, "#message"), w, h), (_box(page, "#message"), w, h)
        # the phone's own way to override, not the command line's flag
        said = page.locator("#message").inner_text()
        assert "--override" not in said and "Override reason" in said and "setup phase" in said, said
        page.screenshot(path=str(tmp_path / f"destiny-{w}x{h}-refused.png"))
        watch.check()
        page.context.close()


def test_a_play_the_rules_refuse_recorded_by_override_is_not_shown_legal(tmp_path: Path, browser: Any, request: pytest.FixtureRequest) -> None:
    """A judge records a refused play (B passes out of turn) with an override: the phone's answer
    says it is not legal and was recorded by the override, never "legal" (it was shown so)."""
    with _destiny_phone(tmp_path, browser, request) as (page, watch):
        page.fill("#command", "A pass")  # the setup phase: the rules refuse a pass
        page.fill("#override", "judge: testing")
        page.click("#b-do")
        page.wait_for_function("document.getElementById('message').textContent.includes('recorded')")
        verdict = page.locator("#answer p").first
        assert verdict.get_attribute("class") == "illegal"
        assert verdict.locator("b").inner_text() == "not legal, recorded by the judge's override"
        assert "the rules refuse it" in page.locator("#answer li").first.inner_text()
        page.fill("#command", "battlefield-roll A=5 B=3")  # a legal play is still shown legal
        page.click("#b-do")
        page.wait_for_function("document.getElementById('message').textContent.includes('#3')")
        assert page.locator("#answer p b").first.inner_text() == "legal"
        watch.check()
        page.context.close()


def test_the_next_play_typed_while_one_is_recorded_is_kept(tmp_path: Path, browser: Any, request: pytest.FixtureRequest) -> None:
    """A user's trial (round 18) at 390 x 844: a player typed the next Destiny play while the one
    before was still being recorded; its answer then emptied the field, and the next tap on Record
    sent an empty play ("say the play as 'command'"). The field is emptied only if it still holds
    the play that was sent."""
    with _destiny_phone(tmp_path, browser, request) as (page, watch):
        held: list[Any] = []
        page.route("**/api/do", lambda route: held.append(route))  # the answer is on its way...
        page.fill("#command", "battlefield-roll A=5 B=3")
        page.click("#b-do")
        page.wait_for_function("() => true")
        for _ in range(100):
            if held:
                break
            page.wait_for_timeout(20)
        page.fill("#command", "A choose-battlefield B")  # ...while the next play is typed
        held[0].continue_()
        page.wait_for_function("document.getElementById('message').textContent.includes('#2')")
        assert page.input_value("#command") == "A choose-battlefield B"
        page.unroute("**/api/do")
        page.click("#b-do")
        page.wait_for_function("document.getElementById('message').textContent.includes('#3')")
        assert page.input_value("#command") == ""  # the play sent and recorded: emptied
        page.click("#b-do")  # nothing typed: said on the page, not the API's "say the play as 'command'"
        page.wait_for_function("document.getElementById('message').textContent.includes('Type the play first')")
        watch.check()
        page.context.close()


def test_a_move_on_one_phone_updates_the_other_phones_open_answer(server: tuple[str, Path], browser: Any,
                                                                   request: pytest.FixtureRequest) -> None:
    url, _ = server
    page, _w = _open(browser, url, "phone", request)
    other, watch = _open(browser, url, "phone", request)
    _tap(other, '#board .hits [data-figure="obi"]', True)  # phone B asks obi -> sbd and keeps it open
    other.wait_for_selector('#answer tr[data-target="sbd"]')
    _tap(other, '#board .hits [data-figure="sbd"]', True)
    other.wait_for_selector("#answer h3:has-text('obi → sbd')")
    assert "yes" in other.locator("#verdict dd").first.inner_text()
    _initiative(page, {"light": "5", "dark": "15"})  # phone A: sbd walks behind the wall (B7 -> E7)
    _tap(page, '#board .hits [data-figure="sbd"]', True)
    page.click("#b-activate")
    page.wait_for_function("document.getElementById('message').textContent.includes('activates')")
    page.click("#b-move")
    # squares are 25.8 px on this phone: the board zooms in on the mover until a square is a thumb's 44 px
    assert _box(page, '#board rect[data-sq="E7"]')["width"] >= MIN_TAP
    _tap(page, '#board .hits rect[data-square="E7"]', True)
    page.wait_for_selector("#b-move-confirm")
    page.click("#b-move-confirm")
    page.wait_for_function("document.getElementById('message').textContent.includes('E7')")
    assert _inside(_box(page, "#board svg"), 390, 844)  # the whole map again
    # B's open answer is recomputed: same pair, no line of sight now, and the board moved the figure
    other.wait_for_function("document.querySelector('#verdict dd') && document.querySelector('#verdict dd').textContent === 'no'", timeout=3000)
    assert other.locator("#answer h3").inner_text().startswith("obi → sbd")
    assert other.locator("#mine-id").inner_text() == "obi" and other.locator("#target-id").inner_text() == "sbd"
    other.screenshot(path=str(SHOTS / "phone-b-after-a-moved.png"))
    watch.check()


def test_a_spectator_sees_the_board_and_the_verdict_read_only(tmp_path: Path, browser: Any, request: pytest.FixtureRequest) -> None:
    from assistant.live.table import Table
    from assistant.live.web import create_app

    path = tmp_path / "g.sqlite"
    Game.new(path, example_path("clone-wars-example-combat").read_text(encoding="utf-8"), default_library(), override="tests").close()
    app = create_app(Table(game=path, library=default_library()), token="player-secret", spectator="onlooker")
    with _serving_app(app) as served:
        url = served + "?t=onlooker"
        page, watch = _open(browser, url, "phone", request)
        assert _inside(_box(page, "#board svg"), 390, 844)
        assert page.locator("#b-activate").count() == 0 and page.locator("#b-undo").count() == 0
        _tap(page, '#board .hits [data-figure="sbd"]', True)
        page.wait_for_selector('#answer tr[data-target="obi"]')
        _tap(page, '#board .hits [data-figure="obi"]', True)
        page.wait_for_selector("#verdict")
        assert _inside(_box(page, "#verdict"), 390, 844)
        writes = page.eval_on_selector_all("#verb-select option[data-verb]", "els => els.filter(e => !e.disabled).map(e => e.value)")
        from assistant.commands import load_all
        from assistant.commands.registry import find

        load_all()
        # the spectator's list offers questions only: no verb the registry says records an event
        assert writes and not [v for v in writes if find(v).writes], writes
        watch.check()
        page.context.close()


def test_a_polish_phone_has_no_english_left_on_its_key_elements(server: tuple[str, Path], browser: Any, request: pytest.FixtureRequest) -> None:
    """Slots, buttons, verb chips, a form's labels, a question's answer, the log's last line and
    the verdict's labels are in Polish (issue 27, Deliver 6): none is the English text."""
    url, _ = server
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale="pl-PL")
    page = ctx.new_page()
    request.node.pages = [page]
    page.goto(url)
    page.wait_for_selector("body[data-ready=yes] #board .hits [data-figure]")
    page.click("#b-initiative")
    page.click("#b-init-auto")
    page.wait_for_selector("#message.ok")
    page.wait_for_function("document.querySelectorAll('#log li').length >= 2")  # the setup, then the initiative
    last = (page.locator("#log li").last.text_content() or "").strip()
    assert "wygrywa" in last and ("jasna strona" in last or "ciemna strona" in last), last
    assert not any(w in last.split() for w in ("light", "dark", "wins")), last
    _tap_figure(page, "sbd")
    page.wait_for_selector("#answer tr[data-target]")
    page.locator('#answer tr[data-target="obi"]').click()
    page.wait_for_selector("#answer h3:has-text('sbd → obi')")
    english = {"mine", "target", "Activate", "Move…", "Attack", "Combined fire…", "End turn", "Roll initiative", "d20",
               "Line of sight:", "Cover:", "Attack:", "aoo", "charge", "power", "morale", "damage", "heal", "condition", "force",
               "door", "embark", "disembark", "flee", "remove", "note", "end", "attack of opportunity", "Force points",
               "figure", "figure *", "amount *", "by", "saves", "viewer *", "target *", "All commands", "Game log"}
    shown = {t.strip() for t in page.locator(
        "#slot-mine span, #slot-target span, #actions button, label.d20, #verdict dt, .verb-chip, #verbs-box summary, #log-box summary"
    ).all_inner_texts()}
    assert len(page.locator(".verb-chip").all()) >= 10
    assert not shown & english, shown & english
    page.click(".verb-chip[data-verb='game damage']")
    labels = {t.strip() for t in page.locator("#verb-form label").all_inner_texts()}
    assert "postać *" in labels and not labels & english, labels
    page.click("#verb-close")
    page.click("#verbs-box summary")
    page.select_option("#verb-select", "los")
    assert {t.strip() for t in page.locator("#verb-form label").all_inner_texts()} == {"patrzący *", "cel *"}
    page.fill("#verb-form input[data-name=viewer]", "sbd")
    page.fill("#verb-form input[data-name=target]", "obi")
    page.click("#verb-go")
    page.wait_for_function("document.querySelector('#verb-result') && document.querySelector('#verb-result').textContent")
    answer = page.locator("#verb-result").inner_text()
    assert answer.startswith("sbd → obi") and "{" not in answer, answer  # the answer's text, not its JSON
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "phone-pl-no-english.png"), full_page=True)


#: a page on another site (another origin: another port) that tries every write a browser lets
#: it make to the table, and a read; the table's address is filled in
EVIL_PAGE = """<!doctype html><html><body>
<form id="f" method="post" action="TABLE/api/act" enctype="text/plain">
<input name='{"verb": "note", "args": {"text": "form", "x": "' value='"}}'></form>
<script>
const T = "TABLE";
const note = (t) => JSON.stringify({verb: "note", args: {text: t}});
const tries = [
  fetch(T + "/api/act", {method: "POST", mode: "no-cors", headers: {"content-type": "text/plain"}, body: note("no-cors text")}),
  fetch(T + "/api/act", {method: "POST", headers: {"content-type": "application/json"}, body: note("cors json")}),
  fetch(T + "/api/act", {method: "POST", mode: "no-cors", credentials: "include", body: note("no-cors bare")}),
  fetch(T + "/api/do/game/note", {method: "POST", mode: "no-cors", headers: {"content-type": "application/x-www-form-urlencoded"},
                                   body: '{"text": "form-encoded"}'}),
  fetch(T + "/api/photo/apply", {method: "POST", mode: "no-cors", headers: {"content-type": "text/plain"},
                                  body: JSON.stringify({moves: [{figure: "obi", at: "C3"}]})}),
  fetch(T + "/").then((r) => r.text()).then((t) => "read " + t.length),
];
Promise.allSettled(tries).then((r) => {
  console.log("RESULT " + r.map((x) => x.status + ":" + (x.value && x.value.type || x.value || "")).join(" "));
  document.getElementById("f").submit();
});
</script></body></html>"""


def test_a_page_on_another_site_cannot_write_to_the_table(server: tuple[str, Path], browser: Any, request: pytest.FixtureRequest) -> None:
    """A page from another origin (a second tiny server on another port) opened in the judge's
    browser tries fetch (no-cors and CORS) and a form POST to the table: the game log is unchanged,
    and its read of the page is blocked. The table's own page, in the same browser, still records."""
    import http.server

    from assistant.live.table import Table

    url, path = server
    table = url.rstrip("/")
    before = Table(game=path, library=default_library()).version()
    page_bytes = EVIL_PAGE.replace("TABLE", table).encode()

    class Evil(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("content-type", "text/html")
            self.end_headers()
            self.wfile.write(page_bytes)

        def log_message(self, *args: Any) -> None:
            pass

    evil = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Evil)
    threading.Thread(target=evil.serve_forever, daemon=True).start()
    try:
        ctx = browser.new_context()
        page = ctx.new_page()
        request.node.pages = [page]
        said: list[str] = []
        page.on("console", lambda m: said.append(m.text))
        page.goto(f"http://127.0.0.1:{evil.server_address[1]}/")
        page.wait_for_url(table + "/api/act", timeout=10000)  # every fetch settled, then the form posted (and was refused)
        result = next(t for t in said if t.startswith("RESULT "))
        assert "read" not in result  # the table's page (and its write token) unreadable from there
        assert Table(game=path, library=default_library()).version() == before
        # the control: the table's own page in the same browser records
        own = ctx.new_page()
        own.goto(url)
        r = own.evaluate("""async () => (await fetch("api/act", {method: "POST", headers: {"content-type": "application/json",
            "x-write-token": WRITE_TOKEN}, body: JSON.stringify({verb: "note", args: {text: "ours"}})})).status""")
        assert r == 200 and Table(game=path, library=default_library()).version() == before + 1
        ctx.close()
    finally:
        evil.shutdown()


#: a hero with Melee Attack, a foe behind a wall (the reason names "hero's space") and a Light
#: Spirit whose card prints no Attack or Defense
REASONS_TABLE = """\
format: tabletop-position/1
rules: swm2008
map: {cols: 8, rows: 8, squares: {wall: ["A4:C4"]}}
figures:
  - {id: hero, side: light, at: B2, stats: {attack: 10, damage: 20, defense: 15, hp: 50, abilities: [Melee Attack]}}
  - {id: foe, side: dark, at: B6, stats: {attack: 10, damage: 20, defense: 15, hp: 50}}
  - {id: spirit, side: dark, at: F2, stats: {hp: 0, abilities: [Light Spirit]}}
"""


@pytest.fixture
def reasons_server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    yield from _game_server(tmp_path, REASONS_TABLE)


def test_the_targets_table_shows_each_reason_as_written_and_no_roll_where_no_attack_can_be_made(
        reasons_server: tuple[str, Path], browser: Any, request: pytest.FixtureRequest) -> None:
    """A new user's trial (round 15), at 390 x 844: the targets table read "every line from
    obi&#39;s space to dooku&#39;s touches a wall" (each reason escaped twice), and a Light Spirit's
    row gave a roll ("2+") where the command line's table gives "-": no attack can be made on it."""
    url, _ = reasons_server
    page = _phone_targets(url, browser, request, "hero", '#answer tr[data-target="spirit"]')
    foe = page.locator('#answer tr[data-target="foe"]').inner_text()
    assert "hero's space" in foe and "&#" not in foe and "&amp;" not in foe, foe
    spirit = page.locator('#answer tr[data-target="spirit"] td').all_inner_texts()
    assert spirit[2] == "-" and "Light Spirit" in spirit[3], spirit


def _ready_phone(browser: Any, request: pytest.FixtureRequest, url: str, size: tuple[int, int], locale: str) -> Any:
    """A phone's page of ``size`` in ``locale`` on the table, its board ready to tap."""
    page = browser.new_context(viewport={"width": size[0], "height": size[1]}, is_mobile=True, has_touch=True, locale=locale).new_page()
    request.node.pages = [page]
    page.goto(url)
    page.wait_for_selector("body[data-ready=yes] #board .hits [data-figure]")
    return page


@pytest.mark.parametrize("size", [(360, 640), (844, 390)])
def test_the_slots_are_thumb_sized_in_czech_too(server: tuple[str, Path], browser: Any, request: pytest.FixtureRequest,
                                                  size: tuple[int, int]) -> None:
    """Round 20: on a Czech phone the empty target slot ("CÍL —") was a button 39 px wide, under
    the 44 px tap target every other control keeps (the slots' ``min-width: 0``, there to let a
    long id shrink, undid the buttons' 44 px). Every control at least 44 x 44 px, in pl and cs,
    before a figure is tapped and after."""
    url, _path = server
    w, h = size
    for locale in ("cs-CZ", "pl-PL"):
        page = _ready_phone(browser, request, url, (w, h), locale)
        slot = _box(page, "#slot-target")
        assert slot["width"] >= MIN_TAP and slot["height"] >= MIN_TAP, (locale, slot)
        assert _small_targets(page) == [], locale
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"slots-{locale}-{w}x{h}.png"))
        page.context.close()


LONG_IDS = {"obi": "obi-wan-kenobi", "sbd": "security-battle-droid", "sbdc": "super-battle-droid-commander", "clone": "clone-trooper"}


@pytest.fixture
def long_ids_server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    text = example_path("clone-wars-example-combat").read_text(encoding="utf-8")
    for short, long in LONG_IDS.items():
        text = text.replace(f"{{id: {short},", f"{{id: {long},")
    yield from _game_server(tmp_path, text)


@pytest.mark.parametrize("size", [(360, 780), (390, 844), (768, 1024)])
def test_a_long_figure_id_is_readable_in_its_slot_on_a_small_phone(long_ids_server: tuple[str, Path], browser: Any,
                                                                    request: pytest.FixtureRequest, size: tuple[int, int]) -> None:
    """Reading R301 (round 28): on a 360 px phone the slots kept one row with the card and zoom
    buttons and were left about 50 px each: "obi-wan-kenobi" and "security-battle-droid" read
    "o…" and "se…", and a player could not tell the slots apart without scrolling to the answer.
    In pl and cs, with both slots filled: every slot on screen, each showing at least 12 letters
    of its id (obi-wan-kenobi whole), no sideways scroll, and the pair's answer on screen."""
    url, _path = long_ids_server
    w, h = size
    for locale in ("pl-PL", "cs-CZ"):
        page = _ready_phone(browser, request, url, (w, h), locale)
        _tap(page, '#board .hits [data-figure="obi-wan-kenobi"]', True)
        page.wait_for_selector("#answer tr[data-target]")
        _tap(page, '#board .hits [data-figure="security-battle-droid"]', True)
        page.wait_for_function("document.getElementById('target-id').textContent === 'security-battle-droid'")
        page.wait_for_selector("#verdict")
        for sel in ("#slot-mine", "#slot-target", "#b-card", "#b-zoom-out", "#b-zoom-in", "#b-fit"):
            box = _box(page, sel)
            assert box["x"] >= 0 and box["x"] + box["width"] <= w + 0.5 and box["y"] + box["height"] <= h, (locale, sel, box)
        for sel in ("#mine-id", "#target-id"):
            shown, whole, text = page.eval_on_selector(sel, "e => [e.clientWidth, e.scrollWidth, e.textContent]")
            letters = len(text) * min(1.0, shown / whole)  # how much of the id the button shows (the rest is cut with "…")
            assert letters >= 12, (locale, sel, shown, whole, text)
        assert page.eval_on_selector("#mine-id", "e => e.scrollWidth <= e.clientWidth"), locale  # obi-wan-kenobi whole
        assert page.evaluate("document.documentElement.scrollWidth") <= w, locale
        verdict = _box(page, "#verdict")
        assert 0 <= verdict["y"] and verdict["y"] + min(verdict["height"], 60) <= h, (locale, verdict)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"long-ids-{locale}-{w}x{h}.png"))
        page.context.close()


@pytest.mark.parametrize("size", [(360, 640), (844, 390)])
def test_the_answer_to_a_button_below_the_targets_is_on_screen(server: tuple[str, Path], browser: Any, request: pytest.FixtureRequest,
                                                                 size: tuple[int, int]) -> None:
    """Round 20: on a 360 x 640 phone, with a figure's targets listed, Activate, Attack and the
    initiative's Record lie 600 px down the sheet; their answer ("#3 obi activates", or the
    refusal) was said on the message line at the sheet's top, out of sight: the tap seemed to do
    nothing. The answer is now scrolled into the sheet's view (its start, when it is taller)."""
    url, _path = server
    w, h = size
    page = browser.new_context(viewport={"width": w, "height": h}, is_mobile=True, has_touch=True, locale="cs-CZ").new_page()
    request.node.pages = [page]
    page.on("dialog", lambda d: d.accept())
    page.goto(url)
    page.wait_for_selector("body[data-ready=yes] #board .hits [data-figure]")
    _tap(page, '#board .hits [data-figure="obi"]', True)
    page.wait_for_selector("#answer tr[data-target]")

    def answered(step: str) -> str:
        page.wait_for_function("document.getElementById('message').textContent.length > 0")
        box, sheet = _box(page, "#message"), _box(page, "#sheet")
        assert sheet["y"] - 0.5 <= box["y"] and box["y"] + min(box["height"], 20) <= min(h, sheet["y"] + sheet["height"]) + 0.5, (step, box, sheet)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"answer-on-screen-{step}-{w}x{h}.png"))
        text = str(page.locator("#message").inner_text())
        page.evaluate("document.getElementById('message').textContent = ''")
        return text

    page.locator("#b-activate").tap()  # before the initiative: refused, and the page says how a judge overrides
    assert "Odmítnuto" in answered("refused")
    page.locator("#b-initiative").tap()
    page.locator("#init-0").fill("15")
    page.locator("#init-1").fill("3")
    page.locator("#b-init-record").tap()
    assert answered("initiative").startswith("#2")
    _settled(page)
    page.locator("#b-activate").tap()
    assert answered("activate").startswith("#3")
    page.context.close()


def test_a_record_lacking_a_number_asks_it_on_the_phone_in_the_pages_words(tmp_path: Path, browser: Any, request: pytest.FixtureRequest,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """R173: an attack recorded from the phone whose target's card gives no Defense was refused with
    the command line's words ("keep it for the card with: cards set "Unprinted Trooper"
    defense=N"), and nothing on the page asked the number for the record. Now the message says the
    page's form, the form opens with "keep for CARD" ticked, and once kept the attack records."""
    from assistant.live.table import Table

    home = tmp_path / "home"
    monkeypatch.setenv("TABLETOP_HOME", str(home))
    write_unknown_card(home)
    path = tmp_path / "g.sqlite"
    Game.new(path, PARTIAL_POSITION, default_library(), override="tests").close()
    with _serving(Table(game=path, library=default_library())) as url:
        page = browser.new_context(viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True).new_page()
        request.node.pages = [page]
        page.goto(url)
        page.wait_for_selector("body[data-ready=yes] #board .hits [data-figure]")
        _tap(page, '#board .hits [data-figure="sbd"]', True)
        page.wait_for_selector('#answer tr[data-target="arc"]')
        page.locator("#b-initiative").tap()
        page.locator('#initiative-form input[data-side="light"]').fill("3")
        page.locator('#initiative-form input[data-side="dark"]').fill("15")
        page.locator("#b-init-record").tap()
        page.wait_for_selector("#message.ok")
        _settled(page)
        page.locator("#b-activate").tap()
        page.wait_for_function("document.getElementById('message').textContent.startsWith('#3')")
        _settled(page)
        _tap(page, '#board .hits [data-figure="arc"]', True)
        page.wait_for_selector("#missing-form")  # the question lacks the number too
        page.fill("#roll", "15")
        page.locator("#b-attack").tap()
        page.wait_for_function("document.getElementById('message').textContent.includes('keep for')")
        said = page.locator("#message").inner_text()
        assert "cards set" not in said and "--" not in said and "Unprinted Trooper" in said, said
        assert page.locator("#keep-0").is_checked()  # the record needs the number kept: ticked
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "record-missing-number-360x640.png"))
        page.fill("#miss-0", "16")
        page.locator("#missing-ask").tap()
        page.wait_for_selector("#answer:has-text('needs 9+')")
        assert "defense: 16" in (home / "card-overrides.yaml").read_text(encoding="utf-8")
        page.fill("#roll", "15")
        page.locator("#b-attack").tap()
        page.wait_for_function("document.getElementById('message').textContent.startsWith('#4')")
        page.context.close()


def test_a_refused_form_sent_again_with_the_override_or_the_rerolls_is_recorded(server: tuple[str, Path], browser: Any,
                                                                                 request: pytest.FixtureRequest) -> None:
    """trial20 (reading R182): a refusal tells the phone "write the reason under Override reason, then
    send it again" (R173), but the form sent again kept its request id, and the server answers a
    repeated id with its first answer: the same refusal, nothing recorded, for ever. An initiative
    tie likewise: its fields were number inputs where the rerolls ("5,12") could not be written."""
    url, _path = server
    page = phone(browser)
    request.node.pages = [page]
    page.goto(url)
    page.click("#b-initiative")
    page.fill('#initiative-form input[data-side="light"]', "5")
    page.fill('#initiative-form input[data-side="dark"]', "5")
    page.click("#b-init-record")
    page.wait_for_function("document.getElementById('message').textContent.includes('5,N')")
    assert "--roll" not in page.inner_text("#message")
    page.fill('#initiative-form input[data-side="light"]', "5,12")
    page.fill('#initiative-form input[data-side="dark"]', "5,3")
    page.click("#b-init-record")
    page.wait_for_selector("#message.ok")
    assert "light wins" in page.inner_text("#message"), page.inner_text("#message")
    _settled(page)
    page.click("#verbs-box summary")
    page.select_option("#verb-select", "game condition")
    page.fill('#verb-form-box input[data-name="figure"]', "obi")
    page.fill('#verb-form-box input[data-name="action"]', "add")
    page.fill('#verb-form-box input[data-name="name"]', "bogus")
    page.click("#verb-go")
    page.wait_for_function("document.getElementById('message').textContent.includes('Override reason')")
    page.fill("#override", "the scenario's own rule")
    page.click("#verb-go")
    page.wait_for_selector("#message.ok")
    assert "obi gains condition bogus; override: the scenario's own rule" in page.inner_text("#message"), page.inner_text("#message")


def _obi_by_dooku(path: Path) -> None:
    """clone-wars-example-combat's game played to Obi-Wan acting, Count Dooku moved beside him (H4)."""
    from assistant.coords import parse_square
    from assistant.game.actions import move_event

    g = Game.open(path)
    try:
        g.do("initiative", {"first": "dark", "winner": "dark", "rolls": {"light": 3, "dark": 10}})
        g.do("activate", {"figure": "dooku"})
        # the move as `game move` plans it: a record of 1 square for Dooku's 10 is void when folded (R227)
        g.do("move", move_event(g.state(), "dooku", parse_square("H4"))[0])
        for kind, data in (("end-turn", {}), ("activate", {"figure": "sbd"}), ("end-turn", {}), ("activate", {"figure": "obi"})):
            g.do(kind, data)
    finally:
        g.close()


def test_a_hit_that_meets_a_save_of_several_words_is_recorded_from_the_form(server: tuple[str, Path], browser: Any,
                                                                            request: pytest.FixtureRequest) -> None:
    """trial21 (reading R197): Obi-Wan's hit on Count Dooku meets Makashi Style Master's save. The
    page said the command line's --save "Makashi Style Master=N", and the form's "save as rolled"
    field cut what was written at each space ("--save 'Makashi': write ABILITY=N"): no hit on
    Dooku could be recorded from the phone."""
    url, path = server
    _obi_by_dooku(path)
    page = phone(browser)
    request.node.pages = [page]
    page.goto(url)
    _settled(page)
    _tap_figure(page, "obi")
    _tap_figure(page, "dooku")
    page.fill("#roll", "15")
    page.click("#b-attack")
    page.wait_for_function("document.getElementById('message').textContent.includes('Makashi Style Master=N')")
    said = page.inner_text("#message")
    assert "--save" not in said and "save as rolled" in said, said
    page.click("#verbs-box summary")
    page.select_option("#verb-select", "game attack")
    page.fill('#verb-form-box input[data-name="roll"]', "15")
    page.fill('#verb-form-box input[data-name="save"]', "Makashi Style Master=4")
    page.click("#verb-go")
    page.wait_for_selector("#message.ok")
    assert "obi attacks dooku: roll 15 needs 11 -> hits for 20 damage" in page.inner_text("#message"), page.inner_text("#message")


def test_the_quick_attack_bar_records_a_force_reroll(server: tuple[str, Path], browser: Any, request: pytest.FixtureRequest) -> None:
    """Round 21 left (reading R212): the phone's quick Attack bar had no Force reroll -- Obi-Wan's
    player who paid a Force point after a miss had to undo it and find the "record an attack" form.
    The bar shows a reroll field with the reroll's own number wherever the pair's answer offers one
    (not for a figure without Force points), and records both dice in one event (R187)."""
    url, path = server
    _obi_by_dooku(path)
    page = browser.new_context(viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True).new_page()
    request.node.pages = [page]
    page.goto(url)
    _settled(page)
    _tap_figure(page, "sbd")  # no Force points: no reroll offered
    page.wait_for_selector("#answer tr[data-target]")
    _tap_figure(page, "obi")
    page.wait_for_selector("#answer h3:has-text('sbd → obi')")
    assert page.locator("#reroll-box").is_hidden()
    page.click("#slot-mine")
    _tap_figure(page, "obi")
    page.wait_for_selector("#answer tr[data-target]")
    _tap_figure(page, "dooku")
    page.wait_for_selector("#answer h3:has-text('obi → dooku')")
    page.wait_for_selector("#reroll-box:visible")
    assert page.inner_text("#reroll-needs") == "(7+)"  # 11 needed, Mettle's +4 on the reroll (PL p.54)
    box = _box(page, "#reroll")
    assert box["width"] >= MIN_TAP and box["height"] >= MIN_TAP and box["x"] + box["width"] <= 360.5, box
    page.fill("#roll", "3")
    page.fill("#reroll", "2")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#b-attack").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "quick-bar-force-reroll-360x640.png"))
    page.click("#b-attack")
    page.wait_for_selector("#message.ok")
    said = page.inner_text("#message")
    assert "roll 3 needs 11, rerolled with a Force point; roll 2 needs 7 -> misses" in said, said
    assert page.input_value("#roll") == "" and page.input_value("#reroll") == ""  # each die is used once
    g = Game.open(path)
    try:
        last = g.events()[-1]
        assert (last.kind, last.data["roll"], last.data["reroll"], last.data["hit"]) == ("attack", 3, 2, False)
        assert last.data["force_spent"] == {"obi": 1}  # the reroll's Force point
    finally:
        g.close()


@pytest.mark.parametrize("locale", ["en-US", "pl-PL", "cs-CZ"])
def test_the_header_is_two_lines_on_a_phone_in_every_language(server: tuple[str, Path], browser: Any, request: pytest.FixtureRequest,
                                                               locale: str) -> None:
    """Round 21 left (reading R213): on a 360 px phone the Polish and Czech header wrapped to 105 px
    (three lines; English 60), room the map and the answer lacked. Two lines at most now, the
    figures left to act whole on the second, and a tap shows the header whole."""
    url, _path = server
    page = browser.new_context(viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True, locale=locale).new_page()
    request.node.pages = [page]
    page.goto(url)
    page.wait_for_selector("body[data-ready=yes] #board .hits [data-figure]")
    page.wait_for_function("document.getElementById('left').textContent.includes(': 3')")
    status = _box(page, "#status")
    assert status["height"] <= 56, status  # two lines of 14 px text
    assert _box(page, "#board")["y"] >= status["y"] + status["height"] - 0.5
    for span in ("round", "acting", "left"):  # nothing cut: the round, who acts, both sides' counts
        cut = page.evaluate(f"(() => {{ const a = document.getElementById('{span}'); return [a.scrollWidth, a.clientWidth, a.textContent]; }})()")
        assert cut[0] <= cut[1], (span, cut)
    # a figure acting: its name on the first line, the counts still whole on the second
    g = Game.open(_path)
    try:
        g.do("initiative", {"first": "light", "winner": "light", "rolls": {"light": 13, "dark": 3}})
        g.do("activate", {"figure": "obi"})
    finally:
        g.close()
    page.wait_for_function("document.getElementById('acting').textContent.includes('obi')")
    page.wait_for_function("document.getElementById('left').textContent.includes(': 1')")
    status = _box(page, "#status")
    assert status["height"] <= 56, status
    for span in ("round", "acting", "left"):
        cut = page.evaluate(f"(() => {{ const a = document.getElementById('{span}'); return [a.scrollWidth, a.clientWidth, a.textContent]; }})()")
        assert cut[0] <= cut[1], (span, cut)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"header-{locale}-360x640.png"))
    page.locator("#status").click()
    assert "full" in (page.get_attribute("#status", "class") or "")


def _samurai_asks_the_ogre(browser: Any, request: pytest.FixtureRequest, url: str, w: int, h: int, locale: str) -> Any:
    """A phone (w x h, ``locale``) on the DDM example's table, samurai -> ogre asked: two numbers
    missing (the samurai's melee attack, the ogre's AC), their form shown. Ranger -> mauler, asked
    here before, is refused whatever the numbers since R271 (no line of sight, not adjacent)."""
    page = browser.new_context(viewport={"width": w, "height": h}, is_mobile=True, has_touch=True, locale=locale).new_page()
    request.node.pages = [page]
    page.goto(url)
    page.wait_for_selector("body[data-ready=yes] #board .hits [data-figure]")
    _tap_figure(page, "samurai")
    page.wait_for_selector("#answer tr[data-target]")
    _tap_figure(page, "ogre")
    page.wait_for_selector("#missing-form")
    return page


@pytest.mark.parametrize(("locale", "said"), [("pl-PL", {"atak wręcz", "KP"}), ("cs-CZ", {"útok na blízko", "AC"})])
def test_a_missing_number_is_named_in_the_pages_language(tmp_path: Path, browser: Any, request: pytest.FixtureRequest,
                                                          locale: str, said: set[str]) -> None:
    """Round 22 (reading R214): the DDM example's pair asks the Brass Samurai's melee attack and the
    ogre's AC (the ranger and the Orc Mauler until R271); a Polish or Czech phone's form said "melee
    attack: ranger" -- the number's name in English inside its own language."""
    for url, _path in _game_server(tmp_path, example_path("ddm-forest-field").read_text(encoding="utf-8")):
        page = _samurai_asks_the_ogre(browser, request, url, 360, 640, locale)
        labels = " | ".join(page.locator("#missing-form .missing-row > label[for]").all_inner_texts())
        assert all(w in labels for w in said), labels
        assert "melee attack" not in labels, labels
        page.context.close()


def test_a_bidi_override_in_a_note_is_shown_escaped_on_every_phone(server: tuple[str, Path], browser: Any, request: pytest.FixtureRequest) -> None:
    """Round 22 (reading R215): a note or an override reason is kept as sent (JSON keeps the text),
    and the page showed it as sent: a right-to-left override in one phone's note turned the rest of
    its log line around on every phone ("[undone]" read "]enodnu["). The page writes it as the
    judge's terminal does (textsafe.shown): the escape, never the character."""
    url, path = server
    g = Game.open(path)
    try:
        g.do("note", {"text": "obi \u202eevom on\u202c ok \x1b[2J"})
        g.undo()
    finally:
        g.close()
    page = phone(browser)
    request.node.pages = [page]
    page.goto(url)
    page.wait_for_selector("body[data-ready=yes] #board .hits [data-figure]")
    page.click("#log-box summary")
    page.wait_for_function("document.querySelectorAll('#log li').length >= 3")
    line = page.locator("#log li").nth(1).text_content() or ""
    assert "\\u202eevom on\\u202c ok \\x1b[2J" in line, line
    assert not any(c in line for c in "\u202e\u202c\x1b"), repr(line)
    # the message line too: a note recorded from the page, said back escaped
    page.click("#verbs-box summary")
    page.select_option("#verb-select", "game note")
    page.fill('#verb-form-box input[data-name="text"]', "\u2067abc")
    page.click("#verb-go")
    page.wait_for_selector("#message.ok")
    said = page.inner_text("#message")
    assert "\\u2067abc" in said and "\u2067" not in said, repr(said)


def test_a_tab_left_open_while_the_table_restarted_still_records(tmp_path: Path, browser: Any, request: pytest.FixtureRequest) -> None:
    """Round 22 (reading R215): the write token is new each time the table starts, so a phone
    whose page was open across a restart (the judge's laptop asleep, `serve` run again) had every
    tap refused "no valid X-Write-Token ... reload the page". The page reads its own table's page
    again for the new token (another site cannot) and sends the write once more."""
    from assistant.live.table import Table

    path = tmp_path / "g.sqlite"
    Game.new(path, example_path("clone-wars-example-combat").read_text(encoding="utf-8"), default_library(), override="tests").close()
    g = Game.open(path)
    try:
        g.do("initiative", {"first": "light", "winner": "light", "rolls": {"light": 13, "dark": 3}})
    finally:
        g.close()
    port = _free_port()
    with _serving(Table(game=path, library=default_library()), port) as url:
        page = phone(browser)
        request.node.pages = [page]
        page.goto(url)
        _settled(page)
        old = page.evaluate("WRITE_TOKEN")
    with _serving(Table(game=path, library=default_library()), port):  # the same game, a new token
        _tap_figure(page, "obi")
        page.wait_for_selector("#answer tr[data-target]")
        page.click("#b-activate")
        page.wait_for_selector("#message.ok")
        assert "obi activates" in page.inner_text("#message"), page.inner_text("#message")
        assert page.evaluate("WRITE_TOKEN") != old
    g = Game.open(path)
    try:
        assert [e.kind for e in g.events()][-1] == "activate" and sum(e.kind == "activate" for e in g.events()) == 1
    finally:
        g.close()


@pytest.mark.parametrize("lang", ["en", "pl", "cs"])
def test_a_card_is_looked_up_from_the_phone_and_its_answer_is_on_the_screen(server: tuple[str, Path], browser: Any,
                                                                           request: pytest.FixtureRequest, lang: str) -> None:
    """A player at the table asks what a card does (R224): the Card button, a name typed, the card's
    lines where the sheet's answers are, on a 390 x 844 phone without scrolling, in the reader's
    language; an unknown name is said on the message line, in view."""
    url, _ = server
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True,
                              locale={"en": "en-US", "pl": "pl-PL", "cs": "cs-CZ"}[lang])
    page = ctx.new_page()
    request.node.pages = [page]
    page.goto(url)
    page.wait_for_function("document.querySelector('#verb-select option[data-verb]') !== null")
    assert page.inner_text("#b-card") == {"en": "Card", "pl": "Karta", "cs": "Karta"}[lang]
    page.click("#b-card")
    page.fill("#card-name", "dooku")
    page.click("#card-go")
    page.wait_for_function("document.querySelector('#card-result') && document.querySelector('#card-result').textContent.length > 0")
    text = page.inner_text("#card-result")
    assert text.startswith("Count Dooku of Serenno") and {"en": "source:", "pl": "źródło:", "cs": "zdroj:"}[lang] in text, text
    for sel in ("#b-card", "#card-name", "#card-go"):
        assert _inside(_box(page, sel), 390, 844), sel
    result = _box(page, "#card-result")
    assert result["y"] + 60 <= 844, result  # the card's first lines in view, not below the fold
    assert page.evaluate("document.scrollingElement.scrollTop") == 0 and page.evaluate("document.getElementById('sheet').scrollTop") == 0
    page.screenshot(path=str(SHOTS / f"phone-card-{lang}.png"))  # looked at by a person
    page.fill("#card-name", "no such card")
    page.click("#card-go")
    page.wait_for_function("document.getElementById('message').textContent.length > 0")
    assert "no such card" in page.inner_text("#message") and _inside(_box(page, "#message"), 390, 844)
    ctx.close()


@pytest.mark.parametrize(("pair", "reroll"), [(("obi", "dooku"), False), (("sbd", "obi"), False), (("obi", "dooku"), True)])
def test_the_quick_attack_is_on_a_small_phones_screen(server: tuple[str, Path], browser: Any, request: pytest.FixtureRequest,
                                                      pair: tuple[str, str], reroll: bool) -> None:
    """Round 22 left (reading R231): at 360 x 640 the quick bar's Attack button was its third row,
    below the fold (y 611 to 655 after obi -> dooku's refusal): the player scrolled the sheet to
    record the roll. The d20, a Force reroll's die and Attack are the bar's first row now, on the
    screen with the pair's answer above them, the sheet not scrolled."""
    url, path = server
    if reroll:
        _obi_by_dooku(path)  # obi beside Dooku: the pair's answer offers a Force reroll
    page = browser.new_context(viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True).new_page()
    request.node.pages = [page]
    page.goto(url)
    _settled(page)
    _tap_figure(page, pair[0])
    page.wait_for_selector("#answer tr[data-target]")
    _tap_figure(page, pair[1])
    page.wait_for_selector(f"#answer h3:has-text('{pair[0]} → {pair[1]}')")
    if reroll:
        page.wait_for_selector("#reroll-box:visible")
    shown = ["#roll", "#b-attack"] + (["#reroll"] if reroll else [])
    for sel in shown:
        box = _box(page, sel)
        assert _inside(box, 360, 640) and box["height"] >= MIN_TAP, (sel, box)
    assert _box(page, "#answer h3")["y"] >= 0
    assert page.evaluate("document.getElementById('sheet').scrollTop") == 0
    page.screenshot(path=str(SHOTS / f"quick-attack-360x640-{pair[0]}-{pair[1]}{'-reroll' if reroll else ''}.png"))  # looked at by a person


def test_a_spectator_looks_up_a_card_and_asks_a_question(tmp_path: Path, browser: Any, request: pytest.FixtureRequest) -> None:
    """Round 22 left (reading R232): a spectator's link showed no Card button (its POSTs are refused,
    and a card lookup was one) and its "All commands" questions were refused "read-only". Both are
    asked by GET now, on a 360 x 640 phone, and nothing is recorded."""
    from assistant.live.table import Table
    from assistant.live.web import create_app

    path = tmp_path / "g.sqlite"
    Game.new(path, example_path("clone-wars-example-combat").read_text(encoding="utf-8"), default_library(), override="tests").close()
    with _serving_app(create_app(Table(game=path, library=default_library()), token="player-secret", spectator="onlooker")) as url:
        page = browser.new_context(viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True, locale="pl-PL").new_page()
        request.node.pages = [page]
        page.goto(url + "?t=onlooker")
        page.wait_for_function("document.querySelector('#verb-select option[data-verb]') !== null")
        assert _inside(_box(page, "#b-card"), 360, 640) and _box(page, "#b-card")["height"] >= MIN_TAP
        page.click("#b-card")
        page.fill("#card-name", "dooku")
        page.click("#card-go")
        page.wait_for_function("document.querySelector('#card-result') && document.querySelector('#card-result').textContent.length > 0")
        text = page.inner_text("#card-result")
        assert text.startswith("Count Dooku of Serenno") and "źródło:" in text, text
        assert page.inner_text("#message") == ""
        assert _box(page, "#card-result")["y"] + 40 <= 640
        page.screenshot(path=str(SHOTS / "spectator-card-pl-360x640.png"))  # looked at by a person
        page.click("#verbs-box summary")
        page.select_option("#verb-select", "range")
        page.fill('#verb-form-box input[data-name="a"]', "sbd")
        page.fill('#verb-form-box input[data-name="b"]', "obi")
        page.click("#verb-go")
        page.wait_for_function("document.getElementById('verb-result') && document.getElementById('verb-result').textContent.length > 0")
        assert "sbd" in page.inner_text("#verb-result") and "read-only" not in page.inner_text("#message")
        assert not page.eval_on_selector_all("#verb-select option[data-verb]",
                                             "els => els.filter(e => !e.disabled && e.value === 'cards set').length")
    g = Game.open(path)
    try:
        assert [e.kind for e in g.events()] == ["start"] or len(g.events()) == 1
    finally:
        g.close()


@pytest.mark.parametrize(("w", "h"), [(844, 390), (390, 844)])
def test_a_missing_numbers_form_is_shown_under_its_pairs_title(tmp_path: Path, browser: Any, request: pytest.FixtureRequest,
                                                                w: int, h: int) -> None:
    """Round 23's tour (R231): a phone held sideways, the DDM example's pair with two numbers missing
    (ranger -> mauler then, samurai -> ogre since R271): the form was scrolled up to its last button,
    "ranger → mauler" cut off above the sheet. Where the title and the form fit the sheet, both are on
    the screen."""
    for url, _path in _game_server(tmp_path, example_path("ddm-forest-field").read_text(encoding="utf-8")):
        page = _samurai_asks_the_ogre(browser, request, url, w, h, "pl-PL")
        page.wait_for_timeout(300)  # a smooth scroll, if the browser makes one, has ended
        sheet = _box(page, "#sheet")
        for sel in ("#answer h3", "#missing-form button[type=submit]"):
            box = _box(page, sel)
            assert box["y"] >= sheet["y"] - 0.5 and box["y"] + box["height"] <= min(sheet["y"] + sheet["height"], h) + 0.5, (sel, box, sheet)
        page.screenshot(path=str(SHOTS / f"ddm-missing-form-{w}x{h}.png"))  # looked at by a person
        page.context.close()


def test_a_long_id_on_a_narrow_polish_slot_ends_in_an_ellipsis_inside_its_button(tmp_path: Path, browser: Any,
                                                                                   request: pytest.FixtureRequest) -> None:
    """trial27: on a 360 x 640 Polish phone a long figure id in a slot button ("obi-wan-kenobi-general")
    was cut mid-letter by the button ("obi-w", no sign that more followed): the id kept its own width
    inside the button. It is now as wide as its button at most, ends in an ellipsis, and the button's
    title carries the whole id."""
    text = example_path("clone-wars-corridor").read_text(encoding="utf-8")
    text = text.replace("{id: obi,", "{id: obi-wan-kenobi-general,").replace("{id: sbdc,", "{id: super-battle-droid-commander,")
    for url, _path in _game_server(tmp_path, text):
        for w, h in ((360, 640), (390, 844)):
            page = browser.new_context(viewport={"width": w, "height": h}, is_mobile=True, has_touch=True, locale="pl-PL").new_page()
            request.node.pages = [page]
            page.goto(url)
            page.wait_for_selector("body[data-ready=yes] #board .hits [data-figure]")
            _tap_figure(page, "obi-wan-kenobi-general")
            page.wait_for_function("document.querySelector('#mine-id').textContent === 'obi-wan-kenobi-general'")
            _tap_figure(page, "super-battle-droid-commander")
            page.wait_for_function("document.querySelector('#target-id').textContent === 'super-battle-droid-commander'")
            for slot, fid in (("#slot-mine", "obi-wan-kenobi-general"), ("#slot-target", "super-battle-droid-commander")):
                got = page.evaluate("""(sel) => { const b = document.querySelector(sel), i = b.querySelector('b');
                    const br = b.getBoundingClientRect(), ir = i.getBoundingClientRect(), pad = parseFloat(getComputedStyle(b).paddingRight);
                    return {inside: ir.right <= br.right - pad + 0.5, cut: i.scrollWidth > i.clientWidth,
                            ellipsis: getComputedStyle(i).textOverflow, title: b.title}; }""", slot)
                assert got["inside"] and got["ellipsis"] == "ellipsis", (w, slot, got)
                assert got["cut"], (w, slot, got)  # the id is longer than the room: shown cut, with the ellipsis
                assert got["title"] == fid, (w, slot, got)
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / f"slots-long-id-pl-{w}x{h}.png"))
            page.context.close()


def _in_sheet_view(page: Any, selector: str) -> dict[str, float]:
    """Where ``selector`` stands against the window and the sheet it scrolls in (px)."""
    return page.evaluate("""(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
        const s = document.getElementById('sheet').getBoundingClientRect();
        return {top: r.top, bottom: r.bottom, height: r.height, width: r.width, right: r.right, sheetTop: s.top, sheetBottom: s.bottom,
                vh: innerHeight, vw: innerWidth}; }""", selector)


def _ask_from_the_list(page: Any, verb: str, values: list[str]) -> None:
    if page.locator("#verbs-box[open]").count() == 0:
        page.locator("#verbs-box summary").scroll_into_view_if_needed()
        page.locator("#verbs-box summary").tap()
    page.select_option("#verb-select", verb)
    fields = page.locator("#verb-form-box form input[type=text]")
    for i, value in enumerate(values):
        fields.nth(i).fill(value)
    page.locator("#verb-go").tap()


@pytest.mark.parametrize("width, height", [(360, 780), (390, 844), (768, 1024)])
def test_a_question_asked_from_the_list_of_commands_shows_its_rows_in_view(server: tuple[str, Path], browser: Any,
                                                                          request: pytest.FixtureRequest, width: int, height: int) -> None:
    """Reading R332: 'targets' asked from "All commands" showed an empty answer (its rows were drawn
    only by the command line's table) and 'matrix' only its rules' footer; and a refusal before
    it stayed red above the answer. Now the rows are said one line each, in view, and the refusal
    is gone."""
    url, _path = server
    page = browser.new_context(viewport={"width": width, "height": height}, is_mobile=True, has_touch=True).new_page()
    request.node.pages = [page]
    page.goto(url)
    _settled(page)
    _ask_from_the_list(page, "targets", ["nobody"])
    page.wait_for_function("document.getElementById('message').textContent.includes('nobody')")
    _ask_from_the_list(page, "targets", ["sbd"])
    page.wait_for_function("document.getElementById('verb-result').textContent.length > 0")
    said = page.text_content("#verb-result") or ""
    assert all(f"{enemy} — " in said for enemy in ("obi", "clone")), said
    assert (page.text_content("#message") or "") == ""
    box = _in_sheet_view(page, "#verb-result")
    # the answer starts on the screen, inside the sheet, no wider than the screen
    assert box["height"] > 0 and box["sheetTop"] <= box["top"] < min(box["sheetBottom"], box["vh"]) - 20, box
    assert box["right"] <= box["vw"] + 1, box
    _ask_from_the_list(page, "matrix", [])
    page.wait_for_function("document.getElementById('verb-result').textContent.includes('sbdc — ')")
    box = _in_sheet_view(page, "#verb-result")
    assert box["sheetTop"] <= box["top"] < min(box["sheetBottom"], box["vh"]) - 20, box


@pytest.mark.parametrize("game", ["destiny", "swtcg"])
@pytest.mark.parametrize("size", [(360, 780), (390, 844), (768, 1024)])
def test_the_judge_writes_a_note_from_a_card_games_page(tmp_path: Path, browser: Any, request: pytest.FixtureRequest,
                                                       game: str, size: tuple[int, int]) -> None:
    """Reading R333: a card game's note (destiny note, swtcg note) was the one verb of its table
    the page had no way to; it is under the buttons now, its answer on the screen, and a note of
    nothing is refused there (R330)."""
    from assistant.cardgame.log import CardGameLog
    from assistant.cardgames import find_card_game
    from assistant.live.table import CardTable
    from assistant.resources import card_table_example

    w, h = size
    path = tmp_path / f"{game}.sqlite"
    CardGameLog.new(path, find_card_game(game), card_table_example(game)).close()
    with _serving(CardTable(path)) as url:
        page = browser.new_context(viewport={"width": w, "height": h}, is_mobile=True, has_touch=True).new_page()
        request.node.pages = [page]
        page.goto(url)
        page.wait_for_selector("#lines")
        page.locator("#note-box summary").tap()
        for part in ("#note", "#b-note"):
            assert _inside(_box(page, part), w, h), (part, _box(page, part), w, h)
        for note, said in (("\u202e", "empty note"), ("the judge allowed the mulligan", "recorded")):
            page.fill("#note", note)
            page.tap("#b-note")
            page.wait_for_function("(said) => document.getElementById('message').textContent.includes(said)", arg=said)
        page.wait_for_timeout(300)
        assert _inside(_box(page, "#message"), w, h), (_box(page, "#message"), w, h)
        page.locator("#log-box summary").tap()
        page.wait_for_function("document.getElementById('log').textContent.includes('the judge allowed the mulligan')")
        page.screenshot(path=str(tmp_path / f"{game}-{w}x{h}-note.png"))
        page.context.close()


@pytest.mark.parametrize("locale, said", [("en-US", "on the table's computer only"), ("pl-PL", "tylko na komputerze")])
def test_a_command_the_phone_cannot_send_says_why_in_the_list(server: tuple[str, Path], browser: Any, request: pytest.FixtureRequest,
                                                              locale: str, said: str) -> None:
    """Reading R334: "All commands" greyed out 'import cards' (it reads a file on the table's
    computer) without a word, so it looked broken; its line now says why, in the reader's language."""
    url, _path = server
    page = browser.new_context(viewport={"width": 360, "height": 780}, is_mobile=True, has_touch=True, locale=locale).new_page()
    request.node.pages = [page]
    page.goto(url)
    page.wait_for_selector('#verb-select option[value="cards import"]', state="attached")
    off = page.eval_on_selector_all("#verb-select option[disabled]", "os => os.map((o) => o.textContent)")
    assert off and all(said in text for text in off), off


@pytest.mark.parametrize("width, height, lang", [(360, 640, "pl"), (768, 1024, "en")])
def test_a_write_to_a_read_only_game_is_said_on_screen_in_the_phones_words(tmp_path: Path, browser: Any,
                                                                         request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch,
                                                                         width: int, height: int, lang: str) -> None:
    """Reading R347: a game whose file the table's computer cannot write refused the phone's
    'Activate' with the server's path and the command line's verbs (in English inside Polish). Now
    the page says it in its words, on screen, and the board answers on."""
    from assistant.live.table import Table

    path = tmp_path / "g.sqlite"
    Game.new(path, example_path("clone-wars-example-combat").read_text(encoding="utf-8"), default_library(), override="tests").close()
    real_access = os.access

    def no_write(p: Any, mode: int, *a: Any, **k: Any) -> bool:  # the helpers run as root: the store asks os.access
        if mode & os.W_OK and Path(str(p)).resolve() in (tmp_path.resolve(), path.resolve()):
            return False
        return real_access(p, mode, *a, **k)

    monkeypatch.setattr(os, "access", no_write)
    with _serving(Table(game=path, library=default_library())) as url:
        page = browser.new_context(viewport={"width": width, "height": height}, is_mobile=True, has_touch=True, locale=lang).new_page()
        request.node.pages = [page]
        page.goto(url)
        _settled(page)
        _tap_figure(page, "obi")
        page.wait_for_selector("#answer tr[data-target]")
        page.locator("#b-activate").scroll_into_view_if_needed()
        page.locator("#b-activate").tap()
        says = {"pl": "plik gry na komputerze stołu (g.sqlite) jest tylko do odczytu",
                "en": "the game's file on the table's computer (g.sqlite) is read-only"}[lang]
        page.wait_for_function("(s) => document.getElementById('message').textContent.includes(s)", arg=says)
        said = page.text_content("#message") or ""
        assert str(tmp_path) not in said and "snapshot" not in said and "read-only;" not in said, said
        box = _box(page, "#message")
        assert _inside(box, width, height), (box, width, height)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"read-only-game-{width}-{lang}.png"))
        assert page.locator("#answer tr[data-target]").count() > 0  # the question's answer stays
        page.context.close()


#: a tablet and the phones, plain and with the browser zoomed to 200 % (half as many CSS px, each two device px)
TABLET_SIZES = {
    "phone-320x568": {"viewport": {"width": 320, "height": 568}, "device_scale_factor": 2},
    "phone-390x844": {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2},
    "tablet-768x1024": {"viewport": {"width": 768, "height": 1024}, "device_scale_factor": 1},
    "tablet-1024x768": {"viewport": {"width": 1024, "height": 768}, "device_scale_factor": 1},
    "zoom200-768x1024": {"viewport": {"width": 384, "height": 512}, "device_scale_factor": 2},
    "zoom200-1024x768": {"viewport": {"width": 512, "height": 384}, "device_scale_factor": 2},
    "zoom200-390x844": {"viewport": {"width": 195, "height": 422}, "device_scale_factor": 4},
}


def _in_the_sheet(page: Any, selector: str) -> bool:
    """``selector`` wholly on the screen and inside the sheet's view (not scrolled under its edges)."""
    return bool(page.evaluate("""(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
        const s = document.getElementById('sheet').getBoundingClientRect();
        return r.height > 0 && r.top >= Math.max(s.top, 0) - 0.5 && r.bottom <= Math.min(s.bottom, innerHeight) + 0.5
            && r.left >= -0.5 && r.right <= innerWidth + 0.5; }""", selector))


def _said_in_the_sheet(page: Any, words: str, shot: str) -> None:
    """The message line says ``words``, wholly in the sheet's view, every target a thumb's size."""
    page.wait_for_function("(w) => document.getElementById('message').textContent.includes(w)", arg=words)
    page.wait_for_timeout(300)
    assert _in_the_sheet(page, "#message"), _box(page, "#message")
    assert _small_targets(page) == []
    page.screenshot(path=str(SHOTS / f"{shot}.png"))


@pytest.mark.parametrize("size", list(TABLET_SIZES))
def test_a_photos_apply_its_outcome_and_a_note_on_one_event_are_on_screen_at_a_tablets_size_and_zoom(
        server: tuple[str, Path], browser: Any, request: pytest.FixtureRequest, tmp_path: Path, size: str) -> None:
    """Readings R391-R394: on a 768 x 1024 tablet zoomed to 200 % the photo's answer (five figures,
    250 px) was taller than the 184 px sheet and its Apply button was drawn below the screen; once
    applied, "1 figure moved" was said on the message line 200-300 px above the sheet's top (there on a
    320 x 568 phone too); and a judge's note form opened with its first field's label above the sheet.
    The note on one event reads in the log, and Undo's answer is on the screen."""
    url, path = server
    spec = TABLET_SIZES[size]
    w, h = spec["viewport"]["width"], spec["viewport"]["height"]
    photo = _clone_moved_photo(tmp_path)
    page = browser.new_context(**spec, is_mobile=True, has_touch=True).new_page()
    request.node.pages = [page]
    page.goto(url)
    page.wait_for_selector("body[data-ready=yes] #board .hits [data-figure]")
    page.set_input_files("#photo", str(photo))
    page.wait_for_selector("#b-apply", state="attached", timeout=30000)
    page.wait_for_timeout(300)
    # the Apply button and the row it applies on the screen, in the sheet, the row not under the button
    assert _in_the_sheet(page, "#b-apply"), (_box(page, "#b-apply"), w, h)
    apply = _box(page, "#b-apply")
    assert apply["height"] >= MIN_TAP and apply["width"] >= MIN_TAP
    moved = 'document.querySelector("#photo-answer tr:has(td.verdict-moved)")'
    assert page.evaluate(f"{moved}.textContent").startswith("cloneN1N2")
    row = page.evaluate(f"(() => {{ const r = {moved}.getBoundingClientRect(); return [r.top, r.bottom]; }})()")
    sheet_top = page.evaluate("document.getElementById('sheet').getBoundingClientRect().top")
    assert row[0] >= sheet_top - 0.5 and row[1] <= apply["y"] + 0.5, (row, apply)
    assert _in_the_sheet(page, "#photo-answer td.verdict-moved"), _box(page, "#photo-answer td.verdict-moved")  # not cut at the right
    assert page.evaluate("document.documentElement.scrollHeight <= innerHeight && document.documentElement.scrollWidth <= innerWidth")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"photo-apply-{size}.png"))
    page.locator("#b-apply").tap()
    page.wait_for_selector("#photo-applied")
    page.wait_for_timeout(300)
    assert "1 figure moved" in page.locator("#photo-applied").inner_text()
    assert _in_the_sheet(page, "#photo-applied"), (_box(page, "#photo-applied"), w, h)
    page.screenshot(path=str(SHOTS / f"photo-applied-{size}.png"))
    # a judge's note on event 2 (the photo's move): its form opens from its start, the event's field a number's
    _settled(page)
    page.locator("#verbs-box summary").scroll_into_view_if_needed()
    page.locator("#verbs-box summary").tap()
    page.select_option("#verb-select", "game note")
    page.wait_for_selector("#verb-form")
    page.wait_for_timeout(300)
    assert _in_the_sheet(page, "#verb-form p"), (_box(page, "#verb-form p"), w, h)
    assert _in_the_sheet(page, "#verb-form label"), (_box(page, "#verb-form label"), w, h)
    on = page.locator("#verb-form input[type=number]")
    assert on.get_attribute("inputmode") == "numeric"
    page.screenshot(path=str(SHOTS / f"note-form-{size}.png"))
    page.locator("#verb-form input[type=text]").first.fill("the clone's move read from the photo, checked by hand")
    on.fill("2")
    page.locator("#verb-go").tap()
    _said_in_the_sheet(page, "note", f"note-said-{size}")
    # the log says which event the note is on
    page.locator("#log-box summary").scroll_into_view_if_needed()
    page.locator("#log-box summary").tap()
    page.wait_for_function("document.getElementById('log').textContent.includes('checked by hand')")
    line = page.locator("#log li", has_text="checked by hand").first
    line.scroll_into_view_if_needed()
    assert "event #2" in line.inner_text().split("checked by hand")[0], line.inner_text()
    page.screenshot(path=str(SHOTS / f"note-log-{size}.png"))
    # the judge undoes the note: the answer on the screen, the Undo button a thumb's size
    page.once("dialog", lambda d: d.accept())
    page.locator("#b-undo").scroll_into_view_if_needed()
    assert _in_the_sheet(page, "#b-undo")
    page.locator("#b-undo").tap()
    _said_in_the_sheet(page, "#4 undo of event 3", f"undo-said-{size}")
    page.context.close()
