"""The game state machine: deal, variant steps, bidding, tricks, scoring, the next hand.

Every action is checked before anything changes, so a refused action leaves the game exactly as
it was. Randomness comes only from the seed: deal n's shuffle is a pure function of (seed, n), so a
snapshot needs no generator state to resume exactly.
"""

from __future__ import annotations

import bisect
import itertools
import json
import random
from typing import Any

from engine.cards import ALL_CARDS, STANDARD_DECK, Card, Suit, sort_hand
from engine.deal import by_suit, card_index, deal_rng, dealt_pack, shuffled, slot_of
from engine.moves import Bid, Declaration, Discard, Move, NameTrump, Phase, Play
from engine.outcome import BiddingResult, HandStart, Outcome, Trick, TrickResult, over_under
from engine.rules import EXTRA_HAND_LIMIT, MAX_HAND, MAX_HANDS, TARGET_GAME_HAND_LIMIT, Rules
from engine.scoring import HandRecord, hand_points
from engine.snapshot import (
    SNAPSHOT_VERSION,
    card_codes,
    cards_from_codes,
    record_from_dict,
    record_to_dict,
)
from engine.special import TRUMP, SpecialHand, super_trump_for
from engine.view import PlayerView, PublicState


class IllegalAction(ValueError):
    """A refused action. The message is a sentence a player can read."""




_PLAYING = Phase.PLAYING
_BIDDING = Phase.BIDDING


