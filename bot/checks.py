"""The refusals every command checks before it changes a table: each raises TableError with a
sentence for the player and changes nothing (docs/architecture.md: bad input changes nothing).
"""

from __future__ import annotations

from bot.errors import TableError
from bot.guard import Guard, step_letter
from bot.models import TableStatus
from bot.table import LiveTable
from engine import Bid, Discard, Game, Move, NameTrump, Phase, Play
from engine.cards import SuitWord
from engine.phrase import Phrase


def need_lobby(t: LiveTable) -> None:
    """Seats change only before the deal."""
    if t.status is not TableStatus.LOBBY:
        raise TableError("The game has already started.")


def need_host(t: LiveTable, user_id: int, refusal: Phrase) -> None:
    """Something the host alone may do; `refusal` says so to anyone else."""
    if user_id != t.host_id:
        raise TableError.of(refusal)


def need_seat(t: LiveTable, user_id: int) -> int:
    """The seat this person holds."""
    seat = t.seat_of(user_id)
    if seat is None:
        raise TableError("You are not in this game.")
    return seat


def need_game(t: LiveTable) -> Game:
    """The game in play (dealt and not over)."""
    game = t.game
    if t.status is TableStatus.LOBBY or game is None:
        raise TableError("The game has not started yet.")
    if game.phase is Phase.GAME_OVER:
        raise TableError("This game is over.")
    return game


def need_fresh(t: LiveTable, game: Game, seat: int, guard: Guard) -> None:
    """Refuse a control whose decision is taken (a stale menu, a second pick)."""
    if guard.hand_number != game.hand_number:
        raise TableError(
            "That was for hand {then}; hand {now} is in play now.",
            then=guard.hand_number, now=game.hand_number,
        )
    if guard.step is None:
        return
    done = _done_at(game, seat, guard)
    if done is not None:
        if t.seats[seat].computer_guard == guard:
            raise TableError("That menu is out of date: a computer {done} for you.",
                             done=done)
        raise TableError("That menu is out of date: you already {done}.", done=done)
    if not guard.covers(Guard.of(game)):
        raise TableError("That menu is out of date: the game has moved on.")


def need_turn(t: LiveTable, game: Game, seat: int, move: Move) -> None:
    """The move is of the kind the game awaits, and `seat` is one it awaits."""
    expected = game.phase.awaits
    if expected is None or not isinstance(move, expected):
        raise TableError.of(_NOT_NOW.get(expected) or Phrase("That is not possible now."))
    actors = game.actor_seats()
    if seat not in actors:
        if game.phase.simultaneous:
            if isinstance(move, Bid):
                raise TableError("You have already bid this hand.")
            raise TableError("You have already discarded this hand.")
        names = ", ".join(t.seats[a].name for a in actors)
        raise TableError("It is not your turn: waiting for {names}.", names=names)


_NOT_NOW: dict[type[Move] | None, Phrase] = {
    Bid: Phrase("It is time to bid, not to do that."),
    Play: Phrase("It is time to play a card, not to do that."),
    NameTrump: Phrase("The dealer is choosing trump now."),
    Discard: Phrase("It is time to discard."),
}


def _done_at(game: Game, seat: int, guard: Guard) -> Phrase | None:
    """What `seat` did at the decision `guard` names in the hand in play ("played K♣"), or
    None when it has not taken that decision. Names only cards already on the table."""
    if guard.step == step_letter(Play):
        tricks = game.tricks_played
        trick = (tricks[guard.trick_number - 1] if 0 < guard.trick_number <= len(tricks)
                 else game.current_trick if guard.trick_number == game.trick_number else [])
        card = next((c for s, c in trick if s == seat), None)
        return None if card is None else Phrase("played {card}", card=card)
    if guard.step == step_letter(Bid):
        bid = game.bids[seat]
        return None if bid is None else Phrase("bid {bid}", bid=bid)
    if guard.step == step_letter(NameTrump):
        suit = game.trump_suit
        if seat != game.dealer or game.phase is Phase.TRUMP_CHOICE or suit is None:
            return None
        return Phrase("named {suit} trump", suit=SuitWord(suit))
    if guard.step == step_letter(Discard):
        return Phrase("discarded") if game.discarded[seat] else None
    return None


__all__ = ["need_fresh", "need_game", "need_host", "need_lobby", "need_seat", "need_turn"]
