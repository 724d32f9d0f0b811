/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-nvprof"
#include "config.h"

#include "ws-hash.h"
#include "ws-nvprof-reader-private.h"

/* ---- processes of streams ---------------------------------------------- */

static void
note_stream_pid (const WsRun *run, GHashTable *by_correlation, guint32 *pids, guint32 stream,
                 guint32 correlation)
{
  gpointer found;

  if (stream >= run->streams->len || pids[stream] != 0)
    return;
  found = g_hash_table_lookup (by_correlation, GUINT_TO_POINTER (correlation));
  if (found != NULL)
    pids[stream] = GPOINTER_TO_UINT (found);
}

/* A context is of one process: (device, context) names it in the file. */
static gint64
context_key (const WsStream *stream)
{
  return (gint64) ((guint64) (guint32) stream->device_id << 32 | (guint32) stream->context_id);
}

/* nvprof's GPU records carry no process: a kernel or copy belongs to the
 * process whose API call has its correlation id (ids are per process, and
 * an export holds one process as a rule).  The streams take that pid, as
 * nsys's do from globalPid, so that the projection of NVTX ranges, which
 * joins (pid, correlation id), finds the launches, and the lanes say
 * which process a stream is of.  A stream whose work joins no call takes
 * the pid of another stream of its context, else the file's only one. */
void
ws_nvprof_assign_stream_processes (WsRun *run)
{
  guint n_streams = run->streams->len;
  g_autofree guint32 *pids = g_new0 (guint32, MAX (n_streams, 1));
  g_autoptr (GHashTable) by_correlation = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GHashTable) by_context =
    g_hash_table_new_full (ws_int64_hash, g_int64_equal, g_free, NULL);
  guint32 only_pid = 0;
  gboolean several = FALSE;

  for (guint t = 0; t < run->threads->len; t++)
    {
      guint32 pid = g_array_index (run->threads, WsThread, t).pid;

      if (pid == 0)
        continue;
      several = several || (only_pid != 0 && pid != only_pid);
      only_pid = pid;
    }
  for (gsize a = 0; run->api.thread != NULL && a < run->api.n; a++)
    {
      guint32 pid = g_array_index (run->threads, WsThread, run->api.thread[a]).pid;

      if (pid != 0)
        g_hash_table_insert (by_correlation, GUINT_TO_POINTER (run->api.correlation[a]),
                             GUINT_TO_POINTER (pid));
    }
  for (gsize i = 0; run->kernels.correlation != NULL && i < run->kernels.n; i++)
    note_stream_pid (run, by_correlation, pids, run->kernels.stream[i],
                     run->kernels.correlation[i]);
  for (gsize i = 0; run->memops.correlation != NULL && i < run->memops.n; i++)
    note_stream_pid (run, by_correlation, pids, run->memops.stream[i], run->memops.correlation[i]);

  for (guint s = 0; s < n_streams; s++)
    if (pids[s] != 0)
      {
        const WsStream *stream = &g_array_index (run->streams, WsStream, s);
        gint64 key = context_key (stream);

        if (!g_hash_table_contains (by_context, &key))
          g_hash_table_insert (by_context, g_memdup2 (&key, sizeof key),
                               GUINT_TO_POINTER (pids[s]));
      }
  for (guint s = 0; s < n_streams; s++)
    {
      WsStream *stream = &g_array_index (run->streams, WsStream, s);
      gint64 key = context_key (stream);
      guint32 pid = pids[s];

      if (stream->global_pid != 0)
        continue;
      if (pid == 0)
        pid = GPOINTER_TO_UINT (g_hash_table_lookup (by_context, &key));
      if (pid == 0 && !several)
        pid = only_pid;
      stream->pid = pid & 0xFFFFFF;
      stream->global_pid = (gint64) stream->pid << 24;
    }
}
