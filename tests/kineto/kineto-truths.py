#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The truths of a PyTorch profiler trace, from its JSON by Python alone.

Prints one tab-separated line per fact, for test-kineto-reader.c to compare
with what warpscope-cli says of the same file:

  kernel NAME COUNT TOTAL_NS     per kernel name (cat "kernel")
  api NAME COUNT TOTAL_NS        per call name (cuda_runtime, cuda_driver)
  range NAME COUNT TOTAL_NS      per record_function range (user_annotation)
  memop NAME COUNT BYTES         per copy or set name (gpu_memcpy, gpu_memset)
  step N START_NS DUR_NS         each ProfilerStep#N
  count WHAT N                   kernel, memop, api, range, cpu_ops, memory (GPU), events
  gpus N
  device ID KERNELS              per args.device of the kernels (the CUDA device id)
  base_ns N

Times are µs with up to three decimals: converted to ns with decimal
arithmetic (the numbers are read as their text, never as floats), a fourth
decimal rounding half up.

Usage: kineto-truths.py TRACE.json[.gz]
"""

import collections
import decimal
import gzip
import json
import sys


def ns(text):
    return int((decimal.Decimal(text) * 1000).quantize(decimal.Decimal(1),
                                                       rounding=decimal.ROUND_HALF_UP))


def main():
    path = sys.argv[1]
    opener = gzip.open if open(path, 'rb').read(2) == b'\x1f\x8b' else open
    with opener(path, 'rt', encoding='utf-8') as f:
        trace = json.load(f, parse_float=str, parse_int=str)
    sums = collections.defaultdict(lambda: [0, 0])
    counts = collections.Counter()
    devices = collections.Counter()
    steps = []
    for e in trace['traceEvents']:
        cat = e.get('cat')
        args = e.get('args', {})
        if e.get('ph') == 'X' and 'ts' in e:
            start = ns(e['ts'])
            dur = ns(e.get('dur', '0'))
            key = {'kernel': 'kernel', 'cuda_runtime': 'api', 'cuda_driver': 'api',
                   'user_annotation': 'range', 'gpu_memcpy': 'memop',
                   'gpu_memset': 'memop'}.get(cat)
            if key is not None:
                row = sums[(key, e['name'])]
                row[0] += 1
                row[1] += int(args.get('bytes', '0')) if key == 'memop' else dur
                counts[key] += 1
            if key == 'kernel':
                devices[int(args['device'])] += 1
            if cat in ('cpu_op', 'python_function'):
                counts['cpu_ops'] += 1
            if cat == 'user_annotation' and e['name'].startswith('ProfilerStep#'):
                steps.append((int(e['name'][len('ProfilerStep#'):]), start, dur))
        if e.get('ph') == 'i' and e.get('name') == '[memory]' and args.get('Device Type') == '1':
            counts['memory'] += 1
    for (key, name), (n, total) in sorted(sums.items()):
        print('%s\t%s\t%d\t%d' % (key, name, n, total))
    for step in sorted(steps):
        print('step\t%d\t%d\t%d' % step)
    counts['events'] = len(trace['traceEvents'])
    for what in ('kernel', 'memop', 'api', 'range', 'cpu_ops', 'memory', 'events'):
        print('count\t%s\t%d' % (what, counts[what]))
    print('gpus\t%d' % len(trace.get('deviceProperties', [])))
    for device, n in sorted(devices.items()):
        print('device\t%d\t%d' % (device, n))
    print('base_ns\t%s' % trace.get('baseTimeNanoseconds', '0'))
    return 0


if __name__ == '__main__':
    sys.exit(main())
