"""What happened at a table, as plain values a presenter renders.

The table service publishes these after the store has committed the action that caused them.
They hold ids, names and engine values only (never Discord objects and never a card that is
still in someone's hand), so the Discord presenter and the terminal presenter render the same
stream, and tests can assert on it. All are frozen: a presenter may keep them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from engine import Card, Declaration, HandRecord, Move, Suit

Trick: TypeAlias = "tuple[tuple[int, Card], ...]"
"""(seat, card) pairs in play order."""


@dataclass(frozen=True, slots=True)
class TableOpened:
    """A new table is in its lobby; `host_id` opened it. `invited`: the people of the game it
    is a rematch of (`rematch_of`, that game's table id), asked to join again."""

    table_id: int
    host_id: int
    invited: tuple[int, ...] = ()
    rematch_of: int | None = None


@dataclass(frozen=True, slots=True)
class SeatsChanged:
    """Someone joined, left, was added or was replaced; the view's seats are current.

    `reason` is one of "join", "leave", "add_computer", "kick", "replaced".
    `seat` is the seat concerned (its index in the view at the time of the change).
    Mid-game a person who leaves or is kicked is told as "leave"/"kick" (with their id), then
    "replaced" names the computer that took the seat.
    """

    reason: str
    seat: int
    name: str
    user_id: int | None = None


@dataclass(frozen=True, slots=True)
class GameStarted:
    """The host dealt: seats are now fixed; `rules` are the exact rules in force."""

    players: int
    preset: str


@dataclass(frozen=True, slots=True)
class HandDealt:
    """A new hand is dealt (its cards went privately to each seat's hand)."""

    hand_number: int
    hand_size: int
    dealer: int
    trump_card: Card | None
    trump_suit: Suit | None


@dataclass(frozen=True, slots=True)
class TrumpChosen:
    """The dealer named trump (dealer_picks and similar variants); None means no trump."""

    seat: int
    suit: Suit | None


@dataclass(frozen=True, slots=True)
class DiscardsMade:
    """A seat discarded face down (the cards stay secret)."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class BidMade:
    """A seat bid. In simultaneous bidding `bid` is None until BiddingDone reveals it."""

    seat: int
    bid: int | None


@dataclass(frozen=True, slots=True)
class BiddingDone:
    """All bids are in: `bids` per seat, their total, and over/under/even against the tricks."""

    bids: tuple[int, ...]
    total: int
    tricks: int
    over_under: str  # "over", "under" or "even"


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """A seat played a card to the trick in play (a joker with what it was declared, or the
    value it took by itself)."""

    seat: int
    card: Card
    trick_number: int
    declaration: Declaration | None = None


@dataclass(frozen=True, slots=True)
class TrumpTurned:
    """The trump card was turned after the bids (super_screw), with its Super Trump."""

    card: Card
    suit: Suit | None
    super_trump: Card | None = None


@dataclass(frozen=True, slots=True)
class EvenBids:
    """The bids added up to the tricks: every player lost a random card (`lost`), or in a
    1-card hand was dealt a second card. Each sees their own lost card in their hand view."""

    lost: bool


@dataclass(frozen=True, slots=True)
class TrickWon:
    """A trick is complete: `winner` takes it."""

    winner: int
    cards: Trick
    trick_number: int


@dataclass(frozen=True, slots=True)
class HandScored:
    """A hand finished; `record` is the engine's HandRecord (bids, tricks, made, points, totals)."""

    record: HandRecord


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the final standings (place 1 is best; tied seats share a place)."""

    place: int
    seat: int
    name: str
    user_id: int | None
    score: int


@dataclass(frozen=True, slots=True)
class RatingChange:
    """A person's shown rating (openskill ordinal, 0 for a newcomer) before and after the game."""

    user_id: int
    before: float
    after: float
    name: str = ""

    @property
    def delta(self) -> float:
        """How much the shown rating moved."""
        return self.after - self.before


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game is over and recorded: standings best first, winning seats, rating changes."""

    standings: tuple[Standing, ...]
    winners: tuple[int, ...]
    rating_changes: tuple[RatingChange, ...]
    hints: bool = False
    """The table allowed hints, so the game changed no rating."""


@dataclass(frozen=True, slots=True)
class TurnChanged:
    """Now waiting on `seats` (one seat, or several during simultaneous phases).

    `awaits` is the move type they are to make (the phase's `awaits`). `deadline` is when the
    timer plays for them (None: no timer, or computer seats).
    """

    seats: tuple[int, ...]
    awaits: type[Move] | None
    hand_number: int
    deadline: datetime | None


@dataclass(frozen=True, slots=True)
class TurnResumed:
    """The bot started again (restart, or a table taken over) while `seats` were awaited: the
    same turn goes on and nothing changed at the table. `began` is when the turn began (its
    stored deadline less the turn time), or the restart for a table without a timer; a
    presenter that tells slow players counts from it (they got no nudge before the restart)."""

    seats: tuple[int, ...]
    awaits: type[Move] | None
    hand_number: int
    began: datetime


@dataclass(frozen=True, slots=True)
class TimerWarning:
    """Half the turn time is gone and `seats` have not acted yet."""

    seats: tuple[int, ...]
    deadline: datetime


@dataclass(frozen=True, slots=True)
class TimedOut:
    """Time ran out for `seat`; a computer player made its move (the move's own event follows)."""

    seat: int
    timeouts_in_row: int


@dataclass(frozen=True, slots=True)
class SeatAutopiloted:
    """A computer plays `seat` now (`on`), or the person took the seat back (not `on`)."""

    seat: int
    on: bool


@dataclass(frozen=True, slots=True)
class TableCancelled:
    """The table closed without a result. `by` is the user who ended it, None for the system."""

    by: int | None
    reason: str


Event = (
    TableOpened
    | SeatsChanged
    | GameStarted
    | HandDealt
    | TrumpChosen
    | DiscardsMade
    | BidMade
    | BiddingDone
    | CardPlayed
    | TrumpTurned
    | EvenBids
    | TrickWon
    | HandScored
    | GameOver
    | TurnChanged
    | TurnResumed
    | TimerWarning
    | TimedOut
    | SeatAutopiloted
    | TableCancelled
)
"""Any table event."""

__all__ = [
    "BidMade",
    "BiddingDone",
    "CardPlayed",
    "DiscardsMade",
    "EvenBids",
    "Event",
    "GameOver",
    "GameStarted",
    "HandDealt",
    "HandScored",
    "RatingChange",
    "SeatAutopiloted",
    "SeatsChanged",
    "Standing",
    "TableCancelled",
    "TableOpened",
    "TimedOut",
    "TimerWarning",
    "Trick",
    "TrickWon",
    "TrumpChosen",
    "TrumpTurned",
    "TurnChanged",
    "TurnResumed",
]
