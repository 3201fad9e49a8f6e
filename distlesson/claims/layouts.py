"""The claims register's layout claims: the Catalan chapter's 512-GPU widget and its
16-device strategy table, against the library's memory and traffic per GPU.

Both use the chapter's model and step (:mod:`distlesson.pages.parallelism`: Llama 3 70B, 128
sequences of 8,192 tokens per step, full recomputation), which the Catalan figures match.
Like :mod:`distlesson.claims.register`, each claim keeps the source's number as a typed
input and computes the same quantity with the library. Assembled into the register there.
"""

from __future__ import annotations

import functools
from fractions import Fraction

from distlesson.catalog.models import get_model
from distlesson.claims.claim import Claim, Figure
from distlesson.memory.layer_activations import layer_activation_bytes
from distlesson.memory.states import Layout, model_states, per_gpu_states
from distlesson.pages import parallelism as chapter
from distlesson.parallel.collectives import ring_bytes
from distlesson.parallel.layout import LayoutReport, analyse_layout
from distlesson.parallel.tensor import tp_bytes_per_layer
from distlesson.pipeline.bubble import peak_activations

__all__ = ["WIDGET", "WIDGET_MICROBATCHES", "layout_claims"]

SOURCE_70B = 70e9  # the chapter's round "70B"
WIDGET = Layout(dp=16, tp=8, pp=4, zero=1)
"""The widget's "512 GPUs = DP 16 x TP 8 x PP 4 x CP 1"; ZeRO-1 is the stage whose states
give its memory figure (the widget does not name one)."""
WIDGET_MICROBATCHES = 8  # its simulated pipeline: "4 etapes, 8 microlots"
TABLE_TP_MICROBATCHES = 8  # micro-batches behind the table's "TP x 8" traffic
TABLE_PP_MICROBATCHES = 16  # micro-batches behind its "PP x 16" traffic
WIDGET_ALL_REDUCES = 4  # "quatre all-reduce ... dos al forward, dos al backward"
FULL_RECOMPUTE_ALL_REDUCES = 6  # the same and the rerun forward's two


@functools.cache
def _report(layout: Layout, microbatches: int | None = None) -> LayoutReport:
    """The library's analysis of ``layout`` on the chapter's step, cut into ``microbatches``
    per replica (None: the step's own micro-batches of one sequence)."""
    step = chapter.STEP if microbatches is None else chapter.STEP.split(layout.dp, microbatches)
    return analyse_layout(get_model(chapter.MODEL), layout, step)


def _widget() -> LayoutReport:
    return _report(WIDGET, WIDGET_MICROBATCHES)


def _nominal_memory() -> Fraction:
    """The widget's own count: the states of a round 70e9 parameters split evenly over the
    stages, and each layer's input (what full recomputation keeps) for the micro-batches the
    busiest stage holds; no rebuilt layer, no logits, no overheads."""
    arch, step, report = get_model(chapter.MODEL), chapter.STEP, _widget()
    states = per_gpu_states(model_states(SOURCE_70B), WIDGET).total
    kept = layer_activation_bytes(arch, seq_len=step.seq_len, micro_batch=step.micro_batch,
                                  tp=WIDGET.tp, sp=True, recompute="full")
    in_flight = peak_activations("1f1b", WIDGET.pp, WIDGET_MICROBATCHES)[report.stage.stage]
    return Fraction(states) + kept * report.stage.layers * in_flight


def _nominal_dp_traffic() -> Fraction:
    """Data-parallel all-reduce of a GPU's gradients, 2 (d - 1)/d x G / (t p), at 70e9."""
    grads = Fraction(model_states(SOURCE_70B).grads, WIDGET.tp * WIDGET.pp)
    return ring_bytes("all_reduce", 1, WIDGET.dp) * grads


def _tp_four_all_reduces(layers: int, microbatches: int, tp: int) -> Fraction:
    """Tensor-parallel bytes counting four all-reduces per layer (no forward rerun)."""
    arch, step = get_model(chapter.MODEL), chapter.STEP
    per_layer = tp_bytes_per_layer(step.seq_len, step.micro_batch, arch.hidden_size, tp)
    return per_layer * layers * microbatches


