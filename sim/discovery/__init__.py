"""Age of Empires III: The Age of Discovery (AoD), rule prefix AOD (rules edition: the 2007
rulebook read through its Hungarian translation, `data/meta.toml`).

Spec: shared/rules/age_of_discovery.md. Kernels: `components` (typed data), `discovery`
(expedition odds), `warfare` (battles and wars), `trade` (optimal sets), `scoring` (colony
majorities and final scoring). Engine: `play` (the game contract), `engine` (round loop, `ask`,
log) composed of `setup` (AOD-3, AOD-16), `placement` (AOD-5), `resolution` (AOD-6, AOD-8),
`conflicts` (AOD-9), `buildings` (AOD-14), `rounds` (AOD-11 - AOD-13); `state`, `actions`,
`choices`, `view`; players: `players` (protocol, random), `scripted`; `interventions`,
`checks`, `replay`. See docs/discovery_engine.md.
"""

TITLE = "Age of Empires III: The Age of Discovery"
