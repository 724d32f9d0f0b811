# SPDX-License-Identifier: GPL-3.0-or-later
# A loop for issue 43's what-if checks: STEPS steps (30), each an NVTX
# range `step N` holding
#   `forward`  launched without a wait: one fp16 GEMM x @ w (x: M×DIM,
#              w: DIM×DIM, M = DIM) and three kernels that are no GEMM
#              (a layer norm, a GELU, an add) on a tensor of their own;
#   `data`     the host's part, under the GPU work already launched: a
#              little CPU work, then SLEEP_MS of sleep;
# then torch.cuda.synchronize(): a step takes the longer of its host part
# and its GPU work, plus the launches.
# By environment: STEPS (30), DIM (8192), SLEEP_MS (0), GEMM_HALF=1 (the
# GEMM on half the rows of x: about half its time; nothing else changes).
import os, time, torch
import torch.cuda.nvtx as nvtx

steps = int(os.environ.get("STEPS", "30"))
dim = int(os.environ.get("DIM", "8192"))
sleep_ms = float(os.environ.get("SLEEP_MS", "0"))
rows = dim // 2 if os.environ.get("GEMM_HALF") == "1" else dim
torch.manual_seed(0)
dev = torch.device("cuda")
x_all = torch.randn(dim, dim, device=dev, dtype=torch.float16)
x = x_all[:rows]
w = torch.randn(dim, dim, device=dev, dtype=torch.float16)
norm = torch.nn.LayerNorm(4096).to(dev).half()
e = torch.randn(4096, 4096, device=dev, dtype=torch.float16)
torch.cuda.synchronize()

for step in range(steps):
    nvtx.range_push("step %d" % step)
    nvtx.range_push("forward")
    y = x @ w
    h = norm(e)
    h = torch.nn.functional.gelu(h)
    h = h + e
    nvtx.range_pop()
    nvtx.range_push("data")
    batch = torch.randn(256, 256).sum()
    if sleep_ms > 0:
        time.sleep(sleep_ms / 1000)
    nvtx.range_pop()
    torch.cuda.synchronize()
    nvtx.range_pop()
print("cp_probe: %d steps, gemm M=%d, sleep %.1f ms" % (steps, rows, sleep_ms))
