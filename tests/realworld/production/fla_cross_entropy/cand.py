import torch.nn as nn
from fla.modules import FusedCrossEntropyLoss


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.loss = FusedCrossEntropyLoss()

    def forward(self, logits, target):
        return self.loss(logits, target)
