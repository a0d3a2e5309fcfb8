from learning import corpus_run, live
from lesson import downloads, frame

ctx = frame.current()
live.section(ctx, frame.part)
corpus_run.section(ctx)
downloads.menu(ctx)
