#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The Debian packages hold what meson install installs: nothing forgotten,
nothing twice, nothing extra.

  check-debian-install.py BUILDDIR PREFIX DEBIANDIR
      installs BUILDDIR into a temporary DESTDIR and checks that each file
      (relative to PREFIX, read as /usr) is named by exactly one package's
      debian/*.install, and that each line there names at least one file;
  check-debian-install.py --package-list INSTALLFILE FILELIST
      checks a built package's file list (dpkg-deb -c, one path a line)
      against its .install file: every file named, every line used
      (debhelper's own files, under usr/share/doc and usr/share/lintian,
      aside, and the manual pages read without the .gz dh_compress adds).
"""
import fnmatch
import os
import subprocess
import sys
import tempfile


def read_patterns(path):
    with open(path, encoding="utf-8") as f:
        return [line.split()[0] for line in f if line.strip() and not line.startswith("#")]


def named_by(path, pattern):
    """A line of a .install file names a file, or a folder and all below it."""
    if fnmatch.fnmatchcase(path, pattern):
        return True
    parts = path.split("/")
    return any(fnmatch.fnmatchcase("/".join(parts[:i]), pattern) for i in range(1, len(parts)))


def check(files, packages):
    """files: paths; packages: {name: patterns}.  Returns the problems."""
    problems = []
    used = {(name, p): False for name, pats in packages.items() for p in pats}
    for path in sorted(files):
        owners = [name for name, pats in packages.items() if any(named_by(path, p) for p in pats)]
        for name, pats in packages.items():
            for p in pats:
                if named_by(path, p):
                    used[(name, p)] = True
        if not owners:
            problems.append(f"{path}: installed, but no package holds it")
        elif len(owners) > 1:
            problems.append(f"{path}: held by {' and '.join(owners)}")
    for (name, p), was in used.items():
        if not was:
            problems.append(f"debian/{name}.install: '{p}' names no installed file")
    return problems


def meson_files(builddir, prefix):
    with tempfile.TemporaryDirectory() as dest:
        subprocess.run(["meson", "install", "-C", builddir, "--no-rebuild", "--destdir", dest, "--quiet"],
                       check=True, stdout=subprocess.DEVNULL)
        top = os.path.join(dest, prefix.lstrip("/"))
        files = []
        for dirpath, _dirs, names in os.walk(dest):
            for n in names:
                full = os.path.join(dirpath, n)
                if not full.startswith(top + "/"):
                    files.append("OUTSIDE-PREFIX/" + os.path.relpath(full, dest))
                    continue
                files.append("usr/" + os.path.relpath(full, top))
        return files


def main(argv):
    if len(argv) == 4 and argv[1] == "--package-list":
        name = os.path.basename(argv[2]).removesuffix(".install")
        with open(argv[3], encoding="utf-8") as f:
            files = [l.strip().lstrip("./") for l in f if l.strip()]
        files = [f for f in files if not f.startswith(("usr/share/doc/", "usr/share/lintian/"))]
        # dh_compress gzips the manual pages.
        files = [f.removesuffix(".gz") if f.startswith("usr/share/man/") else f for f in files]
        problems = check(files, {name: read_patterns(argv[2])})
    elif len(argv) == 4:
        builddir, prefix, debian = argv[1:]
        packages = {n.removesuffix(".install"): read_patterns(os.path.join(debian, n))
                    for n in sorted(os.listdir(debian)) if n.endswith(".install")}
        if not packages:
            print(f"{debian}: no .install files", file=sys.stderr)
            return 1
        files = meson_files(builddir, prefix)
        problems = check(files, packages)
        if not problems:
            print(f"all {len(files)} installed files are in exactly one of "
                  f"{', '.join(sorted(packages))}; every .install line is used")
    else:
        print(__doc__, file=sys.stderr)
        return 2
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
