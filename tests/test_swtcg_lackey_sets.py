"""Round 32's pass over the community's real SW TCG set files, every era (SWTCG/SWTCG-LACKEY,
``starwars/sets/``): rows copied as the files print them, asked what a player asks of them.

Where each row comes from (repository SWTCG/SWTCG-LACKEY, path, commit):

- OBWN.txt @ 09d16f930a9ec52ac09d49febdd82018ca319b06: Darth Vader (N2), No Longer
- ANH.txt @ 02356af14c6f08e3116e112f2de311dbd76ecfab: Darth Vader (A)
- ESB.txt @ 0495ee827fd8e1659e1811a273da450696d7f5cb: Chewbacca (G)
- ROTJ.txt @ 09d16f930a9ec52ac09d49febdd82018ca319b06: Nien Nunb (A) (its Usage cut after the first ruling)
- HELP.txt @ a6310d9569a92b768edd3db410fc49c04e8d1e15: {Battle Phase}, {Attack Sequence}
- AllSets.txt @ 2e36e5ec13da78395395741f470c2fefb90ee899: its header (ends with a tab) and Luke's X-Wing (A)
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from assistant.cli.app import app
from assistant.swtcg.importers import SwtcgCardData, card_line, load_lackey

HEADER = "Name\tSet\tImageFile\tSide\tType\tSubtype\tCost\tSpeed\tPower\tHealth\tRarity\tNumber\tUsage\tText\tScript\tClassification\tDraftRarity"
VADER_N2 = ("Darth Vader (N2)\tOBWN\tOBWN042_Darth_Vader_N2\tD\tCharacter\tImperial Dark Jedi Knight - Sith Lord\t9.0\t60.0\t6.0\t6.0\tU\t42.0\t\t"
            "Hidden Cost 6 | Fury X, up to 6, where X is the number of corruption counters on Vader. | Whenever Vader causes a unit to be discarded, "
            "put 1 corruption counter on him. | Pay 2 Force -> Deflect 1, Evade 1\t\tREP, CW, STAND\t")
VADER_A = ("Darth Vader (A)\tANH\tANH007_Darth_Vader_A\tD\tCharacter\tDark Jedi Knight - Sith Lord\t8\t50\t6\t6\tR\t7\t\tWhen Vader attacks a Character "
           "other than a Jedi Knight or a Jedi Master, you may pay Force equal to that Character's total build cost. If you do, that Character "
           "retreats when Vader's attack ends. | Pay 2 Force -> Evade 2 | Pay 1 Force -> Intercept\t\tWOTC, REB, EP456\t")
NO_LONGER = ("No Longer\tOBWN\tOBWN015_No_Longer_v2\tN\tBattle\t\t\t\t\t\tR\t15.0\t*BANNED\tPay 6 Force, Retreat one of your untapped units in any "
             "arena with printed build cost 5 or more and put 1 damage counter on that unit card -> Tap all untapped units. Play only if no player "
             "controls 2 or more arenas.\t\tREB, STAND\t")
CHEWBACCA_G = ("Chewbacca (G)\tESB\tChewbacca_G\tL\tCharacter\tRebel Wookiee\t6\t40\t5\t7\tR\t11\t**RESTRICTED**: This card has been restricted to "
               "one copy per deck in tournament play. | You may play the effect only once per turn.\tPay 1 build point -> Put a Droid Character card "
               "from you discard pile into the Character arena. Put 1 damage counter on it. Play only during your build step. | Pay 3 Force -> "
               "Retaliate 6\t\tWR, VR, WOTC, REB, EP456\t")
NIEN_NUNB = ("Nien Nunb (A)\tROTJ\tROTJ029_Nien_Nunb_A\tL\tCharacter\tRebel\t4.0\t20.0\t3\t3\tR\t29\tBANNED in Vintage. | As long as Nien Nunb "
             "is piloting a unit with at least one other pilot, he's considered an extra pilot.\t[Pilot] Starfighter and Transport pilot. If there is "
             "more than one Pilot on the Starfighter or Transport, it gets: * +30 speed * +3 power * Accuracy 2\t\tWB, VB, WOTC, REB, EP456\t")
HELP_ROWS = ["{Battle Phase}\tHELP\tHELP004_Battle_Phase\t\tReminder\t\t\t\t\t\t\t4\t\tThis is a rules reminder card for the Battle Phase\t\t\t",
             "{Attack Sequence}\tHELP\tHELP006_Attack_Sequence\t\tReminder\t\t\t\t\t\t\t6\t\tThis is a rules reminder card for the Attack Sequence\t\t\t"]
ALLSETS_HEADER = "Name\tSet\tImageFile\tSide\tType\tSubtype\tCost\tSpeed\tPower\tHealth\tRarity\tNumber\tUsage\tText\t"
ALLSETS_ROW = "Luke's X-Wing (A)\tANH\tLukes_X_Wing_A\tL\tSpace\tRebel Starfighter\t4\t50\t3\t2\tR\t28\t\tAccuracy 1 | Shields 1\t"


def _cards(*rows: str) -> dict[str, SwtcgCardData]:
    cards, _unused = load_lackey(HEADER + "\n" + "\n".join(rows) + "\n", "set.txt")
    return {c.name: c for c in cards}


def _import(tmp_path: Path, files: dict[str, str], *args: str) -> tuple[int, str]:
    folder = tmp_path / "sets"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    r = CliRunner().invoke(app, ["swtcg", "import", str(folder), *args])
    return r.exit_code, r.output


def test_a_later_sets_two_character_version_is_the_same_unique_character() -> None:
    """OBWN and TROS print versions as a letter and a number ("Darth Vader (N2)", "Anakin Skywalker (F2)"):
    the import kept "(N2)" in the table name and marked the card not unique, so on the table it was
    another character than Darth Vader (A) -- no stacking, no unique-unit contest (FAQ L5-14). Reading R385."""
    cards = _cards(VADER_N2, VADER_A)
    n2, a = cards["Darth Vader (N2)"], cards["Darth Vader (A)"]
    assert n2.unique and a.unique
    entry, entry_a = n2.table_entry("vn2", "DS", "character"), a.table_entry("va", "DS", "character")
    assert entry["name"] == entry_a["name"] == "Darth Vader", (entry, entry_a)
    assert entry.get("unique") is True, entry


def test_a_rules_reminder_row_is_set_aside_not_listed_as_a_card(tmp_path: Path) -> None:
    """The community folder's HELP.txt holds LackeyCCG's rules reminders ("{Battle Phase}", type
    Reminder): imported as cards "with a part not modelled", and `--entry battle` found "{Battle
    Phase}" instead of saying no card has that name. Reading R386."""
    help_txt = HEADER + "\n" + "\n".join(HELP_ROWS) + "\n"
    code, out = _import(tmp_path, {"HELP.txt": help_txt, "OBWN.txt": HEADER + "\n" + VADER_N2 + "\n"})
    assert code == 0, out
    assert "{Battle Phase}" not in out.split("note:")[0], out  # not in the listing or the report's items
    assert "2 rules-reminder rows" in out and "not cards" in out, out
    assert "2 set files: 1 card" in out, out  # Darth Vader (N2) alone
    (tmp_path / "again").mkdir()
    code, out = _import(tmp_path / "again", {"HELP.txt": help_txt, "OBWN.txt": HEADER + "\n" + VADER_N2 + "\n"}, "--entry", "battle")
    assert code == 2 and "unknown card 'battle'" in out, out


