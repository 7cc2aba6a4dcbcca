"""The SWTCG turn's steps in the reader's language (a new user's trial, round 23: a Polish table
read "tura 1, etap build" and, at each `next`, "etap: retreat — untapped units may retreat, tapping
(FAQ L32)", the step's name and what the table does in it left in English)."""

from __future__ import annotations

import pytest

from assistant import i18n
from assistant.errors import AssistantError
from assistant.resources import card_table_example
from assistant.swtcg import engine as swtcg
from assistant.swtcg.render import describe
from assistant.swtcg.table import STEPS, parse_table, step_name


def table(step: str = "build") -> object:
    return parse_table(card_table_example("swtcg").replace("step: build", f"step: {step}"), "t.yaml")


@pytest.mark.parametrize("lang, turn_line, next_line", [
    ("en", "turn 1, step build", "step: retreat — untapped units may retreat, tapping (FAQ L32)"),
    ("pl", "tura 1, etap budowy", "etap wycofywania — untapnięte jednostki mogą się wycofać, tapując się (FAQ L32)"),
    ("cs", "tah 1, krok stavby", "krok ústupu — odtapnuté jednotky mohou ustoupit, čímž se tapnou (FAQ L32)"),
])
def test_the_step_and_its_duty_are_said_in_the_readers_words(lang: str, turn_line: str, next_line: str) -> None:
    t = table()
    with i18n.language(lang):
        assert describe(t)[0].startswith(turn_line)
        said = swtcg.apply(t, "next").said
    assert next_line in said, said


def test_a_refusal_names_the_step_in_polish() -> None:
    t = table("retreat")
    with i18n.language("pl"), pytest.raises(AssistantError) as refused:
        swtcg.apply(t, "LS build xwing 1")
    assert str(refused.value) == ("X-wing jest w arenie space: żetony budowy dostaje tylko karta z ręki lub częściowo zbudowana w strefie "
                                  "budowy (FAQ L27-28)")
    with i18n.language("pl"), pytest.raises(AssistantError) as refused:
        swtcg.apply(table("untap"), "LS retreat xwing")
    assert "nie w etapie untap" in str(refused.value) and "retreat step" not in str(refused.value), str(refused.value)


@pytest.mark.parametrize("lang", ["pl", "cs"])
def test_every_step_has_its_own_name_in_each_language(lang: str) -> None:
    with i18n.language(lang):
        names = [step_name(s) for s in STEPS]
    assert len(set(names)) == len(STEPS)
    assert not any(n.startswith("step:") for n in names)
    assert step_name("no-such-step") == "no-such-step"


def test_a_missing_number_is_said_as_given_nothing_in_polish() -> None:
    """'LS build xwing' without its build points said "..., jest nic" ("is nothing")."""
    with i18n.language("pl"), pytest.raises(AssistantError) as refused:
        swtcg.apply(table(), "LS build xwing")
    assert str(refused.value).endswith("jako argumentu 2, podano: nic"), str(refused.value)
