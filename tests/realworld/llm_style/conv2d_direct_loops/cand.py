import torch
import torch.nn as nn
import triton
import triton.language as tl

@triton.jit
def conv2d_kernel(x_ptr, w_ptr, y_ptr, C_in, H, W, C_out, OH, OW,
                  KH: tl.constexpr, KW: tl.constexpr, BLOCK: tl.constexpr):
    pid_nc = tl.program_id(0)
    pid_p = tl.program_id(1)
    n = pid_nc // C_out
    co = pid_nc % C_out
    offs = pid_p * BLOCK + tl.arange(0, BLOCK)
    mask = offs < OH * OW
    oh = offs // OW
    ow = offs % OW
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for ci in range(C_in):
        for kh in tl.static_range(KH):
            for kw in tl.static_range(KW):
                xv = tl.load(x_ptr + ((n * C_in + ci) * H + oh + kh) * W + ow + kw, mask=mask, other=0.0)
                wv = tl.load(w_ptr + ((co * C_in + ci) * KH + kh) * KW + kw)
                acc += xv * wv
    tl.store(y_ptr + pid_nc * OH * OW + offs, acc, mask=mask)

class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, bias=False)
    def forward(self, x):
        x = x.contiguous()
        w = self.conv.weight.contiguous()
        N, C, H, W = x.shape
        CO, _, KH, KW = w.shape
        OH, OW = H - KH + 1, W - KW + 1
        y = torch.empty((N, CO, OH, OW), device=x.device, dtype=x.dtype)
        BLOCK = 256
        grid = (N * CO, triton.cdiv(OH * OW, BLOCK))
        conv2d_kernel[grid](x, w, y, C, H, W, CO, OH, OW, KH=KH, KW=KW, BLOCK=BLOCK)
        return y
