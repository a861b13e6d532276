"""Who reads what, for what the bot sends on its own (docs/discord.md, "Who reads what";
cogs/voices.py), through discord.py's real pipeline: the table message, its notes, the final
standings and their chart in the server's language (`/ohhell settings language:`, else the
server's Discord preferred locale); hand DMs, nudges and end-of-game DM edits in each person's
own Discord locale, as last seen in one of their interactions.
"""

from __future__ import annotations

import re
from typing import Any

from bot.clock import ManualClock
from bot.models import TableView
from tests.discord.conftest import Boot
from tests.discord.driver import Driver
from tests.discord.faults import Faults
from tests.discord.harness import CHANNEL_MESSAGE, PUBLIC, Call, Harness, Member, drain
from tests.discord.limits import check_message, localized
from tests.discord.test_forged_input import forged_slash
from tests.discord.test_history import answer_of
from tests.discord.test_language import ENGLISH, _text, _words

ALLOWED_ENGLISH: dict[str, str] = {}
"""English a whole Norwegian game may still show (pattern -> why): none. Any English word but a
player's name fails the whole-game test."""
ALLOWED = tuple(re.compile(pattern) for pattern in ALLOWED_ENGLISH)


def _dm_texts(h: Harness, member: Member) -> list[str]:
    """Every body the bot sent or edited in this person's DMs, in order."""
    dm = h.fake.dm_of(member.id)
    return [_text(c) for c in h.fake.log
            if c.body and c.via == "rest" and f"/channels/{dm}/" in c.url]


def _table_texts(h: Harness, d: Driver) -> list[str]:
    """Every body of the channel's public messages (the table message and its reposts)."""
    return [_text(c) for c in h.fake.log if c.body and c.audience is PUBLIC
            and f"/channels/{d.channel}/" in c.url]


def _english(text: str, names: set[str],
             allowed: tuple[re.Pattern[str], ...] = ()) -> set[str]:
    """The English words of a text, the players' names and the `allowed` texts aside."""
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    for pattern in allowed:
        text = pattern.sub(" ", text)
    return _words(text) & ENGLISH


async def test_a_norwegian_server_with_one_english_player(h: Harness) -> None:
    """Each person's DMs in their own language, the table message in the server's."""
    h.guild_locale = "no"
    alice = h.member("alice")  # her client is English
    bob, carol = h.member("bob", locale="no"), h.member("carol", locale="no")
    d = Driver(h, [alice, bob, carol])
    await d.lobby(max_cards=2)
    await d.play_out()
    names = {"alice", "bob", "carol"}
    hers = _dm_texts(h, alice)
    assert hers and all(_english(text, names) for text in hers)  # every one reads English
    assert any("Your hand" in text for text in hers)
    assert "The game is over" in hers[-1]  # the end-of-game edit too
    for norwegian in (bob, carol):
        theirs = _dm_texts(h, norwegian)
        assert theirs and [t for t in theirs if _english(t, names)] == []
        assert any("Din hånd" in text for text in theirs)
    table = _table_texts(h, d)
    assert table and sorted({w for t in table for w in _english(t, names, ALLOWED)}) == []
    assert "Sluttstilling" in table[-1]


async def test_the_language_setting_overrides_discord_and_changes_later_messages(
        h: Harness) -> None:
    """`/ohhell settings language:` beats the server's Discord locale, for the table message
    and for people the bot has not seen; what was sent before stays as it was."""
    admin = h.member("admin", admin=True)
    alice, bob = h.member("alice"), h.member("bob")
    d = Driver(h, [alice, bob, admin])
    await d.slash("ohhell start", alice)
    view = d.view()
    assert view is not None and view.message_id is not None
    lobby = h.fake.messages[view.message_id]
    assert lobby["embeds"][0]["title"].endswith("lobby")
    calls = await d.slash("ohhell settings", admin, language="nb")
    (answer,) = calls  # only the answer: the table message is not edited for the setting
    assert answer.audience == admin.id
    assert "Language: **Norsk**" in _text(answer)
    assert h.fake.messages[view.message_id] == lobby
    await d.slash("ohhell join", bob)
    table = h.fake.messages[view.message_id]
    assert table["embeds"][0]["title"].endswith("venterom")  # the next update: Norwegian
    await d.slash("ohhell join", admin)
    await d.slash("ohhell deal", alice)
    # the players' own (English) clients: their DMs stay English
    assert any("Your hand" in text for text in _dm_texts(h, alice))
    # back to automatic: the server's Discord language (English here) from the next update
    await d.slash("ohhell settings", admin, language="auto")
    seat, m = d.awaited()[0]
    await d.act_slash(seat, m)
    assert _english(_table_texts(h, d)[-1], {"alice", "bob", "admin"})


