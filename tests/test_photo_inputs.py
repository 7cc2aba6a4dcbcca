"""Photo files as a new user hands them over (round 9's trial of the photo features): what the
command line and the table's web app say about each. Built from the failures the trial met: an
upload's refusal named the server's temporary file (``/tmp/tmpck8ef4g2.img is not an image``), an
iPhone's HEIC photo was called "not an image", an empty file "its first bytes are b''"."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from typer.testing import CliRunner

warnings.filterwarnings("ignore", category=DeprecationWarning)
from fastapi.testclient import TestClient  # noqa: E402

from assistant.cards import default_library  # noqa: E402
from assistant.cli.app import app  # noqa: E402
from assistant.errors import AssistantError  # noqa: E402
from assistant.game import Game  # noqa: E402
from assistant.live.table import Table  # noqa: E402
from assistant.live.web import create_app  # noqa: E402
from assistant.photo import load_image  # noqa: E402
from assistant.resources import example_path  # noqa: E402

from .webclient import table_client  # noqa: E402

runner = CliRunner()

#: the first bytes of an iPhone's HEIC photo and of an AVIF (an ISO media file's ``ftyp`` box)
HEIC = b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + b"\x00" * 64
AVIF = b"\x00\x00\x00\x1cftypavif\x00\x00\x00\x00avifmif1miaf" + b"\x00" * 64
TIFF = b"II*\x00\x08\x00\x00\x00" + b"\x00" * 64


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    path, example = tmp_path / "g.sqlite", example_path("clone-wars-example-combat")
    assert example is not None
    Game.new(path, example.read_text(encoding="utf-8"), default_library(), override="tests").close()
    return table_client(create_app(Table(game=path, library=default_library())))


@pytest.mark.parametrize("data", [b"not an image", b"", HEIC, b"\xff\xd8\xff\xe0 a JPEG cut short"], ids=["text", "empty", "heic", "cut"])
@pytest.mark.parametrize("endpoint", ["/api/photo", "/api/photo/reference"])
def test_an_uploads_refusal_names_the_players_photo_not_the_servers_temporary_file(client: TestClient, data: bytes,
                                                                                   endpoint: str) -> None:
    r = client.post(endpoint, files={"photo": ("IMG_0042.jpg", data, "image/jpeg")})
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    assert error.startswith("IMG_0042.jpg"), error
    assert "/tmp" not in error and ".img" not in error  # was "/tmp/tmpXXXX.img is not an image ..."


@pytest.mark.parametrize(("data", "kind"), [(HEIC, "HEIC"), (AVIF, "AVIF"), (TIFF, "TIFF"), (b"GIF89a" + b"\x00" * 32, "GIF")],
                         ids=["heic", "avif", "tiff", "gif"])
def test_a_phones_photo_in_a_format_not_read_is_named_with_what_to_send(tmp_path: Path, data: bytes, kind: str) -> None:
    """An iPhone saves HEIC by default: the photo is an image, in a format not read; the message
    says which and to send JPEG or PNG (was: "not an image ... its first bytes are b'...ftyp'")."""
    path = tmp_path / "IMG_0042.HEIC"
    path.write_bytes(data)
    with pytest.raises(AssistantError, match=f"is a {kind} image, which is not read: send the photo as JPEG or PNG"):
        load_image(path)
    r = runner.invoke(app, ["photo", "detect", str(path), "-p", "clone-wars-corridor", "--json"])
    assert r.exit_code == 2 and f"a {kind} image" in r.stdout and "Traceback" not in r.output


def test_an_empty_file_is_said_to_be_empty(tmp_path: Path) -> None:
    path = tmp_path / "photo.jpg"
    path.write_bytes(b"")
    r = runner.invoke(app, ["photo", "detect", str(path), "-p", "clone-wars-corridor"])
    assert r.exit_code == 2 and "is empty (0 bytes)" in r.stderr, r.stderr
    assert "b''" not in r.stderr


def test_photo_reference_on_the_command_line_warns_of_figures_on_the_empty_map_as_the_web_app_does(tmp_path: Path) -> None:
    """A reference photo with figure markers on it is kept (the judge decides) but said to be no
    empty map: the web app said so, `photo reference` wrote it silently (trial: diagnosis photo
    s0407 with figures, kept with no word)."""
    import json
    from dataclasses import replace

    import cv2

    from assistant.photo.synth import render_photo
    from assistant.position import load_position

    example = example_path("clone-wars-example-combat")
    assert example is not None
    pos = load_position(example)
    marked = replace(pos, figures=tuple(replace(f, marker=10 + i) for i, f in enumerate(pos.figures)))
    busy, _truth = render_photo(marked, seed=2, width=1600, height=1200)
    photo = tmp_path / "busy.jpg"
    cv2.imwrite(str(photo), busy)
    r = runner.invoke(app, ["photo", "reference", str(photo), "-p", str(example), "-o", str(tmp_path / "r.npz"), "--json"])
    assert r.exit_code == 0, r.output
    notes = json.loads(r.stdout)["notes"]
    assert any("figure markers: a reference is of the EMPTY map" in n for n in notes), notes
    r = runner.invoke(app, ["photo", "reference", str(photo), "-p", str(example), "-o", str(tmp_path / "r2.npz")])
    assert r.exit_code == 0 and "a reference is of the EMPTY map" in r.stderr, r.stderr


def test_photo_batch_records_a_file_that_is_no_photo_and_reads_the_others(tmp_path: Path) -> None:
    """One HEIC or text file among many photos ended the whole batch with exit 2 and no output,
    the photos read before it lost; it is now one line with its error, and the batch goes on."""
    import json

    import cv2
    import numpy as np

    noise = (np.random.default_rng(0).random((300, 400, 3)) * 255).astype(np.uint8)  # no board: refused at once
    first, text, heic, last = tmp_path / "a.png", tmp_path / "b.jpg", tmp_path / "c.heic", tmp_path / "d.png"
    cv2.imwrite(str(first), noise)
    cv2.imwrite(str(last), noise)
    text.write_text("not a photo")
    heic.write_bytes(HEIC)
    out = tmp_path / "photos.jsonl"
    r = runner.invoke(app, ["photo", "batch", str(first), str(text), str(heic), str(last), "-p", "clone-wars-corridor", "-o", str(out)])
    assert r.exit_code == 0, r.output
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [line["image"] for line in lines] == [str(first), str(text), str(heic), str(last)]
    assert lines[0]["grid_found"] is False and lines[3]["grid_found"] is False
    assert "not an image" in lines[1]["error"] and "HEIC image" in lines[2]["error"]
    assert "2 files could not be read as photos" in r.stderr


def _game(tmp_path: Path) -> Path:
    path, example = tmp_path / "g.sqlite", example_path("clone-wars-example-combat")
    assert example is not None
    Game.new(path, example.read_text(encoding="utf-8"), default_library(), override="tests").close()
    return path


@pytest.mark.parametrize("command", [
    ["photo", "reference", "{photo}", "-p", "clone-wars-example-combat", "-o", "{game}"],
    ["photo", "batch", "{photo}", "-p", "clone-wars-example-combat", "-o", "{game}"],
    ["map", "from-photo", "{photo}", "--cols", "14", "--rows", "10", "-o", "{game}"],
    ["normalize", "clone-wars-corridor", "-o", "{game}"],
], ids=["reference", "batch", "from-photo", "normalize"])
def test_an_output_that_is_a_games_log_is_refused_and_the_log_kept(tmp_path: Path, command: list[str]) -> None:
    """`photo reference EMPTY.jpg -o game.sqlite` (the game's file named where --game was meant)
    replaced the game's whole log with the reference: exit 0, the record lost (trial: the same
    with `photo batch`, `map from-photo`, any `-o`). A game's log is never an output."""
    from dataclasses import replace

    import cv2

    from assistant.photo.synth import render_photo
    from assistant.position import load_position

    game = _game(tmp_path)
    before = game.read_bytes()
    example = example_path("clone-wars-example-combat")
    assert example is not None
    empty_map, _truth = render_photo(replace(load_position(example), figures=()), seed=5, width=1600, height=1200)
    photo = tmp_path / "empty.jpg"  # a map the commands read: each would write its output
    cv2.imwrite(str(photo), empty_map)
    r = runner.invoke(app, [a.format(photo=photo, game=game) for a in command])
    assert r.exit_code == 2, r.output
    assert f"cannot write {game}: it is a game's log (SQLite)" in r.stderr, r.stderr
    assert game.read_bytes() == before


