# SPDX-License-Identifier: GPL-3.0-or-later
"""Many small kernels on two CUDA streams, in NVTX-marked steps: a real
export big enough (about 200,000 kernels) for the first frame to read a
sample rather than every row (issue 34's blind check)."""
import os

import torch

steps = int(os.environ.get("STEPS", "8000"))
dev = torch.device("cuda")
compute, copy = torch.cuda.Stream(), torch.cuda.Stream()
x = torch.randn(1 << 20, device=dev)
a = torch.randn(512, 512, device=dev)
b = torch.randn(512, 512, device=dev)
torch.cuda.synchronize()
for step in range(steps):
    torch.cuda.nvtx.range_push(f"step {step}")
    with torch.cuda.stream(compute):
        for _ in range(18):
            x.mul_(1.0001).add_(0.5)
    with torch.cuda.stream(copy):
        c = a @ b
        c.relu_()
        if step % 10 == 0:
            c.softmax(dim=1)
    torch.cuda.nvtx.range_pop()
torch.cuda.synchronize()
print(f"{steps} steps done")
