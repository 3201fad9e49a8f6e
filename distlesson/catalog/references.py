"""The papers and reports the course cites, with the year each appeared.

Pages cite with ``{{ cite.zero }}`` (authors and year in parentheses), inside parentheses
with ``{{ citep.zero }}`` (authors, comma, year), or show the full entry with
``{{ ref.zero }}``; years and titles are data here, never typed into prose.
"""

from __future__ import annotations

from dataclasses import dataclass

from distlesson.render.figure import Text

__all__ = ["REFERENCES", "Reference", "figures"]

_FA_SUFFIXES = {"a": "الف", "b": "ب", "c": "ج"}
"""Letters after a year, and how Persian writes them ("۲۰۲۱الف")."""


@dataclass(frozen=True)
class Reference:
    key: str
    authors: str  # first author's family name, or the team as it signs the report
    several: bool  # "et al." after the first author (three authors or more)
    title: str
    venue: str
    year: int  # of the version cited (the peer-reviewed one where there is one)
    url: str
    year_suffix: str = ""
    """"a", "b"...: tells apart two papers of the same first author and year (Narayanan et
    al. 2021a and 2021b), in order of publication; written "الف", "ب" in Persian."""
    second: str = ""
    """The second author's family name, for a paper by two: "Patarasuk and Yuan", never
    "et al." (which stands for two or more others)."""

    def __post_init__(self) -> None:
        if self.second and self.several:
            raise ValueError(f"{self.key!r}: a paper by two authors (second={self.second!r}) "
                             "is not 'several'")
        if self.year_suffix and self.year_suffix not in _FA_SUFFIXES:
            raise ValueError(f"year_suffix={self.year_suffix!r} of {self.key!r} must be one of "
                             f"{', '.join(_FA_SUFFIXES)}")

    def _authors(self, locale: str) -> str:
        if self.second:
            conjunction = {"en": "and", "ca": "i", "fa": "و"}[locale]
            return f"{self.authors} {conjunction} {self.second}"
        if not self.several:  # a team that signs with a comma takes the Persian one in fa
            return self.authors.replace(", ", "، ") if locale == "fa" else self.authors
        return f"{self.authors} و همکاران" if locale == "fa" else f"{self.authors} et al."

    def _year(self, locale: str) -> str:
        """``{0}`` (the year, formatted per locale) and the suffix, if any."""
        if not self.year_suffix:
            return "{0}"
        return "{0}" + (_FA_SUFFIXES[self.year_suffix] if locale == "fa" else self.year_suffix)

    def short(self) -> dict[str, str]:
        """Authors and the year in parentheses, ``Rajbhandari et al. ({0})``, per locale."""
        return {locale: f"{self._authors(locale)} ({self._year(locale)})"
                for locale in ("en", "ca", "fa")}

    def parenthetical(self) -> dict[str, str]:
        """For use inside parentheses: ``Rajbhandari et al., {0}`` (Persian comma in fa)."""
        return {locale: f"{self._authors(locale)}{'،' if locale == 'fa' else ','} "
                        f"{self._year(locale)}"
                for locale in ("en", "ca", "fa")}

    def entry(self) -> dict[str, str]:
        """The full entry: short citation, linked title, venue (in the page's language where
        it is a description, not a name)."""
        return {
            locale: f"{short}. [*{self.title}*]({self.url}). "
                    f"{_VENUES.get(self.venue, {}).get(locale, self.venue)}."
            for locale, short in self.short().items()
        }


# Venues that describe a source rather than name it, in the languages that translate them
# (the 2026-12 Catalan review found «PyTorch documentation» on the Catalan page); titles,
# journals and conferences keep their own names.
_VENUES = {
    "PyTorch documentation": {"ca": "Documentació de PyTorch"},
    "NVIDIA documentation": {"ca": "Documentació d'NVIDIA"},
    "NVIDIA Deep Learning Performance documentation": {
        "ca": "Documentació d'NVIDIA, Deep Learning Performance"},
    "NVIDIA/nccl-tests issue 212": {"ca": "Incidència 212 d'NVIDIA/nccl-tests"},
}


