"""The learning engine: how often the default run reaches the target order, its time, and its speed next to PyTorch."""
import functools

import numpy as np

from bench.common import Row, clocked, in_turn, markdown, median, ratio, seconds
from engine.sources import load_glove
from engine.tokens import embed, tokenize
from engine.training import DEFAULT_LR, DEFAULT_STEPS, initial_weights, make_goal, positional_rows, train

SENTENCES = [
    ("The black cat drank the milk", "milk", [("drank", 1.0), ("cat", 0.5), ("black", 0.0)]),
    ("The dog chased the ball in the park", "ball", [("chased", 1.0), ("dog", 0.5), ("park", 0.0)]),
    ("The young girl read an old book by the window", "book", [("read", 1.0), ("old", 0.5), ("window", 0.0)]),
    ("The pilot landed the plane at the airport", "plane", [("landed", 1.0), ("pilot", 0.5), ("airport", 0.0)]),
]
SEEDS = 100
RUNS = 9
TRAIN_BUDGET_S = 1.0
NO_TORCH, INSTALL = "PyTorch is not installed", "pip install torch==2.13.0"


def sentence_rows(kv, sentence, query, keys):
    """GloVe rows of the sentence and its targets as (query index, key index, value) triples."""
    tokens = tokenize(sentence)
    x, _ = embed(kv, tokens)
    return x, [(tokens.index(query), tokens.index(key), value) for key, value in keys]


def order_rate(x, targets) -> int:
    """Seeds out of SEEDS whose default run ends with every targeted key in target order."""
    return sum(train(x, targets, seed=seed).order_step is not None for seed in range(SEEDS))


def torch_losses(torch, x, targets) -> list[float]:
    """The default run's loss, start and Adam settings with torch autograd and torch.optim.Adam; loss per step."""
    goal = make_goal(targets, len(x))
    w_q, w_k, _ = initial_weights(x.shape[1], x.shape[1], 0, 1.0)
    x_in = torch.tensor(x + positional_rows(True, *x.shape))
    w_q, w_k = (torch.tensor(w, requires_grad=True) for w in (w_q, w_k))
    rows, mask, p = torch.tensor(goal.rows), torch.tensor(goal.mask), torch.tensor(goal.p)
    optimizer = torch.optim.Adam([w_q, w_k], lr=DEFAULT_LR)
    losses = []
    for _ in range(DEFAULT_STEPS):
        q, k = x_in @ w_q, x_in @ w_k
        s = q[rows] @ k.T / w_q.shape[1] ** 0.5
        log_probs = torch.log_softmax(s.masked_fill(~mask, -torch.inf), dim=1)
        loss = -torch.where(mask, p * log_probs, 0.0).sum(dim=1).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


def timings(x, targets, runs: int, torch) -> dict[str, tuple[list[float], list[float]]]:
    """Wall and CPU seconds of the default run and (with torch) of the same in PyTorch, in turn after a warm-up each."""
    calls = {"ours": functools.partial(train, x, targets, seed=0)}
    if torch is not None:
        calls["torch"] = functools.partial(torch_losses, torch, x, targets)
    for call in calls.values():
        call()
    found = in_turn({name: functools.partial(clocked, call) for name, call in calls.items()}, runs)
    return {name: ([w for (w,), _ in times], [c for _, (c,) in times]) for name, times in found.items()}


def main() -> None:
    kv = load_glove()
    cases = [(sentence, query, keys, *sentence_rows(kv, sentence, query, keys)) for sentence, query, keys in SENTENCES]
    table = [("measure", "value", "target")]
    for _sentence, query, keys, x, targets in cases:
        order = " > ".join(f"{query}→{key}" for key, _ in keys)
        reached = order_rate(x, targets)
        rate = f"{reached}/{SEEDS} ({reached / SEEDS:.0%})"
        table.append((f"order {order} reached ({SEEDS} seeds)", rate, "≥ 99%"))

    x, targets = cases[0][3], cases[0][4]
    try:
        import torch
    except ImportError:
        torch = None
        print(f"{NO_TORCH}, so the PyTorch column is skipped (install it with: {INSTALL}).\n")
    else:
        torch.set_num_threads(1)  # matrices this small run fastest on one thread; more only adds contention
    times = timings(x, targets, RUNS, torch)
    wall = median(times["ours"][0])
    for clock, taken in (("CPU", median(times["ours"][1])), ("wall", wall)):
        label = f"default run, {DEFAULT_STEPS} steps, {clock} time (median of {RUNS})"
        table.append((label, f"{taken * 1e3:.1f} ms", "≤ 1 s"))
    ours = DEFAULT_STEPS / wall
    table.append(("steps/s, ours (numpy, analytic gradients, records every step)", f"{ours:,.0f}", ""))
    if torch is not None:
        theirs = DEFAULT_STEPS / median(times["torch"][0])
        same = np.abs(train(x, targets, seed=0).loss[:-1] - torch_losses(torch, x, targets))
        table.append((f"steps/s, PyTorch {torch.__version__} autograd + torch.optim.Adam", f"{theirs:,.0f}", ""))
        table.append(("ratio ours / PyTorch", f"{ours / theirs:.1f}×", "≥ 1"))
        table.append(("largest loss difference ours vs PyTorch over the run", f"{same.max():.1e}", "same objective"))
    print(markdown(list(table[0]), table[1:]))


def run(quick: bool) -> list[Row]:
    """Rows for python -m bench: the default run on SENTENCES[0] next to the same objective in PyTorch."""
    runs = 3 if quick else 9
    x, targets = sentence_rows(load_glove(), *SENTENCES[0])
    try:
        import torch
    except ImportError:
        return without_torch(median(timings(x, targets, runs, None)["ours"][0]), runs)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # matrices this small run fastest on one thread, as in main()
    times = timings(x, targets, runs, torch)
    torch.set_num_threads(threads)
    mine = median(times["ours"][0])
    torch_s = median(times["torch"][0])
    values = {"ours_s": times["ours"][0], "torch_s": times["torch"][0], "torch": torch.__version__}
    return [
        Row("training · default run", f"train() on “{SENTENCES[0][0]}”, {DEFAULT_STEPS} Adam steps, every step "
            f"recorded; median of {runs}", seconds(mine), f"PyTorch {seconds(torch_s)}", ratio(mine, torch_s),
            f"≤ {TRAIN_BUDGET_S:g} s", mine <= TRAIN_BUDGET_S, values),
        Row("training · steps per second", f"the same run as steps/s, next to PyTorch {torch.__version__} autograd + "
            "torch.optim.Adam, one thread", f"{DEFAULT_STEPS / mine:,.0f} steps/s",
            f"PyTorch {DEFAULT_STEPS / torch_s:,.0f} steps/s", ratio(torch_s, mine), "≥ 1× PyTorch", mine <= torch_s),
    ]


def without_torch(mine: float, runs: int) -> list[Row]:
    """The rows when PyTorch is not installed: the default run's median `mine` alone."""
    return [Row("training · default run", f"train(), {DEFAULT_STEPS} steps, median of {runs}", seconds(mine),
                f"{NO_TORCH} ({INSTALL})", "—", f"≤ {TRAIN_BUDGET_S:g} s", mine <= TRAIN_BUDGET_S),
            Row("training · steps per second", "next to PyTorch autograd", f"{DEFAULT_STEPS / mine:,.0f} steps/s",
                NO_TORCH, "—", "≥ 1× PyTorch", None)]


if __name__ == "__main__":
    main()
