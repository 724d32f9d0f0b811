#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The layer table of docs/ARCHITECTURE.md ("The libraries"), as a test.

Every #include under src/ must name a header of the including file's own
library, of a library that library may use, or an outside header that its
row allows.  Each edge that breaks the table is printed as FILE:LINE with
what it includes and what the library may use; the exit status is then 1.

A loaded run is read-only: the headers that change runs (BUILDERS) may be
included only by the code that builds runs, and no other file may assign
to a field of a WsRun (a variable declared `WsRun *NAME`, or a struct
member of that type reached as `self->NAME`).

Usage: check-layers.py SRC_DIR
"""

import os
import re
import sys

# Each library and the libraries it uses directly; "may use" is the
# transitive closure.  Keep in step with the table of docs/ARCHITECTURE.md
# and the dependencies in each library's meson.build.
USES = {
    'base': [],
    'model': ['base'],
    'formats': ['model'],
    # PyTorch profiler traces: a reader beside formats, which is full.
    'kineto': ['formats'],
    # nvprof's exports, logs, metrics and traces: a reader beside formats too.
    'nvprof': ['formats'],
    'tools': ['base'],
    'ncu': ['model'],
    'analysis': ['ncu'],
    'ranks': ['analysis'],
    # The critical path across ranks and what-if: a graph over the run and the rank set.
    'critical': ['ranks'],
    'findings': ['ranks'],
    'digest': ['findings'],
    'timeline': ['model'],
    'export': ['findings'],
    'loader': ['formats', 'kineto', 'nvprof', 'digest', 'tools'],
    'capture': ['base', 'tools'],
    'render': ['base', 'model', 'formats', 'kineto', 'nvprof', 'tools', 'ncu', 'analysis', 'ranks',
               'critical', 'findings', 'digest', 'timeline', 'export', 'loader', 'capture'],
    # The charts of one kernel's ncu metrics: drawing beside render, which is full.
    'ncu-charts': ['render'],
    'document': ['ncu-charts'],
    'widgets': ['ncu-charts'],
    'pages': ['widgets'],
    'app': ['pages', 'document'],
    'cli': ['ncu-charts', 'document', 'mpi'],
    # MPI for `digest --mpi` alone: GLib and MPI, nothing of Warpscope's model.
    'mpi': ['base'],
}

# Outside headers that only some libraries may include, by the start of the
# name.  Anything else (the C library, POSIX, GLib, GObject, GIO) is open to
# all.  SQLite is formats' and nvprof's alone: the others link it, never
# include it.
OUTSIDE = [
    ('sqlite3.h', 'SQLite', {'formats', 'nvprof'}),
    ('mpi.h', 'MPI', {'mpi'}),
    ('lzma.h', 'liblzma', {'formats'}),
    ('gio/gunix', 'GIO-Unix', {'tools', 'export'}),
    ('gio/gdesktopappinfo.h', 'GIO-Unix', {'tools', 'export'}),
    ('json-glib/', 'json-glib',
     {'formats', 'export', 'loader', 'capture', 'render', 'document', 'widgets', 'pages', 'app',
      'cli'}),
    ('cairo', 'Cairo', {'render', 'ncu-charts', 'document', 'widgets', 'pages', 'app', 'cli'}),
    ('pango/', 'Pango', {'render', 'ncu-charts', 'document', 'widgets', 'pages', 'app', 'cli'}),
    ('gtk/', 'GTK', {'widgets', 'pages', 'app'}),
    ('gdk/', 'GTK', {'widgets', 'pages', 'app'}),
]

# The headers whose functions change a run, and who may include them: whole
# libraries, and single files by name.  Tests may include anything.
BUILDERS = {
    'ws-run-build.h': ({'model', 'formats', 'kineto', 'nvprof', 'loader'}, {'ws-stats.c', 'ws-ncu-match.c'}),
    'ws-stats-build.h': ({'loader'}, {'ws-stats.c', 'ws-run-derive.c'}),
}

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def may_use(lib):
    """The libraries @lib may include, itself among them."""
    seen = {lib}
    todo = list(USES[lib])
    while todo:
        other = todo.pop()
        if other not in seen:
            seen.add(other)
            todo.extend(USES[other])
    return seen


def run_fields(src):
    """The member names of struct _WsRun, read from model's ws-run.h."""
    with open(os.path.join(src, 'model', 'ws-run.h'), encoding='utf-8') as f:
        text = f.read()
    body = text[text.index('struct _WsRun\n{'):]
    body = body[:body.index('\n};')]
    body = re.sub(r'/\*.*?\*/', '', body, flags=re.S)
    return set(re.findall(r'\**\s*(\w+)\s*(?:\[[^]]*\])?\s*;', body))


