"""What a training run costs: FLOPs to GPU-hours to dollars, and two published runs to check.

The chain: a run needs F FLOPs (:func:`training_flops`); a GPU delivers MFU x peak of them
per second, so the run takes F / (MFU x peak) / 3600 GPU-hours (:func:`gpu_hours`); at p
dollars per GPU-hour it costs hours x p (:func:`cost_usd`). Read backwards, a run's reported
GPU-hours and FLOPs give the MFU it achieved (:func:`implied_mfu`).

Prices (:data:`PRICES`) are the Persian lesson's assumptions for its exercise, not market
quotes; the published runs (:data:`REPORTED`) carry what their authors wrote, with the table
or page it comes from. Money is in US dollars, time in GPU-hours, work in FLOPs.
"""

from __future__ import annotations

from dataclasses import dataclass

from distlesson.catalog.hardware import GPU, get_gpu
from distlesson.catalog.lookup import lookup
from distlesson.catalog.models import MODELS, Architecture
from distlesson.catalog.moe import MoEArchitecture, get_moe_model
from distlesson.efficiency.flops import training_flops_per_token
from distlesson.efficiency.roofline import Precision, peak_flops

__all__ = [
    "PRICES",
    "REPORTED",
    "SECONDS_PER_HOUR",
    "Price",
    "ReportedRun",
    "RunCost",
    "cost_usd",
    "deepseek_v3_cost_usd",
    "get_price",
    "get_reported_run",
    "gpu_hours",
    "implied_mfu",
    "llama3_405b_cost",
    "run_cost",
    "training_flops",
]

SECONDS_PER_HOUR = 3600


@dataclass(frozen=True)
class Price:
    """What one GPU-hour of a catalog GPU is assumed to cost."""

    gpu: str
    """Key of the GPU in :mod:`distlesson.catalog.hardware`."""
    usd_per_hour: float
    """US dollars per GPU-hour."""
    source: str
    """Who assumes this price, and that it is an assumption."""
    date: str | None
    """Date of the source (ISO year-month), or None when the source gives none."""


PRICES: dict[str, Price] = {price.gpu: price for price in (
    Price("a100-80gb", 2.0, "the Persian lesson's cost exercise (\"A100 at $2/hr\"): the "
          "lesson's assumption for the exercise, not a market quote", None),
    Price("h100-sxm", 3.5, "the Persian lesson's cost exercise (\"H100 at $3.50/hr\"): the "
          "lesson's assumption for the exercise, not a market quote", None),
)}
"""Prices per GPU-hour, by GPU key."""


def get_price(gpu: str) -> Price:
    """The assumed price of ``gpu``; ValueError listing the GPUs with a price otherwise."""
    return lookup(PRICES, gpu, what="price for gpu")


@dataclass(frozen=True)
class ReportedRun:
    """A published training run, as its authors reported it (inputs, never computed here)."""

    key: str
    """Catalog key (``llama3-405b``)."""
    display_name: str
    """Name for prose and tables."""
    model: str
    """Key of the architecture in :mod:`distlesson.catalog.models` or
    :mod:`distlesson.catalog.moe`."""
    gpu: str
    """Key of the GPU in :mod:`distlesson.catalog.hardware`."""
    gpus: int
    """GPUs the run used at once."""
    tokens: float
    """Pre-training tokens."""
    gpu_hours: float
    """GPU-hours the authors report."""
    flops: float | None
    """Training FLOPs the authors report, or None when they give none."""
    mfu_range: tuple[float, float] | None
    """Lowest and highest model FLOPs utilisation the authors report, or None."""
    usd_per_gpu_hour: float | None
    """The price the authors assume, or None when they state no price."""
    source: str
    """Where each figure comes from."""
    pretraining_gpu_hours: float | None = None
    """Of ``gpu_hours``, those of pre-training alone, where the authors split them: the
    hours that the pre-training tokens' FLOPs took, so the implied MFU divides by these."""


