"""Age of Empires III: The Age of Discovery (AoD): component data, discovery odds (AOD-8),
warfare (AOD-9), trade income (AOD-10) and scoring (AOD-12, AOD-13).

Spec: shared/rules/age_of_discovery.md. Modules: `components` (typed data), `discovery`
(expedition odds), `warfare` (battles and wars), `trade` (optimal sets, vectorised),
`scoring` (colony majorities and final scoring, vectorised).
"""

TITLE = "Age of Empires III: The Age of Discovery"
