"""Colours: the theme's text and primary colour reach WCAG AA contrast, every categorical palette's marks reach 3:1 on
white, and heads stay apart under simulated deuteranopia and protanopia."""
import itertools
import tomllib
from pathlib import Path

import numpy as np
import pytest

from kit import charts
from learning import charts as learning_charts
from real import charts as real_charts

CONFIG = Path(__file__).resolve().parents[2] / ".streamlit" / "config.toml"
WHITE = "#ffffff"
TEXT, MARKS = 4.5, 3.0  # WCAG 1.4.3 (text) and 1.4.11 (graphical objects)
# Machado, Oliveira and Fernandes (2009), severity 1, on linear RGB
DEUTERANOPIA = np.array([[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413],
                         [-0.011820, 0.042940, 0.968881]])
PROTANOPIA = np.array([[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216],
                       [-0.003882, -0.048116, 1.051998]])
VISIONS = {"typical": np.eye(3), "deuteranopia": DEUTERANOPIA, "protanopia": PROTANOPIA}
APART = 10.0  # CIEDE2000 between any two heads, under every vision: apart at a glance (1 is just noticeable)
PALETTES = {"heads": charts.HEAD_COLOURS, "sign groups": list(charts.GROUP_COLOURS.values()),
            "roles": list(learning_charts.ROLE_COLOURS.values()), "lines": real_charts.LINE_COLOURS,
            "series": real_charts.SERIES_COLOURS, "other": [charts.GREY]}


def linear(hex_colour: str) -> np.ndarray:
    """sRGB '#rrggbb' as linear RGB in [0, 1]."""
    c = np.array([int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)])
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def mix(colour: str, background: str, share: float) -> str:
    """colour at `share` opacity over background, as '#rrggbb'."""
    a, b = (np.array([int(h[i:i + 2], 16) for i in (1, 3, 5)]) for h in (colour, background))
    return "#" + "".join(f"{round(v):02x}" for v in share * a + (1 - share) * b)


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two colours."""
    lum = sorted((float(linear(h) @ [0.2126, 0.7152, 0.0722]) for h in (a, b)), reverse=True)
    return (lum[0] + 0.05) / (lum[1] + 0.05)


def lab(rgb: np.ndarray) -> np.ndarray:
    """Linear RGB -> CIELAB (D65)."""
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]) @ rgb
    t = xyz / [0.95047, 1.0, 1.08883]
    f = np.where(t > (6 / 29) ** 3, np.cbrt(t), t / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def ciede2000(lab1: np.ndarray, lab2: np.ndarray) -> float:
    """The CIEDE2000 colour difference (Sharma, Wu and Dalal 2005)."""
    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    c_mean = (np.hypot(a1, b1) + np.hypot(a2, b2)) / 2
    g = 0.5 * (1 - np.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1, a2 = (1 + g) * a1, (1 + g) * a2
    c1, c2 = np.hypot(a1, b1), np.hypot(a2, b2)
    h1, h2 = np.degrees(np.arctan2(b1, a1)) % 360, np.degrees(np.arctan2(b2, a2)) % 360
    dh = 0.0 if c1 * c2 == 0 else (h2 - h1 + 180) % 360 - 180
    big_dh = 2 * np.sqrt(c1 * c2) * np.sin(np.radians(dh / 2))
    l_mean, c_mean = (l1 + l2) / 2, (c1 + c2) / 2
    if c1 * c2 == 0:
        h_mean = h1 + h2
    elif abs(h1 - h2) <= 180:
        h_mean = (h1 + h2) / 2
    else:
        h_mean = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    t = (1 - 0.17 * np.cos(np.radians(h_mean - 30)) + 0.24 * np.cos(np.radians(2 * h_mean))
         + 0.32 * np.cos(np.radians(3 * h_mean + 6)) - 0.20 * np.cos(np.radians(4 * h_mean - 63)))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / np.sqrt(20 + (l_mean - 50) ** 2)
    s_c, s_h = 1 + 0.045 * c_mean, 1 + 0.015 * c_mean * t
    turn = np.sin(np.radians(60 * np.exp(-((h_mean - 275) / 25) ** 2)))
    r_t = -2 * np.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)) * turn
    dl, dc, dh = (l2 - l1) / s_l, (c2 - c1) / s_c, big_dh / s_h
    return float(np.sqrt(dl ** 2 + dc ** 2 + dh ** 2 + r_t * dc * dh))


def seen(hex_colour: str, vision: np.ndarray) -> np.ndarray:
    """A colour in CIELAB as someone with that vision sees it."""
    return lab(np.clip(vision @ linear(hex_colour), 0, 1))


def test_ciede2000_matches_the_published_test_pairs():
    assert ciede2000(np.array([50, 2.6772, -79.7751]), np.array([50, 0, -82.7485])) == pytest.approx(2.0425, abs=1e-4)
    assert ciede2000(np.array([50, 2.5, 0]), np.array([73, 25, -18])) == pytest.approx(27.1492, abs=1e-4)


def test_the_theme_reaches_aa_contrast():
    theme = tomllib.loads(CONFIG.read_text())["theme"]
    primary, text = theme["primaryColor"], theme["textColor"]
    assert contrast(text, WHITE) >= TEXT
    assert contrast(mix(text, WHITE, 0.6), WHITE) >= TEXT  # Streamlit's captions: text at 60 %
    assert contrast(mix(text, "#f1f0ee", 0.6), "#f1f0ee") >= TEXT  # captions in the sidebar's widgets
    assert contrast(WHITE, primary) >= TEXT  # a primary button's label
    for background in (WHITE, "#f1f0ee"):  # a chosen option: the primary colour on its 10 % tint, in page and sidebar
        assert contrast(primary, mix(primary, background, 0.1)) >= TEXT


@pytest.mark.parametrize("name", PALETTES)
def test_every_categorical_colour_stands_out_from_the_background(name):
    weak = {c: round(contrast(c, WHITE), 2) for c in PALETTES[name] if contrast(c, WHITE) < MARKS}
    assert weak == {}, f"{name}: under {MARKS}:1 on white"


@pytest.mark.parametrize("vision", VISIONS)
def test_heads_stay_apart_under_colour_blindness(vision):
    close = {(a, b): round(d, 1) for a, b in itertools.combinations(charts.HEAD_COLOURS, 2)
             if (d := ciede2000(seen(a, VISIONS[vision]), seen(b, VISIONS[vision]))) < APART}
    assert close == {}, f"heads closer than CIEDE2000 {APART} under {vision}"


def test_sign_groups_stay_apart_under_colour_blindness():
    for vision in VISIONS.values():
        for a, b in itertools.combinations(charts.GROUP_COLOURS.values(), 2):
            assert ciede2000(seen(a, vision), seen(b, vision)) >= APART, (a, b)
