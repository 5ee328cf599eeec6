"""Runs reference files with real PyTorch (CPU) and records inputs and outputs as text.

The test side (tests/crosscheck_test.cc) runs the same files through keq at the same sizes,
evaluates keq's output terms at these inputs, and compares. Inputs and parameters are matched
to keq's variables by creation order: keq names them in0, in1, ... (get_inputs) and p0, p1, ...
(parameters, in the order the model creates them).

usage: torch_outputs.py OUT_DIR EXAMPLES_DIR [--device cuda] [--zeros] [--nonfinite]
With --zeros every fourth element of each float input is -0.0 (randn's) and every fourth +0.0,
so that the recorded outputs pin the sign of each zero (tests/fixtures/gpu/zeros holds such a run).
With --nonfinite randn's draws take +inf, -inf and NaN in one element of every eight each
(keq verify --nonfinite-inputs; tests/fixtures/gpu/nonfinite).
With --device cuda the model and inputs move to the GPU after the inputs are drawn on the CPU,
so the recorded outputs are CUDA's numerics (tests/fixtures/gpu/ holds such a run).
Paths in .case files are relative: examples/NAME/ref.py (to the source tree) or ops/NAME.py
(to the .case file's folder).
Writes OUT_DIR/<name>.case for every examples/<name>/ref.py, and generates one small reference
per torch op under OUT_DIR/ops/ (with its .case), so that every supported op is checked alone.
A .case file has one record a line:
  file PATH / dims k=v,... / input SHAPE : values / param SHAPE : values / output DTYPE SHAPE : values
with SHAPE as 2x3 (or "scalar") and values as Python reprs (inf, nan included).
"""
import math
import os
import re
import sys

# Candidates' Triton kernels run in Triton's interpreter on CPU tensors, unless recording on a GPU.
if "--device" not in sys.argv:
    os.environ["TRITON_INTERPRET"] = "1"

import torch

ZEROS = "--zeros" in sys.argv
NONFINITE = "--nonfinite" in sys.argv

