"""Texts of the claims register in Catalan."""

CLAIMS: dict[str, dict[str, str]] = {
    "ca_states_total": {
        "source": "§1",
        "statement": (
            "Un model de {{ claim.ca_states_total.params }} de paràmetres necessita "
            "aproximadament {{ claim.ca_states_total.stated }} només per als seus estats, "
            "abans de comptar cap activació."
        ),
        "why": (
            "AdamW en precisió mixta guarda {{ claim.ca_states_total.bytes_per_param }} per "
            "paràmetre: pesos i gradients en bf16, una còpia mestra en fp32 i dos moments en "
            "fp32. Això fa {{ claim.ca_states_total.computed }}, que la font arrodoneix; amb "
            "el nombre exacte de paràmetres de Llama 3 70B, són "
            "{{ claim.ca_states_total.exact_count }}."
        ),
    },
    "ca_gpus_to_hold": {
        "source": "§1",
        "statement": (
            "Aquests estats omplen {{ claim.ca_gpus_to_hold.stated }} GPU de "
            "{{ claim.ca_gpus_to_hold.gpu_memory }}."
        ),
        "why": (
            "Els estats dividits per la memòria d'una H100 donen exactament "
            "{{ claim.ca_gpus_to_hold.computed }}, sense res a arrodonir. Només es compta la "
            "memòria dels estats; les activacions i els buffers en demanen més."
        ),
    },
    "ca_eight_bit_adam": {
        "source": "§1 (figura interactiva: per què no hi cap)",
        "statement": (
            "Adam de vuit bits necessita {{ claim.ca_eight_bit_adam.stated }} per paràmetre."
        ),
        "why": (
            "Amb pesos i gradients en bf16 i la còpia mestra en fp32, Llama 3 70B amb Adam de "
            "vuit bits costa {{ claim.ca_eight_bit_adam.computed }} per paràmetre; la part "
            "pròpia de l'optimitzador és {{ claim.ca_eight_bit_adam.optimizer_part }}. Cada "
            "moment ocupa un byte per paràmetre més una escala fp32 per cada bloc de "
            "{{ claim.ca_eight_bit_adam.block_size }} valors, de manera que la xifra "
            "arrodonida de la font coincideix."
        ),
    },
    "ca_adafactor": {
        "source": "§1 (figura interactiva: per què no hi cap)",
        "statement": "Adafactor necessita {{ claim.ca_adafactor.stated }} per paràmetre.",
        "why": (
            "Amb pesos i gradients en bf16 i la còpia mestra en fp32, Llama 3 70B amb "
            "Adafactor costa {{ claim.ca_adafactor.computed }} per paràmetre; la part pròpia "
            "de l'optimitzador és {{ claim.ca_adafactor.optimizer_part }}. Adafactor no guarda "
            "primer moment i factoritza el segon moment de cada matriu en un vector de files "
            "i un de columnes, de manera que el seu estat gairebé desapareix al costat de les "
            "matrius d'un model gran i el total queda just per sobre dels pesos, els "
            "gradients i la còpia mestra. La xifra de la font és més alta; en el descodificador "
            "minúscul del curs, en què els vectors pesen més, és "
            "{{ claim.ca_adafactor.tiny_model }}."
        ),
    },
    "ca_lion": {
        "source": "§1 (figura interactiva: per què no hi cap)",
        "statement": "Lion necessita {{ claim.ca_lion.stated }} per paràmetre.",
        "why": (
            "Amb pesos i gradients en bf16 i la còpia mestra en fp32, Llama 3 70B amb Lion "
            "costa {{ claim.ca_lion.computed }} per paràmetre; la part pròpia de "
            "l'optimitzador és {{ claim.ca_lion.optimizer_part }}. Lion guarda un sol "
            "moment en fp32, de manera que la xifra coincideix."
        ),
    },
    "fa_adam_moments": {
        "source": "el problema",
        "statement": (
            "Per a un model de {{ claim.fa_adam_moments.params }} de paràmetres en FP16, els "
            "dos moments d'Adam hi afegeixen {{ claim.fa_adam_moments.stated }}."
        ),
        "why": (
            "Adam guarda dos moments per paràmetre, tots dos en fp32: "
            "{{ claim.fa_adam_moments.computed }}. La font els compta amb els dos bytes dels "
            "pesos; la seva pròpia taula de models reals, en canvi, els compta en fp32."
        ),
    },
    "fa_states_before_activations": {
        "source": "el problema",
        "statement": (
            "Abans de desar cap activació, un model de "
            "{{ claim.fa_states_before_activations.params }} de paràmetres ja ocupa "
            "{{ claim.fa_states_before_activations.stated }}."
        ),
        "why": (
            "Els pesos, els gradients i dos moments en fp32 sumen "
            "{{ claim.fa_states_before_activations.computed }} fins i tot sense còpia mestra, "
            "i {{ claim.fa_states_before_activations.with_master }} amb la còpia mestra en "
            "fp32 de la precisió mixta: en tots dos casos, més que els "
            "{{ claim.fa_states_before_activations.gpu_memory }} d'una A100, de manera que no "
            "queda espai per a les activacions. La suma de la font hereta el recompte erroni "
            "dels moments d'Adam."
        ),
    },
    "fa_mixed_precision_savings": {
        "source": "construïm-ho, cinquè pas; termes clau",
        "statement": (
            "La precisió mixta estalvia un {{ claim.fa_mixed_precision_savings.stated }} de la "
            "memòria, no la meitat, perquè la part dominant és l'optimitzador."
        ),
        "why": (
            "Respecte a l'entrenament en fp32 amb AdamW, la recepta mixta de la font estalvia "
            "un {{ claim.fa_mixed_precision_savings.without_master }} només perquè prescindeix "
            "de la còpia mestra en fp32. La precisió mixta tal com es practica conserva "
            "aquesta còpia, de manera que els estats del model costen el mateix que en fp32 i "
            "l'estalvi és d'un {{ claim.fa_mixed_precision_savings.computed }}; els guanys són "
            "a les activacions i en l'aritmètica en bf16, més ràpida."
        ),
    },
    "fa_gpus_for_largest_llama": {
        "source": "per què cal distribuir",
        "statement": (
            "Llama 3 405B necessita com a mínim {{ claim.fa_gpus_for_largest_llama.stated }} "
            "H100 per contenir els pesos, l'estat de l'optimitzador i els gradients."
        ),
        "why": (
            "És cert amb la convenció de la font (sense còpia mestra) i un nombre de "
            "paràmetres rodó. Amb la còpia mestra en fp32 de la precisió mixta i el nombre "
            "exacte de paràmetres dels pesos publicats, en calen "
            "{{ claim.fa_gpus_for_largest_llama.with_master }}."
        ),
    },
    "fa_min_gpus_states": {
        "source": "el problema",
        "statement": (
            "Amb l'estat de l'optimitzador i els gradients, un model de "
            "{{ claim.fa_min_gpus_states.params }} de paràmetres necessita com a mínim "
            "{{ claim.fa_min_gpus_states.stated }} GPU o més."
        ),
        "why": (
            "Amb la convenció de la mateixa font, els estats ocupen "
            "{{ claim.fa_min_gpus_states.states }}, que requereixen com a mínim "
            "{{ claim.fa_min_gpus_states.computed }} GPU de "
            "{{ claim.fa_min_gpus_states.gpu_memory }}; amb la còpia mestra en fp32, "
            "{{ claim.fa_min_gpus_states.with_master }}."
        ),
    },
    "fa_fsdp_gpus": {
        "source": "FSDP",
        "statement": (
            "Amb FSDP, un model de {{ claim.fa_fsdp_gpus.params }} de paràmetres necessita com "
            "a mínim {{ claim.fa_fsdp_gpus.stated }} GPU perquè càpiga en "
            "{{ claim.fa_fsdp_gpus.gpu_memory }} per GPU."
        ),
        "why": (
            "FSDP reparteix els estats a parts iguals, de manera que el mínim és el total dels "
            "estats dividit per la memòria d'una GPU, arrodonint per excés: "
            "{{ claim.fa_fsdp_gpus.computed }} amb la convenció de la font, "
            "{{ claim.fa_fsdp_gpus.with_master }} amb la còpia mestra en fp32. La font té raó: "
            "amb {{ claim.fa_fsdp_gpus.source_dp }} GPU no n'hi ha prou "
            "({{ claim.fa_fsdp_gpus.per_gpu_at_source_dp }} per GPU); la seva xifra és la "
            "potència de dos següent, una elecció habitual del grau de paral·lelisme de "
            "dades, no el mínim."
        ),
    },
    "fa_optimizer_gpus": {
        "source": "per què cal distribuir",
        "statement": (
            "Per a un model de {{ claim.fa_optimizer_gpus.params }} de paràmetres, només "
            "l'optimitzador ja necessita {{ claim.fa_optimizer_gpus.stated }} A100."
        ),
        "why": (
            "Dos moments en fp32 per paràmetre omplen exactament "
            "{{ claim.fa_optimizer_gpus.computed }} A100. Si es compta la còpia mestra en "
            "fp32, que en precisió mixta també guarda l'optimitzador, en són "
            "{{ claim.fa_optimizer_gpus.with_master }}."
        ),
    },
    "ca_zero_one_factor": {
        "source": "§2.2",
        "statement": "ZeRO-1 redueix {{ claim.ca_zero_one_factor.stated }} la memòria.",
        "why": (
            "És la xifra que destaca el mateix article de ZeRO (a la seva primera figura), no "
            "una errada de la font: el límit a mesura que creix el nombre de GPU, "
            "{{ claim.ca_zero_one_factor.limit }}, perquè el que continua replicat no es "
            "divideix mai. L'exemple del mateix article, "
            "{{ claim.ca_zero_one_factor.paper_params }} de paràmetres en "
            "{{ claim.ca_zero_one_factor.paper_gpus }} GPU, es redueix "
            "{{ claim.ca_zero_one_factor.paper }}; amb les {{ claim.ca_zero_one_factor.gpus }} "
            "GPU de la taula del capítol, els estats per GPU es redueixen "
            "{{ claim.ca_zero_one_factor.computed }}."
        ),
    },
    "fa_zero_one_factor": {
        "source": "DeepSpeed ZeRO",
        "statement": "ZeRO-1 redueix {{ claim.fa_zero_one_factor.stated }} la memòria.",
        "why": (
            "És la xifra que destaca el mateix article de ZeRO (a la seva primera figura), no "
            "una errada de la font: el límit a mesura que creix el nombre de GPU, "
            "{{ claim.fa_zero_one_factor.limit }}, perquè el que continua replicat no es "
            "divideix mai. L'exemple del mateix article, "
            "{{ claim.fa_zero_one_factor.paper_params }} de paràmetres en "
            "{{ claim.fa_zero_one_factor.paper_gpus }} GPU, es redueix "
            "{{ claim.fa_zero_one_factor.paper }}; amb les {{ claim.fa_zero_one_factor.gpus }} "
            "GPU de la taula del capítol, els estats per GPU es redueixen "
            "{{ claim.fa_zero_one_factor.computed }}."
        ),
    },
    "fa_zero_two_factor": {
        "source": "DeepSpeed ZeRO",
        "statement": "ZeRO-2 redueix {{ claim.fa_zero_two_factor.stated }} la memòria.",
        "why": (
            "És la xifra que destaca el mateix article de ZeRO (a la seva primera figura), no "
            "una errada de la font: el límit a mesura que creix el nombre de GPU, "
            "{{ claim.fa_zero_two_factor.limit }}, perquè el que continua replicat no es "
            "divideix mai. L'exemple del mateix article, "
            "{{ claim.fa_zero_two_factor.paper_params }} de paràmetres en "
            "{{ claim.fa_zero_two_factor.paper_gpus }} GPU, es redueix "
            "{{ claim.fa_zero_two_factor.paper }}; amb les {{ claim.fa_zero_two_factor.gpus }} "
            "GPU de la taula del capítol, els estats per GPU es redueixen "
            "{{ claim.fa_zero_two_factor.computed }}."
        ),
    },
    "ca_tp_nvlink_share": {
        "source": "§2 (el trànsit del paral·lelisme de tensors)",
        "statement": (
            "Per NVLink, el trànsit del paral·lelisme de tensors ocupa un "
            "{{ claim.ca_tp_nvlink_share.stated }} del temps de càlcul d'una capa."
        ),
        "why": (
            "Quatre all-reduces per capa per NVLink, comparats amb els productes de matrius "
            "de la capa a un {{ claim.ca_tp_nvlink_share.efficiency }} del pic de "
            "l'H100, donen un {{ claim.ca_tp_nvlink_share.computed }}: la xifra de la "
            "font un cop arrodonida."
        ),
    },
    "ca_tp_infiniband_ratio": {
        "source": "§2 (el trànsit del paral·lelisme de tensors)",
        "statement": (
            "Per InfiniBand, el mateix trànsit triga {{ claim.ca_tp_infiniband_ratio.stated }} "
            "el temps de càlcul."
        ),
        "why": (
            "La biblioteca compta els FLOP de la capa amb les puntuacions d'atenció "
            "completes i obté {{ claim.ca_tp_infiniband_ratio.computed }}, que arrodonit no "
            "dona la xifra de la font; si només es compta la meitat causal de les "
            "puntuacions, la que calcula un kernel causal, surt "
            "{{ claim.ca_tp_infiniband_ratio.causal_half }}, que sí que la dona. En tots dos "
            "casos, entre nodes, el trànsit triga més que el càlcul, i per això el "
            "paral·lelisme de tensors es queda dins d'un node."
        ),
    },
    "fa_deepseek_active": {
        "source": "Megatron-LM i paral·lelisme 3D",
        "statement": (
            "DeepSeek-V3 només activa {{ claim.fa_deepseek_active.stated }} dels seus "
            "{{ claim.fa_deepseek_active.total }} de paràmetres per token."
        ),
        "why": (
            "Comptat tensor per tensor a partir de la configuració publicada: cada token "
            "passa per l'atenció, les capes denses, l'encaminador, l'expert compartit i "
            "{{ claim.fa_deepseek_active.top_k }} dels "
            "{{ claim.fa_deepseek_active.experts }} experts encaminats de cada capa MoE; en "
            "total, {{ claim.fa_deepseek_active.computed }} de paràmetres dels "
            "{{ claim.fa_deepseek_active.total_computed }} que té el model."
        ),
    },
    "ca_pipeline_bubble": {
        "source": "§2.4 (figura interactiva: el pipeline simulat)",
        "statement": (
            "Amb {{ claim.ca_pipeline_bubble.stages }} etapes, "
            "{{ claim.ca_pipeline_bubble.microbatches }} microlots i la planificació 1F1B, la "
            "bombolla és d'un {{ claim.ca_pipeline_bubble.stated }}."
        ),
        "why": (
            "El cronograma simulat deixa inactiu un "
            "{{ claim.ca_pipeline_bubble.computed }} del temps de les etapes, exactament la "
            "ràtio de la fórmula: el nombre d'etapes menys u dividit pel nombre de microlots "
            "més el nombre d'etapes menys u."
        ),
    },
    "fa_bubble_one_microbatch": {
        "source": "construïm-ho, tercer pas",
        "statement": (
            "Amb {{ claim.fa_bubble_one_microbatch.stages }} etapes i un sol microlot, la "
            "bombolla és d'un {{ claim.fa_bubble_one_microbatch.stated }}: en tot moment, tres "
            "de les quatre GPU estan inactives."
        ),
        "why": (
            "Un sol microlot travessa les etapes una darrere l'altra, de manera que cada etapa "
            "només treballa una quarta part del pas: el temps inactiu és exactament un "
            "{{ claim.fa_bubble_one_microbatch.computed }}."
        ),
    },
    "fa_bubble_sixteen": {
        "source": "construïm-ho, tercer pas",
        "statement": (
            "Amb {{ claim.fa_bubble_sixteen.microbatches }} microlots, la bombolla baixa fins a "
            "aproximadament un {{ claim.fa_bubble_sixteen.stated }}."
        ),
        "why": (
            "El pipeline simulat està inactiu un {{ claim.fa_bubble_sixteen.computed }} del "
            "temps, la fracció que mesura la simulació de la mateixa lliçó. La seva xifra és "
            "la bombolla dividida pel temps ideal, sense bombolla, "
            "{{ claim.fa_bubble_sixteen.over_ideal }}, la ràtio que Narayanan et al. anomenen "
            "fracció de temps de bombolla (bubble time fraction): una ràtio respecte a la "
            "feina, no una fracció del pas."
        ),
    },
    "ca_checkpoint_ten_x": {
        "source": "§3",
        "statement": (
            "El recàlcul d'activacions redueix fins a {{ claim.ca_checkpoint_ten_x.stated }} "
            "la memòria d'activacions."
        ),
        "why": (
            "No és cap límit: el factor depèn del nombre de capes i de la longitud de la "
            "seqüència. El model petit del mateix capítol, comptat per la biblioteca, redueix "
            "aquesta memòria {{ claim.ca_checkpoint_ten_x.tiny_model }}. Llama 3 70B amb la "
            "seva longitud d'entrenament i FlashAttention, que no guarda cap puntuació "
            "d'atenció, en necessita al pic {{ claim.ca_checkpoint_ten_x.computed }} menys "
            "segons les fórmules de Korthikanti et al., si només es guarda l'entrada de cada "
            "capa; si es guardessin les puntuacions, {{ claim.ca_checkpoint_ten_x.with_scores }}."
        ),
    },
    "ca_recompute_thirty": {
        "source": "§3",
        "statement": (
            "El recàlcul d'activacions costa aproximadament un "
            "{{ claim.ca_recompute_thirty.stated }} més de temps."
        ),
        "why": (
            "Recalcular afegeix un forward més a un forward i un backward "
            "que en costa el doble: un {{ claim.ca_recompute_thirty.computed }} més de "
            "feina, que la font arrodoneix. Amb el model petit d'aquest curs, el temps mesurat "
            "és un altre, com mostra el capítol."
        ),
    },
    "fa_recompute_thirty_three": {
        "source": "exercicis",
        "statement": (
            "El recàlcul complet d'activacions costa aproximadament un "
            "{{ claim.fa_recompute_thirty_three.stated }} més de càlcul."
        ),
        "why": (
            "Un forward més, sumat a un forward i un backward que "
            "en costa el doble: un {{ claim.fa_recompute_thirty_three.computed }}."
        ),
    },
    "fa_layer_activations": {
        "source": "el problema",
        "statement": (
            "Per a una seqüència de {{ claim.fa_layer_activations.seq }} tokens i un model "
            "d'amplada {{ claim.fa_layer_activations.hidden }}, les activacions d'una capa "
            "ocupen aproximadament {{ claim.fa_layer_activations.stated }}."
        ),
        "why": (
            "Una confusió d'unitats: la frase següent de la font dona "
            "{{ claim.fa_layer_activations.source_total }} per a "
            "{{ claim.fa_layer_activations.layers }} capes, és a dir, "
            "{{ claim.fa_layer_activations.source_per_layer }} per capa: megabytes, no "
            "gigabytes. La fórmula de Korthikanti et al. per a aquesta capa dona "
            "{{ claim.fa_layer_activations.computed }} sense recàlcul i "
            "{{ claim.fa_layer_activations.selective }} amb recàlcul selectiu."
        ),
    },
    "ca_lora_optimizer_states": {
        "source": "§3",
        "statement": (
            "LoRA elimina el {{ claim.ca_lora_optimizer_states.stated }} dels estats de "
            "l'optimitzador."
        ),
        "why": (
            "Adaptar les projeccions d'atenció de Llama 3 8B amb rang "
            "{{ claim.ca_lora_optimizer_states.rank }} vol dir entrenar "
            "{{ claim.ca_lora_optimizer_states.trainable }} paràmetres; només aquests tenen "
            "còpia mestra i moments, de manera que desapareix el "
            "{{ claim.ca_lora_optimizer_states.computed }} dels estats de l'optimitzador. Els "
            "pesos congelats continuen ocupant memòria."
        ),
    },
    "ca_ridge_point": {
        "source": "§5 (figura interactiva: el sostre del maquinari)",
        "statement": "El colze de l'H100 és a {{ claim.ca_ridge_point.stated }}.",
        "why": (
            "El pic dens en bf16 de la fitxa tècnica dividit per l'amplada de banda de memòria "
            "dona {{ claim.ca_ridge_point.computed }}, que arrodonit queda una unitat per sota "
            "de la xifra de la font: la font divideix per la mateixa amplada de banda un pic "
            "arrodonit a l'alça a {{ claim.ca_ridge_point.rounded_peak }} TFLOP/s. La "
            "diferència rau en l'arrodoniment d'una dada d'entrada, no en el mètode."
        ),
    },
    "ca_decode_intensity": {
        "source": "§5 (figura interactiva: el sostre del maquinari)",
        "statement": (
            "En descodificar un token, el producte d'un vector per les matrius de pesos té una "
            "intensitat igual a {{ claim.ca_decode_intensity.stated }}, no els dos FLOP per "
            "byte que se citen sovint."
        ),
        "why": (
            "Cada pes que es llegeix, dos bytes en bf16, serveix per a una multiplicació i una "
            "suma; si també es compten el vector i la sortida que es mouen, la intensitat és "
            "{{ claim.ca_decode_intensity.computed }}. Els dos que se citen sovint són per "
            "paràmetre, no per byte."
        ),
    },
    "ca_decode_share": {
        "source": "§5 (figura interactiva: el sostre del maquinari)",
        "statement": (
            "Amb lots d'una sola seqüència, la GPU fa com a molt el "
            "{{ claim.ca_decode_share.stated }} del que podria fer."
        ),
        "why": (
            "El rendiment assolible és l'amplada de banda multiplicada per la intensitat, de "
            "manera que la fracció del pic és la intensitat dividida pel colze: "
            "{{ claim.ca_decode_share.computed }}."
        ),
    },
    "ca_decode_batch_ridge": {
        "source": "§5",
        "statement": (
            "La descodificació arriba al colze de l'H100 amb uns "
            "{{ claim.ca_decode_batch_ridge.stated }} tokens alhora."
        ),
        "why": (
            "La intensitat d'un lot de descodificacions creix gairebé com el lot, de manera que "
            "travessa el colze amb {{ claim.ca_decode_batch_ridge.computed }} seqüències per a "
            "pesos d'aquesta amplada; la xifra de la font és la potència de dos següent."
        ),
    },
    "ca_training_intensity": {
        "source": "§5 (figura interactiva: el sostre del maquinari)",
        "statement": (
            "Un pas d'entrenament amb {{ claim.ca_training_intensity.tokens }} tokens arriba a "
            "{{ claim.ca_training_intensity.stated }}."
        ),
        "why": (
            "És la intensitat d'aquests tokens en una matriu de pesos que passa de l'amplada "
            "del model a quatre vegades aquesta amplada: "
            "{{ claim.ca_training_intensity.computed }}, molt per sobre del colze."
        ),
    },
    "ca_mfu_two_ways": {
        "source": "§4 (figura interactiva: on es perd el temps)",
        "statement": (
            "Sis FLOP per paràmetre i per token, per a {{ claim.ca_mfu_two_ways.params }} de "
            "paràmetres i {{ claim.ca_mfu_two_ways.tokens }} tokens per pas, dividits pel temps "
            "del pas i pel pic de {{ claim.ca_mfu_two_ways.gpus }} H100, donen un MFU del "
            "{{ claim.ca_mfu_two_ways.stated }}."
        ),
        "why": (
            "L'aritmètica és correcta: amb el pic dens en bf16 de l'H100, en surt un "
            "{{ claim.ca_mfu_two_ways.computed }}."
        ),
    },
    "fa_cost_llama": {
        "source": "exercicis",
        "statement": (
            "Entrenar Llama 3 405B va costar uns {{ claim.fa_cost_llama.stated }} en càlcul."
        ),
        "why": (
            "Meta declara {{ claim.fa_cost_llama.gpu_hours }} hores de GPU H100 per a aquest "
            "entrenament; al preu que la lliçó fixa per a cada hora d'una H100, això fa "
            "{{ claim.fa_cost_llama.computed }}. A partir dels FLOP de l'article i de l'MFU que "
            "declara, l'estimació és més baixa, "
            "{{ claim.fa_cost_llama.low | to claim.fa_cost_llama.high }}: les hores de GPU "
            "inclouen més coses que l'entrenament final amb la millor utilització."
        ),
    },
    "fa_cost_deepseek": {
        "source": "exercicis",
        "statement": "DeepSeek-V3 va costar uns {{ claim.fa_cost_deepseek.stated }}.",
        "why": (
            "Les hores de GPU H800 de l'informe, al preu de lloguer que suposa, donen "
            "{{ claim.fa_cost_deepseek.computed }}, només per a l'entrenament final, no per a "
            "la recerca que el va precedir."
        ),
    },
}

