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
            "momentum en fp32, de manera que la xifra coincideix."
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
            "queda espai per a les activacions. La suma de la font arrossega el recompte a la "
            "baixa dels moments d'Adam."
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
            "estats dividit per la memòria d'una GPU, arrodonint cap amunt: "
            "{{ claim.fa_fsdp_gpus.computed }} amb la convenció de la font, "
            "{{ claim.fa_fsdp_gpus.with_master }} amb la còpia mestra en fp32. La font té raó "
            "que amb {{ claim.fa_fsdp_gpus.source_dp }} GPU no n'hi ha prou "
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
            "Aquest és el límit a mesura que creix el nombre de GPU, "
            "{{ claim.ca_zero_one_factor.limit }}: el que continua replicat no es divideix "
            "mai. Amb les {{ claim.ca_zero_one_factor.gpus }} GPU de la taula del capítol, "
            "els estats per GPU es redueixen {{ claim.ca_zero_one_factor.computed }}."
        ),
    },
    "fa_zero_one_factor": {
        "source": "DeepSpeed ZeRO",
        "statement": "ZeRO-1 redueix {{ claim.fa_zero_one_factor.stated }} la memòria.",
        "why": (
            "Aquest és el límit a mesura que creix el nombre de GPU, "
            "{{ claim.fa_zero_one_factor.limit }}: el que continua replicat no es divideix "
            "mai. Amb les {{ claim.fa_zero_one_factor.gpus }} GPU de la taula del capítol, "
            "els estats per GPU es redueixen {{ claim.fa_zero_one_factor.computed }}."
        ),
    },
    "fa_zero_two_factor": {
        "source": "DeepSpeed ZeRO",
        "statement": "ZeRO-2 redueix {{ claim.fa_zero_two_factor.stated }} la memòria.",
        "why": (
            "Aquest és el límit a mesura que creix el nombre de GPU, "
            "{{ claim.fa_zero_two_factor.limit }}: el que continua replicat no es divideix "
            "mai. Amb les {{ claim.fa_zero_two_factor.gpus }} GPU de la taula del capítol, "
            "els estats per GPU es redueixen {{ claim.fa_zero_two_factor.computed }}."
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
            "de la capa a un {{ claim.ca_tp_nvlink_share.efficiency }} del rendiment màxim "
            "de l'H100, donen un {{ claim.ca_tp_nvlink_share.computed }}: la xifra de la "
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
            "La biblioteca compta els FLOP de la capa com ho fan Narayanan et al., amb les "
            "puntuacions d'atenció completes, i obté "
            "{{ claim.ca_tp_infiniband_ratio.computed }}; si només es compta la meitat causal "
            "de les puntuacions, la que calcula un kernel causal, surt la xifra de la font. En "
            "tots dos casos, entre nodes, el trànsit triga més que el càlcul, i per això el "
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
            "La línia de temps simulada deixa inactiu un "
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
            "El factor no és cap límit: creix amb el nombre de capes i, quan es guarden les "
            "puntuacions d'atenció, amb la longitud de la seqüència. Amb FlashAttention, que "
            "no en guarda cap, si només es guarda l'entrada de cada capa, Llama 3 70B amb la "
            "seva longitud d'entrenament necessita, segons les fórmules de Korthikanti et al., "
            "{{ claim.ca_checkpoint_ten_x.computed }} menys memòria al pic."
        ),
    },
    "ca_recompute_thirty": {
        "source": "§3",
        "statement": (
            "El recàlcul d'activacions costa aproximadament un "
            "{{ claim.ca_recompute_thirty.stated }} més de temps."
        ),
        "why": (
            "Recalcular afegeix una passada endavant més a una passada endavant i una passada "
            "enrere que en costa el doble: un {{ claim.ca_recompute_thirty.computed }} més de "
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
            "Una passada endavant més, sumada a una passada endavant i una passada enrere que "
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
        "statement": "El colze de la H100 és a {{ claim.ca_ridge_point.stated }}.",
        "why": (
            "El pic dens en bf16 de la fitxa tècnica dividit per l'amplada de banda de memòria "
            "dona {{ claim.ca_ridge_point.computed }}; la font divideix per la mateixa amplada "
            "de banda un pic arrodonit a {{ claim.ca_ridge_point.rounded_peak }} TFLOP/s, una "
            "diferència que cap dins de l'arrodoniment de la mateixa fitxa tècnica."
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
            "La descodificació arriba al colze de la H100 amb uns "
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
            "L'aritmètica és correcta: amb el pic dens en bf16 de la H100, en surt un "
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
            "declara, l'estimació és més baixa, de {{ claim.fa_cost_llama.low }} a "
            "{{ claim.fa_cost_llama.high }}: les hores de GPU inclouen més coses que "
            "l'entrenament final amb la millor utilització."
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
