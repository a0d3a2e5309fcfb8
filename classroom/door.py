"""Who may join, on the teacher's panel: the class's cap, said to the teacher when it is reached (a student is only
told to ask their teacher), closing joining, and removing students (admission.py). Built only while open, unless the
cap is reached or joining is closed: its list of students is read from the database each time it is drawn."""
import datetime

import streamlit as st

from classroom import admission, classes, store
from engine.errors import ClassError
from kit.text import error_text, kept, t

LOCK, CAP, PICKED, GONE = "_class_locked", "_class_cap", "_class_remove", "_class_removed"
FAILED = object()  # what done returns when the call did not happen


def controls(me: dict, room: classes.Room) -> None:
    """The door's expander: open by itself when the cap is reached or joining is closed."""
    full = room.joined >= room.cap
    if full:
        st.warning(t("class_cap_reached", cap=room.cap))
    if room.locked:
        st.info(t("class_locked_teacher"))
    with st.expander(t("class_door"), expanded=full or room.locked, key="_class_door", on_change="rerun") as shown:
        if not shown.open:
            return
        st.toggle(t("class_lock"), value=room.locked, key=LOCK, help=t("class_lock_help"), on_change=kept(act),
                  args=(admission.set_locked, me, LOCK))
        st.number_input(t("class_cap"), min_value=1, max_value=admission.MAX_CAP, value=room.cap, step=10, key=CAP,
                        help=t("class_cap_help"), on_change=kept(act), args=(admission.set_cap, me, CAP))
        removal(me)


def removal(me: dict) -> None:
    """The students the teacher can remove, picked by number, nickname and time of joining."""
    if GONE in st.session_state:
        st.success(t("class_removed", n=st.session_state.pop(GONE)))
    students = done(admission.roster, me)
    if students is FAILED or not students:
        return
    label = {s.number: t("class_student_line", n=s.number, nickname=s.nickname or "—", at=clock(s.joined))
             for s in students}
    st.multiselect(t("class_remove_pick"), list(label), format_func=label.get, key=PICKED,
                   placeholder=t("class_remove_placeholder"))
    st.button(t("class_remove"), icon=":material/person_remove:", disabled=not st.session_state.get(PICKED),
              on_click=kept(remove), args=(me,))


def clock(at: float) -> str:
    """When a student joined, as the server's clock reads it (hours and minutes)."""
    return datetime.datetime.fromtimestamp(at).strftime("%H:%M")


def act(fn, me: dict, key: str) -> None:
    """The teacher's change of the widget `key` made in the database (fn), seen by the next look on this process."""
    if done(fn, me, st.session_state[key]) is not FAILED:
        store.forget(me["code"])


def remove(me: dict) -> None:
    """Remove the picked students; the panel then says how many went."""
    gone = done(admission.remove, me, list(st.session_state.get(PICKED, [])))
    if gone is not FAILED:
        st.session_state[PICKED], st.session_state[GONE] = [], gone
        store.forget(me["code"])


def done(fn, me: dict, *args):
    """fn's result for the teacher's class, or FAILED after saying in a sentence why there is none."""
    try:
        return store.call(fn, me["code"], me["key"], *args)
    except ClassError as e:
        st.warning(error_text(e))
    except store.Unavailable:
        st.error(t("class_db_down"))
    return FAILED
