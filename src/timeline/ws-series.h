/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define WS_SERIES_BLOCK 32

/* Samples of one quantity over time (a GPU metric, the memory in use),
 * with per-block maxima and sums so that what one pixel column shows is
 * found in logarithmic time. */
typedef struct
{
  const gint64 *time; /* ns, ascending */
  const float *value;
  gsize n;
  gsize n_blocks;
  float *block_max;
  double *block_sum; /* the sum of the values before each block; n_blocks + 1 */
  float max;         /* the largest value */
  gint64 *own_time;  /* set when the series owns its samples */
  float *own_value;
} WsSeries;

void ws_series_init (WsSeries *self, const gint64 *time, const float *value, gsize n);
void ws_series_init_owned (WsSeries *self, gint64 *time, float *value, gsize n);
void ws_series_clear (WsSeries *self);
gsize ws_series_memory (const WsSeries *self);

gsize ws_series_lower_bound (const WsSeries *self, gint64 time, gsize from);
gboolean ws_series_summarize (const WsSeries *self, gsize from, gsize to, double *mean, float *max);
gssize ws_series_index_at (const WsSeries *self, gint64 time);

G_END_DECLS
