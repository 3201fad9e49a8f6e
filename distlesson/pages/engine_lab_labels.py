"""The words of the lab's tables, per locale (the numbers come from :mod:`engine_lab`).

``CHECKS`` names each check of :mod:`distlesson.engine` by its key; ``{k}`` stands for the
number of accumulation micro-steps, formatted for the locale. Code names stay in backticks.
"""

__all__ = ["CHECKS", "GROUPS", "LABELS"]

LABELS = {
    "check": {"en": "Check", "ca": "Comprovació", "fa": "بررسی"},
    "torch": {"en": "torch measured", "ca": "Mesurat a torch", "fa": "اندازه‌گیری در torch"},
    "library": {"en": "distlesson computed", "ca": "Calculat per distlesson",
                "fa": "محاسبهٔ distlesson"},
    "agreement": {"en": "Agreement", "ca": "Acord", "fa": "تطابق"},
    "exact": {"en": "exact", "ca": "exacte", "fa": "دقیقاً برابر"},
    "within": {"en": "within {tol}", "ca": "dins de {tol}", "fa": "با اختلاف کمتر از {tol}"},
    "predicted": {"en": "differs, as predicted", "ca": "difereix, com es preveu",
                  "fa": "متفاوت، همان‌گونه که پیش‌بینی شده"},
    "fails": {"en": "FAILS", "ca": "FALLA", "fa": "ناموفق"},
    "per_stage": {"en": "per stage, below", "ca": "per etapa, a sota",
                  "fa": "به تفکیک مرحله، در جدول پایین"},
    "schedule": {"en": "Schedule", "ca": "Planificació", "fa": "زمان‌بندی"},
    "stage": {"en": "Stage", "ca": "Etapa", "fa": "مرحله"},
    "torch_order": {"en": "Order in torch", "ca": "Ordre a torch", "fa": "ترتیب در torch"},
    "library_order": {"en": "Order in distlesson", "ca": "Ordre a distlesson",
                      "fa": "ترتیب در distlesson"},
    "same": {"en": "Same?", "ca": "Igual?", "fa": "یکسان؟"},
    "yes": {"en": "yes", "ca": "sí", "fa": "بله"},
    "no": {"en": "no", "ca": "no", "fa": "خیر"},
    "item": {"en": "Item", "ca": "Element", "fa": "مورد"},
    "value": {"en": "Value", "ca": "Valor", "fa": "مقدار"},
    "torch_version": {"en": "torch version", "ca": "Versió de torch", "fa": "نسخهٔ torch"},
    "backend": {"en": "Backend", "ca": "Backend", "fa": "پشتیبان ارتباطی (backend)"},
    "device": {"en": "Device", "ca": "Dispositiu", "fa": "دستگاه"},
    "world_size": {"en": "Ranks (processes)", "ca": "Rangs (processos)",
                   "fa": "رنک‌ها (فرایندها)"},
    "cpus": {"en": "CPUs of the machine", "ca": "CPU de la màquina", "fa": "تعداد CPUهای دستگاه"},
    "as_expected": {"en": "Checks as expected", "ca": "Comprovacions com s'esperava",
                    "fa": "بررسی‌های مطابق انتظار"},
    "of": {"en": "{a} of {b}", "ca": "{a} de {b}", "fa": "{a} از {b}"},
    "wall": {"en": "Wall time of the run (start to results)",
             "ca": "Temps real de l'execució (de l'inici als resultats)",
             "fa": "زمان واقعی اجرا (از شروع تا نتایج)"},
    "group_time": {"en": "Time in the {group} checks (rank 0)",
                   "ca": "Temps a les comprovacions {group} (rang 0)",
                   "fa": "زمان بررسی‌های {group} (رنکٔ ۰)"},
}

GROUPS = {
    "ddp": {"en": "DDP", "ca": "DDP", "fa": "DDP"},
    "zero1": {"en": "ZeRO-1", "ca": "ZeRO-1", "fa": "ZeRO-1"},
    "fsdp": {"en": "FSDP", "ca": "FSDP", "fa": "FSDP"},
    "tp": {"en": "tensor-parallel", "ca": "de paral·lelisme de tensors",
           "fa": "موازی‌سازی تنسوری"},
    "pipeline": {"en": "pipeline", "ca": "de pipeline", "fa": "خط لوله"},
}

