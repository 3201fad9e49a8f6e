"""The course's own tiny decoder-only transformer, in numpy, forward and backward by hand.

Modules, one concept each:

- :mod:`.ops`: each operation's forward beside its backward (embedding, RMSNorm, RoPE,
  causal attention, SwiGLU, cross-entropy)
- :mod:`.params`: the weights, named and shaped as
:func:`distlesson.catalog.models.parameter_tensors`
- :mod:`.block`: one transformer block, its tape of saved arrays, its backward
- :mod:`.model`: the whole model: ``forward(params, tokens) -> (loss, tape)``, ``backward``
- :mod:`.checkpointing`: full and selective activation recomputation, with the peak of
  saved arrays counted during the step
- :mod:`.held`: counting the bytes that live arrays hold
- :mod:`.accounting`: training-state bytes and the table of saved arrays, from live arrays
- :mod:`.saved_scaling`: closed forms in L and layers, the L^2 attention term, the crossover
- :mod:`.formula_vs_count`: Korthikanti et al. 2022's terms beside the counted arrays
- :mod:`.text`, :mod:`.train`: the character vocabulary, the corpus, a short AdamW run
- :mod:`.timing`: measured seconds of forward, backward and recomputation
"""

from distlesson.transformer.accounting import (
    CountedStates,
    SavedArray,
    count_states,
    counted_training_states,
    saved_arrays,
    saved_table,
)
from distlesson.transformer.block import BlockTape
from distlesson.transformer.checkpointing import MODES, CheckpointTape, SavedPeak
from distlesson.transformer.formula_vs_count import TermComparison, formula_vs_count
from distlesson.transformer.held import Held, count_held
from distlesson.transformer.model import HeadTape, Tape, backward, forward
from distlesson.transformer.params import BlockParams, Params, init_params
from distlesson.transformer.saved_scaling import (
    Crossover,
    PeakScalars,
    attention_scalars,
    counted_peak,
    crossover,
    peak_scalars,
)
from distlesson.transformer.text import VOCAB, decode, encode, load_corpus
from distlesson.transformer.timing import Timing, measure_timing
from distlesson.transformer.train import TrainConfig, TrainResult, TrainState, train

__all__ = [
    "MODES",
    "VOCAB",
    "BlockParams",
    "BlockTape",
    "CheckpointTape",
    "CountedStates",
    "Crossover",
    "HeadTape",
    "Held",
    "Params",
    "PeakScalars",
    "SavedArray",
    "SavedPeak",
    "Tape",
    "TermComparison",
    "Timing",
    "TrainConfig",
    "TrainResult",
    "TrainState",
    "attention_scalars",
    "backward",
    "count_held",
    "count_states",
    "counted_peak",
    "counted_training_states",
    "crossover",
    "decode",
    "encode",
    "formula_vs_count",
    "forward",
    "init_params",
    "load_corpus",
    "measure_timing",
    "peak_scalars",
    "saved_arrays",
    "saved_table",
    "train",
]
