from ui import corpus_run, learning, page, reproduce

ctx = page.context("learn")
learning.section(ctx)
corpus_run.section(ctx)
reproduce.downloads(ctx, "learn")
