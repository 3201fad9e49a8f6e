"""The words of the hardware chapter's tables and plot, per locale."""

__all__ = ["LABELS", "POINT_NAMES", "SCOPES"]

LABELS = {
    "gpu": {"en": "GPU", "ca": "GPU", "fa": "GPU"},
    "memory": {"en": "Memory", "ca": "Memòria", "fa": "حافظه"},
    "hbm": {"en": "Memory bandwidth", "ca": "Amplada de banda de memòria",
            "fa": "پهنای باند حافظه"},
    "bf16": {"en": "bf16, dense", "ca": "bf16, dens", "fa": "bf16، چگال"},
    "fp8": {"en": "fp8, dense", "ca": "fp8, dens", "fa": "fp8، چگال"},
    "ridge": {"en": "Ridge point (FLOP/byte)", "ca": "Colze (FLOP/byte)",
              "fa": "نقطهٔ شکست (FLOP بر بایت)"},
    "node_link": {"en": "Link inside the server", "ca": "Enllaç dins del node",
                  "fa": "پیوند درون گره"},
    "link_bw": {"en": "Link bandwidth (one way)", "ca": "Amplada de banda de l'enllaç (un sentit)",
                "fa": "پهنای باند پیوند (یک‌سویه)"},
    "no_fp8": {"en": "none", "ca": "no en té", "fa": "ندارد"},
    "point": {"en": "Operation", "ca": "Operació", "fa": "عملیات"},
    "matmul": {"en": "Matrix product (m × k × n)", "ca": "Producte de matrius (m × k × n)",
               "fa": "ضرب ماتریسی (m × k × n)"},
    "intensity": {"en": "Intensity (FLOP/byte)", "ca": "Intensitat (FLOP/byte)",
                  "fa": "شدت حسابی (FLOP بر بایت)"},
    "attainable": {"en": "Attainable", "ca": "Assolible", "fa": "توان دست‌یافتنی"},
    "share": {"en": "Share of the {gpu}'s peak", "ca": "Fracció del pic de {la_gpu}",
              "fa": "سهم از اوج {gpu}"},
    "bound": {"en": "Limited by", "ca": "Limitat per", "fa": "عامل محدودکننده"},
    "memory_bound": {"en": "memory bandwidth", "ca": "l'amplada de banda",
                     "fa": "پهنای باند حافظه"},
    "compute_bound": {"en": "compute", "ca": "el càlcul", "fa": "توان محاسباتی"},
    "link": {"en": "Link", "ca": "Enllaç", "fa": "پیوند"},
    "scope": {"en": "Where", "ca": "On", "fa": "محدوده"},
    "bandwidth": {"en": "Bandwidth (one way)", "ca": "Amplada de banda (un sentit)",
                  "fa": "پهنای باند (یک‌سویه)"},
    "move_time": {"en": "Time to move {size}", "ca": "Temps per moure {size}",
                  "fa": "زمان جابه‌جایی {size}"},
    "xlabel": {"en": "Arithmetic intensity (FLOP per byte)",
               "ca": "Intensitat aritmètica (FLOP per byte)",
               "fa": "شدت حسابی (FLOP بر بایت)"},
    "ylabel": {"en": "Attainable TFLOP/s", "ca": "TFLOP/s assolibles",
               "fa": "TFLOP بر ثانیهٔ دست‌یافتنی"},
    "title": {"en": "Rooflines of the catalogue's GPUs (bf16, dense)",
              "ca": "El sostre de les GPU del catàleg (bf16, dens)",
              "fa": "نمودار roofline برای GPUهای کاتالوگ (bf16، چگال)"},
    "corner": {"en": "ridge of the {gpu}: {x} FLOP/byte", "ca": "colze de {la_gpu}: {x} FLOP/byte",
               "fa": "نقطهٔ شکست {gpu}: {x} FLOP بر بایت"},
}

POINT_NAMES = {
    "decode": {"en": "Decode, batch {b}", "ca": "Descodificació (lot: {b})",
               "fa": "تولید توکن، دستهٔ {b}"},
    "ridge": {"en": "Decode at the ridge, batch {b}", "ca": "Descodificació al colze (lot: {b})",
              "fa": "تولید توکن در نقطهٔ شکست، دستهٔ {b}"},
    "training": {"en": "Training, {t} tokens", "ca": "Entrenament, {t} tokens",
                 "fa": "آموزش، {t} توکن"},
}

SCOPES = {
    "node": {"en": "inside a server", "ca": "dins del node", "fa": "درون یک گره"},
    "cluster": {"en": "between servers", "ca": "entre nodes", "fa": "میان گره‌ها"},
}
