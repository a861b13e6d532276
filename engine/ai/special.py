"""Computer play for the special-card presets (jokers, Wizards, Jesters: docs/rules.md section 4).

The bit-set machinery of the other modules knows only the 52 standard cards, so these presets
get their own small toolkit built on the engine's own card rules (`engine.special.SpecialHand`,
the same code that judges the real tricks):

- `card_value`: how likely a held card is to take a trick (a Wizard and the Super Joker are sure
  tricks, a Jester a sure loss); the bid of easy and medium.
- `choose_option`: the card and declaration a heuristic player picks: the cheapest sure winner
  when the bid needs the trick (a joker declared high), the highest safe loser when it does not
  (a Jester, a joker declared low in a side suit); also the rollout policy of the search.
- `SpecialSearch`: hard's determinized search, as the standard presets do it: deal the unseen
  cards to the other seats (respecting the suits they have shown void) again and again, play
  each candidate out with the rollout policy for every seat, and keep the one that scores best
  (under Quick's rule, the one that wins most often: `outcome`). Deals are drawn uniformly: an
  opponent model weighing them by the bids and plays seen (as engine/ai/opponents.py does for
  the standard pack) was tried in issue 24 and played worse here (`SpecialSearch`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from engine.ai.bits import mask_of
from engine.ai.policy import TAKE_WHEN_BUST, TrickEstimator, easy_count, nearest_bid
from engine.cards import Card, Suit
from engine.moves import Declaration, Phase
from engine.scoring import exact_bid_winners, hand_points
from engine.special import BOTTOM, OFF, SpecialHand, super_trump_for
from engine.view import PlayerView

Option = tuple[Card, Declaration | None]
BID_WINDOW = 2.5
"""Hard weighs the bids within this many tricks of the medium estimate (a big hand would
otherwise roll out every bid from 0 to 20 in each sampled deal)."""
Trick = Sequence[tuple[int, Card]]


def hand_rules(view: PlayerView) -> SpecialHand:
    """The special-card rules of the view's hand, as the engine applies them."""
    return SpecialHand(view.rules.special_cards, view.trump_suit, view.trump_card,
                       view.super_trump)


# ----- what a card is worth -----


def card_value(card: Card, hand: SpecialHand, wizards: int) -> float | None:
    """The chance a special card (or the Super Trump) takes a trick; None for a plain card,
    which the standard estimate values."""
    if card is hand.super_trump:
        return 0.95
    if card.index < 52:
        return None
    kind = card.kind
    if kind == "wizard":
        return 1.0 if wizards <= 1 else 0.92
    if kind == "jester":
        return 0.0
    if kind == "super_joker":
        return 1.0
    if kind == "loser_joker":
        return 0.95
    if kind in ("high_joker", "low_joker"):
        return 0.85
    if hand.system == "blackout_jokers":
        return 0.5
    if hand.system == "joker_dup" and hand.dup is not None:
        return 0.25 + 0.05 * max(0, hand.dup.rank - 6)
    return 1.0  # joker_high: the highest trump, or in a no-trump hand above every card


def estimate_tricks(view: PlayerView, level: str) -> float:
    """Expected tricks of the own hand: standard cards by the usual estimate, special cards by
    `card_value`."""
    hand = hand_rules(view)
    plain = [card for card in view.hand if card.index < 52 and card is not hand.super_trump]
    trump = -1 if view.trump_suit is None else int(view.trump_suit)
    if level == "easy":
        total = float(easy_count(mask_of(plain), trump))
    elif view.rules.bid_before_trump and view.trump_card is None and view.phase.bidding:
        # the trump card is turned after the bids: each suit is as likely to be trump
        tricks = max(1, view.tricks_in_hand)
        total = sum(
            TrickEstimator(view.players, tricks, suit, 0).estimate(mask_of(plain))
            for suit in range(4)
        ) / 4
    else:
        turned = view.trump_card
        turned_mask = 1 << turned.index if turned is not None and turned.index < 52 else 0
        estimator = TrickEstimator(view.players, max(1, view.tricks_in_hand), trump, turned_mask)
        total = estimator.estimate(mask_of(plain))
    wizards = sum(card.kind == "wizard" for card in view.rules.special_pack())
    for card in view.hand:
        value = card_value(card, hand, wizards)
        if value is not None:
            total += value
    return min(total, float(view.tricks_in_hand))


