"""Where the bytes go: model states per precision recipe and optimizer, activations, and the
techniques that save memory (checkpointing, offload, low precision, LoRA)."""
