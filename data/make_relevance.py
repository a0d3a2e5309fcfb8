"""Writes data/relevance.csv: the built-in relevance corpus, drawn from templates over word pools.

Run `python data/make_relevance.py`; tests/engine/test_corpus.py checks the committed file is exactly what this writes.
Every content word (noun, verb, adjective, adverb) belongs to one split: held-out sentences use only held-out
words, so a held-out score shows what the weights learned about kinds of words, not about these words.
"""
import csv
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from engine.plain_trees import TEMPLATES  # noqa: E402

OUT = Path(__file__).with_name("relevance.csv")
SEED = 0
TRAIN, HELD_OUT = 520, 140  # sentences per split
# Kept out of training whatever the draw: the article's example sentences use them.
ALWAYS_HELD_OUT = {"milk", "drank", "cat", "black", "ball", "blue"}

# Verb -> objects groups: the verb and its object belong together, whichever group a sentence is drawn from.
ACTIONS = {
    "drink": (["drank", "sipped", "poured", "spilled", "swallowed", "gulped", "served", "tasted"],
              ["milk", "water", "wine", "beer", "juice", "coffee", "tea", "lemonade", "whiskey", "soda", "cocoa"]),
    "eat": (["ate", "chewed", "cooked", "baked", "devoured", "sliced", "fried", "grilled", "boiled"],
            ["bread", "cake", "apple", "rice", "meat", "cheese", "pie", "pizza", "sandwich", "cookie", "banana",
             "carrot", "potato", "steak", "salad", "pasta", "soup", "egg"]),
    "read": (["read", "wrote", "printed", "signed", "edited", "published", "burned", "tore"],
             ["book", "letter", "poem", "newspaper", "novel", "story", "note", "report", "magazine", "article",
              "essay", "contract", "diary"]),
    "throw": (["kicked", "threw", "caught", "hit", "tossed", "dropped", "bounced", "rolled", "grabbed"],
              ["ball", "stone", "rock", "stick", "brick", "pebble", "bottle", "coin", "frisbee"]),
    "drive": (["drove", "parked", "repaired", "washed", "crashed", "towed", "fixed", "sold"],
              ["car", "truck", "bus", "van", "tractor", "bike", "motorcycle", "jeep", "taxi", "boat"]),
    "music": (["played", "tuned", "strummed", "carried"],
              ["piano", "guitar", "violin", "drum", "flute", "trumpet", "harp", "cello", "banjo", "saxophone"]),
    "open": (["opened", "closed", "locked", "shut", "unlocked", "slammed"],
             ["door", "window", "gate", "box", "drawer", "cabinet", "lid", "trunk"]),
    "wear": (["wore", "bought", "ironed", "sewed", "folded", "stitched"],
             ["coat", "shirt", "hat", "dress", "shoes", "jacket", "scarf", "skirt", "sweater", "gloves", "boots"]),
    "build": (["built", "painted", "demolished", "cleaned", "designed"],
              ["house", "wall", "fence", "bridge", "barn", "tower", "shed", "cabin", "garage"]),
    "garden": (["planted", "watered", "picked", "trimmed", "grew"],
               ["tree", "flower", "rose", "tulip", "bush", "vine", "hedge", "cactus"]),
}
SUBJECTS = ["cat", "dog", "horse", "boy", "girl", "man", "woman", "child", "farmer", "teacher", "soldier", "bird",
            "fox", "wolf", "lion", "tiger", "bear", "monkey", "baby", "king", "queen", "doctor", "nurse", "student",
            "driver", "pilot", "sailor", "worker", "artist", "singer", "player", "priest", "hunter", "lawyer",
            "judge", "guard", "officer", "chef", "baker", "waiter", "kid", "lady", "boss", "neighbor", "friend",
            "clerk", "miner", "fisherman", "musician", "painter", "writer", "poet", "actor", "dancer", "grandmother",
            "grandfather", "uncle", "aunt", "mother", "father", "brother", "sister", "goat", "sheep", "rabbit"]
BEING_ADJECTIVES = ["black", "brown", "white", "grey", "old", "young", "tall", "little", "fat", "thin", "happy",
                    "angry", "hungry", "lazy", "quiet", "loud", "rich", "poor", "strong", "weak", "brave", "clever",
                    "sleepy", "tired", "proud", "shy", "wild", "gentle", "cheerful", "grumpy", "noisy", "busy",
                    "lonely", "friendly", "nervous", "calm", "famous", "strange", "pale", "kind", "sad", "wise"]
THING_ADJECTIVES = ["blue", "red", "green", "white", "yellow", "brown", "pink", "purple", "orange", "golden",
                    "silver", "dark", "big", "small", "old", "huge", "tiny", "fresh", "cold", "hot", "warm", "sweet",
                    "bitter", "dirty", "clean", "heavy", "new", "cheap", "ugly", "pretty", "black", "empty", "broken",
                    "shiny", "wooden", "round", "soft", "strange"]
