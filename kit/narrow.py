"""Charts that fit a phone: a legend in as many columns as the chart's box holds, and a title wider than a narrow
chart written on two or more lines there, on one line where it fits. Vega neither cuts nor wraps a title, so a long
one ran past the chart's right edge and pushed the colour bar beside it out of sight. The lines are chosen here, by an
estimate of the text's width; the browser picks one line or several by the width of the chart's box (containerSize),
so the same spec serves every screen, and a saved file (no box) keeps one line."""
import json
import re
import unicodedata

import altair as alt

LATIN_PX, WIDE_PX = 7, 16  # a Latin and a Chinese character of Streamlit's bold chart title (measured in Chromium)
LINE_PX = 300  # a line's width on the narrowest screen: a 360 px phone's chart box less its padding
PHONE_BOX = 600  # pixels: a chart box narrower than this is a phone's
ROOM = 160  # pixels of a chart's box beside its title's line: Vega cuts a title at the plot's width, not the box's
PARTS = ("layer", "vconcat", "hconcat", "concat")
# where a title may break: after a space or a dash, and between two wide (Chinese) characters, never before a
# closing mark or after an opening one
BREAKS = re.compile(r"(?<=\s)(?![—–])|(?<=[—–])|(?<=[\u3000-\u9fff\uff00-\uffef])(?=[^\s，。：；、）」』”’)\]])")


def on_narrow(narrow: str, wide: str, below: float = PHONE_BOX) -> str:
    """A Vega expression: `narrow` where the chart's box is narrower than `below` pixels, else `wide`."""
    # a saved file has no box: it takes `wide`
    return f"containerSize()[0] > 0 && containerSize()[0] < {below:.0f} ? {narrow} : {wide}"


def columns(most: int, px: int) -> alt.ExprRef:
    """A legend's columns: as many of `px` pixels as the chart's box holds, 1 to `most`."""
    # on a phone a legend beside or below a chart wraps instead of running past its edge; a saved file, with no box,
    # takes `most`
    return alt.ExprRef(f"containerSize()[0] > 0 ? clamp(floor(containerSize()[0] / {px}), 1, {most}) : {most}")


def text_px(text: str) -> float:
    """The estimated width of `text` as a chart title, in pixels."""
    wide = sum(unicodedata.east_asian_width(ch) in "WF" for ch in text)
    return WIDE_PX * wide + LATIN_PX * (len(text) - wide)


def lines(text: str, width: float = LINE_PX) -> list[str]:
    """`text` broken at BREAKS into lines of at most `width` estimated pixels (a word longer than that on its own)."""
    out = [""]
    for piece in BREAKS.split(text):
        if out[-1] and text_px(out[-1] + piece.rstrip()) > width:
            out.append("")
        out[-1] += piece
    return [line.strip() for line in out if line.strip()]


def balanced(text: str) -> list[str]:
    """`text` on as few lines as fit LINE_PX, as even in width as those breaks allow (no lone last word)."""
    count = len(lines(text))
    width = next((w for w in range(int(text_px(text) / count), LINE_PX, 4) if len(lines(text, w)) <= count), LINE_PX)
    return lines(text, width)


def fitted(text: str) -> str | dict:
    """A title's text: itself where it fits the narrowest screen, else an expression putting it on balanced lines."""
    if text_px(text) <= LINE_PX:
        return text
    one = json.dumps(text, ensure_ascii=False)
    many = json.dumps(balanced(text), ensure_ascii=False)
    return {"expr": on_narrow(many, one, text_px(text) + ROOM)}


def fit_titles(spec: dict) -> dict:
    """The spec with every chart title (of the chart and of its parts, not of axes or legends) fitted; in place."""
    title = spec.get("title")
    if isinstance(title, str) and text_px(title) > LINE_PX:
        spec["title"] = {"text": fitted(title)}
    elif isinstance(title, dict) and isinstance(title.get("text"), str):
        title["text"] = fitted(title["text"])
    for part in PARTS:
        for child in spec.get(part, []) if isinstance(spec.get(part), list) else []:
            fit_titles(child)
    if isinstance(spec.get("spec"), dict):
        fit_titles(spec["spec"])
    return spec
