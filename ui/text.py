"""Every user-facing string, in English and Simplified Chinese; pages ask for them by key."""
from engine import corpus
from engine.vectors import MESSAGES, VectorsError

LANGS = ("en", "zh")

# Each entry: key -> (English, 简体中文). Sections follow the pages; placeholders use str.format.
STRINGS = {
    # --- shared: app, sidebar, navigation, notices ---
    "app_title": ("Attention, word by word", "注意力机制，逐词看懂"),
    "nav_home": ("Home: the whole story", "首页：全流程一览"),
    "nav_words": ("1 · Words become rows", "1 · 词变成行"),
    "nav_factor": ("2 · The factor matrix", "2 · 因子矩阵 Q·Kᵀ"),
    "nav_dot": ("3 · Why dot products work", "3 · 点积为何能衡量相关性"),
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
    "copy_link": ("Copy link to this view", "复制本视图的链接"),
    "copy_link_help": ("Anyone who opens this link sees exactly this page, sentence and settings. "
                       "Use the copy button at the right of the box.",
                       "任何人打开这个链接，都会看到与你完全相同的页面、句子和设置。点击框右侧的按钮即可复制。"),
    "sentence": ("Sentence", "句子"),
    "target_sentence": ("Target sentence (decoder)", "目标句子（解码器）"),
    "layers": ("Linear layers W_Q, W_K, W_V", "线性层 W_Q、W_K、W_V"),
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
    "url_bool": ("expected true or false", "应为 true 或 false"),
    "url_number": ("expected a number from {lo} to {hi}", "应为 {lo} 到 {hi} 之间的数"),
    "url_whole": ("expected a whole number from {lo} to {hi}", "应为 {lo} 到 {hi} 之间的整数"),
    "url_choice": ("expected one of {options}", "应为以下之一：{options}"),
    "url_long": ("longer than {max} characters", "超过 {max} 个字符"),
    "url_unknown": ("unknown setting", "未知的设置项"),
    "empty_sentence": ("Type a sentence in the sidebar to begin — for example “The ball is blue”.",
                       "请在侧边栏输入一个句子，例如 “The ball is blue”。"),
    "no_known_words": ("None of the words in “{text}” are in the vocabulary, so there is nothing to show. "
                       "Try an English sentence such as “The ball is blue”.",
                       "“{text}” 中没有一个词在词表里，因此无从显示。请试试英文句子，例如 “The ball is blue”。"),
    "missing_words": ("Not in the vocabulary, left out: {items}.", "以下词不在词表中，已略去：{items}。"),
    "missing_item": ("“{word}” (did you mean {suggestions}?)", "“{word}”（是不是想输入 {suggestions}？）"),
    "missing_item_plain": ("“{word}”", "“{word}”"),
    "overflow": ("The numbers grew too large to compute. Lower the layer scale.",
                 "数值过大，无法计算。请调小线性层的缩放倍数。"),
    "download": ("Download {name} as CSV", "下载 {name}（CSV）"),
    "file_embedding": ("embedding", "词向量"),
    "file_positional": ("positional encoding", "位置编码"),
    "file_x": ("input rows X", "输入行X"),
    "file_factor": ("factor matrix", "因子矩阵"),
    "file_weights": ("attention weights", "注意力权重"),
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
    "home_more": ("⑤ Then: why dot products work, relevance, learning, and the three kinds of attention",
                  "⑤ 接下来：点积为何有效、词的相关性、学习权重，以及三种注意力"),
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
    "positional_m": ("Positional encoding, weighted: {p:g} · P", "加权的位置编码：{p:g} · P"),
    "x_m": ("Input rows X = E + weight · P", "输入行 X = E + 权重 · P"),
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
    # --- page 3: why a dot product measures relevance ---
    "dot_title": ("Why a dot product measures relevance", "为什么点积能衡量相关性"),
    "dot_intro": (
        "The score of a query word for a key word is the dot product q·k = Σ q_i × k_i: one product per dimension, "
        "all added up. Where both numbers have the same sign — (+,+) or (−,−) — the product is positive and "
        "**pushes the score up**; where the signs differ it is negative and **pulls the score down**. The bigger the "
        "numbers on both sides, the more that dimension counts. The bars show every dimension's product, the line "
        "their running sum: its last point is the dot product. A second key word sits beside the first to compare.",
        "查询词对键词的得分就是点积 q·k = Σ q_i × k_i：每个维度各乘一次，再全部加起来。两个数同号——(+,+) 或 "
        "(−,−)——乘积为正，**把得分往上推**；异号则乘积为负，**把得分往下拉**。两边的数越大，这个维度的分量越重。"
        "柱子是每个维度的乘积，折线是累计和，折线的最后一点就是点积。右边再放一个键词，方便对比。"),
    "pair_rows": ("Rows to compare", "比较哪种向量"),
    "pair_rows_qk": ("q from Q, k from K (current layers)", "当前层的 Q、K 行"),
    "pair_rows_embedding": ("raw GloVe rows (no layers)", "原始 GloVe 词向量"),
    "sort": ("Order of the dimensions", "维度排列顺序"),
    "sort_dimension": ("by dimension", "按维度编号"),
    "sort_size": ("largest product first", "按乘积大小"),
    "key2": ("Second key word, to compare", "第二个键词（用来对比）"),
    "products_title": ("“{q}” · “{k}”: q_i × k_i per dimension", "“{q}” · “{k}”：逐维乘积 q_i × k_i"),
    "product": ("q_i × k_i", "q_i × k_i"),
    "running": ("running sum", "累计和"),
    "group": ("sign group", "符号组合"),
    "group_++": ("(+,+) both positive", "(+,+) 同为正"),
    "group_--": ("(−,−) both negative", "(−,−) 同为负"),
    "group_+-": ("(+,−) signs differ", "(+,−) 一正一负"),
    "group_-+": ("(−,+) signs differ", "(−,+) 一负一正"),
    "signs_title": ("Signs of q and of both keys, dimension by dimension (blue +, red −)",
                    "q 与两个键词逐维度的正负（蓝为正，红为负）"),
    "vector": ("vector", "向量"),
    "dot_value": ("**q·k = {dot:.4f}**: the same-sign dimensions add {agree:+.4f}, the mixed-sign ones {disagree:+.4f}.",
                  "**q·k = {dot:.4f}**：同号的维度共贡献 {agree:+.4f}，异号的维度共贡献 {disagree:+.4f}。"),
    "dot_pair_value": ("**“{q}” · “{k}”: q·k = {dot:.4f}** — the same-sign dimensions add {agree:+.4f}, the "
                       "mixed-sign ones {disagree:+.4f}.",
                       "**“{q}” · “{k}”：q·k = {dot:.4f}**——同号的维度共贡献 {agree:+.4f}，异号的维度共贡献 {disagree:+.4f}。"),
    "dimensions": ("dimensions", "维数"),
    "group_sum": ("sum of products", "乘积之和"),
    "group_check": ("Check: the four group sums add up to {total:.4f}, the dot product {dot:.4f}.",
                    "核对：四组之和为 {total:.4f}，正好等于点积 {dot:.4f}。"),
    "dot_note": ("q is row “{q}” of Q and k is row “{k}” of K: their dot product is cell (“{q}”, “{k}”) of the factor "
                 "matrix on page 2, before any scaling or softmax.",
                 "q 是 Q 中 “{q}” 那一行，k 是 K 中 “{k}” 那一行：它们的点积就是第 2 页因子矩阵中（“{q}”，“{k}”）"
                 "那一格，尚未缩放、也未做 softmax。"),
    "dot_note_embedding": ("q and k are the GloVe rows of “{q}” and “{k}” themselves, before positional encoding and "
                           "the linear layers.",
                           "q 和 k 就是 “{q}” 与 “{k}” 的 GloVe 词向量本身，尚未加位置编码，也未经过线性层。"),
    "file_products": ("products {q}·{k}", "逐维乘积 {q}·{k}"),
    # --- page 4: relevance between words ---
    "relevance_title": ("Relevance between words", "词与词的相关性"),
    "relevance_intro": (
        "In “The black cat drank the milk” we would like “milk” to be drawn most to “drank” (what happened to it), "
        "less to “cat” (who did it) and hardly at all to “black” (the colour of something else). Three measures "
        "score the query word against every other word: the plain dot product of the GloVe vectors, their cosine "
        "similarity (the dot product after scaling both vectors to length 1), and Q·K from the current linear layers.",
        "在 “The black cat drank the milk” 这句话里，我们希望 “milk” 最关注 “drank”（牛奶被喝了），其次是 “cat”"
        "（是谁喝的），几乎不关注 “black”（那是猫的颜色）。下面用三种方法给查询词和其他每个词打分：GloVe 词向量的"
        "直接点积、余弦相似度（先把两个向量都缩放到长度 1 再做点积），以及当前线性层给出的 Q·K。"),
    "expected": ("Expected order, most relevant first (words separated by “>”)", "期望的顺序，最相关的在前（用 “>” 分隔）"),
    "measure_dot": ("{source} dot product", "{source} 点积"),
    "measure_cosine": ("{source} cosine similarity", "{source} 余弦相似度"),
    "measure_qk": ("Q·K, current layers", "Q·K（当前线性层）"),
    "measure_qk_scaled": ("Q·K / √d_k, current layers", "Q·K / √d_k（当前线性层）"),
    "word": ("word", "词"),
    "score": ("score", "分数"),
    "rank": ("rank", "排名"),
    "relevance_note": ("The two {source} measures use the word vectors alone, so a repeated word scores the same each "
                       "time. Q·K uses the rows after positional encoding and the linear layers, as on page 2.",
                       "两种 {source} 方法只看词向量本身，所以重复出现的词每次得分都一样。Q·K 用的是加上位置编码、再经过线性层"
                       "之后的行，和第 2 页相同。"),
    "ranking": ("Ranking of the other words for “{q}” (1 = most relevant)", "其他各词对 “{q}” 的排名（1 为最相关）"),
    "file_ranking": ("ranking", "排名"),
    "verdict_met": ("{measure}: {order} — the expected order holds ({values}).",
                    "{measure}：{order}——符合期望的顺序（{values}）。"),
    "verdict_missed": ("{measure}: expected {order}, but the scores are {values} — the expected order does not hold.",
                       "{measure}：期望 {order}，但实际分数为 {values}——不符合期望的顺序。"),
    "order_format": ("Write the expected order as two or more words of the sentence separated by “>”, for example "
                     "“drank > cat > black”.",
                     "请把期望的顺序写成句中两个或更多的词，用 “>” 隔开，例如 “drank > cat > black”。"),
    "order_unknown": ("“{word}” is not one of the other words of this sentence, so the expected order cannot be "
                      "checked. Words you can use: {words}.",
                      "“{word}” 不是这句话里的其他词，因此无法检查期望的顺序。可以用的词：{words}。"),
    "order_query": ("“{word}” is the query word itself; the expected order ranks the other words against it.",
                    "“{word}” 就是查询词本身；期望的顺序只给其他词排序。"),
    "order_repeated": ("“{word}” appears more than once in the expected order; name each word once.",
                       "“{word}” 在期望的顺序里出现了不止一次；每个词只写一次。"),
    "order_ambiguous": ("“{word}” occurs more than once in the sentence; write {labels} to say which one.",
                        "“{word}” 在句中出现了不止一次；请写 {labels} 指明是哪一个。"),
    "need_two_words": ("Relevance compares the query word with the other words: give the sentence at least two words "
                       "the vocabulary knows.",
                       "相关性是拿查询词和其他词比较：句子里至少要有两个词表中的词。"),
    "takeaway_title": ("What to take away", "要点"),
    "relevance_takeaway": (
        "Pretrained vectors already carry relevance: words used together point in similar directions, so in the story "
        "sentence raw GloVe puts “drank” first for “milk”. The plain dot product also rewards long vectors, which is how “black” (a "
        "longer vector than “cat”) overtakes “cat”; cosine similarity divides the lengths out and gets the whole "
        "order. The learned W_Q and W_K (the default) were fitted on other sentences, none of them with these words, and "
        "still rank the story's words as the article says: what they learned is about kinds of words — a noun's verb "
        "matters most, another noun's adjective hardly at all. Switch to random weights in the box at the top and the "
        "order is left to chance. The Learning page (5) shows that training as it happens.",
        "预训练的词向量本身就带有相关性：常在一起出现的词，向量方向相近，所以在这句例句里，对 “milk” 来说，原始 GloVe "
        "已经把 “drank” 排在第一。直接点积还会偏向长的向量，向量比 “cat” 更长的 “black” 因此排到了 “cat” 前面；余弦相似度把长度除掉，"
        "整个顺序就都对了。学到的 W_Q 和 W_K（默认）是在其他句子上拟合的，那些句子里一个这些词都没有，却依然把例句中的词"
        "排成文章所说的顺序：它们学到的是词的种类——名词最看重它的动词，几乎不看别的名词的形容词。在顶部的框里换成随机权重，"
        "顺序就全凭运气了。第 5 页“学习权重”展示这个训练过程。"),
    # --- page 5: learning ---
    "learn_title": ("Learning: training the weights until relevant words align", "学习：训练权重，让相关的词彼此对齐"),
    "learn_intro": (
        "Nobody sets W_Q and W_K by hand: a transformer **learns** them. Here you say how relevant some key words "
        "should be to a query word, and training adjusts the weights step by step until the scores fall into that "
        "order. For each query word the targets become shares that sum to 1 (1, 0.5, 0 → ⅔, ⅓, 0); the loss is the "
        "cross-entropy between those shares and the softmax of the query's scores over the same key words, and every "
        "step moves the chosen parameters a little further downhill on it. Press **Train** and watch the loss fall, "
        "the scores reorder and the vectors turn.",
        "W_Q 和 W_K 不是人手设定的，而是 Transformer **学**出来的。在这一页，你先指定几个键词对某个查询词应有多相关，"
        "训练就会一步步调整权重，直到各个分数排成这个顺序。对每个查询词，目标值先换算成总和为 1 的份额"
        "（1、0.5、0 → ⅔、⅓、0）；损失就是这些份额与该查询词在这几个键词上的分数做 softmax 之后的交叉熵，"
        "每一步都让所选参数沿着损失下降的方向再挪一小步。点击**开始训练**，看损失下降、分数重新排序、向量逐渐转向。"),
    "learn_targets_title": ("1 · Target relevances", "1 · 目标相关性"),
    "learn_targets_help": (
        "Each row is one (query word, key word) pair and how relevant the key word should be to the query word: "
        "1 high, 0.5 medium, 0 not relevant. Only the ratios between one query word's rows matter. Add or delete "
        "rows with the table's own controls. Words of this sentence: {words}. A word that occurs twice is written "
        "with its position, like “the (5)”.",
        "每一行是一对（查询词，键词），以及这个键词对查询词应有多相关：1 表示高，0.5 表示中等，0 表示不相关。"
        "只有同一个查询词各行之间的比例才有意义。用表格自带的按钮即可添加或删除行。本句中的词：{words}。"
        "出现两次的词要带上位置，例如 “the (5)”。"),
    "learn_target": ("target", "目标值"),
    "learn_target_help": ("How relevant the key word should be: a number of 0 or more, such as 1, 0.5 or 0.",
                          "键词应有的相关程度：不小于 0 的数，例如 1、0.5 或 0。"),
    "targets_problems": ("The targets cannot be used yet, so training waits:", "目标还不能使用，暂时无法训练："),
    "target_no_query": ("Row {row}: fill in the query word.", "第 {row} 行：请填写查询词。"),
    "target_no_key": ("Row {row}: fill in the key word.", "第 {row} 行：请填写键词。"),
    "target_no_value": ("Row {row}: fill in the target, a number such as 1, 0.5 or 0.",
                        "第 {row} 行：请填写目标值，例如 1、0.5 或 0。"),
    "target_unknown": ("Row {row}: “{word}” is not a word of this sentence. Words you can use: {words}.",
                       "第 {row} 行：“{word}” 不是这句话里的词。可以用的词：{words}。"),
    "target_ambiguous": ("Row {row}: “{word}” occurs more than once in the sentence; write {labels} to say which one.",
                         "第 {row} 行：“{word}” 在句中出现了不止一次；请写 {labels} 指明是哪一个。"),
    "target_not_number": ("Row {row}: the target “{value}” is not a number; use a number such as 1, 0.5 or 0.",
                          "第 {row} 行：目标值 “{value}” 不是数字；请填写 1、0.5、0 这样的数。"),
    "target_negative": ("Row {row}: the target {value} is negative. Targets cannot be negative; use 0 for "
                        "“not relevant”.",
                        "第 {row} 行：目标值 {value} 是负数。目标值不能为负；“不相关”请填 0。"),
    "target_duplicate": ("Row {row} gives the pair “{q}” → “{k}” a second target (row {first} already does); give "
                         "each pair one target.",
                         "第 {row} 行又给 “{q}” → “{k}” 这一对设了目标值（第 {first} 行已经设过）；每一对只能有一个目标值。"),
    "targets_empty": ("Add at least one target: a query word, a key word and a relevance such as 1.",
                      "请至少添加一个目标：一个查询词、一个键词和一个相关性数值，例如 1。"),
    "target_all_zero": ("Every target of “{q}” is 0, so there is nothing for it to attend to; give at least one of "
                        "its key words a target above 0.",
                        "“{q}” 的所有目标值都是 0，它就没有要关注的词了；请至少给它的一个键词设一个大于 0 的目标值。"),
    "learn_how_title": ("2 · What learns, and how fast", "2 · 学习什么、学多快"),
    "learn_what": ("Parameters to learn", "要学习的参数"),
    "learn_w_q": ("W_Q", "W_Q"),
    "learn_w_k": ("W_K", "W_K"),
    "learn_w_v": ("W_V", "W_V"),
    "learn_x": ("word vectors of the sentence", "句中各词的词向量"),
    "learn_lr": ("Learning rate", "学习率"),
    "learn_steps": ("Steps", "训练步数"),
    "learn_seed": ("Starting seed", "初始随机种子"),
    "learn_wv_note": (
        "W_V is never used to compute the scores or the attention weights: it only shapes what each word passes on "
        "once attention is decided. So this loss gives W_V a gradient of exactly 0, and asking to learn it leaves it "
        "unchanged.",
        "W_V 并不参与计算分数和注意力权重：它只决定注意力分配好之后，每个词传递出去的内容。因此这个损失对 W_V "
        "的梯度恰好为 0，即使选了学习 W_V，它也不会有任何变化。"),
    "learn_unknown_param": ("The link asks to learn {names}, which is not one of the parameters here; it is ignored.",
                            "链接里要求学习 {names}，但这不是这里可选的参数，已忽略。"),
    "learn_choose": ("Choose at least one parameter to learn.", "请至少选择一个要学习的参数。"),
    "learn_start_missed": ("Before training, the target order does not hold: {order}. "
                           "Press **Train** to learn weights that put it right.",
                           "训练之前，目标顺序并不成立：{order}。点击**开始训练**，学出能把顺序排对的权重。"),
    "learn_start_held": ("Before training, the target order already holds: "
                         "{order}. Training pulls the scores towards the target shares.",
                         "训练之前，目标顺序已经成立：{order}。训练会把各个分数拉向目标份额。"),
    "learn_train": ("Train", "开始训练"),
    "learn_stop": ("Stop", "停止"),
    "learn_progress": ("Step {step} of {total} · loss {loss:.4f}", "第 {step} / {total} 步 · 损失 {loss:.4f}"),
    "learn_live_title": ("Loss so far", "目前的损失"),
    "learn_not_trained": ("Press **Train** to start; the results appear here.", "点击**开始训练**，训练结果会显示在这里。"),
    "learn_kept_result": ("Below is still the last training run.", "下面显示的仍是上一次训练的结果。"),
    "learn_overflow": ("The numbers grew too large to compute. Lower the learning rate.",
                       "数值过大，无法计算。请调低学习率。"),
    "learn_results_title": ("3 · What training did", "3 · 训练的结果"),
    "learn_stale": ("These results are from the last run ({steps} steps, learning rate {lr:g}, seed {seed}); settings "
                    "have changed since. Press **Train** to train with the current ones.",
                    "以下是上一次训练的结果（{steps} 步，学习率 {lr:g}，随机种子 {seed}）；之后设置已有改动。"
                    "点击**开始训练**即可按当前设置重新训练。"),
    "learn_stopped": ("Training was stopped at step {step} of {total}; everything below shows the steps up to there.",
                      "训练在第 {step} 步（共 {total} 步）时被停止；下面显示的是截至该步的结果。"),
    "learn_verdict_reached": ("**The target order was reached at step {step}** and held {until}: {order}.",
                              "**在第 {step} 步达到了目标顺序**，并一直保持{until}：{order}。"),
    "learn_verdict_start": ("**The target order already held at the start** and stayed so {until}: {order}.",
                            "**一开始就已经符合目标顺序**，并一直保持{until}：{order}。"),
    "learn_verdict_missed": ("**The target order was not reached** by step {end}: {order}. Try more steps, a larger "
                             "learning rate or another seed.",
                             "**到第 {end} 步仍未达到目标顺序**：{order}。可以试试增加步数、调大学习率或换一个随机种子。"),
    "learn_until_end": ("until the end of training (step {end})", "到训练结束（第 {end} 步）"),
    "learn_until_stop": ("until training was stopped (step {end})", "到训练被停止时（第 {end} 步）"),
    "learn_order_row": ("for “{q}”, {keys}", "对 “{q}” 而言，{keys}"),
    "learn_loss_title": ("Loss (cross-entropy)", "损失（交叉熵）"),
    "learn_loss": ("loss", "损失"),
    "learn_step": ("step", "步数"),
    "learn_score": ("score q·k/√d_k", "分数 q·k/√d_k"),
    "learn_scores_title": ("Score of each target pair", "各目标词对的分数"),
    "learn_weights_title": ("Attention weight of each pair", "各词对的注意力权重"),
    "learn_cosine_title": ("Cosine of the angle between q and k", "q 与 k 夹角的余弦"),
    "learn_cosine": ("cosine", "余弦"),
    "learn_pair": ("pair", "词对"),
    "learn_order_marker": ("target order reached", "达到目标顺序"),
    "learn_goal_share": ("target share", "目标份额"),
    "learn_goal_share_help": ("The targets of one query word scaled to sum to 1: what training aims for.",
                              "同一个查询词的各目标值按比例换算成总和为 1 的份额：这就是训练要逼近的值。"),
    "learn_share": ("share reached", "实际份额"),
    "learn_share_help": ("Softmax of the query's scores over its target key words only: what the loss compares with "
                         "the target share.",
                         "只在该查询词的几个目标键词上对分数做 softmax 得到的份额：损失就是拿它和目标份额比较。"),
    "learn_weight_help": ("Attention weight over the whole sentence: the share the pair gets when every word competes.",
                          "对整句做 softmax 得到的注意力权重：所有词一起竞争时，这一对分到的比例。"),
    "learn_score_start": ("score at start", "初始分数"),
    "learn_score_end": ("score at end", "最终分数"),
    "file_learning": ("training steps", "训练过程"),
    "learn_align_title": ("4 · The dot products, dimension by dimension, before and after",
                          "4 · 训练前后，逐维度看点积"),
    "learn_align_intro": (
        "The bars of page 3 for the query vector q of “{q}” against the key vectors k of {keys}, at the start (left) "
        "and at the end of training (right). Training tends to turn the dimensions of the most relevant pair to "
        "matching signs (blue) and those of the least relevant pair to opposite signs (red), and to make the products "
        "bigger — mind the vertical axes.",
        "这是第 3 页的逐维乘积图：“{q}” 的查询向量 q 分别与 {keys} 的键向量 k 相乘，左边是训练开始时，右边是训练结束时。"
        "训练往往会让最相关那一对的各维度变成同号（蓝色），让最不相关那一对变成异号（红色），乘积也随之变大——"
        "请留意纵轴的刻度。"),
    "learn_before": ("Start (step 0): “{q}” · “{k}”", "训练开始（第 0 步）：“{q}” · “{k}”"),
    "learn_after": ("After step {step}: “{q}” · “{k}”", "第 {step} 步之后：“{q}” · “{k}”"),
    "learn_plane_title": ("5 · Watching the vectors turn", "5 · 看向量如何转动"),
    "learn_plane_intro": (
        "Every query vector q and key vector k, drawn as an arrow from the origin in one flat view. The bold arrows "
        "are q of “{q}” and k of {keys}; the dashed trails are their paths through training. Drag the slider under "
        "the chart through the snapshots and watch q of “{q}” turn towards the keys it should attend to. On the "
        "right, the same turning measured in all {d_k} dimensions: the cosine of the angle between q and each k "
        "(1 = same direction, 0 = at right angles, −1 = opposite).",
        "每个查询向量 q 和键向量 k 都画成从原点出发的箭头，放在同一个平面视图里。粗箭头是 “{q}” 的 q 和 {keys} 的 k；"
        "虚线是它们在训练过程中走过的路径。拖动图下方的滑块在各个快照之间切换，看 “{q}” 的 q 如何转向它应该关注的键向量。"
        "右图在全部 {d_k} 个维度中衡量同样的转动：q 与各个 k 夹角的余弦（1 表示方向相同，0 表示互相垂直，−1 表示方向相反）。"),
    "learn_plane_chart": ("Q and K vectors in one fixed 2-D view", "Q、K 向量在同一个固定的二维视图中"),
    "learn_axis": ("axis {n}", "轴 {n}"),
    "learn_role": ("vector", "向量"),
    "learn_role_q": ("query q", "查询 q"),
    "learn_role_k": ("key k", "键 k"),
    "learn_slider": ("training snapshot (0–{m}) ", "训练快照（0–{m}） "),
    "learn_plane_note": (
        "The view is the plane through the origin that fits the vectors of all snapshots best (PCA by SVD), fitted "
        "once so that every snapshot uses the same axes; it keeps {kept:.0%} of their squared length. Scores use all "
        "{d_k} dimensions, so the flat picture shows the direction of change, not the exact numbers.",
        "这个视图是穿过原点、与所有快照中的向量最贴合的平面（用奇异值分解做主成分分析），只拟合一次，因此每个快照都使用"
        "同一组坐标轴；它保留了向量平方长度的 {kept:.0%}。分数用的是全部 {d_k} 个维度，所以这张平面图反映的是变化的方向，"
        "而不是精确的数值。"),
    # --- page 6: three kinds of attention ---
    "kinds_title": ("Three kinds of attention", "三种注意力"),
    "kinds_intro": (
        "A translation transformer uses the same attention in three places. The **encoder** lets every source word "
        "look at every source word. The **decoder** lets every target word look at the target words before it. "
        "**Encoder–decoder attention** lets every target word look at the source sentence. The computation is the "
        "one from the factor-matrix page each time; what changes is where the rows of Q, K and V come from.",
        "翻译用的 Transformer 在三个地方用到同一种注意力：**编码器**里，每个源语言词去看所有源语言词；"
        "**解码器**里，每个目标语言词只看它前面的目标词；**编码器–解码器注意力**里，每个目标词去看整句源语言。"
        "三处的计算都和“因子矩阵”那一页完全相同，不同的只是 Q、K、V 的行从哪里来。"),
    "kinds_source": ("**Source sentence** (encoder; edit it in the sidebar): {text}",
                     "**源句子**（编码器；在侧边栏修改）：{text}"),
    "empty_target": ("Type a target sentence above — for example “La bola es azul”.",
                     "请在上方输入目标句子，例如 “La bola es azul”。"),
    "need_source": ("This attention needs source rows: give the sidebar sentence at least one known word.",
                    "这种注意力需要源句子的行：请让侧边栏里的句子至少包含一个词表中的词。"),
    "need_target": ("This attention needs target rows: give the target sentence at least one known word.",
                    "这种注意力需要目标句子的行：请让目标句子至少包含一个词表中的词。"),
    "heads": ("Heads", "头数"),
    "heads_help": ("Each head gets d_k ÷ heads of the columns of Q, K and V; only divisors of d_k = {d_k} split evenly.",
                   "每个头分到 Q、K、V 的 d_k ÷ 头数 列；只有 d_k = {d_k} 的因数才能均分。"),
    "heads_fallback": ("{h} heads cannot split d_k = {d_k} columns evenly, so the page went back to 1 head. "
                       "Choose one of the numbers offered.",
                       "{h} 个头无法均分 d_k = {d_k} 列，因此已改回 1 个头。请从下拉框给出的数字中选择。"),
    "tab_enc": ("Encoder self-attention", "编码器自注意力"),
    "tab_dec": ("Decoder self-attention", "解码器自注意力"),
    "tab_cross": ("Encoder–decoder attention", "编码器–解码器注意力"),
    "enc_intro": ("Q, K and V all come from the **source** rows: each source word looks at every source word, "
                  "itself and the words after it included.",
                  "Q、K、V 全部来自**源句子**的行：每个源语言词都会看所有源语言词，包括它自己和它后面的词。"),
    "dec_intro": ("Q, K and V all come from the **target** rows. A decoder writes the translation left to right, so "
                  "the later words do not exist yet: with the causal mask each target word sees only itself and the "
                  "words before it. Masked cells are grey and labelled “masked”; their weight is exactly 0.",
                  "Q、K、V 全部来自**目标句子**的行。解码器从左到右逐词生成译文，生成某个词时后面的词还不存在；"
                  "因此加上因果掩码后，每个目标词只能看到它自己和它前面的词。被遮住的格子显示为灰色并标注“遮住”，"
                  "其权重恰好为 0。"),
    "causal": ("Causal mask: each word sees only itself and earlier words",
               "因果掩码：每个词只看自己和前面的词"),
    "mask_hides": ("The mask hides {later} from “{q}”. Without it, “{q}” would put {p:.0%} of its attention on them.",
                   "掩码把 {later} 对 “{q}” 遮住了。如果不加掩码，“{q}” 会把 {p:.0%} 的注意力放在这些词上。"),
    "mask_hides_raw": ("The mask hides {later} from “{q}”: their weights are set to 0.",
                       "掩码把 {later} 对 “{q}” 遮住了：它们的权重被置为 0。"),
    "mask_off": ("Mask off: “{q}” now puts {p:.0%} of its attention on {later} — words a decoder writing left to "
                 "right has not produced yet. Switch the mask on to hide them.",
                 "掩码已关闭：“{q}” 现在把 {p:.0%} 的注意力放在 {later} 上——而从左到右生成的解码器此时还没写出这些词。"
                 "打开掩码即可把它们遮住。"),
    "mask_off_raw": ("Mask off: “{q}” now also scores {later} — words a decoder writing left to right has not "
                     "produced yet. Switch the mask on to hide them.",
                     "掩码已关闭：“{q}” 现在也给 {later} 打了分——而从左到右生成的解码器此时还没写出这些词。打开掩码即可把它们遮住。"),
    "mask_last": ("“{q}” is the last target word, so it sees every word with or without the mask; "
                  "pick an earlier word to see what the mask hides.",
                  "“{q}” 是目标句子的最后一个词，有没有掩码它都能看到所有词；选一个更靠前的词，就能看出掩码遮住了什么。"),
    "cross_intro": ("Queries come from the **target** rows; keys and values come from the **source** rows (in a full "
                    "transformer, the encoder's output). The factor matrix is [target words × source words], and Z "
                    "has one row per target word: each target word gathers what it needs from the source sentence.",
                    "查询来自**目标句子**的行，键和值来自**源句子**的行（在完整的 Transformer 中是编码器的输出）。"
                    "因子矩阵的形状是 [目标词 × 源词]，Z 每个目标词占一行：每个目标词从源句子中取回自己需要的信息。"),
    "glove_note": (
        "**About the Spanish words.** GloVe 6B was trained on English text (Wikipedia and Gigaword news), yet it has "
        "vectors for “la”, “bola”, “es” and “azul”, because those strings do turn up in English text: in names, "
        "places, quotations and sports news. Each vector therefore describes how the string is used in mostly "
        "English text, not what it means in Spanish. Its nearest neighbours show this: “la” and “es” sit among "
        "Spanish function words (de, del, que, por), “bola” among Nigerian names (Bola Tinubu), and “azul” among "
        "Mexican football clubs (Pachuca, Necaxa, Toluca, as in Cruz Azul). In GloVe the cosine similarity of “bola” "
        "and “ball” is {bola:.2f}, of “azul” and “blue” {azul:.2f}: nothing here lines the translations up. A real "
        "translation model learns its own target embeddings, together with W_Q, W_K and W_V, so that a target "
        "word's query finds the source word it translates.",
        "**关于这几个西班牙语词。** GloVe 6B 是用英文语料（维基百科和 Gigaword 新闻）训练的，却也有 “la”、“bola”、"
        "“es”、“azul” 的向量——因为这些字符串确实会出现在英文文本里：人名、地名、引语、体育新闻。所以这些向量反映的是"
        "它们在以英文为主的文本中怎么被使用，而不是它们在西班牙语里的意思。看看最近邻就知道：“la” 和 “es” 周围是西班牙语"
        "虚词（de、del、que、por），“bola” 周围是尼日利亚人名（如政治人物博拉·提努布），“azul” 周围则是墨西哥足球俱乐部"
        "（帕丘卡、内卡萨、托卢卡——它来自球队名“蓝十字”）。在 GloVe 中，“bola” 与 “ball” 的余弦相似度为 {bola:.2f}，“azul” 与 “blue” 为 "
        "{azul:.2f}：这里没有任何东西让译词彼此对齐。真正的翻译模型会学习自己的目标语言词向量，并连同 W_Q、W_K、W_V 一起训练，"
        "让目标词的查询能找到它所对应的源词。"),
    "neighbours_title": ("What these vectors know about the target words", "这组词向量对目标词知道些什么"),
    "neighbours_word": ("target word", "目标词"),
    "neighbours_near": ("nearest neighbours (cosine)", "最近邻（余弦相似度）"),
    "neighbours_source": ("most similar source word", "最相似的源词"),
    "neighbours_cosine": ("cosine", "余弦相似度"),
    "neighbours_first": ("Showing the first {n} target words.", "仅显示前 {n} 个目标词。"),
    "heads_title": ("Multiple heads", "多头注意力"),
    "heads_intro": ("With {h} heads, Q, K and V are cut into {h} slices of {d} columns. Each head runs the same "
                    "attention on its own slice, so each can look at different words; their outputs are then put "
                    "side by side to make Z.",
                    "用 {h} 个头时，Q、K、V 被切成 {h} 份，每份 {d} 列。每个头在自己那一份上做同样的注意力计算，"
                    "因此各自可以关注不同的词；最后把各头的输出并排拼起来，得到 Z。"),
    "heads_one": ("One head uses all {d} columns. Choose more heads at the top of the page to split them.",
                  "一个头使用全部 {d} 列。在页面顶部选择更多的头，即可把这些列分开。"),
    "head_m": ("Head {h} · columns {lo}–{hi}", "第 {h} 个头 · 第 {lo}–{hi} 列"),
    "z_heads_m": ("Z = the {h} heads' outputs side by side ({d} columns each)", "Z = {h} 个头的输出并排拼接（每个 {d} 列）"),
    "focus_same": ("For “{q}”, all {n} heads weight “{k}” most, but not equally: from {lo:.2f} (head {h_lo}) "
                   "to {hi:.2f} (head {h_hi}).",
                   "对 “{q}” 来说，{n} 个头都最看重 “{k}”，但程度不同：从 {lo:.2f}（第 {h_lo} 个头）到 {hi:.2f}"
                   "（第 {h_hi} 个头）。"),
    "focus_differ": ("For “{q}”, the heads look at different words: {items}.", "对 “{q}” 来说，各个头关注的词不同：{items}。"),
    "focus_one": ("head {heads} weights “{k}” most ({w})", "第 {heads} 个头最看重 “{k}”（{w}）"),
    "focus_many": ("heads {heads} weight “{k}” most ({w})", "第 {heads} 个头最看重 “{k}”（{w}）"),
    "masked_cell": ("masked", "遮住"),
    "list_sep": (", ", "、"),
    "item_sep": ("; ", "；"),
    "file_encoder-factor": ("encoder factor matrix", "编码器因子矩阵"),
    "file_encoder-weights": ("encoder attention weights", "编码器注意力权重"),
    "file_encoder-Z": ("encoder Z", "编码器输出Z"),
    "file_encoder-head-weights": ("encoder weights per head", "编码器各头注意力权重"),
    "file_encoder-Z-heads": ("encoder Z from heads", "编码器多头输出Z"),
    "file_decoder-factor": ("decoder factor matrix", "解码器因子矩阵"),
    "file_decoder-weights": ("decoder attention weights", "解码器注意力权重"),
    "file_decoder-Z": ("decoder Z", "解码器输出Z"),
    "file_decoder-head-weights": ("decoder weights per head", "解码器各头注意力权重"),
    "file_decoder-Z-heads": ("decoder Z from heads", "解码器多头输出Z"),
    "file_cross-factor": ("encoder-decoder factor matrix", "编码器–解码器因子矩阵"),
    "file_cross-weights": ("encoder-decoder attention weights", "编码器–解码器注意力权重"),
    "file_cross-Z": ("encoder-decoder Z", "编码器–解码器输出Z"),
    "file_cross-head-weights": ("encoder-decoder weights per head", "编码器–解码器各头注意力权重"),
    "file_cross-Z-heads": ("encoder-decoder Z from heads", "编码器–解码器多头输出Z"),
    # --- page 5: where training starts, directions only ---
    "learn_start": ("Start from", "起点"),
    "learn_start_sidebar": ("the weights in use (banner above)", "当前使用的权重（见上方说明）"),
    "learn_start_random": ("random weights (starting seed)", "随机权重（初始随机种子）"),
    "learn_start_note_sidebar": (
        "Training starts from the W_Q and W_K in use on every page (the banner above says which), with d_k and the "
        "position weight from the sidebar. Each step is one update of the Adam optimiser; a smaller learning rate, "
        "such as 0.001, makes the change slower and easier to follow.",
        "训练从各页正在使用的 W_Q 和 W_K 出发（上方的说明写明是哪一种），d_k 和位置权重沿用侧边栏的设置。"
        "每一步就是优化器的一次更新；把学习率调小（例如 0.001），变化会慢一些，更容易看清。"),
    "learn_start_note_random": (
        "W_Q and W_K start as random [{d} × {d_k}] matrices drawn from the starting seed; d_k and the position weight "
        "come from the sidebar. Each step is one update of the Adam optimiser; a smaller learning rate, such as 0.001, "
        "makes the change slower and easier to follow.",
        "W_Q 和 W_K 的初始值是由初始随机种子生成的 [{d} × {d_k}] 随机矩阵；d_k 和位置权重沿用侧边栏的设置。"
        "每一步就是优化器的一次更新；把学习率调小（例如 0.001），变化会慢一些，更容易看清。"),
    "learn_start_title_sidebar": ("Where training starts (the weights in use): “{q}” with each word",
                                  "训练的起点（当前使用的权重）：“{q}” 与各词"),
    "learn_start_title_random": ("Where training starts (seed {seed}): “{q}” with each word",
                                 "训练的起点（随机种子 {seed}）：“{q}” 与各词"),
    "learn_cosine": ("Compare directions only (τ·cos θ)", "只比较方向（τ·cos θ）"),
    "learn_cosine_help": (
        "Scores become τ·cos θ with a fixed temperature τ = 10: q and k are scaled to length 1 first, so training "
        "can only reach the order by turning the vectors into alignment, never by making a key longer.",
        "分数改为 τ·cos θ，温度 τ 固定为 10：先把 q 和 k 缩放到长度 1，训练只能靠把向量转到对齐来排好顺序，"
        "而不能靠把某个键变长。"),
    # --- page 5: learning on a corpus ---
    "corpus_title": ("6 · Learning from a whole corpus", "6 · 用整个语料库学习"),
    "corpus_intro": (
        "One sentence is too easy: three numbers can always be fitted. A transformer learns from many sentences, and "
        "what it learns must hold on sentences it never saw. Here W_Q and W_K are fitted on the training sentences "
        "of a corpus (each with a query word and graded relevances of its other words), and checked after every step "
        "on held-out sentences none of whose nouns, verbs or adjectives occur in training. Accuracy is the share of "
        "labelled word pairs (a more relevant than b) whose scores come out in that order.",
        "只用一句话太容易了：三个数总能拟合出来。Transformer 是从许多句子里学习的，而且学到的东西必须在没见过的句子上"
        "也成立。这里用语料库中的训练句子（每句有一个查询词，以及其他各词分级的相关性）拟合 W_Q 和 W_K，每一步之后"
        "都在留出句子上检验——这些句子里的名词、动词和形容词在训练中都没有出现过。准确率是已标注词对（a 比 b 更相关）"
        "中分数顺序正确的比例。"),
    "corpus_which": ("Corpus", "语料库"),
    "corpus_built_in": ("built-in (English)", "内置（英文）"),
    "corpus_upload": ("Your corpus (CSV)", "你的语料库（CSV）"),
    "corpus_format": (
        "Columns sentence,query,targets,split. targets: word=relevance pairs separated by ';' (relevances 0 to 1, "
        "at least 3 other words of the sentence); split: train or test. Lines starting with # are comments.",
        "列为 sentence,query,targets,split。targets：用 “;” 分隔的 词=相关性（相关性在 0 到 1 之间，至少给句中 3 个"
        "其他词）；split：train 或 test。以 # 开头的行是注释。"),
    "corpus_bad": ("That corpus could not be used: {error}", "该语料库无法使用：{error}"),
    "corpus_loaded": ("Using {name}: {n} examples.", "正在使用 {name}：{n} 条样例。"),
    "corpus_upload_none": ("No corpus uploaded yet — the built-in corpus is used until you upload one.",
                           "尚未上传语料库——在你上传之前，使用内置语料库。"),
    "corpus_note": ("The fit uses d_k = {d_k} and position weight {p:g} from the sidebar, full-batch Adam on the mean "
                    "cross-entropy over every training example, with a small pull of the weights towards 0.",
                    "拟合沿用侧边栏的 d_k = {d_k} 和位置权重 {p:g}，用优化器对所有训练样例的平均交叉熵做全批量优化，"
                    "并把权重轻轻拉向 0。"),
    "corpus_train": ("Train on the corpus", "在语料库上训练"),
    "corpus_progress": ("Step {step} of {total} · loss {loss:.3f} · train {train:.0%} · held-out {test:.0%}",
                        "第 {step} / {total} 步 · 损失 {loss:.3f} · 训练 {train:.0%} · 留出 {test:.0%}"),
    "corpus_done": (
        "After {steps} steps: {train:.0%} of the training pairs and **{test:.0%} of the held-out pairs** are in the "
        "labelled order. Raw cosine similarity of the word vectors gets {raw:.0%} of the held-out pairs. "
        "({used} examples used; {skipped} left out because the vectors lack one of their words.)",
        "训练 {steps} 步后：训练词对中 {train:.0%}、**留出词对中 {test:.0%}** 的顺序正确。直接用词向量的余弦相似度，"
        "留出词对只有 {raw:.0%} 正确。（使用了 {used} 条样例；{skipped} 条因词向量缺少其中的词而略去。）"),
    "corpus_accuracy_title": ("Order accuracy, training and held-out", "顺序准确率：训练与留出"),
    "corpus_accuracy": ("accuracy", "准确率"),
    "corpus_split": ("sentences", "句子"),
    "corpus_train_split": ("training", "训练"),
    "corpus_test_split": ("held-out", "留出"),
    "corpus_try_title": ("Try the learned weights on any sentence", "用学到的权重试试任意句子"),
    "corpus_try_sentence": ("Sentence", "句子"),
    "corpus_try_chart": ("Attention weights of “{q}” with these W_Q and W_K", "用这组 W_Q 和 W_K 时 “{q}” 的注意力权重"),
    "corpus_use": ("Use these weights on every page", "在所有页面使用这组权重"),
    "corpus_in_use": ("These weights are in use on every page, and the link to this view carries their recipe: "
                      "anyone who opens it gets the same weights.",
                      "所有页面正在使用这组权重，本视图的链接也带上了它们的训练配方：任何人打开都会得到同样的权重。"),
    "corpus_share_upload": ("Weights fitted on an uploaded corpus stay on this page: a link cannot carry your file.",
                            "用上传的语料库拟合的权重只留在本页：链接无法携带你的文件。"),
    # --- weights: where W_Q and W_K came from ---
    "fitting": ("Learning W_Q and W_K from the built-in corpus ({n} sentences)…", "正在用内置语料（{n} 句）学习 W_Q 和 W_K……"),
    "weights_trained": (
        "**W_Q and W_K were learned** from the built-in corpus: {train} training sentences. On {test} held-out "
        "sentences, none of whose words were seen in training, they rank {acc:.0%} of the labelled word pairs in "
        "the right order.",
        "**W_Q 和 W_K 是学出来的**：用内置语料中的 {train} 句训练。在 {test} 句留出句子上（其中的词训练时一个都没见过），"
        "它们把 {acc:.0%} 的已标注词对排对了顺序。"),
    "weights_run": (
        "**W_Q and W_K come from your training run** on the built-in corpus ({steps} steps, learning rate {lr:g}, "
        "seed {seed}): {acc:.0%} of the held-out word pairs in the right order.",
        "**W_Q 和 W_K 来自你自己的训练**（内置语料，{steps} 步，学习率 {lr:g}，种子 {seed}）：留出句子中 {acc:.0%} "
        "的词对顺序正确。"),
    "weights_random": (
        "**W_Q and W_K are random** (seeds {q} and {k}): nothing was learned, so which word attends to which is "
        "chance.",
        "**W_Q 和 W_K 是随机的**（种子 {q} 和 {k}）：什么都没学，所以哪个词关注哪个词全凭运气。"),
    "weights_identity": ("**W_Q and W_K are identity matrices**: Q and K are the input rows themselves.",
                         "**W_Q 和 W_K 是单位矩阵**：Q 和 K 就是输入行本身。"),
    "weights_identity_cut": (
        "**W_Q and W_K are identity matrices** cut to d_k = {d_k} columns: Q and K keep only the first {d_k} of the "
        "{d} dimensions of each input row. Set d_k = {d} to keep them all.",
        "**W_Q 和 W_K 是截成 d_k = {d_k} 列的单位矩阵**：Q 和 K 只保留每个输入行 {d} 维中的前 {d_k} 维。"
        "把 d_k 设为 {d} 即可全部保留。"),
    "weights_other": ("**W_Q and W_K: {name}**, not learned.", "**W_Q 和 W_K：{name}**，不是学出来的。"),
    "weights_mixed": ("**W_Q: {q}; W_K: {k}.**", "**W_Q：{q}；W_K：{k}。**"),
    "trained_unavailable": (
        "These vectors know none of the built-in corpus's training sentences word for word, so no weights can be "
        "learned from it: random weights are shown instead.",
        "这组词向量不认识内置语料中任何一句训练句子的全部词，因此无法从中学习权重：现改用随机权重。"),
    "weights_switch": ("Weights W_Q and W_K", "权重 W_Q 和 W_K"),
    "choice_trained": ("learned from corpus", "从语料学到的"),
    "choice_random": ("random", "随机"),
    "choice_identity": ("identity", "单位矩阵"),
    "choice_run": ("your training run", "你的训练结果"),
    "preset_trained": ("learned from the built-in corpus", "从内置语料学到的"),
    "preset_run": ("your training run (page 5)", "你的训练结果（第 5 页）"),
    "source_sentence": ("Source sentence (encoder)", "源句子（编码器）"),
    # --- position weight and row lengths ---
    "position": ("Position weight (0 = no positional encoding)", "位置编码的权重（0 = 不加位置编码）"),
    "position_help": (
        "X = E + weight · P. At 1, each positional row is about as long as a GloVe row and blurs the words' meaning; "
        "the default 0.3 keeps the position a small nudge the layers can still use to tell word order apart. "
        "The learned weights are fitted with the same setting.",
        "X = E + 权重 · P。权重为 1 时，每个位置编码行与 GloVe 行差不多长，会冲淡词义；默认值 0.3 让位置只是轻轻一推，"
        "线性层仍能用它分辨词序。学到的权重也是在同一设置下拟合的。"),
    "lengths_title": ("How long is each word's row, and how long its position?", "每个词的行有多长？位置编码又有多长？"),
    "length_word": ("GloVe row |E|", "GloVe 行 |E|"),
    "length_position": ("positional row |weight · P|", "位置行 |权重 · P|"),
    "length": ("length", "长度"),
    "part": ("row", "行"),
    "lengths_note": (
        "At position weight {p:g}, the GloVe rows are {word:.2f} long on average and the positional rows {pos:.2f}: "
        "the position is {ratio:.0%} as long as the word.",
        "位置权重为 {p:g} 时，GloVe 行平均长 {word:.2f}，位置行长 {pos:.2f}：位置的长度是词的 {ratio:.0%}。"),
    "lengths_off": ("Without positional encoding, X is the words alone: the layers cannot tell “cat drank milk” from "
                    "“milk drank cat”.",
                    "不加位置编码时，X 只有词本身：线性层分不清 “cat drank milk” 和 “milk drank cat”。"),
    "lengths_small": ("So the word's meaning dominates each row of X and the position is a nudge: enough for the "
                      "layers to use word order, not enough to drown what the word means.",
                      "因此 X 的每一行以词义为主，位置只是轻轻一推：足以让线性层利用词序，又不至于淹没词义。"),
    "lengths_comparable": ("So position is about as loud as meaning in X: the same word in two places can look less "
                           "alike than two different words in one place.",
                           "因此在 X 中位置和词义差不多响：同一个词放在两个位置，可能还没有同一位置上的两个不同词相像。"),
    "lengths_dominant": ("So position drowns meaning in X: rows differ mostly by where the word stands, not by what it "
                         "is.",
                         "因此在 X 中位置淹没了词义：各行的差别主要来自词的位置，而不是词本身。"),
    # --- length and angle ---
    "la_title": ("Length or angle? q·k = |q|·|k|·cos θ for “{q}”", "长度还是角度？“{q}” 的 q·k = |q|·|k|·cos θ"),
    "la_rank": ("rank by {by}", "按 {by} 的排名"),
    "la_angle": ("**The angle decides.** cos θ alone ranks the keys {order}, just as q·k does; the key lengths |k| "
                 "do not change the order. The query's length |q| is the same for every key, so it never does.",
                 "**角度决定顺序。** 单看 cos θ，键词的顺序就是 {order}，与 q·k 相同；键的长度 |k| 没有改变顺序。"
                 "查询的长度 |q| 对每个键都一样，所以它从不改变顺序。"),
    "la_length": ("**Length decides.** By angle alone the order would be {cos_order}, but q·k ranks {order}: the "
                  "longer keys win. The vectors did not align better; they grew.",
                  "**长度决定顺序。** 单看角度，顺序应是 {cos_order}；但 q·k 的顺序是 {order}：更长的键赢了。"
                  "向量并没有对得更齐，只是变长了。"),
    "la_both": ("**Both matter.** By angle alone the order would be {cos_order}, by key length alone {len_order}; "
                "their product |k|·cos θ gives q·k's order {order}.",
                "**两者都起作用。** 单看角度，顺序是 {cos_order}；单看键的长度，顺序是 {len_order}；"
                "两者的乘积 |k|·cos θ 给出 q·k 的顺序 {order}。"),
    "la_tie": ("With fewer than two different scores there is no order to explain.", "不同的分数少于两个，没有顺序可解释。"),
    "short_glove": ("GloVe", "GloVe"),
    "short_glove50k": ("GloVe", "GloVe"),
    "short_upload": ("your vectors'", "你上传的词向量"),
    "short_glove-wiki-gigaword-100": ("GloVe 100d", "GloVe 100维"),
    "short_glove-wiki-gigaword-300": ("GloVe 300d", "GloVe 300维"),
}

