/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-stats"
#include "config.h"

#include <math.h>
#include <string.h>

#include "ws-hash.h"
#include "ws-kernel-names.h"
#include "ws-run-build.h"
#include "ws-sort.h"
#include "ws-stats-build.h"
#include "ws-stats.h"

/* Swaps a and b. */
static inline void
swap64 (gint64 *a, gint64 *b)
{
  gint64 t = *a;

  *a = *b;
  *b = t;
}

/* Moves the k-th smallest value to values[k], with no larger value before
 * it and no smaller after (Wirth's selection, median-of-three pivot):
 * O(n) on average. */
static void
select_kth (gint64 *values, gsize n, gsize k_)
{
  gssize lo = 0, hi = (gssize) n - 1, k = (gssize) k_;

  while (lo < hi)
    {
      gssize i = lo, j = hi;
      gint64 pivot;

      if (values[k] < values[lo])
        swap64 (&values[k], &values[lo]);
      if (values[hi] < values[lo])
        swap64 (&values[hi], &values[lo]);
      if (values[hi] < values[k])
        swap64 (&values[hi], &values[k]);
      pivot = values[k];

      do
        {
          while (values[i] < pivot)
            i++;
          while (pivot < values[j])
            j--;
          if (i <= j)
            {
              swap64 (&values[i], &values[j]);
              i++;
              j--;
            }
        }
      while (i <= j);

      if (j < k)
        lo = i;
      if (k < i)
        hi = j;
    }
}

/* Count, total, min, max, mean, median (the mean of the two middle values
 * for an even count) and sample standard deviation of @values, which it
 * reorders. */
void
ws_group_stats (gint64 *values, gsize n, WsGroupStats *out)
{
  gint64 total = 0;
  gint64 min = G_MAXINT64, max = G_MININT64;
  long double sum = 0, mean, sum_sq = 0;

  memset (out, 0, sizeof *out);
  if (n == 0)
    return;

  for (gsize i = 0; i < n; i++)
    {
      /* The total saturates; the mean comes from the exact sum. */
      if (__builtin_add_overflow (total, values[i], &total))
        total = values[i] > 0 ? G_MAXINT64 : G_MININT64;
      sum += (long double) values[i];
      min = MIN (min, values[i]);
      max = MAX (max, values[i]);
    }
  mean = sum / (long double) n;
  for (gsize i = 0; i < n; i++)
    {
      long double d = (long double) values[i] - mean;

      sum_sq += d * d;
    }

  out->count = (gint64) n;
  out->total = total;
  out->min = min;
  out->max = max;
  out->avg = (double) mean;
  out->stddev = n > 1 ? (double) sqrtl (sum_sq / (long double) (n - 1)) : 0.0;

  select_kth (values, n, n / 2);
  if (n % 2 == 1)
    out->med = (double) values[n / 2];
  else
    {
      gint64 below = G_MININT64;

      for (gsize i = 0; i < n / 2; i++)
        below = MAX (below, values[i]);
      out->med = ((double) below + (double) values[n / 2]) / 2.0;
    }
}

/* The grouping engine: @group[i] < @n_groups names the group of event i,
 * @value (start/end, or bytes) gives its value.  Values are scattered into
 * one buffer partitioned by group, then each partition is summarised. */
typedef gint64 (*ValueFunc) (gconstpointer data, gsize i);

