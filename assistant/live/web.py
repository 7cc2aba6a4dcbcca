"""The web app the players' phones join: a thin edge over :class:`~assistant.live.table.Table`.

Pages are server-rendered (Jinja2) with one small script of our own (no build step, nothing
fetched from elsewhere). Every answer comes from the same engine as the CLI, every change is
one event in the same SQLite log. Errors are JSON ``{"error": ...}`` (or a plain page), never a
traceback.

Who may do what: served on 127.0.0.1 (the default) anyone on this computer may play. With a
``token`` (``serve --lan``) every request must carry it -- as ``?t=TOKEN`` in the joining link,
then as an HTTP-only, SameSite=Strict cookie -- or get 403 and change nothing. A
``spectator`` token gives a read-only view. The script, style, icon and manifest are public (a
browser fetches a manifest without cookies); everything else is the table's.

What a page on another site cannot do (in every mode): every request's ``Host`` must be one of
the table's own names (the loopback names, and in ``--lan`` the table's address: a DNS-rebound
name is refused), an ``Origin`` sent must be the table's own, and every POST must be JSON
(``application/json``; a photo ``multipart/form-data``, 415 otherwise) carrying the table's write
token in ``X-Write-Token``. The token is in the players' pages only (a ``<meta>`` tag): another
site's page cannot read it (no CORS header is ever sent), nor send a custom header or JSON
without a preflight this server never grants. Each refusal is 403 JSON naming what was wrong.
Bodies are counted while they stream in (413 past the limit, with or without Content-Length).

Every phone in step: ``GET /api/stream`` is a server-sent-events stream of the table's version
(:mod:`assistant.live.push`); a POST carrying ``X-Request-Id`` is answered once, and a repeat of
the id gets the first answer and records nothing. Offline: the API page at ``/docs`` is drawn
here from the OpenAPI schema (no script from a CDN), and nothing on any page names another host.
"""

import asyncio
import contextlib
import errno
import hmac
import ipaddress
import json
import logging
import math
import resource
import secrets
import socket
from collections.abc import Awaitable, Callable, Collection, MutableMapping
from dataclasses import fields
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from markupsafe import Markup
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect
from starlette.routing import Match

from .. import i18n
from ..cardgame.log import RefusedCommandError
from ..commands import load_all
from ..commands.registry import SESSION_PARAMS, verb_game
from ..coords import parse_square
from ..editions import Edition
from ..errors import AssistantError, CommandLineWordsError, MissingStatError
from ..game import ChangedSinceError, RefusedError
from ..game.referee import plan_move
from ..game.store import REQUEST_ID, ReadOnlyGameError
from ..i18n import N_, _, n_
from ..resources import last_reading, reading
from ..rules.record import find_edition
from ..textsafe import shown
from ..yamlio import pydantic_words
from . import photojobs, qr, workers
from .push import Hub, Replies, Reply
from .reading_page import reading_html
from .table import CardTable, ReadOnlyError, Table, question_verb

HERE = Path(__file__).resolve().parent
COOKIE = "table"
#: uploads: the photo limits apply after this; a phone photo is 2-10 MB
MAX_UPLOAD = 40 * 1024 * 1024
#: paths any browser may fetch without the table's token (no game in them; a browser fetches
#: the manifest without cookies)
PUBLIC = ("/static/", "/manifest.webmanifest", "/favicon.ico")
#: the longest X-Request-Id taken (a UUID is 36 characters)
MAX_REQUEST_ID = 128
#: photos analysed at once, each in a worker process (:mod:`.workers`: never on the server's
#: interpreter, within its time budget): one, as each may take its whole work budget of CPU
#: (photo/budget.py) and a small server has two cores
PHOTO_WORKERS = 1
#: seconds a photo sent while another is being read waits for its turn before a 503 answer
PHOTO_WAIT = 3.0
#: the photo uploads: analysed in the worker process, answered afresh each time (no X-Request-Id memory)
PHOTO_PATHS = ("/api/photo", "/api/photo/reference")
#: photo moves applied in one request (a map of 40 x 40 holds fewer figures)
MAX_MOVES = 500
#: a JSON request's largest body: the largest of ours is a few KB (300 photo moves are 12 KB)
MAX_JSON = 1024 * 1024
#: JSON nested deeper than this is no request of ours (refused before any handler walks it)
MAX_DEPTH = 32
#: the largest whole number a request may carry (SQLite's integers are 64-bit)
MAX_INT = 2**63 - 1
#: POSTs doing blocking work (records, verbs, photo moves applied) at once, each on a worker
#: thread; one more waits HEAVY_WAIT seconds for a turn, then is told to send it again (503)
HEAVY_SLOTS = 4
HEAVY_WAIT = 5.0
#: the phones' event streams open at once (one a phone): more are told to come back (503)
MAX_STREAMS = 64
#: connections open at once; one more is closed as it arrives, so that idle connections cannot
#: use up the process's open files (also at most half of its limit, see :func:`max_connections`)
MAX_CONNECTIONS = 256
#: seconds a new connection may stay silent before its first request (then it is closed)
IDLE_CONNECTION = 10.0
#: seconds a request's head (its line and headers) may take from its first byte to its last (R158):
#: a head sent a byte at a time held its connection for ever (each byte stopped uvicorn's timers)
HEAD_WAIT = 10.0
#: seconds a request's whole body may take to arrive (R155): a JSON body of a few KB, and a photo
#: of up to MAX_UPLOAD over a phone's Wi-Fi; past it the answer is 408 and the connection closed
#: (a body stalled after its first bytes held its connection, and its POST's work slot, for ever)
BODY_WAIT = 15.0
PHOTO_BODY_WAIT = 120.0
#: the header every POST carries the table's write token in (the page has it from its HTML)
WRITE_HEADER = "x-write-token"
#: the names this computer answers to on its own (the default mode serves only these)
LOOPBACK = ("127.0.0.1", "localhost", "[::1]")


def _rule_texts() -> dict[str, str]:
    """The rule citations the catalogs translate (the geometry's), in the reader's words, for the
    page's script: an answer's JSON cites as printed, the page shows it as the terminal does (R275)."""


    out = {}
    for edition in Edition:
        geometry = find_edition(edition.value).geometry
        for f in fields(geometry):
            text = getattr(geometry, f.name)
            if f.name.endswith("_rule") and isinstance(text, str) and text and _(text) != text:
                out[text] = _(text)
    return out


#: the texts the pages' scripts show, sent to them in the reader's language
SCRIPT_TEXTS = (
    N_("{label} (on the table's computer only)"), N_("{label} (a spectator's link only reads)"),
    N_("{label} (a position, not a game: nothing is recorded)"),
    N_("Refused:"), N_("round {round}, phase {phase}"), N_("no round yet"), N_("{figure} is acting"), N_("next: {side}"),
    N_("may still act — {left}"), N_("undone"), N_("override"), N_("legal"), N_("not legal"), N_("targets"), N_("target"),
    N_("roll"), N_("chance / why"), N_("witness line"), N_("Line of sight:"), N_("yes"), N_("no"), N_("no line of sight"),
    N_("cover"), N_("no cover"), N_("Cover:"), N_("Attack:"), N_("needs {needs}+ ({chance}%), damage {damage}"), N_("attack"),
    N_("defense"), N_("damage"), N_("Not modelled (check by hand):"), N_("Tap the square to move to."), N_("Tap a target first."),
    N_("Undo the last event? It stays in the log, marked undone."), N_("reading the photo…"), N_("photo read in {seconds}s"),
    N_("attack {n}"), N_("agree"), N_("moved"), N_("uncertain"), N_("missing"), N_("extra"), N_("{square} holds a figure"), N_("figure"), N_("game"),
    N_("photo"), N_("Confirm:"), N_("Apply the moved figures"),
    N_("#{seq} recorded"), N_("not legal, recorded by the judge's override"),
    N_("Undo the last play? It stays in the log, marked undone."), N_("#{seq} undid event {undid}"),
    N_("{figure}'s {what}"), N_("keep for {card}"), N_("A number is missing:"), N_("Ask again"), N_("give a whole number"),
    N_("Initiative: {side}'s d20 as rolled (leave empty to let the assistant roll for everyone)"), N_("Defense {n}"), N_("Attack {n}"),
    N_("light"), N_("dark"), N_("The game changed: this answer is from before."), N_("reconnecting…"),
    # the phone's board and answer sheet (issue 27)
    N_("helpers:"), N_("{figure} is yours: its slot button frees it"), N_("Tap your figure."), N_("Why (reasons and rules)"),
    N_("Move {figure} to {square}?"), N_("path {path}, cost {cost}"), N_("leaves the reach of: {names}"), N_("Confirm the move"),
    N_("Cancel"), N_("Tap another square to change it, or confirm."), N_("{verb}: this command works on this computer's files; run it there"),
    N_("Record"), N_("Ask"), N_("questions"), N_("Tap the helpers (combined fire); tap again to drop one."),
    N_("Initiative: each side's d20 as rolled"), N_("Let the assistant roll"), N_("{figure} left the table"),
    N_("no route there: the move would be refused"), N_("cards"),
    # an attack line's condition (the answer's JSON says it in English)
    N_("{side} wins"), N_("the game was ended ({reason})"), N_("first attack"), N_("single attack"), N_("next attack of the line"),
    N_("(did not move)"), N_("Rend +{n} if the first hit too"), N_("Twin Attack: same target, only if it is still standing"),
    # the empty map's reference photo (issue 28)
    N_("reading the empty map…"), N_("This is the empty map: keep it as the reference? Later photos are compared with it."),
    N_("Reference: the empty map, taken {taken}"), N_("No reference yet: photos are read by the learned classifier, less sure on printed-art maps."),
    N_("reference kept: the empty {cols} x {rows} map"), N_("Compared with the empty-map reference (taken {taken})"),
    N_("No reference photo: the learned classifier answered"), N_("The game changed after this photo was read: send the photo again."),
    # the card games' page
    N_("Type the play first, in the game's notation."),
    N_("A judge may record it anyway: write the reason under \u201cOverride reason\u201d, then tap \u201cRecord\u201d."),
    N_("not this turn"),
    N_("kept for the card: record it again"),
    # a card looked up from the phone (R224)
    N_("card name"), N_("Card"),
)