# The engine's messages for problems a person caused, with their Chinese.
ZH_ERRORS = {
    "too_many_tokens": "这个句子有 {count} 个词元，本工具最多显示 {max} 个。请缩短句子。",
    "offline": "“{name}”需要从互联网下载，而本服务器无法联网。请使用内置的 GloVe 词向量，或上传你自己的。",
    "not_utf8": "第 {line} 行不是 UTF-8 文本（字节 {byte}）。请上传 word2vec 或 GloVe 文本文件；pickle 等二进制文件一律不会被打开。",
    "empty": "文件是空的。请上传形如 “word 0.1 -0.2 ...” 的行。",
    "nul": "第 {line} 行含有 NUL 字节，看起来不是文本格式的词向量文件。",
    "no_numbers": "第 {line} 行只有词（“{word}”），没有数值。",
    "not_number": "第 {line} 行：“{value}” 不是数字。",
    "mixed_dims": "第 {line} 行有 {n} 个数值，而前面各行有 {d} 个；所有向量的维数必须相同。",
    "not_finite": "第 {line} 行（“{word}”）含有 NaN 或无穷大；所有数值都必须是有限的。",
    "header_only": "文件只有表头一行，没有向量。请加上形如 “word 0.1 -0.2 ...” 的行。",
    "header_lies": "表头声称有 {words} 个词、{dims} 维，但文件里实际是 {n} 个词、{d} 维。",
    "duplicate": "词 “{word}” 出现了不止一次；每个词只能有一个向量。",
    "too_big": "文件大小为 {size}，超过了上限 {limit}。",
    "not_npy": "矩阵文件不是 .npy 格式（开头应当是 .npy 文件头）；请用 numpy.save 保存。",
    "npy_unreadable": "无法把这个 .npy 文件读成普通数值数组（{reason}）。",
    "words_not_utf8": "词表不是 UTF-8 文本；请每行写一个词。",
    "npy_shape": "这个 .npy 文件必须是二维数值矩阵，而不是形状为 {shape}、类型为 {dtype} 的数组。",
    "npy_rows": "词表有 {words} 个词，但矩阵有 {rows} 行。",
    "words_repeat": "词表中有重复的词；每个词只能对应一行。",
    "npy_not_finite": "矩阵中含有 NaN 或无穷大；所有数值都必须是有限的。",
    "upload_pair": "请只上传一个 .npy 矩阵和一个词表（.txt）。",
    "upload_one": "请上传一个文本格式的词向量文件（或一个 .npy 矩阵加词表）。",
    "too_many_dims": "这组词向量有 {dims} 维；本工具最多接受 {max} 维。请先降维（例如用 PCA），或换一组较小的词向量。",
    "too_many_words": "文件中的词超过了 {max} 个，这是本工具能接受的上限。请只保留前 {max} 个"
                      "（大多数文件按词频从高到低排列）后重新上传。",
    "header_dims": "第 {line} 行有 {n} 个数值，但表头说每个向量有 {dims} 维。",
    "header_more": "第 {line} 行是第 {count} 个词，但表头说文件只有 {words} 个词。",
    "header_too_long": "表头声称有 {words} 个词、{dims} 维，但大小为 {size} 的文件装不下这么多。"
                       "请改正表头（第一行：先写词数，再写维数）。",
    "bin_header": "word2vec 二进制文件（.bin）应以 “3000000 300” 这样的一行（词数、维数）开头，这个文件不是。"
                  "请用 gensim 的 save_word2vec_format(..., binary=True) 保存。",
    "bin_unreadable": "无法读取这个 word2vec 二进制文件（{reason}）。请确认它是完整的 word2vec .bin 文件。",
    "bin_not_finite": "“{word}” 的向量含有 NaN 或无穷大；所有数值都必须是有限的。",
    "download_damaged": "“{name}” 的下载文件已损坏（{reason}），没有保留。请稍后再试，或使用内置的 GloVe 词向量。",
}
STRINGS.update({f"err_{code}": (english, ZH_ERRORS[code]) for code, english in MESSAGES.items()})
ZH_CORPUS_ERRORS = {
    "columns": "第 {line} 行：应有 sentence、query、targets、split 四列，实际有 {found} 列。",
    "header": "第一行必须写明列名：sentence,query,targets,split。",
    "empty": "语料库里没有样例。",
    "too_big": "语料库文件有 {size:,} 字节；最多接受 {limit:,} 字节。",
    "too_many": "语料库超过了 {limit:,} 条样例；请拆成更小的文件。",
    "not_utf8": "语料库不是 UTF-8 文本。",
    "no_sentence": "第 {line} 行：句子是空的。",
    "long_sentence": "第 {line} 行：句子有 {count} 个词元；最多允许 {max} 个。",
    "query_missing": "第 {line} 行：查询词 “{query}” 不是句中的词。",
    "query_twice": "第 {line} 行：查询词 “{query}” 在句中出现了不止一次；请选一个只出现一次的词。",
    "target_format": "第 {line} 行：“{item}” 应写成 词=相关性，例如 drank=1。",
    "target_word": "第 {line} 行：目标词 “{word}” 不是句中的词。",
    "target_query": "第 {line} 行：查询词 “{word}” 不能同时是目标词。",
    "target_twice": "第 {line} 行：目标词 “{word}” 给了两次。",
    "target_value": "第 {line} 行：“{word}” 的相关性是 “{value}”；请用 0 到 1 之间的数。",
    "few_targets": "第 {line} 行：请至少给句中 3 个其他词设相关性（现有 {count} 个）。",
    "flat_targets": "第 {line} 行：目标值不能全都相等，否则无法说明顺序。",
    "split": "第 {line} 行：split 是 “{split}”；请用 train 或 test。",
    "no_split": "语料库至少需要一条 train 样例和一条 test 样例。",
    "no_known": "没有一句训练句子的词全都在这组词向量里，因此无从拟合。",
}
STRINGS.update({f"err_corpus_{code}": (english, ZH_CORPUS_ERRORS[code]) for code, english in corpus.MESSAGES.items()})


def error_text(e: VectorsError, lang: str) -> str:
    """An engine error in the visitor's language."""
    return t(f"err_{e.code}", lang, **e.values)


def t(key: str, lang: str = "en", **values) -> str:
    """The string `key` in `lang`, with {placeholders} filled in."""
    text = STRINGS[key][LANGS.index(lang) if lang in LANGS else 0]
    return text.format(**values) if values else text


def has(key: str) -> bool:
    """Whether the catalogue has a string for `key`."""
    return key in STRINGS
