"""A file name that is not UTF-8 (a byte like 0xff, which Python holds as a lone surrogate) quoted
in a ``--json`` answer: the answer is still one JSON object in UTF-8, exit 2, never a crash.

Before, on a UTF-8 stdout that refuses surrogates (a desktop's ``en_US.UTF-8``; here
``PYTHONIOENCODING=utf-8:strict``) the fast path's ``los``/``range`` printed a traceback (exit 1)
and its ``photo detect`` an 'internal error' (exit 1), the tree 'bad argument: ... surrogates not
allowed'; on a C locale's stdout (``surrogateescape``) the raw byte 0xff made JSON no reader parses.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from assistant.terminal import json_text

from .test_cli_fast import FAST, ROOT, TREE

BAD = b"bad\xffname"  # not UTF-8: the file system allows it, and a user's camera app may write it


def _run(code: str, argv: list[bytes], home: Path, errors: str) -> tuple[int, bytes, bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TABLETOP_HOME": str(home), "NO_COLOR": "1", "COLUMNS": "100",
           "PYTHONIOENCODING": f"utf-8:{errors}"}
    for k in ("TABLETOP_CARDS", "TABLETOP_LANG", "TABLETOP_DEBUG"):
        env.pop(k, None)
    r = subprocess.run([os.fsencode(sys.executable), b"-c", code.encode(), *argv], env=env, capture_output=True, check=False,
                       cwd=home.parent)
    return r.returncode, r.stdout, r.stderr


@pytest.mark.parametrize("errors", ["strict", "surrogateescape"])
@pytest.mark.parametrize("entry", [FAST, TREE], ids=["fast", "tree"])
@pytest.mark.parametrize("line", [
    [b"photo", b"detect", BAD + b".jpg", b"-p", b"clone-wars-corridor", b"--json"],  # the photo: a text file
    [b"photo", b"detect", b"missing" + BAD + b".jpg", b"-p", b"clone-wars-corridor", b"--json"],
    [b"photo", b"detect", b"missing.jpg", b"-p", BAD + b".yaml", b"--json"],
    [b"los", b"obi", b"sbd", b"-p", BAD + b".yaml", b"--json"],
    [b"range", b"obi", b"sbd", b"-p", BAD + b".yaml", b"--json"],
], ids=lambda line: b" ".join(line).decode("ascii", "replace"))
def test_a_json_answer_quoting_a_name_that_is_not_utf8_is_utf8_json(line: list[bytes], entry: str, errors: str, tmp_path: Path) -> None:
    (tmp_path / os.fsdecode(BAD + b".jpg")).write_text("not a photo")
    code, out, err = _run(entry, line, tmp_path / "home", errors)
    assert code == 2, (out, err)
    answer = json.loads(out.decode("utf-8"))  # strict UTF-8, one JSON object
    assert os.fsdecode(BAD) in answer["error"], answer  # the name's own string back
    assert b"Traceback" not in err and b"internal error" not in err, err


#: any text, lone surrogates (which ``st.text()`` leaves out) included
ANY_TEXT = st.text(st.characters(exclude_categories=()) | st.sampled_from(["\udcff", "\ud800", "\udfff"]))


@given(st.dictionaries(ANY_TEXT, ANY_TEXT | st.floats() | st.lists(ANY_TEXT)))
def test_json_text_is_always_utf8_and_reads_back(obj: dict[str, object]) -> None:
    text = json_text(obj)
    back = json.loads(text.encode("utf-8").decode("utf-8"))  # encodable: no lone surrogate left raw
    assert set(back) == set(obj)
    for k, v in obj.items():
        if isinstance(v, str):
            assert back[k] == v
