/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-summary"
#include "config.h"

#include <stdlib.h>

#include "ws-summary.h"

static const char *const kind_names[WS_N_SUMMARY_KINDS] = {
  "cuda_gpu_kern_sum",     "nvtx_sum", "cuda_api_sum", "cuda_gpu_mem_time_sum",
  "cuda_gpu_mem_size_sum", "osrt_sum",
};

const char *
ws_summary_kind_to_string (WsSummaryKind kind)
{
  g_return_val_if_fail (kind < WS_N_SUMMARY_KINDS, NULL);

  return kind_names[kind];
}

gboolean
ws_summary_kind_from_string (const char *str, WsSummaryKind *kind)
{
  for (guint i = 0; i < WS_N_SUMMARY_KINDS; i++)
    if (g_strcmp0 (str, kind_names[i]) == 0)
      {
        *kind = (WsSummaryKind) i;
        return TRUE;
      }
  return FALSE;
}

/* What `nsys stats` says when a summary has nothing to add up. */
const char *
ws_summary_kind_missing_data (WsSummaryKind kind)
{
  switch (kind)
    {
      case WS_SUMMARY_KERN_SUM:
        return "CUDA kernel data";
      case WS_SUMMARY_NVTX_SUM:
        return "NV Tools Extension (NVTX) data";
      case WS_SUMMARY_API_SUM:
        return "CUDA trace data";
      case WS_SUMMARY_MEM_TIME_SUM:
      case WS_SUMMARY_MEM_SIZE_SUM:
        return "GPU memory data";
      case WS_SUMMARY_OSRT_SUM:
        return "OS Runtime trace data";
      case WS_N_SUMMARY_KINDS:
      default:
        return "data";
    }
}

static void
summary_row_clear (gpointer data)
{
  WsSummaryRow *row = data;

  g_free (row->name);
  g_free (row->style);
}

/**
 * ws_summary_new:
 *
 * Returns: (transfer full): an empty summary of @kind.
 */
WsSummary *
ws_summary_new (WsSummaryKind kind)
{
  WsSummary *self = g_new0 (WsSummary, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->kind = kind;
  self->rows = g_array_new (FALSE, TRUE, sizeof (WsSummaryRow));
  g_array_set_clear_func (self->rows, summary_row_clear);
  return self;
}

/**
 * ws_summary_new_sketched:
 *
 * Returns: (transfer full): an empty summary of @kind whose rows each get
 * a quantile sketch of their values (@sketches), as a digest keeps them
 */
WsSummary *
ws_summary_new_sketched (WsSummaryKind kind)
{
  WsSummary *self = ws_summary_new (kind);

  self->sketches = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_sketch_free);
  return self;
}

/**
 * ws_summary_ref:
 *
 * Returns: (transfer full): @self
 */
WsSummary *
ws_summary_ref (WsSummary *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
ws_summary_unref (WsSummary *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_clear_pointer (&self->rows, g_array_unref);
  g_clear_pointer (&self->sketches, g_ptr_array_unref);
  g_free (self);
}

/* By total, largest first, then by name; an NVTX range of one name in
 * both styles by style, so that the order never depends on the export's
 * row order.  Kernels of equal totals come by instances, fewest first, as
 * cuda_gpu_kern_sum's SQL orders them (ORDER BY 2 DESC, 3, "Name"). */
static int
compare_rows (gconstpointer a, gconstpointer b, gpointer data)
{
  const WsSummaryRow *x = a, *y = b;
  const WsSummary *summary = data;
  int c;

  if (x->total != y->total)
    return x->total > y->total ? -1 : 1;
  if (summary->kind == WS_SUMMARY_KERN_SUM && x->count != y->count)
    return x->count < y->count ? -1 : 1;
  c = g_strcmp0 (x->name, y->name);
  return c != 0 ? c : g_strcmp0 (x->style, y->style);
}

typedef struct
{
  const WsSummary *summary;
  guint index;
} Slot;

static int
compare_slots (gconstpointer a, gconstpointer b)
{
  const Slot *x = a, *y = b;
  const WsSummaryRow *rows = (const WsSummaryRow *) (gconstpointer) x->summary->rows->data;

  return compare_rows (&rows[x->index], &rows[y->index], (gpointer) x->summary);
}

void
ws_summary_sort (WsSummary *self)
{
  g_autofree Slot *slots = NULL;
  GArray *rows;
  GPtrArray *sketches;
  guint n = self->rows->len;

  if (self->sketches == NULL)
    {
      g_array_sort_with_data (self->rows, compare_rows, self);
      return;
    }
  /* Rows and their sketches move together. */
  g_assert (self->sketches->len == n);
  slots = g_new (Slot, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    slots[i] = (Slot){ self, i };
  qsort (slots, n, sizeof (Slot), compare_slots);
  rows = g_array_sized_new (FALSE, TRUE, sizeof (WsSummaryRow), n);
  sketches = g_ptr_array_new_full (n, (GDestroyNotify) ws_sketch_free);
  for (guint i = 0; i < n; i++)
    {
      g_array_append_val (rows, g_array_index (self->rows, WsSummaryRow, slots[i].index));
      g_ptr_array_add (sketches, g_ptr_array_index (self->sketches, slots[i].index));
    }
  /* The rows' strings and the sketches now belong to the new arrays. */
  g_array_set_clear_func (self->rows, NULL);
  g_array_unref (self->rows);
  g_ptr_array_set_free_func (self->sketches, NULL);
  g_ptr_array_unref (self->sketches);
  g_array_set_clear_func (rows, summary_row_clear);
  self->rows = rows;
  self->sketches = sketches;
}

/* Fills the grand total and each row's share of it, and sorts. */
void
ws_summary_finish (WsSummary *self)
{
  gint64 grand = 0;

  for (guint i = 0; i < self->rows->len; i++)
    {
      WsSummaryRow *row = &g_array_index (self->rows, WsSummaryRow, i);

      if (__builtin_add_overflow (grand, row->total, &grand))
        grand = G_MAXINT64;
    }
  self->grand_total = grand;
  for (guint i = 0; i < self->rows->len; i++)
    {
      WsSummaryRow *row = &g_array_index (self->rows, WsSummaryRow, i);

      row->percent = grand != 0 ? (double) row->total / (double) grand * 100.0 : 0.0;
    }
  ws_summary_sort (self);
}

/**
 * ws_summary_find:
 *
 * Returns: (transfer none) (nullable): the row named @name.
 */
const WsSummaryRow *
ws_summary_find (const WsSummary *self, const char *name)
{
  for (guint i = 0; i < self->rows->len; i++)
    {
      const WsSummaryRow *row = &g_array_index (self->rows, WsSummaryRow, i);

      if (g_strcmp0 (row->name, name) == 0)
        return row;
    }
  return NULL;
}

/**
 * ws_summary_count:
 *
 * Returns: the instances of all rows: a kernel summary's launches, as its
 * bars count them, whether it was computed from events or read from a
 * table (nvprof, `nsys stats`).
 */
gint64
ws_summary_count (const WsSummary *self)
{
  gint64 count = 0;

  g_return_val_if_fail (self != NULL, 0);

  for (guint i = 0; i < self->rows->len; i++)
    count += g_array_index (self->rows, WsSummaryRow, i).count;
  return count;
}
