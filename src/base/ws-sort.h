/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Event tables are kept sorted by start time, ties broken by the later end
 * first, so that an enclosing range always comes before what it encloses. */
gboolean ws_sort_is_ordered (const gint64 *start, const gint64 *end, gsize n);
guint32 *ws_sort_order (const gint64 *start, const gint64 *end, gsize n);
void ws_sort_apply (gpointer column, gsize element_size, const guint32 *order, gsize n);
gsize ws_sort_lower_bound (const gint64 *values, gsize lo, gsize hi, gint64 value);

G_END_DECLS