static void
summarise_groups (WsSummary *summary, const guint32 *group, gsize n, guint n_groups,
                  ValueFunc value, gconstpointer data, char **names, char **styles,
                  const guint32 *name_ids)
{
  /* Group @n_groups holds what is left out of the summary. */
  g_autofree gsize *offset = g_new0 (gsize, n_groups + 2);
  g_autofree gsize *fill = g_new0 (gsize, n_groups + 2);
  g_autofree gint64 *buffer = g_new (gint64, MAX (n, 1));

  for (gsize i = 0; i < n; i++)
    offset[group[i] + 1]++;
  for (guint g = 0; g <= n_groups; g++)
    offset[g + 1] += offset[g];
  memcpy (fill, offset, sizeof (gsize) * (n_groups + 2));
  for (gsize i = 0; i < n; i++)
    buffer[fill[group[i]]++] = value (data, i);

  for (guint g = 0; g < n_groups; g++)
    {
      WsSummaryRow row = { 0 };
      WsGroupStats stats;

      if (offset[g + 1] == offset[g])
        continue;
      ws_group_stats (buffer + offset[g], offset[g + 1] - offset[g], &stats);
      row.name = g_steal_pointer (&names[g]);
      row.style = styles != NULL ? g_steal_pointer (&styles[g]) : NULL;
      row.name_id = name_ids != NULL ? name_ids[g] : WS_STRING_NONE;
      row.count = stats.count;
      row.total = stats.total;
      row.min = stats.min;
      row.max = stats.max;
      row.avg = stats.avg;
      row.med = stats.med;
      row.stddev = stats.stddev;
      g_array_append_val (summary->rows, row);
      if (summary->sketches != NULL)
        g_ptr_array_add (summary->sketches,
                         ws_sketch_new_from_values (buffer + offset[g], offset[g + 1] - offset[g]));
    }
  ws_summary_finish (summary);
}

static gint64
kernel_duration (gconstpointer data, gsize i)
{
  const WsKernels *k = data;

  return k->end[i] - k->start[i];
}

static WsSummary *
new_summary (WsSummaryKind kind, gboolean sketched)
{
  return sketched ? ws_summary_new_sketched (kind) : ws_summary_new (kind);
}

/* The kernel summary of kernels [@first, @last) of the run, those of
 * process @pid alone unless it is G_MAXUINT32 (WS_PID_ANY). */
static WsSummary *
summarise_kernels (const WsKernelNames *kernel_names, gsize first, gsize last, gboolean sketched,
                   guint32 pid)
{
  WsSummary *summary = new_summary (WS_SUMMARY_KERN_SUM, sketched);
  guint n_ids = ws_kernel_names_n_ids (kernel_names);
  g_autofree guint32 *group_of_name = g_new (guint32, n_ids + 1);
  g_autofree guint32 *group = g_new (guint32, MAX (last - first, 1));
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GArray) name_ids = g_array_new (FALSE, FALSE, sizeof (guint32));
  WsKernels view = kernel_names->run->kernels;

  summary->name_form = kernel_names->form;
  memset (group_of_name, 0xff, sizeof (guint32) * (n_ids + 1));
  for (gsize i = first; i < last; i++)
    {
      guint32 id = ws_kernel_names_id (kernel_names, i);
      guint32 slot = id < n_ids ? id : n_ids;

      if (pid != G_MAXUINT32 && view.stream != NULL &&
          g_array_index (kernel_names->run->streams, WsStream, view.stream[i]).pid != pid)
        {
          group[i - first] = G_MAXUINT32;
          continue;
        }
      if (group_of_name[slot] == G_MAXUINT32)
        {
          group_of_name[slot] = names->len;
          g_ptr_array_add (names, g_strdup (ws_kernel_names_get (kernel_names, id)));
          g_array_append_val (name_ids, id);
        }
      group[i - first] = group_of_name[slot];
    }
  for (gsize i = first; i < last; i++)
    if (group[i - first] == G_MAXUINT32)
      group[i - first] = names->len;

  view.start += first;
  view.end += first;
  /* Names with NVTX ranges are not the run's strings. */
  summarise_groups (summary, group, last - first, names->len, kernel_duration, &view,
                    (char **) names->pdata, NULL,
                    kernel_names->ids == NULL ? (const guint32 *) name_ids->data : NULL);
  return summary;
}

static WsSummary *
summarise_kernels_named (const WsRun *run, WsNameForm form, gsize first, gsize last,
                         gboolean sketched, guint32 pid)
{
  g_auto (WsKernelNames) names = { 0 };

  ws_kernel_names_init (&names, run, form);
  return summarise_kernels (&names, first, last, sketched, pid);
}

