"""The shell (``python -m assistant shell``): every word of a line completes (the prompt's own
completer asked with prompt_toolkit documents), its queries answer the JSON the command line
answers (the real shell on a pseudo-terminal), and its fast start (the prompt before the tree)."""

from __future__ import annotations

import json
import os
import pickle
import pty
import re
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from typer.testing import CliRunner

import assistant.cli.app  # the command tree: the shell's other lines run through it
from assistant.cli.fast import parse_shell
from assistant.cli.shell import ShellCompleter
from assistant.cli.shell_lines import split_line
from assistant.position import load_position
from assistant.resources import example_path

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()

#: the figures of the bundled clone-wars-corridor, in its file's order
CORRIDOR = ["obi", "ctc", "clone1", "clone2", "dooku", "sbdc", "sbd"]
#: and of pillar-room
PILLAR_ROOM = ["kenobi", "shaak", "grievous", "yuzzem"]


@pytest.fixture()
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh user folder whose current game is a new game of the corridor."""
    monkeypatch.setenv("TABLETOP_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("TABLETOP_CARDS", raising=False)
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(assistant.cli.app.app, ["game", "new", "-p", "clone-wars-corridor"])
    assert r.exit_code == 0, r.output
    yield tmp_path


def complete(text: str) -> list[str]:
    """What the shell's prompt offers when Tab is pressed after ``text``."""
    found = ShellCompleter().get_completions(Document(text), CompleteEvent(completion_requested=True))
    return [c.text for c in found]


def test_the_first_word_completes_verbs_and_the_commands_of_the_tree(home: Path) -> None:
    first = complete("")
    assert {"los", "cover", "attack", "targets", "game", "cards", "show", "examples", "destiny", "swtcg", "help", "quit"} <= set(first)
    assert "shell" not in first  # no shell inside the shell
    assert complete("ga") == ["game"]
    assert complete("ta") == ["targets"]


def test_the_second_word_of_a_verb_of_two_words(home: Path) -> None:
    assert complete("game mo") == ["morale", "move"]
    assert {"activate", "move", "attack", "end-turn", "undo", "status", "new"} <= set(complete("game "))  # new: the tree's
    assert {"commander", "import", "set", "list", "show"} <= set(complete("cards "))


def test_figure_ids_of_the_current_game_at_each_figure_argument(home: Path) -> None:
    assert complete("los ")[:7] == CORRIDOR
    assert complete("los obi s") == ["sbdc", "sbd"]
    assert complete("attack obi sb") == ["sbdc", "sbd"]
    assert complete("targets d") == ["dooku"]
    assert complete("game activate cl") == ["clone1", "clone2"]
    assert complete("game damage obi 2 --by do") == ["dooku"]


def test_figure_ids_of_the_position_or_game_the_line_names(home: Path) -> None:
    assert complete("los -p pillar-room ")[:4] == PILLAR_ROOM
    assert complete("los --position=pillar-room sh") == ["shaak"]
    assert complete("nearest -p no-such-position ") == ["--json", "--position", "--game"]  # nothing to read: options only


def test_squares_of_the_map_where_a_square_is_asked(home: Path) -> None:
    assert complete("game move obi C") == [f"C{n}" for n in range(1, 15)]  # the corridor is 14 rows deep
    assert complete("game move obi t1") == ["T1", "T10", "T11", "T12", "T13", "T14"]
    first = complete("game move obi ")  # an empty word: the first square of each of the 20 columns, then the options
    assert first[:20] == [f"{c}1" for c in "ABCDEFGHIJKLMNOPQRST"] and "--burrow" in first


def test_each_verbs_options_and_their_values(home: Path) -> None:
    attack = complete("attack obi sbd --")
    assert {"--json", "--stat", "--moved", "--not-moved", "--combined-fire", "--charge", "--power", "--position", "--game"} <= set(attack)
    assert {"--png", "--svg"} <= set(complete("los obi sbd --"))  # the command line's own options, run by the tree
    assert complete("game move obi C8 --b") == ["--burrow"]
    assert complete("los --position clone") == ["clone-wars-corridor", "clone-wars-example-combat"]
    assert complete("attack obi sbd --combined-fire clone1,cl") == ["clone1,clone2"]
    assert complete("game export --format ") == ["json", "md"]
    assert complete("game condition obi ")[:2] == ["add", "remove"]
    assert complete("game condition obi add st") == ["stunned"]  # the edition's own conditions (swm2008; reading R163)
    assert complete("game condition obi add ")[:2] == ['"jedi mind trick"', "stunned"]
    assert complete("game door I")[:1] == ["I4.S"]  # the corridor's northern door, I5.N, by its canonical name
    assert complete("game attack obi sbd --roll 2") == ["2", "20"]


def test_card_names_complete_quoted(home: Path) -> None:
    assert '"General Obi-Wan Kenobi"' in complete("cards show Gen")
    assert complete('cards show "General Obi') == ['"General Obi-Wan Kenobi"']
    assert '"General Obi-Wan Kenobi"' in complete("cards set General")


