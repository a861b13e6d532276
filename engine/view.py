"""What a seat may see (`PlayerView`) and what everyone may see (`PublicState`).

Both are frozen copies: a renderer or a computer player can keep them while the game moves on,
and neither ever holds a card still in another seat's hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card, Suit, sort_hand
from engine.moves import Declaration, Phase
from engine.outcome import Trick, over_under
from engine.rules import Rules
from engine.scoring import HandRecord
from engine.state import GameState


def _over_under_of(bids: tuple[int | None, ...], tricks: int) -> str | None:
    if any(bid is None for bid in bids):
        return None
    return over_under(sum(bid for bid in bids if bid is not None), tricks)


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Exactly what one seat may know: its own hand and everything public. Never another hand.

    With special cards: `super_trump` (super_screw, once turned), `declarations` (each joker
    played this hand and what it was declared, or the value it took), `led_suit` (the suit to
    follow, which a led Wizard or joker may leave unset), `legal_declarations` (for each legal
    card that is declared as it is played, the declarations open to it) and `card_values` (what
    each special card is worth this hand, in words).
    """

    seat: int
    players: int
    rules: Rules
    phase: Phase
    turn: int | None
    actor_seats: tuple[int, ...]
    dealer: int
    hand_number: int
    hand_count: int | None
    hand_size: int
    tricks_in_hand: int
    trump_card: Card | None
    trump_suit: Suit | None
    super_trump: Card | None
    blind: bool
    hand: tuple[Card, ...]
    discarded: tuple[Card, ...]
    bids: tuple[int | None, ...]
    has_bid: tuple[bool, ...]
    hook_bid: int | None
    tricks_won: tuple[int, ...]
    current_trick: Trick
    led_suit: Suit | None
    declarations: tuple[tuple[Card, Declaration], ...]
    tricks_played: tuple[Trick, ...]
    trick_number: int
    trump_broken: bool
    scores: tuple[int, ...]
    scoresheet: tuple[HandRecord, ...]
    legal_bids: tuple[int, ...]
    legal_cards: tuple[Card, ...]
    legal_declarations: tuple[tuple[Card, tuple[Declaration, ...]], ...]
    card_values: tuple[tuple[Card, str], ...]
    legal_trumps: tuple[Suit, ...]
    discards_needed: int
    winners: tuple[int, ...]

    def declarations_for(self, card: Card) -> tuple[Declaration, ...]:
        """The declarations open to `card` if it is played now (empty: it takes none)."""
        for legal, options in self.legal_declarations:
            if legal is card:
                return options
        return ()

    @property
    def to_act(self) -> bool:
        return self.seat in self.actor_seats

    @property
    def last_trick(self) -> Trick | None:
        return self.tricks_played[-1] if self.tricks_played else None

    @property
    def over_under(self) -> str | None:
        """"over", "under" or "even" once every bid is known to this seat, else None."""
        return _over_under_of(self.bids, self.tricks_in_hand)


@dataclass(frozen=True, slots=True)
class PublicState:
    """The game's public state: what everyone at the table may see (hidden bids stay hidden)."""

    phase: Phase
    players: int
    hand_number: int
    hand_count: int | None
    hand_size: int
    tricks_in_hand: int
    dealer: int
    turn: int | None
    actor_seats: tuple[int, ...]
    trump_card: Card | None
    trump_suit: Suit | None
    super_trump: Card | None
    bids: tuple[int | None, ...]
    tricks_won: tuple[int, ...]
    current_trick: Trick
    declarations: tuple[tuple[Card, Declaration], ...]
    last_trick: Trick | None
    trick_number: int
    scores: tuple[int, ...]
    hook_bid: int | None
    scoresheet: tuple[HandRecord, ...]
    winners: tuple[int, ...]

    @property
    def over_under(self) -> str | None:
        """"over", "under" or "even" once every bid is in and shown, else None."""
        return _over_under_of(self.bids, self.tricks_in_hand)

    @property
    def bid_total(self) -> int:
        return sum(bid for bid in self.bids if bid is not None)


def player_view(game: GameState, seat: int) -> PlayerView:
    """What `seat` may see (`Game.view`). Other hands, others' discards and hidden bids are
    left out."""
    if not 0 <= seat < game.players:
        raise ValueError(f"There is no seat {seat}.")
    phase = game.phase
    hidden_hand = game.blind and phase.bidding
    if phase is Phase.SIMULTANEOUS_BIDDING:
        bids = tuple(bid if other == seat else None for other, bid in enumerate(game.bids))
    else:
        bids = tuple(game.bids)
    legal_cards = tuple(sort_hand(game.legal_cards(seat)))
    return PlayerView(
        seat=seat,
        players=game.players,
        rules=game.rules,
        phase=phase,
        turn=game.turn,
        actor_seats=tuple(game.actor_seats()),
        dealer=game.dealer,
        hand_number=game.hand_number,
        hand_count=game.hand_count,
        hand_size=game.hand_size,
        tricks_in_hand=game.tricks_in_hand,
        trump_card=game.trump_card,
        trump_suit=game.trump_suit,
        super_trump=game.super_trump,
        blind=game.blind,
        hand=() if hidden_hand else tuple(sort_hand(game.hand_of(seat))),
        discarded=tuple(game.discarded[seat]),
        bids=bids,
        has_bid=tuple(bid is not None for bid in game.bids),
        hook_bid=game.hook_bid,
        tricks_won=tuple(game.tricks_won),
        current_trick=tuple(game.current_trick),
        led_suit=game.led_suit,
        declarations=tuple(game.declarations.items()),
        tricks_played=tuple(game.tricks_played),
        trick_number=game.trick_number,
        trump_broken=game.trump_broken,
        scores=tuple(game.scores),
        scoresheet=tuple(game.scoresheet),
        legal_bids=tuple(game.legal_bids(seat)),
        legal_cards=legal_cards,
        legal_declarations=tuple(
            (card, tuple(options))
            for card in legal_cards
            if (options := game.legal_declarations(card, seat))
        ),
        card_values=game.card_values(),
        legal_trumps=tuple(game.legal_trumps()) if seat == game.turn else (),
        discards_needed=game.discards_needed(seat),
        winners=tuple(game.winners),
    )


def public_state(game: GameState) -> PublicState:
    """What everyone at the table may see (`Game.public_state`): hidden simultaneous bids stay
    hidden."""
    phase = game.phase
    bids: tuple[int | None, ...] = tuple(game.bids)
    if phase is Phase.SIMULTANEOUS_BIDDING:
        bids = tuple(None for _ in bids)
    return PublicState(
        phase=phase,
        players=game.players,
        hand_number=game.hand_number,
        hand_count=game.hand_count,
        hand_size=game.hand_size,
        tricks_in_hand=game.tricks_in_hand,
        dealer=game.dealer,
        turn=game.turn,
        actor_seats=tuple(game.actor_seats()),
        trump_card=game.trump_card,
        trump_suit=game.trump_suit,
        super_trump=game.super_trump,
        bids=bids,
        tricks_won=tuple(game.tricks_won),
        current_trick=tuple(game.current_trick),
        declarations=tuple(game.declarations.items()),
        last_trick=game.last_trick,
        trick_number=game.trick_number,
        scores=tuple(game.scores),
        hook_bid=game.hook_bid,
        scoresheet=tuple(game.scoresheet),
        winners=tuple(game.winners),
    )


__all__ = ["PlayerView", "PublicState", "player_view", "public_state"]
