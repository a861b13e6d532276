"""Interactions Discord's app would never send, but anyone can (docs/discord.md, "What arrives
unchecked"): a custom_id naming another server's table, numbers past 64 bits, option values
outside a command's ranges and choices. Each is refused in words and changes nothing.

The payloads go through discord.py's real gateway parser (tests/discord/harness.py); only the
values a client controls are forged, never what Discord fills in (user, permissions, server).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from data import GuildSettings
from tests.discord.harness import CALLBACK, Harness, Member, snowflake

OTHER_GUILD = 20
OUT_OF_DATE = "That control is out of date; use `/ohhell hand`."
NOT_HERE = ("That control is not for a table here: use the buttons under this channel's table, "
            "or /ohhell hand.")


def answer_to(calls: list[Any], user: Member) -> str:
    """The one ephemeral answer to `user`: what they were told."""
    (call,) = [c for c in calls if c.path == CALLBACK]
    assert call.body["flags"] & 64 and call.audience == user.id, call.body
    return str(call.body["content"])


def forged_click(h: Harness, user: Member, custom_id: str, *, channel: int,
                 guild_id: int | None = None) -> dict[str, Any]:
    """A button press carrying `custom_id`, on a message of the bot's in `channel`, sent from
    the server `guild_id` (another server than the harness's own, when given)."""
    payload = h._base(3, user, {"custom_id": custom_id, "component_type": 2}, channel)
    if guild_id is not None:
        payload["guild_id"] = str(guild_id)
        payload["channel"]["guild_id"] = str(guild_id)
        payload["authorizing_integration_owners"] = {"0": str(guild_id)}
    any_message = next(iter(h.fake.messages.values()))
    message = copy.deepcopy(any_message)
    message.update(id=str(snowflake()), channel_id=str(channel), components=[
        {"type": 1, "components": [{"type": 2, "style": 4, "label": "Cancel",
                                    "custom_id": custom_id}]}])
    payload["message"] = message
    return payload


def forged_slash(h: Harness, command: str, user: Member, valid: dict[str, Any],
                 forged: dict[str, Any]) -> dict[str, Any]:
    """A slash command built with `valid` values, each then replaced by its `forged` value."""
    payload = h.slash(command, user, **valid)

    def put(options: list[dict[str, Any]]) -> None:
        for option in options:
            if option["name"] in forged:
                option["value"] = forged[option["name"]]
            put(option.get("options", []))

    put(payload["data"]["options"])
    return payload


async def test_another_servers_manager_cannot_end_a_table(h: Harness) -> None:
    alice = h.member("alice")
    mallory = h.member("mallory", admin=True)  # Manage Server: here, and in her own server
    await h.send(h.slash("ohhell start", alice))
    table = h.bot.tables.directory.find_table(h.channel)  # type: ignore[attr-defined]
    cancel = f"ohhell:lobby:{table.table_id}:cancel"
    from_her_server = forged_click(h, mallory, cancel, channel=snowflake(), guild_id=OTHER_GUILD)
    assert answer_to(await h.send(from_her_server), mallory) == NOT_HERE
    elsewhere_here = forged_click(h, mallory, cancel, channel=h.add_channel())
    assert answer_to(await h.send(elsewhere_here), mallory) == NOT_HERE
    join = forged_click(h, mallory, f"ohhell:lobby:{table.table_id}:join", channel=snowflake(),
                        guild_id=OTHER_GUILD)
    assert answer_to(await h.send(join), mallory) == NOT_HERE
    still = h.bot.tables.directory.find_table(h.channel)  # type: ignore[attr-defined]
    assert still is not None and still.table_id == table.table_id
    assert [seat.user_id for seat in still.seats] == [alice.id]
    # the same button in the table's own channel still works for a manager
    here = forged_click(h, mallory, cancel, channel=h.channel)
    await h.send(here)
    assert h.bot.tables.directory.find_table(h.channel) is None  # type: ignore[attr-defined]


@pytest.mark.parametrize("custom_id", [
    "ohhell:rematch:" + "9" * 20,
    "ohhell:lobby:" + "9" * 20 + ":join",
    "ohhell:hand:" + "1" * 19,
    "ohhell:bid:1:1b0:" + "9" * 30,
])
async def test_numbers_past_64_bits_are_refused_in_words(h: Harness, custom_id: str) -> None:
    alice = h.member("alice")
    await h.send(h.slash("ohhell start", alice))
    calls = await h.send(forged_click(h, alice, custom_id, channel=h.channel))
    assert answer_to(calls, alice) == OUT_OF_DATE  # and nothing logged at ERROR (fixture h)


@pytest.mark.parametrize(("command", "valid", "forged", "said"), [
    ("ohhell settings", {"turn_timeout": 60}, {"turn_timeout": 100_000},
     "The option turn_timeout takes 0 to 86,400; nothing was changed."),
    ("ohhell settings", {"turn_timeout": 60}, {"turn_timeout": -5},
     "The option turn_timeout takes 0 to 86,400; nothing was changed."),
    ("ohhell settings", {"notify": "dm"}, {"notify": "carrier-pigeon"},
     "The option notify takes one of dm, mention, off; nothing was changed."),
    ("ohhell settings", {"preset": "classic"}, {"preset": "poker"},
     "The option preset takes one of "),
    ("ohhell settings", {"turn_timeout": 60}, {"turn_timeout": "soon"},
     "The option turn_timeout takes a whole number; nothing was changed."),
    ("ohhell notify", {"how": "dm"}, {"how": "carrier-pigeon"},
     "The option how takes one of dm, mention, off; nothing was changed."),
    ("ohhell start", {"turn_timeout": 60}, {"turn_timeout": 2**70},
     "The option turn_timeout takes 0 to 86,400; nothing was changed."),
    ("ohhell start", {"bots": 1}, {"bots": 99},
     "The option bots takes 0 to 7; nothing was changed."),
    ("ohhell bid", {"tricks": 1}, {"tricks": -1},
     "The option tricks takes 0 to 20; nothing was changed."),
])
async def test_option_values_outside_the_command_are_refused_in_words(
    h: Harness, command: str, valid: dict[str, Any], forged: dict[str, Any], said: str
) -> None:
    boss = h.member("boss", admin=True)
    before = await h.bot.store.get_settings(h.guild_id)  # type: ignore[attr-defined]
    text = answer_to(await h.send(forged_slash(h, command, boss, valid, forged)), boss)
    assert text.startswith(said), text
    assert await h.bot.store.get_settings(h.guild_id) == before  # type: ignore[attr-defined]
    assert await h.bot.store.get_notify(boss.id) is None  # type: ignore[attr-defined]
    assert h.bot.tables.directory.find_table(h.channel) is None  # type: ignore[attr-defined]
    # the server's tables still open, with its defaults
    await h.send(h.slash("ohhell start", boss))
    assert h.bot.tables.directory.find_table(h.channel) is not None  # type: ignore[attr-defined]


async def test_a_stored_default_out_of_bounds_is_refused_in_words_at_start(h: Harness) -> None:
    """A turn timeout stored before its bounds were checked cannot break every /ohhell start."""
    await h.bot.store.save_settings(  # type: ignore[attr-defined]
        GuildSettings(h.guild_id, turn_timeout=100_000))
    alice = h.member("alice")
    text = answer_to(await h.send(h.slash("ohhell start", alice)), alice)
    assert text.startswith("The option turn_timeout cannot be 100000 (")
    assert text.endswith("If it is this server's default, a server manager can set it again "
                         "with /ohhell settings.")
    assert h.bot.tables.directory.find_table(h.channel) is None  # type: ignore[attr-defined]
    boss = h.member("boss", admin=True)
    await h.send(h.slash("ohhell settings", boss, reset="turn_timeout"))
    await h.send(h.slash("ohhell start", alice))
    assert h.bot.tables.directory.find_table(h.channel) is not None  # type: ignore[attr-defined]