def test_other_lines_complete_as_the_command_tree_completes_them(home: Path) -> None:
    assert complete("show pil") == ["pillar-room"]
    assert {"detect", "apply"} <= set(complete("photo "))
    assert "--svg" in complete("show --")
    assert complete("abilities --game ") == ["ddm", "swm"]  # a game's rules, not a game file


def test_completing_as_one_types_never_waits_for_the_start(home: Path) -> None:
    """Tab waits for the background start; a key typed before it is done completes nothing."""
    completer = ShellCompleter()
    typed = list(completer.get_completions(Document("game mo"), CompleteEvent(text_inserted=True)))
    assert typed == [] and completer.warm.thread is None  # nothing started, nothing waited for
    asked = completer.get_completions(Document("game mo"), CompleteEvent(completion_requested=True))
    assert [c.text for c in asked] == ["morale", "move"]
    assert [c.text for c in completer.get_completions(Document("game mo"), CompleteEvent(text_inserted=True))] == ["morale", "move"]


def test_completion_never_fails(home: Path) -> None:
    for text in ('los "unclosed', "los obi sbd --game /no/such/file --", "game move obi --tow ", "x y z ", "--"):
        complete(text)  # no exception
    assert complete("los --game /no/such/file ") == ["--json", "--position", "--game", "--png", "--svg"]


def test_split_line_reads_the_word_being_typed() -> None:
    assert split_line("") == ([], "", "")
    assert split_line("los  ") == (["los"], "", "")
    assert split_line("cards show 'Gen") == (["cards", "show"], "Gen", "'")


def test_parse_shell_takes_only_a_plain_start() -> None:
    assert parse_shell(["shell"]) == (None, None)
    assert parse_shell(["--lang", "pl", "shell", "--game=g.sqlite"]) == ("pl", Path("g.sqlite"))
    for argv in (["shell", "--help"], ["--cards", "x", "shell"], ["shell", "--game"], ["--lang", "xx", "shell"], ["los"], []):
        assert parse_shell(argv) is None


def test_a_position_keeps_no_stats_memo_in_its_pickle() -> None:
    """The position cache pickles positions: the stats memo is rebuilt, so a pickle written
    before the memo existed still answers."""
    pos = load_position(example_path("clone-wars-corridor"))
    obi = pos.figure("obi")
    stats = pos.stats_of(obi)
    assert (stats.hp, stats.defense, stats.attack, stats.damage) == (120, 22, 14, 20)  # the printed card (The Clone Wars starter)
    again = pickle.loads(pickle.dumps(pos))
    assert "_stats" not in again.__dict__ or again.__dict__["_stats"] == {}
    assert again.stats_of(again.figure("obi")) == stats
    del again.__dict__["_stats"]  # as a pickle from before
    again.__setstate__(dict(again.__dict__))
    assert again.stats_of(again.figure("obi")) == stats


# --- the real shell on a terminal ----------------------------------------------------------

ACCEPTED = b"\x1b[?2004l"  # prompt_toolkit leaves bracketed paste when a line is accepted
ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]")


class _Terminal:
    def __init__(self, env: dict[str, str], cwd: Path) -> None:
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.chdir(cwd)
            os.execve(sys.executable, [sys.executable, "-m", "assistant", "shell"], env)
        self.seen = b""

    def read_until(self, needle: bytes, timeout: float = 60.0) -> bytes:
        deadline = time.monotonic() + timeout
        while needle not in self.seen:
            assert time.monotonic() < deadline, self.seen[-2000:]
            ready, _w, _x = select.select([self.fd], [], [], 0.5)
            if ready:
                chunk = os.read(self.fd, 65536)
                if b"\x1b[6n" in chunk:  # where the cursor is, as a terminal answers
                    os.write(self.fd, b"\x1b[1;1R")
                self.seen += chunk
        at = self.seen.index(needle) + len(needle)
        got, self.seen = self.seen[:at], self.seen[at:]
        return got

    def ask(self, line: str) -> str:
        """The text the shell prints for one line (terminal codes removed)."""
        os.write(self.fd, line.encode() + b"\r")
        self.read_until(ACCEPTED)
        answer = self.read_until(b"table>")
        return ANSI.sub(b"", answer).decode("utf-8", errors="replace").replace("\r", "")

    def close(self, keys: bytes = b"quit\r") -> int:
        """``keys`` typed (``quit``, or Ctrl-D), then the shell's exit status once it has left."""
        os.write(self.fd, keys)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                os.close(self.fd)
                return os.waitstatus_to_exitcode(status)
            select.select([self.fd], [], [], 0.1)
            try:
                os.read(self.fd, 65536)
            except OSError:
                pass
        os.kill(self.pid, 9)
        raise AssertionError(f"the shell did not leave on {keys!r}")


