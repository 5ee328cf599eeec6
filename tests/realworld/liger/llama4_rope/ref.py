import torch
import torch.nn as nn

batch_size = 2
seq_len = 4
n_q_heads = 4
n_k_heads = 2
head_dim = 32

class Model(nn.Module):
    """Llama 4 rotary embedding: each adjacent pair (x[2i], x[2i+1]) of a head is a complex
    number multiplied by freqs[s, i] = (cos, sin), given as a real (seq, head_dim/2, 2) tensor."""
    def __init__(self):
        super().__init__()

    def _rotate(self, x, freqs):
        b, s, h, d = x.shape
        xr = x.float().reshape(b, s, h, d // 2, 2)
        f = freqs.reshape(1, s, 1, d // 2, 2)
        re = xr[..., 0] * f[..., 0] - xr[..., 1] * f[..., 1]
        im = xr[..., 0] * f[..., 1] + xr[..., 1] * f[..., 0]
        return torch.stack([re, im], dim=-1).reshape(b, s, h, d).to(x.dtype)

    def forward(self, q, k, freqs):
        return self._rotate(q, freqs), self._rotate(k, freqs)

def get_inputs():
    return [torch.randn(batch_size, seq_len, n_q_heads, head_dim),
            torch.randn(batch_size, seq_len, n_k_heads, head_dim),
            torch.randn(seq_len, head_dim // 2, 2)]

def get_init_inputs():
    return []
