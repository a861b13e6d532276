"""Every answer the cogs give, in Norwegian through Discord's real pipeline (issue 27): the
lobby and play commands, the rematch and an out-of-date control, the card select and the card
autocomplete, settings, leaderboard and stats, and looking back (history, replay, export,
the lesson, forgetting).

Who reads what (docs/discord.md): an ephemeral answer is in the asker's locale, what the channel
reads (leaderboard, stats) in the server's. Each answer is checked with the English-word
detector of tests/discord/test_language.py, players' names aside, and the Driver checks every
payload against Discord's limits. English clients read the same answers in English: the other
test files assert those texts."""

from __future__ import annotations

from typing import Any

from bot import archive
from bot.card_words import card_name
from bot.replay_text import hand_starts, steps
from engine import Card, Phase, sort_hand
from engine.cards import ALL_CARDS
from tests.discord.driver import Driver
from tests.discord.harness import Call, Harness, Member, drain
from tests.discord.test_forged_input import forged_click
from tests.discord.test_history import store_of, stored_games
from tests.discord.test_language import ENGLISH, _text, _words

NO = "no"  # Discord's locale for Norwegian


class Reader:
    """Sends interactions and reads their answers (the interaction's callback and followups,
    not the presenter's own messages), asserting each is Norwegian apart from `names` (the
    players' and the server's)."""

    def __init__(self, d: Driver, names: set[str]) -> None:
        guild = d.h.bot.get_guild(d.h.guild_id)
        assert guild is not None
        self.d, self.names = d, set().union(*map(_words, {*names, guild.name}))

    async def answer(self, payload: dict[str, Any]) -> str:
        calls = await self.d.send(payload)
        return self.check(calls)

    async def slash(self, command: str, user: Member, /, **opts: Any) -> str:
        return self.check(await self.d.slash(command, user, **opts))

    def check(self, calls: list[Call]) -> str:
        text = "\n".join(_text(c) for c in calls if not c.is_rest and c.body)
        assert text, calls
        english = _words(text) & ENGLISH - self.names
        assert english == set(), (english, text)
        return text


def _norwegian_members(h: Harness) -> list[Member]:
    h.guild_locale = NO
    return [h.member("alice", admin=True, locale=NO), h.member("bob", locale=NO),
            h.member("carol", locale=NO)]


def _options(h: Harness, message_id: int) -> list[dict[str, Any]]:
    return [o for c in h.components(message_id) if c["type"] == 3 for o in c["options"]]


async def test_the_lobby_the_play_and_the_rematch_answer_in_norwegian(h: Harness) -> None:
    alice, bob, carol = _norwegian_members(h)
    dave = h.member("dave", locale=NO)
    d = Driver(h, [alice, bob, carol])
    said = Reader(d, {"alice", "bob", "carol", "dave"})
    await d.slash("ohhell start", alice, max_cards=2, turn_timeout=0)
    assert "Kortene dine kommer på DM" in await said.slash("ohhell join", bob)
    await said.slash("ohhell join", dave)
    assert await said.slash("ohhell leave", dave) == "Du forlot bordet."
    assert await said.slash("ohhell addbot", alice) == "En datamaskinspiller tok en plass."
    await said.slash("ohhell join", carol)
    assert "Kortene er gitt" in await said.slash("ohhell deal", alice)
    view = d.view()
    assert view is not None and view.message_id is not None
    said.names |= set().union(*(_words(s.name) for s in view.seats))
    assert "Lagret." in await said.slash("ohhell settings", alice, turn_timeout=0)
    await said.slash("ohhell leaderboard", bob)
    await said.slash("ohhell stats", bob, member=carol)
    out_of_date = forged_click(h, bob, f"ohhell:old:{view.table_id}", channel=h.channel)
    assert "utdatert" in await said.answer(out_of_date)
    seen = {"bid": 0, "play": 0, "select": 0}
    while (awaited := d.awaited()):
        seat, member = awaited[0]
        kind, _ = d.move_for(seat)
        if kind == "play":
            hand = (await d.slash("ohhell hand", member))[0]
            descriptions = [o["description"] for o in _options(h, hand.message_id or 0)]
            assert descriptions and said.check([hand])
            assert _words(" ".join(descriptions)) & ENGLISH == set(), descriptions
            seen["select"] += 1
            calls = await h.send(h.autocomplete("ohhell play", member, "card", ""))
            offered = [c["name"] for c in calls[0].json["data"]["choices"]]
            assert offered and _words(" ".join(offered)) & ENGLISH == set(), offered
            waiting = next(m for m in (alice, bob, carol) if m is not member)
            calls = await h.send(h.autocomplete("ohhell play", waiting, "card", ""))
            assert all("ikke din tur" in c["name"] for c in calls[0].json["data"]["choices"])
        text = said.check(await d.act_slash(seat, member))
        assert text.startswith("Du melder" if kind == "bid" else "Du spilte"), text
        seen[kind] += 1
    await drain()
    assert min(seen.values()) > 0, seen
    rematch = h.click(view.message_id, user=alice, custom_id=f"ohhell:rematch:{view.table_id}")
    text = await said.answer(rematch)
    assert text.startswith("Omkampbordet er åpnet nedenfor; 1 datamaskinspiller"), text
    assert await said.slash("ohhell end", alice) == "Bordet er stengt."


