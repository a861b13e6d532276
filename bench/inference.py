"""How well `hard`'s deal sampling places the hidden cards, measured directly.

A change to the opponent model or the sampler shows in play only through noisy scores (about
+-0.07 points a hand over 1,600 deals). This measures the inference itself, on exactly the same
positions for every variant: the anchor's deals (4 players, 7 cards, classic, three
`--opponents`, the seat under test rotated) are played with `medium` in the test seat, and at
each of its decisions every variant of `hard` draws its deals as it would to decide. Each hidden
card's weighted share of those deals per place (each other seat's hand, or out with the stock)
is scored against where the card really is:

- `log2`: mean log2 of the chance given to the true place (higher is better; a uniform guess
  over the hidden cards scores log2 of each place's share of them);
- `p_true`: the mean chance given to the true place;
- `in_hands`: of the cards really in the other hands, the mean chance the deals put them in
  some hand (the part OpenSpiel's resampler is simply told: 1.0 there);
- `p_takers`: `p_true` over the cards that take tricks (queens and up, and trumps).

Chances are smoothed by half a deal spread evenly over the places, so a card the deals never put
in its true place costs a finite amount. `log2` also pays for too few different deals (a chain's
draws follow each other closely), so compare variants at the same `--draws`.

Measured against three simple rule-based opponents after three earlier hands (`--deals 60
--history 3 --draws 200 --variant uniform --variant hard --variant hard+history=0 --variant
hard+chain=100 --variant exact+chain=100`, 240 bids, 545 early and 554 late decisions, 441 s),
p_true / in_hands / p_takers:

| variant | bid | early | late |
| --- | --- | --- | --- |
| uniform | .349 / .479 / .351 | .404 / .422 / .420 | .601 / .269 / .593 |
| hard | .354 / .481 / .362 | .429 / .449 / .477 | .641 / .358 / .641 |
| hard, a game's first hand | .353 / .481 / .363 | .420 / .442 / .467 | .633 / .342 / .634 |
| hard, chain 100 | .354 / .482 / .362 | .429 / .449 / .477 | .642 / .359 / .643 |
| exact, chain 100 | .356 / .483 / .364 | .435 / .456 / .486 | .650 / .375 / .650 |

The bids hardly tell which cards are in play (in_hands 0.481 against chance's 0.479, where
OpenSpiel's resampler is told: 1.0). `exact` holds these opponents' true policy (easy count
bids and greedy play reproduce all 1,200 bids and 5,369 choices of a simple player in 300
deals), so its posterior is the best a seat that sees only its view can hold. `hard` gets 70
to 86% of its gain over chance, 83-86% on the trick takers (after three hands its prior gives
each seat's true kind 92%, and it leaves room for people who stray); more mixing in the chain
adds +0.001 at most.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from dataclasses import replace
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from anchor import (
    HAND_SIZE,
    OPPONENTS,
    PLAYERS,
    Config,
    earlier_hands,
    exact_model,
    make_rules,
    opponent,
    parse_tester,
)
from arena import deal_deck

from engine import Game, Phase, PlayerView
from engine.ai import create_player
from engine.ai.bits import indices, mask_of
from engine.ai.hard import Drawn, HardPlayer
from engine.ai.knowledge import read_view
from engine.ai.sample import Sampler

SMOOTH = 0.5
"""Deals' worth of weight spread evenly over the places before scoring."""


def place_chances(
    player: HardPlayer | None, view: PlayerView, draws: int, rng: random.Random,
    exact: bool = False,
) -> tuple[list[int], dict[int, list[float]]]:
    """(the other seats, {hidden card: chance per place}) from `player`'s deal drawing at
    `view` (None: the plain sampler, every consistent deal alike; `exact`: with exact_model);
    place i < players-1 is the i-th other seat, the last is out with the stock."""
    k = read_view(view)
    others = [seat for seat in range(k.players) if seat != k.seat]
    if player is None:
        sampler = Sampler(k)

        def draw() -> Drawn:
            hands, stock = sampler.sample(rng)
            return 1.0, hands, stock, []
    elif exact:
        with exact_model(others):
            chain = player.deal_drawer(view)

        def draw() -> Drawn:
            with exact_model(others):
                return chain()
    else:
        draw = player.deal_drawer(view)
    hidden = indices(k.unseen)
    mass = {card: [0.0] * (len(others) + 1) for card in hidden}
    total = 0.0
    for _ in range(draws):
        weight, hands, _stock, _kinds = draw()
        if weight <= 0.0:
            continue
        total += weight
        for card in hidden:
            bit = 1 << card
            for place, seat in enumerate(others):
                if hands[seat] & bit:
                    mass[card][place] += weight
                    break
            else:
                mass[card][-1] += weight
    places = len(others) + 1
    scale = draws / total if total > 0.0 else 0.0  # weights in deals' worth
    chances = {
        card: [(share * scale + SMOOTH / places) / (draws + SMOOTH) for share in shares]
        for card, shares in mass.items()
    }
    return others, chances


