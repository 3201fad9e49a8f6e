"""The claims register's communication claims: what ZeRO-2 costs against data parallelism,
how many steps a ring all-reduce takes, and which NVLink bandwidth a collective sees.

Like :mod:`distlesson.claims.register`, each claim keeps the source's number as a typed input and
computes the same quantity with the library. Assembled into the register there.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from distlesson.catalog.interconnects import get_interconnect
from distlesson.catalog.models import get_model
from distlesson.claims.claim import Claim, Figure
from distlesson.memory.states import model_states
from distlesson.pages import parallelism as chapter
from distlesson.parallel.alpha_beta import CollectiveTime, collective_time
from distlesson.parallel.collectives import ring_all_reduce, ring_reduce_scatter
from distlesson.parallel.zero import zero_comm_bytes

__all__ = ["RING_GPUS", "communication_claims", "zero_over_dp"]

RING_GPUS = 8  # the ring of one node, where the lesson's "N - 1 steps" is evaluated
DP_TRAFFIC = 1.0  # the lesson's reference row: ZeRO-2 sends "slightly more" than this


def zero_over_dp(stage: int) -> Fraction:
    """Bytes a GPU sends per step under ZeRO ``stage`` over those of plain data parallelism,
    one gradient synchronisation per step (Rajbhandari et al. 2020, section 7), for the
    chapter's model on its 16 GPUs (the ratio depends on neither)."""
    weights = model_states(get_model(chapter.MODEL)).weights
    return (zero_comm_bytes(weights, chapter.DEVICES, stage)
            / zero_comm_bytes(weights, chapter.DEVICES, 0))


def _chapter_figure(name: str) -> float:
    return next(f.value for f in chapter.figures() if f.name == name)


def _ring_steps(kind: str) -> int:
    """Rounds of the simulated ring collective over RING_GPUS ranks."""
    buffers = [np.zeros(RING_GPUS * 4) for _ in range(RING_GPUS)]  # (n x 4,) per rank
    run = ring_all_reduce if kind == "all_reduce" else ring_reduce_scatter
    return run(buffers).steps


def communication_claims() -> list[Claim]:
    """The claims, in the order of the chapter."""
    return [
        Claim(
            id="fa_zero_two_traffic", source="fa: DeepSpeed ZeRO (the stages' table)",
            unit="ratio", stated=DP_TRAFFIC, relation="more_than", chapter="parallelism",
            computed=lambda: zero_over_dp(2),
            statement={"en": "ZeRO-2 sends slightly more than data parallelism: more than "
                       "{{ claim.fa_zero_two_traffic.stated }} its traffic."},
            why={"en": "In a step ZeRO-2 reduce-scatters the gradients and all-gathers the "
                 "updated weights; on a ring these two move exactly the bytes of data "
                 "parallelism's all-reduce: {{ claim.fa_zero_two_traffic.computed }} its "
                 "traffic, not more. ZeRO-3's second gather of the weights makes "
                 "{{ claim.fa_zero_two_traffic.zero_three }}. ZeRO-2 sends more only when "
                 "each micro-batch's gradient is reduce-scattered instead of accumulated, "
                 "the default of DeepSpeed and FSDP: with "
                 "{{ claim.fa_zero_two_traffic.microbatches }} micro-batches per step, "
                 "{{ claim.fa_zero_two_traffic.accumulating }}, far more than slightly."},
            extras=(
                Figure("zero_three", lambda: zero_over_dp(3), "ratio"),
                Figure("microbatches",
                       lambda: _chapter_figure("par.microbatches_per_replica"), "count"),
                Figure("accumulating",
                       lambda: _chapter_figure("par.zero2_over_dp_accumulating"), "ratio"),
            ),
        ),
        Claim(
            id="fa_ring_steps", source="fa: build it, step one", unit="count",
            stated=RING_GPUS - 1,  # the lesson's "after N - 1 steps", at N = RING_GPUS
            chapter="parallelism", computed=lambda: _ring_steps("all_reduce"),
            statement={"en": "In NCCL's ring all-reduce over "
                       "{{ claim.fa_ring_steps.gpus }} GPUs, every GPU holds the full "
                       "average after N minus one steps, "
                       "{{ claim.fa_ring_steps.stated }}."},
            why={"en": "After N minus one steps, {{ claim.fa_ring_steps.reduce_scatter }}, "
                 "each GPU holds only its own chunk fully summed: that is the reduce-scatter "
                 "half. The all-gather half then passes the finished chunks around the ring "
                 "in as many steps again, {{ claim.fa_ring_steps.computed }} in all, as the "
                 "simulated ring counts them. The lesson's own volume, twice the gradient "
                 "times N minus one over N, already counts both halves."},
            extras=(
                Figure("gpus", lambda: RING_GPUS, "count"),
                Figure("reduce_scatter", lambda: _ring_steps("reduce_scatter"), "count"),
            ),
        ),
        Claim(
            id="fa_nvlink_bandwidth", source="fa: tensor parallelism",
            unit="bytes_per_second",
            stated=900e9, chapter="communication",
            computed=lambda: get_interconnect("nvlink4").bandwidth,
            statement={"en": "NVLink moves {{ claim.fa_nvlink_bandwidth.stated }} "
                       "between the GPUs of a node, InfiniBand about "
                       "{{ claim.fa_nvlink_bandwidth.infiniband }} between nodes."},
            why={"en": "The NVLink figure is NVIDIA's for the H100, the sum of both "
                 "directions. A collective's time is set by what one GPU sends, one way: "
                 "{{ claim.fa_nvlink_bandwidth.computed }}, the figure this "
                 "course uses. The InfiniBand figure beside it is already one way, so the "
                 "lesson compares the two links in different conventions, and the gap "
                 "looks twice as wide as it is."},
            extras=(Figure("infiniband", lambda: get_interconnect("ib-ndr").bandwidth,
                           "bytes_per_second"),),
        ),
        Claim(
            id="ca_link_bandwidths", source="ca §2 (tensor parallelism's traffic)",
            unit="bytes_per_second", stated=450e9, chapter="communication",
            computed=lambda: get_interconnect("nvlink4").bandwidth,
            statement={"en": "NVLink 4 moves {{ claim.ca_link_bandwidths.stated }} inside a "
                       "node; InfiniBand NDR, {{ claim.ca_link_bandwidths.infiniband }} "
                       "between nodes."},
            why={"en": "Both are datasheet figures for one GPU in one direction, the "
                 "convention that sets a collective's time, and both agree with the catalog. "
                 "No collective reaches them: on a published measurement of eight H100s, the "
                 "model gives a one-gibibyte all-reduce a bus bandwidth of "
                 "{{ claim.ca_link_bandwidths.achieved }}, "
                 "{{ claim.ca_link_bandwidths.share }} of NVLink's."},
            extras=(Figure("infiniband", lambda: get_interconnect("ib-ndr").bandwidth,
                           "bytes_per_second"),
                    Figure("achieved", lambda: _gib_all_reduce().busbw, "bytes_per_second"),
                    Figure("share", lambda: _gib_all_reduce().busbw
                           / get_interconnect("nvlink4").bandwidth, "fraction")),
        ),
    ]


def _gib_all_reduce() -> CollectiveTime:
    """A one-GiB all-reduce over one H100 server's eight GPUs on NVLink."""
    return collective_time("all-reduce", 2**30, RING_GPUS, "nvlink4")
