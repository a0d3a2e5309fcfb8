"""Class mode, a student's side: the join form, then the question and a live panel with their answer until the reveal,
and the answer, why and the room's chart after it (the teacher's side and what both share: panels.py)."""
import time
from collections.abc import Mapping

import streamlit as st

from classroom import admission, answering, board, classes, store, watch
from classroom.panels import (
    FAILED,
    ROLE,
    attempt,
    base_url,
    live,
    looked,
    offer_cookie,
    question_text,
    reveal_text,
    role,
    room_chart,
)
from classroom.settings import Room
from kit.state import limit
from kit.text import plain, t, with_language

PICK = "_class_pick_"  # + a question's number: the key of a student's choice for it


def join_form(code: str):
    """A student joins with the class's code (from the link, or typed) and, if they like, a nickname."""
    with st.form("class_join"):
        typed = st.text_input(t("class_code"), value=code, max_chars=limit(Room, "room"), placeholder="ABCD 2345")
        nickname = st.text_input(t("class_nickname"), max_chars=classes.MAX_NICKNAME, help=t("class_nickname_help"))
        if not st.form_submit_button(t("class_join"), type="primary"):
            return
    token = attempt(admission.join, typed, nickname, who="join")
    if token is not FAILED:
        joined = classes.normal_code(typed)
        st.session_state[ROLE] = {"code": joined, "token": token}
        offer_cookie("token", joined, token)
        store.forget(joined)  # the teacher's count on this process, at its next look
        st.rerun()


def panel(pages: Mapping):
    """The question, then a live panel: the student's answer until the reveal; then the answer, why, and the room."""
    me = role()
    held_back(me)
    room = attempt(store.shared_room, me["code"])
    if room is FAILED:
        return
    if room.status == "ended":
        st.info(t("class_ended"))
        return
    st.subheader(question_text(room.question))
    board.sentence(room.question)
    live(with_language(live_panel), room.question_no, pages)


def live_panel(question_no: int, pages: Mapping):
    """This student's answer while the class is asking; after the reveal, the answer and why, and the room's chart."""
    me = role()
    now = time.time()
    held_back(me)
    room = looked(me["code"], question_no)
    if room is None:
        return
    watch.watch(base_url(), me["code"], False, watch.stage(room, False, now))
    sent = sent_of(me, room.question_no)
    if sent is FAILED:
        return
    if room.status == "asking":
        if now - room.teacher_seen > watch.GONE_S:
            st.info(t("class_teacher_gone"))
        choose(me, room, sent)
        return
    q = room.question
    said = " > ".join(f"“{w}”" for w in sent or ())
    st.markdown(t("class_yours", answer=plain(said)) if sent else t("class_no_answer"))
    (st.success if sent == q.answer else st.info)(reveal_text(room))
    room_chart(room, True)
    view = f"{base_url()}/{pages[q.view].url_path}?{q.link}"
    st.link_button(t("class_open_view"), view, icon=":material/open_in_new:")


def sent_of(me: dict, question_no: int):
    """What this student sent for the question: read once a question, then kept in their part (ROLE) as it changes."""
    # the read also checks their token
    sent = me.setdefault("sent", {})
    if question_no not in sent:
        got = attempt(classes.mine, me["code"], me["token"])
        if got is FAILED:
            return FAILED
        sent[question_no] = got
    return sent[question_no]


def choose(me: dict, room: classes.Room, sent: tuple[str, ...] | None):
    """The student's answer to the current question, changeable until the reveal and sent by its Send button alone."""
    # A form, as the story pages' guess is checked, so moving between the options sends nothing; an answer sent that the
    # database did not take is sent again by the next run that draws the choices.
    q, key = room.question, f"{PICK}{room.question_no}"
    if key not in st.session_state:  # a reloaded panel shows what was sent, or what is still to be sent
        shown = unsent(me).get(room.question_no) or sent
        st.session_state[key] = (shown[0] if shown else None) if q.ordered == 1 else list(shown or [])
    with st.form(f"_class_form_{room.question_no}", enter_to_submit=False):
        words = board.pick(q, key)
        pressed = st.form_submit_button(t("class_send"), type="primary", icon=":material/send:")
    if pressed and not words:
        st.warning(t("class_pick_first") if q.ordered == 1 else t("class_order_first", m=q.ordered))
    if (pressed or room.question_no in unsent(me)) and words and tuple(words) != sent:
        if attempt(answering.recorded, me["code"], me["token"], room.question_no, words, who="answer",
                   student=me["token"], via=store.write) is FAILED:
            return
        sent = me["sent"][room.question_no] = tuple(words)
        store.counted(me["code"])  # the teacher's count shows it within watch.COUNT_S
    unsent(me).pop(room.question_no, None)
    st.caption(t("class_sent", answer=plain(" > ".join(sent))) if sent else t("class_not_sent"))


def unsent(me: dict) -> dict[int, tuple[str, ...]]:
    """What this student picked that the database has not taken yet (it did not answer, or refused), by question."""
    # Shown and sent again by the panel's next run that draws the choices: a run that could not read the class did not
    # draw them, so Streamlit dropped their value.
    return me.setdefault("unsent", {})


def held_back(me: dict) -> None:
    """Keep what the student picked for each question drawn (sent_of read it) until choose() has sent it."""
    for number in list(me.get("sent", ())):
        if picked := st.session_state.get(f"{PICK}{number}"):
            unsent(me)[number] = (picked,) if isinstance(picked, str) else tuple(picked)
