"""The rules engine: pure, deterministic Oh Hell (no I/O, no asyncio, no discord)."""

from engine.cards import STANDARD_DECK, Card, Suit, sort_hand
from engine.game import Game, HandRecord, IllegalAction, Phase, PlayerView
from engine.rules import Rules

__all__ = [
    "STANDARD_DECK",
    "Card",
    "Game",
    "HandRecord",
    "IllegalAction",
    "Phase",
    "PlayerView",
    "Rules",
    "Suit",
    "sort_hand",
]
