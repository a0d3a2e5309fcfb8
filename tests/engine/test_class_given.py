"""What a class's question says about its sentence, and the log of answers given: a question carries the sentence the
room reads (and stays readable when stored before it did), every answer given is a row of the CSV, a database of the
previous schema is upgraded with its answers kept, the CSV's columns say their time is UTC and from when its seconds
count (the class's opening, the question's), and every text column of the CSV is inert in a spreadsheet."""
import io
import json
from dataclasses import asdict, replace

import pandas as pd
import pytest
import sqlalchemy as sa

from classroom import answering, classes, given, tables
from classroom.classes import ANSWERS, META, Question
from tests.engine.test_class_questions import good
from tests.engine.test_classroom import MILK, T0, join, refused

STORY = ("the", "black", "cat", "drank", "the", "milk")
TOLD = Question(**good(query="the (5)", keys=("the (1)", "black", "cat", "drank", "milk"), answer=("milk",),
                       sentence=STORY, position=5))


@pytest.mark.parametrize("field, changes", [
    ("sentence", {"sentence": ["the", "milk"], "position": 0}), ("sentence", {"sentence": ("the", "")}),
    ("sentence", {"sentence": tuple(f"w{i}" for i in range(65))}), ("sentence", {"sentence": ("mi\nlk",)}),
    ("sentence", {"sentence": ("m" * 101,)}), ("sentence", {"sentence": ("\u202emilk",)}),
    ("position", {"position": 7}), ("position", {"position": -1}), ("position", {"position": True}),
    ("position", {"position": 2}),  # "black" is not the query
    ("position", {"sentence": (), "position": 1}), ("position", {"position": "6"}),
])
def test_a_question_s_sentence_out_of_its_limits_is_refused(field, changes):
    fields = good(query="milk", sentence=STORY, position=6) | changes
    assert refused("bad_question", Question, **fields).values == {"field": field}


def test_a_question_keeps_its_sentence_and_the_query_s_place_through_json():
    assert Question.from_json(TOLD.to_json()) == TOLD
    assert Question(**good(query="milk", sentence=STORY, position=6)).position == 6
    rtl = Question(**good(query="حليب", keys=("قطة", "حليب"), answer=("قطة",), sentence=("شربت", "قطة", "حليب"),
                          position=3))
    assert Question.from_json(rtl.to_json()) == rtl


def test_a_question_stored_before_questions_had_a_sentence_is_read_without_one():
    before = {k: v for k, v in asdict(MILK).items() if k not in ("sentence", "position")}
    read = Question.from_json(json.dumps(before))
    assert read == MILK and (read.sentence, read.position) == ((), 0)
    refused("bad_question", Question.from_json, json.dumps({**asdict(TOLD), "sentence": "the black cat"}))
    refused("bad_question", Question.from_json, json.dumps({**before, "position": 5}))  # no such word: refused


def test_every_answer_given_is_a_row_with_its_time_and_the_question_s_sentence_and_right_answer(db):
    opened = classes.start(db, TOLD, now=T0)
    ana, bo = join(db, opened.code, "Ana", now=T0), join(db, opened.code, "Bo", now=T0 + 1)
    answering.answer(db, opened.code, ana, 1, ["cat"], now=T0 + 5)
    answering.answer(db, opened.code, bo, 1, ["milk"], now=T0 + 6)
    answering.answer(db, opened.code, ana, 1, ["milk"], now=T0 + 7.5)  # changed: two rows, the live count one
    assert classes.room(db, opened.code, now=T0 + 8).answered == 2
    rows = classes.answers(db, opened.code, opened.teacher_key, now=T0 + 9)
    assert [(r["nickname"], r["answer"], r["right"], r["seconds_since_class_opened"]) for r in rows] == [
        ("Ana", "cat", False, 5.0), ("Bo", "milk", True, 6.0), ("Ana", "milk", True, 7.5)]
    assert {(r["sentence"], r["query"], r["right_answer"]) for r in rows} == {
        ("the black cat drank the milk", "the (5)", "milk")}
    assert rows[0]["time_utc"] == "2023-11-14 22:13:25"  # T0 + 5


