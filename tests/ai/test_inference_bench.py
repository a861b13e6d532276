"""bench/inference.py scores where hard's deals put the hidden cards (a small smoke run)."""

from __future__ import annotations

import importlib.util
import statistics
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _inference():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("inference", BENCH / "inference.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["inference"] = module
    spec.loader.exec_module(module)
    return module


def test_hard_places_the_hidden_cards_better_than_chance_once_cards_are_played(
    capsys: pytest.CaptureFixture[str],
) -> None:
    inference = _inference()
    config = inference.Config(2, ["uniform", "hard"], "simple", None, 80, 0, 0.0, 7, 1)
    scores = inference.measure(config)

    def mean(variant: str, stage: str, column: int) -> float:
        return statistics.fmean(row[column] for row in scores[variant][stage])

    # Before any card is played the other hands hold 21 of the 44 cards the bidder cannot see.
    assert mean("uniform", "bid", 2) == pytest.approx(21 / 44, abs=0.03)
    # Late in the hand the opponents' bids and plays have told the model where cards are.
    assert mean("hard", "late", 1) > mean("uniform", "late", 1) + 0.02
    assert mean("hard", "late", 2) > mean("uniform", "late", 2) + 0.05
    inference.main(["--deals", "1", "--draws", "20", "--variant", "uniform",
                    "--variant", "exact+chain=0"])
    out = capsys.readouterr().out
    assert "exact+chain=0" in out and "p_takers" in out
