"""Issue 28, round 16: the registration on the reference's art keeps its share of the work budget (reading R122).

Built from the failure's description (independent diagnosis photo s0493: stone art, corner markers
0 and 3 alone, on one side of the map; its empty map's reference made, 0.05 squares off): the
first corner-marker search read two markers, the printed lines' check of their grid (0.2 modelled
CPU-seconds) did not confirm it, and the printed-lines search took its 0.6 out of the 0.88 left;
the registration on the reference's art (0.35) no longer fitted and was never run, so the photo
was refused with the reference as without it -- though the art places its grid 0.12 squares off.

Here the art of ``tests/test_photo_artgrid.py`` (lava-like blotches and cracks, the printed lines
3 grey levels off it, no corner markers) is photographed empty and then with bases, and the game
photo's grid is searched with a work budget that, after the photo's decoding and its first marker
search, holds the printed-lines search or the registration but not both. The grid must come from
the art, within 0.1 squares of the pose the test drew; the printed-lines search is the stage named
as left out. A budget that holds both runs both, as before; without a reference nothing is kept
back. The expectations are the poses and budgets the test draws, never the code's output.
"""

from __future__ import annotations

import numpy as np
import pytest

from assistant.photo import NoGridError, locate_grid
from assistant.photo.artgrid import REGISTRATION_COST
from assistant.photo.budget import COST_PER_PHOTO_MP, LINES_RESERVE, Budget, marker_search_cost
from assistant.photo.markers import MAX_SIDE as MARKER_SIDE
from assistant.photo.markers import find_markers_counted
from tests.test_photo_artgrid import DISCS, POSITION, _art, _photograph, _pose, _reference, _worst_off

GAME_POSE = _pose(0.3, -7.0, (25.0, -15.0))


def _game() -> np.ndarray:
    return _photograph(_art(11), GAME_POSE, 0.8, DISCS)


def _spent_before_the_lines(image: np.ndarray) -> float:
    """What the budget is charged before the printed-lines search on a photo without corner
    markers, where no harder marker search fits: its decoding and the first marker search."""
    megapixels = image.shape[0] * image.shape[1] / 1e6
    shrunk = megapixels * min(1.0, MARKER_SIDE / max(image.shape[:2])) ** 2
    _markers, candidates = find_markers_counted(image)
    return COST_PER_PHOTO_MP * megapixels + marker_search_cost(megapixels, shrunk, candidates, first=True)


def test_a_budget_holding_one_of_the_two_runs_the_registration() -> None:
    """Left 0.1 short of both stages after the marker search: the registration runs, the lines' search is left out."""
    game = _game()
    budget = Budget(seconds=_spent_before_the_lines(game) + LINES_RESERVE + REGISTRATION_COST - 0.1)
    grid, markers, by_lines = locate_grid(game, POSITION, budget=budget, reference=_reference(11))
    assert grid.by_reference and not by_lines and not markers
    assert _worst_off(grid.H, GAME_POSE) < 0.1
    assert "the printed-lines search" in budget.skipped
    assert budget.spent <= budget.seconds


def test_a_budget_holding_both_runs_both() -> None:
    """Room for both: the printed-lines search runs (and finds no grid in lines this faint), then the registration."""
    game = _game()
    budget = Budget(seconds=_spent_before_the_lines(game) + LINES_RESERVE + REGISTRATION_COST + 0.05)
    grid, _markers, by_lines = locate_grid(game, POSITION, budget=budget, reference=_reference(11))
    assert grid.by_reference and not by_lines
    assert "the printed-lines search" not in budget.skipped
    assert _worst_off(grid.H, GAME_POSE) < 0.1


def test_without_a_reference_the_lines_search_keeps_the_whole_budget() -> None:
    """No reference: nothing is kept back for a registration that cannot run; the lines' search runs (and refuses)."""
    game = _game()
    budget = Budget(seconds=_spent_before_the_lines(game) + LINES_RESERVE + 0.05)
    with pytest.raises(NoGridError):
        locate_grid(game, POSITION, budget=budget)
    assert "the printed-lines search" not in budget.skipped
