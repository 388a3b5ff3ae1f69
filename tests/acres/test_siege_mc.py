"""The bulk siege kernel against closed forms, the exact oracle, chunking and deck invariants."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.acres import siege
from sim.acres.components import load, slug
from sim.core.errors import UserError
from sim.core.montecarlo import run_blocks
from sim.core.random import stream
from sim.core.stats import binomial_se


@pytest.fixture(scope="module")
def acres():
    return load()


@pytest.mark.parametrize("location, fort", [("albany", False), ("louisbourg", False), ("quebec", False),
                                            ("albany", True), ("quebec", True)])
@pytest.mark.parametrize("card, value", [("militia", 1), ("regular_infantry", 2), ("siege_artillery", 3)])
@pytest.mark.parametrize("zero_space", [True, False])
def test_military_only_deck_against_an_empty_defence(acres, location, fort, card, value, zero_space):
    """A British deck of 10 equal military cards against a French deck without any: the attacker
    commits 2 cards a turn (opening + reinforcement, then 2 reinforcements), so after his first
    turn P1 = -(1 + 2 fort + modifiers) + 2 v (AFS-8.2). By AFS-8.8 the French win at once if
    P1 <= -1; otherwise the British win at their second turn (2 turns) if P1 reaches the line,
    else at their third (4 turns, since P1 + 2 v >= 2)."""
    data = load([f"rules.siege.zero_space={str(zero_space).lower()}"])
    loc = data.location(location)
    p1 = -(1 + 2 * fort + loc.defence_modifiers) + 2 * value
    line = 2 if zero_space else 1
    role, turns = ("defender", 1) if p1 <= -1 else ("attacker", 2 if p1 >= line else 4)
    decks = {"british": data.deck("british", {card: 10}), "french": data.deck("french", {"trader": 10})}
    setup = siege.make_setup(data, location, "british", decks, fort=fort, money={"british": 100})
    counts = siege.simulate(setup, np.random.default_rng(5), 30)
    assert counts[role][turns] == 30


def _compare(setup, n, seed):
    """Bulk counts vs exact probabilities: every outcome total, and every per-turn cell with an
    expected count of at least 5, within 4 standard errors."""
    exact = siege.exact(setup)
    counts = siege.siege_counts(setup, n, seed)
    for key in ("attacker", "defender", "unresolved"):
        p = float(np.sum(exact[key]))
        assert abs(counts[key].sum() / n - p) <= 4 * binomial_se(p, n) + 1e-12, key
    for key in ("attacker", "defender"):
        for turn, p in enumerate(exact[key]):
            if n * p >= 5:
                got = counts[key][turn] / n if turn < len(counts[key]) else 0.0
                assert abs(got - p) <= 4 * binomial_se(p, n), (key, turn)
    return exact


MONTREAL = {"british": {"regular_infantry": 2, "militia": 2, "pemaquid": 4, "leader": 1},
            "french": {"militia": 2, "regular_infantry": 1, "trader": 3, "montreal": 1, "fortification": 1}}
ALBANY = {"french": {"regular_infantry": 2, "militia": 1, "trader": 3, "leader": 1},
          "british": {"militia": 2, "regular_infantry": 1, "pemaquid": 3, "fortification": 1}}


@pytest.mark.parametrize("overrides, policy, location, attacker, decks", [
    ((), "greedy", "montreal", "british", MONTREAL),
    ((), "sufficient", "montreal", "british", MONTREAL),
    (("rules.deck.reshuffle=on_draw",), "greedy", "montreal", "british", MONTREAL),
    (("rules.siege.zero_space=false",), "sufficient=0", "montreal", "british", MONTREAL),
    ((), "greedy", "albany", "french", ALBANY),
    (("rules.model.cycle_per_action=2",), "no-artillery", "albany", "french", ALBANY),
])
def test_bulk_agrees_with_exact(overrides, policy, location, attacker, decks):
    data = load(overrides)
    setup = siege.make_setup(data, location, attacker, {s: data.deck(s, c) for s, c in decks.items()},
                             policy=siege.parse_policy(policy), max_turns=14)
    exact = _compare(setup, 30_000, 11)
    assert sum(float(np.sum(exact[k])) for k in ("attacker", "defender", "unresolved")) == pytest.approx(1.0)


@pytest.mark.parametrize("attacker_cycle, defender_cycle", [(0, 2), (2, 0), (0, 0)])
def test_afs_13_2_each_sides_own_cycle_bulk_agrees_with_exact(attacker_cycle, defender_cycle):
    """A side's dead cards cycled an action (`ReinforcementPolicy.cycle`, the scripted forecast's
    `odds_cycle` / `foe_cycle`) are its own, not the rules' one for both: Monte Carlo agrees with
    the exact recursion for each pair, and a side that digs (cycles) wins more than one that
    keeps its hand, all else equal."""
    data = load()
    decks = {s: data.deck(s, c) for s, c in MONTREAL.items()}

    def setup(a: int, d: int):
        return siege.make_setup(data, "montreal", "british", decks,
                                policy=siege.cycling(siege.parse_policy("sufficient"), a),
                                defender_policy=siege.cycling(siege.POLICIES["greedy"], d), max_turns=14)

    _compare(setup(attacker_cycle, defender_cycle), 30_000, 12)
    attacker_wins = {(a, d): float(np.sum(siege.exact(setup(a, d))["attacker"])) for a in (0, 2) for d in (0, 2)}
    assert attacker_wins[(2, 0)] > attacker_wins[(0, 0)] > attacker_wins[(0, 2)]
    assert siege.cycling(siege.POLICIES["greedy"], 2).name != siege.POLICIES["greedy"].name   # the estimates' keys


def test_same_seed_same_counts_whatever_the_chunking(acres):
    setup = siege.make_setup(acres, "louisbourg", "british")
    whole = siege.siege_counts(setup, 5_000, 7, block=1_000)
    parts = [siege.siege_counts(setup, 5_000, 7, first=b, count=1, block=1_000) for b in range(5)]
    for key in whole:
        assert np.array_equal(whole[key], sum(np.pad(p[key], (0, len(whole[key]) - len(p[key]))) for p in parts))
    again = siege.siege_counts(setup, 5_000, 7, first=0, count=2, block=1_000)
    rest = siege.siege_counts(setup, 5_000, 7, first=2, block=1_000)
    assert all(np.array_equal(whole[k], again[k] + rest[k]) for k in whole)


def test_summary_reports_n_and_wilson_intervals(acres):
    setup = siege.make_setup(acres, "louisbourg", "british", {"british": acres.deck(
        "british", {"regular_infantry": 3, "boston": 1, "pemaquid": 3})})
    r = siege.siege_odds(setup, 4_000, 3)
    assert r["n"] == 4_000 and r["seed"] == 3
    total = r["attacker_win"] + r["defender_win"] + r["unresolved"]
    assert total == pytest.approx(1.0)
    assert sum(r["turns"].values()) == pytest.approx(r["attacker_win"] + r["defender_win"])
    for key in ("attacker_win", "defender_win", "unresolved"):
        low, high = r["ci95"][key]
        assert low <= r[key] <= high


deck_counts = st.lists(st.integers(0, 6), min_size=1, max_size=5)


@given(counts=deck_counts.filter(lambda c: sum(c) > 0), hand=st.lists(st.integers(0, 3), min_size=5, max_size=5),
       size=st.integers(1, 8), immediate=st.booleans(), seed=st.integers(0, 2**32))
def test_refill_conserves_cards_and_fills_the_hand(counts, hand, size, immediate, seed):
    """Cards move between draw pile, hand and discard pile but are never created or lost; the
    hand reaches the hand size unless both piles run dry (AFS-5.2, AFS-5.6)."""
    rng = np.random.default_rng(seed)
    k = len(counts)
    state = siege.DeckState.fresh(counts, 0, 4)
    state.discard[:] = rng.integers(0, 3, (4, k))
    state.hand[:] = np.asarray(hand[:k] + [0] * (k - len(hand[:k])))[None, :]
    before = state.draw + state.hand + state.discard
    had = state.hand.sum(axis=1)
    siege.refill(rng, state, size, immediate)
    assert np.array_equal(state.draw + state.hand + state.discard, before)
    assert (state.draw >= 0).all() and (state.discard >= 0).all()
    expected = np.maximum(had, np.minimum(size, before.sum(axis=1)))
    assert np.array_equal(state.hand.sum(axis=1), expected)


@given(att=st.dictionaries(st.sampled_from(["regular_infantry", "militia", "leader", "ships", "pemaquid",
                                            "siege_artillery", "fortification"]), st.integers(0, 4)),
       dfn=st.dictionaries(st.sampled_from(["regular_infantry", "militia", "leader", "trader", "fortification",
                                            "port_royal", "louisbourg"]), st.integers(0, 4)),
       money=st.integers(0, 9), seed=st.integers(0, 1000))
def test_siege_conserves_every_card(att, dfn, money, seed):
    acres = load()
    att["regular_infantry"] = max(att.get("regular_infantry", 0), 1)  # an opening card
    dfn["trader"] = max(dfn.get("trader", 0), 1)
    decks = {"british": acres.deck("british", att), "french": acres.deck("french", dfn)}
    setup = siege.make_setup(acres, "louisbourg", "british", decks, money={"british": money}, max_turns=6)
    out = siege.simulate(setup, np.random.default_rng(seed), 64, keep_state=True)
    assert sum(int(np.sum(out[k])) for k in ("attacker", "defender", "unresolved")) == 64
    for state, sc in zip(out["state"][:2], setup.sides):
        zones = state.draw + state.hand + state.discard + state.siege
        assert np.array_equal(zones, np.tile(np.asarray(sc.counts), (len(zones), 1)))
        assert (state.money >= 0).all() and (state.hand.sum(axis=1) <= setup.hand_size).all()


def _int(text):
    try:
        return int(text)
    except ValueError:
        return -1


@given(text=st.text(max_size=12))
def test_unknown_policy_is_a_user_error(text):
    if text in ("greedy", "sufficient", "no-artillery") or (text.startswith("sufficient=") and _int(text[11:]) >= 0):
        return
    with pytest.raises(UserError):
        siege.parse_policy(text)


@given(card=st.text(min_size=1, max_size=10), count=st.integers(-5, 5))
def test_bad_deck_is_a_user_error(card, count):
    acres = load()
    if slug(card) in acres.cards["french"] and count >= 0:
        return
    with pytest.raises(UserError):
        acres.deck("french", {card: count})


def _at_montreal(data, p, actions, hand, draw, discard, foe_hand=5):
    """A British siege of Montreal from a known position (MONTREAL's decks, split into zones)."""
    setup = siege.make_setup(data, "montreal", "british", {s: data.deck(s, c) for s, c in MONTREAL.items()},
                             policy=siege.parse_policy("sufficient"), max_turns=12)
    foe = MONTREAL["french"]
    return siege.at_position(setup, p, actions, (hand, draw, discard), {k: v for k, v in foe.items() if k != "trader"},
                             {"trader": foe["trader"]}, foe_hand)


@pytest.mark.parametrize("p, actions, hand, draw, discard", [
    (-1, 1, {"militia": 1, "pemaquid": 3}, {"regular_infantry": 2, "pemaquid": 1, "leader": 1}, {"militia": 1}),
    (0, 0, {"pemaquid": 4}, {"regular_infantry": 2, "militia": 2}, {"leader": 1}),
    (-2, 1, {"regular_infantry": 1, "leader": 1, "pemaquid": 2}, {"militia": 2, "pemaquid": 2}, {"regular_infantry": 1}),
])
def test_bulk_from_a_known_position_agrees_with_exact(acres, p, actions, hand, draw, discard):
    """AFS-8.2, AFS-8.8: a siege begun from the besieger's known hand, piles and actions left, the
    defender's hand dealt from his unseen cards (AFS-18 A42), bulk against the exact oracle."""
    setup = _at_montreal(acres, p, actions, hand, draw, discard, foe_hand=3)
    exact = _compare(setup, 30_000, 13)
    assert sum(float(np.sum(exact[k])) for k in ("attacker", "defender", "unresolved")) == pytest.approx(1.0)


def test_known_position_without_a_card_to_commit_is_lost_at_once(acres):
    """AFS-8.8.2: the marker at the defender's win line (-1) and no military card left in the
    besieger's hand: the defender wins at the start of his turn in every siege."""
    setup = _at_montreal(acres, -1, 1, {"pemaquid": 4}, {"regular_infantry": 2, "militia": 2, "leader": 1}, {})
    counts = siege.simulate(setup, np.random.default_rng(3), 50)
    assert counts["defender"][1] == 50


def test_position_hand_larger_than_the_unseen_cards_is_a_user_error(acres):
    with pytest.raises(UserError, match="hand size"):
        _at_montreal(acres, 0, 1, {"pemaquid": 4}, {}, {}, foe_hand=9)


_SIDES_CARDS = {"british": ["regular_infantry", "militia", "leader", "ships", "pemaquid", "siege_artillery",
                            "fortification", "boston"],
                "french": ["regular_infantry", "militia", "leader", "trader", "fortification", "port_royal",
                           "louisbourg", "quebec"]}


def _deck(acres, side, counts):
    return acres.deck(side, dict(zip(_SIDES_CARDS[side], counts)))


@settings(derandomize=True, max_examples=40)
@given(location=st.sampled_from(["louisbourg", "albany", "quebec", "boston", "port_royal"]),
       att=st.lists(st.integers(0, 3), min_size=8, max_size=8), dfn=st.lists(st.integers(0, 3), min_size=8, max_size=8),
       policy=st.sampled_from(["greedy", "no-artillery", "sufficient=1"]), known=st.booleans(),
       n=st.sampled_from([1, 32, 200]), seed=st.integers(0, 3))
def test_one_block_counts_and_kept_tables_agree_with_the_plain_computation(location, att, dfn, policy, known, n,
                                                                           seed):
    """`siege_counts` of one block (from the kept `first_stream`) gives run_blocks' counts from a
    fresh stream, after other estimates used the kept generator, and from a known position the
    rows made in the kernel (`run_known`) give the counts of the rows made in Python (`keep_state`,
    `DeckState.known`) from the same numbers; `side_classes` read through the
    kept card keys groups as `_card_key` card by card; `_classes` is the classes' arrays."""
    acres = load()
    att[0] = max(att[0], 1)                                   # an opening card (Regular Infantry)
    decks = {"british": _deck(acres, "british", att), "french": _deck(acres, "french", dfn)}
    setup = siege.make_setup(acres, location, "british", decks, policy=siege.parse_policy(policy),
                             defender_policy=siege.POLICIES["greedy"], money={"british": 3}, max_turns=10)
    if known:
        own = dict(decks["british"].counts)
        hand = {"regular_infantry": own.pop("regular_infantry")}
        setup = siege.at_position(setup, setup.start + 2, 1, (hand, own, {}), dict(decks["french"].counts), {},
                                  min(3, sum(dfn)))
    siege.siege_counts(setup, 7, seed + 1)                     # the kept generators moved on
    siege.siege_counts(setup, 5, seed)
    kept = siege.siege_counts(setup, n, seed)
    plain = run_blocks(lambda rng, size: siege.simulate(setup, rng, size), n, seed, siege.PURPOSE)
    assert kept.keys() == plain.keys()
    assert all(np.array_equal(kept[k], plain[k]) for k in plain)
    rows_here = siege.simulate(setup, stream(seed, 0, siege.PURPOSE), n, keep_state=True)   # rows made in Python
    assert all(np.array_equal(kept[k], rows_here[k]) for k in plain)
    loc = acres.location(location)
    for deck, sc, role, pol in zip((decks["british"], decks["french"]), setup.sides, siege.ROLES, setup.policies):
        keys = [siege._card_key(acres.card(deck.side, cid), loc, role, pol.artillery) for cid, _ in deck.counts]
        members = {}
        for (cid, _), key in zip(deck.counts, keys):
            members.setdefault(key, []).append(cid)
        assert sorted(map(tuple, members.values())) == sorted(sc.members)
        key_of, count_of = dict(zip((c for c, _ in deck.counts), keys)), dict(deck.counts)
        for i, members_of in enumerate(sc.members):
            assert {key_of[c] for c in members_of} == {(sc.value[i], sc.free[i], sc.cost[i], sc.opener[i])}
            assert sc.counts[i] == sum(count_of[c] for c in members_of)
            assert (sc.labels[i] == "dead") == (sc.value[i] == 0)
        arrays = siege._classes(sc)
        assert [a.tolist() for a in arrays] == [list(sc.value), list(sc.cost), list(sc.free), list(sc.opener)]


def test_one_block_counts_check_the_seed_as_run_blocks_does(acres):
    """The kept generator of seed 1 is not reused for the seed True, which `stream` refuses."""
    setup = siege.make_setup(acres, "louisbourg", "british")
    siege.siege_counts(setup, 8, 1)
    for bad in (True, -1):
        with pytest.raises(UserError):
            siege.siege_counts(setup, 8, bad)


AMBUSHED = {"british": {"regular_infantry": 2, "militia": 2, "pemaquid": 4, "leader": 1, "rangers": 1},
            "french": {"militia": 1, "native_americans": 2, "trader": 2, "montreal": 1, "regular_infantry": 1}}


@pytest.mark.parametrize("policy, defender_policy", [("sufficient", "greedy+ambush"),
                                                     ("greedy+ambush", "sufficient=0+ambush"),
                                                     ("sufficient", "sufficient=0+ambush=0.3")])
def test_afs_10_ambushes_in_the_siege_bulk_agrees_with_exact(policy, defender_policy):
    """AFS-10 (`ReinforcementPolicy.ambush`): a side that commits no card ambushes the other's
    hand with a dead ambush card (the French Native Americans; the British Rangers are worth a
    card in a siege, so they block rather than ambush), always or with a chance, the other blocks
    with his least valuable blocker or gives up his least valuable vulnerable card. Monte Carlo
    agrees with the exact recursion, and the defender's ambushes cut the attacker's chance, the
    more the likelier they are, which Rangers in his hand partly restore."""
    data = load()
    decks = {s: data.deck(s, c) for s, c in AMBUSHED.items()}

    def setup(a: str, d: str, british=AMBUSHED["british"]):
        return siege.make_setup(data, "montreal", "british", {**decks, "british": data.deck("british", british)},
                                policy=siege.parse_policy(a), defender_policy=siege.parse_policy(d), max_turns=14)

    _compare(setup(policy, defender_policy), 30_000, 14)
    plain = float(np.sum(siege.exact(setup("sufficient", "greedy"))["attacker"]))
    ambushed = float(np.sum(siege.exact(setup("sufficient", "greedy+ambush"))["attacker"]))
    no_rangers = {k: v for k, v in AMBUSHED["british"].items() if k != "rangers"}
    unguarded = float(np.sum(siege.exact(setup("sufficient", "greedy+ambush", no_rangers))["attacker"]))
    sometimes = float(np.sum(siege.exact(setup("sufficient", "greedy+ambush=0.3"))["attacker"]))
    assert unguarded < ambushed < sometimes < plain


def test_afs_10_ambush_flags_split_the_classes_only_where_a_side_ambushes():
    """Without an ambushing side the classes are those of the rules alone (the same classes, the
    same draws, so the estimates and games of a table that does not ambush are unchanged); with
    one, the ambush flags of AFS-10 split them and name them."""
    data = load()
    decks = {s: data.deck(s, c) for s, c in AMBUSHED.items()}
    plain = siege.make_setup(data, "montreal", "british", decks)
    flagged = siege.make_setup(data, "montreal", "british", decks, defender_policy=siege.parse_policy("greedy+ambush"))
    assert plain.sides[1].labels == ("value 2", "value 1", "dead")
    assert not any(plain.sides[1].ambush + plain.sides[0].vulnerable + plain.sides[0].blocks)
    assert "dead, ambushes, blocks ambushes" in flagged.sides[1].labels
    assert sum(flagged.sides[1].counts) == sum(plain.sides[1].counts)
    assert [sc.value.count(0) for sc in flagged.sides] == [1, 2]


@pytest.mark.parametrize("text, chance", [("greedy+ambush", 1.0), ("sufficient=2+ambush", 1.0),
                                           ("greedy+ambush=0.3", 0.3)])
def test_parse_policy_with_ambushes(text, chance):
    policy = siege.parse_policy(text)
    assert policy.ambush == chance and policy.name == text


@pytest.mark.parametrize("text", ["greedy+raid", "greedy+", "bold+ambush", "greedy+ambush=0", "greedy+ambush=1.5",
                                  "greedy+ambush=x", "greedy+ambush=nan"])
def test_parse_policy_rejects_an_unknown_addition(text):
    with pytest.raises(UserError, match="policy"):
        siege.parse_policy(text)
