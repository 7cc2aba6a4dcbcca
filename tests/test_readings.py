"""Answers cite what ships: the rulebooks, or the project's own register of readings
(docs/readings.md, shipped as assistant/_data/readings.md) -- never shared/ or a digest."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from assistant.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
READINGS = ROOT / "docs" / "readings.md"
runner = CliRunner()


def test_every_reading_cited_has_an_entry_with_the_seeds_words() -> None:
    text = READINGS.read_text(encoding="utf-8")
    entries = {int(m) for m in re.findall(r"^## R(\d+) — ", text, re.M)}
    cited = set()
    for path in list((ROOT / "assistant").rglob("*.py")) + list((ROOT / "cards").rglob("*.yaml")):
        for run in re.findall(r"readings? (R\d+(?:, R\d+)*) in docs/readings\.md", path.read_text(encoding="utf-8")):
            cited |= {int(m) for m in re.findall(r"R(\d+)", run)}
    assert cited and cited <= entries, sorted(cited - entries)
    for block in re.split(r"^## ", text, flags=re.M)[1:]:
        assert "> **" in block and "**Reading.**" in block and "**Why.**" in block, block[:60]


def test_miniatures_answers_cite_no_digest() -> None:
    answers = []
    for args in (["attack", "sbd", "obi", "-p", "clone-wars-example-combat", "--json"],
                 ["cover", "sbd", "obi", "-p", "clone-wars-example-combat", "--json"],
                 ["targets", "sbd", "-p", "clone-wars-example-combat", "--json"],
                 ["matrix", "-p", "pillar-room", "--json"], ["matrix", "-p", "ddm-forest-field", "--json"],
                 ["matrix", "-p", "clone-wars-corridor", "--json"]):
        r = runner.invoke(app, args)
        assert r.exit_code == 0, r.output
        answers.append(r.stdout)
    for out in answers:
        json.loads(out)
        assert not re.search(r"shared/|CONTRACT|\w+\.md §|\b[A-D]-\d{1,2}\b", out), re.search(r"shared/|CONTRACT|\w+\.md §|\b[A-D]-\d{1,2}\b", out)


DIGEST_REFERENCE = re.compile(r"shared/|CONTRACT|\w+\.md §|\b[A-D]-\d{1,2}\b")


def test_card_game_answers_cite_no_digest() -> None:
    """Every answer and refusal the golden Destiny and SW TCG scenarios draw out of the engines."""
    import yaml

    from assistant.cardgames import CARD_GAMES
    from assistant.errors import AssistantError
    from assistant.yamlio import read_text

    rules = CARD_GAMES
    texts = []
    for folder in ("golden_destiny", "golden_swtcg"):
        for path in sorted((ROOT / "tests" / folder).glob("[!_]*.yaml")):
            spec = yaml.safe_load(path.read_text(encoding="utf-8"))
            if "table" not in spec:
                continue
            game = rules[spec["game"]]
            table_spec = spec["table"]
            text = read_text(path.parent / table_spec)[0] if isinstance(table_spec, str) else yaml.safe_dump(table_spec)
            table = game.parse_table(text, path.name)
            for cmd in [*(spec.get("given") or []), *(spec.get("when") if isinstance(spec.get("when"), list) else [spec.get("when")])]:
                if cmd is None:
                    continue
                try:
                    out = game.apply(table, str(cmd))
                except AssistantError as exc:
                    texts.append(str(exc))
                    break
                table = out.table
                texts += list(out.said)
    assert len(texts) > 200
    for t in texts:
        assert not DIGEST_REFERENCE.search(t), t


def test_the_reading_command_prints_a_cited_reading_and_lists_them() -> None:
    r = runner.invoke(app, ["reading", "R24"])
    assert r.exit_code == 0 and r.stdout.startswith("## R24 — ") and "**Reading.**" in r.stdout and "**Why.**" in r.stdout
    r = runner.invoke(app, ["reading", "--json"])
    ids = [e["id"] for e in json.loads(r.stdout)["readings"]]
    assert ids == [f"R{i}" for i in range(1, len(ids) + 1)] and len(ids) >= 35
    r = runner.invoke(app, ["reading", "R999"])
    assert r.exit_code == 2 and "no reading 'R999'" in r.output


def test_an_unknown_reading_is_refused_naming_the_last_reading_there_is() -> None:
    # not how many there are: the register's numbers may have gaps while helpers' readings wait to
    # be merged (it said "R1 to R230" beside R254)
    r = runner.invoke(app, ["reading", "--json"])
    last = max(int(e["id"][1:]) for e in json.loads(r.stdout)["readings"])
    r = runner.invoke(app, ["reading", "R999"])
    assert r.exit_code == 2 and f"readings are R1 to R{last} " in " ".join(r.output.split())


def test_no_help_text_cites_what_users_do_not_have() -> None:
    import typer

    def walk(command, path=()):  # type: ignore[no-untyped-def]
        yield path
        for name, sub in getattr(command, "commands", {}).items():
            yield from walk(sub, (*path, name))

    paths = list(walk(typer.main.get_command(app)))
    assert len(paths) > 60
    for path in paths:
        r = runner.invoke(app, [*path, "--help"])
        assert r.exit_code == 0 and not DIGEST_REFERENCE.search(r.stdout), (path, DIGEST_REFERENCE.search(r.stdout))


def test_no_string_in_the_package_cites_a_digest_reading() -> None:
    """Digest readings (their case ids) never reach a user: no string of the package names one,
    and the abilities listing cites the rulebooks only. (Developers' docstrings may name the
    contract and the digests the code was written from.)"""
    import io
    import tokenize

    bad = []
    for path in (ROOT / "assistant").rglob("*.py"):
        for tok in tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline):
            if tok.type == tokenize.STRING and re.search(r"\b[AB]-\d{1,2}\b", tok.string):
                bad.append(f"{path.relative_to(ROOT)}:{tok.start[0]}")
    assert bad == []
    r = runner.invoke(app, ["abilities", "--json"])
    assert r.exit_code == 0 and not DIGEST_REFERENCE.search(r.stdout)
