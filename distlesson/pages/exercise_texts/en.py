"""The exercises in English: per exercise, its title, its question and, per part, the prompt
and the model answer (Markdown). No digits: numbers come through ``{{ name }}`` placeholders
(``ex.*`` from :mod:`distlesson.exercises`, or another chapter's figures)."""

TEXTS: dict[str, dict[str, str]] = {
    "states-13b": {
        "title": "The model states of a {{ ex.states_params }} model",
        "question": (
            "A model of {{ ex.states_params }} parameters is trained with AdamW in mixed "
            "precision: bf16 weights and gradients, an fp32 master copy of the weights and "
            "Adam's two moments in fp32. How much memory do its model states take, leaving "
            "the activations aside?"),
        "states-13b": "The model states, in GB (billions of bytes):",
        "states-13b.answer": (
            "Each parameter costs {{ fit.bpp_mixed }} bytes: {{ fit.bpp_weights_grads }} for "
            "the bf16 weight and gradient, {{ fit.bpp_master_and_moments }} for the fp32 "
            "master copy and the two moments. For {{ ex.states_params }} parameters that is "
            "**{{ ex.states_13b }}**: {{ ex.states_gpus }} H100s of {{ fit.gpu_memory }} just "
            "to hold them, before a single activation. The breakdown is in "
            "[Why it does not fit](why-it-does-not-fit.md)."),
    },
    "dp-zero3": {
        "title": "Why data parallelism does not solve memory, and ZeRO-3 does",
        "question": (
            "Data parallelism spreads the batch over many GPUs, yet a model whose training "
            "state does not fit on one GPU does not fit with data parallelism either. Why "
            "not? Why does ZeRO-3 (FSDP) make it fit, and what does it cost in exchange?"),
        "dp-zero3": "Write your answer down, then compare it with the model answer.",
        "dp-zero3.answer": (
            "Data parallelism *replicates*: every GPU keeps all the model states and only "
            "the batch, and with it the activations, is divided. Llama 3 70B needs "
            "{{ par.states_total }} of model states on each of its GPUs whether there are "
            "two of them or a thousand.\n\n"
            "ZeRO removes the copies. Stage one shards the master copy and the moments, "
            "stage two the gradients as well, stage three the weights too: each of *n* GPUs "
            "keeps one *n*-th of every state. On {{ par.devices }} GPUs these shards come to "
            "{{ par.zero3_per_gpu }} per GPU, under {{ par.gpu_memory }}. They are not all "
            "a GPU holds: while a layer computes, its weights are gathered whole on every "
            "GPU (and, with prefetching, the next layer's too), its gradients are whole until "
            "they are reduce-scattered, and the shards are padded to equal sizes. These "
            "buffers are a layer or two's worth, small next to the model, but they and the "
            "activations must fit in what the shards leave free.\n\n"
            "The price is communication: before each layer runs, its weights are all-gathered, "
            "for the forward and again for the backward, and the gradients are "
            "reduce-scattered. With one micro-batch per step ZeRO-3 sends "
            "{{ par.zero3_over_dp }} what plain data parallelism sends, more with gradient "
            "accumulation. See [the five dimensions](parallelism.md)."),
    },
    "accumulation": {
        "title": "Gradient accumulation: fewer all-reduces, the same gradient",
        "question": (
            "{{ ex.acc_dp }} data-parallel GPUs train a model of {{ ex.acc_params }} "
            "parameters whose gradients are kept in bf16 ({{ ex.acc_buffer }} per GPU). Each "
            "optimizer step processes {{ ex.acc_k }} micro-batches per GPU, and the "
            "gradients are summed with a ring all-reduce, in which each GPU sends "
            "`2 (n − 1) / n` times the buffer."),
        "accumulation-every": (
            "With an all-reduce after every micro-batch, how many GB does each GPU send per "
            "optimizer step?"),
        "accumulation-every.answer": (
            "One all-reduce sends {{ ex.accumulation_once }} per GPU; one after each of the "
            "{{ ex.acc_k }} micro-batches makes **{{ ex.accumulation_every }}**."),
        "accumulation-once": (
            "Accumulating the gradients locally and all-reducing once per step, how many GB "
            "does each GPU send?"),
        "accumulation-once.answer": (
            "A single all-reduce: **{{ ex.accumulation_once }}**, "
            "{{ ex.acc_k }} times less."),
        "accumulation-same": (
            "Why is the accumulated gradient the same as the one synchronised after every "
            "micro-batch? When can you not accumulate this way?"),
        "accumulation-same.answer": (
            "Summing is linear: adding the micro-batches' gradients locally and then across "
            "GPUs gives the same sum as adding across GPUs after each micro-batch, only in "
            "another order, so the two differ by floating-point rounding at most. The "
            "library runs both on simulated ranks and finds the same gradient with "
            "{{ ex.acc_k }} times fewer all-reduces (see [the five "
            "dimensions](parallelism.md), gradient accumulation).\n\n"
            "The sum is the right one only if it is the gradient of the loss you want. If "
            "each micro-batch's loss is a mean over its own tokens and the micro-batches "
            "hold different numbers of tokens, the mean of the means is not the mean over "
            "all the tokens: sum the per-token losses and divide by the step's total token "
            "count, or weight each micro-batch by its tokens. Layers that use statistics of "
            "the batch, such as BatchNorm, see each micro-batch alone, so accumulating is "
            "not the same as one large batch (transformers use LayerNorm or RMSNorm, which "
            "have no such statistics).\n\n"
            "It also needs a full gradient buffer on every GPU to add into. Under ZeRO-2 and "
            "ZeRO-3 each GPU keeps only a shard of the gradient: reduce-scattering after "
            "every micro-batch keeps the memory low but pays the communication each time. "
            "The saving can be kept (FSDP's `no_sync`, or `set_requires_gradient_sync(False)` "
            "with `fully_shard`, skips the reduce-scatter until the last micro-batch) at the "
            "price of holding the unsharded gradients on every GPU, which ZeRO-2 and ZeRO-3 "
            "meant to avoid."),
    },
    "tp-node": {
        "title": "Why tensor parallelism stays inside a node",
        "question": (
            "Tensor parallelism is almost always limited to the GPUs of one server, while "
            "data and pipeline parallelism cross between servers. Why?"),
        "tp-node": "Write your answer down, then compare it with the model answer.",
        "tp-node.answer": (
            "Tensor parallelism communicates *inside* every layer: two all-reduces in the "
            "forward and two in the backward, each carrying the layer's whole hidden state. "
            "They sit between one matrix product and the next, so the GPUs wait for them.\n\n"
            "For Llama 3 70B with sequences of {{ par.seq_len }} tokens over "
            "{{ par.tp_degree }} GPUs, each GPU sends {{ par.tp_layer_bytes }} per layer "
            "and micro-batch. Over NVLink ({{ par.nvlink_bw }}) that takes "
            "{{ par.tp_nvlink_share }} of the layer's compute; over InfiniBand "
            "({{ par.ib_bw }} per GPU) it takes {{ par.tp_ib_ratio }} the compute: the "
            "step would mostly wait. Data parallelism sends once per step and overlaps with "
            "the backward, and the pipeline only sends activations between stages, so they "
            "tolerate the slower link. See [the five dimensions](parallelism.md)."),
    },
    "bubble-goal": {
        "title": "The pipeline bubble, below {{ ex.bubble_target }}",
        "question": (
            "What is the pipeline bubble, and how is it made smaller? In the [pipeline "
            "widget](pipeline.md#dl-pipeline), or in the [five dimensions "
            "widget](parallelism.md#dl-dimensions), with at least "
            "{{ ex.bubble_min_stages }} pipeline stages, raise the micro-batches until the "
            "bubble is below {{ ex.bubble_target }}."),
        "bubble-goal": "Solved when the widget reports the goal reached.",
        "bubble-goal.answer": (
            "The bubble is the time the stages sit idle: the last stage waits at the start "
            "of the step for the first forward to reach it, the first stage waits after its "
            "forwards for the backwards to come back. Under GPipe and 1F1B it is "
            "`(p − 1) / (m + p − 1)` of the step with *p* stages and *m* micro-batches. "
            "More micro-batches shrink "
            "it; an interleaved schedule divides it by the number of chunks per stage; "
            "zero-bubble schedules fill it with weight-gradient work. With "
            "{{ ex.bubble_min_stages }} stages, {{ pipe.fewest_two_stages }} micro-batches "
            "are the fewest that bring it below {{ ex.bubble_target }}: see [Pipeline "
            "schedules](pipeline.md)."),
    },
    "pipeline-memory": {
        "title": "GPipe or 1F1B: the same bubble, not the same memory",
        "question": (
            "A pipeline of {{ ex.pipe_stages }} stages runs {{ ex.pipe_microbatches }} "
            "micro-batches per step, every stage equally fast. A stage keeps a "
            "micro-batch's activations from its forward until its backward."),
        "pipeline-gpipe-peak": (
            "Under GPipe (all forwards, then all backwards), how many micro-batches' "
            "activations does the first stage hold at its peak?"),
        "pipeline-gpipe-peak.answer": (
            "All of them: **{{ ex.pipeline_gpipe_peak }}**. No backward starts before the "
            "last forward."),
        "pipeline-1f1b-peak": "And under 1F1B?",
        "pipeline-1f1b-peak.answer": (
            "**{{ ex.pipeline_1f1b_peak }}**: the first stage runs `p − 1` warm-up forwards "
            "plus the first forward of the steady state, so `p` micro-batches are in flight "
            "when its first backward comes back (Megatron-LM's schedule, which the library "
            "and the [pipeline chapter](pipeline.md) follow; PyTorch's `Schedule1F1B` counts "
            "that last forward as warm-up, `p` of them, to the same peak). Then it "
            "alternates one forward with one backward, which frees a micro-batch each time. "
            "Counting the stages from one, as the chapter's charts do, stage *s* runs "
            "`p − s` warm-up forwards and holds `p − s + 1` micro-batches at most, so the "
            "last stage holds only one."),
        "pipeline-bubble": (
            "What share of the step do the stages spend idle (the bubble), in percent?"),
        "pipeline-bubble.answer": (
            "`(p − 1) / (m + p − 1)`: **{{ ex.pipeline_bubble }}**, the same "
            "{{ ex.pipe_gpipe_bubble }} for both schedules. 1F1B saves memory, not time; "
            "the library's simulator finds the same idle slots. See [Pipeline "
            "schedules](pipeline.md)."),
    },
    "checkpoint-every-k": {
        "title": "Checkpointing every K-th layer",
        "question": (
            "Activation checkpointing keeps only the input of one layer in *K* and reruns "
            "the forward of each segment of *K* layers during the backward. Take Llama 3 "
            "70B ({{ ex.ckpt_layers }} layers of width {{ ex.ckpt_hidden }}), one sequence "
            "of {{ ex.ckpt_seq }} tokens per micro-batch, one GPU for all the layers, activations "
            "in bf16 and FlashAttention. Assume that a layer keeps `34 s b h` bytes if it is "
            "not recomputed: Korthikanti et al.'s count for a GPT layer (a GELU MLP of width "
            "`4h`, dropout masks, LayerNorm), without the attention scores that "
            "FlashAttention does not keep. Llama 3's layer (SwiGLU, grouped-query attention, "
            "RMSNorm, no dropout) keeps a different amount (see [Saving "
            "memory](saving-memory.md)); the question takes this figure as given. A layer's "
            "input is `2 s b h` bytes. During the backward the GPU holds "
            "every checkpoint plus one segment's full activations: "
            "`ceil(L / K) × 2 s b h + K × 34 s b h`."),
        "recompute-overhead": (
            "With every layer recomputed, how much more compute does a training step do, in "
            "percent? Count two FLOPs per parameter and token for the forward and four for "
            "the backward."),
        "recompute-overhead.answer": (
            "One more forward on top of a forward and a backward: "
            "**{{ ex.recompute_overhead }}**. The Persian lesson's figure is this one, "
            "rounded. Counting every matrix product of the real model, the output layer is "
            "not rerun and the extra is {{ ex.ckpt_overhead_matmuls }}. Whatever *K*, each "
            "layer's forward runs twice: *K* changes the memory, not the time."),
        "checkpoint-best-k": "Which *K* makes the peak smallest?",
        "checkpoint-best-k.answer": (
            "**{{ ex.checkpoint_best_k }}**. The two terms pull opposite ways, and their sum "
            "is smallest near `K = sqrt(L × 2 / 34)`, here {{ ex.ckpt_sqrt_rule }}. The "
            "textbook square root of the number of layers assumes a layer keeps about as "
            "much as its input; here it keeps far more, so short segments win."),
        "checkpoint-peak": "What is that smallest peak, in GB?",
        "checkpoint-peak.answer": (
            "**{{ ex.checkpoint_peak }}**, against {{ ex.ckpt_full }} with a checkpoint at "
            "every layer and {{ ex.ckpt_none }} with no checkpointing at all. See [Saving "
            "memory](saving-memory.md)."),
    },
    "offload-70b": {
        "title": "ZeRO-Offload for a {{ ex.off_params }} model",
        "question": (
            "A model of {{ ex.off_params }} parameters is trained with AdamW in mixed "
            "precision on servers of {{ ex.off_node_gpus }} H100s ({{ ex.off_gpu_memory }} "
            "each), with {{ ex.off_node_ram }} of CPU memory and {{ ex.off_node_nvme }} of "
            "NVMe per server. Without offload, ZeRO-3 needs {{ ex.off_none_gpus }} GPUs "
            "for the model states alone. ZeRO-Offload, as its paper describes it, moves "
            "the bf16 gradients, the fp32 master copy and the moments to the CPU memory and "
            "runs the optimizer step on the CPU; only the bf16 weights stay on the GPUs. "
            "Servers are rented whole. Count the model states only, not the activations."),
        "offload-bytes": "How many GB of model states leave the GPUs?",
        "offload-bytes.answer": (
            "The bf16 gradient, the master copy and the two moments, "
            "{{ ex.off_bytes_per_param }} bytes per parameter: **{{ ex.offload_bytes }}**. "
            "Each GPU keeps only its bf16 weights; the gradients it produces during the "
            "backward leave for the CPU bucket by bucket."),
        "offload-cpu-gpus": (
            "Offloading them to the CPU memory, how many GPUs does the run need at least?"),
        "offload-cpu-gpus.answer": (
            "**{{ ex.offload_cpu_gpus }}**: the offloaded states do not fit in one server's "
            "{{ ex.off_node_ram }}, so a second server is needed, and its GPUs come with it. "
            "The library also needs tensor parallelism over {{ ex.off_cpu_tp }} GPUs here, "
            "because ZeRO-Offload keeps a whole copy of the bf16 weights on every "
            "data-parallel GPU."),
        "offload-nvme-gpus": (
            "Offloading the master copy and the moments to NVMe instead (ZeRO-Infinity), "
            "the bf16 weights and gradients sharded over the GPUs?"),
        "offload-nvme-gpus.answer": (
            "**{{ ex.offload_nvme_gpus }}**: one server's {{ ex.off_node_nvme }} holds them, "
            "and ZeRO-3 spreads the bf16 weights and gradients over its GPUs."),
        "offload-verdict": (
            "The Persian lesson says offload lets such a model train on fewer GPUs than "
            "{{ ex.off_none_gpus }}, at the cost of slower steps. Is that right here, and "
            "what does the slowdown depend on?"),
        "offload-verdict.answer": (
            "Only with NVMe. Offload to CPU memory saves no GPU here: the offloaded states "
            "need more than one server's memory, so the run spans two servers anyway, and "
            "only just: they fill {{ save.cpu_per_node }} of each server's "
            "{{ ex.off_node_ram }}, leaving nothing for pinned buffers, the operating system "
            "or the data loader. With the margin DeepSpeed's own estimator plans "
            "({{ save.buffer_factor }} the offloaded states) it takes "
            "{{ save.gpus_cpu_buffered }} GPUs. With "
            "GPUs rented one by one it would even need more than without offload, "
            "{{ ex.off_cpu_loose }} against {{ ex.off_none_loose }}: the first server's "
            "GPUs bring their shares of the offloaded states into its memory, so it is the "
            "servers' memory, not the GPUs', that sets the count; it takes servers with more "
            "memory to gain. On NVMe they fit in one server: {{ ex.offload_nvme_gpus }} "
            "GPUs, or "
            "{{ ex.off_nvme_loose }} rented one by one. The slowdown "
            "depends on the traffic and on what hides it: each step every GPU sends its "
            "gradients to the CPU and receives the updated weights over PCIe, "
            "{{ ex.off_pcie_seconds }} per step here if nothing overlaps, then the CPU runs "
            "the optimizer step; NVMe adds reading and writing all the offloaded states "
            "every step. A fixed percentage such as the lesson's cannot be computed without "
            "knowing the step time and the overlap. See [Saving memory](saving-memory.md)."),
    },
    "mfu-low": {
        "title": "An MFU of {{ ex.mfu_observed }}",
        "question": (
            "Your large training run reaches an MFU of {{ ex.mfu_observed }}. Which three "
            "things do you investigate first, and how?"),
        "mfu-low": "Write your three candidates down, then compare them with the model answer.",
        "mfu-low.answer": (
            "Measure before guessing: profile a few steps (PyTorch profiler or Nsight "
            "Systems) and split the step into the terms of the course's decomposition "
            "([Efficiency: MFU](mfu.md)): useful compute, kernels below the peak, "
            "recomputation, the pipeline bubble, exposed communication, waiting for data, "
            "failures. Rank the losses by size and attack the largest first, at its cause; "
            "then measure again, because every fix changes the order. In the chapter's step "
            "of Llama 3 405B they rank:\n\n"
            "- **{{ ex.mfu_loss_1 }}**: {{ ex.mfu_loss_1_share }} of the step\n"
            "- **{{ ex.mfu_loss_2 }}**: {{ ex.mfu_loss_2_share }}\n"
            "- **{{ ex.mfu_loss_3 }}**: {{ ex.mfu_loss_3_share }}\n"
            "- **{{ ex.mfu_loss_4 }}**: {{ ex.mfu_loss_4_share }}\n\n"
            "Your own trace may rank them otherwise. How to see each one, and what shrinks "
            "it:\n\n"
            "- **Kernels below the peak.** Compare each large kernel's FLOP/s with the "
            "datasheet: small or oddly shaped matrices, attention without FlashAttention, "
            "unfused elementwise kernels.\n"
            "- **Recomputation.** Full recomputation reruns every layer's forward, work that "
            "MFU does not count: recompute selectively, or only as many layers as the memory "
            "requires.\n"
            "- **The pipeline bubble.** Compute `(p − 1) / (m + p − 1)` for your stages "
            "and micro-batches and compare it with the idle time of the first and last "
            "stages; add micro-batches or interleave.\n"
            "- **Exposed communication.** Look in the trace for collectives that no "
            "computation overlaps: tensor parallelism crossing servers, ZeRO-3 gathers "
            "across servers, gradient buckets too small to overlap with the backward.\n"
            "- **Waiting for data, failures.** Gaps before a step's first kernel point to the "
            "data loader; restarts and checkpoints cost time that shows over days, not in "
            "one step.\n\n"
            "For scale: Meta reports {{ mfu.llama3_mfu_low }} to {{ mfu.llama3_mfu_high }} "
            "for Llama 3 405B, and below {{ mfu.trouble }} something is wrong."),
    },
    "cost": {
        "title": "What a training run costs",
        "question": (
            "Llama 3 70B ({{ ex.cost_params }} parameters) is trained on "
            "{{ ex.cost_tokens_per_param }} tokens per parameter, counting `6 N` FLOPs per "
            "token, at an MFU of {{ ex.cost_mfu }}. An H100 peaks at {{ ex.cost_h100_peak }} "
            "in bf16 and is rented at {{ ex.cost_h100_price }} dollars per GPU-hour; an A100 "
            "peaks at {{ ex.cost_a100_peak }} and costs {{ ex.cost_a100_price }} dollars per "
            "GPU-hour (the Persian lesson's prices)."),
        "cost-h100": "What does the run cost on H100s, in millions of dollars?",
        "cost-h100.answer": (
            "FLOPs / (MFU × peak) gives the GPU-seconds; divided by the seconds of an hour "
            "and times the price: **{{ ex.cost_h100 }}**."),
        "cost-a100": "And on A100s, in millions of dollars?",
        "cost-a100.answer": (
            "**{{ ex.cost_a100 }}**. The H100 costs more per hour and less per run: it "
            "does {{ cost.flops_ratio }} the A100's arithmetic for {{ cost.price_ratio }} "
            "the price."),
        "cost-check": (
            "The lesson quotes about {{ claim.fa_cost_deepseek.stated }} for DeepSeek-V3. "
            "Where does that figure come from, and what does such an estimate leave out?"),
        "cost-check.answer": (
            "DeepSeek's report multiplies its {{ cost.deepseek_hours }} H800 GPU-hours by an "
            "assumed rental price: {{ claim.fa_cost_deepseek.computed }}, which the lesson "
            "rounds. It is the final training run only: the research, the ablations and the "
            "failed runs before it, the data and the people are not in it, nor is buying the "
            "GPUs rather than renting them. The lesson's Llama 3 405B figure is checked in "
            "the [claims register](claims.md) too."),
    },
    "comm-busbw": {
        "title": "Reading nccl-tests' bus bandwidth",
        "question": (
            "An all-reduce of {{ ex.comm_ex_bytes }} over the {{ ex.comm_ex_ranks }} GPUs of "
            "one H100 server takes {{ ex.comm_ex_time }}, so nccl-tests prints an algorithm "
            "bandwidth of {{ ex.comm_ex_algbw }} (bytes of the array over the time, GB = a "
            "billion bytes)."),
        "comm-busbw": "What bus bandwidth does it print, in GB/s?",
        "comm-busbw.answer": (
            "For an all-reduce, busbw = algbw × `2 (n − 1) / n`, the share of the array each "
            "GPU sends in a ring: {{ comm.bus_factor }} on {{ ex.comm_ex_ranks }} GPUs, so "
            "**{{ ex.comm_busbw }}**, {{ comm.gib_share }} of NVLink's {{ comm.nvlink }} each "
            "way. The bus bandwidth is the one to compare with the link: it does not change "
            "with the number of GPUs."),
    },
    "comm-crossover": {
        "title": "Where latency stops mattering",
        "question": (
            "With NCCL's Simple protocol on NVLink, a ring call costs T₀ = "
            "{{ ex.comm_ex_base }} once and α = {{ ex.comm_ex_alpha }} per step, and moves "
            "bytes at β = {{ ex.comm_ex_beta }}. A ring all-reduce over n = "
            "{{ ex.comm_ex_ranks }} GPUs takes `2 (n − 1)` steps and sends `2 (n − 1) / n` "
            "of the array from each GPU."),
        "comm-crossover": (
            "At what array size S are the latency and bandwidth terms equal, in MB (a "
            "million bytes)?"),
        "comm-crossover.answer": (
            "`T₀ + 2 (n − 1) α = 2 (n − 1) / n × S / β` gives "
            "`S = n β (T₀ + 2 (n − 1) α) / (2 (n − 1))`: **{{ ex.comm_crossover }}**. Below "
            "it the latency costs more than the bytes, and NCCL switches to its low-latency "
            "protocols, LL128 and then LL; above it the bytes dominate."),
    },
    "comm-where": {
        "title": "Which traffic goes where",
        "question": (
            "A cluster has servers of {{ comm.node_gpus }} H100s joined by NVLink "
            "({{ comm.nvlink }} per GPU each way) and one InfiniBand port per GPU between "
            "servers ({{ comm.ib }})."),
        "comm-where": (
            "Why do frameworks place tensor parallelism inside a server and data "
            "parallelism across servers, and not the other way round?"),
        "comm-where.answer": (
            "Tensor parallelism communicates inside every layer, forward and backward, and "
            "the next matrix product waits for it: its bytes sit on the critical path and "
            "need the fastest link, {{ comm.nvlink_over_ib }} faster than the network. Data "
            "parallelism reduces the gradients once per step, and the reduction of each "
            "bucket overlaps the rest of the backward, so a slower link costs little as long "
            "as a bucket's reduction is shorter than the compute that produces the next one. "
            "On Llama 3.1 405B's step, tensor parallelism's exposed traffic is "
            "{{ comm.tp_exposed }} even on NVLink."),
    },
    "moe-active": {
        "title": "What a token uses of Mixtral",
        "question": (
            "Mixtral 8x7B has {{ ex.moe_ex_total }} parameters. Each of its "
            "{{ ex.moe_ex_layers }} layers holds {{ ex.moe_ex_experts }} experts of "
            "{{ ex.moe_ex_expert }} parameters each, and the router sends every token to "
            "{{ ex.moe_ex_top_k }} of them."),
        "moe-active": (
            "What share of the parameters does one token compute with, counting everything "
            "but the experts it is not sent to, in %?"),
        "moe-active.answer": (
            "Per layer the token skips `E − k` experts: the skipped parameters are layers × "
            "(E − k) × the expert's size, and what remains is **{{ ex.moe_active }}** of the "
            "total. Memory still holds all of it: every expert's weights, gradients and "
            "optimizer states. This count keeps the input embedding, as Mistral's own "
            "figure does; leave it out, as DeepSeek does, and the share falls a little."),
    },
    "moe-a2a": {
        "title": "One layer's all-to-all",
        "question": (
            "Mixtral runs with its {{ ex.moe_ex_experts }} experts on {{ ex.moe_ex_ep }} GPUs, "
            "one each. A micro-batch puts {{ ex.moe_ex_tokens }} tokens on every GPU; each "
            "token goes to {{ ex.moe_ex_top_k }} experts, chosen uniformly; the hidden size is "
            "{{ ex.moe_ex_hidden }}, and activations travel in bf16 both ways."),
        "moe-a2a": (
            "How many bytes does one GPU send in one MoE layer's forward, dispatch and "
            "combine together, in MB (a million bytes)?"),
        "moe-a2a.answer": (
            "Each GPU has `T k` token copies; a share `(ep − 1) / ep` of them belongs to "
            "another GPU's expert. Each such copy leaves as `h` bf16 values in the dispatch, "
            "and its result comes back the same size in the combine: "
            "`T k h (ep − 1) / ep × (2 + 2)` bytes, **{{ ex.moe_a2a }}**. The backward sends "
            "as much again."),
    },
    "moe-weights": {
        "title": "The experts a GPU holds",
        "question": (
            "DeepSeek-V3 has {{ ex.moe_ex_v3_experts }} routed experts in each of its "
            "{{ ex.moe_ex_v3_layers }} MoE layers, each of {{ ex.moe_ex_v3_expert }} "
            "parameters. Spread them over ep = {{ ex.moe_ex_v3_ep }} GPUs with no pipeline."),
        "moe-weights": (
            "How many GB of expert weights, in bf16, does each GPU hold (GB = a billion "
            "bytes)?"),
        "moe-weights.answer": (
            "Each GPU holds `E / ep` experts of every MoE layer: layers × `E / ep` × the "
            "expert's parameters × two bytes, **{{ ex.moe_weights }}**, before gradients and "
            "optimizer states, which multiply it several times. That is why DeepSeek-V3 "
            "also splits the layers into a pipeline."),
    },
}