async def test_the_server_language_follows_discords_preferred_locale(h: Harness) -> None:
    """On automatic, a GUILD_UPDATE of the server's preferred locale changes the next table
    update's language; someone the bot never saw reads the server's language."""
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    d = Driver(h, [alice, bob, carol])
    await d.lobby(max_cards=2)
    assert _english(_table_texts(h, d)[-1], {"alice", "bob", "carol"})
    h.guild_locale = "no"  # GUILD_UPDATE: the server's managers chose Norwegian
    seat, m = d.awaited()[0]
    await d.act_slash(seat, m)
    assert _english(_table_texts(h, d)[-1], {"alice", "bob", "carol"}) == set()
    voices = h.bot.presenter.voices  # type: ignore[attr-defined]
    never_seen = 1
    assert voices.person(never_seen, h.guild_id) == "nb"
    assert voices.person(alice.id, h.guild_id) == "en"  # her own client's


async def test_a_persons_locale_survives_a_restart_and_is_written_once(
        boot: Boot, clock: ManualClock) -> None:
    """A person's locale is stored once, when first seen (not at every interaction), and a
    restarted bot DMs them in it before they interact again."""
    h = await boot()
    h.guild_locale = "en-US"
    alice, bob, carol = (h.member(n, locale="no") for n in ("alice", "bob", "carol"))
    d = Driver(h, [alice, bob, carol])
    await d.lobby(max_cards=3)
    store = h.bot.store  # type: ignore[attr-defined]
    writes: list[tuple[int, str]] = []
    real = store.set_locale

    async def counting(user_id: int, locale: str) -> None:
        writes.append((user_id, locale))
        await real(user_id, locale)

    store.set_locale = counting
    seat, m = d.awaited()[0]
    await d.act_slash(seat, m)
    await drain()
    assert writes == []  # known, unchanged: not written again
    assert await store.get_locale(alice.id) == "no"
    await h.close()
    mark = len(h.fake.log)
    again = await boot(share_with=h)
    d = Driver(again, [alice, bob, carol])
    seat, m = d.awaited()[0]
    await d.act_slash(seat, m)
    await drain()
    _, waiting = d.awaited()[0]
    assert waiting != m
    # the restarted bot has not seen `waiting` yet: the DM that tells them it is their turn
    # is in their language, read from the store
    dm = again.fake.dm_of(waiting.id)
    told = [_text(c) for c in again.fake.log[mark:]
            if c.body and c.via == "rest" and f"/channels/{dm}/" in c.url]
    assert told and all("Din hånd" in text for text in told)


async def test_a_whole_game_in_norwegian_shows_no_english(h: Harness, clock: ManualClock) -> None:
    """Slash commands, buttons and selects, hand DMs, a nudge, the table message's notes, the
    final standings with their chart: no English word but the players' names (and the allowance
    above, for texts still on other branches), every payload within Discord's limits."""
    h.guild_locale = "no"
    alice, bob, carol = (h.member(n, locale="no") for n in ("alice", "bob", "carol"))
    d = Driver(h, [alice, bob, carol])
    await d.slash("ohhell start", alice, bots=1, max_cards=3)
    view = d.view()
    assert view is not None and view.message_id is not None
    table_id = view.message_id
    await d.send(h.click(table_id, "Bli med", bob))
    await d.send(h.click(table_id, "Bli med", carol))
    await d.send(h.click(table_id, "Gi", alice))
    names = _names(d.view())
    turns = 0
    while (awaited := d.awaited()):
        names |= _names(d.view())
        seat, m = awaited[0]
        if turns == 3:
            await clock.advance(21)  # slow: a nudge goes out
            await drain()
        if turns % 2:
            await d.act_controls(seat, m)
        else:
            await d.act_slash(seat, m)
        turns += 1
    await drain()
    sent = [c for c in h.fake.log if c.body]
    assert [(c.path, e) for c in sent for e in check_message(c.body)] == []
    english = {(word, _text(c)[:80]) for c in sent
               for word in _english(_text(c), names, ALLOWED)}
    assert english == set()
    nudged = [c for c in sent if "⏰" in (c.body.get("content") or "")]
    assert nudged and "din tur" in nudged[0].body["content"].lower()
    final = h.fake.messages[table_id]
    assert "Sluttstilling" in _text(_call_of(final))
    assert h.fake.attachments.get(table_id), "the final message carries the chart"