/* Drops a four-digit version suffix, as `nsys stats` does:
 * cudaMalloc_v3020 -> cudaMalloc, but cudaLaunchKernelExC_v11060 and
 * cuGetProcAddress_v2 stay as they are. */
char *
ws_api_base_name (const char *name)
{
  gsize len = strlen (name);

  if (len > 6 && name[len - 6] == '_' && name[len - 5] == 'v' && g_ascii_isdigit (name[len - 4]) &&
      g_ascii_isdigit (name[len - 3]) && g_ascii_isdigit (name[len - 2]) &&
      g_ascii_isdigit (name[len - 1]))
    return g_strndup (name, len - 6);
  return g_strdup (name);
}

static gint64
api_duration (gconstpointer data, gsize i)
{
  const WsApiCalls *a = data;

  return a->end[i] - a->start[i];
}

static WsSummary *
summarise_api (const WsRun *run, gboolean sketched)
{
  WsSummary *summary = new_summary (WS_SUMMARY_API_SUM, sketched);
  g_autoptr (GHashTable) by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) by_id = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autofree guint32 *group = g_new (guint32, MAX (run->api.n, 1));

  for (gsize i = 0; i < run->api.n; i++)
    {
      gpointer found = g_hash_table_lookup (by_id, GUINT_TO_POINTER (run->api.name[i] + 1));

      if (found == NULL)
        {
          char *base = ws_api_base_name (ws_run_string (run, run->api.name[i]));

          found = g_hash_table_lookup (by_name, base);
          if (found == NULL)
            {
              found = GUINT_TO_POINTER (names->len + 1);
              g_ptr_array_add (names, g_strdup (base));
              g_hash_table_insert (by_name, base, found);
            }
          else
            g_free (base);
          g_hash_table_insert (by_id, GUINT_TO_POINTER (run->api.name[i] + 1), found);
        }
      group[i] = GPOINTER_TO_UINT (found) - 1;
    }

  summarise_groups (summary, group, run->api.n, names->len, api_duration, &run->api,
                    (char **) names->pdata, NULL, NULL);
  return summary;
}

static gint64
osrt_duration (gconstpointer data, gsize i)
{
  const WsOsrtCalls *o = data;

  return o->end[i] - o->start[i];
}

/* osrt_sum: calls grouped by function name, as nsys's report groups
 * OSRT_API rows of event class 27 by nameId. */
static WsSummary *
summarise_osrt (const WsRun *run, gboolean sketched)
{
  WsSummary *summary = new_summary (WS_SUMMARY_OSRT_SUM, sketched);
  g_autoptr (GHashTable) by_id = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autofree guint32 *group = g_new (guint32, MAX (run->osrt.n, 1));

  for (gsize i = 0; i < run->osrt.n; i++)
    {
      gpointer found = g_hash_table_lookup (by_id, GUINT_TO_POINTER (run->osrt.name[i] + 1));

      if (found == NULL)
        {
          found = GUINT_TO_POINTER (names->len + 1);
          g_ptr_array_add (names, g_strdup (ws_run_string (run, run->osrt.name[i])));
          g_hash_table_insert (by_id, GUINT_TO_POINTER (run->osrt.name[i] + 1), found);
        }
      group[i] = GPOINTER_TO_UINT (found) - 1;
    }
  summarise_groups (summary, group, run->osrt.n, names->len, osrt_duration, &run->osrt,
                    (char **) names->pdata, NULL, NULL);
  return summary;
}

static gint64
nvtx_duration (gconstpointer data, gsize i)
{
  const WsNvtxRanges *r = data;

  return r->end[i] - r->start[i];
}

/**
 * ws_nvtx_op_name:
 *
 * The operator of a range that PyTorch's emit_nvtx() names:
 * "aten::addmm, seq = 6, op_id = 52" (with record_shapes also
 * ", sizes = [[8, 768], …]") is "aten::addmm".
 *
 * Returns: (transfer full) (nullable): the operator, or %NULL when @name
 * is not such a range
 */