CLAIMS.update({
    "fa_master_weight_bytes": {
        "source": "entrenament en precisió mixta",
        "statement": (
            "L'optimitzador guarda els pesos mestres en FP32, a "
            "{{ claim.fa_master_weight_bytes.stated }} cadascun, perquè les actualitzacions "
            "siguin precises."
        ),
        "why": (
            "La xifra d'FP32 compta bits: el format en té "
            "{{ claim.fa_master_weight_bytes.bits }}, de manera que un pes mestre ocupa "
            "{{ claim.fa_master_weight_bytes.computed }}, que és el que compten les taules de "
            "memòria de la mateixa lliçó. Una confusió de bits amb bytes."
        ),
    },
    "ca_model_size": {
        "source": "§1 (la columna comptada a partir dels arrays del projecte)",
        "statement": (
            "El model del projecte té {{ claim.ca_model_size.stated }} paràmetres, i el "
            "capítol en compta els quatre arrays de nombres de vuit bytes."
        ),
        "why": (
            "El capítol compta el seu propi model de dues maneres diferents. La secció sobre "
            "el recàlcul "
            "d'activacions diu {{ claim.ca_model_size.section_three }}, i la biblioteca, "
            "comptant el mateix descodificador amb els {{ claim.ca_model_size.blocks }} blocs "
            "que fa servir aquella secció, en troba {{ claim.ca_model_size.computed }}. La "
            "xifra de la primera secció no correspon a cap nombre enter de blocs: amb dos, la "
            "biblioteca en compta {{ claim.ca_model_size.two_blocks }}. Les dues seccions no "
            "descriuen el mateix model, i el capítol no ho diu."
        ),
    },
    "fa_dp_unweighted_mean": {
        "source": "construïm-ho, primer pas",
        "statement": (
            "Fer la mitjana de les pèrdues i dels gradients de les GPU dona els del lot "
            "sencer: la demostració mostra la mateixa pèrdua i el mateix gradient amb una, "
            "dues, quatre i vuit GPU, una diferència del "
            "{{ claim.fa_dp_unweighted_mean.stated }}."
        ),
        "why": (
            "El codi fa la mitjana del gradient mitjà de cada GPU donant a totes el mateix "
            "pes. Això només és la mitjana del lot sencer quan els trossos són iguals, com a "
            "la demostració; però el codi també accepta trossos desiguals i dona un exemple "
            "més a les primeres GPU. Si els {{ claim.fa_dp_unweighted_mean.batch }} exemples "
            "de la demostració es reparteixen entre {{ claim.fa_dp_unweighted_mean.gpus }} "
            "GPU, l'error de la seva mitjana és un {{ claim.fa_dp_unweighted_mean.computed }} "
            "de l'entrada més gran del gradient, en la xarxa petita del curs. La biblioteca "
            "pondera el gradient de cada GPU pel nombre d'exemples que té i coincideix amb el "
            "lot sencer llevat de l'arrodoniment de coma flotant."
        ),
    },
    "fa_zero_two_traffic": {
        "source": "DeepSpeed ZeRO (la taula de les etapes)",
        "statement": (
            "ZeRO-2 envia una mica més que el paral·lelisme de dades: un trànsit superior a "
            "{{ claim.fa_zero_two_traffic.stated }} el seu."
        ),
        "why": (
            "En cada pas, ZeRO-2 fa un reduce-scatter dels gradients i un all-gather dels "
            "pesos actualitzats; en un anell, totes dues operacions mouen exactament els bytes "
            "de l'all-reduce del paral·lelisme de dades: "
            "{{ claim.fa_zero_two_traffic.computed }} el seu trànsit, no més. El segon "
            "all-gather dels pesos de ZeRO-3 el porta a "
            "{{ claim.fa_zero_two_traffic.zero_three }}. ZeRO-2 només envia més quan el "
            "gradient de cada microlot passa per un reduce-scatter en lloc d'acumular-se, "
            "l'opció per defecte de DeepSpeed i d'FSDP: amb "
            "{{ claim.fa_zero_two_traffic.microbatches }} microlots per pas, "
            "{{ claim.fa_zero_two_traffic.accumulating }}, molt més que una mica."
        ),
    },
    "fa_ring_steps": {
        "source": "construïm-ho, primer pas",
        "statement": (
            "En l'all-reduce en anell d'NCCL sobre {{ claim.fa_ring_steps.gpus }} GPU, cada "
            "GPU té la mitjana completa al cap de N menys un passos "
            "({{ claim.fa_ring_steps.stated }})."
        ),
        "why": (
            "Al cap de N menys un passos ({{ claim.fa_ring_steps.reduce_scatter }}), cada GPU "
            "només té el seu propi tros sumat del tot: és la primera meitat, el reduce-scatter. "
            "Després, la segona meitat, l'all-gather, fa circular els trossos acabats per l'anell "
            "en tants passos més, {{ claim.fa_ring_steps.computed }} en total, tal com els compta "
            "l'anell simulat. El volum que dona la mateixa lliçó, dues vegades el gradient per N "
            "menys u dividit per N, ja compta les dues meitats."
        ),
    },
    "fa_nvlink_bandwidth": {
        "source": "paral·lelisme de tensors",
        "statement": (
            "NVLink mou {{ claim.fa_nvlink_bandwidth.stated }} entre les GPU d'un "
            "node, i InfiniBand, uns {{ claim.fa_nvlink_bandwidth.infiniband }} entre nodes."
        ),
        "why": (
            "La xifra d'NVLink és la que NVIDIA dona per a l'H100: la suma dels dos sentits. "
            "El temps d'una operació col·lectiva el fixa el que una GPU envia en un sol "
            "sentit: {{ claim.fa_nvlink_bandwidth.computed }}, la xifra que fa "
            "servir aquest curs. La d'InfiniBand ja és d'un sol sentit, de manera que la "
            "lliçó compara els dos enllaços amb convencions diferents, i la distància entre "
            "tots dos sembla el doble del que és."
        ),
    },
    "ca_link_bandwidths": {
        "source": "§2 (el trànsit del paral·lelisme de tensors)",
        "statement": (
            "NVLink 4 mou {{ claim.ca_link_bandwidths.stated }} dins d'un node; "
            "InfiniBand NDR, {{ claim.ca_link_bandwidths.infiniband }} entre nodes."
        ),
        "why": (
            "Totes dues són xifres de la fitxa tècnica per a una GPU i un sol sentit, la "
            "convenció que fixa el temps d'una operació col·lectiva, i totes dues coincideixen "
            "amb el catàleg de la biblioteca. Cap col·lectiva no les assoleix: ajustat a una "
            "mesura publicada de vuit H100, el model dona a un all-reduce d'un gibibyte una "
            "amplada de banda de bus de {{ claim.ca_link_bandwidths.achieved }}, el "
            "{{ claim.ca_link_bandwidths.share }} de la d'NVLink."
        ),
    },
    "fa_moe_memory": {
        "source": "Megatron-LM i paral·lelisme 3D",
        "statement": (
            "Com que cada token només activa {{ claim.fa_moe_memory.stated }} de "
            "paràmetres, cada GPU només ha de calcular els paràmetres actius i guardar-ne "
            "les activacions."
        ),
        "why": (
            "El càlcul i les activacions segueixen els paràmetres actius, token a token. La "
            "memòria no: els pesos, els gradients i els estats de l'optimitzador de tots els "
            "experts es queden en alguna GPU, tots els {{ claim.fa_moe_memory.computed }} de "
            "paràmetres, {{ claim.fa_moe_memory.states }} d'estats del model, davant dels "
            "{{ claim.fa_moe_memory.active_states }} que caldrien si només es guardessin els "
            "actius. El "
            "paral·lelisme d'experts reparteix els experts entre les GPU; no els elimina."
        ),
    },
    "fa_moe_gpu_share": {
        "source": "Megatron-LM i paral·lelisme 3D",
        "statement": (
            "DeepSeek-V3 es va entrenar amb {{ claim.fa_moe_gpu_share.deepseek_gpus }} H800, "
            "menys d'una vuitena part de les GPU de Meta, un "
            "{{ claim.fa_moe_gpu_share.stated }}."
        ),
        "why": (
            "Exactament una vuitena part, un {{ claim.fa_moe_gpu_share.computed }}: els "
            "informes donen {{ claim.fa_moe_gpu_share.deepseek_gpus }} H800 davant de les "
            "{{ claim.fa_moe_gpu_share.meta_gpus }} H100 de Meta. No pas menys."
        ),
    },
    "ca_widget_memory": {
        "source": "§2 (figura interactiva: les cinc dimensions)",
        "statement": (
            "Amb {{ claim.ca_widget_memory.gpus }} GPU, paral·lelisme de dades de "
            "{{ claim.ca_widget_memory.dp }}, paral·lelisme de tensors de "
            "{{ claim.ca_widget_memory.tp }} i un pipeline de {{ claim.ca_widget_memory.pp }} "
            "etapes, cada GPU guarda {{ claim.ca_widget_memory.stated }}."
        ),
        "why": (
            "La figura compta els estats amb un nombre rodó de "
            "{{ claim.ca_widget_memory.params }} de paràmetres i l'entrada de cada capa per als "
            "microlots en curs: en surten {{ claim.ca_widget_memory.nominal }}, la seva xifra. "
            "La biblioteca compta {{ claim.ca_widget_memory.computed }} per a la GPU més "
            "carregada: el nombre exacte de paràmetres de Llama 3 70B amb l'embedding a la "
            "primera etapa, la capa que es reconstrueix durant el backward, i el context "
            "de CUDA, els buffers de comunicació i la fragmentació. ZeRO-1 és l'etapa que "
            "implica la xifra de la figura; el recàlcul és complet."
        ),
    },
    "ca_widget_dp_traffic": {
        "source": "§2 (figura interactiva: les cinc dimensions)",
        "statement": (
            "Amb la mateixa configuració, cada GPU envia "
            "{{ claim.ca_widget_dp_traffic.stated }} per pas per al paral·lelisme de dades."
        ),
        "why": (
            "Un all-reduce de la part dels gradients en bf16 que té la GPU, un cop per pas: "
            "{{ claim.ca_widget_dp_traffic.computed }} amb el nombre exacte de paràmetres, "
            "{{ claim.ca_widget_dp_traffic.nominal }} amb el nombre rodó, la xifra de la "
            "figura."
        ),
    },
    "ca_widget_tp_traffic": {
        "source": "§2 (figura interactiva: les cinc dimensions)",
        "statement": (
            "Amb la mateixa configuració, cada GPU envia "
            "{{ claim.ca_widget_tp_traffic.stated }} per pas per al paral·lelisme de tensors."
        ),
        "why": (
            "La memòria de la figura només guarda l'entrada de cada capa, de manera que cada "
            "backward torna a fer primer el forward de la seva capa, i amb ell "
            "els dos all-reduces del forward: "
            "{{ claim.ca_widget_tp_traffic.all_reduces }} per capa i per microlot, no els "
            "{{ claim.ca_widget_tp_traffic.widget_all_reduces }} que compta la figura. La "
            "biblioteca en compta {{ claim.ca_widget_tp_traffic.computed }}; sense repetir el "
            "forward serien {{ claim.ca_widget_tp_traffic.four }}, la xifra de la "
            "figura, que contradiu la seva pròpia memòria."
        ),
    },
    "ca_widget_pp_traffic": {
        "source": "§2 (figura interactiva: les cinc dimensions)",
        "statement": (
            "Amb la mateixa configuració, cada GPU envia "
            "{{ claim.ca_widget_pp_traffic.stated }} per pas entre etapes del pipeline."
        ),
        "why": (
            "Per a cada microlot, una etapa intermèdia envia les activacions endavant i el "
            "seu gradient enrere, i cada rang del paral·lelisme de tensors n'envia la seva "
            "part: {{ claim.ca_widget_pp_traffic.computed }} en "
            "{{ claim.ca_widget_pp_traffic.microbatches }} microlots. La xifra de la figura "
            "és gairebé el doble, {{ claim.ca_widget_pp_traffic.both_ways }}: el que la GPU "
            "envia i el que rep, comptats junts."
        ),
    },
    "ca_widget_total_traffic": {
        "source": "§2 (figura interactiva: les cinc dimensions)",
        "statement": (
            "En total, cada GPU de la mateixa configuració envia "
            "{{ claim.ca_widget_total_traffic.stated }} per pas."
        ),
        "why": (
            "La suma dels termes anteriors: {{ claim.ca_widget_total_traffic.computed }} a la "
            "biblioteca. Gairebé tota la diferència és el trànsit del paral·lelisme de "
            "tensors del forward repetit, que la figura no compta."
        ),
    },
    "ca_table_tp_traffic": {
        "source": "§2 (la taula d'estratègies amb setze dispositius)",
        "statement": (
            "El paral·lelisme de tensors en {{ claim.ca_table_tp_traffic.tp }} dispositius "
            "envia {{ claim.ca_table_tp_traffic.stated }} per GPU i per pas."
        ),
        "why": (
            "La xifra de la font són quatre all-reduces per capa per a "
            "{{ claim.ca_table_tp_traffic.source_microbatches }} microlots, "
            "{{ claim.ca_table_tp_traffic.source_way }}, en una taula de "
            "{{ claim.ca_table_tp_traffic.gpus }} dispositius en què les files del "
            "paral·lelisme de dades compten una sola sincronització per pas. En aquests "
            "dispositius, el paral·lelisme de tensors de {{ claim.ca_table_tp_traffic.tp }} "
            "deixa {{ claim.ca_table_tp_traffic.replicas }} rèpliques, cadascuna amb "
            "{{ claim.ca_table_tp_traffic.microbatches }} microlots del pas, i el recàlcul "
            "complet repeteix els dos all-reduces del forward: "
            "{{ claim.ca_table_tp_traffic.computed }}."
        ),
    },
    "ca_table_pp_traffic": {
        "source": "§2 (la taula d'estratègies amb setze dispositius)",
        "statement": (
            "Un pipeline de {{ claim.ca_table_pp_traffic.gpus }} etapes envia "
            "{{ claim.ca_table_pp_traffic.stated }} per GPU i per pas."
        ),
        "why": (
            "Amb una sola rèplica, el pipeline processa tots els "
            "{{ claim.ca_table_pp_traffic.microbatches }} microlots del pas, i cadascun envia "
            "les activacions endavant i el gradient enrere: "
            "{{ claim.ca_table_pp_traffic.computed }}. La xifra de la font és el que envien "
            "{{ claim.ca_table_pp_traffic.source_microbatches }} microlots, "
            "{{ claim.ca_table_pp_traffic.source_way }}: les files de la seva taula compten "
            "nombres de microlots diferents."
        ),
    },
    "fa_offload_gpus": {
        "source": "exercicis (ZeRO-Offload)",
        "statement": (
            "Descarregar els estats de l'optimitzador a la CPU permet entrenar un model de "
            "{{ claim.fa_offload_gpus.params }} de paràmetres amb "
            "{{ claim.fa_offload_gpus.stated }} GPU en lloc de "
            "{{ claim.fa_offload_gpus.source_without }}, amb passos de l'optimitzador "
            "{{ claim.fa_offload_gpus.slow_low | to claim.fa_offload_gpus.slow_high }} "
            "més lents."
        ),
        "why": (
            "ZeRO-Offload deixa els pesos en bf16 a les GPU i porta els gradients, la còpia "
            "mestra i els moments a la memòria de la CPU: {{ claim.fa_offload_gpus.cpu_states }} "
            "per a aquest model, més que els {{ claim.fa_offload_gpus.node_ram }} d'un node. "
            "Cal un segon node igualment, i les seves GPU hi van incloses: "
            "{{ claim.fa_offload_gpus.computed }}, tantes com sense descàrrega. Si la còpia "
            "mestra i els moments van a NVMe (ZeRO-Infinity), el model sí que hi cap amb "
            "{{ claim.fa_offload_gpus.nvme }}. L'alentiment no es calcula aquí: depèn de "
            "quina part del trànsit per PCIe, {{ claim.fa_offload_gpus.pcie }} per GPU i per "
            "pas, i del pas de la CPU se solapa amb la feina de les GPU."
        ),
    },
})

