"""A Few Acres of Snow (Treefrog Games, 2011): component data, the siege kernel and final scoring.

Spec: rules/a_few_acres_of_snow.md (`AFS-...` ids). `components.load()` gives the validated data,
`siege.siege_odds()` the Monte Carlo odds of one siege, `scoring.final_scores()` AFS-15 scoring.
"""

TITLE = "A Few Acres of Snow"