char *
ws_nvtx_op_name (const char *name)
{
  static const char *const marks[] = { ", seq = ", ", op_id = ", ", sizes = " };
  const char *cut = NULL;

  for (gsize i = 0; i < G_N_ELEMENTS (marks); i++)
    {
      const char *at = strstr (name, marks[i]);

      if (at != NULL && (cut == NULL || at < cut))
        cut = at;
    }
  if (cut == NULL || cut == name)
    return NULL;
  return g_strndup (name, (gsize) (cut - name));
}

/**
 * ws_nvtx_has_op_ranges:
 * @run: (nullable): a run
 *
 * Whether PyTorch's emit_nvtx() named some range of @run after an op: where
 * grouping by operator means something.
 */
gboolean
ws_nvtx_has_op_ranges (const WsRun *run)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);

  for (gsize r = 0; run != NULL && r < run->nvtx.n; r++)
    {
      g_autofree char *op = NULL;

      if (!g_hash_table_add (seen, GUINT_TO_POINTER (run->nvtx.name[r] + 1)))
        continue;
      op = ws_nvtx_op_name (ws_run_string (run, run->nvtx.name[r]));
      if (op != NULL)
        return TRUE;
    }
  return FALSE;
}

static WsSummary *
summarise_nvtx_ops (const WsRun *run)
{
  WsSummary *summary = ws_summary_new (WS_SUMMARY_NVTX_SUM);
  g_autoptr (GHashTable) op_of = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr (GHashTable) groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) styles = g_ptr_array_new_with_free_func (g_free);
  g_autofree guint32 *group = g_new (guint32, MAX (run->nvtx.n, 1));

  for (gsize i = 0; i < run->nvtx.n; i++)
    {
      guint32 name = run->nvtx.name[i];
      const char *op;
      g_autofree char *key = NULL;
      gpointer found;

      if (!g_hash_table_contains (op_of, GUINT_TO_POINTER (name)))
        {
          char *text = ws_nvtx_op_name (ws_run_string (run, name));

          g_hash_table_insert (op_of, GUINT_TO_POINTER (name),
                               text != NULL ? text : g_strdup (ws_run_string (run, name)));
        }
      op = g_hash_table_lookup (op_of, GUINT_TO_POINTER (name));
      key = g_strdup_printf ("%s:%s\x1f%d", ws_run_nvtx_domain_name (run, run->nvtx.domain[i]), op,
                             run->nvtx.style[i] & 1);
      found = g_hash_table_lookup (groups, key);
      if (found == NULL)
        {
          found = GUINT_TO_POINTER (names->len + 1);
          g_ptr_array_add (
            names,
            g_strdup_printf ("%s:%s", ws_run_nvtx_domain_name (run, run->nvtx.domain[i]), op));
          g_ptr_array_add (
            styles, g_strdup (run->nvtx.style[i] == WS_NVTX_START_END ? "StartEnd" : "PushPop"));
          g_hash_table_insert (groups, g_steal_pointer (&key), found);
        }
      group[i] = GPOINTER_TO_UINT (found) - 1;
    }

  summarise_groups (summary, group, run->nvtx.n, names->len, nvtx_duration, &run->nvtx,
                    (char **) names->pdata, (char **) styles->pdata, NULL);
  return summary;
}

/**
 * ws_stats_compute_nvtx_ops:
 *
 * The NVTX summary with PyTorch's op ranges grouped by operator
 * (ws_nvtx_op_name()): "aten::addmm" once, with all its instances; other
 * ranges as nvtx_sum has them.
 *
 * Returns: (transfer full): the summary
 */
WsSummary *
ws_stats_compute_nvtx_ops (const WsRun *run)
{
  g_return_val_if_fail (run != NULL, NULL);

  return summarise_nvtx_ops (run);
}

