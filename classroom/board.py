"""What the room reads with every question, and what a student answers it with: the sentence it is about, large enough
for the back row, the query's word marked as the dashboard labels it; the choices of the answer form; the question an
ended class was asked last."""
import html

import streamlit as st

from classroom.questions import Question
from kit.text import t

# A line of the sentence for the room: large on a projector, still whole words on a phone; the query's word in a
# marker's yellow with an underline, which also reads in grey and for those who see no yellow.
STYLE = ("<style>.class-sentence { font-size: clamp(1.75rem, 4.5vw, 3.25rem); line-height: 1.35; font-weight: 600;"
         " margin: 0 0 0.5rem; overflow-wrap: anywhere; }"
         ".class-sentence mark { background: #fde68a; color: inherit; padding: 0 0.15em; border-radius: 0.2em;"
         " text-decoration: underline 0.12em #a8303c; text-underline-offset: 0.15em;"
         " text-decoration-skip-ink: none; }"
         ".class-sentence-label { font-size: 1rem; opacity: 0.75; margin: 0; }</style>")


def sentence(q: Question) -> None:
    """The question's sentence in large type, the query's word marked with its label ("the (5)" for a repeated word)."""
    # a question stored before questions carried their sentence has none: nothing is shown
    if q.sentence:
        st.html(STYLE + line(q))


def line(q: Question) -> str:
    """The sentence as HTML, every word escaped, the query's word (q.position, from 1) marked."""
    words = [html.escape(w) for w in q.sentence]
    if q.position:
        words[q.position - 1] = f"<mark>{html.escape(q.query)}</mark>"
    label = html.escape(t("class_sentence", q=q.query))
    return (f'<p class="class-sentence-label">{label}</p>'
            f'<p class="class-sentence" dir="auto">{" ".join(words)}</p>')


def pick(q: Question, key: str) -> list[str] | None:
    """The student's choice in the answer form: one key, or q.ordered keys most first; None until it is whole."""
    if q.ordered == 1:
        choice = st.radio(t("class_pick"), list(q.keys), index=None, horizontal=True, key=key)
        return None if choice is None else [choice]
    picked = st.multiselect(t("class_pick_order", m=q.ordered), list(q.keys), max_selections=q.ordered, key=key,
                            placeholder=t("predict_order_placeholder"))
    return picked if len(picked) == q.ordered else None


def last_question(q: Question) -> str:
    """The question an ended class was asked last, as the teacher's screen shows it."""
    return t("class_last", q=q.query) if q.ordered == 1 else t("class_last_order", q=q.query, m=q.ordered)
