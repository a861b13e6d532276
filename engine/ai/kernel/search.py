"""The hard player's searches of sampled deals, compiled: tests/ai/plain_sim.py's `solve_sampled`,
`solve_sampled_makes`, `_solve_deal` and `best_response` on the rows of engine/ai/kernel/play.py,
the same values from the same deals (the same moves tried in the same order, the same cut-offs,
the floating-point sums added in the same order).

The recursion keeps its particles in arrays made once per call (`Work`): level d's groups are
contiguous runs of `grouped[d]`, so a level's call is its level and a range, and a level below
never writes what the level above still reads. Rows passed in are never changed.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from engine.ai.kernel.bits import bit_count, bit_length, jit, suit_mask
from engine.ai.kernel.play import (
    HANDS,
    HELD,
    LEFT,
    LIVE,
    TRAIL,
    WIDTH,
    WON,
    Row,
    advance,
    legal_cards,
    play,
)

Rows = npt.NDArray[np.int64]
Weights = npt.NDArray[np.float64]

MOST_MOVES = 52


class Work(NamedTuple):
    """Scratch space for a joint search of `particles` deals, `levels` of my moves deep."""

    grouped: npt.NDArray[np.int64]
    """(levels, particles, WIDTH): each level's deals, after my move, in groups by trail."""
    weights: Weights
    """(levels, particles): their weights, in the same order."""
    bounds: npt.NDArray[np.int64]
    """(levels, particles + 1): where each group of a level starts."""
    moves: npt.NDArray[np.int64]
    """(levels, MOST_MOVES): the moves tried at each level."""
    advanced: Rows
    """(particles, WIDTH): deals played on, before they are grouped."""
    trails: Row
    """(particles): the distinct trails found, in order of first appearance."""
    labels: Row
    """(particles): each deal's group."""
    deal_rows: Rows
    """(levels, WIDTH): a lone deal's positions, one a level (`_solve_deal`)."""
    deal_moves: npt.NDArray[np.int64]
    """(levels, MOST_MOVES): its moves tried, one row a level."""


@jit
def _make_work(particles: int, levels: int) -> Work:
    return Work(
        np.empty((levels, particles, WIDTH), np.int64),
        np.empty((levels, particles), np.float64),
        np.empty((levels, particles + 1), np.int64),
        np.empty((levels, MOST_MOVES), np.int64),
        np.empty((particles, WIDTH), np.int64),
        np.empty(particles, np.int64),
        np.empty(particles, np.int64),
        np.empty((levels, WIDTH), np.int64),
        np.empty((levels, MOST_MOVES), np.int64),
    )


@jit
def _top() -> int:
    """The first level as an int64, not the literal 0: numba compiles a call with a literal
    argument as a signature of its own, and a cached recursive kernel entered by another
    signature than the one it calls itself by crashes when loaded (numba issue 6713)."""
    return int(np.int64(0))


@jit
def distinct_moves(legal: int, elsewhere: int, out: Row) -> int:
    """engine/ai/sim.py distinct_moves, written to `out`; returns how many."""
    count = 0
    for suit in range(4):
        cards = legal & suit_mask(suit)
        previous = -1
        while cards:
            card = bit_length(cards & -cards) - 1
            cards ^= 1 << card
            if previous >= 0 and not elsewhere & ((1 << card) - 1) & ~((2 << previous) - 1):
                previous = card
                continue
            out[count] = card
            count += 1
            previous = card
    return count


@jit
def _after_card(source: Rows, weights: Weights, start: int, stop: int, card: int, rules: Row,
                bids: Row, me: int, branch_at: int, work: Work, level: int) -> int:
    """plain_sim.py after_card of `source[start:stop]`: the deals played on into `work`'s `level`,
    in groups by trail (groups in order of first appearance, deals in order within a group);
    returns the number of groups."""
    advanced = work.advanced
    trails = work.trails
    labels = work.labels
    bounds = work.bounds[level]
    count = stop - start
    groups = 0
    for k in range(count):
        row = advanced[k]
        row[:] = source[start + k]
        advance(row, rules, bids, me, branch_at, card)
        trail = row[TRAIL]
        label = 0
        while label < groups and trails[label] != trail:
            label += 1
        if label == groups:
            trails[groups] = trail
            bounds[groups + 1] = 0
            groups += 1
        labels[k] = label
        bounds[label + 1] += 1
    bounds[0] = 0
    for label in range(groups):
        bounds[label + 1] += bounds[label]
        trails[label] = bounds[label]  # now where the group's next deal goes
    grouped = work.grouped[level]
    grouped_weights = work.weights[level]
    for k in range(count):
        label = labels[k]
        place = trails[label]
        trails[label] = place + 1
        grouped[place] = advanced[k]
        grouped_weights[place] = weights[start + k]
    return groups


