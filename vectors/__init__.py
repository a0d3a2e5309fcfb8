"""The vectors a visitor chose (the built-in GloVe, a download, an upload) and a sentence read through them."""
