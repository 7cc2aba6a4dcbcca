"""A reading of the register (``docs/readings.md``) as the phone's page shows it (reading R351).

The register is Markdown wrapped at 100 columns for a terminal; on a phone the wrapped lines broke
mid-sentence and the marks (``**Why.**``, ``> ``) showed as typed. Each paragraph is joined into one
line, a quoted paragraph (the rulebook's words) is a quotation, a list stays a list, and bold,
italic and code are said as such. Everything else is escaped text: the register is the project's
own file, but nothing of it is passed through as HTML.
"""

from __future__ import annotations

import re

from markupsafe import Markup, escape

__all__ = ["reading_html"]

_INLINE = ((re.compile(r"\*\*(.+?)\*\*"), "strong"), (re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])"), "em"), (re.compile(r"`([^`]+)`"), "code"))


def _inline(text: str) -> str:
    """One paragraph's text, escaped, its bold, italic and code marked.

    >>> _inline("**Why.** As *written*: `a < b`")
    '<strong>Why.</strong> As <em>written</em>: <code>a &lt; b</code>'
    """
    html = str(escape(text))
    for pattern, tag in _INLINE:
        html = pattern.sub(rf"<{tag}>\1</{tag}>", html)
    return html


def reading_html(body: str) -> Markup:
    """A reading's text (its heading left out) as HTML paragraphs, quotations and lists.

    >>> print(reading_html("Applies to: SWM 2008\\nand more.\\n\\n> **PL p.36:** one\\n> two\\n>\\n> *One.*\\n\\n- a\\n- b"))
    <p>Applies to: SWM 2008 and more.</p>
    <blockquote><p><strong>PL p.36:</strong> one two</p><p><em>One.</em></p></blockquote>
    <ul><li>a</li><li>b</li></ul>
    """
    blocks: list[str] = []
    for para in re.split(r"\n\s*\n", body.strip()):
        lines = [line.rstrip() for line in para.splitlines()]
        if all(line.startswith(">") for line in lines):
            quoted: list[str] = []  # a bare ">" line parts the quotation's paragraphs (the original, its translation)
            current: list[str] = []
            for line in (line[1:].strip() for line in lines):
                if line:
                    current.append(line)
                elif current:
                    quoted.append(" ".join(current))
                    current = []
            if current:
                quoted.append(" ".join(current))
            blocks.append("<blockquote>" + "".join(f"<p>{_inline(q)}</p>" for q in quoted) + "</blockquote>")
        elif all(re.match(r"\s*[-*] ", line) or line.startswith("  ") for line in lines) and re.match(r"\s*[-*] ", lines[0]):
            items: list[str] = []
            for line in lines:
                if re.match(r"\s*[-*] ", line):
                    items.append(re.sub(r"^\s*[-*] ", "", line))
                else:
                    items[-1] += " " + line.strip()
            blocks.append("<ul>" + "".join(f"<li>{_inline(i)}</li>" for i in items) + "</ul>")
        else:
            blocks.append(f"<p>{_inline(' '.join(line.strip() for line in lines))}</p>")
    return Markup("\n".join(blocks))
