# LLM style: RoPE with the angles computed inside the kernel (tl.cos / tl.sin of position times
# inverse frequency), one program per (head, block of positions), the two halves loaded apart.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def rope_kernel(x_ptr, pos_ptr, inv_freq_ptr, out_ptr, S, HALF: tl.constexpr,
                BLOCK_S: tl.constexpr):
    h = tl.program_id(0)
    s_off = tl.program_id(1) * BLOCK_S + tl.arange(0, BLOCK_S)
    s_mask = s_off < S
    d = tl.arange(0, HALF)
    base = h * S * 2 * HALF + s_off[:, None] * (2 * HALF)
    lo = tl.load(x_ptr + base + d[None, :], mask=s_mask[:, None], other=0.0)
    hi = tl.load(x_ptr + base + d[None, :] + HALF, mask=s_mask[:, None], other=0.0)
    pos = tl.load(pos_ptr + s_off, mask=s_mask, other=0).to(tl.float32)
    angle = pos[:, None] * tl.load(inv_freq_ptr + d)[None, :]
    c = tl.cos(angle)
    s = tl.sin(angle)
    tl.store(out_ptr + base + d[None, :], lo * c - hi * s, mask=s_mask[:, None])
    tl.store(out_ptr + base + d[None, :] + HALF, hi * c + lo * s, mask=s_mask[:, None])


class ModelNew(nn.Module):
    def forward(self, x, position_ids, inv_freq):
        assert x.is_cuda and x.is_contiguous()
        H, S, D = x.shape
        out = torch.empty_like(x)
        BLOCK_S = 8
        grid = (H, triton.cdiv(S, BLOCK_S))
        rope_kernel[grid](x, position_ids, inv_freq, out, S, HALF=D // 2, BLOCK_S=BLOCK_S,
                          num_warps=4)
        return out
