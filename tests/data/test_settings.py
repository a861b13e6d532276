"""Server settings: defaults, a round trip, and a refusal."""

from __future__ import annotations

import pytest

from data import GuildSettings, Store


async def test_a_new_server_gets_the_defaults(store: Store) -> None:
    assert await store.get_settings(5) == GuildSettings(5)
    defaults = await store.get_settings(5)
    assert defaults.default_preset is None and defaults.turn_timeout is None
    assert defaults.allow_computers and dict(defaults.options) == {}


async def test_settings_round_trip_and_replace(store: Store) -> None:
    chosen = GuildSettings(
        5,
        default_preset="oh_pshaw",
        options={"scoring": "penalty", "hook": True},
        turn_timeout=90,
        allow_computers=False,
    )
    await store.save_settings(chosen)
    assert await store.get_settings(5) == chosen
    assert await store.get_settings(6) == GuildSettings(6)
    await store.save_settings(GuildSettings(5, turn_timeout=30))
    assert await store.get_settings(5) == GuildSettings(5, turn_timeout=30)


async def test_a_negative_timeout_is_refused_and_zero_means_untimed(store: Store) -> None:
    with pytest.raises(ValueError, match="turn_timeout"):
        await store.save_settings(GuildSettings(5, turn_timeout=-1))
    assert await store.get_settings(5) == GuildSettings(5)
    await store.save_settings(GuildSettings(5, turn_timeout=0))  # a server's untimed default
    assert (await store.get_settings(5)).turn_timeout == 0
