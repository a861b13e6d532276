"""Two bot processes on one PostgreSQL through discord.py's real pipeline (only HTTP faked):
each connected to its own shard, each playing its own server's table; one dies mid-game, the
other (set to take its shard over) drives its table on (the turn timer moves for the player who
was to act), and when the dead process restarts the table goes back to it and is played to the
end there through the same buttons. No move lost, none doubled.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

import bot.client
from bot import Settings, create_bot
from bot.clock import ManualClock
from bot.shards import LEASE_KEY
from engine import Game, Phase
from tests.discord.driver import Driver
from tests.discord.harness import Harness, drain
from tests.pg_server import PostgresServer

GUILD_0 = 2 << 22  # Discord routes this server to shard 0 of 2
GUILD_1 = 3 << 22  # and this one to shard 1
LEASE = 3600.0  # the lease loops never tick by themselves during a test: it ticks them by hand

Boot = Callable[..., Awaitable[Harness]]


@pytest.fixture
async def boot(
    postgres_server: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Boot]:
    """Start a bot process on one database (the same for every process of the test)."""
    clock = ManualClock()
    monkeypatch.setattr(bot.client, "SystemClock", lambda: clock)
    dsn = postgres_server.new_database()
    started: list[Harness] = []

    async def start(shard: int, guild: int, share_with: Harness | None = None,
                    channel_ids: list[int] | None = None) -> Harness:
        settings = Settings(
            discord_token=None, database_url=dsn, shard_count=2, shard_ids=[shard],
            takeover_shard_ids=[1 - shard], lease_seconds=LEASE, sync_commands=False,
            computer_delay=0, computer_workers=0, default_turn_timeout=60,
            table_edit_interval=0, dev_guild_id=None, log_level="INFO",
        )
        h = Harness(create_bot(settings), guild_id=guild,
                    fake=share_with.fake if share_with else None)
        started.append(h)
        await h.start(channel_ids=channel_ids)
        return h

    start.clock = clock  # type: ignore[attr-defined]
    yield start
    for h in reversed(started):
        if not h.bot.is_closed():
            await h.close()


def moves_in(game: Game) -> int:
    return sum(len(hand.bids) * (1 + hand.hand_size) for hand in game.scoresheet)


async def test_two_processes_a_death_a_takeover_and_a_hand_back(boot: Boot) -> None:
    clock: ManualClock = boot.clock  # type: ignore[attr-defined]
    ha = await boot(0, GUILD_0)
    hb = await boot(1, GUILD_1, share_with=ha)
    alice, bob, carol = ha.member("alice"), ha.member("bob"), ha.member("carol")
    dave, erin = hb.member("dave"), hb.member("erin")
    da = Driver(ha, [alice, bob, carol], seed=3)
    db = Driver(hb, [dave, erin], seed=4)
    table_a = (await da.lobby(max_cards=3)).table_id
    table_b = (await db.lobby(bots=1, max_cards=2)).table_id
    assert await ha.bot.store.table_owner(table_a) == ha.bot.store.owner
    assert await hb.bot.store.table_owner(table_b) == hb.bot.store.owner
    await hb.bot.leases.tick()  # b renews and claims: a is alive, nothing of a's moves to b
    assert hb.bot.tables.directory.find_table(da.channel) is None

    # Each plays its own server's table; b's to the end.
    for _ in range(4):
        seat, member = da.awaited()[0]
        await da.act_controls(seat, member)
    await db.play_out("controls")
    assert await hb.bot.store.game_for_table(table_b) is not None

    # a dies mid-hand: its lease is neither renewed nor given up; its gateway is gone.
    before = da.view()
    assert before is not None
    owner_a = ha.bot.store.owner
    ha.bot.scheduler.cancel(LEASE_KEY)  # no more renewals
    ha.bot.leases = None  # a crash gives nothing up
    await ha.close()
    logged_by_a = [(x.action, x.seat) for x in await hb.bot.store.actions(table_a)]

    # Its lease runs out; b takes the table over where a committed it.
    await hb.bot.store._statement(
        "UPDATE processes SET renewed_at = 0 WHERE owner = ?", (owner_a,)
    )
    await hb.bot.leases.tick()
    resumed = hb.bot.tables.directory.table(table_a)
    assert resumed.saves == before.saves and resumed.message_id == before.message_id
    # Nobody can click in a's server while shard 0 is down: the turn timer moves at b.
    await clock.advance(61)
    await drain()
    assert hb.bot.tables.directory.table(table_a).saves > before.saves
    note = hb.fake.messages[before.message_id]["embeds"][0].get("footer", {}).get("text", "")
    assert "ran out of time" in note

    # a restarts (a new process on shard 0): b hands the table back, a plays it to the end.
    ha2 = await boot(0, GUILD_0, share_with=ha, channel_ids=ha.channels)
    ha2.members = ha.members
    assert ha2.bot.tables.directory.find_table(da.channel) is None  # b still held it at a's start
    await hb.bot.leases.tick()
    assert hb.bot.tables.directory.find_table(da.channel) is None
    await ha2.bot.leases.tick()
    d2 = Driver(ha2, [alice, bob, carol], seed=5)
    assert d2.view() is not None
    await d2.play_out("controls")

    record = await ha2.bot.store.get_table(table_a)
    assert record is not None and record.snapshot_json is not None
    game = Game.from_json(record.snapshot_json)
    assert game.phase is Phase.GAME_OVER
    logged = [(x.action, x.seat) for x in await ha2.bot.store.actions(table_a)]
    moves = [entry for entry in logged if entry[0] in ("bid", "play")]
    assert logged[: len(logged_by_a)] == logged_by_a
    assert len(moves) == moves_in(game)
    assert await ha2.bot.store.game_for_table(table_a) is not None
    # Both servers' games count on either process's leaderboards.
    assert {r.name for r in await ha2.bot.store.leaderboard(GUILD_1)} == {"dave", "erin"}
    for h in (ha, hb, ha2):
        assert not [r.getMessage() for r in h.fake.errors]
