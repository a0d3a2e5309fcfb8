"""Who may join, on the teacher's panel: the class's cap, said to the teacher when it is reached with a button that
takes more students (a student is only told to ask their teacher), closing joining, the joins of each recent minute
with one button that removes everyone who joined in the minute picked (a class filled by a script), and removing
students one by one (admission.py). Built only while open, unless the cap is reached or joining is closed: its counts
and its list of students are read from the database each time it is drawn."""
import datetime

import streamlit as st

from classroom import admission, classes, store
from engine.errors import ClassError
from kit.text import error_text, t, with_language

LOCK, CAP, PICKED, GONE = "_class_locked", "_class_cap", "_class_remove", "_class_removed"
MINUTE = "_class_minute"  # the minute of joins the teacher picked: its start
FAILED = object()  # what done returns when the call did not happen


def controls(me: dict, room: classes.Room) -> None:
    """The door's expander: open by itself when the cap is reached or joining is closed."""
    full = room.joined >= room.cap
    if full:
        cap_reached(me, room)
    if room.locked:
        st.info(t("class_locked_teacher"))
    with st.expander(t("class_door"), expanded=full or room.locked, key="_class_door", on_change="rerun") as shown:
        if not shown.open:
            return
        st.toggle(t("class_lock"), value=room.locked, key=LOCK, help=t("class_lock_help"), on_change=with_language(act),
                  args=(admission.set_locked, me, LOCK))
        st.session_state[CAP] = room.cap  # the database's, also after a click on the full class's button
        st.number_input(t("class_cap"), min_value=1, max_value=admission.MAX_CAP, step=10, key=CAP,
                        help=t("class_cap_help"), on_change=with_language(act), args=(admission.set_cap, me, CAP))
        if GONE in st.session_state:
            st.success(t("class_removed", n=st.session_state.pop(GONE)))
        by_minute(me)
        removal(me)


def cap_reached(me: dict, room: classes.Room) -> None:
    """What the teacher of a full class is told, and the one click that takes CAP_STEP more students."""
    st.warning(t("class_cap_reached", cap=room.cap))
    more = min(admission.CAP_STEP, admission.MAX_CAP - room.cap)
    if more > 0:
        st.button(t("class_cap_raise", n=more), icon=":material/group_add:", on_click=with_language(raise_cap),
                  args=(me,))


def by_minute(me: dict) -> None:
    """How many still in joined in each recent minute, and a button that removes all who joined in the one picked."""
    counts = done(admission.joins_by_minute, me)
    if counts is FAILED:
        return
    joined = {start: n for start, n in counts if n}
    if not joined:
        st.caption(t("class_joins_none", minutes=admission.JOIN_MINUTES))
        return
    st.radio(t("class_joins_minute"), list(joined), format_func=clock, key=MINUTE, index=None, horizontal=True,
             captions=[t("class_joins_count", n=n) for n in joined.values()], help=t("class_joins_minute_help"))
    st.button(t("class_remove_minute"), icon=":material/group_remove:", key="_class_remove_minute",
              disabled=st.session_state.get(MINUTE) not in joined, on_click=with_language(remove_minute), args=(me,))


def removal(me: dict) -> None:
    """The students the teacher can remove, picked by number, nickname and time of joining."""
    students = done(admission.roster, me)
    if students is FAILED or not students:
        return
    label = {s.number: t("class_student_line", n=s.number, nickname=s.nickname or "—", at=clock(s.joined))
             for s in students}
    st.multiselect(t("class_remove_pick"), list(label), format_func=label.__getitem__, key=PICKED,
                   placeholder=t("class_remove_placeholder"))
    st.button(t("class_remove"), icon=":material/person_remove:", disabled=not st.session_state.get(PICKED),
              on_click=with_language(remove), args=(me,))


def clock(at: float) -> str:
    """When a student joined, as the server's clock reads it (hours and minutes)."""
    return datetime.datetime.fromtimestamp(at).strftime("%H:%M")


def act(fn, me: dict, key: str) -> None:
    """The teacher's change of the widget `key` made in the database (fn), seen by the next look on this process."""
    if done(fn, me, st.session_state[key]) is not FAILED:
        store.forget(me["code"])


def raise_cap(me: dict) -> None:
    """The full class takes CAP_STEP more students."""
    if done(admission.raise_cap, me) is not FAILED:
        store.forget(me["code"])


def remove(me: dict) -> None:
    """Remove the picked students; the panel then says how many went."""
    removed(me, done(admission.remove, me, list(st.session_state.get(PICKED, []))))


def remove_minute(me: dict) -> None:
    """Remove everyone who joined in the picked minute; the panel then says how many went."""
    start = st.session_state.get(MINUTE)
    if start is not None:
        removed(me, done(admission.remove_joined_between, me, start, start + 60.0))


def removed(me: dict, gone: object) -> None:
    """After a removal (gone: how many, or FAILED): the picks cleared, the count kept for the panel to say."""
    if gone is not FAILED:
        st.session_state[PICKED], st.session_state[MINUTE], st.session_state[GONE] = [], None, gone
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
