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
from bot.i18n import DEFAULT_LANG, Lang, t, tc, tn
from bot.models import TableView
from engine import Card, Phase, Rules, Suit, sort_hand

if TYPE_CHECKING:
    from engine import HandRecord, PlayerView

Write = Callable[[str], None]


def _cards(count: int, lang: Lang) -> str:
    return tn(lang, "{n} card", "{n} cards", count)


def _preset_title(name: str, lang: Lang) -> str:
    """A preset's title in `lang` ("Klassisk Oh Hell"); an unknown name as it is."""
    try:
        return tc(lang, "preset", Rules.preset(name).title)
    except ValueError:
        return name


def _suit(suit: Suit, lang: Lang) -> str:
    return tc(lang, "suit", suit.label)


def trump_text(card: Card | None, suit: Suit | None, super_trump: Card | None = None,
               lang: Lang = DEFAULT_LANG) -> str:
    """ "Q♦ (diamonds)", "hearts" or "no trump" (and the Super Trump, in super_screw)."""
    if suit is None:
        if card is not None and card.special:
            return t(lang, "no trump (turned {card})", card=card)
        return t(lang, "no trump")
    if card is not None and card.special:  # a turned Wizard: the dealer named the suit
        text = t(lang, "{suit} (named after the turned {card})", suit=_suit(suit, lang),
                 card=card)
    else:
        text = f"{card} ({_suit(suit, lang)})" if card is not None else _suit(suit, lang)
    if super_trump is None:
        return text
    return text + ", " + t(lang, "Super Trump {card}", card=super_trump)


def dealt_text(view: TableView, hand_size: int, lang: Lang = DEFAULT_LANG) -> str:
    """ "3 cards", or where cards are discarded (Ouch) "12 cards dealt, 2 discarded: 10 tricks"."""
    discards = view.rules.discards_for(len(view.seats)) if view.rules is not None else 0
    if not discards:
        return _cards(hand_size, lang)
    return t(lang, "{cards} dealt, {discards} discarded: {tricks}", cards=_cards(hand_size, lang),
             discards=discards, tricks=tn(lang, "{n} trick", "{n} tricks", hand_size - discards))


def dealt_trump_text(view: TableView, event: HandDealt, lang: Lang = DEFAULT_LANG) -> str:
    """The trump as a hand is dealt: where the dealer names it, "the dealer names it", never
    "no trump" (which it is only until then)."""
    rules, state = view.rules, view.state
    if event.trump_suit is None and rules is not None and rules.trump_choice == "dealer_picks":
        last = state is not None and state.hand_count == event.hand_number
        if not (last and rules.last_hand_no_trump):
            return t(lang, "the dealer names it")
    if event.trump_card is not None and event.trump_card.kind == "wizard":
        return t(lang, "a Wizard is turned: the dealer names it")
    if event.trump_card is None and rules is not None and rules.bid_before_trump:
        return t(lang, "turned after the bids")
    return trump_text(event.trump_card, event.trump_suit, lang=lang)


def trick_text(view: TableView, trick: Sequence[tuple[int, Card]],
               lang: Lang = DEFAULT_LANG) -> str:
    """ "Ann 10♥, Bot 1 Q♥" (a joker with what it was declared: "Bot 2 High Joker (low ♦)")."""
    state = view.state
    declared = dict(state.declarations) if state is not None else {}
    trump = state.trump_suit if state is not None else None
    return ", ".join(
        f"{view.seats[seat].name} {card}"
        + (f" ({declared[card].text(trump)})" if card in declared else "")
        for seat, card in trick
    ) or t(lang, "(empty)")


def hand_text(hand: Sequence[Card], legal: Sequence[Card], lang: Lang = DEFAULT_LANG) -> str:
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
    return "   ".join(groups) if groups else t(lang, "(no cards)")


