#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Real captures for issue 39 (CUDA graphs), on a GPU machine, from the
# repository root there, with the bundle of bundle-cli.sh:
#
#   tests/device/capture-graphs.sh BUNDLE OUTDIR PART...
#
# PART is one of
#   kineto  PyTorch profiler traces of graph_probe.py in the eager, graph
#           and compile modes (no nsys), which also fills torch.compile's
#           caches for the captures after it;
#   node    graph_probe.py in the eager, graph, compile and recapture modes
#           through `warpscope-cli capture` with --cuda-graph-trace node
#           (the launcher's default): each kernel of a replay in the
#           kernel table;
#   graph   the graph, compile and recapture modes with --cuda-graph-trace
#           graph: one row of CUPTI_ACTIVITY_KIND_GRAPH_TRACE per replay;
#   blind   a capture no test reads (another shape, a slower layer, host
#           work between replays), graph tracing, and its PyTorch trace.
# Every capture is made with ncu --set basic over the top 5 kernels, one
# launch each, in one ncu run. Each export gets the `nsys stats` truths of
# every report nsys offers that Warpscope implements, in its truth/ folder.
# Each PART's folder is packed without the reports into OUTDIR/PART.tar.
set -uo pipefail
bundle=$(cd "${1:?usage: $0 BUNDLE OUTDIR PART...}" && pwd)
out=${2:?usage: $0 BUNDLE OUTDIR PART...}
shift 2
mkdir -p "$out"
out=$(cd "$out" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
cli=$bundle/warpscope-cli
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
real_nsys=$(ls /opt/nvidia/nsight-compute/*/host/target-linux-x64/nsys 2>/dev/null | tail -n 1)
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
reports=cuda_gpu_kern_sum,cuda_gpu_mem_time_sum,cuda_gpu_mem_size_sum,cuda_api_sum,nvtx_sum
reports=$reports,nvtx_gpu_proj_sum,nvtx_kern_sum,cuda_kern_exec_sum,cuda_gpu_sum,cuda_gpu_trace

work=/tmp/graphs
mkdir -p "$work"
cp "$here/graph_probe.py" "$work/"
cat >"$work/nsys" <<WRAPPER
#!/bin/sh
LD_LIBRARY_PATH="$bundle/nsys-lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" exec "$real_nsys" "\$@"
WRAPPER
chmod +x "$work/nsys"

echo "== machine"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader
python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)'
"$work/nsys" --version
if [ ! -f "$out/nsys-help.txt" ]; then
  { "$work/nsys" profile --help; "$work/nsys" stats --help-reports; "$ncu" --help; } >"$out/nsys-help.txt" 2>&1
fi

# targets.tsv of one PART: NAME, MODE and extra ENVS per row.
targets() {
  printf 'NAME\tCMD\tWORKDIR\tENVS\n'
  while [ $# -gt 0 ]; do
    printf '%s\tpython3 graph_probe.py\t.\tMODE=%s%s\n' "$1" "$2" "${3:+,$3}"
    shift 3
  done
}

# capture PART GRAPH_TRACE ROWS...: the launcher, the truths, the pack.
capture() {
  local part=$1 trace=$2 start=$SECONDS
  shift 2
  cd "$work" || return
  rm -rf "out-$part"
  targets "$@" >"targets-$part.tsv"
  cat "targets-$part.tsv"
  echo "== $part: warpscope-cli capture --cuda-graph-trace $trace"
  timeout "${PART_TIMEOUT:-400}" "$cli" capture --targets "targets-$part.tsv" --out "out-$part" \
    --group "$part" --nsys "$work/nsys" --ncu "$ncu" --cuda-graph-trace "$trace" --topn 5 \
    --launch-count 1 --single-ncu-run --ncu-set basic --ncu-stall-timeout 120 \
    --continue-on-error 2>&1 | tee "capture-$part.log"
  echo "== $part: capture exit status ${PIPESTATUS[0]} after $((SECONDS - start)) s"
  for folder in "out-$part/$part"/*/; do
    folder=${folder%/}
    mkdir -p "$folder/truth"
    for rep in "$folder"/nsys/*.nsys-rep; do
      [ -f "$rep" ] || continue
      base=$(basename "$rep" .nsys-rep)
      "$work/nsys" stats --force-export=false --report "$reports" --format csv \
        --output "$folder/truth/$base" "$rep" >/dev/null 2>"$folder/truth/$base.stderr"
      echo "== $folder: $(ls "$folder/truth" | wc -l) truth files"
    done
    echo "== $folder: ws info, diagnose"
    "$cli" info "$folder"/nsys/*.sqlite 2>&1 | head -20
    COLUMNS=120 "$cli" diagnose "$folder" 2>&1 | head -20
    # Packed target by target, so that a part stopped at the call's limit
    # still brings back what it finished.
    tar -rf "$out/$part.tar" --exclude='*.nsys-rep' --exclude='*.ncu-rep' --exclude='*.qdstrm' \
      -C "out-$part" "$part/$(basename "$folder")"
  done
  cp "capture-$part.log" "targets-$part.tsv" "out-$part/$part/"
  tar -rf "$out/$part.tar" -C "out-$part" "$part/capture-$part.log" "$part/targets-$part.tsv"
  ls -l "$out/$part.tar"
  cd - >/dev/null || return
}

for part in "$@"; do
  case $part in
  kineto)
    start=$SECONDS
    for mode in eager graph compile; do
      (cd "$work" && MODE=$mode PROFILE="$work/kineto" timeout 200 python3 graph_probe.py) 2>&1 |
        grep -v Warning | tail -n 3
    done
    gzip -9f "$work"/kineto/*.json
    tar -cf "$out/kineto.tar" -C "$work" kineto
    echo "== kineto: $((SECONDS - start)) s"
    ;;
  node)
    capture node node decode_eager eager "" decode_graph graph "" decode_compile compile "" \
      decode_recapture recapture "STEPS=20"
    ;;
  graph)
    capture graph graph decode_graph graph "" decode_compile compile "" decode_recapture recapture \
      "STEPS=20"
    ;;
  blind)
    (cd "$work" && MODE=graph LAYERS=6 DIM=768 BATCH=4 STEPS=30 SLOW_LAYER=2 HOST_MS=1.5 \
      PROFILE="$work/blind-kineto" TRACE_NAME=blind timeout 120 python3 graph_probe.py) 2>&1 | tail -n 2
    capture blind graph blind graph "LAYERS=6,DIM=768,BATCH=4,STEPS=30,SLOW_LAYER=2,HOST_MS=1.5"
    gzip -9f "$work"/blind-kineto/*.json
    tar -cf "$out/blind-kineto.tar" -C "$work" blind-kineto
    ;;
  *) echo "unknown part $part" >&2 ;;
  esac
done
