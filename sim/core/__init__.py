"""Game-agnostic building blocks: streams, dice, exact odds, statistics, data, errors."""
