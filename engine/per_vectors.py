"""What is computed once per vector set: a vocabulary never changes, so what is read off it (whether it holds Chinese
words, a speller over its words) is kept beside it, and goes when the vectors go."""
import weakref
from collections.abc import Callable
from typing import Any, TypeVar

from gensim.models import KeyedVectors

T = TypeVar("T")

# KeyedVectors -> {build: its result}; an entry goes when its vectors go
PER_VECTORS: weakref.WeakKeyDictionary[KeyedVectors, dict[Callable[[KeyedVectors], Any], Any]] = (
    weakref.WeakKeyDictionary())


def per_vectors(kv: KeyedVectors, build: Callable[[KeyedVectors], T]) -> T:
    """build(kv), computed once per vector set (a vocabulary never changes); `build` must not keep kv itself."""
    cached = PER_VECTORS.setdefault(kv, {})
    if build not in cached:
        cached[build] = build(kv)
    return cached[build]

