"""简体中文: every key of en.py, with the same placeholders."""

STRINGS = {
    # --- shared: app, sidebar, navigation, notices ---
    "app_title": "注意力机制，逐词看懂",
    "nav_home": "首页：全流程一览",
    "nav_words": "1 · 词变成行",
    "nav_factor": "2 · 因子矩阵 Q·Kᵀ",
    "nav_dot": "3 · 点积为何能衡量相关性",
    "nav_relevance": "4 · 词与词的相关性",
    "nav_learn": "5 · 学习权重",
    "nav_kinds": "6 · 三种注意力",
    "language": "语言",
    "language_name": "简体中文",  # how the language switch shows this language, in itself
    "source": "词向量",
    "source_glove": "GloVe 6B 50维 · 40万词",
    "source_glove50k": "GloVe 6B 50维 · 最常用5万词",
    "source_upload": "上传自己的词向量",
    "source_glove-wiki-gigaword-100": "GloVe 100维（需联网下载）",
    "source_glove-wiki-gigaword-300": "GloVe 300维（需联网下载）",
    "source_offline": "这组词向量需要联网下载，而本服务器无法访问互联网。现改用内置的 GloVe 6B 50维。",
    "upload_files": "词向量文件（word2vec/GloVe 文本格式，或 word2vec 的 .bin 二进制格式），或 .npy 矩阵加一个词表文件",
    "upload_help": (
        "文本格式（.txt、.vec）：每行一个词，后接它的各维数值；第一行可以是“词数 维数”。二进制格式（."
        "bin）：word2vec 的二进制格式。最大 50 MB、50 万个词、1000 维。文件只保存在你本"
        "次会话中，不会共享，也绝不会被反序列化执行。"),
    "upload_error": "该文件无法使用：{error} 仍沿用之前的词向量。",
    "upload_ok": "正在使用你上传的词向量：{n:,} 个词，{d} 维。",
    "upload_none": "尚未上传词向量——在你上传之前，显示内置的 GloVe 6B 50维。",
    "copy_link": "复制本视图的链接",
    "copy_link_help": "任何人打开这个链接，都会看到与你完全相同的页面、句子和设置。点击框右侧的按钮即可复制。",
    "sentence": "句子",
    "target_sentence": "目标句子（解码器）",
    "layers": "线性层 W_Q、W_K、W_V",
    "preset": "{layer} 初始化方式",
    "seed": "{layer} 随机种子",
    "scale": "{layer} 缩放倍数",
    "d_k": "d_k（每层输出维数）",
    "preset_identity": "单位矩阵",
    "preset_scaled identity": "缩放的单位矩阵",
    "preset_random": "随机（高斯）",
    "preset_rotation": "随机旋转（正交）",
    "url_notice": "链接中的部分设置无法识别，已改用默认值：{items}。",
    "url_item": "“{name}={value}”（{reason}）",
    "url_bool": "应为 true 或 false",
    "url_number": "应为 {lo} 到 {hi} 之间的数",
    "url_whole": "应为 {lo} 到 {hi} 之间的整数",
    "url_choice": "应为以下之一：{options}",
    "url_cut_notice": "链接中的部分文字超出了仪表板保留的长度，已被截断：{items}。",
    "url_cut": "已截为前 {max} 个字符",
    "url_unread": "这个链接太长，服务器无法完整读取（Streamlit 最多读取 1,000 个参数、524,288 个字符），因此只取用了其中"
                  "仪表板自己的设置。请检查当前视图，或用“复制本视图的链接”生成新链接。",
    "url_unknown": "未知的设置项",
    "empty_sentence": "请在侧边栏输入一个句子，例如 “The ball is blue”。",
    "no_known_words": "“{text}” 中没有一个词在词表里，因此无从显示。请试试英文句子，例如 “The ball is blue”。",
    "missing_words": "以下词不在词表中，已略去：{items}。",
    "missing_item": "“{word}”（是不是想输入 {suggestions}？）",
    "missing_item_plain": "“{word}”",
    "overflow": "数值过大，无法计算。请调小线性层的缩放倍数。",
    "download": "下载{name}（CSV）",
    "row": "词（行）",
    "dim": "维度",
    "value": "数值",
    "query_word": "查询词",
    "key_word": "键词",
    # --- home ---
    "home_intro": (
        "注意力让每个词都去看句中其他所有词，并决定每个词对自己有多重要。下面把整句话走完一遍：每个词先变成**一"
        "行数字**，三个线性层把这些行变成查询 **Q**、键 **K** 和值 **V**；**因子矩阵** "
        "Q·Kᵀ 给每一对（查询词，键词）打分；输出 **Z** 再按这些分数把值向量混合起来。"),
    "home_read": "怎么看：每个矩阵都是**一个词占一行**，行名就是这个词。蓝色为正，红色为负，接近零为白色。把鼠标停在格子上可看到数值；侧边栏里每一步都有单独的页面。",
    "home_step_rows": "① 词 → 行（词向量 + 位置编码）",
    "home_step_qk": "② 行 → Q 与 K",
    "home_step_factor": "③ 因子矩阵 → 注意力权重",
    "home_step_z": "④ 输出 Z = 权重 · V",
    "home_go": "打开这一步",
    "home_more": "⑤ 接下来：点积为何有效、词的相关性、学习权重、三种注意力，以及在真实句子上的注意力头",
    # --- page 1: words become rows ---
    "words_title": "词变成行",
    "words_intro": (
        "句中每个词元都在预训练的 {source} 词向量里查到一行 {d} 个数字。加上位置编码，模型才知道每"
        "个词在什么位置。接着三个线性层把这些行分别乘以 W_Q、W_K、W_V——得到的每个矩阵仍然是一个词占一"
        "行。"),
    "tokens": "词元",
    "embedding": "词向量 E（{source}）",
    "positional_m": "加权的位置编码：{p:g} · P",
    "x_m": "输入行 X = E + 权重 · P",
    "x_m_nopos": "输入行 X = E（未加位置编码）",
    "weights_m": "权重 {name} [{d_in} × {d_out}]",
    "in_dim": "输入维度",
    "out_dim": "输出维度",
    "q_m": "查询 Q = X·W_Q",
    "k_m": "键 K = X·W_K",
    "v_m": "值 V = X·W_V",
    "rows_note": "Q、K、V 的第 i 行只由 X 的第 i 行算出：从头到尾，行名始终是那个词。",
    "pe_off_note": "侧边栏中已关闭位置编码。",
    # --- page 2: factor matrix ---
    "factor_title": "因子矩阵 Q·Kᵀ",
    "factor_intro": (
        "第 (i, j) 格是查询词 i 与键词 j 的点积：词 i 被词 j 吸引的强度。可打开“除以 √d_"
        "k”和“按行 softmax”；两者都不会改变哪一行属于哪个词。点击格子（或用下拉框）来跟踪一个查询词。"),
    "own_hidden": (
        "灰色格子：每个词自己的格子被遮住，权重只分给其他词——学到的注意力头回答的是“这个词属于哪一个别的词？”"
        "（可在侧边栏的线性层设置里打开“允许一个词关注它自己”）。"),
    "scaled": "除以 √d_k",
    "softmax": "按行做 softmax",
    "factor_m": "因子矩阵 F = Q·Kᵀ",
    "weights_m_soft": "注意力权重 softmax(·)——每行之和为 1",
    "weights_m_raw": "权重（未做 softmax：即分数本身）",
    "z_m": "输出 Z = 权重 · V",
    "query": "查询词",
    "key": "键词",
    "weight": "权重",
    "chosen_weights": "“{q}” 对每个词的注意力",
    "contrib_title": "Z 中 “{q}” 这一行 = Σ 权重 × 值向量",
    "contrib_other": "其他词",
    "contribution": "权重 × 值",
    "z_row": "Z 的该行",
    "sum_check": "核对：各项贡献加起来就是 Z 中 “{q}” 这一行。两者的前 {digits} 位数字都相同；计算机给每个数保留大约 16 位数字，剩下的差别只是舍入。",
    "sum_check_off": "核对未通过：各项贡献之和与 Z 中 “{q}” 这一行只有前 {digits} 位数字相同。单是舍入至少会留下 {need} 位相同，所以除了舍入还有别的差别。",
    "click_hint": "点击热力图中的格子即可选择查询词。",
    # --- page 3: why a dot product measures relevance ---
    "dot_title": "为什么点积能衡量相关性",
    "dot_intro": (
        "查询词对键词的得分就是点积 q·k = Σ q_i × k_i：每个维度各乘一次，再全部加起来。两个数同"
        "号——(+,+) 或 (−,−)——乘积为正，**把得分往上推**；异号则乘积为负，**把得分往下拉**"
        "。两边的数越大，这个维度的分量越重。柱子是每个维度的乘积，折线是累计和，折线的最后一点就是点积。右边再放"
        "一个键词，方便对比。"),
    "pair_rows": "比较哪种向量",
    "pair_rows_qk": "当前层的 Q、K 行",
    "pair_rows_embedding": "原始 GloVe 词向量",
    "sort": "维度排列顺序",
    "sort_dimension": "按维度编号",
    "sort_size": "按乘积大小",
    "key2": "第二个键词（用来对比）",
    "products_title": "“{q}” · “{k}”：逐维乘积 q_i × k_i",
    "product": "q_i × k_i",
    "running": "累计和",
    "group": "符号组合",
    "group_++": "(+,+) 同为正",
    "group_--": "(−,−) 同为负",
    "group_+-": "(+,−) 一正一负",
    "group_-+": "(−,+) 一负一正",
    "signs_title": "q 与两个键词逐维度的正负（蓝为正，红为负）",
    "vector": "向量",
    "dot_value": "**q·k = {dot:.4f}**：同号的维度共贡献 {agree:+.4f}，异号的维度共贡献 {disagree:+.4f}。",
    "dot_pair_value": "**“{q}” · “{k}”：q·k = {dot:.4f}**——同号的维度共贡献 {agree:+.4f}，异号的维度共贡献 {disagree:+.4f}。",
    "dimensions": "维数",
    "group_sum": "乘积之和",
    "group_check": "核对：四组之和为 {total:.4f}，正好等于点积 {dot:.4f}。",
    "dot_note": "q 是 Q 中 “{q}” 那一行，k 是 K 中 “{k}” 那一行：它们的点积就是第 2 页因子矩阵中（“{q}”，“{k}”）那一格，尚未缩放、也未做 softmax。",
    "dot_note_embedding": "q 和 k 就是 “{q}” 与 “{k}” 的 {source} 词向量本身，尚未加位置编码，也未经过线性层。",
    # --- the sign of a score (ui/signs.py): pages 2, 3, 4 and home ---
    "signs_positive_cells": "**逐行大于 0 的格子**（每个词凭符号被吸引到的词）：{rows}。",
    "signs_no_positive": "对 {words} 来说没有别的词得分大于 0：按符号，这里没有与它们相关的词，可 softmax 照样把它们的注意力全部分出去。",
    "signs_pair_above": "同号的维度胜过异号的维度，所以 q·k 大于 0：按符号，“{k}”与“{q}”相关。",
    "signs_pair_below": "异号的维度胜过同号的维度，所以 q·k 小于 0：按符号，“{k}”与“{q}”不相关。",
    "signs_pair_zero": "两类维度正好抵消：q·k 等于 0，它的符号对“{k}”什么也没说。",
    "signs_row_below": (
        "“{q}”的每个得分都不大于 0，所以在这组权重下符号没有讲出这一课：“{top}”领先只是因为它最不负（softmax 只看一行之内的差）。"),
    "signs_shift_title": "softmax 只看一行之内的差",
    "signs_shift_add": "给“{q}”的每个得分加上同一个数",
    "signs_shift_help": "同一个数加到查询词那一行的每个得分上，在 softmax 之前。",
    "signs_shift_score": "得分",
    "signs_shift_shifted": "得分 + {c:g}",
    "signs_shift_before": "权重",
    "signs_shift_after": "加数后的权重",
    "signs_shift_result": (
        "给“{q}”的每个得分加上 {c:+g}，它的权重一个也没动：最大的变化是 {moved:.1e}，只是舍入。softmax 把每个 e^得分 除以整行之和，"
        "共同的因子 e^c 正好约掉。"),
    "signs_shift_none": "拖动滑块，给“{q}”的每个得分加上同一个数，再看右边它的权重。",
    "signs_shift_sign": (
        "所以 softmax 分不出一行得分是在 0 以上还是 0 以下：这要训练自己去要求（第 5 页的符号项）。**符号说明一个词到底相不相关；"
        "softmax 说明它分到多少注意力。**"),
    # --- page 4: relevance between words ---
    "relevance_title": "词与词的相关性",
    "relevance_intro": (
        "查询词对其他每个词有多在意？下面用三种方法给查询词和其他每个词打分：{source} 词向量的直接点积、"
        "余弦相似度（先把两个向量都缩放到长度 1 再做点积），以及当前线性层给出的 Q·K。"),
    "relevance_story": (
        "在 “The black cat drank the milk” 这句话里，我们希望 “milk” 最关注 “drank”（牛奶被喝了），"
        "其次是 “cat”（是谁喝的），几乎不关注 “black”（那是猫的颜色）。"),
    "expected": "期望的顺序，最相关的在前（用 “>” 分隔）",
    "measure_dot": "{source} 点积",
    "measure_cosine": "{source} 余弦相似度",
    "measure_qk": "Q·K（当前线性层）",
    "measure_qk_scaled": "Q·K / √d_k（当前线性层）",
    "measure_dot_short": "点积",
    "measure_cosine_short": "余弦",
    "measure_qk_short": "Q·K",
    "rank_short": "#",
    "ranking_legend": "{columns}。**#**：左边那一列分数下的排名（1 为最相关）。",
    "ranking_name": "**{short}**：{name}",
    "word": "词",
    "score": "分数",
    "rank": "排名",
    "relevance_note": "前两种方法只看{source}词向量本身，所以重复出现的词每次得分都一样。Q·K 用的是加上位置编码、再经过线性层之后的行，和第 2 页相同。",
    "ranking": "其他各词对 “{q}” 的排名（1 为最相关）",
    "file_ranking": "排名",
    "verdict_met": "{measure}：{order}——符合期望的顺序（{values}）。",
    "verdict_missed": "{measure}：期望 {order}，但实际分数为 {values}——不符合期望的顺序。",
    "order_format": "请把期望的顺序写成句中两个或更多的词，用 “>” 隔开，例如 “drank > cat > black”。",
    "order_unknown": "“{word}” 不是这句话里的其他词，因此无法检查期望的顺序。可以用的词：{words}。",
    "order_query": "“{word}” 就是查询词本身；期望的顺序只给其他词排序。",
    "order_repeated": "“{word}” 在期望的顺序里出现了不止一次；每个词只写一次。",
    "order_ambiguous": "“{word}” 在句中出现了不止一次；请写 {labels} 指明是哪一个。",
    "need_two_words": "相关性是拿查询词和其他词比较：句子里至少要有两个词表中的词。",
    "takeaway_title": "要点",
    "relevance_takeaway": (
        "预训练的词向量本身就带有相关性：常在一起出现的词，向量方向相近，所以在这句例句里，对 “milk” 来说，"
        "原始 GloVe 已经把 “drank” 排在第一。直接点积还会偏向长的向量，向量比 “cat” 更长的 “black” 因此排到"
        "了 “cat” 前面；余弦相似度把长度除掉，整个顺序就都对了。"),
    "relevance_pairs": "在当前的 Q·K 下，每个词最关注的词：{pairs}。",
    "relevance_pairs_differ": "不同的词找到不同的伙伴：相关性属于这一对词，而不只属于键词。",
    "relevance_pairs_same": "其他每个词都选 “{k}”：在这组权重下，不管谁来问，相关性都只属于这个键词——这恰恰违背了注意力的用意。",
    # --- page 5: learning ---
    "learn_title": "学习：训练权重，直到分数符合你的目标",
    "learn_intro": (
        "W_Q 和 W_K 不是人手设定的，而是 Transformer **学**出来的。在这一页，你先指定几个键词对某个查询词应有多相关，训练就会一步步"
        "调整权重，让分数跟上。损失有两项。**选哪个词**：对每个查询词，目标值先换算成总和为 1 的份额（1、0.5、0 → ⅔、⅓、0），"
        "交叉熵把它们和该查询词在这几个键词上的分数做 softmax 的结果相比；softmax 只看一行之内的差，所以这一项从不规定 0 在哪里。"
        "**到底相不相关**：符号项要求目标大于 0 的词对得分大于 0，目标为 0 的词对得分小于 0（逻辑斯谛损失；一个词的相关键合起来"
        "与不相关键合起来分量相同）。每一步都让所选参数沿着两项之和下降的方向再挪一小步。点击**开始训练**，看损失下降、分数重新排序"
        "并改变符号；结果会告诉你，新的顺序是来自向量转到对齐（角度），还是来自某些向量变长（长度）。"),
    "learn_targets_title": "1 · 目标相关性",
    "learn_targets_help": (
        "每一行是一对（查询词，键词），以及这个键词对查询词应有多相关：1 表示高，0.5 表示中等，0 表示不相关。同一个查询词各行之间的"
        "比例决定它要达到的份额；目标是 0 还是大于 0，决定它的得分应当是负还是正。用表格自带的按钮即可添加或删除行。本句中的词："
        "{words}。出现两次的词要带上位置，例如 “the (5)”。"),
    "learn_target": "目标值",
    "learn_target_help": "键词应有的相关程度：不小于 0 的数，例如 1、0.5 或 0。",
    "targets_problems": "目标还不能使用，暂时无法训练：",
    "target_no_query": "第 {row} 行：请填写查询词。",
    "target_no_key": "第 {row} 行：请填写键词。",
    "target_no_value": "第 {row} 行：请填写目标值，例如 1、0.5 或 0。",
    "target_unknown": "第 {row} 行：“{word}” 不是这句话里的词。可以用的词：{words}。",
    "target_ambiguous": "第 {row} 行：“{word}” 在句中出现了不止一次；请写 {labels} 指明是哪一个。",
    "target_not_number": "第 {row} 行：目标值 “{value}” 不是数字；请填写 1、0.5、0 这样的数。",
    "target_negative": "第 {row} 行：目标值 {value} 是负数。目标值不能为负；“不相关”请填 0。",
    "target_duplicate": "第 {row} 行又给 “{q}” → “{k}” 这一对设了目标值（第 {first} 行已经设过）；每一对只能有一个目标值。",
    "targets_empty": "请至少添加一个目标：一个查询词、一个键词和一个相关性数值，例如 1。",
    "target_all_zero": "“{q}” 的所有目标值都是 0，它就没有要关注的词了；请至少给它的一个键词设一个大于 0 的目标值。",
    "learn_how_title": "2 · 学习什么、学多快",
    "learn_what": "要学习的参数",
    "learn_w_q": "W_Q",
    "learn_w_k": "W_K",
    "learn_w_v": "W_V",
    "learn_x": "句中各词的词向量",
    "learn_lr": "学习率",
    "learn_steps": "训练步数",
    "learn_seed": "初始随机种子",
    "learn_wv_note": "W_V 并不参与计算分数和注意力权重：它只决定注意力分配好之后，每个词传递出去的内容。因此这个损失对 W_V 的梯度恰好为 0，即使选了学习 W_V，它也不会有任何变化。",
    "learn_unknown_param": "链接里要求学习 {names}，但这不是这里可选的参数，已忽略。",
    "learn_choose": "请至少选择一个要学习的参数。",
    "learn_start_missed": "训练之前，目标顺序并不成立：{order}。点击**开始训练**，学出能把顺序排对的权重。",
    "learn_start_held": "训练之前，目标顺序已经成立：{order}。训练会把各个分数拉向目标份额。",
    "learn_train": "开始训练",
    "learn_stop": "停止",
    "learn_progress": "第 {step} / {total} 步 · 损失 {loss:.4f}",
    "learn_live_title": "目前的损失",
    "learn_not_trained": "点击**开始训练**，训练结果会显示在这里。",
    "learn_kept_result": "下面显示的仍是上一次训练的结果。",
    "learn_overflow": "数值过大，无法计算。请调低学习率。",
    "learn_results_title": "3 · 训练及其结果",
    "learn_stale": "以下是上一次训练的结果（{steps} 步，学习率 {lr:g}，随机种子 {seed}）；之后设置已有改动。点击**开始训练**即可按当前设置重新训练。",
    "learn_stopped": "训练在第 {step} 步（共 {total} 步）时被停止；下面显示的是截至该步的结果。",
    "learn_verdict_reached": "**在第 {step} 步达到了目标顺序**，并且{until}一直保持：{order}。",
    "learn_verdict_start": "**一开始就已符合目标顺序**，并且{until}一直保持：{order}。",
    "learn_verdict_missed": "**到第 {end} 步仍未达到目标顺序**：{order}。可以试试更多步数、更大的学习率或换一个随机种子。",
    "learn_signs_reached": (
        "**从第 {step} 步起符号都对了**：{pairs}。这是符号项（权重 {w:g}）要求的；单靠交叉熵做不到，因为它不理会整行加上的同一个数。"),
    "learn_signs_start": "**一开始符号就都对**，并且一直保持：{pairs}。",
    "learn_signs_missed": "**训练结束时并非每个符号都对**：{pairs}。可以试试更多步数或更大的符号项权重。",
    "learn_signs_off": "**符号项已关闭**（权重 0），没有谁要求符号：{pairs}。交叉熵只负责把分数排好顺序。",
    "learn_sign_pair": "“{q}” · “{k}” {score:+.2f} {mark}",
    "learn_until_end": "到训练结束（第 {end} 步）",
    "learn_until_stop": "到训练被停止时（第 {end} 步）",
    "learn_order_row": "“{q}” 的各分数从高到低为 {keys}",
    "learn_came_angle": "对 “{q}” 而言，这个顺序由**角度**决定：单看 cos θ，它的键词排序为 {cos_order}，与分数相同；键的长度没有改变顺序。",
    "learn_came_length": (
        "对 “{q}” 而言，这个顺序由**长度**决定，而不是对齐：单看 cos θ，它的键词应排成 {cos_order}，"
        "但更长的键向量赢了（按长度 |k| 为 {len_order}）。"),
    "learn_came_both": "对 “{q}” 而言，这个顺序由长度和角度**共同**决定：单看 cos θ 排序为 {cos_order}，单看长度 |k| 排序为 {len_order}。",
    "learn_loss_title": "损失及其两项",
    "learn_term_order": "交叉熵：选哪个词",
    "learn_term_sign": "符号项 × {w:g}：到底相不相关",
    "learn_term_total": "损失：两项之和",
    "learn_term": "项",
    "learn_loss": "损失",
    "learn_step": "步数",
    "learn_score": "分数 q·k/√d_k",
    "learn_scores_title": "各目标词对的分数",
    "learn_weights_title": "各词对的注意力权重",
    "learn_cosine_title": "q 与 k 夹角的余弦",
    "learn_cosine": "余弦",
    "learn_pair": "词对",
    "learn_order_marker": "达到目标顺序",
    "learn_goal_share": "目标份额",
    "learn_goal_share_help": "同一个查询词的各目标值按比例换算成总和为 1 的份额：这就是训练要逼近的值。",
    "learn_share": "实际份额",
    "learn_share_help": "只在该查询词的几个目标键词上对分数做 softmax 得到的份额：损失就是拿它和目标份额比较。",
    "learn_weight_help": "对整句做 softmax 得到的注意力权重：所有词一起竞争时，这一对分到的比例。",
    "learn_score_start": "初始分数",
    "learn_score_end": "最终分数",
    "file_learning": "训练过程",
    "learn_align_title": "训练前后，逐维度看点积",
    "learn_align_intro": (
        "这是第 3 页的逐维乘积图：“{q}” 的查询向量 q 分别与 {keys} 的键向量 k 相乘，左边是"
        "训练开始时，右边是训练结束时。训练往往会让最相关那一对的各维度变成同号（蓝色），让最不相关那一对变成异号"
        "（红色），乘积也随之变大——请留意纵轴的刻度。"),
    "learn_before": "训练开始（第 0 步）：“{q}” · “{k}”",
    "learn_after": "第 {step} 步之后：“{q}” · “{k}”",
    "learn_plane_title": "看向量如何转动",
    "learn_plane_intro": (
        "每个查询向量 q 和键向量 k 都画成从原点出发的箭头，放在同一个平面视图里。粗箭头是 “{q}” 的 "
        "q 和 {keys} 的 k；虚线是它们在训练过程中走过的路径。拖动图下方的滑块在各个快照之间切换，看 "
        "“{q}” 的 q 是否转向它应该关注的键向量。右图在全部 {d_k} 个维度中衡量同样的转动：q 与各"
        "个 k 夹角的余弦（1 表示方向相同，0 表示互相垂直，−1 表示方向相反）。"),
    "learn_plane_chart": "Q、K 向量在同一个固定的二维视图中",
    "learn_axis": "轴 {n}",
    "learn_role": "向量",
    "learn_role_q": "查询 q",
    "learn_role_k": "键 k",
    "learn_slider": "训练步数（0–{m}） ",
    "learn_plane_note": (
        "这个视图是穿过原点、与所有快照中的向量最贴合的平面（用奇异值分解做主成分分析），只拟合一次，因此每个快照"
        "都使用同一组坐标轴；它保留了向量平方长度的 {kept:.0%}。分数用的是全部 {d_k} 个维度，所"
        "以这张平面图反映的是变化的方向，而不是精确的数值。"),
    # --- page 6: three kinds of attention ---
    "kinds_title": "三种注意力",
    "kinds_intro": (
        "翻译用的 Transformer 在三个地方用到同一种注意力：**编码器**里，每个源语言词去看所有源语"
        "言词；**解码器**里，每个目标语言词只看它前面的目标词；**编码器–解码器注意力**里，每个目标词去看"
        "整句源语言。三处的计算都和“因子矩阵”那一页完全相同，不同的只是 Q、K、V 的行从哪里来。"),
    "kinds_source": "**源句子**（编码器；在侧边栏修改）：{text}",
    "empty_target": "请在上方输入目标句子，例如 “La bola es azul”。",
    "need_source": "这种注意力需要源句子的行：请让侧边栏里的句子至少包含一个词表中的词。",
    "need_target": "这种注意力需要目标句子的行：请让目标句子至少包含一个词表中的词。",
    "heads": "头数",
    "heads_help": "每个头分到 Q、K、V 的 d_k ÷ 头数 列；只有 d_k = {d_k} 的因数才能均分。",
    "heads_fallback": "{h} 个头无法均分 d_k = {d_k} 列，因此已改回 1 个头。请从下拉框给出的数字中选择。",
    "tab_enc": "编码器自注意力",
    "tab_dec": "解码器自注意力",
    "tab_cross": "编码器–解码器注意力",
    "enc_intro": "Q、K、V 全部来自**源句子**的行：每个源语言词都会看所有源语言词，包括它自己和它后面的词。",
    "dec_intro": (
        "Q、K、V 全部来自**目标句子**的行。解码器从左到右逐词生成译文，生成某个词时后面的词还不存在；因此"
        "加上因果掩码后，每个目标词只能看到它自己和它前面的词。被遮住的格子显示为灰色并标注“遮住”，其权重恰好为"
        " 0。"),
    "causal": "因果掩码：每个词只看自己和前面的词",
    "mask_hides": "掩码把 {later} 对 “{q}” 遮住了。如果不加掩码，“{q}” 会把 {p:.0%} 的注意力放在这些词上。",
    "mask_hides_raw": "掩码把 {later} 对 “{q}” 遮住了：它们的权重被置为 0。",
    "mask_off": "掩码已关闭：“{q}” 现在把 {p:.0%} 的注意力放在 {later} 上——而从左到右生成的解码器此时还没写出这些词。打开掩码即可把它们遮住。",
    "mask_off_raw": "掩码已关闭：“{q}” 现在也给 {later} 打了分——而从左到右生成的解码器此时还没写出这些词。打开掩码即可把它们遮住。",
    "mask_last": "“{q}” 是目标句子的最后一个词，有没有掩码它都能看到所有词；选一个更靠前的词，就能看出掩码遮住了什么。",
    "cross_intro": (
        "查询来自**目标句子**的行，键和值来自**源句子**的行（在完整的 Transformer 中是编码器"
        "的输出）。因子矩阵的形状是 [目标词 × 源词]，Z 每个目标词占一行：每个目标词从源句子中取回自己需要"
        "的信息。"),
    "glove_note": (
        "**关于这几个西班牙语词。** GloVe 6B 是用英文语料（维基百科和 Gigaword 新闻）训练"
        "的，却也有 “la”、“bola”、“es”、“azul” 的向量——因为这些字符串确实会出现在英文文本"
        "里：人名、地名、引语、体育新闻。所以这些向量反映的是它们在以英文为主的文本中怎么被使用，而不是它们在西班"
        "牙语里的意思。看看最近邻就知道：“la” 和 “es” 周围是西班牙语虚词（de、del、que、por"
        "），“bola” 周围是尼日利亚人名（如政治人物博拉·提努布），“azul” 周围则是墨西哥足球俱乐部（"
        "帕丘卡、内卡萨、托卢卡——它来自球队名“蓝十字”）。在 GloVe 中，“bola” 与 “ball” "
        "的余弦相似度为 {bola:.2f}，“azul” 与 “blue” 为 {azul:.2f}：这里没有"
        "任何东西让译词彼此对齐。真正的翻译模型会学习自己的目标语言词向量，并连同 W_Q、W_K、W_V 一起训"
        "练，让目标词的查询能找到它所对应的源词。"),
    "neighbours_title": "这组词向量对目标词知道些什么",
    "neighbours_word": "目标词",
    "neighbours_near": "最近邻（余弦相似度）",
    "neighbours_source": "最相似的源词",
    "neighbours_cosine": "余弦相似度",
    "neighbours_first": "仅显示前 {n} 个目标词。",
    "heads_title": "多头注意力",
    "heads_intro": "用 {h} 个头时，Q、K、V 被切成 {h} 份，每份 {d} 列。每个头在自己那一份上做同样的注意力计算，因此各自可以关注不同的词；最后把各头的输出并排拼起来，得到 Z。",
    "heads_one": "一个头使用全部 {d} 列。在页面顶部选择更多的头，即可把这些列分开。",
    "head_m": "第 {h} 个头 · 第 {lo}–{hi} 列",
    "z_heads_m": "Z = {h} 个头的输出并排拼接（每个 {d} 列）",
    "focus_same": "对 “{q}” 来说，{n} 个头都最看重 “{k}”，但程度不同：从 {lo:.2f}（第 {h_lo} 个头）到 {hi:.2f}（第 {h_hi} 个头）。",
    "focus_differ": "对 “{q}” 来说，各个头关注的词不同：{items}。",
    "focus_one": "第 {heads} 个头最看重 “{k}”（{w}）",
    "focus_many": "第 {heads} 个头最看重 “{k}”（{w}）",
    "masked_cell": "遮住",
    "list_sep": "、",
    "item_sep": "；",
    "two_sentences": "{first}{second}",
    "file_encoder-head-weights": "编码器各头注意力权重",
    "file_decoder-head-weights": "解码器各头注意力权重",
    "file_cross-head-weights": "编码器–解码器各头注意力权重",
    # --- page 5: where training starts, directions only ---
    "learn_start": "起点",
    "learn_start_sidebar": "当前使用的权重（见上方说明）",
    "learn_start_random": "随机权重（初始随机种子）",
    "learn_start_note_sidebar": (
        "训练从各页正在使用的 W_Q 和 W_K 出发（上方的说明写明是哪一种），d_k 和位置权重沿用侧边栏的"
        "设置。每一步就是优化器的一次更新；把学习率调小（例如 0.001），变化会慢一些，更容易看清。"),
    "learn_start_note_random": (
        "W_Q 和 W_K 的初始值是由初始随机种子生成的 [{d} × {d_k}] 随机矩阵；d_k 和位置"
        "权重沿用侧边栏的设置。每一步就是优化器的一次更新；把学习率调小（例如 0.001），变化会慢一些，更容易"
        "看清。"),
    "learn_start_title_sidebar": "训练的起点（当前使用的权重）：“{q}” 与各词",
    "learn_start_title_random": "训练的起点（随机种子 {seed}）：“{q}” 与各词",
    "learn_directions": "只比较方向（τ·cos θ）",
    "learn_directions_help": "分数改为 τ·cos θ，温度 τ 固定为 10：先把 q 和 k 缩放到长度 1，训练只能靠把向量转到对齐来排好顺序，而不能靠把某个键变长。",
    "learn_sign_weight": "符号项权重",
    "learn_sign_weight_help": (
        "符号项（到底相不相关）相对于交叉熵（选哪个词）的分量。设为 0 时没有谁要求符号：交叉熵从不把查询词的一整行一起挪动，"
        "所以它的得分可能全都停在 0 以下。"),
    # --- page 5: learning on a corpus ---
    "corpus_title": "4 · 从许多句子中学习一个注意力头",
    "corpus_intro": (
        "只用一句话太容易了：几个数总能拟合出来。Transformer 是从许多句子里学习的，而且学到的东西必须"
        "在没见过的句子上也成立。这里用语料库的训练句子训练 W_Q 和 W_K，每一步之后都在训练从未用过的留出句子上检验。"),
    "corpus_which": "训练数据",
    "corpus_choice_treebank": "真实英文句子",
    "corpus_choice_templates": "模板句子",
    "corpus_choice_upload": "你自己的 CSV",
    "corpus_about_treebank": (
        "每个页面默认的 W_Q 和 W_K 就是这样学出来的；这里你可以在一个子集上亲眼看它发生：树库 {total:,} 句训练句子中的"
        "前 {train:,} 句（UD 英文网络树库：博客、新闻组、电子邮件、评论和问答），每个小批量约 {batch:,} 个词。每个词都是"
        "一个查询，训练让它把最大的注意力权重放在它**所属**的词上：也就是树库里它的句法中心词，比如 “the” 或形容词所修饰"
        "的名词、主语或宾语所依附的动词。句子的核心词没有中心词，标点也被略去，所以两者都不计入；每个词自己的格子被隐藏，"
        "所以它总是在其他词中选择。每一步之后，都在训练从未用过的 {test:,} 句留出句子上检验：准确率是其中最大权重落在所属"
        "词上的词所占的比例。两条虚线表示简单规则在这些句子上的成绩：总是选{offset}，以及选原始词向量方向最接近的词（余弦）。"),
    "corpus_about_templates": (
        "{train} 句模板句子用于训练，另有 {test} 句留出，每句有一个查询词以及其他各词分级的相关性；留出句子与训练句子没有"
        "共同的名词、动词或形容词。准确率是已标注词对（a 比 b 更相关）中分数顺序正确的比例。注意这些模板教的是什么：它们"
        "几乎总在问一个名词，答案又几乎总是“它的动词”，所以学到的权重不管谁来问都去看动词——在下面试一句话，看看每个词"
        "最关注哪个词。"),
    "corpus_about_upload": (
        "你的语料库：词向量认识其中全部词的训练样例 {train} 条、留出样例 {test} 条。准确率是留出样例中已标注词对"
        "（a 比 b 更相关）里分数顺序正确的比例。"),
    "corpus_upload": "你的语料库（CSV）",
    "corpus_format": (
        "列为 sentence,query,targets,split。targets：用 “;” 分隔的 词="
        "相关性（相关性在 0 到 1 之间，至少给句中 3 个其他词）；split：train 或 test。以"
        " # 开头的行是注释。"),
    "corpus_bad": "该语料库无法使用：{error}",
    "corpus_loaded": "正在使用 {name}：{n} 条样例。",
    "corpus_upload_none": "尚未上传语料库：按上传框帮助中说明的格式上传一个 CSV，即可在上面训练。",
    "corpus_note_treebank": (
        "这次训练沿用侧边栏的 d_k = {d_k} 和位置权重 {p:g}：每步用一个小批量做一次优化器更新，后半程步长线性降到 0，"
        "W_Q 和 W_K 从随机种子生成的随机矩阵开始。"),
    "corpus_note_templates": "拟合沿用侧边栏的 d_k = {d_k} 和位置权重 {p:g}，用优化器对所有训练样例的平均交叉熵做全批量优化，并把权重轻轻拉向 0。",
    "corpus_train": "用这些句子训练",
    "corpus_progress": "第 {step} / {total} 步 · 损失 {loss:.3f} · 留出准确率 {test:.1%}",
    "corpus_done_treebank": (
        "训练 {steps} 步（{train:,} 句）后：在 {test:,} 句留出句子中，每个词最大的注意力权重落在它所属的词上的比例是 "
        "**{acc:.1%}**。总是选{offset}的成绩是 {by_offset:.1%}；原始词向量的余弦是 {by_cosine:.1%}。按符号，这些词中有 "
        "{positive:.1%} 给它所属的词打出大于 0 的分，它们与其他词的词对有 {negative:.1%} 小于 0。"),
    "corpus_stale": (
        "以下是上一次训练的结果（{corpus}，{steps} 步，学习率 {lr:g}，种子 {seed}，d_k = {d_k}，位置权重 {p:g}）；"
        "之后选择已有改动。再训练一次即可按当前选择运行。"),
    "corpus_done": (
        "训练 {steps} 步后：训练词对中 {train:.0%}、**留出词对中 {test:.0%}**"
        " 的顺序正确。直接用词向量的余弦相似度，留出词对只有 {raw:.0%} 正确。按符号，留出句中标为相关的键有 {positive:.0%} "
        "得分大于 0，标为 0 的键有 {negative:.0%} 得分小于 0。（使用了 {used} 条样例；{skipped} 条因词向量缺少其中的词而略去。）"),
    "corpus_accuracy_title": "顺序准确率（训练与留出）及留出句的符号",
    "corpus_accuracy_title_treebank": "留出句：最大权重落在所属的词上，以及符号",
    "corpus_batch_split": "训练（该步的小批量）",
    "corpus_rule": "简单规则",
    "corpus_ref_offset": "总是选{offset}",
    "corpus_ref_cosine": "原始词向量的余弦",
    "corpus_offset_next": "后一个词",
    "corpus_offset_prev": "前一个词",
    "corpus_offset_after": "往后第 {k} 个词",
    "corpus_offset_before": "往前第 {k} 个词",
    "corpus_accuracy": "比例",
    "corpus_loss_title": "训练损失（每一步的句子）",
    "corpus_split": "句子",
    "corpus_train_split": "训练",
    "corpus_test_split": "留出",
    "corpus_signs_treebank_positive": "留出：所属的词得分大于 0",
    "corpus_signs_treebank_negative": "留出：其他词得分小于 0",
    "corpus_signs_positive": "留出：相关的键大于 0",
    "corpus_signs_negative": "留出：标为 0 的键小于 0",
    "corpus_try_title": "用学到的权重试试任意句子",
    "corpus_try_sentence": "句子",
    "corpus_try_chart": "用这组 W_Q 和 W_K 时 “{q}” 的注意力权重",
    "corpus_try_tops": "用这组权重时，每个词最关注的词：{pairs}。",
    "corpus_try_same": "其他每个词都选 “{k}”：在这组权重下，不管谁来问，相关性都属于这个键词，而不属于词对。",
    "corpus_use": "在所有页面使用这组权重",
    "corpus_in_use": "所有页面正在使用这组权重，本视图的链接也带上了它们的训练配方：任何人打开都会得到同样的权重。",
    "corpus_share_upload": "用上传的语料库拟合的权重只留在本页：链接无法携带你的文件。",
    "corpus_share_stopped": (
        "被停止的训练不能用于所有页面：链接只携带训练配方（步数、学习率、种子），而配方总是一直运行到结束。"
        "把步数设成你想停下的地方，再训练一次。"),
    # --- page 7: real sentences ---
    "nav_real": "7 · 真实句子",
    "real_title": "真实句子：每个词能找到它所属的词吗？",
    "real_intro": (
        "句子里的每个词都**从属于**另一个词，也就是它的语法中心词：限定词（如 “the”）或形容词从属于它修饰的名词，"
        "主语或宾语从属于与它搭配的动词，介词从属于它引出的名词，助动词从属于它的动词。UD 英语网络文本树库里的这些"
        "关系是人工逐句标注的；默认的 W_Q 和 W_K 正是照着它训练的：让每个词把最多的注意力放在它所属的词上。本页的"
        "句子都来自树库中留出的测试部分：**训练时权重从未见过它们。** 坦白说一个局限：这里只有一个注意力头，用的是"
        "静态的 {source} 词向量，每个词在任何句子里都是同样的 {d} 个数，所以它不能像 BERT 这样的模型（多层、多头，"
        "每层都建立在上一层之上）那样理解上下文；它只能凭哪些词常常搭配、以及词所在的位置来判断。"),
    "real_scoring": "正在用这组权重给所有留出句子打分……",
    "real_none_known": "这些词向量没有完整认识任何一个留出句子的全部词，所以这里没有可展示的内容。请在侧边栏选择内置的 GloVe。",
    "real_find": "查找含有某个词的留出句子",
    "real_find_help": "输入一个词，或几个词：列出同时含有这些词的句子。",
    "real_find_placeholder": "例如 service",
    "real_find_nothing": "“{text}” 里没有可以查找的词：请输入一个词，例如 “service”。",
    "real_find_unknown": "不在词表中，所以没有句子会含有它：{items}。",
    "real_found": "{n} 个留出句子含有 {words}。",
    "real_found_one": "只有 1 个留出句子含有 {words}。",
    "real_found_none": "没有留出句子含有 {words}；当前显示的句子保持不变。",
    "real_found_near": "与它相近、确实出现过的词：{words}。",
    "real_hits": "在下面选一个，或随机换一个。",
    "real_hits_first": "下面列出其中前 {m} 个；随机抽取可以抽到其余的句子。",
    "real_pick": "句子",
    "real_random": "换一个留出句子",
    "real_random_found": "换一个含这个词的句子",
    "real_unknown_sentence": "链接中的句子含有这些词向量不认识的词，所以改为显示另一个留出句子。",
    "real_sentence": "**留出句子**（{n} 个词，树库编号 {id}）：{text}",
    "real_query_pick": "要预测的词",
    "real_gold_said": "树库标注：“{q}” 从属于 “{h}”（{rel}）。",
    "real_gold_root": "树库里 “{q}” 没有中心词：它是整句的根。",
    "real_gold_none": "树库里 “{q}” 在这里没有中心词：在这个意义上，标点不从属于任何词。",
    "real_heads_title": "谁从属于谁，注意力头又看向哪里",
    "real_heads_said": (
        "在这个句子里，**{total} 个词中有 {right} 个**把最多的注意力放在它所属的词上（{acc:.0%}）；在全部留出句子上，"
        "这组权重做到了 {all:.0%}。"),
    "real_lines_title": "树库中心词与注意力最大的词",
    "real_line_title": "连线",
    "real_line_gold": "从属于（树库）",
    "real_line_right": "注意力最大：对 ✓",
    "real_line_wrong": "注意力最大：错 ✗",
    "real_relation": "关系",
    "real_lines_caption": (
        "读图方法：左边每个词有一条灰线连到它所属的词，紧挨着下方还有一条线连到它注意力最大的词：两者是同一个词时为"
        "蓝色并标 ✓，不是时为红色虚线并标 ✗。每个词左边写着它的关系。句子的根和标点不从属于任何词，没有连线。把鼠标"
        "移到一个词上，只看它的连线。"),
    "real_root": "—（根）",
    "real_no_head": "—（标点）",
    "real_right": "✓ 对",
    "real_wrong": "✗ 错",
    "real_col_head": "从属于",
    "real_col_head_weight": "它得到的{value}",
    "real_col_top": "注意力最大的词",
    "real_col_top_weight": "该词的{value}",
    "real_col_right": "是否同一个词",
    "file_real_heads": "词与中心词",
    "real_key_title": "同一个键，不同的查询",
    "real_key_intro": (
        "选一个键词：条形图显示它的键从其他每个词的查询得到的分数。如果相关性只属于键词本身，每个查询给它的排名都会"
        "一样；实际上它取决于由谁来问。● 标出从属于这个键词的词。"),
    "real_key_pick": "键词",
    "real_key_chart": "这个键词从各个查询词得到的分数",
    "real_key_said": "“{k}” 从 “{hi}” 得到的分数最高（{hi_v:.2f}），从 “{lo}” 得到的最低（{lo_v:.2f}）。",
    "real_key_deps": "从属于 “{k}” 的词在 {n} 个查询词中的名次：{deps}。",
    "real_key_no_deps": "这个句子里没有词从属于 “{k}”。",
    "real_key_alone": "没有其他词能看到 “{k}”。",
    "real_rel_title": "全部留出句子：这组权重在哪些关系上判断正确？",
    "real_rel_chart": "各关系中把最多注意力放在中心词上的词所占比例",
    "real_rel_x": "正确比例",
    "real_rel_series": "挑选方式",
    "real_rel_count": "词数",
    "real_rel_head": "这组权重",
    "real_rel_offset": "最佳固定偏移",
    "real_rel_offset_col": "最佳偏移",
    "real_rel_head_share": "这组权重的正确比例",
    "real_rel_offset_share": "最佳偏移的正确比例",
    "real_rel_meaning": "谁从属于谁",
    "real_rel_said": (
        "在 {sentences:,} 个留出句子中共有 {words:,} 个带中心词的词，这组权重有 **{acc:.0%}** 的时候把最多的注意力"
        "放在词的中心词上；如果总是选取最佳单一偏移（{offset:+d}）处的词，正确率是 {offset_acc:.0%}。"),
    "real_rel_beats": (
        "逐个关系来看，{n} 个关系中有 {beats} 个胜过该关系的最佳偏移；落后最多的是 {rel}（{head:.0%} 对 {off:.0%}）。"),
    "real_rel_beats_all": "逐个关系来看，{n} 个关系全都胜过该关系的最佳偏移。",
    "real_rel_caption": (
        "灰色条形完全不读词向量：对每种关系，它总是选固定距离处的词（+1 是下一个词，−2 是往前数第二个词），每种关系的"
        "偏移都是事后在这些句子上挑出的最佳值，所以这是一个很宽松的基线。如果某种关系的中心词几乎总在同一距离（形容词"
        "修饰的名词通常就是下一个词），单靠位置就能做得不错；注意力头要胜过它，必须从词本身看出谁和谁搭配。"),
    "file_real_relations": "各关系准确率",
    "rel_det": "限定词 → 它的名词（the → cat）",
    "rel_amod": "形容词 → 它的名词（black → cat）",
    "rel_nmod:poss": "所有格 → 它的名词（his → eye）",
    "rel_compound": "名词 → 它限定的名词",
    "rel_case": "介词 → 它引出的名词",
    "rel_aux": "助动词 → 它的动词",
    "rel_cop": "系动词 → 它连接的表语（is → blue）",
    "rel_mark": "从句标记词 → 从句的动词",
    "rel_cc": "并列连词 → 其后的并列成分",
    "rel_advmod": "副词 → 它修饰的词",
    "rel_nsubj": "主语 → 它的动词（cat → drank）",
    "rel_obj": "宾语 → 它的动词（milk → drank）",
    "rel_obl": "介词后的名词 → 动词",
    "rel_nmod": "名词 → 它修饰的名词",
    "rel_conj": "并列的第二项 → 第一项",
    "url_held_out": "不是树库中的留出句子",
    "about_head_lines": (
        "{title}——连线图：左边每个{y}标有它的{relation}，分别连到它所属的词和它注意力最大的{x}；"
        "两者相同处标 ✓，不同处标 ✗。"),
    "about_relation_accuracy": "{title}——条形图：对每种{y}，并排显示各{series}的{x}。",
    # --- weights: where W_Q and W_K came from ---
    "fitting_treebank": "正在用 {n:,} 句真实英文句子学习 W_Q 和 W_K……",
    "fitting_templates": "正在用模板句子（{n:,} 句）学习 W_Q 和 W_K……",
    "weights_trained": (
        "**W_Q 和 W_K 是从 {train:,} 句真实英文网络文本中学出来的**：每个词都被指向它所属的那个词，也就是"
        "它的句法中心词，比如 “the” 或形容词所修饰的名词、主语或宾语所依附的动词。在 {test:,} 句它从未见过的"
        "句子上，每个词最关注的词**有 {acc:.0%} 正是它所属的词**。"),
    "weights_templates": (
        "**W_Q 和 W_K 是从 {train} 句模板句子中学出来的**：这些句子几乎总在问“哪个词对这个名词重要”，"
        "答案又几乎总是“它的动词”，所以这组权重不管谁来问都去看动词。它在留出的模板词对上排对了 {acc:.0%}，"
        "但这里的相关性属于键词本身，而不属于词对。"),
    "weights_run_treebank": (
        "**W_Q 和 W_K 来自你自己的训练**：用 {train:,} 句真实英文句子（{steps} 步，学习率 {lr:g}，种子 {seed}）。"
        "在 {test:,} 句从未见过的句子上，每个词最关注它所属的词的比例是 {acc:.0%}。"),
    "weights_run_templates": (
        "**W_Q 和 W_K 来自你自己的训练**：用模板句子（{steps} 步，学习率 {lr:g}，种子 {seed}），"
        "留出句子中 {acc:.0%} 的词对顺序正确。"),
    "weights_random": "**W_Q 和 W_K 是随机的**（种子 {q} 和 {k}）：什么都没学，所以哪个词关注哪个词全凭运气。",
    "weights_identity": "**W_Q 和 W_K 是单位矩阵**：Q 和 K 就是输入行本身。",
    "weights_identity_cut": (
        "**W_Q 和 W_K 是截成 d_k = {d_k} 列的单位矩阵**：Q 和 K 只保留每个输入行 "
        "{d} 维中的前 {d_k} 维。把 d_k 设为 {d} 即可全部保留。"),
    "weights_other": "**W_Q 和 W_K：{name}**，不是学出来的。",
    "weights_mixed": "**W_Q：{q}；W_K：{k}。**",
    "trained_unavailable": "这组词向量不认识任何一句训练句子的全部词，因此无法学习权重：现改用随机权重。",
    "weights_switch": "权重 W_Q 和 W_K",
    "choice_trained": "从真实句子学到的",
    "choice_templates": "模板句子",
    "choice_random": "随机",
    "choice_identity": "单位矩阵",
    "choice_run": "你的训练结果",
    "preset_trained": "从真实句子学到的（树库）",
    "preset_templates": "从模板句子学到的（只看动词）",
    "preset_run": "你的训练结果（第 5 页）",
    "source_sentence": "源句子（编码器）",
    # --- position weight and row lengths ---
    "position": "位置编码的权重（0 = 不加位置编码）",
    "position_help": (
        "X = E + 权重 · P。权重为 1 时，每个位置编码行与 GloVe 行差不多长；默认值 2 让线性层能分辨"
        "“紧挨着我的词”和“离得很远的词”，而把每个词指向它所属的词正需要这一点。学到的权重也是在同一设置下拟合的。"),
    "own": "允许一个词关注它自己",
    "own_help": (
        "关闭（默认）：每个词自己的格子被遮住（灰色），权重全部分给其他词，因为学到的注意力头回答的是"
        "“我属于哪一个别的词？”。打开：每个词也给自己打分，就像普通的自注意力。"),
    "lengths_title": "每个词的行有多长？位置编码又有多长？",
    "length_word": "{source} 行 |E|",
    "length_position": "位置行 |权重 · P|",
    "length": "长度",
    "part": "行",
    "lengths_note": "位置权重为 {p:g} 时，{source} 行平均长 {word:.2f}，位置行长 {pos:.2f}：位置的长度是词的 {ratio:.0%}。",
    "lengths_off": "不加位置编码时，X 只有词本身：线性层分不清 “cat drank milk” 和 “milk drank cat”。",
    "lengths_small": "因此 X 的每一行以词义为主，位置只是轻轻一推：足以让线性层利用词序，又不至于淹没词义。",
    "lengths_comparable": "因此在 X 中位置和词义差不多响：同一个词放在两个位置，可能还没有同一位置上的两个不同词相像。",
    "lengths_dominant": (
        "因此在 X 的每一行里，位置是更长的那一部分。词义仍然在里面，而线性层对每个方向分别加权，所以两者都能读出来；"
        "学到的注意力头就是在这个权重下拟合的，因为分清“紧挨着的词”和“远处的词”有助于找到每个词所属的词。"),
    # --- length and angle ---
    "la_title": "长度还是角度？“{q}” 的 q·k = |q|·|k|·cos θ",
    "la_rank": "按 {by} 的排名",
    "la_angle": "**角度决定顺序。** 单看 cos θ，键词的顺序就与 q·k 相同；键的长度 |k| 没有改变顺序。查询的长度 |q| 对每个键都一样，所以它从不改变顺序。",
    "la_length": "**长度决定顺序。** 单看角度，顺序本应不同；但更长的键赢了：向量并没有对得更齐，只是变长了。",
    "la_both": "**两者都起作用。** 单看角度或单看键的长度，都得不到 q·k 的顺序；两者的乘积 |k|·cos θ 才给出它。",
    "la_order_dot": "按 q·k：{order}",
    "la_order_cos": "只看 cos θ：{order}",
    "la_order_len": "只看键的长度 |k|：{order}",
    "la_first": "（共 {total} 个键，只列出前 {n} 个）",
    "la_tie": "不同的分数少于两个，没有顺序可解释。",
    "short_glove": "GloVe",
    "short_glove50k": "GloVe",
    "short_upload": "上传的",
    "short_glove-wiki-gigaword-100": "GloVe 100维",
    "short_glove-wiki-gigaword-300": "GloVe 300维",
    "no_chinese_words": "这组词向量几乎没有中文词（GloVe 是从英文文本中学来的），所以这里不会把汉字切分成词。若要使用中文句子，请上传中文词向量。",
    "learn_loss_floor": (
        "交叉熵不可能低于 {floor:.3f}：这是目标份额本身的熵，只有当每个目标词的权重恰好等于它的份额时才能达到（交叉熵要降到 0，"
        "就得让某一个词拿走全部权重，而 ⅔、⅓ 这样的份额并不要求这样）。分数在各自正确的一侧离 0 越远，符号项就越接近 0。"),
    # --- what screen readers read for each chart (about_<builder>), filled in with the chart's titles ---
    "about_heatmap": "{title}——热力图：每个{y}与每个{x}对应一个格子，颜色表示{value}。",
    "about_weight_bars": "条形图：按句中顺序，每个{x}的{y}。",
    "about_contribution_bars": "堆叠条形图：每个{x}上，各{key}的{y}叠在一起；黑色短线标出{z}。",
    "about_alignment_bars": "{title}——条形图：每个{x}的{y}，按{group}着色；右侧单独坐标轴上的折线表示{running}。",
    "about_sign_strips": "{title}——色带图：每个{y}在各{x}上的{value}，蓝为正，红为负。",
    "about_relevance_bars": "{title}——条形图：每个{y}的{x}，最高的在最上面。",
    "about_loss_curve": "{title}——折线图：每个{x}的{y}。",
    "about_pair_curves": "{title}——折线图：每个{pair}在各{x}的{y}。",
    "about_accuracy_curves": "{title}——折线图：每个{line}在各{x}的{y}；虚线表示各{level}达到的水平。",
    "about_vector_plane": "{title}——箭头图：查询向量和键向量都从原点画在同一平面上（{x}、{y}），显示滑块所选训练步的状态。",
    "about_length_bars": "条形图：每个词的{part}{x}并排显示。",
    "upload_evicted": "为了给其他访客的上传腾出空间，你上传的词向量已被释放（服务器能保存的总量有限）。现在显示的是内置的 GloVe；重新上传文件即可继续使用。",
    "upload_over_budget": "这组词向量在内存中占 {size:.0f} MB，超过了本服务器为所有上传共同保留的 {budget:.0f} MB。请减少词数或维数后再上传。",
    "upload_refused_share": "这个文件没有被接收：服务器同一时间为每位访客最多保存 {mb:.0f} MB 的文件，正在发送或读取的文件也算在内。请等第一个文件读完，或只选一个不超过这个大小的文件。",
    "upload_refused_room": "这个文件没有被接收：服务器为所有访客的上传共同保留的 {budget:.0f} MB 正被仍在使用各自词向量的访客占用。请过一分钟再试，或换一个更小的文件。",
    "upload_no_room": "服务器现在放不下这组词向量：它为所有访客的上传共同保留的 {budget:.0f} MB 正被仍在使用各自词向量的访客占用。请过一分钟再试，或上传更小的文件。",
    "queue_wait": "正在等待服务器的训练名额：你前面还有 {n} 个训练。训练轮流进行，好让每个人的页面都保持流畅；点击“停止”即可退出排队。",
    "learn_steps_bound": "在这里一次训练最多 {max:,} 步（{n} 个词、{d} 维、d_k = {d_k}），好让服务器对每个人都保持流畅。",
    "fit_running": "你的训练正在进行：第 {step:,} 步，共 {total:,} 步。点击“停止”会保留已完成的步数。",
    "fit_stopping": "正在第 {step:,} 步之后停止……",
    "fit_too_large": "这次训练的每一步在共享服务器上会花太久：在 {d} 维下，这里的 d_k 最多为 {max}，而不是 {d_k}。请在侧边栏调小 d_k。",
    "fit_too_large_any": "在 {d} 维下，这次训练的每一步在共享服务器上都会花太久，无论 d_k 取多少（现在是 {d_k}）。请换用维数更少的词向量或更小的语料。",
    "fit_left": "你在训练给出任何权重之前停止了它：W_Q 和 W_K 现在是随机的。在顶部的方框中重新选择学到的权重，即可再次排队。",
    "weights_capped": "这里一次训练最多 {max:,} 步，所以链接里的 {asked:,} 步被减到了这个数。",
    "weights_stopped": "这次训练在第 {step:,} 步（共 {total:,} 步）时被停止：这里是它在那一步的权重。",
    "learn_steps_capped": "{asked:,} 步超过了在这些词和词向量上一次训练允许的步数；步数已设为 {max:,}。",
    "relevance_takeaway_other": (
        "预训练的词向量本身就带有一些相关性：常在一起出现的词，向量方向相近，余弦相似度衡量的正是这一点；而直接点"
        "积还会偏向长的向量。Q·K 在此之上加了什么，取决于正在使用的 W_Q 和 W_K；顶部的说明写明了它们"
        "的来历，第 5 页“学习权重”展示训练如何塑造它们。"),
    "reproduce_caption": (
        "把数字带回家：下载一段简短的代码（脚本，或内容相同的笔记本），用同一个句子、同一组词向量、同样的权重和开关"
        "重新算出本页的数字，并完整打印 X、Q、K、V、因子矩阵、注意力权重和 Z。"),
    "reproduce_menu": "用代码重现",
    "reproduce_menu_help": "下载一段 Python 脚本或 Jupyter 笔记本，重新算出本视图的数字。",
    "reproduce_script": "Python 脚本（.py）",
    "reproduce_notebook": "Jupyter 笔记本（.ipynb）",
    "notebook_opening": "## 这个笔记本重建什么\n说明笔记本是什么、需要什么；导入所需的库，并让数字完整打印。",
    "notebook_settings": "## 这一视图的设置\n页面上的句子和各个开关。在这里改一个值，再重新运行下面的单元格。",
    "notebook_vectors": "## 1. 词向量\n加载预训练的词向量：每个词一行数字。",
    "notebook_rows": "## 2. 词变成行\n把句子切成词，查出每个词的向量，再加上位置编码：得到矩阵 X。",
    "notebook_layers": "## 3. 线性层\nW_Q、W_K 和 W_V，各为 d × d_k：一个预设（带随机种子），乘以该层的缩放系数。",
    "notebook_learned": "## 3（续）. 学到的权重\n从句子中学到的一层，每个数字都完整写出，并附上得到它的拟合设置。",
    "notebook_attention": "## 4. 注意力\nQ、K、V；因子矩阵 F = Q·Kᵀ；分数；权重（每一行做 softmax）；Z = 权重 · V。",
    "notebook_heads": "## 5. 多个头\n每个头取 Q、K、V 中属于自己的那几列，各自计算注意力。",
    "notebook_printout": "## 6. 完整的数字\n打印页面上画出的每个矩阵，每行一行，可与页面的 CSV 下载对照。",
    "predict": "先预测",
    "predict_help": "在你猜出查询词最关注哪个词之前隐藏答案。在这个模式下复制的链接就是一道挑战题：打开时答案是隐藏的，链接里也不带答案。",
    "predict_ask": "你的猜测：“{q}” 最关注哪个词？",
    "predict_hidden": "在你做出猜测之前，数字都是隐藏的。",
    "predict_right": "猜对了：“{k}” 得到的注意力最多。",
    "predict_wrong": "这次没猜中：你猜的是 “{guess}”，但得到注意力最多的是 “{k}”。",
    "predict_why_angle": "它靠角度取胜：它的键与 “{q}” 的查询方向最接近（cos θ = {cos:.2f}，最大）。",
    "predict_why_length": "它靠长度取胜：它的键最长（|k| = {len:.2f}），尽管另有一个键的方向与查询更接近。",
    "predict_why_both": "它靠长度和角度共同取胜：单看哪一个都不是第一，但 |k|·cos θ = {len:.2f} × {cos:.2f} 最大。",
    "predict_score": "你这次访问的猜测：{total} 次中猜对 {right} 次。",
    "swap_title": "换掉或删去一个词，看看什么变了",
    "swap_which": "要改的词",
    "swap_new": "新词",
    "swap_new_help": "输入词向量认识的任意一个词，例如它的近邻之一：把 “milk” 换成 “tea”。链接会记下这个改动。",
    "swap_unknown": "词向量里没有 “{word}”，无法换入；请换一个词试试。",
    "swap_said": "把 “{old}” 改成 “{new}” 之后",
    "swap_removed_said": "去掉 “{old}” 之后",
    "swap_moved": "，变化最大的权重：{items}。",
    "swap_item": "“{q}” → “{k}” {d:+.3f}",
    "swap_weights_m": "注意力权重的变化（之后 − 之前）",
    "swap_z_m": "Z 的变化（之后 − 之前）",
    "swap_remove": "删去它",
    "copy_challenge": "复制挑战链接",
    "copy_challenge_help": "同一个视图，但打开了“先预测”：打开链接的人先看到问题而不是答案，猜完才揭晓。链接里既没有猜测也没有答案。",
    "predict_order_ask": "你的猜测：按从多到少的顺序，选出 “{q}” 最关注的 {m} 个词。",
    "predict_order_placeholder": "按顺序选择词语",
    "predict_order_said": "你的顺序 {guess}，Q·K 的顺序 {order}：{pairs} 对词中有 {agree} 对先后一致。",
    "save_charts": "保存图表",
    "save_charts_help": "把本页的每张图保存为图片（SVG 或 PNG），或把它的数值保存为 CSV 表格，文件名包含页面、图表和句子。",
    "save_csv": "CSV · 数值表格",
    "save_svg": "SVG · 矢量图，缩放不失真",
    "save_png": "PNG · 图片",
    # --- the line view (ui/lines.py): attention as lines between the words ---
    "lines_title": "连线图：每个词在看哪些词",
    "lines_head": "第 {h} 个头",
    "lines_head_title": "头",
    "lines_caption": (
        "怎么读：{how}{more}把鼠标移到一个查询词（或热力图的一行）上，只留下这个词的连线，并框出它在热力图中的那一行；"
        "移到一个键词上，就能看到哪些词在看它。"),
    "lines_how_soft": "左边每个查询词都连线到右边它能看到的每个键词，线的不透明度就是权重：0 时完全透明，1 时完全不透明。旁边的热力图逐行列出同样的权重。",
    "lines_how_raw": (
        "没有 softmax 时，连线表示分数本身：线的不透明度是 |分数| ÷ 图中最大的 |分数|；分数为负的线画成虚线"
        "（经过 softmax，这个词几乎得不到权重）。"),
    "lines_more_heads": "{h} 个头各用一种颜色，每个头的线紧挨着其他头的线。",
    "lines_more_first": "{h} 个头中只画出前 {n} 个。",
    "lines_more_masked": "被遮蔽的词对没有连线，热力图中显示为灰色格子。",
    "about_attention_lines": (
        "{title}——连线图：从左边每个{y}连到右边每个{x}，线的不透明度表示{value}，每个{head}"
        "一种颜色；旁边是每个{head}的{value}热力图。"),
    "lines_expander": "用连线来看：哪个词在看哪个词（把鼠标移到一个词上，只看它的线）",
    # --- what a person can get wrong: the engine raises these codes ---
    "err_too_many_tokens": "这个句子有 {count} 个词元，本工具最多显示 {max} 个。请缩短句子。",
    "err_offline": "“{name}”需要从互联网下载，而本服务器无法联网。请使用内置的 GloVe 词向量，或上传你自己的。",
    "err_not_utf8": "第 {line} 行不是 UTF-8 文本（字节 {byte}）。请上传 word2vec 或 GloVe 文本文件；pickle 等二进制文件一律不会被打开。",
    "err_empty": "文件是空的。请上传形如 “word 0.1 -0.2 ...” 的行。",
    "err_nul": "第 {line} 行含有 NUL 字节，看起来不是文本格式的词向量文件。",
    "err_no_numbers": "第 {line} 行只有词（“{word}”），没有数值。",
    "err_not_number": "第 {line} 行：“{value}” 不是数字。",
    "err_mixed_dims": "第 {line} 行有 {n} 个数值，而前面各行有 {d} 个；所有向量的维数必须相同。",
    "err_not_finite": "第 {line} 行（“{word}”）含有 NaN 或无穷大；所有数值都必须是有限的。",
    "err_header_only": "文件只有表头一行，没有向量。请加上形如 “word 0.1 -0.2 ...” 的行。",
    "err_header_lies": "表头声称有 {words} 个词、{dims} 维，但文件里实际是 {n} 个词、{d} 维。",
    "err_duplicate": "词 “{word}” 出现了不止一次；每个词只能有一个向量。",
    "err_too_big": "文件大小为 {size}，超过了上限 {limit}。",
    "err_not_npy": "矩阵文件不是 .npy 格式（开头应当是 .npy 文件头）；请用 numpy.save 保存。",
    "err_npy_unreadable": "无法把这个 .npy 文件读成普通数值数组（{reason}）。",
    "err_words_not_utf8": "词表不是 UTF-8 文本；请每行写一个词。",
    "err_npy_shape": "这个 .npy 文件必须是二维数值矩阵，而不是形状为 {shape}、类型为 {dtype} 的数组。",
    "err_npy_rows": "词表有 {words} 个词，但矩阵有 {rows} 行。",
    "err_words_repeat": "词表中有重复的词；每个词只能对应一行。",
    "err_npy_not_finite": "矩阵中含有 NaN 或无穷大；所有数值都必须是有限的。",
    "err_upload_pair": "请只上传一个 .npy 矩阵和一个词表（.txt）。",
    "err_upload_one": "请上传一个词向量文件（.txt、.vec 或 word2vec 的 .bin），或一个 .npy 矩阵加一个词表（.txt）。",
    "err_too_many_dims": "这组词向量有 {dims} 维；本工具最多接受 {max} 维。请先降维（例如用 PCA），或换一组较小的词向量。",
    "err_too_many_words": "文件中的词超过了 {max} 个，这是本工具能接受的上限。请只保留前 {max} 个（大多数文件按词频从高到低排列）后重新上传。",
    "err_header_dims": "第 {line} 行有 {n} 个数值，但表头说每个向量有 {dims} 维。",
    "err_header_more": "第 {line} 行是第 {count} 个词，但表头说文件只有 {words} 个词。",
    "err_bin_header": (
        "word2vec 二进制文件（.bin）应以 “3000000 300” 这样的一行（词数、维数）开头，这个文件不是。请用 gensim 的 save_word2vec_format(..., "
        "binary=True) 保存。"),
    "err_bin_unreadable": "无法读取这个 word2vec 二进制文件（{reason}）。请确认它是完整的 word2vec .bin 文件。",
    "err_bin_not_finite": "“{word}” 的向量含有 NaN 或无穷大；所有数值都必须是有限的。",
    "err_download_damaged": "“{name}” 的下载文件已损坏（{reason}），没有保留。请稍后再试，或使用内置的 GloVe 词向量。",
    "err_corpus_columns": "第 {line} 行：应有 sentence、query、targets、split 四列，实际有 {found} 列。",
    "err_corpus_header": "第一行必须写明列名：sentence,query,targets,split。",
    "err_corpus_empty": "语料库里没有样例。",
    "err_corpus_too_big": "语料库文件有 {size:,} 字节；最多接受 {limit:,} 字节。",
    "err_corpus_too_many": "语料库超过了 {limit:,} 条样例；请拆成更小的文件。",
    "err_corpus_not_utf8": "语料库不是 UTF-8 文本。",
    "err_corpus_no_sentence": "第 {line} 行：句子是空的。",
    "err_corpus_long_sentence": "第 {line} 行：句子有 {count} 个词元；最多允许 {max} 个。",
    "err_corpus_query_missing": "第 {line} 行：查询词 “{query}” 不是句中的词。",
    "err_corpus_query_twice": "第 {line} 行：查询词 “{query}” 在句中出现了不止一次；请选一个只出现一次的词。",
    "err_corpus_target_format": "第 {line} 行：“{item}” 应写成 词=相关性，例如 drank=1。",
    "err_corpus_target_word": "第 {line} 行：目标词 “{word}” 不是句中的词。",
    "err_corpus_target_query": "第 {line} 行：查询词 “{word}” 不能同时是目标词。",
    "err_corpus_target_twice": "第 {line} 行：目标词 “{word}” 给了两次。",
    "err_corpus_target_value": "第 {line} 行：“{word}” 的相关性是 “{value}”；请用 0 到 1 之间的数。",
    "err_corpus_few_targets": "第 {line} 行：请至少给句中 3 个其他词设相关性（现有 {count} 个）。",
    "err_corpus_flat_targets": "第 {line} 行：目标值不能全都相等，否则无法说明顺序。",
    "err_corpus_split": "第 {line} 行：split 是 “{split}”；请用 train 或 test。",
    "err_corpus_no_split": "语料库至少需要一条 train 样例和一条 test 样例。",
    "err_corpus_no_room": "这次拟合需要约 {mb} MB 的工作内存，服务器现在腾不出来：它为所有访客的上传和拟合共同保留 {budget} MB。请过一分钟再试，或把 d_k 调小。",
    "err_corpus_no_known": "没有一句训练句子的词全都在这组词向量里，因此无从拟合。",
    # class mode (steps/8_Class.py, ui/classroom.py)
    "nav_class": "8 · 课堂",
    "class_title": "课堂：人人先预测，再看全班怎么选",
    "class_intro": "老师向全班提出本工具里的一道“先预测”问题。每个学生在自己的屏幕上作答，全班看到大家的选择，老师一键在所有屏幕上揭晓答案。",
    "class_how": "**要授课？** 打开第 2、4、6 或 7 页，打开“先预测”，选一个词，再按“向全班提问”。**要加入？** 输入老师展示的课堂码，或打开老师给的链接。",
    "class_ask": "向全班提问",
    "class_ask_next": "下一题问这个",
    "class_ask_help": "以这道题开一堂课：学生用课堂码加入，在自己的屏幕上作答，你揭晓时他们就看到答案。",
    "class_db_down": "课堂数据库暂时没有响应，课堂模式先暂停。工具的其他部分照常可用；请过一分钟再试。",
    "class_code_is": "## 课堂码：`{code}`",
    "class_link_is": "学生打开这个链接，或扫描二维码，或在“课堂”页输入课堂码：",
    "class_next_how": "下一题：打开任意带“先预测”的页面，选好词，按“下一题问这个”。全班都会跟过去。",
    "class_qr": "扫码加入",
    "class_joined": "已加入的学生",
    "class_asked": "全班的题目：“{q}” 最关注哪个词？",
    "class_asked_order": "全班的题目：按从多到少的顺序，选出 “{q}” 最关注的 {m} 个词。",
    "class_answered": "已回答本题",
    "class_question_no": "第几题",
    "class_show_before": "揭晓前就显示全班的选择",
    "class_reveal": "揭晓答案",
    "class_end": "结束课堂",
    "class_csv": "下载全部回答（CSV）",
    "class_ended_teacher": "课堂已结束。在它过期之前，回答仍可下载。",
    "class_code": "课堂码",
    "class_nickname": "昵称（可不填）",
    "class_nickname_help": "最多 20 个字符。除此之外不保存你的任何信息。",
    "class_join": "加入课堂",
    "class_ended": "这堂课已经结束，谢谢参与。工具的其他部分你可以继续探索。",
    "class_pick": "你的回答",
    "class_pick_order": "你的回答：这 {m} 个词，被关注最多的在前",
    "class_sent": "已提交：{answer}。老师揭晓答案之前都可以修改。",
    "class_not_sent": "还没有回答。",
    "class_no_answer": "这一题你没有作答。",
    "class_yours": "你的回答是 {answer}。",
    "class_answer": "答案：{order}。",
    "class_why_angle": "“{k}”赢在角度：它的键与“{q}”的查询方向最接近。",
    "class_why_length": "“{k}”赢在长度：它的键够长，胜过了角度更小的键。",
    "class_why_both": "“{k}”靠长度和角度一起取胜：单靠其中一个都排不到第一。",
    "class_open_view": "打开这个视图",
    "class_chart_title": "全班认为“{q}”最关注哪个词",
    "class_students": "学生人数",
    "class_right_mark": "✓ 答案",
    "class_teacher_gone": "已经一分钟没看到老师的屏幕了。你仍然可以作答；老师揭晓后就会显示答案。",
    "class_leave": "离开课堂",
    "about_room_bars": "{title}——条形图：每个{x}被多少{y}选为第一。",
    "err_class_unknown": "没有这个课堂码对应的课堂。请向老师核对。",
    "err_class_expired": "这堂课已过期：课堂只保留 12 小时。",
    "err_class_ended": "这堂课已经结束。",
    "err_class_not_teacher": "只有这堂课的老师才能这样做。",
    "err_class_not_student": "这个浏览器标签页还没有加入这堂课。请用课堂码重新加入。",
    "err_class_not_asking": "答案已经揭晓，不再接受回答。",
    "err_class_stale_question": "老师已经换到下一题了。",
    "err_class_bad_answer": "这个回答不在给出的词里。",
    "err_class_nickname_long": "昵称最多 {limit} 个字符。",
    "err_class_nickname_chars": "昵称里不能有换行或控制字符。",
    "err_class_bad_code": "课堂码是 8 个字母和数字，例如 ABCD 2345。",
    "err_class_rate_limited": "短时间内尝试次数太多。请等一分钟。",
    "err_class_bad_question": "这道题不能拿来问全班（它的 {field} 太长或不寻常）。",
    "err_class_db_version": "课堂数据库是由更新版本的工具创建的。",
    "err_class_full": "这堂课已满：最多 {limit} 名学生。",
    "err_class_too_many_questions": "这堂课的提问数已达上限；请另开一堂课。",
}
