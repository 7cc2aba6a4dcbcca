"""A SW TCG unit's own sentences the engine has no reading for are never dropped silently (R296).

Rows as the community's LackeyCCG set files print them (SWTCG/SWTCG-LACKEY, starwars/sets/ANH.txt):
before R296 Figrin D'an's "each of your opponent's Characters gets -10 speed and -1 power" imported
as a card played in full, and an attack beside him rolled without a word of it."""

from __future__ import annotations

import yaml

from assistant.swtcg import engine as swtcg
from assistant.swtcg.importers import SwtcgCardData, load_lackey
from assistant.swtcg.table import parse_table

HEADER = "Name\tSet\tImageFile\tSide\tType\tSubtype\tCost\tSpeed\tPower\tHealth\tRarity\tNumber\tUsage\tText\tScript\tClassification\tDraftRarity"
ROWS = [
    "Figrin D'an (A)\tANH\tANH015\tN\tCharacter\tBith Musician\t4\t20\t3\t3\tR\t15\t\tAs long as Figrin is in the Character arena, each of "
    "your opponent's Characters gets -10 speed and -1 power.\t\tWOTC\t",
    "Stormtrooper TK-421\tANH\tANH046\tD\tCharacter\tImperial Clone Stormtrooper\t5\t40\t6\t5\tR\t46\t\tThis unit gets -2 power as long "
    "as it's attacking a unique Character.\t\tWOTC\t",
    "Luke's X-Wing (A)\tANH\tANH028\tL\tSpace\tRebel Starfighter\t4\t50\t3\t2\tR\t28\t\tAccuracy 1 | Shields 1\t\tWOTC\t",
    "Beru Lars (A)\tANH\tANH002\tL\tCharacter\tTatooine Farmer\t3\t10\t1\t3\tR\t2\t\t\t\tWOTC\t",
]


def _cards() -> dict[str, SwtcgCardData]:
    cards, _unused = load_lackey(HEADER + "\n" + "\n".join(ROWS) + "\n", "ANH.txt")
    return {c.name: c for c in cards}


def test_a_sentence_no_reading_takes_makes_the_card_partial_and_says_which() -> None:
    cards = _cards()
    figrin, tk, xwing = cards["Figrin D'an (A)"], cards["Stormtrooper TK-421"], cards["Luke's X-Wing (A)"]
    assert any("-10 speed and -1 power" in w and "not applied" in w for w in figrin.why_partial)
    assert any("attacking a unique Character" in w for w in tk.why_partial)
    assert xwing.why_partial == () and xwing.keywords == (("accuracy", 1), ("shields", 1))
    assert cards["Beru Lars (A)"].why_partial == ()


def test_the_attack_lists_the_attacker_s_words_and_an_aura_in_play() -> None:
    cards = _cards()
    entries = [cards["Figrin D'an (A)"].table_entry("fig", "DS", "character"),
               cards["Stormtrooper TK-421"].table_entry("tk", "DS", "character"),
               cards["Beru Lars (A)"].table_entry("beru", "LS", "character")]
    table = parse_table(yaml.safe_dump({"format": "swtcg-table/1", "step": "battle-character", "players": {"DS": {}, "LS": {}},
                                        "units": entries}, sort_keys=False), "t")
    said = " ".join(swtcg.apply(table, "DS attack tk -> beru").said)
    assert "not modelled" in said
    assert "attacking a unique Character" in said  # the attacker's own
    assert "-10 speed and -1 power" in said  # Figrin's aura, though he takes no part in the attack
