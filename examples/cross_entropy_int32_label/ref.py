import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    def forward(self, logits, labels):
        b, s, v = logits.shape
        return F.cross_entropy(logits.view(-1, v).float(), labels.view(-1), ignore_index=-100)

batch = 2
seq_len = 3
vocab = 50

def get_inputs():
    return [torch.randn(batch, seq_len, vocab), torch.randint(0, vocab, (batch, seq_len))]

def get_init_inputs():
    return []
