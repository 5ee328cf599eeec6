import torch
import torch.nn as nn


# A Linear followed by a bias of its own: two biases add.
class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.gemm = nn.Linear(in_features, out_features)
        self.bias = nn.Parameter(torch.randn(out_features))

    def forward(self, x):
        return torch.relu(self.gemm(x) + self.bias)


batch_size = 2
in_features = 3
out_features = 4


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]
