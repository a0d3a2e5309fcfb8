from ui import corpus_run, learning, page, reproduce

ctx = page.current()
learning.section(ctx)
corpus_run.section(ctx)
reproduce.downloads(ctx, "learn")
