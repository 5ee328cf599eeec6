# Scaled dot-product attention written out: softmax(Q K^T / sqrt(d)) V, in fp32.
import math

import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, q, k, v):
        scores = torch.matmul(q, k.transpose(-2, -1)) * (1.0 / math.sqrt(q.shape[-1]))
        return torch.matmul(torch.softmax(scores, dim=-1), v)


batch_size = 2
num_heads = 2
seq_len = 40
head_dim = 16


def get_inputs():
    shape = (batch_size, num_heads, seq_len, head_dim)
    return [torch.randn(shape), torch.randn(shape), torch.randn(shape)]


def get_init_inputs():
    return []
