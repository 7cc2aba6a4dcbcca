"""Census of the Medium figures named onto a square that holds no base (reading R191).

    python bench/photo_body_census.py d341:s0346:ref d461:s0489:noref ...

For each scene (folder under /work/diag19 or a path, scene, mode) it runs `photo detect` in
process (without or with the folder's empty-map reference, as bench/photo_rescore.py does) and,
for each Medium figure named off its true square onto a square no figure's base covers, prints
the base nearest that square (whose, found how), the offset from it, how far along the direction
away from the camera (``along``) and across it, that base square's ``lean``, and the squares'
readings and rims: a square behind a found base, within its lean, is that figure's body seen over
the map. Held-out seeds (751-764) are refused.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
import independent as ind  # the black-box bench's scoring, beside this script

from assistant.photo import detect, load_image, squares
from assistant.photo.reference import load_reference
from assistant.position.load import load_position

HELD_OUT = range(751, 765)
seen: dict[str, Any] = {}
_place = squares.place


def _spy(*args: Any, **kwargs: Any) -> Any:
    """`place`, keeping what it was given: the readings, the camera's directions and lean."""
    seen.update(scores=args[1], away=args[7] if len(args) > 7 else None, rims=args[8] if len(args) > 8 else None,
                lean=args[12] if len(args) > 12 else None)
    return _place(*args, **kwargs)


def main(argv: list[str]) -> int:
    squares.place = _spy  # type: ignore[assignment]
    for arg in argv:
        folder, scene, mode = arg.split(":")
        if int(scene[1:]) in HELD_OUT:
            print(f"{scene}: held out (seeds 751-764), not read", file=sys.stderr)
            continue
        fd = Path(folder) if "/" in folder else Path("/work/diag19") / folder
        truth = yaml.safe_load((fd / f"{scene}.truth.yaml").read_text())
        record = yaml.safe_load((fd / f"{scene}.record.yaml").read_text())
        ref_file = fd / f"{scene}.ref.npz"
        ref = load_reference(ref_file) if mode == "ref" and ref_file.exists() else None
        seen.clear()
        js = detect(load_image(fd / f"{scene}.jpg"), load_position(fd / f"{scene}.record.yaml"), scene, reference=ref).as_json()
        d = ind.score_detect(js, 0, truth, record)
        print(f"== {scene} {mode} wrong {d['wrong']} fo/mi/mn {d['false_occ']}/{d['missed']}/{d['misnamed']}")
        size = {f["id"]: f.get("size") for f in truth["figures"]}
        true_at = {f["id"]: f["at"] for f in truth["figures"]}
        named = {f["id"]: (f["at"], f["by"]) for f in js["figures"]}
        scores, away, rims, lean = seen.get("scores") or {}, seen.get("away") or {}, seen.get("rims") or {}, seen.get("lean") or {}
        bases: dict[tuple[int, int], str] = {}
        for f in truth["figures"]:
            c0, r0 = ind.parse_sq(f["at"])
            n = 2 if f.get("size") == "large" else 1
            bases.update({(c0 + dc, r0 + dr): f["id"] for dc in range(n) for dr in range(n)})
        for fid, (at, _by) in named.items():
            if size.get(fid) != "medium" or at == true_at.get(fid) or ind.parse_sq(at) in bases:
                continue
            ac, ar = ind.parse_sq(at)
            near = min(bases, key=lambda q: max(abs(q[0] - ac), abs(q[1] - ar)))
            g, name = bases[near], ind.render.sq(*near)
            off = (ac - near[0], ar - near[1])
            a = away.get(name, (0.0, 0.0))
            along, across = off[0] * a[0] + off[1] * a[1], off[0] * a[1] - off[1] * a[0]
            how = "itself" if g == fid else f"{size[g]}, by {named.get(g, ('', 'not seen'))[1]}"
            print(f"  {fid} named on {at}: nearest base {g} ({how}) at {name}, off {off}, along {along:.2f}, across {across:.2f}, "
                  f"lean {lean.get(name, -1.0):.2f}; read {scores.get(at, -1.0):.2f}, rim {rims.get(at, -1.0):.2f} | "
                  f"its base {true_at[fid]} read {scores.get(true_at[fid], -1.0):.2f}, rim {rims.get(true_at[fid], -1.0):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
