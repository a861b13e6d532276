"""Start-up refuses what the person running the bot got wrong before it logs in to Discord.

Real processes (`python -m bot`'s own entry point) against a fake Discord that records every
request: a refusal must come as one line naming the setting and the fix, with no request made,
so no table resumes only to answer every action "Something went wrong".
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest

from data import Store
from tests.bot.test_start_errors import ROOT, START_AGAINST, JsonHandler


class Recording(JsonHandler):
    """A Discord that refuses the token, and remembers that it was asked."""

    asked: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        self.asked.append(self.path)
        self.answer(401, {"message": "401: Unauthorized", "code": 0})


@pytest.fixture
def discord_api() -> Iterator[tuple[str, list[str]]]:
    asked: ClassVar[list[str]] = []
    handler = type("Handler", (Recording,), {"asked": asked})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/api/v10", asked
    server.shutdown()
    server.server_close()


@contextlib.contextmanager
def read_only(path: Path) -> Iterator[None]:
    """Make a file read-only for this very process: root writes through file modes, so as root
    the file is made immutable (chattr +i) for the while."""
    if os.geteuid() != 0:
        path.chmod(0o444)
        yield
        return
    made = subprocess.run(["chattr", "+i", str(path)], capture_output=True, text=True)
    if made.returncode != 0:
        pytest.skip(f"root cannot make a read-only file here: {made.stderr.strip()}")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def start(base: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items()
                   if not k.startswith(("DATABASE_", "SHARD_", "TAKEOVER_", "DATA_DIR"))}
    environment.update({"DISCORD_TOKEN": "MTIz.not-a.real-token", "COMPUTER_WORKERS": "0",
                        "DATABASE_PATH": str(cwd / "bot.sqlite3"), **env})
    environment["PYTHONPATH"] = str(ROOT) + os.pathsep + environment.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-c", START_AGAINST, base], cwd=cwd, env=environment,
                          capture_output=True, text=True, timeout=120)


def refusal(result: subprocess.CompletedProcess[str], asked: list[str]) -> str:
    """The one line a refused start leaves, checked to come before any request to Discord."""
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and result.stdout == "", result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert asked == [], f"it logged in first: {asked}"
    return lines[0]


def test_a_read_only_database_file_is_refused_before_login(
    discord_api: tuple[str, list[str]], tmp_path: Path
) -> None:
    db = tmp_path / "bot.sqlite3"

    async def create() -> None:
        store = await Store.open(db)
        await store.close()

    asyncio.run(create())
    base, asked = discord_api
    with read_only(db):  # in a writable folder: SQLite would open it, read-only
        line = refusal(start(base, tmp_path, DATABASE_PATH=str(db)), asked)
    assert line.startswith(f"error: DATABASE_PATH: {db}: cannot write {db}"), line
    assert "make it writable by the user the bot runs as" in line


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("mysql://bot:secret@db/ohhell", "unknown database URL scheme 'mysql'"),
        ("garbage", "'garbage' is not a database URL: use sqlite:///path/to/file.sqlite3"),
        ("postgresql://bot@db:port/ohhell", "the port is not a number"),
    ],
)
def test_a_database_url_it_cannot_use_is_refused_before_login(
    discord_api: tuple[str, list[str]], tmp_path: Path, url: str, words: str
) -> None:
    base, asked = discord_api
    line = refusal(start(base, tmp_path, DATABASE_URL=url), asked)
    assert line.startswith("error: setting DATABASE_URL: "), line
    assert words in line and "secret" not in line


@pytest.mark.parametrize(
    ("env", "name", "words"),
    [
        ({"SHARD_COUNT": "2", "SHARD_IDS": "5"}, "SHARD_IDS", "shard 5 is not one of the 2"),
        ({"SHARD_IDS": "0"}, "SHARD_IDS", "needs SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0"}, "SHARD_IDS", "DATABASE_URL=postgresql://"),
        ({"SHARD_COUNT": "2", "TAKEOVER_SHARD_IDS": "one"}, "TAKEOVER_SHARD_IDS",
         "write them like 0,1"),
        ({"LOG_LEVEL": "LOUD"}, "LOG_LEVEL", "'DEBUG'"),
    ],
)
def test_an_invalid_setting_is_named_before_login(
    discord_api: tuple[str, list[str]], tmp_path: Path, env: dict[str, str], name: str,
    words: str
) -> None:
    base, asked = discord_api
    line = refusal(start(base, tmp_path, **env), asked)
    assert line.startswith(f"error: setting {name}: "), line
    assert words in line and "Value error" not in line


def test_a_database_path_it_cannot_use_is_refused_before_login(
    discord_api: tuple[str, list[str]], tmp_path: Path
) -> None:
    base, asked = discord_api
    missing = tmp_path / "no-such-folder" / "bot.sqlite3"
    line = refusal(start(base, tmp_path, DATABASE_PATH=str(missing)), asked)
    assert line == (f"error: DATABASE_PATH: {missing}: the folder {missing.parent} does not "
                    f"exist: create it first (mkdir -p {missing.parent}) or choose another "
                    "DATABASE_PATH")
    assert not missing.parent.exists()  # nothing made where nobody asked

    line = refusal(start(base, tmp_path, DATABASE_PATH=str(tmp_path)), asked)
    assert line == (f"error: DATABASE_PATH: {tmp_path} is a folder: name a file in it, e.g. "
                    f"{tmp_path / 'ohhell.sqlite3'}")

    not_sqlite = tmp_path / "notes.sqlite3"
    not_sqlite.write_text("these are my notes, not a database\n" * 200)
    line = refusal(start(base, tmp_path, DATABASE_PATH=str(not_sqlite)), asked)
    assert line.startswith(f"error: cannot open the database {not_sqlite} (DATABASE_PATH): ")
    assert "choose another DATABASE_PATH" in line
    assert not_sqlite.read_text().startswith("these are my notes")
