"""Page 7, real sentences: held-out treebank sentences, heads against top keys, per relation; charts, tables, texts."""
