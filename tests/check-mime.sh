#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The MIME types of data/org.warpscope.Warpscope.mime.xml, compiled by
# update-mime-database as a desktop would, then looked up as the file
# manager does: a digest by its name and, renamed, by its content.
#
# Usage: check-mime.sh MIME_XML DESKTOP_FILE WARPSCOPE_CLI RANK_EXPORT.xz
set -eu
xml=$1 desktop=$2 cli=$3 export_xz=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A real digest, of one real export.
mkdir "$tmp/job"
xz -dc "$export_xz" >"$tmp/job/rank0.sqlite"
digest=$tmp/job.wsdigest
"$cli" digest -o "$digest" "$tmp/job" >/dev/null

mkdir -p "$tmp/mime/packages"
cp "$xml" "$tmp/mime/packages/"
update-mime-database "$tmp/mime" >/dev/null 2>&1

grep -q '^50:application/x-warpscope-digest:\*\.wsdigest$' "$tmp/mime/globs2" ||
  { echo "globs2: *.wsdigest is not application/x-warpscope-digest"; cat "$tmp/mime/globs2"; exit 1; }
grep -q '^application/x-warpscope-digest application/vnd.sqlite3$' "$tmp/mime/subclasses" ||
  { echo "subclasses: a digest is not an SQLite file"; exit 1; }
grep -q 'application/x-warpscope-digest' "$tmp/mime/magic" ||
  { echo "magic: no rule for a digest's content"; exit 1; }
grep -q '^MimeType=.*application/x-warpscope-digest;' "$desktop" ||
  { echo "$desktop: does not open application/x-warpscope-digest"; exit 1; }
# Only the types where any such file opens into a useful window
# (docs/NOTES.md, "The types the desktop file claims"): not every folder,
# not every spreadsheet.
if grep -Eq '^MimeType=.*(inode/directory|text/csv)' "$desktop"; then
  echo "$desktop: claims folders or CSV files, which open into no useful window"
  exit 1
fi

# By content: GIO's own lookup with this database alone, on a real digest
# renamed so that its name says nothing.
cp "$digest" "$tmp/job.data"
type=$(XDG_DATA_HOME="$tmp" XDG_DATA_DIRS="$tmp" gio info -a standard::content-type "$tmp/job.data" |
  sed -n 's/.*standard::content-type: //p')
[ "$type" = application/x-warpscope-digest ] ||
  { echo "$digest renamed: content type $type, expected application/x-warpscope-digest"; exit 1; }
type=$(XDG_DATA_HOME="$tmp" XDG_DATA_DIRS="$tmp" gio info -a standard::content-type "$digest" |
  sed -n 's/.*standard::content-type: //p')
[ "$type" = application/x-warpscope-digest ] ||
  { echo "$digest: content type $type, expected application/x-warpscope-digest"; exit 1; }
echo "application/x-warpscope-digest: by name, by content, and in the desktop file"
