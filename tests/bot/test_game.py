"""Whole games through the service and a real store; refusals change nothing."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.clock import ManualClock
from bot.errors import TableError
from bot.events import (
    BiddingDone,
    BidMade,
    CardPlayed,
    GameOver,
    HandDealt,
    HandScored,
    TrickWon,
    TurnChanged,
)
from bot.models import TableOptions
from bot.presenter import RecordingPresenter
from bot.service import ServiceConfig, TableService
from data import TABLE_MESSAGE, KeptMessage, Store
from engine import Card, Phase
from tests.bot.conftest import ALICE, BOB, CHANNEL, GUILD, HOST
from tests.bot.helpers import is_open, move, start_game


async def test_full_game_to_game_over(
    service: TableService, presenter: RecordingPresenter, store: Store
) -> None:
    view = await start_game(service, computers=3, max_cards=3)
    tid = view.table_id
    moves = 0
    while is_open(service, tid):
        await move(service, tid, HOST)
        await service.wait_idle()
        moves += 1
        assert moves < 500
    events = presenter.events(tid)
    counts = Counter(type(e) for e in events)
    assert counts[HandScored] == 5 and counts[HandDealt] == 5  # 3, 2, 1, 2, 3 cards
    assert counts[BiddingDone] == 5 and counts[BidMade] == 20
    assert counts[CardPlayed] == 4 * (3 + 2 + 1 + 2 + 3) and counts[TrickWon] == 11
    over = events[-1]
    assert isinstance(over, GameOver)
    assert [s.place for s in over.standings] == sorted(s.place for s in over.standings)
    assert {s.seat for s in over.standings} == {0, 1, 2, 3}
    # the result is in the store: one human, so no rating moves, but stats exist
    assert await store.game_for_table(tid) is not None
    stats = await store.player_stats(GUILD, HOST)
    assert stats is not None and stats.games == 1
    # every trick's cards are four distinct cards, narrated in order
    for event in events:
        if isinstance(event, TrickWon):
            assert len({card for _, card in event.cards}) == 4


async def test_publish_after_commit_once_per_action(
    store: Store, config: ServiceConfig, clock: ManualClock
) -> None:
    class Checking(RecordingPresenter):
        async def publish(self, table, events):  # type: ignore[no-untyped-def]
            record = await store.get_table(table.table_id)
            assert record is not None and record.saves == table.saves
            await super().publish(table, events)

    checking = Checking()
    service = TableService(store, checking, config=config, clock=clock)
    try:
        view = await start_game(service)
        before = len(checking.published)
        await move(service, view.table_id, HOST)
        await service.wait_idle()
    finally:
        await service.close()
    after = checking.published[before:]
    # the person's move is one publish; the computers' run that follows is one more at most
    assert 1 <= len(after) <= 2
    assert isinstance(after[0][1][-1], TurnChanged)


async def _snapshot(service: TableService, store: Store, tid: int) -> tuple[object, ...]:
    record = await store.get_table(tid)
    assert record is not None
    view = service.directory.table(tid)
    return view, record.snapshot_json, record.saves, len(await store.actions(tid))


async def test_refusals_change_nothing(service: TableService, store: Store) -> None:
    options = TableOptions(computers=1, seed=3, max_cards=4, computer_level="random")
    tid = (await service.open_table(GUILD, CHANNEL, HOST, "Host", options)).table_id
    await service.join(tid, ALICE, "Alice")
    view = await service.deal(tid, HOST)
    await service.wait_idle()
    view = service.directory.table(tid)
    state = view.state
    assert state is not None and state.phase is Phase.BIDDING
    actor = state.actor_seats[0]
    person = view.seats[actor].user_id
    assert person in (HOST, ALICE)  # the computer has already bid if it came first
    other = ALICE if person == HOST else HOST
    before = await _snapshot(service, store, tid)
    hand = state.hand_number

    async def refused(coro, match: str) -> None:  # type: ignore[no-untyped-def]
        with pytest.raises(TableError, match=match):
            await coro
        assert await _snapshot(service, store, tid) == before

    await refused(service.bid(tid, other, 1, hand), "not your turn")
    await refused(service.bid(tid, BOB, 1, hand), "not in this game")
    await refused(service.bid(tid, person, 9, hand), "Bids go from 0 to 4")
    await refused(service.bid(tid, person, 1, hand + 1), "That was for hand")
    await refused(service.play(tid, person, Card.parse("AS"), hand), "time to bid")
    await refused(service.join(tid, BOB, "Bob"), "already started")
    await refused(service.deal(tid, HOST), "already started")

    # play until a person must follow suit, then try a card of another suit
    for _ in range(200):
        await service.wait_idle()
        view = service.directory.table(tid)
        state = view.state
        assert state is not None
        if state.phase is Phase.PLAYING and state.current_trick:
            seat = state.actor_seats[0]
            who = view.seats[seat].user_id
            if who is not None:
                me = service.directory.hand_view(tid, who)
                wrong = [c for c in me.hand if c not in me.legal_cards]
                if wrong:
                    snap = await _snapshot(service, store, tid)
                    with pytest.raises(TableError, match="follow suit"):
                        await service.play(tid, who, wrong[0], state.hand_number)
                    assert await _snapshot(service, store, tid) == snap
                    not_held = next(
                        c
                        for c in (Card.parse(x) for x in ("AS", "AH", "AD", "AC", "2S"))
                        if c not in me.hand
                    )
                    with pytest.raises(TableError, match="do not hold"):
                        await service.play(tid, who, not_held, state.hand_number)
                    assert await _snapshot(service, store, tid) == snap
                    return
        seat = state.actor_seats[0]
        await move(service, tid, view.seats[seat].user_id)  # type: ignore[arg-type]
    pytest.fail("no follow-suit situation came up")


async def test_hooked_bid_refused(service: TableService) -> None:
    options = TableOptions(computers=0, seed=11, max_cards=3)
    tid = (await service.open_table(GUILD, CHANNEL, HOST, "Host", options)).table_id
    await service.join(tid, ALICE, "Alice")
    await service.join(tid, BOB, "Bob")
    view = await service.deal(tid, HOST)
    assert view.state is not None
    while True:
        view = service.directory.table(tid)
        assert view.state is not None
        seat = view.state.actor_seats[0]
        user = view.seats[seat].user_id
        assert user is not None
        if seat == view.state.dealer:
            hook = view.state.hook_bid
            assert hook is not None
            with pytest.raises(TableError, match=f"may not bid {hook}"):
                await service.bid(tid, user, hook, view.state.hand_number)
            return
        await service.bid(tid, user, 0, view.state.hand_number)


async def test_stale_button_after_game_over(service: TableService) -> None:
    view = await start_game(service, computers=2, max_cards=1)
    tid = view.table_id
    while is_open(service, tid):
        await move(service, tid, HOST)
        await service.wait_idle()
    with pytest.raises(TableError, match="closed"):
        await service.bid(tid, HOST, 0, 1)
    with pytest.raises(TableError, match="no table in this channel"):
        service.directory.table_for_channel(CHANNEL)


async def test_leave_mid_game_seats_a_computer(
    service: TableService, presenter: RecordingPresenter
) -> None:
    options = TableOptions(computers=1, seed=5, max_cards=2, computer_level="random")
    tid = (await service.open_table(GUILD, CHANNEL, HOST, "Host", options)).table_id
    await service.join(tid, ALICE, "Alice")
    await service.deal(tid, HOST)
    view = await service.leave(tid, ALICE)
    seat = next(s for s in view.seats if s.replaced_user_id == ALICE)
    assert seat.is_computer and seat.computer == "medium" and seat.name == "Alice (bot)"
    await service.wait_idle()
    # the game goes on: only the host is left to act
    view = service.directory.table(tid)
    assert view.state is not None and view.seats[view.state.actor_seats[0]].user_id == HOST
    # the host leaving too: nobody left, the table closes
    view = await service.leave(tid, HOST)
    assert view.status.value == "cancelled"


async def test_bookkeeping_is_kept_in_rows_of_its_own(service: TableService, store: Store) -> None:
    """Message ids and closed DMs are written as message rows (migration 0014), never as
    another save of the table row."""
    view = await start_game(service)
    tid = view.table_id
    saved = await store.get_table(tid)
    service.directory.set_table_message(tid, 555)
    service.directory.set_dm_message(tid, HOST, view.hand_number or 1, 777, channel_id=888)
    service.directory.set_dm_message(tid, HOST, 99, 1)  # a stale hand: ignored
    await service.wait_idle()
    assert await store.kept_messages(tid) == [
        KeptMessage(tid, TABLE_MESSAGE, 555, channel_id=CHANNEL),
        KeptMessage(tid, HOST, 777, channel_id=888, hand_number=view.hand_number)]
    service.directory.set_dm_failed(tid, HOST)
    await service.wait_idle()
    assert await store.kept_messages(tid) == [
        KeptMessage(tid, TABLE_MESSAGE, 555, channel_id=CHANNEL),
        KeptMessage(tid, HOST, None, channel_id=888, dm_failed=True)]
    assert await store.get_table(tid) == saved  # the table row was not saved again
    assert "dm_failed" not in [a.action for a in await store.actions(tid)]
    assert service.directory.table(tid).seats[0].dm_failed
    assert service.directory.table(tid).message_id == 555


async def test_dm_ids_belong_to_the_hand_in_play(service: TableService, store: Store) -> None:
    view = await start_game(service, computers=2, max_cards=2)
    tid = view.table_id
    first = view.hand_number
    assert first == 1
    service.directory.set_dm_message(tid, HOST, first, 777, channel_id=888)
    await service.wait_idle()
    assert service.directory.table(tid).seats[0].dm_message_id == 777
    assert service.directory.table(tid).seats[0].dm_hand_number == first
    while service.directory.table(tid).hand_number == first:
        await move(service, tid, HOST)
        await service.wait_idle()
    seat = service.directory.table(tid).seats[0]
    assert seat.dm_message_id is None and seat.dm_channel_id == 888
    record = await store.get_table(tid)
    assert record is not None and record.seats[0].hand_message_id is None
