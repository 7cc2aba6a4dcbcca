"""A game log exported as JSON (``game export --format json``), read back into a game file.

The export carries every event (its number, time, kind, data, override reason and hash) and the
chain's head. Importing it checks the chain from the header (format, rules, start time) through
every event to that head, so an export edited by hand -- a d20, a square, a reason, an event
deleted, inserted or moved -- is refused, naming the first event that does not match; then the
events are folded (a log that no command could have written is refused the same way) and the
state is compared with the export's ``final`` part, so the game imported is the game exported.
Only then is the game file written, whole, beside its place and moved there (reading R184).

An export made before the events carried their data (``data``) is read back from the keys the
events show; the chain head says whether that gave every event exactly.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..cards import CardLibrary
from ..i18n import _
from .state import fold
from .store import FORMAT, GENESIS_KEYS, Event, GameFileError, GameStore, genesis, link

#: keys an exported event shows beside its data (:func:`~.actions.entry_json`)
_SHOWN = frozenset({"seq", "at", "kind", "override", "round", "phase", "text", "undone", "void", "data", "hash"})
#: the parts of the export's ``final`` that no language changes: compared after the fold
_FINAL_KEYS = ("round", "phase", "defeated", "points", "winner", "figures")


def looks_like_export(text: str, source: str) -> dict[str, Any] | None:
    """The export as a JSON object when ``text`` is one (an object with ``events``); None for
    anything else (a position file, which ``game import`` reads as before, in JSON too). A file
    named ``*.json`` that is not JSON is refused, saying where it breaks."""
    named_json = source.lower().endswith(".json")
    if text.startswith("# ") and "\n| # |" in text:  # the Markdown export's title and table (any language)
        raise GameFileError(_("{source} is a game's Markdown export, written for reading: 'game import' reads the JSON "
                              "export ('game export --format json'); nothing was written").format(source=source))
    if not text.lstrip().startswith("{") and not named_json:
        return None
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError) as exc:
        if not named_json:
            return None
        raise GameFileError(_("{source}: not valid JSON ({why}); nothing was written").format(source=source, why=exc)) from None
    if isinstance(obj, dict) and "events" in obj:
        return obj
    if isinstance(obj, dict) and obj.get("format") == FORMAT:  # a game log's header without its events
        raise GameFileError(_("{source}: not a game log exported with 'game export --format json' (no JSON object with 'events'); "
                              "nothing was written").format(source=source))
    return None  # a position file (YAML reads JSON too): 'game import' starts a game from it


def refusal(source: str, why: str) -> GameFileError:
    """An export refused: what is wrong, naming it once (a fold's refusal names the file already),
    and that nothing was written."""
    why = why.removeprefix(f"{source}: ")
    return GameFileError(_("{source}: {why}; nothing was written").format(source=source, why=why))


def verified_events(obj: dict[str, Any], source: str) -> tuple[dict[str, str], list[Event], bool]:
    """The header and the events of an exported log of any kind of game, its chain checked from
    the header to the exported head (see the module), and whether its events carry their data;
    a :class:`GameFileError` naming ``source`` and what is wrong otherwise."""

    def bad(why: str) -> GameFileError:
        return refusal(source, why)

    if obj.get("format") != FORMAT:
        raise bad(_("not a {FORMAT} game log (format {found!r})").format(FORMAT=FORMAT, found=obj.get("format")))
    header: dict[str, str] = {}
    for key in GENESIS_KEYS:
        value = obj.get(key)
        if not isinstance(value, str) or not value:
            raise bad(_("the export's {key!r} is missing or not text").format(key=key))
        header[key] = value
    rows, chain = obj.get("events"), obj.get("chain")
    if not isinstance(rows, list) or not rows:
        raise bad(_("its 'events' is not a list of events"))
    if not isinstance(chain, dict) or not isinstance(chain.get("head"), str) or not isinstance(chain.get("seq"), int):
        raise bad(_("its 'chain' (the head and its event number) is missing: nothing shows the events are the game's"))
    prev, events = genesis(header), list[Event]()
    #: an export that carries each event's data carries its hash too: one without it was edited
    hashed = any(isinstance(row, dict) and "data" in row for row in rows)
    for i, row in enumerate(rows, 1):
        event = _event(row, i, bad)
        if hashed and not isinstance(row.get("hash"), str):
            raise bad(_("event #{seq} ({kind}) has no hash: it was edited after the export").format(seq=event.seq, kind=event.kind))
        try:
            digest = link(prev, event.seq, event.at, event.kind, event.data, event.override)
        except (ValueError, TypeError, RecursionError):
            digest = ""
        if event.seq != (events[-1].seq + 1 if events else 1):
            raise bad(_("event #{seq} follows #{last}: events were deleted, inserted or moved").format(
                seq=event.seq, last=events[-1].seq if events else 0))
        if (hashed and row["hash"] != digest) or not digest:
            raise bad(_("event #{seq} ({kind}) does not match its hash: it was edited after the export").format(seq=event.seq, kind=event.kind))
        prev = digest
        events.append(Event(event.seq, event.at, event.kind, event.data, event.override, digest))
    if chain["seq"] != events[-1].seq or chain["head"] != prev:
        why = _("the events do not lead to the exported chain head (event #{seq}): the log was edited after the export, "
                "or events were deleted from its end").format(seq=chain["seq"])
        if not hashed:
            why += _(" (or it was exported before the export carried each event's data, and an event's data is not all shown: "
                     "export the game again)")
        raise bad(why)
    return header, events, hashed


def read_export(obj: dict[str, Any], source: str, library: CardLibrary | None = None
                ) -> tuple[dict[str, str], list[Event], list[tuple[int, str]]]:
    """The header and the events of an exported miniatures log, its chain and its fold checked
    (see the module), and the events the fold voids that the export did not show void (an attack
    its own d20 contradicts, R196: hashes anyone can make again, so the import says them); a
    :class:`GameFileError` naming ``source`` and what is wrong otherwise."""

    def bad(why: str) -> GameFileError:
        return refusal(source, why)

    header, events, _hashed = verified_events(obj, source)
    try:
        state = fold(events, library, path=source)
    except GameFileError as exc:
        raise bad(str(exc)) from None
    from .actions import export_text  # start-up time and layers: the export's writer only here

    again = json.loads(export_text(state, {**header}, "json"))["final"]
    final = obj.get("final")
    if isinstance(final, dict):
        differ = [k for k in _FINAL_KEYS if k in final and final[k] != again.get(k)]
        if differ:
            raise bad(_("the events folded here do not give the exported result ({keys} differ): the card library is not "
                        "the one the game was played with (give the same --cards), or the result was edited").format(keys=", ".join(differ)))
    shown_void = {row.get("seq") for row in obj["events"] if isinstance(row, dict) and row.get("void")}
    unmarked = [(e.event.seq, e.void) for e in state.entries if e.void and e.event.seq not in shown_void]
    return header, events, unmarked


def _event(row: object, i: int, bad: Any) -> Event:
    """One exported event as the log stored it."""
    if not isinstance(row, dict):
        raise bad(_("event {i} of the export is not an object").format(i=i))
    seq, at, kind, override = row.get("seq"), row.get("at"), row.get("kind"), row.get("override")
    if not isinstance(seq, int) or isinstance(seq, bool) or not isinstance(at, str) or not isinstance(kind, str):
        raise bad(_("event {i} of the export lacks its number, time or kind").format(i=i))
    if override is not None and not isinstance(override, str):
        raise bad(_("event #{seq}'s override is not text").format(seq=seq))
    data = row.get("data")
    if data is None:  # an export from before the events carried their data: read back from what they show
        data = {k: v for k, v in row.items() if k not in _SHOWN}
        if kind == "undo" and "undoes" in data:
            data["seq"] = data.pop("undoes")
    if not isinstance(data, dict):
        raise bad(_("event #{seq}'s data is not an object").format(seq=seq))
    return Event(seq, at, kind, data, override)


def import_export(path: Path, obj: dict[str, Any], source: str, library: CardLibrary | None = None
                  ) -> tuple[int, list[tuple[int, str]]]:
    """Write the exported log ``obj`` as the game file ``path`` (which must not exist); the
    number of events written, and the events void on replay that the export showed standing
    (:func:`read_export`)."""

    header, events, unmarked = read_export(obj, source, library)
    GameStore.create_from(path, header, events).close()
    return len(events), unmarked

