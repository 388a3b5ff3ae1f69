"""Struggle of Empires (Martin Wallace, Warfrog 2004), rule ids `SOE-...` of
shared/rules/struggle_of_empires.md; edition and data provenance in data/meta.toml.

The game module is `play.py` (INFO, load_data, play_games, asset_costs; sim.core.contract).
  data/*.toml        components, options.toml (each ambiguity's reading), strategies.toml
  components.py      typed, validated view of the data      state.py    BatchState, Tables
  combat.py          bulk battle kernels (one loss and one Reserves rule), combat_exact.py exact odds
  sea.py, scoring.py sea movement (SOE-11), region scoring and unrest penalties (SOE-16, 18)
  engine.py          the turn loop, apply, logging; composed of one part per rules chapter:
                     auction.py (SOE-3/5/6), movement.py (SOE-10/11), build.py (SOE-9/13),
                     tiles.py (SOE-8/19-21), battle.py + dice.py (SOE-12), economy.py (SOE-2/15-18)
  actions.py         one frozen dataclass per action     choices.py  the legal choices of a decision
  view.py            what a player may know (no hidden unrest)
  players.py         decision protocol, Roster, random player (play.make_player: the factory)
  scripted.py        scripted strategies (+ scripted_auction.py, scripted_passes.py, attack_scan.py,
                     attack_laws.py: their batch-wide array passes and exact attack laws)
  interventions.py   force / ban / grant keys and tile costs     checks.py   invariants, conformance hooks
  replay.py          a readable account of a logged game
"""

NAME, TITLE = "struggle", "Struggle of Empires"
