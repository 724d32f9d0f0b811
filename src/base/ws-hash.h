/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A hash of a gint64 key that mixes all its bits.  GLib before 2.76 hashes
 * a gint64 by its low 32 bits alone, so keys packed as (a << 32) | b with
 * b constant (a frame's name and file, a node and a frame) all collide and
 * a table of n of them costs n^2. */
static inline guint
ws_int64_hash (gconstpointer v)
{
  guint64 k = *(const guint64 *) v;

  k ^= k >> 33;
  k *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  k ^= k >> 33;
  return (guint) k;
}

G_END_DECLS