_ZERO_TABLE = {
    2: "Amb els gradients particionats no hi ha cap buffer complet on sumar-los, tret que se'n "
       "guardi un.",
    3: "ZeRO-3, a més, reuneix els pesos abans del forward i del backward "
       "de cada microlot.",
}
for _stage, _id in ((2, "ca_table_zero_two_traffic"), (3, "ca_table_zero_three_traffic")):
    CLAIMS[_id] = {
        "source": "§2 (la taula d'estratègies amb setze dispositius)",
        "statement": (
            f"ZeRO-{_stage} en {{{{ claim.{_id}.gpus }}}} dispositius envia "
            f"{{{{ claim.{_id}.stated }}}} per GPU i per pas."
        ),
        "why": (
            "La font compta una sola sincronització de gradients per pas, com si els "
            "gradients dels microlots se sumessin abans en un buffer complet: "
            f"{{{{ claim.{_id}.once_per_step }}}} amb el nombre exacte de paràmetres de "
            "Llama 3 70B, la xifra de la font amb el nombre rodó. "
            f"{_ZERO_TABLE[_stage]} Si es fa un reduce-scatter per a cadascun dels "
            f"{{{{ claim.{_id}.microbatches }}}} microlots, l'opció per defecte de DeepSpeed "
            f"i d'FSDP, la taula de la biblioteca en compta {{{{ claim.{_id}.computed }}}}."
        ),
    }

