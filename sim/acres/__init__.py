"""A Few Acres of Snow (Treefrog Games, 2011): the whole game engine, its players, the siege
kernel and final scoring.

Spec: rules/a_few_acres_of_snow.md (`AFS-...` ids); first edition by default, the second edition
and Yucata's 26 scenario variants as options (docs/acres_engine.md). Module map:
`components` (validated data), `state` (BatchState, Tables), `rulebook` (edition, options and
variants resolved), `actions`, the chapters `network` (AFS-6, AFS-9.4), `expansion` (AFS-7),
`sieges` (AFS-8, through `siege`), `raids` (AFS-9-11), `economy` (AFS-12, AFS-13), `engine`
(turn loop, AFS-5, AFS-15), `choices`, `view`, `players` (protocol of AFS-21, random-legal),
`scripted` (strategies of data/strategies.toml), `interventions`, `checks` (invariants and
conformance hooks), `play` (the game module), `replay`; `siege` (bulk and exact siege odds),
`scoring` (AFS-15 on batches).
"""

TITLE = "A Few Acres of Snow"
