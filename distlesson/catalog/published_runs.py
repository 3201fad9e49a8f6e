"""Published training runs with a stated layout and a measured efficiency: what the
performance model is checked against (:mod:`distlesson.efficiency.accuracy`).

Each run keeps the paper's own numbers as inputs (layout, batch, sequence, the measured MFU
or HFU) and what the paper says of its software (pipeline schedule, recomputation,
overlap, attention kernel). Where a paper is silent, the field says what we assume.

* Llama 3 405B, Grattafiori et al. 2024, Table 4 (H100, RoCE; section 3.3.2 for the
  interleaved schedule, asynchronous point-to-point, all-gather context parallelism, fp32
  gradient reduction). The paper does not give v, nor its FLOP count: we take the fastest
  buildable v and count the attention a causal mask needs (half of the full s x s).
* Korthikanti et al. 2022, Tables 3 and 5 (A100, Selene, DP 1; selective recomputation
  and sequence parallelism; interleaved with three chunks for 175B and 530B); MFU and HFU,
  as also listed in the Megatron-LM README.
* Narayanan et al. 2021 (SC'21), Table 1 (A100, Selene; full recomputation; the FLOP count
  includes the recomputed forward, so its "% of peak" is an HFU). Schedule not stated per
  row: 1F1B assumed. Megatron-LM then overlapped neither tensor-parallel nor data-parallel
  communication, ran unfused attention on the full s x s matrix, and had no sequence
  parallelism (Korthikanti et al. introduced it): each tensor-parallel rank ran the norms,
  dropouts and residual adds on the whole activation.
* BLOOM 176B, BigScience 2022: the tr11-176B-ml training script and README (A100s of Jean
  Zay, Omni-Path between nodes; Megatron-DeepSpeed with full activation checkpointing; the
  logged TFLOPs count the recomputed forward, so divided by the peak they are an HFU; the
  script has no sequence parallelism).

Not here, and why: OPT-175B (Zhang et al. 2022) gives "up to 147 TFLOP/s" without a
micro-batch or a FLOP convention; MegaScale (Jiang et al. 2024) trains a modified block
(parallel attention and MLP, sliding-window attention) the catalog cannot describe;
DeepSeek-V3 is a mixture of experts, which the step model does not time yet.

GPT models of the Megatron papers: vocabulary 51,200, learned positions, LayerNorm, GELU
MLP of 4h, biases, tied embeddings; their parameter counts are the papers' (Narayanan et
al.'s P = 12 l h^2 (1 + 13 / 12h + (V + s) / 12lh)), checked by the tests.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from distlesson.catalog.hardware import get_gpu
from distlesson.catalog.lookup import lookup
from distlesson.catalog.models import Architecture, get_model

__all__ = ["BLOOM_176B", "PUBLISHED_RUNS", "PublishedRun", "get_published_run", "megatron_gpt"]


def megatron_gpt(params: str, *, layers: int, hidden: int, heads: int,
                 reported: float) -> Architecture:
    """A GPT model of the Megatron-LM papers (see the module docstring)."""
    return Architecture(
        key=f"megatron-gpt-{params.lower()}", display_name=f"GPT {params}",
        num_layers=layers, hidden_size=hidden, num_heads=heads, num_kv_heads=heads,
        ffn_hidden_size=4 * hidden, vocab_size=51200, norm="layernorm", mlp="gelu",
        bias=True, tied_embeddings=True, max_positions=2048, published_params=None,
        source=f"Megatron-LM GPT configuration (Narayanan et al. 2021, Table 1; Korthikanti "
        f"et al. 2022, Table 3); the papers report {reported:g}B parameters")


@dataclass(frozen=True)
class PublishedRun:
    """One measured run, as its paper describes it."""

    key: str
    display_name: str
    source: str
    model: Architecture
    gpu: str
    num_gpus: int
    inter_link: str
    tp: int
    pp: int
    dp: int
    cp: int
    zero: int
    seq_len: int
    micro_batch: int
    global_batch: int
    """Sequences per step."""
    recompute: Literal["none", "selective", "full"]
    precision: str
    schedule: Literal["1f1b", "interleaved"]
    chunks: int | None
    """v of the interleaved schedule; None: not stated (the fastest buildable one)."""
    overlap: tuple[str, str, str, str]
    """The overlap policy (dp, tp, pp, cp) of
    :class:`distlesson.efficiency.overlap.OverlapPolicy`."""
    attention: Literal["flash", "unfused"]
    software: Literal["meta-llama3", "megatron-lm-2022", "megatron-lm-2021"]
    """The training software: Meta's, Megatron-LM as Korthikanti et al. measured it, or as
    Narayanan et al. did a year earlier (BLOOM's Megatron-DeepSpeed is a fork of that one);
    older software reaches a smaller share of the peak
    (:data:`distlesson.catalog.achieved.EARLIER_SOFTWARE`)."""
    sequence_parallel: bool
    """Norms and adds split over the tensor-parallel ranks (Korthikanti et al. 2022 and
    after); False before it, where every rank ran them whole."""
    flop_count: Literal["narayanan", "causal"]
    """How the paper counts attention FLOPs: the full s x s (``narayanan``) or causal half."""
    metric: Literal["mfu", "hfu"]
    measured: float
    """The paper's MFU or HFU, a fraction."""
    tflops_per_gpu: float | None = None
    """The paper's achieved TFLOP/s per GPU, where given."""
    accumulation: Literal["fused", "separate-pass"] = "fused"
    """How micro-batch gradients reach the fp32 main gradients
    (:class:`distlesson.efficiency.step_time.StepInputs`): Megatron-LM fuses it into the
    weight-gradient products; DeepSpeed's bf16 optimizer (BLOOM) runs a pass per micro-batch."""


_LLAMA3 = ("Grattafiori et al. 2024, The Llama 3 Herd of Models, Table 4 and section 3.3.2",
           get_model("llama3-405b"), "h100-sxm", "roce-400")
_LLAMA3_SOFTWARE = dict(zero=1, micro_batch=1, recompute="none", precision="mixed-fp32-grads",
                        schedule="interleaved", chunks=None,
                        overlap=("bucketed", "backward", "async", "all-gather"),
                        attention="flash", software="meta-llama3", sequence_parallel=True,
                        flop_count="causal",
                        metric="mfu")


def _llama3(key: str, name: str, *, gpus: int, dp: int, cp: int, seq: int,
            per_dp: int, mfu: float, tflops: float) -> PublishedRun:
    source, model, gpu, link = _LLAMA3
    return PublishedRun(key=key, display_name=name, source=source, model=model, gpu=gpu,
                        num_gpus=gpus, inter_link=link, tp=8, pp=16, dp=dp, cp=cp,
                        seq_len=seq, global_batch=dp * per_dp, measured=mfu,
                        tflops_per_gpu=tflops, **_LLAMA3_SOFTWARE)  # type: ignore[arg-type]


_GPT_22B = megatron_gpt("22B", layers=48, hidden=6144, heads=64, reported=22)
_GPT_175B = megatron_gpt("175B", layers=96, hidden=12288, heads=96, reported=175)
_GPT_530B = megatron_gpt("530B", layers=105, hidden=20480, heads=128, reported=530)
_GPT_1T = megatron_gpt("1T", layers=128, hidden=25600, heads=160, reported=1000)
_KORTHIKANTI = ("Korthikanti et al. 2022, Reducing Activation Recomputation in Large "
                "Transformer Models, Tables 3 and 5")


def _korthikanti(key: str, model: Architecture, *, pp: int, batch: int, micro: int,
                 chunks: int | None, mfu: float, hfu: float) -> tuple[PublishedRun, ...]:
    gpus = 8 * pp
    common = dict(source=_KORTHIKANTI, model=model, gpu="a100-80gb", num_gpus=gpus,
                  inter_link="ib-hdr", tp=8, pp=pp, dp=1, cp=1, zero=0, seq_len=2048,
                  micro_batch=micro, global_batch=batch, recompute="selective",
                  precision="mixed-fp32-grads",
                  schedule="interleaved" if chunks else "1f1b", chunks=chunks or 1,
                  overlap=("none", "none", "blocking", "all-gather"), attention="unfused",
                  software="megatron-lm-2022", sequence_parallel=True,
                  flop_count="narayanan")
    name = f"{model.display_name}, {gpus} A100 (Korthikanti et al.)"
    return (PublishedRun(key=f"{key}-mfu", display_name=name, metric="mfu", measured=mfu,
                         **common),  # type: ignore[arg-type]
            PublishedRun(key=f"{key}-hfu", display_name=name, metric="hfu", measured=hfu,
                         **common))  # type: ignore[arg-type]


BLOOM_176B = Architecture(
    key="bloom-176b", display_name="BLOOM 176B", num_layers=70, hidden_size=14336,
    num_heads=112, num_kv_heads=112, ffn_hidden_size=4 * 14336, vocab_size=250880,
    norm="layernorm", mlp="gelu", bias=True, tied_embeddings=True, max_positions=None,
    embedding_norm=True, published_params=176_247_271_424,
    source="BigScience tr11-176B-ml README and training script: 70 layers, hidden 14336, "
    "112 heads, vocabulary padded to 250880, ALiBi (no position embedding), an embedding "
    "LayerNorm, GeLU; the count of the released bigscience/bloom weights")
_BLOOM = ("BigScience 2022, tr11-176B-ml: the training script (TP 4, PP 12, micro-batch 2, "
          "global batch 2048, activation checkpointing, bf16 with DeepSpeed's own ZeRO-1 and "
          "fp32 gradient accumulation) and the README's log line at iteration 85,376: "
          "104.70 s per step, 149.77 TFLOPs per GPU, counted with the recomputed forward")
_BLOOM_TFLOPS = 149.77


def _bloom() -> PublishedRun:
    """The steady state of BLOOM's training: 48 nodes of 8 A100s, Megatron-DeepSpeed.

    Megatron-DeepSpeed counts 96 B s L h^2 (1 + s / 6h + V / 16Lh) FLOPs per step with
    activation checkpointing (Narayanan et al.'s formula with the recomputed forward), so
    its TFLOPs divided by the A100's dense bf16 peak are an HFU. DeepSpeed's pipeline
    engine reduces the gradients after the last micro-batch and blocks on its sends: no
    overlap; after every micro-batch's backward its bf16 optimizer adds the bf16 gradients
    into the fp32 ones in a pass of its own (``update_hp_grads`` in
    ``runtime/pipe/engine.py``); attention is Megatron's fused softmax on the full score
    matrix (ALiBi)."""
    return PublishedRun(
        key="bloom-176b", display_name="BLOOM 176B, 384 A100 (BigScience)", source=_BLOOM,
        model=BLOOM_176B, gpu="a100-80gb", num_gpus=384, inter_link="opa-100x4", tp=4,
        pp=12, dp=8, cp=1, zero=1, seq_len=2048, micro_batch=2, global_batch=2048,
        recompute="full", precision="mixed-fp32-grads", schedule="1f1b", chunks=1,
        overlap=("none", "none", "blocking", "all-gather"), attention="unfused",
        software="megatron-lm-2021", sequence_parallel=False, flop_count="narayanan",
        metric="hfu", measured=_BLOOM_TFLOPS * 1e12 / get_gpu("a100-80gb").bf16_dense_flops,
        tflops_per_gpu=_BLOOM_TFLOPS, accumulation="separate-pass")


_NARAYANAN = ("Narayanan et al. 2021, Efficient Large-Scale Language Model Training on GPU "
              "Clusters Using Megatron-LM (SC'21), Table 1")


def _narayanan(params: str, *, heads: int, hidden: int, layers: int, tp: int, pp: int,
               gpus: int, micro: int, batch: int, tflops: float, share: float,
               reported: float) -> PublishedRun:
    model = megatron_gpt(params, layers=layers, hidden=hidden, heads=heads,
                         reported=reported)
    return PublishedRun(
        key=f"narayanan-{params.lower()}", display_name=f"GPT {params}, {gpus} A100 "
        "(Narayanan et al.)", source=_NARAYANAN, model=model, gpu="a100-80gb",
        num_gpus=gpus, inter_link="ib-hdr", tp=tp, pp=pp, dp=gpus // (tp * pp), cp=1,
        zero=0, seq_len=2048, micro_batch=micro, global_batch=batch, recompute="full",
        precision="mixed-fp32-grads", schedule="1f1b", chunks=1,
        overlap=("none", "none", "blocking", "all-gather"), attention="unfused",
        software="megatron-lm-2021", sequence_parallel=False, flop_count="narayanan",
        metric="hfu", measured=share, tflops_per_gpu=tflops)


_CATALOG: tuple[PublishedRun, ...] = (
    _llama3("llama3-405b-8k", "Llama 3 405B, 8,192 H100", gpus=8192, dp=64, cp=1, seq=8192,
            per_dp=32, mfu=0.43, tflops=430),
    _llama3("llama3-405b-16k", "Llama 3 405B, 16,384 H100", gpus=16384, dp=128, cp=1,
            seq=8192, per_dp=16, mfu=0.41, tflops=400),
    _llama3("llama3-405b-16k-cp16", "Llama 3 405B, 16,384 H100, 128K context",
            gpus=16384, dp=8, cp=16, seq=131072, per_dp=16, mfu=0.38, tflops=380),
    *_korthikanti("korthikanti-22b", _GPT_22B, pp=1, batch=4, micro=4, chunks=None,
                  mfu=0.415, hfu=0.437),
    *_korthikanti("korthikanti-175b", _GPT_175B, pp=8, batch=64, micro=1, chunks=3,
                  mfu=0.514, hfu=0.528),
    *_korthikanti("korthikanti-530b", _GPT_530B, pp=35, batch=280, micro=1, chunks=3,
                  mfu=0.560, hfu=0.570),
    *_korthikanti("korthikanti-1t", _GPT_1T, pp=64, batch=512, micro=1, chunks=None,
                  mfu=0.563, hfu=0.570),
    _narayanan("1.7B", heads=24, hidden=2304, layers=24, tp=1, pp=1, gpus=32, micro=16,
               batch=512, tflops=137, share=0.44, reported=1.7),
    _narayanan("3.6B", heads=32, hidden=3072, layers=30, tp=2, pp=1, gpus=64, micro=16,
               batch=512, tflops=138, share=0.44, reported=3.6),
    _narayanan("7.5B", heads=32, hidden=4096, layers=36, tp=4, pp=1, gpus=128, micro=16,
               batch=512, tflops=142, share=0.46, reported=7.5),
    _narayanan("18.4B", heads=48, hidden=6144, layers=40, tp=8, pp=1, gpus=256, micro=8,
               batch=1024, tflops=135, share=0.43, reported=18.4),
    _narayanan("39.1B", heads=64, hidden=8192, layers=48, tp=8, pp=2, gpus=512, micro=4,
               batch=1536, tflops=138, share=0.44, reported=39.1),
    _narayanan("76.1B", heads=80, hidden=10240, layers=60, tp=8, pp=4, gpus=1024, micro=2,
               batch=1792, tflops=140, share=0.45, reported=76.1),
    _narayanan("145.6B", heads=96, hidden=12288, layers=80, tp=8, pp=8, gpus=1536, micro=2,
               batch=2304, tflops=148, share=0.47, reported=145.6),
    _narayanan("310.1B", heads=128, hidden=16384, layers=96, tp=8, pp=16, gpus=1920, micro=1,
               batch=2160, tflops=155, share=0.50, reported=310.1),
    _narayanan("529.6B", heads=128, hidden=20480, layers=105, tp=8, pp=35, gpus=2520,
               micro=1, batch=2520, tflops=163, share=0.52, reported=529.6),
    _narayanan("1008.0B", heads=160, hidden=25600, layers=128, tp=8, pp=64, gpus=3072,
               micro=1, batch=3072, tflops=163, share=0.52, reported=1008.0),
    _bloom(),
)

PUBLISHED_RUNS: dict[str, PublishedRun] = {run.key: run for run in _CATALOG}
"""The published runs, by key."""


def get_published_run(key: str) -> PublishedRun:
    """The run named ``key``; ValueError listing the allowed keys otherwise."""
    return lookup(PUBLISHED_RUNS, key, what="published run")