TEXTS.update({
    "fail-young": {
        "title": "Young's interval for a quarter of Llama 3's cluster",
        "question": (
            "A job runs on {{ ex.fail_ex_gpus }} H100s whose GPUs fail at Llama 3's rate "
            "({{ fail.unexpected }} unexpected interruptions in {{ fail.days }} days on "
            "{{ fail.gpus }} GPUs), independently of each other. Each checkpoint pauses "
            "training for {{ ex.fail_ex_write }}."),
        "fail-mtbf": "What is the job's mean time between failures, in seconds?",
        "fail-mtbf.answer": (
            "The MTBF falls as one over the number of GPUs: Llama 3's {{ fail.mtbf_s }} on "
            "{{ fail.gpus }} GPUs becomes, on {{ ex.fail_ex_gpus }}, **{{ ex.fail_mtbf }}**."),
        "fail-young": "What is Young's checkpoint interval, in seconds?",
        "fail-young.answer": (
            "`sqrt(2 δ M)` with δ = {{ ex.fail_ex_write }} and M = {{ ex.fail_mtbf }}: "
            "**{{ ex.fail_young }}**. A cluster four times smaller fails four times less "
            "often and checkpoints half as often: the interval grows as the square root of "
            "the MTBF."),
    },
    "fail-goodput": {
        "title": "The goodput at Young's interval",
        "question": (
            "The same job checkpoints at Young's interval ({{ ex.fail_young }}); after each "
            "failure it takes {{ ex.fail_ex_restart }} to be training again."),
        "fail-goodput": (
            "What share of the wall time goes to training that is kept, to first order, in "
            "percent?"),
        "fail-goodput.answer": (
            "`1 / (1 + δ/τ + (R + τ/2)/M)` with δ = {{ ex.fail_ex_write }}, τ = "
            "{{ ex.fail_young }}, R = {{ ex.fail_ex_restart }} and M = {{ ex.fail_mtbf }}: "
            "**{{ ex.fail_goodput }}**. At Young's interval the pauses and the half intervals "
            "lost cost the same; the restarts come on top, and only a faster restart reduces "
            "them."),
    },
    "fail-size": {
        "title": "A checkpoint of Llama 3 70B",
        "question": (
            "Llama 3 70B is trained with AdamW in mixed precision: bf16 weights and "
            "gradients, an fp32 master copy, two fp32 moments. Its checkpoint is written to a "
            "storage that sustains {{ ex.fail_ex_storage }}, by {{ ex.fail_ex_writers }} "
            "ranks in equal shares."),
        "fail-size": "How large is the checkpoint, in GB?",
        "fail-size.answer": (
            "The weights, the master copy and the moments, not the gradients: "
            "{{ fail.bytes_per_param }} bytes per parameter, **{{ ex.fail_size }}**."),
        "fail-write": "How long does writing it take at the sustained bandwidth, in seconds?",
        "fail-write.answer": (
            "The bytes over the bandwidth: **{{ ex.fail_write }}**, as long as enough ranks "
            "write to fill the storage."),
        "fail-shard": "How much does each rank write, in MB?",
        "fail-shard.answer": (
            "The checkpoint over the writers: **{{ ex.fail_shard }}**. An asynchronous "
            "checkpoint pauses training only while each GPU copies this much to host memory."),
    },
})

