"""`python -m bot` without a token, and a scripted terminal game, as real subprocesses."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import discord
import pytest

from bot import cli
from bot.computer import decide
from bot.events import GameOver, Standing
from bot.models import SeatView, TableOptions, TableStatus, TableView
from bot.terminal import TerminalPresenter
from data import Store
from engine import PlayerView, Rules
from tests.pg_server import PostgresServer

ROOT = Path(__file__).resolve().parents[2]


def _run(
    args: list[str], cwd: Path, stdin: str = "", timeout: float = 120,
    locale: str = "C.UTF-8",
) -> subprocess.CompletedProcess[str]:
    """`python -m bot` in a clean locale (`locale`, English unless told), so the machine's own
    LANG does not choose the terminal's language."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISCORD_TOKEN", "LC_ALL", "LC_MESSAGES", "LANG")}
    env["LANG"] = locale
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
    script = "zz\n99\nhelp\n?\nscores\n" + "a\n" * 6
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


ENGLISH_NARRATION = ("plays", "wins trick", "bids", "Final standings", "dealer", "trump",
                     "Winner", "sits down", "made", "missed")


@pytest.mark.parametrize(("args", "locale"), [
    (["--lang", "nb"], "C.UTF-8"), ([], "nb_NO.UTF-8"), (["--lang", "no"], "en_GB.UTF-8")])
def test_the_terminal_plays_a_game_in_norwegian(tmp_path: Path, args: list[str],
                                                locale: str) -> None:
    """`--lang nb` (or Discord's `no`), or a Norwegian LANG without it: the table's narration,
    the prompts, the scoresheet and the final standings are Norwegian."""
    result = _run(["play", "--auto", "--players", "3", "--max-cards", "2", "--seed", "4",
                   *args], cwd=tmp_path, locale=locale)
    assert result.returncode == 0, result.stderr
    narration = result.stdout
    assert "Sluttstilling:" in narration and "=== Runde 1 av" in narration
    assert "melder" in narration and "tar stikk" in narration and "giver" in narration
    assert [word for word in ENGLISH_NARRATION if word in narration] == []


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
    # seed 1: you deal the first hand, so your first answer names trump (confirmed); then end
    # of input
    result = _run(["play", "--preset", "dealer_picks", "--players", "3", "--max-cards", "3",
                   "--seed", "1", "--level", "random"], cwd=tmp_path, stdin=f"{answer}\ny\n")
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
    again = _run(["play", "--database", str(db)], cwd=tmp_path, stdin="q\ny\n")
    assert "Resuming the unfinished game" in again.stdout


