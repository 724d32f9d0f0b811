# A small DistributedDataParallel training for issue 23 when only one GPU is
# lent: every rank on cuda:0, the gloo backend (NCCL refuses two ranks on one
# device), bf16 autocast, an NVTX range per step ("step N") and one planted
# straggler (rank STRAGGLER does EXTRA_MS of extra GPU work in an
# "extra work" range before each backward).
import os, time
import torch
import torch.distributed as dist
import torch.nn as nn

STEPS = int(os.environ.get("STEPS", "12"))
STRAGGLER = int(os.environ.get("STRAGGLER", "1"))
EXTRA = int(os.environ.get("EXTRA_MATMULS", "40"))

def main():
    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(0)
    dev = torch.device("cuda", 0)
    model = nn.Sequential(*[nn.Sequential(nn.Linear(2048, 2048), nn.GELU()) for _ in range(6)]).to(dev)
    ddp = nn.parallel.DistributedDataParallel(model, device_ids=[0])
    opt = torch.optim.AdamW(ddp.parameters(), lr=1e-4)
    x = torch.randn(256, 2048, device=dev)
    y = torch.randn(256, 2048, device=dev)
    w = torch.randn(2048, 2048, device=dev)
    for step in range(STEPS):
        torch.cuda.nvtx.range_push(f"step {step}")
        with torch.autocast("cuda", dtype=torch.bfloat16):
            out = ddp(x)
            loss = ((out.float() - y) ** 2).mean()
        if rank == STRAGGLER:
            torch.cuda.nvtx.range_push("extra work")
            z = x
            for _ in range(EXTRA):
                z = torch.tanh(z @ w) 
            torch.cuda.synchronize()
            torch.cuda.nvtx.range_pop()
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        torch.cuda.synchronize()
        torch.cuda.nvtx.range_pop()
    dist.barrier()
    if rank == 0:
        print(f"ddp ok: {world} ranks, {STEPS} steps, loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
