"""bench/decisions.py replays recorded decisions of `hard` exactly: the check a speed-up that must
not change play is held to (issue 24)."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _decisions():  # type: ignore[no-untyped-def]
    sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location("decisions", BENCH / "decisions.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["decisions"] = module
    spec.loader.exec_module(module)
    return module


def test_recorded_decisions_replay_to_the_same_moves_and_values(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    decisions = _decisions()
    path = tmp_path / "decisions.pickle"
    decisions.main(["--record", str(path), "--deals", "1", "--iterations", "12"])
    recorded = int(re.findall(r"recorded (\d+) decisions", capsys.readouterr().out)[0])
    assert recorded >= 4  # one 7-card hand in each of four seats
    decisions.main(["--check", str(path), "--parts"])
    out = capsys.readouterr().out
    assert f"decisions {recorded}: same move {recorded}, same move and values {recorded}" in out
    assert re.search(r"deals p10/p50/mean \d+/12/\d+\.\d;", out)
    share = re.findall(r"drawing it [\d.]+ ms \((\d+)%\)", out)
    assert share and 0 < int(share[0]) < 100  # the deals are drawn, and also searched
    by_part = out.split("cpu per deal by part:")[1].splitlines()[0]
    parts = re.findall(r"([a-z ]+) ([\d.]+) ms \(\d+%\)", by_part)
    assert [part.strip() for part, _ in parts] == [
        "card search simulation", "bid rollouts", "rest"]
    assert all(float(ms) > 0 for _, ms in parts)
    decisions.main(["--check", str(path), "--bids"])
    bids = capsys.readouterr().out  # one bid a seat: each seat's hand has one
    assert "decisions 4: same move 4, same move and values 4" in bids
