import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def gather_scale_kernel(x_ptr, idx_ptr, out_ptr, n_picks, stride_x, scale,
                        BLOCK_K: tl.constexpr):
    row = tl.program_id(0)
    ks = tl.arange(0, BLOCK_K)
    mask = ks < n_picks
    cols = tl.load(idx_ptr + row * n_picks + ks, mask=mask, other=0)
    vals = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0)
    tl.store(out_ptr + row * n_picks + ks, vals * scale, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, scale: float):
        super().__init__()
        self.scale = scale

    def forward(self, x, index):
        x = x.contiguous()
        index = index.contiguous()
        B, K = index.shape
        out = torch.empty((B, K), device=x.device, dtype=x.dtype)
        gather_scale_kernel[(B,)](x, index, out, K, x.stride(0), self.scale,
                                  BLOCK_K=triton.next_power_of_2(K))
        return out