OPS = {
    # name: (expression over x (and y), input kind)
    "add": ("x + y", "2"), "add_alpha": ("torch.add(x, y, alpha=2)", "2"),
    "addcmul": ("torch.addcmul(x, y, x, value=0.5)", "2"),
    "addcdiv": ("torch.addcdiv(x, y, x.abs() + 1.0, value=-0.25)", "2"),
    "full_like": ("torch.full_like(x, 2.5) * x", "1"), "new_tensor": ("x.new_tensor([1.5, -2.0, 0.5, 3.0, -1.0]) * x", "1"),
    # int8 / uint8: a float's truncation, wrapped to the byte (values well inside int32, where
    # the CPU and CUDA conversions agree); byte arithmetic wraps too.
    "to_int8": ("(x * 100).to(torch.int8)", "1"), "to_uint8": ("(x * 100).to(torch.uint8)", "1"),
    "int8_add_wraps": ("(x * 50).to(torch.int8) * 3 + (y * 50).to(torch.int8)", "2"),
    "int8_to_float": ("(x * 100).to(torch.int8).to(torch.float32) * y", "2"),
    "cumsum_int8": ("torch.cumsum((x * 100).to(torch.int8), dim=1)", "1"),
    "cumsum_bool": ("torch.cumsum(x > 0, dim=1)", "1"),
    "sub_alpha": ("x.sub(y, alpha=0.5)", "2"), "multiply": ("torch.multiply(x, y)", "2"),
    "norm_fro": ("x / torch.norm(x, p='fro')", "1"), "max_values": ("torch.max(x, dim=1).values", "1"),
    "cummax_indices": ("torch.cummax(torch.round(x * 2), dim=1).indices", "1"),
    "max_pool1d_indices": ("F.max_pool1d(x, 2, stride=1, return_indices=True)[1]", "1"),
    "max_pool2d_indices": ("F.max_pool2d(x.unsqueeze(0), 2, padding=1, return_indices=True)[1]", "1"), "sub": ("x - y", "2"), "mul": ("x * y", "2"), "div": ("x / y", "2"),
    "pow2": ("x ** 2", "1"), "neg": ("-x", "1"), "abs": ("torch.abs(x)", "1"),
    "exp": ("torch.exp(x)", "1"), "log": ("torch.log(torch.abs(x) + 0.5)", "1"),
    "sqrt": ("torch.sqrt(torch.abs(x))", "1"), "rsqrt": ("torch.rsqrt(torch.abs(x) + 0.1)", "1"),
    "reciprocal": ("torch.reciprocal(x + 3.0)", "1"), "floor": ("torch.floor(x * 3)", "1"),
    "ceil": ("torch.ceil(x * 3)", "1"), "round": ("torch.round(x * 3)", "1"),
    "clamp": ("torch.clamp(x, min=-0.5, max=0.7)", "1"), "maximum": ("torch.maximum(x, y)", "2"),
    "minimum": ("torch.minimum(x, y)", "2"), "where": ("torch.where(x > y, x, y * 2)", "2"),
    "relu": ("torch.relu(x)", "1"), "leaky_relu": ("F.leaky_relu(x, negative_slope=0.2)", "1"),
    "gelu": ("F.gelu(x)", "1"), "gelu_tanh": ("F.gelu(x, approximate='tanh')", "1"),
    "sigmoid": ("torch.sigmoid(x)", "1"), "tanh": ("torch.tanh(x)", "1"), "silu": ("F.silu(x)", "1"),
    "sin": ("torch.sin(x * 4)", "1"), "cos": ("(x * 4).cos()", "1"),
    "as_strided_t": ("torch.as_strided(x.contiguous(), (x.shape[1], x.shape[0]), (1, x.shape[1])) * 2", "1"),
    "expand_then_write": ("(lambda b: (b.expand(3, -1), b.mul_(2))[0] + 0)(x[:1].clone())", "1"),
    "mish": ("F.mish(x)", "1"), "softplus": ("F.softplus(x * 10, beta=1.0, threshold=20.0)", "1"),
    "elu": ("F.elu(x, alpha=0.7)", "1"), "selu": ("F.selu(x)", "1"),
    "compare_fns": ("torch.ne(x, y).float() + torch.ge(x, 0).float() + torch.less(x, y).float()", "2"),
    "clamp_min_max": ("torch.clamp_min(x, 0.1) + x.clamp_max(0.2)", "1"),
    "fmod": ("torch.fmod(x * 5, 0.7)", "1"), "remainder": ("torch.remainder(x * 5, -0.7)", "1"),
    "xlogy": ("torch.xlogy(torch.relu(x), torch.abs(y) + 0.1)", "2"),
    "lerp": ("torch.lerp(x, y, 0.3) + torch.lerp(x, y, 0.8)", "2"),
    "isfinite": ("torch.isfinite(x / (x - x[0, 0])).float() + torch.isnan(torch.log(x)).float()", "1"),
    "nan_to_num": ("torch.nan_to_num(torch.log(x))", "1"),
    "logical": ("torch.logical_and(x > 0, y > 0).float() + torch.logical_xor(x > 0, y).float()"
                " + torch.logical_not(x > 0.5).float()", "2"),
    "any_all": ("(x > 0).any(dim=1).float() + (x > -1).all(dim=1).float()", "1"),
    "var_mean": ("torch.var_mean(x, dim=1)[0] + torch.std_mean(x, dim=1, unbiased=False)[1]", "1"),
    "trace": ("torch.trace(x).reshape(1) * x", "1"),
    # einops (keq's model of it, frontends/torch/einops.cc), x and y 3 x 5.
    "einops_rearrange": ("einops.rearrange(torch.cat([x, y], 1), 'a (c b) -> (b a) c', c=2)", "2"),
    "einops_repeat": ("einops.repeat(x, 'a b -> a r b', r=2) + einops.repeat(y, 'a b -> a 2 b')", "2"),
    "einops_reduce": ("einops.reduce(torch.cat([x, y], 1), 'a (b c) -> a b', 'mean', c=2)"
                      " + einops.reduce(x, 'a b -> 1 b', 'max')", "2"),
    "einops_ellipsis": ("einops.rearrange(x.reshape(3, 5, 1), '... c -> c ...') * 2", "1"),
    "einops_einsum": ("einops.einsum(x, y, 'row col, row2 col -> row row2')", "2"),
    "unfold": ("x.unfold(1, 2, 2).reshape(3, -1) * 2 + x.unfold(1, 3, 1).sum(-1).sum(-1, keepdim=True)", "1"),
    "reshape_of_views": ("x.t().reshape(5, 3) + y[:, 1:4].reshape(9).reshape(3, 3).sum() + x.t().view(5, 3)", "2"),

    "baddbmm": ("torch.baddbmm((x @ y.t()).unsqueeze(0), x.unsqueeze(0), y.t().unsqueeze(0), beta=0.5, alpha=2)", "2"),
    "mT": ("x @ y.mT", "2"),
    "tanhshrink": ("F.tanhshrink(x)", "1"), "softmin": ("F.softmin(x, dim=1)", "1"),
    "logit": ("torch.logit(torch.sigmoid(x), eps=1e-3)", "1"),
    "bce": ("F.binary_cross_entropy(torch.sigmoid(x), torch.sigmoid(y))", "2"),
    "bce_logits": ("F.binary_cross_entropy_with_logits(x, torch.sigmoid(y), reduction='sum')", "2"),
    "soft_margin": ("F.soft_margin_loss(x, torch.sign(y))", "2"),
    "poisson_nll": ("F.poisson_nll_loss(x, torch.abs(y))", "2"),
    "margin_ranking": ("F.margin_ranking_loss(x, y, torch.sign(x * y), margin=0.1, reduction='none')", "2"),
    "pairwise_distance": ("F.pairwise_distance(x, y)", "2"),
    "pad_reflect": ("F.pad(x, (2, 1), mode='reflect')", "1"),
    "mod_floordiv": ("x % 0.7 + x // 0.3 + torch.floor_divide(y, -0.4) + (x * 10).long() % 3"
                     " + (y * 10).long() // -4", "2"),
    "cross_entropy_label_smoothing": ("F.cross_entropy(x, torch.tensor([0, 4, 2], device=x.device), label_smoothing=0.1)", "1"),
    "cross_entropy_label_smoothing_none": ("F.cross_entropy(x, torch.tensor([1, 3, 2], device=x.device), label_smoothing=0.3, reduction='none')", "1"),
    "multilabel_soft_margin": ("F.multilabel_soft_margin_loss(x, (y > 0).float())", "2"),
    "cosine_embedding": ("F.cosine_embedding_loss(x, y, torch.tensor([1.0, -1.0, -1.0], device=x.device), margin=-0.2, reduction='none')", "2"),
    "bilinear_fn": ("F.bilinear(x, y, torch.arange(75.0, device=x.device).view(3, 5, 5) / 40 - 0.9, torch.tensor([0.5, -1.0, 2.0], device=x.device))", "2"),
    "hypot": ("torch.hypot(x, y)", "2"),
    "logcumsumexp": ("torch.logcumsumexp(x, dim=1) + x.logcumsumexp(0)", "1"),
    "one_hot": ("F.one_hot(torch.tensor([2, 0, 1], device=x.device), 5).float() * x", "1"),
    "cdist": ("torch.cdist(x, y * 2)", "2"),
    "gaussian_nll": ("F.gaussian_nll_loss(x, y, x.abs() * 0.5, full=True) + F.gaussian_nll_loss(x, y, y * y, reduction='sum')", "2"),
    "embedding_fn": ("F.embedding(torch.tensor([[0, 2], [1, 1]], device=x.device), x)", "1"),
    "prelu_fn": ("F.prelu(x.unsqueeze(0), y[0, :3])", "2"),
    "roll": ("torch.roll(x, 2, 1) + torch.roll(x, (1, -1), (0, 1)) + x.roll(-3)", "1"),
    "outer": ("torch.outer(x[0], y[1])", "2"),
    "pixel_shuffle": ("F.pixel_shuffle(torch.cat([x, y, x * 2, y - 1], 1).view(1, 4, 3, 5), 2)", "2"),
    "pixel_unshuffle": ("F.pixel_unshuffle(torch.cat([x, y], 0)[:, :4].reshape(1, 1, 6, 4), 2)", "2"),
    "interpolate_bilinear": ("F.interpolate(x.view(1, 1, 3, 5), scale_factor=2, mode='bilinear')[0, 0, :3]", "1"),
    "interpolate_bilinear_size": ("F.interpolate(x.view(1, 1, 3, 5), size=(4, 7), mode='bilinear').sum(1)", "1"),
    "interpolate_bilinear_corners": ("F.interpolate(x.view(1, 1, 3, 5), size=(5, 9), mode='bilinear', align_corners=True)"
                                     ".flatten()[:15]", "1"),
    "interpolate_linear": ("F.interpolate(x.unsqueeze(0), scale_factor=3, mode='linear')[0, :, :5]", "1"),
    "interpolate_trilinear": ("F.interpolate(torch.stack([x, y]).view(1, 1, 2, 3, 5), scale_factor=2, mode='trilinear')"
                              ".flatten()[:15]", "2"),
    "interpolate_nearest": ("F.interpolate(x.view(1, 1, 3, 5), scale_factor=2)[0, 0] + "
                            "F.interpolate(x.view(1, 3, 5), size=10)[0, :1]", "1"),
    "group_norm_fn": ("F.group_norm(torch.cat([x, y], 1).view(3, 2, 5), 2, eps=1e-3)", "2"),
    "group_norm_fn_affine": ("F.group_norm(x.view(1, 3, 5), 3, x[0, :3], y[0, :3])", "2"),
    "instance_norm_fn": ("F.instance_norm(torch.stack([x, y], 1))", "2"),
    "pad_replicate_2d": ("F.pad(x.unsqueeze(0), (1, 2, 2, 1), mode='replicate')", "1"),
    "pad_circular": ("F.pad(x.unsqueeze(0), (2, 3), mode='circular')", "1"),
    "hardtanh": ("F.hardtanh(x, min_val=-0.5, max_val=0.5)", "1"), "hardsigmoid": ("F.hardsigmoid(x * 4)", "1"),
    "hardswish": ("F.hardswish(x * 4)", "1"), "softsign": ("F.softsign(x)", "1"), "relu6": ("F.relu6(x * 8)", "1"),
    "sum": ("x.sum(dim=1)", "1"), "mean": ("x.mean(dim=0, keepdim=True)", "1"), "amax": ("x.amax(dim=1)", "1"),
    "amin": ("torch.amin(x, dim=0)", "1"), "max_all": ("torch.max(x)", "1"), "prod": ("x.prod(dim=1)", "1"),
    "var": ("x.var(dim=1)", "1"), "var_biased": ("torch.var(x, dim=1, unbiased=False)", "1"),
    "std": ("x.std(dim=0, correction=0)", "1"), "logsumexp": ("torch.logsumexp(x, dim=1)", "1"),
    "norm": ("torch.norm(x, p=2, dim=1)", "1"), "argmax": ("torch.argmax(x, dim=1)", "1"),
    "argmin": ("x.argmin(dim=0)", "1"), "max_indices": ("torch.max(x, dim=1)[1]", "1"),
    "softmax": ("torch.softmax(x, dim=1)", "1"), "log_softmax": ("F.log_softmax(x, dim=0)", "1"),
    "matmul": ("x @ y.T", "2"), "bmm": ("torch.bmm(x.unsqueeze(0), y.T.unsqueeze(0))", "2"),
    "linear": ("F.linear(x, y)", "2"), "layer_norm": ("F.layer_norm(x, (x.shape[1],))", "1"),
    "view": ("x.view(-1)", "1"), "reshape": ("x.reshape(x.shape[1], x.shape[0])", "1"),
    "permute": ("x.permute(1, 0)", "1"), "transpose": ("x.transpose(0, 1).contiguous()", "1"),
    "T": ("x.T", "1"), "unsqueeze_squeeze": ("x.unsqueeze(1).squeeze(1)", "1"), "flatten": ("torch.flatten(x)", "1"),
    "expand": ("x[:, :1].expand(-1, 4)", "1"), "repeat": ("x.repeat(2, 1)", "1"),
    "cat": ("torch.cat([x, y], dim=1)", "2"), "stack": ("torch.stack([x, y], dim=0)", "2"),
    "split": ("torch.split(x, 2, dim=1)[1]", "1"), "chunk": ("x.chunk(2, dim=0)[0]", "1"),
    "index": ("x[1:, ::2]", "1"), "index_none": ("x[None, :, 1]", "1"), "tril": ("torch.tril(x)", "1"),
    "triu": ("torch.triu(x, diagonal=1)", "1"), "zeros_ones": ("x + torch.ones_like(x) * 2 + torch.zeros(x.shape[1], device=x.device)", "1"),
    "full_arange": ("x + torch.arange(x.shape[1], device=x.device) + torch.full((x.shape[1],), 0.25, device=x.device)", "1"),
    "to_fp16": ("(x * 1000).to(torch.float16)", "1"), "to_bf16": ("(x * 3).to(torch.bfloat16)", "1"),
    "fp16_arith": ("x.half() * y.half() + x.half()", "2"),
    "to_e4m3": ("(x * 300).to(torch.float8_e4m3fn)", "1"), "to_e5m2": ("(x * 30000).to(torch.float8_e5m2)", "1"),
    "to_int32": ("(x * 10).to(torch.int32)", "1"), "to_bool": ("(x > 0).float()", "1"),
    "addmm": ("torch.addmm(x[:, :3], x, y.T[:, :3])", "2"), "mm": ("torch.mm(x, y.T)", "2"),
    "exp2": ("torch.exp2(x)", "1"), "log2": ("torch.log2(torch.abs(x) + 1)", "1"), "trunc": ("torch.trunc(x * 3)", "1"),
    "clip": ("torch.clip(x, -0.3, 0.3)", "1"), "erf": ("torch.erf(x)", "1"), "max_binary": ("torch.max(x, y)", "2"),
    "swish_manual": ("x * torch.sigmoid(x)", "1"), "sub_scalar_rsub": ("1.5 - x * 2", "1"),
    "squeeze_dim": ("x[:1].squeeze(0)", "1"),
    "logsigmoid": ("F.logsigmoid(x)", "1"), "log1p": ("torch.log1p(torch.abs(x))", "1"), "expm1": ("torch.expm1(x)", "1"),
    "frac": ("torch.frac(x * 3)", "1"), "sign": ("torch.sign(x)", "1"),
    "hardshrink": ("F.hardshrink(x, lambd=0.4)", "1"), "softshrink": ("F.softshrink(x, 0.3)", "1"),
    "threshold": ("F.threshold(x, 0.1, -2.0)", "1"), "celu": ("F.celu(x, alpha=0.5)", "1"), "glu": ("F.glu(torch.cat([x, y], 1), dim=1)", "2"),
    "cumsum": ("torch.cumsum(x, dim=1)", "1"), "cumprod": ("x.cumprod(dim=0)", "1"), "cummax": ("torch.cummax(x, dim=1)[0]", "1"),
    "flip_cumsum": ("torch.flip(torch.cumsum(torch.flip(x, [1]), 1), [1])", "1"),
    # Sums of -0 (two terms at most, so keq's IEEE evaluation claims the bits; in CPU_BITS):
    # torch starts from +0 (tests/fixtures/gpu/signed_zero_sums.txt).
    "sum_negative_zeros": ("(-(x[:, :2] * 0).abs()).sum(dim=1)", "1"),
    "cumsum_negative_zeros": ("torch.cumsum(-(x[:, :2] * 0).abs(), dim=1)", "1"),
    "mean_negative_zeros": ("(-(x[:1] * 0).abs()).mean(dim=0)", "1"),
    "masked_fill": ("x.masked_fill(y > 0, -1.5)", "2"), "diag": ("torch.diag(x[:, :3])", "1"), "diag_vec": ("torch.diag(x[0], 1)", "1"),
    "diagonal": ("torch.diagonal(x, 1)", "1"), "gather": ("torch.gather(x, 1, torch.tensor([[0, 4], [2, 2], [1, 0]], device=x.device))", "1"),
    "einsum_mm": ("torch.einsum('ij,kj->ik', x, y)", "2"), "einsum_outer": ("torch.einsum('i,j->ij', x[0], y[1])", "2"),
    "einsum_inner": ("torch.einsum('ij,ij', x, y)", "2"), "einsum_batch": ("torch.einsum('bij,bjk->bik', x.view(1, 3, 5), y.view(1, 5, 3))", "2"),
    "sdpa": ("F.scaled_dot_product_attention(x.view(1, 3, 5), y.view(1, 3, 5), x.view(1, 3, 5) * 2)", "2"),
    "sdpa_causal": ("F.scaled_dot_product_attention(x.view(1, 3, 5), y.view(1, 3, 5), y.view(1, 3, 5), is_causal=True)", "2"),
    "mse_loss": ("F.mse_loss(x, y)", "2"), "l1_loss": ("F.l1_loss(x, y, reduction='sum')", "2"),
    "smooth_l1_loss": ("F.smooth_l1_loss(x, y, beta=0.5)", "2"), "huber_loss": ("F.huber_loss(x, y, delta=0.7, reduction='none')", "2"),
    "kl_div": ("F.kl_div(torch.log_softmax(x, 1), torch.softmax(y, 1), reduction='batchmean')", "2"),
    "kl_div_log_target": ("F.kl_div(torch.log_softmax(x, 1), torch.log_softmax(y, 1), reduction='batchmean', log_target=True)", "2"),
    "hinge_embedding_loss": ("F.hinge_embedding_loss(x, torch.sign(y))", "2"),
    "triplet_margin_loss": ("F.triplet_margin_loss(x, y, x * 0.5 + 0.1)", "2"),
    "cosine_similarity": ("F.cosine_similarity(x, y, dim=1)", "2"),
    "cross_entropy": ("F.cross_entropy(x, torch.tensor([4, 0, 2], device=x.device))", "1"),
    "select": ("x.select(1, 2) + x.select(0, -1)[:3]", "1"), "empty_filled": ("torch.empty_like(x).fill_(0) if False else x.sum(dim=0, keepdim=True)", "1"),
}

