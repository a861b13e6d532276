"""The terminal presenter: the same table events the Discord cog renders, as lines of text."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from bot.events import (
    BiddingDone,
    BidMade,
    CardPlayed,
    DiscardsMade,
    EvenBids,
    Event,
    GameOver,
    GameStarted,
    HandDealt,
    HandScored,
    SeatAutopiloted,
    SeatsChanged,
    TableCancelled,
    TableOpened,
    TimedOut,
    TimerWarning,
    TrickWon,
    TrumpChosen,
    TrumpTurned,
    TurnChanged,
)
from bot.models import TableView
from engine import Card, Phase, Suit, sort_hand

if TYPE_CHECKING:
    from engine import HandRecord, PlayerView

Write = Callable[[str], None]


def _cards(count: int) -> str:
    return "1 card" if count == 1 else f"{count} cards"


def trump_text(card: Card | None, suit: Suit | None, super_trump: Card | None = None) -> str:
    """ "Q♦ (diamonds)", "hearts" or "no trump" (and the Super Trump, in super_screw)."""
    if suit is None:
        if card is not None and card.special:
            return f"no trump (turned {card})"
        return "no trump"
    if card is not None and card.special:  # a turned Wizard: the dealer named the suit
        text = f"{suit.label} (named after the turned {card})"
    else:
        text = f"{card} ({suit.label})" if card is not None else suit.label
    return text + (f", Super Trump {super_trump}" if super_trump is not None else "")


def dealt_text(view: TableView, hand_size: int) -> str:
    """ "3 cards", or where cards are discarded (Ouch) "12 cards dealt, 2 discarded: 10 tricks"."""
    discards = view.rules.discards_for(len(view.seats)) if view.rules is not None else 0
    if not discards:
        return _cards(hand_size)
    tricks = hand_size - discards
    return (f"{_cards(hand_size)} dealt, {discards} discarded: "
            f"{tricks} trick{'s' if tricks != 1 else ''}")


def dealt_trump_text(view: TableView, event: HandDealt) -> str:
    """The trump as a hand is dealt: where the dealer names it, "the dealer names it", never
    "no trump" (which it is only until then)."""
    rules, state = view.rules, view.state
    if event.trump_suit is None and rules is not None and rules.trump_choice == "dealer_picks":
        last = state is not None and state.hand_count == event.hand_number
        if not (last and rules.last_hand_no_trump):
            return "the dealer names it"
    if event.trump_card is not None and event.trump_card.kind == "wizard":
        return "a Wizard is turned: the dealer names it"
    if event.trump_card is None and rules is not None and rules.bid_before_trump:
        return "turned after the bids"
    return trump_text(event.trump_card, event.trump_suit)


def trick_text(view: TableView, trick: Sequence[tuple[int, Card]]) -> str:
    """ "Ann 10♥, Bot 1 Q♥" (a joker with what it was declared: "Bot 2 High Joker (low ♦)")."""
    state = view.state
    declared = dict(state.declarations) if state is not None else {}
    trump = state.trump_suit if state is not None else None
    return ", ".join(
        f"{view.seats[seat].name} {card}"
        + (f" ({declared[card].text(trump)})" if card in declared else "")
        for seat, card in trick
    ) or "(empty)"


def hand_text(hand: Sequence[Card], legal: Sequence[Card]) -> str:
    """The hand sorted by suit and rank, playable cards marked with *, suits apart."""
    playable = set(legal)
    groups: list[str] = []
    current: Suit | None = None
    for card in sort_hand(list(hand)):
        mark = "*" if card in playable else ""
        if not groups or card.suit != current:  # special cards (no suit) group together last
            groups.append(f"{card}{mark}")
            current = card.suit
        else:
            groups[-1] += f" {card}{mark}"
    return "   ".join(groups) if groups else "(no cards)"


def names_text(names: Sequence[str]) -> str:
    """ "You", "You and Bot 2", "You, Bot 2 and Bot 3": as a sentence lists them."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def standings_lines(rows: Sequence[tuple[int, str, int]]) -> list[str]:
    """The final standings (place, name, score) in columns: places, names and scores of any
    width line up, scores right-aligned so signs and digits fall under each other."""
    place_width = max((len(str(place)) for place, _, _ in rows), default=1)
    name_width = max((len(name) for _, name, _ in rows), default=0)
    score_width = max((len(str(score)) for _, _, score in rows), default=1)
    return [
        f"  {place:>{place_width}}. {name:<{name_width}}  {score:>{score_width}}"
        for place, name, score in rows
    ]


