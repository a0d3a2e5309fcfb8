"""The least a page's own control can be, for bench.browser: the dashboard's frame, and in its part (frame.part) the
query word and one heatmap of the rows with that word's row outlined. The word reruns the part alone, and the chart
keeps its spec: only its data changes (the outline), which the browser redraws in place."""
from bench.floor.opening import story_page
from kit import tables, views
from kit.charts import Titles
from kit.text import t
from kit.views import Marks
from lesson import frame


def outlined_row(ctx: frame.Context):
    """The query word, and the rows with its row outlined."""
    rows = ctx.enc.labels
    q = views.pick_word("query", t("query"), rows, "milk" if "milk" in rows else rows[-1])
    views.matrix(ctx.enc.x, rows, tables.dims(ctx.kv.vector_size), Titles(t("x_m"), t("dim")), name="x",
                 marks=Marks(selected=q))


story_page()
frame.part(outlined_row, "query")
