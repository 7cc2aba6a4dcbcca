"""Read independent bench folders' EMPTY-map photos again with this checkout's `map from-photo`, in process.

    python bench/terrain_rescore.py /work/heldout13fin2 /work/diag9 [--scenes s0473 s0474 ...]

The terrain counterpart of `bench/photo_rescore.py`: `bench/independent.py` renders scenes and
runs the command line on them (`map from-photo sNNNN.empty.jpg --cols C --rows R`); this script
reads the empty photos it left again -- no rendering, no process start -- through the function
the command calls (:func:`assistant.photo.terrain.read_map_photo`, then the position file's
``map:`` section, :func:`assistant.photo.mapread.as_map_yaml`), given only what the command is
given: the photo and the map's size (from the game's record, as the judge knows it). The truth
is read only to score, with `bench/independent.py`'s own `score_terrain`. So a change to the map
reading is measured before and after on the same photos: run it with `PYTHONPATH` at each
checkout. It prints, a map and in total: squares wrong by true kind, the confusions (true ->
read), precision and recall per kind (wall and door edges too; as answered, and after the judge's
one look at each open map's telling square and ``--turn`` as it says, R264), refusals, what it lists
to confirm (its entries, one an area or edge, and the squares and edges in them; how many of the
wrong squares are among them, and among each map's first FIRST entries), and CPU seconds a map.

Held-out discipline (issue 28): the independent seeds 751-764 are the merger's final measurement
-- never read here; 341-734 are for diagnosis.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
import independent as ind  # the black-box bench's scoring, beside this script

from assistant.coords import Square, parse_square
from assistant.model import Map
from assistant.photo import load_image
from assistant.photo.lines import turned_board
from assistant.photo.mapread import as_map_yaml, to_confirm
from assistant.photo.terrain import read_map_photo
from assistant.position import load_position

HELD_OUT = range(751, 765)
#: the entries of a map's list to confirm a judge is sure to look at (issue 28 item 5: a handful)
FIRST = 5
EDGE_KINDS = ("edge wall", "edge door")


def read_one(empty: Path, cols: int, rows: int, known: Map | None = None, turn: int = 0) -> tuple[dict[str, Any], int, list[list[str]]]:
    """What `map from-photo EMPTY --cols C --rows R [--turn T] --json` answers (its ``map``, how its grid was
    found and how many ways round it leaves open, and exit code), and what it lists to confirm:
    its entries in its order (least sure first, R207), each the squares or edge it names;
    ``known``: the map named with ``--position`` (reading R116). Where it leaves the way round
    open, ``telling``: the square it lists to tell it (R136), and what each ``--turn`` would read
    there (by degrees; 0: the answer as it is)."""
    got = read_map_photo(load_image(empty), cols, rows, turn=turn, known=known)
    if got is None:
        return {"error": "no grid found"}, 2, []
    js: dict[str, Any] = {"map": as_map_yaml(got.reading, cols, rows), "grid_from": got.how, "ways_round_left_open": got.grid.ways,
                          "oriented_by": got.grid.oriented_by}
    if got.telling is not None:
        js["telling"] = (got.telling, telling_kinds(got.reading, got.telling, cols, rows, got.grid.ways))
    return js, 0, [names for _where, _why, names in to_confirm(got.reading, got.telling)]


def telling_kinds(reading: Any, where: str, cols: int, rows: int, ways: int) -> dict[int, str]:
    """What the answer reads at square ``where`` as it is (0) and with each ``--turn`` it leaves
    open (as :func:`assistant.photo.terrain.telling_square` names them in its note)."""
    sq = parse_square(where)
    out = {0: reading.squares.get(where, "open")}
    for t in ([180] if ways == 2 else [90, 180, 270]):
        x, y, w = np.linalg.inv(turned_board(t, cols, rows)) @ np.array([sq.col + 0.5, sq.row + 0.5, 1.0])
        out[t] = reading.squares.get(Square(int(np.floor(x / w)), int(np.floor(y / w))).name, "open")
    return out


def judges_turn(js: dict[str, Any], truth: dict[str, Any]) -> int | None:
    """The turn a judge who follows the answer takes: one look at its telling square on the map
    (the truth there) and ``--turn`` as its note says (0: the answer stands). None where the
    square's true kind is none the note names (the judge is left without a turn to take), or the
    answer names no square though it leaves the way round open."""
    if "telling" not in js:
        return 0 if int(js.get("ways_round_left_open", 1)) == 1 else None
    where, kinds = js["telling"]
    t_sq, _te = ind.terrain_grid(truth["map"])
    sq = parse_square(where)
    seen = t_sq.get((sq.col, sq.row), "open")
    return next((t for t, k in kinds.items() if k == seen), None)


def turns(cols: int, rows: int, ways: int) -> list[Any]:
    """The readings of squares (column, row) that an answer leaving ``ways`` ways round open may
    mean: itself, turned half round, and (a square map, 4 ways) a quarter turn either way."""
    out: list[Any] = [lambda c, r: (c, r)]
    if ways >= 2:
        out.append(lambda c, r: (cols - 1 - c, rows - 1 - r))
    if ways >= 4 and cols == rows:
        out += [lambda c, r: (r, cols - 1 - c), lambda c, r: (cols - 1 - r, c)]
    return out


def wrong_once_turned(js: dict[str, Any], truth: dict[str, Any]) -> int:
    """Squares wrong once the judge has checked one square and turned the answer as it asks (the
    fewest over the ways round it says are open; the answer as it is where it claims one)."""
    t_sq, _te = ind.terrain_grid(truth["map"])
    a_sq, _ae = ind.terrain_grid(js["map"])
    cols, rows = truth["map"]["cols"], truth["map"]["rows"]
    return min(sum(t_sq.get((c, r), "open") != a_sq.get(f(c, r), "open") for r in range(rows) for c in range(cols))
               for f in turns(cols, rows, int(js.get("ways_round_left_open", 1))))


def wrong_squares(js: dict[str, Any], truth: dict[str, Any]) -> list[str]:
    """The squares whose kind the answer reads otherwise than the truth, named as on the map."""
    t_sq, _te = ind.terrain_grid(truth["map"])
    a_sq, _ae = ind.terrain_grid(js["map"])
    cols, rows = truth["map"]["cols"], truth["map"]["rows"]
    return [ind.render.sq(c, r) for r in range(rows) for c in range(cols)
            if t_sq.get((c, r), "open") != a_sq.get((c, r), "open")]


def turned_note(turned: bool, ways: int, after_turn: int) -> str:
    """How a map's answer stands on which way round: claimed or left open (and said), and turned or not."""
    if ways > 1:
        return f"; ways round left open {ways} (said){', TURNED' if turned else ''}: wrong once turned {after_turn}"
    return "; TURNED SILENTLY" if turned else ""


