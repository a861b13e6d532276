"""What a game keeps of its last snapshot's text, so the next one encodes only what changed.

A table is saved after every move (docs/architecture.md section 4), and most of a long game's
snapshot is what never changes once written: the rules and the records of the finished hands.
Both are immutable objects, and a game only appends records, so their JSON is kept with the
game and reused while the game holds the very same objects (`engine.snapshot.game_to_json`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from engine.rules import Rules
from engine.scoring import HandRecord


def dumps(value: object) -> str:
    """Compact JSON, as every snapshot is written."""
    return json.dumps(value, separators=(",", ":"))


class SnapshotText:
    """The rules' JSON and each finished hand's record JSON, as last encoded (see the module
    docstring)."""

    __slots__ = ("_records", "_rules", "_rules_text")

    def __init__(self) -> None:
        self._rules: Rules | None = None
        self._rules_text = ""
        self._records: list[tuple[HandRecord, str]] = []

    def rules_of(self, rules: Rules) -> str:
        """The rules as JSON (encoded again only for another Rules object)."""
        if self._rules is not rules:
            self._rules, self._rules_text = rules, dumps(rules.model_dump(mode="json"))
        return self._rules_text

    def records_of(self, sheet: Sequence[HandRecord],
                   encode: Callable[[HandRecord], dict[str, Any]]) -> str:
        """The records as the items of a JSON list (without its brackets): those kept are
        reused while they are the same objects at the same places, the rest encoded."""
        kept = self._records
        same = 0
        while same < len(kept) and same < len(sheet) and kept[same][0] is sheet[same]:
            same += 1
        del kept[same:]
        kept.extend((record, dumps(encode(record))) for record in sheet[same:])
        return ",".join(text for _, text in kept)


__all__ = ["SnapshotText", "dumps"]
