"""Every refusal is one ephemeral sentence, changes nothing, and costs no other Discord call."""

from __future__ import annotations

import pytest

from bot.tree import SORRY
from engine import Phase
from tests.discord.driver import Driver
from tests.discord.harness import CALLBACK, Call, Harness, Member


def refusal(calls: list[Call], user: Member) -> str:
    """The only call is an ephemeral answer to `user`; return its text."""
    assert len(calls) == 1, [(c.method, c.path) for c in calls]
    (c,) = calls
    assert c.path == CALLBACK and c.json["type"] == 4 and c.body["flags"] & 64
    assert c.audience == user.id
    return c.body["content"]


@pytest.fixture
async def game(h: Harness) -> Driver:
    d = Driver(h, [h.member("alice"), h.member("bob"), h.member("carol")], seed=3)
    await d.lobby(max_cards=3)
    return d


async def test_command_in_a_channel_without_a_table(h: Harness) -> None:
    alice = h.member("alice")
    for command, opts in (("ohhell bid", {"tricks": 1}), ("ohhell play", {"card": "AS"}),
                          ("ohhell join", {}), ("ohhell hand", {}), ("ohhell table", {}),
                          ("ohhell end", {}), ("ohhell scores", {})):
        calls = await h.send(h.slash(command, alice, **opts))
        assert refusal(calls, alice) == "There is no table in this channel."


async def test_wrong_turn_and_non_player(game: Driver) -> None:
    h = game.h
    view = game.view()
    assert view is not None and view.state is not None
    (_seat, actor), = game.awaited()
    other = next(m for m in game.members if m is not actor)
    version = view.saves
    text = refusal(await game.slash("ohhell bid", other, tricks=0), other)
    assert text.startswith("It is not your turn: waiting for")
    stranger = h.member("stranger")
    assert refusal(await game.slash("ohhell bid", stranger, tricks=0),
                   stranger) == "You are not in this game."
    assert refusal(await game.slash("ohhell hand", stranger), stranger) == (
        "You are not in this game.")
    assert game.view().saves == version  # nothing changed


async def test_hooked_bid_is_disabled_and_refused(game: Driver) -> None:
    h = game.h
    while True:  # bid until the dealer's turn
        view = game.view()
        st = view.state
        if st.turn == st.dealer:
            break
        seat, m = game.awaited()[0]
        await game.act_slash(seat, m)
    dealer = game.member(view.seats[st.dealer].user_id)
    hook = view.state.hook_bid
    assert hook is not None
    mid = game.hand_message(dealer)
    button = next(c for c in h.components(mid) if c["label"] == str(hook))
    assert button["disabled"]
    with pytest.raises(ValueError, match="disabled"):
        h.click(mid, str(hook), dealer)
    text = refusal(await game.slash("ohhell bid", dealer, tricks=hook), dealer)
    assert text.startswith(f"The dealer may not bid {hook}: the bids would add up"), text
    # a forged click on the disabled button (no client sends it) is refused the same way
    forged = h._from_message(mid, dealer, {"custom_id": button["custom_id"], "component_type": 2})
    assert refusal(await h.send(forged), dealer) == text


async def test_illegal_card_and_bad_text(game: Driver) -> None:
    h = game.h
    for _ in range(200):  # play on until someone must follow suit and could not play anything
        seat, m = game.awaited()[0]
        view = game.view()
        pv = game.svc.directory.seat_view(view.table_id, seat)
        if pv.phase is Phase.PLAYING and set(pv.hand) - set(pv.legal_cards):
            break
        await game.act_slash(seat, m)
    else:
        pytest.skip("no must-follow situation came up")
    wrong = next(c for c in pv.hand if c not in pv.legal_cards)
    text = refusal(await game.slash("ohhell play", m, card=wrong.code), m)
    assert "follow" in text.lower(), text
    assert refusal(await game.slash("ohhell play", m, card="banana"), m).startswith("'banana'")
    mine = set(pv.hand)
    other = next(c for c in (game.svc.directory.seat_view(view.table_id, s).hand
                             for s in range(3) if s != seat) for c in c if c not in mine)
    text = refusal(await game.slash("ohhell play", m, card=other.code), m)
    assert text == f"You do not hold the {other}."  # the card they typed, nothing more
    assert h.fake.take() == []


