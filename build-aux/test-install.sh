#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the build into a temporary DESTDIR and checks that every file
# landed where the desktop expects it.  Usage: test-install.sh BUILDDIR PREFIX gui|cli
# (cli: a build without the window, which installs the CLI and its page alone).
set -euo pipefail
build=$1
prefix=$2
kind=${3:-gui}
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT

meson install -C "$build" --no-rebuild --destdir "$dest" --quiet >/dev/null
root=$dest$prefix

expected=(
  bin/warpscope-cli
  libexec/warpscope/warpscope-cli-full
  share/man/man1/warpscope-cli.1
  share/locale/zh_CN/LC_MESSAGES/warpscope.mo
)
gui=(
  bin/warpscope
  share/applications/org.warpscope.Warpscope.desktop
  share/metainfo/org.warpscope.Warpscope.metainfo.xml
  share/mime/packages/org.warpscope.Warpscope.mime.xml
  share/glib-2.0/schemas/org.warpscope.Warpscope.gschema.xml
  share/icons/hicolor/scalable/apps/org.warpscope.Warpscope.svg
  share/icons/hicolor/symbolic/apps/org.warpscope.Warpscope-symbolic.svg
  share/icons/hicolor/scalable/actions/ws-capture-symbolic.svg
  share/icons/hicolor/scalable/actions/ws-compare-symbolic.svg
  share/icons/hicolor/scalable/actions/ws-doctor-symbolic.svg
  share/icons/hicolor/scalable/actions/ws-timeline-symbolic.svg
  share/warpscope/demo/h100_probe.sqlite
  share/man/man1/warpscope.1
)
if [ "$kind" = gui ]; then
  expected+=("${gui[@]}")
else
  # Nothing of the window's may be installed without it.
  for f in "${gui[@]}"; do
    [ -e "$root/$f" ] && { echo "installed without the window: $f"; exit 1; }
  done
fi
missing=0
for f in "${expected[@]}"; do
  if [ ! -s "$root/$f" ]; then
    echo "missing: $f"
    missing=1
  fi
done
# With DESTDIR the post-install steps (schemas, icon cache, desktop and MIME
# databases) must not run: they would write outside DESTDIR's tree.
if [ -e "$root/share/glib-2.0/schemas/gschemas.compiled" ]; then
  echo "gschemas.compiled was written although DESTDIR is set"
  missing=1
fi
"$root/bin/warpscope-cli" --version | grep -q '^warpscope-cli ' || { echo "the installed CLI does not run"; missing=1; }
# The commands that draw, which warpscope-cli hands to it (it looks in the
# prefix, not under DESTDIR: run it directly).
"$root/libexec/warpscope/warpscope-cli-full" --version | grep -q '^warpscope-cli ' || { echo "the installed warpscope-cli-full does not run"; missing=1; }
[ $missing -eq 0 ] && echo "all ${#expected[@]} files installed"
exit $missing
