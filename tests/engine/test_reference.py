"""The engine against a second, deliberately naive implementation of the classic game.

Random deals are dealt through `deck`; at every step both must agree on the seat to act, the
legal bids, the legal cards, trick winners and scores. The reference uses plain (rank, suit)
tuples and none of the engine's code.
"""

import random

import pytest

from engine import STANDARD_DECK, Game, Phase, Rules

Plain = tuple[int, str]  # (rank 2..14, suit letter)


class ReferenceHand:
    """One hand of classic Oh Hell written the obvious way."""

    def __init__(self, players: int, size: int, dealer: int, pack: list[Plain], hook: bool,
                 must_trump: bool) -> None:
        self.players, self.size, self.dealer = players, size, dealer
        self.hook, self.must_trump = hook, must_trump
        self.hands: list[list[Plain]] = [[] for _ in range(players)]
        for i in range(size * players):
            self.hands[(dealer + 1 + i) % players].append(pack[i])
        self.trump = pack[size * players][1] if size * players < len(pack) else None
        self.bids: list[int] = []
        self.trick: list[tuple[int, Plain]] = []
        self.won = [0] * players
        self.leader = (dealer + 1) % players

    def bidder(self) -> int:
        return (self.dealer + 1 + len(self.bids)) % self.players

    def allowed_bids(self) -> list[int]:
        options = list(range(self.size + 1))
        if self.hook and len(self.bids) == self.players - 1:
            options = [bid for bid in options if sum(self.bids) + bid != self.size]
        return options

    def player(self) -> int:
        return (self.leader + len(self.trick)) % self.players

    def allowed_cards(self) -> list[Plain]:
        hand = self.hands[self.player()]
        if not self.trick:
            return list(hand)
        led = self.trick[0][1][1]
        follow = [card for card in hand if card[1] == led]
        if follow:
            return follow
        trumps = [card for card in hand if card[1] == self.trump]
        if self.must_trump and trumps:
            return trumps
        return list(hand)

    def play(self, card: Plain) -> int | None:
        seat = self.player()
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        if len(self.trick) < self.players:
            return None
        led = self.trick[0][1][1]

        def strength(entry: tuple[int, Plain]) -> tuple[int, int]:
            rank, suit = entry[1]
            return (2 if suit == self.trump else 1 if suit == led else 0, rank)

        winner = max(self.trick, key=strength)[0]
        self.won[winner] += 1
        self.leader = winner
        self.trick = []
        return winner

    def points(self) -> list[int]:
        by_seat = {(self.dealer + 1 + i) % self.players: bid for i, bid in enumerate(self.bids)}
        return [10 + took if took == by_seat[seat] else took
                for seat, took in enumerate(self.won)]


def plain(card: object) -> Plain:
    return (card.rank, card.suit.letter)  # type: ignore[attr-defined]


@pytest.mark.parametrize("preset", ["classic", "la_podrida"])
def test_engine_agrees_with_the_reference_on_random_deals(preset: str) -> None:
    rng = random.Random(2024)
    for _deal in range(300):
        players = rng.randint(3, 7)
        size = rng.randint(1, 51 // players)
        dealer = rng.randrange(players)
        pack = list(STANDARD_DECK)
        rng.shuffle(pack)
        rules = Rules.preset(preset).model_copy(update={"hand_sizes": [size]})
        game = Game.new(players, rules, seed=rng.randrange(1000), dealer=dealer, deck=pack)
        reference = ReferenceHand(players, size, dealer, [plain(c) for c in pack],
                                  hook=True, must_trump=rules.must_trump)
        assert (game.trump_suit.letter if game.trump_suit is not None else None) == \
            reference.trump
        while game.phase is Phase.BIDDING:
            assert game.turn == reference.bidder()
            assert game.legal_bids() == reference.allowed_bids()
            bid = rng.choice(reference.allowed_bids())
            reference.bids.append(bid)
            game.bid(game.turn, bid)  # type: ignore[arg-type]
        while game.phase is Phase.PLAYING:
            assert game.turn == reference.player()
            legal = game.legal_cards()
            assert [plain(c) for c in legal] == sorted(
                reference.allowed_cards(), key=lambda c: ("CDHS".index(c[1]), c[0]))
            card = rng.choice(legal)
            tricks_before = list(game.tricks_won)
            winner = reference.play(plain(card))
            game.play(game.turn, card)  # type: ignore[arg-type]
            if winner is not None and game.phase is Phase.PLAYING:
                assert game.turn == winner
                assert game.tricks_won[winner] == tricks_before[winner] + 1
        assert game.phase is Phase.GAME_OVER
        assert list(game.scoresheet[0].tricks) == reference.won
        assert game.scores == reference.points()
