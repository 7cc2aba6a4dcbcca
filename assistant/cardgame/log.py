"""The card games' game log: the same SQLite event store as the miniatures games
(:mod:`assistant.game.store` -- append-only, one write lock per command, undo as an event,
overrides with a reason), holding a table file as its setup and table commands as events.
Which game a log holds is its record's to say (:class:`assistant.cardgame.plugin.CardGame`);
the game file keeps the record's name as its ``rules``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import AssistantError, NotationError, UnknownNameError
from ..game.store import REQUEST_ID, Event, GameFileError, GameStore, check_shapes, export_chain, undo_target, undone_seqs
from ..i18n import _
from ..textsafe import code_fence, code_span, markdown_shown, says_something, shown
from .plugin import CardGame


class RefusedCommandError(AssistantError):
    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(_("refused: {why}. A judge may record it anyway with --override \"reason\"").format(why=reason))


@dataclass(frozen=True)
class Entry:
    event: Event
    command: str
    said: tuple[str, ...]
    applied: bool  # False for an overridden command the rules refused: recorded, the table unchanged
    undone: bool = False

    @property
    def text(self) -> str:
        """The entry as a log lists it: the play as written, a note with its words (its command
        is only ``note``)."""
        return _("judge's note: {text}").format(text=self.event.data["text"]) if self.event.kind == "note" else self.command


@dataclass(frozen=True)
class Done:
    event: Event
    said: tuple[str, ...]
    applied: bool


#: what each kind of card-game event carries (checked when the log is read)
CARD_SHAPES: dict[str, dict[str, object]] = {"setup": {"position": str}, "command": {"command": str}, "note": {"text": str}, "undo": {"seq": int}}


class CardGameLog:
    def __init__(self, store: GameStore, game: CardGame):
        self.store = store
        self.rules = game  # how the game is read, played, asked and shown
        self.game = game.name

    @classmethod
    def new(cls, path: Path, game: CardGame, table_text: str, name: str = "table") -> CardGameLog:
        game.parse_table(table_text, name)  # refuse a bad table before creating anything
        return cls(GameStore.create(path, game.name, table_text), game)

    @classmethod
    def open(cls, path: Path, games: Mapping[str, CardGame], game: str | None = None) -> CardGameLog:
        """Open a card game's file: one of ``games`` (the registered ones), ``game`` if named."""
        store = GameStore.open(path)
        rules = store.meta().get("rules", "")
        if rules not in games or (game is not None and rules != game):
            store.close()
            hint = _("use 'python -m assistant {rules} ...'").format(rules=rules) if rules in games else _("use 'python -m assistant game ...'")
            raise GameFileError(
                _("{path} is a {why} game, not {why2}: {hint}").format(path=path, why=rules or _('unknown'), why2=game or _('a card game'), hint=hint)
            )
        return cls(store, games[rules])

    @property
    def path(self) -> Path:
        return self.store.path

    def close(self) -> None:
        self.store.close()

    # -- folding the log -----------------------------------------------------------------

    def fold(self, events: list[Event] | None = None, upto: int | None = None) -> tuple[Any, list[Entry]]:
        events = self.store.events() if events is None else events
        if upto is not None:
            events = [e for e in events if e.seq <= upto]
        return fold_events(self.rules, events, self.path)

    def table(self, upto: int | None = None) -> Any:
        return self.fold(upto=upto)[0]

    # -- commands ------------------------------------------------------------------------

    def check(self, command: str) -> tuple[bool, tuple[str, ...]]:
        """What the command would do now, without recording it: (allowed, what it says)."""
        table, _ = self.fold()
        try:
            out = self.rules.apply(table, command)
        except (NotationError, UnknownNameError):
            raise  # the command cannot be read: not a ruling
        except AssistantError as e:
            return False, (str(e),)
        return True, tuple(out.said)

    def do(self, command: str, override: str | None = None) -> Done:
        if override is not None and not says_something(override):
            raise AssistantError(_("an override needs a reason"))
        result: dict[str, Any] = {}

        def guard(events: list[Event]) -> None:
            table, _unused = self.fold(events)
            try:
                out = self.rules.apply(table, command)
            except (NotationError, UnknownNameError):
                raise  # a typo or a wrong name is not a ruling: fix the command instead
            except AssistantError as e:
                if override is None:
                    raise RefusedCommandError(str(e)) from None
                result["said"], result["applied"] = (_("recorded by override ({override}); the rules refuse it: {e}").format(override=override, e=e),), False
                return
            result["said"], result["applied"] = tuple(out.said), True

        rid = REQUEST_ID.get()  # a web request's id, kept so that its retry after a restart is not recorded twice
        ev = self.store.append("command", {"command": command, **({"request": rid} if rid is not None else {})}, override=override, check=guard)
        return Done(ev, result["said"], result["applied"])

    def note(self, text: str) -> Event:
        return self.store.append("note", {"text": text})

    def undo(self, seq: int | None = None) -> Event:
        """Undo a command. Later commands are replayed on the changed table; any that no
        longer apply stay in the log, shown as refused, so nothing is lost. The command undone is
        found inside the write lock: "the last one" is the last one then (two undos at once undo
        two commands, not one twice)."""
        return self.store.append_all(lambda events: [("undo", {"seq": undo_target(events, seq)}, None)])[0]

    # -- export --------------------------------------------------------------------------

    def export(self, fmt: str) -> str:
        table, entries = self.fold()
        meta = self.store.meta()
        if fmt == "json":
            return (
                json.dumps(
                    {
                        "format": meta.get("format"),
                        "rules": meta.get("rules"),
                        "created": meta.get("created"),
                        "events": [
                            {
                                "seq": e.event.seq,
                                "at": e.event.at,
                                "kind": e.event.kind,
                                "command": e.command,
                                "said": list(e.said),
                                "applied": e.applied,
                                "undone": e.undone,
                                "override": e.event.override,
                                "data": e.event.data,  # as the log holds it: what 'game import' reads back (R267)
                                "hash": e.event.hash,
                            }
                            for e in entries
                        ],
                        "final": self.rules.summary(table),
                        "chain": export_chain(entries[-1].event, self.game)[0],
                    },
                    indent=2,
                    ensure_ascii=False,
                )
                + "\n"
            )
        if fmt != "md":
            raise AssistantError(_("unknown format {fmt!r}: json or md").format(fmt=fmt))
        # the players' text (commands, names, override reasons) is escaped as the terminal shows it
        # (ESC, CR, bidi), and so that a Markdown viewer renders none of it as HTML: running text
        # with '<' as '&lt;', commands in a code span and the table in a code block that a
        # backtick in a name cannot close
        # the headings and marks in the reader's language, as the miniatures game's export (R277)
        lines = [_("# {title} game log (started {created})").format(title=self.rules.title, created=meta.get("created")), ""]
        for e in entries:
            mark = f" ~~{_('undone')}~~" if e.undone else ""
            over = f" **{_('override')}:** {markdown_shown(e.event.override)}" if e.event.override else ""
            lines.append(f"{e.event.seq}. {code_span(e.command)}{mark}{over}")
            lines += [f"   - {markdown_shown(s)}" for s in e.said]
        described = shown("\n".join(self.rules.describe(table)))
        fence = code_fence(described)
        lines += ["", _("## Final table"), "", fence, described, fence]
        lines += [*export_chain(entries[-1].event, self.game)[1], ""]
        return "\n".join(lines)


