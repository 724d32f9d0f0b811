/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A mergeable quantile sketch of non-negative integers (durations in ns,
 * sizes in bytes): what a job digest keeps of a summary row so that the
 * median of several ranks' rows together can be computed without their
 * events (docs/digest.md, "Medians").
 *
 * Up to WS_SKETCH_EXACT values are kept as they are: quantiles are then
 * exact, and stay exact through merges while the merged count stays within
 * that bound.  Beyond it, values are counted in logarithmic buckets
 * (DDSketch): bucket i holds the values in (γ^(i−1), γ^i] with
 * γ = (1 + α) / (1 − α), and stands for 2γ^i / (γ + 1), which is within a
 * relative error α of every value in it.  A quantile read from the buckets
 * is therefore within α (0.5%) of the true value of that rank, and merging
 * (adding the counts of equal buckets) keeps that bound.  At most
 * WS_SKETCH_MAX_BUCKETS buckets are kept: past that the lowest ones are
 * folded together (a spread of more than 4 decades), which keeps the bound
 * for every quantile above the folded values. */

#define WS_SKETCH_ALPHA 0.005
#define WS_SKETCH_EXACT 64
#define WS_SKETCH_MAX_BUCKETS 1024

typedef struct _WsSketch WsSketch;

WsSketch *ws_sketch_new (void);
WsSketch *ws_sketch_new_from_values (gint64 *values, gsize n);
WsSketch *ws_sketch_copy (const WsSketch *self);
void ws_sketch_free (WsSketch *self);

void ws_sketch_add (WsSketch *self, gint64 value);
void ws_sketch_merge (WsSketch *self, const WsSketch *other);

guint64 ws_sketch_count (const WsSketch *self);
gboolean ws_sketch_is_exact (const WsSketch *self);
guint ws_sketch_n_buckets (const WsSketch *self);
double ws_sketch_value_at (const WsSketch *self, guint64 rank);
double ws_sketch_median (const WsSketch *self);

GBytes *ws_sketch_serialize (const WsSketch *self);
WsSketch *ws_sketch_deserialize (const guint8 *data, gsize len);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsSketch, ws_sketch_free)

G_END_DECLS
