"""The largest tables still fit Discord's message limits (7 seats, long names, long games), and
a fact several messages show (over or under, a seat's result of a hand) reads the same in each."""

from __future__ import annotations

import random
from typing import Any

from bot.events import GameOver, RatingChange, Standing
from bot.models import SeatView, TableOptions, TableStatus, TableView
from cogs import render
from cogs.render import lines
from engine import Bid, Game, HandRecord, Phase, Play, Rules
from tests.discord.limits import check_message

LONG = "A Very Long Display Name Indeed!"  # 32 characters, Discord's longest


def _body(r: render.Render) -> dict[str, Any]:
    return {"content": r.content, "embeds": [r.embed.to_dict()],
            "components": view.to_components() if (view := r.controls_view()) is not None else []}


def _view(game: Game, rules: Rules, status: TableStatus) -> TableView:
    seats = tuple(SeatView(seat=i, name=f"{LONG[:31]}{i}", user_id=10**18 + i, computer=None,
                           autopilot=i == 2, timeouts_in_row=0, dm_message_id=None,
                           dm_hand_number=None, dm_failed=i == 3)
                  for i in range(game.players))
    return TableView(table_id=123456789, guild_id=10**18, channel_id=10**18 + 99,
                     message_id=10**18 + 7, host_id=10**18, status=status,
                     options=TableOptions(preset=rules.name, turn_timeout=86_400), rules=rules,
                     seats=seats, state=game.public_state(), deadline=None, warned=False,
                     saves=1)


def test_long_games_with_seven_long_names_fit() -> None:
    rules = Rules.preset("classic").model_copy(update={"hand_sizes": [7, 1, 2] * 10})
    game = Game.new(players=7, rules=rules, seed=1)
    rng = random.Random(1)
    largest = 0
    while game.phase is not Phase.GAME_OVER:
        seat = game.actor_seats()[0]
        if game.phase is Phase.BIDDING:
            game.bid(seat, rng.choice(game.legal_bids()))
        else:
            game.play(seat, rng.choice(game.legal_cards()))
        if game.phase is not Phase.GAME_OVER:
            view = _view(game, rules, TableStatus.PLAYING)
            body = _body(render.table_message(view, render.TableExtras(notes=["x" * 200] * 3)))
            assert check_message(body) == []
            pv = game.view(seat)
            assert check_message(_body(render.hand_message(view, pv, dm=True))) == []
            norwegian = render.hand_message(view, pv, dm=True, lang="nb")  # longer words
            assert check_message(_body(norwegian)) == []
            largest = max(largest, len(str(body)))
    view = _view(game, rules, TableStatus.FINISHED)
    over = GameOver(
        standings=tuple(Standing(i + 1, i, s.name, s.user_id, 100 - i) for i, s in
                        enumerate(view.seats)),
        winners=(0,), rating_changes=tuple(RatingChange(s.user_id, 1.5, 2.5, s.name)
                                           for s in view.seats))
    final = _body(render.table_message(view, render.TableExtras(game_over=over)))
    assert check_message(final) == []
    assert "Final standings" in str(final) and "```" in final["embeds"][0]["description"]
    sheet = render.scoresheet(view).to_dict()
    assert check_message({"embeds": [sheet]}) == []
    assert len(game.scoresheet) == 30 and largest > 0


def test_bid_buttons_for_the_largest_hand_fit() -> None:
    from bot.guard import Guard
    from cogs import views

    view = views.bid_controls(1, Guard(1, "b"), 17, [n for n in range(18) if n != 5])
    body = {"components": view.to_components(), "embeds": []}
    assert check_message(body) == []
    buttons = [c for row in body["components"] for c in row["components"]]
    assert len(buttons) == 18 and [b["disabled"] for b in buttons].count(True) == 1


def _move(game: Game, rng: random.Random) -> None:
    seat = game.actor_seats()[0]
    if game.phase is Phase.BIDDING:
        game.apply(seat, Bid(rng.choice(game.legal_bids())))
    else:
        game.apply(seat, Play(rng.choice(game.legal_cards())))


def _rows(text: str | None) -> list[str]:
    return (text or "").split("\n")


