"""Class mode: a teacher asks the room a page's predict-first question, every student answers on their own screen, the
room sees how it voted, and the teacher reveals the answer on every screen at once (peer instruction).

The teacher's key and a student's token live only in their own session (ROLE); the class itself, in the database
(classroom/store.py, classroom/classes.py). Each side's live panel is drawn again when its browser's watch sees the
class move on (classroom/watch.py), from the class's room as this process last read it (store.shared_room). Here the
teacher's panel and what both sides share; a student's side is classroom/student.py."""
import functools
import io
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from urllib.parse import urlencode

import segno
import streamlit as st

from classroom import admission, board, classes, door, seat, store, tables, visitor, watch
from classroom.charts import room_bars
from classroom.questions import Question
from engine.errors import ClassError
from kit import render
from kit.charts import Titles
from kit.state import to_query
from kit.text import error_text, t, then, with_language

WHY = {"angle": "class_why_angle", "length": "class_why_length", "both": "class_why_both"}  # a reason, as revealed

ROLE = "_class"  # this session's part in a class: {"code", "key"} for its teacher, {"code", "token", "sent"} for a
# student, "sent" holding what they answered to each question
RETURNED = "_class_returned"  # the browser's kept part was looked for


def role() -> dict:
    """This session's part in a class ({} for none): on its first look, the one its browser kept, if still known."""
    # kept across a reload, or a replica restarted under it (seat.py); the class database says whether it still holds
    ss = st.session_state
    if ROLE not in ss and RETURNED not in ss:
        ss[RETURNED] = True
        found = returning(dict(st.context.cookies or {}), st.query_params.get("room", ""))
        if found:
            ss[ROLE] = found
    return ss.get(ROLE, {})


def returning(cookies: dict[str, str], room: str) -> dict:
    """The part kept in the browser's cookies that the class database still knows; {} for none."""
    # A student's place first when the address names its class, else a teacher's class first; a stale cookie is passed
    # over in silence.
    seated = seat.code_and_secret(cookies, "token")
    teaching = seat.code_and_secret(cookies, "key")
    order = [("token", seated), ("key", teaching)]
    if seated and seat.code_of(room) != seated[0]:
        order.reverse()
    for secret, kept_here in order:
        if kept_here is None:
            continue
        try:
            store.call(classes.mine if secret == "token" else classes.teaches, *kept_here)
        except (ClassError, store.Unavailable):
            continue
        return {"code": kept_here[0], secret: kept_here[1]}
    return {}


def offer_cookie(secret: str, code: str = "", value: str = "") -> None:
    """Have the browser keep this part (seat.py), or forget it when no value is given."""
    # the class page shows the pixel that sets the cookie (cookie_pixel)
    visitor.offered(secret, code, value)


def cookie_pixel() -> None:
    """The hidden pixel that sets the cookie offer_cookie asked for, or gives the browser its seat (visitor.py)."""
    visitor.pixel(base_url())


FAILED = object()  # what attempt returns when the call did not happen


def attempt(fn, *args, who: str = "", student: str = "", via=store.call, **kwargs):
    """via(fn, ...) once the session's seat and limits allow action `who`; else FAILED, after saying what went wrong."""
    # via: store.call, or store.write for an answer; who: "join", "start" or "answer" (visitor.admitted), "" for none.
    # What went wrong is said in a sentence: a person's mistake, too many tries, or a database that did not answer.
    try:
        if who:
            kwargs |= visitor.admitted(who, student)
        return via(fn, *args, **kwargs)
    except ClassError as e:
        st.warning(error_text(e))
    except store.Unavailable:
        st.error(t("class_db_down"))
    return FAILED


def asker(s, view: str, pages: Mapping, words: Sequence[str] = (), at: int | None = None):
    """What views.guess_first calls to offer its question to a class: ask_button for this view's Settings."""
    # `pages`: the dashboard's, by name (the page's context holds them), the class page among them; `words`: the
    # sentence the class sees with the question, the query being word `at` of it (from 0)
    return functools.partial(ask_button, s, view, pages, words=tuple(words), at=at)


