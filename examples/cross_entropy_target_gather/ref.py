import torch
import torch.nn as nn

batch_size = 4
num_classes = 6


class Model(nn.Module):
    """Cross entropy written out: log-softmax, then each row's target picked by advanced indexing."""

    def forward(self, predictions, targets):
        logp = torch.log_softmax(predictions, dim=1)
        return -logp[torch.arange(predictions.shape[0]), targets].mean()


def get_inputs():
    return [torch.randn(batch_size, num_classes), torch.randint(0, num_classes, (batch_size,))]


def get_init_inputs():
    return []
