"""Tools that measure the bot and its players, run from the repository root (not installed)."""
