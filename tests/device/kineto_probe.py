# SPDX-License-Identifier: GPL-3.0-or-later
# PyTorch profiler (Kineto) traces of a small transformer LM, for issue 33:
# one Chrome-trace JSON per rank. Run alone (one GPU) or under torchrun
# (NCCL DDP). What it does, by environment:
#   MODE=train    training steps under a profiler schedule (wait 1, warmup 1,
#                 active 3), record_shapes, profile_memory and with_stack on;
#   MODE=infer    inference (eval, inference_mode) of 6 batches, the same
#                 schedule, record_shapes on;
#   STRAGGLE=sleep    under torchrun, rank STRAGGLER_RANK (default the last)
#                 sleeps SLOW_MS (default 25) ms in its "data" range;
#   TRACE_DIR, TRACE_NAME  where the traces go: DIR/NAME_rank<R>.json.
import os, time, torch, torch.nn as nn, torch.distributed as dist
from torch.profiler import profile, schedule, ProfilerActivity, record_function

ddp_on = "RANK" in os.environ
if ddp_on:
    dist.init_process_group("nccl")
rank = dist.get_rank() if ddp_on else 0
world = dist.get_world_size() if ddp_on else 1
torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", 0)))
mode = os.environ.get("MODE", "train")
straggler = int(os.environ.get("STRAGGLER_RANK", world - 1))
slow = float(os.environ.get("SLOW_MS", "25")) / 1000.0
kind = os.environ.get("STRAGGLE", "none")
V, D, L, T, B = 16000, 768, 4, 256, 8
torch.manual_seed(0)
layer = nn.TransformerEncoderLayer(D, 12, 4 * D, batch_first=True, norm_first=True)
model = nn.Sequential(nn.Embedding(V, D), nn.TransformerEncoder(layer, L), nn.Linear(D, V)).cuda()
net = nn.parallel.DistributedDataParallel(model) if ddp_on else model
opt = torch.optim.AdamW(net.parameters(), lr=1e-4)
out = os.environ.get("TRACE_DIR", "traces")
os.makedirs(out, exist_ok=True)


def done(p):
    p.export_chrome_trace(f"{out}/{os.environ.get('TRACE_NAME', 'lm')}_rank{rank}.json")


def train_step():
    with record_function("data"):
        if ddp_on and rank == straggler and kind == "sleep":
            time.sleep(slow)
        x = torch.randint(0, V, (B, T), device="cuda")
    with record_function("forward"), torch.autocast("cuda", dtype=torch.bfloat16):
        loss = nn.functional.cross_entropy(net(x[:, :-1]).reshape(-1, V).float(), x[:, 1:].reshape(-1))
    with record_function("backward"):
        loss.backward()
    with record_function("optimizer"):
        opt.step()
        opt.zero_grad(set_to_none=True)


def infer_step():
    with record_function("data"):
        x = torch.randint(0, V, (B, T), device="cuda")
    with record_function("forward"), torch.autocast("cuda", dtype=torch.bfloat16), torch.inference_mode():
        logits = net(x)
    with record_function("sample"):
        logits.argmax(-1).cpu()


if mode == "infer":
    net.eval()
with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
             schedule=schedule(wait=1, warmup=1, active=3), on_trace_ready=done,
             record_shapes=True, profile_memory=(mode == "train"), with_stack=(mode == "train")) as prof:
    for step in range(6):
        train_step() if mode == "train" else infer_step()
        prof.step()
torch.cuda.synchronize()
if ddp_on:
    dist.destroy_process_group()
