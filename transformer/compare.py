"""Page 8's numbers said in sentences: how much attention the real model's heads park on [CLS] and [SEP], on this
sentence and for the word followed; and over every held-out sentence, where its heads beat our one head, where the two
are level and where ours is ahead (data/minilm-heads.csv against the weights in use), and where page 6's four learned
heads now match its best heads and where not."""
import numpy as np
import streamlit as st

from engine import minilm_files, minilm_treebank
from heldout import sentences
from heldout.heads import Measured, measured
from kit import render, tables, views
from kit.charts import Titles, heatmap
from kit.text import plain, t, then
from transformer.heads import head_names, pick_head
from transformer.model import Seen
from transformer.settings import HEADS, LAYERS, NAMES

LEVEL = 0.03  # two shares within this are level; beyond it, one is ahead


def layer_names() -> list[str]:
    """The rows of a map of heads: one per layer."""
    return [t("model_layer", n=i + 1) for i in range(LAYERS)]


def head_map(values: np.ndarray, heading: str, name: str, where):  # [layers, heads]
    """One number per head as a heatmap of layers × heads, titled `heading`; a click on a cell shows that head large."""
    rows = layer_names()
    cols = list(range(1, HEADS + 1))
    key = f"{name}_pick"
    csv = render.Csv(f"dl_{name}", lambda: tables.matrix_wide(values, rows, cols).to_csv())
    render.chart(heatmap, views.matrix_cells(values, rows, cols, None, None),
                 titles=Titles(heading, t("model_head_axis"), t("model_layer_axis"), t("model_parked_value")),
                 cells=views.heatmap_cells(rows, cols, None, None), clickable=True, weights=True, where=where,
                 key=key, on_select=pick_head(key, rows), save=render.Save(name=name, csv=csv))


def extremes(values: np.ndarray, names: np.ndarray) -> dict:  # [layers, heads] ×2
    """The lowest and highest value and the heads that have them."""
    lo = int(values.argmin())
    hi = int(values.argmax())
    return {"lo": values.flat[lo], "lo_head": names.flat[lo], "hi": values.flat[hi], "hi_head": names.flat[hi]}


def parked_view(seen: Seen, labels: list[str], head: tuple[int, int], word: int):
    """Each head's share on [CLS] and [SEP] over the sentence and for the word followed, as maps and in sentences."""
    # said next to the same over the held-out sentences
    st.subheader(t("model_parked_title"))
    names = head_names(seen.shape)
    shipped = minilm_treebank.shipped()
    mean, mine = seen.parked.mean(axis=-1), seen.parked[:, :, word]
    left, right = st.columns(2)
    head_map(mean, t("model_parked_mean_chart"), "model_parked", left)
    head_map(mine, t("model_parked_word_chart", word=labels[word]), "model_parked_word", right)
    said = t("model_parked_said", mean=float(mean.mean()), **extremes(mean, names), sentences=shipped.sentences,
             held=float(shipped.parked.mean()), head=names[head], here=float(mean[head]),
             held_head=float(shipped.parked[head]))
    said += then() + t("model_parked_word_said", word=plain(labels[word]), head=names[head], share=float(mine[head]),
                       **extremes(mine, names), many=int((mine > 0.5).sum()), n=len(NAMES))
    st.markdown(said)
    st.caption(t("model_parked_caption"))


