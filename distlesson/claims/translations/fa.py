"""Texts of the claims register in Persian."""

CLAIMS: dict[str, dict[str, str]] = {
    "ca_states_total": {
        "source": "بخش اول",
        "statement": (
            "مدلی با {{ claim.ca_states_total.params }} پارامتر، پیش از هر فعال‌سازی، فقط برای"
            " حالت‌هایش حدود {{ claim.ca_states_total.stated }} حافظه لازم دارد."
        ),
        "why": (
            "بهینه‌ساز AdamW در دقت مختلط به‌ازای هر پارامتر"
            " {{ claim.ca_states_total.bytes_per_param }} نگه می‌دارد: وزن‌ها و گرادیان‌های bf16،"
            " یک نسخهٔ اصلی fp32 و دو گشتاور fp32. حاصل {{ claim.ca_states_total.computed }}"
            " است که منبع آن را گرد کرده است؛ با تعداد دقیق پارامترهای Llama 3 70B، این مقدار"
            " {{ claim.ca_states_total.exact_count }} می‌شود."
        ),
    },
    "ca_gpus_to_hold": {
        "source": "بخش اول",
        "statement": (
            "این حالت‌ها {{ claim.ca_gpus_to_hold.stated }} GPU با حافظهٔ"
            " {{ claim.ca_gpus_to_hold.gpu_memory }} را پر می‌کنند."
        ),
        "why": (
            "حاصل تقسیم حالت‌ها بر حافظهٔ یک H100 دقیقاً"
            " {{ claim.ca_gpus_to_hold.computed }} است و چیزی برای گرد کردن نمی‌ماند. این فقط حافظه"
            " را می‌شمارد؛ فعال‌سازی‌ها و بافرها جای بیشتری می‌خواهند."
        ),
    },
    "ca_eight_bit_adam": {
        "source": "بخش اول (ابزار تعاملی «چرا مدل جا نمی‌شود»)",
        "statement": (
            "بهینه‌ساز Adam هشت‌بیتی به‌ازای هر پارامتر"
            " {{ claim.ca_eight_bit_adam.stated }} لازم دارد."
        ),
        "why": (
            "با وزن‌ها و گرادیان‌های bf16 و نسخهٔ اصلی fp32، مدل Llama 3 70B با Adam هشت‌بیتی"
            " به‌ازای هر پارامتر {{ claim.ca_eight_bit_adam.computed }} جا می‌گیرد؛ سهم خود"
            " بهینه‌ساز {{ claim.ca_eight_bit_adam.optimizer_part }} است. هر گشتاور یک بایت به‌ازای"
            " هر پارامتر است، به‌علاوهٔ یک ضریب مقیاس fp32 برای هر بلوک از"
            " {{ claim.ca_eight_bit_adam.block_size }} مقدار؛ پس عدد گردشدهٔ منبع درست است."
        ),
    },
    "ca_adafactor": {
        "source": "بخش اول (ابزار تعاملی «چرا مدل جا نمی‌شود»)",
        "statement": (
            "بهینه‌ساز Adafactor به‌ازای هر پارامتر {{ claim.ca_adafactor.stated }} لازم دارد."
        ),
        "why": (
            "با وزن‌ها و گرادیان‌های bf16 و نسخهٔ اصلی fp32، مدل Llama 3 70B با Adafactor"
            " به‌ازای هر پارامتر {{ claim.ca_adafactor.computed }} جا می‌گیرد؛ سهم خود بهینه‌ساز"
            " {{ claim.ca_adafactor.optimizer_part }} است. این بهینه‌ساز گشتاور اول را نگه"
            " نمی‌دارد و گشتاور دوم هر ماتریس را به یک بردار سطری و یک بردار ستونی تجزیه"
            " می‌کند، پس حالتش در کنار ماتریس‌های یک مدل بزرگ تقریباً ناپدید می‌شود و مجموع فقط"
            " اندکی بالاتر از وزن‌ها، گرادیان‌ها و نسخهٔ اصلی می‌ایستد. عدد منبع بالاتر است؛ روی"
            " مدل کوچک decoder این دوره، که بردارهایش سهم بیشتری دارند، این مقدار"
            " {{ claim.ca_adafactor.tiny_model }} است."
        ),
    },
    "ca_lion": {
        "source": "بخش اول (ابزار تعاملی «چرا مدل جا نمی‌شود»)",
        "statement": "بهینه‌ساز Lion به‌ازای هر پارامتر {{ claim.ca_lion.stated }} لازم دارد.",
        "why": (
            "با وزن‌ها و گرادیان‌های bf16 و نسخهٔ اصلی fp32، مدل Llama 3 70B با Lion به‌ازای هر"
            " پارامتر {{ claim.ca_lion.computed }} جا می‌گیرد؛ سهم خود بهینه‌ساز"
            " {{ claim.ca_lion.optimizer_part }} است. این بهینه‌ساز فقط یک تکانهٔ fp32 نگه"
            " می‌دارد، پس عدد منبع درست است."
        ),
    },
    "fa_adam_moments": {
        "source": "مسئله",
        "statement": (
            "برای مدلی با {{ claim.fa_adam_moments.params }} پارامتر در FP16، دو گشتاور Adam"
            " {{ claim.fa_adam_moments.stated }} به حافظه اضافه می‌کنند."
        ),
        "why": (
            "بهینه‌ساز Adam به‌ازای هر پارامتر دو گشتاور نگه می‌دارد، هر دو در fp32:"
            " {{ claim.fa_adam_moments.computed }}. منبع آن‌ها را با همان دو بایتِ وزن‌ها شمرده"
            " است، در حالی که جدول خودش از مدل‌های واقعی آن‌ها را در fp32 می‌شمارد."
        ),
    },
    "fa_states_before_activations": {
        "source": "مسئله",
        "statement": (
            "پیش از ذخیرهٔ حتی یک فعال‌سازی، مدلی با"
            " {{ claim.fa_states_before_activations.params }} پارامتر"
            " {{ claim.fa_states_before_activations.stated }} حافظه اشغال می‌کند."
        ),
        "why": (
            "وزن‌ها، گرادیان‌ها و دو گشتاور fp32 حتی بدون نسخهٔ اصلی"
            " {{ claim.fa_states_before_activations.computed }} می‌شوند، و با نسخهٔ اصلی fp32 در"
            " دقت مختلط {{ claim.fa_states_before_activations.with_master }}: در هر دو حالت بیش از"
            " {{ claim.fa_states_before_activations.gpu_memory }} حافظهٔ یک A100، پس جایی برای"
            " فعال‌سازی‌ها نمی‌ماند. جمع منبع، کم‌شماری گشتاورهای Adam را به ارث برده است."
        ),
    },
    "fa_mixed_precision_savings": {
        "source": "بسازید، گام پنجم؛ اصطلاحات کلیدی",
        "statement": (
            "دقت مختلط {{ claim.fa_mixed_precision_savings.stated }} از حافظه را صرفه‌جویی"
            " می‌کند، نه نصف آن را، چون بیشترِ حافظه سهم بهینه‌ساز است."
        ),
        "why": (
            "در مقایسه با آموزش fp32 با AdamW، روش مختلط منبع فقط به این دلیل"
            " {{ claim.fa_mixed_precision_savings.without_master }} صرفه‌جویی می‌کند که نسخهٔ"
            " اصلی fp32 را کنار می‌گذارد. دقت مختلط آن‌طور که در عمل به کار می‌رود این نسخه را"
            " نگه می‌دارد، پس حالت‌های مدل همان‌قدر جا می‌گیرند که در fp32 و صرفه‌جویی"
            " {{ claim.fa_mixed_precision_savings.computed }} است؛ سود دقت مختلط در"
            " فعال‌سازی‌ها و در سرعت بیشتر محاسبات bf16 است."
        ),
    },
    "fa_gpus_for_largest_llama": {
        "source": "چرا توزیع لازم است",
        "statement": (
            "مدل Llama 3 405B برای نگه‌داشتن وزن‌ها، حالت بهینه‌ساز و گرادیان‌هایش دست‌کم"
            " {{ claim.fa_gpus_for_largest_llama.stated }} H100 لازم دارد."
        ),
        "why": (
            "با قرارداد منبع (بدون نسخهٔ اصلی) و تعداد گرد پارامترها درست است. با نسخهٔ اصلی"
            " fp32 در دقت مختلط و تعداد دقیق پارامترهای وزن‌های منتشرشده،"
            " {{ claim.fa_gpus_for_largest_llama.with_master }} H100 لازم است."
        ),
    },
    "fa_min_gpus_states": {
        "source": "مسئله",
        "statement": (
            "با احتساب حالت بهینه‌ساز و گرادیان‌ها، مدلی با"
            " {{ claim.fa_min_gpus_states.params }} پارامتر دست‌کم به"
            " {{ claim.fa_min_gpus_states.stated }} GPU یا بیشتر نیاز دارد."
        ),
        "why": (
            "با قرارداد خود منبع، حالت‌ها {{ claim.fa_min_gpus_states.states }} جا می‌گیرند که"
            " دست‌کم {{ claim.fa_min_gpus_states.computed }} GPU با حافظهٔ"
            " {{ claim.fa_min_gpus_states.gpu_memory }} لازم دارند؛ با نسخهٔ اصلی fp32،"
            " {{ claim.fa_min_gpus_states.with_master }} GPU."
        ),
    },
    "fa_fsdp_gpus": {
        "source": "FSDP",
        "statement": (
            "با FSDP، مدلی با {{ claim.fa_fsdp_gpus.params }} پارامتر دست‌کم"
            " {{ claim.fa_fsdp_gpus.stated }} GPU لازم دارد تا در"
            " {{ claim.fa_fsdp_gpus.gpu_memory }} حافظهٔ هر کدام جا شود."
        ),
        "why": (
            "در FSDP حالت‌ها به‌طور یکنواخت تقسیم می‌شوند، پس کمترین تعداد GPU برابر است با"
            " حالت‌ها تقسیم بر حافظهٔ یک GPU، گردشده به بالا: {{ claim.fa_fsdp_gpus.computed }}"
            " با قرارداد منبع، و {{ claim.fa_fsdp_gpus.with_master }} با نسخهٔ اصلی fp32. منبع"
            " درست می‌گوید که {{ claim.fa_fsdp_gpus.source_dp }} GPU کافی نیست"
            " ({{ claim.fa_fsdp_gpus.per_gpu_at_source_dp }} برای هر کدام)؛ اما عدد آن توان بعدیِ"
            " دو است، که برای درجهٔ موازی‌سازی داده انتخاب رایجی است، نه کمترین تعداد."
        ),
    },
    "fa_optimizer_gpus": {
        "source": "چرا توزیع لازم است",
        "statement": (
            "برای مدلی با {{ claim.fa_optimizer_gpus.params }} پارامتر، بهینه‌ساز به‌تنهایی"
            " {{ claim.fa_optimizer_gpus.stated }} A100 لازم دارد."
        ),
        "why": (
            "دو گشتاور fp32 به‌ازای هر پارامتر دقیقاً {{ claim.fa_optimizer_gpus.computed }}"
            " A100 را پر می‌کنند. اگر نسخهٔ اصلی fp32 را هم بشماریم، که بهینه‌ساز در دقت مختلط"
            " آن را هم نگه می‌دارد، {{ claim.fa_optimizer_gpus.with_master }} A100 لازم است."
        ),
    },
    "ca_zero_one_factor": {
        "source": "بخش دوم، زیربخش دوم",
        "statement": "ZeRO-1 مصرف حافظه را {{ claim.ca_zero_one_factor.stated }} کم می‌کند.",
        "why": (
            "این حدی است که با زیاد شدن تعداد GPUها به آن نزدیک می‌شویم،"
            " {{ claim.ca_zero_one_factor.limit }}: آنچه روی همهٔ GPUها تکرار می‌شود هرگز تقسیم"
            " نمی‌شود. با {{ claim.ca_zero_one_factor.gpus }} GPU جدول این فصل، حالت‌های هر GPU"
            " {{ claim.ca_zero_one_factor.computed }} کوچک‌تر می‌شوند."
        ),
    },
    "fa_zero_one_factor": {
        "source": "DeepSpeed ZeRO",
        "statement": "ZeRO-1 مصرف حافظه را {{ claim.fa_zero_one_factor.stated }} کم می‌کند.",
        "why": (
            "این حدی است که با زیاد شدن تعداد GPUها به آن نزدیک می‌شویم،"
            " {{ claim.fa_zero_one_factor.limit }}: آنچه روی همهٔ GPUها تکرار می‌شود هرگز تقسیم"
            " نمی‌شود. با {{ claim.fa_zero_one_factor.gpus }} GPU جدول این فصل، حالت‌های هر GPU"
            " {{ claim.fa_zero_one_factor.computed }} کوچک‌تر می‌شوند."
        ),
    },
    "fa_zero_two_factor": {
        "source": "DeepSpeed ZeRO",
        "statement": "ZeRO-2 مصرف حافظه را {{ claim.fa_zero_two_factor.stated }} کم می‌کند.",
        "why": (
            "این حدی است که با زیاد شدن تعداد GPUها به آن نزدیک می‌شویم،"
            " {{ claim.fa_zero_two_factor.limit }}: آنچه روی همهٔ GPUها تکرار می‌شود هرگز تقسیم"
            " نمی‌شود. با {{ claim.fa_zero_two_factor.gpus }} GPU جدول این فصل، حالت‌های هر GPU"
            " {{ claim.fa_zero_two_factor.computed }} کوچک‌تر می‌شوند."
        ),
    },
    "ca_tp_nvlink_share": {
        "source": "بخش دوم (ترافیک موازی‌سازی تنسوری)",
        "statement": (
            "روی NVLink، ترافیک موازی‌سازی تنسوری {{ claim.ca_tp_nvlink_share.stated }} از زمان"
            " محاسبهٔ یک لایه را می‌گیرد."
        ),
        "why": (
            "چهار all-reduce در هر لایه روی NVLink، در برابر ضرب‌های ماتریسی همان لایه با"
            " {{ claim.ca_tp_nvlink_share.efficiency }} از حداکثر توان H100، به"
            " {{ claim.ca_tp_nvlink_share.computed }} می‌رسد، که پس از گردکردن همان عدد منبع است."
        ),
    },
    "ca_tp_infiniband_ratio": {
        "source": "بخش دوم (ترافیک موازی‌سازی تنسوری)",
        "statement": (
            "روی InfiniBand، همین ترافیک {{ claim.ca_tp_infiniband_ratio.stated }} زمان محاسبه"
            " طول می‌کشد."
        ),
        "why": (
            "کتابخانه FLOPهای لایه را به روش Narayanan و همکاران، با احتساب همهٔ امتیازهای توجه"
            " (attention scores)، می‌شمارد و به {{ claim.ca_tp_infiniband_ratio.computed }}"
            " می‌رسد؛ اگر فقط نیمهٔ علّی امتیازها شمرده شود، همان‌طور که یک کرنل علّی آن‌ها را"
            " حساب می‌کند، عدد منبع به دست می‌آید. در هر دو حالت، میان گره‌ها ترافیک بیش از خودِ"
            " محاسبه طول می‌کشد، پس موازی‌سازی تنسوری درون یک گره می‌ماند."
        ),
    },
    "fa_deepseek_active": {
        "source": "Megatron-LM و موازی‌سازی سه‌بعدی",
        "statement": (
            "مدل DeepSeek-V3 به‌ازای هر توکن فقط {{ claim.fa_deepseek_active.stated }} از"
            " {{ claim.fa_deepseek_active.total }} پارامترش را فعال می‌کند."
        ),
        "why": (
            "با شمارش تنسور به تنسور از روی پیکربندی منتشرشده: هر توکن از لایهٔ توجه، لایه‌های"
            " چگال (dense)، مسیریاب، متخصص مشترک و {{ claim.fa_deepseek_active.top_k }} متخصص از"
            " {{ claim.fa_deepseek_active.experts }} متخصص مسیریابی‌شدهٔ هر لایهٔ MoE می‌گذرد؛"
            " روی هم {{ claim.fa_deepseek_active.computed }} پارامتر، از مجموع"
            " {{ claim.fa_deepseek_active.total_computed }}."
        ),
    },
    "ca_pipeline_bubble": {
        "source": "بخش دوم، زیربخش چهارم (ابزار تعاملی «خط لولهٔ شبیه‌سازی‌شده»)",
        "statement": (
            "با {{ claim.ca_pipeline_bubble.stages }} مرحله و"
            " {{ claim.ca_pipeline_bubble.microbatches }} ریزدسته در زمان‌بندی 1F1B، حباب"
            " {{ claim.ca_pipeline_bubble.stated }} است."
        ),
        "why": (
            "در نمودار زمانی شبیه‌سازی‌شده، {{ claim.ca_pipeline_bubble.computed }} از زمان"
            " مرحله‌ها به بیکاری می‌گذرد؛ این دقیقاً همان نسبتی است که فرمول می‌دهد: تعداد"
            " مرحله‌ها منهای یک، تقسیم بر تعداد ریزدسته‌ها به‌علاوهٔ تعداد مرحله‌ها منهای یک."
        ),
    },
    "fa_bubble_one_microbatch": {
        "source": "بسازید، گام سوم",
        "statement": (
            "با {{ claim.fa_bubble_one_microbatch.stages }} مرحله و فقط یک ریزدسته، حباب"
            " {{ claim.fa_bubble_one_microbatch.stated }} است: در هر لحظه سه تا از چهار GPU"
            " بیکارند."
        ),
        "why": (
            "یک ریزدستهٔ تنها مرحله‌ها را یکی پس از دیگری طی می‌کند، پس هر مرحله فقط در"
            " یک‌چهارمِ گام کار می‌کند و دقیقاً {{ claim.fa_bubble_one_microbatch.computed }} از"
            " زمان بیکار است."
        ),
    },
    "fa_bubble_sixteen": {
        "source": "بسازید، گام سوم",
        "statement": (
            "با {{ claim.fa_bubble_sixteen.microbatches }} ریزدسته، حباب به حدود"
            " {{ claim.fa_bubble_sixteen.stated }} کاهش می‌یابد."
        ),
        "why": (
            "خط لولهٔ شبیه‌سازی‌شده در {{ claim.fa_bubble_sixteen.computed }} از زمانش بیکار"
            " است، یعنی همان سهمی که شبیه‌سازی خودِ درس فارسی اندازه می‌گیرد. عدد درس حباب تقسیم بر"
            " زمان ایده‌آلِ بدون حباب است، یعنی {{ claim.fa_bubble_sixteen.over_ideal }}، همان"
            " نسبتی که Narayanan و همکاران آن را کسر زمان حباب (bubble time fraction) می‌نامند:"
            " نسبتی به کار مفید، نه سهمی از گام."
        ),
    },
    "ca_checkpoint_ten_x": {
        "source": "بخش سوم",
        "statement": (
            "چک‌پوینت فعال‌سازی‌ها حافظهٔ فعال‌سازی‌ها را تا"
            " {{ claim.ca_checkpoint_ten_x.stated }} کم می‌کند."
        ),
        "why": (
            "این ضریب سقف نیست: با تعداد لایه‌ها بزرگ‌تر می‌شود، و اگر امتیازهای توجه ذخیره"
            " شوند، با طول دنباله هم. با FlashAttention، که هیچ امتیازی را ذخیره نمی‌کند، اگر"
            " فقط ورودی هر لایه نگه داشته شود، طبق فرمول‌های Korthikanti و همکاران، اوج حافظهٔ"
            " فعال‌سازی‌های Llama 3 70B با طول دنبالهٔ آموزشی‌اش"
            " {{ claim.ca_checkpoint_ten_x.computed }} کوچک‌تر می‌شود."
        ),
    },
    "ca_recompute_thirty": {
        "source": "بخش سوم",
        "statement": (
            "چک‌پوینت فعال‌سازی‌ها حدود {{ claim.ca_recompute_thirty.stated }} زمان بیشتری"
            " می‌گیرد."
        ),
        "why": (
            "محاسبهٔ دوبارهٔ گذر رو به جلو یک گذر رو به جلوی دیگر به گامی می‌افزاید که از یک"
            " گذر رو به جلو و یک گذر رو به عقبِ دو برابر پرهزینه‌تر تشکیل شده است:"
            " {{ claim.ca_recompute_thirty.computed }} کار بیشتر، که منبع آن را گرد کرده است."
            " زمانی که روی مدل کوچک این دوره اندازه گرفته شده متفاوت است، همان‌طور که فصل نشان"
            " می‌دهد."
        ),
    },
    "fa_recompute_thirty_three": {
        "source": "تمرین‌ها",
        "statement": (
            "چک‌پوینت کامل فعال‌سازی‌ها حدود {{ claim.fa_recompute_thirty_three.stated }}"
            " محاسبهٔ بیشتر می‌طلبد."
        ),
        "why": (
            "یک گذر رو به جلوی اضافه، در برابر یک گذر رو به جلو و یک گذر رو به عقبِ دو برابر"
            " پرهزینه‌تر: {{ claim.fa_recompute_thirty_three.computed }}."
        ),
    },
    "fa_layer_activations": {
        "source": "مسئله",
        "statement": (
            "برای دنباله‌ای {{ claim.fa_layer_activations.seq }} توکنی و مدلی به پهنای"
            " {{ claim.fa_layer_activations.hidden }}، فعال‌سازی‌های یک لایه حدود"
            " {{ claim.fa_layer_activations.stated }} جا می‌گیرند."
        ),
        "why": (
            "لغزشی در واحد: جملهٔ بعدی خود منبع برای {{ claim.fa_layer_activations.layers }}"
            " لایه {{ claim.fa_layer_activations.source_total }} می‌دهد، یعنی"
            " {{ claim.fa_layer_activations.source_per_layer }} برای هر لایه: مگابایت، نه"
            " گیگابایت. فرمول Korthikanti و همکاران برای همین لایه بدون محاسبهٔ دوباره"
            " {{ claim.fa_layer_activations.computed }} می‌دهد و با محاسبهٔ دوبارهٔ انتخابی"
            " {{ claim.fa_layer_activations.selective }}."
        ),
    },
    "ca_lora_optimizer_states": {
        "source": "بخش سوم",
        "statement": (
            "روش LoRA {{ claim.ca_lora_optimizer_states.stated }} از حالت‌های بهینه‌ساز را حذف"
            " می‌کند."
        ),
        "why": (
            "اگر LoRA با رتبهٔ {{ claim.ca_lora_optimizer_states.rank }} روی ماتریس‌های"
            " projection لایهٔ توجه در Llama 3 8B اعمال شود،"
            " {{ claim.ca_lora_optimizer_states.trainable }} پارامتر آموزش می‌بینند؛ فقط همین‌ها"
            " نسخهٔ اصلی و گشتاور نگه می‌دارند، پس {{ claim.ca_lora_optimizer_states.computed }}"
            " از حالت‌های بهینه‌ساز حذف می‌شود. وزن‌های منجمد در حافظه می‌مانند."
        ),
    },
    "ca_ridge_point": {
        "source": "بخش پنجم (ابزار تعاملی «سقف سخت‌افزار»)",
        "statement": "نقطهٔ شکست H100 برابر {{ claim.ca_ridge_point.stated }} است.",
        "why": (
            "حداکثر توان چگال bf16 در برگهٔ مشخصات، تقسیم بر پهنای باند حافظه،"
            " {{ claim.ca_ridge_point.computed }} می‌دهد؛ منبع حداکثر توانی را که به"
            " {{ claim.ca_ridge_point.rounded_peak }} TFLOP/s گرد شده بر همان پهنای باند تقسیم"
            " می‌کند، و این اختلاف در حد گردکردن خودِ برگهٔ مشخصات است."
        ),
    },
    "ca_decode_intensity": {
        "source": "بخش پنجم (ابزار تعاملی «سقف سخت‌افزار»)",
        "statement": (
            "در تولید یک توکن، ضرب یک بردار در وزن‌ها شدت حسابی"
            " {{ claim.ca_decode_intensity.stated }} دارد، نه عدد دو که اغلب نقل می‌شود."
        ),
        "why": (
            "هر وزنی که خوانده می‌شود، یعنی دو بایت در bf16، فقط در یک ضرب و یک جمع به کار"
            " می‌رود؛ با احتساب جابه‌جایی بردار و خروجی، شدت حسابی"
            " {{ claim.ca_decode_intensity.computed }} است. آن عدد دو که اغلب نقل می‌شود به‌ازای"
            " هر پارامتر است، نه به‌ازای هر بایت."
        ),
    },
    "ca_decode_share": {
        "source": "بخش پنجم (ابزار تعاملی «سقف سخت‌افزار»)",
        "statement": (
            "با دسته‌ای به اندازهٔ یک، GPU حداکثر {{ claim.ca_decode_share.stated }} از توانش را"
            " به کار می‌گیرد."
        ),
        "why": (
            "توان دست‌یافتنی برابر پهنای باند ضرب در شدت حسابی است، پس سهم آن از حداکثر توان"
            " برابر است با شدت حسابی تقسیم بر نقطهٔ شکست: {{ claim.ca_decode_share.computed }}."
        ),
    },
    "ca_decode_batch_ridge": {
        "source": "بخش پنجم",
        "statement": (
            "تولید توکن وقتی به نقطهٔ شکست H100 می‌رسد که حدود"
            " {{ claim.ca_decode_batch_ridge.stated }} توکن هم‌زمان پردازش شوند."
        ),
        "why": (
            "شدت حسابی دسته‌ای از تولید توکن تقریباً هم‌پای اندازهٔ دسته بزرگ می‌شود، پس برای"
            " وزن‌هایی با این پهنا در {{ claim.ca_decode_batch_ridge.computed }} دنباله از نقطهٔ"
            " شکست می‌گذرد؛ عدد منبع توان بعدیِ دو است."
        ),
    },
    "ca_training_intensity": {
        "source": "بخش پنجم (ابزار تعاملی «سقف سخت‌افزار»)",
        "statement": (
            "یک گام آموزشی با {{ claim.ca_training_intensity.tokens }} توکن به شدت حسابی"
            " {{ claim.ca_training_intensity.stated }} می‌رسد."
        ),
        "why": (
            "این شدت حسابیِ عبور همین توکن‌ها از ماتریس وزنی است که پهنای مدل را به چهار برابر"
            " آن می‌برد: {{ claim.ca_training_intensity.computed }}، بسیار بالاتر از نقطهٔ شکست."
        ),
    },
    "ca_mfu_two_ways": {
        "source": "بخش چهارم (ابزار تعاملی «زمان کجا می‌رود»)",
        "statement": (
            "شش FLOP به‌ازای هر پارامتر و هر توکن، برای {{ claim.ca_mfu_two_ways.params }}"
            " پارامتر و {{ claim.ca_mfu_two_ways.tokens }} توکن در هر گام، تقسیم بر زمان گام و"
            " حداکثر توان {{ claim.ca_mfu_two_ways.gpus }} H100، به MFU برابر"
            " {{ claim.ca_mfu_two_ways.stated }} می‌رسد."
        ),
        "why": (
            "حساب درست است: با حداکثر توان چگال bf16 در H100، حاصل"
            " {{ claim.ca_mfu_two_ways.computed }} است."
        ),
    },
    "fa_cost_llama": {
        "source": "تمرین‌ها",
        "statement": (
            "هزینهٔ محاسباتی آموزش Llama 3 405B حدود {{ claim.fa_cost_llama.stated }} بود."
        ),
        "why": (
            "Meta برای آن {{ claim.fa_cost_llama.gpu_hours }} ساعت GPU روی H100 گزارش می‌دهد؛"
            " با قیمتی که درس برای هر ساعت کار یک H100 در نظر می‌گیرد، این می‌شود"
            " {{ claim.fa_cost_llama.computed }}. اگر از FLOPهای مقاله و MFUای که گزارش کرده حساب"
            " کنیم، تخمین کمتر است: {{ claim.fa_cost_llama.low }} تا"
            " {{ claim.fa_cost_llama.high }}؛ آن ساعت‌ها چیزی بیش از اجرای نهایی با بهترین"
            " بهره‌وری‌اش را در بر می‌گیرند."
        ),
    },
    "fa_cost_deepseek": {
        "source": "تمرین‌ها",
        "statement": "آموزش DeepSeek-V3 حدود {{ claim.fa_cost_deepseek.stated }} هزینه داشت.",
        "why": (
            "ساعت‌های GPU روی H800 که گزارش فنی آورده، با قیمت اجاره‌ای که خودش فرض کرده،"
            " {{ claim.fa_cost_deepseek.computed }} می‌شوند، آن هم فقط برای اجرای نهایی آموزش، نه"
            " پژوهش‌های پیش از آن."
        ),
    },
}
