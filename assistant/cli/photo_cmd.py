"""``photo`` and ``calibrate``: where the figures stand in a photo, and camera set-up."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from rich.markup import escape

from ..editions import Edition
from ..errors import AssistantError
from ..i18n import N_, _, decimal, n_
from ..limits import check_photo
from ..yamlio import check_output_path, write_bytes_atomic, write_text_atomic
from .output import edge, emit_json, err, out, print_text
from .photo_answer import camera, detect_answer, say_no_grid, session_reference, table_profile

if TYPE_CHECKING:  # the photo package loads OpenCV: only the photo commands import it, when run
    from ..photo.compare import Row

#: how a figure was found, as the answer says it (the JSON keeps these values)
HOW_FOUND = (N_("marker"), N_("roster"))

app = typer.Typer(help="Read a table photo: the grid, the figures; compare with the game.", no_args_is_help=True)
map_app = typer.Typer(help="Maps: read one from a photo of the printed map.", no_args_is_help=True)
calib_app = typer.Typer(help="Camera calibration (ChArUco) and printable marker sheets.", no_args_is_help=True)

JsonOpt = Annotated[bool, typer.Option("--json", help="Print exactly one JSON object on stdout.")]
CalibOpt = Annotated[Path | None, typer.Option("--calib", help="A camera calibration file (undistort first).", metavar="FILE")]
RefOpt = Annotated[Path | None, typer.Option(
    "--reference", help="The empty map's reference from 'photo reference' (default: the game's own, when it has one).", metavar="FILE")]
TableOpt = Annotated[Path | None, typer.Option("--table", help="A table profile from 'photo adapt' (the classifier refitted to your map and figures).",
                                                  metavar="FILE")]


def _reference(ctx: typer.Context, reference: Path | None, pos: Any, position: str | None = None, game: Path | None = None) -> Any:
    """The empty map's reference to compare a photo with: the file named, else the game's own
    (``GAME.reference.npz``, made by 'photo reference'), else None (the learned classifier answers)."""
    from .common import session  # start-up time: the session (~15 ms CPU) not at photo --help

    return session_reference(session(ctx), reference, pos, position, game)


def _not_a_photo_read(outputs: list[Path | None], photos: list[Path]) -> None:
    """Refuse an output that is one of the photos the command reads (``photo reference
    empty.jpg -o empty.jpg``): the photo would be replaced by what is written from it."""
    for output in outputs:
        for photo in photos:
            try:
                same = output is not None and output.exists() and output.samefile(photo)
            except OSError:  # a photo not there: load_image names it
                same = False
            if same:
                raise AssistantError(_("cannot write {output}: it is the photo {photo} being read, which would be lost; name another file").format(
                    output=output, photo=photo))


@app.command("detect")
def detect_cmd(
    ctx: typer.Context,
    image: Annotated[Path, typer.Argument(help="The photo.")],
    position: Annotated[str | None, typer.Option("--position", "-p", help="Map and roster (default: the current game).")] = None,
    game: Annotated[Path | None, typer.Option("--game", help="A game file.", metavar="PATH")] = None,
    calib: CalibOpt = None,
    table: TableOpt = None,
    reference: RefOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Where every figure stands in the photo: each figure's square, occupied and uncertain squares."""
    from .common import session  # start-up time: the session (~15 ms CPU) not at photo --help

    code = detect_answer(session(ctx), image, position, game, calib, table, reference, json_out)
    if code:
        raise typer.Exit(code)


def _no_grid(json_out: bool, query: str, image: Path, exc: Exception) -> NoReturn:
    """No grid in the photo: said (:func:`.photo_answer.say_no_grid`), exit 2."""
    say_no_grid(json_out, query, image, exc)
    raise typer.Exit(2)


