"""How the table service tells the world what happened (Discord and the terminal implement it)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from bot.events import Event
from bot.models import TableView
from engine import PlayerView


class TableReads(Protocol):
    """What a presenter may ask of the tables while it renders (bot.directory.TableDirectory):
    private hands for the DMs it sends, and the messages it keeps, saved soon after."""

    def seat_view(self, table_id: int, seat: int) -> PlayerView:
        """What `seat` may see (TableError when the table or the deal is gone)."""
        ...

    def set_table_message(self, table_id: int, message_id: int | None) -> None:
        """The channel message that shows this table."""
        ...

    def set_dm_message(self, table_id: int, user_id: int, hand_number: int,
                       message_id: int | None, channel_id: int | None = None) -> None:
        """This person's DM hand message for `hand_number`."""
        ...

    def set_dm_failed(self, table_id: int, user_id: int) -> None:
        """This person's DMs are closed."""
        ...


@runtime_checkable
class Presenter(Protocol):
    """Renders committed table events.

    `publish` is awaited once per accepted action (or once per batch of computer moves, or per
    timer event), after the store commit, inside that table's job in its inbox (bot/runner.py):
    so a table's publishes arrive one at a time and in order, and `view` matches the events.
    Keep it short (hand slow I/O to a task), never await a TableService *action* method from
    inside it (that job would wait for the inbox it runs in); the directory's reads (`table`,
    `hand_view`, `seat_view`) and its `set_*` bookkeeping methods (TableReads) are safe to call.
    An exception raised here is logged by the service and does not undo the action.
    """

    async def publish(self, table: TableView, events: list[Event]) -> None:
        """Render `events` that happened at `table` (the view is as of after them)."""
        ...

    async def close(self) -> None:
        """The service is closing and has published everything committed: deliver whatever is
        still held or on its way now (a restart shows only what was delivered)."""
        ...


class NullPresenter:
    """Ignores everything (a service with no audience, e.g. a benchmark)."""

    async def publish(self, table: TableView, events: list[Event]) -> None:
        """Do nothing."""

    async def close(self) -> None:
        """Nothing is held."""


class PresenterSlot:
    """The presenter the service publishes to: whichever the loaded extension attached (none:
    nothing is shown). The service is built once, in setup_hook; the extension that renders
    attaches its presenter when it loads and detaches it when it unloads, so it can be
    reloaded while the tables play on."""

    def __init__(self) -> None:
        self.current: Presenter = NullPresenter()

    def attach(self, presenter: Presenter) -> None:
        """Publish to `presenter` from now on."""
        self.current = presenter

    def detach(self, presenter: Presenter) -> None:
        """Stop publishing to `presenter` (if it is the one attached)."""
        if self.current is presenter:
            self.current = NullPresenter()

    async def publish(self, table: TableView, events: list[Event]) -> None:
        """Hand on to the attached presenter."""
        await self.current.publish(table, events)

    async def close(self) -> None:
        """Let the attached presenter deliver what it holds."""
        await self.current.close()


class RecordingPresenter:
    """Keeps every publish as (view, events): for tests and tools."""

    def __init__(self) -> None:
        self.published: list[tuple[TableView, list[Event]]] = []
        self.closed_after: int | None = None  # publishes seen when close() came

    async def publish(self, table: TableView, events: list[Event]) -> None:
        """Remember the call."""
        self.published.append((table, list(events)))

    async def close(self) -> None:
        """Nothing is held; remember how many publishes came before."""
        self.closed_after = len(self.published)

    def events(self, table_id: int | None = None) -> list[Event]:
        """All events so far, in order (of one table when `table_id` is given)."""
        return [
            e
            for view, evs in self.published
            if table_id is None or view.table_id == table_id
            for e in evs
        ]

    def clear(self) -> None:
        """Forget what was recorded."""
        self.published.clear()


__all__ = ["NullPresenter", "Presenter", "PresenterSlot", "RecordingPresenter", "TableReads"]