# Layers: name: (layer constructor, input shape[, the layer's arguments, default "x"]).
MODULE_OPS = {
    "lstm": ("nn.LSTM(4, 3)", (3, 2, 4)),
    "lstm_two_layers_bidirectional": ("nn.LSTM(3, 2, num_layers=2, bidirectional=True, batch_first=True)", (2, 3, 3)),
    "gru": ("nn.GRU(4, 3, bias=False)", (3, 2, 4)),
    "gru_bidirectional_h0": ("nn.GRU(3, 2, bidirectional=True)", (3, 2, 3), "x, x[:2, :, :2].flip(0) * 0.5"),
    "rnn_relu": ("nn.RNN(3, 4, num_layers=2, nonlinearity='relu')", (2, 1, 3)),
    "lstm_h0_c0": ("nn.LSTM(3, 2)", (2, 2, 3), "x, (x[:1, :, :2].contiguous(), x[1:, :, 1:].contiguous())"),
    "channel_shuffle": ("nn.ChannelShuffle(2)", (1, 6, 2, 2)),
    "local_response_norm": ("nn.LocalResponseNorm(3, alpha=0.5, beta=0.6, k=1.5)", (2, 5, 3)),
    "local_response_norm_even": ("nn.LocalResponseNorm(2)", (1, 4, 2, 2)),
    "bilinear_module": ("nn.Bilinear(4, 4, 3)", (2, 4), "x, x.flip(-1)"),
    "upsample_bilinear": ("nn.Upsample(scale_factor=2, mode='bilinear', align_corners=False)", (1, 2, 3, 2)),
    "upsampling_bilinear2d": ("nn.UpsamplingBilinear2d(scale_factor=2)", (1, 1, 3, 3)),
    "multihead_attention": ("nn.MultiheadAttention(4, 2)", (3, 2, 4), "x, x, x"),
    "multihead_attention_batch_first": ("nn.MultiheadAttention(6, 3, batch_first=True)", (2, 3, 6),
                                        "x, x * 2, x.flip(1)"),
    "multihead_attention_no_bias": ("nn.MultiheadAttention(4, 1, bias=False)", (2, 2, 4), "x, x, x"),
    # keq's Python model of them (frontends/torch/transformer.cc); the layer given to the encoder
    # is copied, so its own parameters are no module's.
    "transformer_encoder": ("nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, dim_feedforward=6,"
                            " dropout=0.0), 2)", (3, 2, 4), "x"),
    "transformer_encoder_layer_pre_norm_gelu": (
        "nn.TransformerEncoderLayer(4, 2, dim_feedforward=6, dropout=0.0, activation='gelu',"
        " norm_first=True, batch_first=True)", (2, 3, 4), "x"),
    "multihead_attention_per_head": ("nn.MultiheadAttention(4, 2)", (2, 1, 4),
                                     "x, x, x, average_attn_weights=False"),
    "prelu_channels": ("nn.PReLU(3)", (2, 3, 4)),
    "prelu_one": ("nn.PReLU()", (2, 3, 4)),
    "tanhshrink_module": ("nn.Tanhshrink()", (3, 4)),
    "softmin_module": ("nn.Softmin(dim=0)", (3, 4)),
    "threshold_module": ("nn.Threshold(0.1, 20.0)", (3, 4)),
    "softmax2d": ("nn.Softmax2d()", (2, 3, 2, 2)),
    "unflatten_module": ("nn.Unflatten(1, (2, 3))", (2, 6)),
    "embedding_module": ("nn.Embedding(6, 3)", (2, 4), "torch.clamp((x * 3).long(), 0, 5)"),
    "embedding_module_mod": ("nn.Embedding(6, 3)", (2, 4), "(x.abs() * 100).long() % 6"),
    "upsample_nearest": ("nn.Upsample(scale_factor=(2, 3))", (1, 2, 3, 2)),
    "pixel_shuffle_module": ("nn.PixelShuffle(2)", (1, 8, 2, 3)),
    "reflection_pad2d": ("nn.ReflectionPad2d((1, 2, 2, 1))", (2, 3, 4, 5)),
    "replication_pad1d": ("nn.ReplicationPad1d(2)", (2, 3, 4)),
    "constant_pad3d": ("nn.ConstantPad3d(1, 0.5)", (1, 2, 2, 3, 2)),
    "zero_pad2d": ("nn.ZeroPad2d((1, 0, 0, 2))", (1, 2, 3, 3)),
    "circular_pad1d": ("nn.CircularPad1d((2, 1))", (2, 2, 4)),
    "bce_loss_module": ("nn.BCEWithLogitsLoss(reduction='sum')", (3, 4), "x, torch.sigmoid(x * 2)"),
    "conv1d": ("nn.Conv1d(3, 4, 3, stride=2, padding=1)", (2, 3, 9)),
    "conv2d": ("nn.Conv2d(4, 6, 3, stride=2, padding=1)", (2, 4, 7, 8)),
    "conv2d_dilated_groups": ("nn.Conv2d(4, 6, (3, 2), dilation=(2, 1), groups=2, bias=False)", (1, 4, 9, 6)),
    "conv2d_same": ("nn.Conv2d(2, 3, 5, padding='same')", (1, 2, 6, 7)),
    "conv3d": ("nn.Conv3d(2, 3, 2, stride=(1, 2, 1))", (1, 2, 4, 5, 3)),
    "conv_transpose1d": ("nn.ConvTranspose1d(3, 2, 4, stride=2, padding=1)", (2, 3, 5)),
    "conv_transpose2d": ("nn.ConvTranspose2d(4, 2, 3, stride=2, padding=1, output_padding=1)", (1, 4, 3, 4)),
    "conv_transpose2d_groups": ("nn.ConvTranspose2d(4, 6, 2, stride=3, groups=2, dilation=2)", (1, 4, 3, 3)),
    "conv_transpose3d": ("nn.ConvTranspose3d(2, 2, 2, stride=2)", (1, 2, 2, 3, 2)),
    "maxpool1d": ("nn.MaxPool1d(3, stride=2, padding=1)", (2, 3, 8)),
    "maxpool2d": ("nn.MaxPool2d(2)", (1, 2, 5, 6)),
    "maxpool2d_ceil_dilated": ("nn.MaxPool2d(3, stride=2, padding=1, dilation=2, ceil_mode=True)", (1, 2, 9, 8)),
    "maxpool3d": ("nn.MaxPool3d(2, stride=1)", (1, 2, 3, 4, 3)),
    "avgpool1d": ("nn.AvgPool1d(3, stride=2, padding=1)", (2, 3, 8)),
    "avgpool2d_no_pad_count": ("nn.AvgPool2d(3, stride=2, padding=1, count_include_pad=False)", (1, 2, 7, 6)),
    "avgpool2d_ceil": ("nn.AvgPool2d(2, stride=2, ceil_mode=True)", (1, 2, 5, 5)),
    "avgpool3d_divisor": ("nn.AvgPool3d(2, divisor_override=3)", (1, 2, 4, 4, 2)),
    "batchnorm1d": ("nn.BatchNorm1d(3)", (4, 3)),
    "batchnorm2d": ("nn.BatchNorm2d(3)", (2, 3, 4, 5)),
    "batchnorm2d_eval": ("nn.BatchNorm2d(3).eval()", (2, 3, 4, 5)),
    "batchnorm3d": ("nn.BatchNorm3d(2, eps=1e-3)", (2, 2, 3, 2, 2)),
    "groupnorm": ("nn.GroupNorm(2, 6)", (2, 6, 3, 4)),
    "instancenorm2d": ("nn.InstanceNorm2d(3)", (2, 3, 4, 5)),
    "instancenorm1d_affine": ("nn.InstanceNorm1d(3, affine=True)", (2, 3, 7)),
    "adaptive_avg_pool2d": ("nn.AdaptiveAvgPool2d((2, 3))", (1, 2, 5, 7)),
    "mse_loss_module": ("nn.MSELoss(reduction='sum')", (2, 3), "x, torch.tanh(x)"),
    "cosine_similarity_module": ("nn.CosineSimilarity(dim=0)", (3, 4), "x, torch.tanh(x)"),
    "adaptive_avg_pool1d_global": ("nn.AdaptiveAvgPool1d(1)", (2, 3, 7)),
    "adaptive_max_pool3d": ("nn.AdaptiveMaxPool3d(2)", (1, 2, 3, 5, 4)),
    # Constructor keywords reach the functional op (they were dropped for these five).
    "glu_module_dim0": ("nn.GLU(dim=0)", (4, 3)),
    "celu_module_alpha": ("nn.CELU(alpha=2.0)", (2, 5)),
    "hardshrink_module_lambd": ("nn.Hardshrink(lambd=0.3)", (2, 5)),
    "softshrink_module_lambd": ("nn.Softshrink(lambd=0.3)", (2, 5)),
    "logsigmoid_module": ("nn.LogSigmoid()", (2, 5)),
}
OPS.update({
    # Host tensor methods real kernels' wrappers use.
    "movedim": ("x.movedim(0, 1) * 2", "1"), "narrow": ("torch.narrow(x, 1, 1, 3) + 1", "1"),
    "index_select": ("torch.index_select(x, 1, torch.tensor([4, 0, 2], device=x.device))", "1"),
    "repeat_interleave": ("x.repeat_interleave(2, dim=0)", "1"),
    "sort_values": ("torch.sort(x, dim=1).values", "1"),
    "sort_descending": ("torch.sort(x, dim=1, descending=True)[0]", "1"),
    "pow_cube": ("torch.pow(x, 3)", "1"), "pow_sqrt": ("torch.abs(x) ** 0.5", "1"),
    "nll_loss": ("F.nll_loss(F.log_softmax(x, dim=1), torch.tensor([4, 0, 2], device=x.device))", "1"),
    "true_divide": ("torch.true_divide(x, y)", "2"), "subtract": ("torch.subtract(x, y, alpha=2)", "2"),
    "flip": ("torch.flip(x, [0, 1])", "1"), "cat_dim1": ("torch.cat([x, y], dim=1)", "2"),
    "unflatten": ("x.unflatten(1, (5, 1)) * 2", "1"),
    "new_full": ("x.new_full((3, 5), 1.5) + x", "1"), "new_zeros": ("x.new_zeros(3, 5) + y", "2"),
    "type_as": ("x.type_as(y.half())", "2"),
})

