/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-run-merge"
#include "config.h"

#include <string.h>

#include "ws-cpu-profile.h"
#include "ws-run-build.h"
#include "ws-run-merge.h"

/* The row of the merged table each source row goes to is found once per
 * table by a k-way merge of the sources (each already sorted); then each
 * column is gathered in that order and its sources freed. */
typedef struct
{
  gsize n;
  guint16 *run; /* per merged row: the source run */
  guint32 *row; /* per merged row: the row in it */
} Order;

static void
order_clear (Order *order)
{
  g_clear_pointer (&order->run, g_free);
  g_clear_pointer (&order->row, g_free);
}

typedef struct
{
  gint64 start;
  gint64 end;
  guint run;
} HeapItem;

/* Earlier start first, then the later end (an enclosing range first), then
 * the earlier run: the order readers leave tables in. */
static gboolean
heap_less (const HeapItem *a, const HeapItem *b)
{
  if (a->start != b->start)
    return a->start < b->start;
  if (a->end != b->end)
    return a->end > b->end;
  return a->run < b->run;
}

static void
heap_down (HeapItem *heap, guint n, guint i)
{
  for (;;)
    {
      guint l = 2 * i + 1, r = l + 1, m = i;
      HeapItem tmp;

      if (l < n && heap_less (&heap[l], &heap[m]))
        m = l;
      if (r < n && heap_less (&heap[r], &heap[m]))
        m = r;
      if (m == i)
        return;
      tmp = heap[i];
      heap[i] = heap[m];
      heap[m] = tmp;
      i = m;
    }
}

/* @starts[k] (and @ends[k], which may be NULL) of @ns[k] rows each, sorted;
 * times are compared after adding @offsets[k]. */
static void
merge_order (Order *order, gint64 *const *starts, gint64 *const *ends, const gsize *ns,
             const gint64 *offsets, guint k)
{
  g_autofree HeapItem *heap = g_new (HeapItem, MAX (k, 1));
  g_autofree gsize *next = g_new0 (gsize, MAX (k, 1));
  guint n_heap = 0;
  gsize total = 0;

  for (guint r = 0; r < k; r++)
    {
      total += ns[r];
      if (ns[r] == 0)
        continue;
      heap[n_heap].start = starts[r][0] + offsets[r];
      heap[n_heap].end = ends[r] != NULL ? ends[r][0] + offsets[r] : 0;
      heap[n_heap].run = r;
      n_heap++;
    }
  for (guint i = n_heap / 2; i-- > 0;)
    heap_down (heap, n_heap, i);

  order->n = total;
  order->run = g_new (guint16, MAX (total, 1));
  order->row = g_new (guint32, MAX (total, 1));
  for (gsize i = 0; i < total; i++)
    {
      guint r = heap[0].run;
      gsize row = next[r]++;

      order->run[i] = (guint16) r;
      order->row[i] = (guint32) row;
      if (next[r] < ns[r])
        {
          heap[0].start = starts[r][next[r]] + offsets[r];
          heap[0].end = ends[r] != NULL ? ends[r][next[r]] + offsets[r] : 0;
        }
      else
        heap[0] = heap[--n_heap];
      heap_down (heap, n_heap, 0);
    }
}

/* How a column's values change on the way: shifted in time, mapped
 * through a table (string ids, domains), moved by a base (indices into
 * concatenated arrays), or copied. */
typedef enum
{
  COPY,
  SHIFT,
  MAP,
  BASE,
} Transform;

typedef struct
{
  WsRun *const *runs;
  guint n;
  const gint64 *offsets;
  guint32 **strings;     /* per run: its string id -> ours */
  guint32 **domains;     /* per run: its domain index -> ours */
  guint32 **thread_maps; /* per run: its thread index -> ours */
  gboolean one_process;  /* views of one run: pids and threads shared (ws_run_merge_views()) */
  guint32 *stream_base;  /* per run: where its streams start */
  guint32 *config_base;  /* per run: where its launch configurations start */
  GHashTable **devices;  /* per run: its device id + 1 -> ours + 1 */
  guint32 **replays;     /* per run: its replay index -> ours */
} MergeMaps;

static guint32
map_value (guint32 value, const guint32 *table)
{
  return value == WS_STRING_NONE || table == NULL ? value : table[value];
}

/* Gathers one column of @size-byte values from the runs' @cols (a NULL
 * source gives zeros, or WS_STRING_NONE under MAP) and frees the sources. */
