"""Deals drawn where the opponent model puts its weight: a Markov chain over the hidden cards.

Drawing deals uniformly and weighting them wastes the search late in a hand: after a few tricks
against players whose bids and plays are telling, a few percent of uniform deals carry nearly all
the weight. The chain starts from a deal consistent with everything seen and moves by swapping
two hidden cards between holders (two opponents, or an opponent and the cards out of play) where
both may hold them (no shown void broken); a swap is kept with probability min(1, L'/L), L the
model's likelihood of the opponents' bids and plays given their hands. The swap is symmetric, so
the chain's deals come to follow the model's posterior, and each is searched with weight 1.
Only the two seats a swap touches are re-scored.

A deal drawn this way costs about 0.15 ms of CPU after the chain's start (about 1.2 ms a
decision), nearly all of it weighing the 5-6 hands its ten proposals make (bench/decisions.py).
A swap changes a hand in one or two suits, so the model keeps what does not depend on the rest:
the trick estimate's share per suit pattern, a play that followed suit per holding in the led
suit; the trick estimate's shares are shared by every decision of the hand (engine/ai/policy.py),
and a hand's whole likelihood, which comes back within a decision about one time in eleven, is
kept by the model (issue 24: drawing 5% cheaper, bench/decisions.py --check --parts at 200 deals,
the drawing's CPU against the card search's, two runs each beside the code before). The same
player's decisions are made by fresh players in the bot (bot/computer.py), so carrying the
chain from one decision to the next does not pay.
"""

from __future__ import annotations

import random

from engine.ai.bits import indices
from engine.ai.opponents import Likelihoods, OpponentModel
from engine.ai.sample import Sampler, shuffle
from engine.ai.sim import MEDIUM

STOCK = -1


class Chain:
    """A walk over the deals consistent with one seat's knowledge, following the model."""

    __slots__ = (
        "cards",
        "hands",
        "holder",
        "likely",
        "model",
        "played_by",
        "rng",
        "sampler",
        "steps",
        "void_suits",
        "weights",
    )

    def __init__(
        self, sampler: Sampler, model: OpponentModel, rng: random.Random, steps: int,
        start_pool: int = 8,
    ) -> None:
        self.sampler = sampler
        self.model = model
        self.rng = rng
        self.steps = steps
        self.played_by = model.played_by
        self.void_suits = {seat: sampler.voids[i] for i, seat in enumerate(sampler.seats)}
        self.void_suits[STOCK] = 0
        # start from the likeliest of a few consistent deals; a deal stops being weighed once
        # even the most its other seats could weigh would leave it behind the best so far (a
        # deal cannot pass it, so the start is the same: the same draws, the same deal)
        seats = sampler.seats
        reach = [1.0] * (len(seats) + 1)  # the most the seats from each one on can weigh
        for index in range(len(seats) - 1, -1, -1):
            reach[index] = reach[index + 1] * model.likelihood_ceiling(seats[index]) * 1.001
        best: tuple[float, list[int], list[int], dict[int, Likelihoods]] | None = None
        for _ in range(max(1, start_pool)):
            hands, stock = sampler.sample(rng)
            likely: dict[int, Likelihoods] = {}
            weight = 1.0
            for index, seat in enumerate(seats):
                if best is not None and weight * reach[index] < best[0]:
                    break
                seat_likely = likely[seat] = model.seat_likelihoods(seat, hands[seat])
                weight *= sum(seat_likely)
            else:
                if best is None or weight > best[0]:
                    best = (weight, hands, stock, likely)
        assert best is not None
        _, hands, stock, self.likely = best
        self.hands = hands[:]
        self.weights = {seat: sum(likely) for seat, likely in self.likely.items()}
        self.cards: list[int] = []
        self.holder: list[int] = []
        for seat in sampler.seats:
            for card in indices(hands[seat] & ~sampler.base[seat]):
                self.cards.append(card)
                self.holder.append(seat)
        for card in stock:
            self.cards.append(card)
            self.holder.append(STOCK)

    def draw(self) -> tuple[float, list[int], list[int], list[int]]:
        """(1.0, hands, out-of-play cards in random order, a kind per seat) after `steps`
        proposed swaps."""
        rng = self.rng
        cards = self.cards
        holder = self.holder
        hands = self.hands
        weights = self.weights
        voids = self.void_suits
        count = len(cards)
        # rng.randrange(count) written out on getrandbits, as the standard library draws it
        # (the same numbers): the calls were a fifth of the chain's own cost
        getrandbits = rng.getrandbits
        bits = count.bit_length()
        draw = rng.random
        likely = self.likely
        likelihoods = self.model.seat_likelihoods
        if count >= 2:
            for _ in range(self.steps):
                i = getrandbits(bits)
                while i >= count:
                    i = getrandbits(bits)
                j = getrandbits(bits)
                while j >= count:
                    j = getrandbits(bits)
                a, b = holder[i], holder[j]
                if a == b:
                    continue
                ci, cj = cards[i], cards[j]
                if voids[a] >> (cj // 13) & 1 or voids[b] >> (ci // 13) & 1:
                    continue
                swap = (1 << ci) | (1 << cj)
                new_a = hands[a] ^ swap if a != STOCK else 0
                new_b = hands[b] ^ swap if b != STOCK else 0
                old = 1.0
                new = 1.0
                if a != STOCK:
                    la = likelihoods(a, new_a)
                    wa = la[0] + la[1] + la[2] + la[3]
                    old *= weights[a]
                    new *= wa
                if b != STOCK:
                    lb = likelihoods(b, new_b)
                    wb = lb[0] + lb[1] + lb[2] + lb[3]
                    old *= weights[b]
                    new *= wb
                if new < old and draw() * old >= new:
                    continue
                if a != STOCK:
                    hands[a] = new_a
                    weights[a] = wa
                    likely[a] = la
                if b != STOCK:
                    hands[b] = new_b
                    weights[b] = wb
                    likely[b] = lb
                holder[i], holder[j] = b, a
        stock = [card for card, where in zip(cards, holder, strict=True) if where == STOCK]
        shuffle(stock, rng)
        kinds = [MEDIUM] * len(hands)
        for seat, seat_likely in likely.items():
            kinds[seat] = self.model.draw_kind(seat_likely, rng)
        return 1.0, hands[:], stock, kinds
