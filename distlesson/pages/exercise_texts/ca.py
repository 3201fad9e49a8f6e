"""Els exercicis en català: per a cada exercici, el títol, l'enunciat i, per a cada part, la
pregunta i la resposta model (Markdown). Sense xifres: els nombres arriben amb els mateixos
``{{ nom }}`` que el text anglès."""

TEXTS: dict[str, dict[str, str]] = {
    "states-13b": {
        "title": "Els estats d'un model de {{ ex.states_params }} de paràmetres",
        "question": (
            "Un model de {{ ex.states_params }} de paràmetres s'entrena amb AdamW en "
            "precisió mixta: pesos i gradients en bf16, una còpia mestra dels pesos en fp32 "
            "i els dos moments d'Adam en fp32. Quanta memòria ocupen els estats del model, "
            "sense comptar les activacions?"),
        "states-13b": "Els estats del model, en GB (milers de milions de bytes):",
        "states-13b.answer": (
            "Cada paràmetre costa {{ fit.bpp_mixed }} bytes: {{ fit.bpp_weights_grads }} per "
            "al pes i el gradient en bf16 i {{ fit.bpp_master_and_moments }} per a la còpia "
            "mestra en fp32 i els dos moments. Per a {{ ex.states_params }} de paràmetres "
            "fan **{{ ex.states_13b }}**: calen {{ ex.states_gpus }} H100 de "
            "{{ fit.gpu_memory }} només per guardar-los, sense comptar cap activació. El "
            "desglossament és a [Per què no hi cap](why-it-does-not-fit.md)."),
    },
    "dp-zero3": {
        "title": "Per què el paral·lelisme de dades no resol la memòria i ZeRO-3 sí",
        "question": (
            "El paral·lelisme de dades reparteix el lot entre moltes GPU, però un model "
            "l'estat d'entrenament del qual no cap en una GPU tampoc no hi cap amb "
            "paral·lelisme de dades. Per què? Per què ZeRO-3 (FSDP) sí que el fa cabre, i "
            "què costa a canvi?"),
        "dp-zero3": "Escriviu la vostra resposta i després compareu-la amb la resposta model.",
        "dp-zero3.answer": (
            "El paral·lelisme de dades *replica*: cada GPU guarda tots els estats del model, "
            "i només es reparteix el lot i, amb ell, les activacions. Llama 3 70B necessita "
            "{{ par.states_total }} d'estats a cadascuna de les seves GPU, tant si n'hi ha "
            "dues com mil.\n\n"
            "ZeRO elimina les còpies. La primera etapa particiona la còpia mestra i els moments; "
            "la segona, també els gradients; la tercera, també els pesos: cadascuna de "
            "les *n* GPU es queda una *n*-èsima part de cada estat. Amb {{ par.devices }} GPU "
            "aquests trossos sumen {{ par.zero3_per_gpu }} per GPU, per sota dels "
            "{{ par.gpu_memory }}. No és tot el que guarda una GPU: mentre una capa calcula, "
            "els seus pesos es reuneixen sencers a cada GPU (i, amb la precàrrega, també els "
            "de la capa següent), els seus gradients són sencers fins que se'n fa el "
            "reduce-scatter, i els trossos es farceixen fins a tenir la mateixa mida. Aquests "
            "buffers són d'una capa o dues, poca cosa al costat del model, però tant ells com les "
            "activacions han de cabre en l'espai que deixen lliure els trossos.\n\n"
            "El preu és la comunicació: abans d'executar cada capa se'n reuneixen els pesos "
            "amb un all-gather, per al forward i un altre cop per al backward, i els gradients es "
            "reparteixen amb un reduce-scatter. Amb un sol microlot per pas, ZeRO-3 envia "
            "{{ par.zero3_over_dp }} el que envia el paral·lelisme de dades pur, i més encara "
            "si s'acumulen gradients. Vegeu [les cinc dimensions](parallelism.md)."),
    },
    "accumulation": {
        "title": "Acumulació de gradients: menys all-reduces, el mateix gradient",
        "question": (
            "Un grup de {{ ex.acc_dp }} GPU en paral·lelisme de dades entrena un model de "
            "{{ ex.acc_params }} de paràmetres amb els gradients en bf16 "
            "({{ ex.acc_buffer }} per GPU). Cada pas de l'optimitzador processa "
            "{{ ex.acc_k }} microlots per GPU, i els gradients se sumen amb un all-reduce en "
            "anell, en què cada GPU envia `2 (n − 1) / n` vegades el buffer."),
        "accumulation-every": (
            "Si es fa un all-reduce després de cada microlot, quants GB envia cada GPU per "
            "pas de l'optimitzador?"),
        "accumulation-every.answer": (
            "Un all-reduce envia {{ ex.accumulation_once }} per GPU; si se'n fa un després de "
            "cadascun dels {{ ex.acc_k }} microlots, en sumen **{{ ex.accumulation_every }}**."),
        "accumulation-once": (
            "Si s'acumulen els gradients localment i es fa un sol all-reduce per pas, quants "
            "GB envia cada GPU?"),
        "accumulation-once.answer": (
            "Un sol all-reduce: **{{ ex.accumulation_once }}**, {{ ex.acc_k }} vegades menys."),
        "accumulation-same": (
            "Per què el gradient acumulat és el mateix que el que se sincronitza després de "
            "cada microlot? Quan no es pot acumular d'aquesta manera?"),
        "accumulation-same.answer": (
            "La suma és lineal: sumar localment els gradients dels microlots i després entre "
            "GPU dona la mateixa suma que sumar entre GPU després de cada microlot, només "
            "que en un altre ordre, de manera que, com a molt, difereixen en l'arrodoniment "
            "de coma flotant. La biblioteca fa totes dues coses amb rangs simulats i obté el "
            "mateix gradient amb {{ ex.acc_k }} vegades menys all-reduces (vegeu [les cinc "
            "dimensions](parallelism.md), acumulació de gradients).\n\n"
            "La suma només és correcta si és el gradient de la pèrdua que es vol. Si la "
            "pèrdua de cada microlot és una mitjana sobre els seus propis tokens i els "
            "microlots tenen nombres de tokens diferents, la mitjana de les mitjanes no és la "
            "mitjana sobre tots els tokens: cal sumar les pèrdues per token i dividir pel total "
            "de tokens del pas, o ponderar cada microlot pels seus tokens. Les capes que fan "
            "servir estadístiques del lot, com BatchNorm, veuen cada microlot per separat, "
            "així que acumular no equival a un lot gran (els transformers fan servir "
            "LayerNorm o RMSNorm, que no en fan servir).\n\n"
            "També cal que cada GPU tingui un gradient sencer on anar sumant. Amb ZeRO-2 i "
            "ZeRO-3 cada GPU només en guarda un tros: fer el reduce-scatter després de cada "
            "microlot manté baixa la memòria però paga la comunicació cada vegada. L'estalvi "
            "es pot conservar (el `no_sync` d'FSDP, o `set_requires_gradient_sync(False)` amb "
            "`fully_shard`, salta el reduce-scatter fins a l'últim microlot) a canvi de "
            "guardar els gradients sencers, sense particionar, a cada GPU, justament el que ZeRO-2 "
            "i ZeRO-3 volien evitar."),
    },
    "tp-node": {
        "title": "Per què el paral·lelisme de tensors es queda dins d'un node",
        "question": (
            "El paral·lelisme de tensors gairebé sempre es limita a les GPU d'un mateix "
            "servidor, mentre que el de dades i el de pipeline travessen servidors. Per què?"),
        "tp-node": "Escriviu la vostra resposta i després compareu-la amb la resposta model.",
        "tp-node.answer": (
            "El paral·lelisme de tensors es comunica *dins* de cada capa: dos all-reduces "
            "al forward i dos al backward, i cadascun porta tot l'estat ocult de la capa. "
            "Se situen entre un producte de matrius i el següent, així que les GPU els "
            "esperen.\n\n"
            "Per a Llama 3 70B amb seqüències de {{ par.seq_len }} tokens repartides entre "
            "{{ par.tp_degree }} GPU, cada GPU envia {{ par.tp_layer_bytes }} per capa i "
            "microlot. Per NVLink ({{ par.nvlink_bw }}) això representa un "
            "{{ par.tp_nvlink_share }} del càlcul de la capa; per InfiniBand "
            "({{ par.ib_bw }} per GPU), {{ par.tp_ib_ratio }} el càlcul: el pas es passaria "
            "la major part del temps esperant. El paral·lelisme de dades envia un cop per "
            "pas i se solapa amb el backward, i el pipeline només envia activacions entre "
            "etapes, de manera que toleren l'enllaç més lent. Vegeu [les cinc "
            "dimensions](parallelism.md)."),
    },
    "bubble-goal": {
        "title": "La bombolla del pipeline, per sota del {{ ex.bubble_target }}",
        "question": (
            "Què és la bombolla del pipeline i com es fa més petita? A la [figura interactiva "
            "del pipeline](pipeline.md#dl-pipeline), o a la [de les cinc "
            "dimensions](parallelism.md#dl-dimensions), amb almenys "
            "{{ ex.bubble_min_stages }} etapes de pipeline, augmenteu els microlots fins que la "
            "bombolla quedi per sota del {{ ex.bubble_target }}."),
        "bubble-goal": (
            "Queda resolt quan la figura interactiva indica que s'ha assolit l'objectiu."),
        "bubble-goal.answer": (
            "La bombolla és el temps que les etapes passen aturades: l'última espera, al "
            "començament del pas, que li arribi el primer forward, i la primera espera, "
            "després dels seus forwards, que tornin els backwards. Amb GPipe i 1F1B és "
            "`(p − 1) / (m + p − 1)` del pas, amb *p* etapes i *m* microlots. Més microlots "
            "l'encongeixen; una planificació intercalada la divideix pel nombre de trossos "
            "per etapa; les planificacions de bombolla zero l'omplen amb el càlcul dels "
            "gradients dels pesos. Amb {{ ex.bubble_min_stages }} etapes, "
            "calen com a mínim {{ pipe.fewest_two_stages }} microlots per fer-la baixar per sota "
            "del {{ ex.bubble_target }}: vegeu [Planificacions del pipeline](pipeline.md)."),
    },
    "pipeline-memory": {
        "title": "GPipe o 1F1B: la mateixa bombolla, no la mateixa memòria",
        "question": (
            "Un pipeline de {{ ex.pipe_stages }} etapes processa {{ ex.pipe_microbatches }} "
            "microlots per pas, i totes les etapes són igual de ràpides. Una etapa guarda "
            "les activacions d'un microlot des del seu forward fins al seu backward."),
        "pipeline-gpipe-peak": (
            "Amb GPipe (tots els forwards i després tots els backwards), de quants microlots "
            "guarda activacions la primera etapa en el moment de màxima ocupació?"),
        "pipeline-gpipe-peak.answer": (
            "De tots: **{{ ex.pipeline_gpipe_peak }}**. Cap backward no comença abans de "
            "l'últim forward."),
        "pipeline-1f1b-peak": "I amb 1F1B?",
        "pipeline-1f1b-peak.answer": (
            "**{{ ex.pipeline_1f1b_peak }}**: la primera etapa fa `p − 1` forwards "
            "d'escalfament més el primer forward del règim estable, així que té `p` microlots "
            "en curs quan li torna el primer backward (la planificació de Megatron-LM, que "
            "segueixen la biblioteca i el [capítol del pipeline](pipeline.md); el "
            "`Schedule1F1B` de PyTorch compta aquest últim forward com a escalfament, `p` en "
            "total, amb el mateix màxim). Després alterna un forward amb un backward, que "
            "cada vegada allibera un microlot. Numerant les etapes a partir d'u, com als gràfics "
            "del capítol, l'etapa *s* fa `p − s` forwards d'escalfament i guarda com a màxim "
            "`p − s + 1` microlots, així que l'última només en guarda un."),
        "pipeline-bubble": (
            "Quina fracció del pas passen aturades les etapes (la bombolla), en percentatge?"),
        "pipeline-bubble.answer": (
            "`(p − 1) / (m + p − 1)`: **{{ ex.pipeline_bubble }}**, el mateix "
            "{{ ex.pipe_gpipe_bubble }} amb totes dues planificacions. 1F1B estalvia "
            "memòria, no temps; el simulador de la biblioteca hi troba les mateixes estones "
            "d'espera. Vegeu [Planificacions del pipeline](pipeline.md)."),
    },
    "checkpoint-every-k": {
        "title": "Recàlcul per segments de K capes",
        "question": (
            "El recàlcul d'activacions només guarda l'entrada d'una capa de cada *K* i "
            "torna a fer el forward de cada segment de *K* capes durant el backward. Preneu "
            "Llama 3 70B ({{ ex.ckpt_layers }} capes d'amplada {{ ex.ckpt_hidden }}), una "
            "seqüència de {{ ex.ckpt_seq }} tokens per microlot, una sola GPU per a totes "
            "les capes, activacions en bf16 i FlashAttention. Suposeu que una capa guarda "
            "`34 s b h` bytes si no es recalcula: és el recompte de Korthikanti et al. per a "
            "una capa de GPT (un MLP GELU d'amplada `4h`, màscares de dropout, LayerNorm), "
            "sense les puntuacions d'atenció que FlashAttention no guarda. La capa de Llama 3 "
            "(SwiGLU, atenció de consultes agrupades, RMSNorm, sense dropout) en guarda una "
            "altra quantitat (vegeu [Estalviar memòria](saving-memory.md)); la pregunta pren "
            "aquesta xifra com a donada. L'entrada d'una capa ocupa `2 s b h` bytes. Durant el "
            "backward la GPU guarda totes les entrades desades més les activacions completes d'un "
            "segment: `ceil(L / K) × 2 s b h + K × 34 s b h`."),
        "recompute-overhead": (
            "Si es recalculen totes les capes, quant càlcul de més fa un pas d'entrenament, "
            "en percentatge? Compteu dos FLOP per paràmetre i token per al forward i quatre "
            "per al backward."),
        "recompute-overhead.answer": (
            "Un forward addicional sobre un forward i un backward: "
            "**{{ ex.recompute_overhead }}**. "
            "La xifra de la lliçó persa és aquesta, arrodonida. Si es compten tots els "
            "productes de matrius del model real, la capa de sortida no es recalcula i el "
            "cost addicional és del {{ ex.ckpt_overhead_matmuls }}. Sigui quina sigui *K*, el "
            "forward de cada capa es fa dues vegades: *K* canvia la memòria, no el temps."),
        "checkpoint-best-k": "Quina *K* fa que el màxim sigui més petit?",
        "checkpoint-best-k.answer": (
            "**{{ ex.checkpoint_best_k }}**. Els dos termes estiren en sentits contraris, i "
            "la suma és mínima prop de `K = sqrt(L × 2 / 34)`, aquí {{ ex.ckpt_sqrt_rule }}. "
            "La regla de l'arrel quadrada del nombre de capes dels manuals suposa que una capa "
            "guarda més o menys el mateix que la seva entrada; aquí en guarda molt més, i per això "
            "guanyen els segments curts."),
        "checkpoint-peak": "Quin és aquest màxim més petit, en GB?",
        "checkpoint-peak.answer": (
            "**{{ ex.checkpoint_peak }}**, davant de {{ ex.ckpt_full }} si es desa l'entrada de "
            "cada capa i {{ ex.ckpt_none }} sense recàlcul. Vegeu [Estalviar "
            "memòria](saving-memory.md)."),
    },
    "offload-70b": {
        "title": "ZeRO-Offload per a un model de {{ ex.off_params }} de paràmetres",
        "question": (
            "Un model de {{ ex.off_params }} de paràmetres s'entrena amb AdamW en precisió "
            "mixta en servidors de {{ ex.off_node_gpus }} H100 ({{ ex.off_gpu_memory }} "
            "cadascuna), amb {{ ex.off_node_ram }} de memòria de CPU i {{ ex.off_node_nvme }} "
            "d'NVMe per servidor. Sense descàrrega, ZeRO-3 necessita {{ ex.off_none_gpus }} GPU "
            "només per als estats del model. ZeRO-Offload, tal com el descriu el seu article, "
            "porta a la memòria de la CPU els gradients en bf16, la còpia mestra en fp32 i "
            "els moments, i fa el pas de l'optimitzador a la CPU; a les GPU només s'hi queden "
            "els pesos en bf16. Els servidors es lloguen sencers. Compteu només els estats "
            "del model, no les activacions."),
        "offload-bytes": "Quants GB d'estats del model surten de les GPU?",
        "offload-bytes.answer": (
            "El gradient en bf16, la còpia mestra i els dos moments, "
            "{{ ex.off_bytes_per_param }} bytes per paràmetre: **{{ ex.offload_bytes }}**. "
            "Cada GPU només guarda els seus pesos en bf16; els gradients que produeix durant "
            "el backward marxen cap a la CPU cubell a cubell."),
        "offload-cpu-gpus": (
            "Si es descarreguen a la memòria de la CPU, quantes GPU necessita com a mínim "
            "l'entrenament?"),
        "offload-cpu-gpus.answer": (
            "**{{ ex.offload_cpu_gpus }}**: els estats descarregats no caben en els "
            "{{ ex.off_node_ram }} d'un servidor, així que en cal un segon, i les seves GPU "
            "venen amb ell. A més, aquí la biblioteca necessita paral·lelisme de tensors "
            "sobre {{ ex.off_cpu_tp }} GPU, perquè ZeRO-Offload guarda una còpia sencera dels "
            "pesos en bf16 a cada GPU de paral·lelisme de dades."),
        "offload-nvme-gpus": (
            "I si la còpia mestra i els moments es descarreguen a NVMe (ZeRO-Infinity), amb "
            "els pesos i els gradients en bf16 repartits entre les GPU?"),
        "offload-nvme-gpus.answer": (
            "**{{ ex.offload_nvme_gpus }}**: els estats hi caben, en els {{ ex.off_node_nvme }} "
            "d'un sol servidor, i ZeRO-3 reparteix els pesos i els gradients en bf16 entre "
            "les seves "
            "GPU."),
        "offload-verdict": (
            "La lliçó persa diu que la descàrrega permet entrenar un model així amb menys de "
            "{{ ex.off_none_gpus }} GPU, a canvi de passos més lents. És cert aquí, i de què "
            "depèn l'alentiment?"),
        "offload-verdict.answer": (
            "Només amb NVMe. Descarregar a la memòria de la CPU no estalvia cap GPU aquí: "
            "els estats descarregats necessiten més memòria de la que té un servidor, així "
            "que l'entrenament ocupa dos servidors igualment, i amb prou feines: ocupen "
            "{{ save.cpu_per_node }} dels {{ ex.off_node_ram }} de cada servidor, sense "
            "deixar res per als buffers fixats, el sistema operatiu o el carregador de dades. "
            "Amb el marge que preveu l'estimador del mateix DeepSpeed ({{ save.buffer_factor }} "
            "els estats descarregats) calen {{ save.gpus_cpu_buffered }} GPU. Llogant les GPU "
            "una a una "
            "encara en caldrien més que sense descàrrega, {{ ex.off_cpu_loose }} davant de "
            "{{ ex.off_none_loose }}: les GPU del primer servidor hi porten la seva part dels "
            "estats descarregats, de manera que és la memòria dels servidors, no la de les "
            "GPU, la que fixa el nombre; per guanyar-hi calen servidors amb més memòria. A "
            "NVMe caben en un sol servidor: {{ ex.offload_nvme_gpus }} GPU, o "
            "{{ ex.off_nvme_loose }} llogades una a una. L'alentiment depèn del trànsit i "
            "del que l'amaga: a cada pas, cada GPU envia els seus gradients a la CPU i en rep "
            "els pesos actualitzats per PCIe, {{ ex.off_pcie_seconds }} per pas aquí si res "
            "no se solapa, i després la CPU fa el pas de l'optimitzador; NVMe hi afegeix "
            "llegir i escriure tots els estats descarregats a cada pas. Un percentatge fix "
            "com el de la lliçó no es pot calcular sense saber el temps del pas i el "
            "solapament. Vegeu [Estalviar memòria](saving-memory.md)."),
    },
    "mfu-low": {
        "title": "Un MFU del {{ ex.mfu_observed }}",
        "question": (
            "El vostre entrenament gran arriba a un MFU del {{ ex.mfu_observed }}. Quines "
            "tres coses investigaríeu primer, i com?"),
        "mfu-low": "Escriviu els vostres tres sospitosos i després compareu-los amb la resposta "
                   "model.",
        "mfu-low.answer": (
            "Mesureu abans d'endevinar: feu el perfil d'uns quants passos (amb el perfilador de "
            "PyTorch o Nsight Systems) i desglosseu el pas en els termes de la descomposició "
            "del curs ([Eficiència: MFU](mfu.md)): càlcul útil, kernels per sota del pic, "
            "recàlcul, bombolla del pipeline, comunicació no amagada, espera de dades i "
            "fallades. Ordeneu els termes per mida i ataqueu primer la causa del més gran; "
            "després torneu a mesurar, perquè cada correcció canvia l'ordre. En el pas "
            "de Llama 3 405B del capítol, l'ordre és:\n\n"
            "- **{{ ex.mfu_loss_1 }}**: un {{ ex.mfu_loss_1_share }} del pas\n"
            "- **{{ ex.mfu_loss_2 }}**: un {{ ex.mfu_loss_2_share }}\n"
            "- **{{ ex.mfu_loss_3 }}**: un {{ ex.mfu_loss_3_share }}\n"
            "- **{{ ex.mfu_loss_4 }}**: un {{ ex.mfu_loss_4_share }}\n\n"
            "La vostra traça pot ordenar-los d'una altra manera. Com es veu cadascun i què el "
            "redueix:\n\n"
            "- **Kernels per sota del pic.** Compareu els FLOP/s de cada kernel gran amb la "
            "fitxa tècnica: matrius petites o de dimensions estranyes, atenció sense "
            "FlashAttention, kernels element a element sense fusionar.\n"
            "- **Recàlcul.** El recàlcul complet torna a executar el forward de cada capa, "
            "una feina que l'MFU no compta: recalculeu de manera selectiva, o només tantes "
            "capes com la memòria exigeixi.\n"
            "- **La bombolla del pipeline.** Calculeu `(p − 1) / (m + p − 1)` per a les vostres "
            "etapes i microlots i compareu-ho amb el temps aturat de la primera i l'última "
            "etapa; afegiu microlots o intercaleu.\n"
            "- **Comunicació no amagada.** Busqueu a la traça operacions col·lectives que no se "
            "solapen amb cap càlcul: paral·lelisme de tensors que travessa servidors, "
            "all-gathers de ZeRO-3 entre servidors, cubells de gradients massa petits per "
            "solapar-se amb el backward.\n"
            "- **Espera de dades i fallades.** Els buits abans del primer kernel d'un pas "
            "apunten al carregador de dades; els reinicis i els punts de control costen un temps "
            "que es veu al llarg de dies, no en un sol pas.\n\n"
            "Com a referència: Meta declara entre el {{ mfu.llama3_mfu_low }} i el "
            "{{ mfu.llama3_mfu_high }} per a Llama 3 405B, i per sota del {{ mfu.trouble }} "
            "alguna cosa va malament."),
    },
    "cost": {
        "title": "Quant costa un entrenament",
        "question": (
            "Llama 3 70B ({{ ex.cost_params }} de paràmetres) s'entrena amb "
            "{{ ex.cost_tokens_per_param }} tokens per paràmetre, comptant `6 N` FLOP per "
            "token, amb un MFU del {{ ex.cost_mfu }}. Una H100 té un pic de "
            "{{ ex.cost_h100_peak }} en bf16 i es lloga a {{ ex.cost_h100_price }} dòlars "
            "l'hora de GPU; una A100 té un pic de {{ ex.cost_a100_peak }} i costa "
            "{{ ex.cost_a100_price }} dòlars l'hora de GPU (els preus de la lliçó persa)."),
        "cost-h100": "Quant costa l'entrenament amb H100, en milions de dòlars?",
        "cost-h100.answer": (
            "Els FLOP / (MFU × pic) donen els segons de GPU; dividits pels segons d'una hora i "
            "multiplicats pel preu: **{{ ex.cost_h100 }}**."),
        "cost-a100": "I amb A100, en milions de dòlars?",
        "cost-a100.answer": (
            "**{{ ex.cost_a100 }}**. L'H100 és més cara per hora i més barata per "
            "entrenament: fa {{ cost.flops_ratio }} l'aritmètica de l'A100 per "
            "{{ cost.price_ratio }} el preu."),
        "cost-check": (
            "La lliçó atribueix a DeepSeek-V3 un cost d'uns "
            "{{ claim.fa_cost_deepseek.stated }}. D'on surt aquesta xifra, i què deixa fora "
            "una estimació així?"),
        "cost-check.answer": (
            "L'informe de DeepSeek multiplica les seves {{ cost.deepseek_hours }} hores de "
            "GPU H800 per un preu de lloguer suposat: {{ claim.fa_cost_deepseek.computed }}, "
            "que la lliçó arrodoneix. És només l'entrenament final: la recerca, els "
            "experiments d'ablació i els entrenaments fallits d'abans, les dades i les "
            "persones no hi són, ni tampoc el cost de comprar les GPU en lloc de llogar-les. La "
            "xifra de la lliçó per a Llama 3 405B també es comprova al [registre "
            "d'afirmacions](claims.md)."),
    },
    "comm-busbw": {
        "title": "Llegir l'amplada de banda de bus de nccl-tests",
        "question": (
            "Un all-reduce de {{ ex.comm_ex_bytes }} entre les {{ ex.comm_ex_ranks }} GPU "
            "d'un servidor H100 triga {{ ex.comm_ex_time }}, de manera que nccl-tests mostra "
            "una amplada de banda de l'algorisme de {{ ex.comm_ex_algbw }} (els bytes de "
            "l'array dividits pel temps; GB = mil milions de bytes)."),
        "comm-busbw": "Quina amplada de banda de bus mostra, en GB/s?",
        "comm-busbw.answer": (
            "En un all-reduce, busbw = algbw × `2 (n − 1) / n`, la fracció de l'array que "
            "envia cada GPU en un anell: {{ comm.bus_factor }} amb {{ ex.comm_ex_ranks }} "
            "GPU, és a dir, **{{ ex.comm_busbw }}**, el {{ comm.gib_share }} dels "
            "{{ comm.nvlink }} d'NVLink en cada sentit. L'amplada de banda de bus és la que "
            "es compara amb l'enllaç: no canvia amb el nombre de GPU."),
    },
    "comm-crossover": {
        "title": "On la latència deixa de comptar",
        "question": (
            "Amb el protocol Simple d'NCCL sobre NVLink, una crida en anell costa una vegada "
            "T₀ = {{ ex.comm_ex_base }} i α = {{ ex.comm_ex_alpha }} per pas, i mou bytes a "
            "β = {{ ex.comm_ex_beta }}. Un all-reduce en anell entre n = "
            "{{ ex.comm_ex_ranks }} GPU fa `2 (n − 1)` passos i cada GPU envia "
            "`2 (n − 1) / n` de l'array."),
        "comm-crossover": (
            "Amb quina mida S de l'array són iguals el terme de latència i el d'amplada de "
            "banda, en MB (milions de bytes)?"),
        "comm-crossover.answer": (
            "`T₀ + 2 (n − 1) α = 2 (n − 1) / n × S / β` dona "
            "`S = n β (T₀ + 2 (n − 1) α) / (2 (n − 1))`: **{{ ex.comm_crossover }}**. Per "
            "sota, la latència costa més que els bytes i NCCL passa als seus protocols de "
            "baixa latència, primer LL128 i després LL; per sobre, manen els bytes."),
    },
    "comm-where": {
        "title": "Quin trànsit va per on",
        "question": (
            "Un clúster té servidors de {{ comm.node_gpus | words_f }} H100 connectades per NVLink "
            "({{ comm.nvlink }} per GPU en cada sentit) i un port InfiniBand per GPU entre "
            "servidors ({{ comm.ib }})."),
        "comm-where": (
            "Per què els entorns d'entrenament "
            "posen el paral·lelisme de tensors dins d'un servidor i "
            "el de dades entre servidors, i no a l'inrevés?"),
        "comm-where.answer": (
            "El paral·lelisme de tensors es comunica dins de cada capa, al forward i al "
            "backward, i el producte de matrius següent l'espera: els seus bytes són al camí "
            "crític i necessiten l'enllaç més ràpid, {{ comm.nvlink_over_ib }} més ràpid que "
            "la xarxa. El de dades redueix els gradients un cop per pas, i la reducció de "
            "cada cubell se solapa amb la resta del backward: un enllaç més lent costa poc "
            "mentre la reducció d'un cubell duri menys que el càlcul que produeix el "
            "següent. En el pas de Llama 3.1 405B, el trànsit no amagat del paral·lelisme de "
            "tensors és de {{ comm.tp_exposed }} fins i tot sobre NVLink."),
    },
    "moe-active": {
        "title": "Què fa servir un token de Mixtral",
        "question": (
            "Mixtral 8x7B té {{ ex.moe_ex_total }} de paràmetres. Cadascuna de les seves "
            "{{ ex.moe_ex_layers }} capes conté {{ ex.moe_ex_experts | words }} experts de "
            "{{ ex.moe_ex_expert }} de paràmetres cadascun, i l'encaminador envia cada token "
            "a {{ ex.moe_ex_top_k | words }} d'aquests experts."),
        "moe-active": (
            "Quina part dels paràmetres fa servir un token, si hi comptem tot menys els "
            "experts als quals no s'envia, en %?"),
        "moe-active.answer": (
            "A cada capa, el token no passa per `E − k` experts: els paràmetres que no fa "
            "servir són capes × (E − k) × la mida d'un expert, i el que queda és el "
            "**{{ ex.moe_active }}** del total. La memòria, però, ho ha de guardar tot: els "
            "pesos, els gradients i els estats de l'optimitzador de tots els experts. Aquest "
            "recompte inclou l'embedding d'entrada, com fa la xifra de Mistral; si el "
            "traiem, com fa DeepSeek, la proporció baixa una mica."),
    },
    "moe-a2a": {
        "title": "L'all-to-all d'una capa",
        "question": (
            "Mixtral s'executa amb els seus {{ ex.moe_ex_experts | words }} experts repartits "
            "en {{ ex.moe_ex_ep | words_f }} GPU, un a cadascuna. Un microlot posa "
            "{{ ex.moe_ex_tokens }} tokens a cada GPU; cada token va a "
            "{{ ex.moe_ex_top_k | words }} experts, triats uniformement; la dimensió oculta "
            "és {{ ex.moe_ex_hidden }}, i les activacions viatgen en bf16 en tots dos sentits."),
        "moe-a2a": (
            "Quants bytes envia una GPU en el forward d'una capa MoE, sumant "
            "l'enviament i la recollida, en MB (un milió de bytes)?"),
        "moe-a2a.answer": (
            "Cada GPU té `T k` còpies de tokens, i una fracció `(ep − 1) / ep` correspon a "
            "experts d'altres GPU. Cada una d'aquestes còpies surt com `h` valors bf16 en "
            "l'enviament, i el resultat torna amb la mateixa mida en la recollida: "
            "`T k h (ep − 1) / ep × (2 + 2)` bytes, **{{ ex.moe_a2a }}**. El backward "
            "n'envia el mateix."),
    },
    "moe-weights": {
        "title": "Els experts que guarda una GPU",
        "question": (
            "DeepSeek-V3 té {{ ex.moe_ex_v3_experts }} experts encaminats a cadascuna de les "
            "seves {{ ex.moe_ex_v3_layers }} capes MoE, de {{ ex.moe_ex_v3_expert }} de "
            "paràmetres cadascun. Els repartim entre ep = {{ ex.moe_ex_v3_ep }} GPU, sense "
            "pipeline."),
        "moe-weights": (
            "Quants GB de pesos d'experts en bf16 guarda cada GPU (GB = mil milions de "
            "bytes)?"),
        "moe-weights.answer": (
            "Cada GPU guarda `E / ep` experts de cada capa MoE: capes × `E / ep` × els "
            "paràmetres d'un expert × dos bytes, **{{ ex.moe_weights }}**, abans de comptar "
            "els gradients i els estats de l'optimitzador, que ho multipliquen unes quantes "
            "vegades. Per això DeepSeek-V3 també reparteix les capes en un pipeline."),
    },
}

