"""Round 31: the community's real card files as a judge damages them -- saved as UTF-16 by Windows,
cut short by a broken download, a column renamed -- each said plainly, exit 2 where nothing can be
trusted, and nothing printed as if imported (readings R343, R344 in docs/readings.md).

The rows: the first four cards of Sith Rising as SWTCG/SWTCG-LACKEY publishes them
(starwars/sets/SR.txt, its header whole: tests/fixtures/lackey-SR-excerpt.txt), and High Stakes'
and Spark of Hope's characters of swdestinydb-json-data (tests/fixtures/swdestinydb-656a50e-no-die.json).
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from assistant.cli.app import app

FIX = Path(__file__).parent / "fixtures"
SR = FIX / "lackey-SR-excerpt.txt"
DESTINY = FIX / "swdestinydb-656a50e-no-die.json"
runner = CliRunner()


def _import(game: str, path: Path) -> tuple[int, str, str]:
    r = runner.invoke(app, [game, "import", str(path)])
    return r.exit_code, r.stdout, r.stderr


def test_a_file_windows_saved_as_unicode_reads_as_its_utf8_original(tmp_path: Path) -> None:
    """R343: a Lackey set file or a swdestinydb file saved as UTF-16 with its byte-order mark (Notepad's
    and Excel's "Unicode") was refused "contains NUL bytes: a binary file, not a card list"."""
    for game, original in (("swtcg", SR), ("destiny", DESTINY)):
        code, plain, _err = _import(game, original)
        assert code == 0, plain
        for codec, bom in (("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"\xfe\xff")):
            f = tmp_path / f"{game}-{codec}{original.suffix}"
            f.write_bytes(bom + original.read_text(encoding="utf-8").encode(codec))
            code, out, err = _import(game, f)
            assert code == 0 and out == plain.replace(str(original), str(f)), out + err
            assert "read as UTF-16, as its byte-order mark says" in err, err
    # without the mark, it is said what the file is, not called binary
    f = tmp_path / "SR-nobom.txt"
    f.write_bytes(SR.read_text(encoding="utf-8").encode("utf-16-le"))
    code, out, err = _import("swtcg", f)
    assert code == 2 and out == "" and "UTF-16 text without a byte-order mark (every other byte is NUL): save it again as UTF-8" in err, err


def test_a_set_file_cut_short_inside_its_last_row_is_refused_whole(tmp_path: Path) -> None:
    """R344: the real SR.txt cut inside Aurra Sing's text imported her with the words "Treat Aurra as"
    and the set's first three cards, exit 0, as if the set ended there."""
    text = SR.read_text(encoding="utf-8")
    f = tmp_path / "SR-cut.txt"
    f.write_text(text[: text.index("Treat Aurra as") + len("Treat Aurra as")], encoding="utf-8")
    code, out, err = _import("swtcg", f)
    assert code == 2 and out == "" and "Traceback" not in err, out + err
    assert ("SR-cut.txt:4: the file ends inside this row, card 'Aurra Sing (A)' (14 of the header's 16 columns, no line end): it is cut short"
            in " ".join(err.split())), err
    # the same rows with their line ends: the file as published, imported
    f.write_text(text, encoding="utf-8")
    assert _import("swtcg", f)[0] == 0


def test_a_set_file_whose_type_column_is_named_otherwise_is_refused_naming_it(tmp_path: Path) -> None:
    """R344: the header's Type renamed Kind imported every card as a unit of no arena (" - Twi'lek Jedi
    Knight"), exit 0, the column only listed as not used."""
    f = tmp_path / "SR-kind.txt"
    f.write_text(SR.read_text(encoding="utf-8").replace("\tType\t", "\tKind\t", 1), encoding="utf-8")
    code, out, err = _import("swtcg", f)
    assert code == 2 and out == "", out + err
    said = " ".join(err.split())
    assert "SR-kind.txt:1: no Type column" in said and "columns the import does not read: Kind, Number, Usage, Script, Classification" in said, err
