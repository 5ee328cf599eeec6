"""Runs a pair's reference and candidate on the GPU (KernelBench L3 4 LeNet5's signature: Model(20),
inputs rand(batch, 1, 32, 32)) at batch 2 and 4096: once as the autotuner picks, then with the
candidate's conv kernel forced to each autotune config in turn (a single config is not
benchmarked, as a later call with the config cached is not: the benchmarking runs of the first
call write the whole output with every config and hide a config that leaves part unwritten).

usage: python3 tests/realworld/gpu/forced_autotune_configs.py DIR   (DIR holds ref.py, cand.py)
Fixture: tests/fixtures/gpu/realworld/llmkernel_session43_l3_4.txt
"""
import importlib.util, sys, torch
def load(p):
    s = importlib.util.spec_from_file_location(p.split('/')[-1][:-3], p); m = importlib.util.module_from_spec(s); s.loader.exec_module(m); return m
d = sys.argv[1]
r = load(d + '/ref.py'); c = load(d + '/cand.py')
for batch in (2, 4096):
    torch.manual_seed(0); a = r.Model(20).cuda()
    torch.manual_seed(0); b = c.ModelNew(20).cuda()
    x = torch.rand(batch, 1, 32, 32, device='cuda')
    with torch.no_grad():
        ya = a(x); yb = b(x)
    print(f"batch {batch}: max abs diff {(ya - yb).abs().max().item():.3g}; autotuner picked conv {c.conv2d_relu_kernel.best_config}, linear {c.linear_kernel.best_config}")
    # each config of the conv kernel forced, as the autotuner may pick either
    for k, cfg in enumerate(list(c.conv2d_relu_kernel.configs)):
        c.conv2d_relu_kernel.configs = [cfg]; c.conv2d_relu_kernel.cache = {}
        c.linear_kernel.configs = [list(c.linear_kernel.configs)[0]]; c.linear_kernel.cache = {}
        with torch.no_grad():
            yb = b(x)
        print(f"  conv config {k + 1} ({cfg}): max abs diff {(ya - yb).abs().max().item():.3g}, non-finite {(~torch.isfinite(yb)).sum().item()}")
    c = load(d + '/cand.py')
print(torch.cuda.get_device_name())
