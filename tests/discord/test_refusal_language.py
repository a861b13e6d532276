"""Refusals in the person's own language (docs/discord.md: every interaction carries its
user's locale): through discord.py's real pipeline, someone whose client is Norwegian (`no`)
reads each refusal in Norwegian Bokmål, fields in place, and an English client at the same
server still reads English."""

from __future__ import annotations

import pytest

from engine import Phase, Suit
from tests.discord.driver import Driver
from tests.discord.harness import Harness, Member
from tests.discord.test_forged_input import forged_slash
from tests.discord.test_language import ENGLISH, _words
from tests.discord.test_refusals import refusal


def norwegian(text: str) -> str:
    """The text, once checked to hold no English word (player names aside)."""
    assert _words(text) & ENGLISH == set(), text
    return text


@pytest.fixture
def members(h: Harness) -> tuple[Member, Member, Member]:
    h.guild_locale = "no"
    return (h.member("alice", locale="no"), h.member("bob", locale="no"),
            h.member("carol", locale="en-GB"))


async def test_no_table_here_is_said_in_norwegian(h: Harness,
                                                  members: tuple[Member, ...]) -> None:
    alice, _, carol = members
    text = refusal(await h.send(h.slash("ohhell bid", alice, tricks=1)), alice)
    assert norwegian(text) == "Det er ikke noe bord i denne kanalen."
    text = refusal(await h.send(h.slash("ohhell bid", carol, tricks=1)), carol)
    assert text == "There is no table in this channel."


async def test_turn_seat_and_card_refusals_read_norwegian(h: Harness,
                                                          members: tuple[Member, ...]) -> None:
    d = Driver(h, list(members), seed=3)
    await d.lobby(max_cards=3)
    (_seat, actor), = d.awaited()
    other = next(m for m in d.members if m is not actor and m.locale == "no")
    text = refusal(await d.slash("ohhell bid", other, tricks=0), other)
    assert norwegian(text).startswith("Det er ikke din tur: venter på ")
    stranger = h.member("stranger", locale="no")
    text = refusal(await d.slash("ohhell hand", stranger), stranger)
    assert norwegian(text) == "Du er ikke med i dette spillet."
    text = refusal(await d.slash("ohhell play", other, card="zz"), other)
    assert norwegian(text).startswith("'zz' er ikke et kort: skriv verdien og så fargen")
    english = next(m for m in d.members if m.locale != "no")
    if english is not actor:
        text = refusal(await d.slash("ohhell bid", english, tricks=0), english)
        assert text.startswith("It is not your turn: waiting for ")


async def test_host_rules_and_permissions_are_refused_in_norwegian(
        h: Harness, members: tuple[Member, ...]) -> None:
    alice, bob, _ = members
    d = Driver(h, [alice, bob])
    await d.slash("ohhell start", alice)
    await d.slash("ohhell join", bob)
    assert norwegian(refusal(await d.slash("ohhell deal", bob), bob)) == "Bare verten kan gi."
    text = refusal(await d.slash("ohhell deal", alice), alice)
    assert norwegian(text) == ("Klassisk Oh Hell trenger minst 3 spillere; det er 2. Be andre "
                               "bli med eller legg til datamaskinspillere.")
    text = refusal(await h.send(h.slash("ohhell settings", bob, preset="vanikar")), bob)
    assert norwegian(text) == "Du trenger tillatelsen Administrer server for å gjøre det."


async def test_a_forged_option_value_is_refused_in_norwegian(
        h: Harness, members: tuple[Member, ...]) -> None:
    alice = members[0]
    payload = forged_slash(h, "ohhell start", alice, {"max_cards": 3}, {"max_cards": 999})
    text = refusal(await h.send(payload), alice)
    assert norwegian(text).startswith("Valget maks_kort tar 1 til ")
    assert text.endswith("; ingenting ble endret.")


@pytest.mark.parametrize("preset", ["classic", "kachuful", "ouch", "wizard", "super_screw"])
async def test_the_rules_of_a_preset_read_norwegian(h: Harness, members: tuple[Member, ...],
                                                    preset: str) -> None:
    alice, _, carol = members
    (call,) = [c for c in await h.send(h.slash("ohhell rules", alice, preset=preset))
               if c.body]
    (embed,) = call.body["embeds"]
    text = f"{embed['title']}\n{embed['description']}"
    assert norwegian(text).count("•") >= 6
    assert "trumf" in text and "spillere" in text
    (call,) = [c for c in await h.send(h.slash("ohhell rules", carol, preset=preset))
               if c.body]
    assert "players" in call.body["embeds"][0]["description"]


NORWEGIAN_SUITS = {Suit.CLUBS: "kløver", Suit.DIAMONDS: "ruter", Suit.HEARTS: "hjerter",
                   Suit.SPADES: "spar"}
NORWEGIAN_RANKS = {11: "knekt", 12: "dame", 13: "konge", 14: "ess"}


async def test_a_card_named_in_norwegian_is_played(h: Harness,
                                                   members: tuple[Member, ...]) -> None:
    d = Driver(h, [*members[:2], h.member("dora", locale="no")], seed=5)
    await d.lobby(max_cards=3)
    while d.view().state.phase is not Phase.PLAYING:
        seat, member = d.awaited()[0]
        await d.act_slash(seat, member)
    seat, member = d.awaited()[0]
    card = d.svc.directory.seat_view(d.view().table_id, seat).legal_cards[0]
    assert card.suit is not None
    said = f"{NORWEGIAN_SUITS[card.suit]} {NORWEGIAN_RANKS.get(card.rank, card.rank)}"
    before = d.view().saves
    await d.slash("ohhell play", member, card=said)
    assert d.view().saves > before
    assert any(c == card for _, c in d.view().state.current_trick)