# ----- choosing a card and its declaration -----


def options_for(hand: SpecialHand, card: Card, held: Sequence[Card], trick: Trick,
                declarations: dict[Card, Declaration]) -> list[Declaration | None]:
    """The declarations worth considering for `card` (None when it takes none): for a joker
    of Love That Joker, the strongest and weakest it may be, not all sixteen."""
    allowed = hand.declarations_for(card, held, trick, declarations)
    if not allowed:
        return [None]
    if len(allowed) <= 4:
        return list(allowed)
    led = hand.led_suit(trick, declarations) if trick else None
    picks: list[Declaration | None] = []
    for wanted in (
        Declaration(hand.trump, True), Declaration(None, True), Declaration(led, True),
        Declaration(led, False),
    ):
        if wanted in allowed and wanted not in picks:
            picks.append(wanted)
    off = [d for d in allowed if d.high is False and d.suit is not None
           and d.suit not in (led, hand.trump)]
    if off:
        picks.append(off[0])
    highs = [d for d in allowed if d.high]
    if highs and not any(d is not None and d.high for d in picks):
        picks.append(highs[0])
    return list(picks) if picks else [allowed[0]]


def _trick_best(hand: SpecialHand, trick: Trick, declarations: dict[Card, Declaration],
                led: Suit | None) -> tuple[int, float]:
    best = (BOTTOM - 1, 0.0)
    for _seat, card in trick:
        key = hand.key(card, declarations.get(card), led)
        if key > best:
            best = key
    return best


def choose_option(
    hand: SpecialHand,
    held: Sequence[Card],
    legal: Sequence[Card],
    trick: Trick,
    declarations: dict[Card, Declaration],
    players: int,
    want: bool,
    careful: bool = True,
) -> Option:
    """A card (and declaration) by rule of thumb: win cheaply when the trick is wanted, lose
    with the highest card that surely loses when it is not. `careful` False is the easy level:
    the highest card to win, the lowest to lose."""
    options: list[tuple[tuple[int, float], bool, Card, Declaration | None]] = []
    led = hand.led_suit(trick, declarations) if trick else None
    best = _trick_best(hand, trick, declarations, led)
    for card in legal:
        for declaration in options_for(hand, card, held, trick, declarations):
            own_led = led
            if led is None:
                own_led = hand.led_suit([(0, card)], {card: declaration} if declaration else {})
            if declaration is None:
                declaration_used = hand.auto_declaration(card, declarations)
            else:
                declaration_used = declaration
            key = hand.key(card, declaration_used, own_led)
            wins = not trick or key > best
            options.append((key, wins, card, declaration))
    last = len(trick) == players - 1
    if want:
        winners = [option for option in options if option[1]]
        if winners and trick:
            if careful and last:
                chosen = min(winners, key=lambda option: option[0])
            else:
                chosen = max(winners, key=lambda option: option[0])
        elif trick:
            chosen = min(options, key=lambda option: option[0])
        else:
            chosen = max(options, key=lambda option: option[0])
    else:
        losers = [option for option in options if not option[1]]
        if careful and losers:
            chosen = max(losers, key=lambda option: option[0])
        else:
            chosen = min(options, key=lambda option: _lead_low(option[0]))
    return chosen[2], chosen[3]


def _lead_low(key: tuple[int, float]) -> tuple[int, float]:
    """Leading to lose: the lowest card, but a plain low card before a trump."""
    return (OFF if key[0] in (1, 0) else key[0], key[1])