@app.command("check")
def check_cmd(
    ctx: typer.Context,
    image: Annotated[Path, typer.Argument(help="The photo.")],
    game: Annotated[Path | None, typer.Option("--game", help="A game file (default: the current game).", metavar="PATH")] = None,
    calib: CalibOpt = None,
    table: TableOpt = None,
    reference: RefOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Compare the photo with the current game: agreements and discrepancies.

    Exit codes: 0 the photo agrees with the game; 3 it does not (each difference listed); 2 the
    photo, the game or the calibration cannot be read, or no grid can be trusted in the photo.
    """
    from ..photo import NoGridError, decoding, detect  # start-up time: numpy, OpenCV, the photo package (~0.1 CPU-s) not at photo --help
    from ..photo.compare import compare  # start-up time: loaded with the photo package
    from .common import load as _load  # start-up time: the session (~15 ms CPU) not at photo --help

    with edge(json_out, "photo check"), decoding(image) as photo:
        pos = _load(ctx, None, game)
        check_photo(pos)
        ref = _reference(ctx, reference, pos, None, game)
        img = photo.result()
        try:
            res = detect(img, pos, str(image), camera(calib), table_profile(table), ref)
        except NoGridError as exc:  # said as 'photo detect' says it: "grid_found": false
            _no_grid(json_out, "photo check", image, exc)
        compared = compare(pos, res)
        rows = [_check_row(r) for r in compared.rows]
        agree = compared.agree
        if json_out:
            emit_json({"query": "photo check", "image": str(image), "grid_found": True, "rows": rows, "uncertain": res.uncertain,
                       "more_uncertain": res.more_uncertain,
                       "not_seen": res.not_seen, "agree": agree, "notes": res.notes})
        else:
            _print_check(rows)
            _print_to_confirm(res.uncertain, res.more_uncertain)
    if not agree:
        raise typer.Exit(PHOTO_DISAGREES)


#: the exit code of 'photo check' when the photo and the game disagree (as 'check' of the card games)
PHOTO_DISAGREES = 3


def _check_row(r: Row) -> dict[str, Any]:
    """A row of the comparison as 'photo check' answers it: the shared row, ``agree`` and its words."""
    at = r.photo.name if r.photo else None
    if r.verdict == "missing":
        text = _("{figure} is not seen in the photo (the game has it on {at})").format(figure=r.figure, at=r.game)
    elif r.verdict == "extra":
        text = _("a figure on {square} in the photo; the game has none there").format(square=at)
    elif r.agree:
        text = _("{figure} on {at}").format(figure=r.figure, at=at)
    elif r.verdict == "uncertain" and r.game is not None and at == r.game.name:
        text = _("{figure} on {at}, where the game has it, but the photo is not sure of it: confirm").format(figure=r.figure, at=at)
    elif r.verdict == "uncertain":
        text = _("{figure} on {at} in the photo, not surely; the game has it on {game}: confirm").format(figure=r.figure, at=at, game=r.game)
    else:
        text = _("{figure} on {at} in the photo; the game has it on {game}").format(figure=r.figure, at=at, game=r.game)
    row: dict[str, Any] = {"figure": r.figure, "game": r.game.name if r.game else None, "photo": at, "agree": r.agree}
    if r.confidence is not None:
        row["confidence"] = r.confidence
    return {**row, "text": text, "verdict": r.verdict}


def _print_check(rows: list[dict[str, Any]]) -> None:
    from rich.table import Table  # start-up time: rich's tables only when a check is printed

    table = Table(header_style="bold", box=None, pad_edge=False)
    for col in ("", N_("figure"), N_("game"), N_("photo"), N_("note")):
        table.add_column(_(col) if col else col)
    for r in rows:
        table.add_row("[green]✓[/]" if r["agree"] else "[red]✗[/]", r["figure"] or "?", r["game"] or "-", r["photo"] or "-", escape(r["text"]))
    out.print(table)


def _print_to_confirm(uncertain: list[dict[str, Any]], more: int) -> None:
    """The squares to confirm, least sure first, each with the chance that the answer reads it right."""

    if not uncertain:
        return
    listed = ", ".join(_("{square} ({confidence})").format(square=u["square"], confidence=decimal(u['confidence'], ".2f")) for u in uncertain)
    out.print("[yellow]" + escape(_("confirm, least sure first: {squares}").format(squares=listed)) + "[/]")
    if more:
        out.print("[yellow]" + escape(n_("and {n} more doubtful square: look over the board by eye, or photograph it again",
                                              "and {n} more doubtful squares: look over the board by eye, or photograph it again",
                                              more).format(n=more)) + "[/]")


@app.command("adapt")
def adapt_cmd(
    ctx: typer.Context,
    images: Annotated[list[Path], typer.Argument(help="One or two photos of your own map and figures, standing as the position says.")],
    position: Annotated[str, typer.Option("--position", "-p", help="Where the figures truly stand in those photos.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="The table profile to write (JSON), e.g. calib/my-table.json.")],
    calib: CalibOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Fit the occupancy classifier to your own table from photos of a known position."""
    from ..photo import NoGridError, load_image, locate_grid  # start-up time: numpy, OpenCV, the photo package (~0.1 CPU-s) not at photo --help
    from ..photo.occupancy import adapt  # start-up time: loaded with the photo package
    from .common import load as _load  # start-up time: the session (~15 ms CPU) not at photo --help

    with edge(json_out, "photo adapt"):
        pos = _load(ctx, position)
        check_photo(pos)
        if len(images) > 8:
            raise AssistantError(_("{n} photos given: 'photo adapt' takes 1 to 8").format(n=len(images)))
        cam = camera(calib)
        samples = []
        for image in images:
            img = load_image(image)
            if cam is not None:
                img = cv2_undistort(img, cam)
            try:
                grid = locate_grid(img, pos, str(image))[0]
            except NoGridError as exc:
                raise AssistantError(str(exc)) from None
            samples.append((img, grid, pos))
        profile, score = adapt(samples, name=output.stem)
        try:
            output.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise AssistantError(_("cannot make the folder {parent} ({why})").format(parent=output.parent, why=exc.strerror or exc)) from None
        write_text_atomic(output, json.dumps({**profile.as_json(), "photos": [str(i) for i in images], **score}, indent=1) + "\n")
        if json_out:
            emit_json({"query": "photo adapt", "profile": str(output), **score})
            return
        out.print(
            _(
                "table profile written to {output}: {score} squares, {score2} bases; squares wrong on these photos {score3} before, {score4} after (use it "
                "with --table {output})"
            ).format(output=escape(str(output)), score=score['squares'], score2=score['bases'], score3=score['wrong_before'], score4=score['wrong_after'])
        )


@app.command("synth")
def synth_cmd(
    ctx: typer.Context,
    output: Annotated[Path, typer.Option("--output", "-o", help="The photo to write (.jpg or .png).")],
    position: Annotated[str, typer.Option("--position", "-p", help="The position to photograph.")],
    seed: Annotated[int, typer.Option("--seed", help="Random camera, light and noise.")] = 0,
    width: Annotated[int, typer.Option("--width", min=320, max=8000, help="Image width in pixels, 320 to 8000 (height is 3/4).")] = 4000,
    truth: Annotated[Path | None, typer.Option("--truth", help="Also write the ground truth as JSON.")] = None,
    varied: Annotated[bool, typer.Option("--varied", help="A random real-table look: printed art, faint lines, grey bases, painted figures, shadows.")] = False,
    empty: Annotated[bool, typer.Option("--empty", help="The map with no figures on it (a reference photo for 'photo reference').")] = False,
    map_seed: Annotated[int | None, typer.Option("--map-seed", help="With --varied: the map's printed look from this seed, the camera and light "
                                                  "from --seed (the same map photographed again).")] = None,
) -> None:
    """Generate a synthetic table photo (for trying the detector)."""
    import cv2  # start-up time: numpy and OpenCV (~85 ms CPU) not at photo --help

    from ..photo.synth import render_photo  # start-up time: with the photo package (~0.12 CPU-s) not at photo --help
    from .common import load as _load  # start-up time: the session (~15 ms CPU) not at photo --help

    with edge():
        for path in (output, truth):  # both refused before rendering: the photo is not written without its truth
            if path is not None:
                check_output_path(path)
        suffix = output.suffix or ".jpg"
        if not cv2.haveImageWriter("x" + suffix):  # refused before rendering, naming the file (OpenCV's own error names neither)
            raise AssistantError(_("cannot write {output}: {suffix!r} is not an image format; use .jpg or .png").format(
                output=output, suffix=suffix))
        pos = _load(ctx, position)
        check_photo(pos)
        if empty:

            pos = replace(pos, figures=())
        img, t = render_photo(pos, seed=seed, width=width, height=width * 3 // 4, varied=varied, tilt_max=50.0 if varied else 45.0,
                              look_seed=map_seed if varied else None)
        ok, buf = cv2.imencode(suffix, img)
        if not ok:
            raise AssistantError(_("cannot write {output}: {suffix!r} is not an image format; use .jpg or .png").format(
                output=output, suffix=suffix))
        write_bytes_atomic(output, buf.tobytes())
        if truth is not None:
            write_text_atomic(truth, json.dumps({"figures": t.figures, "occupied": sorted(t.occupied)}, indent=2) + "\n")
        err.print(_("wrote {output}").format(output=escape(str(output))))


@calib_app.command("camera")
def calibrate_camera(
    images: Annotated[list[Path], typer.Argument(help="Photos of the printed ChArUco board (at least 3).")],
    output: Annotated[Path, typer.Option("--output", "-o", help="The calibration file (OpenCV YAML).")],
) -> None:
    """Calibrate the camera from photos of the ChArUco sheet."""
    from ..photo import load_image  # start-up time: numpy, OpenCV, the photo package (~0.1 CPU-s) not at photo --help
    from ..photo.calibrate import calibrate, save  # start-up time: with the photo package (~0.1 CPU-s) not at calibrate --help

    with edge():
        cam = calibrate([load_image(p) for p in images])
        save(cam, output)
        out.print(
            _("wrote {output}: focal {camera_matrix:.1f} px, reprojection error {avg_reprojection_error:.3f} px").format(
                output=escape(str(output)), camera_matrix=cam.camera_matrix[0, 0], avg_reprojection_error=cam.avg_reprojection_error
            )
        )


@calib_app.command("sheet")
def calibrate_sheet(
    output: Annotated[Path, typer.Option("--output", "-o", help="PNG to print at the given DPI, unscaled.")],
    dpi: Annotated[int, typer.Option("--dpi", min=72, max=1200)] = 300,
) -> None:
    """A ChArUco board at true scale (30 mm squares) for camera calibration."""
    import cv2  # start-up time: numpy and OpenCV (~85 ms CPU) not at calibrate --help

    from ..photo.calibrate import charuco_sheet  # start-up time: with the photo package (~0.1 CPU-s) not at calibrate --help

    with edge():
        write_bytes_atomic(output, cv2.imencode(".png", charuco_sheet(dpi))[1].tobytes())
        err.print(_("wrote {output}: print at {dpi} DPI without scaling").format(output=escape(str(output)), dpi=dpi))


@calib_app.command("markers")
def calibrate_markers(
    output: Annotated[Path, typer.Option("--output", "-o", help="PNG to print.")],
    first: Annotated[int, typer.Option("--first", help="First id (0-3 are the map corners).")] = 0,
    last: Annotated[int, typer.Option("--last", help="Last id (at most 49).", max=49)] = 23,
    dpi: Annotated[int, typer.Option("--dpi", min=72, max=1200)] = 300,
) -> None:
    """ArUco 4x4_50 markers at true scale: 0-3 for the map corners, 4+ for figure bases."""
    import cv2  # start-up time: numpy and OpenCV (~85 ms CPU) not at calibrate --help

    from ..photo.calibrate import marker_sheet  # start-up time: with the photo package (~0.1 CPU-s) not at calibrate --help

    with edge():
        if first > last or first < 0:
            raise AssistantError(_("--first must be between 0 and --last"))
        write_bytes_atomic(output, cv2.imencode(".png", marker_sheet(range(first, last + 1), dpi=dpi))[1].tobytes())
        err.print(_("wrote {output}").format(output=escape(str(output))))


@map_app.command("from-photo")
def map_from_photo(
    image: Annotated[Path, typer.Argument(help="A photo of the printed map (no figures on it); corner markers optional.")],
    cols: Annotated[int | None, typer.Option("--cols", min=1, max=100, help="Columns of the map (at most 100).")] = None,
    rows: Annotated[int | None, typer.Option("--rows", min=1, max=100, help="Rows of the map (at most 100).")] = None,
    known_map: Annotated[str | None, typer.Option("--position", "-p", help="The map this photo shows, as a position or map file (the scenario's): "
                                                   "its size, and without corner markers its printed terrain tells which way round the map "
                                                   "lies. The squares are still read from the photo.", metavar="FILE")] = None,
    rules: Annotated[str, typer.Option("--rules", help="The rules edition for the position file.")] = "swm2008",
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write the position file here (default: stdout).")] = None,
    calib: CalibOpt = None,
    reference_out: Annotated[Path | None, typer.Option("--reference", help="Also keep this photo as the empty-map reference (a .npz file) that later "
                                                       "photos of the map are compared with ('photo detect --reference FILE').", metavar="FILE")] = None,
    turn: Annotated[int, typer.Option("--turn", help="Without corner markers the photo's top is taken as row 1's side; when the map lay otherwise, "
                                      "turn the reading clockwise by 180 (row 1 along the photo's bottom), or, a square map, 90 (its left edge) "
                                      "or 270 (its right edge).")] = 0,
    json_out: JsonOpt = False,
) -> None:
    """Read every square and edge from the printed border lines into a position file to review.

    The grid comes from the map-corner markers, or without them from the printed grid lines (then
    the photo's top is taken as row 1, unless a corner marker shows which corner is which: the
    answer says so, for the judge to confirm or to turn with --turn). What the reading is unsure
    of is listed, in the file's opening comment and in --json, to confirm."""
    import yaml  # start-up time: PyYAML (~11 ms CPU) not at map --help

    from ..commands.context import resolve_position  # start-up time: the command layer's context (~15 ms CPU) not at map --help
    from ..photo import NoGridError, load_image, reference_lens_note  # start-up time: numpy, OpenCV, the photo package (~0.1 CPU-s) not at map --help
    from ..photo.lines import TurnError  # start-up time: loaded with the photo package
    from ..photo.mapread import as_map_yaml, to_confirm  # start-up time: loaded with the photo package
    from ..photo.markers import find_markers  # start-up time: loaded with the photo package
    from ..photo.reference import make_reference, save_reference  # start-up time: loaded with the photo package
    from ..photo.terrain import read_map_photo  # start-up time: loaded with the photo package
    from ..photo.tomark import corners_to_mark  # start-up time: loaded with the photo package
    from ..position import load_position, parse_position  # start-up time: the position reader (~11 ms CPU) not at map --help

    with edge(json_out, "map-from-photo"):
        if rules not in {e.value for e in Edition}:
            raise AssistantError(_("unknown rules edition {rules!r}").format(rules=rules))
        _not_a_photo_read([output, reference_out], [image])
        for path in (output, reference_out):  # refused before the photo is read
            if path is not None:
                check_output_path(path)
        known = load_position(resolve_position(known_map)).map if known_map is not None else None  # a bundled example's name too
        if known is not None:  # the map named gives the size; a size given as well must be its own
            if (cols or known.cols, rows or known.rows) != (known.cols, known.rows):
                raise AssistantError(_("the map in {file} is {c} x {r} squares, not {cols} x {rows}").format(
                    file=known_map, c=known.cols, r=known.rows, cols=cols or known.cols, rows=rows or known.rows))
            cols, rows = known.cols, known.rows
        if cols is None or rows is None:
            raise AssistantError(_("give the map's size with --cols and --rows, or its file with --position"))
        img = load_image(image)
        cam = camera(calib)
        if cam is not None:
            img = cv2_undistort(img, cam)
        try:
            got = read_map_photo(img, cols, rows, turn, known)
        except TurnError as exc:
            raise AssistantError(str(exc)) from None
        if got is None:
            # one corner marker read or none: which to place, the one across the map first (reading R354)
            to_mark = corners_to_mark({m.id for m in find_markers(img)})
            if to_mark:  # the marker read is named, not denied (the general sentence says no marker was found)
                raise NoGridError(_("no grid found in {image}: the printed grid lines of a {cols} x {rows} map could not be matched to it; {to_mark}").format(
                    image=image, cols=cols, rows=rows, to_mark=to_mark))
            raise NoGridError(
                _("no grid found in {image}: neither the map-corner markers (ArUco 4x4_50 ids 0-3) nor the printed grid lines of a {cols} x {rows} map "
                  "were found; photograph the whole map from above, or place the corner markers").format(image=image, cols=cols, rows=rows)
            )
        reading = got.reading
        how = (_("the corner markers") if got.how == "markers" else
               _("the printed grid lines; oriented by {how}").format(how=_(got.grid.oriented_by) if got.grid.oriented_by else "?"))
        doc = {"format": "tabletop-position/1", "rules": rules, "map": as_map_yaml(reading, cols, rows), "figures": []}
        head = [_("read from {image}: review it against the map before use").format(image=image), _("grid from {how}").format(how=how)]
        lens_said = reference_lens_note(got.grid, got.how != "markers")  # R257 for the lines' grid, R280's second look for markers'
        if lens_said:
            head.append(lens_said)
        doubt = _orientation_doubt(got.grid.ways, named=known is not None)
        if doubt:
            head.append(doubt)
        listed = to_confirm(reading, got.telling)  # one entry an area or edge, least sure first (R207)
        if listed:
            head.append(_("to confirm ({n}), least sure first:").format(n=len(listed)))
            head += [f"  {where}: {why}" for where, why, _names in listed]
        text = "".join("# " + line.replace("\n", " ") + "\n" for line in head) + yaml.safe_dump(doc, sort_keys=False)
        parse_position(text, str(image))  # what we write must load
        before: bytes | None = None
        if reference_out is not None:  # the same photo, the same grid: the empty map's reference
            before = reference_out.read_bytes() if reference_out.is_file() else None
            save_reference(make_reference(img, got.grid, cols, rows, image.name), reference_out)
        if output is not None:
            try:
                write_text_atomic(output, text)
            except BaseException:
                if reference_out is not None:  # both files or neither: the reference as it was
                    if before is None:
                        reference_out.unlink(missing_ok=True)
                    else:
                        reference_out.write_bytes(before)
                raise
        if json_out:
            emit_json({"query": "map-from-photo", "image": str(image), "grid_found": True, "grid_from": got.how,
                       "oriented_by": got.grid.oriented_by or None, "orientation_confirmed": got.grid.ways == 1,
                       "ways_round_left_open": got.grid.ways, **({"lens_k": round(got.grid.lens, 4)} if got.grid.lens else {}), "map": doc["map"],
                       "unsure": [{"where": where, "why": why, "names": names} for where, why, names in listed],
                       "written": str(output) if output is not None else None,
                       "reference": str(reference_out) if reference_out is not None else None})
            return
        if doubt:
            err.print(escape(doubt))
        if output is None:
            print_text(text)
        else:
            err.print(
                _("wrote {output}: {n} terrain squares, {n2} walls and doors").format(output=escape(str(output)), n=len(reading.squares), n2=len(reading.edges))
            )
            if reading.unsure:
                err.print(escape(n_("{n} square or edge to confirm: listed at the top of the file",
                                    "{n} squares or edges to confirm: listed at the top of the file", len(reading.unsure)).format(n=len(reading.unsure))))
        if reference_out is not None:
            err.print(escape(_("wrote {output}: the empty map as the reference for later photos").format(output=reference_out)))


def _orientation_doubt(ways: int, named: bool = False) -> str:
    """What the answer says when nothing in the photo told which way round the map lies (``ways``
    left open, :attr:`assistant.photo.board.Grid.ways`): that the judge confirms it, and how to turn
    it -- or, where the map was not ``named`` (``--position``), to name its file (reading R116)."""
    if ways < 2:
        return ""
    further = (_("the terrain of the map named with --position does not tell it either (too little of it reads, it is as symmetric as "
                 "the grid, or the photo shows another map: reading R368)") if named else
               _("naming the map's file with --position lets its printed terrain tell it"))
    return _one_way_doubt(ways) + "; " + further


def _one_way_doubt(ways: int) -> str:
    """That the photo left ``ways`` (2 or 4) ways round open, what was taken, and the turn that mends it."""
    if ways == 2:
        return _("which way round is NOT confirmed: nothing in the photo tells the map from the map turned half round (no corner marker, no "
                 "printed sign), so the photo's top was taken as row 1. Check one square against the map; if row 1 lay along the photo's "
                 "bottom edge, run this again with --turn 180")
    if ways == 4:
        return _("which way round is NOT confirmed: nothing in the photo tells which side of this square map is row 1 (no corner marker, "
                 "no printed sign), so the photo's top was taken as row 1. Check one square against the map; if row 1 lay along the "
                 "photo's bottom, left or right edge, run this again with --turn 180, 90 or 270")
    return ""


def cv2_undistort(img: Any, cam: Any) -> Any:
    """The photo ``img`` undistorted by the camera calibration ``cam``."""
    import cv2  # start-up time: numpy and OpenCV (~85 ms CPU) not at photo --help; its callers loaded them already

    return cv2.undistort(img, cam.camera_matrix, cam.distortion_coefficients)


@app.command("reference")
def reference_cmd(
    ctx: typer.Context,
    image: Annotated[Path, typer.Argument(help="A photo of the map with no figures on it.")],
    position: Annotated[str | None, typer.Option("--position", "-p", help="Map and roster (default: the current game).")] = None,
    game: Annotated[Path | None, typer.Option("--game", help="A game file.", metavar="PATH")] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Where to write it (default: next to the game's file, which then uses it).",
                                                metavar="FILE")] = None,
    calib: CalibOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Photograph the empty map once: later photos of this game are compared with it, square by square."""
    from ..photo import NoGridError, load_image, reference_grid, reference_lens_note  # start-up time: numpy, OpenCV, photo package (~0.1 CPU-s): not at --help
    from ..photo.reference import (  # start-up time: loaded with the photo package
        figures_seen_warning,
        make_reference,
        reference_path,
        save_reference,
    )
    from .common import load as _load  # start-up time: the session (~15 ms CPU) not at photo --help
    from .common import session  # start-up time: the session (~15 ms CPU) not at photo --help

    with edge(json_out, "photo reference"):
        pos = _load(ctx, position, game)
        check_photo(pos)
        if output is None:
            if position is not None:
                raise AssistantError(_("a reference for a position file needs --output FILE (only a game keeps its own)"))
            output = reference_path(session(ctx).game_path(game))
        _not_a_photo_read([output], [image])
        img = load_image(image)
        cam = camera(calib)
        if cam is not None:
            img = cv2_undistort(img, cam)
        try:
            grid, markers, by_lines = reference_grid(img, pos, str(image))  # a lines grid straightened by the lens's bend (R258)
        except NoGridError as exc:
            raise AssistantError(str(exc)) from None
        ref = make_reference(img, grid, pos.map.cols, pos.map.rows, image.name)
        save_reference(ref, output)
        how = _("from the printed lines (no corner markers): check that the map lies the way the game's map does") if by_lines else _("from the corner markers")
        warnings = figures_seen_warning([m.id for m in markers])  # said as the web app says it
        lens_said = reference_lens_note(grid, by_lines)  # the lens's bend the grid was found under (R257, R280)
        notes = warnings + ([lens_said] if lens_said else [])
        if json_out:
            emit_json({"query": "photo reference", "image": str(image), "output": str(output), "cols": ref.cols, "rows": ref.rows,
                       "taken": ref.taken, "grid": "lines" if by_lines else "markers", "notes": notes})
            return
        for warning in warnings:
            err.print(f"[yellow]{escape(_('warning'))}:[/] {escape(warning)}")
        out.print(escape(_("wrote {output}: the empty {cols} x {rows} map from {image}, grid {how}; later photos of this game are compared with it").format(
            output=output, cols=ref.cols, rows=ref.rows, image=image, how=how)))
        if lens_said:
            out.print(escape(lens_said))


@app.command("apply")
def apply_cmd(
    ctx: typer.Context,
    image: Annotated[Path, typer.Argument(help="The photo.")],
    game: Annotated[Path | None, typer.Option("--game", help="A game file (default: the current game).", metavar="PATH")] = None,
    min_confidence: Annotated[float, typer.Option("--min-confidence", help="Apply only detections at least this sure.")] = 0.8,
    calib: CalibOpt = None,
    reference: RefOpt = None,
) -> None:
    """Update the game to where the photo shows the figures (logged as corrections, with undo)."""
    from ..photo import detect, load_image  # start-up time: numpy, OpenCV, the photo package (~0.1 CPU-s) not at photo --help
    from ..photo.compare import compare  # start-up time: loaded with the photo package
    from .common import open_game  # start-up time: the session (~15 ms CPU) not at photo --help

    with edge():
        g = open_game(ctx, game)
        try:
            pos = g.state().position
            ref = _reference(ctx, reference, pos, None, game)
            res = detect(load_image(image), pos, str(image), camera(calib), None, ref)
            # the moves are recorded together, all or none, checked in one write transaction
            # (Game.do_all): lines in the order found, each applied one filled in once recorded
            lines: list[str | None] = []
            moves: list[tuple[Any, str]] = []
            for r in compare(pos, res, sure=min_confidence).of("moved", "uncertain"):
                if r.photo == r.game:  # unsure of a figure where the game has it: nothing to move ('photo check' lists it)
                    continue
                at = r.photo.name if r.photo else ""
                if r.verdict == "uncertain":
                    label = escape(_("not applied"))
                    why = (
                        _("{figure} on {at} (confidence {confidence} < {least})")
                        if (r.confidence or 0.0) < min_confidence
                        else _("{figure} on {at} (the photo doubts that square: confirm it, then move the figure)")
                    )
                    lines.append(
                        f"  [yellow]{label}[/]: " + escape(why.format(figure=r.figure, at=at, confidence=decimal(r.confidence or 0.0, ".2f"),
                                                                      least=decimal(min_confidence)))
                    )
                    continue
                lines.append(None)
                moves.append((r, at))
            events = g.do_all("relocate", [{"figure": r.figure, "at": at, "source": f"photo {image.name}", "confidence": r.confidence}
                                           for r, at in moves]) if moves else []
            done = iter(zip(moves, events, strict=True))
            for line in lines:
                if line is None:
                    (r, at), ev = next(done)
                    line = f"[green]#{ev.seq}[/] {r.figure}: {r.game} -> {at} " + escape(_("(from the photo)"))
                out.print(line)
            changed = len(events)
            out.print(
                escape(
                    n_("{n} figure updated; 'game undo' takes a correction back", "{n} figures updated; 'game undo' takes a correction back", changed).format(
                        n=changed
                    )
                )
            )
        finally:
            g.close()


@app.command("batch")
def batch_cmd(
    ctx: typer.Context,
    images: Annotated[list[Path], typer.Argument(help="Photos to read.")],
    position: Annotated[str | None, typer.Option("--position", "-p", help="Map and roster (default: the current game).")] = None,
    output: Annotated[Path, typer.Option("--output", "-o", help="One JSON answer per line (JSON Lines).")] = Path("photos.jsonl"),
    calib: CalibOpt = None,
    reference: RefOpt = None,
) -> None:
    """Read many photos, with a progress bar; a photo without a board is recorded as such."""
    from rich.progress import Progress  # start-up time: Rich's progress bar (~10 ms CPU) only for a folder of photos

    from ..photo import NoGridError, detect, load_image  # start-up time: numpy, OpenCV, the photo package (~0.1 CPU-s) not at photo --help
    from .common import load as _load  # start-up time: the session (~15 ms CPU) not at photo --help

    with edge():
        pos = _load(ctx, position)
        check_photo(pos)
        _not_a_photo_read([output], images)
        check_output_path(output)  # refused before every photo is read
        cam = camera(calib)
        ref = _reference(ctx, reference, pos, position)
        lines, unreadable = [], []
        with Progress(console=err, transient=True) as progress:
            task = progress.add_task("reading photos", total=len(images))
            for path in images:
                try:
                    img = load_image(path)
                except AssistantError as exc:  # one file that is no photo (a HEIC, a text file) is recorded; the others are read
                    lines.append(json.dumps({"query": "photo", "image": str(path), "error": str(exc)}))
                    unreadable.append(str(path))
                    progress.advance(task)
                    continue
                try:
                    lines.append(json.dumps(detect(img, pos, str(path), cam, None, ref).as_json()))
                except NoGridError as exc:
                    lines.append(json.dumps({"query": "photo", "image": str(path), "grid_found": False, "error": str(exc)}))
                progress.advance(task)
        write_text_atomic(output, "\n".join(lines) + "\n")
        err.print(_("wrote {output}: {n} photos").format(output=escape(str(output)), n=len(lines)))
        if unreadable:
            err.print(f"[yellow]{escape(_('warning'))}:[/] "
                      + escape(n_("{n} file could not be read as a photo and is recorded with its error: {names}",
                                   "{n} files could not be read as photos and are recorded with their error: {names}", len(unreadable)).format(
                          n=len(unreadable), names=", ".join(unreadable))))
