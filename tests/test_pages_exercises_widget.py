"""The exercises page's build side: every exercise of the two sources is on it; each numeric
answer it embeds is the library's, checked here against values derived by hand; tolerances
are as stated; the three languages show the same exercises with the same figures."""

import functools
import re
from fractions import Fraction

import numpy as np
import pytest

from distlesson import exercises as lib
from distlesson.catalog.hardware import get_gpu
from distlesson.catalog.models import get_model
from distlesson.chapter_exercises import CHAPTERS, chapter_exercises
from distlesson.claims.savings import checkpoint_reduction
from distlesson.memory.states import model_states
from distlesson.pages import exercises_widget
from distlesson.pages.exercise_texts import TEXTS
from distlesson.parallel.collectives import ring_bytes
from distlesson.parallel.data import data_parallel_grads
from distlesson.parallel.toy_mlp import flatten, init_mlp
from distlesson.pipeline.bubble import bubble_fraction
from distlesson.pipeline.schedules import build_schedule
from distlesson.pipeline.simulator import simulate
from distlesson.site.placeholders import placeholder_names
from distlesson.site.prose_lint import ALLOWED_NAMES, typed_numbers
from tests.pages import ROOT, nav_pages
from tests.widget_checks import DATA, LOCALES, embedded_data, tags

# What each source asks (section 6 of the Catalan chapter, "Comprova que ho has entès";
# "تمرینات" of the Persian lesson), and the exercise of the page that covers it.
SOURCES = {
    ("ca", 1): "dp-zero3",  # why data parallelism does not solve memory and ZeRO-3 does
    ("ca", 2): "tp-node",  # why tensor parallelism stays within one node's GPUs
    ("ca", 3): "bubble-goal",  # the bubble, and below 10 % with >= 2 stages in the widget
    ("ca", 4): "states-13b",  # model states of 13B, AdamW, mixed precision, in GB, 2 %
    ("ca", 5): "mfu-low",  # an MFU of 18 %: which three things first, and how
    ("fa", 1): "checkpoint-every-k",  # checkpoint every K-th layer, ~33 % more compute
    ("fa", 2): "pipeline-memory",  # 1F1B against GPipe, 4 stages, 8 micro-batches, memory
    ("fa", 3): "accumulation",  # accumulate K micro-batches: K times fewer all-reduces
    ("fa", 4): "cost",  # a cost estimator: A100 at $2/h, H100 at $3.50/h; DeepSeek-V3
    ("fa", 5): "offload-70b",  # ZeRO-Offload, 512 GB of RAM and 2 TB of NVMe per node, 70B
}
GB = 1e9
fragment_of = functools.cache(exercises_widget.exercises_widget)  # one render per locale


def embedded(locale: str) -> dict:
    return embedded_data(fragment_of(locale))


def answer(part_id: str, locale: str = "en") -> tuple[float, float]:
    """(value in the answer's unit, relative tolerance) as the page embeds them."""
    entry = embedded(locale)["num"][part_id]
    return entry["v"], entry["t"]


def quantity(name: str) -> float:
    """A number an exercise states (``ex.<name>``), in base units, from the library."""
    found = [q.value for e in lib.exercises() for q in e.quantities if q.name == name]
    assert len(found) == 1, name
    return found[0]


def test_every_exercise_of_the_sources_is_covered():
    found = {(e.origin, e.number): e.id for e in lib.exercises()}
    assert found == SOURCES
    assert embedded("en")["ids"] == [e.id for e in lib.exercises()]


def test_13b_states_derived_by_hand():
    # mixed-precision AdamW: bf16 weight (2) + bf16 gradient (2) + fp32 master (4) + fp32
    # first and second moments (4 + 4) = 16 bytes per parameter
    per_param = 2 + 2 + 4 + 4 + 4
    by_hand = 13e9 * per_param
    assert model_states(13e9, optimizer="adamw", precision="mixed").total == by_hand
    for locale in LOCALES:
        assert answer("states-13b", locale) == (by_hand / GB, 0.02)  # the chapter's 2 %


