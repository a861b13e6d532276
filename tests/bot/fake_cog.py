"""A stand-in extension for start-up tests: does what the real cog's setup must do."""

from __future__ import annotations

from typing import Any

from bot.presenter import RecordingPresenter

loaded: list[Any] = []


async def setup(bot: Any) -> None:
    bot.attach_presenter(RecordingPresenter())
    loaded.append(bot)
