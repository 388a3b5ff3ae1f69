"""The scripted players' reading of the opponent's hand against the exact chance over every order
of his last shuffle that agrees with what they have seen (AFS-5.6.1: the discards shuffled and
the cards played since are face-up): a raid going unblocked (AFS-9.6, `ScriptedPlayer.p_unblocked`,
engine version 9; the defender keeps his blockers), holding a card (`p_holds`) and an ambush
unblocked that takes a card (AFS-10.2-10.3, `ambush_odds`, engine version 10)."""

from itertools import permutations

import numpy as np
import pytest

from sim.acres.actions import Raid
from sim.acres.play import make_player
from tests.acres.engine_kit import FR, GB, Game


def exact(shuffled, pile_size, seen_drawn, blockers, wanted=None):
    """P(no blocker was drawn, and some `wanted` card was, where given) over every order of
    `shuffled` whose drawn cards (all but the last `pile_size`) include the ones seen played since."""
    agree = free = 0
    for order in permutations(shuffled):
        drawn = set(order[:len(shuffled) - pile_size])
        if seen_drawn <= drawn:
            agree += 1
            free += not drawn & blockers and (wanted is None or bool(drawn & wanted))
    return free / agree


def arranged(*, own_zone):
    """The British draw pile holds 3 cards of a 6-card last shuffle, 2 of which were played since
    (in the discard) and 1 is in hand beside 4 cards kept from before; one raid-blocker is among
    the shuffle's unseen cards. `own_zone` says where the British card of the raided location
    lies: "seen" (the discard), "kept" (in hand, not of the shuffle) or "shuffled" (in place of a
    non-blocking unseen card of the shuffle)."""
    game = Game()
    s, t, e = game.s, game.t, game.e
    british = [c for c in range(t.n_cards) if t.start_side[c] == GB]
    own = next(c for c in s.draw[0][GB] + s.hand[0][GB] if t.kind[c].loc >= 0 and e.playable(0, GB, c))
    blocker = next(c for c in british if e.blocks_raids(c))
    plain = [c for c in british if c != own and not e.blocks_raids(c)][:9]
    x1, x2, x3, x4, x5, *kept = plain
    if own_zone == "shuffled":
        x5 = own
    elif own_zone == "kept":
        kept[0] = own
    pile, hand, discard = [x3, blocker, x5], [x4, *kept], [x1, x2] + ([own] if own_zone == "seen" else [])
    for c in s.draw[0][GB] + s.hand[0][GB]:       # the rest of the British cards: face-up
        game.move(c, s.discard[0][GB])
    for zone, cards in ((s.draw[0][GB], pile), (s.hand[0][GB], hand), (s.discard[0][GB], discard)):
        for c in cards:
            game.move(c, zone)
    s.shuffled[0][GB] = sorted([x1, x2, x3, x4, x5, blocker])
    raider = make_player("raider", e, 0, FR, np.random.default_rng(1))
    raider._prepare()
    forecast = raider.p_unblocked(Raid(t.kind[own].loc, ()))
    return forecast, s.shuffled[0][GB], {x1, x2}, blocker, own


def test_afs_9_6_only_the_unseen_cards_of_the_last_shuffle_can_be_in_the_draw_pile():
    """3 of the 4 unseen cards of the shuffle are the pile: the blocker is there with chance 3/4
    (version 8 counted the 2 cards played since as places too: 3/6)."""
    forecast, shuffled, seen, blocker, _ = arranged(own_zone="seen")
    assert forecast == pytest.approx(exact(shuffled, 3, seen, {blocker})) == pytest.approx(0.75)


def test_afs_9_6_the_targets_card_kept_in_hand_since_before_the_shuffle_surely_blocks():
    forecast, *_ = arranged(own_zone="kept")
    assert forecast == 0.0


def test_afs_9_6_the_targets_card_in_the_shuffle_is_a_blocker_like_the_others():
    """Both the blocker and the target's card must be in the pile of 3 of the 4 unseen: 1/2."""
    forecast, shuffled, seen, blocker, own = arranged(own_zone="shuffled")
    assert forecast == pytest.approx(exact(shuffled, 3, seen, {blocker, own})) == pytest.approx(0.5)


def shuffle_of_six(vulnerable_kept: bool = False):
    """The British hand and pile after a 6-card shuffle as in `arranged`, with a Rangers card (it
    blocks ambushes) and a Regular Infantry (vulnerable) among the shuffle's unseen cards; the
    French scripted raider reads them. `vulnerable_kept`: a second Regular Infantry is in hand
    since before the shuffle."""
    game = Game()
    s, t, e = game.s, game.t, game.e
    rangers, regular = game.card(GB, "rangers"), game.card(GB, "regular_infantry")
    others = [c for c in range(t.n_cards) if t.start_side[c] == GB and c not in (rangers, regular)
              and not t.kind[c].block_ambush and not t.kind[c].vulnerable][:8]
    x1, x2, x3, x4, *kept = others
    if vulnerable_kept:
        kept[0] = game.card(GB, "regular_infantry", 1)
    for c in s.draw[0][GB] + s.hand[0][GB] + s.reserve[0][GB]:
        game.move(c, s.discard[0][GB])
    for zone, cards in ((s.draw[0][GB], [x3, rangers, regular]), (s.hand[0][GB], [x4, *kept]),
                        (s.discard[0][GB], [x1, x2])):
        for c in cards:
            game.move(c, zone)
    s.shuffled[0][GB] = sorted([x1, x2, x3, x4, rangers, regular])
    raider = make_player("raider", e, 0, FR, np.random.default_rng(1))
    raider._prepare()
    return raider, s.shuffled[0][GB], {x1, x2}, rangers, regular


def test_afs_10_an_ambush_goes_unblocked_and_takes_a_card_with_the_exact_joint_chance():
    """The drawn card still in hand is one of the 4 unseen of the shuffle: not the Rangers and
    the Regular Infantry, 1/4 (version 9 multiplied two chances, each over all 8 unseen cards)."""
    raider, shuffled, seen, rangers, regular = shuffle_of_six()
    want = exact(shuffled, 3, seen, {rangers}, {regular})
    assert raider.ambush_odds() == pytest.approx(want) == pytest.approx(0.25)
    assert raider.p_holds([c == regular for c in range(raider.t.n_cards)]) == pytest.approx(0.25)


def test_afs_10_a_vulnerable_card_kept_since_before_the_shuffle_is_surely_in_hand():
    raider, shuffled, seen, rangers, _ = shuffle_of_six(vulnerable_kept=True)
    assert raider.ambush_odds() == pytest.approx(exact(shuffled, 3, seen, {rangers})) == pytest.approx(0.75)
    assert raider.p_holds([raider.t.kind[c].vulnerable for c in range(raider.t.n_cards)]) == 1.0