def test_an_empty_header_cell_is_no_column_to_report(tmp_path: Path) -> None:
    """AllSets.txt's header ends with a tab (so do its rows): the report said "columns not used:
    Number, Usage, " -- an empty name after the last comma. Reading R387."""
    code, out = _import(tmp_path, {"AllSets.txt": ALLSETS_HEADER + "\n" + ALLSETS_ROW + "\n"})
    assert code == 0, out
    assert "columns not used: Number, Usage\n" in out, out
    assert "Usage, \n" not in out and "Usage, " not in out.replace("Usage, Script", ""), out


def test_a_card_the_usage_column_marks_banned_or_restricted_says_so(tmp_path: Path) -> None:
    """The Usage column marks a card banned ("*BANNED", OBWN's No Longer), restricted to one copy
    ("**RESTRICTED**: ...", ESB's Chewbacca (G)), or banned in one format ("BANNED in Vintage.", ROTJ's
    Nien Nunb (A)); the import read nothing of it, so a judge looking a card up never learnt it. The
    mark is said in the file's words (never "banned" for a card banned in Vintage alone), and the card
    still plays as printed. Reading R388."""
    cards = _cards(NO_LONGER, CHEWBACCA_G, VADER_A, NIEN_NUNB)
    assert "Usage column: BANNED]" in card_line(cards["No Longer"])
    assert "Usage column: RESTRICTED: This card has been restricted to one copy per deck in tournament play]" in card_line(cards["Chewbacca (G)"])
    assert "Usage column: BANNED in Vintage]" in card_line(cards["Nien Nunb (A)"])
    assert "Usage" not in card_line(cards["Darth Vader (A)"])
    assert ("retaliate", 6) in cards["Chewbacca (G)"].keywords  # it plays as printed
    code, out = _import(tmp_path, {"ESB.txt": HEADER + "\n" + CHEWBACCA_G + "\n" + NO_LONGER + "\n" + NIEN_NUNB + "\n"})
    assert code == 0, out
    assert "3 cards the file's Usage column marks banned or restricted" in out and "No Longer: BANNED;" in out, out
    assert "Nien Nunb (A): BANNED in Vintage" in out, out
    # the same card in a file of every set without the mark (AllSets.txt is an older copy) is the same card, counted once
    allsets_row = "\t".join(CHEWBACCA_G.split("\t")[:12] + ["", CHEWBACCA_G.split("\t")[13]]) + "\t"
    (tmp_path / "two").mkdir()
    allsets = ALLSETS_HEADER + "\n" + allsets_row + "\n" + ALLSETS_ROW + "\n"
    code, out = _import(tmp_path / "two", {"ESB.txt": HEADER + "\n" + CHEWBACCA_G + "\n", "AllSets.txt": allsets})
    assert code == 0 and "0 refused" in out and "1 card read already" in out, out
    assert "retaliate 6 (pay 3 Force) [the file's Usage column: RESTRICTED" in out, out  # the set's own file is the one kept


