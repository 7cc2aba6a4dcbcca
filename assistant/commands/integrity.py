"""``game verify`` and each card game's ``verify``: the log's hash chain checked, its head, and
whether a head a judge exported earlier is still in it (the file has only grown since)."""

from __future__ import annotations

from pathlib import Path

from ..errors import AssistantError
from ..game.store import GameFileError, GameStore
from ..i18n import _, n_
from .result import Result, escape


def verify_log(path: Path, program: str, head: str | None = None) -> Result:
    """The chain of the game file at ``path`` (read only, nothing written): OK with its head, or
    a :class:`GameFileError` naming the first event that does not match. With ``head`` (from an
    export), where that head is in the chain -- or a refusal when it is not."""
    store = GameStore.open_readonly(path)
    try:
        found, _events = store.chain(fresh=True)  # verified whole now, whatever this process verified before
    finally:
        store.close()
    r = found.report
    if r.problem is not None:
        raise GameFileError(_("{problem}; the log was edited outside this program").format(problem=r.problem))
    # counted in the reader's grammar: "1 events" (and Polish "1 zdarzeń") was said of a game just begun
    lines = [n_("[green]the log is intact[/]: {n} event, checked by its SHA-256",
                "[green]the log is intact[/]: {n} events, each linked to the one before by its SHA-256", r.events).format(n=r.events),
             _("chain head after event #{seq}: {head}").format(seq=r.seq, head=r.head)]
    since = None
    if r.since:
        when, _sep, upto = r.since.partition(" ")
        since = {"at": when, "upto": int(upto) if upto.isdigit() else None}
        lines.append(escape(_("the chain was added on {when}, when the log held events #1 to #{upto}: it shows nothing about "
                              "edits made to the file before then").format(when=when, upto=upto)))
    if not r.stored:
        lines.append(escape(_("this file was written before the log kept a hash chain and cannot be written here: the chain "
                              "is worked out now and shows nothing about earlier edits (a command that records, where the "
                              "file can be written, stores it)")))
    at = None
    if head is not None:
        if len(head.strip()) < 16:
            raise AssistantError(_("--head {head!r}: give the exported head (64 hex digits), or at least its first 16").format(head=head))
        at = found.find(head)
        if at is None:
            raise AssistantError(
                _("--head {head}: no event of this log has that hash: the events up to that export were changed since "
                  "(or the head is another game's); '{program} verify' alone checks the log as it is now").format(
                    head=head.strip(), program=program))
        lines.append(_("[green]the exported head is event #{at}'s[/]: events #1 to #{at} are as they were exported; "
                       "{later} recorded since").format(at=at, later=r.seq - at))
    obj = {"query": "verify", "ok": True, "head": r.head, "seq": r.seq, "events": r.events, "stored": r.stored,
           "chained_since": since, **({"head_at": at} if head is not None else {})}
    return Result(obj, tuple(lines))
