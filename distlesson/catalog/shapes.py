"""Architectures from outside the catalog: a Hugging Face ``config.json``, or shapes inline.

Two ways for a reader to bring their own model to every calculator:

- :func:`architecture_from_config` reads the fields that fix a dense decoder's tensors from
  a Hugging Face ``config.json`` (``hidden_size``, ``num_hidden_layers``,
  ``num_attention_heads``, ``num_key_value_heads``, ``intermediate_size``, ``vocab_size``,
  ``tie_word_embeddings``, ``hidden_act``; GPT-2's ``n_embd``, ``n_layer``, ``n_head``,
  ``n_inner``, ``n_positions`` too);
- :func:`architecture_from_spec` reads ``hidden=4096,layers=32,heads=32,kv_heads=8,
  ffn=14336,vocab=128256,gated=1,tied=0`` (a gated MLP is SwiGLU with RMSNorm and no
  biases, as in Llama; ungated is GPT's GELU MLP with LayerNorm and biases).

Every refusal names the field and what is allowed. A mixture-of-experts config (Mixtral's
``num_local_experts``, DeepSeek's ``n_routed_experts``) is refused: its experts are not a
dense MLP, and the dense calculators would count it wrongly.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from distlesson.catalog.models import Architecture

__all__ = ["SPEC_KEYS", "architecture_from_config", "architecture_from_spec", "load_config"]

SPEC_KEYS = ("hidden", "layers", "heads", "kv_heads", "ffn", "vocab", "gated", "tied",
             "positions")
"""The keys of an inline architecture; ``kv_heads`` (default: heads), ``gated`` (default 1),
``tied`` (default 0) and ``positions`` (rows of a learned position embedding; default 0:
rotary) may be left out."""
_REQUIRED_SPEC = ("hidden", "layers", "heads", "ffn", "vocab")
_MOE_FIELDS = ("num_local_experts", "n_routed_experts", "num_experts", "moe_intermediate_size")
_GATED_ACTS = ("silu", "swish", "swiglu")
_GELU_ACTS = ("gelu", "gelu_new", "gelu_pytorch_tanh", "gelu_fast", "relu")
# model types whose config carries biases on q, k, v only (Qwen2: attention bias on q/k/v)
_QKV_BIAS_TYPES = ("qwen2",)


def load_config(path: str | Path) -> dict[str, Any]:
    """The JSON object of ``path``; ValueError naming the file if it cannot be read."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise ValueError(f"--config={str(path)!r} cannot be read: {error.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"--config={str(path)!r} is not JSON: {error.msg} at line "
                         f"{error.lineno}") from None
    if not isinstance(data, dict):
        raise ValueError(f"--config={str(path)!r} must hold a JSON object, not "
                         f"{type(data).__name__}")
    return data


def _field(config: Mapping[str, Any], names: tuple[str, ...], where: str, *,
           default: int | None = None) -> int:
    for name in names:
        if name in config and config[name] is not None:
            value = config[name]
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"{where}: {name}={value!r} must be a positive integer")
            return value
    if default is not None:
        return default
    raise ValueError(f"{where}: field {names[0]} is missing"
                     + (f" (or {', '.join(names[1:])})" if names[1:] else ""))


