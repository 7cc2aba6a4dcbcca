"""Record what `photo detect` hands the placement on diagnosis photos, then replay it with this checkout.

    python bench/photo_place_replay.py record /work/diag19/d341 /work/diag19/d353 ... --to /tmp/place
    python bench/photo_place_replay.py replay /tmp/place
    python bench/photo_place_replay.py large /tmp/place

``record`` reads each scene's photo without and with its reference (as `bench/photo_rescore.py`
does) and keeps the arguments `placement.place` was called with, and its answer, one file a
scene-mode (Python pickles: load only files you recorded). ``replay`` calls this checkout's
`placement.place` on each recorded input and prints every scene-mode whose answer changed: the
figures named on a square other than their true one before and after, and the figures moved. A
change to the placement alone (the grid, the squares' readings, the rims and the markers are
upstream of it and unchanged) is so measured on every diagnosis scene in seconds, after one
recording; a scene it changed is then read again end to end with `bench/photo_rescore.py`.
``large`` lists, for each Large figure no base marker named, its true block and the block it was
named on: the squares' P(a base), the Large rim round the block's centre against the map's own
(`placement._art_rim`), how many cores show the plastic's grey (`placement._grey_cores`), and the
clearest smaller rim in the block -- the signs the Large steps weigh (readings R86-R279).

The truth is read only to score, never handed to the placement. Held-out discipline (issue 28):
the independent seeds 751-764 are never read here.
"""

from __future__ import annotations

import argparse
import pickle
import sys
from pathlib import Path
from typing import Any

import yaml

from assistant.coords import Square
from assistant.photo import NoGridError, detect, load_image, squares
from assistant.photo import placement as P
from assistant.photo.reference import load_reference
from assistant.position.load import load_position

HELD_OUT = range(751, 765)
MODES = ("noref", "ref")
#: place()'s arguments after the position, in order (its signature)
ARGS = ("scores", "by_marker", "nowhere", "no_rim", "large_rims", "second_look", "away", "rims", "stickers", "sticker_names",
        "plastic", "lean", "settled_markers", "intact", "sticker_patterns", "bare")


def record(folders: list[Path], to: Path) -> int:
    to.mkdir(parents=True, exist_ok=True)
    real = squares.place
    last: dict[str, Any] = {}

    def spy(*a: Any, **k: Any) -> P.Placement:
        out = real(*a, **k)
        last["call"] = (a, k, out)
        return out

    squares.place = spy  # type: ignore[assignment]
    try:
        for folder in folders:
            for jpg in sorted(folder.glob("s????.jpg")):
                st = jpg.stem
                if int(st[1:]) in HELD_OUT or not (folder / f"{st}.truth.yaml").exists():
                    continue
                pos = load_position(folder / f"{st}.record.yaml")
                img = load_image(jpg)
                for m in MODES:
                    ref = None
                    if m == "ref":
                        try:
                            ref = load_reference(folder / f"{st}.ref.npz")
                        except Exception:  # no reference made: answered without, as the bench does
                            ref = None
                    last.clear()
                    try:
                        detect(img, pos, st, reference=ref)
                    except NoGridError:
                        pass  # refused before any placement
                    if "call" in last:
                        a, k, out = last["call"]
                        (to / f"{st}.{m}.pkl").write_bytes(pickle.dumps((str(folder), a, k, out)))
                print(st, flush=True)
    finally:
        squares.place = real
    return 0


def _load(fn: Path) -> tuple[str, tuple[Any, ...], dict[str, Any], P.Placement]:
    folder, a, k, out = pickle.loads(fn.read_bytes())
    return folder, a, k, out


def _truth(folder: str, st: str) -> dict[str, Any]:
    return yaml.safe_load((Path(folder) / f"{st}.truth.yaml").read_text())


def replay(at: Path) -> int:
    changed = 0
    files = sorted(at.glob("s????.*.pkl"))
    for fn in files:
        st, m = fn.name.split(".")[:2]
        folder, a, k, before = _load(fn)
        after = P.place(*a, **k)
        if after == before:
            continue
        changed += 1
        true_at = {f["id"]: f["at"] for f in _truth(folder, st)["figures"]}
        b, n = ({s.id: s.at for s in x.figures} for x in (before, after))
        wrong = [sorted(i for i in true_at if x.get(i) != true_at[i]) for x in (b, n)]
        moved = {i: f"{b.get(i)} -> {n.get(i)} (true {true_at[i]})" for i in true_at if b.get(i) != n.get(i)}
        print(f"{st} {m}: figures wrong {wrong[0]} -> {wrong[1]}; moved {moved}; listed "
              + ("as before" if after.uncertain == before.uncertain else f"{list(before.uncertain)} -> {list(after.uncertain)}"))
    print(f"{changed} of {len(files)} scene-modes answered otherwise")
    return 0


def _block(at: str) -> tuple[str, ...]:
    c, r = P._col_row(at)
    return tuple(Square(c + dc, r + dr).name for dr in (0, 1) for dc in (0, 1))


def _signs(args: dict[str, Any], at: str, grey: float | None) -> str:
    block, large, scores, rims = _block(at), args["large_rims"] or {}, args["scores"], args["rims"] or {}
    read = " ".join(f"{scores.get(s, 0.0):.2f}" for s in block)
    return (f"P {read}, Large rim {large.get(at, 0.0):.3f}, grey cores {P._grey_cores(block, args['plastic'], grey)}, "
            f"smaller rim {max(rims.get(s, 0.0) for s in block):.2f}")


def large(at: Path) -> int:
    for fn in sorted(at.glob("s????.*.pkl")):
        st, m = fn.name.split(".")[:2]
        folder, a, k, out = _load(fn)
        args = dict(zip(ARGS, a[1:], strict=False)) | k
        pos = a[0]
        marked = {s.id for s in args["by_marker"]}
        grey = P._plastic_grey(pos, args["by_marker"], [], args["plastic"]) if args["plastic"] else None
        art = P._art_rim(args["large_rims"]) if args["large_rims"] else 0.0
        named = {s.id: s for s in out.figures}
        for f in _truth(folder, st)["figures"]:
            if f["size"] != "large" or f["id"] in marked:
                continue
            s = named.get(f["id"])
            line = f"{st} {m} {f['id']} {'right' if s and s.at == f['at'] else 'WRONG'}: true {f['at']} ({_signs(args, f['at'], grey)})"
            if s is None:
                line += "; not seen"
            elif s.at != f["at"]:
                line += f"; named {s.at} ({_signs(args, s.at, grey)}, said {s.confidence:.2f})"
            print(line + f"; the map's art rim {art:.3f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    rec = sub.add_parser("record", help="read the folders' photos and keep the placement's inputs")
    rec.add_argument("folders", nargs="+", type=Path, help="bench/independent.py output folders")
    rec.add_argument("--to", type=Path, required=True, help="where to keep them (one file a scene-mode)")
    for name, text in (("replay", "replay them with this checkout's placement"), ("large", "the Large figures' blocks, true and named")):
        sub.add_parser(name, help=text).add_argument("at", type=Path, help="a folder `record` wrote")
    a = ap.parse_args(argv)
    if a.what == "record":
        missing = [str(f) for f in a.folders if not f.is_dir()]
        if missing:
            print(f"error: not a folder: {', '.join(missing)}", file=sys.stderr)
            return 2
        return record(a.folders, a.to)
    if not a.at.is_dir():
        print(f"error: {a.at} is not a folder `record` wrote", file=sys.stderr)
        return 2
    return replay(a.at) if a.what == "replay" else large(a.at)


if __name__ == "__main__":
    raise SystemExit(main())