static gpointer
gather (const Order *order, gpointer *cols, gsize size, Transform transform, guint32 *const *tables,
        const guint32 *bases, const gint64 *offsets, guint k)
{
  gboolean any = FALSE;
  guint8 *dest;

  for (guint r = 0; r < k; r++)
    any = any || cols[r] != NULL;
  if (!any)
    return NULL;
  dest = g_malloc0 (size * MAX (order->n, 1));
  for (gsize i = 0; i < order->n; i++)
    {
      guint r = order->run[i];
      const guint8 *src = cols[r];
      gsize row = order->row[i];

      if (src == NULL)
        {
          if (transform == MAP && size == sizeof (guint32))
            ((guint32 *) dest)[i] = WS_STRING_NONE;
          continue;
        }
      switch (transform)
        {
          case SHIFT:
            ((gint64 *) dest)[i] = ((const gint64 *) src)[row] + offsets[r];
            break;
          case MAP:
            if (size == sizeof (guint16))
              ((guint16 *) dest)[i] = (guint16) map_value (((const guint16 *) src)[row], tables[r]);
            else
              ((guint32 *) dest)[i] = map_value (((const guint32 *) src)[row], tables[r]);
            break;
          case BASE:
            ((guint32 *) dest)[i] = ((const guint32 *) src)[row] + bases[r];
            break;
          case COPY:
          default:
            memcpy (dest + i * size, src + row * size, size);
            break;
        }
    }
  for (guint r = 0; r < k; r++)
    g_clear_pointer (&cols[r], g_free);
  return dest;
}

/* The columns of one table, as pointers into each run's struct. */
#define COLUMNS(field, member)                                                                     \
  G_STMT_START                                                                                     \
  {                                                                                                \
    for (guint r = 0; r < m->n; r++)                                                               \
      cols[r] = m->runs[r]->field.member;                                                          \
  }                                                                                                \
  G_STMT_END

#define CLEAR_COLUMNS(field, member)                                                               \
  G_STMT_START                                                                                     \
  {                                                                                                \
    for (guint r = 0; r < m->n; r++)                                                               \
      m->runs[r]->field.member = NULL;                                                             \
  }                                                                                                \
  G_STMT_END

#define GATHER(dest, field, member, type, transform, tables, bases)                                \
  G_STMT_START                                                                                     \
  {                                                                                                \
    COLUMNS (field, member);                                                                       \
    CLEAR_COLUMNS (field, member);                                                                 \
    (dest)->member =                                                                               \
      gather (&order, cols, sizeof (type), transform, tables, bases, m->offsets, m->n);            \
  }                                                                                                \
  G_STMT_END

static void
table_order (Order *order, const MergeMaps *m, gint64 *const *starts, gint64 *const *ends,
             const gsize *ns)
{
  merge_order (order, starts, ends, ns, m->offsets, m->n);
}

/* First of the GPU work: the kernels and memory operations name their
 * replay by its merged index. */
static void
merge_replays (WsRun *out, const MergeMaps *m, gpointer *cols)
{
  g_autofree gint64 **starts = g_new0 (gint64 *, m->n);
  g_autofree gint64 **ends = g_new0 (gint64 *, m->n);
  g_autofree gsize *ns = g_new0 (gsize, m->n);
  Order order = { 0 };

  for (guint r = 0; r < m->n; r++)
    {
      starts[r] = m->runs[r]->replays.start;
      ends[r] = m->runs[r]->replays.end;
      ns[r] = m->runs[r]->replays.n;
      m->replays[r] = g_new0 (guint32, MAX (ns[r], 1));
      out->has_graph_trace |= m->runs[r]->has_graph_trace;
    }
  table_order (&order, m, starts, ends, ns);
  for (gsize i = 0; i < order.n; i++)
    m->replays[order.run[i]][order.row[i]] = (guint32) i;
  out->replays.n = order.n;
  GATHER (&out->replays, replays, start, gint64, SHIFT, NULL, NULL);
  GATHER (&out->replays, replays, end, gint64, SHIFT, NULL, NULL);
  GATHER (&out->replays, replays, stream, guint32, BASE, NULL, m->stream_base);
  GATHER (&out->replays, replays, correlation, guint32, COPY, NULL, NULL);
  GATHER (&out->replays, replays, graph, guint32, COPY, NULL, NULL);
  GATHER (&out->replays, replays, nodes, guint32, COPY, NULL, NULL);
  order_clear (&order);
}

static void
merge_kernels (WsRun *out, const MergeMaps *m, gpointer *cols)
{
  g_autofree gint64 **starts = g_new0 (gint64 *, m->n);
  g_autofree gint64 **ends = g_new0 (gint64 *, m->n);
  g_autofree gsize *ns = g_new0 (gsize, m->n);
  Order order = { 0 };
  guint columns = G_MAXUINT;

  for (guint r = 0; r < m->n; r++)
    {
      starts[r] = m->runs[r]->kernels.start;
      ends[r] = m->runs[r]->kernels.end;
      ns[r] = m->runs[r]->kernels.n;
      if (ns[r] > 0)
        columns &= m->runs[r]->kernels.columns;
    }
  table_order (&order, m, starts, ends, ns);
  out->kernels.n = order.n;
  out->kernels.columns = columns == G_MAXUINT ? 0 : columns;
  GATHER (&out->kernels, kernels, start, gint64, SHIFT, NULL, NULL);
  GATHER (&out->kernels, kernels, end, gint64, SHIFT, NULL, NULL);
  GATHER (&out->kernels, kernels, demangled, guint32, MAP, m->strings, NULL);
  GATHER (&out->kernels, kernels, short_name, guint32, MAP, m->strings, NULL);
  GATHER (&out->kernels, kernels, mangled, guint32, MAP, m->strings, NULL);
  GATHER (&out->kernels, kernels, stream, guint32, BASE, NULL, m->stream_base);
  GATHER (&out->kernels, kernels, correlation, guint32, COPY, NULL, NULL);
  GATHER (&out->kernels, kernels, config, guint32, BASE, NULL, m->config_base);
  GATHER (&out->kernels, kernels, replay, guint32, MAP, m->replays, NULL);
  order_clear (&order);
}