TEXTS.update({
    "fp8-scale": {
        "title": "Scaling a tensor into e4m3",
        "question": (
            "A tensor's largest magnitude is {{ ex.fp8_ex_amax }}; it is cast to e4m3 with one "
            "current scale for the whole tensor."),
        "fp8-scale": "By what scale is it multiplied before the cast?",
        "fp8-scale.answer": (
            "The scale puts the amax at e4m3's largest value: {{ fp8.e4m3_max }} / "
            "{{ ex.fp8_ex_amax }} = **{{ ex.fp8_scale }}**."),
        "fp8-error": (
            "One of its values is {{ ex.fp8_ex_value }}. By how much, in percent, is it off "
            "once cast and divided by the scale again?"),
        "fp8-error.answer": (
            "Scaled, it is {{ ex.fp8_ex_scaled }}, in a binade where e4m3 keeps eight values; "
            "the nearest is {{ ex.fp8_ex_rounded }}, which comes back as {{ ex.fp8_ex_back }}: "
            "**{{ ex.fp8_error }}** off. Alone in its own tile, with "
            "its own scale, it would come back exact."),
    },
    "fp8-mfu": {
        "title": "MFU against which peak",
        "question": (
            "A run on H100s reports an MFU of {{ ex.fp8_ex_mfu }} against the bf16 peak, but "
            "its matrix products ran in fp8."),
        "fp8-mfu": "What is its MFU against the fp8 peak, in percent?",
        "fp8-mfu.answer": (
            "The same FLOPs over a peak {{ fp8.peak_ratio }} larger: **{{ ex.fp8_mfu }}**. "
            "Neither number is wrong; a comparison between runs must use the same peak."),
    },
})
