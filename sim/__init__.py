"""empires-lab: Monte Carlo balance and strategy analysis for four historical strategy games."""

__version__ = "0.1.0"
