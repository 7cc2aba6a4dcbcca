"""The language answers are written in: English (the source), Polish, Czech.

Texts are marked with :func:`_` (and :func:`n_` for counts) and looked up in the message
catalogs under ``assistant/locale/<lang>/LC_MESSAGES/assistant.mo``, compiled from the ``.po``
files beside them (``python tools/catalogs.py`` extracts and compiles them with Babel). A text
a catalog lacks is shown in English. Rule terms follow the rulebooks' own words, listed once in
``assistant/locale/glossary.yaml``.

The language is chosen by ``--lang``, else ``$TABLETOP_LANG``, else the locale (``$LC_ALL``,
``$LC_MESSAGES``, ``$LANG``), else English. JSON keys and machine values never change; only the
texts meant for people (reasons, notes, errors) are translated. Rule citations stay as printed.

>>> with language("pl"):
...     _("line of sight")
'linia wzroku'
>>> _("line of sight")
'line of sight'
"""

from __future__ import annotations

import contextlib
import gettext
import os
import re
from collections.abc import Iterator
from contextvars import ContextVar
from functools import cache
from pathlib import Path

LANGUAGES = ("en", "pl", "cs")
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "assistant"
LANG_ENV = "TABLETOP_LANG"

#: the language of the answer being written: per thread and per task, so that the web app's
#: requests, each in its reader's language, never mix
_current: ContextVar[str] = ContextVar("tabletop_language", default="en")


@cache
def _catalog(lang: str) -> gettext.NullTranslations:
    return gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[lang], fallback=True)


def _(message: str) -> str:
    """``message`` in the current language (English when the catalog lacks it)."""
    lang = _current.get()
    # the empty text is gettext's key for the catalog's header: an empty text stays empty
    return message if lang == "en" or not message else _catalog(lang).gettext(message)


def n_(singular: str, plural: str, n: int) -> str:
    """The singular or the plural, as the current language says ``n`` of something (Polish and
    Czech have three forms)."""
    lang = _current.get()
    if lang == "en":
        return singular if n == 1 else plural
    return _catalog(lang).ngettext(singular, plural, n)


#: the languages that write a decimal comma (1,5), not a point
DECIMAL_COMMA = frozenset({"pl", "cs"})


def decimal(value: float, spec: str = "g") -> str:
    """``value`` formatted by ``spec`` as the reader writes a number: Polish and Czech put a comma
    before the decimals (reading R234: "średnio 6,5 na atak", not "6.5").

    >>> with language("pl"):
    ...     decimal(12.5), decimal(0.8333, ".2f"), decimal(20.0)
    ('12,5', '0,83', '20')
    >>> decimal(12.5)
    '12.5'
    """
    text = format(value, spec)
    return text.replace(".", ",") if _current.get() in DECIMAL_COMMA else text


def N_(message: str) -> str:
    """Marks a text for the catalogs where it is defined; it is translated where it is shown."""
    return message


#: names of terrain and of what gives cover, as answers say them (the rulebooks' words in the
#: catalogs); the keys are the machine values of the JSON answers, which stay English
TERMS = {
    "wall": N_("wall"), "door": N_("door"), "low": N_("low"), "difficult": N_("difficult"), "pit": N_("pit"),
    "figure": N_("figure"), "fog": N_("fog"), "forest": N_("forest"), "statue": N_("statue"), "square": N_("square"),
    "melee-corner": N_("wall corner"),
}


def term(kind: str) -> str:
    """A terrain's or a cover source's name in the current language (unknown kinds as they are)."""
    return _(TERMS[kind]) if kind in TERMS else kind


#: the sides the Star Wars editions name (the rulebooks' "light side" and "dark side"); a DDM
#: warband's or any other side is the name its position file gives, said as written
SIDES = {"light": N_("light"), "dark": N_("dark")}


def side_name(side: str) -> str:
    """A side as the reader says it: ``light`` and ``dark`` translated, any other as written.

    >>> side_name("light"), side_name("warband-a")
    ('light', 'warband-a')
    """
    return _(SIDES[side]) if side in SIDES else side


#: the conditions the editions apply (their machine names, which the JSON answers, the position
#: files and the commands keep), as the rulebooks name them (reading R277): SWM 2008 PL p.64
#: "ogłuszona", p.50 "Sztuczki Jedi"; DDM glossary "uciekająca", "bezradna", "zagubiona" ...
CONDITIONS = {
    "stunned": N_("stunned"),
    # TRANSLATORS: a condition (DDM glossary 'routing'), said of a creature
    "routing": N_("routing"),
    # TRANSLATORS: a condition (DDM glossary 'helpless'), said of a creature
    "helpless": N_("helpless"),
    # TRANSLATORS: a condition (DDM glossary 'confused'), said of a creature
    "confused": N_("confused"),
    # TRANSLATORS: a condition (DDM glossary 'asleep'), said of a creature
    "asleep": N_("asleep"), "sleeping": N_("asleep"),
    # TRANSLATORS: a condition (DDM glossary 'paralyzed'), said of a creature
    "paralyzed": N_("paralyzed"),
    # TRANSLATORS: a condition (DDM glossary 'invisible'), said of a creature
    "invisible": N_("invisible"),
    # TRANSLATORS: the SWM 2008 Force power's effect as a condition (PL p.50 'Jedi Mind Trick')
    "jedi mind trick": N_("jedi mind trick"),
}


