import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scale_kernel(a_ptr, out_ptr, s, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    a = tl.load(a_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, a * s, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, s: float) -> torch.Tensor:
        A = A.contiguous()
        out = torch.empty_like(A)
        n_elements = A.numel()
        grid = (triton.cdiv(n_elements, 4096),)
        scale_kernel[grid](A, out, s, n_elements, BLOCK_SIZE=4096)
        return out
