"""The reference mode's fusion: the learned classifier AND the comparison with the empty map.

Inputs and expected numbers are written by hand (logits of chosen probabilities, a hand-made
model), never computed by the code under test."""

from __future__ import annotations

import json

import numpy as np
import pytest

from assistant.photo.bases import FEATURES, FUSION_INPUTS, FUSION_MODEL, fusion_inputs, fusion_logits

#: 1 / (1 + e^-2): the classifier's probability whose logit is 2
P_LOGIT_2 = 0.8807970779778823
#: 1 / (1 + e^3): the classifier's probability whose logit is -3
P_LOGIT_MINUS_3 = 0.04742587317756678


def features(**values: float) -> np.ndarray:
    """One row of base features, 0 but for those named."""
    row = np.zeros(len(FEATURES))
    for k, v in values.items():
        row[FEATURES.index(k)] = v
    return row


def test_the_inputs_are_both_logits_their_product_and_the_comparisons_features() -> None:
    x = np.stack([features(dark_core=0.25, change_core=3.5, ring_least=0.5, edge_half=0.125), features(change_core=1.0)])
    got = fusion_inputs(np.array([P_LOGIT_2, P_LOGIT_MINUS_3]), x, np.array([4.0, -1.5]))
    want = np.array([
        # lc, lr, lc * lr / 10, dark_core, change_core, ring_least, edge_half
        [2.0, 4.0, 0.8, 0.25, 3.5, 0.5, 0.125],
        [-3.0, -1.5, 0.45, 0.0, 1.0, 0.0, 0.0],
    ])
    assert got == pytest.approx(want, abs=1e-9)


def test_sure_logits_are_capped_at_ten() -> None:
    got = fusion_inputs(np.array([1.0, 0.0]), np.stack([features(), features()]), np.array([50.0, -50.0]))
    # p = 1 and p = 0 are clipped to 1 - 1e-9 and 1e-9 (logit about +-20.7), then to +-10
    assert got[:, :3] == pytest.approx(np.array([[10.0, 10.0, 10.0], [-10.0, -10.0, 10.0]]))


def test_a_hand_made_model_needs_both_readings_to_call_a_base() -> None:
    # standardise by mean 1 and std 2, then logit = z_classifier + z_reference - 0.5
    meta = {"mean": [1.0] * 7, "std": [2.0] * 7, "weights": [1.0, 1.0, 0, 0, 0, 0, 0], "bias": -0.5}
    rows = np.array([
        [5.0, 5.0, 2.5, 0, 0, 0, 0],  # both say base: (4 + 4) / 2 - 0.5 = 3.5
        [5.0, -5.0, -2.5, 0, 0, 0, 0],  # the classifier says base, the reference "printed art": (4 - 6) / 2 - 0.5 = -1.5
        [-5.0, -5.0, 2.5, 0, 0, 0, 0],  # neither: -6.5
    ])
    assert fusion_logits(rows, meta) == pytest.approx([3.5, -1.5, -6.5])


def test_the_shipped_model_reads_each_input_it_was_fitted_on_and_leans_on_both_readings() -> None:
    meta = json.loads(FUSION_MODEL.read_text(encoding="utf-8"))
    assert tuple(meta["inputs"]) == FUSION_INPUTS
    assert len(meta["weights"]) == len(FUSION_INPUTS) == len(meta["mean"]) == len(meta["std"])
    # each reading, more sure of a base, makes the fused reading more sure of one
    assert meta["weights"][0] > 0 and meta["weights"][1] > 0
    # both sure of a base / both sure of none: the fusion agrees (the other inputs at their means)
    lo, hi = np.array(meta["mean"], np.float64), np.array(meta["mean"], np.float64)
    hi[:3], lo[:3] = (8.0, 8.0, 6.4), (-8.0, -8.0, 6.4)
    assert fusion_logits(hi[None], meta)[0] > 2.0
    assert fusion_logits(lo[None], meta)[0] < -2.0