static WsSummary *
summarise_nvtx (const WsRun *run, gboolean sketched)
{
  WsSummary *summary = new_summary (WS_SUMMARY_NVTX_SUM, sketched);
  g_autoptr (GHashTable) groups =
    g_hash_table_new_full (ws_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) styles = g_ptr_array_new_with_free_func (g_free);
  g_autofree guint32 *group = g_new (guint32, MAX (run->nvtx.n, 1));

  for (gsize i = 0; i < run->nvtx.n; i++)
    {
      /* name (32 bits), domain (16), style (1): one key per Range and Style. */
      gint64 key = ((gint64) run->nvtx.name[i] << 17) | ((gint64) run->nvtx.domain[i] << 1) |
                   (run->nvtx.style[i] & 1);
      gpointer found = g_hash_table_lookup (groups, &key);

      if (found == NULL)
        {
          found = GUINT_TO_POINTER (names->len + 1);
          g_ptr_array_add (
            names, g_strdup_printf ("%s:%s", ws_run_nvtx_domain_name (run, run->nvtx.domain[i]),
                                    ws_run_string (run, run->nvtx.name[i])));
          g_ptr_array_add (
            styles, g_strdup (run->nvtx.style[i] == WS_NVTX_START_END ? "StartEnd" : "PushPop"));
          g_hash_table_insert (groups, g_memdup2 (&key, sizeof key), found);
        }
      group[i] = GPOINTER_TO_UINT (found) - 1;
    }

  summarise_groups (summary, group, run->nvtx.n, names->len, nvtx_duration, &run->nvtx,
                    (char **) names->pdata, (char **) styles->pdata, NULL);
  return summary;
}

static gint64
memop_duration (gconstpointer data, gsize i)
{
  const WsMemops *m = data;

  return m->end[i] - m->start[i];
}

static gint64
memop_bytes (gconstpointer data, gsize i)
{
  const WsMemops *m = data;

  return (gint64) MIN (m->bytes[i], (guint64) G_MAXINT64);
}

static WsSummary *
summarise_memops (const WsRun *run, WsSummaryKind kind, gboolean sketched)
{
  WsSummary *summary = new_summary (kind, sketched);
  g_autofree guint32 *group = g_new (guint32, MAX (run->memops.n, 1));
  guint32 group_of_kind[256];
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

  memset (group_of_kind, 0xff, sizeof group_of_kind);
  for (gsize i = 0; i < run->memops.n; i++)
    {
      guint8 kind_i = run->memops.kind[i];

      if (group_of_kind[kind_i] == G_MAXUINT32)
        {
          group_of_kind[kind_i] = names->len;
          if (kind_i == WS_MEMOP_MEMSET)
            g_ptr_array_add (names, g_strdup ("[CUDA memset]"));
          else
            g_ptr_array_add (names,
                             g_strdup_printf ("[CUDA memcpy %s]", ws_memop_kind_label (kind_i)));
        }
      group[i] = group_of_kind[kind_i];
    }

  summarise_groups (summary, group, run->memops.n, names->len,
                    kind == WS_SUMMARY_MEM_SIZE_SUM ? memop_bytes : memop_duration, &run->memops,
                    (char **) names->pdata, NULL, NULL);
  return summary;
}

static WsSummary *
compute (const WsRun *run, WsSummaryKind kind, WsNameForm form, gboolean sketched)
{
  switch (kind)
    {
      case WS_SUMMARY_KERN_SUM:
        return summarise_kernels_named (run, form, 0, run->kernels.n, sketched, G_MAXUINT32);
      case WS_SUMMARY_NVTX_SUM:
        return summarise_nvtx (run, sketched);
      case WS_SUMMARY_API_SUM:
        return summarise_api (run, sketched);
      case WS_SUMMARY_MEM_TIME_SUM:
      case WS_SUMMARY_MEM_SIZE_SUM:
        return summarise_memops (run, kind, sketched);
      case WS_SUMMARY_OSRT_SUM:
        return summarise_osrt (run, sketched);
      case WS_N_SUMMARY_KINDS:
      default:
        g_return_val_if_reached (NULL);
    }
}

/**
 * ws_stats_compute:
 * @form: the kernel name form (kernel summary only)
 *
 * Returns: (transfer full): the summary @kind over the whole run.
 */
