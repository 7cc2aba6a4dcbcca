"""Benchmark: a stranger's hostile requests to ``python -m assistant serve``, counted by status.
Prints the counts and every answer that broke the rule; exit 1 if any did.

    python bench/hostile_table.py [--writers 10] [--notes 12] [--slow 6] [--json]

As a stranger would: a game made by the command line (``game new``, initiative, activations, a
move, notes, an undo), served by ``python -m assistant serve`` in its own process (the write token
read from the page, as the phone reads it), and a Destiny table beside it. Then, over raw sockets
(so that a malformed request is sent as it is): wrong methods and content types, huge, truncated
and malformed bodies (odd nesting, numbers as strings, NaN, a whole number of 5,000 digits, a 10 MB
string), odd Unicode (right-to-left marks, NUL, lone surrogates, a bidi override) in names and
notes, path tricks in every name, a query string on every route, slow clients, and ``--writers``
threads writing ``--notes`` notes each to one game log at once with a second server and the
command line writing to the same file.

The rule (reading R372): every answer is below 500; every refusal (4xx) is JSON naming what was
wrong (``{"error": ...}``, a page's 404 included); a refused write records nothing (the log's
version unchanged); every acknowledged note is in the log exactly once and the chain verifies; a
slow client holds no other request up (a normal request answered within 2 s while they trickle).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Served:
    """``python -m assistant serve`` on ``game`` in its own process, and its page's write token."""

    def __init__(self, game: Path, env: dict[str, str]) -> None:
        self.port = _free_port()
        self.proc = subprocess.Popen([sys.executable, "-m", "assistant", "serve", "--game", str(game), "--port", str(self.port)],
                                     cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 120
        while True:
            try:
                status, _headers, body = self.raw(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nConnection: close\r\n\r\n".encode())
                break
            except OSError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    raise SystemExit(f"serve did not start: {self.proc.stderr.read().decode() if self.proc.stderr else ''}") from None
                time.sleep(0.2)
        found = re.search(rb'name="write-token" content="([^"]+)"', body)
        if status != 200 or found is None:
            raise SystemExit(f"the table's page has no write token (status {status})")
        self.token = found.group(1).decode()

    def raw(self, request: bytes, slow: float = 0.0, timeout: float = 30.0) -> tuple[int, dict[str, str], bytes]:
        """One request as bytes (``slow``: seconds between bytes); the status, headers and body."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=timeout) as s:
            try:
                if slow:
                    for i in range(len(request)):
                        s.sendall(request[i:i + 1])
                        time.sleep(slow)
                else:
                    s.sendall(request)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the server answered (a body over its limit) and closed before the rest was sent: read its answer
            data = b""
            while True:
                try:
                    chunk = s.recv(65536)
                except (ConnectionResetError, TimeoutError):
                    break
                if not chunk:
                    break
                data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        if not lines or not lines[0].startswith(b"HTTP/"):
            return 0, {}, data  # the connection closed with no answer
        status = int(lines[0].split()[1])
        headers = {k.strip().lower(): v.strip() for k, _, v in (ln.decode("latin-1").partition(":") for ln in lines[1:])}
        if headers.get("transfer-encoding", "").lower() == "chunked":
            body = _unchunk(body)
        return status, headers, body

    def request(self, method: str, path: str, body: bytes | None = None, content_type: str | None = "application/json",
                token: bool = True, extra: bytes = b"") -> tuple[int, dict[str, str], bytes]:
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nConnection: close\r\n".encode("latin-1", "replace")
        if token:
            head += f"X-Write-Token: {self.token}\r\n".encode()
        if content_type is not None and body is not None:
            head += f"Content-Type: {content_type}\r\n".encode()
        if body is not None:
            head += f"Content-Length: {len(body)}\r\n".encode()
        return self.raw(head + extra + b"\r\n" + (body or b""))

    def version(self) -> int:
        return int(json.loads(self.request("GET", "/api/version")[2])["version"])

    def close(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def _unchunk(body: bytes) -> bytes:
    out = b""
    while body:
        size, _, rest = body.partition(b"\r\n")
        try:
            n = int(size.split(b";")[0], 16)
        except ValueError:
            return out + body
        if n == 0:
            break
        out, body = out + rest[:n], rest[n + 2:]
    return out


def _note(text: str) -> bytes:
    return json.dumps({"verb": "note", "args": {"text": text}}).encode()


#: (what, method, path, body, content type): each is a write the table must refuse (a 4xx, nothing recorded)
REFUSED_WRITES: list[tuple[str, str, str, bytes | None, str | None]] = [
    ("GET of a write", "GET", "/api/act", None, None),
    ("PUT", "PUT", "/api/act", _note("x"), "application/json"),
    ("DELETE", "DELETE", "/api/do/game/note", None, None),
    ("PATCH", "PATCH", "/api/photo/apply", b"{}", "application/json"),
    ("OPTIONS", "OPTIONS", "/api/act", None, None),
    ("no content type", "POST", "/api/act", _note("x"), None),
    ("form", "POST", "/api/act", b"verb=note&text=x", "application/x-www-form-urlencoded"),
    ("xml", "POST", "/api/act", b"<note>x</note>", "application/xml"),
    ("text/plain", "POST", "/api/act", _note("x"), "text/plain"),
    ("latin-1 charset", "POST", "/api/act", '{"verb":"note","args":{"text":"é"}}'.encode("latin-1"), "application/json; charset=latin-1"),
    ("empty body", "POST", "/api/act", b"", "application/json"),
    ("truncated", "POST", "/api/act", b'{"verb":"note","args":{"text":"ab', "application/json"),
    ("not UTF-8", "POST", "/api/act", b'{"verb":"note","args":{"text":"\xff\xfe"}}', "application/json"),
    ("a list", "POST", "/api/act", b'["note"]', "application/json"),
    ("a string", "POST", "/api/act", b'"note"', "application/json"),
    ("nested 100,000 deep", "POST", "/api/act", b"[" * 100_000 + b"]" * 100_000, "application/json"),
    ("args nested 50,000 deep", "POST", "/api/act", b'{"verb":"note","args":' + b'{"a":' * 50_000 + b"1" + b"}" * 50_001,
     "application/json"),
    ("NaN", "POST", "/api/act", b'{"verb":"note","args":{"text":NaN}}', "application/json"),
    ("Infinity roll", "POST", "/api/act", b'{"verb":"attack","args":{"attacker":"sbd","target":"obi","roll":Infinity}}', "application/json"),
    ("1e400 roll", "POST", "/api/act", b'{"verb":"attack","args":{"attacker":"sbd","target":"obi","roll":1e400}}', "application/json"),
    ("5,000-digit roll", "POST", "/api/act", b'{"verb":"attack","args":{"attacker":"sbd","target":"obi","roll":' + b"9" * 5000 + b"}}",
     "application/json"),
    ("2**64 roll", "POST", "/api/act", b'{"verb":"attack","args":{"attacker":"sbd","target":"obi","roll":18446744073709551616}}',
     "application/json"),
    ("roll as a list", "POST", "/api/act", b'{"verb":"attack","args":{"attacker":"sbd","target":"obi","roll":[15]}}', "application/json"),
    ("a name twice", "POST", "/api/act", b'{"verb":"note","verb":"undo","args":{"text":"x"}}', "application/json"),
    ("verb a list", "POST", "/api/act", b'{"verb":["note"],"args":{"text":"x"}}', "application/json"),
    ("args a list", "POST", "/api/act", b'{"verb":"note","args":["x"]}', "application/json"),
    ("override an object", "POST", "/api/act", b'{"verb":"note","args":{"text":"x"},"override":{"a":1}}', "application/json"),
    ("10 MB note", "POST", "/api/act", _note("x" * 10_000_000), "application/json"),
    ("lone surrogate note", "POST", "/api/act", b'{"verb":"note","args":{"text":"a\\ud800b"}}', "application/json"),
    ("NUL-only note", "POST", "/api/act", b'{"verb":"note","args":{"text":"\\u0000"}}', "application/json"),
    ("bidi-override-only note", "POST", "/api/act", _note("\u202e"), "application/json"),
    ("RTL mark figure", "POST", "/api/act", json.dumps({"verb": "move", "args": {"figure": "\u200fobi", "to": "C3"}}).encode(),
     "application/json"),
    ("path figure", "POST", "/api/act", b'{"verb":"move","args":{"figure":"../../etc/passwd","to":"C3"}}', "application/json"),
    ("NUL figure", "POST", "/api/act", b'{"verb":"move","args":{"figure":"obi\\u0000","to":"C3"}}', "application/json"),
    ("surrogate figure", "POST", "/api/act", b'{"verb":"move","args":{"figure":"\\udc80","to":"C3"}}', "application/json"),
    ("square a number", "POST", "/api/act", b'{"verb":"move","args":{"figure":"obi","to":3}}', "application/json"),
    ("path verb", "POST", "/api/do/../../etc/passwd", _note("x"), "application/json"),
    ("dotted verb", "POST", "/api/do/%2e%2e/game/note", b'{"text":"x"}', "application/json"),
    ("unknown verb", "POST", "/api/do/game/nothing", b"{}", "application/json"),
    ("do: query string", "POST", "/api/do/game/note?text=x", b'{"text":"x"}', "application/json"),
    ("photo apply: not a list", "POST", "/api/photo/apply", b'{"moves":"obi C3"}', "application/json"),
    ("photo apply: NaN confidence", "POST", "/api/photo/apply", b'{"moves":[{"figure":"obi","at":"C3","confidence":NaN}]}',
     "application/json"),
    ("photo: JSON, not a form", "POST", "/api/photo", _note("x"), "application/json"),
    ("photo: a form with no file", "POST", "/api/photo", b"--b\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n1\r\n--b--\r\n",
     "multipart/form-data; boundary=b"),
    ("photo: truncated form", "POST", "/api/photo", b"--b\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"../../x.jpg\"\r\n",
     "multipart/form-data; boundary=b"),
]

#: every address a GET reaches, each with a query string it does not take and with odd values
GETS = ["/", "/api/status", "/api/events", "/api/version", "/api/verbs", "/api/los?viewer=sbd&target=obi", "/api/cover?attacker=sbd&target=obi",
        "/api/range?a=sbd&b=obi", "/api/attack?attacker=sbd&target=obi", "/api/targets?figure=sbd", "/api/matrix",
        "/api/board.svg", "/api/move?figure=obi&to=C3", "/api/export?format=json", "/api/export?format=md", "/api/ask/los",
        "/docs", "/invite", "/reading/R7", "/manifest.webmanifest", "/favicon.ico"]
ODD_GETS = [
    "/api/los?viewer=%00&target=obi", "/api/los?viewer=%E2%80%AEobi&target=obi", "/api/los?viewer=%ED%A0%80&target=obi",
    "/api/los?viewer=sbd&viewer=obi&target=obi", "/api/los?viewer=" + "a" * 6000 + "&target=obi", "/api/board.svg?selected=..%2F..%2Fetc",
    "/api/export?format=..%2F..%2Fetc%2Fpasswd", "/api/ask/..%2F..%2Fetc%2Fpasswd", "/api/ask/%2e%2e/%2e%2e", "/reading/..%2F..%2Fetc",
    "/reading/R99999999999999999999", "/reading/%00", "/api/events?since=-1", "/api/events?since=NaN", "/api/events?since=1e9",
    "/api/events?since=" + "9" * 5000, "/api/move?figure=obi&to=%00", "/api/move?figure=obi&to=ZZ9999999", "/static/../../../etc/passwd",
    "/static/%2e%2e/%2e%2e/etc/passwd", "/api/nothing", "/..%2F..%2Fetc%2Fpasswd", "/api/status/",
]


#: an answer that speaks Python to a player (a traceback, a file of the program, Python's advice to itself)
PYTHON_WORDS = re.compile(rb'Traceback \(most recent|File "/|set_int_max_str_digits|site-packages')


def _json_error(headers: dict[str, str], body: bytes) -> bool:
    if "json" not in headers.get("content-type", ""):
        return False
    try:
        answer = json.loads(body)
    except ValueError:
        return False
    return isinstance(answer, dict) and isinstance(answer.get("error"), str) and bool(answer["error"].strip())


def _cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "assistant", *args], cwd=ROOT, env=env, capture_output=True, text=True, check=False,
                          timeout=300)


def _made_by_the_command_line(folder: Path, env: dict[str, str]) -> Path:
    """A game as a judge makes it: initiative, activations, a move, an attack, notes and an undo."""
    game = folder / "g.sqlite"
    steps = [["game", "new", "-p", "clone-wars-example-combat", "--game", str(game)],
             ["game", "initiative", "--roll", "light=15", "--roll", "dark=7", "--game", str(game)],
             ["game", "note", "round 1 begins", "--game", str(game)],
             ["game", "undo", "--game", str(game)],
             ["game", "note", "a note in Polish: żółć, and Czech: řeč", "--game", str(game)]]
    for step in steps:
        r = _cli(env, *step)
        if r.returncode != 0:
            raise SystemExit(f"{' '.join(step)}: {r.stderr}")
    return game


def run(writers: int, notes: int, slow: int) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="hostile-table-"))
    env = {**os.environ, "TABLETOP_HOME": str(folder / "home"), "PYTHONPATH": str(ROOT)}
    env.pop("TABLETOP_CARDS", None)
    game = _made_by_the_command_line(folder, env)
    table, second = Served(game, env), Served(game, env)
    counts: Counter[str] = Counter()
    broken: list[str] = []

    def check(label: str, answer: tuple[int, dict[str, str], bytes], write: bool = False, before: int | None = None) -> None:
        status, headers, body = answer
        counts[f"{status // 100}xx" if status else "no answer"] += 1
        if status >= 500 or status == 0:
            broken.append(f"{label}: {status} {body[:160]!r}")
        elif status >= 400 and not _json_error(headers, body):
            broken.append(f"{label}: {status} is not JSON naming what was wrong: {body[:160]!r}")
        if PYTHON_WORDS.search(body):
            broken.append(f"{label}: answered in Python's words: {body[:200]!r}")
        if write and status < 400:
            broken.append(f"{label}: a write the table must refuse was taken ({status})")
        if before is not None and table.version() != before:
            broken.append(f"{label}: the refused write changed the log")

    try:
        for label, method, path, body, kind in REFUSED_WRITES:
            before = table.version()
            check(label, table.request(method, path, body, kind), write=True, before=before)
        before = table.version()
        check("no write token", table.request("POST", "/api/act", _note("x"), token=False), write=True, before=before)
        check("another site's origin", table.request("POST", "/api/act", _note("x"), extra=b"Origin: http://evil.example\r\n"),
              write=True, before=before)
        check("a Content-Length that lies (short)", table.raw(
            f"POST /api/act HTTP/1.1\r\nHost: 127.0.0.1:{table.port}\r\nX-Write-Token: {table.token}\r\nContent-Type: application/json\r\n"
            f"Content-Length: 9999\r\nConnection: close\r\n\r\n".encode() + _note("x"), timeout=60), write=True, before=before)
        check("a request line that is no HTTP", table.raw(b"HELLO\r\n\r\n"))
        host = f"Host: 127.0.0.1:{table.port}\r\n"
        check("a header with a NUL", table.raw(f"GET /api/status HTTP/1.1\r\n{host}X-A: a\x00b\r\nConnection: close\r\n\r\n".encode()))
        for path in GETS:
            check(path, table.request("GET", path))
            check(path + " + query", table.request("GET", path + ("&" if "?" in path else "?") + "zz=%E2%80%AE%00"))
        for path in ODD_GETS:
            check(path[:60], table.request("GET", path))
        # right-to-left marks, a bidi override and a NUL inside a note that shows something: kept, shown escaped
        for text in ("\u200fשלום obi", "obi\u202e moved", "obi\x00 moved", "\U0001f600 crit"):
            status, _h, body = table.request("POST", "/api/act", _note(text))
            counts[f"{status // 100}xx"] += 1
            if status != 200:
                broken.append(f"note {text!r}: {status} {body[:120]!r}")
        # slow clients: each trickles its request a byte at a time while a phone asks
        trickles = [threading.Thread(target=lambda: table.raw(f"GET /api/status HTTP/1.1\r\n{host}\r\n".encode(), slow=0.4, timeout=60),
                                     daemon=True) for _ in range(slow)]
        for t in trickles:
            t.start()
        time.sleep(1.0)
        started = time.monotonic()
        check("asked while slow clients trickle", table.request("GET", "/api/status"))
        waited = time.monotonic() - started
        if waited > 2.0:
            broken.append(f"a request waited {waited:.1f} s behind {slow} slow clients")
        # concurrent writes to one log: threads on two servers and the command line, each note once
        acknowledged: list[str] = []
        refused: Counter[str] = Counter()  # the concurrent writes refused, by their answer
        lock = threading.Lock()

        def write(server: Served, name: str) -> None:
            for i in range(notes):
                text = f"{name} note {i}"
                status, _h, body = server.request("POST", "/api/act", _note(text))
                with lock:
                    counts[f"{status // 100}xx"] += 1
                    if status == 200:
                        acknowledged.append(text)
                    else:
                        refused[body.decode("utf-8", "replace")[:160]] += 1
                    if status >= 500 or (status >= 400 and not _json_error(_h, body)):
                        broken.append(f"{text}: {status} {body[:120]!r}")

        def by_hand() -> None:
            for i in range(max(1, notes // 4)):
                text = f"cli note {i}"
                r = _cli(env, "game", "note", text, "--game", str(game))
                with lock:
                    if r.returncode == 0:
                        acknowledged.append(text)
                    elif "Traceback" in r.stderr:
                        broken.append(f"{text}: {r.stderr[-300:]}")

        threads: list[threading.Thread] = [threading.Thread(target=write, args=(table if i % 2 else second, f"w{i}")) for i in range(writers)]
        threads.append(threading.Thread(target=by_hand))
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        r = _cli(env, "game", "log", "--json", "--game", str(game))
        logged = Counter(str(e.get("text", "")) for e in json.loads(r.stdout)["events"] if e.get("kind") == "note")
        for text in acknowledged:
            times = logged["judge's note: " + text]  # the log's line for a note
            if times != 1:
                broken.append(f"{text!r} acknowledged, in the log {times} times")
        verify = _cli(env, "game", "verify", "--game", str(game))
        if verify.returncode != 0:
            broken.append(f"the chain does not verify: {verify.stdout} {verify.stderr}")
        return {"counts": dict(sorted(counts.items())), "requests": sum(counts.values()), "acknowledged_notes": len(acknowledged),
                "refused_notes": dict(refused),
                "broken": broken}
    finally:
        table.close()
        second.close()


def main(argv: list[str] | None = None, report: Callable[[str], None] = print) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--writers", type=int, default=10)  # 10 x 12 found R399's lost notes in each of 5 runs before it
    ap.add_argument("--notes", type=int, default=12)
    ap.add_argument("--slow", type=int, default=6)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    out = run(a.writers, a.notes, a.slow)
    if a.json:
        report(json.dumps(out, ensure_ascii=False))
    else:
        report(f"{out['requests']} requests: {out['counts']}; {out['acknowledged_notes']} notes written at once, each checked in the log")
        for answer, n in out["refused_notes"].items():
            report(f"  {n} concurrent notes refused: {answer}")
        for line in out["broken"]:
            report(f"  BROKEN {line}")
        report("every answer below 500, every refusal JSON, nothing lost or twice" if not out["broken"] else f"{len(out['broken'])} broken")
    return 1 if out["broken"] else 0


if __name__ == "__main__":
    sys.exit(main())
