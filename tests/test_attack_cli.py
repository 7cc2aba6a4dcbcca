"""attack / targets / abilities from the command line, and nothing a card names silently dropped."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from assistant.abilities import classify, known
from assistant.cards import default_library
from assistant.cli.app import app
from assistant.position import load_position
from assistant.resources import example_path
from assistant.rules.attack import attack

runner = CliRunner()
P = ["--position", "clone-wars-example-combat"]
CONTRACT_KEYS = {"query", "rules", "attacker", "target", "legal", "illegal_reasons", "attack_bonus", "defense", "needs",
                 "p_hit", "critical_on", "damage", "critical_damage", "expected_damage", "modifiers", "not_modelled"}


def run(*args):
    return runner.invoke(app, list(args))


def test_attack_json_follows_the_contract() -> None:
    r = run("attack", "sbd", "obi", *P, "--combined-fire", "sbdc", "--json")
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    assert CONTRACT_KEYS <= set(obj)
    assert (obj["attack_bonus"], obj["defense"], obj["needs"], obj["p_hit"], obj["damage"], obj["critical_damage"]) == (15, 26, 11, 0.5, 20, 30)
    assert obj["expected_damage"] == 10.5 and obj["critical_on"] == [20] and obj["legal"] is True
    assert all({"source", "applies_to", "value", "rule"} <= set(m) for m in obj["modifiers"])
    assert "obi: Soresu Style Master" in obj["not_modelled"]


def test_illegal_target_comes_back_with_every_reason() -> None:
    obj = json.loads(run("attack", "dooku", "obi", *P, "--json").stdout)
    assert obj["legal"] is False
    texts = " ".join(r["text"] for r in obj["illegal_reasons"])
    assert "Melee Attack" in texts
    assert all(r["rule"].startswith("swm2008") for r in obj["illegal_reasons"])


def test_unknown_stat_is_a_clean_error() -> None:
    r = run("attack", "sbd", "clone", *P, "--json")
    assert r.exit_code == 2 and "Defense is unknown" in json.loads(r.stdout)["error"]


def test_ranged_and_melee_together_refused() -> None:
    r = run("attack", "sbd", "obi", *P, "--ranged", "--melee")
    assert r.exit_code == 2 and "not both" in r.stderr


def test_targets_lists_every_enemy(tmp_path) -> None:
    png = tmp_path / "t.png"
    r = run("targets", "sbd", *P, "--json", "--png", str(png))
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    assert {row["target"] for row in obj["targets"]} == {"obi", "clone"}
    obi = next(row for row in obj["targets"] if row["target"] == "obi")
    assert obi["legal"] is True and obi["needs"] == 15  # no helper declared here
    assert png.stat().st_size > 1000


def test_abilities_reports_coverage() -> None:
    obj = json.loads(run("abilities", "--json").stdout)
    swm = obj["games"]["swm"]
    assert swm["known_by_name"] >= 200 and "Cunning Attack" in swm["modelled"]
    assert swm["on_shipped_cards"]["Cunning Attack"] == "modelled"
    assert swm["on_shipped_cards"]["Lightsaber Riposte"] == "known"
    assert obj["games"]["ddm"]["known_by_name"] >= 100


def test_every_ability_on_a_shipped_card_is_known() -> None:
    for game in ("swm", "ddm"):
        for card in default_library().cards(game):
            for text in list(card.special_abilities) + [p.name for p in getattr(card, "force_powers", ())]:
                assert classify(game, text).status in ("modelled", "known"), f"{card.name}: {text}"


def test_nothing_a_card_names_is_silently_dropped() -> None:
    pos = load_position(example_path("clone-wars-example-combat"))
    ans = attack(pos, "sbd", "obi", combined_fire=("sbdc",))
    for fig in (pos.figure("sbd"), pos.figure("obi")):
        for text in pos.stats_of(fig).abilities or ():
            c = classify("swm", text, "swm2008")
            listed = f"{fig.id}: {text}" in ans.not_modelled
            assert listed or c.status == "modelled", text
            if c.status == "modelled":
                assert not listed


def test_glossary_entries_cite_their_source() -> None:
    for entry in known().values():
        assert entry.source and entry.editions