REPORTED: dict[str, ReportedRun] = {run.key: run for run in (
    ReportedRun(
        key="deepseek-v3", display_name="DeepSeek-V3", model="deepseek-v3", gpu="h800-sxm",
        gpus=2048, tokens=14.8e12, gpu_hours=2.788e6, flops=None, mfu_range=None,
        usd_per_gpu_hour=2.0, pretraining_gpu_hours=2.664e6,
        source="DeepSeek-V3 Technical Report (DeepSeek-AI 2024): 14.8T pre-training tokens, "
        "2,048 H800 GPUs; Table 1: 2,664K (pre-training) + 119K (context extension) + 5K "
        "(post-training) = 2,788K H800 GPU-hours, at an assumed rental price of $2 per "
        "GPU-hour $5.576M, official training only (no prior research or ablations)",
    ),
    ReportedRun(
        key="llama3-405b", display_name="Llama 3 405B", model="llama3-405b", gpu="h100-sxm",
        gpus=16384, tokens=15.6e12, gpu_hours=30.84e6, flops=3.8e25, mfu_range=(0.38, 0.43),
        usd_per_gpu_hour=None,
        source="The Llama 3 Herd of Models (Grattafiori et al. 2024): pre-trained with "
        "3.8 x 10^25 FLOPs on 15.6T tokens, on up to 16,384 H100 GPUs; Table 4: BF16 MFU "
        "of 38% to 43% depending on the configuration. Llama 3.1 model card (Meta 2024-07): "
        "30.84M H100-80GB GPU-hours for the 405B (total GPU time of its training)",
    ),
)}
"""Published runs, by key."""


def get_reported_run(key: str) -> ReportedRun:
    """The published run named ``key``; ValueError listing the known runs otherwise."""
    return lookup(REPORTED, key, what="reported run")


def training_flops(model_or_params: Architecture | MoEArchitecture | float, tokens: float, *,
                   seq_len: int | None = None) -> float:
    """Training FLOPs of ``tokens`` tokens: 6 N per token, or the full matmul count.

    Equations: 6 N T (Kaplan et al. 2020, section 2.1: 2 N forward, 4 N backward per token;
    N here is every parameter, embeddings included, as the Persian lesson counts); for a
    mixture of experts N is the active parameters per token; with an Architecture and
    ``seq_len``, Korthikanti et al. 2022's count (:func:`distlesson.efficiency.flops.
    training_flops_per_token`: every matmul weight, the output head and attention) x T.
    Assumptions: no recomputation (model FLOPs, not hardware FLOPs). Units: FLOPs.
    """
    if not tokens > 0:
        raise ValueError(f"tokens={tokens!r} must be positive")
    if isinstance(model_or_params, Architecture):
        if seq_len is not None:
            return training_flops_per_token(model_or_params, seq_len=seq_len) * tokens
        return 6 * model_or_params.num_params * tokens
    if seq_len is not None:
        raise ValueError(f"seq_len={seq_len!r} needs a dense Architecture (the attention term "
                         "comes from its shape); give seq_len=None for 6 N T")
    if isinstance(model_or_params, MoEArchitecture):
        return 6 * model_or_params.active_params * tokens
    if isinstance(model_or_params, bool) or not model_or_params > 0:
        raise ValueError(f"params={model_or_params!r} must be a positive number")
    return 6 * model_or_params * tokens


def _peak(gpu: str | GPU, precision: Precision) -> float:
    """The dense peak of ``gpu`` (a catalog key or entry) in ``precision``."""
    return peak_flops(get_gpu(gpu) if isinstance(gpu, str) else gpu, precision)


def _check_mfu(mfu: float) -> None:
    if not 0 < mfu <= 1:
        raise ValueError(f"mfu={mfu!r} must be in (0, 1]")


def gpu_hours(flops: float, *, gpu: str | GPU, mfu: float,
              precision: Precision = "bf16") -> float:
    """GPU-hours to do ``flops`` on ``gpu`` at ``mfu``: flops / (mfu x peak) / 3600.

    Assumptions: the catalog's dense peak in ``precision``; MFU as in Chowdhery et al. 2022
    (model FLOPs over peak FLOPs), so recomputation is inside the MFU, not in ``flops``.
    """
    _check_mfu(mfu)
    if not flops > 0:
        raise ValueError(f"flops={flops!r} must be positive")
    return flops / (mfu * _peak(gpu, precision)) / SECONDS_PER_HOUR


