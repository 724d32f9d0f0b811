#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# `nsys stats` truths of exports captured earlier, for reports and report
# arguments Warpscope added later (issue 39: cuda_gpu_kern_gb_sum, the
# :base, :mangled and :nvtx-name arguments), on a GPU machine with the
# nsys inside Nsight Compute:
#
#   tests/device/capture-truths.sh NSYS_LIB OUTDIR EXPORT.sqlite...
#
# NSYS_LIB holds libdw.so.1 and libelf.so.1 for that nsys (bundle-cli.sh's
# nsys-lib).  nsys stats reads an SQLite export as it is (--force-export
# false).  Each export's CSVs go to OUTDIR/<export name>/, with what nsys
# printed; `--help-reports` goes to OUTDIR/help-reports.txt.
set -uo pipefail
lib=$(cd "${1:?usage: $0 NSYS_LIB OUTDIR EXPORT...}" && pwd)
out=${2:?usage: $0 NSYS_LIB OUTDIR EXPORT...}
shift 2
mkdir -p "$out"
nsys=$(ls /opt/nvidia/nsight-compute/*/host/target-linux-x64/nsys 2>/dev/null | tail -n 1)
reports=${TRUTH_REPORTS:-cuda_gpu_kern_gb_sum,cuda_gpu_kern_gb_sum:base,cuda_gpu_kern_sum:base,cuda_gpu_kern_sum:mangled,cuda_gpu_kern_sum:nvtx-name,cuda_gpu_kern_gb_sum:nvtx-name,cuda_kern_exec_sum:base,cuda_kern_exec_sum:nvtx-name,nvtx_kern_sum:base}
LD_LIBRARY_PATH="$lib" "$nsys" stats --help-reports >"$out/help-reports.txt" 2>&1
for db in "$@"; do
  name=$(basename "$db" .sqlite)
  mkdir -p "$out/$name"
  # One report per call: an argument nsys does not know fails that call alone.
  for report in ${reports//,/ }; do
    LD_LIBRARY_PATH="$lib" "$nsys" stats --force-export=false --report "$report" --format csv \
      --output "$out/$name/$name" "$db" >"$out/$name/${report//:/_}.stdout" 2>&1
    echo "$name $report: exit $?"
  done
  ls "$out/$name"
done
