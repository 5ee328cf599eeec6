import torch
import torch.nn as nn
from fla.modules import FusedKLDivLoss


class ModelNew(nn.Module):
    def __init__(self, hidden, vocab):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(vocab, hidden))
        self.loss = FusedKLDivLoss()

    def forward(self, x, target_x, target_weight):
        return self.loss(x, target_x, self.weight, target_weight)
