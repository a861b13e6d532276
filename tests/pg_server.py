"""A throwaway PostgreSQL server for tests and benchmarks: initdb + pg_ctl in a temporary folder.

The server listens only on a Unix socket in that folder (no TCP port to collide with anything).
PostgreSQL refuses to run as root, so under root (CI) it runs as the unprivileged `postgres`
user; otherwise as the current user. One server serves a whole test session; each test gets a
database of its own (CREATE DATABASE is quick).

    server = PostgresServer.start(fast=True)   # or None, with the reason, via find_binaries()
    dsn = server.new_database()                # postgresql://postgres@/db_1?host=/tmp/...
    server.down(); server.up()                 # a restart: clients' connections drop
    server.stop()
"""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

SEARCHED = (
    os.environ.get("POSTGRES_BIN", ""),
    "/usr/lib/postgresql/15/bin",
    "/usr/lib/postgresql/16/bin",
    "/usr/lib/postgresql/17/bin",
    "/usr/lib/postgresql/14/bin",
)


def find_binaries() -> tuple[Path | None, str]:
    """The folder holding initdb and pg_ctl, or None with the reason none is usable."""
    for folder in SEARCHED:
        if folder and (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return _usable(Path(folder))
    on_path = shutil.which("initdb")
    if on_path and shutil.which("pg_ctl"):
        return _usable(Path(on_path).parent)
    return None, "no PostgreSQL server binaries (initdb, pg_ctl) on this machine"


def _usable(folder: Path) -> tuple[Path | None, str]:
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return None, "running as root, and there is no `postgres` user to run PostgreSQL as"
    return folder, ""


@dataclass
class PostgresServer:
    """A running throwaway server; stop() ends it and removes its folder."""

    binaries: Path
    folder: Path
    user: str | None  # the user it runs as when we are root
    options: list[str] = field(default_factory=list)
    _numbers: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    @classmethod
    def start(cls, *, fast: bool = True) -> PostgresServer:
        """Create a cluster in a new temporary folder and start it. fast turns off fsync (a test
        server that is thrown away needs no crash safety); benchmarks pass fast=False."""
        binaries, reason = find_binaries()
        if binaries is None:
            raise RuntimeError(reason)
        user = "postgres" if os.geteuid() == 0 else None
        folder = Path(tempfile.mkdtemp(prefix="ohhell-pg-"))
        if user is not None:
            entry = pwd.getpwnam(user)
            os.chown(folder, entry.pw_uid, entry.pw_gid)
        server = cls(binaries, folder, user)
        try:
            server._run(
                "initdb", "-D", str(folder / "data"), "-U", "postgres", "--auth=trust",
                "--no-locale", "-E", "UTF8", "--no-sync",
            )
            options = [
                f"-c unix_socket_directories={folder}",
                "-c listen_addresses=''",
                "-c max_connections=100",
                "-c shared_buffers=64MB",
            ]
            if fast:
                options += ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]
            server.options = options
            server.up()
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        return server

    def up(self) -> None:
        """Start the server (again, after down())."""
        self._run(
            "pg_ctl", "-D", str(self.folder / "data"), "-l", str(self.folder / "log"), "-w",
            "-t", "60", "-o", " ".join(self.options), "start",
        )

    def down(self) -> None:
        """Stop the server as a restart or a crash would (its clients' connections drop);
        up() starts it again on the same data."""
        self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "fast", "-w", "stop")

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.binaries / program), *args]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, cwd=self.folder)
        if done.returncode != 0:
            log = self.folder / "log"
            detail = log.read_text() if log.exists() else ""
            raise RuntimeError(
                f"{program} failed ({done.returncode}): {done.stderr.strip()}\n{detail}"
            )

    def dsn(self, database: str = "postgres") -> str:
        """The address of one database on this server."""
        return f"postgresql://postgres@/{database}?host={self.folder}"

    def new_database(self) -> str:
        """Create an empty database and return its address."""
        name = f"db_{os.getpid()}_{next(self._numbers)}"
        self.psql(f"CREATE DATABASE {name}")
        return self.dsn(name)

    def psql(self, sql: str, database: str = "postgres") -> str:
        """Run SQL through psql (as the server's superuser); returns its output."""
        done = subprocess.run(
            [str(self.binaries / "psql"), "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1",
             "-h", str(self.folder), "-U", "postgres", "-d", database, "-c", sql],
            capture_output=True, text=True,
        )
        if done.returncode != 0:
            raise RuntimeError(f"psql failed: {done.stderr.strip()}")
        return done.stdout

    def stop(self) -> None:
        """Stop the server at once and remove its folder."""
        try:
            self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