def precision_recall(tp: Counter[str], fp: Counter[str], fn: Counter[str], kind: str) -> str:
    p = tp[kind] / (tp[kind] + fp[kind]) if tp[kind] + fp[kind] else float("nan")
    r = tp[kind] / (tp[kind] + fn[kind]) if tp[kind] + fn[kind] else float("nan")
    return f"{kind:10s} precision {p:.2f} recall {r:.2f} (true {tp[kind] + fn[kind]}, read {tp[kind] + fp[kind]})"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folders", type=Path, nargs="+", help="bench/independent.py output folders")
    ap.add_argument("--scenes", nargs="*", default=[], help="only these scenes (sNNNN)")
    ap.add_argument("--position-from-record", action="store_true",
                    help="name the record's map as `map from-photo --position` does (its terrain orients a markerless grid, R116); "
                         "the bench's record holds the true terrain, so this measures the orientation, not the reading")
    a = ap.parse_args(argv)
    wanted = set(a.scenes)
    folders = list(a.folders)
    by_kind: Counter[str] = Counter()
    confusion: Counter[str] = Counter()
    tp: Counter[str] = Counter()
    fp: Counter[str] = Counter()
    fn: Counter[str] = Counter()
    # the same, as the judge who follows each open answer gets it: after the one look and --turn (R264)
    look_tp: Counter[str] = Counter()
    look_fp: Counter[str] = Counter()
    look_fn: Counter[str] = Counter()
    counts = {"maps": 0, "answered": 0, "wrong": 0, "squares": 0, "art_wrong": 0, "art_squares": 0, "listed": 0,
              "wrong_listed": 0, "listed_names": 0, "wrong_first": 0, "turned": 0, "perfect": 0, "open_ways": 0, "silently_turned": 0, "wrong_once_turned": 0,
              "after_look": 0, "art_after_look": 0, "stuck": 0}
    refused: list[str] = []
    cpu = 0.0
    for folder in folders:
        floors = {r["scene"]: r.get("floor", "?") for r in (json.loads((folder / "results.json").read_text())
                                                             if (folder / "results.json").exists() else [])}
        for empty in sorted(folder.glob("s????.empty.jpg")):
            st = empty.name[:5]
            if int(st[1:]) in HELD_OUT:
                print(f"{st}: held out (seeds 751-764), not read", file=sys.stderr)
                continue
            if (wanted and st not in wanted) or not (folder / f"{st}.truth.yaml").exists():
                continue
            record = yaml.safe_load((folder / f"{st}.record.yaml").read_text())
            cols, rows = record["map"]["cols"], record["map"]["rows"]  # what the judge gives the command
            c0 = time.process_time()
            known = load_position(folder / f"{st}.record.yaml").map if a.position_from_record else None
            js, rc, unsure = read_one(empty, cols, rows, known)
            spent = time.process_time() - c0
            cpu += spent
            counts["maps"] += 1
            truth = yaml.safe_load((folder / f"{st}.truth.yaml").read_text())  # read only to score
            t = ind.score_terrain(js, rc, truth)
            if not t["answered"]:
                refused.append(st)
                print(f"{st}: REFUSED ({js['error']}) cpu {spent:.2f}", flush=True)
                continue
            counts["answered"] += 1
            counts["wrong"] += t["wrong"]
            counts["squares"] += t["squares"]
            counts["perfect"] += t["wrong"] == 0
            counts["turned"] += bool(t["turned"])
            ways = int(js.get("ways_round_left_open", 1))
            counts["open_ways"] += ways > 1
            counts["silently_turned"] += bool(t["turned"]) and ways == 1
            after_turn = wrong_once_turned(js, truth)
            counts["wrong_once_turned"] += after_turn
            # the judge who follows the answer: one look at its telling square, and --turn as it says (R264)
            look = judges_turn(js, truth)
            after_look, look_note, looked = t["wrong"], "", t
            if ways > 1:
                if look is None:
                    counts["stuck"] += 1
                    look_note = f"; judge's look at {js.get('telling', ('none',))[0]}: NO TURN FITS, answer kept"
                else:
                    if look:
                        again, _rc, _u = read_one(empty, cols, rows, turn=look)
                        looked = ind.score_terrain(again, 0, truth)
                        after_look = looked["wrong"]
                    look_note = f"; judge's look at {js['telling'][0]}: --turn {look}, wrong {after_look}"
            counts["after_look"] += after_look
            if floors.get(st, "art") != "plain":
                counts["art_wrong"] += t["wrong"]
                counts["art_squares"] += t["squares"]
                counts["art_after_look"] += after_look
            by_kind.update(t["by_kind"])
            confusion.update(t["confusion"])
            tp.update(t["tp"])
            fp.update(t["fp"])
            fn.update(t["fn"])
            look_tp.update(looked["tp"])
            look_fp.update(looked["fp"])
            look_fn.update(looked["fn"])
            wrong = wrong_squares(js, truth)
            listed = {u.split(".")[0] for names in unsure for u in names}
            first = {u.split(".")[0] for names in unsure[:FIRST] for u in names}
            counts["listed"] += len(unsure)
            counts["listed_names"] += sum(map(len, unsure))
            counts["wrong_listed"] += sum(w in listed for w in wrong)
            counts["wrong_first"] += sum(w in first for w in wrong)
            edges_wrong = sum(t["fp"][k] + t["fn"][k] for k in EDGE_KINDS)
            print(f"{st} {floors.get(st, '?')} ({cols}x{rows}, grid from {js['grid_from']}): wrong {t['wrong']} {dict(t['confusion'])} {wrong[:12]}"
                  f"{' ...' if len(wrong) > 12 else ''}; edges wrong {edges_wrong}; listed {len(unsure)} "
                  f"({sum(map(len, unsure))} squares or edges; {sum(w in listed for w in wrong)} of the wrong, "
                  f"{sum(w in first for w in wrong)} in the first {FIRST}){turned_note(bool(t['turned']), ways, after_turn)}{look_note}; cpu {spent:.2f}",
                  flush=True)
    n = max(1, counts["maps"])
    print(f"maps {counts['maps']}, answered {counts['answered']}, refused {len(refused)} {refused}; "
          f"squares wrong {counts['wrong']} of {counts['squares']} ({100 * counts['wrong'] / max(1, counts['squares']):.2f} %); "
          f"(printed art {100 * counts['art_wrong'] / max(1, counts['art_squares']):.2f} %: {counts['art_wrong']} of "
          f"{counts['art_squares']}); maps fully right {counts['perfect']}; read better turned or mirrored {counts['turned']}")
    print(f"which way round: left open and said so on {counts['open_ways']} maps; TURNED SILENTLY (claimed, read better "
          f"turned) {counts['silently_turned']}; squares wrong once the judge turns each open one as its answer asks "
          f"{counts['wrong_once_turned']} of {counts['squares']}")
    print(f"after the judge's one look at each open map's telling square and --turn as it says (R264): squares wrong "
          f"{counts['after_look']} of {counts['squares']} ({100 * counts['after_look'] / max(1, counts['squares']):.2f} %; printed art "
          f"{100 * counts['art_after_look'] / max(1, counts['art_squares']):.2f} %: {counts['art_after_look']} of {counts['art_squares']}); "
          f"maps where no turn fits the square's true kind {counts['stuck']}")
    print(f"wrong squares by true kind: {dict(by_kind)}; confusions (true->read): {dict(confusion.most_common())}")
    for k in (*ind.KINDS, *EDGE_KINDS):
        print("  " + precision_recall(tp, fp, fn, k))
    # an open answer's walls and doors scored as the judge gets them: the turned map's edges are
    # its squares' (R264); as answered they count every edge of a map read upside down wrong twice
    for k in (*ind.KINDS, *EDGE_KINDS):
        print("  after the judge's look (R264): " + precision_recall(look_tp, look_fp, look_fn, k))
    print(f"listed to confirm {counts['listed']} ({counts['listed'] / n:.1f} a map; {counts['listed_names']} squares or edges), "
          f"of the wrong squares among them {counts['wrong_listed']} of {counts['wrong']}, in each map's first {FIRST} "
          f"{counts['wrong_first']}; CPU {cpu / n:.2f} s a map")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
