"""How the floor apps open, as the dashboard's entry (lesson/app.py) does (frame.navigation), then the frame of a story
page (frame.context)."""
from kit import pages
from lesson import frame


def story_page(name: str = "learn") -> frame.Context:
    """The frame of story page `name`, opened as the entry opens it, and set as this run's Context."""
    settings, _, _ = frame.navigation()  # the menu's links name the pages; the floor app draws the page itself
    ctx = frame.context(pages.page(name), settings)
    frame.RUN.set(ctx)
    return ctx