def compare_view(ctx, head: tuple[int, int]):
    """The real model's best heads against ours over the held-out sentences, overall and by relation, and why."""
    # then what the head shown large is best at
    st.subheader(t("model_compare_title"))
    _, scored = sentences.held_out(ctx)
    shipped = minilm_treebank.shipped()
    best, acc = shipped.best("all")
    said = t("model_compare_best", sentences=shipped.sentences, name=minilm_files.NAME, head=best, acc=acc,
             ours=scored.accuracy)
    said += then() + (t("model_compare_single") if scored.accuracy >= acc else
                      t("model_compare_single_behind", gap=(acc - scored.accuracy) * 100))
    rows = [(r, *shipped.best(r), scored.relations[r][1]) for r in sentences.RELATIONS
            if r in shipped.words and r in scored.relations]  # relation, its best head, its share, ours
    beats = sorted((x for x in rows if x[2] - x[3] >= LEVEL), key=lambda x: x[3] - x[2])
    if beats:
        said += then() + t("model_compare_beats", n=len(beats), total=len(rows), items=items(beats[:3]))
        layers = sorted({int(h[1]) for _, h, _, _ in beats})
        said += then() + t("model_compare_why", layers=t("list_sep").join(map(str, layers)), source=ctx.source,
                           distinct=len({h for _, h, _, _ in beats}), n=len(beats), heads=len(NAMES))
    level = [x for x in rows if abs(x[2] - x[3]) < LEVEL]
    ahead = sorted((x for x in rows if x[3] - x[2] >= LEVEL), key=lambda x: x[2] - x[3])
    if level:
        said += then() + t("model_compare_level", items=items(level))
    said += then() + (t("model_compare_ahead", items=items(ahead)) if ahead else t("model_compare_never_ahead"))
    st.markdown(said)
    st.markdown(learned_said(ctx, measured(ctx), shipped))
    st.markdown(specialty(shipped, head))
    st.caption(t("model_compare_caption"))


def learned_said(ctx, heads: Measured | None, shipped: minilm_treebank.Measured) -> str:
    """Page 6's learned heads against the real model's best head per relation: where they are ahead, level or behind."""
    # per relation the best learned head, as for the real model; level: within LEVEL; the largest gap first; and why
    if heads is None:
        return t("model_compare_learned_none")
    best = heads.found.best
    rows = [(r, *shipped.best(r), best[r][1]) for r in sentences.RELATIONS if r in shipped.words and r in best]
    ahead = sorted((x for x in rows if x[3] - x[2] >= LEVEL), key=lambda x: x[2] - x[3])
    level = [x for x in rows if abs(x[3] - x[2]) < LEVEL]
    behind = sorted((x for x in rows if x[2] - x[3] >= LEVEL), key=lambda x: x[3] - x[2])
    said = t("model_compare_learned", n=len(heads.names), oracle=heads.found.oracle, total=len(rows))
    for key, group in (("model_compare_learned_ahead", ahead), ("model_compare_learned_level", level),
                       ("model_compare_learned_behind", behind)):
        if group:
            said += then() + t(key, n=len(group), items=items(group))
    return said + then() + t("model_compare_learned_why" if behind else "model_compare_learned_all", source=ctx.source)


def items(rows: list[tuple[str, str, float, float]]) -> str:
    """Relations with the real model's best head and share there, against ours: 'obj (78% with L3-H1 against 28%)'."""
    return t("list_sep").join(t("model_compare_item", rel=r, real=a, head=h, ours=o) for r, h, a, o in rows)


def specialty(shipped: minilm_treebank.Measured, head: tuple[int, int]) -> str:
    """What the head shown large is best at over the held-out sentences."""
    # the relations where no head beats it, else the one where it comes nearest the best
    name = NAMES[head[0] * HEADS + head[1]]
    shown = [r for r in sentences.RELATIONS if r in shipped.words]
    top = [r for r in shown if shipped.best(r)[0] == name]
    if top:
        return t("model_specialty_best", head=name, rels=t("list_sep").join(top), rel=top[0],
                 share=float(shipped.accuracy(top[0])[head]), all=float(shipped.accuracy("all")[head]))
    near = max(shown, key=lambda r: shipped.accuracy(r)[head] - shipped.best(r)[1])
    best, share = shipped.best(near)
    return t("model_specialty_near", head=name, rel=near, share=float(shipped.accuracy(near)[head]), best=best,
             best_share=share, all=float(shipped.accuracy("all")[head]))
