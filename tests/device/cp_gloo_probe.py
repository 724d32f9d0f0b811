# SPDX-License-Identifier: GPL-3.0-or-later
# A job for issue 43's what-if checks on one GPU: torchrun ranks over gloo
# (NCCL refuses two ranks on one device), all on cuda:0.  STEPS steps (20),
# each an NVTX range `step N` holding
#   `data`        DATA_MS (2) of host sleep; rank SLOW_RANK (-1: none)
#                 sleeps SLOW_MS (0) more;
#   `forward`     four fp16 2048×2048 matmuls and a synchronize;
#   `all_reduce`  a synchronous gloo all-reduce of a 1 MiB CPU tensor (the
#                 copy to the CPU comes before the range).
import os, time, torch
import torch.distributed as dist
import torch.cuda.nvtx as nvtx

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
steps = int(os.environ.get("STEPS", "20"))
data_ms = float(os.environ.get("DATA_MS", "2"))
slow_rank = int(os.environ.get("SLOW_RANK", "-1"))
slow_ms = float(os.environ.get("SLOW_MS", "0"))
torch.manual_seed(rank)
dev = torch.device("cuda", 0)
a = torch.randn(2048, 2048, device=dev, dtype=torch.float16)
b = torch.randn(2048, 2048, device=dev, dtype=torch.float16)
t = torch.randn(1024 * 256, device=dev)
torch.cuda.synchronize()
for step in range(steps):
    nvtx.range_push("step %d" % step)
    nvtx.range_push("data")
    time.sleep(data_ms / 1000)
    if rank == slow_rank:
        time.sleep(slow_ms / 1000)
    nvtx.range_pop()
    nvtx.range_push("forward")
    c = a
    for _ in range(4):
        c = c @ b
    torch.cuda.synchronize()
    nvtx.range_pop()
    g = t.cpu()
    nvtx.range_push("all_reduce")
    dist.all_reduce(g)
    nvtx.range_pop()
    nvtx.range_pop()
dist.barrier()
if rank == 0:
    print("cp_gloo_probe: %d ranks, %d steps, slow rank %d by %.1f ms" % (world, steps, slow_rank, slow_ms), flush=True)
dist.destroy_process_group()
