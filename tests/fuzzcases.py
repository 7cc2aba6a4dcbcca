"""Generated bad inputs for every way a user can hand the program something: mutated position,
card, table and importer files, random argument vectors, tampered game logs, odd images.

Each case is run in process through the CLI runner. A case passes when it exits 0, 2 (or 3 for
``check``), no traceback and no "internal error" reaches the user, and a ``--json`` call prints
exactly one JSON object (with an ``error`` key when it fails). Used by the in-suite fuzz test
(a few hundred cases) and by ``bench/fuzz.py`` (100,000 and more).
"""

from __future__ import annotations

import json
import math
import os
import random
import re
import shutil
import sqlite3
import struct
import unittest.mock
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import typer.main
import typer.testing
from typer.testing import CliRunner

from assistant.cli.app import app
from assistant.resources import card_table_example, example_files
from assistant.textsafe import shown

ROOT = Path(__file__).resolve().parent.parent


class _Runner(CliRunner):
    """A CLI runner that builds the program's click tree once: built again for every case it took
    about 60% of a case's time (typer reads every command's signature). The tree is what a process
    builds at start; each case still gets its own context, streams and environment."""

    _command: Any = None

    def invoke(self, app: Any, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        if _Runner._command is None:
            _Runner._command = typer.main.get_command(app)
        with unittest.mock.patch.object(typer.testing, "_get_command", lambda _app: _Runner._command):
            return super().invoke(app, *args, **kwargs)


runner = _Runner()

FAMILIES = ("position", "cards", "table", "importer", "argv", "gamelog", "image", "numbers", "paths", "drafter", "calib", "notation")


@dataclass
class Outcome:
    family: str
    args: list[str]
    code: int
    output: str
    problem: str | None  # why the case failed, or None


# --- text mutations ---------------------------------------------------------------------------

HUGE = "9" * 5000
TAGS = ["!!timestamp 2001-12-14t", "!!python/object:os.system x", "!!binary ****", "!!set {a, b}", "!!omap [a: 1]",
        "!!float nanx", "!!int 0x", "!!bool maybe", "!unknown 3"]
ODD = [".inf", "-.inf", ".nan", HUGE, "-" + HUGE, "1e400", "0x" + "f" * 300, "²", "١٢", "null", "~", "''", "[]", "{}", "-1",
       "2147483648", "9223372036854775808", "1.5", "true", "\"\\x00\"", "\"\\ud800\""]


def _deep(n: int, brace: str = "[") -> str:
    return "[" * n + "1" + "]" * n if brace == "[" else "{a: " * n + "1" + "}" * n


def mutate_text(rng: random.Random, text: str) -> bytes:
    """One or a few mutations of a YAML/JSON/tab text, as bytes (some are not UTF-8)."""
    lines = text.splitlines()
    for _ in range(rng.randint(1, 3)):
        m = rng.randrange(16)
        if m == 0 and lines:  # a value replaced by an odd one
            i = rng.randrange(len(lines))
            if ":" in lines[i]:
                k = lines[i].index(":")
                lines[i] = lines[i][: k + 1] + " " + rng.choice(ODD + TAGS)
        elif m == 1 and lines:  # a number made huge or odd
            i = rng.randrange(len(lines))
            lines[i] = "".join(rng.choice(ODD) if ch.isdigit() and rng.random() < 0.3 else ch for ch in lines[i])
        elif m == 2:  # deep nesting
            lines.append(f"deep: {_deep(rng.choice([50, 500, 5000, 50000]), rng.choice('[{'))}")
        elif m == 3 and lines:
            del lines[rng.randrange(len(lines))]
        elif m == 4 and lines:
            i = rng.randrange(len(lines))
            lines.insert(i, lines[i])
        elif m == 5 and lines:  # indentation broken
            i = rng.randrange(len(lines))
            lines[i] = " " * rng.randint(0, 7) + lines[i].lstrip()
        elif m == 6:  # a billion-laughs alias bomb
            lines += ["a: &a [x, x, x, x, x, x, x, x, x]", "b: &b [*a, *a, *a, *a, *a, *a, *a, *a]",
                      "c: &c [*b, *b, *b, *b, *b, *b, *b, *b]", "d: [*c, *c, *c, *c, *c, *c, *c, *c]"]
        elif m == 7 and lines:  # truncation
            lines = lines[: rng.randrange(len(lines))]
        elif m == 8 and lines:  # a tag on a value
            i = rng.randrange(len(lines))
            if ":" in lines[i]:
                k = lines[i].index(":")
                lines[i] = lines[i][: k + 1] + " " + rng.choice(TAGS)
        elif m == 9 and lines:  # a key misspelt
            i = rng.randrange(len(lines))
            lines[i] = lines[i].replace("a", "e", 1)
        elif m == 10 and lines:  # an unclosed bracket or quote
            i = rng.randrange(len(lines))
            lines[i] += rng.choice(["[", "{", "\"", "'", "]"])
        elif m == 11:  # a huge coordinate or size
            lines = [ln.replace("cols: ", f"cols: {rng.choice(['100000', HUGE, '-5', '0', '702'])} #") if rng.random() < 0.5 else ln for ln in lines]
        elif m == 12 and lines:  # a control or odd unicode character
            i = rng.randrange(len(lines))
            lines[i] += rng.choice(["\x01", "\u2028", "\ufeff", "\x85", "\u200b", "\ud7ff"])
        elif m == 13:  # the document is something else entirely
            return rng.choice([b"", b"\x00\x00", b"---\n...\n", b"- 1\n- 2\n", b"just text", b"[1, 2", "\xff\xfe".encode("latin-1"),
                               b"[" * 50_000 + b"]" * 50_000, b'{"a": ' * 20_000 + b"1" + b"}" * 20_000])  # JSON nested past Python's stack
    data = "\n".join(lines).encode("utf-8", "surrogatepass")
    r = rng.random()
    if r < 0.05:  # not UTF-8
        data = data.replace(b"a", b"\xe9", 1)
    elif r < 0.08:
        data = b"\xef\xbb\xbf" + data
    elif r < 0.10:
        data = data + b"\x00"
    return data


# --- the families -------------------------------------------------------------------------------


def _write(work: Path, name: str, data: bytes) -> str:
    p = work / name
    p.write_bytes(data)
    return str(p)


def _position_case(rng: random.Random, work: Path) -> list[str]:
    base = rng.choice(sorted(example_files())).read_text(encoding="utf-8")
    if rng.random() < 0.3:  # the same position as JSON (a YAML reader reads it; the web sends it so)
        import yaml

        base = json.dumps(yaml.safe_load(base), indent=rng.choice([None, 1]), ensure_ascii=rng.random() < 0.5)
    f = _write(work, rng.choice(["pos.yaml", "pos.json"]), mutate_text(rng, base))
    fig = rng.choice(["obi", "dooku", "sbd", "ranger", "ogre", "x", "clone1"])
    fig2 = rng.choice(["obi", "dooku", "sbdc", "mauler", "samurai", "ctc"])
    cmd = rng.choice([
        ["validate", f], ["validate", f, "--json"], ["show", f], ["normalize", f], ["los", fig, fig2, "--position", f, "--json"],
        ["cover", fig, fig2, "--position", f], ["range", fig, fig2, "--position", f, "--json"], ["matrix", "--position", f, "--json"],
        ["nearest", fig, "--position", f], ["attack", fig, fig2, "--position", f, "--json"], ["targets", fig, "--position", f],
        ["game", "new", "--position", f, "--game", str(work / f"g{rng.randrange(10**9)}.sqlite")],
    ])
    return cmd


def _cards_case(rng: random.Random, work: Path) -> list[str]:
    src = rng.choice(sorted((ROOT / "cards").rglob("*.yaml")))
    f = _write(work, "cards.yaml", mutate_text(rng, src.read_text(encoding="utf-8")))
    return rng.choice(
        [
            ["--cards", f, "cards", "validate"],
            ["--cards", f, "cards", "list"],
            ["--cards", f, "validate", "clone-wars-corridor"],
            ["--cards", f, "cards", "show", "Clone Trooper"],
            ["--cards", f, "attack", "sbd", "obi", "--position", "clone-wars-example-combat", "--json"],
        ]
    )


def _table_case(rng: random.Random, work: Path) -> list[str]:
    game = rng.choice(["destiny", "swtcg"])
    if rng.random() < 0.3:
        scen = rng.choice(sorted((ROOT / "tests" / f"golden_{game}").glob("[!_]*.yaml")))
        text = scen.read_text(encoding="utf-8")
        for helper in (ROOT / "tests" / f"golden_{game}").glob("_*.yaml"):
            shutil.copy(helper, work / helper.name)
        f = _write(work, "scen.yaml", mutate_text(rng, text))
        return [game, "scenario", f]
    f = _write(work, "table.yaml", mutate_text(rng, card_table_example(game)))
    g = str(work / f"t{rng.randrange(10**9)}.sqlite")
    return [game, "new", f, "--game", g] + (["--json"] if rng.random() < 0.2 else [])


def _importer_case(rng: random.Random, work: Path) -> list[str]:
    game = rng.choice(["destiny", "swtcg"])
    src = ROOT / "tests" / "fixtures" / ("swdestinydb-sample.json" if game == "destiny" else "lackey-swtcg-sample.txt")
    text = src.read_text(encoding="utf-8")
    if game == "swtcg" and rng.random() < 0.3:  # a column named as Rich markup or with an escape (issue 29)
        head, _nl, rest = text.partition("\n")
        text = head + "\t" + rng.choice(["[/]", "[bold]x", "[red", "[/bold]", "\x1b[2J", "[link=x]y"]) + "\n" + rest
    f = _write(work, "import.dat", mutate_text(rng, text) if rng.random() < 0.7 else text.encode("utf-8"))
    extra = rng.choice([[], ["--json"], ["--entry", "Test Smuggler", "--on", "han"], ["--entry", "Test Walker Group", "--json"]])
    return [game, "import", f, *extra]


VALUES = [
    "0",
    "-1",
    "1",
    "20",
    "21",
    HUGE,
    "-" + HUGE,
    "1e3",
    "abc",
    "",
    " ",
    "²",
    "NaN",
    "inf",
    "A1",
    "Z99",
    "A0",
    "AAAAAA999999",
    "a" * 300,
    "é",
    "\u202e",
    "../../etc/passwd",
    "/proc/self/mem",
    "/dev/null",
    "/",
    "x" * 5000,
    "C8",
    "B2",
    "obi",
    "dooku",
]
COMMANDS = [
    ["los"],
    ["cover"],
    ["range"],
    ["matrix"],
    ["nearest"],
    ["attack"],
    ["targets"],
    ["validate"],
    ["show"],
    ["normalize"],
    ["game", "new"],
    ["game", "status"],
    ["game", "log"],
    ["game", "undo"],
    ["game", "replay"],
    ["game", "export"],
    ["game", "initiative"],
    ["game", "activate"],
    ["game", "move"],
    ["game", "attack"],
    ["game", "damage"],
    ["game", "use"],
    ["game", "snapshot"],
    ["game", "door"],
    ["game", "morale"],
    ["game", "charge"],
    ["game", "aoo"],
    ["photo", "synth"],
    ["photo", "detect"],
    ["photo", "check"],
    ["photo", "adapt"],
    ["map", "from-photo"],
    ["calibrate", "sheet"],
    ["calibrate", "markers"],
    ["cards", "show"],
    ["cards", "new"],
    ["destiny", "new"],
    ["destiny", "do"],
    ["destiny", "check"],
    ["destiny", "status"],
    ["destiny", "replay"],
    ["swtcg", "do"],
    ["swtcg", "status"],
    ["destiny", "import"],
    ["swtcg", "scenario"],
    ["examples"],
    ["abilities"],
    ["schema"],
]
OPTIONS = [
    "--json",
    "--position",
    "--game",
    "--roll",
    "--to",
    "--width",
    "--seed",
    "--format",
    "--output",
    "-o",
    "--png",
    "--get",
    "--calib",
    "--cols",
    "--rows",
    "--rules",
    "--first",
    "--entry",
    "--override",
    "--combined-fire",
    "--melee",
    "--ranged",
    "--moved",
    "--help",
    "--table",
    "--varied",
    "--svg",
]


def _argv_case(rng: random.Random, work: Path) -> list[str]:
    args = list(rng.choice(COMMANDS))
    for _ in range(rng.randint(0, 6)):
        if rng.random() < 0.5:
            args.append(rng.choice(OPTIONS))
        v = rng.choice(VALUES + ["clone-wars-corridor", str(work / "nope.yaml"), str(work), str(work / "out.png")])
        if v in ("/proc/self/mem",) and args[-1] in ("--output", "-o", "--png"):
            v = str(work / "out.png")  # never write into /proc
        args.append(v)
    if args[-1] in ("--output", "-o", "--png", "--game") or (len(args) > 1 and args[-2] in ("--output", "-o", "--png")):
        args.append(str(work / "out.txt"))
    args = [a if not a.startswith("/proc") or "--output" not in args else str(work / "o") for a in args]
    if rng.random() < 0.4 and "--json" not in args:
        args.append("--json")
    return args


# --- tampered game logs ---------------------------------------------------------------------------

_TEMPLATES: dict[str, Path] = {}


def _template(kind: str, work: Path) -> Path:
    if kind in _TEMPLATES and _TEMPLATES[kind].exists():
        return _TEMPLATES[kind]
    base = work.parent / "templates"
    base.mkdir(exist_ok=True)
    path = base / f"{kind}.sqlite"
    if not path.exists():
        if kind == "game":
            r = runner.invoke(app, ["game", "new", "-p", "clone-wars-corridor", "--game", str(path)])
            for cmd in (["initiative", "--roll", "light=15", "--roll", "dark=3"], ["activate", "obi"], ["move", "obi", "C7"], ["damage", "sbd", "5"]):
                runner.invoke(app, ["game", *cmd, "--game", str(path)])
        else:
            t = base / f"{kind}.yaml"
            t.write_text(card_table_example(kind), encoding="utf-8")
            r = runner.invoke(app, [kind, "new", str(t), "--game", str(path)])
            assert r.exit_code == 0, r.output
    _TEMPLATES[kind] = path
    return path


JUNK_DATA = [
    '"text"',
    "[]",
    "null",
    "{}",
    '{"figure": 5}',
    '{"figure": "nobody"}',
    '{"figure": "obi", "to": "Z99"}',
    "not json",
    "{",
    '{"seq": "x"}',
    '{"command": 5}',
    '{"command": "A frobnicate"}',
    '{"position": 5}',
    '{"rolls": [], "first": "x"}',
    '{"figure": {"id": 1}}',
    '{"amount": "' + HUGE + '", "figure": "obi"}',
    '{"to": null, "figure": "obi"}',
    "[" * 5000 + "]" * 5000,
    '{"seq": 99999}',
    '{"seq": 1}',
    '{"figure": "obi", "amount": 1e999}',
]
JUNK_KIND = ["teleport", "", "setup", "undo", "move", "attack", "note", "activate", "initiative", None, 5]


def _gamelog_case(rng: random.Random, work: Path) -> list[str]:
    kind = rng.choice(["game", "destiny", "swtcg"])
    dst = work / f"log{rng.randrange(10**9)}.sqlite"
    shutil.copy(_template(kind, work), dst)
    con = sqlite3.connect(dst)
    try:
        seqs = [r[0] for r in con.execute("SELECT seq FROM events")]
        for _ in range(rng.randint(1, 3)):
            m = rng.randrange(10)
            seq = rng.choice(seqs) if seqs else 1
            if m == 0:
                con.execute("UPDATE events SET data = ? WHERE seq = ?", (rng.choice(JUNK_DATA), seq))
            elif m == 1:
                con.execute("UPDATE events SET kind = ? WHERE seq = ?", (rng.choice(JUNK_KIND), seq))
            elif m == 2:
                con.execute("DELETE FROM events WHERE seq = ?", (rng.choice([1, seq]),))
            elif m == 3:
                con.execute(
                    "INSERT INTO events(seq, at, kind, data) VALUES (?, 'x', ?, ?)",
                    (rng.choice([0, -1, 10**6]), rng.choice([k for k in JUNK_KIND if isinstance(k, str)]), rng.choice(JUNK_DATA)),
                )
            elif m == 4:
                con.execute("DELETE FROM meta WHERE key = ?", (rng.choice(["format", "rules", "created"]),))
            elif m == 5:
                con.execute("UPDATE meta SET value = ? WHERE key = 'rules'", (rng.choice(["swm2099", "", "destiny", "swtcg", "game", "ddm2005"]),))
            elif m == 6:  # a table rebuilt without a column
                con.executescript("CREATE TABLE e2 AS SELECT seq, at, kind, data FROM events; DROP TABLE events; ALTER TABLE e2 RENAME TO events;")
            elif m == 7:
                con.execute("UPDATE events SET override = ? WHERE seq = ?", (rng.choice([5, b"\xff", "x" * 10000]), seq))
            elif m == 8:
                con.execute("UPDATE events SET data = json_set(data, '$.position', ?) WHERE seq = 1", (rng.choice(["", "x: [", "format: 5", HUGE]),))
            elif m == 9:
                con.execute(f"PRAGMA user_version = {rng.choice([0, 2, 99, -1])}")
            seqs = [r[0] for r in con.execute("SELECT seq FROM events")]
        con.commit()
    except sqlite3.Error:
        pass
    finally:
        con.close()
    if rng.random() < 0.15:  # bytes flipped anywhere in the file (a header, a page, a record)
        raw = bytearray(dst.read_bytes())
        for _ in range(rng.choice([1, 1, 2, 8, 64])):
            raw[rng.randrange(len(raw))] ^= 1 << rng.randrange(8)
        dst.write_bytes(bytes(raw[: rng.choice([len(raw), len(raw), len(raw) // 2, 100])]))
    elif rng.random() < 0.15:  # one flipped bit in the schema's text (SQLite then quotes bytes that are not UTF-8)
        raw = bytearray(dst.read_bytes())
        starts = [i for i in range(len(raw)) if raw.startswith(b"CREATE", i)]
        if starts:
            raw[rng.choice(starts) + rng.randrange(150)] ^= 1 << rng.randrange(8)
            dst.write_bytes(bytes(raw))
    g = str(dst)
    if kind == "game":
        cmd = rng.choice(
            [
                ["game", "status"],
                ["game", "log"],
                ["game", "export"],
                ["game", "export", "--format", "json"],
                ["game", "replay", "--to", rng.choice(["1", "3", "0", "-2", "50"])],
                ["game", "activate", "dooku"],
                ["game", "undo"],
                ["game", "snapshot", "-o", str(work / "snap.yaml")],
                ["los", "obi", "dooku"],
                ["attack", "sbd", "obi", "--json"],
                ["show"],
            ]
        )
    else:
        cmd = rng.choice(
            [
                [kind, "status"],
                [kind, "log"],
                [kind, "export"],
                [kind, "undo"],
                [kind, "do", "A pass" if kind == "destiny" else "next"],
                [kind, "check", "A pass"],
                [kind, "replay", "--to", rng.choice(["1", "0", "-1", "99"])],
                ["game", "status"],
            ]
        )
    if cmd[0] == "game" and cmd[1] == "use":
        return cmd + [g]
    return cmd + ["--game", g] + (["--json"] if rng.random() < 0.3 and cmd[-1] in ("status", "log") else [])


# --- images ------------------------------------------------------------------------------------------


def png(width: int, height: int, data: bytes | None = None, color: int = 0) -> bytes:
    """A PNG with the given header; ``data`` (raw, before compression) may not match it."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, color, 0, 0, 0)
    if data is None:
        data = b"\x00" * min((width + 1) * height, 2_000_000)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(data, 9)) + chunk(b"IEND", b"")


def bomb() -> bytes:
    """A small PNG that decodes to gigabytes (compressed zeros)."""
    w, h = 60000, 60000
    co = zlib.compressobj(9)
    row = b"\x00" * (w + 1)
    parts = [co.compress(row) for _ in range(200)]
    parts.append(co.flush())
    return png(w, h, b"")[:33] + struct.pack(">I", len(b"".join(parts))) + b"IDAT" + b"".join(parts) + b"\x00\x00\x00\x00" + png(1, 1)[-12:]


def _image_case(rng: random.Random, work: Path) -> list[str]:
    m = rng.randrange(8)
    if m == 0:
        data = png(100000, 10, b"\x00" * 100001 * 10)
    elif m == 1:
        data = png(100000, 100000, b"\x00" * 100)
    elif m == 2:
        data = bomb()
    elif m == 3:
        data = png(1, 1)
    elif m == 4:
        data = b"\x89PNG\r\n\x1a\n" + os.urandom(rng.randint(0, 200))
    elif m == 5:
        data = b"GIF89a" + os.urandom(50)
    elif m == 6:
        data = b"\xff\xd8\xff\xe0" + os.urandom(100)  # a broken JPEG
    else:
        data = "not an image at all é".encode()
    f = _write(work, rng.choice(["img.png", "img.jpg", "img.txt"]), data)
    return rng.choice(
        [
            ["photo", "detect", f, "--position", "clone-wars-corridor", "--json"],
            ["photo", "check", f, "--position", "clone-wars-corridor"],
            ["map", "from-photo", f, "--cols", "20", "--rows", "14"],
            ["calibrate", "camera", f],
            ["photo", "detect", f, "--position", "clone-wars-corridor", "--calib", str(ROOT / "README.md")],
            ["photo", "batch", f, "--position", "clone-wars-corridor", "-o", str(work / "b.jsonl"), "--calib", str(ROOT / "README.md")],
        ]
    )


def _numbers_case(rng: random.Random, work: Path) -> list[str]:
    return rng.choice(
        [
            ["photo", "synth", "-p", "clone-wars-corridor", "-o", str(work / "s.png"), "--width", rng.choice(["1", "0", "-5", "100000", "3", HUGE])],
            [
                "game",
                "initiative",
                "--roll",
                rng.choice(["light=²", "light=" + HUGE, "light=-1", "dark=1.5"]),
                "--roll",
                "dark=3",
                "--game",
                str(work / "none.sqlite"),
            ],
            ["game", "replay", "--to", rng.choice(["-1", "0", HUGE]), "--game", str(work / "none.sqlite")],
            [
                "destiny",
                "status",
                "--get",
                rng.choice(["card.nobody.damage", "x", "", "card", "card.han.nothing", "players.A.x"]),
                "--game",
                str(_template("destiny", work)),
            ],
            ["swtcg", "status", "--get", rng.choice(["unit.x.tapped", "unit", "player.XX.force", "step.x", "stat.xwing.x", "stat.xwing", "__class__",
                                                     "unit.xwing.__class__"]), "--game", str(_template("swtcg", work))],
            [  # numbers over Python's 4,300-digit limit in the card games' notation
                "destiny", "check", rng.choice(["A draw ", "A discard ", "A gain ", "A play x cost="]) + HUGE,
                "--game", str(_template("destiny", work)),
            ],
            ["swtcg", "check", rng.choice(["LS draw ", "DS discard ", "LS retreat x "]) + HUGE, "--game", str(_template("swtcg", work))],
            ["game", "new", "-p", "clone-wars-corridor", "--game", rng.choice(["/proc/nope/g.sqlite", str(work / ("x" * 300 + ".sqlite")), str(work)])],
            ["show", str(work / ("y" * 5000))],
        ]
    )


# --- paths: every file the user names, led somewhere odd --------------------------------------------
#
# Each case hands one command one odd path, in the slot where it reads a file or where it writes
# one: a folder, a FIFO, a link to /dev/zero, a path whose parent is a file, a file of another
# kind, an empty or garbage file, a name holding escapes and markup, a name too long for the
# system. Everything else in the call is good, so a refusal (exit 2) is about that path and must
# name it (issue 29's sixth cause: "a refusal that does not name the file").

#: what the odd path is; the first ones serve both slots, the rest only reading or only writing
PATH_KINDS_BOTH = ("dir", "fifo", "zero_link", "parent_file", "hostile_name", "long_name", "readonly_dir")
PATH_KINDS_READ = ("missing", "empty", "garbage", "text", "png", "sqlite_other", "position", "dangling_link")
PATH_KINDS_WRITE = ("missing_parent", "existing", "dangling_link")
HOSTILE_STEM = "x\x1b[2J[bold]\x07\u202e"


def _odd_path(rng: random.Random, work: Path, kind: str, suffix: str) -> Path:
    """A path of the given kind, named ``odd<number><suffix>`` (a hostile or a long name ends so too)."""
    name = f"odd{rng.randrange(10**6)}{suffix}"
    if kind == "dir":
        (work / name).mkdir()
    elif kind == "fifo":
        os.mkfifo(work / name)
    elif kind == "zero_link":
        (work / name).symlink_to("/dev/zero")
    elif kind == "dangling_link":
        (work / name).symlink_to(work / "nowhere" / "at-all")
    elif kind == "parent_file":
        (work / "afile").write_text("x", encoding="utf-8")
        return work / "afile" / name
    elif kind == "missing_parent":
        return work / "no" / "such" / "folder" / name
    elif kind == "readonly_dir":
        ro = work / "ro"
        ro.mkdir(exist_ok=True)
        os.chmod(ro, 0o555)
        return ro / name
    elif kind == "hostile_name":
        name = HOSTILE_STEM + name
    elif kind == "long_name":
        name = "l" * 300 + name
    elif kind == "empty":
        (work / name).write_bytes(b"")
    elif kind == "garbage":
        (work / name).write_bytes(os.urandom(rng.randint(1, 4000)))
    elif kind == "text":
        (work / name).write_text("just some text\nnot what was asked for\n", encoding="utf-8")
    elif kind == "png":
        (work / name).write_bytes(png(40, 30))
    elif kind == "sqlite_other":
        con = sqlite3.connect(work / name)
        con.execute("CREATE TABLE other (x)")
        con.commit()
        con.close()
    elif kind == "position":
        shutil.copy(sorted(example_files())[0], work / name)
    elif kind == "existing":
        (work / name).write_text("old\n", encoding="utf-8")
    return work / name


def _read_slot(rng: random.Random, work: Path, p: str) -> list[list[str]]:
    """Commands that read the file at ``p`` (everything else in them good)."""
    table = work / "table.yaml"
    table.write_text(card_table_example("swtcg"), encoding="utf-8")
    image = work / "image.png"
    image.write_bytes(png(64, 48))
    return [
        ["validate", p], ["validate", p, "--json"], ["show", p], ["normalize", p],
        ["los", "obi", "dooku", "-p", p, "--json"],
        ["game", "new", "-p", p, "--game", str(work / "g.sqlite")],
        ["game", "status", "--game", p], ["game", "log", "--game", p, "--json"], ["game", "export", "--game", p],
        ["destiny", "status", "--game", p], ["swtcg", "log", "--game", p],
        ["destiny", "new", p, "--game", str(work / "d.sqlite")], ["swtcg", "new", p, "--game", str(work / "s.sqlite")],
        ["swtcg", "scenario", p], ["destiny", "import", p], ["swtcg", "import", p, "--json"], ["cards", "import", p],
        ["--cards", p, "cards", "list"], ["cards", "validate", p],
        ["photo", "detect", p, "-p", "clone-wars-corridor", "--json"],
        ["photo", "detect", str(image), "-p", "clone-wars-corridor", "--calib", p],
        ["map", "from-photo", p, "--cols", "20", "--rows", "14"],
        ["photo", "detect", str(image), "-p", "clone-wars-corridor", "--reference", p],
        ["photo", "detect", str(image), "-p", "clone-wars-corridor", "--table", p, "--json"],
        ["game", "use", p], ["destiny", "use", p],
        ["los", "obi", "dooku", "--game", p],
    ]


def _write_slot(rng: random.Random, work: Path, p: str) -> list[list[str]]:
    """Commands that write the file at ``p`` (everything else in them good)."""
    game = work / "w.sqlite"
    shutil.copy(_template("game", work), game)
    cards = work / "c.sqlite"
    shutil.copy(_template("swtcg", work), cards)
    image = work / "image.png"
    image.write_bytes(png(64, 48))
    table = work / "table.yaml"
    table.write_text(card_table_example("destiny"), encoding="utf-8")
    return [
        ["game", "export", "--game", str(game), "-o", p], ["game", "export", "--game", str(game), "--format", "json", "-o", p],
        ["game", "snapshot", "--game", str(game), "-o", p],
        ["normalize", "clone-wars-corridor", "-o", p], ["show", "clone-wars-corridor", "--svg", p],
        ["los", "obi", "dooku", "-p", "clone-wars-corridor", "--png", p, "--json"],
        ["cards", "new", "Odd Card", "--game", "swm", "-o", p],
        ["photo", "synth", "-p", "clone-wars-corridor", "-o", p, "--width", "320"],
        ["photo", "synth", "-p", "clone-wars-corridor", "-o", str(work / "photo.png"), "--width", "320", "--truth", p],
        ["calibrate", "markers", "-o", p, "--first", "4", "--last", "5"],
        ["destiny", "example", "-o", p], ["swtcg", "export", "--game", str(cards), "-o", p],
        ["game", "new", "-p", "clone-wars-corridor", "--game", p], ["destiny", "new", str(table), "--game", p],
        ["photo", "batch", str(image), "-p", "clone-wars-corridor", "-o", p],
    ]


def _paths_case(rng: random.Random, work: Path) -> list[str]:
    if rng.random() < 0.5:
        kind = rng.choice(PATH_KINDS_BOTH + PATH_KINDS_READ)
        p = _odd_path(rng, work, kind, rng.choice([".yaml", ".sqlite", ".png", ".txt", ".json", ""]))
        return rng.choice(_read_slot(rng, work, str(p)))
    kind = rng.choice(PATH_KINDS_BOTH + PATH_KINDS_WRITE)
    p = _odd_path(rng, work, kind, rng.choice([".yaml", ".md", ".png", ".svg", ".sqlite", ".jsonl", ".json"]))
    return rng.choice(_write_slot(rng, work, str(p)))


def path_needle(args: list[str]) -> str | None:
    """The odd path's name (its last 30 characters) in a paths case's arguments: what a refusal
    must quote."""
    for a in args:
        if re.search(r"odd\d+[.\w]*$", a):
            return Path(a).name[-30:]
    return None


def names_the_file(needle: str, output: str) -> bool:
    """Does ``output`` quote ``needle`` (shown escaped as the terminal shows it, or in a string of
    the JSON answer: its error or a problem's file; wrapped lines joined)?"""
    flat = re.sub(r"\s+", "", output)
    if re.sub(r"\s+", "", shown(needle)) in flat:
        return True
    for line in output.splitlines():
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        if isinstance(obj, dict) and any(isinstance(v, str) and needle in v for v in _walk(obj)):  # the error, or a problem's file
            return True
    return False


# --- SW_Minis_Drafter databases, calibration files, notation strings ---------------------------------

ODD_CELLS: list[Any] = [None, "", "x", "9" * 5000, -1, 10**18, 2**63 - 1, 1.5, float("inf"), float("nan"), b"\xff\x00", "[bold]x",
                        "\x1b[2J", "\ud800".encode("utf-8", "surrogatepass"), "a;" * 2000, "Unique;;;", "Speed 99999999999999999999",
                        "Force Push " + "9" * 400, "medium\x00", "Commander Effect", "²"]


def _drafter_case(rng: random.Random, work: Path) -> list[str]:
    """A SW_Minis_Drafter database (``cards import``) with odd cells, a changed table or flipped bytes."""
    from .test_swm_import import COLS, ROWS, make_db

    db = make_db(work / "SWminis.db", [tuple(r) for r in ROWS])
    con = sqlite3.connect(db)
    try:
        for _ in range(rng.randint(1, 4)):
            m = rng.randrange(6)
            if m <= 2:
                col = rng.choice(COLS)
                con.execute(f'UPDATE minis_list SET "{col}" = ? WHERE rowid = ?', (rng.choice(ODD_CELLS), rng.randint(1, len(ROWS))))
            elif m == 3:
                con.execute("DELETE FROM minis_list WHERE rowid = ?", (rng.randint(1, len(ROWS)),))
            elif m == 4:
                con.execute(f'INSERT INTO minis_list ("{rng.choice(COLS)}") VALUES (?)', (rng.choice(ODD_CELLS),))
            else:
                con.executescript(rng.choice(["ALTER TABLE minis_list RENAME TO other;", 'ALTER TABLE minis_list DROP COLUMN "cost";',
                                              'ALTER TABLE minis_list RENAME COLUMN "hit points" TO hp;', "CREATE VIEW v AS SELECT 1;"]))
        con.commit()
    except sqlite3.Error:
        pass
    finally:
        con.close()
    if rng.random() < 0.2:
        raw = bytearray(db.read_bytes())
        for _ in range(rng.choice([1, 4, 32])):
            raw[rng.randrange(len(raw))] ^= 1 << rng.randrange(8)
        db.write_bytes(bytes(raw))
    return ["cards", "import", str(db)] + (["--json"] if rng.random() < 0.3 else [])


CALIB = """%YAML:1.0
---
camera_matrix: !!opencv-matrix
   rows: 3
   cols: 3
   dt: d
   data: [ 1400., 0., 320., 0., 1400., 240., 0., 0., 1. ]
distortion_coefficients: !!opencv-matrix
   rows: 1
   cols: 5
   dt: d
   data: [ 0.01, -0.02, 0., 0., 0. ]
image_width: 640
image_height: 480
avg_reprojection_error: 0.3
"""


def _calib_case(rng: random.Random, work: Path) -> list[str]:
    """A camera calibration (OpenCV YAML) or a table profile (JSON) mutated, used on a photo."""
    image = _write(work, "photo.png", png(64, 48))
    if rng.random() < 0.5:
        f = _write(work, "camera.yaml", mutate_text(rng, CALIB))
        opt = ["--calib", f]
    else:
        from assistant.photo.occupancy import last_layer

        w = len(last_layer()[0])
        profile = json.dumps({"kind": "occupancy-table-profile", "name": "t", "weights": [0.1] * w, "bias": 0.5}, indent=1)
        f = _write(work, "table.json", mutate_text(rng, profile))
        opt = ["--table", f]
    return rng.choice([["photo", "detect", image, "-p", "clone-wars-corridor", *opt, "--json"],
                       ["photo", "check", image, "-p", "clone-wars-corridor", *opt]])


NOTATION = {
    "destiny": ["pass", "activate", "damage", "play", "shield", "discard", "redeploy", "keyword", "claim", "mill", "resolve", "gain",
                "reroll", "pay", "more", "choose", "upkeep", "draw", "han", "leia", "vader", "h1=ranged:1", "h2=+ranged:2", "l1=blank",
                "v1=disrupt:3", "from=own", "cost=", "->", "1", "2", "0", "-1"],
    "swtcg": ["pass", "attack", "roll", "build", "deploy", "overload", "intercept", "bid", "retaliate", "lucky", "evade", "trigger",
              "prevent", "grant", "untap", "speed", "setup", "damage", "collect", "reroll", "board", "next", "draw", "aat", "trooper",
              "xwing", "fighter", "source=aat", "->", "1,1,1,1", "2", "3", "9"],
}


def _notation_case(rng: random.Random, work: Path) -> list[str]:
    """A line of the card games' notation: known words in odd orders, odd characters, huge numbers."""
    game = rng.choice(["destiny", "swtcg"])
    who = rng.choice(["A", "B", "x", ""] if game == "destiny" else ["LS", "DS", "ls", ""])
    words = [rng.choice(NOTATION[game] + [HUGE[: rng.choice([5, 400, 4400])], "\x1b[2J", "[bold]", "=", "==", ":", "-", "->->", "é", "\u202e",
                                          "\x00", "a" * 300, "1e9", "0x10", "-0", "+3", "³"]) for _ in range(rng.randint(0, 6))]
    line = " ".join([who, *words]).strip()
    if rng.random() < 0.2:
        line = "".join(rng.choice([ch, ch, ch, "=", ":", ",", " "]) for ch in line)
    g = work / "n.sqlite"
    shutil.copy(_template(game, work), g)
    return [game, rng.choice(["check", "do"]), line, "--game", str(g)] + (["--json"] if rng.random() < 0.3 else [])


MAKERS: dict[str, Callable[[random.Random, Path], list[str]]] = {
    "position": _position_case,
    "cards": _cards_case,
    "table": _table_case,
    "importer": _importer_case,
    "argv": _argv_case,
    "gamelog": _gamelog_case,
    "image": _image_case,
    "numbers": _numbers_case,
    "paths": _paths_case,
    "drafter": _drafter_case,
    "calib": _calib_case,
    "notation": _notation_case,
}


class CaseTimeout(BaseException):
    """A case ran past its limit (a BaseException, so the CLI's edge cannot swallow it)."""


def _alarm(signum: int, frame: Any) -> None:
    raise CaseTimeout()


def run_case(family: str, seed: int, work: Path, limit_s: int = 10) -> Outcome:
    """One case. It may use ``limit_s`` seconds of CPU (work that runs away), and ten times that
    of wall time (a wait that never ends, such as a FIFO): a loaded machine slows a case's wall
    time, not its CPU time."""
    import signal

    old = signal.signal(signal.SIGALRM, _alarm)
    old_prof = signal.signal(signal.SIGPROF, _alarm)
    signal.alarm(limit_s * 10)
    signal.setitimer(signal.ITIMER_PROF, limit_s)
    try:
        return _run_case(family, seed, work, limit_s)
    except CaseTimeout:
        rng = random.Random(seed)
        (work / "replay").mkdir(parents=True, exist_ok=True)
        return Outcome(family, MAKERS[family](rng, work / "replay"), -1, "", f"took over {limit_s} s of CPU or {limit_s * 10} s (seed {seed})")
    finally:
        signal.alarm(0)
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGALRM, old)
        signal.signal(signal.SIGPROF, old_prof)


def _run_case(family: str, seed: int, work: Path, limit_s: int) -> Outcome:
    rng = random.Random(seed)
    case = work / f"c{seed % 50}"
    if case.exists():
        for d in case.rglob("*"):  # the paths family's read-only folder: removable again for a user other than root
            if d.is_dir() and not d.is_symlink():
                os.chmod(d, 0o755)
        shutil.rmtree(case, ignore_errors=True)
    case.mkdir(parents=True, exist_ok=True)
    args = MAKERS[family](rng, case)
    # an import writes into the home's card library, which every later case would read: its own home
    env = {"TABLETOP_HOME": str(case / "home" if family == "drafter" else work / "home"), "COLUMNS": "100"}
    r = runner.invoke(app, args, env=env)
    out = r.stdout + (r.stderr if hasattr(r, "stderr") else "")
    problem = None
    if r.exit_code not in (0, 2, 3):
        problem = f"exit {r.exit_code}"
    elif "Traceback" in out or "internal error" in out:
        problem = "traceback or internal error"
    elif "--json" in args and "--help" not in args and "-h" not in args:
        try:
            obj = json.loads(r.stdout)
            # a refusal carries its error; 'check' answers an illegal command with exit 3 and "legal": false
            if not isinstance(obj, dict) or (r.exit_code != 0 and "error" not in obj and not (r.exit_code == 3 and obj.get("legal") is False)):
                problem = "--json: not one object with an error"
        except ValueError:
            problem = "--json: not JSON"
        else:
            if any(isinstance(v, float) and not math.isfinite(v) for v in _walk(obj)):
                problem = "--json: Infinity or NaN"
    if problem is None and family == "paths" and r.exit_code == 2:
        needle = path_needle(args)
        if needle is not None and not names_the_file(needle, out):
            problem = "a refusal that does not name the file"
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        problem = f"exception {type(r.exception).__name__}: {r.exception}"
    return Outcome(family, args, r.exit_code, out[-600:], problem)


def _walk(o: Any):  # type: ignore[no-untyped-def]
    if isinstance(o, dict):
        for v in o.values():
            yield from _walk(v)
    elif isinstance(o, list):
        for v in o:
            yield from _walk(v)
    else:
        yield o
