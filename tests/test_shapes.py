"""Bringing one's own model: a Hugging Face config.json or shapes inline, checked against
the published counts of released checkpoints."""

from __future__ import annotations

import json

import pytest

from distlesson.catalog.models import get_model
from distlesson.catalog.shapes import (
    architecture_from_config,
    architecture_from_spec,
    load_config,
)
from tests.cli_run import run, run_json

# The fields of the released config.json files (Hugging Face), typed from those files.
LLAMA3_8B = {"architectures": ["LlamaForCausalLM"], "hidden_act": "silu",
             "hidden_size": 4096, "intermediate_size": 14336, "model_type": "llama",
             "max_position_embeddings": 8192, "num_attention_heads": 32,
             "num_hidden_layers": 32, "num_key_value_heads": 8, "rms_norm_eps": 1e-05,
             "rope_theta": 500000.0, "tie_word_embeddings": False, "vocab_size": 128256}
QWEN25_7B = {"architectures": ["Qwen2ForCausalLM"], "hidden_act": "silu",
             "hidden_size": 3584, "intermediate_size": 18944, "model_type": "qwen2",
             "max_position_embeddings": 131072, "num_attention_heads": 28,
             "num_hidden_layers": 28, "num_key_value_heads": 4, "rope_theta": 1000000.0,
             "tie_word_embeddings": False, "vocab_size": 152064}
GPT2 = {"activation_function": "gelu_new", "model_type": "gpt2", "n_embd": 768,
        "n_head": 12, "n_layer": 12, "n_positions": 1024, "vocab_size": 50257}
MIXTRAL = {"hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
           "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 32000,
           "num_local_experts": 8, "num_experts_per_tok": 2, "hidden_act": "silu"}


@pytest.mark.parametrize(("config", "published"), [
    (LLAMA3_8B, 8_030_261_248), (QWEN25_7B, 7_615_616_512), (GPT2, 124_439_808)])
def test_a_released_config_gives_the_released_count(config, published):
    assert architecture_from_config(config).num_params == published


def test_a_config_gives_the_catalog_s_shapes():
    mine, catalog = architecture_from_config(LLAMA3_8B), get_model("llama3-8b")
    for field in ("num_layers", "hidden_size", "num_heads", "num_kv_heads",
                  "ffn_hidden_size", "vocab_size", "norm", "mlp", "bias", "tied_embeddings",
                  "max_positions"):
        assert getattr(mine, field) == getattr(catalog, field), field


def test_inline_shapes_give_the_same_count():
    spec = "hidden=4096,layers=32,heads=32,kv_heads=8,ffn=14336,vocab=128256,gated=1,tied=0"
    assert architecture_from_spec(spec).num_params == 8_030_261_248
    gpt2 = "hidden=768,layers=12,heads=12,ffn=3072,vocab=50257,gated=0,tied=1,positions=1024"
    assert architecture_from_spec(gpt2).num_params == 124_439_808


@pytest.mark.parametrize(("change", "message"), [
    ({"hidden_size": None}, r"field hidden_size is missing \(or n_embd, d_model\)"),
    ({"num_hidden_layers": 0}, r"num_hidden_layers=0 must be a positive integer"),
    ({"num_attention_heads": 30}, r"heads=30 must divide hidden=4096"),
    ({"num_key_value_heads": 5}, r"kv_heads=5 must divide heads=32"),
    ({"hidden_act": "tanh"}, r"hidden_act='tanh' is not known; allowed: silu"),
    ({"tie_word_embeddings": "no"}, r"tie_word_embeddings='no' must be true or false"),
    ({"vocab_size": 1.5}, r"vocab_size=1.5 must be a positive integer"),
])
def test_a_config_that_cannot_be_used_is_refused_naming_the_field(change, message):
    config = {k: v for k, v in {**LLAMA3_8B, **change}.items() if v is not None}
    with pytest.raises(ValueError, match=message):
        architecture_from_config(config)


def test_a_mixture_of_experts_config_is_refused():
    with pytest.raises(ValueError, match=r"num_local_experts=8: a mixture-of-experts model"):
        architecture_from_config(MIXTRAL)


@pytest.mark.parametrize(("spec", "message"), [
    ("hidden=4096,layers=32", r"missing heads, ffn, vocab"),
    ("hidden=4096,kv=8", r"unknown key 'kv'; allowed: hidden, layers"),
    ("hidden=4096,hidden=8", r"hidden is given twice"),
    ("hidden=4k,layers=1,heads=1,ffn=1,vocab=1", r"hidden='4k' must be a whole number"),
    ("hidden4096,layers=1", r"'hidden4096' must be key=value"),
    ("hidden=64,layers=1,heads=1,ffn=1,vocab=1,gated=2", r"gated=2 must be 0 or 1"),
    ("hidden=64,layers=0,heads=1,ffn=1,vocab=1", r"layers=0 must be a positive integer"),
])
def test_a_bad_spec_is_refused_naming_the_key(spec, message):
    with pytest.raises(ValueError, match=message):
        architecture_from_spec(spec)


def test_unreadable_and_non_object_files_are_refused(tmp_path):
    with pytest.raises(ValueError, match=r"cannot be read"):
        load_config(tmp_path / "missing.json")
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")
    with pytest.raises(ValueError, match=r"is not JSON: .* at line 1"):
        load_config(tmp_path / "broken.json")
    (tmp_path / "list.json").write_text("[1]", encoding="utf-8")
    with pytest.raises(ValueError, match=r"must hold a JSON object, not list"):
        load_config(tmp_path / "list.json")


@pytest.mark.parametrize("command", [
    ["memory"], ["layout", "--tp", "8"],
    ["mfu", "--tokens-per-step", "4M", "--gpus", "64", "--step-time", "10", "--seq", "8192"],
    ["plan", "--gpus", "64", "--seq", "8192", "--tokens-per-step", "4194304", "--top", "3"]])
def test_every_calculator_takes_a_config_or_inline_shapes_as_it_takes_the_catalog(
        capsys, tmp_path, command):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(LLAMA3_8B), encoding="utf-8")
    spec = "hidden=4096,layers=32,heads=32,kv_heads=8,ffn=14336,vocab=128256"
    answers = [run_json(capsys, *command, *chosen) for chosen in
               (["--model", "llama3-8b"], ["--config", str(path)], ["--arch", spec])]
    for answer in answers:
        answer.pop("model")
        answer.pop("search_seconds", None)
    assert answers[0] == answers[1] == answers[2]


def test_the_command_line_refuses_a_bad_config_in_one_line(capsys, tmp_path):
    status, out, err = run(capsys, "memory", "--config", str(tmp_path / "nope.json"))
    assert status == 2 and not out
    assert err.count("\n") == 1 and "--config=" in err and "cannot be read" in err
    status, _, err = run(capsys, "memory", "--arch", "hidden=1", "--model", "llama3-8b")
    assert status == 2 and "not allowed with argument" in err
