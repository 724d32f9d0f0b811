# SPDX-License-Identifier: GPL-3.0-or-later
# A training-like loop for issue 42's regression gate: STEPS steps, each
# an NVTX range `step N` holding `data` (the host prepares a batch) and
# `forward` (two fp16 matmuls, a layer norm, a GELU), then a synchronize,
# so that a step's wall time is its host time plus its GPU time: about
# 4 ms of GPU work, the host's launches a few percent of it.
#
# By environment:
#   STEPS (30), DIM (8192), GELU_ROWS (8192) the shape;
#   SLOW_KERNEL=1   the GELU runs on 10% more rows: that kernel alone is
#                   10% slower (a small share of the GPU time);
#   DATA_MS=X       X more ms of host work in `data` each step (the range
#                   and the step are X ms longer).
import os, time, torch
import torch.cuda.nvtx as nvtx

steps = int(os.environ.get("STEPS", "30"))
dim = int(os.environ.get("DIM", "8192"))
gelu_rows = int(os.environ.get("GELU_ROWS", "8192"))
if os.environ.get("SLOW_KERNEL") == "1":
    gelu_rows = gelu_rows * 11 // 10
data_ms = float(os.environ.get("DATA_MS", "0"))
torch.manual_seed(0)
dev = torch.device("cuda")
w1 = torch.randn(dim, dim, device=dev, dtype=torch.float16)
w2 = torch.randn(dim, dim, device=dev, dtype=torch.float16)
norm = torch.nn.LayerNorm(dim).to(dev).half()
x0 = torch.randn(dim, dim, device=dev, dtype=torch.float16)
g0 = torch.randn(gelu_rows, 4 * dim, device=dev, dtype=torch.float16)
torch.cuda.synchronize()

for step in range(steps):
    nvtx.range_push("step %d" % step)
    nvtx.range_push("data")
    x = x0 + 1
    if data_ms > 0:
        time.sleep(data_ms / 1000)
    nvtx.range_pop()
    nvtx.range_push("forward")
    h = x @ w1
    h = norm(h)
    h = h @ w2
    g = torch.nn.functional.gelu(g0)
    nvtx.range_pop()
    torch.cuda.synchronize()
    nvtx.range_pop()
print("gate_probe: %d steps, %d GELU rows, %.1f ms more data" % (steps, gelu_rows, data_ms))
