"""The entry: every run starts here (st.App in dashboard.py names this script; it sits in lesson/, not beside pages/,
so that Streamlit never runs a page script without it). frame.navigation reads the visitor's Settings, sets the run's
language from them (every text from here on reads it) and finds the page asked for in kit/pages.py's PAGES; the page
is opened (a step of the story with its sidebar, vectors, layer weights and the sentence through the layers:
frame.context; the class page with the menu alone: frame.lobby) and run; it reads what was opened with
frame.current()."""
from lesson import frame

settings, page, script = frame.navigation()
frame.RUN.set(frame.context(page, settings) if page.step else frame.lobby(page, settings))
script.run()
