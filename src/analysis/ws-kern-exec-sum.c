/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-kern-exec-sum"
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ws-kern-exec-sum.h"

/* What the report groups by: the launching thread's process and thread,
 * the kernel's device, the call's name and the kernel's. */
typedef struct
{
  guint32 pid;
  guint32 tid;
  gint32 device;
  guint32 api;    /* index into ExecSum.api_names */
  guint32 kernel; /* name id */
} ExecKey;

static guint
exec_key_hash (gconstpointer p)
{
  const ExecKey *k = p;

  return (k->pid * 2654435761u) ^ (k->tid * 40503u) ^ ((guint) k->device << 24) ^ (k->api * 97u) ^
         k->kernel;
}

static gboolean
exec_key_equal (gconstpointer a, gconstpointer b)
{
  return memcmp (a, b, sizeof (ExecKey)) == 0;
}

/* An API call as the report's join finds it: by its process (its
 * globalTid with the thread's bits cleared, which the SQL compares with
 * the kernel's globalPid) and its correlation id. */
typedef struct
{
  gint64 process;
  guint32 correlation;
  guint32 call;
} CallKey;

/* One row of the join: a kernel and a call of its process with its
 * correlation id.  Usually one call a kernel; exports of nsys 2022 hold
 * cudaLaunchKernel and cudaLaunchKernel_v7000 with one id, and the join
 * counts the kernel under both, as nsys does. */
typedef struct
{
  guint32 kernel;
  guint32 call;
  guint32 group;
} Launch;

typedef struct
{
  const WsRun *run;
  const WsKernelNames *names;
  CallKey *calls;          /* sorted by process, then correlation id */
  GHashTable *api_of_name; /* API name id + 1 → index into @api_names + 1 */
  GHashTable *api_by_text; /* char *: a name as the report prints it → index + 1 */
  GPtrArray *api_names;    /* char *, as the report prints them */
  GHashTable *groups;      /* ExecKey → group + 1 */
  GArray *keys;            /* ExecKey, per group */
  GArray *launches;        /* Launch */
  gsize *offset;           /* per group + 1: where its launches start in the buffers */
  gsize *queue_offset;     /* the same for its queue times, which fewer launches have */
} ExecSum;

/**
 * ws_kern_exec_api_name:
 * @name: a CUDA API function as exported ("cudaLaunchKernel_v7000")
 *
 * The name as cuda_kern_exec_sum prints it: nsys's SQL drops the last six
 * characters when they start with "_v" (`CASE substr(name, -6, 2) WHEN
 * '_v'`), so cudaLaunchKernel_v7000 is cudaLaunchKernel while
 * cudaGraphLaunch_v10000 and cudaLaunchKernelExC_v11060 keep their
 * suffixes.  cuda_api_sum's rule (ws_api_base_name()) also asks for four
 * digits.
 *
 * Returns: (transfer full): the name
 */
char *
ws_kern_exec_api_name (const char *name)
{
  gsize len = strlen (name);

  if (len >= 6 && name[len - 6] == '_' && name[len - 5] == 'v')
    return g_strndup (name, len - 6);
  return g_strdup (name);
}

/* The index of the printed name of API function @name, one per printed
 * name: cudaLaunchKernel_v7000 and a bare cudaLaunchKernel are one group,
 * as the report's GROUP BY on the printed name makes them. */
static guint32
api_for (ExecSum *es, guint32 name)
{
  gpointer found = g_hash_table_lookup (es->api_of_name, GUINT_TO_POINTER (name + 1));
  char *text;

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  text = ws_kern_exec_api_name (ws_run_string (es->run, name));
  found = g_hash_table_lookup (es->api_by_text, text);
  if (found == NULL)
    {
      g_ptr_array_add (es->api_names, g_strdup (text));
      found = GUINT_TO_POINTER (es->api_names->len);
      g_hash_table_insert (es->api_by_text, text, found);
    }
  else
    g_free (text);
  g_hash_table_insert (es->api_of_name, GUINT_TO_POINTER (name + 1), found);
  return GPOINTER_TO_UINT (found) - 1;
}

static guint32
group_for (ExecSum *es, const ExecKey *key)
{
  gpointer found = g_hash_table_lookup (es->groups, key);

  if (found == NULL)
    {
      g_array_append_val (es->keys, *key);
      found = GUINT_TO_POINTER (es->keys->len);
      g_hash_table_insert (es->groups, g_memdup2 (key, sizeof *key), found);
    }
  return GPOINTER_TO_UINT (found) - 1;
}

static int
compare_calls (const void *a, const void *b)
{
  const CallKey *x = a, *y = b;

  if (x->process != y->process)
    return x->process < y->process ? -1 : 1;
  if (x->correlation != y->correlation)
    return x->correlation < y->correlation ? -1 : 1;
  return x->call < y->call ? -1 : x->call > y->call;
}

