import learning.corpus_run
import learning.views
from lesson import downloads, frame

ctx = frame.current()
learning.views.section(ctx, frame.part)
learning.corpus_run.section(ctx)
downloads.menu(ctx)
