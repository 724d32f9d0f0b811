#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Real captures for issues 30 and 31, through `warpscope-cli capture` with
# ncu on, on a machine of 4 GPUs (run from the repository root there, with
# the bundle of bundle-cli.sh):
#
#   tests/device/capture-jobs.sh BUNDLE OUTDIR JOB...
#
# JOB is one of
#   cnn           cnn_probe.py on one GPU: NCHW fp32 and channels-last bf16
#                 (two targets), ncu over the top 5 kernels;
#   ddp-sleep     ddp_nccl_probe.py, 4 ranks, the last one's data loader slow;
#   ddp-compute   the same, the last rank does extra matrix products;
#   ddp-batch     the same, the last rank has a bigger batch;
#   fsdp          fsdp_probe.py, 4 ranks, all-gather and reduce-scatter, the
#                 last rank does extra matrix products;
#   ddp-one       ddp_nccl_probe.py, 4 ranks in ONE export (nsys over
#                 torchrun, no --per-rank), rank 1 does extra products;
#   ddp-blind     the per-rank DDP job with rank 2 slow in "data" (25 ms):
#                 for a check no test has seen.
# The distributed jobs are captured with --per-rank --topn 3 (NCCL kernels
# left out of ncu's top N). Each JOB's folder is packed without its reports
# into OUTDIR/JOB.tar.xz, with each export's `nsys stats` truths in its
# truth/ folder, and what the CLI says of it is printed.
set -uo pipefail
bundle=$(cd "${1:?usage: $0 BUNDLE OUTDIR JOB...}" && pwd)
out=${2:?usage: $0 BUNDLE OUTDIR JOB...}
shift 2
mkdir -p "$out"
out=$(cd "$out" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
cli=$bundle/warpscope-cli
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
real_nsys=$(ls /opt/nvidia/nsight-compute/*/host/target-linux-x64/nsys 2>/dev/null | tail -n 1)
# NVLink multicast stays off (the machine's notes), in every target's ENVS too.
safe=NCCL_NVLS_ENABLE=0,TORCH_SYMM_MEM_DISABLE_MULTICAST=1,NVSHMEM_DISABLE_NVLS=1
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1

echo "== machine"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader
python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "gpus", torch.cuda.device_count())'

for job in "$@"; do
  work=/tmp/jobs/$job
  rm -rf "$work"
  mkdir -p "$work"
  cp "$here"/cnn_probe.py "$here"/ddp_nccl_probe.py "$here"/fsdp_probe.py "$work/"
  cat >"$work/nsys" <<WRAPPER
#!/bin/sh
LD_LIBRARY_PATH="$bundle/nsys-lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" exec "$real_nsys" "\$@"
WRAPPER
  chmod +x "$work/nsys"
  torchrun="torchrun --standalone --nproc_per_node 4"
  per_rank=(--per-rank --topn 3)
  case $job in
  cnn)
    printf 'NAME\tCMD\tWORKDIR\tENVS\ncnn_fp32\tpython3 cnn_probe.py\t.\t%s,CNN_MODE=fp32\ncnn_bf16cl\tpython3 cnn_probe.py\t.\t%s,CNN_MODE=bf16cl\n' \
      "$safe" "$safe" >"$work/targets.tsv"
    per_rank=(--topn 5) ;;
  ddp-sleep | ddp-compute | ddp-batch)
    printf 'NAME\tCMD\tWORKDIR\tENVS\n%s\t%s ddp_nccl_probe.py\t.\t%s,STEPS=14,STRAGGLE=%s\n' \
      "${job//-/_}" "$torchrun" "$safe" "${job#ddp-}" >"$work/targets.tsv" ;;
  ddp-one)
    printf 'NAME\tCMD\tWORKDIR\tENVS\nddp_one\t%s ddp_nccl_probe.py\t.\t%s,STEPS=12,STRAGGLE=compute,STRAGGLER_RANK=1\n' \
      "$torchrun" "$safe" >"$work/targets.tsv"
    per_rank=(--topn 2) ;;
  ddp-blind)
    printf 'NAME\tCMD\tWORKDIR\tENVS\nddp_blind\t%s ddp_nccl_probe.py\t.\t%s,STEPS=12,STRAGGLE=sleep,SLOW_MS=25,STRAGGLER_RANK=2\n' \
      "$torchrun" "$safe" >"$work/targets.tsv" ;;
  fsdp)
    printf 'NAME\tCMD\tWORKDIR\tENVS\nfsdp\t%s fsdp_probe.py\t.\t%s,STEPS=12,STRAGGLE=compute\n' \
      "$torchrun" "$safe" >"$work/targets.tsv" ;;
  *) echo "unknown job $job" >&2; continue ;;
  esac
  cd "$work" || exit 2
  echo "== $job: warpscope-cli capture ${per_rank[*]}"
  cat targets.tsv
  start=$SECONDS
  timeout "${JOB_TIMEOUT:-270}" "$cli" capture --targets targets.tsv --out out --nsys "$work/nsys" --ncu "$ncu" \
    "${per_rank[@]}" --launch-count 1 --ncu-set basic --ncu-stall-timeout 120 2>&1 | tee capture.log
  echo "== $job: capture exit status ${PIPESTATUS[0]} after $((SECONDS - start)) s"
  group=$(ls -d out/*/ 2>/dev/null | head -n 1)
  [ -n "$group" ] || continue
  for folder in "$group"*/; do
    folder=${folder%/}
    mkdir -p "$folder/truth"
    for rep in "$folder"/nsys/*.nsys-rep; do
      [ -f "$rep" ] || continue
      base=$(basename "$rep" .nsys-rep)
      "$work/nsys" stats --force-export=false \
        --report cuda_gpu_kern_sum,nvtx_sum,nvtx_gpu_proj_sum,cuda_api_sum \
        --format csv --output "$folder/truth/$base" "$rep" >/dev/null 2>"$folder/truth/$base.stderr"
    done
    cp capture.log "$folder/"
    echo "== $job/$(basename "$folder"): ranks"
    "$cli" ranks "$folder" 2>&1
    "$cli" ranks --format csv "$folder" 2>&1
    echo "== $job/$(basename "$folder"): diagnose"
    COLUMNS=120 "$cli" diagnose "$folder" 2>&1 | head -40
    echo "== $job/$(basename "$folder"): gauges"
    "$cli" gauges "$folder" 2>&1 | head -30
  done
  tar -cJf "$out/$job.tar.xz" --exclude='*.nsys-rep' --exclude='*.ncu-rep' --exclude='*.qdstrm' \
    -C "$group" .
  ls -l "$out/$job.tar.xz"
  cd - >/dev/null || exit 2
done
