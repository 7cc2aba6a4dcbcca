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


def source_names(sources: object) -> str:
    """``wall E7, low J7``: cover sources as an answer lists them."""
    return ", ".join(f"{term(s.kind)} {s.where}" for s in sources)  # type: ignore[attr-defined]


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
