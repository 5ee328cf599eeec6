import torch
import torch.nn as nn


# relu(x) - relu(-x) is x: true case by case (x > 0, x < 0, x = 0), which Z3 shows and the
# e-graph, with no rule for it, does not (keq verify --no-smt leaves it UNKNOWN).
class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x) - torch.relu(-x)


batch_size = 16
dim = 64


def get_inputs():
    return [torch.randn(batch_size, dim)]