static void
merge_memops (WsRun *out, const MergeMaps *m, gpointer *cols)
{
  g_autofree gint64 **starts = g_new0 (gint64 *, m->n);
  g_autofree gint64 **ends = g_new0 (gint64 *, m->n);
  g_autofree gsize *ns = g_new0 (gsize, m->n);
  Order order = { 0 };

  for (guint r = 0; r < m->n; r++)
    {
      starts[r] = m->runs[r]->memops.start;
      ends[r] = m->runs[r]->memops.end;
      ns[r] = m->runs[r]->memops.n;
    }
  table_order (&order, m, starts, ends, ns);
  out->memops.n = order.n;
  GATHER (&out->memops, memops, start, gint64, SHIFT, NULL, NULL);
  GATHER (&out->memops, memops, end, gint64, SHIFT, NULL, NULL);
  GATHER (&out->memops, memops, bytes, guint64, COPY, NULL, NULL);
  GATHER (&out->memops, memops, kind, guint8, COPY, NULL, NULL);
  GATHER (&out->memops, memops, src_kind, guint8, COPY, NULL, NULL);
  GATHER (&out->memops, memops, dst_kind, guint8, COPY, NULL, NULL);
  GATHER (&out->memops, memops, stream, guint32, BASE, NULL, m->stream_base);
  GATHER (&out->memops, memops, correlation, guint32, COPY, NULL, NULL);
  GATHER (&out->memops, memops, replay, guint32, MAP, m->replays, NULL);
  order_clear (&order);
}

static void
merge_api (WsRun *out, const MergeMaps *m, gpointer *cols)
{
  g_autofree gint64 **starts = g_new0 (gint64 *, m->n);
  g_autofree gint64 **ends = g_new0 (gint64 *, m->n);
  g_autofree gsize *ns = g_new0 (gsize, m->n);
  Order order = { 0 };

  for (guint r = 0; r < m->n; r++)
    {
      starts[r] = m->runs[r]->api.start;
      ends[r] = m->runs[r]->api.end;
      ns[r] = m->runs[r]->api.n;
    }
  table_order (&order, m, starts, ends, ns);
  out->api.n = order.n;
  GATHER (&out->api, api, start, gint64, SHIFT, NULL, NULL);
  GATHER (&out->api, api, end, gint64, SHIFT, NULL, NULL);
  GATHER (&out->api, api, name, guint32, MAP, m->strings, NULL);
  GATHER (&out->api, api, thread, guint32, MAP, m->thread_maps, NULL);
  GATHER (&out->api, api, correlation, guint32, COPY, NULL, NULL);
  GATHER (&out->api, api, return_value, gint32, COPY, NULL, NULL);
  order_clear (&order);
}

static void
merge_nvtx (WsRun *out, const MergeMaps *m, gpointer *cols)
{
  g_autofree gint64 **starts = g_new0 (gint64 *, m->n);
  g_autofree gint64 **ends = g_new0 (gint64 *, m->n);
  g_autofree gsize *ns = g_new0 (gsize, m->n);
  Order order = { 0 };

  for (guint r = 0; r < m->n; r++)
    {
      starts[r] = m->runs[r]->nvtx.start;
      ends[r] = m->runs[r]->nvtx.end;
      ns[r] = m->runs[r]->nvtx.n;
    }
  table_order (&order, m, starts, ends, ns);
  out->nvtx.n = order.n;
  GATHER (&out->nvtx, nvtx, start, gint64, SHIFT, NULL, NULL);
  GATHER (&out->nvtx, nvtx, end, gint64, SHIFT, NULL, NULL);
  GATHER (&out->nvtx, nvtx, name, guint32, MAP, m->strings, NULL);
  GATHER (&out->nvtx, nvtx, thread, guint32, MAP, m->thread_maps, NULL);
  GATHER (&out->nvtx, nvtx, color, guint32, COPY, NULL, NULL);
  GATHER (&out->nvtx, nvtx, domain, guint16, MAP, m->domains, NULL);
  /* Depth is a row within the range's own thread: threads stay apart. */
  GATHER (&out->nvtx, nvtx, depth, guint16, COPY, NULL, NULL);
  GATHER (&out->nvtx, nvtx, style, guint8, COPY, NULL, NULL);
  order_clear (&order);

  for (guint r = 0; r < m->n; r++)
    {
      starts[r] = m->runs[r]->marks.time;
      ends[r] = NULL;
      ns[r] = m->runs[r]->marks.n;
    }
  table_order (&order, m, starts, ends, ns);
  out->marks.n = order.n;
  GATHER (&out->marks, marks, time, gint64, SHIFT, NULL, NULL);
  GATHER (&out->marks, marks, name, guint32, MAP, m->strings, NULL);
  GATHER (&out->marks, marks, thread, guint32, MAP, m->thread_maps, NULL);
  GATHER (&out->marks, marks, color, guint32, COPY, NULL, NULL);
  GATHER (&out->marks, marks, domain, guint16, MAP, m->domains, NULL);
  order_clear (&order);
}