_STANDARD_SUITS: tuple[tuple[Card, Suit], ...] = tuple(
    (card, Suit(card.index // 13)) for card in STANDARD_DECK
)
"""Each standard card with its suit as a `Suit` (every standard card has one), for dealing."""


def _parse_card(card: Card | str) -> Card:
    if isinstance(card, Card):
        return card
    try:
        return Card.parse(card)
    except ValueError as error:
        raise IllegalAction(str(error)) from None


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Told:
    """What the move being applied has caused so far (filled in by the steps it runs)."""

    __slots__ = (
        "bidding", "cards_lost", "declared", "extra_card", "hidden", "next_hand", "scored",
        "super_trump", "trick", "trump_named", "turned_up", "winners"
    )

    def __init__(self) -> None:
        self.hidden = False
        self.declared: Declaration | None = None
        self.turned_up: Card | None = None
        self.super_trump: Card | None = None
        self.cards_lost = False
        self.trump_named: Suit | None = None
        self.extra_card = False
        self.bidding: BiddingResult | None = None
        self.trick: TrickResult | None = None
        self.scored: HandRecord | None = None
        self.next_hand: HandStart | None = None
        self.winners: tuple[int, ...] | None = None


class Game:
    """One game of Oh Hell at a table of `players` seats (0-based, clockwise)."""

    players: int
    rules: Rules
    seed: int
    phase: Phase
    turn: int | None
    dealer: int
    hand_number: int
    hand_size: int
    tricks_in_hand: int
    _held: list[list[list[Card]]]
    trump_card: Card | None
    trump_suit: Suit | None
    super_trump: Card | None
    declarations: dict[Card, Declaration]
    blind: bool
    bids: list[int | None]
    tricks_won: list[int]
    current_trick: list[tuple[int, Card]]
    trick_number: int
    trump_broken: bool
    discarded: list[list[Card]]
    scores: list[int]
    winners: list[int]
    _plan: list[int]
    _deal_index: int
    _extra_hands: int
    _pending: list[int]
    _stock: list[Card]
    _tricks_played: list[Trick]
    _scoresheet: list[HandRecord]
    _must_trump: bool
    _after_broken: bool
    _told: _Told | None = None

    # ----- construction -----

    @classmethod
    def new(
        cls,
        players: int,
        rules: Rules | None = None,
        seed: int = 0,
        dealer: int | None = None,
        deck: list[Card] | list[str] | None = None,
    ) -> Game:
        """Start a game and deal its first hand.

        `dealer` None draws for the first dealer (or finds the first Jack, as the rules say);
        `deck` fixes the whole pack's order for the first hand, top card first.
        """
        rules = rules if rules is not None else Rules.preset("classic")
        problem = rules.problem(players)
        if problem:
            raise ValueError(problem)
        game = cls.__new__(_game_class(rules))
        game.players = players
        game.rules = rules
        game.seed = seed
        game._plan = rules.plan(players)
        if rules.hand_sequence == "random" and rules.hand_sizes is None:
            game._plan = [deal_rng(seed, -2).randint(1, game._plan[0])]
        game.scores = [0] * players
        game._scoresheet = []
        game.winners = []
        game._extra_hands = 0
        game._deal_index = 0
        game._cache_rule_flags()
        if dealer is None:
            dealer = game._first_dealer()
        elif not 0 <= dealer < players:
            raise ValueError(f"The dealer must be a seat from 0 to {players - 1}.")
        game.dealer = dealer
        game.hand_number = 1
        first_deck: list[Card] | None = None
        if deck is not None:
            first_deck = [_parse_card(card) for card in deck]
            pack = rules.pack(players)
            if len(first_deck) != len(pack) or set(first_deck) != set(pack):
                raise ValueError(
                    f"A deck must hold each of the {len(pack)} cards of this pack exactly once."
                )
        game._deal(first_deck)
        return game

    def _cache_rule_flags(self) -> None:
        """Copy the rules the hot path asks about into plain attributes."""
        self._must_trump = self.rules.must_trump
        self._after_broken = self.rules.trump_lead == "after_broken"

    def _first_dealer(self) -> int:
        rng = deal_rng(self.seed, -1)
        pack = shuffled(STANDARD_DECK, rng)
        if self.rules.first_dealer == "first_jack":
            for position, card in enumerate(pack):
                if card.rank == 11:
                    return position % self.players
        contenders = list(range(self.players))
        while True:
            rng.shuffle(pack)
            draws = {seat: pack[i].rank for i, seat in enumerate(contenders)}
            best = max(draws.values())
            contenders = [seat for seat in contenders if draws[seat] == best]
            if len(contenders) == 1:
                return contenders[0]

    # ----- the deal and the steps before play -----

    def _hand_size_for(self, hand_number: int) -> int:
        plan = self._plan
        if hand_number <= len(plan):
            return plan[hand_number - 1]
        if self.rules.game_end == "target":
            return plan[(hand_number - 1) % len(plan)]
        return max(plan)  # a tie-break hand

    def _is_last_planned_hand(self) -> bool:
        return self.rules.game_end == "sequence" and self.hand_number == len(self._plan)

    def _deal(self, deck: list[Card] | None = None) -> None:
        rules = self.rules
        players = self.players
        if deck is None:
            deck = self._shuffled_pack()
        self._deal_index += 1
        removed = rules.removed_cards.get(players, 0)
        if removed:
            deck = deck[:-removed]
        size = self._hand_size_for(self.hand_number)
        dealt = size * players
        dealer = self.dealer
        # Card i of the pack goes to seat dealer+1+i (mod players); each hand is kept as suit
        # lists in pack order, so legal_cards() comes out sorted without sorting.
        from_left = [(dealer + 1 + offset) % players for offset in range(players)]
        self._held = self._hands_from(dict(zip(deck[:dealt], itertools.cycle(from_left))))
        self._stock = deck[dealt:]
        self.hand_size = size
        self.tricks_in_hand = size
        self.bids = [None] * players
        self.tricks_won = [0] * players
        self.current_trick = []
        self._tricks_played = []
        self.trick_number = 1
        self.trump_broken = False
        self.blind = rules.blind_hand == self.hand_number
        self.discarded = [[] for _ in range(players)]
        self._pending = []
        self.trump_card = None
        self.trump_suit = None
        self.super_trump = None
        self.declarations = {}
        self._trump_step(deck, dealt)

    def _shuffled_pack(self) -> list[Card]:
        return dealt_pack(self.seed, self._deal_index)

    def _hands_from(self, owner: dict[Card, int]) -> list[list[list[Card]]]:
        """Each seat's hand as suit lists in pack order (and an empty list for special cards)."""
        held: list[list[list[Card]]] = [[[], [], [], [], []] for _ in range(self.players)]
        for card, suit in _STANDARD_SUITS:
            seat = owner.get(card)
            if seat is not None:
                held[seat][suit].append(card)
        return held

    def _trump_step(self, deck: list[Card], dealt: int) -> None:
        """Set trump for the new hand as the rules say, then go on to the next phase."""
        rules = self.rules
        dealer = self.dealer
        no_trump = rules.last_hand_no_trump and self._is_last_planned_hand()
        choice = rules.trump_choice
        if no_trump:
            pass
        elif choice == "turn_up":
            if self._stock:
                self.trump_card = self._stock.pop(0)
                self.trump_suit = self.trump_card.suit
        elif choice == "dealer_last_card":
            self.trump_card = deck[dealt - 1]
            self.trump_suit = self.trump_card.suit
        elif choice == "rotation":
            rotation = rules.trump_rotation
            self.trump_suit = rotation[(self.hand_number - 1) % len(rotation)]
        if choice == "dealer_picks" and not no_trump:
            self.phase = Phase.TRUMP_CHOICE
            self.turn = dealer
        else:
            self._after_trump()

    def _after_trump(self) -> None:
        discards = self.rules.discards_for(self.players)
        if discards:
            self.phase = Phase.DISCARD
            self.turn = None
            self._pending = list(self._seats_from_left())
        else:
            self._start_bidding()

    def _seats_from_left(self) -> list[int]:
        return [(self.dealer + 1 + offset) % self.players for offset in range(self.players)]

    def _start_bidding(self) -> None:
        if self.rules.bidding == "simultaneous":
            self.phase = Phase.SIMULTANEOUS_BIDDING
            self.turn = None
            self._pending = self._seats_from_left()
        else:
            self.phase = Phase.BIDDING
            self.turn = (self.dealer + 1) % self.players

    def _start_play(self) -> None:
        told = self._told
        if told is not None:
            bids = tuple(bid if bid is not None else 0 for bid in self.bids)
            total = sum(bids)
            told.bidding = BiddingResult(
                bids=bids,
                total=total,
                tricks=self.tricks_in_hand,
                over_under=over_under(total, self.tricks_in_hand),
            )
        self.phase = Phase.PLAYING
        self._pending = []
        self.turn = (self.dealer + 1) % self.players

    # ----- public read surface -----

    @property
    def hand_count(self) -> int | None:
        """Planned hands in the game (tie-break hands excluded); None when playing to a target."""
        return None if self.rules.game_end == "target" else len(self._plan)

    @property
    def scoresheet(self) -> list[HandRecord]:
        return list(self._scoresheet)

    @property
    def last_trick(self) -> Trick | None:
        return self._tricks_played[-1] if self._tricks_played else None

    @property
    def tricks_played(self) -> list[Trick]:
        return list(self._tricks_played)

    @property
    def led_suit(self) -> Suit | None:
        return self.current_trick[0][1].suit if self.current_trick else None

    @property
    def bid_total(self) -> int:
        return sum(bid for bid in self.bids if bid is not None)

    @property
    def over_under(self) -> str | None:
        """"over", "under" or "even" against the tricks, once every bid is in."""
        if any(bid is None for bid in self.bids):
            return None
        total = self.bid_total
        if total > self.tricks_in_hand:
            return "over"
        return "under" if total < self.tricks_in_hand else "even"

    @property
    def hook_bid(self) -> int | None:
        """The number the dealer may not bid now, when the hook applies to this hand."""
        if not self.rules.hook or self.phase is not Phase.BIDDING or self.turn != self.dealer:
            return None
        others = sum(bid for seat, bid in enumerate(self.bids) if seat != self.dealer and bid)
        forbidden = self.tricks_in_hand - others
        if 0 <= forbidden <= self.tricks_in_hand and not self._extra_card_possible():
            return forbidden
        return None

    def _extra_card_possible(self) -> bool:
        return self.rules.extra_card and len(self._stock) >= self.players

    def actor_seats(self) -> list[int]:
        """Seats whose action the game awaits: one, or several in the simultaneous steps."""
        if self.turn is not None:
            return [self.turn]
        return list(self._pending)

    def hand_of(self, seat: int) -> list[Card]:
        """A seat's cards. Only for the table service and tests: players get `view(seat)`."""
        clubs, diamonds, hearts, spades, special = self._held[seat]
        return clubs + diamonds + hearts + spades + special

    def legal_trumps(self) -> list[Suit]:
        return list(Suit) if self.phase is Phase.TRUMP_CHOICE else []

    def legal_bids(self, seat: int | None = None) -> list[int]:
        """Bids open to `seat` (default: the seat to act); empty when it may not bid now."""
        phase = self.phase
        if phase is Phase.BIDDING:
            if seat is not None and seat != self.turn:
                return []
            bids = list(range(self.tricks_in_hand + 1))
            if self.turn == self.dealer:
                hook = self.hook_bid
                if hook is not None:
                    bids.remove(hook)
            return bids
        if phase is Phase.SIMULTANEOUS_BIDDING and (seat is None or seat in self._pending):
            return list(range(self.tricks_in_hand + 1))
        return []

    def legal_cards(self, seat: int | None = None) -> list[Card]:
        """Cards `seat` (default: the seat to act) may play now; empty when not its turn."""
        turn = self.turn
        if self.phase is not _PLAYING or (seat is not None and seat != turn):
            return []
        assert turn is not None
        held = self._held[turn]
        trick = self.current_trick
        if trick:
            led = trick[0][1].suit
            assert led is not None  # the standard pack's tricks hold only standard cards
            following = held[led]
            if following:
                return following[:]
            trump = self.trump_suit
            if self._must_trump and trump is not None and held[trump]:
                return held[trump][:]
        elif self._after_broken and not self.trump_broken and self.trump_suit is not None:
            trump = self.trump_suit
            others = [card for suit in Suit if suit != trump for card in held[suit]]
            if others:
                return others
        clubs, diamonds, hearts, spades, _special = held
        return clubs + diamonds + hearts + spades

    def legal_declarations(self, card: Card, seat: int | None = None) -> list[Declaration]:
        """What `card` may be declared as it is played now; empty when it takes no declaration
        (every card of the standard pack)."""
        return []

    # ----- actions -----

    def apply(self, seat: int, move: Move) -> Outcome:
        """The one door: take a move, and say what it caused.

        Raises IllegalAction (the game unchanged) when the move is not one the phase takes from
        that seat; the message names the rule.
        """
        hand_number = self.hand_number
        trick_number = self.trick_number
        told = self._told = _Told()
        try:
            if move.__class__ is Play:
                self._play_move(seat, move)
            elif move.__class__ is Bid:
                hidden = self.phase is Phase.SIMULTANEOUS_BIDDING
                self._bid(seat, move.tricks)
                told.hidden = hidden
            elif move.__class__ is NameTrump:
                self._choose_trump(seat, move.suit)
            elif move.__class__ is Discard:
                self._discard(seat, list(move.cards))
                told.hidden = True
            else:
                raise IllegalAction(f"{move!r} is not a move.")
        finally:
            self._told = None
        return Outcome(
            seat=seat,
            move=move,
            hand_number=hand_number,
            hidden=told.hidden,
            trick_number=trick_number if move.__class__ is Play else None,
            trump_named=told.trump_named,
            declared=told.declared,
            turned_up=told.turned_up,
            super_trump=told.super_trump,
            cards_lost=told.cards_lost,
            extra_card=told.extra_card,
            bidding=told.bidding,
            trick=told.trick,
            scored=told.scored,
            next_hand=told.next_hand,
            winners=told.winners,
        )

    def _play_move(self, seat: int, move: Play) -> None:
        if move.declaration is not None:
            raise IllegalAction(f"The {move.card} is not declared: only a joker is.")
        self.play(seat, move.card)

    def choose_trump(self, seat: int, suit: Suit | str) -> None:
        """Name trump (the dealer, in dealer_picks); a thin door onto `apply`."""
        if isinstance(suit, str):
            try:
                suit = Suit.parse(suit)
            except ValueError as error:
                raise IllegalAction(f"{error}; no-trump is not allowed.") from None
        if not isinstance(suit, Suit):
            raise IllegalAction("Choose a suit: clubs, diamonds, hearts or spades.")
        self.apply(seat, NameTrump(suit))

    def discard(self, seat: int, cards: list[Card] | list[str]) -> None:
        """Discard face down (ouch); a thin door onto `apply`."""
        self.apply(seat, Discard(tuple(_parse_card(card) for card in cards)))

    def bid(self, seat: int, tricks: int) -> None:
        """Bid: `apply(seat, Bid(tricks))` without building the Outcome (the hot path)."""
        self._bid(seat, tricks)

    def _choose_trump(self, seat: int, suit: Suit) -> None:
        if self.phase is not Phase.TRUMP_CHOICE:
            raise IllegalAction("Trump is not being chosen now.")
        if seat != self.turn:
            raise IllegalAction("Only the dealer chooses trump.")
        if not isinstance(suit, Suit):
            raise IllegalAction("Choose a suit: clubs, diamonds, hearts or spades.")
        self.trump_suit = suit
        told = self._told
        if told is not None:
            told.trump_named = suit
        self._after_trump()

    def _discard(self, seat: int, chosen: list[Card]) -> None:
        if self.phase is not Phase.DISCARD:
            raise IllegalAction("It is not time to discard.")
        if seat not in self._pending:
            raise IllegalAction("You have already discarded this hand.")
        needed = self._discards_needed()
        if len(chosen) != needed or len(set(chosen)) != needed:
            raise IllegalAction(f"Discard exactly {needed} different cards.")
        held = self._held[seat]
        for card in chosen:
            if card not in held[slot_of(card)]:
                raise IllegalAction(f"You do not hold the {card}.")
        for card in chosen:
            held[slot_of(card)].remove(card)
        self.discarded[seat] = self.discarded[seat] + chosen
        self._pending.remove(seat)
        if not self._pending:
            self._discards_done(needed)

    def _discards_needed(self) -> int:
        return self.rules.discards_for(self.players)

    def _discards_done(self, needed: int) -> None:
        self.tricks_in_hand = self.hand_size - needed
        self._start_bidding()

    def _bid(self, seat: int, tricks: int) -> None:
        phase = self.phase
        if phase is Phase.SIMULTANEOUS_BIDDING:
            if seat not in self._pending:
                raise IllegalAction("You have already bid this hand.")
        elif phase is not Phase.BIDDING:
            raise IllegalAction("It is not time to bid.")
        elif seat != self.turn:
            raise IllegalAction("It is not your turn to bid.")
        if isinstance(tricks, bool) or not isinstance(tricks, int):
            raise IllegalAction("A bid is a whole number of tricks.")
        if not 0 <= tricks <= self.tricks_in_hand:
            raise IllegalAction(f"Bids go from 0 to {self.tricks_in_hand} in this hand.")
        if phase is Phase.BIDDING and seat == self.dealer:
            hook = self.hook_bid
            if tricks == hook:
                raise IllegalAction(
                    f"The dealer may not bid {tricks}: the bids would add up to the "
                    f"{self.tricks_in_hand} tricks."
                )
        self.bids[seat] = tricks
        if phase is Phase.SIMULTANEOUS_BIDDING:
            self._pending.remove(seat)
            if not self._pending:
                self._bids_complete()
            return
        if seat == self.dealer:
            if self._extra_card_possible() and self.bid_total == self.tricks_in_hand:
                self._deal_extra_card()
            self._bids_complete()
        else:
            self.turn = (seat + 1) % self.players

    def _bids_complete(self) -> None:
        """Every bid is in: play starts (special rules may first take a step of their own)."""
        self._start_play()

    def _deal_extra_card(self) -> None:
        for seat in self._seats_from_left():
            card = self._stock.pop(0)
            bisect.insort(self._held[seat][slot_of(card)], card, key=card_index)
        self.hand_size += 1
        self.tricks_in_hand += 1
        if self._told is not None:
            self._told.extra_card = True

    def play(self, seat: int, card: Card | str) -> None:
        """Play a card: `apply(seat, Play(card))` without building the Outcome (the hot path)."""
        if self.phase is not _PLAYING:
            raise IllegalAction("It is not time to play a card.")
        if seat != self.turn:
            raise IllegalAction("It is not your turn to play.")
        if card.__class__ is not Card:
            card = _parse_card(card)
        held = self._held[seat]
        suit = card.suit
        if suit is None:  # a special card: the standard pack never holds one
            raise IllegalAction(f"You do not hold a {card}: this pack has no special cards.")
        same_suit = held[suit]
        try:
            position = same_suit.index(card)
        except ValueError:
            raise IllegalAction(f"You do not hold the {card}.") from None
        trick = self.current_trick
        if trick:
            led = trick[0][1].suit
            if suit != led:
                assert led is not None  # the trick holds only standard cards (checked above)
                if held[led]:
                    raise IllegalAction(f"You must follow suit: you hold a {led.singular}.")
                trump = self.trump_suit
                if self._must_trump and trump is not None and suit != trump and held[trump]:
                    raise IllegalAction(
                        f"You cannot follow suit, so you must trump: you hold a {trump.singular}."
                    )
        elif (
            self._after_broken
            and suit == self.trump_suit
            and not self.trump_broken
            and any(held[other] for other in Suit if other != suit)
        ):
            raise IllegalAction(
                "Trumps have not been broken yet: lead another suit while you hold one."
            )
        del same_suit[position]
        trick.append((seat, card))
        if len(trick) == self.players:
            self._finish_trick(trick)
        else:
            self.turn = (seat + 1) % self.players

    def _trick_winner(self, trick: list[tuple[int, Card]] | Trick) -> tuple[int, bool]:
        """The seat that wins a full trick, and whether a trump won it."""
        trump = self.trump_suit
        winner, best = trick[0]
        best_suit = best.suit
        best_rank = best.rank
        for seat, card in trick:
            suit = card.suit
            if suit == best_suit:
                if card.rank > best_rank:
                    winner, best_rank = seat, card.rank
            elif suit == trump:
                winner, best_suit, best_rank = seat, suit, card.rank
        return winner, best_suit == trump

    def _finish_trick(self, trick: list[tuple[int, Card]]) -> None:
        winner, trumped = self._trick_winner(trick)
        if trumped:
            self.trump_broken = True
        self.tricks_won[winner] += 1
        played = tuple(trick)
        self._tricks_played.append(played)
        told = self._told
        if told is not None:
            told.trick = TrickResult(self.trick_number, played, winner)
        self.current_trick = []
        if self.trick_number < self.tricks_in_hand:
            self.trick_number += 1
            self.turn = winner
        else:
            self._score_hand()

    # ----- scoring and the next hand -----

    def _score_hand(self) -> None:
        rules = self.rules
        bids = [bid if bid is not None else 0 for bid in self.bids]
        tricks = self.tricks_won
        points = [
            hand_points(rules, bids[seat], tricks[seat], self.tricks_in_hand, self.blind)
            for seat in range(self.players)
        ]
        for seat, gained in enumerate(points):
            self.scores[seat] += gained
        self._scoresheet.append(
            HandRecord(
                hand_number=self.hand_number,
                hand_size=self.hand_size,
                tricks_in_hand=self.tricks_in_hand,
                dealer=self.dealer,
                trump_card=self.trump_card,
                trump_suit=self.trump_suit,
                bids=tuple(bids),
                tricks=tuple(tricks),
                made=tuple(bid == took for bid, took in zip(bids, tricks, strict=True)),
                points=tuple(points),
                totals=tuple(self.scores),
                blind=self.blind,
                leaders=tuple(trick[0][0] for trick in self._tricks_played),
                plays=tuple(card for trick in self._tricks_played for _, card in trick),
            )
        )
        told = self._told
        if told is not None:
            told.scored = self._scoresheet[-1]
        if self._game_should_end():
            self._end_game()
            return
        self.dealer = (self.dealer + 1) % self.players
        self.hand_number += 1
        self._deal()
        if told is not None:
            told.next_hand = HandStart(
                hand_number=self.hand_number,
                hand_size=self.hand_size,
                tricks_in_hand=self.tricks_in_hand,
                dealer=self.dealer,
                trump_card=self.trump_card,
                trump_suit=self.trump_suit,
                phase=self.phase,
            )

    def _game_should_end(self) -> bool:
        rules = self.rules
        if rules.game_end == "target":
            done = (
                max(self.scores) >= rules.target_score
                or self.hand_number >= TARGET_GAME_HAND_LIMIT
            )
        else:
            done = self.hand_number >= len(self._plan)
        if not done:
            return False
        top = max(self.scores)
        tied = self.scores.count(top) > 1
        if tied and rules.tiebreak == "extra_hands" and self._extra_hands < EXTRA_HAND_LIMIT:
            self._extra_hands += 1
            return False
        return True

    def _end_game(self) -> None:
        top = max(self.scores)
        self.winners = [seat for seat, score in enumerate(self.scores) if score == top]
        if self.rules.winner_rule == "exact_bid":
            self.winners = exact_bid_winners(self._scoresheet[-1])
        for seat in self.winners:
            self.scores[seat] += self.rules.winner_bonus
        self.phase = Phase.GAME_OVER
        self.turn = None
        self._pending = []
        self._held = [by_suit([]) for _ in range(self.players)]
        if self._told is not None:
            self._told.winners = tuple(self.winners)

    # ----- views -----

    def view(self, seat: int) -> PlayerView:
        """What `seat` may see. Other hands, others' discards and hidden bids are left out."""
        if not 0 <= seat < self.players:
            raise ValueError(f"There is no seat {seat}.")
        phase = self.phase
        hidden_hand = self.blind and phase in (Phase.BIDDING, Phase.SIMULTANEOUS_BIDDING)
        if phase is Phase.SIMULTANEOUS_BIDDING:
            bids = tuple(bid if other == seat else None for other, bid in enumerate(self.bids))
        else:
            bids = tuple(self.bids)
        legal_cards = tuple(sort_hand(self.legal_cards(seat)))
        return PlayerView(
            seat=seat,
            players=self.players,
            rules=self.rules,
            phase=phase,
            turn=self.turn,
            actor_seats=tuple(self.actor_seats()),
            dealer=self.dealer,
            hand_number=self.hand_number,
            hand_count=self.hand_count,
            hand_size=self.hand_size,
            tricks_in_hand=self.tricks_in_hand,
            trump_card=self.trump_card,
            trump_suit=self.trump_suit,
            super_trump=self.super_trump,
            blind=self.blind,
            hand=() if hidden_hand else tuple(sort_hand(self.hand_of(seat))),
            discarded=tuple(self.discarded[seat]),
            bids=bids,
            has_bid=tuple(bid is not None for bid in self.bids),
            hook_bid=self.hook_bid,
            tricks_won=tuple(self.tricks_won),
            current_trick=tuple(self.current_trick),
            led_suit=self.led_suit,
            declarations=tuple(self.declarations.items()),
            tricks_played=tuple(self._tricks_played),
            trick_number=self.trick_number,
            trump_broken=self.trump_broken,
            scores=tuple(self.scores),
            scoresheet=tuple(self._scoresheet),
            legal_bids=tuple(self.legal_bids(seat)),
            legal_cards=legal_cards,
            legal_declarations=tuple(
                (card, tuple(options))
                for card in legal_cards
                if (options := self.legal_declarations(card, seat))
            ),
            card_values=self.card_values(),
            legal_trumps=tuple(self.legal_trumps()) if seat == self.turn else (),
            discards_needed=(
                self._discards_needed() if seat in self._pending and phase is Phase.DISCARD
                else 0
            ),
            winners=tuple(self.winners),
        )

    def card_values(self) -> tuple[tuple[Card, str], ...]:
        """What each special card (and the Super Trump) is worth this hand, in words; empty for
        the standard pack."""
        return ()

    def public_state(self) -> PublicState:
        """What everyone at the table may see (hidden simultaneous bids stay hidden)."""
        phase = self.phase
        bids: tuple[int | None, ...] = tuple(self.bids)
        if phase is Phase.SIMULTANEOUS_BIDDING:
            bids = tuple(None for _ in bids)
        return PublicState(
            phase=phase,
            players=self.players,
            hand_number=self.hand_number,
            hand_count=self.hand_count,
            hand_size=self.hand_size,
            tricks_in_hand=self.tricks_in_hand,
            dealer=self.dealer,
            turn=self.turn,
            actor_seats=tuple(self.actor_seats()),
            trump_card=self.trump_card,
            trump_suit=self.trump_suit,
            super_trump=self.super_trump,
            bids=bids,
            tricks_won=tuple(self.tricks_won),
            current_trick=tuple(self.current_trick),
            declarations=tuple(self.declarations.items()),
            last_trick=self.last_trick,
            trick_number=self.trick_number,
            scores=tuple(self.scores),
            hook_bid=self.hook_bid,
            scoresheet=tuple(self._scoresheet),
            winners=tuple(self.winners),
        )

    # ----- snapshots -----

    def to_json(self) -> str:
        """The whole state as JSON; `Game.from_json` restores it exactly."""
        return json.dumps(self._to_dict(), separators=(",", ":"))

    def _to_dict(self) -> dict[str, Any]:
        return {
            "version": SNAPSHOT_VERSION,
            "players": self.players,
            "rules": self.rules.model_dump(mode="json"),
            "seed": self.seed,
            "deal_index": self._deal_index,
            "extra_hands": self._extra_hands,
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "phase": self.phase.value,
            "turn": self.turn,
            "pending": self._pending,
            "hand_size": self.hand_size,
            "tricks_in_hand": self.tricks_in_hand,
            "hands": [card_codes(self.hand_of(seat)) for seat in range(self.players)],
            "stock": card_codes(self._stock),
            "discarded": [card_codes(cards) for cards in self.discarded],
            "trump_card": self.trump_card.code if self.trump_card else None,
            "trump_suit": self.trump_suit.letter if self.trump_suit is not None else None,
            "super_trump": self.super_trump.code if self.super_trump else None,
            "declarations": [
                [card.code, declaration.code()] for card, declaration in self.declarations.items()
            ],
            "plan": self._plan,
            "blind": self.blind,
            "bids": self.bids,
            "tricks_won": self.tricks_won,
            "current_trick": [[seat, card.code] for seat, card in self.current_trick],
            "tricks_played": [[[s, c.code] for s, c in trick] for trick in self._tricks_played],
            "trick_number": self.trick_number,
            "trump_broken": self.trump_broken,
            "scores": self.scores,
            "scoresheet": [record_to_dict(record) for record in self._scoresheet],
            "winners": self.winners,
        }

    @classmethod
    def from_json(cls, text: str) -> Game:
        """Restore a snapshot. Raises ValueError when it is not one this code can read."""
        try:
            data = json.loads(text)
            if data.get("version") != SNAPSHOT_VERSION:
                raise ValueError(f"snapshot version {data.get('version')!r} is not supported")
            return cls._from_dict(data)
        except (LookupError, TypeError, AttributeError, ArithmeticError, RecursionError) as error:
            raise ValueError(f"unreadable game snapshot: {error!r}") from None

    @classmethod
    def _from_dict(cls, data: dict[str, Any]) -> Game:
        rules = Rules.model_validate(data["rules"])
        game = cls.__new__(_game_class(rules))
        game.players = int(data["players"])
        game.rules = rules
        game.seed = data["seed"]
        plan = data.get("plan") or game.rules.plan(int(data["players"]))
        if not isinstance(plan, list) or not plan or not all(
            _whole(size) and 1 <= size <= MAX_HAND for size in plan
        ):
            raise ValueError("the snapshot's hand sizes are not a list of hand sizes")
        game._plan = plan
        game._deal_index = data["deal_index"]
        game._cache_rule_flags()
        game._extra_hands = data["extra_hands"]
        game.hand_number = data["hand_number"]
        game.dealer = data["dealer"]
        game.phase = Phase(data["phase"])
        game.turn = data["turn"]
        game._pending = list(data["pending"])
        game.hand_size = data["hand_size"]
        game.tricks_in_hand = data["tricks_in_hand"]
        game._held = [by_suit(cards_from_codes(hand)) for hand in data["hands"]]
        game._stock = cards_from_codes(data["stock"])
        game.discarded = [cards_from_codes(codes) for codes in data["discarded"]]
        game.trump_card = Card.parse(data["trump_card"]) if data["trump_card"] else None
        game.trump_suit = Suit.parse(data["trump_suit"]) if data["trump_suit"] else None
        super_trump = data.get("super_trump")
        game.super_trump = Card.parse(super_trump) if super_trump else None
        game.declarations = {
            Card.parse(code): Declaration.from_code(declared)
            for code, declared in data.get("declarations", [])
        }
        game.blind = data["blind"]
        game.bids = list(data["bids"])
        game.tricks_won = list(data["tricks_won"])
        game.current_trick = [(seat, Card.parse(code)) for seat, code in data["current_trick"]]
        game._tricks_played = [
            tuple((seat, Card.parse(code)) for seat, code in trick)
            for trick in data["tricks_played"]
        ]
        game.trick_number = data["trick_number"]
        game.trump_broken = data["trump_broken"]
        game.scores = list(data["scores"])
        game._scoresheet = [record_from_dict(record) for record in data["scoresheet"]]
        game.winners = list(data["winners"])
        game._restored()
        problem = game._unsound()
        if problem:
            raise ValueError(f"unsound game snapshot: {problem}")
        return game

    def _turn_unsound(self) -> str | None:
        """Whether the seat to act is the one the bids and the tricks so far make it."""
        players = self.players
        left = (self.dealer + 1) % players
        phase = self.phase
        if phase is Phase.TRUMP_CHOICE:
            expected: int | None = self.dealer
        elif phase is Phase.BIDDING:
            made = sum(bid is not None for bid in self.bids)
            expected = (left + made) % players
            if any(self.bids[(left + offset) % players] is None for offset in range(made)):
                return "the bids were not made in turn"
        elif phase is Phase.PLAYING:
            if any(bid is None for bid in self.bids):
                return "a bid is missing"
            trick = self.current_trick
            done = self._tricks_played
            leader = self._trick_winner(done[-1])[0] if done else left
            if any(seat != (leader + i) % players for i, (seat, _) in enumerate(trick)):
                return "the cards of the trick were not played in turn"
            expected = (leader + len(trick)) % players
        else:
            return None
        return None if self.turn == expected else "the turn is not the seat to act"

    def _unsound(self) -> str | None:
        """Why a restored state could not have come from play, or None.

        A snapshot is read back after a crash or from a hand-edited store; a state that breaks
        an invariant would fail later in the middle of a move, so it is refused here.
        """
        players = self.players
        if not _whole(players) or not 3 <= players <= 8:
            return f"{players!r} players"
        scalars = (self.seed, self._deal_index, self._extra_hands, self.hand_number, self.dealer,
                   self.hand_size, self.tricks_in_hand, self.trick_number)
        if not all(map(_whole, scalars)) or not (self.turn is None or _whole(self.turn)):
            return "a number that is not a whole number"
        if not isinstance(self.blind, bool) or not isinstance(self.trump_broken, bool):
            return "a yes/no field that is not true or false"
        numbers = [*self.scores, *self.tricks_won, *self.winners, *self._pending]
        numbers += [bid for bid in self.bids if bid is not None]
        if not all(map(_whole, numbers)):
            return "a score, bid, trick count or seat that is not a whole number"
        if self._deal_index < 1 or not 0 <= self._extra_hands <= EXTRA_HAND_LIMIT:
            return "the deal count is out of range"
        if not 1 <= self.hand_number <= MAX_HANDS + EXTRA_HAND_LIMIT + TARGET_GAME_HAND_LIMIT:
            return "the hand number is out of range"
        problem = self.rules.problem(players)
        if problem:
            return problem
        seats = range(players)
        for name in ("bids", "tricks_won", "scores", "discarded", "_held"):
            if len(getattr(self, name)) != players:
                return f"{name} is not one entry per seat"
        if self.dealer not in seats or (self.turn is not None and self.turn not in seats):
            return "a seat number out of range"
        if len(set(self._pending)) != len(self._pending) or any(
            seat not in seats for seat in self._pending
        ):
            return "the seats awaited are not distinct seats"
        phase = self.phase
        if (self.turn is None) != (phase.simultaneous or phase is Phase.GAME_OVER):
            return f"the turn does not fit the {phase.value} phase"
        if phase.simultaneous and not self._pending:
            return f"nobody is awaited in the {phase.value} phase"
        if not 1 <= self.tricks_in_hand <= self.hand_size + 1 or self.hand_size > MAX_HAND:
            return "the hand's size and its tricks disagree"
        most = max(self.hand_size, self.tricks_in_hand)  # a super_screw loss comes after bids
        if any(bid is not None and not 0 <= bid <= most for bid in self.bids):
            return "a bid out of range"
        done = len(self._tricks_played)
        if any(won < 0 for won in self.tricks_won) or sum(self.tricks_won) != done:
            return "the tricks won do not match the tricks played"
        if phase is not Phase.GAME_OVER and self.trick_number != done + 1:
            return "the trick number does not match the tricks played"
        if len(self.current_trick) >= players or any(
            len(trick) != players for trick in self._tricks_played
        ):
            return "a trick has the wrong number of cards"
        turn_problem = self._turn_unsound()
        if turn_problem:
            return turn_problem
        every_card = [card for seat in seats for card in self.hand_of(seat)]
        every_card += self._stock
        every_card += [card for cards in self.discarded for card in cards]
        every_card += [card for _, card in self.current_trick]
        every_card += [card for trick in self._tricks_played for _, card in trick]
        if self.trump_card is not None and self.rules.trump_choice != "dealer_last_card":
            every_card.append(self.trump_card)
        if len(set(every_card)) != len(every_card):
            return "a card is in two places"
        if phase is Phase.GAME_OVER:
            if any(self._held[seat] != [[], [], [], [], []] for seat in seats):
                return "cards are still held after the game"
            if not self.winners and self.rules.winner_rule != "exact_bid":
                return "no winners"
            return None if set(self.winners) <= set(seats) else "a winner out of range"
        if len(every_card) != self.rules.pack_size(players):
            return "cards are missing from the pack"
        for seat in seats:
            expected = self.tricks_in_hand
            if phase is Phase.PLAYING:
                expected -= done + any(player == seat for player, _ in self.current_trick)
            elif phase is Phase.DISCARD or phase is Phase.TRUMP_CHOICE:
                expected = self.hand_size - (
                    0 if seat in self._pending or phase is Phase.TRUMP_CHOICE
                    else self._discards_needed()
                )
            if len(self.hand_of(seat)) != expected:
                return f"seat {seat} holds {len(self.hand_of(seat))} cards, not {expected}"
        return None

    def _restored(self) -> None:
        """Rebuild what a snapshot does not store (special rules: the hand's card meanings)."""

    def copy(self) -> Game:
        """An independent copy, for trying an action without touching the original."""
        return Game._from_dict(json.loads(self.to_json()))

    def __repr__(self) -> str:
        return (
            f"<Game {self.rules.name} players={self.players} hand={self.hand_number} "
            f"phase={self.phase.value} turn={self.turn}>"
        )




def exact_bid_winners(record: HandRecord) -> list[int]:
    """Quick's winner rule: the players who made their exact bid, the highest such bid first;
    nobody when nobody made it."""
    made = [seat for seat, made in enumerate(record.made) if made]
    if not made:
        return []
    top = max(record.bids[seat] for seat in made)
    return [seat for seat in made if record.bids[seat] == top]


class SpecialGame(Game):
    """A game whose pack holds jokers, Wizards or Jesters (docs/rules.md section 4).

    `Game.new` and `Game.from_json` hand one out when the rules add special cards, so the
    standard pack's play path stays free of every special-card branch. Each special step is its
    own phase or move: a joker's declaration goes with its Play; a turned Wizard waits for the
    dealer's NameTrump; in super_screw the bids come first, then even bids cost a card (or deal
    a second one), then the trump card is turned.
    """

    _hand: SpecialHand
    _losing: bool = False

    # ----- the deal -----

    def _shuffled_pack(self) -> list[Card]:
        return dealt_pack(self.seed, self._deal_index, tuple(self.rules.pack(self.players)))

    def _hands_from(self, owner: dict[Card, int]) -> list[list[list[Card]]]:
        held: list[list[list[Card]]] = [[[], [], [], [], []] for _ in range(self.players)]
        for card in ALL_CARDS:
            seat = owner.get(card)
            if seat is not None:
                held[seat][slot_of(card)].append(card)
        return held

    def _trump_step(self, deck: list[Card], dealt: int) -> None:
        rules = self.rules
        self._losing = False
        no_trump = rules.last_hand_no_trump and self._is_last_planned_hand()
        choice = rules.trump_choice
        if choice == "turn_up" and not no_trump:
            if rules.bid_before_trump:
                self._after_trump()  # the card is turned once every bid is in
                return
            if self._turn_up():
                return  # a turned Wizard: the dealer names trump
            self._after_trump()
            return
        super()._trump_step(deck, dealt)

    def _turn_up(self) -> bool:
        """Turn the next card for trump; True when it is a Wizard and the dealer must name trump."""
        if not self._stock:
            return False
        card = self._stock.pop(0)
        self.trump_card = card
        self.trump_suit = card.suit if card.index < 52 else None
        if self.rules.special_cards == "super_screw":
            self.super_trump = super_trump_for(card)
        told = self._told
        if told is not None:
            told.turned_up = card
            told.trump_named = self.trump_suit
            told.super_trump = self.super_trump
        if card.kind == "wizard":
            self.phase = Phase.TRUMP_CHOICE
            self.turn = self.dealer
            self._refresh()
            return True
        return False

    def _after_trump(self) -> None:
        self._refresh()
        super()._after_trump()

    def _refresh(self) -> None:
        self._hand = SpecialHand(
            self.rules.special_cards, self.trump_suit, self.trump_card, self.super_trump
        )

    def _restored(self) -> None:
        self._losing = self.phase is Phase.DISCARD and all(
            bid is not None for bid in self.bids
        )
        self._refresh()

    # ----- bids that add up (super_screw) -----

    def _bids_complete(self) -> None:
        rules = self.rules
        even = self.bid_total == self.tricks_in_hand
        if even and rules.card_loss != "none":
            if self.hand_size == 1:
                if len(self._stock) > self.players:
                    self._deal_second_card()
            elif rules.card_loss == "choice":
                self._losing = True
                self.phase = Phase.DISCARD
                self.turn = None
                self._pending = list(self._seats_from_left())
                return
            else:
                self._lose_random_cards()
        self._after_bids()

    def _after_bids(self) -> None:
        if self.rules.bid_before_trump and self.rules.trump_choice == "turn_up":
            self._turn_up()
        self._refresh()
        self._start_play()

    def _deal_second_card(self) -> None:
        for seat in self._seats_from_left():
            card = self._stock.pop(0)
            held = self._held[seat][slot_of(card)]
            bisect.insort(held, card, key=card_index)
        self.hand_size += 1
        self.tricks_in_hand += 1
        if self._told is not None:
            self._told.extra_card = True

    def _lose_random_cards(self) -> None:
        """Each player's left neighbour takes one card from them blind; it leaves play."""
        rng = random.Random(f"ohhell:{self.seed}:{self._deal_index}:loss")
        for seat in self._seats_from_left():
            cards = self.hand_of(seat)
            card = cards[int(rng.random() * len(cards))]
            self._held[seat][slot_of(card)].remove(card)
            self.discarded[seat] = self.discarded[seat] + [card]
        self.tricks_in_hand -= 1
        if self._told is not None:
            self._told.cards_lost = True

    def _discards_needed(self) -> int:
        return 1 if self._losing else super()._discards_needed()

    def _discards_done(self, needed: int) -> None:
        if not self._losing:
            super()._discards_done(needed)
            return
        self._losing = False
        self.tricks_in_hand = self.hand_size - 1
        if self._told is not None:
            self._told.cards_lost = True
        self._after_bids()

    # ----- play -----

    @property
    def led_suit(self) -> Suit | None:
        if not self.current_trick:
            return None
        return self._hand.led_suit(self.current_trick, self.declarations)

    def legal_cards(self, seat: int | None = None) -> list[Card]:
        turn = self.turn
        if self.phase is not _PLAYING or (seat is not None and seat != turn):
            return []
        assert turn is not None
        held = self.hand_of(turn)
        return self._hand.legal(held, self.current_trick, self.declarations,
                                self.trick_number == 1)

    def legal_declarations(self, card: Card, seat: int | None = None) -> list[Declaration]:
        turn = self.turn
        if self.phase is not _PLAYING or (seat is not None and seat != turn) or turn is None:
            return []
        held = self.hand_of(turn)
        return list(self._hand.declarations_for(card, held, self.current_trick,
                                                self.declarations))

    def _play_move(self, seat: int, move: Play) -> None:
        self.play(seat, move.card, move.declaration)

    def play(
        self, seat: int, card: Card | str, declaration: Declaration | None = None
    ) -> None:
        """Play a card; a joker that asks for it is played with its declaration."""
        if self.phase is not _PLAYING:
            raise IllegalAction("It is not time to play a card.")
        if seat != self.turn:
            raise IllegalAction("It is not your turn to play.")
        if card.__class__ is not Card:
            card = _parse_card(card)
        assert isinstance(card, Card)
        held = self.hand_of(seat)
        if card not in held:
            alike = next((other for other in held if card.index >= 52 and
                          other.kind == card.kind), None)
            if alike is None:
                article = "a" if card.index >= 52 else "the"
                raise IllegalAction(f"You do not hold {article} {card}.")
            card = alike
        hand = self._hand
        trick = self.current_trick
        declarations = self.declarations
        refusal = hand.refusal(card, held, trick, declarations, self.trick_number == 1)
        if refusal is None:
            refusal = hand.declaration_refusal(card, declaration, held, trick, declarations)
        if refusal is not None:
            raise IllegalAction(refusal)
        if declaration is None:
            declaration = hand.auto_declaration(card, declarations)
        self._held[seat][slot_of(card)].remove(card)
        if declaration is not None:
            declarations[card] = declaration
        if self._told is not None:
            self._told.declared = declaration
        trick.append((seat, card))
        if len(trick) == self.players:
            self._finish_trick(trick)
        else:
            self.turn = (seat + 1) % self.players

    def _trick_winner(self, trick: list[tuple[int, Card]] | Trick) -> tuple[int, bool]:
        hand = self._hand
        declarations = self.declarations
        winner = hand.winner(trick, declarations)
        trumped = any(
            hand.key(card, declarations.get(card), None)[0] == TRUMP
            for seat, card in trick
            if seat == winner
        )
        return winner, trumped

    def card_values(self) -> tuple[tuple[Card, str], ...]:
        if self.phase is Phase.GAME_OVER:
            return ()
        return self._hand.card_values(self.rules.special_pack(), self.declarations)


def _game_class(rules: Rules) -> type[Game]:
    return Game if rules.special_cards == "none" else SpecialGame