CHECKS = {
    "ddp.grad": {
        "en": "DDP: averaged gradient against the full-batch gradient (largest difference)",
        "ca": "DDP: gradient mitjanat davant del gradient del lot sencer (diferència màxima)",
        "fa": "DDP: گرادیان میانگین‌گرفته در برابر گرادیان کل دسته (بیشترین اختلاف)"},
    "ddp.payload": {
        "en": "DDP: bytes handed to all-reduce per step (hook) against the gradient bytes",
        "ca": "DDP: bytes passats a l'all-reduce per pas (hook) davant dels bytes dels "
              "gradients",
        "fa": "DDP: بایت‌های سپرده به all-reduce در هر گام (hook) در برابر بایت‌های گرادیان"},
    "ddp.ring_sent": {
        "en": "DDP: bytes each rank sends in a ring all-reduce of those buckets",
        "ca": "DDP: bytes que envia cada rang en un all-reduce en anell d'aquests paquets",
        "fa": "DDP: بایت‌هایی که هر رنک در all-reduce حلقوی همین بسته‌ها می‌فرستد"},
    "ddp.accum_grad": {
        "en": "DDP: gradient after {k} micro-steps with `no_sync` (largest difference)",
        "ca": "DDP: gradient després de {k} micropassos amb `no_sync` (diferència màxima)",
        "fa": "DDP: گرادیان پس از {k} ریزگام با `no_sync` (بیشترین اختلاف)"},
    "ddp.accum_allreduces": {
        "en": "DDP: all-reduces per step, {k} micro-steps with `no_sync`",
        "ca": "DDP: all-reduce per pas, {k} micropassos amb `no_sync`",
        "fa": "DDP: تعداد all-reduce در هر گام، {k} ریزگام با `no_sync`"},
    "ddp.naive_allreduces": {
        "en": "DDP: all-reduces per step, {k} micro-steps without `no_sync`",
        "ca": "DDP: all-reduce per pas, {k} micropassos sense `no_sync`",
        "fa": "DDP: تعداد all-reduce در هر گام، {k} ریزگام بدون `no_sync`"},
    "ddp.accum_saving": {
        "en": "DDP: bytes without `no_sync` over bytes with it",
        "ca": "DDP: bytes sense `no_sync` dividits pels bytes amb",
        "fa": "DDP: نسبت بایت‌ها بدون `no_sync` به بایت‌ها با آن"},
    "zero1.weights": {
        "en": "ZeRO-1: weights per rank (whole on every rank)",
        "ca": "ZeRO-1: pesos per rang (sencers a cada rang)",
        "fa": "ZeRO-1: وزن‌ها در هر رنک (کامل در همهٔ رنک‌ها)"},
    "zero1.total": {
        "en": "ZeRO-1: AdamW moments, all ranks together",
        "ca": "ZeRO-1: moments d'AdamW, tots els rangs junts",
        "fa": "ZeRO-1: گشتاورهای AdamW، همهٔ رنک‌ها با هم"},
    "zero1.per_rank": {
        "en": "ZeRO-1: AdamW moments per rank against the greedy whole-tensor partition",
        "ca": "ZeRO-1: moments d'AdamW per rang davant de la partició voraç per tensors "
              "sencers",
        "fa": "ZeRO-1: گشتاورهای AdamW در هر رنک در برابر افراز حریصانهٔ تنسورهای کامل"},
    "zero1.even_split": {
        "en": "ZeRO-1: AdamW moments per rank against the memory model's even split",
        "ca": "ZeRO-1: moments d'AdamW per rang davant del repartiment igual del model de "
              "memòria",
        "fa": "ZeRO-1: گشتاورهای AdamW در هر رنک در برابر تقسیم مساوی مدل حافظه"},
    "zero1.step_counters": {
        "en": "ZeRO-1: AdamW step counters per rank (outside the memory model)",
        "ca": "ZeRO-1: comptadors de passos d'AdamW per rang (fora del model de memòria)",
        "fa": "ZeRO-1: شمارنده‌های گام AdamW در هر رنک (بیرون از مدل حافظه)"},
    "zero1.update": {
        "en": "ZeRO-1: weights after one AdamW step against one device's (largest difference)",
        "ca": "ZeRO-1: pesos després d'un pas d'AdamW davant dels d'un sol dispositiu "
              "(diferència màxima)",
        "fa": "ZeRO-1: وزن‌ها پس از یک گام AdamW در برابر یک دستگاه تنها (بیشترین اختلاف)"},
    "fsdp.even.weights": {
        "en": "FSDP, even: weights per rank against total / n",
        "ca": "FSDP, divisible: pesos per rang davant de total / n",
        "fa": "FSDP، بخش‌پذیر: وزن‌ها در هر رنک در برابر مجموع / n"},
    "fsdp.even.grads": {
        "en": "FSDP, even: gradients per rank against total / n",
        "ca": "FSDP, divisible: gradients per rang davant de total / n",
        "fa": "FSDP، بخش‌پذیر: گرادیان‌ها در هر رنک در برابر مجموع / n"},
    "fsdp.even.moments": {
        "en": "FSDP, even: AdamW moments per rank against total / n",
        "ca": "FSDP, divisible: moments d'AdamW per rang davant de total / n",
        "fa": "FSDP، بخش‌پذیر: گشتاورهای AdamW در هر رنک در برابر مجموع / n"},
    "fsdp.even.update": {
        "en": "FSDP, even: weights after one AdamW step against one device's",
        "ca": "FSDP, divisible: pesos després d'un pas d'AdamW davant dels d'un sol dispositiu",
        "fa": "FSDP، بخش‌پذیر: وزن‌ها پس از یک گام AdamW در برابر یک دستگاه تنها"},
    "fsdp.uneven.weights": {
        "en": "FSDP, uneven: weights per rank against the `torch.chunk` pieces",
        "ca": "FSDP, no divisible: pesos per rang davant dels trossos de `torch.chunk`",
        "fa": "FSDP، نابخش‌پذیر: وزن‌ها در هر رنک در برابر تکه‌های `torch.chunk`"},
    "fsdp.uneven.moments": {
        "en": "FSDP, uneven: AdamW moments per rank against the same pieces",
        "ca": "FSDP, no divisible: moments d'AdamW per rang davant dels mateixos trossos",
        "fa": "FSDP، نابخش‌پذیر: گشتاورهای AdamW در هر رنک در برابر همان تکه‌ها"},
    "fsdp.uneven.total": {
        "en": "FSDP, uneven: weights, all ranks together",
        "ca": "FSDP, no divisible: pesos, tots els rangs junts",
        "fa": "FSDP، نابخش‌پذیر: وزن‌ها، همهٔ رنک‌ها با هم"},
    "fsdp.uneven.even_split": {
        "en": "FSDP, uneven: weights per rank against total / n",
        "ca": "FSDP, no divisible: pesos per rang davant de total / n",
        "fa": "FSDP، نابخش‌پذیر: وزن‌ها در هر رنک در برابر مجموع / n"},
    "fsdp.uneven.padded": {
        "en": "FSDP, uneven: storage allocated per rank, padding included",
        "ca": "FSDP, no divisible: memòria reservada per rang, farciment inclòs",
        "fa": "FSDP، نابخش‌پذیر: حافظهٔ رزروشده در هر رنک، با لایه‌گذاری"},
    "tp.output": {
        "en": "TP: output against the library's Megatron MLP (largest difference)",
        "ca": "TP: sortida davant del MLP de Megatron de la biblioteca (diferència màxima)",
        "fa": "TP: خروجی در برابر MLP مگاترونِ کتابخانه (بیشترین اختلاف)"},
    "tp.grad_input": {
        "en": "TP: gradient of the input (largest difference)",
        "ca": "TP: gradient de l'entrada (diferència màxima)",
        "fa": "TP: گرادیان ورودی (بیشترین اختلاف)"},
    "tp.forward_allreduces": {
        "en": "TP: collectives in the forward",
        "ca": "TP: col·lectives del forward",
        "fa": "TP: ارتباط‌های جمعی در گذر رو به جلو"},
    "tp.backward_allreduces": {
        "en": "TP: collectives in the backward",
        "ca": "TP: col·lectives del backward",
        "fa": "TP: ارتباط‌های جمعی در گذر رو به عقب"},
    "tp.naive_backward": {
        "en": "TP without `PrepareModuleInput`: collectives in the backward",
        "ca": "TP sense `PrepareModuleInput`: col·lectives del backward",
        "fa": "TP بدون `PrepareModuleInput`: ارتباط‌های جمعی در گذر رو به عقب"},
    "pipe.1f1b.order": {
        "en": "1F1B: order of forwards and backwards per stage",
        "ca": "1F1B: ordre dels forwards i backwards per etapa",
        "fa": "1F1B: ترتیب گذرهای رو به جلو و رو به عقب در هر مرحله"},
    "pipe.1f1b.warmup": {
        "en": "1F1B: forwards before the first backward, per stage",
        "ca": "1F1B: forwards abans del primer backward, per etapa",
        "fa": "1F1B: گذرهای رو به جلو پیش از نخستین گذر رو به عقب، در هر مرحله"},
    "pipe.gpipe.order": {
        "en": "GPipe: order of forwards and backwards per stage",
        "ca": "GPipe: ordre dels forwards i backwards per etapa",
        "fa": "GPipe: ترتیب گذرهای رو به جلو و رو به عقب در هر مرحله"},
    "pipe.gpipe.forwards": {
        "en": "GPipe: order of the forwards per stage",
        "ca": "GPipe: ordre dels forwards per etapa",
        "fa": "GPipe: ترتیب گذرهای رو به جلو در هر مرحله"},
    "pipe.gpipe.backwards": {
        "en": "GPipe: order of the backwards per stage",
        "ca": "GPipe: ordre dels backwards per etapa",
        "fa": "GPipe: ترتیب گذرهای رو به عقب در هر مرحله"},
    "pipe.gpipe.makespan": {
        "en": "GPipe: step time of the recorded order in the library's simulator",
        "ca": "GPipe: temps del pas de l'ordre enregistrat al simulador de la biblioteca",
        "fa": "GPipe: زمان گام ترتیبِ ثبت‌شده در شبیه‌ساز کتابخانه"},
}