@jit
def _finished(rows: Rows, weights: Weights, start: int, stop: int, me: int,
              table: Row) -> float:
    """The weighted score of deals whose hand is over, summed as plain_sim.py does."""
    total = 0.0
    for k in range(start, stop):
        total += weights[k] * table[rows[k, WON + me]]
    return total


@jit
def _solve_deal(state: Row, rules: Row, bids: Row, me: int, table: Row, branch_at: int,
                ceiling: int, work: Work, depth: int) -> int:
    """plain_sim.py _solve_deal (`state` is not changed; my positions below it go in `work`'s
    deal_rows from `depth` on)."""
    won = state[WON + me]
    score = table[won]
    left = state[LEFT]
    if left == 0:
        return score  # type: ignore[no-any-return]
    if won + left < len(table):
        settled = True
        for tricks in range(won + 1, won + left + 1):
            if table[tricks] != score:
                settled = False
                break
        if settled:
            return score  # type: ignore[no-any-return]
    moves = work.deal_moves[depth]
    count = distinct_moves(legal_cards(state, rules, me), state[LIVE] & ~state[HANDS + me],
                           moves)
    child = work.deal_rows[depth]
    best = -(1 << 30)
    for k in range(count):
        child[:] = state
        advance(child, rules, bids, me, branch_at, moves[k])
        if child[LEFT] == 0:
            value = table[child[WON + me]]
        else:
            value = _solve_deal(child, rules, bids, me, table, branch_at, ceiling, work,
                                depth + 1)
        if value > best:
            best = value
            if best >= ceiling:
                break
    return best


@jit
def _solve_sampled(level: int, start: int, stop: int, rules: Row, bids: Row, me: int,
                   table: Row, branch_at: int, work: Work) -> float:
    """plain_sim.py solve_sampled of the deals `work.grouped[level][start:stop]`."""
    rows = work.grouped[level]
    weights = work.weights[level]
    top = table.max()
    if stop - start == 1:
        return weights[start] * _solve_deal(  # type: ignore[no-any-return]
            rows[start], rules, bids, me, table, branch_at, top, work, _top())
    first = rows[start]
    if first[LEFT] == 0:
        return _finished(rows, weights, start, stop, me, table)
    moves = work.moves[level]
    count = distinct_moves(legal_cards(first, rules, me), first[LIVE] & ~first[HANDS + me],
                           moves)
    mass = 0.0
    for k in range(start, stop):
        mass += weights[k]
    ceiling = top * mass
    below = level + 1
    grouped = work.grouped[below]
    bounds = work.bounds[below]
    best = -np.inf
    for k in range(count):
        groups = _after_card(rows, weights, start, stop, moves[k], rules, bids, me, branch_at,
                             work, below)
        value = 0.0
        for group in range(groups):
            low = bounds[group]
            high = bounds[group + 1]
            if grouped[low, LEFT] == 0:
                value += _finished(grouped, work.weights[below], low, high, me, table)
            else:
                value += _solve_sampled(below, low, high, rules, bids, me, table, branch_at,
                                        work)
        if value > best:
            best = value
            if best >= ceiling:
                break
    return best