def wants(rules_scoring: str, need: int) -> bool:
    return need > 0 or (need < 0 and TAKE_WHEN_BUST.get(rules_scoring, False))


def view_option(view: PlayerView, careful: bool) -> Option:
    """The heuristic card and declaration for the seat to act in `view`."""
    hand = hand_rules(view)
    declarations = dict(view.declarations)
    me = view.seat
    need = (view.bids[me] or 0) - view.tricks_won[me]
    want = wants(view.rules.scoring, need)
    return choose_option(hand, view.hand, view.legal_cards, view.current_trick, declarations,
                         view.players, want, careful)


def best_declaration(view: PlayerView, card: Card) -> Declaration | None:
    """The declaration a careful player gives `card` (None when it takes none)."""
    hand = hand_rules(view)
    declarations = dict(view.declarations)
    need = (view.bids[view.seat] or 0) - view.tricks_won[view.seat]
    chosen = choose_option(hand, view.hand, [card], view.current_trick, declarations,
                           view.players, wants(view.rules.scoring, need))
    return chosen[1]


def trump_for(view: PlayerView) -> Suit:
    """The suit to name (a turned Wizard): the longest and highest among the plain cards."""
    counts = [0.0, 0.0, 0.0, 0.0]
    for card in view.hand:
        if card.suit is not None:
            counts[card.suit] += 1 + card.rank / 28
    options = view.legal_trumps or tuple(Suit)
    return max(options, key=lambda suit: counts[suit])


def weakest(view: PlayerView, needed: int) -> list[Card]:
    """Cards to give up (a chosen card loss): the ones least likely to matter."""
    hand = hand_rules(view)
    def worth(card: Card) -> float:
        value = card_value(card, hand, 1)
        return value if value is not None else card.rank / 14
    return sorted(view.hand, key=worth)[:needed]


# ----- hard: determinized search -----


class World:
    """One guess at the hidden cards, played out to the end of the hand."""

    __slots__ = ("declarations", "first", "hand", "hands", "trick", "turn", "won")

    def __init__(self, hand: SpecialHand, hands: list[list[Card]], trick: list[tuple[int, Card]],
                 declarations: dict[Card, Declaration], turn: int, won: list[int],
                 first: bool) -> None:
        self.hand = hand
        self.hands = hands
        self.trick = trick
        self.declarations = declarations
        self.turn = turn
        self.won = won
        self.first = first

    def play(self, card: Card, declaration: Declaration | None, players: int) -> None:
        seat = self.turn
        self.hands[seat].remove(card)
        if declaration is None:
            declaration = self.hand.auto_declaration(card, self.declarations)
        if declaration is not None:
            self.declarations[card] = declaration
        self.trick.append((seat, card))
        if len(self.trick) == players:
            winner = self.hand.winner(self.trick, self.declarations)
            self.won[winner] += 1
            self.trick = []
            self.turn = winner
            self.first = False
        else:
            self.turn = (seat + 1) % players

    def finish(self, bids: Sequence[int], players: int, scoring: str) -> None:
        """Every seat plays by the careful rule of thumb until the hand is over."""
        hand = self.hand
        while self.hands[self.turn]:
            seat = self.turn
            held = self.hands[seat]
            legal = hand.legal(held, self.trick, self.declarations, self.first) or held
            want = wants(scoring, bids[seat] - self.won[seat])
            card, declaration = choose_option(hand, held, legal, self.trick, self.declarations,
                                              players, want)
            self.play(card, declaration, players)


