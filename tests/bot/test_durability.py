"""An action whose save fails is undone: the player gets the error, the game is as before."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot.errors import TableError
from bot.presenter import RecordingPresenter
from bot.service import ServiceConfig, TableService
from data import Store, StoreError
from engine import PlayerView
from tests.bot.conftest import HOST
from tests.bot.helpers import move, start_game


class FailingStore:
    """The real store, except that the next save_table raises."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self.fail_next = False
        self.while_saving: Callable[[], object] = lambda: None
        """Run as a save begins: what another task may read while the commit is on its way."""

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    async def save_table(self, *args: Any, **kwargs: Any) -> Any:
        self.while_saving()
        if self.fail_next:
            self.fail_next = False
            raise StoreError("disk full")
        return await self._store.save_table(*args, **kwargs)


async def test_failed_save_undoes_the_move(store: Store) -> None:
    failing = FailingStore(store)
    presenter = RecordingPresenter()
    config = ServiceConfig(default_turn_timeout=0, computer_delay=0)
    service = TableService(failing, presenter, config=config)  # type: ignore[arg-type]
    try:
        view = await start_game(service, computers=2, max_cards=3)
        tid = view.table_id
        before = service.directory.table(tid)
        hand = service.directory.hand_view(tid, HOST)
        published = len(presenter.published)
        failing.fail_next = True
        seen: list[PlayerView] = []  # the hand as the move left it, read before its save failed
        failing.while_saving = lambda: seen.append(service.directory.hand_view(tid, HOST))
        with pytest.raises(TableError, match="could not be saved just now, so nothing changed"):
            await move(service, tid, HOST)  # told in words (issue 23)
        assert seen and seen[0] != hand
        assert service.directory.table(tid) == before
        assert service.directory.hand_view(tid, HOST) == hand  # not the view read meanwhile
        assert len(presenter.published) == published  # nothing was announced
        failing.while_saving = lambda: None
        await move(service, tid, HOST)  # and the same move works once the store does
        await service.wait_idle()
        assert service.directory.table(tid).saves > before.saves
        assert service.directory.hand_view(tid, HOST) != hand  # the move shows
    finally:
        await service.close()
