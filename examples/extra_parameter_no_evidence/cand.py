import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def linear_relu_kernel(x_ptr, w_ptr, b_ptr, out_ptr, K, N,
                       BLOCK_K: tl.constexpr, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    offs_n = tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    mask_n = offs_n < N
    mask_k = offs_k < K
    x = tl.load(x_ptr + row * K + offs_k, mask=mask_k, other=0.0)
    w = tl.load(w_ptr + offs_n[:, None] * K + offs_k[None, :],
                mask=mask_n[:, None] & mask_k[None, :], other=0.0)
    acc = tl.sum(w * x[None, :], axis=1)
    b = tl.load(b_ptr + offs_n, mask=mask_n, other=0.0)
    tl.store(out_ptr + row * N + offs_n, tl.maximum(acc + b, 0.0), mask=mask_n)


def linear_relu(x, weight, bias):
    x = x.contiguous()
    M, K = x.shape
    N = weight.shape[0]
    out = torch.empty((M, N), device=x.device, dtype=x.dtype)
    linear_relu_kernel[(M,)](x, weight, bias, out, K, N,
                             BLOCK_K=triton.next_power_of_2(K),
                             BLOCK_N=triton.next_power_of_2(N))
    return out


# A per-feature gain the reference does not have, used in the output: which vector is the
# bias, shapes cannot say, and under either pairing the outputs differ only through a parameter
# of the candidate's own, at some values of it. That is no evidence against the candidate.
class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_features, in_features))
        self.bias = nn.Parameter(torch.randn(out_features))
        self.gain = nn.Parameter(torch.randn(out_features))

    def forward(self, x):
        return linear_relu(x, self.weight, self.bias) * self.gain


batch_size = 2
in_features = 3
out_features = 4


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]
