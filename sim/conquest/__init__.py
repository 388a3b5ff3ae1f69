"""Conquest of the Empire, Classic rules (Eagle Games 2005): the whole game for 2-6 players.

Spec: shared/rules/conquest_of_the_empire.md (rule ids `COE-...`). Modules: `play` (the game
contract), `engine` (turn loop) with its chapter parts `movement`, `battle`, `taxes`,
`purchase`; `state`, `actions`, `choices`; `players` (protocol, random-legal baseline) and
`scripted` (strategies of data/strategies.toml); `interventions`, `checks`, `replay`; the
kernels `combat`, `land_exact`, `land_bulk`, `naval`, `economy`, `policy`; `components` and
data/*.toml. See docs/conquest_engine.md.
"""

TITLE = "Conquest of the Empire (classic)"
