import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def block_quant_kernel(w_ptr, q_ptr, s_ptr, K, BLOCK: tl.constexpr):
    pid_n = tl.program_id(0)
    pid_k = tl.program_id(1)
    rows = pid_n * BLOCK + tl.arange(0, BLOCK)[:, None]
    cols = pid_k * BLOCK + tl.arange(0, BLOCK)[None, :]
    w = tl.load(w_ptr + rows * K + cols)
    amax = tl.max(tl.max(tl.abs(w), axis=1), axis=0)
    amax = tl.maximum(amax, 1e-12)
    q = tl.clamp(w * (448.0 / amax), -448.0, 448.0)
    tl.store(q_ptr + rows * K + cols, q.to(tl.float8e4nv))
    tl.store(s_ptr + pid_n * tl.num_programs(1) + pid_k, amax / 448.0)


class ModelNew(nn.Module):
    def __init__(self, block):
        super().__init__()
        self.block = block

    def forward(self, w):
        N, K = w.shape
        B = self.block
        q = torch.empty((N, K), dtype=torch.float8_e4m3fn, device=w.device)
        s = torch.empty((N // B, K // B), dtype=torch.float32, device=w.device)
        block_quant_kernel[(N // B, K // B)](w, q, s, K, BLOCK=B)
        return q, s