def condition_name(name: str) -> str:
    """A condition as the reader's rulebook says it; one no edition applies, as written.

    >>> with language("pl"):
    ...     condition_name("stunned"), condition_name("routing"), condition_name("on fire")
    ('ogłuszona', 'uciekająca', 'on fire')
    """
    return _(CONDITIONS[name]) if name in CONDITIONS else name


def source_names(sources: object) -> str:
    """``wall E7, low J7``: cover sources as an answer lists them."""
    return ", ".join(f"{term(s.kind)} {s.where}" for s in sources)  # type: ignore[attr-defined]


#: a reading an answer cites, in a rule's citation or a text ("reading R3 in docs/readings.md",
#: "readings R35, R36"): the citations stay English in the JSON answers, and a reader of the text
#: reads the word in their language (reading R275)
_READING_CITED = re.compile(r"\breadings? (R\d+(?:(?:, | and )R\d+)*)( in docs/readings\.md)?")


def _reading_words(n: int, where: bool) -> str:
    if where:
        return n_("reading {ids} in docs/readings.md", "readings {ids} in docs/readings.md", n)
    return n_("reading {ids}", "readings {ids}", n)


def cited(text: str) -> str:
    """``text`` with the readings it cites named in the reader's language (English as it is).

    >>> with language("pl"):
    ...     cited("swm2008 PL p.10; only the highest counts: reading R3 in docs/readings.md")
    'swm2008 PL p.10; only the highest counts: odczyt R3 w docs/readings.md'
    >>> with language("cs"):
    ...     cited("FAQ L35-36; readings R35 and R36")
    'FAQ L35-36; čtení R35, R36'
    """
    if _current.get() == "en" or "reading" not in text:
        return text

    def said(m: re.Match[str]) -> str:
        ids = m.group(1).replace(" and ", ", ")
        return _reading_words(ids.count(",") + 1, bool(m.group(2))).format(ids=ids)

    return _READING_CITED.sub(said, text)


#: the parts of rule citations an answer composes (a card's source, then this), which
#: :func:`rule_said` says in the reader's words; each registered by :func:`rule_phrase`
_RULE_PHRASES: list[str] = []


def rule_phrase(text: str) -> str:
    """Registers ``text`` (marked with :func:`N_` where it is written) as a part of composed rule
    citations that text answers translate; the JSON keeps it as written."""
    _RULE_PHRASES.append(text)
    return text


def rule_said(rule: str) -> str:
    """A rule's citation as a text answer shows it: a citation the catalogs translate (the
    geometry's, whose brackets explain the rule in English) in the reader's words, any other as
    printed with its readings named (:func:`cited`); the JSON answers keep it as printed (R275).

    >>> with language("pl"):
    ...     rule_said("swm2008 PL p.10, p.18-19 Cover"), rule_said("swm2008 PL p.21-22")
    ('swm2008 PL p.10, p.18-19 Osłona', 'swm2008 PL p.21-22')
    """
    if not rule:
        return rule
    said = _(rule)
    for phrase in _RULE_PHRASES:
        if phrase in said:
            said = said.replace(phrase, _(phrase))
    return cited(said)


def reading_texts() -> dict[str, str]:
    """The words :func:`cited` uses, for the pages' scripts (which cite the same way)."""
    forms = (("reading {ids} in docs/readings.md", 1, True), ("readings {ids} in docs/readings.md", 2, True),
             ("reading {ids}", 1, False), ("readings {ids}", 2, False))
    return {key: _reading_words(n, where) for key, n, where in forms}


def current() -> str:
    return _current.get()


def set_language(lang: str) -> None:
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: {', '.join(LANGUAGES)}")
    _current.set(lang)


@contextlib.contextmanager
def language(lang: str) -> Iterator[None]:
    """Answers in ``lang`` for the ``with`` block (the web app, per request)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: {', '.join(LANGUAGES)}")
    token = _current.set(lang)
    try:
        yield
    finally:
        _current.reset(token)


def choose(requested: str | None = None, environ: dict[str, str] | None = None) -> str:
    """The language to answer in: ``requested`` (``--lang``), else ``$TABLETOP_LANG``, else the
    locale's, else English. A language we have no catalog for counts as none given.

    >>> choose(None, {"LANG": "pl_PL.UTF-8"}), choose("cs", {"LANG": "pl_PL.UTF-8"}), choose(None, {"LANG": "de_DE"})
    ('pl', 'cs', 'en')
    """
    env = os.environ if environ is None else environ
    for value in (requested, env.get(LANG_ENV), env.get("LC_ALL"), env.get("LC_MESSAGES"), env.get("LANG")):
        code = (value or "").strip().split(".")[0].split("_")[0].split("-")[0].lower()
        if code in LANGUAGES:
            return code
    return "en"


def from_accept_language(header: str | None) -> str:
    """The best of our languages in a browser's ``Accept-Language`` header, else English.

    >>> from_accept_language("cs-CZ,cs;q=0.9,en;q=0.8"), from_accept_language("de, pl;q=0.5"), from_accept_language(None)
    ('cs', 'pl', 'en')
    """
    best, best_q = "en", -1.0
    for part in (header or "").split(","):
        tag, _sep, params = part.strip().partition(";")
        code = tag.strip().split("-")[0].lower()
        try:
            q = float(params.strip()[2:]) if params.strip().startswith("q=") else 1.0
        except ValueError:
            q = 0.0
        if code in LANGUAGES and q > 0 and q > best_q:  # q=0: "not this one"
            best, best_q = code, q
    return best
