"""Who reads which language, as stored (migration 0012), on every driver: a server's language
setting beside its other settings, and each person's last-seen Discord locale."""

from __future__ import annotations

from dataclasses import replace

import pytest

from data import GuildSettings, Store


async def test_a_servers_language_is_automatic_until_chosen(store: Store) -> None:
    assert (await store.get_settings(1)).language is None
    await store.save_settings(GuildSettings(1, default_preset="classic", language="nb"))
    got = await store.get_settings(1)
    assert (got.language, got.default_preset) == ("nb", "classic")
    await store.save_settings(replace(got, language=None))
    assert (await store.get_settings(1)).language is None


async def test_a_language_the_catalogue_lacks_is_refused(store: Store) -> None:
    with pytest.raises(ValueError, match="language must be one of en, nb"):
        await store.save_settings(GuildSettings(1, language="sv"))
    assert (await store.get_settings(1)).language is None


async def test_a_persons_locale_is_kept_and_replaced(store: Store) -> None:
    assert await store.get_locale(7) is None
    await store.set_locale(7, "no")
    await store.set_locale(8, "en-GB")
    assert await store.get_locale(7) == "no"
    await store.set_locale(7, "en-US")
    assert (await store.get_locale(7), await store.get_locale(8)) == ("en-US", "en-GB")
    with pytest.raises(ValueError, match="not a Discord locale"):
        await store.set_locale(7, "")
    assert await store.get_locale(7) == "en-US"
