"""The table read model: what a presenter may render, frozen at the moment of publishing.

A TableView is a snapshot, so a presenter can keep it or render it later without seeing a
later action half-applied. It carries only public information: private hands are fetched per
person with `TableService.hand_view` (or `seat_view` for a seat the bot itself DMs).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING

from pydantic import AliasChoices, BaseModel, ConfigDict, Field

if TYPE_CHECKING:
    from engine import PublicState, Rules


class TableStatus(StrEnum):
    """Where a table is in its life: lobby, then playing, then finished or cancelled."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"

    @property
    def active(self) -> bool:
        """True while the table still takes actions (lobby or playing)."""
        return self in (TableStatus.LOBBY, TableStatus.PLAYING)


COMPUTER_LEVELS: tuple[str, ...] = ("random", "easy", "medium", "hard")


class TableOptions(BaseModel):
    """What the host chose at `/ohhell start` (None: the preset's own value / the default).

    The exact engine Rules are built from these when the host deals, since some (the hand
    sizes) depend on the number of seats.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    preset: str = "classic"
    max_cards: int | None = Field(default=None, ge=1, le=60)
    scoring: str | None = None
    hook: bool | None = None
    computers: int = Field(default=0, ge=0, le=7,
                           validation_alias=AliasChoices("computers", "bots"))
    """Computer players seated at the start (`bots` in /ohhell start and in older rows)."""
    computer_level: str = Field(default="medium",
                                validation_alias=AliasChoices("computer_level", "bot_level"))
    """How well they play (`bot_level` in /ohhell start and in older rows)."""
    turn_timeout: int | None = Field(default=None, ge=0, le=86_400)
    """Seconds per turn; None: the bot's default; 0: no timer."""
    seed: int | None = None
    """Shuffle seed (tests and the terminal's --seed); None: random."""
    hints: bool = False
    """Players may ask for the hard computer's suggestion (/ohhell hint, `?` in the terminal);
    the finished game is then kept but not rated."""


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat: a person (user_id set) or a computer (`computer` is its level)."""

    seat: int
    name: str
    user_id: int | None
    computer: str | None
    """Level of the computer that owns this seat for good (added, or replaced a leaver)."""
    autopilot: bool
    """A person's seat that a computer plays for now (after timeouts) until they act again."""
    timeouts_in_row: int
    dm_message_id: int | None
    dm_hand_number: int | None
    """The hand `dm_message_id` belongs to; a new hand gets a new DM."""
    dm_failed: bool
    """The person's DMs are closed: stop trying for this game."""
    dm_channel_id: int | None = None
    """The DM channel holding `dm_message_id` (as the presenter reported it)."""
    replaced_user_id: int | None = None
    """The person who had this seat before a computer took it (kick or leave mid-game)."""

    @property
    def is_computer(self) -> bool:
        """True when no person plays this seat (a computer seat, not an autopiloted person)."""
        return self.user_id is None


@dataclass(frozen=True, slots=True)
class TableView:
    """Everything public about a table at one moment (see module docstring)."""

    table_id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    """The table message in the channel (None until the presenter posts it)."""
    host_id: int
    status: TableStatus
    options: TableOptions
    rules: Rules | None
    """The rules in force (None in the lobby: they are fixed when the host deals)."""
    seats: tuple[SeatView, ...]
    state: PublicState | None
    """None in the lobby."""
    deadline: datetime | None
    """When the turn timer plays for the awaited seats (aware UTC), None without a timer."""
    warned: bool
    """The half-time warning for the current deadline has been given."""
    saves: int
    """The table's saves so far (it grows with every commit; message ids are kept in rows of
    their own, bot/messages.py): a presenter can drop an older render."""

    def seat_of(self, user_id: int) -> int | None:
        """The seat a person sits in, or None."""
        for s in self.seats:
            if s.user_id == user_id:
                return s.seat
        return None

    @property
    def hand_number(self) -> int | None:
        """The hand in play (None in the lobby): buttons carry it so stale ones are refused."""
        return self.state.hand_number if self.state is not None else None


__all__ = [
    "COMPUTER_LEVELS",
    "SeatView",
    "TableOptions",
    "TableStatus",
    "TableView",
]
