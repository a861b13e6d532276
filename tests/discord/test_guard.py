"""Every move control names the decision it was drawn for: a stale menu or a second pick from
one menu is refused in plain words, ephemerally, and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Card, Phase
from tests.discord.driver import Driver
from tests.discord.harness import CALLBACK, Call, Harness, Member


@pytest.fixture
async def game(h: Harness) -> Driver:
    d = Driver(h, [h.member("alice"), h.member("bob"), h.member("carol")], seed=5)
    await d.lobby(max_cards=4)
    return d


def refused_text(calls: list[Call], user: Member) -> str:
    """The one answer to `user` is an ephemeral sentence, and nothing else was sent."""
    assert [(c.method, c.path) for c in calls] == [("POST", CALLBACK)], calls
    (c,) = calls
    assert c.json["type"] == 4 and c.body["flags"] & 64 and c.audience == user.id
    return str(c.body["content"])


async def _to_a_card_choice(game: Driver) -> tuple[int, Member, list[Card]]:
    """Play on (by slash command) until a person must pick a card from two or more."""
    for _ in range(200):
        seat, m = game.awaited()[0]
        pv = game.svc.directory.seat_view(game.view().table_id, seat)
        if pv.phase is Phase.PLAYING and len(pv.legal_cards) >= 2:
            return seat, m, list(pv.legal_cards)
        await game.act_slash(seat, m)
    raise AssertionError("no choice of two cards came up")


def _held(game: Driver, seat: int) -> tuple[Card, ...]:
    return tuple(game.svc.directory.seat_view(game.view().table_id, seat).hand)


def _picks(game: Driver, m: Member, cards: list[Card]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two picks of different cards from the member's one card menu, as a client sends them."""
    mid = game.hand_message(m)
    return game.h.select(mid, [cards[0].code], m), game.h.select(mid, [cards[1].code], m)


async def test_two_picks_from_one_menu_at_once_play_one_card(game: Driver) -> None:
    seat, m, cards = await _to_a_card_choice(game)
    before = _held(game, seat)
    calls = await game.h.dispatch_many(list(_picks(game, m, cards)))
    answers = [c for c in calls if c.path == CALLBACK]
    assert len(answers) == 2
    refused = next(c for c in answers if c.json["type"] == 4)
    assert refused.body["flags"] & 64 and refused.audience == m.id
    played = set(before) - set(_held(game, seat))
    assert len(played) == 1, played  # one card left the hand, not two
    (card,) = played
    assert refused.body["content"] == f"That menu is out of date: you already played {card}."


async def test_a_second_pick_after_the_first_is_refused_and_changes_nothing(
        game: Driver) -> None:
    seat, m, cards = await _to_a_card_choice(game)
    first, second = _picks(game, m, cards)
    await game.h.send(first)
    view = game.view()
    held = _held(game, seat) if view is not None else ()
    text = refused_text(await game.h.send(second), m)
    if view is not None and game.view() is not None and view.hand_number == \
            game.view().hand_number:
        assert text == f"That menu is out of date: you already played {cards[0]}."
        assert game.view().saves == view.saves and _held(game, seat) == held
    else:  # the first card ended the hand: the menu's hand is over
        assert text.startswith("That was for hand")


async def test_a_stale_menu_from_an_earlier_trick_is_refused(game: Driver) -> None:
    seat, m, cards = await _to_a_card_choice(game)
    stale = game.h.select(game.hand_message(m), [cards[1].code], m)
    hand = game.view().hand_number
    await game.h.send(game.h.select(game.hand_message(m), [cards[0].code], m))
    # the others play on until this seat leads or follows again in the same hand
    for _ in range(50):
        view = game.view()
        if view is None or view.hand_number != hand:
            pytest.skip("the hand ended before the seat was asked again")
        (actor_seat, actor), = game.awaited()
        if actor_seat == seat:
            break
        await game.act_slash(actor_seat, actor)
    version = game.view().saves
    held = _held(game, seat)
    text = refused_text(await game.h.send(stale), m)
    assert text == f"That menu is out of date: you already played {cards[0]}."
    assert game.view().saves == version and _held(game, seat) == held


async def test_a_double_click_on_a_bid_button_back_to_back(game: Driver) -> None:
    h = game.h
    (seat, m), = game.awaited()
    mid = game.hand_message(m)
    first, second = h.click(mid, "1", m), h.click(mid, "1", m)
    await h.send(first)
    version = game.view().saves
    assert refused_text(await h.send(second), m) == "That menu is out of date: you already bid 1."
    assert game.view().saves == version
    assert game.view().state.bids[seat] == 1


async def test_guards_ride_in_the_custom_ids(game: Driver) -> None:
    h = game.h
    (_seat, m), = game.awaited()
    ids = [c["custom_id"] for c in h.components(game.hand_message(m))]
    hand = game.view().hand_number
    assert all(i.startswith(f"ohhell:bid:{game.view().table_id}:{hand}b0:") for i in ids), ids
    _, m2, _ = await _to_a_card_choice(game)
    (select,) = h.components(game.hand_message(m2))
    st = game.view().state
    assert select["custom_id"].endswith(f":{st.hand_number}p{st.trick_number}")