def ask_button(s, view: str, pages: Mapping, query: str, keys: list[str], ordered: int, answer: list[str],
               reason: str, *, words: tuple[str, ...] = (), at: int | None = None):
    """Below a predict-first question: the button that asks it of the class (a new one, or the one taught)."""
    # then the teacher goes to the class page
    teaching = "key" in role()
    cookie_pixel()  # a new class needs the browser's seat
    if not st.button(t("class_ask_next" if teaching else "class_ask"), icon=":material/groups:",
                     help=t("class_ask_help")):
        return
    link = urlencode(to_query(replace(s, room="")) | {"predict": "1"})
    try:
        question = Question(view, link, query, tuple(keys), ordered, tuple(answer), reason, words,
                            0 if at is None else at + 1)
    except ClassError as e:
        st.warning(error_text(e))
        return
    if teaching:
        if attempt(classes.advance, role()["code"], role()["key"], question) is FAILED:
            return
        store.forget(role()["code"])
    else:
        opened = attempt(admission.start, question, who="start")
        if opened is FAILED:
            return
        st.session_state[ROLE] = {"code": opened.code, "key": opened.teacher_key}
        offer_cookie("key", opened.code, opened.teacher_key)
    st.switch_page(pages["class"].script)


def question_text(q: Question, teacher: bool = False) -> str:
    """The question as a student reads it (their guess), or as the teacher's screen shows it to the room."""
    if q.ordered == 1:
        return t("class_asked" if teacher else "predict_ask", q=q.query)
    return t("class_asked_order" if teacher else "predict_order_ask", q=q.query, m=q.ordered)


def room_chart(room: classes.Room, revealed: bool):
    """How the room answered: how many put each key first, the right one marked once revealed."""
    if not room.answered:  # a chart of zeros has no scale (its axis reads 0.000000): a sentence instead
        st.info(t("class_no_answers_yet" if room.status == "asking" else "class_no_answers"))
        return
    frame = room_frame(room.question.keys, room.first, room.question.answer[0] if revealed else None)
    render.chart(room_bars, frame, save=None,  # redrawn by a fragment, which may not write to the page's save menu
                 titles=Titles(t("class_chart_title", q=room.question.query), t("key_word"), t("class_students"),
                               right=t("class_right_mark")))


@functools.lru_cache(maxsize=256)
def room_frame(keys: tuple[str, ...], first: tuple[int, ...], right: str | None):
    """tables.room_frame, one frame for every panel showing the same room (its Arrow bytes made once: render.arrow)."""
    return tables.room_frame(list(keys), list(first), right)


def reveal_text(room: classes.Room) -> str:
    """The answer and what decides it."""
    q = room.question
    order = " > ".join(f"“{w}”" for w in q.answer)
    return t("class_answer", order=order) + then() + t(WHY[q.reason], k=q.answer[0], q=q.query)


@functools.lru_cache(maxsize=64)
def qr_png(link: str) -> bytes:
    """The class's link as a QR code (PNG), large enough to scan from the back of a room."""
    out = io.BytesIO()
    segno.make(link, error="m").save(out, kind="png", scale=8, border=2)
    return out.getvalue()


def base_url() -> str:
    """This server's address as the visitor's browser sees it (behind a proxy too), without the page's path."""
    return (st.context.url or "").split("?")[0].rsplit("/", 1)[0]


def link_of(code: str, pages: Mapping) -> str:
    """The address a student opens to join: the class page with the code."""
    return f"{base_url()}/{pages['class'].url_path}?room={code}"


def teacher_panel(pages: Mapping):
    """The class's code, link and QR code for the room's screen; the question, the counts, the chart and the buttons."""
    # Only the counts and the chart change by themselves, so only they are redrawn when they do (a fragment and its
    # watch); the rest is drawn when the teacher acts, or when the panel sees the class move on.
    me = role()
    room = attempt(store.shared_room, me["code"])
    if room is FAILED:
        return
    if room.status == "ended":  # no one joins an ended class: its code and QR code go
        st.markdown(t("class_over"))
    else:
        door_sign(me["code"], pages)
    ended = room.status == "ended"
    st.subheader(board.last_question(room.question) if ended else question_text(room.question, teacher=True))
    board.sentence(room.question)
    if room.status == "asking":
        st.toggle(t("class_show_before"), key="_class_show")
    live(with_language(teacher_live), room.question_no, room.status)
    if room.status != "asking":
        st.success(reveal_text(room))
    teacher_buttons(me, room)
    if room.status != "ended":
        door.controls(me, room)
    if room.status == "ended":
        answers_download(me)


