"""The words the labs (docs/labs/*.py) print, per locale.

A lab's code cells are the same in every language but for its ``LOCALE`` line, so the words
of its tables come from here: :func:`label` looks a key up in the labs' own words, then in
the chapters' (:mod:`~distlesson.pages.parallelism_labels`, :mod:`~distlesson.pages.fit_labels`),
so that a lab and its chapter name a thing alike.
"""

from distlesson.pages.fit_labels import LABELS as _FIT
from distlesson.pages.fit_labels import OPTIMIZER_NAMES, PRESET_NAMES
from distlesson.pages.parallelism_labels import LABELS as _PARALLELISM
from distlesson.pages.parallelism_labels import SIM_LABELS as _SIM
from distlesson.render.numbers import check_locale

__all__ = ["LABELS", "OPTIMIZER_NAMES", "PRESET_NAMES", "label"]

LABELS = {
    # figure captions (distlesson.site.captions.NotebookFigures numbers them)
    "fig_recipes": {
        "en": "Bytes per parameter with AdamW under each precision recipe, as this lab's "
              "functions count them: weights, gradients, master copy and optimizer state.",
        "ca": "Bytes per paràmetre amb AdamW segons cada recepta de precisió, tal com els "
              "compten les funcions d'aquest laboratori: pesos, gradients, còpia mestra i "
              "estat de l'optimitzador.",
        "fa": "بایت به‌ازای هر پارامتر با AdamW در هر روش دقت، آن‌طور که تابع‌های همین "
              "آزمایشگاه می‌شمارند: وزن‌ها، گرادیان‌ها، نسخهٔ اصلی و حالت بهینه‌ساز."},
    "fig_gpipe": {
        "en": "GPipe on this lab's pipeline, simulated by the library: every forward, then "
              "every backward; the hatched slots are the bubble.",
        "ca": "GPipe en el pipeline d'aquest laboratori, simulat per la biblioteca: tots els "
              "forwards i després tots els backwards; les franges ratllades són la bombolla.",
        "fa": "GPipe روی خط لولهٔ همین آزمایشگاه، شبیه‌سازی‌شده با کتابخانه: همهٔ گذرهای رو به "
              "جلو و سپس همهٔ گذرهای رو به عقب؛ بازه‌های هاشورخورده حباب‌اند."},
    "fig_1f1b": {
        "en": "1F1B on the same pipeline: the same step and the same bubble, fewer "
              "activations in flight.",
        "ca": "1F1B en el mateix pipeline: el mateix pas i la mateixa bombolla, però menys "
              "activacions en curs.",
        "fa": "1F1B روی همان خط لوله: همان گام و همان حباب، اما فعال‌سازی‌هایی که "
              "هم‌زمان نگه داشته می‌شوند کمترند."},
    # memory
    "adam_share": {"en": "Share of AdamW's moments in fp32 training",
                   "ca": "Part dels moments d'AdamW en l'entrenament en fp32",
                   "fa": "سهم گشتاورهای AdamW در آموزش با fp32"},
    "same_as_library": {"en": "equal to the library's", "ca": "iguals als de la biblioteca",
                        "fa": "برابر با مقادیر کتابخانه"},
    # data parallelism
    "grad_buffer": {"en": "Gradient buffer", "ca": "Buffer de gradients",
                    "fa": "بافر گرادیان"},
    "examples_per_rank": {"en": "Examples per rank", "ca": "Exemples per rang",
                          "fa": "نمونه‌های هر رنک"},
    "combination": {"en": "Combination", "ca": "Combinació", "fa": "روش ترکیب"},
    "mean_of_means": {"en": "Mean of the ranks' means", "ca": "Mitjana de les mitjanes dels rangs",
                      "fa": "میانگینِ میانگین‌های رنک‌ها"},
    "weighted_sum": {"en": "Sum of b_r g_r, divided by B", "ca": "Suma de b_r g_r, dividida per B",
                     "fa": "مجموع b_r g_r، تقسیم بر B"},
    "max_abs_error": {"en": "Largest absolute error", "ca": "Error absolut màxim",
                      "fa": "بیشترین خطای مطلق"},
    "error_vs_full": {"en": "Largest error against the full batch",
                      "ca": "Error màxim respecte al lot sencer",
                      "fa": "بیشترین خطا نسبت به کل دسته"},
    "sent_first_rank": {"en": "Sent by the first rank", "ca": "Enviat pel primer rang",
                        "fa": "ارسالی رنک اول"},
    "sent_ratio": {"en": "Sent ÷ gradient", "ca": "Enviat ÷ gradient",
                   "fa": "نسبت ارسالی به گرادیان"},
    "replicas_agree": {"en": "Every replica holds the same gradient",
                       "ca": "Totes les rèpliques tenen el mateix gradient",
                       "fa": "همهٔ نسخه‌ها گرادیان یکسانی دارند"},
    "sent_rank_step": {"en": "Sent per rank and step", "ca": "Enviat per rang i pas",
                       "fa": "ارسالی هر رنک در هر گام"},
    "full_copy": {"en": "One full copy of the states, divided by the ranks",
                  "ca": "Una còpia completa dels estats, dividida pel nombre de rangs",
                  "fa": "یک نسخهٔ کامل از حالت‌ها، تقسیم بر تعداد رنک‌ها"},
    # tensor parallelism
    "check": {"en": "Check", "ca": "Comprovació", "fa": "بررسی"},
    "own_vs_library": {"en": "Your SwiGLU against the library's",
                       "ca": "El vostre MLP SwiGLU respecte al de la biblioteca",
                       "fa": "SwiGLU شما در مقایسه با نسخهٔ کتابخانه"},
    "column_concat": {"en": "Column split: slices concatenated",
                      "ca": "Divisió per columnes: trossos concatenats",
                      "fa": "تقسیم ستونی: الحاق برش‌ها"},
    "row_sum": {"en": "Then row split: partial outputs summed",
                "ca": "Després, divisió per files: sortides parcials sumades",
                "fa": "سپس تقسیم سطری: جمع خروجی‌های جزئی"},
    "activation_on_partials": {"en": "Activation applied to partial sums",
                               "ca": "Activació aplicada a sumes parcials",
                               "fa": "اعمال تابع فعال‌سازی روی مجموع‌های جزئی"},
    "library_ranks": {"en": "The library, every rank", "ca": "La biblioteca, cada rang",
                      "fa": "کتابخانه، همهٔ رنک‌ها"},
    "input_grad": {"en": "Backward: input gradient", "ca": "Backward: gradient de l'entrada",
                   "fa": "گذر رو به عقب: گرادیان ورودی"},
    "weight_grads": {"en": "Backward: weight gradients", "ca": "Backward: gradients dels pesos",
                     "fa": "گذر رو به عقب: گرادیان وزن‌ها"},
    "sent_gpu_layer": {"en": "Sent per GPU and layer", "ca": "Enviat per GPU i capa",
                       "fa": "ارسالی هر GPU در هر لایه"},
    "model": {"en": "Model", "ca": "Model", "fa": "مدل"},
    "tokens": {"en": "Tokens per micro-batch", "ca": "Tokens per microlot",
               "fa": "توکن‌های هر ریزدسته"},
    "comm_micro_batch": {"en": "Sent per GPU and micro-batch (one sequence)",
                         "ca": "Enviat per GPU i microlot d'una seqüència",
                         "fa": "ارسالی هر GPU در هر ریزدسته، با یک دنباله"},
    # pipeline
    "gpipe": {"en": "GPipe", "ca": "GPipe", "fa": "GPipe"},
    "1f1b": {"en": "1F1B", "ca": "1F1B", "fa": "1F1B"},
    "schedule": {"en": "Schedule", "ca": "Planificació", "fa": "زمان‌بندی"},
    "makespan": {"en": "Step time", "ca": "Temps del pas", "fa": "زمان گام"},
    "idle_per_stage": {"en": "Idle per stage", "ca": "Temps inactiu per etapa",
                       "fa": "زمان بیکاری هر مرحله"},
    "bubble_yours": {"en": "Bubble (your simulator)", "ca": "Bombolla (el vostre simulador)",
                     "fa": "حباب (شبیه‌ساز شما)"},
    "bubble_formula": {"en": "Bubble (closed form)", "ca": "Bombolla (fórmula tancada)",
                       "fa": "حباب (فرمول بسته)"},
    "over_ideal": {"en": "Bubble over ideal time", "ca": "Bombolla dividida pel temps ideal",
                   "fa": "حباب نسبت به زمان ایده‌آل"},
    "peak": {"en": "Peak activations per stage", "ca": "Pic d'activacions per etapa",
             "fa": "اوج فعال‌سازی‌ها در هر مرحله"},
    "microbatches": {"en": "Microbatches m", "ca": "Microlots m", "fa": "تعداد ریزدسته‌ها m"},
    "order_of": {"en": "Order of stage {s}", "ca": "Ordre de l'etapa {s}",
                 "fa": "ترتیب مرحلهٔ {s}"},
}


def label(key: str, locale: str) -> str:
    """The word for ``key`` in ``locale``: the labs' own, else a chapter's."""
    check_locale(locale)
    for table in (LABELS, _SIM, _PARALLELISM, _FIT):
        if key in table:
            return table[key][locale]
    raise KeyError(f"no label {key!r}; the labs' own keys: {', '.join(sorted(LABELS))}")
