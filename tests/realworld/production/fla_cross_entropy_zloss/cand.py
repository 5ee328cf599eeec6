import torch.nn as nn
from fla.modules import FusedCrossEntropyLoss


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.loss = FusedCrossEntropyLoss(lse_square_scale=1e-4)

    def forward(self, logits, target):
        return self.loss(logits, target)
