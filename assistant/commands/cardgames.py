"""The card games' verbs (``destiny do``, ``swtcg check``, ...): one function each, generic over
the card games; the rules of each game live in its engine, reached through the game's log."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict
from datetime import datetime
from pathlib import Path
from typing import Any

from ..cardgame.log import CardGameLog
from ..cardgames import CARD_GAMES, find_card_game
from ..errors import AssistantError
from ..game.store import games_home, set_current_game
from ..i18n import _, current, n_
from ..yamlio import dump_yaml, read_text
from .context import Session, refuse_empty_note
from .games import card_game_names
from .integrity import verify_log
from .registry import verb
from .result import Result, escape

#: the exit code of 'check' when the rules refuse the play (0: legal; 2: unreadable input)
CHECK_REFUSED = 3


@contextmanager
def open_log(s: Session, kind: str, path: Path | None) -> Iterator[CardGameLog]:
    log = CardGameLog.open(s.game_path(path, kind), CARD_GAMES, kind)
    try:
        yield log
    finally:
        log.close()


def new(s: Session, kind: str, table: Path, game: Path | None = None) -> Result:
    """Start a game from a table file and make it the current game."""
    text, _unused = read_text(table)
    path = game or games_home() / "games" / f"{kind}-{table.stem}-{datetime.now().strftime('%Y%m%d-%H%M%S')}.sqlite"
    CardGameLog.new(path, find_card_game(kind), text, str(table)).close()
    set_current_game(path, kind)
    return Result({"query": "new", "game": kind, "path": str(path)},
                  (_("new {game} game {path} (now the current {game} game)").format(game=kind, path=escape(str(path))),))


def do(s: Session, kind: str, command: str, override: str | None = None, game: Path | None = None) -> Result:
    """Record one play; the rules check it first and say what it did, rule by rule."""
    with open_log(s, kind, game) as log:
        done = log.do(command, override)
    obj = {"query": "do", "game": kind, "seq": done.event.seq, "command": command, "applied": done.applied,
           "said": list(done.said), "override": override}
    return Result(obj, (f"[green]#{done.event.seq}[/] {escape(command)}", *(f"  {escape(line)}" for line in done.said)))


def check(s: Session, kind: str, command: str, game: Path | None = None) -> Result:
    """May I? Check a play against the current table without recording it."""
    with open_log(s, kind, game) as log:
        ok, said = log.check(command)
    obj = {"query": "check", "game": kind, "command": command, "legal": ok, "said": list(said)}
    lines = ((_("[green]legal[/]") if ok else _("[red]not legal[/]")) + f": {escape(command)}", *(f"  {escape(line)}" for line in said))
    return Result(obj, lines, exit_code=0 if ok else CHECK_REFUSED)


def status(s: Session, kind: str, get: str | None = None, game: Path | None = None) -> Result:
    """The table now (or one fact of it by path, ``card.han.damage``)."""
    with open_log(s, kind, game) as log:
        table = log.table()
    if get is not None:
        value = log.rules.lookup(table, get)
        shown = value if isinstance(value, (int, str, bool, list, type(None))) else str(value)
        return Result({"query": "status", "get": get, "value": shown}, (escape(str(value)),))
    return Result({"query": "status", "game": kind, **log.rules.summary(table)}, tuple(escape(line) for line in log.rules.describe(table)))


def log(s: Session, kind: str, game: Path | None = None) -> Result:
    """Every play in order with what it did."""
    with open_log(s, kind, game) as lg:
        _table, entries = lg.fold()
    events = [{"seq": e.event.seq, "command": e.command, "said": list(e.said), "applied": e.applied,
               "undone": e.undone, "override": e.event.override} for e in entries]
    lines = []
    for e in entries:
        mark = " [dim]" + escape(_("(undone)")) + "[/]" if e.undone else ""
        over = " [yellow]" + escape(_("override")) + f": {escape(e.event.override)}[/]" if e.event.override else ""
        lines.append(f"#{e.event.seq:<4} {escape(e.text)}{mark}{over}")
    return Result({"query": "log", "events": events}, tuple(lines))


def undo(s: Session, kind: str, seq: int | None = None, game: Path | None = None) -> Result:
    """Undo a play (it stays in the log, marked undone)."""
    with open_log(s, kind, game) as lg:
        ev = lg.undo(seq)
    return Result({"query": "undo", "seq": ev.seq, "undid": ev.data["seq"]},
                  (_("[green]#{seq}[/] undid event {data}").format(seq=ev.seq, data=ev.data['seq']),))


def note(s: Session, kind: str, text: str, game: Path | None = None) -> Result:
    """Add a note to the log."""
    refuse_empty_note(text)
    with open_log(s, kind, game) as lg:
        ev = lg.note(text)
    return Result({"query": "note", "seq": ev.seq}, (_("[green]#{seq}[/] note recorded").format(seq=ev.seq),))


def export(s: Session, kind: str, format: str = "md", game: Path | None = None) -> Result:
    """The whole game, play by play, with what each did, overrides and their reasons."""
    if format not in ("md", "json"):
        raise AssistantError(_("unknown format {fmt!r}: md or json").format(fmt=format))
    with open_log(s, kind, game) as lg:
        text = str(lg.export(format))
    return Result({"query": "export", "format": format, "text": text}, text=text)


#: the partial and refused cards an import lists as text (all of them are under --json)
REPORT_LINES = 60


def import_file(s: Session, kind: str, file: Path, entry: str | None = None, id: str = "card", owner: str = "",
                elite: bool = False, dice: int | None = None, zone: str | None = None, on: str | None = None) -> Result:
    """Read a community card-data file: list its cards and the import report (imported, partial,
    refused, each with why), or one card (``entry``) as a table-file entry."""
    from .. import cardtext  # start-up time: the card text's markup only when a card file is read
    from ..cardgame.importers import EntryOptions, entry_card, read_card_file, read_card_folder  # start-up time: only import reads card data

    record = find_card_game(kind)
    # an option of another game is refused, never ignored (R317): the record says which it reads
    record.refuse_import_options({"--elite": elite, "--dice": dice is not None, "--zone": zone is not None, "--on": on is not None})
    if dice is not None and dice < 1:
        raise AssistantError(_("--dice {dice}: a character brings at least 1 die").format(dice=dice))
    importer = record.rules().importer
    notes: list[str] = []
    if file.is_dir() and importer.read_many is not None:
        read = importer.read_many(read_card_folder(file, importer.suffix, importer.sets_under))
        if importer.localize is not None:  # the community's own translation into the answer's language (R200)
            read, notes = importer.localize(file, read, current())
    else:
        text, notes = read_card_file(file)
        read = importer.read(text, str(file))
    cards, unused = read.cards, list(read.unused_columns)
    notes += read.skipped
    report = read.report.to_json() if read.report is not None else None
    # an entry is one card: the notes of that card alone (not those of every card of a folder) and what its text says
    chosen = entry_card(read, entry) if entry is not None else None
    notes += shared_notes([c for c in cards if chosen is None or c is chosen])
    card_text = str(getattr(chosen, "text", "") or "")
    said = [_("[yellow]note:[/] {n}").format(n=escape(n)) for n in notes]
    if card_text:  # its markup as a player reads it: bold, italics, the die symbols named (R276)
        said.append(_("[yellow]the card's text:[/] {text}").format(text=cardtext.rich(card_text)))
    if chosen is None:
        lines = [escape(importer.line(c)) for c in cards]
        lines.append(n_("{n} card", "{n} cards", len(cards)).format(n=len(cards))
                     + (_("; columns not used: {names}").format(names=escape(", ".join(unused))) if unused else ""))
        if read.report is not None:
            lines += [escape(line) for line in read.report.lines(limit=REPORT_LINES)]
        return Result({"query": "import", "cards": [_card_json(c) for c in cards], "unused_columns": unused, "notes": notes, "report": report},
                      tuple(lines), notes=tuple(said))
    options = EntryOptions(owner or importer.default_owner, elite, zone or importer.default_zone, on, dice, owner_given=bool(owner))
    data = importer.entry(chosen, id, options)
    obj = {"query": "import", "entry": data, "text": card_text, "text_shown": cardtext.plain(card_text), "notes": notes, "report": report}
    fields_of = importer.fields_of(chosen, options.owner) if importer.fields_of is not None else None
    if fields_of is not None:  # fields of another entry (a player's battlefield, say)
        said.append(_("[yellow]note:[/] paste it into {where} in the table file").format(where=fields_of))
        return Result(obj, text=dump_yaml(data), notes=tuple(said))
    if importer.table_key is not None:  # beside the entry, not in it: the entry alone stays pastable
        said.append(_("[yellow]note:[/] paste it under '{key}:' in the table file").format(key=importer.table_key(chosen)))
    return Result(obj, text=dump_yaml([data]), notes=tuple(said))


def shared_notes(cards: list[Any]) -> list[str]:
    """Each card's notes, a note that several cards share word for word said once, with how many
    and which (a folder of Destiny sets: 16 characters that print no die, one line; R355)."""
    who: dict[str, list[str]] = {}
    for c in cards:
        for n in c.notes:
            who.setdefault(n, []).append(c.name)
    return [f"{names[0]}: {n}" if len(names) == 1 else
            n_("{n} card ({names}), each: {note}", "{n} cards ({names}), each: {note}", len(names)).format(
                n=len(names), names=", ".join(names), note=n) for n, names in who.items()]


def _card_json(card: object) -> dict[str, Any]:
    """A card as an import's JSON lists it: its fields, its dice faces as they are written."""
    d = asdict(card)  # type: ignore[call-overload]
    if "faces" in d:
        d["faces"] = None if card.faces is None else [str(f) for f in card.faces]  # type: ignore[attr-defined]
    return d  # type: ignore[no-any-return]


