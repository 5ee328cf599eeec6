import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, q, k):
        scores = torch.bmm(q, k.transpose(1, 2)) * self.scale
        return torch.log_softmax(scores, dim=-1)


batch_size = 4
seq = 128
head_dim = 64


def get_inputs():
    return [torch.randn(batch_size, seq, head_dim), torch.randn(batch_size, seq, head_dim)]


def get_init_inputs():
    return [head_dim ** -0.5]
