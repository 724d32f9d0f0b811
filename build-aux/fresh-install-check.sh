#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Run by the new-machine rehearsal (warpscope-fresh.sh) as root inside a
# second clean Debian 12 root, where DEBS (default /root/debs) holds the
# packages `warpscope-dev deb` built in the first one:
#
#   1. apt install ./warpscope-cli_*.deb alone: no GTK comes with it, and
#      it reads and draws the demo capture (fonts come with it too);
#   2. apt install ./warpscope_*.deb: the installed window opens the demo
#      under Xvfb, warpscope-cli info reads it, xdg-mime names our desktop
#      file for our own types, the installed desktop file and metainfo
#      validate;
#   3. apt purge both: nothing of ours is left outside /etc and the home
#      folder, and the caches the desktop reads (MIME, desktop, schemas,
#      icons) no longer name us.
#
# The tools the checks use (Xvfb, xdg-utils, desktop-file-utils,
# appstream), and the session bus a desktop has (dbus-x11, as `run`
# installs: the window keeps its settings in dconf through it), are
# installed after the packages' own dependencies and counted apart.
set -euo pipefail

debs=${DEBS:-/root/debs}
demo=/usr/share/warpscope/demo/h100_probe.sqlite
sample=$debs/h100_probe.sqlite
export DEBIAN_FRONTEND=noninteractive

say() { printf '\n-- install: %s\n' "$*"; }
fail() { echo "install: FAILED: $*" >&2; exit 1; }
installed() { dpkg-query -W -f '${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
count() { dpkg-query -W -f '${Package}\n' | wc -l; }

apt-get update -q >/dev/null

say "apt install ./warpscope-cli_*.deb (alone)"
before=$(count)
apt-get install -y -q "$debs"/warpscope-cli_*.deb >/tmp/apt-cli.log 2>&1 ||
  { tail -n 20 /tmp/apt-cli.log; fail "apt could not install warpscope-cli"; }
echo "warpscope-cli and $(($(count) - before - 1)) packages it needs installed"
for gtk in libgtk-3-0 libgtk-4-1 libgdk-pixbuf-2.0-0 libgtk2.0-0; do
  ! installed "$gtk" || fail "installing warpscope-cli alone pulled in $gtk"
done
echo "no GTK or GDK library came with it (Debian's Cairo brings the X11 client libraries, no more)"
warpscope-cli --version
warpscope-cli info "$sample" | sed -n 1,4p
warpscope-cli render -v bars -o /tmp/kernels.png "$sample"
[ -s /tmp/kernels.png ] || fail "warpscope-cli render wrote no image"
echo "render -v bars: $(stat -c %s /tmp/kernels.png) bytes"
ldd /usr/libexec/warpscope/warpscope-cli-full | grep -q 'libmpi\.' ||
  fail "the packaged warpscope-cli was built without MPI"
echo "digest --mpi: warpscope-cli-full links $(ldd /usr/libexec/warpscope/warpscope-cli-full | awk '/libmpi\./ {print $1; exit}')"

say "apt install ./warpscope_*.deb"
before=$(count)
apt-get install -y -q "$debs"/warpscope_*.deb >/tmp/apt-gui.log 2>&1 ||
  { tail -n 20 /tmp/apt-gui.log; fail "apt could not install warpscope"; }
echo "warpscope and $(($(count) - before - 1)) packages it needs installed"
say "the tools the checks use: xvfb xauth xdg-utils desktop-file-utils appstream dbus-x11"
apt-get install -y -q --no-install-recommends xvfb xauth xdg-utils desktop-file-utils appstream dbus-x11 \
  >/tmp/apt-tools.log 2>&1 || { tail -n 20 /tmp/apt-tools.log; fail "apt could not install the check tools"; }

say "the installed window opens the demo (xvfb-run, WARPSCOPE_EXIT_AFTER_LOAD=1)"
line=$(cd / && WARPSCOPE_EXIT_AFTER_LOAD=1 timeout 120 xvfb-run -a warpscope "$demo" 2>/tmp/warpscope.err) ||
  { cat /tmp/warpscope.err; fail "warpscope did not open $demo"; }
echo "$line"
case "$line" in "loaded yes "*) ;; *) fail "the window said: $line" ;; esac
grep -v '^$' /tmp/warpscope.err && fail "the window wrote to stderr" || true

say "warpscope-cli info on the installed demo"
warpscope-cli info "$demo"

say "xdg-mime query default for our own types"
for type in application/x-nsys-rep application/x-ncu-rep application/x-warpscope-digest; do
  app=$(xdg-mime query default "$type")
  printf '%-32s %s\n' "$type" "${app:-(none)}"
  [ "$app" = org.warpscope.Warpscope.desktop ] || fail "xdg-mime names '$app' for $type"
done

say "desktop-file-validate and appstreamcli validate on the installed files"
desktop-file-validate /usr/share/applications/org.warpscope.Warpscope.desktop && echo "desktop file: valid"
appstreamcli validate --no-net /usr/share/metainfo/org.warpscope.Warpscope.metainfo.xml

# The caches below are checked for our names after the purge: before it,
# they must hold them, or that check would prove nothing.
grep -qa org.warpscope.Warpscope /usr/share/applications/mimeinfo.cache ||
  fail "mimeinfo.cache does not name our desktop file while the package is installed"
grep -qa x-nsys-rep /usr/share/mime/mime.cache || fail "mime.cache does not hold x-nsys-rep while installed"

say "apt purge warpscope warpscope-cli"
apt-get purge -y -q warpscope warpscope-cli >/tmp/apt-purge.log 2>&1 ||
  { tail -n 20 /tmp/apt-purge.log; fail "apt could not remove the packages"; }
grep -E '^(Removing|Purging)' /tmp/apt-purge.log || true
left=$(find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path /etc -o -path /root -o -path /home \
  -o -path /tmp -o -path /var/cache/apt -o -path /var/lib/apt -o -path /var/log \) -prune \
  -o -iname '*warpscope*' -print)
[ -z "$left" ] || { echo "$left"; fail "files named after us are left after the purge"; }
for cache in /usr/share/applications/mimeinfo.cache /usr/share/glib-2.0/schemas/gschemas.compiled \
  /usr/share/icons/hicolor/icon-theme.cache /usr/share/mime/mime.cache; do
  [ -f "$cache" ] || continue
  ! grep -qa -e warpscope -e x-nsys-rep -e x-ncu-rep "$cache" || fail "$cache still names us after the purge"
done
[ ! -e /usr/share/mime/application/x-nsys-rep.xml ] || fail "the MIME database still defines x-nsys-rep"
echo "nothing of ours is left outside /etc and the home folder; the desktop's caches no longer name us"
echo "install: the packages install, open the demo, and remove cleanly"
