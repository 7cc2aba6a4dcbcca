"""The web app the players' phones join: a thin edge over :class:`~assistant.live.table.Table`.

Pages are server-rendered (Jinja2) with one small script of our own (no build step, nothing
fetched from elsewhere). Every answer comes from the same engine as the CLI, every change is
one event in the same SQLite log. Errors are JSON ``{"error": ...}`` (or a plain page), never a
traceback.

Who may do what: served on 127.0.0.1 (the default) anyone on this computer may play. With a
``token`` (``serve --lan``) every request must carry it -- as ``?t=TOKEN`` in the joining link,
then as an HTTP-only, SameSite=Strict cookie -- or get 403 and change nothing. A
``spectator`` token gives a read-only view.
"""

import hmac
import json
import logging
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from .. import i18n
from ..errors import AssistantError, MissingStatError
from ..i18n import N_, _
from .table import CardTable, ReadOnlyError, Table

HERE = Path(__file__).resolve().parent
COOKIE = "table"
#: uploads: the photo limits apply after this; a phone photo is 2-10 MB
MAX_UPLOAD = 40 * 1024 * 1024


#: the texts the pages' scripts show, sent to them in the reader's language
SCRIPT_TEXTS = (
    N_("Refused:"), N_("round {round}, phase {phase}"), N_("no round yet"), N_("{figure} is acting"), N_("next: {side}"),
    N_("may still act — {left}"), N_("undone"), N_("override"), N_("legal"), N_("not legal"), N_("targets"), N_("target"),
    N_("roll"), N_("chance / why"), N_("witness line"), N_("Line of sight:"), N_("yes"), N_("no"), N_("no line of sight"),
    N_("cover"), N_("no cover"), N_("Cover:"), N_("Attack:"), N_("needs {needs}+ ({chance}%), damage {damage}"), N_("attack"),
    N_("defense"), N_("damage"), N_("Not modelled (check by hand):"), N_("Tap the square to move to."), N_("Tap a target first."),
    N_("Undo the last event? It stays in the log, marked undone."), N_("reading the photo…"), N_("photo read in {seconds}s"),
    N_("attack {n}"), N_("agree"), N_("moved"), N_("uncertain"), N_("missing"), N_("extra"), N_("{square} holds a figure"), N_("figure"), N_("game"),
    N_("photo"), N_("Confirm:"), N_("Apply the moved figures"), N_("{n} figure(s) moved; Undo takes a correction back"),
    N_("#{seq} recorded"), N_("Undo the last play? It stays in the log, marked undone."), N_("#{seq} undid event {undid}"),
    N_("{figure}'s {what}"), N_("keep for {card}"), N_("A number is missing:"), N_("Ask again"), N_("give a whole number"),
    # the phone's board and answer sheet (issue 27)
    N_("helpers:"), N_("{figure} is yours: its slot button frees it"), N_("Tap your figure."), N_("Why (reasons and rules)"),
    N_("Move {figure} to {square}?"), N_("path {path}, cost {cost}"), N_("leaves the reach of: {names}"), N_("Confirm the move"),
    N_("Cancel"), N_("Tap another square to change it, or confirm."), N_("{verb}: this command works on this computer's files; run it there"),
    N_("Record"), N_("Ask"), N_("questions"), N_("Tap the helpers (combined fire); tap again to drop one."),
    N_("Initiative: each side's d20 as rolled"), N_("Let the assistant roll"), N_("{figure} left the table"),
    N_("no route there: the move would be refused"),
)


