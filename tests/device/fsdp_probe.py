# SPDX-License-Identifier: GPL-3.0-or-later
# FSDP over NCCL, one process per GPU: the same small language model as
# ddp_nccl_probe.py, each transformer layer its own FSDP unit, so each step
# has all-gathers (parameters, forward and backward) and reduce-scatters
# (gradients). bf16 mixed precision; NVTX `step N` > data / forward /
# backward / optimizer. The last rank does extra matrix products in
# "forward" > "extra work" (STRAGGLE=compute, the default; none: no
# straggler), so the others wait in its collectives.
import os, functools, torch, torch.distributed as dist, torch.nn as nn
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, MixedPrecision
from torch.distributed.fsdp.wrap import transformer_auto_wrap_policy
dist.init_process_group("nccl")
rank, world = dist.get_rank(), dist.get_world_size()
local = int(os.environ.get("LOCAL_RANK", rank))
torch.cuda.set_device(local)
torch.manual_seed(0)
V, D, L, T, B = 32000, 1024, 6, 512, 8
class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, D)
        self.layers = nn.ModuleList(
            nn.TransformerEncoderLayer(D, 16, 4 * D, batch_first=True, norm_first=True, activation="gelu")
            for _ in range(L))
        self.head = nn.Linear(D, V, bias=False)
    def forward(self, x):
        mask = nn.Transformer.generate_square_subsequent_mask(x.shape[1], device=x.device)
        h = self.emb(x)
        for layer in self.layers:
            h = layer(h, src_mask=mask, is_causal=True)
        return self.head(h)
policy = functools.partial(transformer_auto_wrap_policy, transformer_layer_cls={nn.TransformerEncoderLayer})
model = FSDP(LM().cuda(), auto_wrap_policy=policy, device_id=local,
             mixed_precision=MixedPrecision(param_dtype=torch.bfloat16, reduce_dtype=torch.float32,
                                            buffer_dtype=torch.bfloat16))
opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
nvtx = torch.cuda.nvtx
kind = os.environ.get("STRAGGLE", "compute")
for step in range(int(os.environ.get("STEPS", "12"))):
    nvtx.range_push(f"step {step}")
    nvtx.range_push("data")
    x = torch.randint(0, V, (B, T), device="cuda")
    nvtx.range_pop()
    nvtx.range_push("forward")
    logits = model(x[:, :-1])
    if rank == world - 1 and kind == "compute":
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
