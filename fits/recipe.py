"""One fit of W_Q and W_K on a corpus, as one FitRecipe wherever a fit is asked for, queued, shipped, described or
reproduced: what it learns from, the width d_k (the one asked for, at most the vectors' dimensions: width() decides it,
once), the position weight and the training's steps, rate and seed. asked() is the recipe a learned preset's settings
ask for, job() that recipe within what one fit may take unless the project ships it."""
import functools
import weakref
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import streamlit as st
from gensim.models import KeyedVectors

from engine import corpus, treebank
from engine.fit import Fit, load_fit
from engine.tokens import tokenize
from fits import cache, queue
from fits.settings import LEARNED, Layers
from vectors.chosen import BUILT_IN, Source

DEFAULTS = Layers()  # the layers a link without settings shows
EVERY = 40  # steps between a treebank fit's measures of its held-out accuracy (and at its end)


@dataclass(frozen=True)
class FitRecipe:
    """How W_Q and W_K are fitted: on the treebank's sentences or on template-format examples."""

    data: str  # "treebank" or "templates"
    d_k: int  # the layers' width: width(), never more than the vectors' dimensions
    position: float  # the weight of the positional encoding added to the rows
    steps: int
    lr: float
    seed: int
    sentences: int | None = None  # only the treebank's first this many training sentences (page 5's run); None: all

    def load(self) -> tuple[int, int, int]:
        """(words one step reads, word rows held, most words scored at once)."""
        size = sizes(self.data)
        if self.data == "treebank":
            train = size["live_words"] if self.sentences else size["words"]
            step = queue.reads(min(train, treebank.LIVE.batch_words), size["held_out"], EVERY)
            return step, train + size["held_out"], size["held_out"]
        held = size["words"] + size["held_out"]
        return queue.reads(size["words"], size["held_out"]), held, held

    def fit(self, kv: KeyedVectors, found: list, report=None, every: int = EVERY) -> Fit:
        """The fit on the treebank's sentences or the examples `found`, reporting each step to report()."""
        # report(step, loss, training accuracy, held-out accuracy every `every` steps on the treebank): False stops it
        if self.data == "treebank":
            recipe = treebank.Recipe(self.d_k, self.position, self.steps, self.lr, self.seed, self.sentences)
            return treebank.fit(kv, found, recipe, every=every, callback=report)
        return corpus.fit(kv, found, d_k=self.d_k, position=self.position, steps=self.steps, lr=self.lr,
                          seed=self.seed, callback=report)

    def job(self, kv: KeyedVectors, key: tuple, keep: Callable[[Fit], None]) -> queue.Job:
        """The queue's job for this fit on `kv`, named `key`, keep(fit) told of a fit run to its end."""
        # who asks for `key` again joins it; queue.TooLarge when one of its steps would take too long
        d = kv.vector_size
        step, held, at_once = self.load()
        queue.check_step(step, d, self.d_k)
        found = examples(self.data)
        vectors = weakref.ref(kv)  # an upload released for others goes at once, not kept until its queued fit's turn
        return queue.Job(lambda report: self.fit(vectors(), found, report), self.steps,
                         queue.fit_bytes(d, self.d_k, held, at_once), key, keep, inputs=lambda: vectors() is not None)


@dataclass(frozen=True)
class Plan:
    """The fit behind a learned preset: what names it, its recipe, where it is kept and the fit where there is one."""

    key: tuple  # its vectors and recipe; an upload by the vectors themselves
    recipe: FitRecipe
    store: dict  # where it is kept (fits/cache.py)
    fit: Fit | None  # the fit where one is kept or shipped


def plans(s: Layers, source: Source, kv: KeyedVectors) -> dict[str, Plan]:
    """The plan of each learned preset's fit W_Q and W_K use: kept, shipped, or to ask of the queue (fit None)."""
    out = {}
    for which in {s.q_preset, s.k_preset} & set(LEARNED):
        wanted = job(s, which, source)
        path = shipped(source, wanted)
        named = key(source, kv, wanted)
        mine = cache.store(named, kv)
        out[which] = Plan(named, wanted, mine, mine.get(named) or (shipped_fit(path) if path else None))
    return out


