"""The least a story page can be, for bench.browser: the dashboard's own frame around one heatmap of the rows."""
from bench.floor.opening import story_page
from kit import tables, views
from kit.charts import Titles
from kit.text import t

ctx = story_page()
views.matrix(ctx.enc.x, ctx.enc.labels, tables.dims(ctx.kv.vector_size), Titles(t("x_m"), t("dim")), name="x")