def _layers_per_stage(pp: int) -> int:
    return -(-get_model(chapter.MODEL).num_layers // pp)


def _widget_claims() -> list[Claim]:
    source = "ca §2 (widget: the five dimensions)"
    widget = _widget
    return [
        Claim(
            id="ca_widget_memory", source=source, unit="bytes", stated=11.7e9,
            chapter="parallelism", computed=lambda: widget().per_gpu_bytes,
            statement={"en": "On {{ claim.ca_widget_memory.gpus }} GPUs, data parallelism "
                       "of {{ claim.ca_widget_memory.dp }}, tensor parallelism of "
                       "{{ claim.ca_widget_memory.tp }} and a pipeline of "
                       "{{ claim.ca_widget_memory.pp }} stages, each GPU holds "
                       "{{ claim.ca_widget_memory.stated }}."},
            why={"en": "The widget counts the states with a round "
                 "{{ claim.ca_widget_memory.params }} parameters and each layer's input for "
                 "the micro-batches in flight: that gives {{ claim.ca_widget_memory.nominal }}, "
                 "its figure. The library counts {{ claim.ca_widget_memory.computed }} for the "
                 "busiest GPU: Llama 3 70B's exact count with the embedding on the first stage, "
                 "the one layer rebuilt during the backward, and the CUDA context, the "
                 "communication buffers and fragmentation. ZeRO-1 is the stage the widget's "
                 "figure implies; recomputation is full."},
            extras=(
                Figure("gpus", lambda: WIDGET.world_size, "count"),
                Figure("dp", lambda: WIDGET.dp, "count"),
                Figure("tp", lambda: WIDGET.tp, "count"),
                Figure("pp", lambda: WIDGET.pp, "count"),
                Figure("params", lambda: SOURCE_70B, "count"),
                Figure("nominal", _nominal_memory, "bytes"),
            ),
        ),
        Claim(
            id="ca_widget_dp_traffic", source=source, unit="bytes", stated=8.2e9,
            chapter="parallelism", computed=lambda: widget().communication.dp,
            statement={"en": "In the same layout each GPU sends "
                       "{{ claim.ca_widget_dp_traffic.stated }} per step for data "
                       "parallelism."},
            why={"en": "An all-reduce of the GPU's slice of the bf16 gradients, once per "
                 "step: {{ claim.ca_widget_dp_traffic.computed }} with the exact parameter "
                 "count, {{ claim.ca_widget_dp_traffic.nominal }} with the round one, the "
                 "widget's figure."},
            extras=(Figure("nominal", _nominal_dp_traffic, "bytes"),),
        ),
        Claim(
            id="ca_widget_tp_traffic", source=source, unit="bytes", stated=150e9,
            precision=1e9,  # written "TP 150" among "8,2" and "0,5": whole GB
            chapter="parallelism", computed=lambda: widget().communication.tp,
            statement={"en": "In the same layout each GPU sends "
                       "{{ claim.ca_widget_tp_traffic.stated }} per step for tensor "
                       "parallelism."},
            why={"en": "The widget's memory keeps only each layer's input, so every backward "
                 "first reruns its layer's forward, and with it the forward's two "
                 "all-reduces: {{ claim.ca_widget_tp_traffic.all_reduces }} per layer and "
                 "micro-batch, not the {{ claim.ca_widget_tp_traffic.widget_all_reduces }} "
                 "the widget counts. The library counts "
                 "{{ claim.ca_widget_tp_traffic.computed }}; without the rerun it would be "
                 "{{ claim.ca_widget_tp_traffic.four }}, the widget's figure, which "
                 "contradicts its own memory."},
            extras=(
                Figure("all_reduces", lambda: FULL_RECOMPUTE_ALL_REDUCES, "count"),
                Figure("widget_all_reduces", lambda: WIDGET_ALL_REDUCES, "count"),
                Figure("four", lambda: _tp_four_all_reduces(
                    _layers_per_stage(WIDGET.pp), WIDGET_MICROBATCHES, WIDGET.tp), "bytes"),
            ),
        ),
        Claim(
            id="ca_widget_pp_traffic", source=source, unit="bytes", stated=0.5e9,
            chapter="parallelism", computed=lambda: widget().communication.pp,
            statement={"en": "In the same layout each GPU sends "
                       "{{ claim.ca_widget_pp_traffic.stated }} per step between pipeline "
                       "stages."},
            why={"en": "For each micro-batch a middle stage sends its activations forward "
                 "and their gradient back, each tensor-parallel rank its own slice: "
                 "{{ claim.ca_widget_pp_traffic.computed }} in "
                 "{{ claim.ca_widget_pp_traffic.microbatches }} micro-batches. The widget's "
                 "figure is about twice that, {{ claim.ca_widget_pp_traffic.both_ways }}: "
                 "what the GPU sends and what it receives, counted together."},
            extras=(
                Figure("microbatches", lambda: WIDGET_MICROBATCHES, "count"),
                Figure("both_ways", lambda: 2 * widget().communication.pp, "bytes"),
            ),
        ),
        Claim(
            id="ca_widget_total_traffic", source=source, unit="bytes", stated=159e9,
            chapter="parallelism", computed=lambda: widget().communication.total,
            statement={"en": "In all, each GPU of the same layout sends "
                       "{{ claim.ca_widget_total_traffic.stated }} per step."},
            why={"en": "The sum of the terms above: {{ claim.ca_widget_total_traffic.computed }}"
                 " in the library. Nearly all of the difference is the tensor-parallel "
                 "traffic of the rerun forward, which the widget leaves out."},
        ),
    ]


def _table_claims() -> list[Claim]:
    source = "ca §2 (the strategy table of sixteen devices)"
    n, tp = chapter.DEVICES, chapter.TP_DEGREE

    def zero(stage: int, microbatches: int | None = None) -> LayoutReport:
        return _report(Layout(dp=n, zero=stage), microbatches)

    tp_layout, pp_layout = Layout(tp=tp, dp=n // tp), Layout(pp=n)
    layers = get_model(chapter.MODEL).num_layers

    def pp_per_microbatch() -> Fraction:
        report = _report(pp_layout)
        return report.communication.pp / report.num_microbatches

    zero_why = (
        "The source counts one gradient synchronisation per step, as if the micro-batches' "
        "gradients were added into a full buffer first: "
        "{{{{ claim.{id}.once_per_step }}}} with Llama 3 70B's exact count, the source's "
        "figure with the round one. {stage_text} Reduce-scattering every one of the "
        "{{{{ claim.{id}.microbatches }}}} micro-batches instead, the default of DeepSpeed "
        "and FSDP, the library's table counts {{{{ claim.{id}.computed }}}}."
    )
    zero_specs = (
        ("ca_table_zero_two_traffic", 2, 263e9,
         "With sharded gradients there is no full buffer to add into unless one is kept."),
        ("ca_table_zero_three_traffic", 3, 394e9,
         "ZeRO-3 also gathers the weights before each micro-batch's forward and backward."),
    )
    claims = [
        Claim(
            id=claim_id, source=source, unit="bytes", stated=stated, chapter="parallelism",
            computed=lambda s=stage: zero(s).communication.total,
            statement={"en": f"ZeRO-{stage} on {{{{ claim.{claim_id}.gpus }}}} devices sends "
                       f"{{{{ claim.{claim_id}.stated }}}} per GPU and step."},
            why={"en": zero_why.format(id=claim_id, stage_text=text)},
            extras=(
                Figure("gpus", lambda: n, "count"),
                Figure("once_per_step", lambda s=stage: zero(s, 1).communication.total,
                       "bytes"),
                Figure("microbatches", lambda s=stage: zero(s).num_microbatches, "count"),
            ),
        )
        for claim_id, stage, stated, text in zero_specs
    ]
    claims += [
        Claim(
            id="ca_table_tp_traffic", source=source, unit="bytes", stated=601e9,
            chapter="parallelism", computed=lambda: _report(tp_layout).communication.total,
            statement={"en": "Tensor parallelism over {{ claim.ca_table_tp_traffic.tp }} "
                       "devices sends {{ claim.ca_table_tp_traffic.stated }} per GPU and "
                       "step."},
            why={"en": "The source's figure is four all-reduces per layer for "
                 "{{ claim.ca_table_tp_traffic.source_microbatches }} micro-batches, "
                 "{{ claim.ca_table_tp_traffic.source_way }}, in a table of "
                 "{{ claim.ca_table_tp_traffic.gpus }} devices whose data-parallel rows "
                 "count one synchronisation per step. On those devices tensor parallelism "
                 "of {{ claim.ca_table_tp_traffic.tp }} leaves "
                 "{{ claim.ca_table_tp_traffic.replicas }} replicas, each running "
                 "{{ claim.ca_table_tp_traffic.microbatches }} micro-batches of the step, "
                 "and full recomputation reruns the forward's two all-reduces: "
                 "{{ claim.ca_table_tp_traffic.computed }}."},
            extras=(
                Figure("tp", lambda: tp, "count"),
                Figure("gpus", lambda: n, "count"),
                Figure("replicas", lambda: tp_layout.dp, "count"),
                Figure("source_microbatches", lambda: TABLE_TP_MICROBATCHES, "count"),
                Figure("source_way", lambda: _tp_four_all_reduces(
                    layers, TABLE_TP_MICROBATCHES, tp), "bytes"),
                Figure("microbatches", lambda: _report(tp_layout).num_microbatches, "count"),
            ),
        ),
        Claim(
            id="ca_table_pp_traffic", source=source, unit="bytes", stated=4.3e9,
            chapter="parallelism", computed=lambda: _report(pp_layout).communication.total,
            statement={"en": "A pipeline of {{ claim.ca_table_pp_traffic.gpus }} stages "
                       "sends {{ claim.ca_table_pp_traffic.stated }} per GPU and step."},
            why={"en": "With one replica, the pipeline runs all "
                 "{{ claim.ca_table_pp_traffic.microbatches }} micro-batches of the step, "
                 "each sending its activations forward and its gradient back: "
                 "{{ claim.ca_table_pp_traffic.computed }}. The source's figure is what "
                 "{{ claim.ca_table_pp_traffic.source_microbatches }} micro-batches send, "
                 "{{ claim.ca_table_pp_traffic.source_way }}: its rows count different "
                 "numbers of micro-batches."},
            extras=(
                Figure("gpus", lambda: n, "count"),
                Figure("microbatches", lambda: _report(pp_layout).num_microbatches, "count"),
                Figure("source_microbatches", lambda: TABLE_PP_MICROBATCHES, "count"),
                Figure("source_way", lambda: pp_per_microbatch() * TABLE_PP_MICROBATCHES,
                       "bytes"),
            ),
        ),
    ]
    return claims


def layout_claims() -> list[Claim]:
    """The claims, in the order of the chapter."""
    return [*_widget_claims(), *_table_claims()]
