# SPDX-License-Identifier: GPL-3.0-or-later
# A decode loop of a small fp16 transformer, the way inference servers run it
# in 2026, for issue 39 (CUDA graphs). Each step is one token for a batch:
# embedding, LAYERS blocks (attention over a fixed KV cache, MLP), the
# logits; then sampling (softmax, argmax) and a host check of the tokens.
# NVTX: `decode N` > `forward`, `sample`; `warm-up` and `capture` before.
#
# By environment:
#   MODE=eager      every kernel launched one by one;
#   MODE=graph      the forward captured once as a CUDA graph
#                   (torch.cuda.graph) and replayed every step;
#   MODE=compile    torch.compile(mode="reduce-overhead"): Triton kernels
#                   inside CUDA graphs that torch records itself;
#   MODE=recapture  the forward captured anew every step, then replayed
#                   (a program that defeats its own graphs);
#   STEPS (40), LAYERS (8), DIM (1024), BATCH (8), CACHE (512) the shape;
#   SLOW_LAYER=K    layer K's MLP is four times wider (a slower kernel);
#   HOST_MS=X       X ms of host work in `sample` each step (a host gap);
#   PROFILE=DIR     also write a PyTorch profiler trace DIR/NAME.json
#                   (NAME from TRACE_NAME, default decode_MODE).
import os, time, torch, torch.nn as nn
import torch.cuda.nvtx as nvtx

mode = os.environ.get("MODE", "eager")
steps = int(os.environ.get("STEPS", "40"))
n_layers = int(os.environ.get("LAYERS", "8"))
dim = int(os.environ.get("DIM", "1024"))
batch = int(os.environ.get("BATCH", "8"))
cache = int(os.environ.get("CACHE", "512"))
slow_layer = int(os.environ.get("SLOW_LAYER", "-1"))
host_ms = float(os.environ.get("HOST_MS", "0"))
heads, vocab = 16, 32000
torch.manual_seed(0)
dev = torch.device("cuda")


class Block(nn.Module):
    def __init__(self, wide):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.norm2 = nn.LayerNorm(dim)
        self.up = nn.Linear(dim, wide)
        self.down = nn.Linear(wide, dim)
        hd = dim // heads
        self.register_buffer("k", torch.randn(batch, heads, cache, hd))
        self.register_buffer("v", torch.randn(batch, heads, cache, hd))

    def forward(self, x):
        b, s, _ = x.shape
        q, _, _ = self.qkv(self.norm1(x)).split(dim, dim=-1)
        q = q.view(b, s, heads, dim // heads).transpose(1, 2)
        a = nn.functional.scaled_dot_product_attention(q, self.k, self.v)
        x = x + self.proj(a.transpose(1, 2).reshape(b, s, dim))
        return x + self.down(nn.functional.gelu(self.up(self.norm2(x))))


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.blocks = nn.ModuleList(Block(16 * dim if i == slow_layer else 4 * dim) for i in range(n_layers))
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, tokens):
        x = self.embed(tokens)
        for block in self.blocks:
            x = block(x)
        return self.head(self.norm(x))[:, -1, :]


model = Decoder().to(dev).half().eval()
tokens = torch.randint(0, vocab, (batch, 1), device=dev)
static_in = tokens.clone()


def capture():
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = model(static_in)
    return graph, out


def warm_up():
    # Warm-up on a side stream, as torch.cuda.graph asks before capture.
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            model(static_in)
    torch.cuda.current_stream().wait_stream(side)


graph, graph_out, forward = None, None, model
with torch.inference_mode():
    nvtx.range_push("warm-up")
    if mode == "compile":
        forward = torch.compile(model, mode="reduce-overhead")
        for _ in range(3):
            forward(tokens)
    else:
        warm_up()
    nvtx.range_pop()
    if mode == "graph":
        nvtx.range_push("capture")
        graph, graph_out = capture()
        nvtx.range_pop()
    torch.cuda.synchronize()


def one_step(tokens):
    global graph, graph_out
    nvtx.range_push("forward")
    if mode in ("graph", "recapture"):
        if mode == "recapture":
            graph, graph_out = capture()
        static_in.copy_(tokens)
        graph.replay()
        logits = graph_out
    else:
        logits = forward(tokens)
    nvtx.range_pop()
    nvtx.range_push("sample")
    probs = torch.softmax(logits.float(), dim=-1)
    nxt = probs.argmax(dim=-1, keepdim=True)
    if host_ms > 0:
        end = time.perf_counter() + host_ms / 1000.0
        while time.perf_counter() < end:
            pass
    # The host looks at the tokens every step (end of sequence?), as a
    # server does: one synchronisation per step.
    finished = bool((nxt == 2).all().item())
    nvtx.range_pop()
    return nxt.clone(), finished


def loop():
    global tokens
    with torch.inference_mode():
        for step in range(steps):
            nvtx.range_push(f"decode {step}")
            tokens, _ = one_step(tokens)
            nvtx.range_pop()
        torch.cuda.synchronize()


start = time.perf_counter()
trace_dir = os.environ.get("PROFILE")
if trace_dir:
    from torch.profiler import profile, ProfilerActivity

    os.makedirs(trace_dir, exist_ok=True)
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        loop()
    name = os.environ.get("TRACE_NAME", f"decode_{mode}")
    prof.export_chrome_trace(f"{trace_dir}/{name}.json")
else:
    loop()
print(f"graph_probe: MODE={mode} {steps} steps in {(time.perf_counter() - start) * 1000:.1f} ms", flush=True)
