"""Counts worked by hand that several tests share (independent of the library's code)."""


def llama_layer_bytes_per_token(h: int, kv: int, f: int, heads: int) -> int:
    """Bytes one token's Llama layer keeps for its backward, all tensors: the norms' inputs
    and outputs and the attention output (6 h, with q's h), k and v (2 kv), gate, up and the
    activation (3 f), all bf16; each head's log-sum-exp and two norm statistics in fp32."""
    return (6 * h + 2 * kv + 3 * f) * 2 + heads * 4 + 2 * 4