def verify(s: Session, kind: str, head: str | None = None, game: Path | None = None) -> Result:
    """Check the log's hash chain: intact (its head), or the first event edited, deleted or inserted; --head H: an exported head is still in it."""
    return verify_log(s.game_path(game, kind), kind, head)


for _kind in card_game_names():
    verb(f"{_kind} new", positional=("table",), query="new", writes=True, local=True, fixed={"kind": _kind})(new)
    verb(f"{_kind} do", positional=("command",), query="do", writes=True, fixed={"kind": _kind})(do)
    verb(f"{_kind} check", positional=("command",), fixed={"kind": _kind})(check)
    verb(f"{_kind} status", fixed={"kind": _kind})(status)
    verb(f"{_kind} log", fixed={"kind": _kind})(log)
    verb(f"{_kind} undo", positional=("seq",), query="undo", writes=True, fixed={"kind": _kind})(undo)
    verb(f"{_kind} note", positional=("text",), query="note", writes=True, fixed={"kind": _kind})(note)
    verb(f"{_kind} export", query="export", fixed={"kind": _kind})(export)
    verb(f"{_kind} verify", query="verify", fixed={"kind": _kind})(verify)
    verb(f"{_kind} import", positional=("file",), query="import", local=True, fixed={"kind": _kind})(import_file)
