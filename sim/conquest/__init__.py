"""Conquest of the Empire, Classic rules (Eagle Games 2005): data, land and naval battles.

Spec: shared/rules/conquest_of_the_empire.md (rule ids `COE-...`).
"""

TITLE = "Conquest of the Empire (classic)"
