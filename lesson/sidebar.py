"""The settings sync, navigation and shared controls every page renders."""
from dataclasses import asdict, replace

import streamlit as st

from engine.layers import PRESETS
from fits.settings import PRESET_NAMES, QK_PRESETS
from kit import pages, render, state
from kit.pages import Page
from kit.state import MAX_TEXT
from kit.text import LANGS, error_text, labels, t
from kit.text import name as language_name
from lesson.settings import NAMES, SPEC, UNREAD, Settings, from_values
from vectors.settings import DRAWN, SOURCES

LAYERS = ("q", "k", "v")
# containers that stay open across pages and page 6's tabs once opened: the sidebar's layers, page 6's line views
KEPT_OPEN = ("layers_open", "encoder-lines_open", "decoder-lines_open", "cross-lines_open")
NARROW = 768  # px: below this Streamlit starts with the sidebar closed


def current() -> Settings:
    """Settings from the URL on a visit's first run, then from the widgets; re-seeds every widget key."""
    ss = st.session_state
    if "_settings" not in ss:
        values = {k: st.query_params.get_all(k)[-1] for k in st.query_params}
        ss["_unread"] = values.pop(UNREAD, None) is not None
        base, refused = from_values({"lang": browser_language()} | values)
        ss["_notices"] = refused
    else:
        base = ss["_settings"]
    settings, _ = from_values({**asdict(base), **{n: ss[n] for n in NAMES if n in ss}})
    ss["_settings"] = settings
    for name in NAMES:  # keeps values alive across page switches, where Streamlit drops widget state
        ss[name] = getattr(settings, name)
    for key in KEPT_OPEN:  # the same for what the visitor opened, which is not part of the view's settings
        ss[f"_{key}"] = ss.get(key, ss.get(f"_{key}", False))
        ss[key] = ss[f"_{key}"]
    return settings


def browser_language() -> str:
    """The first of LANGS the browser asks for ('zh-CN' -> 'zh'); English when it asks for none of them."""
    locale = (st.context.locale or "en").lower()
    return next((code for code in LANGS if locale.split("-")[0] == code), "en")


# A control with the keyboard's focus gets a 2 px ring in the theme's primary colour: Streamlit marks a focused text or
# select box only by a faint border (WCAG 2.4.7, tests/browser/test_accessibility.py). Also on every page, so that
# nothing runs past a phone's right edge or is cut short: a switch's choices and a control's label wrap onto a second
# line, and a chart wider than the page by design (the line view, set in type for a projector) scrolls sideways in its
# own box.
STYLE = ("[data-testid=stTextInputRootElement]:focus-within, [data-testid=stNumberInputContainer]:focus-within, "
         "[data-baseweb=select]:focus-within, :is(button, a, [role=radio], [role=checkbox], [role=tab], "
         "[role=slider], summary):focus-visible { outline: 2px solid #a8303c; outline-offset: 2px; }"
         "[data-testid=stButtonGroup] > div { flex-wrap: wrap; row-gap: 4px; }"
         "[data-testid=stMarkdownContainer].stMarkdownEllipsis p { white-space: normal; }"
         f".st-key-{render.WIDE} {{ overflow-x: auto; }}")


def sentence_here(s: Settings, field: str):
    """The sentence box on the page itself, kept in step with the sidebar's, for narrow screens."""
    # on a narrow screen the sidebar starts closed; on a wide one, where it is open, CSS hides this box
    st.session_state[f"_{field}_here"] = getattr(s, field)
    st.html(f"<style>@media (min-width: {NARROW}px) {{ .st-key-_{field}_here {{ display: none; }} }}{STYLE}</style>")
    st.text_input(t(field), key=f"_{field}_here", max_chars=MAX_TEXT, on_change=copy_sentence, args=(field,))


def copy_sentence(field: str):
    """Callback: the sentence typed on the page into the setting the sidebar's box shows."""
    st.session_state[field] = st.session_state[f"_{field}_here"]


