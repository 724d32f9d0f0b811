# BERT-base inference (random weights from its config, bf16 autocast), one NVTX range per step.
import os, torch
from transformers import BertConfig, BertModel
torch.manual_seed(0)
m = BertModel(BertConfig()).cuda().eval()
x = torch.randint(0, 30522, (8, 128), device="cuda")
with torch.no_grad(), torch.autocast("cuda", dtype=torch.bfloat16):
    for s in range(int(os.environ.get("STEPS", "6"))):
        torch.cuda.nvtx.range_push(f"step {s}")
        y = m(input_ids=x).last_hidden_state
        torch.cuda.synchronize()
        torch.cuda.nvtx.range_pop()
print("bert ok", float(y.float().mean()))
