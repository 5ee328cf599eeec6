import torch.nn as nn
from fla.modules.activations.ops import logsigmoid


class ModelNew(nn.Module):
    def forward(self, x):
        return logsigmoid(x, temperature=4.0)
