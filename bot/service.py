"""The table service: every Oh Hell table the bot hosts, one per channel or thread.

It speaks ids and engine values only. Each action runs under its table's asyncio.Lock:
check it (the engine refuses illegal moves without changing the game), commit it to the
store together with its action-log row, and only then publish the events to the presenter.
A refusal raises TableError with a sentence for the player and changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.clock import Clock, SystemClock
from bot.errors import TableError
from bot.models import TableOptions, TableView
from bot.presenter import Presenter

if TYPE_CHECKING:
    from engine import Card, PlayerView, Suit


@dataclass(frozen=True, slots=True)
class ServiceConfig:
    """Knobs of the service (the bot fills them from Settings; tests set delays to 0)."""

    default_turn_timeout: int = 120
    """Seconds per turn when the table does not say; 0 turns timers off."""
    computer_delay: float = 1.0
    """Pause before a run of computer moves, so people can follow; 0 in tests."""
    timeout_level: str = "medium"
    """The computer level that moves for a person whose time ran out (and on autopilot)."""
    autopilot_after: int = 2
    """Timeouts in a row after which a computer keeps playing the seat."""
    replacement_level: str = "medium"
    """The level of the computer that takes a kicked or departed person's seat."""


@dataclass(slots=True)
class ResumeReport:
    """What resume_all did: the tables brought back and the broken ones skipped (with why)."""

    resumed: list[int] = field(default_factory=list)
    broken: list[tuple[int, str]] = field(default_factory=list)


class TableService:
    """Hosts tables; see the module docstring for the action discipline."""

    def __init__(
        self,
        store: Any,
        presenter: Presenter,
        *,
        config: ServiceConfig | None = None,
        executor: Executor | None = None,
        clock: Clock | None = None,
    ) -> None:
        """`store`: an open data.Store. `executor`: where computer players think (default: a
        small thread pool owned by the service). `clock`: time source (tests pass ManualClock).
        """
        self.store = store
        self.presenter = presenter
        self.config = config or ServiceConfig()
        self.clock: Clock = clock or SystemClock()
        self._executor = executor

    # ---- reads (synchronous, lock-free: safe inside publish) ----------------------------------

    def table(self, table_id: int) -> TableView:
        """The table's current view; TableError if there is no such active table."""
        raise NotImplementedError

    def table_for_channel(self, channel_id: int) -> TableView:
        """The active table in this channel or thread; TableError "There is no table in this
        channel." otherwise."""
        raise NotImplementedError

    def find_table(self, channel_id: int) -> TableView | None:
        """The active table in this channel, or None (no error)."""
        raise NotImplementedError

    def tables(self) -> list[TableView]:
        """Every active table (lobby or playing)."""
        raise NotImplementedError

    def hand_view(self, table_id: int, user_id: int) -> PlayerView:
        """What this person may see of the game: their own hand, legal bids and cards.
        TableError if they are not seated or the game has not been dealt."""
        raise NotImplementedError

    def seat_view(self, table_id: int, seat: int) -> PlayerView:
        """The same by seat number (for the presenter that DMs each seat)."""
        raise NotImplementedError

    # ---- lobby ---------------------------------------------------------------------------------

    async def open_table(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: TableOptions | None = None,
    ) -> TableView:
        """Open a table in this channel with the host in seat 0 (plus `options.bots` computer
        seats). TableError if the channel already has one, or the options are not valid
        (unknown preset or level)."""
        raise NotImplementedError

    async def join(self, table_id: int, user_id: int, name: str) -> TableView:
        """Take a seat in the lobby. TableError: already seated, table full, game started."""
        raise NotImplementedError

    async def leave(self, table_id: int, user_id: int) -> TableView:
        """Leave: in the lobby the seat goes (if the host leaves, the next person becomes host;
        with no person left the table is cancelled); mid-game a computer takes the seat."""
        raise NotImplementedError

    async def add_computer(
        self, table_id: int, user_id: int, level: str | None = None
    ) -> TableView:
        """Host only, lobby only: add a computer seat (`level`: random/easy/medium/hard,
        default the table's bot level)."""
        raise NotImplementedError

    async def deal(self, table_id: int, user_id: int) -> TableView:
        """Host only: start the game with the seats as they are (min..max players of the
        preset), dealing the first hand."""
        raise NotImplementedError

    # ---- play (button-reachable: pass the hand number the button was made for) ------------------

    async def bid(
        self, table_id: int, user_id: int, tricks: int, hand_number: int | None = None
    ) -> TableView:
        """Bid `tricks`. TableError: stale hand, not your turn, out of range, the hooked bid."""
        raise NotImplementedError

    async def play(
        self, table_id: int, user_id: int, card: Card | str, hand_number: int | None = None
    ) -> TableView:
        """Play a card (a Card, or text like "10h", "TH", "10♥"). TableError: stale hand,
        not your turn, not a card, not in your hand, must follow suit (the engine's reason)."""
        raise NotImplementedError

    async def choose_trump(
        self, table_id: int, user_id: int, suit: Suit | str, hand_number: int | None = None
    ) -> TableView:
        """The dealer names trump (variant phase); `suit` a Suit or a letter/name/symbol."""
        raise NotImplementedError

    async def discard(
        self,
        table_id: int,
        user_id: int,
        cards: Sequence[Card | str],
        hand_number: int | None = None,
    ) -> TableView:
        """Discard face down (variant phase)."""
        raise NotImplementedError

    async def take_back(self, table_id: int, user_id: int) -> TableView:
        """A person on autopilot takes their seat back (bidding or playing does it too)."""
        raise NotImplementedError

    # ---- control -------------------------------------------------------------------------------

    async def kick(self, table_id: int, user_id: int, target_id: int) -> TableView:
        """Host only: in the lobby the target's seat goes; mid-game a computer takes it."""
        raise NotImplementedError

    async def end(self, table_id: int, user_id: int, is_manager: bool = False) -> TableView:
        """Cancel the table (host, or a member with Manage Server: the cog passes
        `is_manager`). No result is recorded."""
        raise NotImplementedError

    # ---- presenter bookkeeping (synchronous; persisted soon after, safe inside publish) ---------

    def set_table_message(self, table_id: int, message_id: int | None) -> None:
        """Remember the channel message that shows this table (edited in place)."""
        raise NotImplementedError

    def set_dm_message(
        self, table_id: int, user_id: int, hand_number: int, message_id: int | None
    ) -> None:
        """Remember this person's DM hand message for `hand_number`."""
        raise NotImplementedError

    def set_dm_failed(self, table_id: int, user_id: int) -> None:
        """This person's DMs are closed: presenters stop trying for this game."""
        raise NotImplementedError

    # ---- life cycle ----------------------------------------------------------------------------

    async def resume_all(self) -> ResumeReport:
        """Load every table in progress from the store, rebuild it, reschedule its timer and
        any pending computer move, and publish nothing. Broken tables are reported, marked in
        the store and skipped."""
        raise NotImplementedError

    async def close(self) -> None:
        """Stop timers and computer tasks, wait for pending bookkeeping saves, shut down an
        executor the service created (not one passed in). The store is the caller's."""
        raise NotImplementedError


__all__ = ["ResumeReport", "ServiceConfig", "TableError", "TableService"]