MODULE_TEMPLATE = '''import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.m = {layer}

    def forward(self, x):
        return self.m({args})


def get_inputs():
    return [torch.randn({shape})]


def get_init_inputs():
    return []
'''

OP_TEMPLATE = '''import einops
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, x, y):
        return {expr}


rows = 3
cols = 5


def get_inputs():
    return [torch.randn(rows, cols), torch.randn(rows, cols)]


def get_init_inputs():
    return []
'''


def values(t):
    t = t.detach()
    if t.dtype in (torch.float8_e4m3fn, torch.float8_e5m2, torch.float16, torch.bfloat16):
        t = t.float()
    return " ".join(repr(float(v)) if isinstance(v, float) else str(int(v)) for v in t.reshape(-1).tolist())


def shape(t):
    return "x".join(str(d) for d in t.shape) if t.dim() else "scalar"


def load_module(path, dims):
    """Executes a file with its module-level constants set to the bound's values."""
    with open(path) as f:
        source = f.read()
    for k, v in dims.items():
        # A 1-tuple where the file writes one (input_shape = (4096,)), as keq sets it.
        written = re.search(rf"^{k}\s*=\s*(.*)$", source, flags=re.M)
        value = f"({v},)" if written and written.group(1).lstrip().startswith(("(", "[")) else v
        if written:
            source = re.sub(rf"^{k}\s*=.*$", f"{k} = {value}", source, count=1, flags=re.M)
        else:  # unpacked (batch, seqlen, hidden = 2, 3, 32): set just after
            source = re.sub(rf"^([\w ,]*\b{k}\b[\w ,]*=.*)$", rf"\1\n{k} = {v}", source, count=1,
                            flags=re.M)
    scope = {"__name__": "keq_crosscheck", "__file__": path}
    exec(compile(source, path, "exec"), scope)
    return scope


