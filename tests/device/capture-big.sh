#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# capture-big.sh BUNDLE OUTDIR - issue 34's blind check: a real export of
# about 200,000 kernels on two streams (many_kernels_probe.py under nsys,
# CUDA and NVTX), its SQL truths (kernels per lane and per name) written by
# the bundle's sqlite3, and warpscope-cli's first frame of it
# (render --view overview), to compare by hand.  The export comes back
# xz-compressed.  Run on a GPU machine from the repository root.
set -u
bundle=${1:?usage: $0 BUNDLE OUTDIR}
out=${2:?usage: $0 BUNDLE OUTDIR}
# Absolute: nsys's importer runs elsewhere and must still find nsys-lib.
bundle=$(cd "$bundle" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck disable=SC2012
nsys=$(ls /opt/nvidia/nsight-compute/*/host/target-linux-x64/nsys 2>/dev/null | tail -n 1)
[ -x "$nsys" ] || { echo "capture-big.sh: no nsys under /opt/nvidia/nsight-compute" >&2; exit 1; }
mkdir -p "$out"
work=$(mktemp -d)
LD_LIBRARY_PATH="$bundle/nsys-lib" "$nsys" profile -t cuda,nvtx -o "$work/big" --force-overwrite true \
  python3 "$here/many_kernels_probe.py" >"$out/profile.log" 2>&1 || { tail "$out/profile.log"; exit 1; }
LD_LIBRARY_PATH="$bundle/nsys-lib" "$nsys" export --type sqlite -o "$work/big.sqlite" \
  --force-overwrite true "$work/big.nsys-rep" >>"$out/profile.log" 2>&1 || { tail "$out/profile.log"; exit 1; }
db="file:$work/big.sqlite?immutable=1&mode=ro"
{
  echo "# rows, span"
  "$bundle/bin/sqlite3" "$db" "SELECT count(*), min(start), max(end) FROM CUPTI_ACTIVITY_KIND_KERNEL"
  echo "# lanes: pid, device, stream, kernels, busy ns"
  "$bundle/bin/sqlite3" "$db" "SELECT (globalPid >> 24) & 16777215, deviceId, streamId, count(*), sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY 1, 2, 3"
  echo "# kernels by total time: launches, total ns, name"
  "$bundle/bin/sqlite3" "$db" "SELECT count(*), sum(k.end - k.start), s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName GROUP BY k.demangledName ORDER BY 2 DESC LIMIT 12"
} >"$out/truth.txt"
"$bundle/warpscope-cli" render --view overview --size 1600x900 -o "$out/overview.png" "$work/big.sqlite"
echo "overview exit $?"
if command -v xz >/dev/null; then
  xz -T0 -6 -c "$work/big.sqlite" >"$out/big.sqlite.xz"
else
  gzip -6 -c "$work/big.sqlite" >"$out/big.sqlite.gz"
fi
ls -la "$out"
rm -rf "$work"