#: how a judge records a refused command on a miniatures table's page (its override field), said after
#: a refusal's reasons (the command line's refusal names its --override instead, R173)
JUDGE_HINT = N_("A judge may record it anyway: write the reason under \u201cOverride reason\u201d, then send it again.")

#: each verb as a person says it, for the page's buttons and forms (the verbs' own names, the
#: command line's words, stay the API's); shown in the reader's language
VERB_LABELS = {
    "attack": N_("attack: what to roll"), "cover": N_("cover"), "los": N_("line of sight"), "matrix": N_("who sees whom"),
    "nearest": N_("nearest enemies"), "range": N_("range"), "targets": N_("targets"),
    "cards show": N_("look up a card"),
    "cards commander": N_("enter a commander effect"), "cards import": N_("import cards"), "cards set": N_("keep a card's numbers"),
    "game activate": N_("activate"), "game aoo": N_("attack of opportunity"), "game attack": N_("record an attack"),
    "game charge": N_("charge"), "game condition": N_("condition"), "game damage": N_("damage"), "game disembark": N_("disembark"),
    "game door": N_("door"), "game embark": N_("embark"), "game end": N_("end the game"), "game end-turn": N_("end turn"),
    "game export": N_("export the game"), "game flee": N_("flee"), "game force": N_("Force points"), "game heal": N_("heal"),
    "game initiative": N_("initiative"), "game log": N_("the log"), "game morale": N_("morale save"), "game move": N_("move"),
    "game note": N_("note"), "game power": N_("Force power"), "game place": N_("place a figure"),
    "game remove": N_("remove a figure"), "game replay": N_("replay"),
    "game status": N_("game status"), "game undo": N_("undo"), "game verify": N_("check the log"),
    "destiny verify": N_("check the log"), "swtcg verify": N_("check the log"),
    "destiny check": N_("check a play"), "destiny do": N_("play"), "destiny export": N_("export the game"), "destiny log": N_("the log"),
    "destiny new": N_("new game"), "destiny note": N_("note"), "destiny status": N_("the table now"), "destiny undo": N_("undo"),
    "swtcg check": N_("check a play"), "swtcg do": N_("play"), "swtcg export": N_("export the game"), "swtcg log": N_("the log"),
    "swtcg new": N_("new game"), "swtcg note": N_("note"), "swtcg status": N_("the table now"), "swtcg undo": N_("undo"),
}
#: each argument of a verb as a form's label says it (the JSON names stay the API's)
PARAM_LABELS = {
    "a": N_("from figure"), "ability": N_("healer's special action"),
    "anticipation": N_("Anticipation: figure=reroll"), "action": N_("add or remove"), "affects": N_("whom it reaches"), "amount": N_("amount"),
    "attack": N_("attack"), "attacker": N_("attacker"), "auto": N_("let the assistant roll"), "b": N_("to figure"),
    "burrow": N_("burrow"), "by": N_("by whom"), "charge": N_("charging"), "combined_fire": N_("combined fire (helpers)"),
    "command": N_("play"), "condition": N_("condition"), "damage": N_("damage"), "defense": N_("defense"),
    "delta": N_("Force points (+ gained, - spent)"), "edge": N_("door edge"), "faster": N_("Move Faster (2 more squares)"), "figure": N_("figure"),
    "first": N_("goes first"), "head": N_("chain head exported earlier"),
    "format": N_("format"), "get": N_("what to read"), "in_set": N_("set"), "melee": N_("melee"), "moved": N_("moved this turn"),
    "name": N_("name"), "name_contains": N_("name contains"), "on": N_("about event number"),
    "opportunity": N_("attack of opportunity"), "override": N_("override"),
    "power": N_("Force power"), "range": N_("range"), "ranged": N_("ranged"), "reason": N_("reason"), "requires": N_("requires"),
    "reroll": N_("d20 of a Force reroll"),
    "roll": N_("d20 as rolled"), "save": N_("save as rolled"), "saves": N_("saves as rolled"), "seq": N_("event number"),
    "skiff": N_("skiff"), "source": N_("source"), "spend_force": N_("Force power paid before the roll"),
    "spec": N_("the figure, as a position file writes it"), "speed": N_("speed"), "stat": N_("numbers given (name.stat=N)"),
    "surprise": N_("Surprise Move (6 squares, 1 Force point)"),
    "state": N_("open or closed"), "target": N_("target"), "text": N_("text"), "to": N_("to square"), "tow": N_("tow"),
    "values": N_("numbers (stat=N)"), "viewer": N_("viewer"),
}


