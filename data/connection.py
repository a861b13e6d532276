"""Database addresses and the numbered migrations both dialects share.

DATABASE_URL chooses the driver: ``sqlite:///path/to/file.sqlite3`` (the default, embedded) or
``postgresql://user@host/db``. A plain path means a SQLite file, so DATABASE_PATH keeps working.
Each dialect has its own folder of migrations (data/migrations/sqlite, .../postgresql) with the
same numbers and names: the same schema steps, each in its dialect's SQL, applied one transaction
each at start-up and recorded in schema_version.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from data.driver import Dialect
from data.errors import StoreError

_MIGRATION_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")
DIALECTS: tuple[Dialect, ...] = ("sqlite", "postgresql")


@dataclass(frozen=True)
class Migration:
    """One numbered SQL file from data/migrations/<dialect>/."""

    version: int
    name: str
    sql: str


@dataclass(frozen=True)
class DatabaseAddress:
    """Where the store lives: a SQLite file (path) or a PostgreSQL server (dsn)."""

    dialect: Dialect
    path: Path | None = None
    dsn: str | None = None

    def __str__(self) -> str:
        """The address without a password, for logs and messages."""
        if self.path is not None:
            return str(self.path)
        return re.sub(r"//([^:/@]*):[^@/]*@", r"//\1:***@", self.dsn or "")


def parse_address(target: str | Path) -> DatabaseAddress:
    """A path, ``sqlite:///path`` (``sqlite:////abs/path`` for an absolute one, as SQLAlchemy
    writes it) or ``postgresql://...`` / ``postgres://...``; anything else is refused."""
    text = str(target)
    if isinstance(target, Path) or "://" not in text:
        return DatabaseAddress("sqlite", path=Path(text))
    scheme, _, rest = text.partition("://")
    scheme = scheme.lower()
    if scheme == "sqlite":
        if not rest.startswith("/") or rest == "/":
            raise ValueError(f"a SQLite URL names a file: sqlite:///relative/path, not {text!r}")
        return DatabaseAddress("sqlite", path=Path(rest[1:]))
    if scheme in ("postgresql", "postgres"):
        return DatabaseAddress("postgresql", dsn=text)
    raise ValueError(
        f"unknown database URL scheme {scheme!r}: use sqlite:///path or postgresql://..."
    )


def migrations(dialect: Dialect = "sqlite") -> list[Migration]:
    """The shipped migrations of a dialect in version order (package data, see pyproject)."""
    found: list[Migration] = []
    folder = resources.files("data").joinpath("migrations").joinpath(dialect)
    for entry in folder.iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    versions = [m.version for m in found]
    if versions != list(range(1, len(found) + 1)):
        raise StoreError(f"migrations must be numbered 1..n without gaps, found {versions}")
    return found


def latest_version(dialect: Dialect = "sqlite") -> int:
    """The schema version this code writes."""
    return len(migrations(dialect))


def split_statements(sql: str) -> list[str]:
    """Split a SQLite migration into statements (triggers included) so they run in our
    transaction: executescript() would commit any open transaction first, which breaks "one
    migration, one transaction". (PostgreSQL runs a whole migration as one script.)"""
    statements: list[str] = []
    buffer = ""
    for line in sql.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            statement = buffer.strip()
            if _has_code(statement):
                statements.append(statement)
            buffer = ""
    if _has_code(buffer):
        raise StoreError(f"unterminated SQL statement in migration: {buffer.strip()[:80]}")
    return statements


def _has_code(text: str) -> bool:
    return any(
        line.strip() and not line.strip().startswith("--") for line in text.splitlines()
    )
