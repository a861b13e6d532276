"""The hand DM says what a player needs to decide without the table message: whose turn it is,
every bid so far, over or under, the trick in play, who is choosing trump, and in Ouch and
Extra Card how many cards were dealt and how many tricks are played."""

from __future__ import annotations

from bot.models import SeatView, TableOptions, TableStatus, TableView
from cogs import render
from engine import Bid, Card, Discard, Game, Phase, Play, Rules
from tests.discord.driver import Driver
from tests.discord.harness import Harness

NAMES = ("Ann", "Bob", "Cy", "Di")


def table(game: Game) -> TableView:
    seats = tuple(SeatView(seat=i, name=NAMES[i], user_id=700 + i, computer=None,
                           autopilot=False, timeouts_in_row=0, dm_message_id=None,
                           dm_hand_number=None, dm_failed=False)
                  for i in range(game.players))
    return TableView(table_id=1, guild_id=2, channel_id=3, message_id=4, host_id=700,
                     status=TableStatus.PLAYING, options=TableOptions(preset=game.rules.name),
                     rules=game.rules, seats=seats, state=game.public_state(), deadline=None,
                     warned=False, saves=1)


def dm(game: Game, seat: int) -> str:
    return render.hand_message(table(game), game.view(seat), dm=True).embed.description or ""


def table_text(game: Game) -> str:
    return render.table_message(table(game), render.TableExtras()).embed.description or ""


def test_while_others_bid_it_says_whose_turn_and_every_bid() -> None:
    game = Game.new(players=4, rules=Rules.preset("classic"), seed=5, dealer=0)
    game.apply(1, Bid(2))  # Bob bids first (the dealer's left)
    text = dm(game, 3)  # Di waits: Cy is to bid
    assert "▶ Cy to bid" in text
    assert "Bids: Ann – · Bob **2** · Cy – · you –" in text
    assert "Your turn" not in text
    mine = dm(game, 2)  # Cy's turn: the bids they need to decide are in their DM
    assert "Bids: Ann – · Bob **2** · you – · Di –" in mine and "**Your turn to bid**" in mine


def test_in_play_it_shows_over_under_and_the_trick() -> None:
    game = Game.new(players=4, rules=Rules.preset("classic"), seed=5, dealer=0)
    for seat, n in ((1, 2), (2, 3), (3, 1), (0, 0)):
        if n not in game.legal_bids():
            n = game.legal_bids()[0]
        game.apply(seat, Bid(n))
    total = sum(b or 0 for b in game.bids)
    tricks = game.public_state().tricks_in_hand
    card = game.legal_cards()[0]
    game.apply(1, Play(card))
    text = dm(game, 3)
    assert f"Bids total {total} for {tricks} tricks: **" in text
    assert f"Trick 1: Bob {card}" in text and "▶ Cy to play" in text
    assert "You bid **" in text


def test_the_dealer_choosing_trump_is_never_no_trump() -> None:
    game = Game.new(players=4, rules=Rules.preset("dealer_picks"), seed=2, dealer=0)
    assert game.phase is Phase.TRUMP_CHOICE
    waiting = dm(game, 2)
    assert "trump **the dealer is choosing trump**" in waiting and "no trump" not in waiting
    assert "▶ Ann to name trump" in waiting
    assert "trump **you name it**" in dm(game, 0)
    assert "the dealer is choosing trump" in table_text(game) and "no trump" not in table_text(
        game)


def test_ouch_says_cards_dealt_and_tricks_played() -> None:
    game = Game.new(players=4, rules=Rules.preset("ouch"), seed=1, dealer=0)
    size = game.hand_size
    expect = f"**{size} cards dealt**, 2 discarded: **{size - 2} tricks**"
    assert expect in dm(game, 1) and expect in table_text(game)
    for seat in range(4):
        game.apply(seat, Discard(tuple(game.view(seat).hand[:2])))
    assert expect in dm(game, 1)


def test_extra_card_says_the_extra_card() -> None:
    rules = Rules.preset("extra_card")
    game = Game.new(players=4, rules=rules, seed=1, dealer=0)
    planned = game.hand_size
    for seat in (1, 2, 3):
        game.apply(seat, Bid(0))
    game.apply(0, Bid(planned))  # the dealer makes the bids add up: everyone gets a card more
    assert game.hand_size == planned + 1
    expect = (f"**{planned + 1} cards** ({planned} dealt + 1 extra card): "
              f"**{planned + 1} tricks**")
    assert expect in dm(game, 2) and expect in table_text(game)


async def test_trump_buttons_and_discard_menus_say_their_suits_and_cards_in_words(
    h: Harness,
) -> None:
    members = [h.member("alice"), h.member("bob"), h.member("carol")]
    d = Driver(h, members)
    await d.lobby(preset="dealer_picks")
    ((_, dealer),) = d.awaited()
    buttons = h.components(d.hand_message(dealer))
    assert [b["label"] for b in buttons] == ["♣ Clubs", "♦ Diamonds", "♥ Hearts", "♠ Spades"]
    dm_text = h.fake.messages[d.hand_message(dealer)]["embeds"][0]["description"]
    assert "trump **you name it**" in dm_text
    await d.slash("ohhell end", members[0])

    d = Driver(h, members)
    await d.lobby(preset="ouch")
    seat, member = d.awaited()[0]
    (menu,) = h.components(d.hand_message(member))
    hand = d.svc.directory.seat_view(d.view().table_id, seat).hand
    assert {o["description"] for o in menu["options"]} == {c.name for c in hand}
    assert all(o["label"] == str(Card.parse(o["value"])) for o in menu["options"])
    assert menu["min_values"] == menu["max_values"] == 2
    await d.play_out("controls")  # the driver clicks by these labels: the whole game plays