static void
merge_osrt (WsRun *out, const MergeMaps *m, gpointer *cols)
{
  g_autofree gint64 **starts = g_new0 (gint64 *, m->n);
  g_autofree gint64 **ends = g_new0 (gint64 *, m->n);
  g_autofree gsize *ns = g_new0 (gsize, m->n);
  Order order = { 0 };

  for (guint r = 0; r < m->n; r++)
    {
      starts[r] = m->runs[r]->osrt.start;
      ends[r] = m->runs[r]->osrt.end;
      ns[r] = m->runs[r]->osrt.n;
      out->has_osrt_table |= m->runs[r]->has_osrt_table;
    }
  table_order (&order, m, starts, ends, ns);
  out->osrt.n = order.n;
  GATHER (&out->osrt, osrt, start, gint64, SHIFT, NULL, NULL);
  GATHER (&out->osrt, osrt, end, gint64, SHIFT, NULL, NULL);
  GATHER (&out->osrt, osrt, name, guint32, MAP, m->strings, NULL);
  GATHER (&out->osrt, osrt, thread, guint32, MAP, m->thread_maps, NULL);
  order_clear (&order);
}

static gint32
map_device (GHashTable *devices, gint32 device)
{
  gpointer found = g_hash_table_lookup (devices, GINT_TO_POINTER ((gintptr) device + 1));

  return found != NULL ? GPOINTER_TO_INT (found) - 1 : device;
}

static void
merge_mem_usage (WsRun *out, const MergeMaps *m, gpointer *cols)
{
  g_autofree gint64 **starts = g_new0 (gint64 *, m->n);
  g_autofree gsize *ns = g_new0 (gsize, m->n);
  g_autofree gint64 **ends = g_new0 (gint64 *, m->n);
  Order order = { 0 };

  for (guint r = 0; r < m->n; r++)
    {
      WsMemUsage *usage = &m->runs[r]->mem_usage;

      starts[r] = usage->time;
      ns[r] = usage->n;
      for (gsize i = 0; usage->device != NULL && i < usage->n; i++)
        usage->device[i] = map_device (m->devices[r], usage->device[i]);
    }
  table_order (&order, m, starts, ends, ns);
  out->mem_usage.n = order.n;
  GATHER (&out->mem_usage, mem_usage, time, gint64, SHIFT, NULL, NULL);
  GATHER (&out->mem_usage, mem_usage, bytes, gint64, COPY, NULL, NULL);
  GATHER (&out->mem_usage, mem_usage, device, gint32, COPY, NULL, NULL);
  GATHER (&out->mem_usage, mem_usage, mem_kind, guint8, COPY, NULL, NULL);
  order_clear (&order);
}

/* Metric samples stay grouped by metric: the runs' groups one after the
 * other, each metric pointing at its own. */
static void
merge_metrics (WsRun *out, const MergeMaps *m)
{
  gsize total = 0, at = 0;

  for (guint r = 0; r < m->n; r++)
    total += m->runs[r]->metric_samples.n;
  out->metric_samples.n = total;
  if (total == 0)
    return;
  out->metric_samples.time = g_new (gint64, total);
  out->metric_samples.value = g_new (float, total);
  for (guint r = 0; r < m->n; r++)
    {
      WsRun *run = m->runs[r];

      for (guint i = 0; i < run->metrics->len; i++)
        {
          WsGpuMetric metric = g_array_index (run->metrics, WsGpuMetric, i);

          metric.first += at;
          metric.name = map_value (metric.name, m->strings[r]);
          /* Sources of other exports are other GPUs. */
          metric.type_id = ((gint64) r << 40) | (metric.type_id & G_GINT64_CONSTANT (0xffffffffff));
          g_array_append_val (out->metrics, metric);
        }
      for (gsize i = 0; i < run->metric_samples.n; i++)
        {
          out->metric_samples.time[at + i] = run->metric_samples.time[i] + m->offsets[r];
          out->metric_samples.value[at + i] = run->metric_samples.value[i];
        }
      at += run->metric_samples.n;
      g_clear_pointer (&run->metric_samples.time, g_free);
      g_clear_pointer (&run->metric_samples.value, g_free);
    }
}

/* A GPU is (host, device id) (docs/NOTES.md, "A GPU is (host, device
 * id)"): the same GPU in two exports when its host and UUID (or bus, where
 * the export has no UUID) agree, else when its host and device id do;
 * in views of one process, when its device id does. */
static char *
gpu_identity (const MergeMaps *m, const char *host, const WsGpu *gpu)
{
  /* Views of one process: one machine, one CUDA numbering. */
  if (m->one_process)
    return g_strdup_printf ("%s/#%d", host, gpu->id);
  if (gpu->uuid != NULL && *gpu->uuid != '\0')
    return g_strdup_printf ("%s/%s", host, gpu->uuid);
  if (gpu->bus_location != NULL && *gpu->bus_location != '\0')
    return g_strdup_printf ("%s/%s", host, gpu->bus_location);
  return g_strdup_printf ("%s/#%d", host, gpu->id);
}

