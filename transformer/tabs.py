"""Page 8's tabs under the grid of heads: the head picked, large, beside ours; which heads find each word's head; what
the heads park on [CLS] and [SEP]; the model against our head over every held-out sentence. The open one is a setting
(so a shared link opens it) and the only one built: each holds charts or a table that an edit would redraw."""
from kit import state
from kit.text import t
from transformer import compare, views
from transformer.model import Seen
from transformer.settings import VIEWS

KEY = "model_view_tab"  # the tabs' widget: it holds the open tab's label
LABELS = {"large": "model_view_large", "finders": "model_view_finders", "parked": "model_view_parked",
          "compare": "model_view_compare"}  # each tab's name (text keys), in the order of VIEWS


def tabs(ctx, seen: Seen, chosen: views.Chosen, head: tuple[int, int]):
    """The tabs, the open one built."""
    tab, name = state.open_tab(ctx.s, "model_view", KEY, {view: t(LABELS[view]) for view in VIEWS})
    if tab is None:
        return
    with tab:
        if name == "large":
            views.large_view(ctx, seen, chosen, head)
        elif name == "finders":
            views.finders_view(seen, chosen, head)
        elif name == "parked":
            compare.parked_view(seen, chosen.enc.labels, head, views.followed(ctx.s, chosen))
        else:
            compare.compare_view(ctx, head)