def score(
    game: Game, others: list[int], chances: dict[int, list[float]], trump: int
) -> tuple[float, ...]:
    """(mean log2 chance of the true place, mean chance of it, mean chance in some hand for the
    cards really held, mean chance of the true place for the trick takers: queens and up, and
    trumps) over the hidden cards."""
    held = [mask_of(game.hand_of(seat)) for seat in others]
    logs, trues, in_hands, takers = [], [], [], []
    for card, chance in chances.items():
        bit = 1 << card
        place = next((i for i, mask in enumerate(held) if mask & bit), len(others))
        logs.append(math.log2(chance[place]))
        trues.append(chance[place])
        if place < len(others):
            in_hands.append(sum(chance[:-1]))
        if card % 13 >= 10 or card // 13 == trump:
            takers.append(chance[place])
    return (statistics.fmean(logs), statistics.fmean(trues), statistics.fmean(in_hands or [1.0]),
            statistics.fmean(takers or [1.0]))


Scores = dict[str, dict[str, list[tuple[float, ...]]]]
"""Per variant and stage (bid, early play: more than four cards held, late play), one
(log2, p_true, in_hands, p_takers) per test-seat decision."""
STAGES = ("bid", "early", "late")


def measure_deal(config: Config, deal: int) -> Scores:
    """The scores of every variant (`config.testers`, each drawing `config.iterations` deals)
    at each decision of the test seat (rotated over the seats), the seat played by `medium` so
    that every variant is asked about the same positions."""
    variants = config.testers
    draws = config.iterations or 0
    results: Scores = {variant: {stage: [] for stage in STAGES} for variant in variants}
    deck = deal_deck(config.seed, deal)
    for test_seat in range(PLAYERS):
        game = Game.new(PLAYERS, make_rules(), seed=deal, dealer=deal % PLAYERS, deck=deck)
        base = (config.seed * 7919 + deal) * 16
        seats: list[Any] = [opponent(config.opponents, base + seat) for seat in range(PLAYERS)]
        seats[test_seat] = create_player("medium", seed=base + test_seat)
        history = earlier_hands(config, deal, test_seat)
        decision = 0
        while game.phase is not Phase.GAME_OVER:
            seat = game.actor_seats()[0]
            view = game.view(seat)
            if seat == test_seat:
                view = replace(view, scoresheet=history + view.scoresheet)
                choices = view.legal_bids if game.phase is Phase.BIDDING else view.legal_cards
                seen = read_view(view)
                if len(choices) > 1 and seen.unseen:
                    stage = ("bid" if game.phase is Phase.BIDDING
                             else "early" if len(view.hand) > 4 else "late")
                    decision += 1
                    for variant in variants:
                        player = None
                        level, options = parse_tester(variant)
                        if level != "uniform":
                            player = HardPlayer(seed=base + test_seat, iterations=draws,
                                                **options)
                        rng = random.Random((base + test_seat) * 64 + decision)
                        others, chances = place_chances(player, view, draws, rng,
                                                        exact=level == "exact")
                        results[variant][stage].append(
                            score(game, others, chances, seen.trump))
            game.apply(seat, seats[seat].choose_move(view))
    return results


def measure(config: Config) -> Scores:
    totals: Scores = {variant: {stage: [] for stage in STAGES} for variant in config.testers}
    for deal in range(config.deals):
        for variant, stages in measure_deal(config, deal).items():
            for stage, rows in stages.items():
                totals[variant][stage].extend(rows)
    return totals


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=50, help="deals played (default 50)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the deals (default 7)")
    parser.add_argument("--variant", action="append", default=None,
                        help="uniform, hard or exact (hard told the simple opponents' "
                             "exact policy), with hard's options, e.g. hard+chain=30 "
                             "(repeatable; each is compared with the first)")
    parser.add_argument("--opponents", default="simple", choices=OPPONENTS,
                        help="the three opponents' player (default simple)")
    parser.add_argument("--history", type=int, default=0,
                        help="hands the opponents played before each measured one, on the "
                        "scoresheet `hard` sees")
    parser.add_argument("--draws", type=int, default=200, help="deals drawn per decision")
    args = parser.parse_args(argv)
    variants = args.variant or ["uniform", "hard"]
    config = Config(args.deals, variants, args.opponents, None, args.draws, 0, 0.0, args.seed,
                    args.history)
    started = time.perf_counter()
    totals = measure(config)
    print(f"inference: {args.deals} deals x {PLAYERS} seats, {HAND_SIZE} cards, opponents "
          f"{args.opponents}, history {args.history}, {args.draws} draws, seed {args.seed}, "
          f"{time.perf_counter() - started:.0f} s")
    print(f"{'variant':24} {'stage':6} {'n':>5} {'log2':>8} {'p_true':>7} {'in_hands':>8} "
          f"{'p_takers':>8}")
    base = variants[0]
    for variant in variants:
        for stage, rows in totals[variant].items():
            if not rows:
                continue
            means = [statistics.fmean(row[i] for row in rows) for i in range(4)]
            line = (f"{variant:24} {stage:6} {len(rows):5} {means[0]:8.4f} {means[1]:7.4f} "
                    f"{means[2]:8.4f} {means[3]:8.4f}")
            if variant != base:
                line += "   vs first:"
                for i, name in ((0, "log2"), (1, "p_true"), (3, "p_takers")):
                    diffs = [a[i] - b[i]
                             for a, b in zip(rows, totals[base][stage], strict=True)]
                    se = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0
                    line += f" {name} {statistics.fmean(diffs):+.4f} +- {se:.4f}"
            print(line)


if __name__ == "__main__":
    main()