WsSummary *
ws_stats_compute (const WsRun *run, WsSummaryKind kind, WsNameForm form)
{
  g_return_val_if_fail (run != NULL, NULL);

  return compute (run, kind, form, FALSE);
}

/**
 * ws_stats_compute_sketched:
 *
 * The summary @kind with a quantile sketch of each row's values
 * (WsSummary.sketches): what a job digest keeps so that the medians of
 * several ranks merge.
 *
 * Returns: (transfer full): the summary
 */
WsSummary *
ws_stats_compute_sketched (const WsRun *run, WsSummaryKind kind, WsNameForm form)
{
  g_return_val_if_fail (run != NULL, NULL);

  return compute (run, kind, form, TRUE);
}

/**
 * ws_stats_compute_kernels:
 * @names: the name of each kernel, such as with its NVTX range
 *   (ws_kernel_names_init_nvtx())
 *
 * The kernel summary (cuda_gpu_kern_sum) over the kernels of @names's run,
 * grouped by those names.
 *
 * Returns: (transfer full): the summary
 */
WsSummary *
ws_stats_compute_kernels (const WsKernelNames *names)
{
  g_return_val_if_fail (names != NULL && names->run != NULL, NULL);

  return summarise_kernels (names, 0, names->run->kernels.n, FALSE, G_MAXUINT32);
}

/**
 * ws_stats_compute_kernels_in:
 *
 * The kernel summary of the kernels that start in [@from, @to).  Kernels
 * are sorted by start, so the range is two binary searches.
 *
 * Returns: (transfer full): the summary
 */
WsSummary *
ws_stats_compute_kernels_in (const WsRun *run, WsNameForm form, gint64 from, gint64 to)
{
  return ws_stats_compute_kernels_in_pid (run, form, G_MAXUINT32, from, to);
}

/**
 * ws_stats_compute_kernels_in_pid:
 * @pid: the process whose kernels count (a rank), or %WS_PID_ANY
 *
 * The kernel summary of the kernels of @pid that start in [@from, @to).
 *
 * Returns: (transfer full): the summary
 */
WsSummary *
ws_stats_compute_kernels_in_pid (const WsRun *run, WsNameForm form, guint32 pid, gint64 from,
                                 gint64 to)
{
  gsize first = ws_sort_lower_bound (run->kernels.start, 0, run->kernels.n, from);
  gsize last = ws_sort_lower_bound (run->kernels.start, 0, run->kernels.n, to);

  return summarise_kernels_named (run, form, first, MAX (first, last), FALSE, pid);
}

/* Computes the five summaries once, on the thread that built @run, before
 * the run is shared: a run is immutable once it reaches a window.  A
 * summary read from a stats CSV is kept. */
void
ws_stats_set_summaries (WsRun *run)
{
  for (guint kind = 0; kind < WS_N_SUMMARY_KINDS; kind++)
    if (ws_run_get_summary (run, kind) == NULL && ws_run_has_summary_data (run, kind))
      ws_run_set_summary (run, kind, ws_stats_compute (run, kind, WS_NAME_DEMANGLED));
}

/**
 * ws_stats_summary:
 *
 * The summary @kind with kernel names in @form: the one computed at load or
 * read from a stats CSV, or computed now from the events.
 *
 * Returns: (transfer full) (nullable): the summary, or %NULL when the run
 * has no such data.
 */
WsSummary *
ws_stats_summary (const WsRun *run, WsSummaryKind kind, WsNameForm form)
{
  gboolean events;

  g_return_val_if_fail (kind < WS_N_SUMMARY_KINDS, NULL);

  events = kind == WS_SUMMARY_KERN_SUM ? run->kernels.n > 0 : FALSE;
  if (run->summaries[kind] != NULL &&
      (form == WS_NAME_DEMANGLED || kind != WS_SUMMARY_KERN_SUM || !events))
    return ws_summary_ref (run->summaries[kind]);
  if (!ws_run_has_summary_data (run, kind))
    return NULL;
  return ws_stats_compute (run, kind, form);
}
