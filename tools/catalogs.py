"""Message catalogs: extract the marked texts, update the translations, compile them.

    pip install -e '.[test]'        # Babel
    python tools/catalogs.py        # extract -> assistant/locale/assistant.pot, update and compile pl, cs
    python tools/catalogs.py --check   # exit 1 if a catalog is stale (the test suite runs this)

Texts are marked in the code with ``_()`` and ``N_()`` (one text) and ``n_()`` (singular,
plural). The ``.po`` files are the translations (edited by hand, the rulebooks' terms from
``assistant/locale/glossary.yaml``); the ``.mo`` files beside them are what the package reads
at run time, compiled here and shipped in the wheel.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "assistant"
LOCALE = PACKAGE / "locale"
LANGUAGES = ("pl", "cs")
# the texts are extracted from this checkout's package, not whichever one the environment installed
# (a second checkout's --check otherwise read the first one's command tree)
sys.path.insert(0, str(ROOT))
KEYWORDS = {"_": None, "N_": None, "n_": (1, 2)}


def template() -> Catalog:
    """Every marked text of the package, with where it is used."""
    cat = Catalog(project="tabletop-assistant", charset="utf-8")
    for filename, lineno, message, comments, context in extract_from_dir(
            str(PACKAGE), method_map=[("**.py", "python"), ("**/templates/**.html", "jinja2.ext:babel_extract")],
            keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)):
        cat.add(message, locations=[(f"assistant/{filename}", lineno)], auto_comments=comments, context=context)
    # the command line's help: typer fixes it at definition, so it is collected from the tree
    import inspect

    from typer.main import get_command

    from assistant.cli.app import app
    from assistant.cli.helptext import help_texts

    for command, text in help_texts(get_command(app)):
        callback = inspect.unwrap(getattr(command, "callback", None) or (lambda: None))
        try:
            where = (str(Path(inspect.getsourcefile(callback) or "").resolve().relative_to(ROOT)), inspect.getsourcelines(callback)[1])
        except (TypeError, ValueError, OSError):
            where = ("assistant/cli/helptext.py", 1)
        cat.add(text, locations=[where])
    # the card games' verbs are described by their functions' docstrings
    from assistant.cardgames import CARD_GAMES

    for game in CARD_GAMES.values():
        verb_help = game.rules().verb_help
        where = str(Path(inspect.getsourcefile(verb_help) or "").resolve().relative_to(ROOT))
        for _kind, text in verb_help().values():
            if text:
                cat.add(text, locations=[(where, 1)])
    # the readings the shipped cards record are shown in answers too
    import yaml

    for path in sorted((ROOT / "cards").rglob("*.yaml")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip().startswith("reading:"):
                text = yaml.safe_load(line.strip())["reading"]
                if text:
                    cat.add(text, locations=[(str(path.relative_to(ROOT)), n)])
    return cat


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / "assistant.po"


def updated(lang: str, tpl: Catalog) -> Catalog:
    """The language's catalog brought up to the template (translations kept, new texts empty)."""
    path = po_path(lang)
    if path.is_file():
        with path.open("rb") as fh:
            cat = read_po(fh, locale=lang)
    else:
        cat = Catalog(locale=lang, project="tabletop-assistant", charset="utf-8")
    cat.update(tpl, no_fuzzy_matching=True)
    return cat


def untranslated(cat: Catalog) -> list[str]:
    """The texts a catalog has no translation for (a plural needs every form)."""
    out = []
    for m in cat:
        if not m.id:
            continue
        forms = m.string if isinstance(m.string, (list, tuple)) else [m.string]
        if not forms or not all(forms):
            out.append(m.id if isinstance(m.id, str) else m.id[0])
    return out


def po_bytes(cat: Catalog) -> bytes:
    buf = io.BytesIO()
    write_po(buf, cat, width=100, omit_header=False, sort_output=False, include_previous=False, ignore_obsolete=True)
    return buf.getvalue()


def mo_bytes(cat: Catalog) -> bytes:
    buf = io.BytesIO()
    write_mo(buf, cat, use_fuzzy=False)
    return buf.getvalue()


def mo_messages(data: bytes) -> dict[object, str]:
    """What a compiled catalog holds, without its header (whose dates change at each build)."""
    import gettext

    table = gettext.GNUTranslations(io.BytesIO(data))._catalog  # type: ignore[attr-defined]
    return {k: v for k, v in table.items() if k != ""}


def fresh(lang: str, cat: Catalog) -> bool:
    mo = po_path(lang).with_suffix(".mo")
    return mo.is_file() and mo_messages(mo.read_bytes()) == mo_messages(mo_bytes(cat))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", action="store_true", help="only say whether the catalogs are up to date")
    args = ap.parse_args()
    tpl = template()
    stale = []
    for lang in LANGUAGES:
        cat = updated(lang, tpl)
        mo = po_path(lang).with_suffix(".mo")
        if args.check:
            if not fresh(lang, cat):
                stale.append(lang)
            continue
        po_path(lang).parent.mkdir(parents=True, exist_ok=True)
        po_path(lang).write_bytes(po_bytes(cat))
        mo.write_bytes(mo_bytes(cat))
        missing = untranslated(cat)
        print(f"{lang}: {len([m for m in cat if m.id])} texts, {len(missing)} untranslated")
    if args.check and stale:
        print(f"stale catalogs: {', '.join(stale)} (run python tools/catalogs.py)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
