"""`python -m bot` that cannot start ends with one line saying why, never a traceback.

Real processes, with discord.py's API address pointed at a local fake (a refusing Discord, or a
port nobody listens on), because the failure paths run through discord.py's own login.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
START_AGAINST = (
    "import sys, discord.http\n"
    "discord.http.Route.BASE = sys.argv[1]\n"
    "from bot.cli import main\n"
    "raise SystemExit(main([]))\n"
)


class JsonHandler(BaseHTTPRequestHandler):
    """A fake Discord endpoint that answers JSON and keeps quiet in the test output."""

    def answer(self, status: int, data: object) -> None:
        body = json.dumps(data).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


class Refuses(JsonHandler):
    """Discord's answer to a bad token: 401 on GET /users/@me."""

    def do_GET(self) -> None:
        self.answer(401, {"message": "401: Unauthorized", "code": 0})


@pytest.fixture
def refusing_discord() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Refuses)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/api/v10"
    server.shutdown()
    server.server_close()


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(base: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "DISCORD_TOKEN": "MTIz.not-a.real-token",
                   "DATABASE_PATH": str(cwd / "bot.sqlite3"), "COMPUTER_WORKERS": "0", **env}
    environment["PYTHONPATH"] = str(ROOT) + os.pathsep + environment.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-c", START_AGAINST, base], cwd=cwd, env=environment,
                          capture_output=True, text=True, timeout=120)


def last_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and result.stdout == "", result.stderr
    return result.stderr.strip().splitlines()[-1]


def test_a_wrong_token_ends_with_one_line(refusing_discord: str, tmp_path: Path) -> None:
    line = last_line(start(refusing_discord, tmp_path))
    assert line.startswith("error: Discord refused the token in DISCORD_TOKEN")
    assert "Reset Token" in line


def test_no_network_ends_with_one_line(tmp_path: Path) -> None:
    line = last_line(start(f"http://127.0.0.1:{closed_port()}/api/v10", tmp_path))
    assert line.startswith("error: cannot reach Discord") and "network" in line