def create_app(table: Table | CardTable, token: str | None = None, spectator: str | None = None,
               language: str | None = None, invite: str | None = None, hosts: Collection[str] | None = None,
               write_token: str | None = None) -> FastAPI:
    """The app for one table: a miniatures game or position (board, targets, turns, photos), or
    a card game (the table now, plays in the game's notation, checked first). Pages and answers
    are in ``language`` when the table chose one (``serve --lang``), else in each reader's
    browser language (``Accept-Language``), else English. ``invite`` is the players' joining
    link: the players' pages show it with its QR code (open on the host's own computer).
    ``hosts``: the ``Host`` values the table answers to (``serve`` gives :func:`table_hosts`);
    by default the loopback names at any port. ``write_token``: the token every POST carries
    (random when not given; ``app.state.write_token``)."""
    # the API page is ours (/docs below): FastAPI's loads Swagger UI from a CDN
    # no redirect for a trailing slash: starlette answered /api/status/ with a 307 and an empty body,
    # not the {"error": ...} every other refusal has; the page itself never asks with one
    app = FastAPI(title="tabletop-assistant live table", version="1", docs_url=None, redoc_url=None, swagger_ui_oauth2_redirect_url=None,
                  redirect_slashes=False,
                  description="The table's questions and its game log over HTTP (the same JSON answers as the command line).")
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    templates.env.globals["_"] = i18n._
    hub = Hub(table.version, () if table.game is None else (table.game, table.game.with_name(table.game.name + "-wal")))
    replies = Replies()
    writes = write_token or secrets.token_urlsafe(24)
    allowed = None if hosts is None else frozenset(h.lower() for h in hosts)
    app.state.hub, app.state.replies, app.state.write_token = hub, replies, writes
    photo_slots = asyncio.Semaphore(PHOTO_WORKERS)
    # the photo worker process: started by the first photo, stopped with the server
    photos = workers.Pool(PHOTO_WORKERS)
    app.state.photos = photos
    app.router.on_shutdown.append(photos.close)
    heavy_slots = asyncio.Semaphore(HEAVY_SLOTS)

    def page_context(request: Request) -> dict[str, Any]:
        shown = invite if invite is not None and request.state.role == "player" else None
        return {"lang": i18n.current(), "ui": json.dumps({**{t: i18n._(t) for t in SCRIPT_TEXTS}, **i18n.reading_texts(), **_rule_texts()}, ensure_ascii=False),
                "version": hub.version, "invite": shown, "invite_open": shown is not None and _local(request),
                "invite_svg": qr.svg(shown, i18n._("QR code of the link to join this table")) if shown else "",
                # only a player's page carries the write token (a spectator's writes are refused anyway)
                "write_token": writes if request.state.role == "player" else None}
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    def role(request: Request) -> str | None:
        """'player', 'spectator', or None (refused)."""
        if token is None:
            return "player"
        given = request.query_params.get("t") or request.cookies.get(COOKIE) or request.headers.get("x-table-token") or ""
        if hmac.compare_digest(given.encode(), token.encode()):
            return "player"
        if spectator is not None and hmac.compare_digest(given.encode(), spectator.encode()):
            return "spectator"
        return None

    def stranger(request: Request) -> tuple[str, dict[str, str]] | None:
        """What makes this request one a page on another site (or a DNS-rebound name) may have
        sent, in words, with the refusal's extra keys; None when it is the table's own."""
        host = (request.headers.get("host") or "").strip().lower()
        if not _host_allowed(host, allowed):
            return _("the request names the host {host!r}, not this table's address: open the table by the link it printed").format(
                host=host[:80]), {}
        origin = request.headers.get("origin")
        if origin is not None and origin.strip().lower() != f"http://{host}":
            return _("the request comes from the page {origin!r}, not one of this table's: another site may not use the table").format(
                origin=origin[:80]), {}
        if request.method not in ("GET", "HEAD"):
            kind, wanted = _content_kind(request)
            if kind != wanted:
                return None  # answered 415 by the guard (not a 403)
            given = request.headers.get(WRITE_HEADER) or ""
            if not hmac.compare_digest(given.encode(errors="replace"), writes.encode()):
                # "write_token": the page's token is not this server's (a tab left open while the table was
                # restarted: a new token each start); the table's own page takes the new one from its HTML,
                # which another site cannot read, and sends the write again once (reading R215)
                return _("the request carries no valid {header}: the table's pages send it; reload the page").format(
                    header="X-Write-Token"), {"write_token": "invalid"}
        return None

    @app.middleware("http")
    async def guard(request: Request, call_next: Any) -> Any:
        lang = language or i18n.from_accept_language(request.headers.get("accept-language"))
        with i18n.language(lang):
            strange = stranger(request)
            if strange is not None:
                return JSONResponse({"error": strange[0], "refused": "cross-site", **strange[1]}, status_code=403)
        if request.url.path.startswith(PUBLIC):
            with i18n.language(lang):
                return await call_next(request)
        who = role(request)
        if who is None:
            with i18n.language(lang):
                if request.url.path.startswith("/api/"):
                    return JSONResponse({"error": _("this table needs its link: scan the QR code the server printed")}, status_code=403)
                return templates.TemplateResponse(request, "forbidden.html", {"lang": lang}, status_code=403)
        if who == "spectator" and request.method not in ("GET", "HEAD"):
            with i18n.language(lang):
                return JSONResponse({"error": _("a spectator's link is read-only")}, status_code=403)
        if request.method not in ("GET", "HEAD", "POST"):
            # no address takes another method: said as the framework's 405 says it, not as a body of
            # the wrong kind (DELETE /api/status was answered 415 "sent as application/json, not ''")
            with i18n.language(lang):
                return _method_refused(app, request)
        if request.method not in ("GET", "HEAD"):
            kind, wanted = _content_kind(request)
            if kind != wanted:
                with i18n.language(lang):
                    return JSONResponse({"error": _("this request is sent as {wanted}, not {kind!r}").format(wanted=wanted, kind=kind[:80])},
                                        status_code=415)
            unreadable = _unreadable_encoding(request)
            if unreadable is not None:
                with i18n.language(lang):
                    return JSONResponse({"error": unreadable}, status_code=415)
            size = request.headers.get("content-length")
            if size is not None and "transfer-encoding" in request.headers:
                # both: the body's end is said twice, and a proxy in front may read it the other way
                # (request smuggling, RFC 9112 6.3: "ought to be handled as an error"; reading R302)
                with i18n.language(lang):
                    return JSONResponse({"error": _("the request gives both Content-Length and Transfer-Encoding: send one of them")},
                                        status_code=400, headers={"connection": "close"})
            if size is not None and not (size.isascii() and size.isdigit()):
                # "-1", "1e3", "abc": a malformed request, not a large one (it was answered 413, R172)
                with i18n.language(lang):
                    return JSONResponse({"error": _malformed_length(size)}, status_code=400)
            if size is not None and int(size) > _body_limit(request.url.path):
                with i18n.language(lang):
                    return JSONResponse({"error": _too_large(_body_limit(request.url.path))}, status_code=413)
        request.state.role = who
        with i18n.language(lang):  # its words made in the reader's language ("/api/los takes no parameter 'zz'" stayed English)
            unknown = _unknown_parameters(app, request)
            if unknown is not None:
                return JSONResponse({"error": unknown}, status_code=400)
        if request.method == "POST" and request.url.path not in PHOTO_PATHS:
            # the whole body first (within BODY_WAIT: BodyLimit), then a work slot: four bodies
            # stalled after their first bytes held all HEAVY_SLOTS and every phone's record was
            # answered 503 until they closed (R155); the endpoint reads it again from the cache
            try:
                with i18n.language(lang):  # a refusal of its size or its time in the reader's language
                    await request.body()
            except ClientDisconnect:  # gone, or past its limit or its time: BodyLimit answered 413 / 408
                return Response(status_code=499)

        async def answer() -> Any:
            try:
                with i18n.language(lang):  # every text of this request in the reader's language
                    return await call_next(request)
            except ClientDisconnect:  # gone (or cut at the body limit: BodyLimit answered 413) before its body was read
                return Response(status_code=499)
            except Exception:
                logging.getLogger("assistant.live").exception("internal error on %s %s", request.method, request.url.path)
                with i18n.language(lang):
                    return JSONResponse({"error": _("internal error: the server could not answer; the game log is unchanged")},
                                        status_code=500)

        async def heavy() -> Any:
            """A POST's blocking work, HEAVY_SLOTS at once: one more waits a little, then 503
            (the event loop and the other phones' questions are never held up behind them)."""
            try:
                await asyncio.wait_for(heavy_slots.acquire(), HEAVY_WAIT)
            except TimeoutError:
                with i18n.language(lang):
                    return JSONResponse({"error": _("the table is busy with other requests: send this one again in a few seconds")},
                                        status_code=503, headers={"Retry-After": str(int(HEAVY_WAIT))})
            try:
                return await answer()
            finally:
                heavy_slots.release()

        rid = request.headers.get("x-request-id")
        # a photo upload records nothing (its "apply" does): its answer is not worth remembering; a
        # reference photo is kept whole or not at all and sending it again keeps it again (a
        # remembered "busy, send it again" would refuse the retry for ever)
        if request.method == "POST" and rid is not None and request.url.path not in PHOTO_PATHS:
            # visible ASCII only: a header's bytes are read as Latin-1, so a UTF-8 "é" was recorded
            # in the log as "Ã©" (reading R302); a UUID, the table's own pages' id, is ASCII
            if not rid.strip() or len(rid) > MAX_REQUEST_ID or not (rid.isascii() and rid.isprintable()):
                with i18n.language(lang):
                    return JSONResponse({"error": _("X-Request-Id is a text of 1 to {n} characters (a UUID)").format(n=MAX_REQUEST_ID)},
                                        status_code=400)

            async def first() -> Reply:
                # recorded before this server started (a kill -9 after the commit, before the answer)?
                find = getattr(table, "find_request", None)
                logged = f"{rid} {request.url.path}"  # the same id on another path is another request
                if find is not None:
                    with i18n.language(lang):
                        seen = await run_in_threadpool(find, logged)
                    if seen is not None:
                        return Reply(200, json.dumps(seen, ensure_ascii=False).encode(), "application/json", repeat=True)
                kept = REQUEST_ID.set(logged)  # each event this request records carries it (Game.do)
                try:
                    r = await heavy()
                finally:
                    REQUEST_ID.reset(kept)
                body = b"".join([chunk async for chunk in r.body_iterator]) if hasattr(r, "body_iterator") else bytes(r.body)
                return Reply(r.status_code, body, r.headers.get("content-type"))

            reply, repeat = await replies.once((request.url.path, rid), first)
            response: Any = Response(reply.body, status_code=reply.status, media_type=reply.media_type)
            if repeat or reply.repeat:
                response.headers["x-request-repeat"] = "1"  # answered before: nothing was recorded this time
        elif request.method == "POST" and request.url.path not in PHOTO_PATHS:
            response = await heavy()
        else:
            response = await answer()
        if request.method == "POST":
            hub.poke()  # a record, maybe: every open page hears of it now, not at the next look
        given = request.query_params.get("t")
        if token is not None and given:
            response.set_cookie(COOKIE, given, httponly=True, samesite="strict", max_age=7 * 24 * 3600)
        return response

    app.add_middleware(BodyLimit)  # the bytes are counted as they arrive
    app.add_middleware(HeadAsGet)  # outermost: a HEAD is every GET address's, without its body

    @app.exception_handler(AssistantError)
    async def user_error(request: Request, exc: AssistantError) -> Any:
        if isinstance(exc, RefusedError):
            reasons = [{"text": r.text, "rule": r.rule} for r in exc.reasons]
            # the page's way to override, not the command line's --override (R173)
            said = f"{_('Refused:')} {exc.why}. {_(JUDGE_HINT)}"
            return JSONResponse({"error": said, "refused": True, "reasons": reasons, "hint": _(JUDGE_HINT)}, status_code=409)
        if isinstance(exc, RefusedCommandError):  # a card game's play the rules refuse (the message gives the rule)
            # "reason": the rule's refusal alone; "error" ends with the command line's --override, which
            # the page says with its own field instead
            return JSONResponse({"error": str(exc), "refused": True, "reason": exc.reason}, status_code=409)
        status = 403 if isinstance(exc, (ReadOnlyError, ReadOnlyGameError)) else 400
        # a message in the command line's words (its flags, a command to type) said in the page's (R173)
        body: dict[str, Any] = {"error": exc.page if isinstance(exc, CommandLineWordsError) else str(exc)}
        if isinstance(exc, MissingStatError):  # which numbers the question lacks, and how to give them (the page asks for them)
            # "cli": the command line's words (--stat, cards set), which the page keeps in its form's title
            body.update(missing=[m.as_json() for m in exc.missing], in_game=exc.in_game, cli=str(exc))
        problems = getattr(exc, "problems", None)
        if problems:
            body["problems"] = [p.as_json() for p in problems]
        return JSONResponse(body, status_code=status)

    @app.exception_handler(HTTPException)
    async def framework_refusal(request: Request, exc: HTTPException) -> Any:
        # the framework's own refusals (no such address, a method the address does not take) in
        # the shape every other refusal has, {"error": ...}, said in the player's language: starlette
        # answered {"detail": "Not Found"} in English, which the page shows as 'error 404'
        if exc.status_code == 404:
            text = _("no such address on this table: {path}").format(path=request.url.path)
        elif exc.status_code == 405:
            return _method_refused(app, request)
        else:
            text = str(exc.detail)
        return JSONResponse({"error": text}, status_code=exc.status_code, headers=getattr(exc, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def malformed_request(request: Request, exc: RequestValidationError) -> Any:
        # which parameter is missing or mistyped, and where (the query, the path), as {"error": ...}:
        # FastAPI answered its own list of dicts, whose ``input`` may hold what the client sent
        said = []
        for problem in exc.errors():
            where = [str(part) for part in problem.get("loc", ())]
            name = ".".join(where[1:]) or ".".join(where)
            what = _("missing") if problem.get("type") == "missing" else pydantic_words(problem)  # in the reader's language
            said.append(_("{name} ({where}): {problem}").format(name=name, where=where[0] if where else "?", problem=what))
        return JSONResponse({"error": _("the request's parameters are not as this address takes them: {problems}").format(problems="; ".join(said))},
                            status_code=422)

    @app.get("/api/version")
    def version() -> Any:
        return {"version": table.version()}

    @app.get("/api/stream", response_class=StreamingResponse)
    async def stream(request: Request) -> Any:
        """Server-sent events: ``event: change`` with ``{"version": N}`` now and at each change
        of the game (a record, an undo, a photo applied; from any phone or the command line)."""
        if hub.streams >= MAX_STREAMS:  # each open stream holds a connection: a bound, said in the README
            return JSONResponse({"error": _("too many pages are open on this table ({n}): close one and reload").format(n=MAX_STREAMS)},
                                status_code=503, headers={"Retry-After": "5"})
        return StreamingResponse(hub.stream(request.is_disconnected), media_type="text/event-stream",
                                 headers={"cache-control": "no-store", "x-accel-buffering": "no"})

    @app.get("/manifest.webmanifest", include_in_schema=False)
    def manifest() -> Any:
        """So a phone can add the table to its home screen."""
        body = {"name": _("tabletop-assistant: the table"), "short_name": _("Table"), "start_url": "./", "scope": "./",
                "display": "standalone", "background_color": "#ffffff", "theme_color": "#1b3a5c", "lang": i18n.current(),
                "icons": [{"src": "static/favicon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
                          # the PNGs are the SVG drawn at the sizes phones ask for to install an app
                          {"src": "static/icon-192.png", "sizes": "192x192", "type": "image/png"},
                          {"src": "static/icon-512.png", "sizes": "512x512", "type": "image/png"}]}
        return JSONResponse(body, media_type="application/manifest+json")

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Any:
        return Response((HERE / "static" / "favicon.svg").read_bytes(), media_type="image/svg+xml")

    @app.get("/docs", response_class=HTMLResponse, include_in_schema=False)
    def docs(request: Request) -> Any:
        """The API, drawn here from the OpenAPI schema: works with no internet at the table."""
        return templates.TemplateResponse(request, "api.html", {"lang": i18n.current(), "api": _api(app.openapi())})

    @app.get("/invite", response_class=HTMLResponse, include_in_schema=False)
    def invite_page(request: Request) -> Any:
        """The joining link and its QR code, large (for the host's screen)."""
        ctx = page_context(request)
        return templates.TemplateResponse(request, "invite_page.html", {**ctx, "invite_open": True})

    @app.get("/reading/{ident}", response_class=HTMLResponse, include_in_schema=False)
    def reading_page(request: Request, ident: str) -> Any:
        """A reading an answer cites, whole: the rulebook's words, the reading chosen and why. The
        answers' citations on the table's pages link here, so that the judge at the table reads what
        a verdict stands on, not only its number (reading R351)."""
        text = reading(ident)
        if text is None:
            return JSONResponse({"error": _("no reading {ident!r}: readings are R1 to R{n}").format(ident=shown(ident[:40]), n=last_reading())},
                                status_code=404)
        heading, _sep, body = text.partition("\n")
        return templates.TemplateResponse(request, "reading.html", {"lang": i18n.current(), "heading": heading.removeprefix("## "),
                                                                     "body": reading_html(body)})

    @app.get("/api/status")
    def status() -> Any:
        if isinstance(table, CardTable):
            return table.status()
        # "reference": the empty map's reference photo the game keeps (null: none yet); "game": the
        # log's file name, not its path on the host's computer (its folders, the host's user name),
        # which the phones and a spectator's link have no use for; the command line's status keeps the path
        said = table.status()
        game = said.get("game")
        return {**said, "game": None if game is None else Path(game).name, "reference": table.reference()}

    @app.get("/api/events")
    def events(since: int | None = Query(None, ge=0)) -> Any:
        """The game log; with ``?since=N`` only the events after event N (a page catching up)."""
        listed = table.events()
        return {"query": "log", "events": listed if since is None else [e for e in listed if int(e["seq"]) > since]}

    @app.get("/api/verbs")
    def verbs() -> Any:
        """Every verb of this table's kind of game that this app answers at ``POST /api/do/{verb}``
        (``game move``: ``/api/do/game/move``). Another game's verbs (``destiny do`` at a miniatures
        table) are answered too, with a refusal naming the game, but not offered: a player's list
        holds what can be played here."""

        kind = table.kind if isinstance(table, CardTable) else "miniatures"
        reg = {name: v for name, v in load_all().items() if verb_game(name) == kind}
        # each verb's arguments, so that the page builds its form (the session's game and paths on
        # the server are not the request's to say); "local" verbs work on this computer's files only
        # "label": the verb and each argument as the reader says them (the names stay the API's)
        detail = {name: {"writes": v.writes, "local": v.local, "library": v.library, "label": _(VERB_LABELS[name]) if name in VERB_LABELS else name,
                         "params": [{"name": p.name, "kind": p.kind.__name__, "optional": p.optional,
                                     "label": _(PARAM_LABELS[p.name]) if p.name in PARAM_LABELS else p.name}
                                    for p in v.params if p.name not in SESSION_PARAMS and p.kind is not Path]}
                  for name, v in reg.items()}
        return {"query": "verbs", "game": kind, "verbs": sorted(reg), "detail": detail}

    @app.post("/api/do/{verb:path}")
    async def do_verb(verb: str, request: Request, lines: bool = False) -> Any:
        """Any verb of the command line, its arguments a JSON object (the same JSON answers and
        refusals). With ``?lines=true`` the answer also carries ``"text_lines"``: the text the
        command line prints, in the reader's language (what the page shows of a question)."""
        body = await _json(request)
        return await run_in_threadpool(lambda: table.run(verb.replace("/", " "), body, lines))

    @app.get("/api/ask/{verb:path}")
    def ask_verb(verb: str, args: str = Query("{}", max_length=MAX_ASK_ARGS), lines: bool = False) -> Any:
        """A question (a verb that records nothing: ``cards show``, ``los``) asked by GET, its
        arguments a JSON object in ``args``: the answer ``POST /api/do/{verb}`` gives. A
        spectator's link asks this way -- it may ask, never write (reading R232); a verb that
        records or keeps a number is refused here (403), whoever asks."""
        name = verb.replace("/", " ")
        question_verb(name, table.kind if isinstance(table, CardTable) else "miniatures")
        return table.run(name, parse_body(args.encode("utf-8", "surrogatepass")), lines)

    @app.get("/api/export")
    def export(format: str = "md") -> Any:
        text = table.export(format)
        kind = "application/json" if format == "json" else "text/markdown"
        return Response(text, media_type=kind, headers={"content-disposition": f'attachment; filename="game.{format}"'})

    if isinstance(table, CardTable):
        cards = table

        @app.get("/", response_class=HTMLResponse, include_in_schema=False)
        def card_index(request: Request) -> Any:
            return templates.TemplateResponse(request, "cards.html", {"status": cards.status(), "kind": cards.kind, "title": cards.title,
                                                                      "example": Markup("<code>{}</code>").format(cards.play_example),
                                                                      "spectator": request.state.role == "spectator", **page_context(request)})

        @app.post("/api/check")
        async def check(request: Request) -> Any:
            body = _only(await _json(request), "/api/check", ("command",))
            return await run_in_threadpool(cards.check, _command(body))

        @app.post("/api/do")
        async def do(request: Request) -> Any:
            body = _only(await _json(request), "/api/do", ("command", "override"))
            return await run_in_threadpool(cards.do, _command(body), _override(body))

        @app.post("/api/undo")
        async def undo(request: Request) -> Any:
            body = _only(await _json(request), "/api/undo", ("seq",))
            seq = body.get("seq")
            if seq is not None and (isinstance(seq, bool) or not isinstance(seq, int)):
                raise AssistantError(_("'seq' is an event number"))
            return await run_in_threadpool(cards.undo, seq)

        return app

    minis = table  # a miniatures game or a bare position

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def index(request: Request) -> Any:
        snap = minis.snapshot()
        return templates.TemplateResponse(request, "index.html", {
            "status": minis.status(), "svg": minis.board_svg(), "rules": snap.position.edition.value,
            "figures": [f.id for f in snap.position.figures], "game": minis.game is not None, "reference": minis.reference(),
            "spectator": request.state.role == "spectator", **page_context(request),
        })

    @app.get("/api/board.svg")
    def board(selected: str | None = None, target: str | None = None, to: str | None = None) -> Any:
        return Response(minis.board_svg(selected or None, target or None, to or None), media_type="image/svg+xml")

    @app.get("/api/move")
    def move_preview(figure: str, to: str) -> Any:
        """The path and cost a move would take, before it is recorded (the page shows it and asks to confirm)."""

        snap = minis.snapshot()
        if snap.state is None:
            raise ReadOnlyError(_("this table serves a position file, not a game: start a game ('game new') to record turns"))
        dest = parse_square(to)
        plan = plan_move(snap.state, figure, dest)
        if plan.route.cost is None:  # off the map, a wall, no route: the refusal the record would give, before it is tried
            raise AssistantError(plan.route.text)
        data, notes = plan.data(figure, dest), plan.notes  # the move's event as move_event makes it, from the one route found
        return {"query": "move", "figure": figure, "to": data["to"], "path": data.get("path", []), "cost": data.get("cost", 0),
                "provokes": data.get("provokes", []), "notes": list(notes)}

    @app.get("/api/los")
    def los(viewer: str, target: str) -> Any:
        return minis.los(viewer, target)

    @app.get("/api/cover")
    def cover(attacker: str, target: str) -> Any:
        return minis.cover(attacker, target)

    @app.get("/api/range")
    def range_(a: str, b: str) -> Any:
        return minis.range(a, b)

    @app.get("/api/attack")
    def attack(attacker: str, target: str) -> Any:
        return minis.attack(attacker, target)

    @app.get("/api/targets")
    def targets(figure: str) -> Any:
        snap = minis.snapshot()
        return {"query": "targets", "rules": snap.position.edition.value, "attacker": figure, "targets": minis.targets(figure)}

    @app.get("/api/matrix")
    def matrix() -> Any:
        return minis.matrix()

    @app.post("/api/act")
    async def act(request: Request) -> Any:
        body = await _json(request)
        verb = body.get("verb")
        if not isinstance(verb, str):
            raise AssistantError(_("say which command: {\"verb\": \"move\", \"args\": {...}}"))
        args = body.get("args") or {}
        if not isinstance(args, dict):
            raise AssistantError(_("'args' must be an object"))
        return await run_in_threadpool(minis.act, verb, args, _override(body))

    async def photo_work(request: Request, query: str, job: Callable[..., Any]) -> Any:
        """``job(position, game, data, name, language)`` in the photo worker process
        (:mod:`.workers`), within its time budget: one photo at a time (a game photo or the empty
        map's reference), the next waits a little, then is told to send it again (503). A photo
        over the budget is 422 (its worker killed and replaced), a worker that died is 503, an
        image that breaks the analysis is 422: a JSON answer each time, never a 500."""
        try:
            form = await request.form()
        except HTTPException:  # a form that is no multipart (no boundary, cut, a part's header too long): starlette's
            # {"detail": ...} in English, which the page shows as 'error 400'; said as every other refusal is
            if "boundary=" not in (request.headers.get("content-type") or "").lower():
                raise AssistantError(_("send the photo as the form field 'photo'")) from None
            # a form with its boundary that the parser gave up on: "send it as the field 'photo'" sent the
            # sender of a photo in that very field looking for the wrong fault (round 31: a file name of 5,000 characters)
            raise AssistantError(_("the photo's form cannot be read: it is cut short or malformed, a part's header (the photo's "
                                   "file name) is over 4 KB, or a field besides the photo is over 1 MiB; send the photo alone "
                                   "as the form field 'photo', with a shorter file name")) from None
        sent = form.getlist("photo")
        if len(sent) > 1:  # the last one was read and the others dropped unsaid (R156)
            raise AssistantError(_("send one photo at a time: the form field 'photo' came {n} times").format(n=len(sent)))
        upload = sent[0] if sent else None
        if upload is None or not hasattr(upload, "read"):
            raise AssistantError(_("send the photo as the form field 'photo'"))
        data = await upload.read()
        # only the file's own name (a browser may send a path); it is shown and kept with a reference, so a
        # bidi override or a control in it is written as its escape (a name "\u202egpj.exe" turned the
        # page's message around it)
        name = shown((Path(str(getattr(upload, "filename", "") or "photo").replace("\\", "/")).name or "photo")[:120])
        try:
            await asyncio.wait_for(photo_slots.acquire(), PHOTO_WAIT)
        except TimeoutError:
            return JSONResponse({"query": query, "error": _("another photo is being read: send this one again in a few seconds")},
                                status_code=503, headers={"Retry-After": str(int(PHOTO_WAIT))})
        loop = asyncio.get_running_loop()

        def work() -> Any:
            try:
                snap = minis.snapshot()  # folded here (cached): the worker gets the position as data
                answer = photos.run(job, (snap.position, None if minis.game is None else str(minis.game), data, name, i18n.current()))
                # the log's version the photo was compared with: its moves are applied only on that log (R183)
                return {**answer, "version": snap.version} if isinstance(answer, dict) and query == "photo" else answer
            finally:  # released when the analysis ends, even if the request was abandoned
                loop.call_soon_threadsafe(photo_slots.release)
        try:
            answer = await run_in_threadpool(work)
        except workers.Refused as exc:  # a clear refusal (not an image, too large, ...): 400 as before
            raise AssistantError(str(exc)) from None
        except workers.Broken as exc:  # an image that breaks the analysis
            logging.getLogger("assistant.live").error("photo analysis failed: %s", exc)
            return JSONResponse({"query": query, "grid_found": False,
                                 "error": _("the photo could not be analysed ({why}); the game log is unchanged").format(why=exc)},
                                status_code=422)
        except workers.Overrun as exc:
            return JSONResponse({"query": query, "grid_found": False, "too_long": True,
                                 "error": _("the photo took too long to read (over {seconds:g} s) and was given up; "
                                            "the game log is unchanged: send a smaller or clearer photo").format(seconds=exc.budget)},
                                status_code=422)
        except workers.Crashed as exc:
            logging.getLogger("assistant.live").error("photo worker died: %s", exc)
            return JSONResponse({"query": query, "error": _("the photo reader stopped before it answered; the game log is unchanged: "
                                                            "send the photo again")},
                                status_code=503, headers={"Retry-After": "1"})
        if isinstance(answer, tuple):  # (status, answer): a photo with no grid is 422, a reference's too (R311)
            return JSONResponse(answer[1], status_code=answer[0])
        return answer

    @app.post("/api/photo")
    async def photo(request: Request) -> Any:
        """A photo of the table: where the photo shows each figure, against the game's record
        (compared with the empty map's reference when the game has one: ``"mode"`` says)."""
        return await photo_work(request, "photo", photojobs.read_photo)

    @app.post("/api/photo/reference")
    async def photo_reference(request: Request) -> Any:
        """A photo of the EMPTY map (no figures on it), kept next to the game's file as the
        reference later photos are compared with, square by square (``photo reference`` on the
        command line). It replaces the one before; the game log is unchanged."""
        if minis.game is None:
            raise ReadOnlyError(_("this table serves a position file, not a game: a reference photo is kept with a game ('game new')"))
        return await photo_work(request, "photo reference", photojobs.keep_reference)

    @app.post("/api/photo/apply")
    async def photo_apply(request: Request) -> Any:
        body = await _json(request)
        moves = body.get("moves")
        if not isinstance(moves, list) or not all(isinstance(m, dict) for m in moves):
            raise AssistantError(_("'moves' is a list of {figure, at}"))
        if len(moves) > MAX_MOVES:  # the bound said in the README: more is no photo of one map
            raise AssistantError(_("at most {n} moves at once").format(n=MAX_MOVES))
        for m in moves:
            fig, at = m.get("figure"), m.get("at")
            if not isinstance(fig, str) or not isinstance(at, str):
                raise AssistantError(_("each move needs 'figure' and 'at'"))
        source = body.get("source")
        if source is not None and (not isinstance(source, str) or len(source) > 200):
            raise AssistantError(_("'source' is a text of up to 200 characters"))
        # the log's version the photo was compared with (its answer's "version"): a photo read before an
        # undo or another phone's record is not applied to the log as it is now (reading R183)
        since = body.get("version")
        if since is not None and (not isinstance(since, int) or isinstance(since, bool) or not 0 <= since <= MAX_INT):
            raise AssistantError(_("'version' is the photo answer's version: the game's event number it was compared with"))
        # every move's value checked before any is recorded; then all of them or none (Table.record_all)
        events = [{"figure": m["figure"], "at": m["at"], "source": source or "photo (web)", "confidence": _confidence(m.get("confidence"))}
                  for m in moves]
        try:
            applied = await run_in_threadpool(minis.record_all, "relocate", events, since)
        except ChangedSinceError as exc:
            return JSONResponse({"error": str(exc), "changed": True, "version": exc.now}, status_code=409)
        # the phone shows "said" as given: the count's plural is the reader's language's (n_), not "figure(s)"
        return {"applied": applied, "said": n_("{n} figure moved; Undo takes a correction back",
                                               "{n} figures moved; Undo takes a correction back", len(applied)).format(n=len(applied))}

    return app


def table_hosts(port: int, lan: str | None = None) -> list[str]:
    """The ``Host`` values the table answers to: the loopback names at ``port``, and with
    ``lan`` (``serve --lan``) the table's address and this computer's own names. A name a DNS
    server points at this computer (rebinding) is none of them.

    >>> table_hosts(8765)
    ['127.0.0.1:8765', 'localhost:8765', '[::1]:8765']
    """
    names = list(LOOPBACK)
    if lan is not None:
        names.append(lan)
        with contextlib.suppress(OSError):
            own = socket.gethostname().lower()
            names += [own, own + ".local"] if own and not own.endswith(".local") else [own]
    names = [n for n in dict.fromkeys(names) if n]
    return [f"{n}:{port}" for n in names] + (names if port == 80 else [])  # a browser leaves out port 80


def _host_allowed(host: str, allowed: frozenset[str] | None) -> bool:
    """``host`` (the request's ``Host``) is one of ``allowed``; by default (no list given: a
    test's app) a loopback name at any port."""
    if allowed is not None:
        return host in allowed
    name, _sep, port = host.rpartition(":") if not host.endswith("]") else (host, "", "")
    return (name if _sep else host) in LOOPBACK and (not _sep or port.isdigit())


def max_connections() -> int:
    """Connections served at once: :data:`MAX_CONNECTIONS`, or half the open-file limit when that
    is lower (the game's files, the photo's temporary file and Python's own need the rest)."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return MAX_CONNECTIONS if soft == resource.RLIM_INFINITY else max(16, min(MAX_CONNECTIONS, soft // 2))


def check_port(host: str, port: int) -> None:
    """Refuse, before the table is announced, a port this computer cannot listen on: uvicorn's own
    "[Errno 98] error while attempting to bind" came after "The table is open", with exit 3 (a
    second ``serve``, or another program on the port). The socket is closed at once; uvicorn binds
    it again with the same option (SO_REUSEADDR), so a port left in TIME_WAIT is not refused."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise AssistantError(_("port {port} is taken on this computer (another table, or another program, listens there): "
                                       "stop it, or choose another port with --port").format(port=port)) from None
            if exc.errno == errno.EACCES:
                raise AssistantError(_("port {port} needs the administrator's rights on this computer (ports below 1024): "
                                       "choose another with --port, such as --port 8765").format(port=port)) from None
            raise AssistantError(_("cannot listen on {host} port {port}: {why}").format(host=host, port=port, why=exc.strerror or exc)) from None


def serve_forever(app: FastAPI, host: str, port: int) -> None:
    """Run the app with uvicorn until Ctrl-C or SIGTERM, which also end the phones' event
    streams at once (else the server would wait on them and then cancel them noisily).

    At most :func:`max_connections` connections are open at once: one more is closed as it
    arrives, and a connection silent for :data:`IDLE_CONNECTION` seconds before its first
    request is closed (uvicorn only times out a connection between two requests)."""
    import h11  # start-up time: the server's protocol only when it is served
    import uvicorn  # start-up time: the server only when serving
    from uvicorn.protocols.http.h11_impl import H11Protocol  # start-up time: the server's protocol only when it is served

    hub: Hub = app.state.hub
    cap = max_connections()

    class _Guarded(H11Protocol):
        head_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            if len(self.connections) > cap:
                self.connections.discard(self)
                transport.close()
                return
            self.timeout_keep_alive_task = self.loop.call_later(IDLE_CONNECTION, self.timeout_keep_alive_handler)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            # a head begun and not yet whole: it has HEAD_WAIT seconds from its first byte (R158)
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                if self.head_timer is None:
                    self.head_timer = self.loop.call_later(HEAD_WAIT, self.head_late)
            elif self.head_timer is not None:
                self.head_timer.cancel()
                self.head_timer = None

        def head_late(self) -> None:
            self.head_timer = None
            if self.conn.their_state is h11.IDLE:  # still no whole request: closed, as a silent one is
                self.timeout_keep_alive_handler()

        def send_400_response(self, msg: str) -> None:
            # a request h11 cannot parse (a Content-Length of -1, a header with no colon) was answered
            # in uvicorn's plain text; said as every other refusal is, {"error": ...} (R172)
            body = json.dumps({"error": _("the request is not well-formed HTTP (its request line or a header): it was not read")}).encode()
            event = h11.Response(status_code=400, reason=b"Bad Request",
                                 headers=[(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                          (b"connection", b"close")])
            with contextlib.suppress(h11.LocalProtocolError):  # a response begun already: nothing more to say
                self.transport.write(self.conn.send(event))
                self.transport.write(self.conn.send(h11.Data(data=body)))
                self.transport.write(self.conn.send(h11.EndOfMessage()))
            self.transport.close()

        def connection_lost(self, exc: Exception | None) -> None:
            if self.head_timer is not None:
                self.head_timer.cancel()
                self.head_timer = None
            super().connection_lost(exc)

    class _Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            hub.close()
            super().handle_exit(sig, frame)

    _Server(uvicorn.Config(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=2, http=_Guarded,
                           limit_concurrency=cap)).run()


class HeadAsGet:
    """ASGI middleware: a HEAD request is answered as its GET is, headers only (RFC 9110 9.3.2:
    every address that takes GET takes HEAD). FastAPI routes GET alone, so a link checker's or a
    phone's HEAD of the table's page was answered 405 while the page's own ``allow`` header said
    HEAD. The body is dropped here; once the headers are sent the app hears the client has gone,
    so a stream (``/api/stream``) ends instead of running for nobody."""

    def __init__(self, app: Callable[..., Awaitable[None]]):
        self.app = app

    async def __call__(self, scope: MutableMapping[str, Any], receive: Callable[[], Awaitable[Any]],
                       send: Callable[[Any], Awaitable[None]]) -> None:
        if scope["type"] != "http" or scope.get("method") != "HEAD":
            await self.app(scope, receive, send)
            return
        done = False

        async def until_done() -> Any:
            if done:
                return {"type": "http.disconnect"}
            return await receive()

        async def headers_only(message: Any) -> None:
            nonlocal done
            if done:
                return
            if message["type"] == "http.response.body":
                done = True
                await send({"type": "http.response.body", "body": b"", "more_body": False})
                return
            await send(message)

        # a copy: the server keeps its own scope, whose method stays HEAD (it sends no body either)
        await self.app({**scope, "method": "GET"}, until_done, headers_only)


class BodyLimit:
    """ASGI middleware: each request's body counted as it arrives; the moment it passes its
    path's limit the 413 answer is sent and the app is told the client has gone (it records
    nothing) -- a chunked upload without Content-Length is never read whole."""

    def __init__(self, app: Callable[..., Awaitable[None]]):
        self.app = app

    async def __call__(self, scope: MutableMapping[str, Any], receive: Callable[[], Awaitable[Any]],
                       send: Callable[[Any], Awaitable[None]]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        limit, seen, refused, started = _body_limit(path), 0, False, False
        loop = asyncio.get_running_loop()
        # a body is awaited until its deadline (R155); a GET's is empty, and once a body is whole
        # what is awaited is the client's going (a stream's page closed), never timed
        deadline = loop.time() + _body_wait(path)
        whole = scope.get("method", "GET") in ("GET", "HEAD")

        async def refuse(status: int, text: str) -> Any:
            nonlocal refused
            refused = True
            if not started:  # the answer, unless the app has begun its own
                body = json.dumps({"error": text}).encode()
                await send({"type": "http.response.start", "status": status,
                            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                        (b"connection", b"close")]})
                await send({"type": "http.response.body", "body": body})
            return {"type": "http.disconnect"}

        async def counted() -> Any:
            nonlocal seen, whole
            if refused:
                return {"type": "http.disconnect"}
            if whole:
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - loop.time()))
            except TimeoutError:
                return await refuse(408, _late(_body_wait(path)))
            if message.get("type") == "http.request":
                seen += len(message.get("body", b""))
                whole = not message.get("more_body", False)
                if seen > limit:
                    return await refuse(413, _too_large(limit))
            return message

        async def unless_refused(message: Any) -> None:
            nonlocal started
            if not refused:  # the 413 / 408 was the answer: what the app says after it goes nowhere
                started = True
                await send(message)

        await self.app(scope, counted, unless_refused)


