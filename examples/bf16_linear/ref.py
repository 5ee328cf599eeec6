import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_features, in_features))

    def forward(self, x):
        y = x.to(torch.bfloat16) @ self.weight.to(torch.bfloat16).T
        return y.float()


batch_size = 64
in_features = 256
out_features = 128


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]
