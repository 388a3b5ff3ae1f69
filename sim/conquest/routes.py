"""Where galleys and roads take the scripted players (COE-6.6, COE-12, COE-32), from the map:
land distances, the one-turn sea crossings and the provinces only the sea reaches; and how far a
province lies from a set of goals. Built once per board and shared by every player."""

from __future__ import annotations

from collections import deque

_DISTANCES: dict[int, list[tuple[int, ...]]] = {}
_CROSSINGS: dict[int, tuple[dict[int, int], ...]] = {}
_SEA_ONLY: dict[int, frozenset[int]] = {}


def distances(t) -> list[tuple[int, ...]]:
    """Land steps between every two provinces (COE-11.7; n_prov where no land path exists)."""
    found = _DISTANCES.get(id(t))
    if found is None:
        found = _DISTANCES[id(t)] = _distances(t)
    return found


def _distances(t) -> list[tuple[int, ...]]:
    out = []
    for src in range(t.n_prov):
        dist = [t.n_prov] * t.n_prov
        dist[src] = 0
        todo = deque([src])
        while todo:
            q = todo.popleft()
            for r in t.steps[q]:
                if dist[r] > dist[q] + 1:
                    dist[r] = dist[q] + 1
                    todo.append(r)
        out.append(tuple(dist))
    return out


def crossings(t) -> tuple[dict[int, int], ...]:
    """Per province: the provinces a galley beached there reaches in one turn with its 2 MP --
    out to a sea zone on its coast, then onto another coast of that zone, where its legion lands
    (COE-12.2, COE-12.3, COE-12.6) -- each with the zone crossed (the first in the map's order)."""
    found = _CROSSINGS.get(id(t))
    if found is None:
        found = _CROSSINGS[id(t)] = tuple(
            {r: z for z in reversed(t.coast[q]) for r in t.sea_coast[z - t.n_prov] if r != q}
            for q in range(t.n_prov))
    return found


def sea_only(t) -> frozenset[int]:
    """Provinces no land path joins to the rest of the board (islands without a strait,
    COE-3.4): only a galley's legion takes them."""
    found = _SEA_ONLY.get(id(t))
    if found is None:
        dist = distances(t)
        found = _SEA_ONLY[id(t)] = frozenset(
            q for q in range(t.n_prov) if all(dist[q][r] >= t.n_prov for r in range(t.n_prov) if r != q))
    return found


def distance_to(t, q: int, goals) -> int:
    """Land steps from q to the nearest of `goals` (n_prov when none is reached)."""
    row = distances(t)[q]
    return min((row[r] for r in goals), default=t.n_prov)