def _json_of(text: str) -> object:
    return json.loads(text[text.index("{"): text.rindex("}") + 1])


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_the_shell_on_a_terminal_answers_the_json_the_command_line_answers(home: Path, lang: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm", "COLUMNS": "100", "LINES": "40", "TABLETOP_LANG": lang}
    queries = ["los obi sbd", "cover obi sbd", "attack obi sbd", "targets obi", "range obi dooku", "los obi sbd -p clone-wars-corridor",
               "game status"]
    cli = {}
    for q in queries:
        r = subprocess.run([sys.executable, "-m", "assistant", *q.split(), "--json"], env=env, cwd=home, capture_output=True,
                           text=True, check=False)
        assert r.returncode == 0, r.stderr
        cli[q] = json.loads(r.stdout)
    term = _Terminal(env, home)
    try:
        term.read_until(b"table>")  # the first prompt
        for q in queries:  # the first line is typed at once: it waits for the background start-up
            assert _json_of(term.ask(q + " --json")) == cli[q], q
        examples = term.ask("examples")  # a line no verb answers: through the command tree
        assert "pillar-room" in examples
        refused = term.ask("los obi nobody --json")
        assert "nobody" in str(_json_of(refused))
    finally:
        code = term.close()
    assert code == 0


def test_lines_from_a_file_run_one_by_one_and_a_refused_line_sets_the_exit_status(home: Path) -> None:
    """A user's trial: 'python -m assistant shell < plays.txt' printed the banner and "Warning: Input
    is not a terminal (fd=0)", ran none of the lines, and exited 0."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    plays = "# a judge's script\nlos obi sbd --json\n\ngame status --json\n"
    r = subprocess.run([sys.executable, "-m", "assistant", "shell"], input=plays, env=env, cwd=home, capture_output=True, text=True,
                       check=False, timeout=120)
    assert r.returncode == 0 and "not a terminal" not in r.stderr, r.stderr
    answers = [json.loads(line) for line in r.stdout.splitlines() if line.startswith("{")]
    assert [a["query"] for a in answers] == ["los", "status"], r.stdout
    r = subprocess.run([sys.executable, "-m", "assistant", "shell"], input="los obi nobody\nquit\ngame status\n", env=env, cwd=home,
                       capture_output=True, text=True, check=False, timeout=120)
    assert r.returncode == 2 and "nobody" in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert "dooku" not in r.stdout  # 'quit' stopped before 'game status'


def test_a_shell_inside_the_shell_is_refused_not_started(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The shell does not offer `shell` (no shell inside the shell); typed anyway, it started a second
    prompt inside the first (two `quit`s to leave). It is refused with exit 2 and a message naming
    what to do, and no prompt starts."""
    from assistant.cli.shell_lines import run_line

    assert run_line("shell", None) == 2
    err = capsys.readouterr().err
    assert "already in the shell" in err and "quit" in err


def test_the_web_server_inside_the_shell_is_refused_not_started(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`serve` typed in the shell ran the web server in the foreground, holding the prompt until
    Ctrl-C. It is refused with exit 2, naming where to start it, and no server starts."""
    from assistant.cli.shell_lines import complete, run_line

    assert run_line("serve", None) == 2
    err = capsys.readouterr().err
    assert "another terminal" in err and "python -m assistant serve" in err
    assert "serve" not in complete([], "ser")


def test_a_strangers_typos_and_help_are_answered_in_the_shells_words(home: Path) -> None:
    """Reading R371 (round 32): 'help los' was "No such command 'help'. Did you mean 'shell'?" -- a
    command the shell refuses -- and a typo pointed at "table> -h". Each line is answered, none
    with a traceback, and a refused line sets the exit status."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    r = subprocess.run([sys.executable, "-m", "assistant", "shell"], input="help los\nhelp game move\n", env=env, cwd=home,
                       capture_output=True, text=True, check=False, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "los [OPTIONS] {viewer} {target}" in r.stdout and "game move [OPTIONS] {figure} {to}" in r.stdout, r.stdout
    for typo, near in (("helo", "'help'"), ("lso obi sbd", "'los'"), ("xyzzy", None)):
        r = subprocess.run([sys.executable, "-m", "assistant", "shell"], input=typo + "\n", env=env, cwd=home,
                           capture_output=True, text=True, check=False, timeout=120)
        first = typo.split()[0]
        assert r.returncode == 2 and f"no command '{first}'" in r.stderr and "'help' lists every command" in r.stderr, r.stderr
        assert "'shell'" not in r.stderr and "Traceback" not in r.stderr and "table> -h" not in r.stderr
        assert (f"did you mean {near}" in r.stderr) if near else "did you mean" not in r.stderr, r.stderr


def test_ctrl_c_drops_the_line_being_typed_and_ctrl_d_leaves(home: Path) -> None:
    """Reading R371: Ctrl-C at the prompt left the shell (a player clearing a half-typed line lost
    it); now it drops the line, as a terminal's shell does, and Ctrl-D leaves, exit 0."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm", "COLUMNS": "100", "LINES": "40"}
    term = _Terminal(env, home)
    term.read_until(b"table>")
    os.write(term.fd, b"los ob\x03")
    time.sleep(2)  # the line dropped and a new prompt drawn (the old one is drawn again first): all of it read
    while select.select([term.fd], [], [], 0.5)[0]:
        term.seen += os.read(term.fd, 65536)
    term.seen = b""
    status = term.ask("game status")
    assert "obi" in status and "dooku" in status, status
    assert term.close(b"\x04") == 0  # Ctrl-D
