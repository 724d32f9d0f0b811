#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Real PyTorch profiler (Kineto) traces for issue 33, on a GPU machine of at
# least 2 GPUs (4 for ddp4), from the repository root there:
#
#   tests/device/capture-kineto.sh NSYS_LIB OUTDIR JOB...
#
# NSYS_LIB holds libdw.so.1 and libelf.so.1 for the nsys inside Nsight
# Compute (bundle-cli.sh's nsys-lib). JOB is one of
#   train   kineto_probe.py MODE=train on one GPU (schedule, shapes, memory, stacks)
#   infer   kineto_probe.py MODE=infer on one GPU
#   ddp2    MODE=train under torchrun, 2 ranks, NCCL, rank 1 sleeps 25 ms in "data"
#   ddp4    the same with 4 ranks, rank 2 the straggler
#   nsys    MODE=train inside `nsys profile` (CUDA, NVTX, OS runtime): the trace
#           and the nsys export of the same run
# Each JOB's files are gzipped into OUTDIR/JOB/.
set -uo pipefail
lib=$(cd "${1:?usage: $0 NSYS_LIB OUTDIR JOB...}" && pwd)
out=${2:?usage: $0 NSYS_LIB OUTDIR JOB...}
shift 2
mkdir -p "$out"
out=$(cd "$out" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
nsys=$(ls /opt/nvidia/nsight-compute/*/host/target-linux-x64/nsys 2>/dev/null | tail -n 1)
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1

echo "== machine"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader
python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "gpus", torch.cuda.device_count())'

for job in "$@"; do
  dir=$out/$job
  mkdir -p "$dir"
  start=$SECONDS
  case $job in
  train | infer)
    MODE=$job TRACE_DIR=$dir TRACE_NAME=lm_$job python3 "$here/kineto_probe.py" ;;
  ddp2)
    MODE=train STRAGGLE=sleep STRAGGLER_RANK=1 TRACE_DIR=$dir TRACE_NAME=ddp2 \
      torchrun --standalone --nproc_per_node 2 "$here/kineto_probe.py" ;;
  ddp4)
    MODE=train STRAGGLE=sleep STRAGGLER_RANK=2 TRACE_DIR=$dir TRACE_NAME=ddp4 \
      torchrun --standalone --nproc_per_node 4 "$here/kineto_probe.py" ;;
  nsys)
    MODE=train TRACE_DIR=$dir TRACE_NAME=lm_nsys LD_LIBRARY_PATH="$lib" \
      "$nsys" profile -t cuda,nvtx,osrt -o "$dir/lm_nsys" --force-overwrite true \
      python3 "$here/kineto_probe.py" &&
      LD_LIBRARY_PATH="$lib" "$nsys" export --type sqlite -o "$dir/lm_nsys.sqlite" \
        --force-overwrite true "$dir/lm_nsys.nsys-rep" &&
      rm -f "$dir/lm_nsys.nsys-rep" "$dir"/*.qdstrm ;;
  *) echo "unknown job $job" >&2; continue ;;
  esac
  echo "== $job: exit $? after $((SECONDS - start)) s"
  gzip -9 "$dir"/*.json "$dir"/*.sqlite 2>/dev/null
  ls -la "$dir"
done
