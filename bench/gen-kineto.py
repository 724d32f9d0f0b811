#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# gen-kineto.py SIZE_MB OUT.json [SEED_TRACE] - a synthetic PyTorch profiler
# (Kineto) Chrome trace of about SIZE_MB megabytes (10^6 bytes), made from a
# real one (default: tests/data/kineto/captures/lm_train_rank0.json.gz, three
# active ProfilerStep#N of a transformer training run).
#
# The seed's events are repeated K times, K chosen to reach SIZE_MB:
#
#   - each copy is the seed's events in the seed's order, with the text of
#     each event kept byte for byte but for the numbers below, so the bytes
#     per event, the keys and their order are the real trace's;
#   - copy c is shifted by c x P microseconds, P the whole span of the
#     repeated events (first start to last end) rounded up to a whole
#     microsecond, plus 1 us: copies never overlap, so every thread's events
#     keep the seed's order in time and nested ranges stay nested, and
#     timestamps keep their three decimals exactly (integer nanoseconds);
#   - ids are moved by (the seed's largest + 1) x c, so they stay unique and
#     keep pointing at their own copy: "External id", "correlation" and the
#     ac2g flows' "id" (one offset for both: a flow's id is its correlation),
#     the other flows' "id" (fwdbwd), "Python id" and "Python parent id",
#     "Sequence number", "Ev Idx";
#   - ProfilerStep#N becomes ProfilerStep#(N + c x S), S the seed's number of
#     steps, so steps keep increasing (#2..#4, then #5..#7, ...);
#   - once, not repeated: the header (every key but traceEvents, as it is),
#     the metadata events (ph "M"), the "Trace" span (stretched over every
#     copy) and the global instants ("Iteration Start", "Record Window End",
#     moved to the end of the last copy), at the seed's place: the end.
#
# The output is streamed (one copy's text at a time) to OUT.tmp, then
# renamed; OUT ending in .gz is gzip-compressed.  Next to it, OUT.counts
# holds the counts of the events written, per category (kernel, cpu_op,
# ...), with the copies and the period, for checks (bench/kineto.sh).
#
# gen-kineto.py --check OUT.json [SEED_TRACE] reads OUT back with json.load
# (a DOM: use it on small files) and checks it against OUT.counts and the
# seed: counts x K, ids unique, steps increasing, each thread's order.

import collections
import decimal
import gzip
import io
import json
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SEED = os.path.join(HERE, '..', 'tests', 'data', 'kineto', 'captures',
                            'lm_train_rank0.json.gz')

# The numbers (and step names) a copy changes, found in an event's raw text.
SLOT_RE = re.compile(r'"(ts|id|External id|correlation|Python id|Python parent id|'
                     r'Sequence number|Ev Idx|name)"(\s*:\s*)'
                     r'("ProfilerStep#[0-9]+"|-?[0-9]+(?:\.[0-9]+)?)')
STEP_RE = re.compile(r'^ProfilerStep#([0-9]+)$')
ARG_KEYS = ('External id', 'correlation', 'Python id', 'Python parent id',
            'Sequence number', 'Ev Idx')


def die(msg):
    print('gen-kineto.py: ' + msg, file=sys.stderr)
    sys.exit(1)


def read_text(path):
    with open(path, 'rb') as f:
        data = f.read()
    if data[:2] == b'\x1f\x8b':
        data = gzip.decompress(data)
    return data.decode('utf-8')


def to_ns(text):
    """Microseconds with up to three decimals, as exact integer nanoseconds."""
    v = decimal.Decimal(text) * 1000
    if v != v.to_integral_value():
        die('time %s has more than three decimals' % text)
    return int(v)


