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
            " {{ claim.ca_gpus_to_hold.computed }} است و چیزی برای گردکردن نمی‌ماند. این فقط حافظه"
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
            " اندکی بالاتر از وزن‌ها، گرادیان‌ها و نسخهٔ اصلی قرار می‌گیرد. عدد منبع بالاتر است؛ روی"
            " مدل رمزگشای (decoder) کوچک این دوره، که بردارهایش سهم بیشتری دارند، این مقدار"
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
            "دقت مختلط در {{ claim.fa_mixed_precision_savings.stated }} از حافظه صرفه‌جویی"
            " می‌کند، نه در نیمی از آن، چون بیشترِ حافظه سهم بهینه‌ساز است."
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
            "این همان عددی است که خود مقالهٔ ZeRO (در نخستین شکلش) برجسته کرده است، نه لغزش"
            " منبع: حدی که با زیاد"
            " شدن تعداد GPUها به آن نزدیک می‌شویم، {{ claim.ca_zero_one_factor.limit }}، چون"
            " آنچه روی همهٔ GPUها تکرار می‌شود هرگز تقسیم نمی‌شود. مثال خود مقاله، یعنی"
            " {{ claim.ca_zero_one_factor.paper_params }} پارامتر روی"
            " {{ claim.ca_zero_one_factor.paper_gpus }} GPU، حالت‌ها را"
            " {{ claim.ca_zero_one_factor.paper }} کوچک‌تر می‌کند؛ با"
            " {{ claim.ca_zero_one_factor.gpus }} GPU جدول این فصل، حالت‌های هر GPU"
            " {{ claim.ca_zero_one_factor.computed }} کوچک‌تر می‌شوند."
        ),
    },
    "fa_zero_one_factor": {
        "source": "DeepSpeed ZeRO",
        "statement": "ZeRO-1 مصرف حافظه را {{ claim.fa_zero_one_factor.stated }} کم می‌کند.",
        "why": (
            "این همان عددی است که خود مقالهٔ ZeRO (در نخستین شکلش) برجسته کرده است، نه لغزش"
            " منبع: حدی که با زیاد"
            " شدن تعداد GPUها به آن نزدیک می‌شویم، {{ claim.fa_zero_one_factor.limit }}، چون"
            " آنچه روی همهٔ GPUها تکرار می‌شود هرگز تقسیم نمی‌شود. مثال خود مقاله، یعنی"
            " {{ claim.fa_zero_one_factor.paper_params }} پارامتر روی"
            " {{ claim.fa_zero_one_factor.paper_gpus }} GPU، حالت‌ها را"
            " {{ claim.fa_zero_one_factor.paper }} کوچک‌تر می‌کند؛ با"
            " {{ claim.fa_zero_one_factor.gpus }} GPU جدول این فصل، حالت‌های هر GPU"
            " {{ claim.fa_zero_one_factor.computed }} کوچک‌تر می‌شوند."
        ),
    },
    "fa_zero_two_factor": {
        "source": "DeepSpeed ZeRO",
        "statement": "ZeRO-2 مصرف حافظه را {{ claim.fa_zero_two_factor.stated }} کم می‌کند.",
        "why": (
            "این همان عددی است که خود مقالهٔ ZeRO (در نخستین شکلش) برجسته کرده است، نه لغزش"
            " منبع: حدی که با زیاد"
            " شدن تعداد GPUها به آن نزدیک می‌شویم، {{ claim.fa_zero_two_factor.limit }}، چون"
            " آنچه روی همهٔ GPUها تکرار می‌شود هرگز تقسیم نمی‌شود. مثال خود مقاله، یعنی"
            " {{ claim.fa_zero_two_factor.paper_params }} پارامتر روی"
            " {{ claim.fa_zero_two_factor.paper_gpus }} GPU، حالت‌ها را"
            " {{ claim.fa_zero_two_factor.paper }} کوچک‌تر می‌کند؛ با"
            " {{ claim.fa_zero_two_factor.gpus }} GPU جدول این فصل، حالت‌های هر GPU"
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
            "کتابخانه FLOPهای لایه را با احتساب همهٔ امتیازهای توجه (attention scores) می‌شمارد"
            " و به {{ claim.ca_tp_infiniband_ratio.computed }} می‌رسد، که با گردکردن به عدد"
            " منبع نمی‌رسد؛ اگر فقط نیمهٔ علّی امتیازها شمرده شود، همان‌طور که یک کرنل علّی"
            " آن‌ها را حساب می‌کند، {{ claim.ca_tp_infiniband_ratio.causal_half }} به دست می‌آید"
            " که به آن می‌رسد. در هر دو حالت، میان گره‌ها ترافیک بیش از خودِ محاسبه طول"
            " می‌کشد، پس موازی‌سازی تنسوری درون یک گره می‌ماند."
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
            "این ضریب سقف نیست: به تعداد لایه‌ها و طول دنباله بستگی دارد. مدل کوچک خود فصل، به"
            " شمارش کتابخانه، {{ claim.ca_checkpoint_ten_x.tiny_model }} صرفه‌جویی می‌کند. در"
            " Llama 3 70B با طول دنبالهٔ آموزشی‌اش و با FlashAttention، که هیچ امتیاز توجهی"
            " ذخیره نمی‌کند، اگر فقط ورودی هر لایه نگه داشته شود، طبق فرمول‌های Korthikanti و"
            " همکاران اوج حافظهٔ فعال‌سازی‌ها {{ claim.ca_checkpoint_ten_x.computed }} کوچک‌تر"
            " می‌شود؛ اگر امتیازها ذخیره می‌شدند،"
            " {{ claim.ca_checkpoint_ten_x.with_scores }}."
        ),
    },
    "ca_recompute_thirty": {
        "source": "بخش سوم",
        "statement": (
            "چک‌پوینت فعال‌سازی‌ها حدود {{ claim.ca_recompute_thirty.stated }} زمان بیشتری"
            " می‌گیرد."
        ),
        "why": (
            "بازمحاسبهٔ گذر رو به جلو یک گذر رو به جلوی دیگر به گامی می‌افزاید که از یک"
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
            " لایه، {{ claim.fa_layer_activations.source_total }} می‌دهد، یعنی"
            " {{ claim.fa_layer_activations.source_per_layer }} برای هر لایه: مگابایت، نه"
            " گیگابایت. فرمول Korthikanti و همکاران برای همین لایه بدون بازمحاسبه"
            " {{ claim.fa_layer_activations.computed }} می‌دهد و با بازمحاسبهٔ انتخابی"
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
            " تصویر (projection) لایهٔ توجه در Llama 3 8B اعمال شود،"
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
            " {{ claim.ca_ridge_point.computed }} می‌دهد که با گردکردن یک واحد کمتر از عدد منبع"
            " می‌شود: منبع حداکثر توان را، که رو به بالا به"
            " {{ claim.ca_ridge_point.rounded_peak }} TFLOP بر ثانیه گرد شده است، بر همان پهنای"
            " باند تقسیم می‌کند. اختلاف در گردکردن یکی از ورودی‌هاست، نه در روش."
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
            " کنیم، تخمین کمتر است:"
            " {{ claim.fa_cost_llama.low | to claim.fa_cost_llama.high }}؛ آن ساعت‌ها چیزی"
            " بیش از اجرای نهایی با بهترین بهره‌وری‌اش را در بر می‌گیرند."
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

CLAIMS.update({
    "fa_master_weight_bytes": {
        "source": "آموزش با دقت مختلط",
        "statement": (
            "بهینه‌ساز وزن‌های اصلی را در FP32 نگه می‌دارد، هر کدام"
            " {{ claim.fa_master_weight_bytes.stated }}، تا به‌روزرسانی‌ها دقیق بمانند."
        ),
        "why": (
            "عددِ FP32 بیت‌ها را می‌شمارد: این قالب {{ claim.fa_master_weight_bytes.bits }}"
            " بیت دارد، پس هر وزن اصلی {{ claim.fa_master_weight_bytes.computed }} جا می‌گیرد،"
            " و جدول‌های حافظهٔ خود درس هم همین را می‌شمارند. بیت با بایت اشتباه شده است."
        ),
    },
    "ca_model_size": {
        "source": "بخش اول (ستونی که از روی آرایه‌های خود پروژه شمرده شده است)",
        "statement": (
            "مدل پروژه {{ claim.ca_model_size.stated }} پارامتر دارد و فصل، چهار آرایهٔ اعداد"
            " هشت‌بایتی آن را می‌شمارد."
        ),
        "why": (
            "فصل مدل خودش را در دو جا، با دو عدد متفاوت، می‌شمارد. بخشِ چک‌پوینت فعال‌سازی‌ها"
            " {{ claim.ca_model_size.section_three }} می‌گوید، و کتابخانه با شمردن همان"
            " رمزگشای {{ claim.ca_model_size.blocks }}‌بلوکی (decoder) که آن بخش به کار می‌برد به"
            " {{ claim.ca_model_size.computed }} می‌رسد. عدد بخش اول با هیچ تعداد صحیحی از"
            " بلوک‌ها جور درنمی‌آید: با دو بلوک، کتابخانه {{ claim.ca_model_size.two_blocks }}"
            " می‌شمارد. این دو بخش یک مدل را توصیف نمی‌کنند و فصل این را نمی‌گوید."
        ),
    },
    "fa_dp_unweighted_mean": {
        "source": "بسازید، گام اول",
        "statement": (
            "میانگین‌گرفتن از زیان‌ها و گرادیان‌های GPUها همان زیان و گرادیانِ کل دسته را"
            " می‌دهد: اجرای نمایشی روی یک، دو، چهار و هشت GPU همان زیان و همان گرادیان را"
            " چاپ می‌کند، یعنی اختلاف {{ claim.fa_dp_unweighted_mean.stated }}."
        ),
        "why": (
            "کد از گرادیان میانگینِ هر GPU با وزن‌های برابر میانگین می‌گیرد. این فقط وقتی"
            " میانگین کل دسته است که شاردها هم‌اندازه باشند، مثل اجرای نمایشی؛ اما کد شاردهای"
            " نابرابر را هم می‌پذیرد و به GPUهای اول یک نمونه بیشتر می‌دهد. اگر"
            " {{ claim.fa_dp_unweighted_mean.batch }} نمونهٔ اجرای نمایشی میان"
            " {{ claim.fa_dp_unweighted_mean.gpus }} GPU تقسیم شوند، میانگین کد روی شبکهٔ"
            " کوچک این دوره به اندازهٔ {{ claim.fa_dp_unweighted_mean.computed }} از بزرگ‌ترین"
            " درایهٔ گرادیان خطا دارد. کتابخانه گرادیان هر GPU را به نسبت تعداد نمونه‌هایش وزن"
            " می‌دهد و حاصلش تا حد خطای گردکردن ممیز شناور با گرادیان کل دسته برابر است."
        ),
    },
    "fa_zero_two_traffic": {
        "source": "DeepSpeed ZeRO (جدول مرحله‌ها)",
        "statement": (
            "ترافیک ZeRO-2 کمی بیشتر از ترافیک موازی‌سازی داده است: بیش از"
            " {{ claim.fa_zero_two_traffic.stated }} آن."
        ),
        "why": (
            "در هر گام، ZeRO-2 روی گرادیان‌ها یک reduce-scatter و روی وزن‌های به‌روزشده یک"
            " all-gather انجام می‌دهد؛ روی حلقه، این دو دقیقاً به اندازهٔ all-reduce"
            " موازی‌سازی داده بایت جابه‌جا می‌کنند: {{ claim.fa_zero_two_traffic.computed }}"
            " ترافیک آن، نه بیشتر. all-gather دوم وزن‌ها در ZeRO-3 آن را به"
            " {{ claim.fa_zero_two_traffic.zero_three }} می‌رساند. ZeRO-2 فقط وقتی بیشتر"
            " می‌فرستد که گرادیان هر ریزدسته به‌جای انباشته شدن reduce-scatter شود، که پیش‌فرض"
            " DeepSpeed و FSDP است: با {{ claim.fa_zero_two_traffic.microbatches }} ریزدسته در"
            " هر گام، {{ claim.fa_zero_two_traffic.accumulating }}، که بسیار بیش از «کمی»"
            " است."
        ),
    },
    "fa_ring_steps": {
        "source": "بسازید، گام اول",
        "statement": (
            "در all-reduce حلقوی NCCL روی {{ claim.fa_ring_steps.gpus }} GPU، پس از N منهای"
            " یک گام، یعنی {{ claim.fa_ring_steps.stated }} گام، هر GPU میانگین کامل را در"
            " دست دارد."
        ),
        "why": (
            "پس از N منهای یک گام، یعنی {{ claim.fa_ring_steps.reduce_scatter }} گام، هر GPU"
            " فقط تکهٔ خودش را کاملاً جمع‌زده در دست دارد: این نیمهٔ reduce-scatter است. سپس"
            " نیمهٔ all-gather تکه‌های کامل‌شده را در همین تعداد گامِ دیگر در حلقه می‌چرخاند،"
            " روی هم {{ claim.fa_ring_steps.computed }} گام، همان‌طور که حلقهٔ شبیه‌سازی‌شده"
            " می‌شمارد. حجمی که خود درس می‌دهد، دو برابر اندازهٔ گرادیان ضرب در N منهای یک"
            " تقسیم بر N، هر دو نیمه را از پیش شمرده است."
        ),
    },
    "fa_nvlink_bandwidth": {
        "source": "موازی‌سازی تنسوری",
        "statement": (
            "NVLink میان GPUهای یک گره {{ claim.fa_nvlink_bandwidth.stated }} داده"
            " جابه‌جا می‌کند و InfiniBand میان گره‌ها حدود"
            " {{ claim.fa_nvlink_bandwidth.infiniband }}."
        ),
        "why": (
            "عدد NVLink همان عددی است که NVIDIA برای H100 می‌دهد: مجموع هر دو جهت. زمان یک"
            " عملیات جمعی را آنچه یک GPU در یک جهت می‌فرستد تعیین می‌کند:"
            " {{ claim.fa_nvlink_bandwidth.computed }}، عددی که این دوره به کار"
            " می‌برد. عدد InfiniBand در کنار آن از پیش یک‌سویه است، پس درس فارسی دو پیوند را با دو"
            " قرارداد متفاوت مقایسه می‌کند و فاصلهٔ آن‌ها دو برابرِ واقعیت به نظر می‌رسد."
        ),
    },
    "ca_link_bandwidths": {
        "source": "بخش دوم (ترافیک موازی‌سازی تنسوری)",
        "statement": (
            "NVLink 4 درون یک گره {{ claim.ca_link_bandwidths.stated }} داده جابه‌جا"
            " می‌کند و InfiniBand NDR میان گره‌ها {{ claim.ca_link_bandwidths.infiniband }}."
        ),
        "why": (
            "هر دو عدد از برگهٔ مشخصات‌اند، برای یک GPU و در یک جهت، همان قراردادی که زمان"
            " یک عملیات جمعی را تعیین می‌کند، و هر دو با فهرست سخت‌افزار کتابخانه هم‌خوانی"
            " دارند. هیچ عملیات جمعی"
            " به آن‌ها نمی‌رسد: مدلی که بر یک اندازه‌گیری منتشرشده روی هشت H100 تنظیم شده،"
            " برای all-reduce یک گیبی‌بایتی پهنای باند گذرگاه"
            " {{ claim.ca_link_bandwidths.achieved }} می‌دهد، یعنی"
            " {{ claim.ca_link_bandwidths.share }} از پهنای باند NVLink."
        ),
    },
    "fa_moe_memory": {
        "source": "Megatron-LM و موازی‌سازی سه‌بعدی",
        "statement": (
            "چون هر توکن فقط {{ claim.fa_moe_memory.stated }} پارامتر را فعال می‌کند، هر GPU"
            " فقط باید پارامترهای فعال را محاسبه کند و فعال‌سازی‌هایشان را نگه دارد."
        ),
        "why": (
            "محاسبه و فعال‌سازی‌ها، توکن به توکن، تابع پارامترهای فعال‌اند. حافظه چنین نیست:"
            " وزن‌ها، گرادیان‌ها و حالت‌های بهینه‌سازِ همهٔ متخصص‌ها روی یکی از GPUها می‌مانند،"
            " یعنی همهٔ {{ claim.fa_moe_memory.computed }} پارامتر و"
            " {{ claim.fa_moe_memory.states }} حالت مدل، در برابر"
            " {{ claim.fa_moe_memory.active_states }} اگر فقط پارامترهای فعال نگه داشته"
            " می‌شدند. موازی‌سازی متخصص‌ها، متخصص‌ها را میان GPUها پخش می‌کند، اما حذفشان"
            " نمی‌کند."
        ),
    },
    "fa_moe_gpu_share": {
        "source": "Megatron-LM و موازی‌سازی سه‌بعدی",
        "statement": (
            "مدل DeepSeek-V3 روی {{ claim.fa_moe_gpu_share.deepseek_gpus }} GPU از نوع H800"
            " آموزش دید، کمتر از یک‌هشتمِ GPUهای Meta، یعنی"
            " {{ claim.fa_moe_gpu_share.stated }}."
        ),
        "why": (
            "دقیقاً یک‌هشتم، یعنی {{ claim.fa_moe_gpu_share.computed }}: گزارش‌ها"
            " {{ claim.fa_moe_gpu_share.deepseek_gpus }} H800 را در برابر"
            " {{ claim.fa_moe_gpu_share.meta_gpus }} H100 در Meta می‌گذارند. نه کمتر."
        ),
    },
    "ca_widget_memory": {
        "source": "بخش دوم (ابزار تعاملی «پنج بُعد موازی‌سازی»)",
        "statement": (
            "روی {{ claim.ca_widget_memory.gpus }} GPU، با موازی‌سازی داده با درجهٔ"
            " {{ claim.ca_widget_memory.dp }}، موازی‌سازی تنسوری با درجهٔ"
            " {{ claim.ca_widget_memory.tp }} و خط لوله‌ای با"
            " {{ claim.ca_widget_memory.pp }} مرحله، هر GPU"
            " {{ claim.ca_widget_memory.stated }} نگه می‌دارد."
        ),
        "why": (
            "ابزار حالت‌ها را با عدد گردِ {{ claim.ca_widget_memory.params }} پارامتر و"
            " ورودی هر لایه را برای ریزدسته‌های ناتمام می‌شمارد و به"
            " {{ claim.ca_widget_memory.nominal }} می‌رسد، یعنی همان عدد خودش. کتابخانه برای"
            " پرکارترین GPU {{ claim.ca_widget_memory.computed }} می‌شمارد: تعداد دقیق"
            " پارامترهای Llama 3 70B با لایهٔ جاسازی در مرحلهٔ اول، لایه‌ای که در گذر رو به"
            " عقب از نو ساخته می‌شود، و زمینهٔ اجرایی CUDA، بافرهای ارتباطی و چندپارگی حافظه. ZeRO-1"
            " همان مرحله‌ای است که عدد ابزار از آن خبر می‌دهد؛ بازمحاسبه کامل است."
        ),
    },
    "ca_widget_dp_traffic": {
        "source": "بخش دوم (ابزار تعاملی «پنج بُعد موازی‌سازی»)",
        "statement": (
            "در همین چیدمان، هر GPU در هر گام برای موازی‌سازی داده"
            " {{ claim.ca_widget_dp_traffic.stated }} می‌فرستد."
        ),
        "why": (
            "یک all-reduce روی سهم این GPU از گرادیان‌های bf16، یک بار در هر گام: با تعداد"
            " دقیق پارامترها {{ claim.ca_widget_dp_traffic.computed }} و با تعداد گرد"
            " {{ claim.ca_widget_dp_traffic.nominal }}، که همان عدد ابزار است."
        ),
    },
    "ca_widget_tp_traffic": {
        "source": "بخش دوم (ابزار تعاملی «پنج بُعد موازی‌سازی»)",
        "statement": (
            "در همین چیدمان، هر GPU در هر گام برای موازی‌سازی تنسوری"
            " {{ claim.ca_widget_tp_traffic.stated }} می‌فرستد."
        ),
        "why": (
            "حافظه‌ای که ابزار نشان می‌دهد فقط ورودی هر لایه را نگه می‌دارد، پس هر گذر رو به"
            " عقب اول گذر رو به جلوی لایه‌اش را دوباره اجرا می‌کند و همراه آن دو all-reduce"
            " گذر رو به جلو را: {{ claim.ca_widget_tp_traffic.all_reduces }} all-reduce برای"
            " هر لایه و هر ریزدسته، نه {{ claim.ca_widget_tp_traffic.widget_all_reduces }}"
            "‌تایی که ابزار می‌شمارد. کتابخانه {{ claim.ca_widget_tp_traffic.computed }}"
            " می‌شمارد؛ بدون اجرای دوباره {{ claim.ca_widget_tp_traffic.four }} می‌شد، یعنی"
            " همان عدد ابزار، که با حافظه‌ای که خود ابزار نشان می‌دهد سازگار نیست."
        ),
    },
    "ca_widget_pp_traffic": {
        "source": "بخش دوم (ابزار تعاملی «پنج بُعد موازی‌سازی»)",
        "statement": (
            "در همین چیدمان، هر GPU در هر گام میان مرحله‌های خط لوله"
            " {{ claim.ca_widget_pp_traffic.stated }} می‌فرستد."
        ),
        "why": (
            "برای هر ریزدسته، یک مرحلهٔ میانی فعال‌سازی‌هایش را به جلو و گرادیانشان را به عقب"
            " می‌فرستد و هر رنکِ موازی‌سازی تنسوری برش خودش را:"
            " {{ claim.ca_widget_pp_traffic.computed }} در"
            " {{ claim.ca_widget_pp_traffic.microbatches }} ریزدسته. عدد ابزار تقریباً دو"
            " برابر این است، {{ claim.ca_widget_pp_traffic.both_ways }}: آنچه GPU می‌فرستد و"
            " آنچه دریافت می‌کند، با هم شمرده شده‌اند."
        ),
    },
    "ca_widget_total_traffic": {
        "source": "بخش دوم (ابزار تعاملی «پنج بُعد موازی‌سازی»)",
        "statement": (
            "روی هم، هر GPU در همین چیدمان در هر گام"
            " {{ claim.ca_widget_total_traffic.stated }} می‌فرستد."
        ),
        "why": (
            "مجموع سطرهای بالا: {{ claim.ca_widget_total_traffic.computed }} در کتابخانه."
            " تقریباً همهٔ اختلاف از ترافیک موازی‌سازی تنسوریِ گذر رو به جلوی تکراری است که"
            " ابزار آن را نمی‌شمارد."
        ),
    },
    "ca_table_tp_traffic": {
        "source": "بخش دوم (جدول راهبردها با شانزده دستگاه)",
        "statement": (
            "موازی‌سازی تنسوری روی {{ claim.ca_table_tp_traffic.tp }} دستگاه برای هر GPU در"
            " هر گام {{ claim.ca_table_tp_traffic.stated }} می‌فرستد."
        ),
        "why": (
            "عدد منبع چهار all-reduce در هر لایه برای"
            " {{ claim.ca_table_tp_traffic.source_microbatches }} ریزدسته است، یعنی"
            " {{ claim.ca_table_tp_traffic.source_way }}، آن هم در جدولی با"
            " {{ claim.ca_table_tp_traffic.gpus }} دستگاه که سطرهای موازی‌سازی داده‌اش در هر"
            " گام فقط یک همگام‌سازی می‌شمارند. روی همین دستگاه‌ها، اگر موازی‌سازی تنسوری با درجهٔ"
            " {{ claim.ca_table_tp_traffic.tp }} باشد، {{ claim.ca_table_tp_traffic.replicas }}"
            " نسخه از مدل باقی می‌ماند که هر کدام"
            " {{ claim.ca_table_tp_traffic.microbatches }} ریزدسته از گام را اجرا می‌کند، و"
            " بازمحاسبهٔ کامل دو all-reduce گذر رو به جلو را تکرار می‌کند:"
            " {{ claim.ca_table_tp_traffic.computed }}."
        ),
    },
    "ca_table_pp_traffic": {
        "source": "بخش دوم (جدول راهبردها با شانزده دستگاه)",
        "statement": (
            "خط لوله‌ای با {{ claim.ca_table_pp_traffic.gpus }} مرحله برای هر GPU در هر گام"
            " {{ claim.ca_table_pp_traffic.stated }} می‌فرستد."
        ),
        "why": (
            "با یک نسخه از مدل، خط لوله همهٔ {{ claim.ca_table_pp_traffic.microbatches }}"
            " ریزدستهٔ گام را اجرا می‌کند و هر کدام فعال‌سازی‌هایش را به جلو و گرادیانش را به"
            " عقب می‌فرستد: {{ claim.ca_table_pp_traffic.computed }}. عدد منبع همان چیزی است"
            " که {{ claim.ca_table_pp_traffic.source_microbatches }} ریزدسته می‌فرستند، یعنی"
            " {{ claim.ca_table_pp_traffic.source_way }}: سطرهای جدول منبع تعداد ریزدسته‌های"
            " متفاوتی را می‌شمارند."
        ),
    },
    "fa_offload_gpus": {
        "source": "تمرین‌ها (ZeRO-Offload)",
        "statement": (
            "با انتقال حالت‌های بهینه‌ساز به CPU، مدلی با"
            " {{ claim.fa_offload_gpus.params }} پارامتر می‌تواند به‌جای"
            " {{ claim.fa_offload_gpus.source_without }} GPU روی"
            " {{ claim.fa_offload_gpus.stated }} GPU آموزش ببیند، به بهای گام‌های بهینه‌سازی که"
            " {{ claim.fa_offload_gpus.slow_low | to claim.fa_offload_gpus.slow_high }}"
            " کندترند."
        ),
        "why": (
            "روش ZeRO-Offload وزن‌های bf16 را روی GPUها نگه می‌دارد و گرادیان‌ها، نسخهٔ اصلی و"
            " گشتاورها را به حافظهٔ CPU می‌برد: {{ claim.fa_offload_gpus.cpu_states }} برای این"
            " مدل، بیش از {{ claim.fa_offload_gpus.node_ram }} حافظهٔ یک گره. پس به هر حال گرهٔ"
            " دومی لازم است و GPUهایش هم با آن می‌آیند: {{ claim.fa_offload_gpus.computed }}،"
            " همان تعدادی که بدون انتقال به حافظهٔ میزبان لازم است. اگر نسخهٔ اصلی و گشتاورها"
            " به‌جای آن روی NVMe بروند (ZeRO-Infinity)، مدل روی"
            " {{ claim.fa_offload_gpus.nvme }} GPU جا می‌شود. کندی در اینجا محاسبه نمی‌شود:"
            " بستگی دارد به اینکه چه بخشی از ترافیک"
            " PCIe ({{ claim.fa_offload_gpus.pcie }} برای هر GPU در هر گام) و از گام CPU"
            " با کار GPUها هم‌پوشانی دارد."
        ),
    },
})

_ZERO_TABLE = {
    2: "وقتی گرادیان‌ها شارد شده‌اند، بافر کاملی برای جمع زدن در کار نیست، مگر آنکه یکی"
       " نگه داشته شود.",
    3: "ZeRO-3 افزون بر این، پیش از گذر رو به جلو و گذر رو به عقبِ هر ریزدسته وزن‌ها را گرد"
       " می‌آورد.",
}
for _stage, _id in ((2, "ca_table_zero_two_traffic"), (3, "ca_table_zero_three_traffic")):
    CLAIMS[_id] = {
        "source": "بخش دوم (جدول راهبردها با شانزده دستگاه)",
        "statement": (
            f"ZeRO-{_stage} روی {{{{ claim.{_id}.gpus }}}} دستگاه برای هر GPU در هر گام"
            f" {{{{ claim.{_id}.stated }}}} می‌فرستد."
        ),
        "why": (
            "منبع در هر گام فقط یک همگام‌سازی گرادیان‌ها را می‌شمارد، گویی گرادیان‌های"
            " ریزدسته‌ها اول در یک بافر کامل جمع زده می‌شوند: با تعداد دقیق پارامترهای"
            f" Llama 3 70B {{{{ claim.{_id}.once_per_step }}}}، که با تعداد گرد همان عدد"
            f" منبع است. {_ZERO_TABLE[_stage]} اگر به‌جای آن برای هر یک از"
            f" {{{{ claim.{_id}.microbatches }}}} ریزدسته یک reduce-scatter انجام شود، که"
            " پیش‌فرض DeepSpeed و FSDP است، جدول کتابخانه"
            f" {{{{ claim.{_id}.computed }}}} می‌شمارد."
        ),
    }

# The Persian lesson's memory calculator, row by row of the table its demo prints.
_CALC_MODELS = {
    "": "همان شکلی که خود درس به این مدل می‌دهد",
    "llama3-70b": "Llama 3 70B",
    "llama3-405b": "Llama 3 405B",
}
_CALC_ROWS = {  # id: (sharded, model, what differs from the prose)
    "fa_calc_seven_b_one_gpu": (False, "", (
        "در هر دو حالت مدل جا نمی‌شود، هرچند متن درس حالت‌ها را"
        " {{ claim.fa_calc_seven_b_one_gpu.prose }} می‌شمارد و کنارشان برای فعال‌سازی‌ها"
        " جا باقی می‌گذارد.")),
    "fa_calc_seven_b_fsdp_eight": (True, "", "در هر دو حالت مدل جا می‌شود."),
    "fa_calc_seventy_b_one_gpu": (False, "llama3-70b", (
        "متن درس برای هر GPU در موازی‌سازی داده {{ claim.fa_calc_seventy_b_one_gpu.prose }}"
        " می‌گوید: فقط حالت‌ها.")),
    "fa_calc_seventy_b_fsdp_eight": (True, "llama3-70b", (
        "جدول FSDP درس برای همین GPUها {{ claim.fa_calc_seventy_b_fsdp_eight.prose }}"
        " می‌گوید: فقط حالت‌ها.")),
    "fa_calc_seventy_b_fsdp_sixteen": (True, "llama3-70b", (
        "متن درس می‌گوید با این تعداد GPU حافظهٔ هر کدام به زیر"
        " {{ claim.fa_calc_seventy_b_fsdp_sixteen.gpu_memory }} می‌رسد، و ماشین‌حساب خودش"
        " چاپ می‌کند که نمی‌رسد. حالت‌ها جا می‌شوند؛ فعال‌سازی‌ها فقط در صورتی کنارشان جا"
        " می‌شوند که دوباره محاسبه شوند: با بازمحاسبهٔ کامل، کتابخانه"
        " {{ claim.fa_calc_seventy_b_fsdp_sixteen.full_recompute }} می‌شمارد.")),
    "fa_calc_largest_fsdp_sixty_four": (True, "llama3-405b", (
        "در هیچ‌کدام مدل جا نمی‌شود. با بازمحاسبهٔ کامل، کتابخانه"
        " {{ claim.fa_calc_largest_fsdp_sixty_four.full_recompute }} می‌شمارد که هنوز از"
        " {{ claim.fa_calc_largest_fsdp_sixty_four.gpu_memory }} بیشتر است.")),
    "fa_calc_largest_fsdp_one_twenty_eight": (True, "llama3-405b", (
        "در هیچ‌کدام مدل جا نمی‌شود. با بازمحاسبهٔ کامل، کتابخانه"
        " {{ claim.fa_calc_largest_fsdp_one_twenty_eight.full_recompute }} می‌شمارد که جا"
        " می‌شود؛ ماشین‌حساب نمی‌تواند به این برسد، چون فعال‌سازی‌هایش هرگز کم نمی‌شوند.")),
}
for _id, (_sharded, _model, _detail) in _CALC_ROWS.items():
    _where = (f"با FSDP روی {{{{ claim.{_id}.gpus }}}} GPU، ماشین‌حساب حافظهٔ درس برای مدلی"
              f" با {{{{ claim.{_id}.params }}}} پارامتر {{{{ claim.{_id}.stated }}}} برای هر"
              " GPU چاپ می‌کند." if _sharded else
              f"روی یک GPU، ماشین‌حساب حافظهٔ درس برای مدلی با {{{{ claim.{_id}.params }}}}"
              f" پارامتر {{{{ claim.{_id}.stated }}}} چاپ می‌کند.")
    CLAIMS[_id] = {
        "source": "از آن استفاده کنید (جدول حافظه در اجرای نمایشی)",
        "statement": _where,
        "why": (
            "حالت‌های مدل در این ماشین‌حساب، با قرارداد درس فارسی، با محاسبهٔ کتابخانه یکی است:"
            f" {{{{ claim.{_id}.states }}}} برای هر GPU. اما فعال‌سازی‌ها، وقتی شکل مدل داده"
            " نشود، نصف حجم وزن‌ها فرض می‌شوند، یعنی"
            f" {{{{ claim.{_id}.listing_activations }}}}، هر طولی که دنباله داشته باشد و مدل"
            f" میان هر تعداد GPU که تقسیم شود. اگر همهٔ فعال‌سازی‌ها جز امتیازهای توجه نگه داشته"
            f" شوند، کتابخانه برای {_CALC_MODELS[_model]} و با"
            f" {{{{ claim.{_id}.seq }}}} توکنِ ماشین‌حساب، {{{{ claim.{_id}.activations }}}}"
            " می‌شمارد، پس"
            f" {{{{ claim.{_id}.computed }}}} برای هر GPU. {_detail}"
        ),
    }

# فصل «ترکیب متخصص‌ها».
CLAIMS.update({
    "ca_ep_all_to_all": {
        "source": "بخش دوم، زیربخش پنجم",
        "statement": (
            "در موازی‌سازی متخصص‌ها، متخصص‌های یک MoE میان GPUها تقسیم می‌شوند و هر لایه"
            " به یک all-to-all نیاز دارد."
        ),
        "why": (
            "در گذر رو به جلو در هر لایه دو all-to-all هست: ارسال (dispatch)، که هر توکن را به"
            " متخصص‌هایش می‌رساند، و بازگرداندن (combine)، که نتیجه‌ها را برمی‌گرداند؛ و دو تای دیگر در"
            " گذر رو به عقب: {{ claim.ca_ep_all_to_all.computed }} برای هر لایهٔ MoE و هر"
            " ریزدسته. آن هم فقط در لایه‌های MoE: {{ claim.ca_ep_all_to_all.dense }} لایهٔ"
            " نخست DeepSeek-V3 چگال‌اند و به هیچ all-to-allای نیاز ندارند."
        ),
    },
    "ca_moe_mfu": {
        "source": "بخش چهارم",
        "statement": (
            "با MoE و زمینهٔ بلند، MFU پایین‌تر از {{ claim.ca_moe_mfu.stated }}، که برای"
            " آموزش چگال خوب به شمار می‌آید، عادی است."
        ),
        "why": (
            "بنا بر گزارش DeepSeek-V3، مقدار MFU آن به {{ claim.ca_moe_mfu.computed }} از"
            " حداکثر توان bf16"
            " در H800 می‌رسد"
            " (شش FLOP برای هر پارامتر فعال و هر توکن، تقسیم بر ساعت‌های GPU پیش‌آموزش):"
            " درست زیر این مرز. اما ضرب‌های ماتریسی‌اش با fp8 انجام می‌شد که اوجش دو برابر"
            " است: نسبت به آن حداکثر توان، {{ claim.ca_moe_mfu.fp_eight }}. همان‌طور که منبع می‌گوید"
            " پایین‌تر است؛ اما چقدر پایین‌تر، به اوجی بستگی دارد که بر آن تقسیم می‌کنیم."
        ),
    },
    "fa_moe_order": {
        "source": "برای مطالعهٔ بیشتر",
        "statement": (
            "گزارش فنی DeepSeek-V3 نشان می‌دهد که معماری MoE هزینهٔ آموزش را به اندازهٔ یک"
            " مرتبهٔ بزرگی کاهش می‌دهد."
        ),
        "why": (
            "به‌ازای هر توکن، FLOPهای آموزش تابع پارامترهای فعال‌اند: یک مدل چگال با همهٔ"
            " {{ claim.fa_moe_order.total }} پارامتر، در مقایسه با"
            " {{ claim.fa_moe_order.active }} پارامتر فعالِ DeepSeek-V3،"
            " {{ claim.fa_moe_order.computed }} محاسبه می‌کرد، یعنی بیش از یک مرتبهٔ بزرگی."
            " حافظه کاهش نمی‌یابد: حالت‌های همهٔ"
            " متخصص‌ها نگه داشته می‌شوند."
        ),
    },
})
CLAIMS["ca_failures_daily"] = {
    "source": "بخش چهارم",
    "statement": ("در اجراهایی با هزاران GPU که هفته‌ها طول می‌کشند، خرابی سخت‌افزار رویدادی "
                  "روزانه است."),
    "why": ("{{ claim.ca_failures_daily.gpus }} GPU آموزش Llama 3 در "
            "{{ claim.ca_failures_daily.days }} روز {{ claim.ca_failures_daily.hardware }} "
            "توقف با منشأ GPU، میزبان یا شبکه داشتند: روزی "
            "{{ claim.ca_failures_daily.computed }} بار. پس رویدادی روزانه است، و حتی بیش از "
            "آن: چند بار در روز."),
}