@jit
def _solve_sampled_makes(level: int, start: int, stop: int, rules: Row, bids: Row, me: int,
                         table: Row, branch_at: int, target: int,
                         work: Work) -> tuple[float, float]:
    """plain_sim.py solve_sampled_makes of the deals `work.grouped[level][start:stop]`."""
    rows = work.grouped[level]
    weights = work.weights[level]
    first = rows[start]
    if first[LEFT] == 0:
        value = 0.0
        made = 0.0
        for k in range(start, stop):
            won = rows[k, WON + me]
            value += weights[k] * table[won]
            if won == target:
                made += weights[k]
        return value, made
    moves = work.moves[level]
    count = distinct_moves(legal_cards(first, rules, me), first[LIVE] & ~first[HANDS + me],
                           moves)
    mass = 0.0
    for k in range(start, stop):
        mass += weights[k]
    ceiling = table.max() * mass
    below = level + 1
    bounds = work.bounds[below]
    best_value = -np.inf
    best_made = 0.0
    for k in range(count):
        groups = _after_card(rows, weights, start, stop, moves[k], rules, bids, me, branch_at,
                             work, below)
        value = 0.0
        made = 0.0
        for group in range(groups):
            group_value, group_made = _solve_sampled_makes(
                below, bounds[group], bounds[group + 1], rules, bids, me, table, branch_at,
                target, work)
            value += group_value
            made += group_made
        if value > best_value:
            best_value = value
            best_made = made
            if value >= ceiling:
                break
    return best_value, best_made


@jit
def card_values(rows: Rows, weights: Weights, rules: Row, bids: Row, me: int, table: Row,
                branch_at: int, candidates: Row, alive: Row, target: int, values: Weights,
                makes: Weights) -> None:
    """engine/ai/hard.py `_joint_search`'s scoring of one batch: for each `candidates[i]`, i in
    `alive`, the deals `rows` (all at my choice, with the same history; weights `weights`)
    played on after it and solved jointly (plain_sim.py after_card, then solve_sampled, or with
    `target` >= 0 solve_sampled_makes). Adds each candidate's batch value to `values[i]` and,
    with a target, each group's weight of made bids to `makes[i]` in turn, as `_joint_search`
    adds them to its totals and makes (so the sums are bit for bit the same)."""
    particles = rows.shape[0]
    work = _make_work(particles, bit_count(rows[0, HANDS + me]) + 2)
    root = _top()
    bounds = work.bounds[root]
    for i in alive:
        groups = _after_card(rows, weights, 0, particles, candidates[i], rules, bids, me,
                             branch_at, work, root)
        value = 0.0
        for group in range(groups):
            if target >= 0:
                group_value, made = _solve_sampled_makes(
                    root, bounds[group], bounds[group + 1], rules, bids, me, table, branch_at,
                    target, work)
                value += group_value
                makes[i] += made
            else:
                value += _solve_sampled(root, bounds[group], bounds[group + 1], rules, bids, me,
                                        table, branch_at, work)
        values[i] += value


@jit
def _best_response(positions: Rows, moves: npt.NDArray[np.int64], depth: int, rules: Row,
                   bids: Row, me: int, table: Row, branch_at: int, ceiling: int) -> int:
    """plain_sim.py best_response of `positions[depth]` (played on; the branches below it go in the
    rows after it)."""
    state = positions[depth]
    while True:
        advance(state, rules, bids, me, branch_at, -1)
        if state[LEFT] == 0:
            return table[state[WON + me]]  # type: ignore[no-any-return]
        mine = moves[depth]
        count = distinct_moves(legal_cards(state, rules, me), state[HELD] & ~state[HANDS + me],
                               mine)
        if count > 1:
            break
        play(state, rules, mine[0])
    child = positions[depth + 1]
    best = -(1 << 30)
    for k in range(count):
        child[:] = state
        play(child, rules, mine[k])
        value = _best_response(positions, moves, depth + 1, rules, bids, me, table, branch_at,
                               ceiling)
        if value > best:
            best = value
            if best >= ceiling:
                break
    return best


@jit
def best_response_value(row: Row, rules: Row, bids: Row, me: int, table: Row, branch_at: int,
                        ceiling: int) -> int:
    """plain_sim.py best_response of the deal `row` (not changed): my best score in it when the
    others play their policies and I see every card."""
    levels = bit_count(row[HANDS + me]) + 2
    positions = np.empty((levels, WIDTH), np.int64)
    moves = np.empty((levels, MOST_MOVES), np.int64)
    positions[0] = row
    return _best_response(positions, moves, _top(), rules, bids, me, table, branch_at, ceiling)
