from lesson import downloads, frame
from real import relations, views

ctx = frame.current()
shown = frame.part(views.sentence_view, "real", "real_find", "real_query", "real_key", "scaled", "softmax")
relations.relations_view(ctx)
downloads.menu(shown)
