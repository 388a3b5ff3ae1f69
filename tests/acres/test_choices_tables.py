"""The per-decision tables of `Choices` (AFS-6.1 playable cards, one card per copy key) against
their definitions through the engine's own tests, at every step of scripted and random-legal
games: the speed-ups that read the connected set and the siege markers once per decision list
exactly the cards `Engine.playable` allows, in hand order, list each settle and siege once, and
find the journeys the printed links and transport symbols give (AFS-7.1.2-7.1.3, AFS-8.1.2-8.1.3);
the settles, developments, sieges and recruits, built legal without their rules' tests, pass
them, the sieges being every one `besiege_ok` allows (AFS-8.1) and the reinforcements and
Leaders every one `reinforce_ok` allows (AFS-8.6, AFS-8.7); and the raids are those `raid_ok`
allows (AFS-9)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.acres import play
from sim.acres.actions import Besiege, PlayLeader, Raid, Reinforce
from sim.acres.choices import Choices
from sim.acres.components import TRANSPORTS, load
from sim.acres.state import build_tables
from sim.core.seating import Seating


def _first_per_copy(engine, cards: list[int]) -> list[int]:
    keys = [engine.t.copy_key[c] for c in cards]
    return [c for i, c in enumerate(cards) if keys[i] not in keys[:i]]


def _journeys_by_definition(e, ch: Choices, owner: int, avoid) -> list[tuple[int, int, int]]:
    """(via, target, transport) from each playable connection card's printed links, read off
    the card kinds, first occurrence kept."""
    kind, control = e.t.kind, e.s.control[ch.g]
    out = []
    for via in ch.hand:
        if kind[via].loc < 0:
            continue
        for tr, dests in kind[via].links.items():
            transports = [x for x in ch._others((via,)) if getattr(kind[x], tr)]
            out += [(via, d, x) for x in transports for d in dests if control[d] == owner and d not in avoid]
    return list(dict.fromkeys(out))


def _sieges_by_definition(e, ch: Choices, side: int) -> list[Besiege]:
    """AFS-8.1: per journey to an enemy location not besieged, each other playable card as the
    opening card, kept where `besiege_ok` allows the siege."""
    out = []
    for via, target, x in _journeys_by_definition(e, ch, 2 - side, e.s.siege_loc[ch.g]):
        out += [a for a in (Besiege(target, via, x, m) for m in ch._others((via, x))) if e.besiege_ok(ch.g, side, a)]
    return out


def _watch(seen: list[int]):
    def watch(engine):
        def on_step(e, g, where):
            for side in (0, 1):
                ch = Choices(e, g, side, 1)
                hand = e.s.hand[g][side]
                assert ch.live == [c for c in hand if e.playable(g, side, c)]          # AFS-6.1
                assert ch.hand == _first_per_copy(e, ch.live)
                used = tuple(ch.hand[:1])
                assert ch._others(used) == _first_per_copy(e, [c for c in ch.live if c not in used])
                for kind in ("settle", "besiege"):                  # listed once each (AFS-7.1, AFS-8.1)
                    assert len(set(ch.list(kind))) == len(ch.list(kind))
                for owner, avoid in ((0, ()), (2 - side, e.s.siege_loc[g])):   # settle, besiege
                    assert ch._journeys(owner, avoid) == _journeys_by_definition(e, ch, owner, avoid)
                for kind, ok in (("settle", e.settle_ok), ("develop", e.develop_ok), ("besiege", e.besiege_ok),
                                 ("recruit", e.recruit_ok)):
                    assert all(ok(g, side, a) for a in ch.list(kind))       # built legal, none asked
                assert ch.list("besiege") == _sieges_by_definition(e, ch, side)
                for kind, cls, leader in (("reinforce", Reinforce, False), ("leader", PlayLeader, True)):   # AFS-8.6, 8.7
                    assert ch.list(kind) == [cls(track, c) for track in (0, 1) for c in ch.hand
                                             if e.reinforce_ok(g, side, track, c, leader)]
            seen[0] += 1
        return on_step
    return watch


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 999),
       strategies=st.tuples(st.sampled_from(play.STRATEGIES), st.sampled_from(play.STRATEGIES)))
def test_afs_6_1_playable_and_distinct_tables_match_the_engine(seed, strategies):
    seen = [0]
    play.play_with(seed, [0], [Seating(("british", "french"), strategies)], watch=_watch(seen))
    assert seen[0] > 0


def test_afs_7_1_link_tables_match_the_printed_links():
    """`Tables.card_links`, `transport_bits` and `links_overlap` are the card kinds' own links and
    transport symbols (AFS-3.3.1, AFS-7.1.3)."""
    t = build_tables(load())
    for c, k in enumerate(t.kind):
        carried = {tr for i, tr in enumerate(TRANSPORTS) if t.transport_bits[c] >> i & 1}
        assert carried == {tr for tr in TRANSPORTS if getattr(k, tr)}
        printed = [(TRANSPORTS[b.bit_length() - 1], dests) for b, dests in t.card_links[c]]
        assert printed == (list(k.links.items()) if k.loc >= 0 else [])
        all_dests = [d for _, dests in printed for d in dests]
        assert t.links_overlap[c] == (len(all_dests) != len(set(all_dests)))
    assert any(t.card_links)


def _raids_by_definition(e, g: int, side: int) -> list:
    """AFS-9.1-9.5: per reachable target (in location order) the fewest raid cards of the pool
    (a raider without a fee first, the range cards, the other raiders), kept where `raid_ok`
    allows that raid."""
    kind = e.t.kind
    hand = e.s.hand[g][side]
    raiders = sorted((c for c in hand if kind[c].raid == "yes"), key=lambda c: kind[c].special == "native_americans")
    if not raiders:
        return []
    pool = [raiders[0], *(c for c in hand if kind[c].raid == "range"), *raiders[1:]]
    out = []
    for target, d in sorted(e.raid_distances(g, side).items()):
        need = max(1, d - e.raid_bonus)
        a = Raid(target, tuple(pool[:need]))
        if need <= len(pool) and e.raid_ok(g, side, a):
            out.append(a)
    return out


def _watch_raids(seen: list[int]):
    def watch(engine):
        def on_step(e, g, where):
            for side in (0, 1):
                listed = Choices(e, g, side, 1).list("raid")
                assert listed == _raids_by_definition(e, g, side)
                seen[0] += bool(listed)
        return on_step
    return watch


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(seed=st.integers(0, 999), second=st.booleans(), exact=st.booleans(),
       strategies=st.tuples(st.sampled_from(("random", "raider", "hammer")), st.sampled_from(play.STRATEGIES)))
def test_afs_9_raid_list_asks_raid_ok_once_per_card_set(seed, second, exact, strategies):
    """The raid list, which asks `raid_ok` once per card set (save under an exact range), is the
    list of every target's fewest cards that `raid_ok` allows, at every step, under either
    edition (the second edition's extra step, `raid_bonus`) and either range rule (AFS-18 A8)."""
    overrides = (['rules.game.edition="second"'] if second else []) + (['options.raid_range="exactly"'] if exact else [])
    seen = [0]
    play.play_with(seed, [0, 1], [Seating(("british", "french"), strategies), Seating(("french", "british"), strategies)],
                   play.load_data(overrides), watch=_watch_raids(seen))
    assert seen[0] > 0
