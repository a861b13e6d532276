"""The training pipeline runs end to end on a tiny seed: self-play data, a fit, weights that the
numpy player loads and plays legally with. Skipped where PyTorch is absent (CI does not install
the `train` extra)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine.ai.learned import BID_FEATURES, BIDS, CARD_FEATURES, _model

ROOT = Path(__file__).resolve().parents[1]


def run(script: str, *args: str) -> None:
    result = subprocess.run([sys.executable, str(ROOT / "train" / script), *args],
                            capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert result.returncode == 0, result.stderr


def test_selfplay_then_fit_writes_weights_of_the_models_shape(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    data = tmp_path / "selfplay-3-0.npz"
    run("selfplay.py", "--seed", "3", "--hands", "6", "--deals", "4", "--out", str(data))
    with np.load(data) as rows:
        assert rows["card_x"].shape[1] == CARD_FEATURES
        assert rows["bid_x"].shape[1] == BID_FEATURES
        assert len(rows["bid_x"]) > 0 and len(rows["card_x"]) > 0
    weights = [tmp_path / "a.npz", tmp_path / "b.npz"]
    for out in weights:
        run("fit.py", "--seed", "2", "--epochs", "2", "--data", str(data), "--out", str(out))
    with np.load(weights[0]) as first, np.load(weights[1]) as second:
        assert sorted(first) == sorted(second)
        for name in first:  # the same seed fits the same weights
            assert np.array_equal(first[name], second[name])
        card, bid = _model(first, "card"), _model(first, "bid")
    assert card(np.zeros(CARD_FEATURES, dtype=np.float32)).shape == (52,)
    assert bid(np.zeros(BID_FEATURES, dtype=np.float32)).shape == (BIDS,)