def import_export(path: Path, obj: dict[str, Any], source: str, rules: CardGame) -> int:
    """Write a card game's log exported as JSON (``export --format json``) as the game file
    ``path``, which must not exist: its chain checked from the header to the exported head, its
    events folded and the table compared with the export's ``final`` (reading R267), as
    :mod:`assistant.game.logimport` reads a miniatures log; the number of events written. A
    :class:`GameFileError` naming ``source`` and what is wrong otherwise, with nothing written."""
    from ..game.logimport import refusal, verified_events  # only an import reads an export

    rows = obj.get("events")
    if isinstance(rows, list) and rows and not any(isinstance(row, dict) and "data" in row for row in rows):
        raise refusal(source, _("a {game} export written before it carried each event's data (the table as set up, each play "
                                "as recorded): it cannot give the game back; export the game again from its game file").format(game=rules.title))
    header, events, _hashed = verified_events(obj, source)
    try:
        table, _entries = fold_events(rules, events, source)
        again = json.loads(json.dumps(rules.summary(table), ensure_ascii=False))
    except GameFileError as exc:
        raise refusal(source, str(exc)) from None
    except AssistantError as exc:  # a setup no table file gives: hashes anyone can make again
        raise refusal(source, _("its setup is not a {game} table: {why}").format(game=rules.title, why=exc)) from None
    if obj.get("final") != again:
        raise refusal(source, _("the events folded here do not give the exported table (its 'final'): the result was edited"))
    GameStore.create_from(path, header, events).close()
    return len(events)


def fold_events(rules: CardGame, events: list[Event], where: Path | str) -> tuple[Any, list[Entry]]:
    """The table after ``events`` of a card game's log and each event's entry (what it said);
    ``where`` names the log in a refusal."""
    check_shapes(Path(where), events, CARD_SHAPES)
    undone = undone_seqs(events)
    table = None
    entries: list[Entry] = []
    for e in events:
        if e.kind == "setup":
            table = rules.parse_table(e.data["position"], "game setup")
            entries.append(Entry(e, "setup", (_("the table as set up"),), True))
            continue
        assert table is not None, "a game starts with its setup event"
        if e.kind == "undo":
            entries.append(Entry(e, f"undo #{e.data['seq']}", (_("event {seq} undone").format(seq=e.data["seq"]),), True, e.seq in undone))
            continue
        if e.kind == "note":
            entries.append(Entry(e, "note", (e.data["text"],), True, e.seq in undone))
            continue
        cmd = e.data["command"]
        if e.seq in undone:
            entries.append(Entry(e, cmd, (_("(undone)"),), False, True))
            continue
        try:
            out = rules.apply(table, cmd)
            table = out.table
            entries.append(Entry(e, cmd, tuple(out.said), True))
        except AssistantError as err:  # recorded, table unchanged: an override, or a play an earlier undo invalidated
            why = (
                _("recorded by the judge's override ({override}); the rules refuse it").format(override=e.override)
                if e.override
                else _("no longer legal after an earlier undo")
            )
            entries.append(Entry(e, cmd, (_("{why}, so the table is unchanged: {err}").format(why=why, err=err),), False))
    assert table is not None
    return table, entries
