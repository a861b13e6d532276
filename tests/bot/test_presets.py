"""Every preset plays to the end through the service: variant steps (trump choice, discards,
simultaneous bids) are narrated and stored like the rest."""

from __future__ import annotations

from collections import Counter

import pytest

import bot.options
from bot.events import BiddingDone, BidMade, DiscardsMade, GameOver, TrumpChosen
from bot.models import TableOptions
from bot.presenter import RecordingPresenter
from bot.service import TableService
from engine import Phase, Rules
from tests.bot.conftest import CHANNEL, GUILD, HOST
from tests.bot.helpers import any_move, is_open


async def _play_out(service: TableService, tid: int) -> None:
    for step in range(2000):
        await service.wait_idle()
        if not is_open(service, tid):
            return
        view = service.directory.table(tid)
        assert view.state is not None
        assert 0 in view.state.actor_seats, "only the host can be awaited once computers moved"
        await any_move(service, tid, HOST, seed=step)
    pytest.fail("the game did not end")


@pytest.mark.parametrize("preset", Rules.preset_names(special_cards=True))
async def test_preset_plays_to_the_end(
    preset: str, service: TableService, presenter: RecordingPresenter
) -> None:
    rules = Rules.preset(preset)
    players = max(3, rules.min_players)
    options = TableOptions(preset=preset, computers=players - 1, seed=3, max_cards=3,
                           computer_level="random")
    tid = (await service.open_table(GUILD, CHANNEL, HOST, "Host", options)).table_id
    await service.deal(tid, HOST)
    await _play_out(service, tid)
    events = presenter.events(tid)
    assert isinstance(events[-1], GameOver)
    counts = Counter(type(e) for e in events)
    if rules.trump_choice == "dealer_picks":
        assert counts[TrumpChosen] > 0
    if rules.discards:
        assert counts[DiscardsMade] > 0


async def test_simultaneous_bidding_hides_bids_until_all_are_in(
    service: TableService, presenter: RecordingPresenter, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = bot.options.rules_for

    def simultaneous(options: TableOptions) -> Rules:
        return real(options).model_copy(update={"bidding": "simultaneous", "hook": False})

    monkeypatch.setattr(bot.options, "rules_for", simultaneous)
    options = TableOptions(computers=2, seed=8, max_cards=2, computer_level="random")
    tid = (await service.open_table(GUILD, CHANNEL, HOST, "Host", options)).table_id
    view = await service.deal(tid, HOST)
    await service.wait_idle()
    view = service.directory.table(tid)
    assert view.state is not None and view.state.phase is Phase.SIMULTANEOUS_BIDDING
    assert view.state.actor_seats == (0,)  # the computers have bid, the host not yet
    assert all(b is None for b in view.state.bids)  # nobody's bid shows
    hidden = [e for e in presenter.events(tid) if isinstance(e, BidMade)]
    assert hidden and all(e.bid is None for e in hidden)
    await _play_out(service, tid)
    done = [e for e in presenter.events(tid) if isinstance(e, BiddingDone)]
    assert done and all(None not in e.bids for e in done)