def test_an_output_that_is_the_photo_read_is_refused(tmp_path: Path) -> None:
    """`photo reference empty.jpg -o empty.jpg` replaced the photo with the reference made from it."""
    import cv2
    import numpy as np

    photo = tmp_path / "empty.png"
    cv2.imwrite(str(photo), (np.random.default_rng(0).random((300, 400, 3)) * 255).astype(np.uint8))
    before = photo.read_bytes()
    for command in (["photo", "reference", str(photo), "-p", "clone-wars-example-combat", "-o", str(photo)],
                    ["map", "from-photo", str(photo), "--cols", "14", "--rows", "10", "--reference", str(photo)],
                    ["photo", "batch", str(photo), "-p", "clone-wars-example-combat", "-o", str(photo)]):
        r = runner.invoke(app, command)
        assert r.exit_code == 2 and "it is the photo" in r.stderr, (command, r.output)
        assert photo.read_bytes() == before


def test_photo_check_says_no_grid_as_photo_detect_does(tmp_path: Path) -> None:
    """A photo with no grid: `photo detect --json` answers `"grid_found": false` (CONTRACT §3),
    `photo check --json` only an `error` -- a program could not tell it from a file that is no
    image. Both now say `grid_found`, exit 2; an answered check says `"grid_found": true`."""
    import json

    import cv2
    import numpy as np

    game = _game(tmp_path)
    noise = tmp_path / "noise.png"
    cv2.imwrite(str(noise), (np.random.default_rng(0).random((600, 800, 3)) * 255).astype(np.uint8))
    r = runner.invoke(app, ["photo", "check", str(noise), "--game", str(game), "--json"])
    assert r.exit_code == 2, r.output
    answer = json.loads(r.stdout)
    assert answer["query"] == "photo check" and answer["grid_found"] is False and "no grid" in answer["error"]
    r = runner.invoke(app, ["photo", "check", str(noise), "--game", str(game)])
    assert r.exit_code == 2 and "no grid" in r.stderr and r.stdout == ""


