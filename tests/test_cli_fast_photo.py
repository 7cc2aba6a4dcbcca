"""``photo detect`` answered by the fast path (:mod:`assistant.cli.fast`) prints what the Typer tree
prints: the same stdout, stderr and exit code, answers, refusals and errors alike, but without the
tree's coercion, which imports pydantic (0.1 s of the 1 s a photo may take on two cores: round 13
of issue 28). The photo's own timing (``seconds``) is the one thing that differs between two runs."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from assistant.cli.fast import parse_photo

from .test_cli_fast import FAST, TREE, _run

POSITION = "clone-wars-example-combat"


def _same(answer: tuple[int, str, str]) -> tuple[int, str, str]:
    """The answer less its timing: the ``seconds`` of the JSON answer, the text answer's 'in N s' (in any language)."""
    code, out, err = answer
    try:
        data = json.loads(out)
        data.pop("seconds", None)
        out = json.dumps(data, sort_keys=True)
    except json.JSONDecodeError:
        out = re.sub(r"\d+[.,]\d+ s\b", "N s", out)  # in any language, with its decimal sign (R234)
    return code, out, err


@pytest.fixture(scope="module")
def photos(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A synthetic table photo, a photo of noise (no grid) and a text file named .jpg."""
    from assistant.photo.synth import render_photo
    from assistant.position import load_position
    from assistant.resources import example_path

    folder = tmp_path_factory.mktemp("photos")
    example = example_path(POSITION)
    assert example is not None
    image, _truth = render_photo(load_position(example), seed=5, width=1200, height=900)
    cv2.imwrite(str(folder / "table.jpg"), image)
    noise = (np.random.default_rng(0).random((300, 400, 3)) * 255).astype(np.uint8)
    cv2.imwrite(str(folder / "noise.jpg"), noise)
    (folder / "notes.jpg").write_text("not a photo")
    return {"table": folder / "table.jpg", "noise": folder / "noise.jpg", "text": folder / "notes.jpg", "missing": folder / "missing.jpg"}


ERRORS = [
    ["photo", "detect", "{missing}", "-p", POSITION],
    ["photo", "detect", "{missing}", "-p", POSITION, "--json"],
    ["photo", "detect", "{text}", "--position", POSITION, "--json"],
    ["photo", "detect", "{table}", "-p", "/no/such/position.yaml"],
    ["photo", "detect", "{missing}", "-p", "/no/such/position.yaml", "--json"],
    ["photo", "detect", "{table}", "-p", POSITION, "--reference", "/no/such/reference.npz", "--json"],
    ["photo", "detect", "{table}", "--game", "/no/such/game"],
    ["--lang", "pl", "photo", "detect", "{missing}", "-p", POSITION],
]
ANSWERS = [
    ["photo", "detect", "{table}", "-p", POSITION, "--json"],
    ["photo", "detect", "{table}", "-p", POSITION],
    ["--lang=cs", "photo", "detect", "--position=" + POSITION, "{table}"],
    ["photo", "detect", "{noise}", "-p", POSITION, "--json"],
    ["photo", "detect", "{noise}", "-p", POSITION],
]


def _both(argv: list[str], photos: dict[str, Path], home: Path) -> None:
    line = [a.format(**photos) for a in argv]
    assert parse_photo(line) is not None
    tree = _same(_run(TREE, line, home))
    assert _same(_run(FAST, line, home)) == tree


@pytest.mark.parametrize("argv", ERRORS, ids=" ".join)
def test_the_fast_path_refuses_a_photo_as_the_tree_does(argv: list[str], photos: dict[str, Path], tmp_path: Path) -> None:
    _both(argv, photos, tmp_path / "home")


@pytest.mark.slow
@pytest.mark.parametrize("argv", ANSWERS, ids=" ".join)
def test_the_fast_path_answers_a_photo_as_the_tree_does(argv: list[str], photos: dict[str, Path], tmp_path: Path) -> None:
    _both(argv, photos, tmp_path / "home")


@pytest.mark.parametrize(
    "argv",
    [
        ["photo", "detect"], ["photo", "detect", "a.jpg", "b.jpg"], ["photo", "detect", "a.jpg", "--calib", "c.npz"],
        ["photo", "detect", "a.jpg", "--table", "t.json"], ["photo", "detect", "a.jpg", "-p", "x", "-p", "y"],
        ["photo", "detect", "a.jpg", "-p", "--json"], ["photo", "detect", "a.jpg", "--help"], ["photo", "check", "a.jpg"],
        ["--cards", "x", "photo", "detect", "a.jpg"], ["--lang", "xx", "photo", "detect", "a.jpg"], ["photo", "detect", "a.jpg", "--"],
        ["photo", "detect", "a.jpg", "--json", "--json"], ["photo", "detect", ""], ["photo", "detect", "a.jpg", "-pX"],
    ],
)
def test_any_other_photo_line_goes_to_the_tree(argv: list[str]) -> None:
    assert parse_photo(argv) is None


def test_photo_detect_loads_no_pydantic(photos: dict[str, Path], tmp_path: Path) -> None:
    probe = "import atexit; atexit.register(lambda: print('pydantic' in sys.modules, file=sys.stderr)); "
    argv = ["photo", "detect", str(photos["missing"]), "-p", POSITION, "--json"]
    _run(FAST, argv, tmp_path / "home")  # fills the cache: the card library is validated (pydantic) once
    code, out, err = _run(FAST.replace("import sys; ", "import sys; " + probe, 1), argv, tmp_path / "home")
    assert code == 2 and "no such image" in out and err.split()[-1] == "False", (out, err)  # before: True (the tree's coercion)


@pytest.mark.parametrize("entry", [FAST, TREE], ids=["fast", "tree"])
@pytest.mark.parametrize("lang, says", [("pl", "nie ma takiego obrazu"), ("cs", "takový obrázek neexistuje")])
def test_the_photos_refusal_from_its_decoding_thread_is_in_the_readers_language(
        entry: str, lang: str, says: str, photos: dict[str, Path], tmp_path: Path) -> None:
    """The photo is decoded on a second thread (round 13); the language is a context variable,
    which a new thread does not see: before, its refusal came in English ('no such image') under
    ``--lang pl``/``cs``, by the fast path and the tree alike."""
    for json_out in ([], ["--json"]):
        code, out, err = _run(entry, ["--lang", lang, "photo", "detect", str(photos["missing"]), "-p", POSITION, *json_out], tmp_path / "home")
        assert code == 2, (out, err)
        assert says in (out if json_out else err), (out, err)


def _blas_threads_said(argv: list[str], home: Path, preset: str | None = None) -> tuple[int, str]:
    """The exit code, and the OpenBLAS thread count the command's process ran with (its environment
    at exit; numpy's OpenBLAS reads it at numpy's import), for a run whose environment says ``preset``."""
    probe = "import atexit, os; atexit.register(lambda: print('BLAS', os.environ.get('OPENBLAS_NUM_THREADS'), file=sys.stderr)); "
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent), "TABLETOP_HOME": str(home), "NO_COLOR": "1"}
    env.pop("OPENBLAS_NUM_THREADS", None)
    if preset is not None:
        env["OPENBLAS_NUM_THREADS"] = preset
    r = subprocess.run([sys.executable, "-c", FAST.replace("import sys; ", "import sys; " + probe, 1), *argv], env=env,
                       capture_output=True, text=True, check=False, cwd=home.parent)
    said = [line.split()[1] for line in r.stderr.splitlines() if line.startswith("BLAS ")]
    return r.returncode, said[-1] if said else "?"


def test_a_photo_read_holds_numpys_blas_to_one_thread(photos: dict[str, Path], tmp_path: Path) -> None:
    """A photo's matrix products are small: OpenBLAS's second thread cost the two-core machine
    ~0.1 CPU-seconds a photo and gave nothing (round 14 of issue 28). Before, the photo's process
    ran with OpenBLAS's default (None: a thread a core)."""
    home = tmp_path / "home"
    for argv in (["photo", "detect", str(photos["table"]), "-p", POSITION, "--json"],
                 ["--lang", "pl", "photo", "detect", str(photos["missing"]), "-p", POSITION]):
        code, threads = _blas_threads_said(argv, home)
        assert threads == "1", (argv, code)
    # the player's own setting stands; a line that is no photo's is left as it was
    assert _blas_threads_said(["photo", "detect", str(photos["table"]), "-p", POSITION, "--json"], home, "3")[1] == "3"
    assert _blas_threads_said(["range", "obi", "sbd", "-p", "clone-wars-corridor"], home)[1] == "None"
    # the set-up photo's terrain read by `map from-photo` is a photo read too
    assert _blas_threads_said(["map", "from-photo", str(photos["table"]), "--cols", "12", "--rows", "12"], home)[1] == "1"


