"""The learned models' weights (train/fit.py writes them; engine/ai/learned.py reads them)."""
