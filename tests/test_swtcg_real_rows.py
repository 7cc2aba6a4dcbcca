"""Round 30's new-user pass over the community's real SW TCG set files (SWTCG/SWTCG-LACKEY,
starwars/sets/SR.txt, Sith Rising): rows as the file prints them, asked what a player asks."""

from __future__ import annotations

import yaml

from assistant.swtcg import engine as swtcg
from assistant.swtcg.importers import SwtcgCardData, load_lackey
from assistant.swtcg.table import parse_table

HEADER = "Name\tSet\tImageFile\tSide\tType\tSubtype\tCost\tSpeed\tPower\tHealth\tRarity\tNumber\tUsage\tText\tScript\tClassification"
ROWS = [
    "Mobile Assault Cannon\tSR\tSR078_Mobile_Assault_Cannon\tL\tGround\tRepublic Assault Walker\t8\t30\t7\t8\tC\t78\t\tIon Cannon 2\t\tWOTC, REP, CW",
    "Super Battle Droid Squad\tSR\tSR088_Super_Battle_Droid_Squad\tD\tGround\tDroid Squad\t5\t30\t5\t6\tC\t88\t\t\t\tWOTC, REP, CW",
]


def _cards() -> dict[str, SwtcgCardData]:
    cards, _unused = load_lackey(HEADER + "\n" + "\n".join(ROWS) + "\n", "SR.txt")
    return {c.name: c for c in cards}


def _said(entries: list[dict[str, object]], line: str) -> str:
    table = parse_table(yaml.safe_dump({"format": "swtcg-table/1", "step": "battle-ground", "players": {"DS": {}, "LS": {}},
                                        "units": entries}, sort_keys=False), "t")
    return " ".join(swtcg.apply(table, line).said)


def test_a_keyword_not_modelled_is_named_as_the_card_prints_it_and_once() -> None:
    """The Mobile Assault Cannon's "Ion Cannon 2": every attack it took part in listed it twice, once
    as the table file's key ("Mobile Assault Cannon: ion_cannon, Mobile Assault Cannon: Ion Cannon 2").
    Reading R327."""
    cards = _cards()
    entries = [cards["Mobile Assault Cannon"].table_entry("mac", "LS", "ground"),
               cards["Super Battle Droid Squad"].table_entry("sbd", "DS", "ground")]
    for line in ("LS attack mac -> sbd", "DS attack sbd -> mac"):
        said = _said(entries, line)
        assert "ion_cannon" not in said, said
        assert said.count("Ion Cannon 2") == 1, said


def test_a_keyword_written_by_hand_is_named_in_the_cards_words() -> None:
    """A table file written by hand (`keywords: {bombard: 2}`): the attack named the key, "bombard"."""
    entries = [{"id": "mac", "owner": "LS", "name": "Walker", "type": "Ground - Walker", "cost": 5, "power": 5, "health": 5,
                "speed": 30, "zone": "ground", "keywords": {"bombard": 2}},
               {"id": "sbd", "owner": "DS", "name": "Squad", "type": "Ground - Droid Squad", "cost": 5, "power": 5, "health": 6,
                "speed": 30, "zone": "ground"}]
    said = _said(entries, "LS attack mac -> sbd")
    assert "Walker: Bombard 2" in said and "Walker: bombard" not in said, said
