# The block as LLM-written submissions speed it up: RMSNorm and SwiGLU as Triton kernels (the
# norm as x * rsqrt(mean + eps)), and the attention through F.scaled_dot_product_attention
# with is_causal=True. keq proves it by sweeping: each round proves the next rewritten layer's
# nodes equal to the reference's and puts them in place (at the file's sizes scaled down the
# three rewrites took 6 rounds; an e-graph over whole pairs ran out of time or memory there).
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def rmsnorm_kernel(x_ptr, w_ptr, y_ptr, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0)
    inv = tl.rsqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0)
    tl.store(y_ptr + row * n_cols + cols, x * inv * w, mask=mask)


@triton.jit
def swiglu_kernel(g_ptr, u_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    g = tl.load(g_ptr + offs, mask=m, other=0.0)
    u = tl.load(u_ptr + offs, mask=m, other=0.0)
    tl.store(out_ptr + offs, g * tl.sigmoid(g) * u, mask=m)


def rmsnorm(x, weight, eps):
    rows = x.reshape(-1, x.shape[-1]).contiguous()
    out = torch.empty_like(rows)
    rmsnorm_kernel[(rows.shape[0],)](rows, weight, out, rows.shape[1], eps,
                                     BLOCK=triton.next_power_of_2(rows.shape[1]))
    return out.view(x.shape)


def swiglu(g, u):
    g, u = g.contiguous(), u.contiguous()
    out = torch.empty_like(g)
    swiglu_kernel[(triton.cdiv(g.numel(), 1024),)](g, u, out, g.numel(), BLOCK=1024)
    return out


class ModelNew(nn.Module):
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

    def rotate(self, t, n):
        cos, sin = self.cos[:n], self.sin[:n]
        even, odd = t[..., 0::2], t[..., 1::2]
        return torch.stack([even * cos - odd * sin, even * sin + odd * cos], dim=-1).flatten(-2)

    def forward(self, x):
        b, n, d = x.shape
        h = rmsnorm(x, self.norm1, self.eps)
        q = self.rotate(self.wq(h).view(b, n, self.heads, self.head_dim).transpose(1, 2), n)
        k = self.rotate(self.wk(h).view(b, n, self.kv_heads, self.head_dim).transpose(1, 2), n)
        v = self.wv(h).view(b, n, self.kv_heads, self.head_dim).transpose(1, 2)
        group = self.heads // self.kv_heads
        k, v = k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)
        att = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.wo(att.transpose(1, 2).reshape(b, n, -1))
        h = rmsnorm(x, self.norm2, self.eps)
        return x + self.down(swiglu(self.gate(h), self.up(h)))


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
