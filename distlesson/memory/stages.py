"""What each GPU of a pipeline stage holds: its layers' states, activations in flight, the
output head's logits, and the named overheads. The busiest stage decides whether it fits.

* **Layers per stage.** L layers on p stages: each gets L // p, and the L % p extra layers go
  to the middle stages, from stage 1 on; the first and last stages, which also hold the
  embedding and the output head, keep the fewer (Llama 3, section 3.3.2: "we reduce one
  Transformer layer each from the first and the last stages").
* **States.** Each stage's own parameters (its layers; the embedding on the first stage; the
  final norm and the head on the last, or the tied embedding again), divided by tp and
  sharded by ZeRO over dp (:func:`distlesson.memory.states.per_gpu_states`).
* **Activations.** :mod:`distlesson.memory.layer_activations` per layer, times the stage's
  layers, times the micro-batches it holds at once under the schedule
  (:func:`distlesson.pipeline.bubble.peak_activations`); full recomputation adds the one
  layer rebuilt during the backward; the last stage adds one micro-batch's logits.
* **Overheads** (:class:`Overheads`), named instead of one flat margin.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from distlesson.catalog.models import Architecture, parameter_tensors
from distlesson.memory.activations import Recompute
from distlesson.memory.layer_activations import layer_activation_bytes, logits_bytes
from distlesson.memory.states import Layout, model_states, per_gpu_states
from distlesson.pipeline.bubble import peak_activations

__all__ = ["Overheads", "StageMemory", "busiest_bytes", "stage_layers", "stage_memory",
           "stage_params"]


@dataclass(frozen=True)
class Overheads:
    """Memory a training process uses besides states and activations, per GPU."""

    cuda_context: float = 1.0e9
    """CUDA context, cuBLAS and cuDNN workspaces and loaded kernels: a modelling choice of
    about 1 GB (PyTorch's CUDA semantics notes: the context alone takes some hundreds of MB
    and grows with the libraries loaded)."""
    communicator_buffers: float = 1.0e9
    """NCCL's buffers for the process's communicators (dp, tp, pp, cp groups): NCCL's
    default NCCL_BUFFSIZE is 4 MiB per channel and peer; about 1 GB in all is our choice."""
    fragmentation: float = 0.05
    """Share of the allocated memory lost to the caching allocator's fragmentation: a
    modelling choice (PyTorch's allocator rounds and caches blocks)."""

    def __post_init__(self) -> None:
        for name in ("cuda_context", "communicator_buffers"):
            if not getattr(self, name) >= 0:
                raise ValueError(f"{name}={getattr(self, name)!r} must be >= 0 bytes")
        if not 0 <= self.fragmentation < 1:
            raise ValueError(f"fragmentation={self.fragmentation!r} must be in [0, 1)")


@dataclass(frozen=True)
class StageMemory:
    """Bytes one GPU of a pipeline stage holds at its peak."""

    stage: int
    layers: int
    states: float
    activations: float
    """Layers' activations of the micro-batches in flight, and the rebuilt layer."""
    logits: float
    """The output head's logits and softmax (last stage only)."""
    overheads: Overheads = field(default_factory=Overheads)

    @property
    def allocated(self) -> float:
        return self.states + self.activations + self.logits

    @property
    def total(self) -> float:
        """Allocated bytes plus fragmentation and the fixed overheads."""
        o = self.overheads
        return (self.allocated / (1 - o.fragmentation) + o.cuda_context
                + o.communicator_buffers)


@functools.cache
def stage_layers(num_layers: int, pp: int) -> tuple[int, ...]:
    """Layers of each stage (see the module docstring); ValueError if a stage gets none."""
    if not isinstance(pp, int) or isinstance(pp, bool) or not 1 <= pp <= num_layers:
        raise ValueError(f"pp={pp!r} must be in 1..num_layers={num_layers}")
    base, extra = divmod(num_layers, pp)
    counts = [base] * pp
    order = [*range(1, pp - 1), 0, pp - 1] if pp > 2 else list(range(pp))
    for stage in order[:extra]:
        counts[stage] += 1
    return tuple(counts)


@functools.cache
def stage_params(arch: Architecture, pp: int) -> tuple[int, ...]:
    """Parameters each stage holds (embedding first, head and final norm last)."""
    layers = stage_layers(arch.num_layers, pp)
    per_layer = sum(t.numel for t in parameter_tensors(arch) if t.name.startswith("layers.0."))
    outside = sum(t.numel for t in parameter_tensors(arch) if not t.name.startswith("layers."))
    embedding = sum(t.numel for t in parameter_tensors(arch) if t.name.startswith("embed"))
    head = outside - embedding + (arch.vocab_size * arch.hidden_size if arch.tied_embeddings
                                  else 0)
    params = [n * per_layer for n in layers]
    params[0] += embedding
    params[-1] += head if pp > 1 else head - (arch.vocab_size * arch.hidden_size
                                              if arch.tied_embeddings else 0)
    return tuple(params)


def stage_memory(arch: Architecture, layout: Layout, *, seq_len: int, micro_batch: int,
                 num_microbatches: int, schedule: str = "1f1b", chunks: int = 1,
                 recompute: Recompute = "none", precision: str = "mixed",
                 optimizer: str = "adamw", overheads: Overheads | None = None,
                 sequence_parallel: bool = True) -> tuple[StageMemory, ...]:
    """Every stage's peak memory per GPU (sequence parallelism, if on, whenever tp > 1)."""
    overheads = overheads or Overheads()
    held = _activations(arch, layout.tp, layout.pp, layout.cp, seq_len, micro_batch,
                        num_microbatches, schedule, chunks, recompute, sequence_parallel)
    states = _stage_states(arch, layout, precision, optimizer)
    return tuple(StageMemory(s, layers, states[s], activations, logits, overheads)
                 for s, (layers, activations, logits) in enumerate(held))


def busiest_bytes(arch: Architecture, layout: Layout, *, seq_len: int, micro_batch: int,
                  num_microbatches: int, schedule: str = "1f1b", chunks: int = 1,
                  recompute: Recompute = "none", precision: str = "mixed",
                  optimizer: str = "adamw", overheads: Overheads | None = None,
                  sequence_parallel: bool = True) -> float:
    """The largest :attr:`StageMemory.total` of :func:`stage_memory`, without building the
    stages (the planner asks it for thousands of configs)."""
    o = overheads or Overheads()
    held = _activations(arch, layout.tp, layout.pp, layout.cp, seq_len, micro_batch,
                        num_microbatches, schedule, chunks, recompute, sequence_parallel)
    states = _stage_states(arch, layout, precision, optimizer)
    allocated = max(st + a + lg for st, (_, a, lg) in zip(states, held, strict=True))
    return allocated / (1 - o.fragmentation) + o.cuda_context + o.communicator_buffers


@functools.cache
def _activations(arch: Architecture, tp: int, pp: int, cp: int, seq_len: int,
                 micro_batch: int, num_microbatches: int, schedule: str, chunks: int,
                 recompute: Recompute, sequence_parallel: bool = True
                 ) -> tuple[tuple[int, float, float], ...]:
    """(layers, activation bytes, logits bytes) of each stage."""
    kept, rebuilt = _layer_bytes(arch, seq_len, micro_batch, tp, cp, recompute,
                                 sequence_parallel)
    in_flight = _in_flight(schedule, pp, num_microbatches, chunks) if pp > 1 else (1.0,)
    logits = float(logits_bytes(arch, seq_len=seq_len, micro_batch=micro_batch, tp=tp, cp=cp))
    return tuple((layers, kept * layers * in_flight[s] + rebuilt,
                  logits if s == pp - 1 else 0.0)
                 for s, layers in enumerate(stage_layers(arch.num_layers, pp)))


@functools.cache
def _stage_states(arch: Architecture, layout: Layout, precision: str, optimizer: str
                  ) -> tuple[float, ...]:
    shard = Layout(dp=layout.dp, tp=layout.tp, zero=layout.zero)
    return tuple(_states(params, optimizer, precision, shard)
                 for params in stage_params(arch, layout.pp))


@functools.cache
def _layer_bytes(arch: Architecture, seq_len: int, micro_batch: int, tp: int, cp: int,
                 recompute: Recompute, sequence_parallel: bool = True) -> tuple[float, float]:
    """(bytes a layer keeps per micro-batch, bytes of the layer rebuilt under full
    recomputation), sequence parallelism, if on, whenever tp > 1."""
    shape = dict(seq_len=seq_len, micro_batch=micro_batch, tp=tp,
                 sp=sequence_parallel and tp > 1, cp=cp)
    kept = layer_activation_bytes(arch, **shape, recompute=recompute)
    rebuilt = layer_activation_bytes(arch, **shape) if recompute == "full" else 0
    return float(kept), float(rebuilt)


@functools.cache
def _in_flight(schedule: str, pp: int, num_microbatches: int, chunks: int
               ) -> tuple[float, ...]:
    return tuple(float(x) for x in peak_activations(schedule, pp, num_microbatches, chunks))


@functools.cache
def _states(params: int, optimizer: str, precision: str, shard: Layout) -> float:
    return float(per_gpu_states(model_states(params, optimizer=optimizer,
                                             precision=precision), shard).total)
