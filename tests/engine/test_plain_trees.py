"""The template corpus's plain sentences as trees: each row its template's tree, the article's as marked by hand."""
from engine import corpus, plain_trees, treebank


def test_every_row_of_the_corpus_has_one_template():
    examples = corpus.built_in()
    found = [[shape for shape in plain_trees.TEMPLATES if plain_trees.slots(e) == tuple(shape[0].split())]
             for e in examples]
    assert all(found) and len(plain_trees.trees(examples)) == len(examples)


def test_the_article_is_the_tree_marked_by_hand():
    article = next(e for e in corpus.built_in() if e.sentence == "The black cat drank the milk")
    tree = plain_trees.tree(article)
    assert (tree.tokens, tree.heads, tree.relations) == (treebank.ARTICLE.tokens, treebank.ARTICLE.heads,
                                                         treebank.ARTICLE.relations)


def test_heads_by_hand():
    assert plain_trees.heads(("D", "aS", "S", "I", "P", "D", "aL", "L")) == (3, 3, 4, 0, 8, 8, 8, 4)
    assert plain_trees.heads(("D", "S", "M", "V", "D", "O")) == (2, 4, 4, 0, 6, 4)


def test_a_row_no_template_wrote_has_no_tree():
    assert plain_trees.tree(corpus.Example("A dog ate a bone", "bone", {"ate": 1.0, "dog": 0.5, "a": 0.0},
                                           "test")) is None
    trees = plain_trees.trees(corpus.built_in())
    assert {t.split for t in trees} == {"train", "test"} and all(t.targets() for t in trees)