# The Persian lesson's memory calculator, row by row of the table its demo prints.
_CALC_MODELS = {
    "": "les dimensions que la mateixa lliçó dona a aquest model",
    "llama3-70b": "Llama 3 70B",
    "llama3-405b": "Llama 3 405B",
}
_CALC_ROWS = {  # id: (sharded, model, what differs from the prose)
    "fa_calc_seven_b_one_gpu": (False, "", (
        "En cap dels dos casos no hi cap, tot i que el text de la lliçó compta els estats a "
        "{{ claim.fa_calc_seven_b_one_gpu.prose }} i hi deixa lloc al costat per a les "
        "activacions.")),
    "fa_calc_seven_b_fsdp_eight": (True, "", "En tots dos casos hi cap."),
    "fa_calc_seventy_b_one_gpu": (False, "llama3-70b", (
        "El text de la lliçó assigna a cada GPU del paral·lelisme de dades "
        "{{ claim.fa_calc_seventy_b_one_gpu.prose }}: només els estats.")),
    "fa_calc_seventy_b_fsdp_eight": (True, "llama3-70b", (
        "La taula d'FSDP de la lliçó assigna a les mateixes GPU "
        "{{ claim.fa_calc_seventy_b_fsdp_eight.prose }}: només els estats.")),
    "fa_calc_seventy_b_fsdp_sixteen": (True, "llama3-70b", (
        "El text de la lliçó diu que amb aquestes GPU cadascuna baixa de "
        "{{ claim.fa_calc_seventy_b_fsdp_sixteen.gpu_memory }}, i la seva calculadora diu "
        "que no. Els estats sí que hi caben; les activacions només hi caben al costat si es "
        "recalculen: amb recàlcul complet, la biblioteca en compta "
        "{{ claim.fa_calc_seventy_b_fsdp_sixteen.full_recompute }}.")),
    "fa_calc_largest_fsdp_sixty_four": (True, "llama3-405b", (
        "No hi cap en cap dels dos casos. Amb recàlcul complet, la biblioteca en compta "
        "{{ claim.fa_calc_largest_fsdp_sixty_four.full_recompute }}, encara per sobre de "
        "{{ claim.fa_calc_largest_fsdp_sixty_four.gpu_memory }}.")),
    "fa_calc_largest_fsdp_one_twenty_eight": (True, "llama3-405b", (
        "No hi cap en cap dels dos casos. Amb recàlcul complet, la biblioteca en compta "
        "{{ claim.fa_calc_largest_fsdp_one_twenty_eight.full_recompute }}, i hi cap: la "
        "calculadora no ho pot trobar, perquè les seves activacions no baixen mai.")),
}
for _id, (_sharded, _model, _detail) in _CALC_ROWS.items():
    _where = (f"Amb FSDP sobre {{{{ claim.{_id}.gpus }}}} GPU, la calculadora de memòria de "
              f"la lliçó dona {{{{ claim.{_id}.stated }}}} per GPU" if _sharded else
              f"En una sola GPU, la calculadora de memòria de la lliçó dona "
              f"{{{{ claim.{_id}.stated }}}}")
    CLAIMS[_id] = {
        "source": "ús de la calculadora (la taula de memòria de la demostració)",
        "statement": f"{_where} per a un model de {{{{ claim.{_id}.params }}}} de paràmetres.",
        "why": (
            "Els estats del model de la calculadora coincideixen amb els de la biblioteca amb "
            f"la convenció de la lliçó: {{{{ claim.{_id}.states }}}} per GPU. Les "
            "activacions, quan no se li donen les dimensions del model, són la meitat dels bytes "
            f"dels pesos, {{{{ claim.{_id}.listing_activations }}}}, sigui quina sigui la "
            "seqüència i sigui quin sigui el nombre de GPU entre les quals es reparteix el "
            "model. Per a "
            f"{_CALC_MODELS[_model]} amb els {{{{ claim.{_id}.seq }}}} tokens de la "
            "calculadora, si es guarden totes les activacions menys les puntuacions "
            f"d'atenció, la biblioteca en compta {{{{ claim.{_id}.activations }}}}, és a dir, "
            f"{{{{ claim.{_id}.computed }}}} per GPU. {_detail}"
        ),
    }

