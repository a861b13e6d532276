"""engine/ai."""
