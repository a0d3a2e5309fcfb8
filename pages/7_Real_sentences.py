import real.views
from lesson import downloads, frame

ctx = frame.current()
shown = frame.part(real.views.sentence_view, "real", "real_find", "real_query", "real_key", "scaled", "softmax")
real.views.relations_view(ctx)
downloads.menu(shown)
