"""The inputs, each with its source: published architectures (dense and mixture-of-experts),
GPUs and their links, and the papers the course cites. Everything else computes from these."""