def test_the_photo_is_decoded_while_the_commands_modules_load(photos: dict[str, Path], tmp_path: Path) -> None:
    """The fast path starts the photo's decoding (a second thread: OpenCV's decoder lets go of the
    GIL) before it loads Typer and the command's other modules (0.1-0.2 s of Python on two cores),
    so neither waits for the other (round 15 of issue 28); before, the decoding started after them.
    The answer is the tree's all the same."""
    probe = ("import assistant.photofile as F; _load = F.load_image; "
             "F.load_image = lambda *a, **k: (print('typer loaded at decoding:', 'typer' in sys.modules, file=sys.stderr), _load(*a, **k))[1]; ")
    argv = ["photo", "detect", str(photos["table"]), "-p", POSITION, "--json"]
    code, out, err = _run(FAST.replace("import sys; ", "import sys; " + probe, 1), argv, tmp_path / "home")
    assert code == 0 and "typer loaded at decoding: False" in err, (out, err)  # before: True
    assert _same((code, out, "")) == _same((*_run(TREE, argv, tmp_path / "home")[:2], ""))


@pytest.mark.parametrize("photo, code", [("table", 0), ("noise", 2), ("missing", 2)])
def test_a_json_photo_answer_loads_neither_typer_nor_rich(photo: str, code: int, photos: dict[str, Path], tmp_path: Path) -> None:
    """A ``--json`` answer (a grid found, none found, a photo refused) is written as it is: the fast
    path loads neither Typer (the tree's command raised ``typer.Exit`` for a refusal) nor Rich (its
    consoles are made where they first print): 0.06-0.07 CPU-seconds of the call on two cores, Rich's
    before the photo's decoding could start (round 30 of issue 28). The answer is the tree's."""
    probe = "import atexit; atexit.register(lambda: print('loaded:', 'typer' in sys.modules, 'rich' in sys.modules, file=sys.stderr)); "
    argv = ["photo", "detect", str(photos[photo]), "-p", POSITION, "--json"]
    _run(FAST, argv, tmp_path / "home")  # fills the card library's cache
    got, out, err = _run(FAST.replace("import sys; ", "import sys; " + probe, 1), argv, tmp_path / "home")
    assert got == code and "loaded: False False" in err, (out, err)  # before: True True
    assert _same((got, out, "")) == _same((*_run(TREE, argv, tmp_path / "home")[:2], ""))


