"""A player's private messages: their hand (a DM, or the ephemeral `My hand`), the DM a hand
leaves once it is over, and the welcome DM when they sit down.

Only this seat's cards appear here (docs/rules.md section 5), with the public facts a player
needs to decide without looking at the table message.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.events import GameOver
from bot.guard import Guard
from bot.models import SeatView, TableStatus, TableView
from cogs import views
from cogs.render.body import BLUE, GOLD, GREY, Render
from cogs.render.lines import (
    ACTION_WORDS,
    deal_text,
    hand_title,
    over_under_line,
    seat_label,
    timestamp,
    trick_text,
    trump_now,
    your_result,
)
from cogs.render.scores import EXACT_BID_RULE, exact_bid_game, exact_bid_text
from engine import Card, Phase, PlayerView, Suit, sort_hand


def hand_message(view: TableView, pv: PlayerView, *, dm: bool) -> Render:
    """A player's own hand, and what they need to decide without looking at the table message:
    trump, whose turn it is, every bid so far, over or under, the trick in play; the cards they
    may play marked, and controls when it is their turn."""
    tid = view.table_id
    seats = view.seats
    where = f" at <#{view.channel_id}>" if dm else ""
    trump = trump_now(pv.phase, pv.trump_card, pv.trump_suit, pv.dealer == pv.seat,
                      pv.super_trump, pv.rules.bid_before_trump and pv.phase.bidding)
    lines = [f"{deal_text(view, pv.hand_number, pv.hand_size)} · trump **{trump}** · "
             f"dealer {_you_or(seats, pv.dealer, pv.seat)}{where}"]
    if not pv.to_act and pv.actor_seats:
        who = ", ".join(_you_or(seats, s, pv.seat) for s in pv.actor_seats)
        lines.append(f"▶ {who} {ACTION_WORDS.get(pv.phase.awaits, 'to play')}")
    if any(pv.has_bid):
        lines.append("Bids: " + " · ".join(
            f"{_you_or(seats, s, pv.seat)} "
            + ("–" if not pv.has_bid[s] else "?" if b is None else f"**{b}**")
            for s, b in enumerate(pv.bids)))
    if pv.over_under is not None:
        lines.append(over_under_line(sum(b or 0 for b in pv.bids), pv.tricks_in_hand))
    bid = pv.bids[pv.seat]
    if bid is not None and pv.phase is Phase.PLAYING:
        lines.append(f"You bid **{bid}** and have won **{pv.tricks_won[pv.seat]}**.")
    elif bid is None and pv.scoresheet and pv.phase.bidding:  # how the last hand went
        rec = pv.scoresheet[-1]
        lines.append(f"Hand {rec.hand_number}: {your_result(rec, pv.seat)}")
    if pv.phase is Phase.PLAYING and (pv.current_trick or not pv.to_act):
        trick = (trick_text(pv.current_trick, seats, pv.declarations, pv.trump_suit)
                 or "nothing led yet")
        lines.append(f"Trick {pv.trick_number}: {trick}")
    legal = pv.legal_cards if pv.to_act and pv.phase is Phase.PLAYING else ()
    if pv.blind and not pv.hand:
        lines.append("This is a blind hand: you bid before you see your cards.")
    else:
        lines.append(f"\n{cards_text(pv.hand, legal)}")
    if pv.discarded:
        lines.append(f"Discarded: {cards_text(pv.discarded)}")
    held_kinds = {card.kind for card in pv.hand}
    for card, worth in pv.card_values:  # what the special cards in this hand are worth
        if card.kind in held_kinds and (card.special or card in pv.hand):
            lines.append(f"{card}: {worth}.")
    control: discord.ui.View | None = None
    if pv.to_act:
        deadline = f" · time runs out {timestamp(view.deadline)}" if view.deadline else ""
        guard = Guard.of(pv)
        if pv.phase.bidding:
            hook = (f" (not {pv.hook_bid}: the hook)"
                    if pv.hook_bid is not None and pv.hook_bid not in pv.legal_bids else "")
            lines.append(f"\n**Your turn to bid**{hook}{deadline}")
            control = views.bid_controls(tid, guard, pv.hand_size, pv.legal_bids)
        elif pv.phase is Phase.PLAYING:
            lead = "" if pv.current_trick else "\nYou lead."
            lines.append(f"\n**Your turn to play**{deadline}{lead}")
            control = views.play_controls(tid, guard, pv.legal_cards, pv.legal_declarations,
                                          pv.trump_suit)
        elif pv.phase is Phase.TRUMP_CHOICE:
            lines.append(f"\n**Name trump**{deadline}")
            control = views.trump_controls(tid, guard, pv.legal_trumps)
        elif pv.phase is Phase.DISCARD:
            lines.append(f"\n**Discard {pv.discards_needed}** face down{deadline}")
            control = views.discard_controls(tid, guard, pv.hand, pv.discards_needed)
    e = discord.Embed(title=f"Your hand · {hand_title(pv.hand_number, pv.hand_count)}",
                      colour=GOLD if pv.to_act else BLUE, description="\n".join(lines))
    return Render(e, control, controls=control is not None)


def _you_or(seats: Sequence[SeatView], seat: int, you: int) -> str:
    return "you" if seat == you else seat_label(seats[seat])


def cards_text(cards: Sequence[Card], legal: Sequence[Card] = ()) -> str:
    """A hand sorted by suit then rank, suits apart; legal cards in bold when given."""
    marked = set(legal)
    groups: dict[Suit | None, list[str]] = {}  # special cards (no suit) last
    for c in sort_hand(list(cards)):
        groups.setdefault(c.suit, []).append(f"**{c}**" if c in marked else str(c))
    return "   ".join(" ".join(g) for g in groups.values()) or "(no cards)"


def hand_over_message(view: TableView, seat: int, hand_number: int, *,
                      over: GameOver | None = None, departed: str | None = None) -> Render:
    """A DM whose hand is finished, no cards and no controls: the player's line of the
    scoresheet; at the end of the game the final standings and their place; for a player who
    left or was removed (`departed`: "leave" or "kick"), that they are out."""
    where = f"<#{view.channel_id}>"
    if departed is not None:
        how = "kick" if departed == "kick" else "leave"
        title, text = _DEPARTED[how, view.state is not None]
        return Render(discord.Embed(title=title, colour=GREY,
                                    description=text.format(where=where)), None)
    st = view.state
    rec = next((r for r in (st.scoresheet if st else ()) if r.hand_number == hand_number), None)
    text = "This hand is over." if rec is None else your_result(rec, seat)
    title = f"Hand {hand_number} is over"
    if view.status.active:
        text += "\nYour next hand is in a new message."
    elif over is not None and exact_bid_game(view):
        title = "The game is over"
        text = f"You {exact_bid_text(view, seat)}."
        won = " and ".join(seat_label(view.seats[w]) for w in over.winners)
        text += f"\n{won} {'win' if len(over.winners) > 1 else 'wins'}." if won else (
            "\nNobody made their exact bid: nobody wins.")
        text += f"\n{EXACT_BID_RULE}\nThe table: {where}"
    elif over is not None:
        title = "The game is over"
        mine = next((s for s in over.standings if s.seat == seat), None)
        if mine is not None:
            tied = sum(1 for s in over.standings if s.place == mine.place) > 1
            text += (f"\n\n**You finished {_ordinal(mine.place)}"
                     f"{' (tied)' if tied else ''} of {len(over.standings)}** "
                     f"with {mine.score} points.")
        lines = [f"{s.place}. {seat_label(view.seats[s.seat])}: {s.score}"
                 for s in over.standings]
        text += "\nFinal standings:\n" + "\n".join(lines)[:3000]
        text += f"\nThe table: {where}"
    elif view.status is TableStatus.CANCELLED:
        title = "The game was ended"
        text += f"\nThe table in {where} was closed before the end; no result was recorded."
    else:
        text += f"\nThe game is over: see the table in {where}."
    e = discord.Embed(title=title, colour=GOLD if over is not None else GREY, description=text)
    return Render(e, None)


_DEPARTED = {  # (how they went, whether a game was in play): the DM's title and text
    ("kick", False): ("You were removed", "The host removed you from the table in {where}."),
    ("kick", True): ("You were removed",
                     "The host removed you from the game in {where}; a computer plays your seat."),
    ("leave", False): ("You left the table", "You left the table in {where}."),
    ("leave", True): ("You left the game",
                      "You left the game in {where}; a computer plays your seat."),
}


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def welcome_dm(view: TableView) -> Render:
    """The first DM a seated player gets, so they know where their hands will come."""
    e = discord.Embed(title="Oh Hell", colour=BLUE, description=(
        f"You joined the table in <#{view.channel_id}>. Your cards will come here, one message "
        "per hand, with buttons when it is your turn."))
    return Render(e, None)
