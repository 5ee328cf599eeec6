import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 4
hidden = 8
vocab = 32

class Model(nn.Module):
    """The LM head and its loss: cross entropy of x @ W^T against class targets, averaged over
    the tokens."""
    def __init__(self, hidden, vocab):
        super().__init__()
        self.lm_head = nn.Linear(hidden, vocab, bias=False)

    def forward(self, x, target):
        return F.cross_entropy(self.lm_head(x), target)

def get_inputs():
    return [torch.randn(batch_size, hidden), torch.randint(0, vocab, (batch_size,))]

def get_init_inputs():
    return [hidden, vocab]
