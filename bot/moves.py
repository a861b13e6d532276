"""Moves on the engine as the service does them: apply one (refusals in the player's words),
write it to the action log, and read the log back into a game (replay).

People, computers and timeouts alike take a move through `perform`: the engine applies it and
says what it caused, `narrate` tells it as events, `logged` writes its log row.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.errors import TableError
from bot.events import Event
from bot.guard import Guard
from bot.narrate import narrate
from bot.table import LiveTable
from data import Action, LoggedAction
from engine import (
    Bid,
    Card,
    Discard,
    Game,
    IllegalAction,
    Move,
    NameTrump,
    Outcome,
    Play,
    Refusal,
    Rules,
    Suit,
    move_from_payload,
)

LOG_NAMES: dict[type[Move], str] = {Bid: "bid", Play: "play", NameTrump: "trump",
                                    Discard: "discard"}
"""The action-log name of each move type (the names the log has always used)."""


def sentence(text: str) -> str:
    """Text as a sentence a player can read: capital first, full stop last."""
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


NORWEGIAN_RANKS = {"knekt": "J", "kn": "J", "dame": "Q", "konge": "K", "ess": "A"}
"""The court cards and the ace as Norwegian players name them."""


def read_card(text: str) -> Card:
    """A card as a player types it, in English (10H, QS, "q of hearts", JK) or as Norwegian
    players say it, suit or rank first ("hjerter 10", "spar dame", "dame spar", "10 kløver");
    Refusal (a ValueError) in words when it names none."""
    words = text.lower().replace(" av ", " ").split() if isinstance(text, str) else []
    words = [NORWEGIAN_RANKS.get(word, word) for word in words]
    if len(words) == 2 and _is_suit_word(words[0]) and not _is_suit_word(words[1]):
        words.reverse()  # Norwegian says the suit first: "hjerter 10"
    try:
        return Card.parse(" ".join(words) if words else text)
    except Refusal:
        raise Refusal("{text!r} is not a card: write the rank then the suit, like 10H, QS or "
                      "A♦ (or JK, W, Jester for special cards).", text=text) from None


def _is_suit_word(word: str) -> bool:
    try:
        Suit.parse(word)
    except ValueError:
        return False
    return len(word) > 1


def refused(err: ValueError) -> TableError:
    """The TableError saying why a move or a card as typed was refused: the engine's phrase
    (IllegalAction, a card or suit it cannot read), which the reader gets in their language."""
    if isinstance(err, Refusal):
        return TableError.of(err.phrase)
    return TableError("That cannot be done: {reason}", reason=sentence(str(err)))


def take(game: Game, seat: int, move: Move) -> Outcome:
    """Do a move on the engine; IllegalAction becomes TableError with the engine's words."""
    try:
        return game.apply(seat, move)
    except IllegalAction as err:
        raise refused(err) from None


def logged(outcome: Outcome, *, user_id: int | None = None, by: str | None = None,
           level: str | None = None) -> Action:
    """The action-log row of an accepted move: its payload is `move.payload()` with the hand
    it was made in (and, for a computer's move, why it moved and its level)."""
    move = outcome.move
    payload: dict[str, Any] = {"hand": outcome.hand_number, **move.payload()}
    if by is not None:
        payload["by"] = by
        payload["level"] = level
    return Action(LOG_NAMES[type(move)], seat=outcome.seat, user_id=user_id, payload=payload)


def perform(
    t: LiveTable,
    seat: int,
    move: Move,
    *,
    user_id: int | None = None,
    by: str | None = None,
    level: str | None = None,
) -> tuple[Action, list[Event]]:
    """The one place a move meets the engine (people, computers and timeouts alike): apply
    it, narrate what the engine says it caused, and write its log row. `by`: why a computer
    moved ("computer", "timeout"), None for a person. TableError changes nothing."""
    game = t.game
    assert game is not None
    dealer = game.dealer
    outcome = take(game, seat, move)
    t.seats[seat].computer_guard = None if by is None else Guard.taken(outcome)
    return logged(outcome, user_id=user_id, by=by, level=level), narrate(outcome, dealer)


def replay(rules: Rules, log: Iterable[LoggedAction]) -> Game | None:
    """The game the action log tells: the deal (seed and players) and every move since, read
    with `move_from_payload` (rows from before moves were values read the same). None when the
    log has no deal. Raises ValueError (IllegalAction included) when a row does not replay."""
    game: Game | None = None
    moves = set(LOG_NAMES.values())
    for entry in log:
        if entry.action == "deal":
            game = Game.new(players=int(entry.payload["players"]), rules=rules,
                            seed=int(entry.payload["seed"]))
        elif entry.action in moves:
            if game is None or entry.seat is None:
                raise ValueError(f"action {entry.id} is a move without a game or a seat")
            game.apply(entry.seat, move_from_payload(entry.payload))
    return game


__all__ = [
    "LOG_NAMES", "logged", "perform", "read_card", "refused", "replay", "sentence", "take",
]
