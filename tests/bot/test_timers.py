"""Turn timers on a manual clock: warning at half time, a computer move at the deadline,
autopilot after two timeouts in a row, and the person taking the seat back."""

from __future__ import annotations

from datetime import timedelta

from bot.clock import ManualClock
from bot.events import (
    BidMade,
    CardPlayed,
    GameOver,
    SeatAutopiloted,
    TimedOut,
    TimerWarning,
)
from bot.presenter import RecordingPresenter
from bot.scheduler import Scheduler
from bot.service import ServiceConfig, TableService
from data import Store
from tests.bot.conftest import HOST
from tests.bot.helpers import is_open, start_game


def _moved(events: list[object], seat: int) -> bool:
    return any(isinstance(e, BidMade | CardPlayed) and e.seat == seat for e in events)


async def test_warning_then_timeout_move(
    service: TableService, presenter: RecordingPresenter, clock: ManualClock
) -> None:
    view = await start_game(service, turn_timeout=60)
    tid = view.table_id
    assert view.state is not None and view.state.actor_seats == (0,)
    assert view.deadline == clock.now() + timedelta(seconds=60)
    presenter.clear()

    await clock.advance(29)
    await service.wait_idle()
    assert presenter.events() == []

    await clock.advance(1)
    await service.wait_idle()
    assert presenter.events() == [TimerWarning(seats=(0,), deadline=view.deadline)]
    assert service.directory.table(tid).warned

    await clock.advance(30)
    await service.wait_idle()
    events = presenter.events()
    assert TimedOut(seat=0, timeouts_in_row=1) in events
    assert _moved(events, 0)
    assert SeatAutopiloted(seat=0, on=True) not in events
    view = service.directory.table(tid)
    assert not view.seats[0].autopilot and view.seats[0].timeouts_in_row == 1


async def test_acting_resets_the_count(service: TableService, clock: ManualClock) -> None:
    view = await start_game(service, turn_timeout=60)
    tid = view.table_id
    await clock.advance(60)
    await service.wait_idle()
    assert service.directory.table(tid).seats[0].timeouts_in_row == 1
    me = service.directory.hand_view(tid, HOST)
    if me.legal_bids:
        await service.bid(tid, HOST, me.legal_bids[0], me.hand_number)
    else:
        await service.play(tid, HOST, me.legal_cards[0], me.hand_number)
    assert service.directory.table(tid).seats[0].timeouts_in_row == 0


async def test_two_timeouts_put_the_seat_on_autopilot(
    service: TableService, presenter: RecordingPresenter, clock: ManualClock, store: Store
) -> None:
    view = await start_game(service, turn_timeout=60)
    tid = view.table_id
    await clock.advance(60)
    await service.wait_idle()
    assert service.directory.table(tid).seats[0].timeouts_in_row == 1
    await clock.advance(60)
    await service.wait_idle()
    events = presenter.events(tid)
    assert TimedOut(seat=0, timeouts_in_row=2) in events
    assert SeatAutopiloted(seat=0, on=True) in events
    # with no delay the computer plays the seat to the end; the person keeps the result
    assert not is_open(service, tid)
    over = events[-1]
    assert isinstance(over, GameOver)
    assert any(s.user_id == HOST for s in over.standings)
    stats = await store.player_stats(1000, HOST)
    assert stats is not None and stats.games == 1


async def test_person_takes_the_seat_back(
    store: Store, presenter: RecordingPresenter, clock: ManualClock
) -> None:
    config = ServiceConfig(default_turn_timeout=60, computer_delay=5)
    service = TableService(store, presenter, config=config, clock=clock)
    try:
        view = await start_game(service, turn_timeout=60, max_cards=3)
        tid = view.table_id

        async def until_host_awaited() -> None:
            for _ in range(100):
                v = service.directory.table(tid)
                if v.state is not None and 0 in v.state.actor_seats:
                    return
                await clock.advance(5)
                await service.wait_idle()
            raise AssertionError("the host was never awaited")

        await until_host_awaited()
        await clock.advance(60)  # first timeout
        await service.wait_idle()
        await until_host_awaited()
        await clock.advance(60)  # second: autopilot
        await service.wait_idle()
        assert service.directory.table(tid).seats[0].autopilot

        # on autopilot, acting on one's own turn (before the computer's pacing delay runs
        # out) takes the seat back
        await until_host_awaited()
        live = service.directory.get(tid)
        live.seats[0].autopilot = True  # the state two timeouts leave, on the host's turn
        # the computer would move after its 5 s delay
        await service._runner.resume(live, service.clock.now())
        me = service.directory.hand_view(tid, HOST)
        if me.legal_bids:
            await service.bid(tid, HOST, me.legal_bids[0], me.hand_number)
        else:
            await service.play(tid, HOST, me.legal_cards[0], me.hand_number)
        assert not service.directory.table(tid).seats[0].autopilot
        assert SeatAutopiloted(seat=0, on=False) in presenter.events(tid)[-6:]
    finally:
        await service.close()


async def test_no_timer_for_computers_or_when_off(service: TableService) -> None:
    view = await start_game(service, turn_timeout=0)
    assert view.deadline is None


async def test_turn_timers_wait_in_the_scheduler_the_service_is_given(
    store: Store, presenter: RecordingPresenter, clock: ManualClock, config: ServiceConfig
) -> None:
    """The process's one scheduler (bot/scheduler.py) holds the turn timers: the service keeps
    them in the one it is given, even while that one is still empty."""
    scheduler = Scheduler(clock)
    service = TableService(store, presenter, config=config, clock=clock, scheduler=scheduler)
    try:
        view = await start_game(service, turn_timeout=60)
        assert len(scheduler) == 2  # the warning and the time-out of the turn
        await clock.advance(60)
        await service.wait_idle()
        assert service.directory.table(view.table_id).seats[0].timeouts_in_row == 1
    finally:
        await service.close()
