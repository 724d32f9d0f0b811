# SPDX-License-Identifier: GPL-3.0-or-later
# A small decoder-only transformer trained with DistributedDataParallel over
# NCCL, one process per GPU, bf16 autocast, NVTX ranges per step. One rank
# (STRAGGLER_RANK, the last by default) is a straggler of one of three
# kinds (STRAGGLE):
#   sleep    a slow data loader: SLOW_MS of host sleep in "data" each step;
#   compute  extra work: eight 4096x4096 matrix products in "forward" >
#            "extra work" each step;
#   batch    a bigger batch: BIG_BATCH sequences instead of B.
# The others wait for it inside the NCCL all-reduce kernels.
import os, time, torch, torch.distributed as dist, torch.nn as nn
dist.init_process_group("nccl")
rank, world = dist.get_rank(), dist.get_world_size()
local = int(os.environ.get("LOCAL_RANK", rank))
slow_rank = int(os.environ.get("STRAGGLER_RANK", world - 1))
torch.cuda.set_device(local)
torch.manual_seed(0)
V, D, L, T, B = 32000, 1024, 6, 512, 8
class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, D)
        layer = nn.TransformerEncoderLayer(D, 16, 4 * D, batch_first=True, norm_first=True, activation="gelu")
        self.body = nn.TransformerEncoder(layer, L)
        self.head = nn.Linear(D, V, bias=False)
    def forward(self, x):
        mask = nn.Transformer.generate_square_subsequent_mask(x.shape[1], device=x.device)
        return self.head(self.body(self.emb(x), mask=mask, is_causal=True))
model = LM().cuda()
ddp = nn.parallel.DistributedDataParallel(model, device_ids=[local])
opt = torch.optim.AdamW(ddp.parameters(), lr=1e-4, fused=True)
nvtx = torch.cuda.nvtx
slow = float(os.environ.get("SLOW_MS", "15")) / 1000.0
kind = os.environ.get("STRAGGLE", "sleep")  # sleep: a slow data loader; compute: extra matrix products in forward
for step in range(int(os.environ.get("STEPS", "14"))):
    nvtx.range_push(f"step {step}")
    nvtx.range_push("data")
    if rank == slow_rank and kind == "sleep":
        time.sleep(slow)
    b = int(os.environ.get("BIG_BATCH", "16")) if rank == slow_rank and kind == "batch" else B
    x = torch.randint(0, V, (b, T), device="cuda")
    nvtx.range_pop()
    nvtx.range_push("forward")
    with torch.autocast("cuda", dtype=torch.bfloat16):
        logits = ddp(x[:, :-1])
        if rank == slow_rank and kind == "compute":
            nvtx.range_push("extra work")
            y = torch.randn(4096, 4096, device="cuda")
            for _ in range(8):
                y = torch.tanh(y @ y)
            nvtx.range_pop()
        loss = nn.functional.cross_entropy(logits.reshape(-1, V).float(), x[:, 1:].reshape(-1))
    nvtx.range_pop()
    nvtx.range_push("backward")
    loss.backward()
    nvtx.range_pop()
    nvtx.range_push("optimizer")
    opt.step(); opt.zero_grad(set_to_none=True)
    nvtx.range_pop()
    torch.cuda.synchronize()
    nvtx.range_pop()
    if rank == 0:
        print(f"step {step} loss {loss.item():.3f}", flush=True)
dist.barrier()
dist.destroy_process_group()
