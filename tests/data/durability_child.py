"""A child process for the durability test: it plays many tables at once through the Store and
prints one line per acknowledged write (flushed), until it is killed.

    python tests/data/durability_child.py DB_PATH CHANNELS

Lines: "open TABLE", "save TABLE ACTION_ID N", "finish TABLE GAME_ID". A line is printed only
after the call that stored it has returned. On start it resumes the open tables it finds.
"""

from __future__ import annotations

import asyncio
import json
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from data import (
    Action,
    FinishedGame,
    HandResultRow,
    Seat,
    SeatResult,
    Store,
    TableRecord,
    TableStatus,
)

HANDS_PER_GAME = 12
PAD = "x" * 2500  # a real engine snapshot is a few KB of JSON


def check(table: TableRecord) -> None:
    if table.snapshot_json is not None:
        json.loads(table.snapshot_json)


def ack(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def finished(table: TableRecord) -> FinishedGame:
    seats = tuple(
        SeatResult(
            seat=i, name=s.name, user_id=s.user_id, total=10 * (3 - i), placing=i + 1,
            winner=i == 0, computer_level=s.computer_level,
        )
        for i, s in enumerate(table.seats)
    )
    hands = tuple(
        HandResultRow(
            hand_number=h, hand_size=1, dealer=h % 3, trump_card="AS", trump_suit="S",
            bids=(1, 0, 0), tricks=(1, 0, 0), made=(True, True, True),
            points=(11, 10, 10), totals=(11 * h, 10 * h, 10 * h),
        )
        for h in range(1, 3)
    )
    return FinishedGame("classic", '{"name": "classic"}', seats, hands)


async def open_table(store: Store, channel: int) -> TableRecord:
    table = await store.create_table(
        guild_id=1,
        channel_id=channel,
        host_id=channel,
        rules_json='{"name": "classic"}',
        seats=[
            Seat("Ann", user_id=1000 + channel % 7),
            Seat("Bob", user_id=2000 + channel % 5),
            Seat("Computer", computer_level="easy"),
        ],
        action=Action("open", user_id=channel),
    )
    ack(f"open {table.id}")
    return table


async def play(store: Store, channel: int, table: TableRecord | None) -> None:
    if table is None:
        table = await open_table(store, channel)
    while True:
        n = json.loads(table.snapshot_json)["n"] + 1 if table.snapshot_json else 1
        if n > HANDS_PER_GAME:
            recorded = await store.finish_game(table, finished(table), Action("finish"))
            ack(f"finish {table.id} {recorded.game_id}")
            table = await open_table(store, channel)
            continue
        snapshot = json.dumps({"table": table.id, "n": n, "pad": PAD})
        table = replace(table, status=TableStatus.PLAYING, snapshot_json=snapshot)
        action_id = await store.save_table(table, Action("play", seat=n % 3, payload={"n": n}))
        table = replace(table, saves=table.saves + 1)  # the copy the store now holds
        ack(f"save {table.id} {action_id} {n}")


async def main(path: str, channels: int) -> None:
    store = await Store.open(path)
    loaded = await store.load_active_tables(validate=check)
    by_channel = {table.channel_id: table for table in loaded.ok}
    ack("ready")
    await asyncio.gather(*(play(store, c, by_channel.get(c)) for c in range(channels)))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