def test_two_keywords_bought_with_one_payment_are_not_said_to_have_no_verb() -> None:
    """OBWN's Darth Vader (N2) prints "Pay 2 Force -> Deflect 1, Evade 1": the import listed it as "a
    paid keyword the engine has no verb for", though Deflect and Evade each have one; what the engine
    cannot do is charge one payment for two keywords. Reading R389."""
    vader = _cards(VADER_N2)["Darth Vader (N2)"]
    said = " ".join(vader.conditional)
    assert "Pay 2 Force -> Deflect 1, Evade 1" in said, said
    assert "no verb" not in said and "one payment" in said, said
    assert not any(kw in ("deflect", "evade") for kw, _v in vader.keywords)  # never given free, nor charged twice


def test_one_card_is_one_card_in_every_language(tmp_path: Path) -> None:
    """An import of one card said "1 cards" twice (the listing and the report), and Polish
    said "2 kart" for two cards ("2 karty"). Reading R390."""
    code, out = _import(tmp_path, {"OBWN.txt": HEADER + "\n" + VADER_N2 + "\n"})
    assert code == 0 and "\n1 card;" in out and "1 card: 0 imported" in out and "1 cards" not in out, out
    (tmp_path / "pl").mkdir()
    folder = tmp_path / "pl" / "sets"
    folder.mkdir()
    (folder / "ESB.txt").write_text(HEADER + "\n" + CHEWBACCA_G + "\n" + NO_LONGER + "\n", encoding="utf-8")
    r = CliRunner().invoke(app, ["--lang", "pl", "swtcg", "import", str(folder)])
    assert r.exit_code == 0 and "2 karty:" in r.output and "2 kart:" not in r.output, r.output