def test_ouch_says_cards_dealt_and_tricks_played(tmp_path: Path) -> None:
    result = _run(["play", "--preset", "ouch", "--players", "3", "--max-cards", "4", "--seed",
                   "1", "--auto", "--level", "random"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "=== Hand 1 of" in result.stdout
    assert ": 4 cards dealt, 2 discarded: 2 tricks, dealer" in result.stdout


def _run_with(args: list[str], cwd: Path, **settings: str) -> subprocess.CompletedProcess[str]:
    """`python -m bot` with exactly these database settings in the environment."""
    env = {k: v for k, v in os.environ.items()
           if k != "DISCORD_TOKEN" and not k.startswith(("DATABASE_", "DATA_DIR"))}
    env.update(settings)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["PYTHONIOENCODING"] = "utf-8"
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=cwd, capture_output=True,
                          text=True, encoding="utf-8", env=env, timeout=120)


def _one_error_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2 and result.stdout == "", result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    return lines[0]


def test_play_refuses_a_database_it_cannot_use_and_creates_nothing(tmp_path: Path) -> None:
    (tmp_path / "games").mkdir()
    before = sorted(tmp_path.rglob("*"))
    folder = _run_with(["play", "--database", "games"], cwd=tmp_path)
    assert _one_error_line(folder) == (
        "error: --database: games is a folder: name a file in it, e.g. games/ohhell.sqlite3")
    missing = _run_with(["play", "--database", "saved/game.sqlite3"], cwd=tmp_path)
    assert _one_error_line(missing) == (
        "error: --database: saved/game.sqlite3: the folder saved does not exist: create it "
        "first (mkdir -p saved) or choose another --database")
    mysql = _run_with(["play", "--database", "mysql://me@db/cards"], cwd=tmp_path)
    assert _one_error_line(mysql) == (
        "error: --database: unknown database URL scheme 'mysql': use sqlite:///path or "
        "postgresql://...")
    assert sorted(tmp_path.rglob("*")) == before  # no folder, no file, nowhere


def test_play_keeps_its_game_where_the_bots_settings_say(tmp_path: Path) -> None:
    """`--database` alone is the bot's own DATABASE_URL (else DATABASE_PATH)."""
    kept = tmp_path / "bot.sqlite3"
    game = ["play", "--auto", "--players", "3", "--max-cards", "1", "--seed", "2",
            "--level", "random", "--database"]
    by_url = _run_with(game, cwd=tmp_path, DATABASE_URL=f"sqlite:///{kept}",
                       DATABASE_PATH="elsewhere.sqlite3")
    assert by_url.returncode == 0, by_url.stderr
    assert "Final standings:" in by_url.stdout
    assert kept.exists() and not (tmp_path / "elsewhere.sqlite3").exists()
    by_path = _run_with(game, cwd=tmp_path, DATABASE_PATH="by-path.sqlite3")
    assert by_path.returncode == 0, by_path.stderr
    assert (tmp_path / "by-path.sqlite3").exists()
    broken = _run_with(game, cwd=tmp_path, DATABASE_URL="garbage")
    assert _one_error_line(broken).startswith(
        "error: setting DATABASE_URL: 'garbage' is not a database URL")


def test_play_keeps_its_game_in_postgresql(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    """A postgresql:// URL is a database, from --database or DATABASE_URL, not a folder."""
    dsn = postgres_server.new_database()

    async def last_finished() -> int | None:
        store = await Store.open(dsn)
        try:
            return await store.last_finished_table(cli.TERMINAL_CHANNEL)
        finally:
            await store.close()

    game = ["play", "--auto", "--players", "3", "--max-cards", "1", "--level", "random"]
    given = _run_with([*game, "--seed", "2", "--database", dsn], cwd=tmp_path)
    assert given.returncode == 0, given.stderr
    first = asyncio.run(last_finished())
    assert first is not None
    from_settings = _run_with([*game, "--seed", "3", "--database"], cwd=tmp_path,
                              DATABASE_URL=dsn)
    assert from_settings.returncode == 0, from_settings.stderr
    second = asyncio.run(last_finished())
    assert second is not None and second != first
    assert list(tmp_path.iterdir()) == []  # no folder named "postgresql:"
# ---- what a newcomer trips over (issue 25) -------------------------------------------------------


def test_at_the_trump_prompt_a_letter_names_a_suit_only_once_confirmed(tmp_path: Path) -> None:
    # seed 1: you deal the first hand and name trump. 'h' is hearts there, never the help, and a
    # suit named by mistake is taken back with 'n'; 'help' still shows the help.
    result = _run(["play", "--preset", "dealer_picks", "--players", "3", "--max-cards", "3",
                   "--seed", "1", "--level", "random"], cwd=tmp_path,
                  stdin="h\nn\nhelp\nd\ny\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Trump hearts ♥? (y to name it, n to choose again): n" in out
    assert "Not named: choose trump again." in out
    assert "You name trump: hearts." not in out
    assert out.count("Answer with a bid") == 2  # the help at the start, then for 'help'
    assert "You name trump: diamonds." in out


def test_h_and_s_are_not_commands_where_they_are_not_suits(tmp_path: Path) -> None:
    result = _run(["play", "--players", "3", "--max-cards", "1", "--seed", "2", "--level",
                   "random"], cwd=tmp_path, stdin="h\ns\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.count("Answer with a bid") == 1  # only the help shown at the start
    assert "'h' is not a bid: answer with a number ('help' says what else you can type)." in out
    assert "'s' is not a bid" in out


def test_the_star_on_playable_cards_is_explained_once(tmp_path: Path) -> None:
    result = _run(["play", "--players", "3", "--max-cards", "3", "--seed", "5", "--level",
                   "random"], cwd=tmp_path, stdin="a\n" * 12)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    marked = [i for i, line in enumerate(lines) if line.startswith("Your hand:") and "*" in line]
    assert len(marked) > 1
    legend = [i for i, line in enumerate(lines) if line == "  (* marks the cards you may play now)"]
    assert legend == [marked[0] + 1]  # right under the first hand that shows one
    assert "a * marks the cards you may play" in result.stdout  # and in the help


def _play_args(db: Path) -> list[str]:
    return ["play", "--players", "3", "--max-cards", "2", "--seed", "3", "--level", "random",
            "--database", str(db)]


def test_q_asks_first_and_says_what_becomes_of_a_kept_game(tmp_path: Path) -> None:
    db = tmp_path / "kept.sqlite3"
    first = _run(_play_args(db), cwd=tmp_path, stdin="q\nn\nq\ny\n")
    assert first.returncode == 0, first.stderr
    out = first.stdout
    assert f"No unfinished game in {db}: a new table opens, kept there." in out
    assert "Quit? (y, end, or n to go on): n" in out and "Going on." in out
    assert out.rstrip().endswith(
        f"Stopped. The game is kept in {db}: the same command goes on where you stopped.")
    assert "Final standings" not in out

    # the same command resumes it; 'end' ends it for good and says what the next run does
    second = _run(_play_args(db), cwd=tmp_path, stdin="q\nend\n")
    assert second.returncode == 0, second.stderr
    assert f"Resuming the unfinished game at table 1 (kept in {db})." in second.stdout
    assert second.stdout.rstrip().endswith(
        f"The same command now opens a new table in {db}.")

    third = _run(_play_args(db), cwd=tmp_path, stdin="q\ny\n")
    assert f"No unfinished game in {db}: a new table opens, kept there." in third.stdout
    assert "Table 2 opened" in third.stdout and "Resuming" not in third.stdout


def test_q_without_a_database_says_nothing_is_kept(tmp_path: Path) -> None:
    result = _run(["play", "--players", "3", "--max-cards", "2", "--seed", "3", "--level",
                   "random"], cwd=tmp_path, stdin="q\ny\n")
    assert result.returncode == 0, result.stderr
    assert ("Quit? The game is not kept (play with --database FILE to keep one). "
            "(y to end it, n to go on): y") in result.stdout
    assert result.stdout.rstrip().endswith("Nothing was kept.")


def test_final_standings_line_up_and_a_tie_reads_as_a_sentence() -> None:
    seats = tuple(
        SeatView(seat=i, name=name, user_id=None, computer="easy", autopilot=False,
                 timeouts_in_row=0, dm_message_id=None, dm_hand_number=None, dm_failed=False)
        for i, name in enumerate(["Al", "Bernadette", "Bot 2", "Cy"])
    )
    view = TableView(table_id=1, guild_id=0, channel_id=1, message_id=None, host_id=1,
                     status=TableStatus.FINISHED, options=TableOptions(), rules=None,
                     seats=seats, state=None, deadline=None, warned=False, saves=0)
    scores = [105, 105, 105, -7]
    standings = tuple(Standing(place=1 if score > 0 else 4, seat=seat, name=seats[seat].name,
                               user_id=None, score=score)
                      for seat, score in enumerate(scores))
    lines = TerminalPresenter(lambda line: None).render(
        view, GameOver(standings=standings, winners=(0, 1, 2), rating_changes=()))
    rows = lines[lines.index("Final standings:") + 1:-1]
    assert rows == [
        "  1. Al          105",
        "  1. Bernadette  105",
        "  1. Bot 2       105",
        "  4. Cy           -7",
    ]
    assert lines[-1] == "Winners: Al, Bernadette and Bot 2."


@pytest.fixture
def restore_loggers() -> Iterator[None]:
    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    yield
    root.setLevel(level)
    root.handlers[:] = handlers


@pytest.mark.usefixtures("restore_loggers")
def test_log_lines_have_no_colour_codes_when_stderr_is_a_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # discord.py's own run() sets up the logging; only connecting is left out. In Docker it
    # colours a stream that is not a terminal: the case a log file or `docker logs` keeps.
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "db.sqlite3"))
    monkeypatch.setattr(discord.utils, "is_docker", lambda: True)

    async def start(self: discord.Client, token: str, *, reconnect: bool = True) -> None:
        logging.getLogger("bot.test").warning("a line for the log")

    monkeypatch.setattr(discord.Client, "start", start)
    log = tmp_path / "stderr.log"
    with log.open("w", encoding="utf-8") as stream:
        monkeypatch.setattr(sys, "stderr", stream)
        assert cli.run_bot() == 0
    text = log.read_text(encoding="utf-8")
    assert "a line for the log" in text
    assert "\x1b[" not in text, text
