"""Analysis scripts: odds pages, tournaments, tile values and the balance report."""