def test_over_or_under_reads_the_same_on_the_table_and_in_every_hand() -> None:
    """docs/rules.md section 5: the over/under total once bidding ends, on the table message and
    in each player's hand, in the same words."""
    assert lines.over_under_line(5, 3) == "Bids total 5 for 3 tricks: **over by 2**."
    assert lines.over_under_line(2, 7) == "Bids total 2 for 7 tricks: **under by 5**."
    assert lines.over_under_line(1, 1) == "Bids total 1 for 1 trick: **even**."
    rules = Rules.preset("classic").model_copy(update={"hand_sizes": [5, 4, 3, 2]})
    game = Game.new(players=4, rules=rules, seed=2, dealer=0)
    rng = random.Random(2)
    shown = 0
    while game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.PLAYING:
            st = game.public_state()
            line = lines.over_under_line(st.bid_total, st.tricks_in_hand)
            view = _view(game, rules, TableStatus.PLAYING)
            assert line in _rows(render.table_message(view, render.TableExtras()).embed.description)
            for seat in range(game.players):
                hand = render.hand_message(view, game.view(seat), dm=True)
                assert line in _rows(hand.embed.description), (seat, line)
            shown += 1
        _move(game, rng)
    assert shown == 4 * (5 + 4 + 3 + 2)  # before each card of every hand


def test_a_seats_result_reads_the_same_on_the_table_and_in_its_dms() -> None:
    """docs/rules.md section 5: after each hand, a row per player (bid, tricks, made or missed,
    points, total) on the table; each player's own DMs say their row in the same numbers, the
    hand's DM and the next hand's alike, and the final DM says the last one."""
    record = HandRecord(hand_number=3, hand_size=5, tricks_in_hand=5, dealer=0, trump_card=None,
                        trump_suit=None, bids=(2, 0), tricks=(3, 0), made=(False, True),
                        points=(-1, 10), totals=(14, 31))
    assert (lines.seat_result(record, 0), lines.seat_result(record, 1)) == (
        "2/3 ❌ -1 (14)", "0/0 ✅ +10 (31)")
    assert lines.your_result(record, 0) == (
        "You bid 2 and took 3: missed, -1 points (total 14).")
    rules = Rules.preset("classic").model_copy(update={"hand_sizes": [3, 2]})
    game = Game.new(players=4, rules=rules, seed=4, dealer=0)
    rng = random.Random(4)
    while not game.scoresheet:
        _move(game, rng)
    view = _view(game, rules, TableStatus.PLAYING)
    first = game.scoresheet[0]
    table = render.table_message(view, render.TableExtras()).embed.to_dict()
    result = next(f["value"] for f in table["fields"] if f["name"] == "Hand 1 result")
    assert _rows(result) == [f"{render.seat_label(s)} {lines.seat_result(first, s.seat)}"
                             for s in view.seats]
    for seat in range(game.players):
        mine = lines.your_result(first, seat)
        over = render.hand_over_message(view, seat, 1).embed.description
        assert _rows(over)[0] == mine
        hand = render.hand_message(view, game.view(seat), dm=True).embed.description
        assert f"Hand 1: {mine}" in _rows(hand)
    while game.phase is not Phase.GAME_OVER:
        _move(game, rng)
    view = _view(game, rules, TableStatus.FINISHED)
    last = game.scoresheet[-1]
    over_event = GameOver(standings=tuple(Standing(i + 1, i, s.name, s.user_id, 0)
                                          for i, s in enumerate(view.seats)),
                          winners=(0,), rating_changes=())
    for seat in range(game.players):
        final = render.hand_over_message(view, seat, 2, over=over_event).embed.description
        assert _rows(final)[0] == lines.your_result(last, seat)


def test_a_card_select_reads_each_readers_words_however_often_it_is_drawn() -> None:
    """The card options are made once per card and language: drawn for an English reader, a
    Norwegian one, then English again, each select names the cards in its reader's words."""
    from bot.guard import Guard
    from bot.i18n import Lang
    from cogs import views
    from engine import Card

    cards = [Card.parse(code) for code in ("QH", "10S")]

    def options(lang: Lang) -> list[tuple[str, str]]:
        view = views.play_controls(1, Guard(1, "p", 1), cards, lang=lang)
        (select,) = view.to_components()[0]["components"]
        return [(o["value"], o["description"]) for o in select["options"]]

    english = options("en")
    assert english == [("QH", "Queen of hearts"), ("10S", "10 of spades")]
    assert options("nb") == [("QH", "Hjerter dame"), ("10S", "Spar 10")]
    assert options("en") == english
