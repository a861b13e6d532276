"""`python -m bot` without a token, and a scripted terminal game, as real subprocesses."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(
    args: list[str], cwd: Path, stdin: str = "", timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["PYTHONIOENCODING"] = "utf-8"
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=timeout,
    )


def test_no_token_one_line_and_non_zero(tmp_path: Path) -> None:
    result = _run([], cwd=tmp_path)
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "DISCORD_TOKEN" in lines[0] and ".env.example" in lines[0]
    assert "Traceback" not in result.stderr and result.stdout == ""


def test_terminal_plays_a_scripted_game(tmp_path: Path) -> None:
    db = tmp_path / "terminal.sqlite3"
    # the human's answers: junk first, then "a" (the computer moves once for you) each turn,
    # and end of input lets the computer finish
    script = "zz\n99\nhelp\ns\n" + "a\n" * 6
    result = _run(
        [
            "play",
            "--players",
            "3",
            "--max-cards",
            "2",
            "--seed",
            "5",
            "--level",
            "random",
            "--database",
            str(db),
        ],
        cwd=tmp_path,
        stdin=script,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "=== Hand 1 of 3" in out and "=== Hand 3 of 3" in out
    assert "Your hand:" in out and "*" in out  # legal cards marked
    assert "not a" in out  # the junk answer was refused with a sentence
    assert "Final standings:" in out and "Winner:" in out
    assert out.count("points  total") == 3  # a scoresheet after each hand
    assert db.exists()


def test_terminal_auto_and_bad_preset(tmp_path: Path) -> None:
    result = _run(
        ["play", "--auto", "--players", "4", "--max-cards", "1", "--seed", "1"], cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    assert "Final standings:" in result.stdout
    bad = _run(["play", "--preset", "poker"], cwd=tmp_path)
    assert bad.returncode != 0 and "no preset" in bad.stdout
