#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Real runs for issue 42's regression gate, on a GPU machine, from the
# repository root there, with the bundle of bundle-cli.sh:
#
#   tests/device/capture-gate.sh BUNDLE OUTDIR
#
# gate_probe.py under nsys (CUDA and NVTX), exported to SQLite:
#   same01 … same10  ten runs of the same code;
#   slow_kernel      its GELU 10% slower (SLOW_KERNEL=1);
#   long_data        its `data` range 2 ms longer (DATA_MS=2).
# Each export is xz-compressed, and all of them packed into OUTDIR/gate.tar
# (what comes back from the device is a few files); OUTDIR/machine.txt
# says where they were made.
set -uo pipefail
bundle=$(cd "${1:?usage: $0 BUNDLE OUTDIR}" && pwd)
out=${2:?usage: $0 BUNDLE OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
real_nsys=$(ls /opt/nvidia/nsight-compute/*/host/target-linux-x64/nsys 2>/dev/null | tail -n 1)
work=$(mktemp -d)

# nsys with the libraries it lacks there, for itself alone.
cat >"$work/nsys" <<WRAPPER
#!/bin/sh
LD_LIBRARY_PATH="$bundle/nsys-lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" exec "$real_nsys" "\$@"
WRAPPER
chmod +x "$work/nsys"
nsys () { "$work/nsys" "$@"; }

{
  nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader
  python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)'
  nsys --version
} >"$out/machine.txt" 2>&1
cat "$out/machine.txt"

capture () # NAME ENV...
{
  local name=$1
  shift
  env "$@" "$work/nsys" profile -t cuda,nvtx -o "$work/$name" --force-overwrite true \
    python3 "$here/gate_probe.py" >"$work/$name.log" 2>&1 || { tail "$work/$name.log"; return 1; }
  nsys export --type sqlite -o "$work/$name.sqlite" --force-overwrite true \
    "$work/$name.nsys-rep" >>"$work/$name.log" 2>&1 || { tail "$work/$name.log"; return 1; }
  xz -T0 -9 -c "$work/$name.sqlite" >"$work/$name.sqlite.xz"
  echo "$name: $(grep gate_probe: "$work/$name.log")"
}

for i in 01 02 03 04 05 06 07 08 09 10; do
  capture "same$i" STEPS=30 || exit 1
done
capture slow_kernel STEPS=30 SLOW_KERNEL=1 || exit 1
capture long_data STEPS=30 DATA_MS=2 || exit 1
tar -C "$work" -cf "$out/gate.tar" $(cd "$work" && ls ./*.sqlite.xz)
tar -tvf "$out/gate.tar"
rm -rf "$work"