class SpecialSearch:
    """Hard's search for the special presets: sampled deals of the unseen cards, rollouts.

    Issue 24 tried weighing the deals by an opponent model (each opponent careful, careless or
    other; the chance each would have bid and played as it did from the sampled hand; the
    rollouts played by each one's drawn kind): paired on duplicate 6-card deals, one hard
    against three mediums at the default budget, 10 deals x 4 rotations of seed 11, load 9,
    with the model less without it scored -1.43 +- 0.82 points a hand on joker_high and
    +0.92 +- 3.29 on wizard with a pool of four deals picked by weight, -1.50 +- 0.72 on
    joker_high with each deal weighted instead: replaying the plays cost many of the deals
    searched, and the weights leave few deals that count. Not kept."""

    def __init__(self, rng: random.Random, more: Callable[[int], bool]) -> None:
        self.rng = rng
        self.more = more
        """Asked with the number of deals searched so far: whether to search another."""
        self.deals = 0

    # ----- the unseen cards -----

    def _voids(self, view: PlayerView, hand: SpecialHand) -> list[set[Suit]]:
        voids: list[set[Suit]] = [set() for _ in range(view.players)]
        declarations = dict(view.declarations)
        for trick in (*view.tricks_played, view.current_trick):
            for position in range(1, len(trick)):
                led = hand.led_suit(trick[:position], declarations)
                seat, card = trick[position]
                if led is not None and not hand.is_wild(card) and hand.suit_of(card) != led:
                    voids[seat].add(led)
        return voids

    def _unseen(self, view: PlayerView) -> list[Card]:
        seen = set(view.hand) | set(view.discarded)
        for trick in (*view.tricks_played, view.current_trick):
            seen.update(card for _, card in trick)
        if view.trump_card is not None:
            seen.add(view.trump_card)
        return [card for card in view.rules.pack(view.players) if card not in seen]

    def _counts(self, view: PlayerView) -> list[int]:
        done = len(view.tricks_played)
        in_trick = {seat for seat, _ in view.current_trick}
        if view.phase is Phase.PLAYING:
            return [view.tricks_in_hand - done - (seat in in_trick)
                    for seat in range(view.players)]
        return [view.tricks_in_hand] * view.players

    def deal(self, view: PlayerView, hand: SpecialHand, unseen: list[Card],
             counts: list[int], voids: list[set[Suit]]) -> tuple[list[list[Card]], list[Card]]:
        """Hands for the other seats (and the cards left over), respecting shown voids."""
        rng = self.rng
        me = view.seat
        for _attempt in range(12):
            pool = unseen[:]
            rng.shuffle(pool)
            hands: list[list[Card]] = [[] for _ in range(view.players)]
            hands[me] = list(view.hand)
            rest: list[Card] = []
            for card in pool:
                suit = None if hand.is_wild(card) else hand.suit_of(card)
                open_seats = [
                    seat for seat in range(view.players)
                    if seat != me and len(hands[seat]) < counts[seat]
                    and (suit is None or suit not in voids[seat])
                ]
                if open_seats:
                    hands[rng.choice(open_seats)].append(card)
                else:
                    rest.append(card)
            if all(len(hands[s]) == counts[s] for s in range(view.players) if s != me):
                return hands, rest
        pool = unseen[:]
        rng.shuffle(pool)
        hands = [[] for _ in range(view.players)]
        hands[me] = list(view.hand)
        for seat in range(view.players):
            if seat != me:
                hands[seat], pool = pool[: counts[seat]], pool[counts[seat]:]
        return hands, pool

    # ----- decisions -----

    def choose_card(self, view: PlayerView) -> Option:
        hand = hand_rules(view)
        declarations = dict(view.declarations)
        candidates: list[Option] = []
        for card in view.legal_cards:
            for declaration in options_for(hand, card, view.hand, view.current_trick,
                                           declarations):
                candidates.append((card, declaration))
        if len(candidates) == 1:
            return candidates[0]
        unseen = self._unseen(view)
        counts = self._counts(view)
        voids = self._voids(view, hand)
        bids = [bid or 0 for bid in view.bids]
        totals = [0.0] * len(candidates)
        me = view.seat
        self.deals = 0
        while self.more(self.deals):
            self.deals += 1
            hands, _rest = self.deal(view, hand, unseen, counts, voids)
            for index, (card, declaration) in enumerate(candidates):
                world = World(hand, [list(cards) for cards in hands], list(view.current_trick),
                              dict(declarations), me, list(view.tricks_won),
                              view.trick_number == 1)
                world.play(card, declaration, view.players)
                world.finish(bids, view.players, view.rules.scoring)
                totals[index] += outcome(view, bids, world.won)
        usual = view_option(view, careful=True)  # breaks ties: the rule of thumb's option
        return candidates[max(range(len(candidates)),
                              key=lambda i: (totals[i], candidates[i] == usual))]

    def choose_bid(self, view: PlayerView) -> int:
        legal = list(view.legal_bids)
        if len(legal) == 1:
            return legal[0]
        guess = estimate_tricks(view, "medium")
        near = [bid for bid in legal if abs(bid - guess) <= BID_WINDOW]
        legal = near or [min(legal, key=lambda bid: abs(bid - guess))]
        rules = view.rules
        me = view.seat
        unseen = self._unseen(view)
        counts = self._counts(view)
        voids: list[set[Suit]] = [set() for _ in range(view.players)]
        base = hand_rules(view)
        totals = {bid: 0.0 for bid in legal}
        leader = (view.dealer + 1) % view.players
        self.deals = 0
        while self.more(self.deals):
            self.deals += 1
            hands, rest = self.deal(view, base, unseen, counts, voids)
            hand = base
            if rules.bid_before_trump and view.trump_card is None and rest:
                turned = self.rng.choice(rest)
                trump = turned.suit if turned.index < 52 else None
                hand = SpecialHand(rules.special_cards, trump, turned,
                                   super_trump_for(turned)
                                   if rules.special_cards == "super_screw" else None)
            guesses = [
                bid if bid is not None else _guess(hand, cards, view)
                for bid, cards in zip(view.bids, hands, strict=True)
            ]
            for bid in legal:
                bids = list(guesses)
                bids[me] = bid
                world = World(hand, [list(cards) for cards in hands], [], {}, leader,
                              [0] * view.players, True)
                world.finish(bids, view.players, rules.scoring)
                totals[bid] += outcome(view, bids, world.won)
        return max(legal, key=totals.__getitem__)


