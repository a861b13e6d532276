"""The command surface: its sync payload, and the commands that are not moves."""

from __future__ import annotations

from typing import Any

from discord import app_commands

from cogs.ohhell import LEADERBOARD_SORTS
from data.stats import SORT_KEYS
from engine import Phase, Rules
from tests.discord.conftest import Boot
from tests.discord.driver import Driver
from tests.discord.harness import CALLBACK, PUBLIC, Harness
from tests.discord.limits import check_sync_payload, check_tree, localized

SURFACE = {"start", "join", "leave", "addbot", "deal", "bid", "play", "hand", "table", "scores",
           "end", "kick", "rules", "leaderboard", "stats", "settings", "help", "notify",
           "hint", "history", "replay", "export", "learn", "forget-me", "forget"}


async def test_the_synced_commands_are_the_fixed_surface_within_limits(boot: Boot) -> None:
    h = await boot(sync=True)
    payload = h.fake.synced[None]
    assert check_sync_payload(payload) == []
    assert check_tree(h.bot.tree) == []
    (ohhell,) = payload
    assert ohhell["name"] == "ohhell" and ohhell.get("contexts") in (None, [0])
    subs = {o["name"]: o for o in ohhell["options"]}
    assert set(subs) == SURFACE
    start = {o["name"]: o for o in subs["start"]["options"]}
    assert list(start) == ["preset", "max_cards", "scoring", "hook", "bots", "bot_level",
                           "turn_timeout", "hints"]
    presets = Rules.preset_names(special_cards=True)
    assert [c["value"] for c in start["preset"]["choices"]] == presets
    assert [o["name"] for o in subs["bid"]["options"]] == ["tricks"]
    assert subs["play"]["options"][0]["autocomplete"] is True
    # Discord keeps permissions per top-level command: /ohhell settings checks at run time
    assert "default_member_permissions" not in subs["settings"]
    assert LEADERBOARD_SORTS == SORT_KEYS


async def test_rules_scores_and_autocomplete(h: Harness) -> None:
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    calls = await h.send(h.slash("ohhell rules", alice, preset="vanikar"))
    embed = calls[0].body["embeds"][0]
    assert calls[0].audience == alice.id and "vanikar" in embed["title"]
    assert all(line in embed["description"] for line in Rules.preset("vanikar").describe())
    d = Driver(h, [alice, bob, carol])
    await d.lobby(max_cards=2)
    while d.view().state.hand_number == 1 or d.view().state.phase is not Phase.PLAYING:
        seat, m = d.awaited()[0]
        await d.act_slash(seat, m)
    calls = await d.slash("ohhell scores", bob)
    sheet = calls[0].body["embeds"][0]["description"]
    assert calls[0].audience == bob.id and "bid/took each hand" in sheet
    assert all(f"\n{name}  " in sheet for name in ("alice", "bob", "carol"))
    (seat, m), = d.awaited()
    view = d.view()
    legal = d.svc.directory.seat_view(view.table_id, seat).legal_cards
    calls = await h.send(h.autocomplete("ohhell play", m, "card", ""))
    offered = [c["value"] for c in calls[0].json["data"]["choices"]]
    assert sorted(offered) == sorted(c.code for c in legal) and calls[0].audience == m.id


async def test_table_is_posted_again_and_the_old_message_retires(h: Harness) -> None:
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    d = Driver(h, [alice, bob, carol])
    await d.lobby()
    old = d.view().message_id
    calls = await d.slash("ohhell table", bob)
    new = calls[0].message_id
    assert calls[0].audience is PUBLIC and new != old and d.view().message_id == new
    assert h.components(new)[0]["label"] == "My hand"
    assert h.components(old) == [] and "moved" in h.fake.messages[old]["embeds"][0]["description"]
    seat, m = d.awaited()[0]
    calls = await d.act_slash(seat, m)
    assert {c.message_id for c in calls if c.is_rest and c.audience is PUBLIC} == {new}


async def test_lobby_buttons_and_kick(h: Harness) -> None:
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    d = Driver(h, [alice, bob, carol])
    await d.slash("ohhell start", alice)
    mid = d.view().message_id
    await d.send(h.click(mid, "Join", bob))
    calls = await d.send(h.click(mid, "Add bot", bob))
    assert calls[0].body["content"] == "Only the host can add computer players."
    calls = await d.send(h.click(mid, "Add bot", alice))
    assert calls[0].json["type"] == 7 and len(d.view().seats) == 3
    await d.send(h.click(mid, "Leave", bob))
    assert [s.user_id for s in d.view().seats] == [alice.id, None]
    await d.send(h.click(mid, "Join", bob))
    await d.send(h.click(mid, "Join", carol))
    await d.send(h.click(mid, "Deal", alice))
    calls = await d.slash("ohhell kick", alice, member=carol)
    assert calls[0].body["content"] == "carol is out of the game."
    view = d.view()
    assert view.seats[3].user_id is None and view.seats[3].replaced_user_id == carol.id
    await d.slash("ohhell leave", bob)
    assert d.view().seats[1].user_id is None
    await d.play_out("slash")
    assert d.view() is None


