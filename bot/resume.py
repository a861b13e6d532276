"""Tables brought back from the store (after a restart, or claimed from another process): each
row is rebuilt into a LiveTable and must agree with its action log, or it is set aside as
broken, never resumed (docs/architecture.md section 4). The service resumes what this returns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from bot.config import ServiceConfig
from bot.models import TableStatus
from bot.moves import replay
from bot.table import LiveTable, options_of, rules_of
from data import TABLE_MESSAGE, KeptMessage, LoggedAction, Store, TableRecord
from engine import Game
from engine.snapshot import snapshots_match


@dataclass(slots=True)
class ResumeReport:
    """What resume_all did: the tables brought back and the broken ones skipped (with why)."""

    resumed: list[int] = field(default_factory=list)
    broken: list[tuple[int, str]] = field(default_factory=list)
    channels: dict[int, int] = field(default_factory=dict)
    """The channel of each broken table (to say there that it was set aside)."""


async def rebuild(
    record: TableRecord, store: Store, config: ServiceConfig, now: datetime,
    log_of: list[LoggedAction] | None = None, kept: Sequence[KeptMessage] = (),
) -> LiveTable:
    """A LiveTable from its row, checked against its action log; ValueError when the row
    cannot be a table in play. Options and DM failures come from the row's meta (every open
    table has them: migration 0013 read them from the log of those stored before). `now`: the
    clock's time, to tell whether the turn's warning moment passed while the bot was down.
    `log_of`: the game's action log, read after the row (None: read it here). `kept`: the
    table's message rows (see `keep_messages`)."""
    if "options" not in record.meta:
        raise ValueError("the row's meta holds no options")
    options = options_of(record.meta["options"])
    # The action log must tell the very game the snapshot holds (docs/architecture.md
    # section 4): one that does not was damaged, and is set aside, not resumed. Replayed
    # first: a replay equal to the snapshot is the game, so the snapshot is not read.
    told: Game | None = None
    replay_error: ValueError | None = None
    replayed: str | None = None
    if record.snapshot_json is not None:
        if log_of is None:
            log_of = await store.actions_of(record)
        try:
            told = replay(rules_of(record.rules_json), log_of)
        except ValueError as err:
            replay_error = err
        replayed = None if told is None else told.to_json()
    same = replayed is not None and replayed == record.snapshot_json
    t = LiveTable.from_record(record, options, config.turn_timeout_of(options),
                              game=told if same else None)
    if t.status is TableStatus.PLAYING and t.game is None:
        raise ValueError("a game in play has no snapshot")
    if t.game is not None and t.game.players != len(t.seats):
        raise ValueError(f"the snapshot has {t.game.players} seats, the table {len(t.seats)}")
    if t.game is not None and record.snapshot_json is not None and not same:
        if replay_error is not None:
            raise ValueError(f"the action log does not replay to the saved game: "
                             f"{replay_error}") from None
        if replayed is None or not snapshots_match(replayed, record.snapshot_json):
            raise ValueError("the action log does not replay to the saved game")
        t.game = told  # a snapshot from before hands kept their play: the log has it
    keep_messages(t, kept)
    if t.deadline is not None and t.game is not None:
        # The warning moment may have passed while the bot was down: warn no more.
        t.warned = now >= t.deadline - timedelta(seconds=t.turn_timeout / 2)
    return t


def keep_messages(t: LiveTable, kept: Sequence[KeptMessage]) -> None:
    """Give a rebuilt table the messages its rows keep (data/messages.py), so the bot edits
    the same table message and DM hands after a restart. The rows are written when the ids
    change, the table row only with the table's next change, so a row wins; a DM hand message
    is kept only for the hand in play, and closed DMs stay closed."""
    hand = None if t.game is None else t.game.hand_number
    for row in kept:
        if row.user_id == TABLE_MESSAGE:
            t.message_id = row.message_id
            continue
        index = t.seat_of(row.user_id)
        if index is None:
            continue  # no longer seated here
        seat = t.seats[index]
        if row.channel_id is not None:
            seat.dm_channel_id = row.channel_id
        if row.dm_failed:
            seat.dm_failed, seat.dm_message_id = True, None
        elif row.hand_number == hand and hand is not None:
            seat.dm_message_id = row.message_id


def rules_readable(table: TableRecord) -> None:
    """Start-up's check of a stored table before it is rebuilt (which reads its snapshot)."""
    rules_of(table.rules_json)


__all__ = ["ResumeReport", "keep_messages", "rebuild", "rules_readable"]