async def test_stale_buttons_are_refused_politely(game: Driver) -> None:
    h = game.h
    first = game.view()
    (seat, m), = game.awaited()
    old_dm = game.hand_message(m)
    old_button = h.components(old_dm)[0]["label"]
    while game.view() is not None and game.view().state.hand_number == 1:
        seat, actor = game.awaited()[0]
        await game.act_slash(seat, actor)
    # the hand-1 DM no longer shows controls, but a client that kept the old payload may click
    h.fake.messages[old_dm]["components"] = [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": old_button,
         "custom_id": f"ohhell:bid:{first.table_id}:1:{old_button}"}]}]
    text = refusal(await h.send(h.click(old_dm, old_button, m)), m)
    assert text == "That was for hand 1; hand 2 is in play now."
    live = h.fake.messages[first.message_id]["components"]
    await game.play_out("slash")
    assert [c["label"] for c in h.components(first.message_id)] == ["Rematch", "Replay"]
    h.fake.messages[first.message_id]["components"] = live  # as a lagging client shows it
    text = refusal(await h.send(h.click(first.message_id, "My hand", m)), m)
    assert text == "This table is closed: the game is over or was ended."


async def test_a_double_click_is_applied_once(game: Driver) -> None:
    h = game.h
    (seat, m), = game.awaited()
    mid = game.hand_message(m)
    version = game.view().saves
    calls = await h.dispatch_many([h.click(mid, "0", m), h.click(mid, "0", m)])
    answers = [c for c in calls if c.path == CALLBACK]
    assert len(answers) == 2
    kinds = sorted(c.json["type"] for c in answers)
    assert kinds == [4, 7]  # one updated the hand, the other was refused ephemerally
    refused = next(c for c in answers if c.json["type"] == 4)
    assert refused.body["flags"] & 64
    assert refused.body["content"] == "That menu is out of date: you already bid 0."
    view = game.view()
    assert view.state.bids[seat] == 0 and view.saves > version
    assert sum(b is not None for b in view.state.bids) == 1


async def test_only_the_host_deals_and_managers_may_end(h: Harness) -> None:
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    d = Driver(h, [alice, bob, carol])
    await d.slash("ohhell start", alice)
    await d.slash("ohhell join", bob)
    assert refusal(await d.slash("ohhell deal", bob), bob) == "Only the host can deal."
    assert refusal(await d.slash("ohhell end", bob), bob) == (
        "Only the host or a server manager can end this game.")
    boss = h.member("boss", admin=True)
    calls = await d.slash("ohhell end", boss)
    assert calls[0].body["content"] == "The table is closed."
    assert d.view() is None


async def test_settings_need_manage_server(h: Harness) -> None:
    alice = h.member("alice")
    text = refusal(await h.send(h.slash("ohhell settings", alice, preset="vanikar")), alice)
    assert text == "You need the Manage Server permission to do that."
    boss = h.member("boss", admin=True)
    calls = await h.send(h.slash("ohhell settings", boss, preset="vanikar"))
    assert calls[0].body["content"].startswith("Saved.")


async def test_an_unexpected_error_is_logged_and_answered(game: Driver,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    h = game.h
    (_seat, m), = game.awaited()

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the disk is on fire")

    monkeypatch.setattr(game.svc, "act", broken)
    assert refusal(await game.slash("ohhell bid", m, tricks=0), m) == SORRY
    mid = game.hand_message(m)
    assert refusal(await h.send(h.click(mid, "0", m)), m) == SORRY
    logged = [r for r in h.fake.errors if "the disk is on fire" in repr(r.exc_info)]
    assert len(logged) == 2 and "/ohhell bid by user" in logged[0].getMessage()
    h.fake.errors.clear()


async def test_an_out_of_date_control_is_still_answered(h: Harness) -> None:
    alice = h.member("alice")
    calls = await h.send(h.slash("ohhell start", alice))
    mid = calls[0].message_id
    msg = h.fake.messages[mid]
    msg["components"] = [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "Old", "custom_id": "ohhell:shuffle:1"}]}]
    h.fake.messages[mid] = msg
    text = refusal(await h.send(h.click(mid, "Old", alice)), alice)
    assert "out of date" in text
