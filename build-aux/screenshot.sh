#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A screenshot of the window on a file, for docs/screenshots and for
# looking at what a change did:
#
#   build-aux/screenshot.sh BUILDDIR OUT.png PAGE THEME LANG FILE...
#
# PAGE is the page's number (Alt+PAGE: 1 Kernels … 4 Gauges … 9 Capture),
# THEME light or dark, LANG en or zh. Runs the build's app under its own
# Xvfb at 1280x800 (SCREEN=WxH for another size) and presses Alt+PAGE
# with xdotool (Alt+0: the Critical Path page), then double-clicks at
# CLICK=X,Y where set; installs xvfb,
# xdotool and imagemagick first where they are missing (no test needs them).
set -euo pipefail
missing=()
for p in xvfb xdotool imagemagick; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=()
  [ "$(id -u)" -ne 0 ] && sudo=(sudo)
  "${sudo[@]}" apt-get update -q
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
build=$(cd "$1" && pwd)
out=$2
page=$3
theme=$4
lang=$5
shift 5
display=:$((90 + RANDOM % 100))
screen=${SCREEN:-1280x800}
Xvfb "$display" -screen 0 "${screen}x24" -nolisten tcp &
xvfb=$!
trap 'kill $xvfb 2>/dev/null' EXIT
sleep 1
env=(DISPLAY="$display" GSETTINGS_BACKEND=memory NO_AT_BRIDGE=1 DBUS_SESSION_BUS_ADDRESS=disabled:
     GSETTINGS_SCHEMA_DIR="$build/data")
[ "$theme" = dark ] && env+=(GTK_THEME=Adwaita:dark)
if [ "$lang" = zh ]; then
  env+=(LANGUAGE=zh_CN LC_ALL=zh_CN.UTF-8)
else
  env+=(LANGUAGE=C LC_ALL=C.UTF-8)
fi
env "${env[@]}" "$build/src/app/warpscope" "$@" &
app=$!
trap 'kill $app $xvfb 2>/dev/null' EXIT
for _ in $(seq 60); do
  DISPLAY=$display xdotool search --onlyvisible --class warpscope >/dev/null 2>&1 && break
  sleep 0.5
done
sleep 4
window=$(DISPLAY=$display xdotool search --onlyvisible --class warpscope | head -n 1)
DISPLAY=$display xdotool windowsize "$window" "${screen%x*}" "${screen#*x}" windowmove "$window" 0 0
DISPLAY=$display xdotool windowactivate --sync "$window" 2>/dev/null || DISPLAY=$display xdotool windowfocus "$window"
DISPLAY=$display xdotool key --window "$window" "alt+$page"
# CLICK=X,Y double-clicks there once the page shows (a row to open).
if [ -n "${CLICK:-}" ]; then
  sleep 2
  DISPLAY=$display xdotool mousemove "${CLICK%,*}" "${CLICK#*,}" click --repeat 2 --delay 80 1
fi
DISPLAY=$display xdotool mousemove $((${screen%x*} - 1)) $((${screen#*x} - 1))
sleep 3
DISPLAY=$display import -window root "$out"
echo "$out"
