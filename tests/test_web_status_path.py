"""The table's status on the phones names the game log's file, not where it lies on the host's computer."""

from __future__ import annotations

import warnings
from pathlib import Path

warnings.filterwarnings("ignore", category=DeprecationWarning)

from assistant.cards import default_library  # noqa: E402
from assistant.game import Game  # noqa: E402
from assistant.live.table import Table  # noqa: E402
from assistant.live.web import create_app  # noqa: E402
from assistant.position import load_position  # noqa: E402
from assistant.resources import example_path  # noqa: E402

from .webclient import table_client  # noqa: E402


def test_the_status_names_the_logs_file_not_the_hosts_folders(tmp_path: Path) -> None:
    folder = tmp_path / "home" / "alice" / "games"
    folder.mkdir(parents=True)
    path = folder / "friday.sqlite"
    Game.new(path, example_path("clone-wars-example-combat").read_text(encoding="utf-8"), default_library(), override="tests").close()
    said = table_client(create_app(Table(game=path, library=default_library()))).get("/api/status").json()
    assert said["game"] == "friday.sqlite"
    assert "alice" not in str(said)


def test_a_bare_position_has_no_game() -> None:
    table = Table(position=load_position(example_path("clone-wars-example-combat")), library=default_library())
    assert table_client(create_app(table)).get("/api/status").json()["game"] is None