def model_classes(ref_path, ref_scope):
    """keq's pairing: Model and ModelNew, or KernelBook's X and the candidate's XNew."""
    if "Model" in ref_scope:
        return "Model", "ModelNew"
    cand = os.path.join(os.path.dirname(ref_path), "cand.py")
    names = re.findall(r"^class (\w+)New\b", open(cand).read(), flags=re.M) if os.path.exists(cand) else []
    pairs = [n for n in names if isinstance(ref_scope.get(n), type)]
    if len(pairs) == 1:
        return pairs[0], pairs[0] + "New"
    modules = [n for n, v in ref_scope.items() if isinstance(v, type) and issubclass(v, torch.nn.Module)
               and v.__module__ == ref_scope.get("__name__")]
    return (modules[0] if not pairs and len(modules) == 1 else "Model"), "ModelNew"


def run(path, shown_path, dims, seed, device, ref=None):
    # Module-level constants take the bound's values where they are assigned, as keq does, so
    # constants derived from them follow. A candidate takes sizes and inputs from its reference
    # and keeps its own constants.
    scope = load_module(path, {} if ref else dims)
    inputs_scope = load_module(ref[0], dims) if ref else scope
    torch.manual_seed(seed)
    created = {"in": [], "p": []}
    real_randn, real_rand, real_randint = torch.randn, torch.rand, torch.randint

    def wrap(fn):
        def inner(*a, **kw):
            t = fn(*a, **kw)
            if ZEROS and wrap.phase == "in" and t.is_floating_point():
                flat = t.view(-1)
                flat[2::4] = 0.0
                if fn is real_randn:  # rand's domain is [0, 1): no -0 there
                    flat[0::4] = -0.0
            if NONFINITE and wrap.phase == "in" and fn is real_randn:
                flat = t.view(-1)
                flat[1::8], flat[3::8], flat[5::8] = float("inf"), -float("inf"), float("nan")
            created[wrap.phase].append(t)
            return t
        return inner

    wrap.phase = "p"
    torch.randn, torch.rand, torch.randint = wrap(real_randn), wrap(real_rand), wrap(real_randint)
    # keq's p0, p1, ... are the parameters of every module __init__ makes, in the order they
    # are made (a local nn.Linear whose values it copies into registered ones included);
    # model.parameters() lists the registered ones only, a module's own before its submodules'.
    # So the record is every nn.Parameter made that some module made then holds (nn.GRU without
    # bias makes bias parameters and drops them), in creation order. A Parameter deep-copied
    # (nn.TransformerEncoder copies the layer it is given) counts as its copy.
    made, modules, copied, copies = [], [], set(), set()
    real_parameter_new, real_module_init = torch.nn.Parameter.__new__, torch.nn.Module.__init__
    real_parameter_deepcopy = torch.nn.Parameter.__deepcopy__

    def parameter_new(cls, data=None, requires_grad=True):
        p = real_parameter_new(cls, data, requires_grad)
        made.append(p)
        return p

    def parameter_deepcopy(self, memo):
        p = real_parameter_deepcopy(self, memo)
        if all(p is not q for q in made):
            made.append(p)
        copied.add(id(self))
        copies.add(id(p))
        return p

    def module_init(self, *a, **kw):
        real_module_init(self, *a, **kw)
        modules.append(self)

    torch.nn.Parameter.__new__ = staticmethod(parameter_new)
    torch.nn.Parameter.__deepcopy__ = parameter_deepcopy
    torch.nn.Module.__init__ = module_init
    try:
        init = inputs_scope["get_init_inputs"]() if "get_init_inputs" in inputs_scope else []
        ref_class, cand_class = model_classes(ref[0] if ref else path, inputs_scope)
        args, kwargs = init, {}
        if ref_class != "Model" and len(init) == 2 and isinstance(init[0], list) and isinstance(init[1], dict):
            args, kwargs = init  # KernelBook's [args, kwargs]
        model = scope[cand_class if ref else ref_class](*args, **kwargs)
        wrap.phase = "in"
        inputs = inputs_scope["get_inputs"]()
    finally:
        torch.randn, torch.rand, torch.randint = real_randn, real_rand, real_randint
        torch.nn.Parameter.__new__ = real_parameter_new
        torch.nn.Parameter.__deepcopy__ = real_parameter_deepcopy
        torch.nn.Module.__init__ = real_module_init
    held = ({id(p) for m in modules for p in m.parameters(recurse=False)} - copied) | copies
    params = [p for p in made if id(p) in held]
    with torch.no_grad():
        if device == "cuda":
            model = model.cuda()
            out = model(*[t.cuda() if isinstance(t, torch.Tensor) else t for t in inputs])
        else:
            out = model(*inputs)
    def flatten(o):  # nested tuples too: nn.LSTM gives (output, (h_n, c_n))
        return [t for e in o for t in flatten(e)] if isinstance(o, (tuple, list)) else [o]
    outs = flatten(out)
    lines = [f"file {shown_path}", "dims " + ",".join(f"{k}={v}" for k, v in dims.items())]
    if ref:
        lines.append(f"ref {ref[1]}")
    lines.append(f"class {cand_class if ref else ref_class}")
    # keq's input variables are the random draws get_inputs makes; what it does to them after
    # (a softmax, a triu) is part of keq's terms. Where it returns draws as they are, the two agree.
    drawn = created["in"] if created["in"] else [t for t in inputs if isinstance(t, torch.Tensor)]
    lines += [f"input {shape(t)} : {values(t)}" for t in drawn]
    lines += [f"param {shape(t)} : {values(t)}" for t in params]
    lines += [f"output {str(t.dtype).replace('torch.', '')} {shape(t)} : {values(t)}" for t in outs]
    return "\n".join(lines) + "\n"


