"""`distlesson layout` and `memory --cp`: the combined view on the command line."""


import pytest

from distlesson.cli import main
from tests.cli_run import run_json
from tests.hand_counts import llama_layer_bytes_per_token

N70 = 70_553_706_496  # Llama 3 70B
ACT = 8192 * 8192 * 2  # one bf16 activation, s = h = 8192


def _json(capsys, *argv):
    return run_json(capsys, *argv)


def test_tensor_and_pipeline_on_two_nodes(capsys):
    out = _json(capsys, "layout", "--model", "llama3-70b", "--tp", "8", "--pp", "2",
                "--global-batch", "128")
    assert out["world_size"] == 16 and out["num_microbatches"] == 128
    # the busiest GPU is on the last stage: 40 layers, the output head and the final norm
    v, h = 128_256, 8192
    layer = (N70 - 2 * v * h - h) // 80
    assert out["busiest_stage"] == {"stage": 1, "layers": 40}
    assert out["states_bytes"] == 16 * (40 * layer + v * h + h) // 8
    # full recompute with sequence parallelism: each layer keeps its input, 2 s b h / t, for
    # the one micro-batch the last stage holds under 1F1B; plus one layer rebuilt in the
    # backward: 5 h (norm inputs and outputs, attention output) + h + 2 kv (q, k, v) + 3 f
    # (gate, up, activation) in bf16, the heads' log-sum-exp and two norm statistics in fp32
    kv, f, heads = 8 * 128, 28_672, 64
    rebuilt = llama_layer_bytes_per_token(h, kv, f, heads) * 8192 // 8
    assert out["activations_bytes"] == 2 * 8192 * h // 8 * 40 + rebuilt
    # logits in bf16 and the loss's fp32 softmax, V / t per token
    assert out["logits_bytes"] == v // 8 * (2 + 4) * 8192
    allocated = out["states_bytes"] + out["activations_bytes"] + out["logits_bytes"]
    # 5% fragmentation, 1 GB of CUDA context and 1 GB of communicator buffers
    assert out["per_gpu_bytes"] == pytest.approx(allocated / 0.95 + 2e9, rel=1e-12)
    assert out["overheads_bytes"] == pytest.approx(out["per_gpu_bytes"] - allocated)
    assert out["fits"] is True
    comm = out["communication"]
    # six all-reduces per layer (forward replayed), 2 (t - 1)/t each, 40 layers, 128 mbs
    assert comm["tp"] == 6 * 2 * 7 * ACT // 8 * 40 * 128
    assert comm["pp"] == 2 * ACT // 8 * 128
    assert comm["dp"] == comm["cp"] == 0
    assert comm["total"] == comm["tp"] + comm["pp"]
    assert out["communication_seconds"]["tp"] == pytest.approx(comm["tp"] / 450e9)


def test_zero3_data_parallel(capsys):
    out = _json(capsys, "layout", "--model", "llama3-70b", "--dp", "16", "--zero", "3",
                "--global-batch", "128", "--recompute", "selective")
    # ZeRO-3 over 16 GPUs: every stage's 16 bytes per parameter divided by 16
    assert out["states_bytes"] == N70
    # 8 micro-batches, each with two weight gathers and a gradient reduce-scatter
    assert out["communication"]["dp"] == 8 * 3 * 15 * 2 * N70 // 16


def test_text_output_names_every_dimension(capsys):
    assert main(["layout", "--model", "llama3-8b", "--tp", "2", "--cp", "2"]) == 0
    text = capsys.readouterr().out
    for word in ("dp", "tp", "pp", "cp", "NVLink 4", "InfiniBand NDR", "fits"):
        assert word in text


@pytest.mark.parametrize(("argv", "message"), [
    (["--tp", "3"], "tp=3 must divide num_heads=64 of llama3-70b"),
    (["--dp", "3", "--global-batch", "8"], "global_batch=8 must be a multiple of dp=3"),
    (["--cp", "3"], "cp=3 must divide seq_len=8192"),
    (["--tp", "0"], "--tp='0' must be a positive integer"),
    (["--recompute", "half"], "argument --recompute: invalid choice: 'half'"),
])
def test_bad_input_is_one_line(capsys, argv, message):
    assert main(["layout", "--model", "llama3-70b", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_memory_accepts_cp_which_replicates(capsys):
    alone = _json(capsys, "memory", "--model", "llama3-70b", "--tp", "8")
    with_cp = _json(capsys, "memory", "--model", "llama3-70b", "--tp", "8", "--cp", "4")
    assert with_cp["per_gpu_bytes"] == alone["per_gpu_bytes"] == 16 * N70 // 8
    assert with_cp["cp"] == 4
