"""How people are told it is their turn, as stored (migration 0006), on every driver: a
person's own choice, a server's default beside its other settings, refusals of anything else."""

from __future__ import annotations

from dataclasses import replace

import pytest

from data import GuildSettings, Store


async def test_a_persons_choice_is_kept_and_replaced(store: Store) -> None:
    assert await store.get_notify(7) is None
    await store.set_notify(7, "mention")
    await store.set_notify(8, "off")
    assert await store.get_notify(7) == "mention"
    await store.set_notify(7, "dm")
    assert (await store.get_notify(7), await store.get_notify(8)) == ("dm", "off")


async def test_anything_but_dm_mention_or_off_is_refused(store: Store) -> None:
    with pytest.raises(ValueError, match="notify must be one of dm, mention, off"):
        await store.set_notify(7, "sms")
    with pytest.raises(ValueError, match="notify must be one of"):
        await store.save_settings(GuildSettings(1, notify="loud"))
    assert await store.get_notify(7) is None


async def test_a_servers_default_is_kept_with_its_settings(store: Store) -> None:
    assert (await store.get_settings(1)).notify is None
    await store.save_settings(GuildSettings(1, default_preset="classic", notify="mention"))
    got = await store.get_settings(1)
    assert (got.notify, got.default_preset) == ("mention", "classic")
    await store.save_settings(replace(got, notify=None))
    assert (await store.get_settings(1)).notify is None