async def test_history_replay_export_learn_and_forgetting_answer_in_norwegian(
        h: Harness) -> None:
    alice, bob, carol = members = _norwegian_members(h)
    d = Driver(h, members)
    table = await d.lobby(max_cards=2, bots=1, turn_timeout=0)
    await d.play_out("controls")
    await drain()
    game_id = await store_of(h).game_for_table(table.table_id)
    assert game_id is not None
    await stored_games(h, 5)
    said = Reader(d, {s.name for s in table.seats} | {"dora", "ed"})

    first = (await d.slash("ohhell history", bob))
    said.check(first)
    page = first[0].message_id or 0
    assert [c["label"] for c in h.components(page)] == ["Eldre"]
    older = await said.answer(h.click(page, "Eldre", bob))
    assert f"`#{game_id}` <t:" in older and " runder · [bord](" in older
    assert [c["label"] for c in h.components(page)] == ["Nyeste"]
    title = await said.slash("ohhell history", bob, member=carol, preset="classic")
    assert title.startswith(f"Ferdige spill i klassisk med <@{carol.id}>"), title

    calls = await h.send(h.autocomplete("ohhell replay", bob, "game", "klassisk"))
    offered = [c["name"] for c in calls[0].json["data"]["choices"]]
    assert len(offered) == 1 and "klassisk" in offered[0], offered
    exported = archive.export_game(await archive.tell(store_of(h), h.guild_id, game_id))
    told = steps(exported, "nb")
    replay = await d.slash("ohhell replay", bob, game=game_id)
    shown = [said.check(replay)]
    message = replay[0].message_id or 0
    while "Neste ›" in [c["label"] for c in h.components(message) if not c.get("disabled")]:
        shown.append(await said.answer(h.click(message, "Neste ›", bob)))
    assert len(shown) == len(told) and "Sluttstilling:" in shown[-1]
    assert all("\n".join(lines) in text for lines, text in zip(told, shown, strict=True))
    back = await said.answer(h.click(message, "« Runde", bob))
    assert "\n".join(told[hand_starts(exported)[-1]]) in back and " gir; " in back

    export = await said.slash("ohhell export", bob, game=game_id)
    assert export.startswith(f"Spill #{game_id}: hele spillet som JSON")
    assert "én rad per spiller" in await said.slash("ohhell export", alice)
    lesson = await d.slash("ohhell learn", bob)
    told = [said.check(lesson)]
    for label in ("1", "2", "A♥", "6♦", "J♠"):  # 1: off the lesson, explained and asked again
        told.append(await said.answer(h.click(lesson[0].message_id or 0, label, bob)))
    assert told[0].startswith("Oh Hell: din første runde\nOh Hell, en første runde.")
    assert "I denne leksjonen melder du 2" in told[1] and "Prøv igjen." in told[1]
    assert "Sam kan ikke melde 0" in told[2]
    assert "Du vinner det siste stikket." in told[-1] and "10 + 2 = 12" in told[-1]

    asked = (await d.slash("ohhell forget-me", bob))
    assert "Dette kan ikke angres." in said.check(asked)
    confirm = asked[0].message_id or 0
    assert [c["label"] for c in h.components(confirm)] == ["Glem meg", "Behold alt"]
    assert await said.answer(h.click(confirm, "Behold alt", bob)) == "Ingenting ble slettet."
    asked = (await d.slash("ohhell forget-me", bob))
    gone = await said.answer(h.click(asked[0].message_id or 0, "Glem meg", bob))
    assert "på alle servere; 1 ferdig spill viser nå «en tidligere spiller»" in gone, gone
    gone = await said.slash("ohhell forget", alice, member=carol)
    assert gone.startswith(f"Ferdig: navnet til <@{carol.id}> (carol) er borte"), gone


async def test_an_english_client_reads_the_card_select_as_before(h: Harness) -> None:
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    d = Driver(h, [alice, bob, carol])
    await d.lobby(max_cards=2)
    while (view := d.view()) is not None and view.state is not None \
            and view.state.phase is not Phase.PLAYING:
        seat, member = d.awaited()[0]
        await d.act_slash(seat, member)
    seat, member = d.awaited()[0]
    hand = (await d.slash("ohhell hand", member))[0]
    pv = d.svc.directory.seat_view(d.view().table_id, seat)
    options = _options(h, hand.message_id or 0)
    assert [(o["label"], o["description"]) for o in options] == [
        (str(c), c.name) for c in sort_hand(list(pv.legal_cards))]


def test_cards_read_as_norwegian_players_say_them() -> None:
    """Suit then rank ("hjerter dame"), the special cards by their Norwegian names; English
    reads the engine's own names."""
    assert [card_name(Card.parse(code), "nb") for code in ("QH", "10S", "AC", "JD", "JKH")] == [
        "Hjerter dame", "Spar 10", "Kløver ess", "Ruter knekt", "Høy joker"]
    assert [card_name(c) for c in ALL_CARDS] == [c.name for c in ALL_CARDS]
    assert all(_words(card_name(c, "nb")) & ENGLISH == set() for c in ALL_CARDS)
