import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=mask), 0.0), mask=mask)


# Where torch puts tensors made in forward, as measured on the GPU
# (tests/fixtures/gpu/cpu_tensors.txt): a factory without device= on the CPU, *_like on its
# input's device, .cuda() / .to(device) / .to(other) onto the GPU, .cpu() off it, an op's result
# where its operands are. Each assert
# holds there; the output is moved to the GPU before the kernel writes it.
class ModelNew(nn.Module):
    def forward(self, x):
        n = x.numel()
        host = torch.zeros(n)
        assert host.device.type == "cpu" and host.is_cpu and not host.is_cuda
        assert torch.empty_like(host).device.type == "cpu"
        assert torch.empty_like(x).is_cuda and x.is_cuda
        assert torch.ones(2, device="cuda").cpu().device.type == "cpu"
        ints = torch.zeros(2, dtype=torch.int32).to(x)
        assert ints.dtype == x.dtype and ints.is_cuda
        assert torch.empty(2, device=x.device).is_cuda and torch.empty(2, device=0).is_cuda
        assert (torch.ones(3) + torch.ones(3)).is_cpu  # CPU with CPU stays there
        assert (x * torch.tensor(2.0)).is_cuda  # a CPU 0-d tensor rides along as a scalar
        out = host.to(x.device)
        assert out.is_cuda and host.is_cpu
        relu_kernel[(triton.cdiv(n, 256),)](x, out, n, BLOCK=256)
        return out.view(x.shape)
