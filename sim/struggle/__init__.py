"""Struggle of Empires (Martin Wallace, Warfrog 2004): component data, combat and sea-movement
kernels (bulk and exact), scoring, and the game engine. Rule ids `SOE-...` refer to
shared/rules/struggle_of_empires.md."""

TITLE = "Struggle of Empires"
