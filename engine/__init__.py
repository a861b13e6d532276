"""The rules engine: pure, deterministic Oh Hell (no I/O, no asyncio, no discord)."""

from engine.cards import STANDARD_DECK, Card, Suit, SuitWord, sort_hand
from engine.game import Game, IllegalAction
from engine.moves import (
    Bid,
    Declaration,
    Discard,
    Move,
    NameTrump,
    Phase,
    Play,
    move_from_code,
    move_from_payload,
)
from engine.outcome import BiddingResult, HandStart, Outcome, Trick, TrickResult, over_under
from engine.phrase import Phrase, Refusal, Term
from engine.rules import Rules
from engine.scoring import HandRecord
from engine.special_game import SpecialGame
from engine.view import PlayerView, PublicState

__all__ = [
    "STANDARD_DECK",
    "Bid",
    "BiddingResult",
    "Card",
    "Declaration",
    "Discard",
    "Game",
    "HandRecord",
    "HandStart",
    "IllegalAction",
    "Move",
    "NameTrump",
    "Outcome",
    "Phase",
    "Phrase",
    "Play",
    "PlayerView",
    "PublicState",
    "Refusal",
    "Rules",
    "SpecialGame",
    "Suit",
    "SuitWord",
    "Term",
    "Trick",
    "TrickResult",
    "move_from_code",
    "move_from_payload",
    "over_under",
    "sort_hand",
]
