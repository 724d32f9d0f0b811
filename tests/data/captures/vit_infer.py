# ViT-base inference (random weights from its config, bf16 autocast), one NVTX range per step.
import os, torch
from transformers import ViTConfig, ViTModel
torch.manual_seed(0)
m = ViTModel(ViTConfig()).cuda().eval()
x = torch.randn(16, 3, 224, 224, device="cuda")
with torch.no_grad(), torch.autocast("cuda", dtype=torch.bfloat16):
    for s in range(int(os.environ.get("STEPS", "6"))):
        torch.cuda.nvtx.range_push(f"step {s}")
        y = m(pixel_values=x).last_hidden_state
        torch.cuda.synchronize()
        torch.cuda.nvtx.range_pop()
print("vit ok", float(y.float().mean()))