def test_a_photo_is_decoded_before_rich_loads(photos: dict[str, Path], tmp_path: Path) -> None:
    """Even an answer printed as text (on Rich's console) starts the photo's decoding first."""
    probe = ("import assistant.photofile as F; _load = F.load_image; "
             "F.load_image = lambda *a, **k: (print('rich loaded at decoding:', 'rich' in sys.modules, file=sys.stderr), _load(*a, **k))[1]; ")
    argv = ["photo", "detect", str(photos["table"]), "-p", POSITION]
    code, out, err = _run(FAST.replace("import sys; ", "import sys; " + probe, 1), argv, tmp_path / "home")
    assert code == 0 and "rich loaded at decoding: False" in err and "grid found" in out, (out, err)  # before: True


def test_the_modules_detect_loads_are_loaded_while_the_photo_is_decoded(photos: dict[str, Path], tmp_path: Path) -> None:
    """While the photo is decoded on the other core the main thread waited idle; it now loads the
    modules :func:`~assistant.photo.detect` would load on its way (numpy's masked arrays and random
    generator, the lens's bend: 0.02 CPU-seconds; round 30 of issue 28). The decoding here waits
    until those modules are loaded (at most 20 s), so that the answer does not hang on how busy the
    machine is (a fixed 0.5 s wait was too short at a load average of 14): code that loads them only
    after the photo is decoded waits out the 20 s and says False. The answer is the tree's all the same."""
    probe = ("import time; import assistant.photofile as F; import assistant.photo as P; _load, _detect = F.load_image, P.detect; "
             "_M = ('numpy.ma', 'numpy.random', 'assistant.photo.lens'); _end = time.time() + 20; "
             "_wait = lambda: [None for _ in iter(lambda: time.sleep(0.01) or time.time() > _end "
             "or all(m in sys.modules for m in _M), True)]; "
             "F.load_image = lambda *a, **k: (_wait(), _load(*a, **k))[1]; "
             "P.detect = lambda *a, **k: (print('loaded before detect:', all(m in sys.modules for m in _M), "
             "file=sys.stderr), _detect(*a, **k))[1]; ")
    argv = ["photo", "detect", str(photos["table"]), "-p", POSITION, "--json"]
    code, out, err = _run(FAST.replace("import sys; ", "import sys; " + probe, 1), argv, tmp_path / "home")
    assert code == 0 and "loaded before detect: True" in err, (out, err)  # before: False
    assert _same((code, out, "")) == _same((*_run(TREE, argv, tmp_path / "home")[:2], ""))