def own_run(s: Layers, source: Source) -> bool:
    """Whether the weights switch offers the learner's own run: once it is in use or its recipe is not the default."""
    return "run" in (s.q_preset, s.k_preset) or asked(s, "run", source) != asked(DEFAULTS, "run", source)


def key(source: Source, kv: KeyedVectors, wanted: FitRecipe) -> tuple:
    """What names a fit: its vectors and recipe; an upload by the vectors themselves."""
    # an upload's fits are its visitor's own, so it is named by the vectors' id, not by its source
    return ("upload", id(kv), wanted) if source.name == "upload" else (source, wanted)


def width(d_k: int, dims: int) -> int:
    """The d_k the layers have: the one asked for, at most the vectors' dimensions."""
    return min(d_k, dims)


def asked(s: Layers, which: str, source: Source) -> FitRecipe:
    """The recipe the settings ask of the fit behind the learned preset `which`, on the vectors `source`."""
    # the default head ships fitted with the full recipe; other vectors, d_k or position weight fit a shorter one,
    # once per server
    d_k = width(s.d_k, source.dims)
    if which == "run":
        n = treebank.LIVE.sentences if s.run_on == "treebank" else None
        return FitRecipe(s.run_on, d_k, s.position, s.run_steps, s.run_lr, s.run_seed, n)
    if which == "templates":
        return FitRecipe("templates", d_k, s.position, corpus.DEFAULT_STEPS, corpus.DEFAULT_LR, 0)
    full = source == BUILT_IN and (d_k, s.position) == (DEFAULTS.d_k, DEFAULTS.position)
    r = treebank.Recipe() if full else treebank.QUICK
    return FitRecipe("treebank", d_k, s.position, r.steps, r.lr, r.seed)


def job(s: Layers, which: str, source: Source) -> FitRecipe:
    """asked()'s recipe, its steps cut to what one fit may take (queue.max_steps) unless the project ships it."""
    recipe = asked(s, which, source)
    if shipped(source, recipe):
        return recipe
    return replace(recipe, steps=min(recipe.steps, queue.max_steps(recipe.load()[0], source.dims, recipe.d_k)))


def shipped(source: Source, recipe: FitRecipe) -> Path | None:
    """The file holding this fit, if the project ships it."""
    if source != BUILT_IN:
        return None
    for which, path in (("trained", treebank.SHIPPED), ("templates", corpus.SHIPPED)):
        if recipe == asked(DEFAULTS, which, source):
            return path
    return None


@st.cache_resource(show_spinner=False)
def shipped_fit(path) -> Fit:
    """A fit the project ships, read once per server and shared by every session, so no visitor waits for it."""
    # tests check it is what the fit gives
    return load_fit(path)


def examples(data: str) -> list:
    """What a fit on `data` learns from: the treebank's sentences or the template examples, all splits."""
    return treebank.built_in() if data == "treebank" else corpus.built_in()


@functools.cache
def sizes(data: str) -> dict[str, int]:
    """Sentences per split, and words of the training and held-out sentences as a fit holds them."""
    # `live_words`: the treebank's first LIVE.sentences; `held_out`: the treebank's padded to the longest sentence
    if data == "treebank":
        found = treebank.built_in()
        train = treebank.split(found, "train")
        test = treebank.split(found, "test")
        return {"train": len(train), "test": len(test), "words": words(train),
                "live_words": words(train[:treebank.LIVE.sentences]),
                "held_out": len(test) * max(len(s.tokens) for s in test)}
    found = corpus.built_in()
    return {name: sum(e.split == name for e in found) for name in corpus.SPLITS} | {
        "words": corpus.words(found), "held_out": sum(len(tokenize(e.sentence)) for e in found if e.split == "test")}


def words(sentences) -> int:
    """Tokens in these treebank sentences."""
    return sum(len(s.tokens) for s in sentences)
