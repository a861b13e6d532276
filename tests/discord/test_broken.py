"""At start-up every table's action log is replayed against its snapshot; a table that does not
match is set aside (broken), said so in its channel, and not resumed (issue 11)."""

from __future__ import annotations

from pathlib import Path

from bot.client import BROKEN_NOTICE
from data import Action, Store
from tests.discord.conftest import Boot
from tests.discord.driver import Driver
from tests.discord.harness import CHANNEL_MESSAGES


async def test_a_table_whose_log_does_not_replay_is_set_aside_and_said_so(
        boot: Boot, db_path: Path) -> None:
    h = await boot()
    people = [h.member("alice"), h.member("bob"), h.member("carol")]
    d = Driver(h, people, seed=2)
    await d.lobby(max_cards=3)
    seat, m = d.awaited()[0]
    await d.act_controls(seat, m)
    table = d.view()
    assert table is not None
    await h.close()
    store = await Store.open(db_path)  # a log row the snapshot never saw (a damaged log)
    record = await store.get_table(table.table_id)
    assert record is not None
    await store.save_table(record, Action("bid", seat=seat, payload={"hand": 1, "bid": 0}))
    await store.close()

    h2 = await boot(share_with=h)
    report = h2.bot.resume_report
    assert [tid for tid, _ in report.broken] == [table.table_id]
    assert "does not replay" in report.broken[0][1]
    assert h2.bot.tables.directory.find_table(h.channel) is None  # not resumed
    told = [c for c in h2.fake.log if c.path == CHANNEL_MESSAGES and c.method == "POST"
            and str(h.channel) in c.url]
    assert [c.json["content"] for c in told] == [BROKEN_NOTICE]
    record = await h2.bot.store.get_table(table.table_id)
    assert record.status.value == "broken"
    await Driver(h2, people).slash("ohhell start", people[0])  # the channel is free again
