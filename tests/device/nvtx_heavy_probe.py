"""A launch-bound loop under many nested NVTX ranges: about 300,000
kernels and 240,000 ranges, the shape of a real training step's
annotations, for issue 41's timings of every report against nsys stats
(bench-cores.sh).  Steps of five layers; each layer a range holding a
matmul range, an activation range and two element-wise kernels."""
import os

import torch

steps = int(os.environ.get("STEPS", "15000"))
dev = torch.device("cuda")
x = torch.randn(1 << 16, device=dev)
a = torch.randn(256, 256, device=dev)
b = torch.randn(256, 256, device=dev)
nvtx = torch.cuda.nvtx
torch.cuda.synchronize()
for step in range(steps):
    nvtx.range_push(f"step {step}")
    for layer in range(5):
        nvtx.range_push(f"layer {layer}")
        nvtx.range_push("matmul")
        c = a @ b
        nvtx.range_pop()
        nvtx.range_push("activation")
        c.relu_()
        nvtx.range_pop()
        x.mul_(1.0001).add_(0.5)
        nvtx.range_pop()
    nvtx.range_pop()
torch.cuda.synchronize()
print(f"{steps} steps done")
