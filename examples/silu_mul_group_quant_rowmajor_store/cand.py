# The fused SiLU-and-mul quantization storing its scales as if they were row-major: right only
# when there is one group.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def silu_mul_quant_kernel(x_ptr, q_ptr, s_ptr, width, s_col_stride, eps, fp8_max,
                          TOKENS: tl.constexpr, GROUP: tl.constexpr):
    pid_t = tl.program_id(0)
    pid_g = tl.program_id(1)
    half = width // 2
    rows = pid_t * TOKENS + tl.arange(0, TOKENS)
    cols = pid_g * GROUP + tl.arange(0, GROUP)
    gate = tl.load(x_ptr + rows[:, None] * width + cols[None, :]).to(tl.float32)
    up = tl.load(x_ptr + rows[:, None] * width + half + cols[None, :]).to(tl.float32)
    y = gate * tl.sigmoid(gate) * up
    scale = tl.maximum(tl.max(tl.abs(y), axis=1), eps) / fp8_max
    q = tl.clamp(y / scale[:, None], -fp8_max, fp8_max)
    tl.store(q_ptr + rows[:, None] * half + cols[None, :], q.to(q_ptr.dtype.element_ty))
    tl.store(s_ptr + pid_g + rows * (half // GROUP), scale)


class ModelNew(nn.Module):
    def forward(self, x):
        tokens, width = x.shape
        TOKENS, GROUP = 16, 64
        half = width // 2
        assert tokens % TOKENS == 0, "tokens must come in blocks of 16"
        assert half % GROUP == 0, "each half must be whole groups of 64"
        q = torch.empty((tokens, half), dtype=torch.float8_e4m3fn, device=x.device)
        s = torch.empty((half // GROUP, tokens), dtype=torch.float32, device=x.device).t()
        grid = (tokens // TOKENS, half // GROUP)
        silu_mul_quant_kernel[grid](x, q, s, width, s.stride(1), 1e-10,
                                    torch.finfo(torch.float8_e4m3fn).max, TOKENS=TOKENS, GROUP=GROUP)
        return q, s
