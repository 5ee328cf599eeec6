# Linear + row sum folded into one GEMV: sum_n (x W^T + b)[m, n] = x[m] . W.sum(0) + b.sum().
# The folded bias reaches the kernel as a Python float (bias.sum().item()), and the parameters
# are initialized as nn.Linear's reset_parameters does. The max, mean and two logsumexps that
# follow in the reference act on one element each: the identity.
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_dot_kernel(x_ptr, w_ptr, out_ptr, bias_total, M, K, stride_xm,
                   BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    row_mask = rows < M
    acc = tl.zeros((BLOCK_M,), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        cols = k0 + tl.arange(0, BLOCK_K)
        col_mask = cols < K
        x = tl.load(x_ptr + rows[:, None] * stride_xm + cols[None, :],
                    mask=row_mask[:, None] & col_mask[None, :], other=0.0)
        w = tl.load(w_ptr + cols, mask=col_mask, other=0.0)
        acc += tl.sum(x * w[None, :], axis=1)
    tl.store(out_ptr + rows, acc + bias_total, mask=row_mask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(out_features, in_features))
        self.bias = nn.Parameter(torch.empty(out_features))
        nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        fan_in, _ = nn.init._calculate_fan_in_and_fan_out(self.weight)
        bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
        nn.init.uniform_(self.bias, -bound, bound)

    def forward(self, x):
        assert x.is_cuda
        x = x.contiguous()
        M, K = x.shape
        w_folded = self.weight.sum(dim=0).contiguous()
        bias_total = self.bias.sum().item()
        out = torch.empty((M,), device=x.device, dtype=torch.float32)
        BLOCK_M = 32
        BLOCK_K = min(128, triton.next_power_of_2(K))
        grid = (triton.cdiv(M, BLOCK_M),)
        row_dot_kernel[grid](x, w_folded, out, bias_total, M, K, x.stride(0),
                             BLOCK_M=BLOCK_M, BLOCK_K=BLOCK_K)
        return out.view(M, 1)
