"""cogs."""