/* The GPUs a run describes, as text: what a PyTorch profiler trace, which
 * names no host, knows of its machine ("deviceProperties"). */
static char *
gpus_signature (const WsRun *run)
{
  GString *out = g_string_new ("gpus:");

  for (guint g = 0; g < run->prov.gpus->len; g++)
    {
      const WsGpu *gpu = &g_array_index (run->prov.gpus, WsGpu, g);

      g_string_append_printf (out, "%d|%s|%" G_GINT64_FORMAT "|%d.%d|%d;", gpu->id,
                              gpu->name != NULL ? gpu->name : "", gpu->memory_bytes, gpu->cc_major,
                              gpu->cc_minor, gpu->sm_count);
    }
  return g_string_free (out, FALSE);
}

static gboolean
devices_meet (GArray *a, GArray *b)
{
  for (guint i = 0; i < a->len; i++)
    for (guint j = 0; j < b->len; j++)
      if (g_array_index (a, gint32, i) == g_array_index (b, gint32, j))
        return TRUE;
  return FALSE;
}

/* A host of runs that name none, known by the GPUs they describe. */
typedef struct
{
  char *signature;
  GArray *used; /* gint32: the devices its NCCL ranks ran on */
  char *key;
} MergeHost;

static void
merge_host_free (gpointer data)
{
  MergeHost *host = data;

  g_free (host->signature);
  g_array_unref (host->used);
  g_free (host->key);
  g_free (host);
}

/* Each run's host, as a key: the host its export names; for runs that name
 * none and describe their GPUs (PyTorch profiler traces), the GPUs they
 * describe: runs that describe the same GPUs are on one host, except that
 * an NCCL rank that ran on a device another NCCL rank of that host ran on
 * is on another host of the same kind (NCCL refuses two ranks of one
 * communicator on one GPU; multi-node jobs number devices per node).  A
 * run that names no host and describes no GPU is a host of its own; views
 * of one run are one host. */
static char **
host_keys (const MergeMaps *m)
{
  char **keys = g_new0 (char *, m->n + 1);
  g_autoptr (GPtrArray) hosts = g_ptr_array_new_with_free_func (merge_host_free);

  for (guint r = 0; r < m->n; r++)
    {
      const WsRun *run = m->runs[r];
      g_autofree char *signature = NULL;
      g_autoptr (GArray) used = NULL;
      gboolean nccl = g_strcmp0 (run->prov.dist_backend, "nccl") == 0;
      MergeHost *host = NULL;

      if (m->one_process)
        keys[r] = g_strdup ("view");
      else if (run->prov.host != NULL && *run->prov.host != '\0')
        keys[r] = g_strdup (run->prov.host);
      else if (run->prov.gpus->len == 0)
        keys[r] = g_strdup_printf ("#%u", r);
      if (keys[r] != NULL)
        continue;
      signature = gpus_signature (run);
      used = ws_run_devices_used (run, WS_RUN_ANY_PID);
      for (guint h = 0; h < hosts->len && host == NULL; h++)
        {
          MergeHost *candidate = g_ptr_array_index (hosts, h);

          if (g_str_equal (candidate->signature, signature) &&
              !(nccl && devices_meet (candidate->used, used)))
            host = candidate;
        }
      if (host == NULL)
        {
          host = g_new0 (MergeHost, 1);
          host->signature = g_strdup (signature);
          host->used = g_array_new (FALSE, FALSE, sizeof (gint32));
          host->key = g_strdup_printf ("%s#%u", signature, hosts->len);
          g_ptr_array_add (hosts, host);
        }
      if (nccl)
        g_array_append_vals (host->used, used->data, used->len);
      keys[r] = g_strdup (host->key);
    }
  return keys;
}

/* The id a GPU gets in the merged run: its own device id, as its export
 * and nvidia-smi number it, unless another GPU (of another host) holds
 * that id already; then the next id free. */
static gint32
merged_gpu_id (GHashTable *taken, gint32 own)
{
  gint32 id = own;

  if (g_hash_table_contains (taken, GINT_TO_POINTER ((gintptr) id + 1)))
    {
      id = 0;
      while (g_hash_table_contains (taken, GINT_TO_POINTER ((gintptr) id + 1)))
        id++;
    }
  g_hash_table_add (taken, GINT_TO_POINTER ((gintptr) id + 1));
  return id;
}

/* The merged run's id of the GPU @key, which the run calls @own: the id
 * it got already, or a new one with @gpu's description (a GPU known by
 * its id alone where @gpu is %NULL). */
static gint32
merged_gpu (WsRun *out, GHashTable *known, GHashTable *taken, char *key, gint32 own,
            const WsGpu *gpu)
{
  gpointer found = g_hash_table_lookup (known, key);
  WsGpu copy = { 0 };

  if (found != NULL)
    {
      g_free (key);
      return GPOINTER_TO_INT (found) - 1;
    }
  if (gpu != NULL)
    {
      copy = *gpu;
      copy.name = g_strdup (gpu->name);
      copy.bus_location = g_strdup (gpu->bus_location);
      copy.chip = g_strdup (gpu->chip);
      copy.uuid = g_strdup (gpu->uuid);
    }
  else
    copy.name = g_strdup_printf ("GPU %d", own);
  copy.id = merged_gpu_id (taken, own);
  g_array_append_val (out->prov.gpus, copy);
  g_hash_table_insert (known, key, GINT_TO_POINTER ((gintptr) copy.id + 1));
  return copy.id;
}

