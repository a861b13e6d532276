"""Our `hard` player against the issue's anchor, OpenSpiel's C++ IS-MCTS, on identical deals.

Issue 4 anchors `hard` on OpenSpiel's information-set MCTS (1,000 simulations) in one seat against
three simple rule-based players (4 players, 7-card hands, 1 per trick + 10 for an exact bid, hook
on). Figures taken elsewhere differ in deals and opponents, so this script plays both under
identical conditions: every deal is replayed with the seat under test rotated over the 4 seats,
and each tester (`--tester ismcts,hard`) takes that seat in its own replay against the same
opponents with the same seeds. Luck of the deal then cancels out of the paired difference.

Our engine is the referee. The IS-MCTS seat sees the game through a mirrored OpenSpiel `oh_hell`
state: its chance actions are replayed so that OpenSpiel's deal, dealer and trump card equal ours,
then every bid and card is applied as it happens. At each action the mirror must agree with the
engine on whose turn it is and what is legal, and at the end on every seat's points; a bid that
OpenSpiel would allow and our engine refuses is counted and replaced by the bot's next-best one.
The bot's move is its most visited action (ties to the lowest action id). Its C++ search is not
reproducible even with a fixed seed (two bots seeded alike, same state, can pick different bids),
so its figures move a little between runs; `hard` with `--iterations` and the opponents repeat.

OpenSpiel's IS-MCTS is not held to what its seat can see. Each simulation starts from
`OhHellState::ResampleFromInfostate`, which since open_spiel 2.0 (the June 2026 rewrite that
respects shown voids) redeals only the cards the opponents really hold: every sampled world has
exactly the true 21 unseen cards in play and the true 23 out with the stock. The script checks
this first (resampler_keeps_true_cards): 200 of 200 resampled deals with open_spiel 2.0.2, 0 of
200 with 1.6.9, which dealt from every undealt card: fair, but blind to voids. The
tester `ismcts-honest` runs the same bot knowing only what the seat sees: per decision the
hidden cards are first dealt afresh from every unseen card (our sampler: played cards stay with
their players, shown voids respected) HONEST_WORLDS times, IS-MCTS runs its share of the
simulations on each deal, and the visit counts are summed. The tester `hard-told` is the
other way round: `hard` told what OpenSpiel's resampler knows (its deals give the other seats
exactly the cards they hold between them, none to the stock), so the two searches can also be
compared on equal information. The tester `hard-exact` is `hard` told the simple opponents'
exact policy (greedy play, easy-count bids, never straying), so its deals follow the true
posterior given what its seat sees: the most a fair seat can know.

    /tmp/osvenv/bin/python bench/anchor.py --deals 100 --tester ismcts,ismcts-honest,hard \\
        --think-time 0.5
    /tmp/osvenv/bin/python bench/anchor.py --deals 100 --tester ismcts,hard --iterations 120
    /tmp/osvenv/bin/python bench/anchor.py --deals 100 --tester ismcts,hard --iterations 120 \\
        --opponents simple

The tester `hard@<commit>` is the hard player as it was at that commit (its engine/ai taken
from git and imported under another name, in the bench only), on the same deals; the issue-24
reference is hard@fff6f55 at 200 deals:

    .venv/bin/python bench/anchor.py --deals 100 --tester hard@fff6f55 --iterations 200 \
        --opponents simple --seed 31 --log frozen.jsonl
    .venv/bin/python bench/anchor.py --deals 100 --tester hard --opponents simple --seed 31 \
        --log new.jsonl
    .venv/bin/python bench/anchor.py --summarise frozen.jsonl,new.jsonl

Compare on deal seeds that never chose a setting. Issue 24 found seeds 7-12 worn out: hard's
settings were kept, stop after stop, for how they scored on those deals with those players'
random streams, so there hard@fff6f55 (9.13 points a hand over seeds 7-12) scores 0.14-0.62
more than the very same player with another seed (the tester's seed + 1,000,003: 8.51-8.96 on
seeds 7-12), and any change of its random stream looks like a loss. On seeds 31-36, fresh, it
scores 8.87, and the compiled 18 ms hard +0.087 +- 0.070 points a hand over it (2,400
seat-hands, paired).

Needs a Python with both `pyspiel` (pip install open_spiel) and this package's dependencies
when an ismcts tester runs.
Printed per tester: seat-hands, made %, points per hand, decision p50/p95 on the wall clock and
cpu p50/p95/mean in the deciding thread's CPU time (test seat only, forced moves included), and
for `hard` the deals a decision with a choice searched (p10/p50: the budget at work); then per
pair of testers the mean paired difference (later - earlier) in points per hand and in made %,
deal by deal, with its standard error. `--log FILE` keeps one JSON line per deal, so a long
run can be summarised part-way with `--summarise FILE`.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import json
import math
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, replace
from typing import Any, TextIO
from unittest import mock

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import engine.ai.hard as hard_search
import engine.ai.opponents as opponent_model
from engine import STANDARD_DECK, Bid, Card, Game, Move, Phase, Play, PlayerView, Rules, Suit
from engine.ai import create_player, suggest
from engine.ai.bits import indices, legal_mask, mask_of, trick_winner
from engine.ai.hard import HardPlayer
from engine.ai.knowledge import Knowledge, read_view
from engine.ai.sample import Sampler
from engine.scoring import HandRecord, hand_points

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # its sibling, the arena
from arena import deal_deck, percentile, run_deals

PLAYERS = 4
HAND_SIZE = 7
ISMCTS_TESTERS = ("ismcts", "ismcts-honest")
TESTERS = (
    *ISMCTS_TESTERS, "ismcts-fair", "ismcts-told", "hard", "hard-told", "hard-exact", "medium",
    "easy", "simple",
)
FROZEN = "hard@"
"""`hard@<commit>`: the hard player as it was at that commit (engine/ai extracted from git and
imported under another name, the bench only), to compare against on the same deals."""
HONEST_WORLDS = 10
"""ismcts-honest: deals of the unseen cards drawn per decision, the simulations shared out."""
OPPONENTS = ("easy", "medium", "simple")
UCT_C = 5.0
"""The IS-MCTS exploration constant, on raw points (0 to 17 a hand here). OpenSpiel's examples
use 2, which explores too little on this scale: with 1,000 simulations against simple
opponents, 2 scores 9.02 points a hand and makes 72.3% (deal sets 7-14, 1,600 deals), 5 scores
9.28 and 74.9% on the same deals (+0.26 +- 0.05), and 3, 10 and 20 score 9.13, 9.33 and 9.31 on
deal set 7 (2: 8.99, 5: 9.36). The anchor is the bot at its best, so 5."""
# OpenSpiel's oh_hell numbers a card rank * 4 + suit, with suits in the order C, D, S, H
# (ranks 0..12 for 2..A); bids are the actions 52 + bid.
OS_SUIT = {Suit.CLUBS: 0, Suit.DIAMONDS: 1, Suit.SPADES: 2, Suit.HEARTS: 3}
BID_BASE = 52


def os_card(card: Card) -> int:
    return (card.rank - 2) * 4 + OS_SUIT[card.suit]


FROM_OS = {os_card(card): card for card in STANDARD_DECK}


@dataclass
class Config:
    deals: int
    testers: list[str]
    opponents: str
    think_time: float | None
    iterations: int | None
    simulations: int
    uct_c: float
    seed: int
    history: int = 0
    """Hands the same opponents played at this table before the measured one, which our testers
    see on the scoresheet as in a real game (OpenSpiel's bot does not look)."""
    hints: bool = False
    """Also ask for a hint (engine.ai.suggest, its default budget) at each of the test seat's
    decisions with a choice, and report their CPU time."""


def make_rules() -> Rules:
    """Classic (1 per trick + 10 for an exact bid, hook on), one 7-card hand."""
    return Rules.preset("classic").model_copy(
        update={"hand_sizes": [HAND_SIZE], "hand_count": 1, "game_end": "sequence"}
    )


class SimplePlayer:
    """The "simple rule-based" opponent: counts sure-looking tricks, then plays high or low.

    Bid: aces, trump kings and queens, and each trump past the third; the nearest legal bid
    (the lower on a tie, which is how it steps around the hook). Play: while it still needs
    tricks its highest legal card, else its lowest (trumps rank above other suits).
    """

    def choose_move(self, view: PlayerView) -> Move:
        trump = view.trump_suit
        if view.phase is Phase.BIDDING:
            hand = view.hand
            trumps = [card for card in hand if card.suit == trump]
            count = sum(card.rank == 14 for card in hand)
            count += sum(card.rank in (12, 13) for card in trumps) + max(0, len(trumps) - 3)
            return Bid(min(view.legal_bids, key=lambda bid: (abs(bid - count), bid)))
        bid = view.bids[view.seat] or 0
        need = bid > view.tricks_won[view.seat]

        def strength(card: Card) -> tuple[bool, int]:
            return (card.suit == trump, card.rank)

        pick = max if need else min
        return Play(pick(view.legal_cards, key=strength))


def parse_tester(tester: str) -> tuple[str, dict[str, int]]:
    """A tester's level and hard options: `hard+pool=8+batch=16` is hard with those Settings."""
    level, *pairs = tester.split("+")
    options = {}
    for pair in pairs:
        name, _, value = pair.partition("=")
        options[name] = int(value)
    return level, options


def frozen_player(commit: str, seed: int, think_time: float | None,
                  iterations: int | None, options: dict[str, int]) -> Any:
    """The hard player of `commit`: its engine/ai is extracted once per commit (git archive)
    into the temp directory as the package `hard_<commit>`, its `engine.ai` imports pointed
    there; the rest of the engine (cards, views, moves) is today's, so it plays our games."""
    if not commit.isalnum():
        raise SystemExit(f"bench/anchor.py: {commit!r} is not a commit")
    package = f"hard_{commit}"
    root = os.path.join(tempfile.gettempdir(), f"anchor-frozen-{commit}")
    if not os.path.isdir(os.path.join(root, package)):
        repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        staging = tempfile.mkdtemp(prefix=f"anchor-frozen-{commit}-")
        archive = subprocess.run(["git", "-C", repo, "archive", commit, "engine/ai"],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", staging], input=archive, check=True)
        source = os.path.join(staging, "engine", "ai")
        for name in os.listdir(source):
            path = os.path.join(source, name)
            if name.endswith(".py"):
                with open(path) as handle:
                    text = handle.read()
                text = re.sub(r"\bengine\.ai\b", package, text)
                with open(path, "w") as handle:
                    handle.write(text)
        os.makedirs(root, exist_ok=True)
        with suppress(OSError):  # another worker got there first
            os.rename(source, os.path.join(root, package))
    if root not in sys.path:
        sys.path.insert(0, root)
    module = importlib.import_module(package)
    return module.create_player("hard", seed=seed, think_time=think_time,
                                iterations=iterations, **options)


def told_cards_in_play(knowledge: Knowledge, game: Game) -> Knowledge:
    """`knowledge` narrowed to what OpenSpiel 2.0.2's resampler knows: its unseen cards are those
    really in the other hands, and none is out with the stock."""
    in_play = 0
    for seat in range(PLAYERS):
        if seat != knowledge.seat:
            in_play |= mask_of(game.hand_of(seat))
    knowledge.unseen &= in_play
    knowledge.out_count = 0
    return knowledge


class ToldHard:
    """`hard-told`: the hard player told which cards are in play, as OpenSpiel 2.0.2's resampler
    is: its deals give the other seats exactly the cards they hold between them, shuffled under
    the same constraints, and nothing to the stock. Measures what that knowledge is worth to
    hard, so hard and OpenSpiel's bot can be compared on the same information."""

    def __init__(self, player: HardPlayer, game: Game) -> None:
        self.player = player
        self.game = game
        self.last_deals = 0

    def choose_move(self, view: PlayerView) -> Move:
        reads = 0

        def told(seen: PlayerView) -> Knowledge:
            nonlocal reads
            reads += 1
            return told_cards_in_play(read_view(seen), self.game)

        with mock.patch.object(hard_search, "read_view", told):  # one game at a time here
            move: Move = self.player.choose_move(view)
        choices = view.legal_bids if view.phase is Phase.BIDDING else view.legal_cards
        if len(choices) > 1 and not reads:
            raise RuntimeError("hard no longer reads its view through engine.ai.hard.read_view, "
                               "so hard-told would measure plain hard")
        self.last_deals = self.player.last_deals
        return move


EXACT_MISS = 1e-4
"""`exact_model`: the chance it gives a greedy player's leaving its bid or card rule."""


@contextmanager
def exact_model(others: list[int]) -> Iterator[None]:
    """Within: hard's opponent model is told every other seat is greedy and never strays, which
    is exactly how the simple rule-based opponents bid and play (all 1,200 bids and 5,369
    choices of a simple player in 300 deals). Its posterior over the hidden cards is then the
    true one against them: the most a seat that sees only its view can know."""
    greedy = {seat: (1e-9, 1e-9, 1.0, 1e-9) for seat in others}
    with (
        mock.patch.object(opponent_model, "PLAY_MISS", EXACT_MISS),
        mock.patch.object(opponent_model, "BID_MISS", EXACT_MISS),
        mock.patch.object(hard_search, "kind_priors", lambda view, exact_bids: greedy),
    ):
        yield


class ExactHard:
    """`hard-exact`: the hard player holding the exact posterior against simple opponents
    (exact_model), to measure what the rest of a fair seat's knowledge is worth in play.
    Against simple opponents after three hands (`--history 3`, deal sets 7-12, 1,200 deals,
    0.5 s): +0.009 +- 0.051 points a hand over plain hard."""

    def __init__(self, player: HardPlayer, seat: int) -> None:
        self.player = player
        self.others = [other for other in range(PLAYERS) if other != seat]
        self.last_deals = 0

    def choose_move(self, view: PlayerView) -> Move:
        with exact_model(self.others):  # one game at a time here
            move: Move = self.player.choose_move(view)
        self.last_deals = self.player.last_deals
        return move


class FlatISMCTS:
    """IS-MCTS as OpenSpiel's bot runs it in oh_hell, in Python on our engine's bit sets.

    OpenSpiel's ISMCTSBot keys every tree node on the acting player's information state, which
    holds that player's own cards. An opponent's cards differ in every sampled world, so each
    simulation meets a new opponent node right after the root's move and rolls out from there:
    the search is UCB over the root's actions (the bot's uct_c on raw points, untried actions
    first, ties at random), one uniformly random playout per simulation (random bids for the
    seats still to bid, the dealer kept off the hook, then random legal cards), and the most
    visited action is played. The world of each simulation is dealt afresh:
    - `ismcts-fair`: from every card the seat has not seen (our sampler: played cards stay with
      their players, shown voids respected): what the seat may know;
    - `ismcts-told`: the opponents' true cards shuffled among them under the same constraints,
      as OpenSpiel 2.0.2's resampler does (told which cards are in play), to check this port
      against OpenSpiel's own figures.
    """

    def __init__(self, seed: int, simulations: int, uct_c: float, told: bool) -> None:
        self.rng = random.Random(seed)
        self.simulations = simulations
        self.uct_c = uct_c
        self.told = told

    def choose_move(self, view: PlayerView, game: Game) -> Move:
        knowledge = read_view(view)
        if self.told:
            told_cards_in_play(knowledge, game)
        sampler = Sampler(knowledge)
        bidding = view.phase is Phase.BIDDING
        actions: list[Any] = list(view.legal_bids) if bidding else list(view.legal_cards)
        visits = [0] * len(actions)
        totals = [0.0] * len(actions)
        rng = self.rng
        for sim in range(self.simulations):
            untried = [i for i, count in enumerate(visits) if count == 0]
            if untried:
                choice = rng.choice(untried)
            else:
                log_n = math.log(sim)
                values = [
                    totals[i] / visits[i] + self.uct_c * math.sqrt(log_n / visits[i])
                    for i in range(len(actions))
                ]
                top = max(values)
                choice = rng.choice([i for i, value in enumerate(values) if value == top])
            hands, _stock = sampler.sample(rng)
            points = _random_playout(view, knowledge, hands, actions[choice], rng)
            visits[choice] += 1
            totals[choice] += points
        best = max(range(len(actions)), key=lambda i: (visits[i], -i))
        return Bid(actions[best]) if bidding else Play(actions[best])


def _random_playout(
    view: PlayerView, k: Any, hands: list[int], first: Any, rng: random.Random
) -> int:
    """My points after `first` (a bid or a Card) and uniformly random moves to the hand's end."""
    players = k.players
    me = k.seat
    trump = k.trump
    tricks = k.tricks_in_hand
    hands = hands[:]
    bids = list(k.bids)
    if view.phase is Phase.BIDDING:
        bids[me] = first
        order = [(view.dealer + 1 + i) % players for i in range(players)]
        for seat in order:
            if bids[seat] >= 0:
                continue
            options = list(range(tricks + 1))
            if seat == view.dealer and view.rules.hook:
                barred = tricks - sum(b for s, b in enumerate(bids) if s != seat)
                if barred in options:
                    options.remove(barred)
            bids[seat] = rng.choice(options)
        leader, trick, won, broken, forced = order[0], [], [0] * players, False, -1
    else:
        leader, trick, won = k.leader, list(k.trick), list(k.won)
        broken, forced = k.broken, first.index
    left = tricks - sum(won)
    while left > 0:
        while len(trick) < players:
            seat = (leader + len(trick)) % players
            if forced >= 0:
                card, forced = forced, -1
            else:
                led = trick[0] // 13 if trick else -1
                legal = indices(legal_mask(hands[seat], led, trump, k.must_trump,
                                           k.after_broken, broken))
                card = rng.choice(legal)
            hands[seat] &= ~(1 << card)
            trick.append(card)
        winner = trick_winner(trick, leader, players, trump)
        if trump >= 0 and any(card // 13 == trump for card in trick):
            broken = True
        won[winner] += 1
        leader, trick = winner, []
        left -= 1
    return hand_points(view.rules, bids[me], won[me], tricks, view.blind)


def opponent(level: str, seed: int) -> Any:
    return SimplePlayer() if level == "simple" else create_player(level, seed=seed)


class Mirror:
    """An OpenSpiel oh_hell state kept in step with one of our games, and the IS-MCTS bot."""

    def __init__(self, pyspiel: Any, config: Config, game: Game, seed: int) -> None:
        self.pyspiel = pyspiel
        self.config = config
        self.seed = seed
        self.actions: list[int] = []  # every bid and card applied, as OpenSpiel actions
        os_game = pyspiel.load_game(
            "oh_hell",
            {
                "players": PLAYERS,
                "num_tricks_fixed": HAND_SIZE,
                "num_suits": 4,
                "num_cards_per_suit": 13,
                "off_bid_penalty": False,
                "points_per_trick": 1,
            },
        )
        self.os_game = os_game
        self.state = self.dealt([game.hand_of(seat) for seat in range(PLAYERS)], game)
        self.bot = self.new_bot(seed, config.simulations)
        self.hook_refusals = 0  # OpenSpiel's first choice was a bid our engine refuses
        self.bid_mismatches = 0  # decisions where the two legal bid sets differed at all

    def dealt(self, hands: list[list[Card]], game: Game) -> Any:
        """An OpenSpiel state that dealt these hands (as first held), with our trump card."""
        state = self.os_game.new_initial_state()
        # Chance order in oh_hell.cc: the number of tricks, the dealer, then the cards one by
        # one, card i to player i % players whoever deals, then one more card for trump.
        state.apply_action(game.tricks_in_hand)
        state.apply_action(game.dealer)
        for i in range(PLAYERS * game.tricks_in_hand):
            state.apply_action(os_card(hands[i % PLAYERS][i // PLAYERS]))
        assert game.trump_card is not None
        state.apply_action(os_card(game.trump_card))
        return state

    def new_bot(self, seed: int, simulations: int) -> Any:
        pyspiel = self.pyspiel
        return pyspiel.ISMCTSBot(
            seed,
            pyspiel.RandomRolloutEvaluator(1, seed),
            self.config.uct_c,
            simulations,
            -1,  # unlimited world samples: a fresh deal for every simulation
            pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT,  # we take the most visited
            False,
            False,
        )

    def check(self, game: Game, seat: int) -> None:
        """Assert the mirror agrees with the engine on the turn and the legal actions."""
        state = self.state
        assert state.current_player() == seat, (state.current_player(), seat)
        theirs = set(state.legal_actions())
        if game.phase is Phase.BIDDING:
            ours = {BID_BASE + bid for bid in game.legal_bids()}
            if ours != theirs:
                self.bid_mismatches += 1
                assert ours <= theirs, (sorted(ours), sorted(theirs))
        else:
            ours = {os_card(card) for card in game.legal_cards()}
            assert ours == theirs, (sorted(ours), sorted(theirs))

    def apply(self, game: Game, move: Move) -> None:
        if isinstance(move, Play):
            os_action = os_card(move.card)
        elif isinstance(move, Bid):
            os_action = BID_BASE + move.tricks
        else:
            raise ValueError(f"oh_hell has no move {move!r}")
        self.actions.append(os_action)
        self.state.apply_action(os_action)

    def decide(self, game: Game) -> Move:
        return self.pick(game, self.bot.get_policy(self.state))

    def decide_honest(self, game: Game, seat: int) -> Move:
        """IS-MCTS that knows only what the seat sees.

        OpenSpiel's oh_hell resampler redeals only the cards the opponents really hold, so its
        every simulation knows which cards are in play and which are out with the stock. Here
        the hidden cards are first dealt afresh from every card the seat has not seen (our
        sampler: played cards stay with their players, shown voids respected), HONEST_WORLDS
        times per decision; IS-MCTS runs its share of the simulations on each such deal and
        the visit counts are summed.
        """
        knowledge = read_view(game.view(seat))
        sampler = Sampler(knowledge)
        rng = random.Random(self.seed * 1009 + len(self.actions))
        share = max(1, self.config.simulations // HONEST_WORLDS)
        visits: dict[int, float] = {}
        for _world in range(HONEST_WORLDS):
            held, _stock = sampler.sample(rng)
            first_held = [
                [STANDARD_DECK[i] for i in indices(held[s] | knowledge.played_by[s])]
                for s in range(PLAYERS)
            ]
            state = self.dealt(first_held, game)
            for action in self.actions:
                state.apply_action(action)
            bot = self.new_bot(rng.randrange(1 << 30), share)
            for action, share_of_visits in bot.get_policy(state):
                visits[action] = visits.get(action, 0.0) + share_of_visits
        return self.pick(game, list(visits.items()))

    def pick(self, game: Game, policy: list[tuple[int, float]]) -> Move:
        ranked = sorted(policy, key=lambda pair: (-pair[1], pair[0]))
        if game.phase is Phase.BIDDING:
            legal = set(game.legal_bids())
            bids = [action - BID_BASE for action, _ in ranked]
            if bids[0] not in legal:
                self.hook_refusals += 1
            return Bid(next(bid for bid in bids if bid in legal))
        return Play(FROM_OS[ranked[0][0]])

    def check_end(self, points: list[int]) -> None:
        assert self.state.is_terminal()
        returns = [round(value) for value in self.state.returns()]
        assert returns == points, (returns, points)


def play_replay(
    config: Config, deck: list[Card], deal: int, test_seat: int, tester: str, pyspiel: Any
) -> dict[str, Any]:
    game = Game.new(PLAYERS, make_rules(), seed=deal, dealer=deal % PLAYERS, deck=deck)
    base = (config.seed * 7919 + deal) * 16
    seats: list[Any] = [opponent(config.opponents, base + seat) for seat in range(PLAYERS)]
    mirror = None
    honest = tester == "ismcts-honest"
    flat = None
    if tester in ISMCTS_TESTERS:
        mirror = Mirror(pyspiel, config, game, base + test_seat)
    elif tester in ("ismcts-fair", "ismcts-told"):
        flat = FlatISMCTS(base + test_seat, config.simulations, config.uct_c,
                          told=tester == "ismcts-told")
    elif tester == "simple":
        seats[test_seat] = SimplePlayer()
    elif tester.startswith(FROZEN):
        commit, options = parse_tester(tester.removeprefix(FROZEN))
        seats[test_seat] = frozen_player(commit, base + test_seat, config.think_time,
                                         config.iterations, options)
    else:
        level, options = parse_tester(tester)
        seats[test_seat] = create_player(
            "hard" if level in ("hard-told", "hard-exact") else level,
            seed=base + test_seat,
            think_time=config.think_time,
            iterations=config.iterations,
            **options,
        )
        if level == "hard-told":
            seats[test_seat] = ToldHard(seats[test_seat], game)
        elif level == "hard-exact":
            seats[test_seat] = ExactHard(seats[test_seat], test_seat)
    history = earlier_hands(config, deal, test_seat) if mirror is None and flat is None else ()
    times: list[float] = []
    cpu: list[float] = []  # the test seat's thread CPU time per decision
    bid_times: list[float] = []
    deals: list[int] = []  # a searching tester's deals per decision with a choice
    hint_cpu: list[float] = []
    while game.phase is not Phase.GAME_OVER:
        seat = game.actor_seats()[0]
        bidding = game.phase is Phase.BIDDING
        if mirror is not None:
            mirror.check(game, seat)
        if config.hints and seat == test_seat and tester == "hard":
            asked = game.view(seat)
            if len(asked.legal_bids if bidding else asked.legal_cards) > 1:
                hint_started = time.thread_time()
                suggest(asked, seed=base + test_seat)
                hint_cpu.append(time.thread_time() - hint_started)
        started = time.perf_counter()
        started_cpu = time.thread_time()
        if seat == test_seat and mirror is not None:
            action = mirror.decide_honest(game, seat) if honest else mirror.decide(game)
        elif seat == test_seat and flat is not None:
            action = flat.choose_move(game.view(seat), game)
        elif seat == test_seat and history:
            view = game.view(seat)
            action = seats[seat].choose_move(replace(view, scoresheet=history + view.scoresheet))
        else:
            action = seats[seat].choose_move(game.view(seat))
        if seat == test_seat:
            spent = time.perf_counter() - started
            cpu.append(time.thread_time() - started_cpu)
            times.append(spent)
            if bidding:
                bid_times.append(spent)
            searched = getattr(seats[test_seat], "last_deals", 0)
            if mirror is None and flat is None and searched:
                deals.append(searched)
        if mirror is not None:
            mirror.apply(game, action)
        game.apply(seat, action)
    record = game.scoresheet[0]
    if mirror is not None:
        mirror.check_end(list(record.points))
    others = sum(bid for seat, bid in enumerate(record.bids) if seat != test_seat)
    hooked = test_seat == game.dealer and others <= HAND_SIZE  # a bid was barred from it
    return {
        "tester": tester,
        "seat": test_seat,
        "bid": record.bids[test_seat],
        "tricks": record.tricks[test_seat],
        "points": record.points[test_seat],
        "times": times,
        "cpu": cpu,
        "hint_cpu": hint_cpu,
        "bid_times": bid_times,
        "deals": deals,
        "hook_refusals": mirror.hook_refusals if mirror else 0,
        "bid_mismatches": mirror.bid_mismatches if mirror else 0,
        "dealer_hooked": int(hooked),
    }


def earlier_hands(config: Config, deal: int, test_seat: int) -> tuple[HandRecord, ...]:
    """`config.history` hands the same opponents played before deal `deal`, dealt at random,
    the test seat played by `medium` (only what the opponents show matters). Each record keeps
    its hand's play, as a real game's scoresheet does."""
    if config.history <= 0:
        return ()
    rules = Rules.preset("classic").model_copy(update={
        "hand_sizes": [HAND_SIZE] * config.history, "hand_count": config.history,
        "game_end": "sequence",
    })
    base = ((config.seed * 7919 + deal) * 16 + test_seat) * 7 + 3
    game = Game.new(PLAYERS, rules, seed=base, dealer=(deal - config.history) % PLAYERS)
    seats: list[Any] = [opponent(config.opponents, base + seat) for seat in range(PLAYERS)]
    seats[test_seat] = create_player("medium", seed=base)
    while game.phase is not Phase.GAME_OVER:
        seat = game.actor_seats()[0]
        game.apply(seat, seats[seat].choose_move(game.view(seat)))
    return tuple(game.scoresheet)


def play_deal(args: tuple[Config, int]) -> dict[str, Any]:
    config, deal = args
    pyspiel = import_pyspiel() if uses_pyspiel(config.testers) else None
    deck = deal_deck(config.seed, deal)
    rows = [
        play_replay(config, deck, deal, seat, tester, pyspiel)
        for seat in range(PLAYERS)
        for tester in config.testers
    ]
    return {"deal": deal, "rows": rows}


def resampler_keeps_true_cards(pyspiel: Any, seed: int, deals: int = 10, samples: int = 20) -> str:
    """How often OpenSpiel's world sampler gives the opponents exactly the cards they hold.

    A fair sampler deals the 21 hidden cards from all 44 the bidder has not seen, so it almost
    never hits the true set; a sampler that only reshuffles the opponents' real cards always does.
    """
    config = Config(1, ["ismcts"], "easy", None, None, 1, 2.0, seed)
    rng = random.Random(seed)
    hits = 0
    for deal in range(deals):
        game = Game.new(
            PLAYERS, make_rules(), seed=deal, dealer=deal % PLAYERS, deck=deal_deck(seed, deal)
        )
        state = Mirror(pyspiel, config, game, seed).state
        bidder = state.current_player()
        for _ in range(samples):
            sampler = pyspiel.UniformProbabilitySampler(rng.randrange(1 << 30), 0.0, 1.0)
            world = state.resample_from_infostate(bidder, sampler)
            hits += _dealt_to_others(world, bidder) == _dealt_to_others(state, bidder)
    version = importlib.metadata.version("open_spiel")
    return (
        f"OpenSpiel {version} world sampler: {hits} of {deals * samples} resampled deals gave "
        "the opponents exactly the cards they hold"
    )


def _dealt_to_others(state: Any, seat: int) -> set[int]:
    # history: the number of tricks, the dealer, then card i dealt to player i % players
    deal = [item.action for item in state.full_history()[2 : 2 + PLAYERS * HAND_SIZE]]
    return {card for i, card in enumerate(deal) if i % PLAYERS != seat}


def uses_pyspiel(testers: list[str]) -> bool:
    return any(tester in ISMCTS_TESTERS for tester in testers)


def import_pyspiel() -> Any:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        sys.exit(
            "bench/anchor.py: pyspiel is missing; run it with a Python that has open_spiel "
            "(e.g. /tmp/osvenv/bin/python) or drop ismcts from --tester"
        )
    return pyspiel


def mean_se(values: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    se = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, se


def report(header: str, testers: list[str], results: list[dict[str, Any]]) -> str:
    results = sorted(results, key=lambda result: result["deal"])
    by_tester: dict[str, list[dict[str, Any]]] = {tester: [] for tester in testers}
    # per deal and tester: mean points and made rate over the rotations
    deal_points: dict[str, list[float]] = {tester: [] for tester in testers}
    deal_made: dict[str, list[float]] = {tester: [] for tester in testers}
    for result in results:
        for tester in testers:
            rows = [row for row in result["rows"] if row["tester"] == tester]
            by_tester[tester].extend(rows)
            deal_points[tester].append(statistics.fmean(row["points"] for row in rows))
            deal_made[tester].append(statistics.fmean(row["bid"] == row["tricks"] for row in rows))
    lines = [
        header,
        f"{len(results)} deals x {PLAYERS} rotations = {PLAYERS * len(results)} seat-hands "
        "per tester",
        "",
        f"{'tester':13} {'seat-hands':>10} {'made %':>7} {'pts/hand':>9} "
        f"{'p50 ms':>8} {'p95 ms':>8} {'bid p95':>8} {'cpu p50':>8} {'cpu p95':>8} {'cpu mean':>8} "
        f"{'deals p10/p50':>14}",
    ]
    for tester in testers:
        rows = by_tester[tester]
        times = [spent for row in rows for spent in row["times"]]
        bid_times = [spent for row in rows for spent in row["bid_times"]]
        cpu = [spent for row in rows for spent in row.get("cpu", [])]
        deals = [count for row in rows for count in row.get("deals", [])]
        searched = (
            f"{percentile(deals, 0.1):>6.0f} / {percentile(deals, 0.5):<5.0f}" if deals else ""
        )
        lines.append(
            f"{tester:13} {len(rows):>10} "
            f"{100 * statistics.fmean(row['bid'] == row['tricks'] for row in rows):>7.1f} "
            f"{statistics.fmean(row['points'] for row in rows):>9.3f} "
            f"{1000 * percentile(times, 0.5):>8.1f} {1000 * percentile(times, 0.95):>8.1f} "
            f"{1000 * percentile(bid_times, 0.95):>8.1f} {1000 * percentile(cpu, 0.5):>8.1f} "
            f"{1000 * percentile(cpu, 0.95):>8.1f} "
            f"{1000 * statistics.fmean(cpu) if cpu else math.nan:>8.1f} {searched:>14}"
        )
    if len(testers) > 1 and len(results) > 1:
        lines += ["", "paired difference per hand, deal by deal (later - earlier tester):"]
        for i, first in enumerate(testers):
            for second in testers[i + 1 :]:
                points, points_se = mean_se(
                    [b - a for a, b in zip(deal_points[first], deal_points[second], strict=True)]
                )
                made, made_se = mean_se(
                    [b - a for a, b in zip(deal_made[first], deal_made[second], strict=True)]
                )
                lines.append(
                    f"  {second} - {first}: points {points:+.3f} +- {points_se:.3f} (SE), "
                    f"made {100 * made:+.1f} +- {100 * made_se:.1f} points of %"
                )
    hint_cpu = [spent for row in by_tester.get("hard", []) for spent in row.get("hint_cpu", [])]
    if hint_cpu:
        lines += ["", f"hints (engine.ai.suggest at hard's decisions with a choice): "
                  f"{len(hint_cpu)}, cpu p50 {1000 * percentile(hint_cpu, 0.5):.1f} ms, "
                  f"p95 {1000 * percentile(hint_cpu, 0.95):.1f} ms"]
    if "ismcts" in testers:
        rows = by_tester["ismcts"]
        lines += [
            "",
            f"ismcts mirror: in sync on every action of {len(rows)} hands; its bids under the "
            f"hook {sum(row['dealer_hooked'] for row in rows)}, legal bid sets that "
            f"differed {sum(row['bid_mismatches'] for row in rows)}, first choices our engine "
            f"refused {sum(row['hook_refusals'] for row in rows)}",
        ]
    lines.append(
        "anchor (issue 4, other deals and opponents): IS-MCTS 75% made, 9.05 pts/hand; "
        "seeing every card ~85%, 10.0"
    )
    return "\n".join(lines)


def summarise(paths: list[str]) -> str:
    """The report over one or more --log files; the deals all of them finished are paired."""
    headers: list[str] = []
    testers: list[str] = []
    rows_by_deal: dict[int, list[dict[str, Any]]] = {}
    finished: list[set[int]] = []
    for path in paths:
        with open(path) as handle:
            lines = [json.loads(line) for line in handle if line.strip()]
        headers.append(lines[0]["header"])
        testers += [tester for tester in lines[0]["testers"] if tester not in testers]
        finished.append({line["deal"] for line in lines[1:]})
        for line in lines[1:]:
            rows_by_deal.setdefault(line["deal"], []).extend(line["rows"])
    common = set.intersection(*finished)
    results = [{"deal": deal, "rows": rows_by_deal[deal]} for deal in sorted(common)]
    return report("\n".join(headers), testers, results)


def header_for(config: Config) -> str:
    return (
        f"anchor: testers {','.join(config.testers)}  opponents {config.opponents}  "
        f"{PLAYERS} players, {HAND_SIZE} cards, classic (1/trick + 10 exact, hook)  "
        f"hard think_time {config.think_time} iterations {config.iterations}  "
        f"ismcts simulations {config.simulations} uct_c {config.uct_c}  seed {config.seed}"
        + (f"  history {config.history} hands" if config.history else "")
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100, help="deals played (default 100)")
    parser.add_argument("--tester", default="ismcts,hard", help="testers, comma-separated")
    parser.add_argument("--opponents", default="easy", choices=OPPONENTS,
                        help="the three opponents' player (default easy)")
    parser.add_argument("--think-time", type=float, default=None, help="hard: seconds a move")
    parser.add_argument("--iterations", type=int, default=None, help="hard: deals a move")
    parser.add_argument("--simulations", type=int, default=1000, help="IS-MCTS simulations")
    parser.add_argument("--uct-c", type=float, default=UCT_C, help="IS-MCTS exploration constant")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    parser.add_argument("--history", type=int, default=0,
                        help="hands the opponents played before each measured one, on the "
                        "scoresheet our testers see")
    parser.add_argument("--hints", action="store_true",
                        help="also time a hint at each of hard's decisions with a choice")
    parser.add_argument("--log", default=None, help="append one JSON line per finished deal")
    parser.add_argument(
        "--summarise", default=None,
        help="print the table from --log files (comma-separated: runs of the same deals and "
        "seed by other testers are paired deal by deal)",
    )
    args = parser.parse_args(argv)
    testers = [tester.strip() for tester in args.tester.split(",") if tester.strip()]
    unknown = [tester for tester in testers
               if parse_tester(tester)[0] not in TESTERS and not tester.startswith(FROZEN)]
    if unknown:
        parser.error(f"unknown tester {unknown[0]!r}: choose from {', '.join(TESTERS)}")
    if args.opponents != "simple" and any(
        parse_tester(tester)[0] == "hard-exact" for tester in testers
    ):
        parser.error("hard-exact holds the simple opponents' exact policy: use --opponents simple")
    if args.summarise:
        print(summarise(args.summarise.split(",")))
        return
    config = Config(
        deals=args.deals,
        testers=testers,
        opponents=args.opponents,
        think_time=args.think_time,
        iterations=args.iterations,
        simulations=args.simulations,
        uct_c=args.uct_c,
        seed=args.seed,
        history=args.history,
        hints=args.hints,
    )
    if uses_pyspiel(testers):
        print(resampler_keeps_true_cards(import_pyspiel(), args.seed), file=sys.stderr)
    header = header_for(config)
    log: TextIO | None = open(args.log, "w") if args.log else None  # noqa: SIM115 (closed below)
    if log:
        log.write(json.dumps({"header": header, "testers": testers}) + "\n")
    jobs = [(config, deal) for deal in range(config.deals)]
    started = time.perf_counter()
    results: list[dict[str, Any]] = []

    def collect(result: dict[str, Any]) -> None:
        results.append(result)
        if log:
            log.write(json.dumps(result) + "\n")
            log.flush()
        spent = time.perf_counter() - started
        print(f"  {len(results)}/{config.deals} deals, {spent:.0f} s", file=sys.stderr, flush=True)

    try:
        run_deals(play_deal, jobs, args.workers, collect)
    finally:
        if log:
            log.close()
    elapsed = time.perf_counter() - started
    print(report(f"{header}\nwall time {elapsed:.0f} s", testers, results))


if __name__ == "__main__":
    main()
