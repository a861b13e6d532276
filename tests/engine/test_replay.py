"""A finished game told again matches the game as it was played, for every preset; a game in
play is never told."""

from __future__ import annotations

import random

import pytest

from engine import Bid, Card, Discard, Game, Move, NameTrump, Phase, Play, Rules, sort_hand
from engine.replay import NotFinished, replay_game


def random_move(game: Game, rng: random.Random) -> tuple[int, Move]:
    phase = game.phase
    if phase is Phase.TRUMP_CHOICE:
        assert game.turn is not None
        return game.turn, NameTrump(rng.choice(game.legal_trumps()))
    if phase is Phase.DISCARD:
        seat = rng.choice(game.actor_seats())
        view = game.view(seat)
        return seat, Discard(tuple(rng.sample(list(view.hand), view.discards_needed)))
    if phase in (Phase.BIDDING, Phase.SIMULTANEOUS_BIDDING):
        seat = rng.choice(game.actor_seats())
        return seat, Bid(rng.choice(game.legal_bids(seat)))
    seat = game.turn
    assert seat is not None
    card = rng.choice(game.legal_cards())
    declarations = game.legal_declarations(card)
    return seat, Play(card, rng.choice(declarations) if declarations else None)


class Played:
    """A game played at random, with what everyone saw along the way."""

    def __init__(self, preset: str, players: int, seed: int, stop: int | None = None) -> None:
        rules = Rules.preset(preset)
        self.start = Game.new(players=players, rules=rules, seed=seed)
        game = self.start.copy()
        rng = random.Random(seed)
        self.moves: list[tuple[int, Move]] = []
        self.dealt = [self.hands(game)]
        self.tricks: list[list[tuple[tuple[int, Card], ...]]] = [[]]
        self.winners: list[list[int]] = [[]]
        self.bids: list[list[tuple[int, int]]] = [[]]
        while game.phase is not Phase.GAME_OVER and (stop is None or len(self.moves) < stop):
            seat, move = random_move(game, rng)
            outcome = game.apply(seat, move)
            self.moves.append((seat, move))
            if isinstance(move, Bid):
                self.bids[-1].append((seat, move.tricks))
            if outcome.trick is not None:
                self.tricks[-1].append(outcome.trick.cards)
                self.winners[-1].append(outcome.trick.winner)
            if outcome.next_hand is not None:
                self.dealt.append(self.hands(game))
                self.tricks.append([])
                self.winners.append([])
                self.bids.append([])
        self.game = game

    @staticmethod
    def hands(game: Game) -> tuple[tuple[Card, ...], ...]:
        return tuple(tuple(sort_hand(game.hand_of(s))) for s in range(game.players))


@pytest.mark.parametrize("preset", Rules.preset_names(special_cards=True))
def test_every_hand_and_trick_matches_the_game_as_played(preset: str) -> None:
    players = max(4, Rules.preset(preset).min_players)
    played = Played(preset, players, seed=26)
    told = replay_game(played.start.copy(), played.moves)
    assert told.final.to_json() == played.game.to_json()
    assert told.winners == tuple(played.game.winners)
    if played.game.scoresheet:
        assert [hand.record for hand in told.hands] == played.game.scoresheet
    else:  # quick keeps no sheet: its one hand is told with its bids and tricks, no points
        (only,) = told.hands
        assert only.record.tricks == tuple(played.game.tricks_won)
        assert only.record.bids == tuple(played.game.bids)
        assert set(only.record.points) == {0}
    for index, hand in enumerate(told.hands):
        assert hand.dealt == played.dealt[index]
        assert hand.bids == tuple(played.bids[index])
        assert [tuple((c.seat, c.card) for c in t.cards) for t in hand.tricks] == \
            played.tricks[index]
        assert [t.winner for t in hand.tricks] == played.winners[index]
        assert sum(len(h) for h in hand.dealt) == players * hand.record.hand_size
    steps = told.steps()
    assert steps[0] == (0, None)
    assert len(steps) == len(told.hands) + sum(len(h.tricks) for h in told.hands)


def test_cards_set_aside_before_play_are_told() -> None:
    """In ouch every player discards before bidding: the hand in play is the dealt one less
    the discards, and the discards are what the log's Discard moves set aside."""
    played = Played("ouch", 4, seed=3)
    told = replay_game(played.start.copy(), played.moves)
    first = told.hands[0]
    assert first.in_play is not None
    discards = [m for _, m in played.moves if isinstance(m, Discard)][:4]
    for seat in range(4):
        assert set(first.dealt[seat]) - set(first.in_play[seat]) == set(
            next(m.cards for s, m in played.moves if isinstance(m, Discard) and s == seat)
        )
    assert len(discards) == 4
    plain = replay_game(Played("classic", 4, seed=3).start.copy(),
                        Played("classic", 4, seed=3).moves)
    assert all(hand.in_play is None for hand in plain.hands)


def test_a_named_trump_is_told_with_who_named_it() -> None:
    played = Played("dealer_picks", 4, seed=5)
    told = replay_game(played.start.copy(), played.moves)
    assert all(hand.named_by == hand.record.dealer for hand in told.hands)


def test_a_game_in_play_is_never_replayed() -> None:
    played = Played("classic", 4, seed=9, stop=30)
    assert played.game.phase is not Phase.GAME_OVER
    with pytest.raises(NotFinished, match="still being played"):
        replay_game(played.start.copy(), played.moves)
    with pytest.raises(ValueError, match="as it was dealt"):
        replay_game(played.game, [])
