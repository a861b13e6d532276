"""Fixtures: a real temporary store, a manual clock, and a service that never sleeps for real."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.clock import ManualClock
from bot.presenter import RecordingPresenter
from bot.service import ServiceConfig, TableService
from data import Store

GUILD = 1000
CHANNEL = 2000
HOST = 11
ALICE = 12
BOB = 13


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "ohhell.sqlite3"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[Store]:
    store = await Store.open(db_path)
    yield store
    await store.close()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def presenter() -> RecordingPresenter:
    return RecordingPresenter()


@pytest.fixture
def config() -> ServiceConfig:
    return ServiceConfig(default_turn_timeout=60, computer_delay=0)


@pytest.fixture
async def service(
    store: Store, presenter: RecordingPresenter, clock: ManualClock, config: ServiceConfig
) -> AsyncIterator[TableService]:
    service = TableService(store, presenter, config=config, clock=clock)
    yield service
    await service.close()