TEXTS.update({
    "fail-young": {
        "title": "L'interval de Young per a una quarta part del clúster de Llama 3",
        "question": (
            "Una tasca s'executa en {{ ex.fail_ex_gpus }} H100 que fallen al ritme de Llama 3 "
            "({{ fail.unexpected }} interrupcions inesperades en {{ fail.days }} dies amb "
            "{{ fail.gpus }} GPU), independentment les unes de les altres. Cada punt de control "
            "atura l'entrenament {{ ex.fail_ex_write }}."),
        "fail-mtbf": "Quin és el temps mitjà entre fallades de la tasca, en segons?",
        "fail-mtbf.answer": (
            "L'MTBF baixa com la inversa del nombre de GPU: els {{ fail.mtbf_s }} de Llama 3 "
            "amb {{ fail.gpus }} GPU esdevenen, amb {{ ex.fail_ex_gpus }}, "
            "**{{ ex.fail_mtbf }}**."),
        "fail-young": "Quin és l'interval de Young entre punts de control, en segons?",
        "fail-young.answer": (
            "`sqrt(2 δ M)` amb δ = {{ ex.fail_ex_write }} i M = {{ ex.fail_mtbf }}: "
            "**{{ ex.fail_young }}**. Un clúster quatre vegades més petit falla quatre "
            "vegades menys sovint i desa punts de control amb la meitat de freqüència: "
            "l'interval creix com l'arrel quadrada de l'MTBF."),
    },
    "fail-goodput": {
        "title": "El goodput a l'interval de Young",
        "question": (
            "La mateixa tasca desa punts de control a l'interval de Young ({{ ex.fail_young }}); "
            "després de cada fallada triga {{ ex.fail_ex_restart }} a tornar a entrenar."),
        "fail-goodput": (
            "Quina part del temps real es dedica a entrenament que es conserva, en primera "
            "aproximació, en percentatge?"),
        "fail-goodput.answer": (
            "`1 / (1 + δ/τ + (R + τ/2)/M)` amb δ = {{ ex.fail_ex_write }}, τ = "
            "{{ ex.fail_young }}, R = {{ ex.fail_ex_restart }} i M = {{ ex.fail_mtbf }}: "
            "**{{ ex.fail_goodput }}**. A l'interval de Young, les pauses costen el mateix que "
            "la feina perduda a cada fallada (mig interval de mitjana); el cost dels reinicis "
            "s'hi suma, i només un reinici més ràpid el redueix."),
    },
    "fail-size": {
        "title": "Un punt de control de Llama 3 70B",
        "question": (
            "Llama 3 70B s'entrena amb AdamW en precisió mixta: pesos i gradients en bf16, "
            "una còpia mestra en fp32 i dos moments en fp32. El punt de control l'escriuen "
            "{{ ex.fail_ex_writers }} processos, a parts iguals, en un emmagatzematge que "
            "sosté {{ ex.fail_ex_storage }}."),
        "fail-size": "Quant ocupa el punt de control, en GB?",
        "fail-size.answer": (
            "Els pesos, la còpia mestra i els moments, no els gradients: "
            "{{ fail.bytes_per_param }} bytes per paràmetre, **{{ ex.fail_size }}**."),
        "fail-write": "Quant triga a escriure's a l'amplada de banda sostinguda, en segons?",
        "fail-write.answer": (
            "Els bytes dividits per l'amplada de banda: **{{ ex.fail_write }}**, sempre que "
            "hi escriguin prou processos per saturar l'emmagatzematge."),
        "fail-shard": "Quant escriu cada procés, en MB?",
        "fail-shard.answer": (
            "El punt de control dividit pels processos: **{{ ex.fail_shard }}**. Un punt de "
            "control asíncron només atura l'entrenament mentre cada GPU copia aquesta quantitat "
            "a la memòria de la CPU."),
    },
})