/* The calls' join keys, sorted; NULL when the run has no call's thread or
 * correlation id (a lean load). */
static CallKey *
sort_calls (const WsRun *run)
{
  const WsApiCalls *api = &run->api;
  CallKey *calls;

  if (api->n == 0 || api->thread == NULL || api->correlation == NULL)
    return NULL;
  calls = g_new (CallKey, api->n);
  for (gsize a = 0; a < api->n; a++)
    {
      calls[a].process = ws_run_thread (run, api->thread[a])->global_tid & ~(gint64) 0xFFFFFF;
      calls[a].correlation = api->correlation[a];
      calls[a].call = (guint32) a;
    }
  qsort (calls, api->n, sizeof (CallKey), compare_calls);
  return calls;
}

/* The first of the sorted calls whose key is not below (@process,
 * @correlation). */
static gsize
first_call (const ExecSum *es, gint64 process, guint32 correlation)
{
  gsize lo = 0, hi = es->run->api.n;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      const CallKey *c = &es->calls[mid];

      if (c->process < process || (c->process == process && c->correlation < correlation))
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static guint32
launch_group (ExecSum *es, gsize k, guint32 call)
{
  const WsRun *run = es->run;
  const WsThread *thread = ws_run_thread (run, run->api.thread[call]);
  ExecKey key = { 0 };

  key.pid = thread->pid;
  key.tid = thread->tid;
  key.device = ws_run_kernel_stream (run, k)->device_id;
  key.api = api_for (es, run->api.name != NULL ? run->api.name[call] : WS_STRING_NONE);
  key.kernel = ws_kernel_names_id (es->names, k);
  return group_for (es, &key);
}

/* A group's launches, and those of them with a queue time. */
typedef struct
{
  gsize launches;
  gsize queued;
} Counts;

/* The join (@launches, each with its group), and how many launches
 * (@offset) and queue times (@queue_offset) each group has, at the index
 * after its own.  An inner join: a kernel whose call is unknown is left
 * out. */
static void
join_launches (ExecSum *es)
{
  const WsRun *run = es->run;
  GArray *counts = g_array_new (FALSE, TRUE, sizeof (Counts));

  gboolean joinable =
    es->calls != NULL && run->kernels.stream != NULL && run->kernels.correlation != NULL;

  for (gsize k = 0; joinable && k < run->kernels.n; k++)
    {
      gint64 process = ws_run_kernel_stream (run, k)->global_pid;
      guint32 correlation = run->kernels.correlation[k];

      for (gsize c = first_call (es, process, correlation);
           c < run->api.n && es->calls[c].process == process &&
           es->calls[c].correlation == correlation;
           c++)
        {
          Launch launch = { (guint32) k, es->calls[c].call, 0 };
          Counts *count;

          launch.group = launch_group (es, k, launch.call);
          g_array_append_val (es->launches, launch);
          if (launch.group >= counts->len)
            g_array_set_size (counts, launch.group + 1);
          count = &g_array_index (counts, Counts, launch.group);
          count->launches++;
          if (run->kernels.start[k] - run->api.end[launch.call] >= 0)
            count->queued++;
        }
    }

  es->offset = g_new0 (gsize, es->keys->len + 1);
  es->queue_offset = g_new0 (gsize, es->keys->len + 1);
  for (guint g = 0; g < es->keys->len; g++)
    {
      const Counts *count = &g_array_index (counts, Counts, g);

      es->offset[g + 1] = es->offset[g] + count->launches;
      es->queue_offset[g + 1] = es->queue_offset[g] + count->queued;
    }
  g_array_unref (counts);
}

static void
exec_row_clear (gpointer data)
{
  WsKernExecRow *row = data;

  g_free (row->api);
}

/* The rows in the report's order: by the mean total time, largest first
 * (its ORDER BY has nothing more); equal means by what the rows are
 * grouped by, so that the order never depends on the export's row order. */
static gint
compare_rows (gconstpointer a, gconstpointer b, gpointer data)
{
  const WsKernExecRow *x = a, *y = b;
  const WsKernelNames *names = data;
  int c;

  if (x->total.avg != y->total.avg)
    return x->total.avg > y->total.avg ? -1 : 1;
  if (x->pid != y->pid)
    return x->pid < y->pid ? -1 : 1;
  if (x->tid != y->tid)
    return x->tid < y->tid ? -1 : 1;
  if (x->device != y->device)
    return x->device < y->device ? -1 : 1;
  c = strcmp (x->api, y->api);
  if (c != 0)
    return c;
  return strcmp (ws_kernel_names_get (names, x->kernel), ws_kernel_names_get (names, y->kernel));
}

/* The four times of every launch, each group's in its slice, then the
 * statistics of each slice. */
static GArray *
summarise (ExecSum *es)
{
  const WsRun *run = es->run;
  guint n_groups = es->keys->len;
  gsize n = es->offset[n_groups], n_queued = es->queue_offset[n_groups];
  g_autofree gint64 *total = g_new (gint64, MAX (n, 1));
  g_autofree gint64 *api = g_new (gint64, MAX (n, 1));
  g_autofree gint64 *kernel = g_new (gint64, MAX (n, 1));
  g_autofree gint64 *queue = g_new (gint64, MAX (n_queued, 1));
  g_autofree gsize *fill = g_memdup2 (es->offset, sizeof (gsize) * (n_groups + 1));
  g_autofree gsize *queue_fill = g_memdup2 (es->queue_offset, sizeof (gsize) * (n_groups + 1));
  GArray *rows = g_array_sized_new (FALSE, TRUE, sizeof (WsKernExecRow), n_groups);

  g_array_set_clear_func (rows, exec_row_clear);
  for (guint i = 0; i < es->launches->len; i++)
    {
      const Launch *launch = &g_array_index (es->launches, Launch, i);
      gsize k = launch->kernel, call = launch->call, g = launch->group;
      gsize at = fill[g]++;

      total[at] = MAX (run->api.end[call], run->kernels.end[k]) - run->api.start[call];
      api[at] = run->api.end[call] - run->api.start[call];
      kernel[at] = run->kernels.end[k] - run->kernels.start[k];
      if (run->kernels.start[k] - run->api.end[call] >= 0)
        queue[queue_fill[g]++] = run->kernels.start[k] - run->api.end[call];
    }

  for (guint g = 0; g < n_groups; g++)
    {
      const ExecKey *key = &g_array_index (es->keys, ExecKey, g);
      gsize first = es->offset[g], count = es->offset[g + 1] - first;
      gsize queue_first = es->queue_offset[g];
      WsKernExecRow row = { 0 };

      row.pid = key->pid;
      row.tid = key->tid;
      row.device = key->device;
      row.api = g_strdup (g_ptr_array_index (es->api_names, key->api));
      row.kernel = key->kernel;
      ws_group_stats (total + first, count, &row.total);
      ws_group_stats (api + first, count, &row.api_time);
      ws_group_stats (kernel + first, count, &row.kernel_time);
      ws_group_stats (queue + queue_first, es->queue_offset[g + 1] - queue_first, &row.queue);
      g_array_append_val (rows, row);
    }
  g_array_sort_with_data (rows, compare_rows, (gpointer) es->names);
  return rows;
}

/**
 * ws_kern_exec_sum:
 * @names: the kernels' names to group by: in a form, or with their NVTX
 *   ranges (`:nvtx-name`)
 *
 * `nsys stats --report cuda_kern_exec_sum`: each kernel joined to the CUDA
 * API calls of its process with its correlation id, as the report's SQL
 * joins them,
 * grouped by the call's process and thread, the kernel's device, the
 * call's name (ws_kern_exec_api_name()) and the kernel's name.
 * Kernels whose call is unknown are left out, as the report's inner join
 * leaves them.  The run needs the kernels' streams and correlation ids and
 * the calls' threads and correlation ids: a load that is not lean.
 *
 * Returns: (transfer full) (element-type WsKernExecRow): the rows, largest
 * mean total time first
 */
GArray *
ws_kern_exec_sum (const WsKernelNames *names)
{
  ExecSum es = { 0 };
  GArray *rows;

  g_return_val_if_fail (names != NULL && names->run != NULL, NULL);

  es.run = names->run;
  es.names = names;
  es.calls = sort_calls (es.run);
  es.launches = g_array_new (FALSE, FALSE, sizeof (Launch));
  es.api_of_name = g_hash_table_new (g_direct_hash, g_direct_equal);
  es.api_by_text = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  es.api_names = g_ptr_array_new_with_free_func (g_free);
  es.groups = g_hash_table_new_full (exec_key_hash, exec_key_equal, g_free, NULL);
  es.keys = g_array_new (FALSE, FALSE, sizeof (ExecKey));

  join_launches (&es);
  rows = summarise (&es);

  g_free (es.calls);
  g_array_unref (es.launches);
  g_free (es.offset);
  g_free (es.queue_offset);
  g_array_unref (es.keys);
  g_hash_table_unref (es.groups);
  g_ptr_array_unref (es.api_names);
  g_hash_table_unref (es.api_by_text);
  g_hash_table_unref (es.api_of_name);
  return rows;
}