def test_the_photo_is_decoded_while_the_photo_package_loads(photos: dict[str, Path], tmp_path: Path) -> None:
    """The fast path starts the photo's decoding as soon as OpenCV is loaded: the photo package's
    own modules (the grid search, the bases, the placement: 0.04-0.05 CPU-seconds on two cores) load
    on the main thread while the photo is decoded on the other, where before the decoding waited for
    them (reading R350; round 31 of issue 28). The answer is the tree's all the same."""
    probe = ("import assistant.photofile as F; _decoding = F.decoding; "
             "F.decoding = lambda *a, **k: (print('photo package loaded at decoding:', 'assistant.photo' in sys.modules, file=sys.stderr), "
             "_decoding(*a, **k))[1]; ")
    argv = ["photo", "detect", str(photos["table"]), "-p", POSITION, "--json"]
    code, out, err = _run(FAST.replace("import sys; ", "import sys; " + probe, 1), argv, tmp_path / "home")
    assert code == 0 and "photo package loaded at decoding: False" in err, (out, err)  # before: no such module, the package loaded first
    assert _same((code, out, "")) == _same((*_run(TREE, argv, tmp_path / "home")[:2], ""))


def test_opencvs_lab_tables_are_made_on_the_decodings_thread(photos: dict[str, Path], tmp_path: Path) -> None:
    """OpenCV makes its Lab tables on the first conversion to Lab of a process (0.1 CPU-seconds on
    the 2-core machine); the printed-lines search of a photo without four corner markers paid them
    on the main thread. The decoding's thread now makes them once the photo is decoded, while the
    command's modules load (reading R360; round 32 of issue 28). The answer is the tree's all the same."""
    probe = ("import threading, cv2; _cvt = cv2.cvtColor; _first = []; "
             "cv2.cvtColor = lambda im, code, *a, **k: ((_first or _first.append(1) or print('lab tables made on the main thread:', "
             "threading.current_thread() is threading.main_thread(), file=sys.stderr)) if code == cv2.COLOR_BGR2Lab else None, "
             "_cvt(im, code, *a, **k))[1]; ")
    argv = ["photo", "detect", str(photos["table"]), "-p", POSITION, "--json"]
    code, out, err = _run(FAST.replace("import sys; ", "import sys; " + probe, 1), argv, tmp_path / "home")
    assert code == 0 and "lab tables made on the main thread: False" in err, (out, err)  # before: no conversion to Lab at all here
    assert _same((code, out, "")) == _same((*_run(TREE, argv, tmp_path / "home")[:2], ""))


