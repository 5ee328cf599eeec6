# A decoder block of the Llama family, written for keq's corpus: RMSNorm, rotary embedding
# over interleaved pairs, grouped-query causal attention, a SwiGLU MLP, two residuals.
import torch
import torch.nn as nn
import torch.nn.functional as F


def rms_norm(x, weight, eps):
    return x / torch.sqrt(x.pow(2).mean(dim=-1, keepdim=True) + eps) * weight


def rotate_pairs(t, cos, sin):
    even, odd = t[..., 0::2], t[..., 1::2]
    return torch.stack([even * cos - odd * sin, even * sin + odd * cos], dim=-1).flatten(-2)


class Model(nn.Module):
    def __init__(self, hidden, heads, kv_heads, ffn, eps=1e-6, base=10000.0, max_len=64):
        super().__init__()
        self.heads, self.kv_heads, self.head_dim, self.eps = heads, kv_heads, hidden // heads, eps
        self.norm1 = nn.Parameter(torch.ones(hidden))
        self.norm2 = nn.Parameter(torch.ones(hidden))
        self.wq = nn.Linear(hidden, heads * self.head_dim, bias=False)
        self.wk = nn.Linear(hidden, kv_heads * self.head_dim, bias=False)
        self.wv = nn.Linear(hidden, kv_heads * self.head_dim, bias=False)
        self.wo = nn.Linear(heads * self.head_dim, hidden, bias=False)
        self.gate = nn.Linear(hidden, ffn, bias=False)
        self.up = nn.Linear(hidden, ffn, bias=False)
        self.down = nn.Linear(ffn, hidden, bias=False)
        freq = 1.0 / base ** (torch.arange(0, self.head_dim, 2).float() / self.head_dim)
        angle = torch.outer(torch.arange(max_len).float(), freq)
        self.register_buffer("cos", angle.cos())
        self.register_buffer("sin", angle.sin())

    def attention(self, h):
        b, n, _ = h.shape
        q = self.wq(h).view(b, n, self.heads, self.head_dim).transpose(1, 2)
        k = self.wk(h).view(b, n, self.kv_heads, self.head_dim).transpose(1, 2)
        v = self.wv(h).view(b, n, self.kv_heads, self.head_dim).transpose(1, 2)
        q, k = rotate_pairs(q, self.cos[:n], self.sin[:n]), rotate_pairs(k, self.cos[:n], self.sin[:n])
        group = self.heads // self.kv_heads
        k, v = k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)
        scores = q @ k.transpose(-1, -2) / self.head_dim ** 0.5
        future = torch.triu(torch.ones(n, n, device=h.device), diagonal=1).bool()
        probs = scores.masked_fill(future, float("-inf")).softmax(dim=-1)
        return self.wo((probs @ v).transpose(1, 2).reshape(b, n, -1))

    def forward(self, x):
        x = x + self.attention(rms_norm(x, self.norm1, self.eps))
        h = rms_norm(x, self.norm2, self.eps)
        return x + self.down(F.silu(self.gate(h)) * self.up(h))


batch = 2
seq = 16
hidden = 64
heads = 8
kv_heads = 2
ffn = 128


def get_inputs():
    return [torch.randn(batch, seq, hidden)]


def get_init_inputs():
    return [hidden, heads, kv_heads, ffn]
