"""Closed forms of the pipeline bubble and of the activations each stage holds.

Each formula is what the step-by-step simulation (:mod:`distlesson.pipeline.simulator`) gives
for the schedule of the same name (:mod:`distlesson.pipeline.schedules`), and the tests check that
they agree exactly, as Fractions, wherever the docstring says the formula holds. The
assumptions are the simulator's: balanced stages, instantaneous communication, every op
as early as the stage's order allows. Bubbles are unitless fractions; activations are in
microbatches' worth of one stage's activations.

Two ratios are quoted for "the bubble", and they differ:

* the idle share of all stage-time, idle / (pp x makespan), which :func:`bubble_fraction`
  returns (GPipe, 1F1B: (p - 1) / (m + p - 1));
* the bubble time over the ideal, bubble-free time, which Narayanan et al. (2021) call the
  "bubble time fraction" and :func:`bubble_over_ideal` returns ((p - 1) / m).

With r the second, the first is r / (1 + r): for p = 4, m = 16, 3/16 = 18.75% of the ideal
time, which is 3/19 = 15.8% of the stage-time.
"""

from __future__ import annotations

from fractions import Fraction

from distlesson.checks import check_positive_ints
from distlesson.pipeline.schedules import check_schedule_args
from distlesson.pipeline.simulator import Durations

__all__ = ["bubble_fraction", "bubble_over_ideal", "peak_activations", "zb_h1_closed_form_holds"]


def zb_h1_closed_form_holds(pp: int, num_microbatches: int, durations: Durations) -> bool:
    """Whether the ZB-H1 bubble formula of :func:`bubble_fraction` is exact.

    With T_F = fwd, T_B = bwd - wgrad, T_W = wgrad, it is exact if and only if
    pp = 1, or T_W = 0, or (num_microbatches >= pp and T_W <= min(T_F, T_B)).
    Found by comparing it with the simulator over p, m = 1..16 and a grid of durations and
    over random fractional durations (tests/test_bubble.py): inside the condition the two
    always agree; outside it they never do (the simulated bubble is larger).
    """
    t_f, t_b, t_w = durations.fwd, durations.bwd - durations.wgrad, durations.wgrad
    return pp == 1 or t_w == 0 or (num_microbatches >= pp and t_w <= min(t_f, t_b))


def bubble_fraction(schedule: str, pp: int, num_microbatches: int, chunks: int = 1,
                    durations: Durations | None = None) -> Fraction:
    """The idle share of stage-time, idle / (pp x makespan), of a schedule, exact.

    With p = pp, m = num_microbatches, v = chunks and t_f, t_b the forward and whole
    backward of one microbatch on one stage:

    * ``gpipe`` and ``1f1b``: (p - 1) / (m + p - 1). The makespan is (m + p - 1)(t_f + t_b):
      m microbatches of work plus p - 1 fill and p - 1 drain steps (Huang et al. 2019,
      GPipe, Section 2.3: "O((K - 1) / (M + K - 1))"; Narayanan et al. 2021, SC'21,
      Section 2.2.1: bubble time (p - 1)(t_f + t_b)). Holds for every p, m >= 1 and any
      durations.
    * ``interleaved``: (p - 1) / (v m + p - 1), from the bubble time (p - 1)(t_f + t_b) / v
      of Narayanan et al. 2021, Section 2.2.2, over the makespan m (t_f + t_b) plus that
      bubble. Holds whenever the schedule exists (m a multiple of p, v >= 2), any durations.
    * ``zb-h1``: B (T_B = bwd - wgrad, the input gradient) and W (T_W = wgrad) are split;
      Qi et al. 2024 (Zero Bubble Pipeline Parallelism, ICLR, Section 3.1) give the bubble
      time (p - 1)(T_F + T_B - T_W) per stage, so with T_F = fwd the share is
      (p - 1)(T_F + T_B - T_W) / (m (T_F + T_B + T_W) + (p - 1)(T_F + T_B - T_W)).
      Exact only under :func:`zb_h1_closed_form_holds` (m >= p and T_W <= min(T_F, T_B),
      or p = 1, or T_W = 0); ValueError otherwise: simulate the schedule instead. With
      T_F = T_B = T_W the bubble time is p - 1 units, a third of 1F1B's 3 (p - 1).

    ``durations`` (default :class:`Durations`) matters only for ``zb-h1``.
    """
    check_schedule_args(schedule, pp, num_microbatches, chunks)
    p, m = pp, num_microbatches
    if schedule in ("gpipe", "1f1b"):
        return Fraction(p - 1, m + p - 1)
    if schedule == "interleaved":
        return Fraction(p - 1, chunks * m + p - 1)
    durations = durations or Durations()
    if not zb_h1_closed_form_holds(p, m, durations):
        raise ValueError(
            f"the ZB-H1 closed form is exact only for num_microbatches >= pp and "
            f"wgrad <= min(fwd, bwd - wgrad) (or pp = 1, or wgrad = 0); got pp={p}, "
            f"num_microbatches={m}, fwd={durations.fwd}, bwd={durations.bwd}, "
            f"wgrad={durations.wgrad}: simulate the schedule instead")
    t_f, t_b, t_w = (Fraction(t) for t in (durations.fwd, durations.bwd - durations.wgrad,
                                           durations.wgrad))
    bubble = (p - 1) * (t_f + t_b - t_w)
    return bubble / (m * (t_f + t_b + t_w) + bubble)