#: the query parameters every address takes: the table's link token (``?t=``)
ANY_ADDRESS_PARAMS = frozenset({"t"})
#: the longest play a card table reads (``{"command": ...}``)
MAX_PLAY = 2000
#: the longest ``args`` a question asked by GET takes (a card's name, two figures: far less)
MAX_ASK_ARGS = 4000


def _methods_taken(app: FastAPI, request: Request) -> list[str]:
    """The methods the request's address takes, GET, HEAD and POST in that order (HEAD wherever GET
    is: the server answers it as its GET without the body); none when no address is that path."""
    taken: set[str] = set()
    # the scope as the app received it: a refusal raised inside the static files' mount has the
    # mount's own root path, which no route matches
    scope = {**request.scope, "root_path": request.scope.get("app_root_path", "")}
    for route in app.router.routes:
        if route.matches(scope)[0] != Match.NONE:  # PARTIAL: the path is the route's, the method not
            taken |= set(getattr(route, "methods", None) or {"GET"})  # a mount (the static files) is read
    if "GET" in taken:
        taken.add("HEAD")
    return [m for m in ("GET", "HEAD", "POST") if m in taken]


def _method_refused(app: FastAPI, request: Request) -> JSONResponse:
    """A method the address does not take: 405 naming the ones it takes (and its Allow header
    listing them: "GET, HEAD, POST" was sent for every address), or 404 for a path that is no
    address of the table at all (a DELETE of any path was a 405, as if the address existed)."""
    taken = _methods_taken(app, request)
    if not taken:
        return JSONResponse({"error": _("no such address on this table: {path}").format(path=request.url.path)}, status_code=404)
    text = _("{path} does not take {method} requests; it takes {methods}").format(
        path=request.url.path, method=request.method[:20], methods=", ".join(taken))
    return JSONResponse({"error": text}, status_code=405, headers={"allow": ", ".join(taken)})


