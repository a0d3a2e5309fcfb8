"""The vectors' slice of Settings: which vectors the sentences are read with."""
from dataclasses import dataclass

from kit.state import setting

SOURCES = {"glove": "source_glove", "glove50k": "source_glove50k", "upload": "source_upload",  # each one's name
           "glove-wiki-gigaword-100": "source_glove-wiki-gigaword-100",
           "glove-wiki-gigaword-300": "source_glove-wiki-gigaword-300"}
# the sources (by the start of their names) that draw something under the choice in the sidebar, an uploader or why a
# download cannot be used: only for them does the sidebar keep a place there
DRAWN = ("upload", "glove-wiki")
SHORT = {"glove": "short_glove", "glove50k": "short_glove50k", "upload": "short_upload",  # as sentences quote them
         "glove-wiki-gigaword-100": "short_glove-wiki-gigaword-100",
         "glove-wiki-gigaword-300": "short_glove-wiki-gigaword-300"}


@dataclass(frozen=True)
class Vectors:
    """The vectors in use: the built-in GloVe (all of it, or its most frequent words), a download, or an upload."""

    source: str = setting("glove", spec=tuple(SOURCES))
