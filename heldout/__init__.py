"""Held out: the treebank's test sentences on the chosen vectors, and the learned heads' scores on them."""
