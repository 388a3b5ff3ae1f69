"""One odds page per game; each module has `build(out_dir, quick) -> OddsPage`."""
