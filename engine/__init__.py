"""The engine: numpy and gensim (jieba for Chinese words), math and data only, no UI: vectors, tokens, formats,
positional encoding, layers, attention, alignment, relevance, training, the corpora, projection, reproduce."""
from engine import later

later.stand_in()  # before any engine module imports gensim, which would import scipy.stats (later.py says why)