def architecture_from_config(config: Mapping[str, Any], *, name: str = "config.json",
                             ) -> Architecture:
    """A dense decoder from a Hugging Face config (a parsed ``config.json``)."""
    where = f"--config {name}"
    moe = [f for f in _MOE_FIELDS if config.get(f)]
    if moe:
        raise ValueError(f"{where}: {moe[0]}={config[moe[0]]!r}: a mixture-of-experts "
                         "model; the dense calculators need a dense MLP (use a catalog "
                         "MoE model)")
    hidden = _field(config, ("hidden_size", "n_embd", "d_model"), where)
    heads = _field(config, ("num_attention_heads", "n_head"), where)
    act = str(config.get("hidden_act", config.get("activation_function", "silu")))
    if act not in _GATED_ACTS + _GELU_ACTS:
        raise ValueError(f"{where}: hidden_act={act!r} is not known; allowed: "
                         f"{', '.join(_GATED_ACTS + _GELU_ACTS)}")
    gated = act in _GATED_ACTS
    model_type = str(config.get("model_type", ""))
    learned = model_type == "gpt2" or ("n_positions" in config and "rope_theta" not in config)
    tied = config.get("tie_word_embeddings", model_type == "gpt2")
    if not isinstance(tied, bool):
        raise ValueError(f"{where}: tie_word_embeddings={tied!r} must be true or false")
    bias = bool(config.get("attention_bias", False)) or not gated
    return _build(
        name=name, source=f"Hugging Face config {name}", hidden=hidden, heads=heads,
        layers=_field(config, ("num_hidden_layers", "n_layer", "num_layers"), where),
        kv_heads=_field(config, ("num_key_value_heads",), where, default=heads),
        ffn=_field(config, ("intermediate_size", "n_inner", "ffn_dim"), where,
                   default=None if gated else 4 * hidden),
        vocab=_field(config, ("vocab_size",), where), gated=gated, tied=tied, bias=bias,
        qkv_bias=model_type in _QKV_BIAS_TYPES,
        max_positions=_field(config, ("n_positions", "max_position_embeddings"), where)
        if learned else None, where=where)


def architecture_from_spec(spec: str) -> Architecture:
    """A dense decoder from ``key=value`` pairs (see :data:`SPEC_KEYS`)."""
    where = "--arch"
    values: dict[str, int] = {}
    for item in spec.split(","):
        key, sep, text = item.strip().partition("=")
        if not sep or not key:
            raise ValueError(f"{where}: {item.strip()!r} must be key=value; keys: "
                             f"{', '.join(SPEC_KEYS)}")
        if key not in SPEC_KEYS:
            raise ValueError(f"{where}: unknown key {key!r}; allowed: {', '.join(SPEC_KEYS)}")
        if key in values:
            raise ValueError(f"{where}: {key} is given twice")
        try:
            values[key] = int(text)
        except ValueError:
            raise ValueError(f"{where}: {key}={text!r} must be a whole number") from None
    missing = [k for k in _REQUIRED_SPEC if k not in values]
    if missing:
        raise ValueError(f"{where}: missing {', '.join(missing)}; required: "
                         f"{', '.join(_REQUIRED_SPEC)}")
    for key in ("gated", "tied"):
        if values.get(key, 0) not in (0, 1):
            raise ValueError(f"{where}: {key}={values[key]} must be 0 or 1")
    for key in ("hidden", "layers", "heads", "kv_heads", "ffn", "vocab"):
        if key in values and values[key] < 1:
            raise ValueError(f"{where}: {key}={values[key]} must be a positive integer")
    if values.get("positions", 0) < 0:
        raise ValueError(f"{where}: positions={values['positions']} must be 0 (rotary) or "
                         "the rows of a learned position embedding")
    gated = values.get("gated", 1) == 1
    return _build(name=spec, source="--arch " + spec, hidden=values["hidden"],
                  heads=values["heads"], layers=values["layers"],
                  kv_heads=values.get("kv_heads", values["heads"]), ffn=values["ffn"],
                  vocab=values["vocab"], gated=gated, tied=values.get("tied", 0) == 1,
                  bias=not gated, qkv_bias=False,
                  max_positions=values.get("positions") or None, where=where)


def _build(*, name: str, source: str, hidden: int, heads: int, layers: int, kv_heads: int,
           ffn: int, vocab: int, gated: bool, tied: bool, bias: bool, qkv_bias: bool,
           max_positions: int | None, where: str) -> Architecture:
    if hidden % heads:
        raise ValueError(f"{where}: heads={heads} must divide hidden={hidden}")
    if heads % kv_heads:
        raise ValueError(f"{where}: kv_heads={kv_heads} must divide heads={heads}")
    return Architecture(
        key="custom", display_name=name, num_layers=layers, hidden_size=hidden,
        num_heads=heads, num_kv_heads=kv_heads, ffn_hidden_size=ffn, vocab_size=vocab,
        norm="rmsnorm" if gated else "layernorm", mlp="swiglu" if gated else "gelu",
        bias=bias, qkv_bias=qkv_bias, tied_embeddings=tied, max_positions=max_positions,
        published_params=None, source=source)