def door_sign(code: str, pages: Mapping) -> None:
    """How students join, large for the room's screen: the class's code, its link and QR code."""
    link = link_of(code, pages)
    left, right = st.columns([2, 1])
    left.markdown(t("class_code_is", code=" ".join([code[:4], code[4:]])))
    left.markdown(t("class_link_is"))
    left.code(link, language=None, wrap_lines=True)
    left.caption(t("class_next_how"))
    right.image(qr_png(link), caption=t("class_qr"), width=260)


@st.fragment
def live(draw, *args):
    """draw(*args) now, and again alone whenever its watch asks (a fragment)."""
    # `draw` carries the run's language, which the fragment's own reruns, in a thread of their own, would not know
    # (text.with_language)
    draw(*args)


def looked(code: str, question_no: int, status: str | None = None) -> classes.Room | None:
    """The class's room for a live panel, None after saying why there is none (and watching for that to change)."""
    # When the class has moved on from the question (and, given one, the status) the page around the panel was drawn
    # for, or ended, the whole page is drawn again: its question and buttons.
    teacher = "key" in role()
    room = attempt(classes.room if teacher else store.shared_room, code)  # the teacher's counts as they are now
    if room is FAILED:
        watch.watch(base_url(), code, teacher, watch.current(code, teacher))  # read again: which failure
        return None
    moved_on = room.question_no != question_no or room.status != (status or room.status)
    if moved_on or (status is None and room.status == "ended"):
        st.rerun(scope="app")
    return room


def teacher_live(question_no: int, status: str):
    """Joined and answered, and the room's chart (hidden until the reveal unless the teacher shows it)."""
    # the panel also says now and then that it is open (beat), for the students' panels
    me = role()
    now = time.time()
    room = looked(me["code"], question_no, status)
    if room is None:
        return
    if now - room.teacher_seen > watch.BEAT_S and attempt(classes.beat, me["code"], me["key"]) is not FAILED:
        store.forget(me["code"])
        room = replace(room, teacher_seen=now)
    showing = room.status == "asking" and st.session_state.get("_class_show")  # a live chart: redrawn every EVERY_S
    watch.watch(base_url(), me["code"], True, watch.stage(room, True, now),
                      every=watch.EVERY_S if showing else 0.0)
    joined_box, answered_box, question_box = st.columns(3)
    joined_box.metric(t("class_joined"), room.joined)
    answered_box.metric(t("class_answered"), room.answered)
    question_box.metric(t("class_question_no"), room.question_no)
    revealed = room.status != "asking"
    if revealed or st.session_state.get("_class_show"):
        room_chart(room, revealed)


def teacher_buttons(me: dict, room: classes.Room) -> None:
    """Reveal while asking, end until ended; each acts before the next run draws the page (on_click)."""
    left, right = st.columns(2)
    if room.status == "asking":
        left.button(t("class_reveal"), type="primary", icon=":material/visibility:", on_click=with_language(act),
                    args=(classes.reveal, me))
    if room.status != "ended":
        right.button(t("class_end"), icon=":material/stop_circle:", on_click=with_language(act), args=(classes.end, me))


def act(fn, me: dict) -> None:
    """The teacher's fn on their class, seen by the next look of every student on this process."""
    if attempt(fn, me["code"], me["key"]) is not FAILED:
        store.forget(me["code"])


def answers_download(me: dict):
    """An ended class's answers as CSV, and what happens next; a sentence instead when no one answered at all."""
    rows = attempt(classes.answers, me["code"], me["key"])
    if rows is FAILED:
        return
    if not rows:
        st.info(t("class_no_answers_class"))
        return
    st.download_button(t("class_csv"), lambda: tables.class_answers(rows).to_csv(index=False).encode("utf-8"),
                       file_name=f"class-{me['code']}.csv", mime="text/csv", on_click="ignore")
    st.info(t("class_ended_teacher"))


def leave_button():
    """Leave the class (a student) or stop teaching it here (a teacher: the class goes on until it is ended)."""
    if role() and st.button(t("class_leave"), icon=":material/logout:"):
        offer_cookie("key" if "key" in role() else "token")  # this browser forgets it too
        del st.session_state[ROLE]
        st.rerun()
