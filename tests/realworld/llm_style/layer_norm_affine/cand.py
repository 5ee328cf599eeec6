import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _layer_norm_fwd(X, Y, W, B, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    X += row * N
    Y += row * N
    mean = 0.0
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        _mean += a
    mean = tl.sum(_mean, axis=0) / N
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        _var += x * x
    var = tl.sum(_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        x_hat = (x - mean) * rstd
        y = x_hat * w + b
        tl.store(Y + cols, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, normalized_shape: tuple):
        super().__init__()
        self.normalized_shape = tuple(normalized_shape)
        n = 1
        for s in self.normalized_shape:
            n *= s
        self.weight = nn.Parameter(torch.empty(self.normalized_shape))
        self.bias = nn.Parameter(torch.empty(self.normalized_shape))
        self.eps = 1e-5
        self.reset_parameters()

    def reset_parameters(self):
        nn.init.ones_(self.weight)
        nn.init.zeros_(self.bias)

    def forward(self, x):
        N = self.weight.numel()
        x2 = x.reshape(-1, N)
        y = torch.empty_like(x2)
        BLOCK_SIZE = min(1024, triton.next_power_of_2(N))
        _layer_norm_fwd[(x2.shape[0],)](x2, y, self.weight, self.bias, N, self.eps,
                                        BLOCK_SIZE=BLOCK_SIZE)
        return y.view_as(x)
