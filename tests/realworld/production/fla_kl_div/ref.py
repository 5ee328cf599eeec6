import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """KL(teacher || student) over a vocabulary projection, summed over tokens and divided by their
    count: student logits x W^T, teacher logits tx tW^T (the teacher's weight frozen: an input)."""

    def __init__(self, hidden, vocab):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(vocab, hidden))

    def forward(self, x, target_x, target_weight):
        log_p = F.log_softmax(x @ self.weight.T, dim=-1)
        log_q = F.log_softmax(target_x @ target_weight.T, dim=-1)
        return F.kl_div(log_p, log_q, reduction="batchmean", log_target=True)


N, H, V = 4, 8, 16


def get_inputs():
    return [torch.randn(N, H), torch.randn(N, H), torch.randn(V, H)]


def get_init_inputs():
    return [H, V]
