"""Take the numbers home: the view's recipe, and the script and notebook that rebuild its numbers."""
from dataclasses import replace

import streamlit as st

import kinds.views
from engine import reproduce
from engine.tokens import knows_cjk
from fits import recipe
from fits.settings import LEARNED
from kit.pages import Page
from kit.text import t
from lesson.frame import Context
from lesson.settings import Settings

# what the notebook says before each of its code cells (engine.reproduce.KINDS), by the cell's kind
NOTES = {"opening": "notebook_opening", "settings": "notebook_settings", "vectors": "notebook_vectors",
         "rows": "notebook_rows", "layers": "notebook_layers", "learned": "notebook_learned",
         "attention": "notebook_attention", "heads": "notebook_heads", "printout": "notebook_printout"}


def view_recipe(ctx: Context) -> dict:
    """Everything that decides the view's numbers, as plain values (see engine.reproduce for the keys)."""
    s = ctx.s
    queries, keys, causal, heads = sentences(ctx)
    return {"source": ctx.vectors.name, "chinese": knows_cjk(ctx.kv), "queries": queries, "keys": keys,
            "position": s.position, "d_k": ctx.d_k, "scaled": s.scaled, "softmax": s.softmax,
            "causal": causal, "own": s.own or (ctx.enc is None and s.tab == "cross"),  # cross: no word of its own
            "heads": heads, "layers": {name: layer(ctx, name) for name in ("q", "k", "v")}, "lang": s.lang}


def sentences(ctx: Context) -> tuple[str, str, bool, int]:
    """The query and key sentences, the causal mask and the heads: pages 1–5's sentence, or page 6's open tab."""
    s = ctx.s
    if ctx.enc is not None:
        return s.sentence, s.sentence, False, 1
    return {"enc": (s.source_sentence, s.source_sentence, False, s.heads),
            "dec": (s.target_sentence, s.target_sentence, s.causal, s.heads),
            "cross": (s.target_sentence, s.source_sentence, False, s.heads)}[s.tab]


def layer(ctx: Context, name: str) -> dict:
    """A layer's preset, seed and scale; a learned layer also its weights in full and the corpus fit behind them."""
    s = ctx.s
    preset = {"q": ctx.provenance.q, "k": ctx.provenance.k}.get(name, s.v_preset)  # after any fallback to random
    out = {"preset": preset, "seed": getattr(s, f"{name}_seed"), "scale": getattr(s, f"{name}_scale")}
    if preset in LEARNED:
        r = recipe.job(s, preset, ctx.vectors)
        out |= {"weights": ctx.w[f"w_{name}"].tolist(),
                "fit": {"data": r.data, "steps": r.steps, "lr": r.lr, "seed": r.seed, "d_k": r.d_k,
                        "position": r.position, "sentences": r.sentences, "train": ctx.provenance.train}}
    return out


def title(s: Settings, page: Page) -> str:
    """The page's title (its entry's key), and the open tab of a page of tabs (page 6)."""
    said = t(page.title)
    return f"{said} · {t(kinds.views.LABELS[s.tab])}" if page.tabs else said


def menu(ctx: Context):
    """The view of the page ctx opens as a Python script and as a Jupyter notebook, in a menu of downloads."""
    # the menu is built only while open (closed, it is one element of every rerun); each file is named after the page's
    # entry and written only when clicked
    ss = st.session_state
    menu = st.popover(t("reproduce_menu"), icon=":material/code:", help=t("reproduce_menu_help"),
                      key="_reproducing", on_change="rerun")
    if not menu.open:
        return
    # page 6 may switch its open tab or fall back to one head during this run, after the context was made
    s = replace(ctx.s, tab=ss.get("tab", ctx.s.tab), heads=ss.get("heads", ctx.s.heads))
    name = ctx.page.name
    r = view_recipe(replace(ctx, s=s)) | {"title": title(s, ctx.page)}
    menu.caption(t("reproduce_caption"))
    menu.download_button(t("reproduce_script"), lambda: reproduce.script(r), file_name=f"attention-{name}.py",
                         mime="text/x-python", key="dl_reproduce_script", on_click="ignore", icon=":material/code:",
                         width="stretch")
    notes = {kind: t(key) for kind, key in NOTES.items()}
    menu.download_button(t("reproduce_notebook"), lambda: reproduce.notebook(r, notes),
                         file_name=f"attention-{name}.ipynb", mime="application/x-ipynb+json",
                         key="dl_reproduce_notebook", on_click="ignore", icon=":material/description:",
                         width="stretch")
