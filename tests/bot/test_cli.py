"""`python -m bot` without a token, and a scripted terminal game, as real subprocesses."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot import cli
from bot.computer import decide
from engine import PlayerView, Rules

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
    script = "zz\n99\nhelp\n?\ns\n" + "a\n" * 6
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
    assert re.search(r"Hint: Bid \d+: you make it about \d+% of the time", out)  # '?'
    assert "'?' asks the hard computer for a hint" in out  # 'help'

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
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip() == (
        "error: --preset: no preset 'poker'; one of "
        + ", ".join(Rules.preset_names(special_cards=True))
        + " (--preset alone describes them)")


@pytest.mark.parametrize(("args", "line"), [
    (["--players", "9"], "error: --players: 3 to 7 players (classic)"),
    (["--players", "2"], "error: --players: 3 to 7 players (classic)"),
    (["--preset", "up_and_down_river", "--players", "3"],
     "error: --players: 4 to 8 players (up_and_down_river)"),
    (["--max-cards", "14"], "error: --max-cards: 1 to 13 cards with 4 players"),
    (["--level", "genius"], "error: --level: one of random, easy, medium, hard"),
    (["--delay", "-1"], "error: --delay: 0 to 30 seconds"),
])
def test_errors_name_the_option_and_its_limit(tmp_path: Path, args: list[str], line: str) -> None:
    result = _run(["play", *args], cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip() == line


def test_preset_alone_lists_the_presets(tmp_path: Path) -> None:
    result = _run(["play", "--preset"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1 + len(Rules.preset_names(special_cards=True))
    assert "  dealer_picks" in result.stdout and "Dealer Picks the Suit, 3 to 7 players" in (
        result.stdout)


@pytest.mark.parametrize(("answer", "suit"), [("s", "spades"), ("H", "hearts")])
def test_dealer_picks_s_and_h_name_suits_and_the_autopilot_finishes(
    tmp_path: Path, answer: str, suit: str
) -> None:
    # seed 1: you deal the first hand, so your first answer names trump; then end of input
    result = _run(["play", "--preset", "dealer_picks", "--players", "3", "--max-cards", "3",
                   "--seed", "1", "--level", "random"], cwd=tmp_path, stdin=f"{answer}\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "=== Hand 1 of 5: 3 cards, dealer You, trump the dealer names it ===" in out
    assert "Trump: you name it, as the dealer." in out
    assert f"You name trump: {suit}." in out
    assert "No hand has been scored yet." not in out and out.count("Answer with a bid") == 1
    # the autopilot named trump for you in hand 4 too, and the game ended
    assert "=== Hand 4 of 5" in out and out.count("You name trump:") == 2
    assert "trump no trump ===" not in out
    assert "Final standings:" in out


def test_end_of_input_says_what_happens(tmp_path: Path) -> None:
    result = _run(["play", "--players", "3", "--max-cards", "1", "--seed", "2", "--level",
                   "easy"], cwd=tmp_path, stdin="")
    assert result.returncode == 0, result.stderr
    assert ("(Ctrl-D, end of input: the easy computer plays your seat to the end of the game)"
            in result.stdout)
    assert "Final standings:" in result.stdout


async def test_the_autopilot_plays_at_the_chosen_level(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    levels: list[str] = []

    def recording(level: str, seed: int, view: PlayerView) -> object:
        levels.append(level)
        return decide(level, seed, view)

    monkeypatch.setattr(cli, "decide", recording)
    args = cli.build_parser().parse_args(
        ["play", "--auto", "--players", "3", "--max-cards", "2", "--seed", "3", "--level", "easy"])
    lines: list[str] = []
    assert await cli.play(args, out=lines.append) == 0
    assert levels and set(levels) == {"easy"}
    assert any(line.startswith("Final standings") for line in lines)


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_stops_at_once_with_one_line(tmp_path: Path) -> None:
    db = tmp_path / "kept.sqlite3"
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["PYTHONIOENCODING"] = "utf-8"
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "play", "--players", "3", "--seed", "4", "--database",
         str(db)],
        cwd=tmp_path, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env=env,
        # A runner that starts the tests as a background job (no terminal) ignores SIGINT, and
        # children inherit that: give the game the disposition a terminal's Ctrl-C meets.
        preexec_fn=_default_sigint,
    )
    assert proc.stdout is not None
    seen = b""
    while not (seen.rsplit(b"\n", 1)[-1].startswith(b"Your bid") and seen.endswith(b": ")):
        # until the prompt: it waits for your answer
        chunk = os.read(proc.stdout.fileno(), 4096)
        assert chunk, seen.decode()
        seen += chunk
    proc.send_signal(signal.SIGINT)
    rest, err = proc.communicate(timeout=60)  # stdin stays open: nothing but Ctrl-C ends it
    assert proc.returncode == 130, err.decode()
    assert err.decode() == ""
    assert [line for line in rest.decode().splitlines() if line.strip()] == [
        f"Stopped. The game is kept in {db}: the same command goes on where you stopped."]
    again = _run(["play", "--database", str(db)], cwd=tmp_path, stdin="q\n")
    assert "Resuming the unfinished game" in again.stdout


def test_ouch_says_cards_dealt_and_tricks_played(tmp_path: Path) -> None:
    result = _run(["play", "--preset", "ouch", "--players", "3", "--max-cards", "4", "--seed",
                   "1", "--auto", "--level", "random"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "=== Hand 1 of" in result.stdout
    assert ": 4 cards dealt, 2 discarded: 2 tricks, dealer" in result.stdout
