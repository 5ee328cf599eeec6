import torch
import torch.nn as nn

batch_size = 2
heads = 4
kv_heads = 2
seq = 8
half_dim = 8

def sections(half):
    """mrope_section: temporal, height and width parts of the half head dimension."""
    t = half // 4 + 1
    h = half // 4
    return [t, h, half - t - h]

def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)

class Model(nn.Module):
    """Multimodal rotary embedding as Hugging Face's Qwen2-VL apply_multimodal_rotary_pos_emb:
    cos and sin of shape (3, batch, seq, head_dim), one table each for the temporal, height and
    width positions, built as cat(f, f) from half-width tables; each section of the head
    dimension takes its part from its table."""
    def forward(self, q, k, cos_half, sin_half):
        cos = torch.cat((cos_half, cos_half), dim=-1)
        sin = torch.cat((sin_half, sin_half), dim=-1)
        sec = sections(cos_half.shape[-1]) * 2
        cos = torch.cat([m[i % 3] for i, m in enumerate(cos.split(sec, dim=-1))], dim=-1).unsqueeze(1)
        sin = torch.cat([m[i % 3] for i, m in enumerate(sin.split(sec, dim=-1))], dim=-1).unsqueeze(1)
        return q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin

def get_inputs():
    return [torch.randn(batch_size, heads, seq, 2 * half_dim), torch.randn(batch_size, kv_heads, seq, 2 * half_dim),
            torch.randn(3, batch_size, seq, half_dim), torch.randn(3, batch_size, seq, half_dim)]

def get_init_inputs():
    return []
