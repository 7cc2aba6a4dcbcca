"""The cut base-marker reading's light and dark levels (reading R77) are read by
:func:`assistant.photo.markers._quantile`, numpy's percentile without its cost."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from assistant.photo.markers import _quantile


@given(st.lists(st.floats(0, 255), min_size=1, max_size=40), st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0]))
def test_the_cells_quantile_is_numpys_percentile(values: list[float], q: float) -> None:
    a = np.array(values)
    assert _quantile(a, q) == pytest.approx(float(np.percentile(a, 100 * q)), abs=1e-9)
