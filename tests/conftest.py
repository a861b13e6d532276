"""Fixtures every test folder may use: a throwaway PostgreSQL server for the session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.pg_server import PostgresServer, find_binaries


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
