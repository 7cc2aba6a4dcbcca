"""A reading an answer cites, whole, on the table's own pages (reading R351): the phone's answers link
each cited reading's id to ``/reading/Rn``, which shows the register's entry."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

warnings.filterwarnings("ignore", category=DeprecationWarning)
from fastapi.testclient import TestClient  # noqa: E402

from assistant.cards import default_library  # noqa: E402
from assistant.live.reading_page import reading_html  # noqa: E402
from assistant.live.table import Table  # noqa: E402
from assistant.live.web import create_app  # noqa: E402
from assistant.resources import example_path  # noqa: E402

from .webclient import table_client  # noqa: E402

STATIC = Path(__file__).resolve().parent.parent / "assistant" / "live" / "static"


@pytest.fixture
def client() -> TestClient:
    return table_client(create_app(Table(position=_example(), library=default_library())))


def _example():  # type: ignore[no-untyped-def]
    from assistant.position import load_position

    return load_position(example_path("clone-wars-example-combat"))


def test_a_cited_reading_is_shown_whole(client: TestClient) -> None:
    r = client.get("/reading/R3")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    # the register's own heading and words (docs/readings.md, R3: the highest of the modifiers counts)
    assert "R3 — " in r.text and "Applies to" in r.text
    assert 'href="/"' in r.text  # the way back to the table


def test_the_register_is_said_to_be_in_english_to_a_polish_phone(client: TestClient) -> None:
    r = client.get("/reading/r5", headers={"accept-language": "pl-PL"})
    assert r.status_code == 200 and 'lang="pl"' in r.text and "R5 — " in r.text
    assert "po angielsku" in r.text


@pytest.mark.parametrize("ident", ["R99999", "nothing", "R3x", "%3Cimg%20src=x%20onerror=alert(1)%3E"])
def test_an_unknown_reading_is_a_404_that_names_it(client: TestClient, ident: str) -> None:
    r = client.get(f"/reading/{ident}")
    assert r.status_code == 404 and r.headers["content-type"].startswith("application/json")
    said = r.json()["error"]
    assert said.startswith("no reading ") and "readings are R1 to R" in said


def test_every_citation_the_pages_say_is_linked() -> None:
    # every place the pages said a citation now links it (the browser test reads the links themselves)
    script = (STATIC / "common.js").read_text(encoding="utf-8")
    assert "function citeHtml" in script and 'href="/reading/${id}"' in script
    for page in ("app.js", "cards.js"):
        text = (STATIC / page).read_text(encoding="utf-8")
        assert "esc(cite(" not in text and "citeHtml(" in text


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=300))
def test_the_register_is_never_passed_through_as_html(text: str) -> None:
    # whatever a reading holds, the page's only tags are its own
    html = str(reading_html(text))
    assert "<" not in re.sub(r"</?(p|blockquote|ul|li|strong|em|code)>", "", html)


def test_every_reading_of_the_register_shows_as_paragraphs() -> None:
    import assistant.resources as resources

    for n in range(1, resources.last_reading() + 1):
        text = resources.reading(f"R{n}")
        assert text is not None, n
        html = str(reading_html(text.partition("\n")[2]))
        assert html.startswith(("<p>", "<blockquote>", "<ul>")) and "**" not in html, n
