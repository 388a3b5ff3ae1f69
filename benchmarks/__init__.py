"""`make bench`: throughput figures as ratios to a ceiling measured in the same run."""
