"""The words of the lab's tables, per locale (the numbers come from :mod:`engine_lab`).

``CHECKS`` names each check of :mod:`distlesson.engine` by its key; ``{k}`` stands for the
number of accumulation micro-steps, formatted for the locale. ``NOTES`` says, under the
table, why a row agrees or differs and what its tolerance allows (``{tol}``, formatted for
the locale); ``NOTE_OF`` gives each check with a note its note. Code names stay in
backticks, and so does any name with a digit in it.
"""

__all__ = ["CHECKS", "GROUPS", "LABELS", "NOTES", "NOTE_OF"]

LABELS = {
    "check": {"en": "Check", "ca": "Comprovació", "fa": "بررسی"},
    "torch": {"en": "torch measured", "ca": "Mesurat amb torch", "fa": "اندازه‌گیری در torch"},
    "library": {"en": "distlesson computed", "ca": "Calculat per distlesson",
                "fa": "محاسبهٔ distlesson"},
    "agreement": {"en": "Agreement", "ca": "Coincidència", "fa": "تطابق"},
    "exact": {"en": "exact", "ca": "exacte", "fa": "دقیقاً برابر"},
    "within": {"en": "within {tol}", "ca": "dins de {tol}", "fa": "با اختلاف کمتر از {tol}"},
    "predicted": {"en": "differs, as predicted", "ca": "difereix, tal com es preveia",
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
    "backend": {"en": "Backend", "ca": "Backend", "fa": "بک‌اند"},
    "device": {"en": "Device", "ca": "Dispositiu", "fa": "دستگاه"},
    "world_size": {"en": "Ranks (processes)", "ca": "Rangs (processos)",
                   "fa": "رنک‌ها (پردازه‌ها)"},
    "cpus": {"en": "CPUs of the machine", "ca": "CPU de la màquina", "fa": "تعداد CPUهای ماشین"},
    "as_expected": {"en": "Checks as expected", "ca": "Comprovacions amb el resultat esperat",
                    "fa": "بررسی‌های مطابق انتظار"},
    "of": {"en": "{a} of {b}", "ca": "{a} de {b}", "fa": "{a} از {b}"},
    "wall": {"en": "Wall time of the run (start to results)",
             "ca": "Temps real de l'execució (de l'inici als resultats)",
             "fa": "زمان واقعی اجرا (از شروع تا نتایج)"},
    "notes": {"en": "Notes on the rows:", "ca": "Notes sobre les files:",
              "fa": "یادداشت‌هایی دربارهٔ سطرها:"},
    "none": {"en": "none", "ca": "cap", "fa": "هیچ‌کدام"},
    "group_time": {"en": "Time in the {group} checks (rank 0)",
                   "ca": "Temps de les comprovacions {group} (rang 0)",
                   "fa": "زمان بررسی‌های {group} (رنک ۰)"},
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
        "ca": "DDP: gradient mitjà davant del gradient del lot sencer (diferència màxima)",
        "fa": "DDP: گرادیان میانگین‌گرفته در برابر گرادیان کل دسته (بیشترین اختلاف)"},
    "ddp.payload": {
        "en": "DDP: bytes handed to all-reduce per step (hook) against the gradient bytes",
        "ca": "DDP: bytes passats a l'all-reduce per pas (hook) davant dels bytes dels "
              "gradients",
        "fa": "DDP: بایت‌هایی که در هر گام به all-reduce سپرده می‌شوند (به گزارش هوک) "
              "در برابر بایت‌های گرادیان"},
    "ddp.accum_grad": {
        "en": "DDP: gradient after {k} micro-steps with `no_sync` (largest difference)",
        "ca": "DDP: gradient després de {k} micropassos amb `no_sync` (diferència màxima)",
        "fa": "DDP: گرادیان پس از {k} ریزگام با `no_sync` (بیشترین اختلاف)"},
    "ddp.accum_allreduces": {
        "en": "DDP: all-reduces per step, {k} micro-steps with `no_sync`",
        "ca": "DDP: all-reduces per pas, {k} micropassos amb `no_sync`",
        "fa": "DDP: تعداد all-reduce در هر گام، {k} ریزگام با `no_sync`"},
    "ddp.naive_allreduces": {
        "en": "DDP: all-reduces per step, {k} micro-steps without `no_sync`",
        "ca": "DDP: all-reduces per pas, {k} micropassos sense `no_sync`",
        "fa": "DDP: تعداد all-reduce در هر گام، {k} ریزگام بدون `no_sync`"},
    "zero1.total": {
        "en": "ZeRO-1: AdamW moments, all ranks together",
        "ca": "ZeRO-1: moments d'AdamW, tots els rangs junts",
        "fa": "ZeRO-1: گشتاورهای AdamW، همهٔ رنک‌ها با هم"},
    "zero1.per_rank": {
        "en": "ZeRO-1: AdamW moments per rank against the greedy whole-tensor partition",
        "ca": "ZeRO-1: moments d'AdamW per rang davant de la partició voraç per tensors "
              "sencers",
        "fa": "ZeRO-1: گشتاورهای AdamW در هر رنک در برابر تقسیم‌بندی حریصانهٔ تنسورهای کامل"},
    "zero1.even_split": {
        "en": "ZeRO-1: AdamW moments per rank against the memory model's even split",
        "ca": "ZeRO-1: moments d'AdamW per rang davant del repartiment igual del model de "
              "memòria",
        "fa": "ZeRO-1: گشتاورهای AdamW در هر رنک در برابر تقسیم مساوی مدل حافظه"},
    "zero1.step_counters": {
        "en": "ZeRO-1: AdamW step counters per rank (outside the memory model)",
        "ca": "ZeRO-1: comptadors de passos d'AdamW per rang (fora del model de memòria)",
        "fa": "ZeRO-1: شمارنده‌های گام AdamW در هر رنک (بیرون از مدل حافظه)"},
    "zero1.moment": {
        "en": "ZeRO-1: first moment / (1 − β₁) after one step against the full-batch "
              "gradient (largest difference)",
        "ca": "ZeRO-1: primer moment / (1 − β₁) després d'un pas davant del gradient del "
              "lot sencer (diferència màxima)",
        "fa": "ZeRO-1: گشتاور اول تقسیم بر یک منهای β₁ پس از یک گام، در برابر گرادیان کل "
              "دسته (بیشترین اختلاف)"},
    "zero1.update": {
        "en": "ZeRO-1: weights after two AdamW steps on two batches against one device's "
              "(largest difference)",
        "ca": "ZeRO-1: pesos després de dos passos d'AdamW sobre dos lots davant dels d'un "
              "sol dispositiu (diferència màxima)",
        "fa": "ZeRO-1: وزن‌ها پس از دو گام AdamW روی دو دسته در برابر یک دستگاه تنها "
              "(بیشترین اختلاف)"},
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
    "fsdp.even.grad": {
        "en": "FSDP, even: reduce-scattered gradient, gathered whole, against the "
              "full-batch gradient (largest difference)",
        "ca": "FSDP, divisible: gradient del reduce-scatter, reunit sencer, davant del "
              "gradient del lot sencer (diferència màxima)",
        "fa": "FSDP، بخش‌پذیر: گرادیانِ reduce-scatter‌شده، کامل گردآوری‌شده، در برابر "
              "گرادیان کل دسته (بیشترین اختلاف)"},
    "fsdp.uneven.grad": {
        "en": "FSDP, uneven: reduce-scattered gradient, gathered whole, against the "
              "full-batch gradient (largest difference)",
        "ca": "FSDP, no divisible: gradient del reduce-scatter, reunit sencer, davant del "
              "gradient del lot sencer (diferència màxima)",
        "fa": "FSDP، نابخش‌پذیر: گرادیانِ reduce-scatter‌شده، کامل گردآوری‌شده، در برابر "
              "گرادیان کل دسته (بیشترین اختلاف)"},
    "fsdp.even.update": {
        "en": "FSDP, even: weights after two AdamW steps on two batches against one "
              "device's (largest difference)",
        "ca": "FSDP, divisible: pesos després de dos passos d'AdamW sobre dos lots davant "
              "dels d'un sol dispositiu (diferència màxima)",
        "fa": "FSDP، بخش‌پذیر: وزن‌ها پس از دو گام AdamW روی دو دسته در برابر یک دستگاه "
              "تنها (بیشترین اختلاف)"},
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
        "fa": "FSDP، نابخش‌پذیر: حافظهٔ رزروشده در هر رنک، با پدینگ"},
    "tp.output": {
        "en": "TP: output against the library's Megatron MLP (largest difference)",
        "ca": "TP: sortida davant de l'MLP de Megatron de la biblioteca (diferència màxima)",
        "fa": "TP: خروجی در برابر MLP کتابخانه به شیوهٔ Megatron-LM (بیشترین اختلاف)"},
    "tp.grad_input": {
        "en": "TP: gradient of the input (largest difference)",
        "ca": "TP: gradient de l'entrada (diferència màxima)",
        "fa": "TP: گرادیان ورودی (بیشترین اختلاف)"},
    "tp.forward_allreduces": {
        "en": "TP: collectives in the forward, by kind",
        "ca": "TP: col·lectives del forward, per tipus",
        "fa": "TP: عملیات جمعی در گذر رو به جلو، به تفکیک نوع"},
    "tp.backward_allreduces": {
        "en": "TP: collectives in the backward, by kind",
        "ca": "TP: col·lectives del backward, per tipus",
        "fa": "TP: عملیات جمعی در گذر رو به عقب، به تفکیک نوع"},
    "tp.naive_backward": {
        "en": "TP without `PrepareModuleInput`: collectives in the backward, by kind, "
              "against the library's count times the two column-parallel layers",
        "ca": "TP sense `PrepareModuleInput`: col·lectives del backward, per tipus, davant "
              "del recompte de la biblioteca per les dues capes de columnes",
        "fa": "TP بدون `PrepareModuleInput`: عملیات جمعی در گذر رو به عقب، به تفکیک "
              "نوع، در برابر شمارش کتابخانه ضرب در دو لایهٔ ستونی"},
    "pipe.1f1b.order": {
        "en": "1F1B: order of forwards and backwards per stage",
        "ca": "1F1B: ordre dels forwards i backwards per etapa",
        "fa": "1F1B: ترتیب گذرهای رو به جلو و رو به عقب در هر مرحله"},
    "pipe.gpipe.order": {
        "en": "GPipe: order of forwards and backwards per stage, against the library's "
              "table with the backwards in microbatch order",
        "ca": "GPipe: ordre dels forwards i backwards per etapa, davant de la taula de la "
              "biblioteca amb els backwards en ordre de microlot",
        "fa": "GPipe: ترتیب گذرهای رو به جلو و رو به عقب در هر مرحله، در برابر جدول "
              "کتابخانه با گذرهای رو به عقب به ترتیب ریزدسته"},
    "pipe.gpipe.makespan": {
        "en": "GPipe: step time of the recorded order in the library's simulator",
        "ca": "GPipe: temps del pas de l'ordre enregistrat al simulador de la biblioteca",
        "fa": "GPipe: زمان گامی که شبیه‌ساز کتابخانه برای ترتیب ثبت‌شده به دست می‌دهد"},
}

