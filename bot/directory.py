"""The tables the service hosts, what may be read of them, and the presenter's bookkeeping.

A TableDirectory exists before the table service and its presenter: the presenter reads private
hands through it and reports the messages it keeps (table message, DM hands, closed DMs), and
the service is then built with both. Reads of live tables are synchronous (safe inside a
publish; only `last_game` may read a finished game back from the store). Bookkeeping is kept
in memory at once (the views show it) and written soon after in rows of its own by one writer
(bot/messages.py), never by a save of the table row.
"""

from __future__ import annotations

import logging
from collections import OrderedDict

from bot.errors import TableError
from bot.ledger import Ledger
from bot.messages import MessageRows
from bot.models import TableOptions, TableView
from bot.table import LiveTable
from data import TABLE_MESSAGE, KeptMessage
from engine import Phrase, PlayerView

log = logging.getLogger(__name__)

CLOSED = Phrase("This table is closed: the game is over or was ended.")
LAST_GAMES_KEPT = 1000
"""Channels whose last closed game `last_game` remembers (the most recent ones, in memory; older
finished ones are read back from the store)."""


class TableDirectory:
    """Every active table by id and by channel (see the module docstring)."""

    def __init__(self, ledger: Ledger) -> None:
        """`ledger`: the service's (its store keeps the message rows)."""
        self._ledger = ledger
        self._tables: dict[int, LiveTable] = {}
        self._by_channel: dict[int, int] = {}
        self._last_games: OrderedDict[int, TableView] = OrderedDict()  # channel -> closed game
        self._gone: OrderedDict[int, Phrase] = OrderedDict()  # table -> why it closed (refusals)
        self._let_go: set[int] = set()  # open tables this process stopped driving
        self.messages = MessageRows(ledger.store)
        """The rows of the messages the tables keep, written by one writer."""

    # ---- the registry (the service's) ----------------------------------------------------------

    def add(self, t: LiveTable) -> None:
        self._tables[t.id] = t
        self._by_channel[t.channel_id] = t.id

    def remove(self, t: LiveTable, *, let_go: bool = False) -> None:
        """`let_go`: the table stays open, driven by another process now."""
        if let_go:
            self._let_go.add(t.id)
            self.messages.let_go(t.id)
        elif not t.status.active:
            self.messages.table_closed(t.id)
        self._tables.pop(t.id, None)
        if self._by_channel.get(t.channel_id) == t.id:
            del self._by_channel[t.channel_id]
        if t.game is not None:  # its final sheet stays readable (`last_game`)
            self._last_games[t.channel_id] = t.view()
            self._last_games.move_to_end(t.channel_id)
            while len(self._last_games) > LAST_GAMES_KEPT:
                self._last_games.popitem(last=False)

    def drop(self, t: LiveTable) -> None:
        """Forget a table this process no longer drives (another took it over): nothing of
        it is kept, so the store's copy is the one read if it comes back."""
        self._let_go.add(t.id)
        self.messages.let_go(t.id)
        if self._tables.get(t.id) is t:
            del self._tables[t.id]
        if self._by_channel.get(t.channel_id) == t.id:
            del self._by_channel[t.channel_id]

    def get(self, table_id: int) -> LiveTable:
        """The live table; TableError when it is closed or unknown."""
        t = self._tables.get(table_id)
        if t is None:
            raise TableError.of(self._gone.get(table_id, CLOSED))
        return t

    def closed_because(self, table_id: int, why: Phrase) -> None:
        """Remember why a table closed, so a control used later says so (bounded)."""
        self._gone[table_id] = why
        while len(self._gone) > LAST_GAMES_KEPT:
            self._gone.popitem(last=False)

    def why_closed(self, table_id: int) -> Phrase | None:
        """Why a table closed, while remembered."""
        return self._gone.get(table_id)

    def let_go(self, table_id: int) -> bool:
        """This process drove the table once and let it go (dropped or handed over): a copy
        of it may have been saved after its row was read elsewhere."""
        return table_id in self._let_go

    def holds(self, table_id: int) -> bool:
        return table_id in self._tables

    def holds_table(self, t: LiveTable) -> bool:
        """This very table is live here (not closed, handed over or rebuilt since)."""
        return self._tables.get(t.id) is t

    def channel_taken(self, channel_id: int) -> bool:
        return channel_id in self._by_channel

    def live(self) -> list[LiveTable]:
        """Every active table's live state."""
        return list(self._tables.values())

    # ---- reads ---------------------------------------------------------------------------------

    def table(self, table_id: int) -> TableView:
        """The table's current view; TableError if there is no such active table."""
        return self.get(table_id).view()

    def find_table(self, channel_id: int) -> TableView | None:
        """The active table in this channel, or None (no error)."""
        table_id = self._by_channel.get(channel_id)
        return None if table_id is None else self._tables[table_id].view()

    def table_id_in(self, channel_id: int) -> int | None:
        """The id of the active table in this channel, or None: no view built (every click
        asks)."""
        return self._by_channel.get(channel_id)

    def seat_at(self, table_id: int, user_id: int) -> int | None:
        """The seat this person has at the active table, or None (not seated, or no such
        table): no view built (every click from a DM asks)."""
        t = self._tables.get(table_id)
        return None if t is None else t.seat_of(user_id)

    def table_for_channel(self, channel_id: int) -> TableView:
        """The active table in this channel or thread; TableError otherwise."""
        found = self.find_table(channel_id)
        if found is None:
            raise TableError("There is no table in this channel.")
        return found

    async def last_game(self, channel_id: int) -> TableView | None:
        """The last game of this channel once it closed, with its final sheet, or None: one
        closed since the bot started (finished or ended) is remembered; otherwise the latest
        game finished there is read back from the store, so a restart forgets nothing."""
        remembered = self._last_games.get(channel_id)
        if remembered is not None:
            return remembered
        store = self._ledger.store
        table_id = await store.last_finished_table(channel_id)
        record = None if table_id is None else await store.get_table(table_id)
        if record is None or record.snapshot_json is None:
            return None
        try:
            options = TableOptions.model_validate(record.meta.get("options", {}))
            timeout = self._ledger.config.turn_timeout_of(options)
            return LiveTable.from_record(record, options, timeout).view()
        except ValueError:
            log.warning("the finished table %s could not be read back", table_id, exc_info=True)
            return None

    def tables(self) -> list[TableView]:
        """Every active table (lobby or playing)."""
        return [t.view() for t in self._tables.values()]

    def hand_view(self, table_id: int, user_id: int) -> PlayerView:
        """What this person may see of the game: their own hand, legal bids and cards.
        TableError if they are not seated or the game has not been dealt."""
        t = self.get(table_id)
        seat = t.seat_of(user_id)
        if seat is None:
            raise TableError("You are not in this game.")
        return _seat_view(t, seat)

    def seat_view(self, table_id: int, seat: int) -> PlayerView:
        """The same by seat number (for the presenter that DMs each seat)."""
        t = self.get(table_id)
        if not 0 <= seat < len(t.seats):
            raise TableError("There is no seat {seat} at this table.", seat=seat)
        return _seat_view(t, seat)

    # ---- presenter bookkeeping (synchronous and cheap: called inside publish) ------------------

    def set_table_message(self, table_id: int, message_id: int | None) -> None:
        """Remember the channel message that shows this table (edited in place)."""
        t = self._tables.get(table_id)
        if t is None or t.message_id == message_id:
            return
        t.message_id = message_id
        self.messages.keep(KeptMessage(t.id, TABLE_MESSAGE, message_id, channel_id=t.channel_id))

    def set_dm_message(
        self,
        table_id: int,
        user_id: int,
        hand_number: int,
        message_id: int | None,
        channel_id: int | None = None,
    ) -> None:
        """Remember this person's DM hand message for `hand_number` (ignored when that hand is
        no longer the one in play)."""
        t = self._tables.get(table_id)
        if t is None or t.game is None or t.game.hand_number != hand_number:
            return
        seat = t.seat_of(user_id)
        if seat is None:
            return
        s = t.seats[seat]
        if s.dm_message_id == message_id and channel_id in (None, s.dm_channel_id):
            return
        s.dm_message_id = message_id
        if channel_id is not None:
            s.dm_channel_id = channel_id
        self._keep_seat(t, seat, hand_number)

    def set_dm_failed(self, table_id: int, user_id: int) -> None:
        """This person's DMs are closed: presenters stop trying for this game. The row says
        so (the table row's meta too, from its next save)."""
        t = self._tables.get(table_id)
        seat = None if t is None else t.seat_of(user_id)
        if t is None or seat is None or t.seats[seat].dm_failed:
            return
        t.seats[seat].dm_failed = True
        t.seats[seat].dm_message_id = None
        self._keep_seat(t, seat, None)

    def _keep_seat(self, t: LiveTable, index: int, hand_number: int | None) -> None:
        seat = t.seats[index]
        assert seat.user_id is not None
        self.messages.keep(KeptMessage(
            t.id, seat.user_id, seat.dm_message_id, channel_id=seat.dm_channel_id,
            hand_number=hand_number if seat.dm_message_id is not None else None,
            dm_failed=seat.dm_failed))


def _seat_view(t: LiveTable, seat: int) -> PlayerView:
    if t.game is None:
        raise TableError("The cards have not been dealt yet.")
    return t.seat_view(seat)


__all__ = ["CLOSED", "TableDirectory"]
