import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def rmsnorm_channels_kernel(x_ptr, y_ptr, C, HW, eps, BLOCK_C: tl.constexpr, BLOCK_HW: tl.constexpr):
    b = tl.program_id(0)
    pid_hw = tl.program_id(1)
    hw = pid_hw * BLOCK_HW + tl.arange(0, BLOCK_HW)
    c = tl.arange(0, BLOCK_C)
    mask = (c[:, None] < C) & (hw[None, :] < HW)
    base = b.to(tl.int64) * C * HW
    ptrs = x_ptr + base + c[:, None] * HW + hw[None, :]
    x = tl.load(ptrs, mask=mask, other=0.0)
    ms = tl.sum(x * x, axis=0) / C
    rstd = tl.rsqrt(ms + eps)
    y = x * rstd[None, :]
    tl.store(y_ptr + base + c[:, None] * HW + hw[None, :], y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, num_features: int, eps: float = 1e-5):
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.register_buffer("_dummy", torch.zeros(1), persistent=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert x.is_cuda and x.dim() == 4 and x.size(1) == self.num_features
        x = x.contiguous()
        B, C, H, W = x.shape
        y = torch.empty_like(x)
        HW = H * W
        BLOCK_C = triton.next_power_of_2(C)
        BLOCK_HW = 64
        grid = (B, triton.cdiv(HW, BLOCK_HW))
        rmsnorm_channels_kernel[grid](x, y, C, HW, self.eps, BLOCK_C=BLOCK_C, BLOCK_HW=BLOCK_HW)
        return y