NOTES = {
    "float32": {
        "en": "`float32` in torch, `float64` in the library, from the same `float32` "
              "weights: only `float32` rounding separates them; the allowed |difference| is "
              "{tol}, the default absolute tolerance of `torch.testing` for `float32`.",
        "ca": "`float32` a torch, `float64` a la biblioteca, a partir dels mateixos pesos "
              "`float32`: només els separa l'arrodoniment de `float32`; la |diferència| "
              "admesa és {tol}, la tolerància absoluta per defecte de `torch.testing` per a "
              "`float32`.",
        "fa": "در torch با `float32` و در کتابخانه با `float64`، از همان وزن‌های `float32`: "
              "فقط گردکردن `float32` آن‌ها را از هم جدا می‌کند؛ بیشترین اختلاف مجاز {tol} "
              "است، همان حد خطای مطلق پیش‌فرض `torch.testing` برای `float32`."},
    "moment": {
        "en": "after one step, AdamW's first moment is the gradient it was given times one "
              "minus β₁; divided by that factor, it must be the gradient averaged over the "
              "ranks (a sum would be n times larger). Allowed |difference| {tol}, as for "
              "the gradients.",
        "ca": "després d'un pas, el primer moment d'AdamW és el gradient rebut multiplicat "
              "per u menys β₁; dividit per aquest factor, ha de ser la mitjana dels gradients "
              "dels rangs (una suma seria n vegades més gran). |Diferència| admesa: "
              "{tol}, com per als gradients.",
        "fa": "پس از یک گام، گشتاور اول AdamW برابر گرادیانی است که دریافت کرده، ضرب در یک منهای "
              "β₁؛ اگر بر این ضریب تقسیم شود، باید گرادیانِ میانگین‌گرفته روی رنک‌ها باشد "
              "(حاصل‌جمع n برابر بزرگ‌تر می‌شد). بیشترین اختلاف مجاز {tol} است، مانند "
              "گرادیان‌ها."},
    "update": {
        "en": "AdamW's first step moves each weight by about lr × sign(g), whatever the "
              "gradient's size; the second step, on another batch, depends on the "
              "gradients' values, and the gradients themselves have their own row. Allowed "
              "|difference| {tol}.",
        "ca": "el primer pas d'AdamW mou cada pes aproximadament lr × sign(g), sigui quina "
              "sigui la mida del gradient; el segon pas, sobre un altre lot, depèn dels "
              "valors dels gradients, i els gradients mateixos tenen una fila pròpia. "
              "|Diferència| admesa: {tol}.",
        "fa": "نخستین گام AdamW هر وزن را تقریباً به اندازهٔ lr × sign(g) جابه‌جا می‌کند، "
              "اندازهٔ گرادیان هر چه باشد؛ گام دوم، روی دسته‌ای دیگر، به مقدار گرادیان‌ها "
              "بستگی دارد، و خودِ گرادیان‌ها سطر جداگانه‌ای دارند. بیشترین اختلاف مجاز {tol} "
              "است."},
    "float64": {
        "en": "`float64` on both sides: the split sums add the same terms in another "
              "order, a few units in the last place; allowed |difference| {tol}.",
        "ca": "`float64` a totes dues bandes: les sumes repartides sumen els mateixos termes "
              "en un altre ordre, unes poques unitats de l'última xifra; |diferència| "
              "admesa: {tol}.",
        "fa": "`float64` در هر دو طرف: جمع‌های تقسیم‌شده همان جمله‌ها را به ترتیبی دیگر جمع "
              "می‌زنند و فقط چند واحد در آخرین رقم فرق می‌کنند؛ بیشترین اختلاف مجاز {tol} است."},
    "ddp.payload": {
        "en": "the toy model fits in DDP's first bucket: one bucket, all-reduced once per "
              "synchronised backward.",
        "ca": "el model de joguina cap sencer en el primer cubell de DDP: un sol cubell, amb un "
              "all-reduce per cada backward sincronitzat.",
        "fa": "مدل کوچک در نخستین سطل DDP جا می‌شود: یک سطل، که در هر گذر رو به عقبِ "
              "همگام‌شده یک بار all-reduce می‌شود."},
    "zero1.per_rank": {
        "en": "`ZeroRedundancyOptimizer` gives each tensor whole, largest first, to the "
              "rank holding the fewest elements so far "
              "(`distlesson.parallel.sharding.greedy_partition`).",
        "ca": "`ZeroRedundancyOptimizer` assigna cada tensor sencer, del més gran al més "
              "petit, al rang que fins aleshores té menys elements "
              "(`distlesson.parallel.sharding.greedy_partition`).",
        "fa": "`ZeroRedundancyOptimizer` هر تنسور را کامل، با شروع از بزرگ‌ترین، به رنکی "
              "می‌دهد که تا آن لحظه کمترین عنصر را دارد "
              "(`distlesson.parallel.sharding.greedy_partition`)."},
    "zero1.even_split": {
        "en": "whole tensors cannot balance exactly; the even split holds for a flat, "
              "padded vector (DeepSpeed ZeRO, the `FlatParameter` of `FSDP1`), not for "
              "this partition.",
        "ca": "els tensors sencers no es poden equilibrar exactament; el repartiment igual "
              "val per a un vector pla amb farciment (DeepSpeed ZeRO, el `FlatParameter` "
              "d'`FSDP1`), no per a aquesta partició.",
        "fa": "تنسورهای کامل نمی‌توانند دقیقاً متوازن شوند؛ تقسیم مساوی برای یک بردار تخت و "
              "پدینگ‌شده برقرار است (مانند DeepSpeed ZeRO و `FlatParameter` در `FSDP1`)، "
              "نه برای این تقسیم‌بندی."},
    "fsdp.uneven.even_split": {
        "en": "the memory model assumes an even split; `torch.chunk` gives the first ranks "
              "the rounded-up share of rows and the last the rest, possibly none.",
        "ca": "el model de memòria suposa un repartiment igual; `torch.chunk` dona als "
              "primers rangs la part de files arrodonida per excés i a l'últim la resta, "
              "potser cap.",
        "fa": "مدل حافظه تقسیم مساوی را فرض می‌کند؛ `torch.chunk` به رنک‌های اول سهمشان از "
              "سطرها را، گردشده به بالا، می‌دهد و به آخری باقی‌مانده را، که شاید هیچ نباشد."},
    "fsdp.uneven.padded": {
        "en": "`FSDP2` pads every rank's piece to the first piece's size, so that the "
              "all-gathers move equal pieces.",
        "ca": "`FSDP2` farceix el tros de cada rang fins a la mida del primer tros, perquè "
              "els all-gathers moguin trossos iguals.",
        "fa": "`FSDP2` تکهٔ هر رنک را با پدینگ به اندازهٔ تکهٔ اول می‌رساند تا all-gatherها "
              "تکه‌های هم‌اندازه جابه‌جا کنند."},
    "tp.naive_backward": {
        "en": "each `ColwiseParallel` linear replicates its own input, so gate and up each "
              "all-reduce their input gradient: twice the library's count, where "
              "Megatron-LM's f operator adds the two partial gradients first.",
        "ca": "cada capa lineal `ColwiseParallel` replica la seva pròpia entrada, de manera "
              "que gate i up fan cadascuna un all-reduce del seu gradient d'entrada: el doble "
              "del recompte de la biblioteca, mentre que l'operador f de Megatron-LM suma "
              "primer els dos gradients parcials.",
        "fa": "هر لایهٔ خطی `ColwiseParallel` ورودی خودش را تکرار می‌کند، پس gate و up هر "
              "کدام گرادیان ورودی‌شان را all-reduce می‌کنند: دو برابر شمارش کتابخانه، در "
              "حالی که عملگر f در Megatron-LM نخست دو گرادیان جزئی را با هم جمع می‌کند."},
    "pipe.1f1b.order": {
        "en": "torch's code calls every forward before the first backward warm-up; the "
              "library, after Megatron-LM, counts one fewer and calls the next the first "
              "forward of the steady state: the same order.",
        "ca": "el codi de torch anomena escalfament tots els forwards anteriors al primer "
              "backward; la biblioteca, com Megatron-LM, en compta un menys i anomena el "
              "següent el primer forward del règim estable: el mateix ordre.",
        "fa": "کد torch همهٔ گذرهای رو به جلوِ پیش از نخستین گذر رو به عقب را گرم‌کردن "
              "می‌نامد؛ کتابخانه، به پیروی از Megatron-LM، یکی کمتر می‌شمارد و بعدی را "
              "نخستین گذر رو به جلوی حالت پایدار می‌نامد: ترتیب یکی است."},
    "pipe.gpipe.order": {
        "en": "the prediction is the library's GPipe table with its backwards put in "
              "microbatch order: `ScheduleGPipe` runs them first to last, the library (the "
              "GPipe paper's figure) last to first.",
        "ca": "la predicció és la taula GPipe de la biblioteca amb els backwards en ordre "
              "de microlot: `ScheduleGPipe` els executa del primer a l'últim, la biblioteca "
              "(la figura de l'article de GPipe) de l'últim al primer.",
        "fa": "پیش‌بینی همان جدول GPipe کتابخانه است که گذرهای رو به عقبش به ترتیب ریزدسته "
              "چیده شده‌اند: `ScheduleGPipe` آن‌ها را از اولی تا آخری اجرا می‌کند، و کتابخانه "
              "(مانند شکل مقالهٔ GPipe) از آخری تا اولی."},
    "pipe.gpipe.makespan": {
        "en": "a forward takes one unit of time and a backward two: the order of the "
              "backwards moves no idle slot.",
        "ca": "un forward dura una unitat de temps i un backward dues: l'ordre dels "
              "backwards no mou cap franja inactiva.",
        "fa": "هر گذر رو به جلو یک واحد زمان و هر گذر رو به عقب دو واحد طول می‌کشد: ترتیب "
              "گذرهای رو به عقب هیچ بازهٔ بیکاری را جابه‌جا نمی‌کند."},
}

NOTE_OF = {
    "ddp.grad": "float32", "ddp.accum_grad": "float32", "ddp.payload": "ddp.payload",
    "zero1.per_rank": "zero1.per_rank", "zero1.even_split": "zero1.even_split",
    "zero1.moment": "moment", "zero1.update": "update",
    "fsdp.even.grad": "float32", "fsdp.uneven.grad": "float32", "fsdp.even.update": "update",
    "fsdp.uneven.even_split": "fsdp.uneven.even_split",
    "fsdp.uneven.padded": "fsdp.uneven.padded",
    "tp.output": "float64", "tp.grad_input": "float64",
    "tp.naive_backward": "tp.naive_backward",
    "pipe.1f1b.order": "pipe.1f1b.order", "pipe.gpipe.order": "pipe.gpipe.order",
    "pipe.gpipe.makespan": "pipe.gpipe.makespan",
}
"""The note of each check that has one (a key of ``NOTES``): every check whose engine
``note`` is not empty."""