def render(s: Settings, p: Page, sentence_field: str):
    """The head of a story page for Settings `s`; returns where the chosen vectors draw what they need, or None."""
    # `s` is current()'s, which the entry read; it goes into the address bar last
    # The place is under the choice of vectors (vectors.chosen.vectors draws in it); None where they need nothing drawn
    # (vectors.settings.DRAWN).
    url_notices(st.session_state.pop("_notices", []), st.session_state.pop("_unread", False))
    st.title(t(p.title))
    sentence_here(s, sentence_field)
    with st.sidebar:
        menu(s)
        st.selectbox(t("source"), list(SOURCES), key="source", format_func=labels(SOURCES))
        vectors = st.container() if s.source.startswith(DRAWN) else None  # an empty place costs every run
        st.text_input(t(sentence_field), key=sentence_field, max_chars=MAX_TEXT)
        # The layer widgets and the links are built only while shown: hidden, they would cost every run and redraw.
        with st.expander(t("layers"), key="layers_open", on_change="rerun") as layers:
            if layers.open:
                layer_controls()
        with st.popover(t("copy_link"), icon=":material/link:", width="stretch", key="link_open",
                        on_change="rerun") as link:
            if link.open:
                st.caption(t("copy_link_help"))
                st.code(state.link(s), language=None, wrap_lines=True)
        if p.challenge:  # a teacher's link to this view with "predict first" on: its answer hidden, and no guess
            with st.popover(t("copy_challenge"), icon=":material/quiz:", width="stretch", key="challenge_open",
                            on_change="rerun") as link:
                if link.open:
                    st.caption(t("copy_challenge_help"))
                    st.code(state.link(replace(s, predict=True)), language=None, wrap_lines=True)
    state.write_url(s)
    return vectors


def menu(s: Settings):
    """The sidebar's title, the links to every page carrying the view's parameters, and the choice of language."""
    # the links carry state.linked(s), so a page opened in a new tab shows the view; a part's own run leaves them as
    # drawn
    query = state.linked(s)
    st.markdown(f"### {t('app_title')}")
    for p in pages.PAGES:
        st.page_link(p.script, label=t(p.nav), query_params=query)
    st.divider()
    st.segmented_control(t("language"), list(LANGS), key="lang", format_func=language_name)


def lobby(s: Settings):
    """The sidebar of a page outside the story (the class page): URL notices, the menu and the address bar."""
    # none of the story's controls: vectors, sentence, layers, links to a view
    url_notices(st.session_state.pop("_notices", []), st.session_state.pop("_unread", False))
    with st.sidebar:
        menu(s)
    state.write_url(s)


def url_notices(notices: list, unread: bool):
    """What the link could not give: read only in part, values refused (their defaults used), texts cut."""
    if unread:
        st.warning(t("url_unread"), icon=":material/link_off:")
    refused, shortened = [n for n in notices if n[2].code != "cut"], [n for n in notices if n[2].code == "cut"]
    for sentence, items in (("url_notice", refused), ("url_cut_notice", shortened)):
        if items:
            said = "; ".join(t("url_item", name=n, value=v, reason=error_text(r))
                             for n, v, r in items)
            st.warning(t(sentence, items=said), icon=":material/warning:")


def layer_controls():
    """Positional encoding, d_k, and each linear layer's preset, seed and scale."""
    st.slider(t("position"), min_value=SPEC["position"][0], max_value=SPEC["position"][1], step=0.05,
              key="position", help=t("position_help"))
    st.toggle(t("own"), key="own", help=t("own_help"))
    st.number_input(t("d_k"), min_value=SPEC["d_k"][0], max_value=SPEC["d_k"][1], step=1, key="d_k")
    for layer in LAYERS:
        name = f"W_{layer.upper()}"
        preset = st.selectbox(t("preset", layer=name), PRESETS if layer == "v" else QK_PRESETS, key=f"{layer}_preset",
                              format_func=labels(PRESET_NAMES))
        seed_box, scale_box = st.columns(2)
        seed_box.number_input(t("seed", layer=name), min_value=0, max_value=9999, step=1, key=f"{layer}_seed",
                              disabled=preset in QK_PRESETS[:2])
        scale_box.number_input(t("scale", layer=name), min_value=SPEC["q_scale"][0], max_value=SPEC["q_scale"][1],
                               format="%g", key=f"{layer}_scale", disabled=preset == "identity")