async def test_server_settings_are_the_defaults_of_new_tables(h: Harness) -> None:
    boss, alice = h.member("boss", admin=True), h.member("alice")
    calls = await h.send(h.slash("ohhell settings", boss))
    assert "Preset: **classic**" in calls[0].body["embeds"][0]["description"]
    calls = await h.send(h.slash("ohhell settings", boss, preset="vanikar", turn_timeout=300,
                                 computers=False, scoring="penalty"))
    assert calls[0].body["content"].startswith("Saved.") and calls[0].audience == boss.id
    calls = await h.send(h.slash("ohhell start", alice, bots=2))
    assert calls[0].body["content"] == "Computer players are turned off in this server."
    await h.send(h.slash("ohhell start", alice))
    view = h.bot.tables.directory.find_table(h.channel)  # type: ignore[attr-defined]
    assert view.options.preset == "vanikar" and view.options.turn_timeout == 300
    assert view.options.scoring == "penalty"
    calls = await h.send(h.slash("ohhell addbot", alice))
    assert calls[0].body["content"] == "Computer players are turned off in this server."
    calls = await h.send(h.click(view.message_id, "Cancel", alice))
    assert calls[0].path == CALLBACK and calls[0].json["type"] == 7
    assert h.bot.tables.directory.find_table(h.channel) is None  # type: ignore[attr-defined]


async def test_settings_show_real_values_allow_untimed_and_go_back(boot: Boot) -> None:
    h = await boot(timeout=90)  # DEFAULT_TURN_TIMEOUT=90 on this bot
    boss, alice = h.member("boss", admin=True), h.member("alice")

    async def shown(**options: object) -> str:
        calls = await h.send(h.slash("ohhell settings", boss, **options))
        assert calls[0].audience == boss.id
        return str(calls[0].body["embeds"][0]["description"])

    fresh = await shown()
    assert "Turn timeout: **90 s** (the bot's default)" in fresh
    assert "Scoring: **the preset decides**" in fresh and "Hook: **the preset decides**" in fresh
    assert "Preset: **classic** (the bot's default)" in fresh and "bot default**" not in fresh
    untimed = await shown(turn_timeout=0, scoring="penalty", hook=False, preset="vanikar")
    assert "Turn timeout: **untimed**" in untimed and "Scoring: **penalty**" in untimed
    assert "Hook: **off**" in untimed and "Preset: **vanikar**" in untimed
    await h.send(h.slash("ohhell start", alice))
    view = h.bot.tables.directory.find_table(h.channel)  # type: ignore[attr-defined]
    assert view.options.turn_timeout == 0  # an untimed default makes untimed tables
    lobby = h.fake.messages[view.message_id]["embeds"][0]
    assert "no turn timer" in str(lobby)
    await h.send(h.slash("ohhell end", alice))
    back = await shown(reset="scoring")
    assert "Scoring: **the preset decides**" in back and "Hook: **off**" in back
    back = await shown(reset="all")
    assert back == fresh
    calls = await h.send(h.slash("ohhell settings", boss, reset="hook"))
    assert calls[0].body.get("content") is None  # nothing to put back: nothing saved
    await h.close()


async def test_help_says_how_to_play_here(h: Harness) -> None:
    alice = h.member("alice")
    calls = await h.send(h.slash("ohhell help", alice))
    (call,) = calls
    assert call.audience == alice.id and call.body["flags"] & 64  # ephemeral
    text = call.body["embeds"][0]["description"]
    assert "/ohhell start" in text and "**My hand**" in text and "/ohhell rules" in text
    group = h.bot.tree.get_command("ohhell")
    assert isinstance(group, app_commands.Group)
    for told in ("notify", "hint"):  # the player's own commands, when the bot has them
        if group.get_command(told) is not None:
            assert f"/ohhell {told}" in text, told
    assert group.get_command("notify") is not None


def _untranslated(o: dict[str, Any], locale: str, path: str = "") -> list[str]:
    where = f"{path}/{o['name']}"
    lacking = []
    if locale not in (o.get("name_localizations") or {}):
        lacking.append(where + " name")
    if locale not in (o.get("description_localizations") or {}):
        lacking.append(where + " description")
    lacking += [f"{where} choice {c['name']}" for c in o.get("choices") or []
                if locale not in (c.get("name_localizations") or {})]
    for x in o.get("options") or []:
        lacking += _untranslated(x, locale, where)
    return lacking


async def test_commands_read_norwegian_in_a_norwegian_client_within_limits(boot: Boot) -> None:
    """Discord's locale for Norwegian is `no` (docs/discord.md); every name, description and
    choice carries it, and the Norwegian command tree keeps Discord's limits on its own."""
    h = await boot(sync=True)
    payload = h.fake.synced[None]
    assert [e for e in check_sync_payload(payload) if e.startswith("[no]")] == []
    assert _untranslated(payload[0], "no") == []
    (ohhell,) = [localized(c, "no") for c in payload]
    subs = {o["name"]: o for o in ohhell["options"]}
    assert {"meld", "spill", "bli-med", "regler", "hjelp"} <= set(subs)
    assert subs["meld"]["description"] == "Meld hvor mange stikk du tar"
    assert [o["name"] for o in subs["meld"]["options"]] == ["stikk"]
    presets = {c["value"]: c["name"] for c in subs["start"]["options"][0]["choices"]}
    assert presets["classic"] == "klassisk"


async def test_commands_are_synced_again_only_when_they_changed(boot: Boot) -> None:
    first = await boot(sync=True)
    assert None in first.fake.synced
    await first.close()
    again = await boot(sync=True)  # same commands, same application: no sync call
    assert again.fake.synced == {}
    assert not [c for c in again.fake.log if c.method == "PUT" and "/commands" in c.path]
    # a new option changes the payload: the next start syncs it
    group = again.bot.tree.get_command("ohhell")
    assert isinstance(group, app_commands.Group)
    rules = group.get_command("rules")
    assert isinstance(rules, app_commands.Command)
    rules.description = "Show the rules of a preset (changed)"
    assert await again.bot.sync_commands() is True
    assert again.fake.synced[None][0]["name"] == "ohhell"
    assert await again.bot.sync_commands() is False