@pytest.mark.parametrize("schedule", ["gpipe", "1f1b"])
def test_pipeline_answers_by_hand_and_by_simulation(schedule):
    p, m = 4, 8
    # GPipe runs all forwards before any backward: the first stage holds all m. 1F1B's
    # first stage runs p - 1 warm-up forwards plus one before its first backward: p.
    peak = {"gpipe": m, "1f1b": p}[schedule]
    assert answer(f"pipeline-{schedule}-peak") == (peak, 0)
    timeline = simulate(build_schedule(schedule, p, m))
    assert timeline.peak_activations[0] == peak
    # both idle (p - 1) of (m + p - 1) slots: 3/11 of the step
    assert timeline.bubble_fraction == Fraction(3, 11)
    value, tol = answer("pipeline-bubble")
    assert value == pytest.approx(300 / 11, rel=1e-12) and tol == 0.02


def test_recompute_overhead_is_a_third():
    # one extra forward (2 FLOPs per parameter and token) over forward + backward (2 + 4)
    value, tol = answer("recompute-overhead")
    assert value == pytest.approx(100 * 2 / (2 + 4), rel=1e-12) and tol == 0.02


def test_checkpoint_every_k_by_hand():
    # Llama 3 70B: 80 layers, width 8192; s = 8192, b = 1. A layer keeps 34 s b h bytes
    # (Korthikanti et al. 2022 without attention scores), its input 2 s b h.
    layers, sbh = 80, 8192 * 8192
    peaks = {k: -(-layers // k) * 2 * sbh + k * 34 * sbh for k in range(1, layers + 1)}
    assert min(peaks, key=peaks.get) == 2  # 40 x 2 + 2 x 34 = 148 units of s b h
    assert peaks[2] == 148 * sbh and peaks[1] == 194 * sbh and peaks[3] == 156 * sbh
    assert answer("checkpoint-best-k") == (2, 0)
    value, tol = answer("checkpoint-peak")
    assert value == pytest.approx(148 * sbh / GB, rel=1e-12) and tol == 0.02
    # K = 1 is the full recomputation of the claims register: (L x 34) / (L x 2 + 34)
    assert checkpoint_reduction() == pytest.approx(layers * 34 / (layers * 2 + 34), rel=1e-12)


def test_accumulation_by_hand():
    # ring all-reduce: each of n = 8 GPUs sends 2 (n - 1) / n of the 70e9 x 2-byte buffer
    once = 2 * 7 / 8 * 70e9 * 2
    assert once == 245e9
    assert answer("accumulation-once") == (once / GB, 0.02)
    assert answer("accumulation-every") == (8 * once / GB, 0.02)


def test_accumulation_simulated_k_times_fewer_same_gradient():
    """The Persian exercise's claim, on the library's simulated ranks: k all-reduces or one,
    k times the bytes or one, the same gradient; the bytes are the ring's closed form."""
    params, k, dp = init_mlp(8, 16, 4, seed=1), 8, 4
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal((64, 8)), rng.standard_normal((64, 4))
    naive = data_parallel_grads(params, x, y, dp=dp, num_microbatches=k,
                                sync_every_microbatch=True)
    lean = data_parallel_grads(params, x, y, dp=dp, num_microbatches=k)
    assert (naive.all_reduces, lean.all_reduces) == (k, 1)
    assert naive.sent_bytes[0] == k * lean.sent_bytes[0]
    buffer = params.num_params * np.dtype(params.dtype).itemsize
    assert lean.sent_bytes[0] == ring_bytes("all_reduce", buffer, dp)
    np.testing.assert_allclose(flatten(lean.grads), flatten(naive.grads), rtol=1e-12,
                               atol=1e-15)


def test_cost_by_hand():
    n = get_model("llama3-70b").num_params  # an input: the catalog's count
    flops = 6 * n * (20 * n)  # 6 N per token, 20 tokens per parameter
    for gpu, price, peak in (("h100", 3.5, 989e12), ("a100", 2.0, 312e12)):
        dollars = flops / (0.40 * peak) / 3600 * price
        value, tol = answer(f"cost-{gpu}")
        assert value == pytest.approx(dollars / 1e6, rel=1e-12) and tol == 0.02


def test_offload_by_hand():
    params, ram, nvme = 70e9, 512e9, 2e12
    # Ren et al. 2021, section 4.1: the bf16 gradients, the fp32 master and the two fp32
    # moments leave the GPUs; only the bf16 weights stay
    moved = (2 + 4 + 4 + 4) * params  # 980 GB
    assert answer("offload-bytes") == (moved / GB, 0.02)
    assert quantity("off_bytes_per_param") == 14
    # one server's RAM is too small, so two servers: 16 GPUs, tp = 2 so that each GPU's
    # replicated bf16 weights, 2 x 70e9 / 2 = 70 GB, fit in 80 GB
    assert moved > ram and moved / 2 <= ram
    assert answer("offload-cpu-gpus") == (16, 0)
    # ZeRO-Infinity as modelled: master and moments (12 bytes) to NVMe, which one server holds;
    # ZeRO-3 leaves each of its 8 GPUs (2 + 2) x 70e9 / 8 = 35 GB of bf16 weights and grads
    assert 12 * params <= nvme and 4 * params / 8 <= get_gpu("h100-sxm").memory_bytes
    assert answer("offload-nvme-gpus") == (8, 0)
    # GPUs rented one by one: without offload 16 x 70e9 / 80e9 = 14; with CPU offload the
    # first server's 8 GPUs bring 8 / n of the 980 GB: n = 14 gives 560 GB > 512 GB, n = 16
    # (the next with tp = 2) gives 490 GB, so offload to the CPU needs more GPUs, not fewer
    assert quantity("off_none_loose") == 14 and quantity("off_cpu_loose") == 16
    assert 8 * moved / 14 > ram and 8 * moved / 16 <= ram


def test_tolerances_are_as_stated():
    """Every answer that is not a count is accepted within the Catalan chapter's 2 %; a count
    must be exact; the page says so next to each answer field."""
    for exercise in lib.exercises():
        for part in exercise.parts:
            if isinstance(part, lib.NumericPart):
                assert part.rel_tol == (0 if part.unit == "" else 0.02), part.id
    shown = {"en": "within 2% of", "ca": "marge del 2\u00a0%", "fa": "تا ۲٪ اختلاف"}
    for locale in LOCALES:
        page = re.sub(r"<script\b.*?</script>", "", fragment_of(locale),
                      flags=re.S)
        numeric = [p for e in lib.exercises() for p in e.parts
                   if isinstance(p, lib.NumericPart)]
        assert page.count(shown[locale]) == sum(p.rel_tol > 0 for p in numeric)
        assert page.count('class="dl-ex-tolerance"') == len(numeric)


def test_a_count_is_exact_and_a_quantity_is_not():
    with pytest.raises(ValueError, match="count"):
        lib.NumericPart("x", 3, "", 0.02)
    with pytest.raises(ValueError, match="rel_tol"):
        lib.NumericPart("x", 3.0, "GB", 1.5)


@pytest.mark.parametrize("locale", LOCALES)
def test_json_is_small_and_complete(locale):
    fragment = fragment_of(locale)
    data = embedded(locale)
    assert len(DATA.findall(fragment)[0].encode()) < 20_000
    numeric = {p.id for e in lib.exercises() for p in e.parts
               if isinstance(p, lib.NumericPart)}
    assert set(data["num"]) == numeric
    assert data["parts"] == {e.id: [p.id for p in e.parts] for e in lib.exercises()}
    assert len(data["w"]["count"]) == len(lib.exercises()) + 1


def test_the_count_reads_in_each_language():
    assert embedded("en")["w"]["count"][3] == "3 of 10 solved"
    assert embedded("ca")["w"]["count"][3] == "3 de 10 resolts"
    assert embedded("fa")["w"]["count"][3] == "۳ از ۱۰ تمرین حل شده"


def _shape(locale: str) -> list:
    keep = {"id", "for", "data-widget", "data-exercise", "data-part", "data-kind", "data-out",
            "data-form", "data-input", "data-answer", "data-done", "data-goal", "data-badge",
            "data-feedback", "href"}
    return [(tag, {k: v for k, v in attrs.items() if k in keep})
            for tag, attrs in tags(fragment_of(locale))
            if tag not in {"p", "em", "strong", "ul", "li", "code", "br"}]


def test_the_three_languages_show_the_same_exercises():
    english = embedded("en")
    for locale in ("ca", "fa"):
        data = embedded(locale)
        assert data["ids"] == english["ids"] and data["parts"] == english["parts"]
        assert {k: (v["v"], v["t"]) for k, v in data["num"].items()} == {
            k: (v["v"], v["t"]) for k, v in english["num"].items()}
        assert _shape(locale) == _shape("en"), locale


def _every_exercise():
    return lib.exercises() + tuple(e for c in CHAPTERS for e in chapter_exercises(c))


def test_texts_have_the_same_keys_and_figures_in_every_language():
    for exercise in _every_exercise():
        keys = {"title", "question"} | {p.id for p in exercise.parts} | {
            f"{p.id}.answer" for p in exercise.parts}
        for locale in LOCALES:
            assert set(TEXTS[locale][exercise.id]) == keys, (locale, exercise.id)
        for key in keys:
            figures = {locale: sorted(placeholder_names(TEXTS[locale][exercise.id][key]))
                       for locale in LOCALES}
            assert figures["ca"] == figures["en"] == figures["fa"], (exercise.id, key)
            links = {locale: re.findall(r"\]\(([^)]+)\)", TEXTS[locale][exercise.id][key])
                     for locale in LOCALES}
            assert links["ca"] == links["en"] == links["fa"], (exercise.id, key)
    assert set(TEXTS["en"]) == set(TEXTS["ca"]) == set(TEXTS["fa"]) == {
        e.id for e in _every_exercise()}


@pytest.mark.parametrize("locale", LOCALES)
def test_texts_type_no_number(locale):
    for exercise_id, texts in TEXTS[locale].items():
        for key, text in texts.items():
            assert not typed_numbers(text), (locale, exercise_id, key, typed_numbers(text))


def test_the_prose_lint_would_catch_a_typed_answer():
    assert typed_numbers("The states take 208 GB.")
    assert typed_numbers("حالت‌ها ۲۰۸ گیگابایت می‌گیرند.")


def test_persian_exercises_write_persian_digits():
    fragment = fragment_of("fa")
    visible = re.sub(r"<(script|code)\b.*?</\1>|<[^>]+>", " ", fragment, flags=re.S)
    names = re.compile("|".join(ALLOWED_NAMES))
    assert not re.findall(r"[0-9]+", names.sub(" ", visible))
    assert re.search("[۰-۹]", visible)
    for entry in embedded("fa")["num"].values():
        assert not re.search(r"[0-9]", names.sub(" ", entry["ok"] + entry["no"]))


@pytest.mark.parametrize("locale", LOCALES)
def test_answers_are_only_inside_what_the_reader_opens(locale):
    """A quantity's answer is in its model answer (a closed <details>) and in the message of
    a right answer (the script's data), never in the question or the prompts."""
    fragment = fragment_of(locale)
    assert "<details open" not in fragment
    outside = re.sub(r"<details\b.*?</details>|<script\b.*?</script>", " ", fragment,
                     flags=re.S)
    for exercise in lib.exercises():
        for part in exercise.parts:
            if isinstance(part, lib.NumericPart) and part.unit:
                shown = part.as_figure().render(locale)
                assert shown not in outside, (part.id, shown)
                assert shown in fragment


@pytest.mark.parametrize("locale", LOCALES)
def test_the_pages_prose_gives_no_answer_away(locale):
    """The page's own text (its introduction, its example of how to write a number) shows
    none of the answers of the quantities asked."""
    from distlesson.site.figures import figure_registry
    from distlesson.site.placeholders import resolve_placeholders

    markdown = (ROOT / "docs" / f"exercises.{locale}.md").read_text(encoding="utf-8")
    prose = resolve_placeholders(markdown, locale, figure_registry())
    for exercise in lib.exercises():
        for part in exercise.parts:
            if isinstance(part, lib.NumericPart) and part.unit:
                shown = part.as_figure().render(locale)
                number = shown.split("\u00a0")[0].rstrip("%٪")
                assert number not in prose, (part.id, number)


def test_links_lead_to_pages_of_the_site_and_the_goal_to_its_widgets():
    pages = set(nav_pages())
    for locale in LOCALES:
        hrefs = [attrs["href"] for tag, attrs in tags(fragment_of(locale))
                 if tag == "a"]
        assert hrefs
        for href in hrefs:
            match = re.fullmatch(r"\.\./([a-z0-9-]+)/(#[a-z0-9-]+)?", href)
            assert match and match[1] in pages, href
        assert "../pipeline/#dl-pipeline" in hrefs
        assert "../parallelism/#dl-dimensions" in hrefs
    goal = lib.get_exercise("bubble-goal").parts
    assert [type(p) for p in goal] == [lib.GoalPart] and goal[0].id == "bubble-goal"


def test_the_goal_target_is_the_pipeline_pages():
    from distlesson.pages import pipeline

    assert lib.BUBBLE_TARGET == pipeline.TARGET
    # with the fewest stages the goal allows, the pipeline page's answer is below the target
    assert bubble_fraction("1f1b", 2, 10) < lib.BUBBLE_TARGET <= bubble_fraction("1f1b", 2, 9)


def test_figures_resolve_in_every_locale():
    for figure in exercises_widget.figures():
        assert figure.name.startswith("ex.")
        for locale in LOCALES:
            assert figure.render(locale)


@pytest.mark.parametrize("locale", LOCALES)
def test_low_mfu_answer_ranks_the_losses_as_the_mfu_chapter_does(locale):
    # the model answer lists the losses in the order of the MFU chapter's own ranking table
    # (largest first, recomputation included), read back from that table's rows
    from distlesson.pages import mfu

    figures = {figure.name: figure for figure in exercises_widget.figures()}
    shown = exercises_widget.MFU_RANKS_SHOWN
    rows = mfu.exercise_table(locale).splitlines()[2:2 + shown]
    for rank, row in enumerate(rows, 1):
        now = row.split("|")[2]
        assert figures[f"ex.mfu_loss_{rank}"].render(locale) in now
        assert figures[f"ex.mfu_loss_{rank}_share"].render(locale) in now
    shares = [figures[f"ex.mfu_loss_{rank}_share"].value for rank in range(1, shown + 1)]
    assert shares == sorted(shares, reverse=True)
    answer = TEXTS[locale]["mfu-low"]["mfu-low.answer"]
    for rank in range(1, shown + 1):
        assert f"{{{{ ex.mfu_loss_{rank} }}}}" in answer
    # every loss of the decomposition gets its how-to, recomputation among them
    assert answer.count("\n- **") == shown + 5


def test_expert_exercises_by_hand():
    active, a2a, weights = (p.value for e in chapter_exercises("experts") for p in e.parts)
    # Mixtral: 46,702,792,704 parameters; its 32 layers skip 6 experts of 3 x 4096 x 14336
    assert active == Fraction(46_702_792_704 - 32 * 6 * 176_160_768, 46_702_792_704)
    # 4096 tokens x top-2 x hidden 4096, 7/8 to other GPUs, bf16 out and back (2 + 2 bytes)
    assert a2a == 4096 * 2 * 4096 * 7 // 8 * 4 == 117_440_512
    # DeepSeek-V3: 58 MoE layers x 256/64 experts x 3 x 7168 x 2048 parameters x 2 bytes
    assert weights == 58 * 4 * 3 * 7168 * 2048 * 2
