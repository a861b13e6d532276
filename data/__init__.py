"""The store: games that survive crashes, scoresheets, server leaderboards and stats in SQLite.

Knows rows and engine types, never Discord. The bot uses only what is exported here::

    store = await Store.open(path)                 # folder, WAL, FKs, migrations; SchemaTooNew
    table = await store.create_table(guild_id=..., channel_id=..., host_id=...,
                                     rules_json=rules.model_dump_json(), seats=[Seat(...)],
                                     meta={...})  # meta: the bot's own JSON object, kept whole
    table = replace(table, status=TableStatus.PLAYING, snapshot_json=game.to_json(), ...)
    await store.save_table(table, Action("bid", seat=2, user_id=..., payload={"bid": 3}))
    loaded = await store.load_active_tables()      # .ok to resume, .broken (marked, with reason)
    recorded = await store.finish_game(table, FinishedGame.from_engine(game, rules, table.seats))
    recorded.rating_changes                        # list[RatingChange] to show
    await store.leaderboard(guild_id, sort="wins") # list[PlayerStats]; ValueError on a bad key
    await store.player_stats(guild_id, user_id)    # PlayerStats | None
    await store.get_settings(guild_id) / save_settings(GuildSettings(...))
    await store.get_notify(user_id) / set_notify(user_id, "mention")   # NOTIFY_WAYS
    await store.get_locale(user_id) / set_locale(user_id, "no")        # last-seen Discord locale
    await store.keep_nudge(PostedNudge(...)) / forget_nudge(...) / posted_nudges(table_id)
    await store.keep_messages([KeptMessage(...)]) / kept_messages_of(table_ids)  # message ids
    page = await store.history(guild_id, user_id=..., preset=..., before=page.next_before)
    await store.forget_player(user_id, guild_id=None)   # Forgotten; PlayerSeated while seated
    await store.close()

Modules: connection (opening, pragmas, migrations), tables (tables in progress, action log),
results (finished games, ratings), history (finished games looked back at; forgetting a
person), stats (leaderboards), settings (server settings), nudges (turn nudges on Discord),
messages (the messages a table keeps on Discord), store (the facade with the single write
path), errors.
"""

from data.connection import DatabaseAddress, parse_address
from data.errors import (
    ChannelBusy,
    DatabaseUnavailable,
    SchemaTooNew,
    StaleTable,
    StoreError,
    TableNotFound,
    TableTakenOver,
)
from data.history import FORMER_PLAYER, Forgotten, GameSummary, HistoryPage, PlayerSeated
from data.messages import TABLE_MESSAGE, KeptMessage
from data.nudges import PostedNudge
from data.results import FinishedGame, HandResultRow, RatingChange, SeatResult
from data.settings import LANGUAGES, NOTIFY_WAYS, GuildSettings
from data.stats import SORT_KEYS, PlayerStats
from data.store import RecordedGame, Store
from data.tables import (
    Action,
    BrokenTable,
    LoadedTables,
    LoggedAction,
    Seat,
    TableRecord,
    TableStatus,
)

__all__ = [
    "FORMER_PLAYER",
    "LANGUAGES",
    "NOTIFY_WAYS",
    "SORT_KEYS",
    "TABLE_MESSAGE",
    "Action",
    "BrokenTable",
    "ChannelBusy",
    "DatabaseAddress",
    "DatabaseUnavailable",
    "FinishedGame",
    "Forgotten",
    "GameSummary",
    "GuildSettings",
    "HandResultRow",
    "HistoryPage",
    "KeptMessage",
    "LoadedTables",
    "LoggedAction",
    "PlayerSeated",
    "PlayerStats",
    "PostedNudge",
    "RatingChange",
    "RecordedGame",
    "SchemaTooNew",
    "Seat",
    "SeatResult",
    "StaleTable",
    "Store",
    "StoreError",
    "TableNotFound",
    "TableRecord",
    "TableStatus",
    "TableTakenOver",
    "parse_address",
]
