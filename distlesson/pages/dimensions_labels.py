"""The words of the five dimensions widget, per locale, and its refusals in each language.

English shows the library's own refusal (its ``ValueError``); Catalan and Persian say the
same in a sentence, built from the names and numbers of that message. A refusal of a kind
not translated here stops the build, so that a new check of the library gets its words.
"""

from __future__ import annotations

import re

from distlesson.render.numbers import format_number

__all__ = ["WORDS", "refusal_text"]

WORDS = {
    "widget": {"en": "The five dimensions: Llama 3 70B", "ca": "Les cinc dimensions: Llama 3 70B",
               "fa": "پنج بُعد: Llama 3 70B"},
    "dp": {"en": "Data parallel (dp)", "ca": "Paral·lelisme de dades (dp)",
           "fa": "موازی‌سازی داده (dp)"},
    "tp": {"en": "Tensor parallel (tp)", "ca": "Paral·lelisme de tensors (tp)",
           "fa": "موازی‌سازی تنسوری (tp)"},
    "pp": {"en": "Pipeline stages (pp)", "ca": "Etapes de pipeline (pp)",
           "fa": "مرحله‌های خط لوله (pp)"},
    "cp": {"en": "Context parallel (cp)", "ca": "Paral·lelisme de context (cp)",
           "fa": "موازی‌سازی زمینه (cp)"},
    "zero": {"en": "ZeRO stage", "ca": "Etapa de ZeRO", "fa": "مرحلهٔ ZeRO"},
    "microbatches": {"en": "Micro-batches per replica (m)", "ca": "Microlots per rèplica (m)",
                     "fa": "ریزدسته‌ها در هر نسخه (m)"},
    "step": {"en": "Every setting runs the same step: {batch} sequences of {seq} tokens. "
                   "dp × m × (sequences per micro-batch) = {batch}, so more micro-batches "
                   "means smaller ones; a setting that does not divide the step is refused.",
             "ca": "Totes les configuracions fan el mateix pas: {batch} seqüències de {seq} "
                   "tokens. dp × m × (seqüències per microlot) = {batch}: més microlots vol "
                   "dir microlots més petits, i la biblioteca rebutja les configuracions que no "
                   "divideixen el pas.",
             "fa": "همهٔ پیکربندی‌ها یک گام یکسان را اجرا می‌کنند: {batch} دنباله با {seq} توکن. "
                   "حاصل‌ضرب dp و m و تعداد دنباله‌های هر ریزدسته همیشه {batch} است؛ پس "
                   "ریزدستهٔ بیشتر یعنی ریزدستهٔ کوچک‌تر، و پیکربندی‌ای که گام بر آن "
                   "بخش‌پذیر نباشد پذیرفته نمی‌شود."},
    "gpus": {"en": "GPUs (dp × tp × pp × cp)", "ca": "GPU (dp × tp × pp × cp)",
             "fa": "تعداد GPU (dp × tp × pp × cp)"},
    "microbatch": {"en": "micro-batch", "ca": "microlot", "fa": "ریزدسته"},
    "sequences": {"en": "Sequences per micro-batch", "ca": "Seqüències per microlot",
                  "fa": "دنباله‌های هر ریزدسته"},
    "sent": {"en": "Sent per step and GPU, {dim}", "ca": "Enviat per pas i GPU, {dim}",
             "fa": "ارسالی هر GPU در هر گام، {dim}"},
    "bubble": {"en": "Pipeline bubble (1F1B)", "ca": "Bombolla del pipeline (1F1B)",
               "fa": "حباب خط لوله (1F1B)"},
    "goal": {"en": "Goal: at least {p} stages, a bubble below {target}",
             "ca": "Objectiu: almenys {p} etapes, una bombolla per sota del {target}",
             "fa": "هدف: دست‌کم {p} مرحله و حبابی کمتر از {target}"},
    "bar": {"en": "Memory per GPU, part by part from left to right, with a mark at {gb}",
            "ca": "Memòria per GPU, part per part d'esquerra a dreta, amb una marca a {gb}",
            "fa": "حافظهٔ هر GPU، بخش به بخش از چپ به راست، با نشانه‌ای در {gb}"},
    "timeline": {"en": "The step's pipeline under 1F1B: one row per stage, time from left to "
                       "right, hatched where a stage waits (the bubble)",
                 "ca": "El pipeline del pas amb 1F1B: una fila per etapa, el temps d'esquerra "
                       "a dreta, ratllat on una etapa espera (la bombolla)",
                 "fa": "خط لولهٔ گام با 1F1B: هر سطر یک مرحله، زمان از چپ به راست، و "
                       "هاشورخورده جایی که مرحله منتظر می‌ماند (حباب)"},
    "refused": {"ca": "{text}: la biblioteca no accepta aquesta configuració.",
                "fa": "{text}؛ کتابخانه این پیکربندی را نمی‌پذیرد."},
    "divide": {"ca": "{dim} = {v} no divideix {what} ({n})",
               "fa": "{what} ({n}) بر {dim} = {v} بخش‌پذیر نیست"},
    "batch": {"ca": "{d} rèpliques × {m} microlots = {p}, que no divideix les {g} seqüències "
                    "del pas",
              "fa": ("{g} دنبالهٔ این گام را نمی‌توان میان {d} نسخه و {m} ریزدسته (روی هم {p} "
                     "سهم) تقسیم کرد")},
    "exceed": {"ca": "{dim} = {v} supera {what} ({n})",
               "fa": "{dim} = {v} از {what} ({n}) بیشتر است"},
}

# The library's names in its refusals, as the sentences above say them.
_WHAT = {
    "num_heads": {"ca": "el nombre de caps d'atenció", "fa": "تعداد سرهای توجه"},
    "num_kv_heads": {"ca": "el nombre de caps de claus i valors",
                     "fa": "تعداد سرهای کلید و مقدار"},
    "ffn_hidden_size": {"ca": "l'amplada de l'MLP", "fa": "پهنای MLP"},
    "seq_len": {"ca": "la longitud de seqüència", "fa": "طول دنباله"},
    "num_layers": {"ca": "el nombre de capes", "fa": "تعداد لایه‌ها"},
}
_DIVIDE = re.compile(r"^(\w+)=(\d+) must divide (\w+)=(\d+)\b")
_EXCEED = re.compile(r"^(\w+)=(\d+) must not exceed (\w+)=(\d+)\b")
_BATCH = re.compile(r"^dp=(\d+) x num_microbatches=(\d+) = (\d+) must divide "
                    r"global_batch=(\d+)$")


def refusal_text(error: ValueError, locale: str) -> str:
    """Why the library refused a setting: its own words in English, a sentence elsewhere."""
    message = str(error)
    if locale == "en":
        return message

    def n(text: str) -> str:
        return format_number(int(text), locale)

    if found := _BATCH.match(message):
        d, m, p, g = found.groups()
        text = WORDS["batch"][locale].format(d=n(d), m=n(m), p=n(p), g=n(g))
    elif (found := _DIVIDE.match(message) or _EXCEED.match(message)) and (
            found.group(3) in _WHAT):
        dim, v, what, count = found.groups()
        kind = "divide" if found.re is _DIVIDE else "exceed"
        text = WORDS[kind][locale].format(dim=dim, v=n(v), what=_WHAT[what][locale],
                                          n=n(count))
    else:
        raise ValueError(f"no {locale} words for the library's refusal {message!r}: "
                         "add them to distlesson/pages/dimensions_labels.py")
    return WORDS["refused"][locale].format(text=text)
