"""Vector sources: the lighter 50k vocabulary, downloads that need the internet, and switching between them."""
import socket

import pytest

from engine.errors import VectorsError
from engine.sources import load_gensim_data
from kit.text import t
from tests.apptest_helpers import RANDOM_LAYERS, chart_data, error_message, messages, open_layers, run_page, uploader


def test_a_download_fails_at_once_with_a_sentence_when_the_internet_is_unreachable(monkeypatch):
    def unreachable(*args, **kwargs):
        raise OSError("network is unreachable")
    monkeypatch.setattr(socket, "create_connection", unreachable)
    with pytest.raises(VectorsError) as e:
        load_gensim_data("glove-wiki-gigaword-100")
    assert e.value.code == "offline" and "cannot reach" in error_message(e.value)


def test_switching_source_keeps_the_sentence_and_settings_and_names_the_missing_words():
    sentence = "The kefir is cold"  # "kefir" is word 202,228 of 400k: not among the 50k most frequent
    # random layers: the seed counts, and the other vectors need no head fitted (not what this test is about)
    at = run_page("pages/2_Factor_matrix.py", {"sentence": sentence, "k_seed": "42", **RANDOM_LAYERS})
    assert not at.exception and "kefir" not in messages(at)
    full = chart_data(at)[0]
    at.selectbox(key="source").select("glove50k").run()
    assert not at.exception
    assert at.text_input(key="sentence").value == sentence
    assert open_layers(at).number_input(key="k_seed").value == 42
    assert at.query_params["source"] == "glove50k" and at.query_params["k_seed"] == "42"
    assert "kefir" in messages(at)  # said to be missing from the new vectors
    assert set(chart_data(at)[0]["row"]) == set(full["row"]) - {"kefir"}


def test_a_download_source_in_a_link_falls_back_to_the_built_in_vectors_with_a_notice(monkeypatch):
    monkeypatch.setattr(socket, "create_connection", lambda *a, **k: (_ for _ in ()).throw(OSError("offline")))
    at = run_page(None, {"source": "glove-wiki-gigaword-300"})
    assert not at.exception
    assert any("cannot reach the internet" in e.value for e in at.sidebar.error)
    assert chart_data(at) and len(chart_data(at)[0]) > 0


def test_the_built_in_vectors_standing_in_for_a_download_are_named_as_what_they_are(monkeypatch):
    monkeypatch.setattr(socket, "create_connection", lambda *a, **k: (_ for _ in ()).throw(OSError("offline")))
    at = run_page("pages/1_Words_become_rows.py", {"source": "glove-wiki-gigaword-300", **RANDOM_LAYERS})
    said = " ".join(m.value for m in at.markdown)
    assert not at.exception and t("source_offline") in messages(at)
    assert t("words_intro", source=t("short_glove"), d=50) in said and t("short_glove-wiki-gigaword-300") not in said


def test_an_upload_serves_only_the_session_that_sent_it():
    vectors = b"milk 0.1 0.2 0.3\ndrank 0.2 0.1 -0.3\ncat -0.1 0.4 0.2\nthe 0.0 0.1 0.0\n"
    mine = run_page("pages/2_Factor_matrix.py", {"source": "upload", "sentence": "the cat drank milk"})
    uploader(mine).set_value([("mine.txt", vectors, "text/plain")])
    mine.run()
    assert not mine.exception and any("4 words of 3 dimensions" in c.value for c in mine.sidebar.caption)
    assert len(chart_data(mine)[0]) == 16  # 4 words × 4 words, in the uploaded 3-d space
    theirs = run_page("pages/2_Factor_matrix.py", {"source": "upload", "sentence": "the cat drank milk"})
    assert not theirs.exception
    assert not any("4 words" in c.value for c in theirs.sidebar.caption)
    assert any("No vectors uploaded yet" in i.value for i in theirs.sidebar.info)


def test_the_sidebar_keeps_a_place_under_the_choice_only_for_sources_that_draw_there(monkeypatch):
    monkeypatch.setattr(socket, "create_connection", lambda *a, **k: (_ for _ in ()).throw(OSError("offline")))
    at = run_page(None)
    kinds = [type(node).__name__ for node in at.sidebar.children.values()]
    assert "Block" not in kinds[kinds.index("Selectbox"):kinds.index("TextInput")], kinds  # nothing between them
    at.selectbox(key="source").select("glove-wiki-gigaword-100").run()
    sidebar = list(at.sidebar.children.values())
    place = sidebar[[type(n).__name__ for n in sidebar].index("Selectbox") + 1]
    assert any("cannot reach the internet" in e.value for e in place.error)  # the notice, right under the choice