ADJECTIVES = sorted(set(BEING_ADJECTIVES) | set(THING_ADJECTIVES))
ADVERBS = ["quickly", "slowly", "quietly", "happily", "suddenly", "carefully", "finally", "gently", "eagerly",
           "proudly", "nervously", "calmly", "angrily", "sadly", "loudly", "politely"]
MOVES = ["slept", "sat", "waited", "ran", "walked", "swam", "stood", "lay", "danced", "jumped", "rested", "stayed",
         "hid", "fell", "sang", "wandered", "knelt", "lingered", "relaxed", "crawled"]
PLACES = ["bed", "chair", "table", "river", "lake", "garden", "park", "road", "hill", "roof", "sofa", "floor",
          "beach", "field", "forest", "room", "kitchen", "street", "yard", "porch", "stage", "couch", "bench",
          "grass", "sand", "pool", "shore", "hall", "station", "tent", "mountain", "meadow", "pond", "cave"]
PREPOSITIONS = ["on", "in", "under", "near", "behind", "beside", "by", "at", "across", "into", "over", "through"]
DETERMINERS = ["the", "a", "this", "that", "his", "her"]

# The templates (engine/plain_trees.py, which also reads their rows as trees): each sentence's slots, the query slot
# and the relevance written for each other slot, following one grammar: a noun's verb first, then its own
# adjective, then the other noun; another noun's adjective and determiners 0.


def held_out_words(rng: np.random.Generator) -> set[str]:
    """About a quarter of every pool, the article's words always among them."""
    pools = [SUBJECTS, ADJECTIVES, ADVERBS, MOVES, PLACES] + [p for group in ACTIONS.values() for p in group]
    held = set(ALWAYS_HELD_OUT)
    for pool in pools:
        free = sorted(set(pool) - held)
        held |= {free[i] for i in rng.permutation(len(free))[: max(1, len(pool) // 4 - len(held & set(pool)))]}
    return held


def pick(rng: np.random.Generator, pool: list[str], allowed, used: set[str]) -> str:
    """A word of the pool from the split's words, not yet in the sentence."""
    options = [w for w in pool if allowed(w) and w not in used]
    return options[rng.integers(len(options))]


def sentence(rng: np.random.Generator, template: str, allowed) -> dict[str, str]:
    """Slot -> word for one sentence (D repeats: each D slot gets its own draw, kept as 'D', 'D2')."""
    verbs, objects = list(ACTIONS.values())[rng.integers(len(ACTIONS))]
    pools = {"S": SUBJECTS, "aS": BEING_ADJECTIVES, "V": verbs, "O": objects, "aO": THING_ADJECTIVES, "M": ADVERBS,
             "I": MOVES, "P": PREPOSITIONS, "L": PLACES, "aL": THING_ADJECTIVES}
    words, used = [], set()
    for slot in template.split():
        if slot == "D":
            words.append((slot, DETERMINERS[rng.integers(len(DETERMINERS))] if words else "the"))
            continue
        word = pick(rng, pools[slot], (lambda w: True) if slot == "P" else allowed, used)
        used.add(word)
        words.append((slot, word))
    return words


def examples(rng: np.random.Generator, split: str, count: int, allowed, seen: set[str]) -> list[dict]:
    """`count` sentences of one split not in `seen`, templates taken in turn."""
    rows = []
    while len(rows) < count:
        template, query, relevance = TEMPLATES[len(rows) % len(TEMPLATES)]
        words = sentence(rng, template, allowed)
        text = " ".join(w for _, w in words)
        if text.lower() in seen:
            continue
        seen.add(text.lower())
        q = next(w for slot, w in words if slot == query)
        targets = {w: relevance[slot] for slot, w in words if slot != query}
        rows.append({"sentence": text[0].upper() + text[1:], "query": q,
                     "targets": "; ".join(f"{w}={v:g}" for w, v in targets.items()), "split": split})
    return rows


def article_example() -> dict:
    """The article's own sentence, held out."""
    return {"sentence": "The black cat drank the milk", "query": "milk",
            "targets": "drank=1; cat=0.5; black=0; the=0", "split": "test"}


def main(out: Path = OUT):
    rng = np.random.default_rng(SEED)
    held = held_out_words(rng)
    content = {w for p in [SUBJECTS, ADJECTIVES, ADVERBS, MOVES, PLACES] + [p for g in ACTIONS.values() for p in g]
               for w in p}
    seen = {article_example()["sentence"].lower()}
    rows = examples(rng, "train", TRAIN, lambda w: w not in held, seen)
    rows += [article_example()] + examples(rng, "test", HELD_OUT - 1, lambda w: w in held or w not in content, seen)
    with out.open("w", newline="", encoding="utf-8") as f:
        f.write("# Built-in relevance corpus of the dashboard; written by data/make_relevance.py. Licence: CC0 1.0.\n")
        writer = csv.DictWriter(f, fieldnames=["sentence", "query", "targets", "split"], lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


if __name__ == "__main__":
    main()
