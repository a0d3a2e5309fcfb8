"""Swap or remove a word of the sentence (pages 2 and 4): the choice, what it changed, its texts."""
