"""Sync the slash commands only when they changed since the last sync.

Why: every sync is a REST call against a tight per-application limit (and a global sync takes a
while to reach every server), yet the command tree changes only with a new version of the code.
So the sync payload's digest is kept in a small file beside the database, per application and
target (one server or global); a start whose payload matches it skips the call.
"""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)


def payload_digest(payload: list[dict[str, Any]]) -> str:
    """A stable digest of a sync payload: equal payloads, equal digests, whatever the key order."""
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def sync_target(application_id: int, guild_id: int | None) -> str:
    """The key a sync is remembered under: another bot or another server syncs again."""
    return f"{application_id}:{'global' if guild_id is None else guild_id}"


def record_path(database_path: Path) -> Path:
    """The record lives beside the database, so a Docker volume keeps it across images."""
    return database_path.with_name(database_path.name + ".commands.json")


class SyncRecord:
    """The digests of the last successful syncs, in a JSON file ({target: digest}).

    A missing or unreadable file only means "sync again": it never stops the bot.
    """

    def __init__(self, path: Path) -> None:
        self.path = path

    def _read(self) -> dict[str, str]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}

    def is_current(self, target: str, digest: str) -> bool:
        """The commands synced last time to this target were exactly these."""
        return self._read().get(target) == digest

    def remember(self, target: str, digest: str) -> None:
        """Keep the digest of a sync that Discord accepted (best effort: a failure only logs)."""
        data = self._read()
        data[target] = digest
        temporary = self.path.with_name(self.path.name + ".tmp")
        try:
            temporary.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
            temporary.replace(self.path)
        except OSError as err:
            log.warning("could not keep the command sync record %s: %s", self.path, err)


__all__ = ["SyncRecord", "payload_digest", "record_path", "sync_target"]
