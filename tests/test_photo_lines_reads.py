"""The printed-lines search's own reading of its profiles gives np.interp's, np.quantile's and
np.median's very numbers (the inset lattices' search read each place by np.interp's search and
each sorted row's quantile by another partition: half its cost; the grids found must not move)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from assistant.photo.lines import TOP, _profile_at, _sorted_median, _sorted_quantile

finite = st.floats(min_value=0.0, max_value=1e3, allow_nan=False, width=64)


@settings(max_examples=200, deadline=None)
@given(profile=arrays(np.float64, st.integers(2, 200), elements=finite),
       places=st.lists(st.floats(min_value=-1.0, max_value=8.0, allow_nan=False), min_size=1, max_size=60),
       on_samples=st.booleans())
def test_profile_read_as_np_interp_reads_it(profile: np.ndarray, places: list[float], on_samples: bool) -> None:
    at = np.array(places)
    if on_samples:  # places on the samples themselves, the last one included
        at = np.round(at * TOP) / TOP
        at[0] = (len(profile) - 1) / TOP
    expected = np.interp(at, np.arange(len(profile)) / TOP, profile, left=0.0, right=0.0)
    assert np.array_equal(_profile_at(profile, at), expected)


def test_profile_read_beyond_its_ends_is_zero_and_its_last_sample_as_it_is() -> None:
    profile = np.array([1.0, 3.0, 2.0])
    at = np.array([-0.01, 0.0, 0.5 / TOP, 2.0 / TOP, 2.5 / TOP])
    assert _profile_at(profile, at).tolist() == [0.0, 1.0, 2.0, 2.0, 0.0]


@settings(max_examples=200, deadline=None)
@given(rows=arrays(np.float64, st.tuples(st.integers(1, 30), st.integers(1, 25)), elements=finite),
       q=st.sampled_from([0.25, 0.5, 0.7, 0.1]))
def test_sorted_rows_quantile_and_median_as_numpy_gives_them(rows: np.ndarray, q: float) -> None:
    ordered = np.sort(rows, axis=1)
    assert np.array_equal(_sorted_quantile(ordered, q), np.quantile(ordered, q, axis=1))
    assert np.array_equal(_sorted_median(ordered, axis=1), np.median(ordered, axis=1))
    columns = np.sort(rows.astype(np.float32), axis=0)
    median = _sorted_median(columns, axis=0)
    assert median.dtype == np.float32
    assert np.array_equal(median, np.median(columns, axis=0))
