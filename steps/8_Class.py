import streamlit as st

from ui import classroom, page
from ui.text import t

ctx = page.current()
me = classroom.role()
if "key" in me:
    classroom.teacher_panel()
elif "token" in me:
    classroom.student_panel()
else:
    st.markdown(t("class_how"))
    classroom.join_form(ctx.s.room)
classroom.leave_button()
classroom.keeper()
