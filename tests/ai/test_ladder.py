"""bench/ladder.py plays each level against the one below on the presets (a small smoke run)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from engine import Rules

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_the_ladder_prints_a_row_per_preset_and_pair(capsys: pytest.CaptureFixture[str]) -> None:
    ladder = _load("ladder")
    ladder.main(["--presets", "quick,wizard_lite", "--levels", "medium,easy,random",
                 "--hands", "8"])
    rows = [line.split() for line in capsys.readouterr().out.splitlines()]
    pairs = {(row[0], row[1]) for row in rows if len(row) > 5}
    assert {("quick", "medium-easy"), ("quick", "easy-random"), ("wizard_lite", "medium-easy"),
            ("wizard_lite", "easy-random")} <= pairs


def test_sizes_go_past_the_presets_own_where_the_pack_allows() -> None:
    ladder = _load("ladder")
    classic = Rules.preset("classic")
    assert sorted(ladder.hand_sizes(classic, 4)) == list(range(1, 13))  # classic stops at 10
    assert ladder.hand_sizes(Rules.preset("oh_well"), 4) == [13]


def test_only_ascendings_last_hand_size_is_played_without_trump() -> None:
    ladder = _load("ladder")
    ascending = Rules.preset("ascending")
    assert ladder.one_hand_overrides(ascending, 4, 5) == {"last_hand_no_trump": False}
    assert ladder.one_hand_overrides(ascending, 4, 13) == {}


def test_a_quick_hand_scores_one_for_each_winner() -> None:
    arena = _load("arena")
    config = arena.Config(levels=["medium", "easy"], players=4, hand_size=4, preset="quick",
                          scoring=None, think_time=None, iterations=None, seed=3)
    result = arena.play_deal((config, 0))
    assert len(result.rows) == 16
    assert {points for _level, _bid, _tricks, points in result.rows} <= {0, 1}
