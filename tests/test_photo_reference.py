"""The empty map as the reference: the comparison on drawn arrays, the file, the commands, one photo end to end."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from assistant.cli.app import app
from assistant.errors import AssistantError
from assistant.photo.bases import base_probabilities
from assistant.photo.reference import PAD, PX, Reference, compare_views, load_reference, save_reference

runner = CliRunner()
COLS, ROWS = 8, 6


def art(seed: int = 1) -> np.ndarray:
    """A printed-art floor: colour fields, tiles, fine texture, a few dark patches (BGR uint8)."""
    rng = np.random.default_rng(seed)
    h, w = (ROWS + 2 * PAD) * PX, (COLS + 2 * PAD) * PX
    fields = cv2.resize(rng.uniform(40, 200, size=(4, 5, 3)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    tiles = cv2.resize(rng.uniform(-30, 30, size=(ROWS * 3, COLS * 3, 1)).astype(np.float32), (w, h), interpolation=cv2.INTER_NEAREST)[..., None]
    fine = cv2.GaussianBlur(rng.normal(0, 12, size=(h, w, 3)).astype(np.float32), (0, 0), 1.0)
    img = np.clip(fields + tiles + fine, 0, 255).astype(np.uint8)
    for x in range(0, w, PX):  # the grid's lines
        img[:, x:x + 1] = (60, 60, 60)
    for y in range(0, h, PX):
        img[y:y + 1] = (60, 60, 60)
    return img


def centre(col: int, row: int) -> tuple[int, int]:
    return int((PAD + col + 0.5) * PX), int((PAD + row + 0.5) * PX)


def probabilities(reference: np.ndarray, view: np.ndarray) -> dict[str, float]:
    ref = Reference(reference, COLS, ROWS, "empty.jpg", "2026-01-01T00:00:00+00:00")
    return base_probabilities(compare_views(view, ref), COLS, ROWS)


def relit(img: np.ndarray, gain: tuple[float, float, float], offset: float = 0.0) -> np.ndarray:
    """Another light and white balance: a gain per channel, a brightness gradient, an offset."""
    h, w = img.shape[:2]
    ramp = np.linspace(0.85, 1.1, w, dtype=np.float32)[None, :, None]
    return np.clip(img.astype(np.float32) * np.array(gain, np.float32) * ramp + offset, 0, 255).astype(np.uint8)


def test_a_dark_base_drawn_on_the_art_reads_as_occupied_and_nothing_else() -> None:
    empty = art()
    game = relit(empty, (1.1, 0.95, 0.85))
    cv2.circle(game, centre(3, 2), int(0.42 * PX), (40, 42, 45), -1, lineType=cv2.LINE_AA)
    p = probabilities(empty, game)
    assert p["D3"] > 0.8, p["D3"]
    others = {sq: v for sq, v in p.items() if sq != "D3"}
    assert max(others.values()) < 0.5, sorted(others.items(), key=lambda kv: -kv[1])[:3]


def test_the_same_art_under_another_light_and_white_balance_is_empty() -> None:
    empty = art()
    for gain, offset in (((0.6, 0.6, 0.6), 0.0), ((1.25, 1.0, 0.75), 10.0), ((0.8, 1.15, 1.2), -5.0)):
        p = probabilities(empty, relit(empty, gain, offset))
        assert max(p.values()) < 0.3, (gain, sorted(p.items(), key=lambda kv: -kv[1])[:3])


def test_a_dark_printed_patch_that_was_there_already_is_not_a_base() -> None:
    empty = art()
    # a dark lava pool, round and base-sized, printed on the map: in the reference too
    cv2.circle(empty, centre(5, 3), int(0.45 * PX), (20, 25, 60), -1, lineType=cv2.LINE_AA)
    p = probabilities(empty, relit(empty, (0.9, 1.0, 1.1)))
    assert p["F4"] < 0.3, p["F4"]


def reference_file(path: Path) -> Reference:
    ref = Reference(art(), COLS, ROWS, "empty.jpg", "2026-01-01T00:00:00+00:00")
    save_reference(ref, path)
    return ref


def test_a_reference_is_saved_and_read_back_whole(tmp_path: Path) -> None:
    ref = reference_file(tmp_path / "r.npz")
    back = load_reference(tmp_path / "r.npz")
    assert (back.cols, back.rows, back.name, back.taken) == (COLS, ROWS, "empty.jpg", "2026-01-01T00:00:00+00:00")
    assert np.array_equal(back.view, ref.view)  # PNG inside: lossless


def test_a_damaged_reference_is_refused_naming_the_file(tmp_path: Path) -> None:
    good = tmp_path / "r.npz"
    reference_file(good)
    data = good.read_bytes()
    cases = {"cut.npz": data[: len(data) // 2], "noise.npz": bytes(range(256)) * 8, "text.npz": b"not a reference\n"}
    for name, content in cases.items():
        (tmp_path / name).write_bytes(content)
        with pytest.raises(AssistantError, match=f"{name} is not a usable map reference"):
            load_reference(tmp_path / name)
    with pytest.raises(AssistantError, match="no such map reference"):
        load_reference(tmp_path / "none.npz")


def test_photo_commands_refuse_a_bad_reference_with_exit_2(tmp_path: Path) -> None:
    photo = tmp_path / "p.png"
    cv2.imwrite(str(photo), art())
    (tmp_path / "bad.npz").write_bytes(b"PK\x03\x04 damaged")
    r = runner.invoke(app, ["photo", "detect", str(photo), "-p", "clone-wars-corridor", "--reference", str(tmp_path / "bad.npz")])
    assert r.exit_code == 2 and "bad.npz is not a usable map reference" in r.output, r.output
    assert "Traceback" not in r.output
    reference_file(tmp_path / "small.npz")  # an 8 x 6 map's reference, the example's map is 20 x 14
    r = runner.invoke(app, ["photo", "detect", str(photo), "-p", "clone-wars-corridor", "--reference", str(tmp_path / "small.npz"), "--json"])
    assert r.exit_code == 2 and "small.npz is of a 8 x 6 map" in r.output, r.output
    # a position file keeps no reference: one is written only where --output says
    r = runner.invoke(app, ["photo", "reference", str(photo), "-p", "clone-wars-corridor"])
    assert r.exit_code == 2 and "--output" in r.output, r.output
    r = runner.invoke(app, ["photo", "reference", str(tmp_path / "none.jpg"), "-p", "clone-wars-corridor", "-o", str(tmp_path / "o.npz")])
    assert r.exit_code == 2 and "no such image" in r.output and not (tmp_path / "o.npz").exists()


@pytest.mark.slow
def test_a_game_photo_compared_with_the_empty_map(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """End to end: the empty map photographed by one camera, the game by another under another
    light; `photo reference` keeps it next to the game, `photo detect` then compares with it."""
    from assistant.photo.synth import render_photo
    from assistant.position import load_position
    from assistant.resources import example_path

    monkeypatch.setenv("TABLETOP_HOME", str(tmp_path / "home"))
    pos = load_position(example_path("clone-wars-corridor"))
    pos = replace(pos, figures=tuple(replace(f, marker=None) for f in pos.figures))  # no base markers: the bases alone tell
    kw = dict(width=2400, height=1800, varied=True, look_seed=5, tilt_max=35.0)
    empty, _t = render_photo(replace(pos, figures=()), seed=5, **kw)  # type: ignore[arg-type]
    game, truth = render_photo(pos, seed=1_000_005, **kw)  # type: ignore[arg-type]
    cv2.imwrite(str(tmp_path / "empty.jpg"), empty)
    cv2.imwrite(str(tmp_path / "game.jpg"), game)
    assert runner.invoke(app, ["game", "new", "-p", "clone-wars-corridor"]).exit_code == 0
    r = runner.invoke(app, ["photo", "reference", str(tmp_path / "empty.jpg"), "--json"])
    assert r.exit_code == 0, r.output
    assert Path(json.loads(r.stdout)["output"]).is_file()
    r = runner.invoke(app, ["photo", "detect", str(tmp_path / "game.jpg"), "--json"])
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    assert any("compared with the empty-map reference photo empty.jpg" in n for n in obj["notes"]), obj["notes"]
    wrong = set(obj["occupied"]) ^ truth.occupied
    assert len(wrong) <= 1, sorted(wrong)
