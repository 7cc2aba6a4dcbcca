"""A card's text as a player reads it: the community card data's markup turned into words.

swdestinydb writes a Destiny card's text with HTML tags (``<b>Action</b>``, ``<i>ability</i>``,
``<em>``, a list ``<ul><li>``, entities such as ``&amp;``) and its die symbols and set icons in
square brackets (``[melee]``, ``[special]``, ``[AW]``); the SW TCG's LackeyCCG files quote an
ability a card grants between two ``&`` (``&Critical Hit 1&``). Shown as the data writes it, a
player read ``<i>ability</i>`` and ``[special] - Discard a support``. Here (reading R276) bold and
italics become the terminal's bold and italics (:func:`rich`) or plain words (:func:`plain`, for
the web page, which escapes what it shows), a list item a line of its own, and a die symbol its
name in the reader's language in brackets, as the Destiny rulebook names it (``[obrażenia wręcz]``,
Destiny P2 › Symbole na kościach); a set icon stays its set's code (``[AW]``), a name. The card's
words themselves are the card's: they are shown as written (the JSON answers keep the data's own
text too). Nothing in a card's text is ever markup to the terminal or HTML to the page: every word
of it is escaped.

>>> plain("<b>Action</b> - Remove this die to turn one of your <i>ability</i> dice to any side.")
'Action - Remove this die to turn one of your ability dice to any side.'
>>> plain("[special] - Deal 2 [melee] &amp; 1 [indirect]. [AW]")
'[special] - Deal 2 [melee damage] & 1 [indirect damage]. [AW]'
>>> rich("<b>Action</b> - [special] <script>[red]x[/red]</script>")
'[bold]Action[/bold] - \\\\[special] \\\\[red]x\\\\[/red]'
"""

from __future__ import annotations

import html
import re

from rich.markup import escape

from .i18n import N_, _

#: the Destiny die symbols as the card text writes them in brackets, by the rulebook's names
#: (Destiny P2 › Symbole na kościach: Obrażenia wręcz, Obrażenia dystansowe, ...)
SYMBOLS = {
    "melee": N_("melee damage"), "ranged": N_("ranged damage"), "indirect": N_("indirect damage"),
    # TRANSLATORS: a Destiny die symbol, as a card's text names it ([shield])
    "shield": N_("shield"), "Sh": N_("shield"),
    # TRANSLATORS: a Destiny die symbol, as a card's text names it ([resource])
    "resource": N_("resource"),
    # TRANSLATORS: a Destiny die symbol, as a card's text names it ([disrupt])
    "disrupt": N_("disrupt"),
    # TRANSLATORS: a Destiny die symbol, as a card's text names it ([discard])
    "discard": N_("discard"),
    # TRANSLATORS: a Destiny die symbol, as a card's text names it ([focus])
    "focus": N_("focus"),
    # TRANSLATORS: a Destiny die symbol, as a card's text names it ([special])
    "special": N_("special"),
    # TRANSLATORS: a Destiny die symbol, as a card's text names it ([blank])
    "blank": N_("blank"),
}
#: a tag (``<b>``, ``</i>``, ``<span class="destiny">``, the data's one ``</i.>``), a bracketed
#: symbol or icon, or an SW TCG granted ability between ``&``s (not an entity such as ``&amp;``)
_TOKEN = re.compile(r"<(/?)([a-zA-Z]+)[^<>]*>|\[([A-Za-z]+)\]|&(?![a-zA-Z]+;|#\d+;)([^&<>\n]+)&")
_STYLE = {"b": "bold", "strong": "bold", "i": "italic", "em": "italic"}


def _words(text: str) -> str:
    return html.unescape(text)


def _symbol(name: str) -> str:
    return f"[{_(SYMBOLS[name])}]" if name in SYMBOLS else f"[{name}]"


def _render(text: str, styled: bool) -> str:
    out: list[str] = []
    open_styles: list[str] = []

    def add(words: str) -> None:
        out.append(escape(words) if styled else words)

    at = 0
    for m in _TOKEN.finditer(text):
        add(_words(text[at:m.start()]))
        at = m.end()
        closing, tag, symbol, granted = m.group(1), (m.group(2) or "").lower(), m.group(3), m.group(4)
        if symbol is not None:
            add(_symbol(symbol))
        elif granted is not None:
            add("\u201c" + _words(granted) + "\u201d")
        elif tag == "li" and not closing:
            out.append("\n\u2022 ")
        elif tag in ("br", "p", "ul") and (tag == "br" or closing):
            out.append("\n")
        elif tag in _STYLE and styled:
            style = _STYLE[tag]
            if not closing:
                open_styles.append(style)
                out.append(f"[{style}]")
            elif style in open_styles:  # a closing tag without its opening one is dropped
                while open_styles:
                    last = open_styles.pop()
                    out.append(f"[/{last}]")
                    if last == style:
                        break
        # any other tag (span, a stray one) is dropped: its words stay
    add(_words(text[at:]))
    out.extend(f"[/{style}]" for style in reversed(open_styles))
    lines = ("".join(out)).split("\n")
    return "\n".join(re.sub(r"[ \t]+", " ", line).strip() for line in lines if line.strip())


def plain(text: str) -> str:
    """A card's text in plain words: no tags, symbols named, for a page that escapes it."""
    return _render(text, styled=False)


def rich(text: str) -> str:
    """A card's text as Rich markup for the terminal: bold and italics kept, every word escaped."""
    return _render(text, styled=True)
