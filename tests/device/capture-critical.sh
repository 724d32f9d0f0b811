#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Real before/after pairs for issue 43's what-if, captured through
# `warpscope-cli capture` on a machine of one GPU, from the repository root
# there, with the bundle of bundle-cli.sh:
#
#   tests/device/capture-critical.sh BUNDLE OUTDIR
#
# cp_probe.py (one process):
#   gemm_full / gemm_half      DIM 16384: the GEMM on all rows, then on half of
#                              them (GPU-bound steps);
#   gemm8k_full / gemm8k_half  the same at DIM 8192, where the host's part of a
#                              step is as long as the GPU's;
#   sleep_on / sleep_off       12 ms of host sleep under the GPU work, then none;
#   blind_before / blind_after DIM 10240 and 9 ms of sleep, then the GEMM halved
#                              (for a check no test reads);
# cp_gloo_probe.py (two ranks on the one GPU, gloo, --per-rank):
#   gloo_slow / gloo_even      rank 1 sleeps 8 ms more in `data`, then not.
# ONLY=NAME,… captures only those targets.  Every export (xz) with its
# run.json and capture.log is packed into
# OUTDIR/critical.tar; OUTDIR/machine.txt says where they were made.
set -uo pipefail
bundle=$(cd "${1:?usage: $0 BUNDLE OUTDIR}" && pwd)
out=${2:?usage: $0 BUNDLE OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
cli=$bundle/warpscope-cli
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
real_nsys=$(ls /opt/nvidia/nsight-compute/*/host/target-linux-x64/nsys 2>/dev/null | tail -n 1)
work=/tmp/critical
rm -rf "$work"
mkdir -p "$work"
cp "$here/cp_probe.py" "$here/cp_gloo_probe.py" "$work/"
cat >"$work/nsys" <<WRAPPER
#!/bin/sh
LD_LIBRARY_PATH="$bundle/nsys-lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" exec "$real_nsys" "\$@"
WRAPPER
chmod +x "$work/nsys"
{
  nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader
  python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)'
  "$work/nsys" --version
} >"$out/machine.txt" 2>&1
cat "$out/machine.txt"
safe=NCCL_NVLS_ENABLE=0,TORCH_SYMM_MEM_DISABLE_MULTICAST=1,NVSHMEM_DISABLE_NVLS=1
one='python3 cp_probe.py'
job='torchrun --standalone --nproc_per_node 2 cp_gloo_probe.py'
{
  printf 'NAME\tCMD\tWORKDIR\tENVS\n'
  printf 'gemm_full\t%s\t.\t%s,STEPS=30,DIM=16384,SLEEP_MS=1\n' "$one" "$safe"
  printf 'gemm_half\t%s\t.\t%s,STEPS=30,DIM=16384,SLEEP_MS=1,GEMM_HALF=1\n' "$one" "$safe"
  printf 'gemm8k_full\t%s\t.\t%s,STEPS=30,SLEEP_MS=1\n' "$one" "$safe"
  printf 'gemm8k_half\t%s\t.\t%s,STEPS=30,SLEEP_MS=1,GEMM_HALF=1\n' "$one" "$safe"
  printf 'sleep_on\t%s\t.\t%s,STEPS=30,SLEEP_MS=12\n' "$one" "$safe"
  printf 'sleep_off\t%s\t.\t%s,STEPS=30,SLEEP_MS=0\n' "$one" "$safe"
  printf 'blind_before\t%s\t.\t%s,STEPS=30,DIM=10240,SLEEP_MS=9\n' "$one" "$safe"
  printf 'blind_after\t%s\t.\t%s,STEPS=30,DIM=10240,SLEEP_MS=9,GEMM_HALF=1\n' "$one" "$safe"
} >"$work/one.tsv"
{
  printf 'NAME\tCMD\tWORKDIR\tENVS\n'
  printf 'gloo_slow\t%s\t.\t%s,STEPS=20,DATA_MS=2,SLOW_RANK=1,SLOW_MS=8\n' "$job" "$safe"
  printf 'gloo_even\t%s\t.\t%s,STEPS=20,DATA_MS=2,SLOW_RANK=-1\n' "$job" "$safe"
} >"$work/job.tsv"
cd "$work" || exit 2
status=0
common=(--out out --group critical --nsys "$work/nsys" --ncu "$ncu" --topn 1 --launch-count 1
  --ncu-set basic --continue-on-error)
only_one=${ONLY:-$(cut -f1 one.tsv | tail -n +2 | paste -sd,)}
only_job=${ONLY:-$(cut -f1 job.tsv | tail -n +2 | paste -sd,)}
"$cli" capture --targets one.tsv --only "$only_one" "${common[@]}" || status=1
if grep -q gloo <<<"$only_job"; then
  "$cli" capture --targets job.tsv --only "$only_job" --per-rank "${common[@]}" || status=1
fi
find out -name '*.sqlite' -printf '%10s  %p\n' | sort -k2
cd out/critical || exit 1
for db in $(find . -name '*.sqlite'); do xz -T0 -9 "$db"; done
tar -cf "$out/critical.tar" $(find . -name '*.sqlite.xz' -o -name run.json -o -name capture.log)
tar -tvf "$out/critical.tar"
for t in $(tr , ' ' <<<"${ONLY:-gemm_full,gemm_half,gemm8k_full,gemm8k_half,sleep_on,sleep_off,blind_before,blind_after,gloo_slow,gloo_even}"); do
  ls "$t"/nsys/*.sqlite.xz >/dev/null 2>&1 || { echo "MISSING: $t"; status=1; }
done
exit $status