def _unknown_parameters(app: FastAPI, request: Request) -> str | None:
    """Why a request to an API address names a query parameter that address does not take, in
    words, or one it was sent more than once; None when it names none. A parameter the address ignored (``/api/events?since=abc`` before
    ``since`` existed, ``/api/los?viewer=a&targt=b``) answered as if it was not sent, so a typo or a
    wrong guess looked like an answer to the question asked."""
    if not request.url.path.startswith("/api/") or not request.query_params:
        return None
    for route in app.router.routes:
        if isinstance(route, APIRoute) and route.matches(request.scope)[0] == Match.FULL:
            taken = {p.alias for p in route.dependant.query_params} | ANY_ADDRESS_PARAMS
            extra = sorted({name for name in request.query_params if name not in taken})
            if not extra:
                # every parameter the API takes is one value: sent twice, the framework kept the last
                # one silently (``/api/los?viewer=a&viewer=b`` answered for b alone)
                twice = sorted({name for name in request.query_params if len(request.query_params.getlist(name)) > 1})
                if twice:
                    return _("{path} was sent {names} more than once; give each once").format(
                        path=request.url.path, names=", ".join(repr(n[:40]) for n in twice[:5]))
                return None
            names = ", ".join(repr(n[:40]) for n in extra[:5])
            own = sorted(taken - ANY_ADDRESS_PARAMS)
            if not own:
                return _("{path} takes no query parameters; it was sent {names}").format(path=request.url.path, names=names)
            return _("{path} takes no parameter {names}; it takes: {taken}").format(path=request.url.path, names=names, taken=", ".join(own))
    return None  # no such address: the framework's 404 says so


