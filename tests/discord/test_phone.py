"""What reads on a phone: the scoresheet within 35 characters, whole names, no cell that reads
like a minus sign, "1 pt", footers without raw mentions, and /ohhell help."""

from __future__ import annotations

import dataclasses
import random
import re

from bot.models import SeatView, TableOptions, TableStatus, TableView
from cogs import render
from engine import Game, Phase, Rules

NAMES = ("Alexandrina Featherstonehaugh", "Bob", "Ørjan Ødegård-Nilsen", "Li")


def played(players: int = 4, hands: int = 9, seed: int = 3) -> Game:
    rules = Rules.preset("classic").model_copy(update={"hand_sizes": [3, 2, 1] * (hands // 3)})
    game = Game.new(players=players, rules=rules, seed=seed)
    rng = random.Random(seed)
    while game.phase is not Phase.GAME_OVER:
        seat = game.actor_seats()[0]
        if game.phase is Phase.BIDDING:
            game.bid(seat, rng.choice(game.legal_bids()))
        else:
            game.play(seat, rng.choice(game.legal_cards()))
    return game


def table(game: Game, status: TableStatus = TableStatus.FINISHED) -> TableView:
    seats = tuple(SeatView(seat=i, name=NAMES[i % len(NAMES)], user_id=500 + i, computer=None,
                           autopilot=False, timeouts_in_row=0, dm_message_id=None,
                           dm_hand_number=None, dm_failed=False)
                  for i in range(game.players))
    return TableView(table_id=1, guild_id=2, channel_id=3, message_id=4, host_id=500,
                     status=status, options=TableOptions(preset="classic"), rules=game.rules,
                     seats=seats, state=game.public_state(), deadline=None, warned=False,
                     saves=1)


def code_block(text: str) -> list[str]:
    return text.split("```\n", 1)[1].rsplit("\n```", 1)[0].splitlines()


def test_the_scoresheet_fits_a_phone_with_whole_names() -> None:
    game = played()
    view = table(game)
    text = render.scoresheet_text(view)
    lines = code_block(text)
    assert max(len(line) for line in lines) <= render.PHONE_WIDTH, "\n".join(lines)
    for seat, name in enumerate(NAMES):  # whole names, each with its total
        total = game.scores[seat]
        at = next(i for i, line in enumerate(lines) if line.startswith(name))
        shown = lines[at].removeprefix(name).strip() or lines[at + 1].strip()  # long: below
        assert shown == render.points(total), (name, lines)
    # every hand of every player, as bid/took with made or missed; nothing like "3/1- 1"
    cells = re.findall(r"\d+/\d+[✓✗]", "\n".join(lines))
    assert len(cells) == len(game.scoresheet) * game.players
    assert not re.search(r"\d[-+] ?\d", "\n".join(lines))
    for record in game.scoresheet:
        for seat in range(game.players):
            mark = "✓" if record.made[seat] else "✗"
            assert f"{record.bids[seat]}/{record.tricks[seat]}{mark}" in text


def test_a_long_sheet_keeps_the_latest_hands() -> None:
    game = played(hands=30)
    text = render.scoresheet_text(table(game), limit=500)
    assert len(text) <= 500
    lines = code_block(text)
    first = int(re.search(r"from hand (\d+)", lines[0]).group(1))  # type: ignore[union-attr]
    assert 1 < first <= 30 and all(name in text for name in NAMES)


def test_one_point_is_one_pt() -> None:
    assert (render.points(1), render.points(-1), render.points(0), render.points(12)) == (
        "1 pt", "-1 pt", "0 pts", "12 pts")
    game = Game.new(players=4, rules=Rules.preset("classic"), seed=1)
    view = table(game, TableStatus.PLAYING)
    state = dataclasses.replace(view.state, scores=(1, 2, 0, 11))  # type: ignore[arg-type]
    embed = render.table_message(dataclasses.replace(view, state=state),
                                 render.TableExtras()).embed
    values = [field.value or "" for field in embed.fields]
    assert values[0].endswith("\n1 pt") and values[1].endswith("\n2 pts")


def test_footers_hold_names_not_raw_mentions() -> None:
    game = Game.new(players=4, rules=Rules.preset("classic"), seed=1)
    view = table(game, TableStatus.PLAYING)
    notes = ["Ended by <@500>.", "<@501> left.", "Ended by <@!999>."]
    embed = render.table_message(view, render.TableExtras(notes=notes)).embed
    footer = embed.footer.text or ""
    assert "<@" not in footer
    assert footer.splitlines() == [f"Ended by {NAMES[0]}.", "Bob left.", "Ended by a moderator."]
    closed = render.table_message(dataclasses.replace(view, status=TableStatus.CANCELLED),
                                  render.TableExtras(notes=["Ended by <@500>."])).embed
    assert closed.footer.text == f"Ended by {NAMES[0]}."


def test_help_says_how_to_play_here() -> None:
    text = render.help_embed().description or ""
    for words in ("/ohhell start", "**Join**", "**Deal**", "DM", "**My hand**", "/ohhell hand",
                  "**Bid**", "**play**", "/ohhell rules", "/ohhell scores"):
        assert words in text, words
    assert len(text.splitlines()) <= 8
