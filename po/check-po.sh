#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The translation is complete: POTFILES.in lists every file with
# translatable strings, and zh_CN.po translates every current string, with
# no fuzzy or untranslated entry and valid format strings.
set -euo pipefail
src=$1
cd "$src"
status=0

listed=$(grep -v '^#' po/POTFILES.in | grep -v '^$' | sort)
needed=$( (grep -rlE '(^|[^A-Za-z_])(N?_|g_dngettext) ?\(' src --include='*.c'; \
           grep -rl 'translatable="yes"' data/ui; \
           ls data/*.desktop.in data/*.metainfo.xml.in data/*.gschema.xml) | sort -u)
missing=$(comm -13 <(echo "$listed") <(echo "$needed"))
if [ -n "$missing" ]; then
  echo "POTFILES.in lacks: $missing"
  status=1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
xgettext --from-code=UTF-8 --add-comments=TRANSLATORS -o "$tmp/all.pot" \
  --keyword=_ --keyword=N_ --keyword=C_:1c,2 --keyword=NC_:1c,2 \
  --keyword=g_dngettext:2,3 --keyword=g_dpgettext2:2c,3 \
  --files-from=<(grep -v '^#' po/POTFILES.in | grep -v '^$') 2>"$tmp/xgettext.log" || { cat "$tmp/xgettext.log"; exit 1; }

for po in po/*.po; do
  stats=$(LC_ALL=C msgfmt --check --statistics -o /dev/null "$po" 2>&1)
  echo "$po: $stats"
  if echo "$stats" | grep -qE 'untranslated|fuzzy'; then
    status=1
  fi
  if ! msgcmp "$po" "$tmp/all.pot" 2>"$tmp/msgcmp.log"; then
    echo "$po lacks current strings:"
    head -20 "$tmp/msgcmp.log"
    status=1
  fi
done
exit $status
