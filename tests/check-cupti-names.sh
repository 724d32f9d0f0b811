#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# src/nvprof/ws-nvprof-{runtime,driver}-names.c are what
# build-aux/gen-cupti-names.py writes
# from the CUPTI headers of the newest CUDA on this machine.  Without CUDA
# the test is skipped (77): the build never needs it.
set -eu
src="$1"
include=
for dir in /usr/local/cuda/include /usr/local/cuda-*/include; do
  [ -f "$dir/cupti_driver_cbid.h" ] && [ -f "$dir/cupti_runtime_cbid.h" ] && include="$dir"
done
if [ -z "$include" ]; then
  echo "no CUPTI headers on this machine: skipped"
  exit 77
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for api in runtime driver; do
  python3 "$src/build-aux/gen-cupti-names.py" "$include" "$api" > "$out"
  # The committed table must be what these headers give, line for line,
  # apart from the line naming the CUDA version.
  committed="$src/src/nvprof/ws-nvprof-$api-names.c"
  if ! diff -u -I '_cbid.h of CUDA' "$committed" "$out"; then
    echo "$committed differs from gen-cupti-names.py $include $api: run it and commit the result"
    exit 1
  fi
  echo "$committed equals gen-cupti-names.py $include $api"
done