def bubble_over_ideal(pp: int, num_microbatches: int, *, chunks: int = 1) -> Fraction:
    """Bubble time over the ideal (bubble-free) time: (p - 1) / (v m), exact.

    Narayanan et al. 2021 (SC'21), Sections 2.2.1-2.2.2: "bubble time fraction"
    t_pb / t_id = (p - 1) / m, and (p - 1) / (v m) with v chunks per stage. It is not a
    share of the step: the share is r / (1 + r), see :func:`bubble_fraction`. Same
    assumptions as the 1F1B and interleaved closed forms; any durations.
    """
    check_positive_ints(pp=pp, num_microbatches=num_microbatches, chunks=chunks)
    return Fraction(pp - 1, chunks * num_microbatches)


def peak_activations(schedule: str, pp: int, num_microbatches: int,
                     chunks: int = 1) -> tuple[int | Fraction, ...]:
    """Per stage s = 0..p-1, the most microbatches whose activations it holds at once.

    Units: one microbatch's activations of the stage (a (microbatch, chunk) pair counts
    1/v). A microbatch is held from its forward until its backward (until its W under
    ZB-H1, since W still reads the stored inputs). It depends only on each stage's order:

    * ``gpipe``: m on every stage (Huang et al. 2019).
    * ``1f1b``: min(p - s, m): p - s - 1 warmup forwards plus the steady state's one
      (Narayanan et al. 2021; stage 0 holds p, the last stage 1).
    * ``interleaved``: min(2 (p - s - 1) + (v - 1) p + 1, v m) / v: Megatron-LM's warmup
      plus one, in chunks, over v (stage 0: p + (p - 1) / v when m > p, more than 1F1B's p).
    * ``zb-h1``: min(p, m) on every stage: at step x a stage has run x + 1 forwards and
      x - p + 1 Ws. The peak over stages equals 1F1B's, as Qi et al. 2024 require; later
      stages hold more than under 1F1B until their deferred Ws.

    Holds for every p, m and v the schedule accepts.
    """
    check_schedule_args(schedule, pp, num_microbatches, chunks)
    p, m, v = pp, num_microbatches, chunks
    if schedule == "gpipe":
        return (m,) * p
    if schedule == "1f1b":
        return tuple(min(p - s, m) for s in range(p))
    if schedule == "zb-h1":
        return (min(p, m),) * p
    peaks = (Fraction(min(2 * (p - s - 1) + (v - 1) * p + 1, v * m), v) for s in range(p))
    return tuple(int(x) if x.denominator == 1 else x for x in peaks)
