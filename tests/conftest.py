"""Fixtures every test folder may use: a throwaway PostgreSQL server for the session; and the
hard player's kernels compiled before the first test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.warm import warm_up
from tests.pg_server import PostgresServer, find_binaries


def pytest_sessionstart(session: pytest.Session) -> None:
    """Compile (or load) the hard player's kernels once, first: a test that starts bot
    processes or waits on a computer's move must not wait on the compiler instead."""
    warm_up()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One throwaway PostgreSQL server for the whole session, started on first use from the
    PostgreSQL binaries on the machine (tests/pg_server.py); skipped, with the reason, where
    none can start."""
    binaries, reason = find_binaries()
    if binaries is None:
        pytest.skip(f"PostgreSQL tests skipped: {reason}")
    server = PostgresServer.start(fast=True)
    try:
        yield server
    finally:
        server.stop()