/* Each rank's GPUs keep their own ids (issue 30): rank 3 on device 3 is
 * GPU 3 in every table, finding and lane, whatever order the exports
 * list their GPUs in; the GPUs of ranks of one host are listed once
 * (issue 40). */
static void
merge_gpus (WsRun *out, MergeMaps *m)
{
  g_autoptr (GHashTable) known = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) taken = g_hash_table_new (NULL, NULL);
  g_auto (GStrv) hosts = host_keys (m);

  for (guint r = 0; r < m->n; r++)
    {
      WsRun *run = m->runs[r];

      m->devices[r] = g_hash_table_new (NULL, NULL);
      for (guint g = 0; g < run->prov.gpus->len; g++)
        {
          const WsGpu *gpu = &g_array_index (run->prov.gpus, WsGpu, g);
          gint32 ours =
            merged_gpu (out, known, taken, gpu_identity (m, hosts[r], gpu), gpu->id, gpu);

          g_hash_table_insert (m->devices[r], GINT_TO_POINTER ((gintptr) gpu->id + 1),
                               GINT_TO_POINTER ((gintptr) ours + 1));
        }
      /* Devices the export ran on without describing them: by their id. */
      for (guint s = 0; s < run->streams->len; s++)
        {
          gint32 device = g_array_index (run->streams, WsStream, s).device_id;
          WsGpu bare = { 0 };
          gint32 ours;

          if (g_hash_table_contains (m->devices[r], GINT_TO_POINTER ((gintptr) device + 1)))
            continue;
          bare.id = device;
          ours = merged_gpu (out, known, taken, gpu_identity (m, hosts[r], &bare), device, NULL);
          g_hash_table_insert (m->devices[r], GINT_TO_POINTER ((gintptr) device + 1),
                               GINT_TO_POINTER ((gintptr) ours + 1));
        }
    }
}

/* @r's threads into @out's, each mapped (m->thread_maps[r]); in views of
 * one run, a thread both record (its pid and tid) is one thread, named by
 * the first run that names it. */
static void
merge_threads (WsRun *out, MergeMaps *m, guint r, GHashTable *map)
{
  WsRun *run = m->runs[r];
  g_autoptr (GHashTable) known = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);

  m->thread_maps[r] = g_new0 (guint32, MAX (run->threads->len, 1));
  for (guint i = 0; m->one_process && i < out->threads->len; i++)
    {
      const WsThread *t = &g_array_index (out->threads, WsThread, i);
      gint64 *key = g_new (gint64, 1);

      *key = ((gint64) t->pid << 32) | t->tid;
      g_hash_table_insert (known, key, GUINT_TO_POINTER (i + 1));
    }
  for (guint i = 0; i < run->threads->len; i++)
    {
      WsThread thread = g_array_index (run->threads, WsThread, i);
      gint64 key;
      guint found;

      thread.pid = ws_run_merge_map_pid (map, thread.pid);
      thread.global_tid =
        (thread.global_tid & ~(G_GINT64_CONSTANT (0xffffff) << 24)) | ((gint64) thread.pid << 24);
      thread.name = map_value (thread.name, m->strings[r]);
      key = ((gint64) thread.pid << 32) | thread.tid;
      found = GPOINTER_TO_UINT (g_hash_table_lookup (known, &key));
      if (found > 0)
        {
          WsThread *same = &g_array_index (out->threads, WsThread, found - 1);

          if (same->name == WS_STRING_NONE)
            same->name = thread.name;
          m->thread_maps[r][i] = found - 1;
          continue;
        }
      m->thread_maps[r][i] = out->threads->len;
      g_array_append_val (out->threads, thread);
    }
}

/* Pids that two exports share (containers, other machines) are renumbered
 * in the later export, to the next pid free in the merged run. */