# The chapter "Mixture of experts".
CLAIMS.update({
    "ca_ep_all_to_all": {
        "source": "§2.5",
        "statement": (
            "El paral·lelisme d'experts reparteix els experts d'un MoE i requereix un "
            "all-to-all per capa."
        ),
        "why": (
            "N'hi ha dos per capa al forward, l'enviament que fa arribar cada "
            "token als seus experts i la recollida que en torna els resultats, i dos més al "
            "backward: {{ claim.ca_ep_all_to_all.computed | words }} per capa MoE i per "
            "microlot. I només a les capes MoE: les {{ claim.ca_ep_all_to_all.dense | words_f }} "
            "primeres capes de DeepSeek-V3 són denses i no en necessiten cap."
        ),
    },
    "ca_moe_mfu": {
        "source": "§4",
        "statement": (
            "Amb MoE i context llarg és normal tenir MFU per sota del "
            "{{ claim.ca_moe_mfu.stated }} que es considera bo per a l'entrenament dens."
        ),
        "why": (
            "L'informe de DeepSeek-V3 implica un {{ claim.ca_moe_mfu.computed }} del pic "
            "bf16 de l'H800 (sis FLOP per paràmetre actiu i per token, dividits per les "
            "hores de GPU del preentrenament): just per sota del llindar. Però els seus "
            "productes de matrius es feien en fp8, amb un pic el doble d'alt: respecte "
            "d'aquest pic, en surt un {{ claim.ca_moe_mfu.fp_eight }}. És més baix, com diu "
            "la font; fins a quin punt ho és depèn del pic que es prengui com a referència."
        ),
    },
    "fa_moe_order": {
        "source": "lectures recomanades",
        "statement": (
            "L'informe de DeepSeek-V3 mostra com l'arquitectura MoE redueix el cost de "
            "l'entrenament en un ordre de magnitud."
        ),
        "why": (
            "Per token, els FLOP de l'entrenament segueixen els paràmetres actius: un model "
            "dens que fes servir tots els {{ claim.fa_moe_order.total }} de paràmetres en "
            "calcularia {{ claim.fa_moe_order.computed }} més que DeepSeek-V3 amb els seus "
            "{{ claim.fa_moe_order.active }} de paràmetres actius, més d'un ordre de "
            "magnitud. La memòria no es redueix: cal guardar els estats de tots els experts."
        ),
    },
})
CLAIMS["ca_failures_daily"] = {
    "source": "§4",
    "statement": ("En execucions de milers de GPU durant setmanes, les fallades de maquinari "
                  "són el pa de cada dia."),
    "why": ("Les {{ claim.ca_failures_daily.gpus }} GPU de Llama 3 van patir "
            "{{ claim.ca_failures_daily.hardware }} interrupcions amb una causa de GPU, de "
            "servidor o de xarxa en {{ claim.ca_failures_daily.days }} dies: "
            "{{ claim.ca_failures_daily.computed }} al dia: no una cada dia, sinó unes "
            "quantes."),
}
