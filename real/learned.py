"""Page 7's table columns for page 6's four learned heads (heldout/heads.py): names, labels, caption, in words."""
from engine import specialists
from heldout.heads import SHORT, Measured
from heldout.sentences import Scored
from kit.text import t, then
from real.tables import Learned


def columns(m: Measured | None) -> Learned | None:
    """What relations_table needs of the heads: their names, their names shown, their shares per relation."""
    return None if m is None else (m.names, [t(SHORT[n]) for n in m.names], m.found.relations)


def column_config(m: Measured | None, share: dict) -> dict:
    """The table's column labels for the heads' columns."""
    if m is None:
        return {}
    heads = {f"heads_{n}": {**share, "label": t("real_rel_learned_share", head=t(SHORT[n]))} for n in m.names}
    return heads | {"heads_best": {**share, "label": t("real_rel_learned_best")},
                    "heads_best_head": t("real_rel_learned_best_head")}


def caption(m: Measured) -> str:
    """What the heads' columns are."""
    return t("real_rel_learned_caption", n=len(m.names), d_k=specialists.load().w_q.shape[2])


def summary(m: Measured | None, scored: Scored, rows: dict) -> str:
    """What the heads' columns show in words: some head right, the best of them against these weights and the offset."""
    # relation by relation; `rows` holds relations_table's columns
    if m is None:
        return t("real_rel_learned_none")
    pairs = list(zip(rows["relation"], rows["heads_best"], rows["heads_best_head"], rows["head"],
                     rows["offset_accuracy"], strict=True))
    text = t("real_rel_learned_said", n=len(m.names), oracle=m.found.oracle, acc=scored.accuracy)
    ahead = [p for p in pairs if p[1] > p[3]]
    if ahead:
        r, best, head, ours, _ = max(ahead, key=lambda p: p[1] - p[3])
        text += then() + t("real_rel_learned_beats", beats=len(ahead), total=len(pairs), rel=r, best=best, head=head,
                           ours=ours, offset=sum(p[1] > p[4] for p in pairs))
    return text
