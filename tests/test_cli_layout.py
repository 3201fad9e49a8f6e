"""`distlesson layout` and `memory --cp`: the combined view on the command line."""


import pytest

from distlesson.cli import main
from tests.cli_run import run_json

N70 = 70_553_706_496  # Llama 3 70B
ACT = 8192 * 8192 * 2  # one bf16 activation, s = h = 8192


def _json(capsys, *argv):
    return run_json(capsys, *argv)


def test_tensor_and_pipeline_on_two_nodes(capsys):
    out = _json(capsys, "layout", "--model", "llama3-70b", "--tp", "8", "--pp", "2",
                "--global-batch", "128")
    assert out["world_size"] == 16 and out["num_microbatches"] == 128
    assert out["states_bytes"] == 16 * N70 // 16
    # full recompute with sequence parallelism: 2 s b h / t per layer, 40 layers, 2 in flight
    assert out["activations_bytes"] == 2 * 8192 * 8192 // 8 * 40 * 2
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
