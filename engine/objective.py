"""The one objective a fit of W_Q and W_K minimises, on rows of scores: which word (cross-entropy of each row's softmax
against the targets) and whether at all (a logistic term on each pair's sign); the treebank's fits add one on how much
of a sentence's scores one number per key explains. And the checks of a run's scores against its targets."""
from dataclasses import dataclass

import numpy as np

# How much "whether at all" (sign_loss) counts beside "which word" (cross_entropy): README, "What training asks"
SIGN_WEIGHT = 3.0
SIGN_SCALE = 2.0  # sign_loss reads s / 2: a score counts as safely on its side of 0 a few units past it
POSITIVE_SHARE = 0.53  # of a row's sign term, what its relevant pairs weigh together (its irrelevant ones: the rest)
# How much "from the pair, not the key" (key_only) counts where every word of a sentence asks (the treebank's fits)
PAIR_WEIGHT = 0.2


@dataclass(frozen=True)
class Objective:
    """The one objective on rows of scores: its two terms, the softmax it compares and its gradient."""

    loss: float  # order + weight × sign
    order: float  # the cross-entropy term: which word
    sign: float  # the sign term, before its weight: whether at all
    probs: np.ndarray  # [r, n]  softmax over each row's masked-in keys
    grad: np.ndarray  # [r, n]  d loss / d score


def objective(s, mask, p, sign_weight: float = SIGN_WEIGHT,
              positive_share: float = POSITIVE_SHARE) -> Objective:  # [r, n] ×3
    """The one objective, a mean over rows: which word (cross_entropy) plus sign_weight × whether at all (sign_loss)."""
    # cross_entropy: the row's softmax against p; sign_loss: pairs with p > 0 above 0, the row's other masked-in
    # pairs below 0, the first weighing `positive_share` of a row.
    # Softmax ignores one number added to a whole row, so only the second term says where 0 lies.
    order, probs = cross_entropy(s, mask, p)
    sign, g_sign = sign_loss(s, mask & (p > 0), mask & (p <= 0), positive_share)
    return Objective(order + sign_weight * sign, order, sign, probs, (probs - p) / len(s) + sign_weight * g_sign)


def cross_entropy(s, mask, p):  # [r, n] ×3 -> mean loss, probs [r, n]
    """Which word: mean over rows of -Σ p·log softmax(s), the softmax over each row's masked-in keys."""
    # Its gradient with respect to s is (probs - p) / r, which objective() builds from probs.
    masked = np.where(mask, s, -np.inf)
    top = masked.max(axis=1, keepdims=True)
    e = np.exp(masked - top)
    total = e.sum(axis=1, keepdims=True)
    # -Σ p·log softmax = log Σe + top - Σ p·s, because each row of p sums to 1
    loss = (np.log(total[:, 0]) + top[:, 0] - np.where(mask, p * s, 0.0).sum(axis=1)).mean()
    return float(loss), e / total


def sign_loss(s, positive, negative,
              positive_share: float = POSITIVE_SHARE):  # [r, n] scores, [r, n] bool ×2 -> mean loss, d loss / d s
    """Whether at all: mean over rows of a logistic loss, positive pairs pushed above 0 and negative ones below."""
    # c·log(1 + e^(-s/c)) on each positive pair and c·log(1 + e^(s/c)) on each negative one (c = SIGN_SCALE).
    # Within a row the positive pairs together weigh `positive_share` and the negative ones the rest (all of it
    # when a row has one kind only), so a word's one head counts about as much as all its other words.
    n_pos = positive.sum(axis=1, keepdims=True)
    n_neg = negative.sum(axis=1, keepdims=True)
    share = np.where(n_neg == 0, 1.0, np.where(n_pos == 0, 0.0, positive_share))  # [r, 1]  the positives' part
    w = np.where(positive, share / np.maximum(n_pos, 1), np.where(negative, (1.0 - share) / np.maximum(n_neg, 1), 0.0))
    # each pair is one kind or none: one logistic term each, on s / c towards its side (the other cells may hold -inf)
    z = np.where(positive, -s, np.where(negative, s, 0.0)) / SIGN_SCALE
    loss = SIGN_SCALE * (w * np.logaddexp(0.0, z)).sum(axis=1).mean()
    side = logistic(z)
    return float(loss), w * np.where(positive, -side, side) / len(s)


def key_only(s, present):  # [B, L, L] scores, [B, L] bool -> mean loss, d loss / d s [B, L, L]
    """From the pair, not the key: the part of the scores one number per key explains, as a mean square per key."""
    # That part is each key's mean score over the sentence's words, less the sentence's mean; the loss is averaged
    # over sentences.
    both = present[:, :, None] & present[:, None, :]
    m = present.sum(axis=1, keepdims=True)  # [B, 1]
    column = np.where(both, s, 0.0).sum(axis=1) / m  # [B, L]  each key's mean score
    part = np.where(present, column - (column * present).sum(axis=1, keepdims=True) / m, 0.0)
    loss = ((part**2).sum(axis=1) / m[:, 0]).mean()
    return float(loss), np.where(both, (2 * part / m**2)[:, None, :], 0.0) / len(s)


def logistic(z):  # [...] -> [...]
    """1 / (1 + e^-z), written with tanh so that no exponential overflows."""
    return 0.5 * (1.0 + np.tanh(0.5 * z))


def sign_right(scores, targets) -> np.ndarray:  # [..., t] -> [..., t] bool
    """Whether each pair's score has its target's sign: above 0 where the target is above 0, below 0 where it is 0."""
    positive = np.array([value > 0 for _, _, value in targets], dtype=bool)
    return np.where(positive, np.asarray(scores) > 0, np.asarray(scores) < 0)


def sign_holds(scores, targets) -> np.ndarray:  # [..., t] -> [...] bool
    """Every pair's score has its target's sign."""
    return np.asarray(sign_right(scores, targets).all(axis=-1))


def order_holds(scores, targets) -> np.ndarray:  # [..., t] -> [...] bool
    """Per query row, a key with a higher target has a strictly higher score than one with a lower target."""
    scores = np.asarray(scores)
    pairs = [(a, b) for a, (qa, _, ta) in enumerate(targets) for b, (qb, _, tb) in enumerate(targets)
             if qa == qb and ta > tb]
    better, worse = [a for a, _ in pairs], [b for _, b in pairs]
    return (scores[..., better] > scores[..., worse]).all(axis=-1)