@pytest.mark.parametrize("kept", [b"the reference before", None], ids=["damaged", "another-size"])
def test_a_games_unusable_reference_is_named_by_its_file_not_the_servers_path(client: TestClient, tmp_path: Path,
                                                                              kept: bytes | None) -> None:
    """A phone's photo refused for the game's reference (damaged, another map's size) named the
    server's whole path ("/srv/games/g.sqlite.reference.npz is not a usable ..."), while
    GET /api/status names the file alone; both now name the file alone."""
    import cv2
    import numpy as np

    from assistant.photo.reference import Reference, reference_path, save_reference

    path = reference_path(tmp_path / "g.sqlite")
    if kept is not None:
        path.write_bytes(kept)
    else:
        save_reference(Reference(np.zeros((5 * 32, 6 * 32, 3), np.uint8), 4, 3, "other.jpg", "2026-01-01T00:00:00+00:00"), path)
    ok, photo = cv2.imencode(".jpg", np.full((600, 800, 3), 128, np.uint8))
    r = client.post("/api/photo", files={"photo": ("IMG_0042.jpg", photo.tobytes(), "image/jpeg")})
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    assert path.name in error and str(tmp_path) not in error, error
    status = client.get("/api/status").json()["reference"]["error"]
    assert path.name in status and str(tmp_path) not in status, status