def us_text(ns):
    sign = '-' if ns < 0 else ''
    ns = abs(ns)
    return '%s%d.%03d' % (sign, ns // 1000, ns % 1000)


def split_events(text):
    """The header text up to the first event, the events (raw text and
    parsed), the separator between events, and the trailer text."""
    m = re.search(r'"traceEvents"\s*:\s*\[\s*', text)
    if not m:
        die('no "traceEvents" array in the seed')
    dec = json.JSONDecoder()
    pos = m.end()
    header = text[:pos]
    events = []
    sep = None
    n = len(text)
    while pos < n and text[pos] != ']':
        obj, end = dec.raw_decode(text, pos)
        events.append((text[pos:end], obj))
        j = end
        while j < n and text[j] in ' \t\r\n':
            j += 1
        if j < n and text[j] == ',':
            j += 1
            while j < n and text[j] in ' \t\r\n':
                j += 1
            if sep is None:
                sep = text[end:j]
        pos = j
    # Whitespace before the closing bracket goes with the trailer.
    k = pos
    while k > 0 and text[k - 1] in ' \t\r\n':
        k -= 1
    last_end = k
    trailer = text[last_end:]
    return header, events, sep or ',\n', trailer


def is_once(ev):
    ph = ev.get('ph')
    if ph == 'M' or ev.get('cat') == 'Trace':
        return True
    return ph == 'i' and 'cat' not in ev


def category(ev):
    """The counting key of an event: its cat, or ph for those without one
    ("[memory]" instants count as "[memory]")."""
    if ev.get('name') == '[memory]':
        return '[memory]'
    return ev.get('cat') or ('ph:' + str(ev.get('ph')))


def compile_template(raw, ev):
    """The event's text as literal pieces and slots (key, number text)."""
    parts = []
    last = 0
    seen = collections.Counter()
    for m in SLOT_RE.finditer(raw):
        key, value = m.group(1), m.group(3)
        if key == 'name':
            if not value.startswith('"ProfilerStep#'):
                continue
        parts.append(raw[last:m.start(3)])
        parts.append((key, value))
        last = m.end(3)
        seen[key] += 1
    parts.append(raw[last:])
    # The slots found must be the event's own keys, each once: a key inside
    # a string would be a parse of something else.
    expect = collections.Counter()
    if 'ts' in ev:
        expect['ts'] += 1
    if 'id' in ev and isinstance(ev['id'], int):
        expect['id'] += 1
    if isinstance(ev.get('name'), str) and STEP_RE.match(ev['name']):
        expect['name'] += 1
    args = ev.get('args') or {}
    for k in ARG_KEYS:
        if isinstance(args.get(k), int) and not isinstance(args.get(k), bool):
            expect[k] += 1
    if seen != expect:
        die('event text not understood (slots %s, keys %s): %s' % (dict(seen), dict(expect), raw[:200]))
    return parts


def plan(seed_path):
    text = read_text(seed_path)
    header, events, sep, trailer = split_events(text)
    repeated = [(raw, ev) for raw, ev in events if not is_once(ev)]
    once = [(raw, ev) for raw, ev in events if is_once(ev)]
    if not repeated:
        die('the seed has no events to repeat')
    # Once-only events must be at the end (where Kineto writes them), so
    # that the output keeps the seed's order.
    first_once = next((i for i, (_, ev) in enumerate(events) if is_once(ev)), len(events))
    if any(not is_once(ev) for _, ev in events[first_once:]):
        die('the seed has metadata events before its last activity event')

    start = min(to_ns(str_number(raw, 'ts')) for raw, ev in repeated if 'ts' in ev)
    end = max(to_ns(str_number(raw, 'ts')) + to_ns(str_number(raw, 'dur') or '0')
              for raw, ev in repeated if 'ts' in ev)
    period_us = math.ceil((end - start) / 1000) + 1

    maxima = collections.Counter()
    steps = set()
    for _, ev in repeated:
        args = ev.get('args') or {}
        for k in ARG_KEYS:
            v = args.get(k)
            if isinstance(v, int) and not isinstance(v, bool):
                key = 'corr' if k == 'correlation' else k
                maxima[key] = max(maxima[key], v)
        if isinstance(ev.get('id'), int):
            key = 'corr' if ev.get('cat') == 'ac2g' else 'flow:' + str(ev.get('cat'))
            maxima[key] = max(maxima[key], ev['id'])
        m = STEP_RE.match(ev.get('name', '')) if isinstance(ev.get('name'), str) else None
        if m:
            steps.add(int(m.group(1)))

    templates = []
    for raw, ev in repeated:
        parts = compile_template(raw, ev)
        cat = ev.get('cat')
        # Each slot: (key of its offset in the copy's offsets, value).
        slots = []
        for p in parts:
            if isinstance(p, tuple):
                key, value = p
                if key == 'ts':
                    slots.append(('ts', to_ns(value)))
                elif key == 'name':
                    slots.append(('step', int(STEP_RE.match(value[1:-1]).group(1))))
                elif key == 'id':
                    slots.append(('corr' if cat == 'ac2g' else 'flow:' + str(cat), int(value)))
                elif key == 'correlation':
                    slots.append(('corr', int(value)))
                else:
                    slots.append((key, int(value)))
        templates.append(([p for p in parts if not isinstance(p, tuple)], slots))

    return {
        'header': header, 'sep': sep, 'trailer': trailer,
        'repeated': repeated, 'once': once, 'templates': templates,
        'period_us': period_us, 'start_ns': start, 'end_ns': end,
        'maxima': maxima, 'nsteps': len(steps),
        'copy_bytes': sum(len(raw.encode('utf-8')) + len(sep) for raw, _ in repeated),
        'fixed_bytes': len(header) + len(trailer) + sum(len(raw) + len(sep) for raw, _ in once),
    }


def str_number(raw, key):
    m = re.search(r'"%s"\s*:\s*(-?[0-9]+(?:\.[0-9]+)?)' % re.escape(key), raw)
    return m.group(1) if m else None


def offsets_for(p, c):
    off = {'ts': c * p['period_us'] * 1000, 'step': c * p['nsteps']}
    for key, v in p['maxima'].items():
        off[key] = c * (v + 1)
    return off


def render(literals, slots, off):
    out = [literals[0]]
    for i, (key, v) in enumerate(slots):
        if key == 'ts':
            out.append(us_text(v + off['ts']))
        elif key == 'step':
            out.append('"ProfilerStep#%d"' % (v + off['step']))
        else:
            out.append(str(v + off[key]))
        out.append(literals[i + 1])
    return ''.join(out)


def render_once(raw, ev, p, copies):
    """A once-only event: the Trace span stretched over the copies, the
    global instants after the seed's end moved to the last copy."""
    shift = (copies - 1) * p['period_us'] * 1000
    if ev.get('cat') == 'Trace' and 'dur' in ev:
        dur = str_number(raw, 'dur')
        return re.sub(r'("dur"\s*:\s*)' + re.escape(dur),
                      lambda m: m.group(1) + us_text(to_ns(dur) + shift), raw, count=1)
    if ev.get('ph') == 'i' and 'ts' in ev:
        ts = str_number(raw, 'ts')
        if to_ns(ts) >= p['end_ns']:
            return re.sub(r'("ts"\s*:\s*)' + re.escape(ts),
                          lambda m: m.group(1) + us_text(to_ns(ts) + shift), raw, count=1)
    return raw


def generate(size_mb, out_path, seed_path):
    p = plan(seed_path)
    target = size_mb * 1e6
    copies = max(1, round((target - p['fixed_bytes']) / p['copy_bytes']))
    tmp = out_path + '.tmp'
    raw_out = open(tmp, 'wb')
    sink = gzip.GzipFile(fileobj=raw_out, mode='wb', compresslevel=6) if out_path.endswith('.gz') else raw_out
    f = io.TextIOWrapper(io.BufferedWriter(sink, 1 << 20), encoding='utf-8', newline='')
    f.write(p['header'])
    sep = p['sep']
    first = True
    for c in range(copies):
        off = offsets_for(p, c)
        chunk = sep.join(render(lits, slots, off) for lits, slots in p['templates'])
        if not first:
            f.write(sep)
        f.write(chunk)
        first = False
        if c % 20 == 19:
            print('  copy %d of %d' % (c + 1, copies), file=sys.stderr)
    for raw, ev in p['once']:
        f.write(sep)
        f.write(render_once(raw, ev, p, copies))
    f.write(p['trailer'])
    f.flush()
    f.close()
    if sink is not raw_out:
        raw_out.close()
    os.replace(tmp, out_path)

    counts = collections.Counter()
    for _, ev in p['repeated']:
        counts[category(ev)] += copies
    for _, ev in p['once']:
        counts[category(ev)] += 1
    with open(out_path + '.counts', 'w') as cf:
        cf.write('seed %s\n' % os.path.abspath(seed_path))
        cf.write('copies %d\n' % copies)
        cf.write('period_us %d\n' % p['period_us'])
        cf.write('steps %d\n' % (copies * p['nsteps']))
        cf.write('events %d\n' % sum(counts.values()))
        for k in sorted(counts):
            cf.write('cat %s %d\n' % (k.replace(' ', '_'), counts[k]))
    size = os.path.getsize(out_path)
    print('gen-kineto.py: %s: %.1f MB, %d copies of %d events (period %d us), %d events, %d kernels'
          % (out_path, size / 1e6, copies, len(p['repeated']), p['period_us'],
             sum(counts.values()), counts.get('kernel', 0)), file=sys.stderr)


def check(out_path, seed_path):
    """Reads OUT back (json.load) and checks it against the seed."""
    opener = gzip.open if out_path.endswith('.gz') else open
    with opener(out_path, 'rt', encoding='utf-8') as f:
        d = json.load(f)
    with io.StringIO(read_text(seed_path)) as f:
        s = json.load(f)
    info = {}
    with open(out_path + '.counts') as cf:
        for line in cf:
            w = line.split()
            info[w[0] if w[0] != 'cat' else 'cat ' + w[1]] = w[-1]
    k = int(info['copies'])
    bad = []
    ev, sev = d['traceEvents'], s['traceEvents']
    for key in s:
        if key != 'traceEvents' and s[key] != d.get(key):
            bad.append('header key %s differs' % key)
    c_out = collections.Counter(category(e) for e in ev)
    c_seed = collections.Counter(category(e) for e in sev)
    for cat, n in c_seed.items():
        once = all(is_once(e) for e in sev if category(e) == cat)
        want = n if once else n * k
        if c_out[cat] != want:
            bad.append('%s: %d events, want %d' % (cat, c_out[cat], want))
        if int(info.get('cat ' + cat.replace(' ', '_'), -1)) != c_out[cat]:
            bad.append('%s: OUT.counts says %s, the file has %d' % (cat, info.get('cat ' + cat), c_out[cat]))
    if len(ev) != int(info['events']):
        bad.append('events: %d, OUT.counts says %s' % (len(ev), info['events']))

    def uniq(name, values):
        values = list(values)
        if len(values) != len(set(values)):
            bad.append('%s not unique (%d values, %d distinct)' % (name, len(values), len(set(values))))
    uniq('kernel correlation', (e['args']['correlation'] for e in ev if e.get('cat') == 'kernel'))
    uniq('cuda_runtime/driver correlation',
         (e['args']['correlation'] for e in ev if e.get('cat') in ('cuda_runtime', 'cuda_driver')))
    uniq('cpu_op External id', (e['args']['External id'] for e in ev if e.get('cat') == 'cpu_op'))
    uniq('Python id', (e['args']['Python id'] for e in ev if e.get('cat') == 'python_function'))
    for ph in ('s', 'f'):
        uniq('ac2g %s id' % ph, (e['id'] for e in ev if e.get('cat') == 'ac2g' and e['ph'] == ph))
    # Every kernel's correlation has its launch.
    launches = {e['args']['correlation'] for e in ev if e.get('cat') in ('cuda_runtime', 'cuda_driver')}
    seed_orphans = sum(1 for e in sev if e.get('cat') == 'kernel'
                       and e['args']['correlation'] not in
                       {x['args']['correlation'] for x in sev if x.get('cat') in ('cuda_runtime', 'cuda_driver')})
    orphans = sum(1 for e in ev if e.get('cat') == 'kernel' and e['args']['correlation'] not in launches)
    if orphans != seed_orphans * k:
        bad.append('%d kernels without their launch, want %d' % (orphans, seed_orphans * k))
    steps = [int(STEP_RE.match(e['name']).group(1)) for e in ev
             if e.get('cat') == 'user_annotation' and STEP_RE.match(e['name'])]
    if steps != sorted(steps) or len(set(steps)) != len(steps):
        bad.append('ProfilerStep numbers not increasing')

    # Each thread's order: as many decreases of ts as the seed's, x k.
    def decreases(events):
        last, n = {}, 0
        for e in events:
            if 'ts' not in e or e.get('ph') == 'M':
                continue
            key = (e['pid'], e['tid'], e.get('cat'))
            if key in last and e['ts'] < last[key]:
                n += 1
            last[key] = e['ts']
        return n
    if decreases(ev) != decreases(sev) * k:
        bad.append('per-thread order: %d decreases, the seed has %d per copy' % (decreases(ev), decreases(sev)))
    ts_text_ok = all(isinstance(e.get('ts'), (int, float)) for e in ev if 'ts' in e)
    if not ts_text_ok:
        bad.append('a ts is not a number')
    print('check %s: %d copies, %d events (%d kernels, %d steps): %s'
          % (out_path, k, len(ev), c_out['kernel'], len(steps), 'ok' if not bad else 'FAILED'))
    for b in bad:
        print('  ' + b)
    return 0 if not bad else 1


def main(argv):
    if len(argv) >= 2 and argv[1] == '--check':
        if len(argv) not in (3, 4):
            die('usage: gen-kineto.py --check OUT.json [SEED_TRACE]')
        return check(argv[2], argv[3] if len(argv) == 4 else DEFAULT_SEED)
    if len(argv) not in (3, 4):
        print('usage: gen-kineto.py SIZE_MB OUT.json [SEED_TRACE]\n'
              '       gen-kineto.py --check OUT.json [SEED_TRACE]', file=sys.stderr)
        return 2
    try:
        size = float(argv[1])
    except ValueError:
        size = -1
    if not size > 0:
        die('SIZE_MB must be a positive number')
    generate(size, argv[2], argv[3] if len(argv) == 4 else DEFAULT_SEED)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