def test_a_photo_refused_makes_no_lab_tables() -> None:
    """The decoding's thread makes OpenCV's Lab tables only after a photo decoded: a refused one's
    command stops there, and does not wait for them (R360)."""
    import assistant.photofile as photofile
    from assistant.errors import AssistantError

    made: list[bool] = []

    def refused(_path: Path) -> np.ndarray:
        raise AssistantError("no such image")

    real = photofile.make_lab_tables
    photofile.make_lab_tables = lambda: made.append(True)  # type: ignore[assignment]
    try:
        with photofile.decoding(Path("missing.jpg"), refused) as photo:
            with pytest.raises(AssistantError):
                photo.result()
        with photofile.decoding(Path("any.jpg"), lambda _p: np.zeros((20, 20, 3), np.uint8)) as photo:
            photo.result()
    finally:
        photofile.make_lab_tables = real  # type: ignore[assignment]
    assert made == [True]  # the decoded photo's, not the refused one's


def test_every_conversion_to_lab_holds_the_tables_lock() -> None:
    """OpenCV makes its Lab tables on the first conversion without a lock of its own: every
    conversion to Lab (or Luv, which shares them) goes through :func:`assistant.photofile.lab`, so
    that none reads them while the decoding's thread is making them (R360)."""
    root = Path(__file__).resolve().parent.parent / "assistant"
    direct = [f"{p.relative_to(root.parent)}:{n}" for p in sorted(root.rglob("*.py")) if p.name != "photofile.py"
              for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
              if re.search(r"COLOR_(BGR|RGB)2(Lab|Luv)", line)]
    assert direct == []  # before: assistant/photo/lines.py's outline of the map's region


#: a stand-in for ``ctypes.CDLL`` that says each ``mallopt`` asked of the C library (and whether numpy was loaded then)
MALLOPT_PROBE = ("import ctypes; _CDLL = ctypes.CDLL; "
                 "_Seen = type('_Seen', (), {'__init__': lambda s, lib: setattr(s, 'lib', lib), "
                 "'__getattr__': lambda s, n: getattr(s.lib, n), "
                 "'mallopt': lambda s, k, v: (print('mallopt', k, v, 'numpy loaded:', 'numpy' in sys.modules, file=sys.stderr), "
                 "s.lib.mallopt(k, v))[1]}); "
                 "ctypes.CDLL = lambda *a, **k: _Seen(_CDLL(*a, **k)); ")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator settings")
def test_a_photo_read_keeps_the_memory_its_arrays_free(photos: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fast path's ``photo detect`` sets glibc's allocator, before numpy loads, to keep the memory
    its arrays free for the next ones rather than give it back and fault it in afresh (0.1-0.2
    CPU-seconds of page faults a 12 MP photo; reading R361), unless the environment sets any of its
    ``MALLOC_*`` settings (the player's choice stands). The answer is the tree's all the same."""
    argv = ["photo", "detect", str(photos["table"]), "-p", POSITION, "--json"]
    code, out, err = _run(FAST.replace("import sys; ", "import sys; " + MALLOPT_PROBE, 1), argv, tmp_path / "home")
    import ctypes

    if not hasattr(ctypes.CDLL(None), "gnu_get_libc_version"):
        pytest.skip("not glibc")
    set_ = re.findall(r"mallopt (-\d) (\d+) numpy loaded: (\w+)", err)
    assert code == 0 and set_ == [("-3", "33554432", "False"), ("-1", "1073741824", "False"), ("-2", "268435456", "False")], (out, err)  # before: none
    assert _same((code, out, "")) == _same((*_run(TREE, argv, tmp_path / "home")[:2], ""))
    monkeypatch.setenv("MALLOC_ARENA_MAX", "2")
    code, out, err = _run(FAST.replace("import sys; ", "import sys; " + MALLOPT_PROBE, 1), argv, tmp_path / "home")
    assert code == 0 and "mallopt" not in err and json.loads(out)["grid_found"], (out, err)