def scoresheet_lines(view: TableView, record: HandRecord) -> list[str]:
    """One hand's scoresheet: a row per player."""
    width = max(len(s.name) for s in view.seats)
    lines = [
        f"Hand {record.hand_number} ({_cards(record.hand_size)}, trump "
        f"{trump_text(record.trump_card, record.trump_suit)}):",
        f"  {'player':<{width}}  bid  took  result  points  total",
    ]
    for seat, s in enumerate(view.seats):
        made = "made" if record.made[seat] else "missed"
        lines.append(
            f"  {s.name:<{width}}  {record.bids[seat]:>3}  {record.tricks[seat]:>4}  "
            f"{made:<6}  {record.points[seat]:>6}  {record.totals[seat]:>5}"
        )
    return lines


MARKS_LEGEND = "  (* marks the cards you may play now)"


def marks_cards(me: PlayerView) -> bool:
    """Their hand as shown now carries a * on some card."""
    playable = set(me.legal_cards)
    return any(card in playable for card in me.hand)


def player_prompt_lines(
    view: TableView, me: PlayerView, *, explain_marks: bool = False
) -> list[str]:
    """What a person needs before acting: bids, trick in play, their hand with legal cards.
    `explain_marks`: say what the * on those cards means (a newcomer cannot guess it)."""
    state = view.state
    assert state is not None
    lines: list[str] = []
    bids = ", ".join(f"{view.seats[s].name} {b}" for s, b in enumerate(state.bids) if b is not None)
    if me.phase in (Phase.BIDDING, Phase.SIMULTANEOUS_BIDDING):
        lines.append(f"Bids so far: {bids or 'none'}.")
    elif me.phase is Phase.PLAYING:
        won = ", ".join(
            f"{view.seats[s].name} {b}/{state.tricks_won[s]}"
            for s, b in enumerate(state.bids)
            if b is not None
        )
        lines.append(f"Bid/won: {won}.")
        trick = trick_text(view, state.current_trick) if state.current_trick else "you lead."
        lines.append(f"Trick {sum(state.tricks_won) + 1}: {trick}")
    if me.phase is Phase.TRUMP_CHOICE:
        lines.append("Trump: you name it, as the dealer.")
    else:
        if me.rules.bid_before_trump and me.phase.bidding:
            lines.append("Trump: turned after the bids.")
        else:
            lines.append(
                f"Trump: {trump_text(state.trump_card, state.trump_suit, state.super_trump)}."
            )
    lines.append(f"Your hand: {hand_text(me.hand, me.legal_cards)}")
    if explain_marks and marks_cards(me):
        lines.append(MARKS_LEGEND)
    if me.discarded:
        lines.append(f"Out of play: {hand_text(me.discarded, ())}")
    kinds = {card.kind for card in me.hand}
    for card, worth in me.card_values:
        if card.kind in kinds and (card.special or card in me.hand):
            lines.append(f"  {card}: {worth}.")
    return lines


