"""AFS-8, compiled: the steps of a batch of sieges, for `siege.simulate` (the one siege model;
docs/acres_odds.md states it).

A side's zones are count arrays of shape (rows, classes): draw pile, hand, discard pile and
siege area, plus money per row; classes are those of `siege.SideClasses`, in commit order (best
first). A draw takes class c with chance count_c / pile size, the top card of a uniformly
shuffled pile (AFS-5.6): the order of a pile is never looked at, so a shuffle only moves the
discard counts into the draw pile and a draw costs one uniform number.

The rows are played in lockstep, as a batch: every live row plays the same turn, and each draw
step of a refill draws for the rows that need a card, in row order. The uniform numbers are
therefore taken from the generator (numba shares its state with the numpy object) in one fixed
order: a row's siege depends on its place in the batch and the batch size, never on timing.

Compiled once and cached on disk (`cache=True`): a first call in a fresh checkout compiles for
some seconds, later processes load the cache.
"""

from __future__ import annotations

import numpy as np
from numba import njit

ATTACKER_WON, DEFENDER_WON, STALEMATE, RUNNING = 0, 1, 2, 3


@njit(cache=True)
def _rowsum(a, r):
    total = 0
    for c in range(a.shape[1]):
        total += a[r, c]
    return total


@njit(cache=True)
def reshuffle(draw, discard, r):
    """AFS-5.6.1: the discard pile becomes the new draw pile."""
    for c in range(draw.shape[1]):
        draw[r, c] += discard[r, c]
        discard[r, c] = 0


@njit(cache=True)
def draw_one(rng, draw, hand, discard, r, immediate):
    """The top card of the draw pile into the hand. An empty pile is first refilled from the
    discards (AFS-5.6.2); with `immediate`, a pile the draw empties is refilled at once (AFS-18
    A6, recommended), otherwise at the next draw."""
    total = _rowsum(draw, r)
    if total == 0:
        reshuffle(draw, discard, r)
        total = _rowsum(draw, r)
        if total == 0:
            return
    target = int(rng.random() * total)
    c = 0
    seen = draw[r, 0]
    while target >= seen:
        c += 1
        seen += draw[r, c]
    draw[r, c] -= 1
    hand[r, c] += 1
    if immediate and total == 1:
        reshuffle(draw, discard, r)


@njit(cache=True)
def refill(rng, draw, hand, discard, rows, hand_size, immediate):
    """AFS-5.2 step 4 for the rows flagged in `rows`: draw until the hand holds `hand_size`
    cards, or both piles are empty. Each draw step draws for every row still short, in row
    order (a row draws its k-th card exactly when it needs more than k and held more than k in
    its piles at the start)."""
    need = np.zeros(len(rows), dtype=np.int64)
    most = 0
    for r in range(len(rows)):
        if rows[r]:
            need[r] = min(hand_size - _rowsum(hand, r), _rowsum(draw, r) + _rowsum(discard, r))
            most = max(most, need[r])
    for k in range(most):
        for r in range(len(rows)):
            if need[r] > k:
                draw_one(rng, draw, hand, discard, r, immediate)


@njit(cache=True)
def wants(p, attacker, margin, a_line, d_line):
    """`ReinforcementPolicy.wants`: margin < 0 commits whenever it can (greedy)."""
    if margin < 0:
        return True
    if attacker:
        return p < a_line + margin
    return p > d_line - margin


@njit(cache=True)
def _clip(p, bounded, low, high):
    if bounded:
        return min(max(p, low), high)
    return p


@njit(cache=True)
def commit(hand, siege, money, r, c, p, value, cost, sign):
    """AFS-8.6: a card of class c from hand to the siege area, paid for (AFS-8.5); the new P."""
    hand[r, c] -= 1
    siege[r, c] += 1
    money[r] -= cost[c]
    return p + sign * value[c]


@njit(cache=True)
def ambush(rng, hand, discard, r, ambusher, chance, foe_hand, foe_discard, foe_vulnerable, foe_blocks):
    """AFS-10 for row r, where the side holds a card flagged `ambusher` (the first such class),
    with probability `chance` (below 1 one uniform number is drawn, only then): that card to its
    discard pile (AFS-10.6); the other side blocks with its least valuable blocker in hand, which
    goes to its discard pile (AFS-10.2), else gives up its least valuable vulnerable hand card to
    its empire deck, out of the siege (AFS-10.3; none: nothing). Returns whether the side ambushed."""
    for c in range(hand.shape[1]):
        if hand[r, c] > 0 and ambusher[c]:
            if chance < 1.0 and rng.random() >= chance:
                return False
            hand[r, c] -= 1
            discard[r, c] += 1
            for b in range(foe_hand.shape[1] - 1, -1, -1):
                if foe_hand[r, b] > 0 and foe_blocks[b]:
                    foe_hand[r, b] -= 1
                    foe_discard[r, b] += 1
                    return True
            for v in range(foe_hand.shape[1] - 1, -1, -1):
                if foe_hand[r, v] > 0 and foe_vulnerable[v]:
                    foe_hand[r, v] -= 1
                    return True
            return True
    return False


