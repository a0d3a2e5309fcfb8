"""Every user-facing string, in English and Simplified Chinese; pages ask for them by key."""

LANGS = ("en", "zh")

# Each entry: key -> (English, 简体中文). Sections follow the pages; placeholders use str.format.
STRINGS = {
    # --- shared: app, sidebar, navigation, notices ---
    "app_title": ("Attention, word by word", "注意力机制，逐词看懂"),
    "nav_home": ("Home: the whole story", "首页：全流程一览"),
    "nav_words": ("1 · Words become rows", "1 · 词变成行"),
    "nav_factor": ("2 · The factor matrix", "2 · 因子矩阵 Q·Kᵀ"),
    "nav_dot": ("3 · Why a dot product measures relevance", "3 · 点积为何能衡量相关性"),
    "nav_relevance": ("4 · Relevance between words", "4 · 词与词的相关性"),
    "nav_learning": ("5 · Learning", "5 · 学习权重"),
    "nav_kinds": ("6 · Three kinds of attention", "6 · 三种注意力"),
    "language": ("Language", "语言"),
    "lang_en": ("English", "English"),
    "lang_zh": ("简体中文", "简体中文"),
    "source": ("Word vectors", "词向量"),
    "source_glove": ("GloVe 6B 50d · 400k words", "GloVe 6B 50维 · 40万词"),
    "source_glove50k": ("GloVe 6B 50d · 50k most frequent", "GloVe 6B 50维 · 最常用5万词"),
    "source_upload": ("Your own vectors (upload)", "上传自己的词向量"),
    "source_glove-wiki-gigaword-100": ("GloVe 100d (download, needs internet)", "GloVe 100维（需联网下载）"),
    "source_glove-wiki-gigaword-300": ("GloVe 300d (download, needs internet)", "GloVe 300维（需联网下载）"),
    "source_offline": ("This set has to be downloaded, and this server cannot reach the internet. "
                       "Showing the built-in GloVe 6B 50d instead.",
                       "这组词向量需要联网下载，而本服务器无法访问互联网。现改用内置的 GloVe 6B 50维。"),
    "upload_files": ("Vectors file (word2vec/GloVe text), or a .npy matrix plus a word list",
                     "词向量文件（word2vec/GloVe 文本格式），或 .npy 矩阵加一个词表文件"),
    "upload_help": ("Text: one word per line followed by its numbers, optionally a first line 'count dim'. "
                    "Up to 50 MB. Kept for your session only; never shared, never unpickled.",
                    "文本格式：每行一个词，后接它的各维数值；第一行可以是“词数 维数”。最大 50 MB。"
                    "文件只保存在你本次会话中，不会共享，也绝不会被反序列化执行。"),
    "upload_error": ("That file could not be used: {error} The previous vectors stay in use.",
                     "该文件无法使用：{error} 仍沿用之前的词向量。"),
    "upload_ok": ("Using your vectors: {n:,} words of {d} dimensions.", "正在使用你上传的词向量：{n:,} 个词，{d} 维。"),
    "upload_none": ("No vectors uploaded yet — the built-in GloVe 6B 50d is shown until you upload.",
                    "尚未上传词向量——在你上传之前，显示内置的 GloVe 6B 50维。"),
    "upload_pair": ("Upload exactly one .npy matrix and one word list (.txt).", "请只上传一个 .npy 矩阵和一个词表（.txt）。"),
    "upload_one": ("Upload one text vectors file (or a .npy matrix with a word list).",
                   "请上传一个文本格式的词向量文件（或一个 .npy 矩阵加词表）。"),
    "copy_link": ("Copy link to this view", "复制本视图的链接"),
    "copy_link_help": ("Anyone who opens this link sees exactly this page, sentence and settings. "
                       "Use the copy button at the right of the box.",
                       "任何人打开这个链接，都会看到与你完全相同的页面、句子和设置。点击框右侧的按钮即可复制。"),
    "sentence": ("Sentence", "句子"),
    "pair_sentence": ("Sentence", "句子"),
    "target_sentence": ("Target sentence (decoder)", "目标句子（解码器）"),
    "layers": ("Linear layers W_Q, W_K, W_V", "线性层 W_Q、W_K、W_V"),
    "positional": ("Add positional encoding", "加上位置编码"),
    "preset": ("{layer} preset", "{layer} 初始化方式"),
    "seed": ("{layer} seed", "{layer} 随机种子"),
    "scale": ("{layer} scale", "{layer} 缩放倍数"),
    "d_k": ("d_k (columns of each layer)", "d_k（每层输出维数）"),
    "preset_identity": ("identity", "单位矩阵"),
    "preset_scaled identity": ("scaled identity", "缩放的单位矩阵"),
    "preset_random": ("random (Gaussian)", "随机（高斯）"),
    "preset_rotation": ("random rotation", "随机旋转（正交）"),
    "url_notice": ("Some settings in the link were not understood and use their defaults: {items}.",
                   "链接中的部分设置无法识别，已改用默认值：{items}。"),
    "url_item": ("'{name}={value}' ({reason})", "“{name}={value}”（{reason}）"),
    "empty_sentence": ("Type a sentence in the sidebar to begin — for example “The ball is blue”.",
                       "请在侧边栏输入一个句子，例如 “The ball is blue”。"),
    "no_known_words": ("None of the words in “{text}” are in the vocabulary, so there is nothing to show. "
                       "Try an English sentence such as “The ball is blue”.",
                       "“{text}” 中没有一个词在词表里，因此无从显示。请试试英文句子，例如 “The ball is blue”。"),
    "missing_words": ("Not in the vocabulary, left out: {items}.", "以下词不在词表中，已略去：{items}。"),
    "missing_item": ("“{word}” (did you mean {suggestions}?)", "“{word}”（是不是想输入 {suggestions}？）"),
    "missing_item_plain": ("“{word}”", "“{word}”"),
    "too_many_tokens": ("The sentence has {n} tokens; the dashboard shows at most {max}. Please shorten it.",
                        "这个句子有 {n} 个词元，本工具最多显示 {max} 个。请缩短句子。"),
    "overflow": ("The numbers grew too large to compute. Lower the layer scale.",
                 "数值过大，无法计算。请调小线性层的缩放倍数。"),
    "download": ("Download {name} as CSV", "下载 {name}（CSV）"),
    "row": ("word (row)", "词（行）"),
    "dim": ("dimension", "维度"),
    "value": ("value", "数值"),
    "query_word": ("query word", "查询词"),
    "key_word": ("key word", "键词"),
    # --- home ---
    "home_intro": (
        "Attention lets every word look at every other word and decide how much each one matters to it. "
        "Below, the sentence travels the whole way: each word becomes a **row of numbers**, three linear layers "
        "turn those rows into queries **Q**, keys **K** and values **V**, the **factor matrix** Q·Kᵀ scores every "
        "(query word, key word) pair, and the output **Z** mixes the value rows by those scores.",
        "注意力让每个词都去看句中其他所有词，并决定每个词对自己有多重要。下面把整句话走完一遍：每个词先变成**一行数字**，"
        "三个线性层把这些行变成查询 **Q**、键 **K** 和值 **V**；**因子矩阵** Q·Kᵀ 给每一对（查询词，键词）打分；"
        "输出 **Z** 再按这些分数把值向量混合起来。"),
    "home_read": (
        "How to read it: every matrix has **one row per word**, labelled with the word. Blue cells are positive, red "
        "negative, white near zero. Hover any cell for its number; each step has its own page in the sidebar.",
        "怎么看：每个矩阵都是**一个词占一行**，行名就是这个词。蓝色为正，红色为负，接近零为白色。把鼠标停在格子上可看到数值；"
        "侧边栏里每一步都有单独的页面。"),
    "home_step_rows": ("① Words → rows (embedding + position)", "① 词 → 行（词向量 + 位置编码）"),
    "home_step_qk": ("② Rows → Q and K", "② 行 → Q 与 K"),
    "home_step_factor": ("③ Factor matrix → attention weights", "③ 因子矩阵 → 注意力权重"),
    "home_step_z": ("④ Output Z = weights · V", "④ 输出 Z = 权重 · V"),
    "home_go": ("Open this step", "打开这一步"),
    # --- page 1: words become rows ---
    "words_title": ("Words become rows", "词变成行"),
    "words_intro": (
        "Each token of the sentence is looked up in the pretrained GloVe vectors: one row of {d} numbers per word. "
        "Adding the positional encoding tells the model where each word stands. Three linear layers then multiply "
        "the rows by W_Q, W_K and W_V — and every output matrix still has one row per word.",
        "句中每个词元都在预训练的 GloVe 词向量里查到一行 {d} 个数字。加上位置编码，模型才知道每个词在什么位置。"
        "接着三个线性层把这些行分别乘以 W_Q、W_K、W_V——得到的每个矩阵仍然是一个词占一行。"),
    "tokens": ("Tokens", "词元"),
    "embedding": ("Embedding E (GloVe)", "词向量 E（GloVe）"),
    "positional_m": ("Positional encoding P", "位置编码 P"),
    "x_m": ("Input rows X = E + P", "输入行 X = E + P"),
    "x_m_nopos": ("Input rows X = E (positional encoding off)", "输入行 X = E（未加位置编码）"),
    "weights_m": ("Weights {name} [{d_in} × {d_out}]", "权重 {name} [{d_in} × {d_out}]"),
    "in_dim": ("input dimension", "输入维度"),
    "out_dim": ("output dimension", "输出维度"),
    "q_m": ("Queries Q = X·W_Q", "查询 Q = X·W_Q"),
    "k_m": ("Keys K = X·W_K", "键 K = X·W_K"),
    "v_m": ("Values V = X·W_V", "值 V = X·W_V"),
    "rows_note": ("Row i of Q, K and V comes from row i of X only: the word stays the row label all the way through.",
                  "Q、K、V 的第 i 行只由 X 的第 i 行算出：从头到尾，行名始终是那个词。"),
    "pe_off_note": ("Positional encoding is switched off in the sidebar.", "侧边栏中已关闭位置编码。"),
    # --- page 2: factor matrix ---
    "factor_title": ("The factor matrix Q·Kᵀ", "因子矩阵 Q·Kᵀ"),
    "factor_intro": (
        "Cell (i, j) is the dot product of query word i with key word j: how strongly word i is drawn to word j. "
        "Switch on scaling by √d_k and the softmax along each row; neither changes which row belongs to which word. "
        "Click a cell (or use the selector) to follow one query word.",
        "第 (i, j) 格是查询词 i 与键词 j 的点积：词 i 被词 j 吸引的强度。可打开“除以 √d_k”和“按行 softmax”；"
        "两者都不会改变哪一行属于哪个词。点击格子（或用下拉框）来跟踪一个查询词。"),
    "scaled": ("Divide by √d_k", "除以 √d_k"),
    "softmax": ("Softmax along each row", "按行做 softmax"),
    "factor_m": ("Factor matrix F = Q·Kᵀ", "因子矩阵 F = Q·Kᵀ"),
    "scores_m": ("Scores F / √d_k", "分数 F / √d_k"),
    "weights_m_soft": ("Attention weights softmax(·) — each row sums to 1", "注意力权重 softmax(·)——每行之和为 1"),
    "weights_m_raw": ("Weights (no softmax: the scores themselves)", "权重（未做 softmax：即分数本身）"),
    "z_m": ("Output Z = weights · V", "输出 Z = 权重 · V"),
    "query": ("Query word", "查询词"),
    "key": ("Key word", "键词"),
    "weight": ("weight", "权重"),
    "chosen_weights": ("How much “{q}” attends to each word", "“{q}” 对每个词的注意力"),
    "contrib_title": ("Row “{q}” of Z = Σ weight × value row", "Z 中 “{q}” 这一行 = Σ 权重 × 值向量"),
    "contribution": ("weight × value", "权重 × 值"),
    "z_row": ("Z row", "Z 的该行"),
    "sum_check": ("Check: the contributions add up to row “{q}” of Z (largest difference {diff:.1e}).",
                  "核对：各项贡献之和等于 Z 中 “{q}” 这一行（最大误差 {diff:.1e}）。"),
    "click_hint": ("Click a cell of the heatmap to choose the query word.", "点击热力图中的格子即可选择查询词。"),
    # --- charts ---
    "agree": ("signs agree", "符号相同"),
    "disagree": ("signs differ", "符号相反"),
}


def t(key: str, lang: str = "en", **values) -> str:
    """The string `key` in `lang`, with {placeholders} filled in."""
    text = STRINGS[key][LANGS.index(lang) if lang in LANGS else 0]
    return text.format(**values) if values else text
