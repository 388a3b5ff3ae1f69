"""`python -m sim` is the same as the `empires` console script."""

from sim.cli import main

raise SystemExit(main())
