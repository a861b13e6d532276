"""The hard player's simulator in plain Python: the definition the compiled kernels
(engine/ai/kernel/) are held to by tests/ai/test_kernel*.py, and tested against the engine
(legal cards, trick winners, whole hands) by tests/ai/test_sim.py.

It plays the rest of a hand from any point with every hand known (one sampled deal), every seat
following the fast heuristic policy of its kind. It never touches the public Game class: hands
are ints, cards are ints, a trick is a list of ints.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.ai.bits import SUIT_MASKS, legal_mask
from engine.ai.policy import choose_card, easy_card, greedy_card, sure_count
from engine.ai.sim import EASY, GREEDY, MEDIUM, Setup, distinct_moves


def rollout(
    setup: Setup,
    hands: list[int],
    bids: list[int],
    kinds: list[int] | None = None,
    forced: int = -1,
) -> list[int]:
    """Play the hand out from `setup` with these hands; returns the tricks won per seat.

    `forced`, when set, is the card the next seat to act plays (the move being evaluated).
    `kinds` gives each seat's policy: MEDIUM (the default), EASY or GREEDY. Inputs are not
    changed.
    """
    state = SimState(setup, hands, bids, kinds)
    advance(state, -1, 0, forced)
    return state.won


def rollouts(
    setup: Setup, hands: list[int], variants: list[list[int]], kinds: list[int] | None = None
) -> list[list[int]]:
    """`rollout` once per bids in `variants` (a bid decision's candidates, one deal): the tricks
    won per seat for each. The variants are played as one hand until some seat's play differs
    between them, and split there, so the cards they share are simulated once."""
    results: list[list[int]] = [[] for _ in variants]
    _split(SimState(setup, hands, variants[0], kinds), variants, list(range(len(variants))),
           results)
    return results


def _split(
    state: SimState, variants: list[list[int]], which: list[int], results: list[list[int]]
) -> None:
    """Play `state` on for the variants `which`, splitting where their plays differ."""
    # a seat whose bid is the same in every variant here plays the same card in all of them;
    # where only one seat's bid differs (mostly mine), `advance` plays up to its next choice
    state.bids = variants[which[0]]
    varying = [len(set(column)) > 1
               for column in zip(*[variants[index] for index in which], strict=True)]
    lone = varying.index(True) if varying.count(True) == 1 else -1
    while len(which) > 1 and state.left > 0:
        if lone >= 0:
            advance(state, lone, 52)
            if state.left == 0:
                break
            seat = lone
        else:
            seat = state.to_act()
            legal = state.legal(seat)
            if legal & (legal - 1) == 0:
                state.play(legal.bit_length() - 1)
                continue
            if not varying[seat]:
                state.play(state.policy_card(seat))
                continue
        by_card: dict[int, list[int]] = {}
        # a seat's play depends on the variants only by its bid, and on that only by how the
        # tricks it still needs compare with what choose_card compares them with (0, 1, half
        # the tricks left, the tricks left, its sure winners): one card per such class
        won = state.won[seat]
        left = state.left
        medium = state.fixed[6][seat] == MEDIUM
        sure = sure_count(state.hands[seat], state.live & ~state.hands[seat]) if medium else 0
        by_class: dict[tuple[bool, ...], int] = {}
        for index in which:
            need = variants[index][seat] - won
            if medium:
                key: tuple[bool, ...] = (need > 0, need < 0, need > 1, 2 * need >= left,
                                         need >= left, need <= sure)
            else:  # easy and greedy look only at whether tricks are wanted
                key = (need > 0,)
            card = by_class.get(key, -1)
            if card < 0:
                state.bids = variants[index]
                card = by_class[key] = state.policy_card(seat)
            by_card.setdefault(card, []).append(index)
        if len(by_card) == 1:
            state.play(card)
            continue
        for card, group in by_card.items():
            child = state.copy()
            child.play(card)
            _split(child, variants, group, results)
        return
    state.bids = variants[which[0]]
    advance(state, -1, 0)
    for index in which:
        results[index] = state.won[:]


class SimState:
    """A hand in progress with every hand known, advanced one card at a time (for search)."""

    __slots__ = (
        "after_broken",
        "best",
        "best_pos",
        "bids",
        "broken",
        "bust_take",
        "fixed",
        "hands",
        "held",
        "kinds",
        "leader",
        "left",
        "live",
        "must_trump",
        "players",
        "trail",
        "trick",
        "trump",
        "won",
    )

    kinds: list[int] | None
    fixed: tuple[int, int, int, bool, bool, bool, list[int], dict[int, int], dict[int, int]]
    trail: int
    """The cards played since the state was made, as one number: what every seat has seen."""
    hands: list[int]
    won: list[int]
    trick: list[int]
    bids: list[int]

    def __init__(
        self, setup: Setup, hands: list[int], bids: list[int], kinds: list[int] | None = None
    ) -> None:
        self.kinds = kinds
        self.hands = hands[:]
        self.players = setup.players
        self.trump = setup.trump
        self.must_trump = setup.must_trump
        self.after_broken = setup.after_broken
        self.broken = setup.broken
        self.leader = setup.leader
        self.trick = []
        self.bids = bids
        self.won = list(setup.won)
        self.left = setup.left
        self.bust_take = setup.bust_take
        self.best = -1
        self.best_pos = 0
        held = 0
        for hand in hands:
            held |= hand
        self.held = held
        self.live = held if setup.live < 0 else setup.live
        self.trail = 0
        trump = setup.trump
        self.fixed = (
            setup.players, trump, SUIT_MASKS[trump] if trump >= 0 else 0,
            setup.must_trump and trump >= 0, setup.after_broken and trump >= 0, setup.bust_take,
            kinds or _ALL_MEDIUM[setup.players], *_memos(trump),
        )
        """What `advance` reads that play does not change, in one tuple: it is unpacked at
        each of the dozen calls a deal makes."""
        for card in setup.trick:
            self._add(card)

    def copy(self) -> SimState:
        other = SimState.__new__(SimState)
        other.kinds = self.kinds
        other.hands = self.hands[:]
        other.players = self.players
        other.trump = self.trump
        other.must_trump = self.must_trump
        other.after_broken = self.after_broken
        other.broken = self.broken
        other.leader = self.leader
        other.trick = self.trick[:]
        other.bids = self.bids
        other.won = self.won[:]
        other.left = self.left
        other.bust_take = self.bust_take
        other.best = self.best
        other.best_pos = self.best_pos
        other.held = self.held
        other.live = self.live
        other.trail = self.trail
        other.fixed = self.fixed
        return other

    def to_act(self) -> int:
        return (self.leader + len(self.trick)) % self.players

    def legal(self, seat: int) -> int:
        led = self.trick[0] // 13 if self.trick else -1
        return legal_mask(
            self.hands[seat], led, self.trump, self.must_trump, self.after_broken, self.broken
        )

    def policy_card(self, seat: int) -> int:
        hand = self.hands[seat]
        need = self.bids[seat] - self.won[seat]
        trick = self.trick
        trump = self.trump
        legal = legal_mask(
            hand, trick[0] // 13 if trick else -1, trump, self.must_trump, self.after_broken,
            self.broken,
        )
        kind = self.kinds[seat] if self.kinds is not None else MEDIUM
        if kind == EASY:  # as `advance` finds them (_memos)
            easy_memo = self.fixed[8]
            key = (legal << 6 | self.best + 1) << 1 | (need > 0)
            card = easy_memo.get(key, -1)
            if card < 0:
                card = easy_memo[key] = easy_card(legal, self.best, trump, need)
            return card
        if kind == GREEDY:
            greedy_memo = self.fixed[7]
            key = legal << 1 | (need > 0)
            card = greedy_memo.get(key, -1)
            if card < 0:
                card = greedy_memo[key] = greedy_card(legal, trump, need)
            return card
        return choose_card(
            legal,
            hand,
            self.best,
            trump,
            self.live & ~hand,
            need,
            self.left,
            len(trick) == self.players - 1,
            need > 0 or (need < 0 and self.bust_take),
        )

    def _add(self, card: int) -> None:
        best = self.best
        pos = len(self.trick)
        if best < 0:
            self.best, self.best_pos = card, pos
        elif card // 13 == best // 13:
            if card > best:
                self.best, self.best_pos = card, pos
        elif card // 13 == self.trump:
            self.best, self.best_pos = card, pos
        self.trick.append(card)

    def play(self, card: int) -> None:
        # `_add` and `to_act` written out: this runs for every card of every simulated deal
        trick = self.trick
        pos = len(trick)
        players = self.players
        bit = 1 << card
        self.hands[(self.leader + pos) % players] ^= bit
        self.held ^= bit
        self.live &= ~bit
        self.trail = self.trail * 53 + card + 1
        best = self.best
        if best < 0:
            self.best = best = card
            self.best_pos = pos
        elif card // 13 == best // 13:
            if card > best:
                self.best = best = card
                self.best_pos = pos
        elif card // 13 == self.trump:
            self.best = best = card
            self.best_pos = pos
        if pos + 1 < players:
            trick.append(card)
            return
        winner = (self.leader + self.best_pos) % players
        self.won[winner] += 1
        if self.trump >= 0 and best // 13 == self.trump:
            self.broken = True
        self.leader = winner
        self.trick = []
        self.best = -1
        self.best_pos = 0
        self.left -= 1


def best_response(
    state: SimState, me: int, table: list[int], branch_at: int, ceiling: int
) -> int:
    """My best score in this deal when the others play the policy and I see every card.

    My moves are searched once I hold `branch_at` cards or fewer (before that I play the
    policy too); the search stops as soon as a line reaches `ceiling` (the best score possible).
    `state` is consumed.
    """
    while state.left > 0:
        seat = state.to_act()
        if seat == me and state.hands[me].bit_count() <= branch_at:
            legal = state.legal(me)
            if legal & (legal - 1):
                moves = distinct_moves(legal, state.held & ~state.hands[me])
                if len(moves) > 1:
                    best = -(1 << 30)
                    for card in moves:
                        child = state.copy()
                        child.play(card)
                        value = best_response(child, me, table, branch_at, ceiling)
                        if value > best:
                            best = value
                            if best >= ceiling:
                                break
                    return best
                state.play(moves[0])
            else:
                state.play(legal.bit_length() - 1)
        else:
            state.play(state.policy_card(seat))
    return table[state.won[me]]


def advance(state: SimState, me: int, branch_at: int, first: int = -1) -> None:
    """Play the policy for every seat (me too while I hold more than `branch_at` cards, and my
    forced moves) until I must choose among `branch_at` cards or fewer, or the hand ends.
    `first`, when set, is the card the seat to act plays first (my move being searched)."""
    # SimState.policy_card, SimState.play and legal_mask written out, the state's fields held in
    # locals and stored back on return: this loop plays most cards of every simulated deal
    (players, trump, tmask, must_trump, lead_side, bust_take, kinds, greedy_memo,
     easy_memo) = state.fixed
    hands = state.hands
    bids = state.bids
    won = state.won
    trick = state.trick
    best = state.best
    best_pos = state.best_pos
    leader = state.leader
    left = state.left
    broken = state.broken
    live = state.live
    held = state.held
    trail = state.trail
    pos = len(trick)
    led = trick[0] // 13 if pos else -1
    seat = (leader + pos) % players
    while left > 0:
        if left == 1 and pos == 0 and first < 0 and held.bit_count() == players:
            # the last trick: every hand holds one card, so every play is forced
            for _ in range(players):
                card = hands[seat].bit_length() - 1
                hands[seat] = 0
                trail = trail * 53 + card + 1
                suit = card // 13
                if best < 0:
                    best = card
                    best_pos = pos
                    led = suit
                elif suit == best // 13:
                    if card > best:
                        best = card
                        best_pos = pos
                elif suit == trump:
                    best = card
                    best_pos = pos
                pos += 1
                seat += 1
                if seat == players:
                    seat = 0
            live &= ~held
            held = 0
            seat = leader + best_pos
            if seat >= players:
                seat -= players
            won[seat] += 1
            if best // 13 == trump:
                broken = True
            leader = seat
            best = -1
            best_pos = 0
            pos = 0
            led = -1
            left = 0
            break
        hand = hands[seat]
        if first >= 0:
            card = first
            first = -1
        else:
            if led < 0:
                legal = hand
                if lead_side and not broken:
                    legal = hand & ~tmask or hand
            else:
                legal = hand & SUIT_MASKS[led]
                if not legal:
                    legal = hand & tmask or hand if must_trump else hand
            if legal & (legal - 1) == 0:
                card = legal.bit_length() - 1
            elif seat == me and hand.bit_count() <= branch_at:
                break
            else:
                need = bids[seat] - won[seat]
                kind = kinds[seat]
                if kind == GREEDY:
                    key = legal << 1 | (need > 0)
                    card = greedy_memo.get(key, -1)
                    if card < 0:
                        card = greedy_memo[key] = greedy_card(legal, trump, need)
                elif kind == EASY:
                    key = (legal << 6 | best + 1) << 1 | (need > 0)
                    card = easy_memo.get(key, -1)
                    if card < 0:
                        card = easy_memo[key] = easy_card(legal, best, trump, need)
                else:
                    card = choose_card(
                        legal, hand, best, trump, live & ~hand, need, left, pos == players - 1,
                        need > 0 or (need < 0 and bust_take),
                    )
        bit = 1 << card
        hands[seat] = hand ^ bit
        held ^= bit
        live &= ~bit
        trail = trail * 53 + card + 1
        suit = card // 13
        if best < 0:
            best = card
            best_pos = pos
            led = suit
        elif suit == best // 13:
            if card > best:
                best = card
                best_pos = pos
        elif suit == trump:
            best = card
            best_pos = pos
        pos += 1
        if pos < players:
            trick.append(card)
            seat += 1
            if seat == players:
                seat = 0
            continue
        seat = leader + best_pos
        if seat >= players:
            seat -= players
        won[seat] += 1
        if best // 13 == trump:
            broken = True
        leader = seat
        trick = []
        best = -1
        best_pos = 0
        pos = 0
        led = -1
        left -= 1
    state.trick = trick
    state.best = best
    state.best_pos = best_pos
    state.leader = leader
    state.left = left
    state.broken = broken
    state.live = live
    state.held = held
    state.trail = trail


_MEMOS: dict[int, tuple[dict[int, int], dict[int, int]]] = {}
MEMO_SIZE = 1 << 15


def _memos(trump: int) -> tuple[dict[int, int], dict[int, int]]:
    """The greedy and easy policies' cards already worked out with this trump, by legal cards,
    wish for tricks (and, for easy, the card to beat): a simulated deal meets the same few
    positions again and again (most greedy and easy cards are found here). Pure functions
    memoised, so play is unchanged; the tables are replaced by empty ones when one has
    grown past MEMO_SIZE (looked at as each state is made: a deal's play adds a few dozen)."""
    memos = _MEMOS.get(trump)
    if memos is None or len(memos[0]) > MEMO_SIZE or len(memos[1]) > MEMO_SIZE:
        memos = _MEMOS[trump] = ({}, {})
    return memos


_ALL_MEDIUM = [[MEDIUM] * players for players in range(11)]
"""Every seat's kind when a state has none given, by table size."""


Particle = tuple[SimState, float]


def after_card(
    particles: list[Particle], card: int, me: int, branch_at: int, reuse: bool = False
) -> Iterable[list[Particle]]:
    """Each particle after I play `card` and the others answer up to my next choice, grouped by
    the cards played on the way: deals I cannot tell apart then must get the same next card.
    With `reuse` the particles' states are played on rather than copied (their last use)."""
    groups: dict[int, list[Particle]] = {}
    for state, weight in particles:
        child = state if reuse else state.copy()
        advance(child, me, branch_at, card)
        groups.setdefault(child.trail, []).append((child, weight))
    return groups.values()


def solve_sampled(
    particles: list[Particle], me: int, table: list[int], branch_at: int
) -> float:
    """The best weighted total score when I must play the same card in every deal I cannot tell
    apart (the same cards seen so far), the others following their policies.

    Unlike a search of each deal with every card visible, this cannot "guess right" in each deal
    separately: a move is chosen once for the whole group of deals, and groups split only on what
    the play shows. All `particles` are at my choice (or finished) with the same history; they
    are used up (their last move is played on them, saving a copy a deal).
    """
    if len(particles) == 1:  # most groups, once the play has told the deals apart
        state, weight = particles[0]
        return weight * _solve_deal(state, me, table, branch_at, max(table))
    first = particles[0][0]
    if first.left == 0:
        return sum(weight * table[state.won[me]] for state, weight in particles)
    legal = first.legal(me)
    moves = distinct_moves(legal, first.live & ~first.hands[me])
    # a line that scores the table's best in every deal cannot be beaten: stop there (the
    # value and the first best move are the same as searching on)
    ceiling = max(table) * sum(weight for _, weight in particles)
    best = -float("inf")
    last = moves[-1]
    for card in moves:
        value = 0.0
        for group in after_card(particles, card, me, branch_at, card == last):
            if group[0][0].left == 0:  # the hand is over: the recursion's sum, without a call
                value += sum(weight * table[state.won[me]] for state, weight in group)
            else:
                value += solve_sampled(group, me, table, branch_at)
        if value > best:
            best = value
            if best >= ceiling:
                break
    return best


def _solve_deal(state: SimState, me: int, table: list[int], branch_at: int, ceiling: int) -> int:
    """`solve_sampled` of one deal, unweighted (its value is the weight times this): my best
    score, my moves chosen seeing the deal, as the joint search does once a deal is the only
    one left with its history. The weight factors out exactly (a product with a positive
    weight keeps the order of scores), so the value is the same. `state` is used up.

    A deal whose score can no longer change (every count of tricks still reachable scores the
    same: the bid is missed for sure where a miss scores nothing, strict scoring) is settled
    without playing on."""
    won = state.won[me]
    score = table[won]
    left = state.left
    if left == 0 or table[won:won + left + 1].count(score) == left + 1:
        return score
    legal = state.legal(me)
    moves = distinct_moves(legal, state.live & ~state.hands[me])
    best = -(1 << 30)
    last = moves[-1]
    for card in moves:
        child = state if card == last else state.copy()
        advance(child, me, branch_at, card)
        if child.left == 0:
            value = table[child.won[me]]
        else:
            value = _solve_deal(child, me, table, branch_at, ceiling)
        if value > best:
            best = value
            if best >= ceiling:
                break
    return best


def solve_sampled_makes(
    particles: list[Particle], me: int, table: list[int], branch_at: int, target: int
) -> tuple[float, float]:
    """`solve_sampled`, also telling the weight of the deals in which my best line wins exactly
    `target` tricks (for a hint's "keeps your bid alive in 7 of 10 deals"). `particles` are
    used up."""
    first = particles[0][0]
    if first.left == 0:
        value = 0.0
        made = 0.0
        for state, weight in particles:
            value += weight * table[state.won[me]]
            if state.won[me] == target:
                made += weight
        return value, made
    legal = first.legal(me)
    moves = distinct_moves(legal, first.live & ~first.hands[me])
    ceiling = max(table) * sum(weight for _, weight in particles)
    best = (-float("inf"), 0.0)
    last = moves[-1]
    for card in moves:
        value = 0.0
        made = 0.0
        for group in after_card(particles, card, me, branch_at, card == last):
            group_value, group_made = solve_sampled_makes(group, me, table, branch_at, target)
            value += group_value
            made += group_made
        if value > best[0]:
            best = (value, made)
            if value >= ceiling:
                break
    return best
