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
"""

from __future__ import annotations

import re

#: C0 controls but tab and line feed, DEL, the C1 controls, the bidirectional embeddings,
#: overrides and isolates, and lone surrogates
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _escape(m: re.Match[str]) -> str:
    code = ord(m.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def shown(text: str) -> str:
    """``text`` with every character a terminal would act on written as its escape."""
    return UNSAFE.sub(_escape, text) if UNSAFE.search(text) else text


def is_safe(text: str) -> bool:
    """Has ``text`` nothing that :func:`shown` would escape?"""
    return UNSAFE.search(text) is None
