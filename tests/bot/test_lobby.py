"""Lobby rules: one table per channel, seats, the host's powers, the deal."""

from __future__ import annotations

import pytest

from bot.errors import TableError
from bot.events import GameStarted, HandDealt, SeatsChanged, TableCancelled, TableOpened
from bot.models import TableOptions, TableStatus
from bot.presenter import RecordingPresenter
from bot.service import TableService
from data import Store
from tests.bot.conftest import ALICE, BOB, CHANNEL, GUILD, HOST


async def test_open_join_deal(service: TableService, presenter: RecordingPresenter) -> None:
    view = await service.open_table(GUILD, CHANNEL, HOST, "Host")
    assert view.status is TableStatus.LOBBY and view.state is None and view.rules is None
    assert service.directory.table_for_channel(CHANNEL).table_id == view.table_id
    await service.join(view.table_id, ALICE, "Alice")
    await service.add_computer(view.table_id, HOST, "easy")
    view = await service.deal(view.table_id, HOST)
    assert view.status is TableStatus.PLAYING and view.state is not None
    assert [s.name for s in view.seats] == ["Host", "Alice", "Bot 1"]
    assert view.seats[2].computer == "easy" and view.seats[2].is_computer
    kinds = [type(e) for e in presenter.events(view.table_id)]
    assert kinds[:4] == [TableOpened, SeatsChanged, SeatsChanged, GameStarted]
    assert HandDealt in kinds


async def test_one_table_per_channel(service: TableService) -> None:
    await service.open_table(GUILD, CHANNEL, HOST, "Host")
    with pytest.raises(TableError, match="already a table"):
        await service.open_table(GUILD, CHANNEL, ALICE, "Alice")
    assert service.directory.find_table(CHANNEL + 1) is None
    with pytest.raises(TableError, match="no table in this channel"):
        service.directory.table_for_channel(CHANNEL + 1)


async def test_lobby_refusals(service: TableService) -> None:
    tid = (await service.open_table(GUILD, CHANNEL, HOST, "Host")).table_id
    with pytest.raises(TableError, match="already at this table"):
        await service.join(tid, HOST, "Host")
    await service.join(tid, ALICE, "Alice")
    with pytest.raises(TableError, match="Only the host can deal"):
        await service.deal(tid, ALICE)
    with pytest.raises(TableError, match="at least 3 players"):
        await service.deal(tid, HOST)
    with pytest.raises(TableError, match="Only the host can add"):
        await service.add_computer(tid, ALICE)
    with pytest.raises(TableError, match="no computer level"):
        await service.add_computer(tid, HOST, "genius")
    with pytest.raises(TableError, match="not in this game"):
        await service.leave(tid, BOB)
    assert len(service.directory.table(tid).seats) == 2


async def test_table_full(service: TableService) -> None:
    options = TableOptions(computers=6)
    tid = (await service.open_table(GUILD, CHANNEL, HOST, "Host", options)).table_id
    with pytest.raises(TableError, match="full"):
        await service.join(tid, ALICE, "Alice")
    with pytest.raises(TableError, match="do not fit"):
        await service.open_table(GUILD, CHANNEL + 1, HOST, "Host", TableOptions(computers=7))


async def test_bad_options(service: TableService) -> None:
    with pytest.raises(TableError, match="no preset"):
        await service.open_table(GUILD, CHANNEL, HOST, "Host", TableOptions(preset="poker"))
    with pytest.raises(TableError, match="do not work together"):
        await service.open_table(GUILD, CHANNEL, HOST, "Host", TableOptions(scoring="golf"))
    assert service.directory.find_table(CHANNEL) is None


async def test_leave_in_lobby_passes_host_and_last_one_out_cancels(
    service: TableService, presenter: RecordingPresenter
) -> None:
    tid = (await service.open_table(GUILD, CHANNEL, HOST, "Host")).table_id
    await service.join(tid, ALICE, "Alice")
    view = await service.leave(tid, HOST)
    assert view.host_id == ALICE and [s.name for s in view.seats] == ["Alice"]
    view = await service.leave(tid, ALICE)
    assert view.status is TableStatus.CANCELLED
    assert service.directory.find_table(CHANNEL) is None
    assert isinstance(presenter.events(tid)[-1], TableCancelled)
    # the channel is free again
    await service.open_table(GUILD, CHANNEL, BOB, "Bob")


async def test_kick_and_end(service: TableService, store: Store) -> None:
    tid = (await service.open_table(GUILD, CHANNEL, HOST, "Host")).table_id
    await service.join(tid, ALICE, "Alice")
    with pytest.raises(TableError, match="Only the host can remove"):
        await service.kick(tid, ALICE, HOST)
    view = await service.kick(tid, HOST, ALICE)
    assert [s.user_id for s in view.seats] == [HOST]
    await service.join(tid, BOB, "Bob")
    with pytest.raises(TableError, match="Only the host or a server manager"):
        await service.end(tid, BOB)
    view = await service.end(tid, BOB, is_manager=True)
    assert view.status is TableStatus.CANCELLED
    record = await store.get_table(tid)
    assert record is not None and record.status.value == "cancelled"
    with pytest.raises(TableError, match="closed"):
        await service.join(tid, ALICE, "Alice")


async def test_deal_respects_max_cards(service: TableService) -> None:
    options = TableOptions(computers=2, max_cards=3, seed=1)
    tid = (await service.open_table(GUILD, CHANNEL, HOST, "Host", options)).table_id
    view = await service.deal(tid, HOST)
    assert view.rules is not None and view.rules.max_hand == 3
    assert view.state is not None and view.state.hand_size == 3 and view.state.hand_count == 5


def test_options_stored_under_their_old_names_still_read() -> None:
    """Rows written when the options said `bots` and `bot_level` resume with the same seats."""
    old = TableOptions.model_validate({"preset": "classic", "bots": 2, "bot_level": "easy"})
    assert (old.computers, old.computer_level) == (2, "easy")
    assert TableOptions.model_validate(old.model_dump(mode="json")) == old