def test_the_csv_names_its_time_utc_and_counts_seconds_from_the_class_and_from_the_question_answered(db):
    opened = classes.start(db, MILK, now=T0)
    ana = join(db, opened.code, "Ana", now=T0 + 1)
    answering.answer(db, opened.code, ana, 1, ["cat"], now=T0 + 4)
    classes.reveal(db, opened.code, opened.teacher_key, now=T0 + 20)
    classes.advance(db, opened.code, opened.teacher_key, TOLD, now=T0 + 60)  # asked a minute after the class opened
    answering.answer(db, opened.code, ana, 2, ["milk"], now=T0 + 72.5)
    written = tables.class_answers(classes.answers(db, opened.code, opened.teacher_key, now=T0 + 80)).to_csv(
        index=False)
    assert written.splitlines()[0] == ("question_no,sentence,query,right_answer,student,nickname,answer,right,"
                                       "time_utc,seconds_since_class_opened,seconds_since_question")
    read = pd.read_csv(io.StringIO(written))
    assert list(read["time_utc"]) == ["2023-11-14 22:13:24", "2023-11-14 22:14:32"]  # T0 + 4, T0 + 72.5
    assert list(read["seconds_since_class_opened"]) == [4.0, 72.5]
    assert list(read["seconds_since_question"]) == [4.0, 12.5]


def test_a_database_of_version_2_is_upgraded_with_its_answers_kept_in_the_log(engine, monkeypatch):
    with monkeypatch.context() as before:  # the schema as it was: version 2, no log
        before.setattr(classes, "SCHEMA_VERSION", 2)
        before.setattr(classes, "UPGRADES", classes.UPGRADES[:2])
        classes.create(engine)
        opened = classes.start(engine, MILK, now=T0)
        ana = join(engine, opened.code, "Ana", now=T0)
        with engine.begin() as conn:
            conn.execute(sa.insert(ANSWERS).values(class_code=opened.code, question_no=1,
                                                   token_hash=classes.digest(ana), words='["cat"]', at=T0 + 3))
    assert "class_given" not in sa.inspect(engine).get_table_names()
    classes.create(engine)
    with engine.connect() as conn:
        version = conn.execute(sa.select(META.c.value).where(META.c.key == "schema_version")).scalar_one()
    assert version == str(classes.SCHEMA_VERSION)
    answering.answer(engine, opened.code, ana, 1, ["drank"], now=T0 + 4)
    rows = classes.answers(engine, opened.code, opened.teacher_key, now=T0 + 5)
    assert [(r["nickname"], r["answer"], r["seconds_since_question"]) for r in rows] == [
        ("Ana", "cat", 3.0), ("Ana", "drank", 4.0)]
    classes.create(engine)  # once more: nothing copied twice
    assert len(classes.answers(engine, opened.code, opened.teacher_key, now=T0 + 5)) == 2


def test_every_text_column_of_the_csv_is_inert_in_a_spreadsheet():
    row = given.row(1, replace(TOLD, sentence=("=cmd", "+1", "-2", "@A1", "the", "milk")), ("milk",),
                    (1, "=HYPERLINK(\"x\")"), T0, (T0, T0))
    row |= {"query": "+SUM(A1)", "right_answer": "-1", "answer": "@x"}
    frame = tables.class_answers([row])
    assert frame.loc[0, "nickname"] == "'=HYPERLINK(\"x\")" and frame.loc[0, "sentence"].startswith("'=cmd")
    assert (frame.loc[0, "query"], frame.loc[0, "right_answer"], frame.loc[0, "answer"]) == ("'+SUM(A1)", "'-1", "'@x")
    assert list(frame.columns) == ["question_no", "sentence", "query", "right_answer", "student", "nickname", "answer",
                                   "right", "time_utc", "seconds_since_class_opened", "seconds_since_question"]
