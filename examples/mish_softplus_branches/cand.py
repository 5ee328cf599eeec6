import torch
import torch.nn as nn
import triton
import triton.language as tl


# tanh(mish(x)) with softplus in two branches picked by a where on x (x + log(1 + e^-x) for
# x >= 0: no overflow), and each tanh in two forms picked by the sign of its argument.
@triton.jit
def tanh_branches(u):
    e = tl.exp(2.0 * u)
    return tl.where(u >= 0, 1.0 - 2.0 / (1.0 + e), (e - 1.0) / (e + 1.0))


@triton.jit
def mish_tanh_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    exp_neg_abs = tl.exp(-tl.where(x > 0, x, -x))
    softplus = tl.where(x >= 0, x + tl.log(1.0 + exp_neg_abs), tl.log(1.0 + tl.exp(x)))
    mish = x * tanh_branches(softplus)
    tl.store(out_ptr + offs, tanh_branches(mish), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.fc = nn.Linear(features, features)

    def forward(self, x):
        x = self.fc(x).contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        mish_tanh_kernel[(triton.cdiv(n, 64),)](x, out, n, BLOCK=64)
        return out


batch_size = 2
dim = 5


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return [dim]
