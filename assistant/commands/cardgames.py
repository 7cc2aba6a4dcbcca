"""The card games' verbs (``destiny do``, ``swtcg check``, ...): one function each, generic over
the card games; the rules of each game live in its engine, reached through the game's log."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

from ..cardgame.log import CardGameLog
from ..cardgames import CARD_GAMES, find_card_game
from ..errors import AssistantError
from ..game.store import games_home, set_current_game
from ..i18n import _
from ..yamlio import read_text
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
