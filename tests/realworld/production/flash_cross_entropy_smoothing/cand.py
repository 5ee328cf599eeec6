import torch.nn as nn
from flash_attn.losses.cross_entropy import CrossEntropyLoss


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.loss = CrossEntropyLoss(label_smoothing=0.1)

    def forward(self, logits, target):
        return self.loss(logits, target)
