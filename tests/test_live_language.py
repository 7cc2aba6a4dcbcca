"""The phone's texts in the reader's language (issue 27, Deliver 6): verbs and their arguments
labelled, a question's answer as text lines, the game log's side names as the rulebooks say them."""

from pathlib import Path

from fastapi.testclient import TestClient

from assistant.cards import default_library
from assistant.game import Game
from assistant.live.table import Table
from assistant.live.web import PARAM_LABELS, VERB_LABELS, create_app
from assistant.resources import example_path

from .webclient import table_client


def _client(tmp_path: Path, lang: str) -> TestClient:
    path = tmp_path / "g.sqlite"
    Game.new(path, example_path("clone-wars-corridor").read_text(encoding="utf-8"), default_library(), override="tests").close()
    return table_client(create_app(Table(game=path, library=default_library()), language=lang))


def test_every_verb_and_argument_has_a_label_in_polish_and_czech(tmp_path: Path) -> None:
    for lang, charge, figure in (("pl", "szarża", "postać"), ("cs", "výpad", "postava")):
        detail = _client(tmp_path / lang, lang).get("/api/verbs").json()["detail"]
        assert detail["game charge"]["label"] == charge
        assert {p["name"]: p["label"] for p in detail["game damage"]["params"]}["figure"] == figure
        for name, d in detail.items():
            assert name in VERB_LABELS, name
            assert d["label"] != VERB_LABELS[name] or d["label"] in ("format", "text"), (lang, name)
            # a label is never another verb's name (a select matched by either would pick the wrong one)
            assert d["label"] == name or d["label"] not in detail, (lang, name)
            for p in d["params"]:
                assert p["name"] in PARAM_LABELS, (name, p["name"])


def test_a_question_answers_its_text_lines_on_request_and_the_same_json_without(tmp_path: Path) -> None:
    c = _client(tmp_path, "pl")
    plain = c.post("/api/do/los", json={"viewer": "obi", "target": "dooku"}).json()
    assert "text_lines" not in plain  # the command line's JSON, as ever
    told = c.post("/api/do/los?lines=true", json={"viewer": "obi", "target": "dooku"}).json()
    assert {k: v for k, v in told.items() if k != "text_lines"} == plain
    assert told["text_lines"][0].startswith("obi → dooku: brak linii wzroku")
    assert not any("[" in line and "[/" in line for line in told["text_lines"])  # no Rich markup left


def test_the_game_log_names_the_sides_as_the_rulebooks_do(tmp_path: Path) -> None:
    c = _client(tmp_path, "pl")
    done = c.post("/api/do/game/initiative", json={"roll": ["light=17", "dark=5"]})
    assert done.status_code == 200, done.text
    text = c.get("/api/events").json()["events"][-1]["text"]
    assert "(jasna strona 17, ciemna strona 5); wygrywa jasna strona, zaczyna jasna strona" in text
    c = _client(tmp_path / "cs", "cs")
    c.post("/api/do/game/initiative", json={"roll": ["light=3", "dark=18"]})
    assert "vyhrává temná strana, začíná temná strana" in c.get("/api/events").json()["events"][-1]["text"]
