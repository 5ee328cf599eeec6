# The LSTM stays in torch (cuDNN); the last step's Linear is one Triton program per row, reading
# the last time step through the output's strides instead of copying it.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def last_step_linear(out_ptr, w_ptr, b_ptr, y_ptr, seq_len, hidden, n_out,
                     stride_b, stride_t, BLOCK_H: tl.constexpr, BLOCK_O: tl.constexpr):
    row = tl.program_id(0)
    hs = tl.arange(0, BLOCK_H)
    os = tl.arange(0, BLOCK_O)
    h = tl.load(out_ptr + row * stride_b + (seq_len - 1) * stride_t + hs, mask=hs < hidden, other=0.0)
    w = tl.load(w_ptr + os[:, None] * hidden + hs[None, :],
                mask=(os[:, None] < n_out) & (hs[None, :] < hidden), other=0.0)
    y = tl.sum(w * h[None, :], axis=1) + tl.load(b_ptr + os, mask=os < n_out, other=0.0)
    tl.store(y_ptr + row * n_out + os, y, mask=os < n_out)


class ModelNew(nn.Module):
    def __init__(self, input_size, hidden_size, num_layers, output_size, dropout=0.0):
        super().__init__()
        self.h0 = torch.randn((num_layers, batch_size, hidden_size))
        self.c0 = torch.randn((num_layers, batch_size, hidden_size))
        self.lstm = nn.LSTM(input_size, hidden_size, num_layers, batch_first=True, dropout=dropout)
        self.fc = nn.Linear(hidden_size, output_size)

    def forward(self, x):
        assert x.is_cuda
        out, _ = self.lstm(x, (self.h0.to(x.device), self.c0.to(x.device)))
        out = out.contiguous()
        n, t, h = out.shape
        y = torch.empty((n, self.fc.out_features), device=x.device, dtype=x.dtype)
        last_step_linear[(n,)](out, self.fc.weight, self.fc.bias, y, t, h, self.fc.out_features,
                               out.stride(0), out.stride(1),
                               BLOCK_H=triton.next_power_of_2(h),
                               BLOCK_O=triton.next_power_of_2(self.fc.out_features))
        return y


batch_size = 4
