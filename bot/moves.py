"""Moves on the engine as the service does them: apply one (refusals in the player's words)
and describe it for the action log. Shared by the action pipeline and the computer runs."""

from __future__ import annotations

from typing import Any

from bot.errors import TableError
from bot.narrate import Before
from engine import Game, IllegalAction


def sentence(text: str) -> str:
    """Text as a sentence a player can read: capital first, full stop last."""
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def apply_move(game: Game, kind: str, seat: int, move: Any) -> None:
    """Do a move on the engine; IllegalAction becomes TableError with the engine's words."""
    try:
        if kind == "bid":
            game.bid(seat, move)
        elif kind == "play":
            game.play(seat, move)
        elif kind == "trump":
            game.choose_trump(seat, move)
        elif kind == "discard":
            game.discard(seat, list(move))
        else:
            raise AssertionError(kind)
    except IllegalAction as err:
        raise TableError(sentence(str(err))) from None


def move_payload(kind: str, move: Any, before: Before) -> dict[str, Any]:
    """The action-log payload of a move (card and suit codes, so it can be replayed)."""
    base: dict[str, Any] = {"hand": before.hand_number}
    if kind == "bid":
        base["bid"] = int(move)
    elif kind == "play":
        base["card"] = move.code
    elif kind == "trump":
        base["suit"] = move.letter
    elif kind == "discard":
        base["cards"] = [card.code for card in move]
    return base


__all__ = ["apply_move", "move_payload", "sentence"]