TEXTS.update({
    "fp8-scale": {
        "title": "Escalar un tensor a e4m3",
        "question": (
            "La magnitud més gran d'un tensor és {{ ex.fp8_ex_amax }}; es converteix a e4m3 "
            "amb una sola escala immediata per a tot el tensor."),
        "fp8-scale": "Per quina escala es multiplica abans de convertir-lo?",
        "fp8-scale.answer": (
            "L'escala porta l'amax al valor més gran d'e4m3: {{ fp8.e4m3_max }} / "
            "{{ ex.fp8_ex_amax }} = **{{ ex.fp8_scale }}**."),
        "fp8-error": (
            "Un dels seus valors és {{ ex.fp8_ex_value }}. Quant s'aparta, en percentatge, un "
            "cop convertit i tornat a dividir per l'escala?"),
        "fp8-error.answer": (
            "Escalat, val {{ ex.fp8_ex_scaled }}, en una octava on l'e4m3 només té vuit "
            "valors; el més proper és {{ ex.fp8_ex_rounded }}, que torna com a "
            "{{ ex.fp8_ex_back }}: un error del **{{ ex.fp8_error }}**. Sol a la seva "
            "tessel·la, amb la seva pròpia escala, tornaria exacte."),
    },
    "fp8-mfu": {
        "title": "L'MFU respecte de quin pic",
        "question": (
            "Una execució en H100 indica un MFU del {{ ex.fp8_ex_mfu }} respecte del pic bf16, "
            "però els seus productes de matrius es feien en fp8."),
        "fp8-mfu": "Quin és el seu MFU respecte del pic fp8, en percentatge?",
        "fp8-mfu.answer": (
            "Els mateixos FLOP sobre un pic {{ fp8.peak_ratio }} més gran: "
            "**{{ ex.fp8_mfu }}**. Cap de les dues xifres és falsa; per comparar execucions cal "
            "fer servir el mateix pic."),
    },
})
