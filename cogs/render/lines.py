"""Lines more than one message shows, each written once: how a seat, a card, a trick, the trump
and the deal read, the over/under line, and a seat's result of a hand.

The table message (cogs.render.table), the hand DMs (cogs.render.hand), the scoresheet and the
turn nudges all take these from here, so a player reads the same words wherever they look.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.card_words import suit_name
from bot.i18n import DEFAULT_LANG, Lang, declaration_words, t, tc, tn
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
"""English keys; `action_words` reads them in a language."""


def action_words(awaits: type[Move] | None, lang: Lang = DEFAULT_LANG) -> str:
    """What the seat on turn is to do: "to bid" ("skal melde")."""
    if awaits is Bid:
        return t(lang, "to bid")
    if awaits is NameTrump:
        return t(lang, "to name trump")
    if awaits is Discard:
        return t(lang, "to discard")
    return t(lang, "to play")


def preset_words(name: str, lang: Lang = DEFAULT_LANG) -> str:
    """A preset's short name ("ouch", "dealer picks") as the slash command's choice reads it."""
    return tc(lang, "slash", name.replace("_", " "))


def timestamp(when: datetime, style: str = "R") -> str:
    """A Discord timestamp: every reader sees it in their own time zone (R: "in 2 minutes")."""
    return f"<t:{int(when.timestamp())}:{style}>"


def game_title(view: TableView, lang: Lang = DEFAULT_LANG) -> str:
    """The game's name, e.g. "Classic Oh Hell" or "Oh Hell · Ouch (discard two)"."""
    rules = view.rules
    name = rules.title if rules is not None else _preset_title(view.options.preset)
    name = preset_title(name, lang)
    return name if "oh" in name.lower() else f"Oh Hell · {name}"


def preset_title(title: str, lang: Lang = DEFAULT_LANG) -> str:
    """A preset's title (engine English) in `lang`; a title the catalogue lacks stays."""
    return tc(lang, "preset", title)


def _preset_title(name: str) -> str:
    try:
        return Rules.preset(name).title
    except ValueError:
        return name


def hand_title(hand_number: int, hand_count: int | None, lang: Lang = DEFAULT_LANG) -> str:
    """ "hand 3 of 10", or "hand 3" when the game has no fixed length."""
    if hand_count:
        return t(lang, "hand {number} of {count}", number=hand_number, count=hand_count)
    return t(lang, "hand {number}", number=hand_number)


def seat_label(seat: SeatView) -> str:
    """Plain name (field names cannot hold mentions)."""
    return f"🤖 {seat.name}" if seat.is_computer else seat.name


def seat_mention(seat: SeatView) -> str:
    """A mention for people (it renders as their name and never pings inside an embed)."""
    return f"🤖 {seat.name}" if seat.is_computer else f"<@{seat.user_id}>"


def points(n: int, lang: Lang = DEFAULT_LANG) -> str:
    """ "1 pt", "12 pts", "-1 pt"."""
    return tn(lang, "{points} pt", "{points} pts", abs(n), points=n)


def cards_count(n: int, lang: Lang = DEFAULT_LANG) -> str:
    return tn(lang, "{n} card", "{n} cards", n)


def tricks_count(n: int, lang: Lang = DEFAULT_LANG) -> str:
    return tn(lang, "{n} trick", "{n} tricks", n)


def trump_text(card: Card | None, suit: Suit | None, super_trump: Card | None = None,
               *, later: bool = False, lang: Lang = DEFAULT_LANG) -> str:
    """The trump as the table shows it; a Wizard turned shows the suit the dealer named, and a
    Super Trump (super_screw) is named beside it. `later`: the card is turned after the bids."""
    if later and card is None:
        return t(lang, "turned after the bids")
    if card is not None and suit is not None and card.suit == suit:
        text = f"{card} ({suit_name(suit, lang)})"
    elif suit is not None:
        named = suit_name(suit, lang)
        if card is None:
            text = f"{suit.symbol} {named}"
        elif card.kind == "wizard":
            text = t(lang, "{symbol} {suit} (turned {card} named by the dealer)",
                     symbol=suit.symbol, suit=named, card=card)
        else:
            text = t(lang, "{symbol} {suit} (turned {card})", symbol=suit.symbol, suit=named,
                     card=card)
    elif card is not None and card.kind == "wizard":
        text = t(lang, "turned a Wizard: the dealer names trump")
    elif card is not None:
        text = t(lang, "no trump (turned {card})", card=card)
    else:
        text = t(lang, "no trump")
    if super_trump is not None:
        text += " · " + t(lang, "Super Trump {card}", card=super_trump)
    return text


