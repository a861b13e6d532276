"""The snapshot format: a game's whole state as JSON-ready values, and back.

`Game.to_json` / `Game.from_json` use these codecs. The format is versioned so an old snapshot
is refused in plain words rather than misread.
"""

from __future__ import annotations

import json
from typing import Any

from engine.cards import Card, Suit
from engine.scoring import HandRecord

SNAPSHOT_VERSION = 1


def card_codes(cards: Any) -> list[str]:
    return [card.code for card in cards]


def cards_from_codes(codes: list[str]) -> list[Card]:
    return [Card.parse(code) for code in codes]


def record_to_dict(record: HandRecord) -> dict[str, Any]:
    return {
        "hand_number": record.hand_number,
        "hand_size": record.hand_size,
        "tricks_in_hand": record.tricks_in_hand,
        "dealer": record.dealer,
        "trump_card": record.trump_card.code if record.trump_card else None,
        "trump_suit": record.trump_suit.letter if record.trump_suit is not None else None,
        "bids": list(record.bids),
        "tricks": list(record.tricks),
        "made": list(record.made),
        "points": list(record.points),
        "totals": list(record.totals),
        "blind": record.blind,
        "leaders": list(record.leaders),
        "plays": card_codes(record.plays),
    }


def record_from_dict(data: dict[str, Any]) -> HandRecord:
    return HandRecord(
        hand_number=data["hand_number"],
        hand_size=data["hand_size"],
        tricks_in_hand=data["tricks_in_hand"],
        dealer=data["dealer"],
        trump_card=Card.parse(data["trump_card"]) if data["trump_card"] else None,
        trump_suit=Suit.parse(data["trump_suit"]) if data["trump_suit"] else None,
        bids=tuple(data["bids"]),
        tricks=tuple(data["tricks"]),
        made=tuple(data["made"]),
        points=tuple(data["points"]),
        totals=tuple(data["totals"]),
        blind=data["blind"],
        leaders=tuple(data.get("leaders", ())),
        plays=tuple(cards_from_codes(data.get("plays", []))),
    )


HAND_PLAY_KEYS = ("leaders", "plays")
"""Scoresheet record fields added after snapshot version 1 was first stored."""


def snapshots_match(replayed: str, stored: str) -> bool:
    """Whether the snapshot of a game replayed from its action log is the stored one.

    A snapshot stored before finished hands kept their play has no `leaders` or `plays` in its
    scoresheet records; it still matches a replay that has them, when all else is equal."""
    if replayed == stored:
        return True
    try:
        told, saved = json.loads(replayed), json.loads(stored)
        records = told["scoresheet"]
        if any(key in record for record in saved["scoresheet"] for key in HAND_PLAY_KEYS):
            return False
        for record in records:
            for key in HAND_PLAY_KEYS:
                record.pop(key, None)
    except (ValueError, KeyError, TypeError):
        return False
    return bool(told == saved)


__all__ = [
    "SNAPSHOT_VERSION",
    "card_codes",
    "cards_from_codes",
    "record_from_dict",
    "record_to_dict",
    "snapshots_match",
]
