"""Two heatmaps alike but for their Chinese words, saved as PNG by the app's own export path (kit.render.saved) on a
machine whose fonts are the folders named: the caller's FONTCONFIG_FILE lists them, and of the CJK folders the app
registers itself (render.CJK_FONTS) only those among them count.

python -m tests.host.saved_png OUT_FOLDER FONT_FOLDER...    writes OUT_FOLDER/0.png and 1.png"""
import sys
from pathlib import Path

import numpy as np

from kit import charts, render, tables

WORDS = (["猫", "牛奶"], ["狗", "骨头"])  # each chart's rows and columns


def main(out: str, *folders: str) -> None:
    """Each chart of WORDS saved as PNG into `out`."""
    render.CJK_FONTS = tuple(folder for folder in render.CJK_FONTS if folder in folders)
    titles = charts.Titles("因子矩阵", "键词", "查询词", "数值")
    for i, words in enumerate(WORDS):
        frame = tables.matrix_long(np.array([[1.0, -2.0], [0.5, 4.0]]), words, words)
        (Path(out) / f"{i}.png").write_bytes(render.saved("png", charts.heatmap, (frame,), {"titles": titles}))


if __name__ == "__main__":
    main(*sys.argv[1:])
