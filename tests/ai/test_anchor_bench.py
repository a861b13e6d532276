"""bench/anchor.py plays a frozen hard from git beside today's and reports CPU per decision."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
FROZEN_COMMIT = "fff6f55"
"""Hard before issue 24 (its budget of 200 deals is the strength the faster hard is held to)."""


def _anchor():  # type: ignore[no-untyped-def]
    sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location("anchor", BENCH / "anchor.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["anchor"] = module
    spec.loader.exec_module(module)
    return module


def _has_commit(commit: str) -> bool:
    if shutil.which("git") is None:
        return False
    found = subprocess.run(["git", "-C", str(BENCH), "cat-file", "-e", f"{commit}^{{commit}}"],
                           capture_output=True)
    return found.returncode == 0


@pytest.mark.skipif(not _has_commit(FROZEN_COMMIT), reason="needs the repository's history")
def test_the_frozen_hard_plays_the_same_deals_and_cpu_is_reported(
    capsys: pytest.CaptureFixture[str],
) -> None:
    anchor = _anchor()
    frozen = anchor.frozen_player(FROZEN_COMMIT, 1, None, 3, {})
    assert type(frozen).__module__.startswith(f"hard_{FROZEN_COMMIT}")
    anchor.main(["--deals", "2", "--tester", f"hard@{FROZEN_COMMIT},hard", "--iterations", "3",
                 "--opponents", "simple", "--workers", "1", "--seed", "7"])
    out = capsys.readouterr().out
    assert "cpu p50" in out and "cpu p95" in out
    assert f"hard - hard@{FROZEN_COMMIT}: points" in out
