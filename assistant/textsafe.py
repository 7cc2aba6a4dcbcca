"""Text from users made safe to show: what a terminal or a Markdown viewer would act on is shown
escaped instead.

A map name, a figure's name, a note or a reason sent from a phone, a card's field or a file name
reaches the judge's terminal through ``show``, ``game log``, the export and the error messages. A
terminal obeys control characters: ESC starts a sequence that can clear the screen (``ESC[2J``),
retitle the window or write the clipboard (OSC 52); CR and backspace overwrite what was printed;
the bidirectional overrides (U+202A..U+202E, U+2066..U+2069) make text read in another order than
it is stored. Such characters are shown as escapes (``\\x1b``, ``\\u202e``), so the judge sees that
they are there and what they are; a lone surrogate (which no terminal encoding can write) likewise.
Line feeds and tabs are kept: the program's own lines are made of them. JSON keeps the text as given
(a program reads it, and JSON escapes the C0 controls itself).

>>> shown("Hoth\\x1b[2J base")
'Hoth\\\\x1b[2J base'
>>> shown("abc\\u202edef")
'abc\\\\u202edef'
>>> shown("line one\\nline\\ttwo")
'line one\\nline\\ttwo'

A Markdown export is read in a viewer too (a judge's, a forge's), and a viewer renders the raw HTML
that Markdown lets through: a ``<script>`` or an ``<img onerror=...>`` written in a note, a name or
an override reason would run there. :func:`markdown_shown` writes every ``<`` that would open a tag,
a comment or an autolink as ``&lt;`` (the viewer shows ``<``); :func:`code_span` and
:func:`code_fence` quote text with a backtick run longer than any in it, so a backtick in a player's
text cannot close the quote and let what follows be read as HTML.

>>> markdown_shown("<script>alert(1)</script> -> a < b")
'&lt;script>alert(1)&lt;/script> -> a < b'
>>> code_span("A note `<b>`")
'`` A note `<b>` ``'
"""

from __future__ import annotations

import re
import unicodedata

#: C0 controls but tab and line feed, DEL, the C1 controls, the bidirectional embeddings,
#: overrides and isolates, and lone surrogates
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _escape(m: re.Match[str]) -> str:
    code = ord(m.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def shown(text: str) -> str:
    """``text`` with every character a terminal would act on written as its escape."""
    return UNSAFE.sub(_escape, text) if UNSAFE.search(text) else text


#: a ``<`` that Markdown would pass on as raw HTML or an autolink (CommonMark 0.31, 6.5 and 6.6): before
#: a letter (a tag, ``<https:...>``), ``/`` (a closing tag), ``!`` (a comment, a declaration,
#: CDATA) or ``?`` (a processing instruction); ``a < b`` and ``->`` stay as they are
HTML_OPENER = re.compile(r"<(?=[A-Za-z/!?])")

#: runs of backticks, to quote text with a longer run
BACKTICKS = re.compile("`+")


def markdown_shown(text: str) -> str:
    """``text`` as :func:`shown` writes it, with every ``<`` that would open raw HTML in a Markdown
    viewer written as ``&lt;`` (for Markdown's running text: not inside a code span or block, where
    the viewer would show ``&lt;`` as it is)."""
    return HTML_OPENER.sub("&lt;", shown(text))


def _fence_for(text: str, shortest: int) -> str:
    return "`" * max(shortest, max((len(run) for run in BACKTICKS.findall(text)), default=0) + 1)


def code_span(text: str) -> str:
    """``text`` as a Markdown code span: quoted by a backtick run longer than any inside it
    (padded with spaces where it starts or ends with a backtick), so the viewer shows all of it
    as written and none of it as HTML."""
    fence = _fence_for(text, 1)
    # the viewer strips one space from each end when both have one: a pad keeps the text's own
    edges = (text[:1], text[-1:])
    pad = " " if fence != "`" or "`" in edges or edges == (" ", " ") else ""
    return f"{fence}{pad}{shown(text)}{pad}{fence}"


def code_fence(text: str) -> str:
    """The fence (three backticks or more) that opens and closes a Markdown code block of
    ``text``: longer than any backtick run in it, so no line of it ends the block early."""
    return _fence_for(text, 3)


def is_safe(text: str) -> bool:
    """Has ``text`` nothing that :func:`shown` would escape?"""
    return UNSAFE.search(text) is None


def says_something(text: str) -> bool:
    """Has ``text`` a character a reader sees: not only spaces, what :func:`shown` would escape,
    and invisible format characters (a right-to-left mark, a zero-width space, a soft hyphen:
    Unicode's category Cf, R373)? An override's reason of one control character (``"\\x01"``)
    was taken as a reason (trial27), and a note of a right-to-left mark alone as a note (round 32)."""
    return any(not c.isspace() and unicodedata.category(c) != "Cf" for c in UNSAFE.sub("", text))