def _content_kind(request: Request) -> tuple[str, str]:
    """(the POST's content type, the one its path takes: a photo's form or JSON)."""
    kind = (request.headers.get("content-type") or "").split(";")[0].strip().lower()
    return kind, "multipart/form-data" if request.url.path in PHOTO_PATHS else "application/json"


def _unreadable_encoding(request: Request) -> str | None:
    """Why a POST's body is in a form the table does not read, in words (None when it reads it):
    a compressed body (``Content-Encoding: gzip``) was answered "the request is not JSON", as if
    its JSON were broken, and a JSON body in another charset than UTF-8 (RFC 8259 8.1) was read
    as UTF-8 or guessed at (reading R299)."""
    encodings = [e.strip().lower() for e in (request.headers.get("content-encoding") or "").split(",") if e.strip()]
    compressed = [e for e in encodings if e != "identity"]
    if compressed:
        return _("the request's body is sent compressed ({encoding}): the table reads it uncompressed only; send it without Content-Encoding").format(
            encoding=", ".join(compressed)[:80])
    params = (request.headers.get("content-type") or "").split(";")[1:]
    charsets = [v.strip().strip('"').lower() for k, _sep, v in (p.partition("=") for p in params) if k.strip().lower() == "charset"]
    if request.url.path not in PHOTO_PATHS and any(c not in ("utf-8", "utf8") for c in charsets):
        return _("the request's JSON is sent as {charset!r}: the table reads UTF-8 only").format(
            charset=next(c for c in charsets if c not in ("utf-8", "utf8"))[:40])
    return None


