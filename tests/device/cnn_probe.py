# SPDX-License-Identifier: GPL-3.0-or-later
# A small ResNet-style CNN trained with cuDNN convolutions, written out with
# torch.nn alone (no torchvision), NVTX `step N` > forward / backward /
# optimizer. CNN_MODE=fp32: NCHW in fp32 (cuDNN converts layouts, so its
# nchwToNhwc/nhwcToNchw kernels run); CNN_MODE=bf16cl: channels-last memory
# format under bf16 autocast.
import os, torch, torch.nn as nn
torch.manual_seed(0)
mode = os.environ.get("CNN_MODE", "fp32")
torch.backends.cudnn.benchmark = False
class Block(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.c1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False); self.b1 = nn.BatchNorm2d(cout)
        self.c2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False); self.b2 = nn.BatchNorm2d(cout)
        self.skip = (nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))
                     if stride != 1 or cin != cout else nn.Identity())
    def forward(self, x):
        y = torch.relu(self.b1(self.c1(x)))
        return torch.relu(self.b2(self.c2(y)) + self.skip(x))
net = nn.Sequential(
    nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(3, 2, 1),
    Block(64, 64, 1), Block(64, 128, 2), Block(128, 256, 2), Block(256, 512, 2),
    nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(512, 1000)).cuda()
x = torch.randn(64, 3, 224, 224, device="cuda")
y = torch.randint(0, 1000, (64,), device="cuda")
if mode == "bf16cl":
    net = net.to(memory_format=torch.channels_last)
    x = x.contiguous(memory_format=torch.channels_last)
opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
nvtx = torch.cuda.nvtx
for step in range(int(os.environ.get("STEPS", "8"))):
    nvtx.range_push(f"step {step}")
    nvtx.range_push("forward")
    with torch.autocast("cuda", dtype=torch.bfloat16, enabled=(mode == "bf16cl")):
        loss = nn.functional.cross_entropy(net(x), y)
    nvtx.range_pop()
    nvtx.range_push("backward")
    loss.backward()
    nvtx.range_pop()
    nvtx.range_push("optimizer")
    opt.step(); opt.zero_grad(set_to_none=True)
    nvtx.range_pop()
    torch.cuda.synchronize()
    nvtx.range_pop()
    print(f"step {step} loss {loss.item():.3f}", flush=True)
