"""The template corpus's plain sentences (data/relevance.csv) as trees, each word pointed at its head as the treebank
marks it: so that what is measured on web text per relation can be measured on plain sentences like the article's."""
from engine import corpus
from engine.tokens import tokenize
from engine.treebank import Sentence

# the templates data/make_relevance.py writes its rows from: the slots in order, the query slot and the relevance
# written for each other slot
# (D determiner, S subject, aS its adjective, V verb, O object, aO its adjective, M adverb, I intransitive verb,
# P preposition, L place, aL its adjective); a row's template is the one whose relevances it holds
TEMPLATES = (
    ("D aS S V D O", "O", {"V": 1, "S": 0.5, "aS": 0, "D": 0}),
    ("D S V D aO O", "O", {"V": 1, "aO": 0.6, "S": 0.3, "D": 0}),
    ("D aS S V D aO O", "O", {"V": 1, "aO": 0.6, "S": 0.3, "aS": 0, "D": 0}),
    ("D aS S V D aO O", "S", {"V": 1, "aS": 0.6, "O": 0.3, "aO": 0, "D": 0}),
    ("D aS S V D O", "V", {"O": 1, "S": 0.7, "aS": 0.1, "D": 0}),
    ("D S M V D O", "O", {"V": 1, "S": 0.5, "M": 0, "D": 0}),
    ("D aS S M V D O", "V", {"O": 1, "S": 0.7, "M": 0.2, "aS": 0.1, "D": 0}),
    ("D S I P D L", "L", {"P": 1, "I": 0.6, "S": 0.3, "D": 0}),
    ("D S I P D L", "P", {"L": 1, "I": 0.4, "S": 0.1, "D": 0}),
    ("D aS S I P D aL L", "L", {"P": 1, "aL": 0.6, "I": 0.5, "S": 0.2, "aS": 0, "D": 0}),
    ("D aS S I P D L", "S", {"I": 1, "aS": 0.6, "L": 0.2, "P": 0, "D": 0}),
)
# each slot's relation and the slots its head may be (the first of them in the sentence; a determiner's: the next noun)
GRAMMAR = {"D": ("det", ("S", "O", "L")), "aS": ("amod", ("S",)), "aO": ("amod", ("O",)), "aL": ("amod", ("L",)),
           "S": ("nsubj", ("V", "I")), "O": ("obj", ("V",)), "M": ("advmod", ("V",)), "P": ("case", ("L",)),
           "L": ("obl", ("I",)), "V": ("root", ()), "I": ("root", ())}


def slots(e: corpus.Example) -> tuple[str, ...] | None:
    """The template slots of a row's words, or None when no template wrote it."""
    tokens = tokenize(e.sentence)
    for shape, query, relevance in TEMPLATES:
        names = tuple(shape.split())
        if len(names) == len(tokens) and tokens[names.index(query)] == e.query and all(
                e.targets.get(t) == relevance[n] for t, n in zip(tokens, names, strict=True) if n != query):
            return names
    return None


def heads(names: tuple[str, ...]) -> tuple[int, ...]:  # -> 1-based head of each slot, 0 for the root
    """Each slot's head as the treebank writes it: the first slot it may belong to, after it for a determiner."""
    found = []
    for i, name in enumerate(names):
        allowed = GRAMMAR[name][1]
        after = range(i + 1, len(names)) if name == "D" else range(len(names))
        found.append(next((j + 1 for j in after if names[j] in allowed), 0))
    return tuple(found)


def tree(e: corpus.Example) -> Sentence | None:
    """A template row as a treebank sentence (its split, its words, their heads and relations)."""
    names = slots(e)
    if names is None:
        return None
    return Sentence(e.split, e.sentence, tuple(tokenize(e.sentence)), heads(names),
                    tuple(GRAMMAR[n][0] for n in names))


def trees(examples) -> list[Sentence]:
    """The rows that a template wrote, as trees."""
    return [t for t in map(tree, examples) if t is not None]