def cost_usd(gpu_hours: float, price_per_hour: float) -> float:
    """Dollars for ``gpu_hours`` at ``price_per_hour`` dollars per GPU-hour: their product."""
    if not gpu_hours >= 0:
        raise ValueError(f"gpu_hours={gpu_hours!r} must be >= 0")
    if not price_per_hour >= 0:
        raise ValueError(f"price_per_hour={price_per_hour!r} must be >= 0")
    return gpu_hours * price_per_hour


def implied_mfu(flops: float, gpu_hours: float, *, gpu: str | GPU,
                precision: Precision = "bf16") -> float:
    """The MFU a run achieved: flops / (gpu_hours x 3600 x peak), a fraction."""
    if not gpu_hours > 0:
        raise ValueError(f"gpu_hours={gpu_hours!r} must be positive")
    return flops / (gpu_hours * SECONDS_PER_HOUR * _peak(gpu, precision))


@dataclass(frozen=True)
class RunCost:
    """A published run recomputed: its FLOPs, the GPU-hours they imply, the dollars."""

    run: ReportedRun
    """The run as reported."""
    flops: float
    """The reported FLOPs, or 6 N T from the catalog's architecture when none is reported."""
    usd_per_gpu_hour: float
    """The price used: the authors' own, else the lesson's for that GPU."""
    implied_mfu: float
    """flops / (reported GPU-hours x 3600 x bf16 peak)."""
    estimated_gpu_hours: tuple[float, float] | None
    """GPU-hours from the FLOPs at the highest then the lowest reported MFU, or None."""

    @property
    def reported_cost_usd(self) -> float:
        """Reported GPU-hours x price."""
        return cost_usd(self.run.gpu_hours, self.usd_per_gpu_hour)

    @property
    def estimated_cost_usd(self) -> tuple[float, float] | None:
        """:attr:`estimated_gpu_hours` x price (cheapest first), or None."""
        if self.estimated_gpu_hours is None:
            return None
        low, high = self.estimated_gpu_hours
        return cost_usd(low, self.usd_per_gpu_hour), cost_usd(high, self.usd_per_gpu_hour)


def _run_model(run: ReportedRun) -> Architecture | MoEArchitecture:
    return MODELS[run.model] if run.model in MODELS else get_moe_model(run.model)


def run_cost(key: str, *, price_per_hour: float | None = None) -> RunCost:
    """The published run ``key`` recomputed (see :class:`RunCost`).

    Without ``price_per_hour``: the authors' price (DeepSeek's $2), else the lesson's
    price for the run's GPU (:data:`PRICES`). MFU is against the bf16 dense peak (DeepSeek
    ran its matmuls in fp8: its figure is a bf16-equivalent utilisation).
    """
    run = get_reported_run(key)
    if price_per_hour is None:
        price_per_hour = (run.usd_per_gpu_hour if run.usd_per_gpu_hour is not None
                          else get_price(run.gpu).usd_per_hour)
    flops = run.flops if run.flops is not None else training_flops(_run_model(run), run.tokens)
    estimated = None
    if run.mfu_range is not None:
        lowest, highest = run.mfu_range
        estimated = (gpu_hours(flops, gpu=run.gpu, mfu=highest),
                     gpu_hours(flops, gpu=run.gpu, mfu=lowest))
    hours = run.pretraining_gpu_hours or run.gpu_hours  # the hours the FLOPs were spent in
    return RunCost(run, flops, price_per_hour, implied_mfu(flops, hours, gpu=run.gpu),
                   estimated)


def deepseek_v3_cost_usd() -> float:
    """DeepSeek-V3's dollars as its report computes them: 2.788M H800 GPU-hours x $2.

    The Persian lesson's "~$5.6M" rounds this figure.
    """
    return run_cost("deepseek-v3").reported_cost_usd


def llama3_405b_cost() -> RunCost:
    """Llama 3 405B at the lesson's H100 price ($3.50 per GPU-hour), for the lesson's
    "~$100M": from the model card's 30.84M GPU-hours (``reported_cost_usd``) and from
    3.8 x 10^25 FLOPs at the paper's 43% and 38% MFU (``estimated_cost_usd``)."""
    return run_cost("llama3-405b")
