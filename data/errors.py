"""The store's exceptions: one base class so the bot can catch every store refusal at once."""

from __future__ import annotations


class StoreError(Exception):
    """The store refused or could not do what was asked; the message says why."""


class SchemaTooNew(StoreError):
    """The database was written by a newer version of the code; it is left untouched."""

    def __init__(self, path: str, found: int, known: int) -> None:
        super().__init__(
            f"database {path} has schema version {found}, but this code only knows up to "
            f"version {known}; upgrade the bot (the database was not changed)"
        )
        self.path = path
        self.found = found
        self.known = known


class TableNotFound(StoreError):
    """No table with that id exists."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"no table with id {table_id}")
        self.table_id = table_id


class ChannelBusy(StoreError):
    """The channel already has an open (lobby or playing) table."""

    def __init__(self, channel_id: int) -> None:
        super().__init__(f"channel {channel_id} already has an open table")
        self.channel_id = channel_id


class TableTakenOver(StoreError):
    """Another process drives this table now (its lease on it expired and it was taken over);
    this process must stop driving it. Nothing was written."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"table {table_id} is driven by another process now")
        self.table_id = table_id


class StaleTable(TableTakenOver):
    """The save came from a copy of the table that is behind the stored one: the table was
    saved since (by another process that drove it meanwhile). Nothing was written; drop the
    copy and read the table again from the store."""

    def __init__(self, table_id: int) -> None:
        StoreError.__init__(self, f"table {table_id} was saved since this copy was read")
        self.table_id = table_id


class DatabaseUnavailable(ConnectionError):
    """The store cannot reach its database now (the server restarted, the connection dropped):
    the store connects again by itself, with a backoff. Not a StoreError, not a refusal: a write
    that raises it may or may not have landed, so its caller reads the table back (as after a
    cancellation) rather than taking it as refused."""
