"""Read an independent bench folder's photos again with this checkout's `photo detect`, in process.

    python bench/photo_rescore.py /tmp/indep [s0342 s0343 ...]

`bench/independent.py` renders scenes (photo, empty-map photo, truth, record out of date) and runs
the command line on them; this script reads the photos it left again -- no rendering, no process
start -- and scores the answers exactly as `bench/independent.py` does (`score_detect`), without
and with the empty-map reference (`sNNNN.ref.npz`, where it was made). So a change to the
pipeline is measured before and after on the same photos: run it with `PYTHONPATH` at each
checkout (``--remake-references``: each reference made again from the folder's empty photo with
this checkout's code, as ``photo reference`` makes it; the folder's were made by the code of the
round that rendered it, which refused some empty maps found now). It prints, a photo and in total: squares wrong (false occupied / missed / misnamed),
boards fully right, right after confirming the listed squares, moved figures silently at their
old square, squares listed a board, CPU seconds of `detect` a photo; and the answer's confidence
against how often it was right (figures named by the roster, by marker; the listed squares).

Held-out discipline (issue 28): the independent seeds 751-764 are the merger's final measurement
-- never render or read them here; 341-734 are for diagnosis (371-382, 383-394, 395-406, 407-418, 419-430, 431-442, 443-454,
455-466, 467-478, 479-490, 491-502, 503-514, 515-526, 527-538, 539-550, 551-562, 563-574, 575-586, 587-598, 599-610, 611-622,
623-634, 635-646, 647-658, 659-670, 671-682, 683-694 and 721-732 were the fifth to thirty-second rounds' final measurements,
read once before they became diagnosis seeds).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
import independent as ind  # the black-box bench's scoring, beside this script

from assistant.errors import AssistantError
from assistant.model import Position
from assistant.photo import NoGridError, detect, load_image, reference_grid
from assistant.photo.reference import Reference, load_reference, make_reference
from assistant.position.load import load_position

HELD_OUT = range(751, 765)
MODES = ("noref", "ref")
BINS = ((0.0, 0.5), (0.5, 0.8), (0.8, 0.95), (0.95, 1.01))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", type=Path, help="a bench/independent.py output folder")
    ap.add_argument("scenes", nargs="*", help="only these scenes (sNNNN)")
    ap.add_argument("--remake-references", action="store_true",
                    help="make each scene's reference again from its empty photo (sNNNN.empty.jpg) with this checkout's code, as "
                         "`photo reference` does, in memory (nothing written): the folder's sNNNN.ref.npz were made by the code of "
                         "the round that rendered it, and a reference it refused then may be made now")
    a = ap.parse_args(argv)
    tot = {m: dict.fromkeys(("squares", "wrong", "fo", "mi", "mn", "boards", "after", "answered", "silent", "listed", "grid_wrong"), 0) for m in MODES}
    cpu = dict.fromkeys(MODES, 0.0)
    calib: dict[str, list[tuple[float, bool, str]]] = {m: [] for m in MODES}
    for jpg in sorted(a.folder.glob("s????.jpg")):
        st = jpg.stem
        if int(st[1:]) in HELD_OUT:
            print(f"{st}: held out (seeds 751-764), not read", file=sys.stderr)
            continue
        if (a.scenes and st not in a.scenes) or not (a.folder / f"{st}.truth.yaml").exists():
            continue
        truth = yaml.safe_load((a.folder / f"{st}.truth.yaml").read_text())
        record = yaml.safe_load((a.folder / f"{st}.record.yaml").read_text())
        pos = load_position(a.folder / f"{st}.record.yaml")
        img = load_image(jpg)
        true_at = {f["id"]: f["at"] for f in truth["figures"]}
        # the renderer's scene again from its seed (cheap: no drawing), to measure each answer's grid
        scene = ind.render.make_scene(int(st[1:]), img.shape[1])
        for m in MODES:
            ref = None
            no_ref = ""  # why the ref mode has no reference, said with its refusal
            if m == "ref":
                try:
                    ref = _remade_reference(a.folder / f"{st}.empty.jpg", pos) if a.remake_references else load_reference(a.folder / f"{st}.ref.npz")
                except (AssistantError, NoGridError) as exc:
                    ref = None  # no reference made (its empty map refused): answered without, as the CLI bench does
                    no_ref = "its empty map refused" if isinstance(exc, NoGridError) or a.remake_references else "no reference file"
            c0 = time.process_time()
            js: dict[str, Any]
            try:
                js, rc = detect(img, pos, st, reference=ref).as_json(), 0
            except NoGridError as exc:
                js, rc = {"error": str(exc)}, 2
            spent = time.process_time() - c0
            d = ind.score_detect(js, rc, truth, record)
            grid_off = ind.answer_grid_error(js, scene)
            if not d["answered"]:
                # why, shortened (the refusal's first clause, and in the ref mode whether a reference
                # was there to register the photo on, reading R283); "sNNNN mode: refused" stays first
                error = str(js.get("error", ""))
                why = error.split(": ", 1)[-1].split(" (")[0].split(";")[0][:100]
                art = error.split("reference's art gave no grid either: ", 1)
                why += f"; the reference's art: {art[1].split(')')[0]}" if len(art) == 2 else ""
                print(f"{st} {m}: refused" + (f" (no reference: {no_ref})" if no_ref else "") + (f" [{why}]" if why else ""))
                continue
            t = tot[m]
            t["answered"] += 1
            t["squares"] += truth["map"]["cols"] * truth["map"]["rows"]
            t["wrong"] += d["wrong"]
            t["fo"] += d["false_occ"]
            t["mi"] += d["missed"]
            t["mn"] += d["misnamed"]
            t["boards"] += d["wrong"] == 0
            t["grid_wrong"] += (grid_off or 0.0) > ind.WRONG_GRID
            listed = {tuple(x) for x in d["listed"]}
            t["after"] += all(tuple(w) in listed for w in d["wrong_squares"])
            t["silent"] += d["moved_silent"]
            t["listed"] += len(d["listed"]) + d.get("more_uncertain", 0)
            cpu[m] += spent
            for f in js["figures"]:
                calib[m].append((f["confidence"], f["at"] == true_at.get(f["id"]), "figures named by " + f["by"]))
            wrong = {tuple(w) for w in d["wrong_squares"]}
            for u in js.get("uncertain", []):
                calib[m].append((u["confidence"], ind.parse_sq(u["square"]) not in wrong, "listed squares"))
            names = [ind.render.sq(c, r) for c, r in d["wrong_squares"]]
            print(f"{st} {m}: wrong {d['wrong']} (false occupied {d['false_occ']}, missed {d['missed']}, misnamed {d['misnamed']}) {names} "
                  f"listed {len(d['listed'])}+{d.get('more_uncertain', 0)} silent {d['moved_silent']} cpu {spent:.2f} grid {grid_off}"
                  + (" WRONG GRID" if (grid_off or 0.0) > ind.WRONG_GRID else ""), flush=True)
    for m in MODES:
        t, n = tot[m], max(1, tot[m]["answered"])
        print(f"{'without' if m == 'noref' else 'with'} the reference: {t['answered']} answered; squares wrong {t['wrong']} of {t['squares']} "
              f"({100 * t['wrong'] / max(1, t['squares']):.2f} %: false occupied {t['fo']}, missed {t['mi']}, misnamed {t['mn']}); boards right "
              f"{t['boards']}, after confirming {t['after']}; moved figures silently at their old square {t['silent']}; wrong grid {t['grid_wrong']}; "
              f"squares listed a board "
              f"{t['listed'] / n:.1f}; detect {cpu[m] / n:.2f} CPU-s a photo")
        for kind in ("figures named by roster", "figures named by marker", "listed squares"):
            rows = [(c, ok) for c, ok, k in calib[m] if k == kind]
            parts = []
            for lo, hi in BINS:
                b = [(c, ok) for c, ok in rows if lo <= c < hi]
                if b:
                    parts.append(f"[{lo:g}, {min(hi, 1):g}): {len(b)}, right {np.mean([ok for _c, ok in b]):.2f}, said {np.mean([c for c, _ok in b]):.2f}")
            print(f"  confidence, {kind}: " + ("; ".join(parts) or "none"))
    return 0


def _remade_reference(empty: Path, pos: Position) -> Reference:
    """The reference ``photo reference`` makes of the empty photo with this checkout's code
    (:class:`NoGridError` where its grid is not found)."""
    image = load_image(empty)
    grid, _markers, _by_lines = reference_grid(image, pos, str(empty))
    return make_reference(image, grid, pos.map.cols, pos.map.rows, empty.name)


if __name__ == "__main__":
    raise SystemExit(main())