def outcome(view: PlayerView, bids: Sequence[int], won: Sequence[int]) -> float:
    """What a simulated hand is worth to the view's seat: its points, or under Quick's rule
    (no points: the exact bid wins, the highest such bid first) one for a win."""
    me = view.seat
    if view.rules.winner_rule == "exact_bid":
        return float(me in exact_bid_winners(bids, won))
    return hand_points(view.rules, bids[me], won[me], view.tricks_in_hand, view.blind)


def _guess(hand: SpecialHand, cards: list[Card], view: PlayerView) -> int:
    """Another seat's bid in a sampled deal: its cards' values, rounded."""
    wizards = sum(card.kind == "wizard" for card in view.rules.special_pack())
    total = 0.0
    for card in cards:
        value = card_value(card, hand, wizards)
        if value is None:
            if hand.trump is not None and card.suit == hand.trump:
                value = 0.3 + 0.05 * max(0, card.rank - 8)
            else:
                value = 0.8 if card.rank == 14 else (0.35 if card.rank == 13 else 0.0)
        total += value
    return round(total)


def easy_bid(view: PlayerView) -> int:
    return nearest_bid(estimate_tricks(view, "easy"), view.legal_bids)


def medium_bid(view: PlayerView) -> int:
    return nearest_bid(estimate_tricks(view, "medium"), view.legal_bids)


__all__ = [
    "SpecialSearch",
    "best_declaration",
    "card_value",
    "choose_option",
    "easy_bid",
    "estimate_tricks",
    "hand_rules",
    "medium_bid",
    "trump_for",
    "view_option",
    "weakest",
]