# Ops whose bits on the CPU are compared too (a "bits" line in the case): elsewhere the CPU's
# numerics may differ from CUDA's, which are the ones keq models (tests/fixtures/gpu).
CPU_BITS = {"sum_negative_zeros", "cumsum_negative_zeros", "mean_negative_zeros"}


def main():
    out_dir, examples = sys.argv[1], sys.argv[2]
    device = sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--device" else "cpu"
    os.makedirs(os.path.join(out_dir, "ops"), exist_ok=True)
    jobs = []
    for name in sorted(os.listdir(examples)):
        ref = os.path.join(examples, name, "ref.py")
        if not os.path.exists(ref):
            continue
        dims = {}
        with open(os.path.join(examples, name, "expected")) as f:
            for line in f:
                if line.startswith("dims: "):
                    dims = {k: int(v) for k, v in (kv.split("=") for kv in line[6:].strip().split(","))}
        jobs.append((name, ref, f"examples/{name}/ref.py", dims))
        cand = os.path.join(examples, name, "cand.py")
        with open(os.path.join(examples, name, "expected")) as f:
            # A candidate with a memory finding (out of bounds, race) has no defined output, nor
            # one whose output depends on what the GPU chooses (undefined: why), nor one that
            # raises on the GPU where the CPU runs it (raises: why).
            defined = not any(line.startswith(("finding: ", "undefined: ", "raises: ")) for line in f)
        if os.path.exists(cand) and defined:
            jobs.append(("cand_" + name, cand, f"examples/{name}/cand.py", dims, (ref, f"examples/{name}/ref.py")))
    for name, (expr, _) in OPS.items():
        path = os.path.join(out_dir, "ops", name + ".py")
        with open(path, "w") as f:
            f.write(OP_TEMPLATE.format(expr=expr))
        jobs.append(("op_" + name, path, f"ops/{name}.py", {}))
    for name, (layer, shape, *args) in MODULE_OPS.items():
        path = os.path.join(out_dir, "ops", name + ".py")
        with open(path, "w") as f:
            f.write(MODULE_TEMPLATE.format(layer=layer, shape=", ".join(map(str, shape)), args=args[0] if args else "x"))
        jobs.append(("op_" + name, path, f"ops/{name}.py", {}))
    failed = []
    for k, (name, path, shown, dims, *ref) in enumerate(jobs):
        try:
            text = run(path, shown, dims, seed=1000 + k, device=device, ref=ref[0] if ref else None)
        except Exception as e:  # e.g. kernels Triton's interpreter cannot run: the test lists them
            text = f"file {shown}\nskip {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}\n"
            failed.append(name)
        with open(os.path.join(out_dir, name + ".case"), "w") as f:
            f.write(text + ("bits\n" if name.removeprefix("op_") in CPU_BITS else ""))
    if failed:
        print("could not run: " + ", ".join(failed))
    print(f"wrote {len(jobs)} cross-check cases to {out_dir} ({device}, torch {torch.__version__})")


if __name__ == "__main__":
    main()