def run_writes(path, fields):
    """Each line of @path that assigns to a field of a WsRun."""
    with open(path, encoding='utf-8') as f:
        text = f.read()
    names = set(re.findall(r'\bWsRun\s*\*\s*(?:const\s+)?(\w+)', text))
    if not names:
        return []
    who = r'(?:\b\w+\s*->\s*)?\b(?:%s)' % '|'.join(sorted(names))
    field = r'\s*->\s*(?:%s)\b(?:\s*(?:\.\s*\w+|\[[^];]*\]))*' % '|'.join(sorted(fields))
    assign = re.compile(who + field + r'\s*(?:[-+*/|&]?=(?!=)|\+\+|--)')
    taken = re.compile(r'(?<![&\w)\]])&\s*' + who + field + r'\s*[,)]')
    changed = re.compile(r'\b(?:g_ptr_array_add|g_array_append_vals?|g_hash_table_insert|'
                         r'g_hash_table_replace|g_free|g_clear_pointer|g_strfreev)\s*\(\s*&?\s*'
                         + who + field + r'\s*[,)]')
    found = []
    for number, line in enumerate(text.split('\n'), 1):
        if assign.search(line) or taken.search(line) or changed.search(line):
            found.append((number, line.strip()))
    return found


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    src = sys.argv[1]
    root = os.path.dirname(os.path.abspath(src))

    # Where each header lives: includes name headers without their folder,
    # so a name must be unique under src/.
    owner = {}
    problems = []
    sources = []
    for lib in sorted(os.listdir(src)):
        folder = os.path.join(src, lib)
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            if not name.endswith(('.c', '.h')):
                continue
            path = os.path.join(folder, name)
            if lib not in USES:
                problems.append('%s: in a folder the layer table does not know (%s)'
                                % (os.path.relpath(path, root), lib))
                continue
            sources.append((lib, path))
            if name.endswith('.h'):
                if name in owner:
                    problems.append('%s: a header of that name is also in %s'
                                    % (os.path.relpath(path, root), owner[name]))
                owner.setdefault(name, lib)

    edges = 0
    for lib, path in sources:
        allowed = may_use(lib)
        rel = os.path.relpath(path, root)
        with open(path, encoding='utf-8') as f:
            for number, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if m is None:
                    continue
                edges += 1
                quote, header = m.groups()
                where = '%s:%d: #include %s' % (rel, number,
                                                 '"%s"' % header if quote == '"' else '<%s>' % header)
                if quote == '"':
                    if header == 'config.h':
                        continue
                    other = owner.get(header)
                    if header in BUILDERS:
                        libs, files = BUILDERS[header]
                        if lib not in libs and os.path.basename(path) not in files:
                            problems.append('%s: only the code that builds runs may include it '
                                            '(%s; %s)' % (where, ', '.join(sorted(libs)),
                                                          ', '.join(sorted(files))))
                    if other is None:
                        problems.append('%s: no such header under src/' % where)
                    elif other not in allowed:
                        problems.append('%s (%s): %s may use only %s'
                                        % (where, other, lib, ', '.join(sorted(allowed - {lib}))
                                           or 'GLib and GIO'))
                    continue
                for prefix, what, libs in OUTSIDE:
                    if header.startswith(prefix) and lib not in libs:
                        problems.append('%s (%s): only %s may include it'
                                        % (where, what, ', '.join(sorted(libs))))

    fields = run_fields(src)
    builders, single = BUILDERS['ws-run-build.h']
    for lib, path in sources:
        if lib in builders or os.path.basename(path) in single:
            continue
        for number, line in run_writes(path, fields):
            problems.append('%s:%d: writes to a loaded run (%s); only the code that builds runs '
                            'may (ws-run-build.h)' % (os.path.relpath(path, root), number, line))

    for problem in problems:
        print(problem)
    if problems:
        print('%d problem(s) with the layer table or a loaded run (docs/ARCHITECTURE.md)' % len(problems))
        return 1
    print('%d includes in %d files follow the layer table' % (edges, len(sources)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