def trump_now(phase: Phase, card: Card | None, suit: Suit | None, dealer_is_you: bool,
              super_trump: Card | None = None, later: bool = False,
              lang: Lang = DEFAULT_LANG) -> str:
    """Trump as it stands: while the dealer names it, say so (it is not "no trump" yet); with
    the Super Trump beside it, or that it is turned after the bids (`later`)."""
    if phase is Phase.TRUMP_CHOICE:
        return t(lang, "you name it") if dealer_is_you else t(lang, "the dealer is choosing trump")
    return trump_text(card, suit, super_trump, later=later, lang=lang)


def played_text(card: Card, declarations: Sequence[tuple[Card, Declaration]] = (),
                trump: Suit | None = None, lang: Lang = DEFAULT_LANG) -> str:
    """A played card, with what a joker was declared ("High Joker (low ♦)")."""
    for declared, declaration in declarations:
        if declared is card:
            return f"{card} ({declaration_words(lang, declaration, trump)})"
    return str(card)


def trick_text(trick: Sequence[tuple[int, Card]], seats: Sequence[SeatView],
               declarations: Sequence[tuple[Card, Declaration]] = (),
               trump: Suit | None = None, lang: Lang = DEFAULT_LANG) -> str:
    """The cards of a trick in play order, each after its seat's name."""
    return " · ".join(f"{seat_label(seats[s])} {played_text(c, declarations, trump, lang)}"
                      for s, c in trick)


def deal_text(view: TableView, hand_number: int, hand_size: int,
              lang: Lang = DEFAULT_LANG) -> str:
    """How many cards this hand, and how many tricks when that differs: "**12 cards dealt**, 2
    discarded: **10 tricks**" (Ouch), "**4 cards** (3 dealt + 1 extra card): **4 tricks**"."""
    rules, players = view.rules, len(view.seats)
    cards = cards_count(hand_size, lang)
    if rules is None:
        return f"**{cards}**"
    discards = rules.discards_for(players)
    if discards:
        return t(lang, "**{cards} dealt**, {discards} discarded: **{tricks}**", cards=cards,
                 discards=discards, tricks=tricks_count(hand_size - discards, lang))
    if not rules.extra_card:
        return f"**{cards}**"
    plan = rules.plan(players)
    planned = plan[hand_number - 1] if hand_number <= len(plan) else hand_size
    if hand_size == planned + 1:
        return t(lang, "**{cards}** ({dealt} dealt + 1 extra card): **{tricks}**", cards=cards,
                 dealt=planned, tricks=tricks_count(hand_size, lang))
    return f"**{cards}**"


def over_under_line(total: int, tricks: int, lang: Lang = DEFAULT_LANG) -> str:
    """The over/under total once bidding ends (docs/rules.md section 5): "**over by 2**",
    "**even**"; the table message and every hand DM show it."""
    word = over_under(total, tricks)
    count = tricks_count(tricks, lang)
    if word == "even":
        return t(lang, "Bids total {total} for {tricks}: **even**.", total=total, tricks=count)
    if word == "over":
        return t(lang, "Bids total {total} for {tricks}: **over by {by}**.", total=total,
                 tricks=count, by=total - tricks)
    return t(lang, "Bids total {total} for {tricks}: **under by {by}**.", total=total,
             tricks=count, by=tricks - total)


def seat_result(record: HandRecord, seat: int) -> str:
    """A seat's row of the hand's result (docs/rules.md section 5: bid, tricks, made or missed,
    points, total): "2/3 ❌ -3 (14)"."""
    made = "✅" if record.made[seat] else "❌"
    return (f"{record.bids[seat]}/{record.tricks[seat]} {made} "
            f"{record.points[seat]:+d} ({record.totals[seat]})")


def your_result(record: HandRecord, seat: int, lang: Lang = DEFAULT_LANG) -> str:
    """One seat's finished hand told to its player, in their DMs."""
    fields = {"bid": record.bids[seat], "took": record.tricks[seat],
              "points": f"{record.points[seat]:+d}", "total": record.totals[seat]}
    if record.made[seat]:
        return t(lang, "You bid {bid} and took {took}: made it, {points} points (total {total}).",
                 **fields)
    return t(lang, "You bid {bid} and took {took}: missed, {points} points (total {total}).",
             **fields)
