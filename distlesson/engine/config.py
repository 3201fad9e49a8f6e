"""What the lab runs: sizes, seeds and tolerances, readable without torch.

The checks (which need torch) and the page that shows them (which must not, to build its
figures) both read these. Sizes are small on purpose: the point is exactness, not speed,
and every rank is a process on a shared CPU.
"""

from __future__ import annotations

__all__ = [
    "ACCUMULATION",
    "EXAMPLES_PER_RANK",
    "GRAD_TOLERANCE",
    "SEED",
    "TOY_SHAPE",
    "TP_HIDDEN",
    "TP_TOKENS",
    "TP_TOLERANCE",
    "even_shape",
    "ffn_hidden",
    "num_microbatches",
    "uneven_shape",
]

TOY_SHAPE = (8, 16, 4)
"""in, hidden, out of the toy MLP for DDP and ZeRO-1: the parallelism chapter's."""
SEED = 1
"""Seed of the library's weights and of the batches: every run sees the same numbers."""
EXAMPLES_PER_RANK = 8
"""Every rank gets as many examples, so that DDP's average of the ranks' mean gradients
is the mean over the whole batch (an uneven split would need weights, as the library's
:func:`~distlesson.parallel.data.data_parallel_grads` applies)."""
ACCUMULATION = 4
"""K, micro-steps per optimizer step in the accumulation check (micro-batches of 2)."""
GRAD_TOLERANCE = 1e-5
"""Largest |difference| allowed between a float32 result of torch (gradients, AdamW's first
moment, weights after AdamW steps) and the library's float64 one. Both start from the same
float32 weights; float32 rounds each operation to about 6e-8 relative, the values here are
of order one and sum a few dozen terms, so gradients differ by about 1e-7; 1e-5 is
torch.testing's default absolute tolerance for float32.

The weights alone would be a weak test: AdamW's first step moves each weight by about
lr x sign(g), whatever the gradient's size, and Adam is blind to a constant factor on every
gradient (a sum over the ranks instead of the mean). So the checks compare the gradients
themselves (or the first moment, (1 - beta1) g after one step), and the updates after two
steps on different batches, where the second step depends on the ratio of the gradients.
The weights then differ by the float32 rounding of the weights plus lr times the relative
error of m / (sqrt(v) + eps), itself of the order of the gradients' relative error: far
below 1e-5 unless a gradient element is near zero."""
TP_HIDDEN = 8
TP_TOKENS = 6
TP_TOLERANCE = 1e-10
"""Largest |difference| allowed between torch's float64 tensor-parallel MLP and the
library's: the split sums add the same terms in another order, a few ulps of values of
order one."""


def _ranks(n: int) -> int:
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ValueError(f"n={n!r} must be a positive integer (the number of ranks)")
    return n


def even_shape(n: int) -> tuple[int, int, int]:
    """FSDP2's even model: in, hidden, out with every dim 0 (hidden, out) a multiple of n."""
    return 8, 4 * _ranks(n), 2 * n


def uneven_shape(n: int) -> tuple[int, int, int]:
    """FSDP2's uneven model: dim 0 sizes 2n + 1 and n + 1, which n >= 2 does not divide,
    so ``torch.chunk`` leaves short or empty pieces."""
    return 8, 2 * _ranks(n) + 1, n + 1


def ffn_hidden(n: int) -> int:
    """The tensor-parallel MLP's inner width: a multiple of n (every rank whole columns)."""
    return 4 * _ranks(n)


def num_microbatches(pp: int) -> int:
    """m = 8, the pipeline chapter's example, or 2 pp on deeper pipelines, so that every
    stage reaches 1F1B's steady state (torch's Schedule1F1B needs m >= pp)."""
    return max(8, 2 * _ranks(pp))
