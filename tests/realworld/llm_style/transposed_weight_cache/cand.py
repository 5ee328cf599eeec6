# LLM style: a persistent transposed copy of the weight, rebuilt when the weight's version
# counter moves (w._version), under torch.no_grad(); the bias added in place on the host
# (`out += ...` writes the tensor the kernel filled, and the view taken of it before).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def linear_relu_kernel(x_ptr, wt_ptr, out_ptr, M, N, K, SCALE,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        ks = k0 + rk
        a = tl.load(x_ptr + rm[:, None] * K + ks[None, :],
                    mask=(rm[:, None] < M) & (ks[None, :] < K), other=0.0)
        w = tl.load(wt_ptr + ks[:, None] * N + rn[None, :],
                    mask=(ks[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, w, allow_tf32=False)
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, scale):
        super(ModelNew, self).__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.scale = scale
        self._wt = None
        self._wt_version = None

    def _weight_t(self):
        w = self.linear.weight
        if self._wt is None or self._wt_version != w._version or self._wt.device != w.device:
            with torch.no_grad():
                self._wt = w.t().contiguous()
            self._wt_version = w._version
        return self._wt

    def forward(self, x):
        assert x.is_cuda and x.is_contiguous()
        M, K = x.shape
        wt = self._weight_t()
        N = wt.shape[1]
        out = torch.empty((M, N), device=x.device, dtype=torch.float32)
        flat = out.view(-1)
        grid = (triton.cdiv(M, 32), triton.cdiv(N, 32))
        linear_relu_kernel[grid](x, wt, out, M, N, K, self.scale,
                                 BLOCK_M=32, BLOCK_N=32, BLOCK_K=32)
        out += self.linear.bias
        out.relu_()
        out *= self.scale
        return flat.view(M, N)
