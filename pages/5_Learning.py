from ui import corpus_run, learning, page

ctx = page.context("learn")
learning.section(ctx)
corpus_run.section(ctx)