def _names(view: TableView | None) -> set[str]:
    return {s.name for s in view.seats} if view is not None else set()


def _call_of(message: dict[str, Any]) -> Call:
    return Call("rest", "PATCH", "/", "/", message)




async def test_a_forged_language_is_refused_and_changes_nothing(h: Harness) -> None:
    admin = h.member("admin", admin=True)
    payload = forged_slash(h, "ohhell settings", admin, {"language": "nb"}, {"language": "xx"})
    (answer,) = await h.send(payload)
    assert answer.audience == admin.id and "nothing was changed" in _text(answer)
    assert (await h.bot.store.get_settings(h.guild_id)).language is None  # type: ignore[attr-defined]


async def test_the_language_choices_read_in_the_clients_language(boot: Boot) -> None:
    """`/ohhell settings language:` in a Norwegian client: its name, description and the
    choices through the translator (a language's own name stays as it is)."""
    h = await boot(sync=True)
    (ohhell,) = [localized(c, "no") for c in h.fake.synced[None]]
    settings = {o["name"]: o for o in ohhell["options"]}["innstillinger"]
    (language,) = [o for o in settings["options"] if o["name"] == "sprak"]
    assert [c["name"] for c in language["choices"]] == ["Automatisk", "English", "Norsk"]
    assert language["description"].startswith("Språket i bordmeldingene")


async def test_notices_are_in_the_language_of_the_person_told(h: Harness,
                                                             clock: ManualClock) -> None:
    """An English server: the Norwegian host is told in Norwegian that the bot cannot post
    the table; a Norwegian player whose DMs are closed is told so in Norwegian."""
    alice = h.member("alice", locale="no")
    bob, carol = h.member("bob", locale="no"), h.member("carol")
    h.fake.closed_dms.add(bob.id)
    d = Driver(h, [alice, bob, carol])
    await d.slash("ohhell start", alice)
    told = [_text(c) for c in await d.slash("ohhell join", bob) if c.audience == bob.id]
    assert [text for text in told if "Jeg kan ikke sende deg direktemeldinger" in text]
    await d.slash("ohhell join", carol)
    await d.slash("ohhell deal", alice)
    Faults(h).fail("PATCH", CHANNEL_MESSAGE, 403, 50013, times=1000, channel=h.channel)
    seat, m = d.awaited()[0]
    await d.act_slash(seat, m)
    await clock.advance(5)
    await drain()
    dm = h.fake.dm_of(alice.id)
    notices = [h.fake.messages[mid]["content"] for mid in h.fake.messages_in(dm)
               if h.fake.messages[mid]["content"]]
    assert len(notices) == 1 and "jeg mangler tilgang eller tillatelser" in notices[0]


async def test_a_forgotten_persons_locale_is_kept_afresh_when_they_come_back(h: Harness) -> None:
    """Forget-me deletes the stored locale; the running bot forgets it too, so when the person
    uses the bot again their locale is stored again (a restarted bot then DMs them in it),
    rather than taken as already known."""
    h.guild_locale = "en-US"
    alice, bob, carol = h.member("alice"), h.member("bob", locale="no"), h.member("carol")
    d = Driver(h, [alice, bob, carol])
    await d.lobby(max_cards=2, turn_timeout=0)
    await d.play_out("controls")
    await drain()
    store = h.bot.store  # type: ignore[attr-defined]
    assert await store.get_locale(bob.id) == "no"
    asked = answer_of(await h.send(h.slash("ohhell forget-me", bob)))
    answer_of(await h.send(h.click(asked.message_id or 0, "Glem meg", bob)))
    await drain()
    assert await store.get_locale(bob.id) is None
    await h.send(h.slash("ohhell stats", bob))
    await drain()
    assert await store.get_locale(bob.id) == "no"
