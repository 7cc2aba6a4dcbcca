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
