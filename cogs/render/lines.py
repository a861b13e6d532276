"""Lines more than one message shows, each written once: how a seat, a card, a trick, the trump
and the deal read, the over/under line, and a seat's result of a hand.

The table message (cogs.render.table), the hand DMs (cogs.render.hand), the scoresheet and the
turn nudges all take these from here, so a player reads the same words wherever they look.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.models import SeatView, TableView
from engine import (
    Bid,
    Card,
    Declaration,
    Discard,
    HandRecord,
    Move,
    NameTrump,
    Phase,
    Play,
    Rules,
    Suit,
    over_under,
)

ACTION_WORDS: dict[type[Move] | None, str] = {
    Bid: "to bid", Play: "to play", NameTrump: "to name trump", Discard: "to discard"}


def timestamp(when: datetime, style: str = "R") -> str:
    """A Discord timestamp: every reader sees it in their own time zone (R: "in 2 minutes")."""
    return f"<t:{int(when.timestamp())}:{style}>"


def game_title(view: TableView) -> str:
    """The game's name, e.g. "Classic Oh Hell" or "Oh Hell · Ouch (discard two)"."""
    rules = view.rules
    name = rules.title if rules is not None else _preset_title(view.options.preset)
    return name if "oh" in name.lower() else f"Oh Hell · {name}"


def _preset_title(name: str) -> str:
    try:
        return Rules.preset(name).title
    except ValueError:
        return name


def hand_title(hand_number: int, hand_count: int | None) -> str:
    """ "hand 3 of 10", or "hand 3" when the game has no fixed length."""
    return f"hand {hand_number} of {hand_count}" if hand_count else f"hand {hand_number}"


def seat_label(seat: SeatView) -> str:
    """Plain name (field names cannot hold mentions)."""
    return f"🤖 {seat.name}" if seat.is_computer else seat.name


def seat_mention(seat: SeatView) -> str:
    """A mention for people (it renders as their name and never pings inside an embed)."""
    return f"🤖 {seat.name}" if seat.is_computer else f"<@{seat.user_id}>"


def points(n: int) -> str:
    """ "1 pt", "12 pts", "-1 pt"."""
    return f"{n} pt" if abs(n) == 1 else f"{n} pts"


def cards_count(n: int) -> str:
    return "1 card" if n == 1 else f"{n} cards"


def tricks_count(n: int) -> str:
    return "1 trick" if n == 1 else f"{n} tricks"


def trump_text(card: Card | None, suit: Suit | None, super_trump: Card | None = None,
               *, later: bool = False) -> str:
    """The trump as the table shows it; a Wizard turned shows the suit the dealer named, and a
    Super Trump (super_screw) is named beside it. `later`: the card is turned after the bids."""
    if later and card is None:
        return "turned after the bids"
    if card is not None and suit is not None and card.suit == suit:
        text = f"{card} ({suit.label})"
    elif suit is not None:
        named = " named by the dealer" if card is not None and card.kind == "wizard" else ""
        text = f"{suit.symbol} {suit.label}" + (f" (turned {card}{named})" if card else "")
    elif card is not None and card.kind == "wizard":
        text = "turned a Wizard: the dealer names trump"
    else:
        text = f"no trump (turned {card})" if card is not None else "no trump"
    if super_trump is not None:
        text += f" · Super Trump {super_trump}"
    return text


def trump_now(phase: Phase, card: Card | None, suit: Suit | None, dealer_is_you: bool,
              super_trump: Card | None = None, later: bool = False) -> str:
    """Trump as it stands: while the dealer names it, say so (it is not "no trump" yet); with
    the Super Trump beside it, or that it is turned after the bids (`later`)."""
    if phase is Phase.TRUMP_CHOICE:
        return "you name it" if dealer_is_you else "the dealer is choosing trump"
    return trump_text(card, suit, super_trump, later=later)


def played_text(card: Card, declarations: Sequence[tuple[Card, Declaration]] = (),
                trump: Suit | None = None) -> str:
    """A played card, with what a joker was declared ("High Joker (low ♦)")."""
    for declared, declaration in declarations:
        if declared is card:
            return f"{card} ({declaration.text(trump)})"
    return str(card)


def trick_text(trick: Sequence[tuple[int, Card]], seats: Sequence[SeatView],
               declarations: Sequence[tuple[Card, Declaration]] = (),
               trump: Suit | None = None) -> str:
    """The cards of a trick in play order, each after its seat's name."""
    return " · ".join(f"{seat_label(seats[s])} {played_text(c, declarations, trump)}"
                      for s, c in trick)


def deal_text(view: TableView, hand_number: int, hand_size: int) -> str:
    """How many cards this hand, and how many tricks when that differs: "**12 cards dealt**, 2
    discarded: **10 tricks**" (Ouch), "**4 cards** (3 dealt + 1 extra card): **4 tricks**"."""
    rules, players = view.rules, len(view.seats)
    if rules is None:
        return f"**{cards_count(hand_size)}**"
    discards = rules.discards_for(players)
    if discards:
        return (f"**{cards_count(hand_size)} dealt**, {discards} discarded: "
                f"**{tricks_count(hand_size - discards)}**")
    plan = rules.plan(players)
    planned = plan[hand_number - 1] if hand_number <= len(plan) else hand_size
    if rules.extra_card and hand_size == planned + 1:
        return (f"**{cards_count(hand_size)}** ({planned} dealt + 1 extra card): "
                f"**{tricks_count(hand_size)}**")
    return f"**{cards_count(hand_size)}**"


def over_under_line(total: int, tricks: int) -> str:
    """The over/under total once bidding ends (docs/rules.md section 5): "**over by 2**",
    "**even**"; the table message and every hand DM show it."""
    word = over_under(total, tricks)
    if total == tricks:
        return f"Bids total {total} for {tricks_count(tricks)}: **{word}**."
    return f"Bids total {total} for {tricks_count(tricks)}: **{word} by {abs(total - tricks)}**."


def seat_result(record: HandRecord, seat: int) -> str:
    """A seat's row of the hand's result (docs/rules.md section 5: bid, tricks, made or missed,
    points, total): "2/3 ❌ -3 (14)"."""
    made = "✅" if record.made[seat] else "❌"
    return (f"{record.bids[seat]}/{record.tricks[seat]} {made} "
            f"{record.points[seat]:+d} ({record.totals[seat]})")


def your_result(record: HandRecord, seat: int) -> str:
    """One seat's finished hand told to its player, in their DMs."""
    made = "made it" if record.made[seat] else "missed"
    return (f"You bid {record.bids[seat]} and took {record.tricks[seat]}: {made}, "
            f"{record.points[seat]:+d} points (total {record.totals[seat]}).")