@njit(cache=True)
def play_turn(rng, hand, discard, siege, money, r, p, value, cost, free, attacker, margin, at_once, a_line, d_line,
              bounded, low, high, actions, cycle, ambusher, chance, foe_hand, foe_discard, foe_vulnerable, foe_blocks):
    """AFS-5.2 step 3 for one side: `actions` actions (commit the best affordable card while the
    policy wants, AFS-8.6, else ambush the other side's hand with a dead card flagged `ambusher`
    with probability `chance`, AFS-10, else discard `cycle` dead cards, AFS-13.2), then Leaders
    as free actions (AFS-8.7: all at once, or while the policy wants). Returns the new P."""
    sign = 1 if attacker else -1
    classes = hand.shape[1]
    for _ in range(actions):
        best = -1
        for c in range(classes):
            if hand[r, c] > 0 and value[c] > 0 and not free[c] and cost[c] <= money[r]:
                best = c
                break
        if best >= 0 and wants(p, attacker, margin, a_line, d_line):
            p = commit(hand, siege, money, r, best, p, value, cost, sign)
        elif not ambush(rng, hand, discard, r, ambusher, chance, foe_hand, foe_discard, foe_vulnerable, foe_blocks):
            for _ in range(cycle):
                for c in range(classes):
                    if hand[r, c] > 0 and (value[c] == 0 or cost[c] > money[r]):
                        hand[r, c] -= 1
                        discard[r, c] += 1
                        break
        p = _clip(p, bounded, low, high)
    for c in range(classes):
        if free[c]:
            while hand[r, c] > 0 and (at_once or wants(p, attacker, margin, a_line, d_line)):
                p = commit(hand, siege, money, r, c, p, value, cost, sign)
    return _clip(p, bounded, low, high)


@njit(cache=True)
def _opener(hand, money, r, opener, cost):
    for c in range(hand.shape[1]):
        if hand[r, c] > 0 and opener[c] and cost[c] <= money[r]:
            return c
    return -1


@njit(cache=True)
def open_siege(rng, draw, hand, discard, siege, money, p, value, cost, opener, hand_size, immediate):
    """AFS-8.1 / AFS-8.2 for every row: deal hands, re-dealing those that cannot besiege
    (AFS-8.1.4), then commit each row's best opening card, moving its marker P from the start."""
    dealing = np.ones(len(p), dtype=np.bool_)
    left = len(p)
    while left:
        refill(rng, draw, hand, discard, dealing, hand_size, immediate)
        for r in range(len(p)):
            if dealing[r]:
                if _opener(hand, money, r, opener, cost) >= 0:
                    dealing[r] = False
                    left -= 1
                else:
                    for c in range(draw.shape[1]):
                        draw[r, c] += hand[r, c] + discard[r, c]
                        hand[r, c] = 0
                        discard[r, c] = 0
    for r in range(len(p)):
        p[r] = commit(hand, siege, money, r, _opener(hand, money, r, opener, cost), p[r], value, cost, 1)


@njit(cache=True)
def _has_live(draw, hand, discard, money, r, value, cost):
    """Whether a side still holds, outside the siege area, a card it could commit (AFS-8.4)."""
    for c in range(draw.shape[1]):
        if value[c] > 0 and cost[c] <= money[r] and draw[r, c] + hand[r, c] + discard[r, c] > 0:
            return True
    return False