def names_text(names: Sequence[str], lang: Lang = DEFAULT_LANG) -> str:
    """ "You", "You and Bot 2", "You, Bot 2 and Bot 3": as a sentence lists them."""
    if len(names) <= 1:
        return "".join(names)
    return t(lang, "{first} and {last}", first=", ".join(names[:-1]), last=names[-1])


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


def scoresheet_lines(view: TableView, record: HandRecord, lang: Lang = DEFAULT_LANG) -> list[str]:
    """One hand's scoresheet: a row per player; a column is as wide as its heading."""
    heads = (t(lang, "bid"), t(lang, "took"), t(lang, "result"), t(lang, "points"),
             t(lang, "total"))
    player, made_word, missed_word = t(lang, "player"), t(lang, "made"), t(lang, "missed")
    widths = [max(3, len(heads[0])), max(4, len(heads[1])),
              max(6, len(heads[2]), len(made_word), len(missed_word)), max(6, len(heads[3])),
              max(5, len(heads[4]))]
    width = max(len(s.name) for s in view.seats)
    lines = [
        t(lang, "Hand {number} ({cards}, trump {trump}):", number=record.hand_number,
          cards=_cards(record.hand_size, lang),
          trump=trump_text(record.trump_card, record.trump_suit, lang=lang)),
        f"  {player:<{width}}  {heads[0]:>{widths[0]}}  {heads[1]:>{widths[1]}}  "
        f"{heads[2]:<{widths[2]}}  {heads[3]:>{widths[3]}}  {heads[4]:>{widths[4]}}",
    ]
    for seat, s in enumerate(view.seats):
        made = made_word if record.made[seat] else missed_word
        lines.append(
            f"  {s.name:<{width}}  {record.bids[seat]:>{widths[0]}}  "
            f"{record.tricks[seat]:>{widths[1]}}  {made:<{widths[2]}}  "
            f"{record.points[seat]:>{widths[3]}}  {record.totals[seat]:>{widths[4]}}"
        )
    return lines


MARKS_LEGEND = "  (* marks the cards you may play now)"
"""The legend in English (the terminal says it in the player's language)."""


def marks_cards(me: PlayerView) -> bool:
    """Their hand as shown now carries a * on some card."""
    playable = set(me.legal_cards)
    return any(card in playable for card in me.hand)


def player_prompt_lines(
    view: TableView, me: PlayerView, lang: Lang = DEFAULT_LANG, *, explain_marks: bool = False
) -> list[str]:
    """What a person needs before acting: bids, trick in play, their hand with legal cards.
    `explain_marks`: say what the * on those cards means (a newcomer cannot guess it)."""
    state = view.state
    assert state is not None
    lines: list[str] = []
    bids = ", ".join(f"{view.seats[s].name} {b}" for s, b in enumerate(state.bids) if b is not None)
    if me.phase in (Phase.BIDDING, Phase.SIMULTANEOUS_BIDDING):
        lines.append(t(lang, "Bids so far: {bids}.", bids=bids or t(lang, "none")))
    elif me.phase is Phase.PLAYING:
        won = ", ".join(
            f"{view.seats[s].name} {b}/{state.tricks_won[s]}"
            for s, b in enumerate(state.bids)
            if b is not None
        )
        lines.append(t(lang, "Bid/won: {won}.", won=won))
        trick = (trick_text(view, state.current_trick, lang) if state.current_trick
                 else t(lang, "you lead."))
        lines.append(t(lang, "Trick {number}: {trick}", number=sum(state.tricks_won) + 1,
                       trick=trick))
    if me.phase is Phase.TRUMP_CHOICE:
        lines.append(t(lang, "Trump: you name it, as the dealer."))
    elif me.rules.bid_before_trump and me.phase.bidding:
        lines.append(t(lang, "Trump: turned after the bids."))
    else:
        trump = trump_text(state.trump_card, state.trump_suit, state.super_trump, lang)
        lines.append(t(lang, "Trump: {trump}.", trump=trump))
    lines.append(t(lang, "Your hand: {cards}", cards=hand_text(me.hand, me.legal_cards, lang)))
    if explain_marks and marks_cards(me):
        lines.append("  " + t(lang, "(* marks the cards you may play now)"))
    if me.discarded:
        lines.append(t(lang, "Out of play: {cards}", cards=hand_text(me.discarded, (), lang)))
    kinds = {card.kind for card in me.hand}
    for card, worth in me.card_values:
        if card.kind in kinds and (card.special or card in me.hand):
            lines.append(f"  {card}: {worth}.")
    return lines


