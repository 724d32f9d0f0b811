#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Issue 23 on a machine of one GPU: a DistributedDataParallel training of
# four ranks sharing that GPU (gloo: NCCL refuses two ranks on one device),
# captured through `warpscope-cli capture --per-rank`, then `nsys stats`
# truths per rank and our own reading of the folder.  Run on the device
# machine from the repository root, with the bundle of bundle-cli.sh:
#
#   tests/device/capture-ddp-gloo.sh BUNDLE OUTDIR
#
# OUTDIR gets the capture folder without its .nsys-rep/.ncu-rep
# (ddp_gloo_capture.tar.xz), the truths and everything printed.
set -uo pipefail
bundle=$(cd "${1:?usage: $0 BUNDLE OUTDIR}" && pwd)
out=${2:?usage: $0 BUNDLE OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
repo=$(cd "$(dirname "$0")/../.." && pwd)
cli=$bundle/warpscope-cli
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
real_nsys=$(ls /opt/nvidia/nsight-compute/*/host/target-linux-x64/nsys 2>/dev/null | tail -n 1)
work=/tmp/ddp-gloo
rm -rf "$work"
mkdir -p "$work"
# PROGRAM: the program, where tests/data does not travel to the machine.
cp "${PROGRAM:-$repo/tests/data/captures/ddp_gloo_train.py}" "$work/ddp_gloo_train.py"
cat >"$work/nsys" <<WRAPPER
#!/bin/sh
LD_LIBRARY_PATH="$bundle/nsys-lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" exec "$real_nsys" "\$@"
WRAPPER
chmod +x "$work/nsys"
# GLOO_ENVS: the job's own ENVS (default: issue 23's, rank 3 the straggler).
envs=NCCL_NVLS_ENABLE=0,TORCH_SYMM_MEM_DISABLE_MULTICAST=1,NVSHMEM_DISABLE_NVLS=1,${GLOO_ENVS:-STEPS=12,STRAGGLER=3}
printf 'NAME\tCMD\tWORKDIR\tENVS\nddp_gloo\ttorchrun --standalone --nproc_per_node 4 ddp_gloo_train.py\t.\t%s\n' \
  "$envs" >"$work/targets.tsv"
cd "$work" || exit 2
echo "== machine"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)'
command -v torchrun
"$work/nsys" --version
"$ncu" --version | tail -n 1
echo "== warpscope-cli capture --per-rank"
"$cli" capture --targets targets.tsv --out out --nsys "$work/nsys" --ncu "$ncu" --per-rank \
  --topn 3 --launch-count 1 --ncu-set basic
echo "== capture exit status: $?"
folder=$(ls -d out/*/ddp_gloo 2>/dev/null | head -n 1)
find out -type f -printf '%10s  %p\n' | sort -k2
[ -n "$folder" ] || exit 1
echo "== nsys stats truths per rank"
mkdir -p "$folder/truth"
for rep in "$folder"/nsys/rank*.nsys-rep; do
  base=$(basename "$rep" .nsys-rep)
  "$work/nsys" stats --force-export=false --report cuda_gpu_kern_sum,nvtx_sum,nvtx_gpu_proj_sum \
    --format csv --output "$folder/truth/$base" "$rep" >/dev/null 2>"$folder/truth/$base.stderr"
  echo "$base: $(ls "$folder/truth" | grep -c "^${base}_")" 
done
ls -l "$folder/truth"
echo "== warpscope-cli ranks"
"$cli" ranks "$folder"
"$cli" ranks --format csv "$folder"
echo "== warpscope-cli diagnose"
"$cli" diagnose "$folder"
echo "== warpscope-cli gauges"
"$cli" gauges "$folder"
for db in "$folder"/nsys/rank*.sqlite; do
  base=$(basename "$db" .sqlite)
  truth="$folder/truth/${base}_cuda_gpu_kern_sum.csv"
  [ -f "$truth" ] || continue
  echo "== stats $base against nsys stats"
  if diff <("$cli" stats --format csv "$db" | sort) <(sort "$truth") >/dev/null; then
    echo identical
  else
    echo DIFFERENT
  fi
done
tar -cJf "$out/ddp_gloo_capture.tar.xz" --exclude='*.nsys-rep' --exclude='*.ncu-rep' \
  --exclude='*.qdstrm' -C "$(dirname "$folder")" ddp_gloo
ls -l "$out"