class TerminalPresenter:
    """Prints table events. `me` is the seat of the person at the keyboard (shown as "You")."""

    def __init__(self, write: Write, me_user_id: int | None = None) -> None:
        self.write = write
        self.me_user_id = me_user_id

    async def publish(self, table: TableView, events: list[Event]) -> None:
        """Print each event as a line (or a few)."""
        for event in events:
            for line in self.render(table, event):
                self.write(line)

    async def close(self) -> None:
        """Nothing is held: every line is printed at once."""

    def name(self, view: TableView, seat: int) -> str:
        """A seat's name, with "(you)" for the person at the keyboard."""
        s = view.seats[seat]
        mine = self.me_user_id is not None and s.user_id == self.me_user_id
        you = " (you)" if mine and s.name.lower() != "you" else ""
        return f"{s.name}{you}"

    def is_you(self, view: TableView, seat: int) -> bool:
        """The seat is the person at the keyboard, named "You"."""
        s = view.seats[seat]
        return s.user_id == self.me_user_id and s.name.lower() == "you"

    def verb(self, view: TableView, seat: int, third_person: str) -> str:
        """ "plays" for others, "play" for "You"."""
        return third_person[:-1] if self.is_you(view, seat) else third_person

    def does(self, view: TableView, seat: int, third_person: str) -> str:
        """ "Bot 1 plays" / "You play"."""
        return f"{self.name(view, seat)} {self.verb(view, seat, third_person)}"

    def render(self, view: TableView, event: Event) -> list[str]:
        """The lines for one event."""
        n = self.name
        match event:
            case TableOpened():
                return [f"Table {view.table_id} opened ({view.options.preset})."]
            case SeatsChanged(reason="join" | "add_computer", name=name):
                return [f"{name} sits down."]
            case SeatsChanged(reason="replaced", name=name):
                return [f"A computer takes the seat: {name}."]
            case SeatsChanged(name=name):
                return [f"{name} leaves."]
            case GameStarted(players=players, preset=preset):
                seats = ", ".join(n(view, i) for i in range(len(view.seats)))
                return [f"A game of {preset} for {players}: {seats}."]
            case HandDealt():
                total = view.state.hand_count if view.state is not None else None
                of = f" of {total}" if total else ""
                return [
                    "",
                    f"=== Hand {event.hand_number}{of}: {dealt_text(view, event.hand_size)}, "
                    f"dealer {n(view, event.dealer)}, trump {dealt_trump_text(view, event)} ===",
                ]
            case TrumpChosen(seat=seat, suit=suit):
                return [f"{self.does(view, seat, 'names')} trump: {trump_text(None, suit)}."]
            case TrumpTurned(card=card, suit=suit, super_trump=super_trump):
                return [f"Turned after the bids: {card}; trump "
                        f"{trump_text(card, suit, super_trump)}."]
            case EvenBids(lost=lost):
                return ["The bids add up: everyone loses a card, taken blind."
                        if lost else "The bids add up: everyone gets one more card."]
            case DiscardsMade(seat=seat, count=count):
                return [f"{n(view, seat)} {self.verb(view, seat, 'discards')} {count} cards."]
            case BidMade(seat=seat, bid=bid):
                return [f"{self.does(view, seat, 'bids')} {'(hidden)' if bid is None else bid}."]
            case BiddingDone(total=total, tricks=tricks, over_under=ou, bids=bids):
                shown = ", ".join(f"{n(view, s)} {b}" for s, b in enumerate(bids))
                trick_word = "trick" if tricks == 1 else "tricks"
                return [f"Bids: {shown}. Total {total} for {tricks} {trick_word}: {ou}."]
            case CardPlayed(seat=seat, card=card, declaration=declaration):
                said = ""
                if declaration is not None:
                    trump = view.state.trump_suit if view.state is not None else None
                    said = f" ({declaration.text(trump)})"
                return [f"{n(view, seat)} {self.verb(view, seat, 'plays')} {card}{said}."]
            case TrickWon(winner=winner, trick_number=number):
                return [f"{n(view, winner)} {self.verb(view, winner, 'wins')} trick {number}."]
            case HandScored(record=record):
                return ["", *scoresheet_lines(view, record)]
            case GameOver(standings=standings, rating_changes=changes):
                quick = view.rules is not None and view.rules.winner_rule == "exact_bid"
                if quick and view.state is not None:  # no scoresheet: the exact bid wins
                    st = view.state
                    lines = ["", "No scoresheet: the exact bid wins, the higher bid breaking ties."]
                    for seat in range(len(view.seats)):
                        made = "made" if st.bids[seat] == st.tricks_won[seat] else "missed"
                        lines.append(f"  {n(view, seat)}  bid {st.bids[seat]}, took "
                                     f"{st.tricks_won[seat]}: {made}")
                else:
                    lines = ["", "Final standings:"]
                    lines.extend(standings_lines([(s.place, n(view, s.seat), s.score)
                                                  for s in standings]))
                winners = [n(view, w) for w in event.winners]
                if not winners:
                    lines.append("Nobody made their exact bid." if quick else "Nobody won.")
                else:
                    lines.append(f"Winner{'s' if len(winners) > 1 else ''}: "
                                 f"{names_text(winners)}.")
                for c in changes:
                    lines.append(f"  rating {c.name}: {c.before:.1f} -> {c.after:.1f}")
                return lines
            case TimerWarning(seats=seats):
                who = ", ".join(n(view, s) for s in seats)
                return [f"Half the time is gone for {who}."]
            case TimedOut(seat=seat):
                return [f"Time is up for {n(view, seat)}: a computer moves for them."]
            case SeatAutopiloted(seat=seat, on=on):
                if on:
                    return [f"A computer plays for {n(view, seat)} until they act again."]
                return [f"{n(view, seat)} {'are' if self.is_you(view, seat) else 'is'} back."]
            case TableCancelled(reason=reason):
                return [f"The table is closed ({reason})."]
            case TurnChanged():
                return []
        return []


__all__ = [
    "MARKS_LEGEND",
    "TerminalPresenter",
    "dealt_trump_text",
    "hand_text",
    "marks_cards",
    "names_text",
    "player_prompt_lines",
    "scoresheet_lines",
    "standings_lines",
    "trick_text",
    "trump_text",
]
