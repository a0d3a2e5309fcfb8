"""The frame of the lesson: the entry st.App runs (app.py), the page registry (pages.py), the opening every page starts
from (frame.py), the sidebar, the Settings of a view, the downloads, the warm-up."""
