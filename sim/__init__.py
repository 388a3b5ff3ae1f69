"""empires-lab: Monte Carlo balance and strategy analysis for four historical strategy games."""

__version__ = "0.1.0"

from sim import compiled as _compiled

_compiled.install()      # a compiled module is used only while it matches its source (sim/compiled.py)