class TerminalPresenter:
    """Prints table events. `me` is the seat of the person at the keyboard (shown as "You");
    `lang` is the terminal's language (bot.i18n)."""

    def __init__(self, write: Write, me_user_id: int | None = None,
                 lang: Lang = DEFAULT_LANG) -> None:
        self.write = write
        self.me_user_id = me_user_id
        self.lang = lang

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
        you = " " + t(self.lang, "(you)") if mine and not self._named_you(s.name) else ""
        return f"{s.name}{you}"

    def is_you(self, view: TableView, seat: int) -> bool:
        """The seat is the person at the keyboard, named "You" (or "Du" in Norwegian)."""
        s = view.seats[seat]
        return s.user_id == self.me_user_id and self._named_you(s.name)

    def _named_you(self, name: str) -> bool:
        return name.lower() in ("you", t(self.lang, "You").lower())

    def render(self, view: TableView, event: Event) -> list[str]:
        """The lines for one event. A sentence whose subject is "You" is its own message, as
        English conjugates for it ("You play", "Ann plays")."""
        n, lang = self.name, self.lang
        match event:
            case TableOpened():
                return [t(lang, "Table {table} opened ({preset}).", table=view.table_id,
                          preset=_preset_title(view.options.preset, lang))]
            case SeatsChanged(reason="join" | "add_computer", name=name):
                return [t(lang, "{name} sits down.", name=name)]
            case SeatsChanged(reason="replaced", name=name):
                return [t(lang, "A computer takes the seat: {name}.", name=name)]
            case SeatsChanged(name=name):
                return [t(lang, "{name} leaves.", name=name)]
            case GameStarted(players=players, preset=preset):
                seats = ", ".join(n(view, i) for i in range(len(view.seats)))
                return [t(lang, "A game of {preset} for {players}: {seats}.",
                          preset=_preset_title(preset, lang),
                          players=players, seats=seats)]
            case HandDealt():
                total = view.state.hand_count if view.state is not None else None
                fields = {"number": event.hand_number,
                          "dealt": dealt_text(view, event.hand_size, lang),
                          "dealer": n(view, event.dealer),
                          "trump": dealt_trump_text(view, event, lang)}
                if total:
                    return ["", t(lang, "=== Hand {number} of {total}: {dealt}, dealer {dealer}, "
                                        "trump {trump} ===", total=total, **fields)]
                return ["", t(lang, "=== Hand {number}: {dealt}, dealer {dealer}, trump {trump} "
                                    "===", **fields)]
            case TrumpChosen(seat=seat, suit=suit):
                trump = trump_text(None, suit, lang=lang)
                if self.is_you(view, seat):
                    return [t(lang, "You name trump: {trump}.", trump=trump)]
                return [t(lang, "{who} names trump: {trump}.", who=n(view, seat), trump=trump)]
            case TrumpTurned(card=card, suit=suit, super_trump=super_trump):
                return [t(lang, "Turned after the bids: {card}; trump {trump}.", card=card,
                          trump=trump_text(card, suit, super_trump, lang))]
            case EvenBids(lost=lost):
                return [t(lang, "The bids add up: everyone loses a card, taken blind.")
                        if lost else t(lang, "The bids add up: everyone gets one more card.")]
            case DiscardsMade(seat=seat, count=count):
                if self.is_you(view, seat):
                    return [t(lang, "You discard {count} cards.", count=count)]
                return [t(lang, "{who} discards {count} cards.", who=n(view, seat), count=count)]
            case BidMade(seat=seat, bid=bid):
                shown = t(lang, "(hidden)") if bid is None else str(bid)
                if self.is_you(view, seat):
                    return [t(lang, "You bid {bid}.", bid=shown)]
                return [t(lang, "{who} bids {bid}.", who=n(view, seat), bid=shown)]
            case BiddingDone(total=total, tricks=tricks, over_under=ou, bids=bids):
                shown = ", ".join(f"{n(view, s)} {b}" for s, b in enumerate(bids))
                return [t(lang, "Bids: {bids}. Total {total} for {tricks}: {over_under}.",
                          bids=shown, total=total,
                          tricks=tn(lang, "{n} trick", "{n} tricks", tricks),
                          over_under=_over_under(ou, lang))]
            case CardPlayed(seat=seat, card=card, declaration=declaration):
                said = ""
                if declaration is not None:
                    trump_suit = view.state.trump_suit if view.state is not None else None
                    said = f" ({declaration.text(trump_suit)})"
                if self.is_you(view, seat):
                    return [t(lang, "You play {card}.", card=f"{card}{said}")]
                return [t(lang, "{who} plays {card}.", who=n(view, seat), card=f"{card}{said}")]
            case TrickWon(winner=winner, trick_number=number):
                if self.is_you(view, winner):
                    return [t(lang, "You win trick {number}.", number=number)]
                return [t(lang, "{who} wins trick {number}.", who=n(view, winner),
                          number=number)]
            case HandScored(record=record):
                return ["", *scoresheet_lines(view, record, lang)]
            case GameOver(standings=standings, rating_changes=changes):
                quick = view.rules is not None and view.rules.winner_rule == "exact_bid"
                if quick and view.state is not None:  # no scoresheet: the exact bid wins
                    st = view.state
                    lines = ["", t(lang, "No scoresheet: the exact bid wins, the higher bid "
                                         "breaking ties.")]
                    for seat in range(len(view.seats)):
                        made = (t(lang, "made") if st.bids[seat] == st.tricks_won[seat]
                                else t(lang, "missed"))
                        lines.append("  " + t(lang, "{who}  bid {bid}, took {took}: {made}",
                                              who=n(view, seat), bid=st.bids[seat],
                                              took=st.tricks_won[seat], made=made))
                else:
                    lines = ["", t(lang, "Final standings:")]
                    lines.extend(standings_lines([(s.place, n(view, s.seat), s.score)
                                                  for s in standings]))
                names = [n(view, w) for w in event.winners]
                if not names:
                    lines.append(t(lang, "Nobody made their exact bid.") if quick
                                 else t(lang, "Nobody won."))
                elif len(names) > 1:
                    lines.append(t(lang, "Winners: {winners}.", winners=names_text(names, lang)))
                else:
                    lines.append(t(lang, "Winner: {winners}.", winners=names[0]))
                for c in changes:
                    lines.append("  " + t(lang, "rating {name}: {before} -> {after}", name=c.name,
                                          before=f"{c.before:.1f}", after=f"{c.after:.1f}"))
                return lines
            case TimerWarning(seats=seats):
                who = ", ".join(n(view, s) for s in seats)
                return [t(lang, "Half the time is gone for {who}.", who=who)]
            case TimedOut(seat=seat):
                return [t(lang, "Time is up for {who}: a computer moves for them.",
                          who=n(view, seat))]
            case SeatAutopiloted(seat=seat, on=on):
                if on:
                    return [t(lang, "A computer plays for {who} until they act again.",
                              who=n(view, seat))]
                if self.is_you(view, seat):
                    return [t(lang, "You are back.")]
                return [t(lang, "{who} is back.", who=n(view, seat))]
            case TableCancelled(reason=reason):
                return [t(lang, "The table is closed ({reason}).", reason=reason)]
            case TurnChanged():
                return []
        return []


def _over_under(word: str, lang: Lang) -> str:
    """The engine's "over", "under" or "even" in words."""
    if word == "over":
        return t(lang, "over")
    return t(lang, "under") if word == "under" else t(lang, "even")


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
