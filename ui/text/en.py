"""English: every user-facing string, keyed by name; placeholders use str.format."""

STRINGS = {
    # --- shared: app, sidebar, navigation, notices ---
    "app_title": "Attention, word by word",
    "nav_home": "Home: the whole story",
    "nav_words": "1 · Words become rows",
    "nav_factor": "2 · The factor matrix",
    "nav_dot": "3 · Why dot products work",
    "nav_relevance": "4 · Relevance between words",
    "nav_learn": "5 · Learning",
    "nav_kinds": "6 · Three kinds of attention",
    "language": "Language",
    "language_name": "English",  # how the language switch shows this language, in itself
    "source": "Word vectors",
    "source_glove": "GloVe 6B 50d · 400k words",
    "source_glove50k": "GloVe 6B 50d · 50k most frequent",
    "source_upload": "Your own vectors (upload)",
    "source_glove-wiki-gigaword-100": "GloVe 100d (download, needs internet)",
    "source_glove-wiki-gigaword-300": "GloVe 300d (download, needs internet)",
    "source_offline": (
        "This set has to be downloaded, and this server cannot reach the internet. Showing the built-in GloVe 6B "
        "50d instead."),
    "upload_files": "Vectors file (word2vec/GloVe text, or word2vec .bin), or a .npy matrix plus a word list",
    "upload_help": (
        "Text (.txt, .vec): one word per line followed by its numbers, optionally a first line 'count dim'. "
        "Binary (.bin): word2vec's binary format. Up to 50 MB, 500,000 words and 1,000 dimensions. Kept for your "
        "session only; never shared, never unpickled."),
    "upload_error": "That file could not be used: {error} The previous vectors stay in use.",
    "upload_ok": "Using your vectors: {n:,} words of {d} dimensions.",
    "upload_none": "No vectors uploaded yet — the built-in GloVe 6B 50d is shown until you upload.",
    "copy_link": "Copy link to this view",
    "copy_link_help": (
        "Anyone who opens this link sees exactly this page, sentence and settings. Use the copy button at the "
        "right of the box."),
    "sentence": "Sentence",
    "target_sentence": "Target sentence (decoder)",
    "layers": "Linear layers W_Q, W_K, W_V",
    "preset": "{layer} preset",
    "seed": "{layer} seed",
    "scale": "{layer} scale",
    "d_k": "d_k (columns of each layer)",
    "preset_identity": "identity",
    "preset_scaled identity": "scaled identity",
    "preset_random": "random (Gaussian)",
    "preset_rotation": "random rotation",
    "url_notice": "Some settings in the link were not understood and use their defaults: {items}.",
    "url_item": "'{name}={value}' ({reason})",
    "url_bool": "expected true or false",
    "url_number": "expected a number from {lo} to {hi}",
    "url_whole": "expected a whole number from {lo} to {hi}",
    "url_choice": "expected one of {options}",
    "url_cut_notice": "Some text in the link was longer than the dashboard keeps and was cut: {items}.",
    "url_cut": "cut to its first {max} characters",
    "url_unread": "This link was too long for the server to read whole (Streamlit reads at most 1,000 parameters and "
                  "524,288 characters), so only the dashboard's own settings were taken from it. Check the view, or "
                  "make a new link with “Copy link to this view”.",
    "url_unknown": "unknown setting",
    "empty_sentence": "Type a sentence in the sidebar to begin — for example “The ball is blue”.",
    "no_known_words": (
        "None of the words in “{text}” are in the vocabulary, so there is nothing to show. Try an English "
        "sentence such as “The ball is blue”."),
    "missing_words": "Not in the vocabulary, left out: {items}.",
    "missing_item": "“{word}” (did you mean {suggestions}?)",
    "missing_item_plain": "“{word}”",
    "overflow": "The numbers grew too large to compute. Lower the layer scale.",
    "download": "Download {name} as CSV",
    "row": "word (row)",
    "dim": "dimension",
    "value": "value",
    "query_word": "query word",
    "key_word": "key word",
    # --- home ---
    "home_intro": (
        "Attention lets every word look at every other word and decide how much each one matters to it. Below, "
        "the sentence travels the whole way: each word becomes a **row of numbers**, three linear layers turn "
        "those rows into queries **Q**, keys **K** and values **V**, the **factor matrix** Q·Kᵀ scores every "
        "(query word, key word) pair, and the output **Z** mixes the value rows by those scores."),
    "home_read": (
        "How to read it: every matrix has **one row per word**, labelled with the word. Blue cells are positive, "
        "red negative, white near zero. Hover any cell for its number; each step has its own page in the sidebar."),
    "home_step_rows": "① Words → rows (embedding + position)",
    "home_step_qk": "② Rows → Q and K",
    "home_step_factor": "③ Factor matrix → attention weights",
    "home_step_z": "④ Output Z = weights · V",
    "home_go": "Open this step",
    "home_more": "⑤ Then: why dot products work, relevance, learning, the three kinds of attention, and the head on real sentences",
    # --- page 1: words become rows ---
    "words_title": "Words become rows",
    "words_intro": (
        "Each token of the sentence is looked up in the pretrained {source} vectors: one row of {d} numbers per "
        "word. Adding the positional encoding tells the model where each word stands. Three linear layers then "
        "multiply the rows by W_Q, W_K and W_V — and every output matrix still has one row per word."),
    "tokens": "Tokens",
    "embedding": "Embedding E ({source})",
    "positional_m": "Positional encoding, weighted: {p:g} · P",
    "x_m": "Input rows X = E + weight · P",
    "x_m_nopos": "Input rows X = E (positional encoding off)",
    "weights_m": "Weights {name} [{d_in} × {d_out}]",
    "in_dim": "input dimension",
    "out_dim": "output dimension",
    "q_m": "Queries Q = X·W_Q",
    "k_m": "Keys K = X·W_K",
    "v_m": "Values V = X·W_V",
    "rows_note": (
        "Row i of Q, K and V comes from row i of X only: the word stays the row label all the way through."),
    "pe_off_note": "Positional encoding is switched off in the sidebar.",
    # --- page 2: factor matrix ---
    "factor_title": "The factor matrix Q·Kᵀ",
    "factor_intro": (
        "Cell (i, j) is the dot product of query word i with key word j: how strongly word i is drawn to word j. "
        "Switch on scaling by √d_k and the softmax along each row; neither changes which row belongs to which "
        "word. Click a cell (or use the selector) to follow one query word."),
    "own_hidden": (
        "Grey cells: each word's own cell is hidden, so its weights go to the other words — the learned head "
        "answers “which other word does this word belong to?” (switch “A word may attend to itself” in the "
        "sidebar's layers)."),
    "scaled": "Divide by √d_k",
    "softmax": "Softmax along each row",
    "factor_m": "Factor matrix F = Q·Kᵀ",
    "weights_m_soft": "Attention weights softmax(·) — each row sums to 1",
    "weights_m_raw": "Weights (no softmax: the scores themselves)",
    "z_m": "Output Z = weights · V",
    "query": "Query word",
    "key": "Key word",
    "weight": "weight",
    "chosen_weights": "How much “{q}” attends to each word",
    "contrib_title": "Row “{q}” of Z = Σ weight × value row",
    "contrib_other": "other words",
    "contribution": "weight × value",
    "z_row": "Z row",
    "sum_check": (
        "Check: the contributions add up to row “{q}” of Z. The two agree in their first {digits} digits; a "
        "computer keeps about 16 digits of each number, so what is left is rounding."),
    "sum_check_off": (
        "Check failed: the contributions and row “{q}” of Z agree only in their first {digits} digits. Rounding "
        "leaves at least {need} in agreement, so something other than rounding differs."),
    "click_hint": "Click a cell of the heatmap to choose the query word.",
    # --- page 3: why a dot product measures relevance ---
    "dot_title": "Why a dot product measures relevance",
    "dot_intro": (
        "The score of a query word for a key word is the dot product q·k = Σ q_i × k_i: one product per "
        "dimension, all added up. Where both numbers have the same sign — (+,+) or (−,−) — the product is "
        "positive and **pushes the score up**; where the signs differ it is negative and **pulls the score "
        "down**. The bigger the numbers on both sides, the more that dimension counts. The bars show every "
        "dimension's product, the line their running sum: its last point is the dot product. A second key word "
        "sits beside the first to compare."),
    "pair_rows": "Rows to compare",
    "pair_rows_qk": "q from Q, k from K (current layers)",
    "pair_rows_embedding": "raw GloVe rows (no layers)",
    "sort": "Order of the dimensions",
    "sort_dimension": "by dimension",
    "sort_size": "largest product first",
    "key2": "Second key word, to compare",
    "products_title": "“{q}” · “{k}”: q_i × k_i per dimension",
    "product": "q_i × k_i",
    "running": "running sum",
    "group": "sign group",
    "group_++": "(+,+) both positive",
    "group_--": "(−,−) both negative",
    "group_+-": "(+,−) signs differ",
    "group_-+": "(−,+) signs differ",
    "signs_title": "Signs of q and of both keys, dimension by dimension (blue +, red −)",
    "vector": "vector",
    "dot_value": (
        "**q·k = {dot:.4f}**: the same-sign dimensions add {agree:+.4f}, the mixed-sign ones {disagree:+.4f}."),
    "dot_pair_value": (
        "**“{q}” · “{k}”: q·k = {dot:.4f}** — the same-sign dimensions add {agree:+.4f}, the mixed-sign ones "
        "{disagree:+.4f}."),
    "dimensions": "dimensions",
    "group_sum": "sum of products",
    "group_check": "Check: the four group sums add up to {total:.4f}, the dot product {dot:.4f}.",
    "dot_note": (
        "q is row “{q}” of Q and k is row “{k}” of K: their dot product is cell (“{q}”, “{k}”) of the factor "
        "matrix on page 2, before any scaling or softmax."),
    "dot_note_embedding": (
        "q and k are the {source} rows of “{q}” and “{k}” themselves, before positional encoding and the linear "
        "layers."),
    # --- the sign of a score (ui/signs.py): pages 2, 3, 4 and home ---
    "signs_positive_cells": "**Cells above 0, row by row** (the words each word is drawn to by the sign): {rows}.",
    "signs_no_positive": (
        "No other word scores above 0 for {words}: by the sign nothing here is relevant to them, yet the softmax still "
        "hands out all of their attention."),
    "signs_pair_above": (
        "The same-sign dimensions outweigh the mixed-sign ones, so q·k is above 0: by its sign, “{k}” is relevant to "
        "“{q}”."),
    "signs_pair_below": (
        "The mixed-sign dimensions outweigh the same-sign ones, so q·k is below 0: by its sign, “{k}” is not relevant "
        "to “{q}”."),
    "signs_pair_zero": "The two kinds of dimensions cancel exactly: q·k is 0, and its sign says nothing of “{k}”.",
    "signs_row_below": (
        "Every score of “{q}” is at most 0, so with these weights the sign does not carry the lesson: “{top}” leads "
        "only by being the least negative (a softmax looks only at differences within a row)."),
    "signs_shift_title": "Softmax looks only at differences within a row",
    "signs_shift_add": "Add one number to every score of “{q}”",
    "signs_shift_help": "The same number goes onto each cell of the query word's row of scores, before the softmax.",
    "signs_shift_score": "score",
    "signs_shift_shifted": "score + {c:g}",
    "signs_shift_before": "weight",
    "signs_shift_after": "weight after",
    "signs_shift_result": (
        "Adding {c:+g} to every score of “{q}” moves none of its weights: the largest change is {moved:.1e}, "
        "rounding. The softmax divides each e^score by the row's sum, and the common factor e^c cancels."),
    "signs_shift_none": "Move the slider to add a number to every score of “{q}”, and watch its weights on the right.",
    "signs_shift_sign": (
        "So the softmax cannot tell whether a row's scores sit above or below 0: training has to ask for that itself "
        "(page 5's sign term). **The sign says whether a word is relevant at all; the softmax says how much of the "
        "attention it gets.**"),
    # --- page 4: relevance between words ---
    "relevance_title": "Relevance between words",
    "relevance_intro": (
        "How much does the query word care about each other word? Three measures score it against every other "
        "word: the plain dot product of the {source} vectors, their cosine similarity (the dot product after "
        "scaling both vectors to length 1), and Q·K from the current linear layers."),
    "relevance_story": (
        "In “The black cat drank the milk” we would like “milk” to be drawn most to “drank” (what happened to "
        "it), less to “cat” (who did it) and hardly at all to “black” (the colour of something else)."),
    "expected": "Expected order, most relevant first (words separated by “>”)",
    "measure_dot": "{source} dot product",
    "measure_cosine": "{source} cosine similarity",
    "measure_qk": "Q·K, current layers",
    "measure_qk_scaled": "Q·K / √d_k, current layers",
    "measure_dot_short": "dot",
    "measure_cosine_short": "cos",
    "measure_qk_short": "Q·K",
    "rank_short": "#",
    "ranking_legend": "{columns}. **#**: the rank under the measure to its left (1 = most relevant).",
    "ranking_name": "**{short}**: {name}",
    "word": "word",
    "score": "score",
    "rank": "rank",
    "relevance_note": (
        "The two {source} measures use the word vectors alone, so a repeated word scores the same each time. Q·K "
        "uses the rows after positional encoding and the linear layers, as on page 2."),
    "ranking": "Ranking of the other words for “{q}” (1 = most relevant)",
    "file_ranking": "ranking",
    "verdict_met": "{measure}: {order} — the expected order holds ({values}).",
    "verdict_missed": (
        "{measure}: expected {order}, but the scores are {values} — the expected order does not hold."),
    "order_format": (
        "Write the expected order as two or more words of the sentence separated by “>”, for example “drank > "
        "cat > black”."),
    "order_unknown": (
        "“{word}” is not one of the other words of this sentence, so the expected order cannot be checked. Words "
        "you can use: {words}."),
    "order_query": "“{word}” is the query word itself; the expected order ranks the other words against it.",
    "order_repeated": "“{word}” appears more than once in the expected order; name each word once.",
    "order_ambiguous": "“{word}” occurs more than once in the sentence; write {labels} to say which one.",
    "need_two_words": (
        "Relevance compares the query word with the other words: give the sentence at least two words the "
        "vocabulary knows."),
    "takeaway_title": "What to take away",
    "relevance_takeaway": (
        "Pretrained vectors already carry relevance: words used together point in similar directions, so in the "
        "story sentence raw GloVe puts “drank” first for “milk”. The plain dot product also rewards long "
        "vectors, which is how “black” (a longer vector than “cat”) overtakes “cat”; cosine similarity divides "
        "the lengths out and gets the whole order."),
    "relevance_pairs": "The word each word attends to most under the current Q·K: {pairs}.",
    "relevance_pairs_differ": (
        "Different words pick different partners: relevance belongs to the pair of words, not to the key word "
        "alone."),
    "relevance_pairs_same": (
        "Every other word picks “{k}”: with these weights relevance belongs to that key word, whoever asks — the "
        "opposite of what attention is for."),
    # --- page 5: learning ---
    "learn_title": "Learning: training the weights until the scores follow your targets",
    "learn_intro": (
        "Nobody sets W_Q and W_K by hand: a transformer **learns** them. Here you say how relevant some key "
        "words should be to a query word, and training adjusts the weights step by step until the scores follow. "
        "The loss has two terms. **Which word**: for each query word the targets become shares that sum to 1 (1, "
        "0.5, 0 → ⅔, ⅓, 0), and the cross-entropy compares them with the softmax of the query's scores over the "
        "same key words; a softmax sees only differences within a row, so this term never says where 0 lies. "
        "**Whether at all**: the sign term asks each pair with a target above 0 for a score above 0 and each pair "
        "with target 0 for a score below 0 (a logistic loss; a word's relevant keys together count as much as its "
        "irrelevant ones). Every step moves the chosen parameters a little further downhill on their sum. Press "
        "**Train** and watch the loss fall, the scores reorder and change sign; the results then say whether the new "
        "order came from the vectors turning into line (the angle) or from some of them growing longer (the "
        "length)."),
    "learn_targets_title": "1 · Target relevances",
    "learn_targets_help": (
        "Each row is one (query word, key word) pair and how relevant the key word should be to the query word: "
        "1 high, 0.5 medium, 0 not relevant. The ratios between one query word's rows set the shares it aims for; "
        "whether a target is 0 or above 0 sets the sign its score should have. Add or delete rows with the table's "
        "own controls. Words of this sentence: {words}. A word that occurs twice is written with its position, like "
        "“the (5)”."),
    "learn_target": "target",
    "learn_target_help": "How relevant the key word should be: a number of 0 or more, such as 1, 0.5 or 0.",
    "targets_problems": "The targets cannot be used yet, so training waits:",
    "target_no_query": "Row {row}: fill in the query word.",
    "target_no_key": "Row {row}: fill in the key word.",
    "target_no_value": "Row {row}: fill in the target, a number such as 1, 0.5 or 0.",
    "target_unknown": "Row {row}: “{word}” is not a word of this sentence. Words you can use: {words}.",
    "target_ambiguous": (
        "Row {row}: “{word}” occurs more than once in the sentence; write {labels} to say which one."),
    "target_not_number": "Row {row}: the target “{value}” is not a number; use a number such as 1, 0.5 or 0.",
    "target_negative": (
        "Row {row}: the target {value} is negative. Targets cannot be negative; use 0 for “not relevant”."),
    "target_duplicate": (
        "Row {row} gives the pair “{q}” → “{k}” a second target (row {first} already does); give each pair one "
        "target."),
    "targets_empty": "Add at least one target: a query word, a key word and a relevance such as 1.",
    "target_all_zero": (
        "Every target of “{q}” is 0, so there is nothing for it to attend to; give at least one of its key words "
        "a target above 0."),
    "learn_how_title": "2 · What learns, and how fast",
    "learn_what": "Parameters to learn",
    "learn_w_q": "W_Q",
    "learn_w_k": "W_K",
    "learn_w_v": "W_V",
    "learn_x": "word vectors of the sentence",
    "learn_lr": "Learning rate",
    "learn_steps": "Steps",
    "learn_seed": "Starting seed",
    "learn_wv_note": (
        "W_V is never used to compute the scores or the attention weights: it only shapes what each word passes "
        "on once attention is decided. So this loss gives W_V a gradient of exactly 0, and asking to learn it "
        "leaves it unchanged."),
    "learn_unknown_param": (
        "The link asks to learn {names}, which is not one of the parameters here; it is ignored."),
    "learn_choose": "Choose at least one parameter to learn.",
    "learn_start_missed": (
        "Before training, the target order does not hold; the scores run {order}. Press **Train** to learn "
        "weights that put it right."),
    "learn_start_held": (
        "Before training, the target order already holds; the scores run {order}. Training pulls the scores "
        "towards the target shares."),
    "learn_train": "Train",
    "learn_stop": "Stop",
    "learn_progress": "Step {step} of {total} · loss {loss:.4f}",
    "learn_live_title": "Loss so far",
    "learn_not_trained": "Press **Train** to start; the results appear here.",
    "learn_kept_result": "Below is still the last training run.",
    "learn_overflow": "The numbers grew too large to compute. Lower the learning rate.",
    "learn_results_title": "3 · Training and its results",
    "learn_stale": (
        "These results are from the last run ({steps} steps, learning rate {lr:g}, seed {seed}); settings have "
        "changed since. Press **Train** to train with the current ones."),
    "learn_stopped": (
        "Training was stopped at step {step} of {total}; everything below shows the steps up to there."),
    "learn_verdict_reached": (
        "**The target order was reached at step {step}** and held {until}; the scores run {order}."),
    "learn_verdict_start": (
        "**The target order already held at the start** and stayed so {until}; the scores run {order}."),
    "learn_verdict_missed": (
        "**The target order was not reached** by step {end}; the scores run {order}. Try more steps, a larger "
        "learning rate or another seed."),
    "learn_signs_reached": (
        "**The signs were right from step {step} on**: {pairs}. The sign term (weight {w:g}) asked for them; the "
        "cross-entropy alone could not, as it ignores a number added to a whole row."),
    "learn_signs_start": "**The signs were right from the start** and stayed so: {pairs}.",
    "learn_signs_missed": (
        "**Not every sign is right at the end**: {pairs}. Try more steps or a larger sign term weight."),
    "learn_signs_off": (
        "**The sign term is off** (weight 0), so nothing asked for the signs: {pairs}. The cross-entropy only puts "
        "the scores in order."),
    "learn_sign_pair": "“{q}” · “{k}” {score:+.2f} {mark}",
    "learn_until_end": "until the end of training (step {end})",
    "learn_until_stop": "until training was stopped (step {end})",
    "learn_order_row": "for “{q}”, {keys}",
    "learn_came_angle": (
        "For “{q}”, the **angle** sets this order: by cos θ alone its keys rank {cos_order}, as the scores do; "
        "the key lengths do not change it."),
    "learn_came_length": (
        "For “{q}”, **length** sets this order, not alignment: by cos θ alone its keys would rank {cos_order}, "
        "but the longer key vectors win ({len_order} by length |k|)."),
    "learn_came_both": (
        "For “{q}”, length and angle **together** set this order: by cos θ alone its keys would rank "
        "{cos_order}, by length |k| alone {len_order}."),
    "learn_loss_title": "Loss and its two terms",
    "learn_term_order": "cross-entropy: which word",
    "learn_term_sign": "sign term × {w:g}: whether at all",
    "learn_term_total": "loss: their sum",
    "learn_term": "term",
    "learn_loss": "loss",
    "learn_step": "step",
    "learn_score": "score q·k/√d_k",
    "learn_scores_title": "Score of each target pair",
    "learn_weights_title": "Attention weight of each pair",
    "learn_cosine_title": "Cosine of the angle between q and k",
    "learn_cosine": "cosine",
    "learn_pair": "pair",
    "learn_order_marker": "target order reached",
    "learn_goal_share": "target share",
    "learn_goal_share_help": "The targets of one query word scaled to sum to 1: what training aims for.",
    "learn_share": "share reached",
    "learn_share_help": (
        "Softmax of the query's scores over its target key words only: what the loss compares with the target "
        "share."),
    "learn_weight_help": (
        "Attention weight over the whole sentence: the share the pair gets when every word competes."),
    "learn_score_start": "score at start",
    "learn_score_end": "score at end",
    "file_learning": "training steps",
    "learn_align_title": "The dot products, dimension by dimension, before and after",
    "learn_align_intro": (
        "The bars of page 3 for the query vector q of “{q}” against the key vectors k of {keys}, at the start "
        "(left) and at the end of training (right). Training tends to turn the dimensions of the most relevant "
        "pair to matching signs (blue) and those of the least relevant pair to opposite signs (red), and to make "
        "the products bigger — mind the vertical axes."),
    "learn_before": "Start (step 0): “{q}” · “{k}”",
    "learn_after": "After step {step}: “{q}” · “{k}”",
    "learn_plane_title": "Watching the vectors turn",
    "learn_plane_intro": (
        "Every query vector q and key vector k, drawn as an arrow from the origin in one flat view. The bold "
        "arrows are q of “{q}” and k of {keys}; the dashed trails are their paths through training. Drag the "
        "slider under the chart through the snapshots and see whether q of “{q}” turns towards the keys it "
        "should attend to. On the right, the same turning measured in all {d_k} dimensions: the cosine of the angle "
        "between q and each k (1 = same direction, 0 = at right angles, −1 = opposite)."),
    "learn_plane_chart": "Q and K vectors in one fixed 2-D view",
    "learn_axis": "axis {n}",
    "learn_role": "vector",
    "learn_role_q": "query q",
    "learn_role_k": "key k",
    "learn_slider": "training step (0–{m}) ",
    "learn_plane_note": (
        "The view is the plane through the origin that fits the vectors of all snapshots best (PCA by SVD), "
        "fitted once so that every snapshot uses the same axes; it keeps {kept:.0%} of their squared length. "
        "Scores use all {d_k} dimensions, so the flat picture shows the direction of change, not the exact "
        "numbers."),
    # --- page 6: three kinds of attention ---
    "kinds_title": "Three kinds of attention",
    "kinds_intro": (
        "A translation transformer uses the same attention in three places. The **encoder** lets every source "
        "word look at every source word. The **decoder** lets every target word look at the target words before "
        "it. **Encoder–decoder attention** lets every target word look at the source sentence. The computation "
        "is the one from the factor-matrix page each time; what changes is where the rows of Q, K and V come "
        "from."),
    "kinds_source": "**Source sentence** (encoder; edit it in the sidebar): {text}",
    "empty_target": "Type a target sentence above — for example “La bola es azul”.",
    "need_source": "This attention needs source rows: give the sidebar sentence at least one known word.",
    "need_target": "This attention needs target rows: give the target sentence at least one known word.",
    "heads": "Heads",
    "heads_help": (
        "Each head gets d_k ÷ heads of the columns of Q, K and V; only divisors of d_k = {d_k} split evenly."),
    "heads_fallback": (
        "{h} heads cannot split d_k = {d_k} columns evenly, so the page went back to 1 head. Choose one of the "
        "numbers offered."),
    "tab_enc": "Encoder self-attention",
    "tab_dec": "Decoder self-attention",
    "tab_cross": "Encoder–decoder attention",
    "enc_intro": (
        "Q, K and V all come from the **source** rows: each source word looks at every source word, itself and "
        "the words after it included."),
    "dec_intro": (
        "Q, K and V all come from the **target** rows. A decoder writes the translation left to right, so the "
        "later words do not exist yet: with the causal mask each target word sees only itself and the words "
        "before it. Masked cells are grey and labelled “masked”; their weight is exactly 0."),
    "causal": "Causal mask: each word sees only itself and earlier words",
    "mask_hides": (
        "The mask hides {later} from “{q}”. Without it, “{q}” would put {p:.0%} of its attention on them."),
    "mask_hides_raw": "The mask hides {later} from “{q}”: their weights are set to 0.",
    "mask_off": (
        "Mask off: “{q}” now puts {p:.0%} of its attention on {later} — words a decoder writing left to right "
        "has not produced yet. Switch the mask on to hide them."),
    "mask_off_raw": (
        "Mask off: “{q}” now also scores {later} — words a decoder writing left to right has not produced yet. "
        "Switch the mask on to hide them."),
    "mask_last": (
        "“{q}” is the last target word, so it sees every word with or without the mask; pick an earlier word to "
        "see what the mask hides."),
    "cross_intro": (
        "Queries come from the **target** rows; keys and values come from the **source** rows (in a full "
        "transformer, the encoder's output). The factor matrix is [target words × source words], and Z has one "
        "row per target word: each target word gathers what it needs from the source sentence."),
    "glove_note": (
        "**About the Spanish words.** GloVe 6B was trained on English text (Wikipedia and Gigaword news), yet it "
        "has vectors for “la”, “bola”, “es” and “azul”, because those strings do turn up in English text: in "
        "names, places, quotations and sports news. Each vector therefore describes how the string is used in "
        "mostly English text, not what it means in Spanish. Its nearest neighbours show this: “la” and “es” sit "
        "among Spanish function words (de, del, que, por), “bola” among Nigerian names (Bola Tinubu), and “azul” "
        "among Mexican football clubs (Pachuca, Necaxa, Toluca, as in Cruz Azul). In GloVe the cosine similarity "
        "of “bola” and “ball” is {bola:.2f}, of “azul” and “blue” {azul:.2f}: nothing here lines the "
        "translations up. A real translation model learns its own target embeddings, together with W_Q, W_K and "
        "W_V, so that a target word's query finds the source word it translates."),
    "neighbours_title": "What these vectors know about the target words",
    "neighbours_word": "target word",
    "neighbours_near": "nearest neighbours (cosine)",
    "neighbours_source": "most similar source word",
    "neighbours_cosine": "cosine",
    "neighbours_first": "Showing the first {n} target words.",
    "heads_title": "Multiple heads",
    "heads_intro": (
        "With {h} heads, Q, K and V are cut into {h} slices of {d} columns. Each head runs the same attention on "
        "its own slice, so each can look at different words; their outputs are then put side by side to make Z."),
    "heads_one": "One head uses all {d} columns. Choose more heads at the top of the page to split them.",
    "head_m": "Head {h} · columns {lo}–{hi}",
    "z_heads_m": "Z = the {h} heads' outputs side by side ({d} columns each)",
    "focus_same": (
        "For “{q}”, all {n} heads weight “{k}” most, but not equally: from {lo:.2f} (head {h_lo}) to {hi:.2f} "
        "(head {h_hi})."),
    "focus_differ": "For “{q}”, the heads look at different words: {items}.",
    "focus_one": "head {heads} weights “{k}” most ({w})",
    "focus_many": "heads {heads} weight “{k}” most ({w})",
    "masked_cell": "masked",
    "list_sep": ", ",
    "item_sep": "; ",
    "two_sentences": "{first} {second}",
    "file_encoder-head-weights": "encoder weights per head",
    "file_decoder-head-weights": "decoder weights per head",
    "file_cross-head-weights": "encoder-decoder weights per head",
    # --- page 5: where training starts, directions only ---
    "learn_start": "Start from",
    "learn_start_sidebar": "the weights in use (banner above)",
    "learn_start_random": "random weights (starting seed)",
    "learn_start_note_sidebar": (
        "Training starts from the W_Q and W_K in use on every page (the banner above says which), with d_k and "
        "the position weight from the sidebar. Each step is one update of the Adam optimiser; a smaller learning "
        "rate, such as 0.001, makes the change slower and easier to follow."),
    "learn_start_note_random": (
        "W_Q and W_K start as random [{d} × {d_k}] matrices drawn from the starting seed; d_k and the position "
        "weight come from the sidebar. Each step is one update of the Adam optimiser; a smaller learning rate, "
        "such as 0.001, makes the change slower and easier to follow."),
    "learn_start_title_sidebar": "Where training starts (the weights in use): “{q}” with each word",
    "learn_start_title_random": "Where training starts (seed {seed}): “{q}” with each word",
    "learn_directions": "Compare directions only (τ·cos θ)",
    "learn_directions_help": (
        "Scores become τ·cos θ with a fixed temperature τ = 10: q and k are scaled to length 1 first, so "
        "training can only reach the order by turning the vectors into alignment, never by making a key longer."),
    "learn_sign_weight": "Sign term weight",
    "learn_sign_weight_help": (
        "How much the sign term (whether at all) counts beside the cross-entropy (which word). At 0 nothing asks for "
        "the signs: the cross-entropy never moves a query's row as a whole, so its scores may all end below 0."),
    # --- page 5: learning on a corpus ---
    "corpus_title": "4 · Learning one attention head from many sentences",
    "corpus_intro": (
        "One sentence is too easy: a few numbers can always be fitted. A transformer learns from many sentences, "
        "and what it learns must hold on sentences it never saw. Here W_Q and W_K are trained on the training "
        "sentences of a corpus and, after every step, tested on held-out sentences that training never used."),
    "corpus_which": "Train on",
    "corpus_choice_treebank": "real English sentences",
    "corpus_choice_templates": "template sentences",
    "corpus_choice_upload": "your own CSV",
    "corpus_about_treebank": (
        "This is how the default W_Q and W_K on every page were learned; here you watch it happen on a subset: "
        "the first {train:,} of the treebank's {total:,} training sentences (UD English Web Treebank: blogs, "
        "newsgroups, emails, reviews and answers), in minibatches of about {batch:,} words. Each word is a query, "
        "and training teaches it to put its largest attention weight on the word it **belongs to**: its "
        "grammatical head in the treebank, such as the noun that “the” or an adjective describes, or the verb "
        "that a subject or an object goes with. A sentence's main word has no head and punctuation is left out, "
        "so neither counts; a word's own cell is hidden, so it always chooses among the other words. After every "
        "step the head is tested on {test:,} held-out sentences that training never used: accuracy is the share "
        "of their words whose largest weight falls on the word they belong to. Two dashed lines show what simple "
        "rules get on them: always picking {offset}, and picking the word whose raw vector points most the same "
        "way (cosine)."),
    "corpus_about_templates": (
        "{train} template sentences for training and {test} held out, each with a query word and graded "
        "relevances of its other words; the held-out sentences share no noun, verb or adjective with the "
        "training ones. Accuracy is the share of labelled word pairs (a more relevant than b) whose scores come "
        "out in that order. Mind what these templates teach: they almost always ask about a noun and answer "
        "“its verb”, so the weights learn to look at the verb, whoever asks — try a sentence below and see "
        "which word each word attends to."),
    "corpus_about_upload": (
        "Your corpus: {train} training and {test} held-out examples whose words the vectors know. Accuracy is "
        "the share of labelled word pairs (a more relevant than b) in the held-out examples whose scores come "
        "out in that order."),
    "corpus_upload": "Your corpus (CSV)",
    "corpus_format": (
        "Columns sentence,query,targets,split. targets: word=relevance pairs separated by ';' (relevances 0 to "
        "1, at least 3 other words of the sentence); split: train or test. Lines starting with # are comments."),
    "corpus_bad": "That corpus could not be used: {error}",
    "corpus_loaded": "Using {name}: {n} examples.",
    "corpus_upload_none": (
        "No corpus uploaded yet: upload a CSV in the format the upload box's help describes to train on it."),
    "corpus_note_treebank": (
        "The run uses d_k = {d_k} and position weight {p:g} from the sidebar: Adam on one minibatch a step, the "
        "step size falling to 0 over the second half, from random W_Q and W_K drawn from the seed."),
    "corpus_note_templates": (
        "The fit uses d_k = {d_k} and position weight {p:g} from the sidebar, full-batch Adam on the mean "
        "cross-entropy over every training example, with a small pull of the weights towards 0."),
    "corpus_train": "Train on these sentences",
    "corpus_progress": "Step {step} of {total} · loss {loss:.3f} · held-out accuracy {test:.1%}",
    "corpus_done_treebank": (
        "After {steps} steps on {train:,} sentences: in the {test:,} held-out sentences, each word's largest "
        "attention weight falls on the word it belongs to **{acc:.1%} of the time**. Always picking {offset} "
        "gets {by_offset:.1%}; the raw vectors' cosine gets {by_cosine:.1%}. By the sign, {positive:.1%} of those "
        "words score the word they belong to above 0, and {negative:.1%} of their other pairs fall below 0."),
    "corpus_stale": (
        "These results are from the last run ({corpus}, {steps} steps, learning rate {lr:g}, seed {seed}, "
        "d_k = {d_k}, position weight {p:g}); the choices have changed since. Train again to run with the "
        "current ones."),
    "corpus_done": (
        "After {steps} steps: {train:.0%} of the training pairs and **{test:.0%} of the held-out pairs** are in "
        "the labelled order. Raw cosine similarity of the word vectors gets {raw:.0%} of the held-out pairs. By the "
        "sign, {positive:.0%} of the held-out keys labelled relevant score above 0, and {negative:.0%} of those "
        "labelled 0 below 0. ({used} examples used; {skipped} left out because the vectors lack one of their "
        "words.)"),
    "corpus_accuracy_title": "Order accuracy, training and held-out, and the held-out signs",
    "corpus_accuracy_title_treebank": "Held-out: largest weight on the word it belongs to, and the signs",
    "corpus_batch_split": "training (the step's minibatch)",
    "corpus_rule": "simple rule",
    "corpus_ref_offset": "always {offset}",
    "corpus_ref_cosine": "raw vectors' cosine",
    "corpus_offset_next": "the next word",
    "corpus_offset_prev": "the word before",
    "corpus_offset_after": "the word {k} places on",
    "corpus_offset_before": "the word {k} places back",
    "corpus_accuracy": "share",
    "corpus_loss_title": "Training loss (each step's sentences)",
    "corpus_split": "sentences",
    "corpus_train_split": "training",
    "corpus_test_split": "held-out",
    "corpus_signs_treebank_positive": "held-out: its head scored above 0",
    "corpus_signs_treebank_negative": "held-out: its other words below 0",
    "corpus_signs_positive": "held-out: relevant keys above 0",
    "corpus_signs_negative": "held-out: keys labelled 0 below 0",
    "corpus_try_title": "Try the learned weights on any sentence",
    "corpus_try_sentence": "Sentence",
    "corpus_try_chart": "Attention weights of “{q}” with these W_Q and W_K",
    "corpus_try_tops": "With these weights, the word each word attends to most: {pairs}.",
    "corpus_try_same": (
        "Every other word picks “{k}”: with these weights relevance belongs to that key, whoever asks — not to the "
        "pair."),
    "corpus_use": "Use these weights on every page",
    "corpus_in_use": (
        "These weights are in use on every page, and the link to this view carries their recipe: anyone who "
        "opens it gets the same weights."),
    "corpus_share_upload": "Weights fitted on an uploaded corpus stay on this page: a link cannot carry your file.",
    "corpus_share_stopped": (
        "A stopped run cannot be used on every page: a link carries only the recipe (steps, learning rate, "
        "seed), and the recipe runs to its end. Set the steps to where you want to stop and train again."),
    # --- page 7: real sentences ---
    "nav_real": "7 · Real sentences",
    "real_title": "Real sentences: does each word find the word it belongs to?",
    "real_intro": (
        "Each word of a sentence **belongs to** another word, its grammatical head: a determiner such as “the” or "
        "an adjective belongs to the noun it describes, a subject or an object to the verb it goes with, a "
        "preposition to the noun it introduces, an auxiliary such as “will” to its verb. People marked these links "
        "by hand in the UD English Web Treebank, and the default W_Q and W_K were trained so that each word attends "
        "most to the word it belongs to. The sentences on this page come from the treebank's held-out part: **the "
        "weights never saw them in training.** An honest limit: this is one attention head on static {source} "
        "vectors, where a word has the same {d} numbers in every sentence, so it cannot read context the way a "
        "model like BERT does, with many heads in many layers, each building on the last; it can only go by which "
        "words tend to go with which, and where they stand."),
    "real_scoring": "Scoring every held-out sentence with these weights…",
    "real_none_known": (
        "These vectors know no held-out sentence word for word, so there is nothing to show here. Choose the "
        "built-in GloVe in the sidebar."),
    "real_find": "Find held-out sentences with a word",
    "real_find_help": "Type a word, or several: the sentences that hold all of them are listed.",
    "real_find_placeholder": "for example service",
    "real_find_nothing": "“{text}” holds no word to search for: type a word such as “service”.",
    "real_find_unknown": "Not in the vocabulary, so no sentence can hold it: {items}.",
    "real_found": "{n} held-out sentences contain {words}.",
    "real_found_one": "One held-out sentence contains {words}.",
    "real_found_none": "No held-out sentence contains {words}; the sentence shown stays as it was.",
    "real_found_near": "Words near it that do occur: {words}.",
    "real_hits": "Choose one below, or draw another of them at random.",
    "real_hits_first": "The first {m} of them are listed below; draw at random to reach the others.",
    "real_pick": "Sentence",
    "real_random": "Another held-out sentence",
    "real_random_found": "Another sentence with this word",
    "real_unknown_sentence": (
        "The sentence in the link has words these vectors do not know, so another held-out sentence is shown."),
    "real_sentence": "**Held-out sentence** ({n} words, treebank id {id}): {text}",
    "real_query_pick": "Word to predict for",
    "real_gold_said": "The treebank says “{q}” belongs to “{h}” ({rel}).",
    "real_gold_root": "The treebank gives “{q}” no head: it is the root of the sentence.",
    "real_gold_none": "The treebank gives “{q}” no head here: punctuation belongs to no word in this sense.",
    "real_heads_title": "Who belongs to whom, and where the head looks",
    "real_heads_said": (
        "In this sentence **{right} of {total}** words attend most to the word they belong to ({acc:.0%}); over all "
        "held-out sentences these weights manage {all:.0%}."),
    "real_lines_title": "Treebank heads and the words attended to most",
    "real_line_title": "line",
    "real_line_gold": "belongs to (treebank)",
    "real_line_right": "attends most: right ✓",
    "real_line_wrong": "attends most: wrong ✗",
    "real_relation": "relation",
    "real_lines_caption": (
        "How to read it: each word on the left has a grey line to the word it belongs to and, just below it, a "
        "second line to the word it attends to most: blue and marked ✓ where that is the same word, red, dashed and "
        "marked ✗ where it is not. Each word's relation stands to its left. The root of the sentence and "
        "punctuation belong to no word and get no lines. Hover a word to keep only its lines."),
    "real_root": "— (root)",
    "real_no_head": "— (punctuation)",
    "real_right": "✓ right",
    "real_wrong": "✗ wrong",
    "real_col_head": "belongs to",
    "real_col_head_weight": "its {value}",
    "real_col_top": "attends most to",
    "real_col_top_weight": "{value} there",
    "real_col_right": "same word?",
    "file_real_heads": "words-and-heads",
    "real_key_title": "Same key, different queries",
    "real_key_intro": (
        "Pick a key word: the bars show the score its key gets from the query of every other word. If relevance "
        "belonged to the key word alone, every query would rank it alike; it depends on who asks. ● marks the words "
        "that belong to the key word."),
    "real_key_pick": "Key word",
    "real_key_chart": "The key word's score from each query word",
    "real_key_said": "“{k}” gets its highest score from “{hi}” ({hi_v:.2f}) and its lowest from “{lo}” ({lo_v:.2f}).",
    "real_key_deps": "The words that belong to “{k}” rank {deps} among the {n} queries.",
    "real_key_no_deps": "No word of this sentence belongs to “{k}”.",
    "real_key_alone": "No other word sees “{k}”.",
    "real_rel_title": "Every held-out sentence: which relations do these weights get right?",
    "real_rel_chart": "Share of words that attend most to their head, per relation",
    "real_rel_x": "share right",
    "real_rel_series": "who picks",
    "real_rel_count": "words",
    "real_rel_head": "these weights",
    "real_rel_offset": "best fixed offset",
    "real_rel_offset_col": "best offset",
    "real_rel_head_share": "these weights: share right",
    "real_rel_offset_share": "best offset: share right",
    "real_rel_meaning": "what belongs to what",
    "real_rel_said": (
        "Over the {words:,} words with a head in {sentences:,} held-out sentences, these weights put the most "
        "attention on the word's head **{acc:.0%}** of the time; always taking the word at the best single offset "
        "({offset:+d}) would be right {offset_acc:.0%} of the time."),
    "real_rel_beats": (
        "Relation by relation, they beat the best offset for that relation on {beats} of {n}, and fall furthest "
        "behind on {rel} ({head:.0%} against {off:.0%})."),
    "real_rel_beats_all": "Relation by relation, they beat the best offset for that relation on all {n}.",
    "real_rel_caption": (
        "The grey bar reads no vectors at all: for each relation it always picks the word a fixed number of places "
        "away (+1 is the next word, −2 two words back), with the offset that works best for that relation chosen "
        "afterwards, on these very sentences, so it is a generous baseline. Where a relation's head nearly always "
        "sits at the same distance (an adjective's noun is usually the next word), position alone does well; to beat "
        "it, a head has to tell from the words themselves who goes with whom."),
    "file_real_relations": "relations-held-out",
    "rel_det": "a determiner → its noun (the → cat)",
    "rel_amod": "an adjective → its noun (black → cat)",
    "rel_nmod:poss": "a possessive → its noun (his → eye)",
    "rel_compound": "a noun → the noun it qualifies (risk → conference)",
    "rel_case": "a preposition → the noun it introduces (in → houston)",
    "rel_aux": "an auxiliary → its verb (will → forward)",
    "rel_cop": "“be” → what it links the subject to (is → blue)",
    "rel_mark": "“that”, “to”… → the verb of its clause",
    "rel_cc": "“and”, “or”… → the word after it",
    "rel_advmod": "an adverb → what it modifies (very → clean)",
    "rel_nsubj": "a subject → its verb (cat → drank)",
    "rel_obj": "an object → its verb (milk → drank)",
    "rel_obl": "a noun after a preposition → the verb (houston → met)",
    "rel_nmod": "a noun → the noun it describes (guaranty → draft)",
    "rel_conj": "the second of a pair → the first (rates → service)",
    "url_held_out": "not a held-out sentence of the treebank",
    "about_head_lines": (
        "{title} — lines from each {y} on the left, labelled with its {relation}, to the word it belongs "
        "to and to the {x} it attends to most, marked ✓ where they are the same word and ✗ where not."),
    "about_relation_accuracy": "{title} — bar chart: for each {y}, the {x} of each {series}, side by side.",
    # --- weights: where W_Q and W_K came from ---
    "fitting_treebank": "Learning W_Q and W_K from {n:,} real English sentences…",
    "fitting_templates": "Learning W_Q and W_K from the template sentences ({n:,} sentences)…",
    "weights_trained": (
        "**W_Q and W_K were learned from {train:,} real English sentences** of web text, each word pointed at the "
        "word it belongs to: its grammatical head, such as the noun that “the” or an adjective describes, or the "
        "verb that a subject or an object goes with. On {test:,} sentences it never saw, the word each word "
        "attends to most is that word **{acc:.0%} of the time**."),
    "weights_templates": (
        "**W_Q and W_K were learned from {train} template sentences** that almost always ask which word matters "
        "to a noun, and almost always answer “its verb”: these weights look at the verb, whoever asks. They rank "
        "{acc:.0%} of the held-out template pairs right, but relevance here belongs to the key word, not to the "
        "pair."),
    "weights_run_treebank": (
        "**W_Q and W_K come from your training run** on {train:,} real English sentences ({steps} steps, learning "
        "rate {lr:g}, seed {seed}): on {test:,} sentences it never saw, each word attends most to the word it "
        "belongs to {acc:.0%} of the time."),
    "weights_run_templates": (
        "**W_Q and W_K come from your training run** on the template sentences ({steps} steps, learning rate "
        "{lr:g}, seed {seed}): {acc:.0%} of the held-out word pairs in the right order."),
    "weights_random": (
        "**W_Q and W_K are random** (seeds {q} and {k}): nothing was learned, so which word attends to which is "
        "chance."),
    "weights_identity": "**W_Q and W_K are identity matrices**: Q and K are the input rows themselves.",
    "weights_identity_cut": (
        "**W_Q and W_K are identity matrices** cut to d_k = {d_k} columns: Q and K keep only the first {d_k} of "
        "the {d} dimensions of each input row. Set d_k = {d} to keep them all."),
    "weights_other": "**W_Q and W_K: {name}**, not learned.",
    "weights_mixed": "**W_Q: {q}; W_K: {k}.**",
    "trained_unavailable": (
        "These vectors know none of the training sentences word for word, so no weights can be learned from them: "
        "random weights are shown instead."),
    "weights_switch": "Weights W_Q and W_K",
    "choice_trained": "learned from real sentences",
    "choice_templates": "template sentences",
    "choice_random": "random",
    "choice_identity": "identity",
    "choice_run": "your training run",
    "preset_trained": "learned from real sentences (treebank)",
    "preset_templates": "learned from template sentences (looks at the verb)",
    "preset_run": "your training run (page 5)",
    "source_sentence": "Source sentence (encoder)",
    # --- position weight and row lengths ---
    "position": "Position weight (0 = no positional encoding)",
    "position_help": (
        "X = E + weight · P. At 1 each positional row is about as long as a GloVe row; the default 2 lets the "
        "layers tell “the word right after me” from “a word far away”, which pointing each word at the word it "
        "belongs to needs. The learned weights are fitted with the same setting."),
    "own": "A word may attend to itself",
    "own_help": (
        "Off (the default): each word's own cell is hidden (grey) and its weights go to the other words, since "
        "the learned head answers “which other word do I belong to?”. On: every word also scores itself, as in "
        "plain self-attention."),
    "lengths_title": "How long is each word's row, and how long its position?",
    "length_word": "{source} row |E|",
    "length_position": "positional row |weight · P|",
    "length": "length",
    "part": "row",
    "lengths_note": (
        "At position weight {p:g}, the {source} rows are {word:.2f} long on average and the positional rows "
        "{pos:.2f}: the position is {ratio:.0%} as long as the word."),
    "lengths_off": (
        "Without positional encoding, X is the words alone: the layers cannot tell “cat drank milk” from “milk "
        "drank cat”."),
    "lengths_small": (
        "So the word's meaning dominates each row of X and the position is a nudge: enough for the layers to use "
        "word order, not enough to drown what the word means."),
    "lengths_comparable": (
        "So position is about as loud as meaning in X: the same word in two places can look less alike than two "
        "different words in one place."),
    "lengths_dominant": (
        "So position is the longer part of each row of X. The meaning is still there, and the linear layers "
        "weigh each direction on its own, so they can read both; the learned head is fitted at this weight "
        "because telling a neighbouring word from a distant one helps it find the word each word belongs to."),
    # --- length and angle ---
    "la_title": "Length or angle? q·k = |q|·|k|·cos θ for “{q}”",
    "la_rank": "rank by {by}",
    "la_angle": (
        "**The angle decides.** cos θ alone ranks the keys just as q·k does; the key lengths |k| do not change the "
        "order. The query's length |q| is the same for every key, so it never does."),
    "la_length": (
        "**Length decides.** By angle alone the order would differ, but the longer keys win: the vectors did not "
        "align better; they grew."),
    "la_both": (
        "**Both matter.** Neither the angle nor the key length alone gives q·k's order; their product |k|·cos θ "
        "does."),
    "la_order_dot": "by q·k: {order}",
    "la_order_cos": "by cos θ alone: {order}",
    "la_order_len": "by key length |k| alone: {order}",
    "la_first": "(the first {n} of {total} keys)",
    "la_tie": "With fewer than two different scores there is no order to explain.",
    "short_glove": "GloVe",
    "short_glove50k": "GloVe",
    "short_upload": "uploaded",
    "short_glove-wiki-gigaword-100": "GloVe 100d",
    "short_glove-wiki-gigaword-300": "GloVe 300d",
    "no_chinese_words": (
        "These vectors hold almost no Chinese words (GloVe learned from English text), so Chinese characters are "
        "not split into words here. Upload Chinese word vectors to work with Chinese sentences."),
    "learn_loss_floor": (
        "The cross-entropy cannot fall below {floor:.3f}: that is the entropy of the target shares, reached when each "
        "targeted word's weight equals its share exactly (a cross-entropy of 0 would need one word to take all the "
        "weight, which shares such as ⅔ and ⅓ do not ask for). The sign term comes as near 0 as the scores move away "
        "from 0 on their right sides."),
    # --- what screen readers read for each chart (about_<builder>), filled in with the chart's titles ---
    "about_heatmap": "{title} — heatmap: a cell for each {y} and {x}, its colour showing the {value}.",
    "about_weight_bars": "Bar chart: the {y} on each {x}, in sentence order.",
    "about_contribution_bars": (
        "Stacked bar chart: for each {x}, every {key}'s {y} stacked; a black tick marks the "
        "{z}."),
    "about_alignment_bars": (
        "{title} — bar chart: the {y} of each {x}, coloured by {group}; a line on its own axis at "
        "the right shows the {running}."),
    "about_sign_strips": (
        "{title} — strips: for each {y}, its {value} in every {x}, blue positive and red "
        "negative."),
    "about_relevance_bars": "{title} — bar chart: the {x} of each {y}, highest first.",
    "about_loss_curve": "{title} — line chart: the {y} at each {x}.",
    "about_pair_curves": "{title} — line chart: the {y} of each {pair} at each {x}.",
    "about_accuracy_curves": (
        "{title} — line chart: the {y} of each {line} at each {x}; dashed lines show what each "
        "{level} reaches."),
    "about_vector_plane": (
        "{title} — arrows: each query and key vector drawn from the origin in one plane ({x}, {y}), "
        "at the training step the slider picks."),
    "about_length_bars": "Bar chart: for each word, the {x} of its {part}s side by side.",
    "upload_evicted": (
        "Your uploaded vectors were released to make room for other visitors' uploads (the server holds a "
        "limited amount). The built-in GloVe is shown; upload your file again to go on with it."),
    "upload_over_budget": (
        "These vectors take {size:.0f} MB in memory, more than the {budget:.0f} MB this server keeps for all "
        "uploads together. Upload fewer words or fewer dimensions."),
    "upload_refused_share": (
        "That file was not taken: the server holds at most {mb:.0f} MB of files per visitor at a time, and a file "
        "still being sent or read counts. Wait until the first file is read, or choose one file of at most that size."),
    "upload_refused_room": (
        "That file was not taken: the {budget:.0f} MB this server keeps for all visitors' uploads is in use by "
        "visitors who are still working with theirs. Try again in a minute, or with a smaller file."),
    "upload_no_room": (
        "The server cannot take these vectors right now: the {budget:.0f} MB it keeps for all visitors' uploads is "
        "in use by visitors who are still working with theirs. Try again in a minute, or upload a smaller file."),
    "queue_wait": (
        "Waiting for the server's training slot: {n} run(s) ahead of yours. Runs take turns so that every page "
        "stays quick; Stop leaves the queue."),
    "learn_steps_bound": (
        "One run may take at most {max:,} steps here ({n} words of {d} dimensions through d_k = {d_k}), so that "
        "the server stays quick for everyone."),
    "fit_running": "Your fit is running: step {step:,} of {total:,}. Stop keeps the steps so far.",
    "fit_stopping": "Stopping after step {step:,}…",
    "fit_too_large": (
        "One step of this fit would take too long on a shared server: with {d} dimensions, d_k may be at most "
        "{max} here, not {d_k}. Lower d_k in the sidebar."),
    "fit_too_large_any": (
        "One step of this fit would take too long on a shared server with {d} dimensions, whatever d_k (now "
        "{d_k}). Use vectors with fewer dimensions or a smaller corpus."),
    "fit_left": (
        "You stopped the fit before it gave any weights: W_Q and W_K are random now. Choose learned weights in the "
        "box at the top to queue it again."),
    "weights_capped": "One fit may take {max:,} steps here, so the link's {asked:,} were cut to that.",
    "weights_stopped": "The fit was stopped at step {step:,} of {total:,}: these are its weights at that step.",
    "learn_steps_capped": (
        "{asked:,} steps is more than one run may take on these words and vectors; the steps are set to {max:,}."),
    "relevance_takeaway_other": (
        "Pretrained vectors already carry some relevance: words used together point in similar directions, and "
        "cosine similarity measures exactly that, while the plain dot product also rewards long vectors. The W_Q "
        "and W_K in use decide what Q·K adds; the box at the top says where they came from, and the Learning "
        "page (5) shows how training shapes them."),
    "reproduce_caption": (
        "Take the numbers home: a short Python script, or the same cells as a Jupyter notebook, that rebuilds this "
        "view's numbers with numpy and gensim from the same sentence, vectors, weights and switches, and prints X, Q, "
        "K, V, the factor matrix, the weights and Z in full."),
    "reproduce_menu": "Reproduce in code",
    "reproduce_menu_help": "A Python script or a Jupyter notebook that rebuilds this view's numbers.",
    "reproduce_script": "Python script (.py)",
    "reproduce_notebook": "Jupyter notebook (.ipynb)",
    "notebook_opening": "## What this notebook rebuilds\nWhat the notebook is and what it needs; the imports, and numbers printed in full.",
    "notebook_settings": "## The view's settings\nThe sentence and the switches of the page. Change a value here and run the cells below again.",
    "notebook_vectors": "## 1. Word vectors\nLoad the pretrained vectors: one row of numbers per word.",
    "notebook_rows": "## 2. Words become rows\nCut the sentence into words, look up each word's vector and add the positional encoding: the matrix X.",
    "notebook_layers": "## 3. The linear layers\nW_Q, W_K and W_V, each d × d_k: a preset with its seed, times the layer's scale.",
    "notebook_learned": "## 3, continued. Learned weights\nA layer learned from sentences, every number written in full, with the recipe of the fit that made it.",
    "notebook_attention": "## 4. Attention\nQ, K and V; the factor matrix F = Q·Kᵀ; the scores; the weights (softmax of each row); Z = weights · V.",
    "notebook_heads": "## 5. Several heads\nEach head takes its own share of the columns of Q, K and V and attends on its own.",
    "notebook_printout": "## 6. The numbers, in full\nPrint every matrix the page draws, a line per row, to compare with the page's CSV downloads.",
    "predict": "Predict first",
    "predict_help": (
        "Hide the answer until you have guessed which word the query attends to most. A link copied in this mode "
        "is a challenge: it opens with the answer hidden and carries no answer."),
    "predict_ask": "Your guess: which word does “{q}” attend to most?",
    "predict_hidden": "The numbers stay hidden until you guess.",
    "predict_right": "Right: “{k}” gets the most attention.",
    "predict_wrong": "Not this time: you guessed “{guess}”, but “{k}” gets the most attention.",
    "predict_why_angle": (
        "It wins on angle: its key points most nearly the way the query of “{q}” does (cos θ = {cos:.2f}, the "
        "largest)."),
    "predict_why_length": (
        "It wins on length: its key is the longest (|k| = {len:.2f}), though another key points more nearly the "
        "query's way."),
    "predict_why_both": (
        "It wins on length and angle together: neither alone puts it first, but |k|·cos θ = {len:.2f} × "
        "{cos:.2f} is the largest."),
    "predict_score": "Your guesses in this visit: {right} of {total} right.",
    "swap_title": "Swap or remove a word, and see what moves",
    "swap_which": "Word to change",
    "swap_new": "New word",
    "swap_new_help": (
        "Type any word the vectors know, for example one of its nearest neighbours: “tea” for “milk”. The link "
        "keeps the change."),
    "swap_unknown": "“{word}” is not in the vectors, so nothing can be swapped in; try another word.",
    "swap_said": "With “{old}” changed to “{new}”",
    "swap_removed_said": "With “{old}” removed",
    "swap_moved": ", the weights that moved most: {items}.",
    "swap_item": "“{q}” → “{k}” {d:+.3f}",
    "swap_weights_m": "Change in the attention weights (after − before)",
    "swap_z_m": "Change in Z (after − before)",
    "swap_remove": "Remove it",
    "copy_challenge": "Copy challenge link",
    "copy_challenge_help": (
        "The same view with “Predict first” on: whoever opens it sees the question, not the answer, until they "
        "guess. The link holds no guess and no answer."),
    "predict_order_ask": "Your guess: put the {m} words “{q}” attends to most in order, most first.",
    "predict_order_placeholder": "Pick the words in order",
    "predict_order_said": "Your order {guess}, Q·K's order {order}: {agree} of {pairs} pairs the same way round.",
    "save_charts": "Save charts",
    "save_charts_help": "Each chart on this page as a picture (SVG or PNG) or its numbers as a CSV table, named after the page, the chart and the sentence.",
    "save_csv": "CSV · the numbers as a table",
    "save_svg": "SVG · sharp at any size",
    "save_png": "PNG · picture",
    # --- the line view (ui/lines.py): attention as lines between the words ---
    "lines_title": "Attention as lines: which words each word looks at",
    "lines_head": "Head {h}",
    "lines_head_title": "head",
    "lines_caption": (
        "How to read it: {how} {more}Hover a query word, or a row of a heatmap, to keep only that word's lines and "
        "outline its row; hover a key word to see which words look at it."),
    "lines_how_soft": (
        "each query word on the left has a line to every key word it sees on the right, as opaque as its weight: "
        "clear at 0, solid at 1. The heatmap beside it holds the same weights, row by row."),
    "lines_how_raw": (
        "without softmax the lines show the scores themselves: a line is as opaque as its |score| ÷ the largest "
        "|score| shown, and dashed where the score is negative (a softmax would give that word almost nothing)."),
    "lines_more_heads": "Each of the {h} heads has its own colour; its lines run just beside the other heads'. ",
    "lines_more_first": "The first {n} of the {h} heads are drawn. ",
    "lines_more_masked": "Masked pairs get no line and a grey cell. ",
    "about_attention_lines": (
        "{title} — lines from each {y} on the left to each {x} on the right, each as opaque as its "
        "{value}, one colour per {head}; beside them, a heatmap of the {value} for each "
        "{head}."),
    "lines_expander": "See it as lines: which word looks at which (hover a word to follow its lines)",
    # --- what a person can get wrong: the engine raises these codes ---
    "err_too_many_tokens": "The sentence has {count} tokens; the dashboard shows at most {max}. Please shorten it.",
    "err_offline": (
        "'{name}' has to be downloaded from the internet, which this server cannot reach. Use the built-in GloVe "
        "vectors or upload your own."),
    "err_not_utf8": (
        "Line {line} is not UTF-8 text (byte {byte}). Upload a word2vec or GloVe text file; binary files such as "
        "pickles are never opened."),
    "err_empty": "The file is empty. Upload lines of the form 'word 0.1 -0.2 ...'.",
    "err_nul": "Line {line} contains a NUL byte; this does not look like a text vectors file.",
    "err_no_numbers": "Line {line} has a word ('{word}') but no numbers.",
    "err_not_number": "Line {line}: '{value}' is not a number.",
    "err_mixed_dims": (
        "Line {line} has {n} numbers but earlier lines have {d}; every vector must have the same dimension."),
    "err_not_finite": "Line {line} ('{word}') contains NaN or infinity; every value must be finite.",
    "err_header_only": "The file has a header line but no vectors. Add lines of the form 'word 0.1 -0.2 ...'.",
    "err_header_lies": (
        "The header says {words} words of {dims} dimensions, but the file holds {n} words of {d} dimensions."),
    "err_duplicate": "The word '{word}' appears more than once; each word needs exactly one vector.",
    "err_too_big": "The file is {size}, but files may be at most {limit}.",
    "err_not_npy": (
        "The matrix file is not a .npy file (it should start with the .npy header); save it with numpy.save."),
    "err_npy_unreadable": "The .npy file could not be read as a plain numeric array ({reason}).",
    "err_words_not_utf8": "The word list is not UTF-8 text; upload one word per line.",
    "err_npy_shape": "The .npy file must hold a 2-D numeric matrix, not shape {shape} of {dtype}.",
    "err_npy_rows": "The word list has {words} words but the matrix has {rows} rows.",
    "err_words_repeat": "The word list repeats a word; each word needs exactly one row.",
    "err_npy_not_finite": "The matrix contains NaN or infinity; every value must be finite.",
    "err_upload_pair": "Upload exactly one .npy matrix and one word list (.txt).",
    "err_upload_one": (
        "Upload one vectors file (.txt, .vec or a word2vec .bin), or a .npy matrix with a word list (.txt)."),
    "err_too_many_dims": (
        "The vectors have {dims} dimensions; the dashboard takes at most {max}. Reduce them first (for example "
        "with PCA) or use a smaller vector set."),
    "err_too_many_words": (
        "The file holds more than {max} words, the most the dashboard takes. Keep only the first {max} (most "
        "files list the most frequent words first) and upload it again."),
    "err_header_dims": "Line {line} has {n} numbers, but the header says every vector has {dims}.",
    "err_header_more": (
        "Line {line} holds word number {count}, but the header says the file has only {words} words."),
    "err_bin_header": (
        "A word2vec binary file (.bin) starts with a line such as '3000000 300' (words, dimensions); this one "
        "does not. Save it with gensim's save_word2vec_format(..., binary=True)."),
    "err_bin_unreadable": (
        "The word2vec binary file could not be read ({reason}). Check that it is a complete word2vec .bin file."),
    "err_bin_not_finite": "The vector of '{word}' contains NaN or infinity; every value must be finite.",
    "err_download_damaged": (
        "The download of '{name}' is damaged ({reason}) and was not kept. Try again later, or use the built-in "
        "GloVe vectors."),
    "err_corpus_columns": "Line {line}: expected the columns sentence, query, targets, split; found {found}.",
    "err_corpus_header": "The first line must name the columns: sentence,query,targets,split.",
    "err_corpus_empty": "The corpus holds no examples.",
    "err_corpus_too_big": "The corpus file is {size:,} bytes; at most {limit:,} are accepted.",
    "err_corpus_too_many": "The corpus has more than {limit:,} examples; split it into smaller files.",
    "err_corpus_not_utf8": "The corpus is not UTF-8 text.",
    "err_corpus_no_sentence": "Line {line}: the sentence is empty.",
    "err_corpus_long_sentence": "Line {line}: the sentence has {count} tokens; at most {max} are allowed.",
    "err_corpus_query_missing": "Line {line}: the query word '{query}' is not a word of the sentence.",
    "err_corpus_query_twice": (
        "Line {line}: the query word '{query}' occurs more than once in the sentence; pick a word that occurs "
        "once."),
    "err_corpus_target_format": "Line {line}: '{item}' should read word=relevance, for example drank=1.",
    "err_corpus_target_word": "Line {line}: the target word '{word}' is not a word of the sentence.",
    "err_corpus_target_query": "Line {line}: the query word '{word}' cannot also be a target.",
    "err_corpus_target_twice": "Line {line}: the target word '{word}' is given twice.",
    "err_corpus_target_value": "Line {line}: the relevance of '{word}' is '{value}'; use a number from 0 to 1.",
    "err_corpus_few_targets": (
        "Line {line}: give relevances for at least 3 other words of the sentence (found {count})."),
    "err_corpus_flat_targets": "Line {line}: the targets must not all be equal, or they say nothing about order.",
    "err_corpus_split": "Line {line}: the split is '{split}'; use train or test.",
    "err_corpus_no_split": "The corpus needs at least one train and one test example.",
    "err_corpus_no_room": (
        "This fit needs about {mb} MB of working memory, more than the server can spare right now: it keeps {budget} "
        "MB for all visitors' uploads and fits together. Try again in a minute, or with a smaller d_k."),
    "err_corpus_no_known": (
        "None of the training sentences has all its words in these vectors, so there is nothing to fit."),
    # class mode (steps/8_Class.py, ui/classroom.py)
    "nav_class": "8 · Class",
    "class_title": "Class: everyone predicts, then the room sees how it voted",
    "class_intro": (
        "A teacher asks the whole room one of the dashboard's predict-first questions. Every student answers on "
        "their own screen, the room sees how it voted, and the teacher reveals the answer on every screen at once."),
    "class_how": (
        "**Teaching?** Open page 2, 4, 6 or 7, turn on *Predict first*, pick a word and press *Ask the class*. "
        "**Joining?** Type the code your teacher shows, or open their link."),
    "class_ask": "Ask the class",
    "class_ask_next": "Ask the class this next",
    "class_ask_help": (
        "Starts a class on this question: students join with a code, answer on their own screens, and see the "
        "answer when you reveal it."),
    "class_db_down": (
        "The class database is not answering right now, so class mode is paused. Everything else in the "
        "dashboard works as before; try again in a minute."),
    "class_code_is": "## Class code: `{code}`",
    "class_link_is": "Students open this link, or scan the QR code, or type the code on the Class page:",
    "class_next_how": (
        "Next question: open any page with Predict first, pick the word, and press *Ask the class this next*. "
        "Everyone moves to it."),
    "class_qr": "Scan to join",
    "class_joined": "Students joined",
    "class_asked": "The class is asked: which word does “{q}” attend to most?",
    "class_asked_order": "The class is asked: put the {m} words “{q}” attends to most in order, most first.",
    "class_answered": "Answered this question",
    "class_question_no": "Question",
    "class_show_before": "Show the room's answers before the reveal",
    "class_reveal": "Reveal the answer",
    "class_end": "End the class",
    "class_csv": "Download the answers (CSV)",
    "class_ended_teacher": "The class has ended. Its answers stay available for download until it expires.",
    "class_code": "Class code",
    "class_nickname": "Nickname (optional)",
    "class_nickname_help": "At most 20 characters. Nothing else about you is kept.",
    "class_join": "Join the class",
    "class_ended": "This class has ended. Thank you for taking part. The rest of the dashboard is yours to explore.",
    "class_pick": "Your answer",
    "class_pick_order": "Your answer: the {m} words, most attended first",
    "class_sent": "Sent: {answer}. You can change it until the teacher reveals the answer.",
    "class_not_sent": "Not answered yet.",
    "class_no_answer": "You did not answer this one.",
    "class_yours": "You answered {answer}.",
    "class_answer": "The answer: {order}.",
    "class_why_angle": "“{k}” wins by angle: its key points most nearly the way “{q}”'s query does.",
    "class_why_length": "“{k}” wins by length: its key is long enough to beat keys at a smaller angle.",
    "class_why_both": "“{k}” wins on length and angle together: neither alone would put it first.",
    "class_open_view": "Open this view",
    "class_chart_title": "What the room said “{q}” attends to most",
    "class_students": "students",
    "class_right_mark": "✓ the answer",
    "class_teacher_gone": (
        "The teacher's screen has not been seen for a minute. You can still answer; the answer shows once they "
        "reveal it."),
    "class_leave": "Leave the class",
    "about_room_bars": "{title} — bar chart: how many {y} put each {x} first.",
    "err_class_unknown": "No class has that code. Check it with your teacher.",
    "err_class_expired": "That class has expired: classes are kept for 12 hours.",
    "err_class_ended": "That class has ended.",
    "err_class_not_teacher": "Only the class's teacher can do that.",
    "err_class_not_student": "This browser tab has not joined that class. Join it again with its code.",
    "err_class_not_asking": "The answer has been revealed, so answers are closed.",
    "err_class_stale_question": "The teacher has moved on to the next question.",
    "err_class_bad_answer": "That answer is not one of the words offered.",
    "err_class_nickname_long": "A nickname can be at most {limit} characters.",
    "err_class_nickname_chars": "A nickname cannot hold line breaks or control characters.",
    "err_class_bad_code": "A class code is 8 letters and digits, like ABCD 2345.",
    "err_class_rate_limited": "That was a lot of tries in a short time. Please wait a minute.",
    "err_class_bad_question": "This question cannot be asked of a class (its {field} is too long or unusual).",
    "err_class_db_version": "The class database was made by a newer version of the dashboard.",
    "err_class_full": "That class is full: it takes {limit} students.",
    "err_class_too_many_questions": "This class has asked as many questions as a class may; start a new one.",
}
