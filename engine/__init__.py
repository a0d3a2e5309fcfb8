"""Numpy + gensim engine: vectors, positional encoding, layers, attention, alignment, training."""