static void
merge_processes (WsRun *out, MergeMaps *m, GHashTable **pid_maps)
{
  g_autoptr (GHashTable) used = g_hash_table_new (NULL, NULL);

  for (guint r = 0; r < m->n; r++)
    {
      WsRun *run = m->runs[r];
      GHashTable *map = g_hash_table_new (NULL, NULL);
      g_autoptr (GArray) pids = g_array_new (FALSE, FALSE, sizeof (guint32));

      for (guint i = 0; i < run->threads->len; i++)
        g_array_append_val (pids, g_array_index (run->threads, WsThread, i).pid);
      for (guint i = 0; i < run->streams->len; i++)
        g_array_append_val (pids, g_array_index (run->streams, WsStream, i).pid);
      for (guint i = 0; i < run->prov.processes->len; i++)
        g_array_append_val (pids, g_array_index (run->prov.processes, WsProcess, i).pid);
      for (guint i = 0; i < pids->len; i++)
        {
          guint32 pid = g_array_index (pids, guint32, i), ours = pid;

          if (g_hash_table_contains (map, GUINT_TO_POINTER (pid + 1)))
            continue;
          while (!m->one_process && g_hash_table_contains (used, GUINT_TO_POINTER (ours + 1)))
            ours = (ours + 1) & 0xffffff;
          g_hash_table_add (used, GUINT_TO_POINTER (ours + 1));
          g_hash_table_insert (map, GUINT_TO_POINTER (pid + 1), GUINT_TO_POINTER (ours + 1));
        }
      pid_maps[r] = map;
      merge_threads (out, m, r, map);
      m->stream_base[r] = out->streams->len;
      for (guint i = 0; i < run->streams->len; i++)
        {
          WsStream stream = g_array_index (run->streams, WsStream, i);

          stream.pid = ws_run_merge_map_pid (map, stream.pid);
          stream.global_pid = (stream.global_pid & ~(G_GINT64_CONSTANT (0xffffff) << 24)) |
                              ((gint64) stream.pid << 24);
          stream.device_id = map_device (m->devices[r], stream.device_id);
          g_array_append_val (out->streams, stream);
        }
      m->config_base[r] = out->configs->len;
      if (run->configs->len > 0)
        g_array_append_vals (out->configs, run->configs->data, run->configs->len);
      for (guint i = 0; i < run->prov.processes->len; i++)
        {
          WsProcess process = g_array_index (run->prov.processes, WsProcess, i);

          process.pid = ws_run_merge_map_pid (map, process.pid);
          if (m->one_process && ws_run_process_name (out, process.pid) != NULL)
            continue;
          process.name = g_strdup (process.name);
          g_array_append_val (out->prov.processes, process);
        }
    }
}

static void
merge_strings (WsRun *out, MergeMaps *m)
{
  for (guint r = 0; r < m->n; r++)
    {
      WsRun *run = m->runs[r];
      guint size = ws_string_table_size (run->strings);

      m->strings[r] = g_new (guint32, MAX (size, 1));
      for (guint id = 0; id < size; id++)
        {
          const char *str = ws_string_table_get (run->strings, id);

          m->strings[r][id] =
            str != NULL ? ws_string_table_intern (out->strings, str) : WS_STRING_NONE;
        }
      m->domains[r] = g_new (guint32, MAX (run->domains->len, 1));
      for (guint d = 0; d < run->domains->len; d++)
        {
          WsNvtxDomain domain = g_array_index (run->domains, WsNvtxDomain, d);
          guint found = G_MAXUINT;

          domain.name = map_value (domain.name, m->strings[r]);
          for (guint o = 0; o < out->domains->len && found == G_MAXUINT; o++)
            if (g_array_index (out->domains, WsNvtxDomain, o).name == domain.name)
              found = o;
          if (found == G_MAXUINT)
            {
              found = out->domains->len;
              g_array_append_val (out->domains, domain);
            }
          m->domains[r][d] = found;
        }
    }
}

static void
merge_provenance (WsRun *out, const MergeMaps *m)
{
  WsRun *first = m->runs[0];
  g_autoptr (GHashTable) sources = g_hash_table_new (g_str_hash, g_str_equal);

  out->prov.kind = g_strdup (first->prov.kind);
  out->prov.product = g_strdup (first->prov.product);
  out->prov.nsys_version = g_strdup (first->prov.nsys_version);
  out->prov.schema_version = g_strdup (first->prov.schema_version);
  out->prov.metadata_table = g_strdup (first->prov.metadata_table);
  out->prov.export_time = g_strdup (first->prov.export_time);
  out->prov.driver_version = g_strdup (first->prov.driver_version);
  out->prov.os = g_strdup (first->prov.os);
  out->prov.target_command = g_strdup (first->prov.target_command);
  out->prov.target_env = g_strdupv (first->prov.target_env);
  out->prov.session_start_utc_ns = first->prov.session_start_utc_ns;
  for (guint r = 0; r < m->n; r++)
    {
      WsRun *run = m->runs[r];

      if (run->prov.host != NULL && out->prov.host == NULL)
        out->prov.host = g_strdup (run->prov.host);
      if (run->prov.session_start_utc_ns > 0 &&
          (out->prov.session_start_utc_ns == 0 ||
           run->prov.session_start_utc_ns < out->prov.session_start_utc_ns))
        out->prov.session_start_utc_ns = run->prov.session_start_utc_ns;
      for (guint i = 0; i < run->prov.files->len; i++)
        g_ptr_array_add (out->prov.files, g_strdup (g_ptr_array_index (run->prov.files, i)));
      for (guint i = 0; i < run->prov.contributions->len; i++)
        g_ptr_array_add (out->prov.contributions,
                         g_strdup (g_ptr_array_index (run->prov.contributions, i)));
      for (guint i = 0; i < run->prov.warnings->len; i++)
        g_ptr_array_add (
          out->prov.warnings,
          g_strdup_printf (
            "%s: %s",
            run->prov.files->len > 0 ? (const char *) g_ptr_array_index (run->prov.files, 0) : "?",
            (const char *) g_ptr_array_index (run->prov.warnings, i)));
      for (guint i = 0; i < run->sources->len; i++)
        {
          const WsSourceCount *source = &g_array_index (run->sources, WsSourceCount, i);
          gpointer found = g_hash_table_lookup (sources, source->what);

          if (found != NULL)
            g_array_index (out->sources, WsSourceCount, GPOINTER_TO_UINT (found) - 1).rows +=
              source->rows;
          else
            {
              ws_run_add_source (out, source->what, source->table, source->rows);
              g_hash_table_insert (sources, (gpointer) source->what,
                                   GUINT_TO_POINTER (out->sources->len));
            }
        }
      out->has_kernel_table |= run->has_kernel_table;
      out->has_nvtx_table |= run->has_nvtx_table;
      out->has_runtime_table |= run->has_runtime_table;
      out->has_memory_tables |= run->has_memory_tables;
    }
}

