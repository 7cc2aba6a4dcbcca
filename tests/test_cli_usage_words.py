"""A mistyped command line answered in the player's language (a new user's trial, round 23).

Typer's copy of click writes its usage errors as English f-strings and checks option values with
pydantic: ``--lang pl game attack sbd obi --roll 25`` answered "Error: Invalid value for '--roll':
Input should be less than or equal to 20" under a Polish usage line. The words are made again
from what the error carries (assistant/cli/usage.py); exit 2 and one JSON object under --json
as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from assistant.cli.app import app
from assistant.cli.usage import _in_words

runner = CliRunner()

#: (line, what each language must say) -- the expectations are written out, not made by the code
CASES = [
    (["game", "attack", "sbd", "obi", "--roll", "25", "--game", "{game}"],
     {"en": "Error: Invalid value for '--roll': '25' is not allowed here: it should be less than or equal to 20",
      "pl": "Błąd: Nieprawidłowa wartość '--roll': '25' nie jest tu dozwolone: powinno być: mniejsze lub równe 20",
      "cs": "Chyba: Neplatná hodnota '--roll': '25' zde není povoleno: má to být: menší nebo rovno 20"}),
    (["attack", "sbd", "-p", "clone-wars-example-combat"],
     {"en": "Error: Missing argument 'target'.", "pl": "Błąd: Brak argumentu 'target'.", "cs": "Chyba: Chybí argument 'target'."}),
    (["los", "obi", "sbd", "-p", "clone-wars-corridor", "--nope"],
     {"en": "Error: No such option: --nope", "pl": "Błąd: Nie ma takiej opcji: --nope", "cs": "Chyba: Taková volba není: --nope"}),
    (["los", "obi", "sbd", "-p", "clone-wars-corridor", "extra"],
     {"en": "Error: Words the command does not take: extra", "pl": "Błąd: Słowa, których polecenie nie przyjmuje: extra",
      "cs": "Chyba: Slova, která příkaz nebere: extra"}),
    (["atack"],
     {"en": "Error: No such command 'atack'. Did you mean 'attack'?", "pl": "Błąd: Nie ma polecenia 'atack'. Czy chodziło o 'attack'?",
      "cs": "Chyba: Příkaz 'atack' neexistuje. Mysleli jste 'attack'?"}),
    (["los", "obi", "sbd", "-p"],
     {"en": "Error: Option '-p' needs a value.", "pl": "Błąd: Opcja '-p' wymaga wartości.", "cs": "Chyba: Volba '-p' potřebuje hodnotu."}),
]


@pytest.mark.parametrize("lang", ["en", "pl", "cs"])
@pytest.mark.parametrize("line, says", CASES, ids=lambda c: " ".join(c) if isinstance(c, list) else "")
def test_a_usage_error_is_said_in_the_players_language(line: list[str], says: dict[str, str], lang: str, tmp_path: Path) -> None:
    line = [w.replace("{game}", str(tmp_path / "g.sqlite")) for w in line]
    r = runner.invoke(app, ["--lang", lang, *line])
    assert r.exit_code == 2, r.output
    assert says[lang] in r.output, r.output
    assert "Traceback" not in r.output and "internal error" not in r.output
    if lang != "en":
        assert "Error:" not in r.output and "Try '" not in r.output, r.output  # nothing left in English around it
    if line[-1] == "-p":
        return  # "--json" would be the value -p asks for
    j = runner.invoke(app, ["--lang", lang, *line, "--json"])
    assert j.exit_code == 2
    assert json.loads(j.stdout) == {"error": says[lang].split(": ", 1)[1], "usage": True}


def test_the_help_hint_names_the_command_in_polish() -> None:
    r = runner.invoke(app, ["--lang", "pl", "attack", "sbd", "-p", "clone-wars-example-combat"])
    assert "Pomoc: '" in r.output and " attack -h'." in r.output, r.output


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80))
def test_a_text_of_no_known_shape_is_shown_as_it_was_written(text: str) -> None:
    """A later typer's message, of a shape not listed, is shown unchanged, never broken or lost."""
    out = _in_words(text)
    assert isinstance(out, str)
    if not any(key in text for key in ("No such", "unexpected extra", "Option '", "Missing command", "is not one of", "' does not exist",
                                       "' is a ", "' is not ")):
        assert out == text