def create_app(table: Table | CardTable, token: str | None = None, spectator: str | None = None,
               language: str | None = None) -> FastAPI:
    """The app for one table: a miniatures game or position (board, targets, turns, photos), or
    a card game (the table now, plays in the game's notation, checked first). Pages and answers
    are in ``language`` when the table chose one (``serve --lang``), else in each reader's
    browser language (``Accept-Language``), else English."""
    app = FastAPI(title="tabletop-assistant live table", version="1",
                  description="The table's questions and its game log over HTTP (the same JSON answers as the command line).")
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    templates.env.globals["_"] = i18n._

    def page_context(request: Request) -> dict[str, Any]:
        return {"lang": i18n.current(), "ui": json.dumps({t: i18n._(t) for t in SCRIPT_TEXTS}, ensure_ascii=False)}
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

    @app.middleware("http")
    async def guard(request: Request, call_next: Any) -> Any:
        who = role(request)
        if who is None:
            if request.url.path.startswith("/api/"):
                return JSONResponse({"error": "this table needs its link: scan the QR code the server printed"}, status_code=403)
            return PlainTextResponse("403: this table needs its link -- scan the QR code the server printed.", status_code=403)
        if who == "spectator" and request.method not in ("GET", "HEAD"):
            return JSONResponse({"error": "a spectator's link is read-only"}, status_code=403)
        if request.method == "POST":
            size = request.headers.get("content-length")
            if size is not None and (not size.isdigit() or int(size) > MAX_UPLOAD):
                return JSONResponse({"error": f"the upload is over {MAX_UPLOAD // (1024 * 1024)} MiB"}, status_code=413)
        request.state.role = who
        lang = language or i18n.from_accept_language(request.headers.get("accept-language"))
        try:
            with i18n.language(lang):  # every text of this request in the reader's language
                response = await call_next(request)
        except Exception:
            logging.getLogger("assistant.live").exception("internal error on %s %s", request.method, request.url.path)
            return JSONResponse({"error": "internal error: the server could not answer; the game log is unchanged"}, status_code=500)
        given = request.query_params.get("t")
        if token is not None and given:
            response.set_cookie(COOKIE, given, httponly=True, samesite="strict", max_age=7 * 24 * 3600)
        return response

    @app.exception_handler(AssistantError)
    async def user_error(request: Request, exc: AssistantError) -> Any:
        from ..cardgame.log import RefusedCommandError
        from ..game import RefusedError

        if isinstance(exc, RefusedError):
            reasons = [{"text": r.text, "rule": r.rule} for r in exc.reasons]
            return JSONResponse({"error": str(exc), "refused": True, "reasons": reasons}, status_code=409)
        if isinstance(exc, RefusedCommandError):  # a card game's play the rules refuse (the message gives the rule)
            return JSONResponse({"error": str(exc), "refused": True}, status_code=409)
        status = 403 if isinstance(exc, ReadOnlyError) else 400
        body: dict[str, Any] = {"error": str(exc)}
        if isinstance(exc, MissingStatError):  # which numbers the question lacks, and how to give them (the page asks for them)
            body["missing"] = [m.as_json() for m in exc.missing]
        problems = getattr(exc, "problems", None)
        if problems:
            body["problems"] = [p.as_json() for p in problems]
        return JSONResponse(body, status_code=status)

    @app.get("/api/version")
    def version() -> Any:
        return {"version": table.version()}

    @app.get("/api/status")
    def status() -> Any:
        return table.status()

    @app.get("/api/events")
    def events() -> Any:
        return {"query": "log", "events": table.events()}

    @app.get("/api/verbs")
    def verbs() -> Any:
        """Every verb this app answers at ``POST /api/do/{verb}`` (``game move``: ``/api/do/game/move``)."""
        from ..commands import load_all
        from ..commands.registry import SESSION_PARAMS

        reg = load_all()
        # each verb's arguments, so that the page builds its form (the session's game and paths on
        # the server are not the request's to say); "local" verbs work on this computer's files only
        detail = {name: {"writes": v.writes, "local": v.local,
                         "params": [{"name": p.name, "kind": p.kind.__name__, "optional": p.optional}
                                    for p in v.params if p.name not in SESSION_PARAMS and p.kind is not Path]}
                  for name, v in reg.items()}
        return {"query": "verbs", "verbs": sorted(reg), "detail": detail}

    @app.post("/api/do/{verb:path}")
    async def do_verb(verb: str, request: Request) -> Any:
        """Any verb of the command line, its arguments a JSON object (the same JSON answers and refusals)."""
        body = await _json(request)
        return table.run(verb.replace("/", " "), body)

    @app.get("/api/export")
    def export(format: str = "md") -> Any:
        text = table.export(format)
        kind = "application/json" if format == "json" else "text/markdown"
        return Response(text, media_type=kind, headers={"content-disposition": f'attachment; filename="game.{format}"'})

    if isinstance(table, CardTable):
        cards = table

        @app.get("/", response_class=HTMLResponse, include_in_schema=False)
        def card_index(request: Request) -> Any:
            return templates.TemplateResponse(request, "cards.html", {"status": cards.status(), "kind": cards.kind,
                                                                      "spectator": request.state.role == "spectator", **page_context(request)})

        @app.post("/api/check")
        async def check(request: Request) -> Any:
            body = await _json(request)
            return cards.check(_command(body))

        @app.post("/api/do")
        async def do(request: Request) -> Any:
            body = await _json(request)
            return cards.do(_command(body), _override(body))

        @app.post("/api/undo")
        async def undo(request: Request) -> Any:
            body = await _json(request)
            seq = body.get("seq")
            if seq is not None and (isinstance(seq, bool) or not isinstance(seq, int)):
                raise AssistantError(_("'seq' is an event number"))
            return cards.undo(seq)

        return app

    minis = table  # a miniatures game or a bare position

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def index(request: Request) -> Any:
        snap = minis.snapshot()
        return templates.TemplateResponse(request, "index.html", {
            "status": minis.status(), "svg": minis.board_svg(), "rules": snap.position.edition.value,
            "figures": [f.id for f in snap.position.figures], "game": minis.game is not None,
            "spectator": request.state.role == "spectator", **page_context(request),
        })

    @app.get("/api/board.svg")
    def board(selected: str | None = None, target: str | None = None, to: str | None = None) -> Any:
        return Response(minis.board_svg(selected or None, target or None, to or None), media_type="image/svg+xml")

    @app.get("/api/move")
    def move_preview(figure: str, to: str) -> Any:
        """The path and cost a move would take, before it is recorded (the page shows it and asks to confirm)."""
        from ..coords import parse_square
        from ..game.actions import move_event

        snap = minis.snapshot()
        if snap.state is None:
            raise ReadOnlyError(_("this table serves a position file, not a game: start a game ('game new') to record turns"))
        data, notes = move_event(snap.state, figure, parse_square(to))
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
        return minis.act(verb, args, _override(body))

    @app.post("/api/photo")
    async def photo(request: Request) -> Any:
        form = await request.form()
        upload = form.get("photo")
        if upload is None or not hasattr(upload, "read"):
            raise AssistantError(_("send the photo as the form field 'photo'"))
        data = await upload.read()
        return _photo_answer(table, data, getattr(upload, "filename", "photo") or "photo")

    @app.post("/api/photo/apply")
    async def photo_apply(request: Request) -> Any:
        body = await _json(request)
        moves = body.get("moves")
        if not isinstance(moves, list) or not all(isinstance(m, dict) for m in moves):
            raise AssistantError(_("'moves' is a list of {figure, at}"))
        done = []
        for m in moves:
            fig, at = m.get("figure"), m.get("at")
            if not isinstance(fig, str) or not isinstance(at, str):
                raise AssistantError(_("each move needs 'figure' and 'at'"))
            done.append(minis.record("relocate", {"figure": fig, "at": at, "source": str(body.get("source") or "photo (web)"),
                                                  "confidence": float(m.get("confidence") or 1.0)}))
        return {"applied": done}

    return app