@njit(cache=True)
def run(rng, att, dfn, money, p, fresh, first_actions, foe_hand, classes, policies, lines, bounds, turn_rules,
        wins, status):
    """Every row's siege to its end (see `siege.simulate`), in lockstep: `att` / `dfn` are
    (draw, hand, discard, siege) arrays, `money` both sides' money arrays, `p` the marker per row
    (the start, or the known position); `classes` (value, cost, free) per side, the
    attacker's openers and the ambush flags (ambusher, vulnerable, blocks) per side; `policies` (margin, at_once, dead cards cycled an action) per side;
    `lines` the win lines (AFS-8.8), `bounds` (bounded, low, high) of the track; `turn_rules`
    (hand size, actions, immediate reshuffle, max turns). Writes `wins` (2, max_turns + 1) and
    each row's `status`."""
    a_line, d_line = lines
    bounded, low, high = bounds
    hand_size, actions, immediate, max_turns = turn_rules
    a_value, a_cost, a_free, a_opener, d_value, d_cost, d_free, a_amb, a_vul, a_blk, d_amb, d_vul, d_blk = classes
    a_margin, a_once, a_cycle, a_chance, d_margin, d_once, d_cycle, d_chance = policies
    a_money, d_money = money
    n = len(p)
    live = np.ones(n, dtype=np.bool_)
    status[:] = RUNNING
    refill(rng, dfn[0], dfn[1], dfn[2], live, hand_size if fresh else foe_hand, immediate)
    if fresh:
        open_siege(rng, att[0], att[1], att[2], att[3], a_money, p, a_value, a_cost, a_opener, hand_size, immediate)
    for r in range(n):
        p[r] = play_turn(rng, att[1], att[2], att[3], a_money, r, p[r], a_value, a_cost, a_free, True, a_margin,
                         a_once, a_line, d_line, bounded, low, high, first_actions, a_cycle,
                         a_amb, a_chance, dfn[1], dfn[2], d_vul, d_blk)
    refill(rng, att[0], att[1], att[2], live, hand_size, immediate)
    left = n
    for turn in range(2, max_turns + 2):
        mover = 0 if turn % 2 else 1
        for r in range(n):
            if not live[r]:
                continue
            if (mover == 0 and p[r] >= a_line) or (mover == 1 and p[r] <= d_line):
                wins[mover, turn - 1] += 1
                status[r] = mover
            elif (d_line < p[r] < a_line and not _has_live(att[0], att[1], att[2], a_money, r, a_value, a_cost)
                  and not _has_live(dfn[0], dfn[1], dfn[2], d_money, r, d_value, d_cost)):
                status[r] = STALEMATE         # both sides out of playable siege cards: P never moves again
            if status[r] != RUNNING:
                live[r] = False
                left -= 1
        if turn > max_turns or left == 0:
            break
        side = att if mover == 0 else dfn
        for r in range(n):
            if live[r]:
                if mover == 0:
                    p[r] = play_turn(rng, att[1], att[2], att[3], a_money, r, p[r], a_value, a_cost, a_free, True,
                                     a_margin, a_once, a_line, d_line, bounded, low, high, actions, a_cycle,
                                     a_amb, a_chance, dfn[1], dfn[2], d_vul, d_blk)
                else:
                    p[r] = play_turn(rng, dfn[1], dfn[2], dfn[3], d_money, r, p[r], d_value, d_cost, d_free, False,
                                     d_margin, d_once, a_line, d_line, bounded, low, high, actions, d_cycle,
                                     d_amb, d_chance, att[1], att[2], a_vul, a_blk)
        refill(rng, side[0], side[1], side[2], live, hand_size, immediate)


@njit(cache=True)
def run_known(rng, own, foe, a_money0, d_money0, p0, first_actions, foe_hand, n, a_value, a_cost, a_free, a_opener,
              d_value, d_cost, d_free, a_amb, a_vul, a_blk, d_amb, d_vul, d_blk, a_margin, a_once, a_cycle, a_chance,
              d_margin, d_once, d_cycle, d_chance, a_line, d_line, bounded, low, high, hand_size, actions, immediate,
              max_turns, wins, status):
    """`run` of n sieges from one known position (`siege.simulate` with a `Position`), the rows
    made here rather than passed: `own` is the attacker's (draw, hand, discard) counts by class,
    `foe` the defender's (unseen, discard) counts; the other arguments are `run`'s, unpacked.
    The same rows as `run` is given, so the same uniform numbers and the same counts."""
    ka, kd = own.shape[1], foe.shape[1]
    a_draw, a_hand, a_disc = np.empty((n, ka), np.int64), np.empty((n, ka), np.int64), np.empty((n, ka), np.int64)
    d_draw, d_disc = np.empty((n, kd), np.int64), np.empty((n, kd), np.int64)
    for r in range(n):
        for c in range(ka):
            a_draw[r, c] = own[0, c]
            a_hand[r, c] = own[1, c]
            a_disc[r, c] = own[2, c]
        for c in range(kd):
            d_draw[r, c] = foe[0, c]
            d_disc[r, c] = foe[1, c]
    p = np.full(n, p0, np.int64)
    run(rng, (a_draw, a_hand, a_disc, np.zeros((n, ka), np.int64)),
        (d_draw, np.zeros((n, kd), np.int64), d_disc, np.zeros((n, kd), np.int64)),
        (np.full(n, a_money0, np.int64), np.full(n, d_money0, np.int64)), p, False, first_actions, foe_hand,
        (a_value, a_cost, a_free, a_opener, d_value, d_cost, d_free, a_amb, a_vul, a_blk, d_amb, d_vul, d_blk),
        (a_margin, a_once, a_cycle, a_chance, d_margin, d_once, d_cycle, d_chance),
        (a_line, d_line), (bounded, low, high), (hand_size, actions, immediate, max_turns), wins, status)