def _body_limit(path: str) -> int:
    return MAX_UPLOAD if path in PHOTO_PATHS else MAX_JSON


def _body_wait(path: str) -> float:
    return PHOTO_BODY_WAIT if path in PHOTO_PATHS else BODY_WAIT


def _late(seconds: float) -> str:
    return _("the request's body did not arrive within {seconds:g} s: the table stopped waiting; send it again").format(seconds=seconds)


def _malformed_length(size: str) -> str:
    return _("the request's Content-Length {size!r} is not a number of bytes").format(size=size[:40])


def _too_large(limit: int) -> str:
    if limit >= 1024 * 1024:
        return _("the upload is over {mib} MiB").format(mib=limit // (1024 * 1024))
    return _("the request is over {kib} KiB").format(kib=limit // 1024)


def _local(request: Request) -> bool:
    """Whether the request comes from this computer (the host's screen)."""
    host = request.client.host if request.client else ""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "testclient"  # Starlette's test client


def _confidence(value: Any) -> float:
    if value is None:
        return 1.0
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise AssistantError(_("'confidence' is a number from 0 to 1"))
    return float(value)


def _api(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """The OpenAPI schema as rows for the API page: each path and method, what it does, its
    parameters."""
    rows = []
    for path, methods in schema.get("paths", {}).items():
        for method, op in methods.items():
            params = [{"name": p.get("name", ""), "where": p.get("in", ""), "required": bool(p.get("required"))}
                      for p in op.get("parameters", [])]
            rows.append({"method": method.upper(), "path": path, "summary": op.get("summary", ""),
                         "description": op.get("description", ""), "params": params, "body": "requestBody" in op})
    return rows


def _only(body: dict[str, Any], address: str, known: tuple[str, ...]) -> dict[str, Any]:
    """A card table's request with only the keys its address reads: '{"command": "A pass",
    "overide": "..."}' recorded the play and dropped the misspelt key without a word, where every
    `/api/do/{verb}` names an argument it does not take."""
    unknown = sorted(set(body) - set(known))
    if unknown:
        raise AssistantError(n_("unknown argument {names}: {verb} takes {known}", "unknown arguments {names}: {verb} takes {known}", len(unknown)).format(
            names=", ".join(map(repr, unknown)), verb=address, known=", ".join(known)))
    return body


def _command(body: dict[str, Any]) -> str:
    cmd = body.get("command")
    if isinstance(cmd, str) and len(cmd) > MAX_PLAY:  # a text, but no play is this long (it was "say the play as 'command'")
        raise AssistantError(_("the play is {n} characters long: a play is at most {most}").format(n=len(cmd), most=MAX_PLAY))
    if not isinstance(cmd, str) or not cmd.strip():
        raise AssistantError(_("say the play as 'command', e.g. {\"command\": \"A pass\"}"))
    return cmd.strip()


def _override(body: dict[str, Any]) -> str | None:
    override = body.get("override") or None
    if override is not None and (not isinstance(override, str) or len(override) > 500):
        raise AssistantError(_("'override' is the reason, a text of up to 500 characters"))
    return override


async def _json(request: Any) -> dict[str, Any]:
    return parse_body(await request.body())


def parse_body(raw: bytes) -> dict[str, Any]:
    r"""A request's JSON object, or a clear refusal: not JSON, not an object, nested deeper than
    :data:`MAX_DEPTH`, a number JSON has not (NaN, Infinity, 1e999) or past 64 bits, a text that
    is not Unicode (a lone surrogate: SQLite could not store it), a name given twice in one object
    (the parser kept the last silently: ``{"verb": "note", "verb": "undo"}`` recorded an undo, R174).

    >>> parse_body(b'{"confidence": 0.5}')
    {'confidence': 0.5}
    >>> parse_body(b'{"confidence": NaN}')
    Traceback (most recent call last):
    ...
    assistant.errors.AssistantError: the request is not JSON (NaN is not a number JSON allows)
    >>> parse_body(b'{"verb": "note", "verb": "undo"}')
    Traceback (most recent call last):
    ...
    assistant.errors.AssistantError: the request's JSON gives 'verb' more than once in one object; give each once
    >>> parse_body(b'{"text": "\\ud800"}')
    Traceback (most recent call last):
    ...
    assistant.errors.AssistantError: the request holds a text that is not Unicode (a lone surrogate)
    """
    try:
        body = json.loads(raw or b"{}", parse_float=_finite, parse_int=_whole, parse_constant=_no_constant, object_pairs_hook=_once_each)
    except RepeatedNameError as exc:  # (a ValueError: said as itself, not as "not JSON")
        raise AssistantError(_("the request's JSON gives {name!r} more than once in one object; give each once").format(
            name=exc.name[:40])) from None
    except PastBitsError:  # (a ValueError too) -- Python's own words were "use sys.set_int_max_str_digits()" (R372)
        raise AssistantError(_("the request holds a number past 64 bits")) from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise AssistantError(_("the request is not JSON ({exc})").format(exc=str(exc)[:200])) from None
    except RecursionError:  # nested deeper than the parser goes: no request of ours is
        raise AssistantError(_("the request is nested too deeply to be one of this table's")) from None
    if not isinstance(body, dict):
        raise AssistantError(_("the request must be a JSON object"))
    _check_values(body)
    return body


class RepeatedNameError(ValueError):
    """A JSON object that gives one name twice (its ``name``)."""

    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


def _once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's pairs as a dict, refusing a name given twice."""
    out: dict[str, Any] = {}
    for name, value in pairs:
        if name in out:
            raise RepeatedNameError(name)
        out[name] = value
    return out


class PastBitsError(ValueError):
    """A whole number written with more digits than any 64-bit number has."""


def _whole(text: str) -> int:
    """A JSON whole number; one of more digits than 2**63 has is refused before Python converts it
    (past 4,300 digits Python refused it in words of its own, naming ``sys.set_int_max_str_digits``)."""
    if len(text.lstrip("-")) > len(str(MAX_INT)):
        raise PastBitsError(text[:40])
    return int(text)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(_("{number} is past the numbers JSON allows").format(number=text[:40]))
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(_("{name} is not a number JSON allows").format(name=name))


def _check_values(body: Any) -> None:
    """Walk the parsed body (without recursion): depth, whole numbers' size, Unicode texts."""
    todo: list[tuple[Any, int]] = [(body, 1)]
    while todo:
        value, depth = todo.pop()
        if depth > MAX_DEPTH:
            raise AssistantError(_("the request is nested too deeply to be one of this table's"))
        if isinstance(value, dict):
            todo += [(k, depth) for k in value] + [(v, depth + 1) for v in value.values()]
        elif isinstance(value, list):
            todo += [(v, depth + 1) for v in value]
        elif isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise AssistantError(_("the request holds a text that is not Unicode (a lone surrogate)")) from None
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INT:
            raise AssistantError(_("the request holds a number past 64 bits"))