REFERENCES: tuple[Reference, ...] = (
    Reference("zero", "Rajbhandari", True,
              "ZeRO: Memory Optimizations Toward Training Trillion Parameter Models",
              "SC20 (arXiv:1910.02054)", 2020, "https://arxiv.org/abs/1910.02054"),
    Reference("zero_offload", "Ren", True,
              "ZeRO-Offload: Democratizing Billion-Scale Model Training",
              "USENIX ATC 2021 (arXiv:2101.06840)", 2021, "https://arxiv.org/abs/2101.06840"),
    Reference("megatron", "Shoeybi", True,
              "Megatron-LM: Training Multi-Billion Parameter Language Models Using Model "
              "Parallelism", "arXiv:1909.08053", 2019, "https://arxiv.org/abs/1909.08053"),
    Reference("narayanan", "Narayanan", True,
              "Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM",
              "SC21 (arXiv:2104.04473)", 2021, "https://arxiv.org/abs/2104.04473",
              year_suffix="b"),
    Reference("korthikanti", "Korthikanti", True,
              "Reducing Activation Recomputation in Large Transformer Models",
              "MLSys 2023 (arXiv:2205.05198)", 2022, "https://arxiv.org/abs/2205.05198"),
    Reference("bloom", "BigScience", False,
              "tr11-176B-ml: the BLOOM 176B training script, configuration and logbook",
              "GitHub, bigscience-workshop/bigscience", 2022,
              "https://github.com/bigscience-workshop/bigscience/tree/master/train/tr11-176B-ml"),
    Reference("fsdp", "Zhao", True,
              "PyTorch FSDP: Experiences on Scaling Fully Sharded Data Parallel",
              "VLDB 2023 (arXiv:2304.11277)", 2023, "https://arxiv.org/abs/2304.11277"),
    Reference("fsdp2", "PyTorch", False,
              "torch.distributed.fsdp.fully_shard: PyTorch FSDP2 (per-parameter dim-0 "
              "sharding)", "PyTorch documentation", 2024,
              "https://docs.pytorch.org/docs/stable/distributed.fsdp.fully_shard.html"),
    Reference("gpipe", "Huang", True,
              "GPipe: Efficient Training of Giant Neural Networks using Pipeline Parallelism",
              "NeurIPS 2019 (arXiv:1811.06965)", 2019, "https://arxiv.org/abs/1811.06965"),
    Reference("zero_bubble", "Qi", True, "Zero Bubble Pipeline Parallelism",
              "ICLR 2024 (arXiv:2401.10241)", 2024, "https://arxiv.org/abs/2401.10241"),
    Reference("llama3", "Llama Team, AI @ Meta", False, "The Llama 3 Herd of Models",
              "arXiv:2407.21783", 2024, "https://arxiv.org/abs/2407.21783"),
    Reference("deepseek_v3", "DeepSeek-AI", False, "DeepSeek-V3 Technical Report",
              "arXiv:2412.19437", 2024, "https://arxiv.org/abs/2412.19437"),
    Reference("playbook", "Tazi", True,
              "The Ultra-Scale Playbook: Training LLMs on GPU Clusters", "Hugging Face",
              2025, "https://huggingface.co/spaces/nanotron/ultrascale-playbook"),
    Reference("mixed_precision", "Micikevicius", True, "Mixed Precision Training",
              "ICLR 2018 (arXiv:1710.03740)", 2018, "https://arxiv.org/abs/1710.03740"),
    Reference("bf16", "Kalamkar", True, "A Study of BFLOAT16 for Deep Learning Training",
              "arXiv:1905.12322", 2019, "https://arxiv.org/abs/1905.12322"),
    Reference("fp8", "Micikevicius", True, "FP8 Formats for Deep Learning",
              "arXiv:2209.05433", 2022, "https://arxiv.org/abs/2209.05433"),
    Reference("adamw", "Loshchilov", False, "Decoupled Weight Decay Regularization",
              "ICLR 2019 (arXiv:1711.05101)", 2019, "https://arxiv.org/abs/1711.05101",
              second="Hutter"),
    Reference("adam8bit", "Dettmers", True, "8-bit Optimizers via Block-wise Quantization",
              "ICLR 2022 (arXiv:2110.02861)", 2022, "https://arxiv.org/abs/2110.02861"),
    Reference("adafactor", "Shazeer", False,
              "Adafactor: Adaptive Learning Rates with Sublinear Memory Cost",
              "ICML 2018 (arXiv:1804.04235)", 2018, "https://arxiv.org/abs/1804.04235",
              second="Stern"),
    Reference("lion", "Chen", True, "Symbolic Discovery of Optimization Algorithms",
              "NeurIPS 2023 (arXiv:2302.06675)", 2023, "https://arxiv.org/abs/2302.06675"),
    Reference("ring_allreduce", "Patarasuk", False,
              "Bandwidth Optimal All-reduce Algorithms for Clusters of Workstations",
              "Journal of Parallel and Distributed Computing 69(2)", 2009,
              "https://doi.org/10.1016/j.jpdc.2008.09.002", second="Yuan"),
    Reference("ddp", "Li", True,
              "PyTorch Distributed: Experiences on Accelerating Data Parallel Training",
              "VLDB 2020 (arXiv:2006.15704)", 2020, "https://arxiv.org/abs/2006.15704"),
    Reference("ring_attention", "Liu", True,
              "Ring Attention with Blockwise Transformers for Near-Infinite Context",
              "ICLR 2024 (arXiv:2310.01889)", 2024, "https://arxiv.org/abs/2310.01889"),
    Reference("ulysses", "Jacobs", True,
              "DeepSpeed Ulysses: System Optimizations for Enabling Training of Extreme Long "
              "Sequence Transformer Models", "arXiv:2309.14509", 2023,
              "https://arxiv.org/abs/2309.14509"),
    Reference("online_softmax", "Milakov", False,
              "Online normalizer calculation for softmax", "arXiv:1805.02867", 2018,
              "https://arxiv.org/abs/1805.02867", second="Gimelshein"),
    Reference("gshard", "Lepikhin", True,
              "GShard: Scaling Giant Models with Conditional Computation and Automatic "
              "Sharding", "ICLR 2021 (arXiv:2006.16668)", 2021, "https://arxiv.org/abs/2006.16668"),
    Reference("switch", "Fedus", True,
              "Switch Transformers: Scaling to Trillion Parameter Models with Simple and "
              "Efficient Sparsity", "JMLR 23 (arXiv:2101.03961)", 2022,
              "https://arxiv.org/abs/2101.03961"),
    Reference("mixtral", "Jiang", True, "Mixtral of Experts", "arXiv:2401.04088", 2024,
              "https://arxiv.org/abs/2401.04088"),
    Reference("pipedream", "Narayanan", True,
              "PipeDream: Generalized Pipeline Parallelism for DNN Training", "SOSP 2019",
              2019, "https://doi.org/10.1145/3341301.3359646"),
    Reference("pipedream_flush", "Narayanan", True,
              "Memory-Efficient Pipeline-Parallel DNN Training", "ICML 2021 (arXiv:2006.09503)",
              2021, "https://arxiv.org/abs/2006.09503", year_suffix="a"),
    Reference("zero_infinity", "Rajbhandari", True,
              "ZeRO-Infinity: Breaking the GPU Memory Wall for Extreme Scale Deep Learning",
              "SC21 (arXiv:2104.07857)", 2021, "https://arxiv.org/abs/2104.07857"),
    Reference("lora", "Hu", True, "LoRA: Low-Rank Adaptation of Large Language Models",
              "ICLR 2022 (arXiv:2106.09685)", 2022, "https://arxiv.org/abs/2106.09685"),
    Reference("flash_attention", "Dao", True,
              "FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness",
              "NeurIPS 2022 (arXiv:2205.14135)", 2022, "https://arxiv.org/abs/2205.14135"),
    Reference("flashattention2", "Dao", False,
              "FlashAttention-2: Faster Attention with Better Parallelism and Work "
              "Partitioning", "ICLR 2024 (arXiv:2307.08691)", 2023,
              "https://arxiv.org/abs/2307.08691"),
    Reference("scaling_book", "Austin", True,
              "How to Scale Your Model, part 12: How to Think About GPUs",
              "Google DeepMind", 2025, "https://jax-ml.github.io/scaling-book/gpus/"),
    Reference("nvidia_gemm", "NVIDIA", False, "Matrix Multiplication Background User's Guide",
              "NVIDIA Deep Learning Performance documentation", 2023,
              "https://docs.nvidia.com/deeplearning/performance/"
              "dl-performance-matrix-multiplication/"),
    Reference("roofline", "Williams", True,
              "Roofline: An Insightful Visual Performance Model for Multicore Architectures",
              "Communications of the ACM 52(4)", 2009, "https://doi.org/10.1145/1498765.1498785"),
    Reference("palm", "Chowdhery", True, "PaLM: Scaling Language Modeling with Pathways",
              "JMLR 24 (arXiv:2204.02311)", 2023, "https://arxiv.org/abs/2204.02311"),
    Reference("kaplan", "Kaplan", True, "Scaling Laws for Neural Language Models",
              "arXiv:2001.08361", 2020, "https://arxiv.org/abs/2001.08361"),
    Reference("chinchilla", "Hoffmann", True,
              "Training Compute-Optimal Large Language Models", "NeurIPS 2022 "
              "(arXiv:2203.15556)", 2022, "https://arxiv.org/abs/2203.15556"),
    Reference("young", "Young", False,
              "A first order approximation to the optimum checkpoint interval",
              "Communications of the ACM 17(9)", 1974, "https://doi.org/10.1145/361147.361115"),
    Reference("daly", "Daly", False,
              "A higher order estimate of the optimum checkpoint interval for restart dumps",
              "Future Generation Computer Systems 22(3)", 2006,
              "https://doi.org/10.1016/j.future.2004.11.016"),
    Reference("thakur", "Thakur", True,
              "Optimization of Collective Communication Operations in MPICH",
              "International Journal of High Performance Computing Applications 19(1)", 2005,
              "https://doi.org/10.1177/1094342005051521"),
    Reference("nccl_tests", "NVIDIA nccl-tests", False, "NCCL Tests: performance (PERFORMANCE.md)",
              "github.com/NVIDIA/nccl-tests", 2023,
              "https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md"),
    Reference("nccl_tuning", "NVIDIA NCCL", False,
              "NCCL's cost model of its collectives (src/graph/tuning.cc)",
              "github.com/NVIDIA/nccl", 2024,
              "https://github.com/NVIDIA/nccl/blob/b6475625fbcaa2c3c0e50eed2fa1255d7514d4a2/"
              "src/graph/tuning.cc"),
    Reference("nccl_h100_busbw", "Jeaugey", False,
              "H100 all reduce performance is poor (maintainer's answer: about 370 GB/s "
              "effective NVLink bandwidth)", "NVIDIA/nccl-tests issue 212", 2024,
              "https://github.com/NVIDIA/nccl-tests/issues/212"),
    Reference("double_tree", "Sanders", True,
              "Two-tree algorithms for full bandwidth broadcast, reduction and scan",
              "Parallel Computing 35(12)", 2009, "https://doi.org/10.1016/j.parco.2009.09.001"),
    Reference("superpod", "NVIDIA DGX SuperPOD", False,
              "NVIDIA DGX SuperPOD: Next Generation Scalable Infrastructure for AI "
              "Leadership, Reference Architecture (DGX H100)", "NVIDIA documentation", 2023,
              "https://docs.nvidia.com/dgx-superpod/reference-architecture-scalable-"
              "infrastructure-h100/latest/"),
    Reference("gpt2", "Radford", True, "Language Models are Unsupervised Multitask Learners",
              "OpenAI", 2019,
              "https://cdn.openai.com/better-language-models/language_models_are_unsupervised_multitask_learners.pdf"),
)


def figures() -> list[Text]:
    out: list[Text] = []
    for ref in REFERENCES:
        out.append(Text(f"cite.{ref.key}", ref.short(), (ref.year,), doc=ref.title))
        out.append(Text(f"citep.{ref.key}", ref.parenthetical(), (ref.year,), doc=ref.title))
        out.append(Text(f"ref.{ref.key}", ref.entry(), (ref.year,), doc=ref.title))
    return out