def _command(body: dict[str, Any]) -> str:
    cmd = body.get("command")
    if not isinstance(cmd, str) or not cmd.strip() or len(cmd) > 2000:
        raise AssistantError(_("say the play as 'command', e.g. {\"command\": \"A pass\"}"))
    return cmd.strip()


def _override(body: dict[str, Any]) -> str | None:
    override = body.get("override") or None
    if override is not None and (not isinstance(override, str) or len(override) > 500):
        raise AssistantError(_("'override' is the reason, a text of up to 500 characters"))
    return override


async def _json(request: Any) -> dict[str, Any]:
    raw = await request.body()
    try:
        body = json.loads(raw or b"{}")
    except (ValueError, UnicodeDecodeError) as exc:
        raise AssistantError(_("the request is not JSON ({exc})").format(exc=exc)) from None
    except RecursionError:  # nested deeper than the parser goes: no request of ours is
        raise AssistantError(_("the request is nested too deeply to be one of this table's")) from None
    if not isinstance(body, dict):
        raise AssistantError(_("the request must be a JSON object"))
    return body


def _photo_answer(table: Table, data: bytes, name: str) -> dict[str, Any]:
    """Detect the position in an uploaded photo and compare it with the recorded one."""
    import tempfile

    from ..limits import check_photo
    from ..photo import NoGridError, detect, load_image
    from ..photo.compare import compare

    snap = table.snapshot()
    pos = snap.position
    check_photo(pos)
    with tempfile.NamedTemporaryFile(suffix=".img") as tmp:
        tmp.write(data)
        tmp.flush()
        img = load_image(tmp.name)
    try:
        res = detect(img, pos, name)
    except NoGridError as exc:
        return {"query": "photo", "grid_found": False, "error": str(exc)}
    return {**res.as_json(), "rows": [r.as_json() for r in compare(pos, res).rows]}
