"""bench/arena.py runs duplicate deals and reports every level (a small smoke run)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ARENA = Path(__file__).resolve().parents[2] / "bench" / "arena.py"


def _arena():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("arena", ARENA)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["arena"] = module
    spec.loader.exec_module(module)
    return module


def test_duplicate_deals_rotate_the_seats(capsys: pytest.CaptureFixture[str]) -> None:
    arena = _arena()
    config = arena.Config(
        levels=["medium", "easy"], players=4, hand_size=5, preset="classic", scoring=None,
        think_time=None, iterations=None, seed=3,
    )
    result = arena.play_deal((config, 0))
    levels = [row[0] for row in result.rows]
    assert levels.count("medium") == 4 and levels.count("easy") == 12
    arena.main(["--levels", "hard,medium", "--hands", "8", "--workers", "1",
                "--iterations", "4", "--preset", "oh_well", "--hand-size", "3"])
    out = capsys.readouterr().out
    assert "hard - medium" in out and "made %" in out
