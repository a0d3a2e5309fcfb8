import streamlit as st

from classroom import panels, student
from kit.text import t
from lesson import frame

ctx = frame.current()
me = panels.role()
if "key" in me:
    panels.teacher_panel(ctx.pages)
elif "token" in me:
    student.panel(ctx.pages)
else:
    st.markdown(t("class_how"))
    student.join_form(ctx.s.room)
panels.leave_button()
panels.cookie_pixel()
