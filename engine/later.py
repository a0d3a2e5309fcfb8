"""scipy.stats, imported only when something uses it. gensim imports it as it loads (a few names: entropy,
spearmanr, halfnorm, and the module), which takes about 0.9 s of CPU, over half of gensim's import, and pulls in
scipy.spatial, for functions the dashboard never calls; the server would answer that much later at its start.
stand_in() puts a stand-in module in its place until then: the first use of any of its names imports the real module
and hands on to it, so a gensim function that needs it works as before, only its first call pays for the import."""
import importlib
import sys
import types

NAME = "scipy.stats"
IMPORTED_BY_GENSIM = ("entropy", "spearmanr", "halfnorm")  # `from scipy.stats import ...` in gensim's modules


def real() -> types.ModuleType:
    """The real scipy.stats, imported now if the stand-in still holds its place."""
    if isinstance(sys.modules.get(NAME), StandIn):
        del sys.modules[NAME]
        module = importlib.import_module(NAME)
        sys.modules["scipy"].__dict__["stats"] = module  # where `from scipy import stats` finds it
        return module
    return sys.modules[NAME]


class Later:
    """One name of scipy.stats (a function or a distribution), looked up in the real module when first used."""

    def __init__(self, name: str):
        self.name = name

    def __call__(self, *args, **kwargs):
        return getattr(real(), self.name)(*args, **kwargs)

    def __getattr__(self, attr: str):
        return getattr(getattr(real(), self.name), attr)


class StandIn(types.ModuleType):
    """scipy.stats until first used: the names gensim takes at import are Later, any other name imports the module."""

    def __getattr__(self, attr: str):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return getattr(real(), attr)


def stand_in() -> None:
    """Put the stand-in in scipy.stats's place, unless the real module is loaded already."""
    if NAME in sys.modules:
        return
    module = StandIn(NAME)
    for name in IMPORTED_BY_GENSIM:
        setattr(module, name, Later(name))
    sys.modules[NAME] = module