static WsRun *
merge (WsRun *const *runs, guint n, const gint64 *offsets, gboolean one_process,
       GHashTable **pid_maps)
{
  g_autoptr (WsRun) out = ws_run_new ();
  g_autofree gpointer *cols = g_new0 (gpointer, MAX (n, 1));
  g_autofree GHashTable **maps = g_new0 (GHashTable *, MAX (n, 1));
  MergeMaps m = { 0 };

  g_return_val_if_fail (runs != NULL && n > 0 && n <= G_MAXUINT16, NULL);
  g_return_val_if_fail (offsets != NULL, NULL);

  m.runs = runs;
  m.n = n;
  m.offsets = offsets;
  m.strings = g_new0 (guint32 *, n);
  m.domains = g_new0 (guint32 *, n);
  m.thread_maps = g_new0 (guint32 *, n);
  m.one_process = one_process;
  m.stream_base = g_new0 (guint32, n);
  m.config_base = g_new0 (guint32, n);
  m.devices = g_new0 (GHashTable *, n);
  m.replays = g_new0 (guint32 *, n);
  g_array_set_size (out->domains, 0);

  merge_strings (out, &m);
  merge_gpus (out, &m);
  merge_processes (out, &m, maps);
  merge_provenance (out, &m);
  merge_replays (out, &m, cols);
  merge_kernels (out, &m, cols);
  merge_memops (out, &m, cols);
  merge_api (out, &m, cols);
  merge_nvtx (out, &m, cols);
  merge_osrt (out, &m, cols);
  merge_mem_usage (out, &m, cols);
  merge_metrics (out, &m);
  /* Each rank's CPU profile as it is, on its own export's clock: `flame
   * --rank N` shows rank N's. */
  for (guint r = 0; r < n; r++)
    for (guint i = 0; runs[r]->cpu_profiles != NULL && i < runs[r]->cpu_profiles->len; i++)
      g_ptr_array_add (out->cpu_profiles,
                       ws_cpu_profile_ref (g_ptr_array_index (runs[r]->cpu_profiles, i)));
  ws_run_finish (out);

  for (guint r = 0; r < n; r++)
    {
      g_free (m.strings[r]);
      g_free (m.domains[r]);
      g_hash_table_unref (m.devices[r]);
      if (pid_maps != NULL)
        pid_maps[r] = maps[r];
      else
        g_hash_table_unref (maps[r]);
    }
  g_free (m.strings);
  g_free (m.domains);
  for (guint r = 0; r < n; r++)
    g_free (m.thread_maps[r]);
  g_free (m.thread_maps);
  for (guint r = 0; r < n; r++)
    g_free (m.replays[r]);
  g_free (m.replays);
  g_free (m.stream_base);
  g_free (m.config_base);
  g_free (m.devices);
  return g_steal_pointer (&out);
}

/**
 * ws_run_merge:
 * @runs: (array length=n): the runs, each held only by the caller
 * @offsets: (array length=n): ns added to each run's clock
 * @pid_maps: (out) (array length=n) (transfer full) (optional): for each
 *   run, its pids to the merged run's (ws_run_merge_map_pid())
 *
 * Returns: (transfer full): one run holding every event of @runs
 */
WsRun *
ws_run_merge (WsRun *const *runs, guint n, const gint64 *offsets, GHashTable **pid_maps)
{
  return merge (runs, n, offsets, FALSE, pid_maps);
}

/**
 * ws_run_merge_views:
 * @runs: (array length=n): what several tools recorded of one run (an nsys
 *   export and a PyTorch profiler trace of the same process), each held
 *   only by the caller, none holding a table another holds
 * @offsets: (array length=n): ns that put each on the first's clock
 *
 * As ws_run_merge(), except that the runs are one run seen by several
 * tools: a pid is the same process in each, and a thread of the same pid
 * and tid the same thread.
 *
 * Returns: (transfer full): one run holding every event of @runs
 */
WsRun *
ws_run_merge_views (WsRun *const *runs, guint n, const gint64 *offsets)
{
  return merge (runs, n, offsets, TRUE, NULL);
}

/* @pid of a merged run's source, as the merged run has it. */
guint32
ws_run_merge_map_pid (GHashTable *pid_map, guint32 pid)
{
  gpointer found =
    pid_map != NULL ? g_hash_table_lookup (pid_map, GUINT_TO_POINTER (pid + 1)) : NULL;

  return found != NULL ? GPOINTER_TO_UINT (found) - 1 : pid;
}
