/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-critical"
#include "config.h"

#include <string.h>

#include "ws-critical-graph.h"
#include "ws-launch-index.h"
#include "ws-nccl.h"
#include "ws-rank-measure.h"
#include "ws-rank-set.h"
#include "ws-ranks.h"
#include "ws-steps.h"

/* An operation on another stream whose end comes at most this long before
 * an operation's start, where its launch and its stream came earlier
 * still, is taken as what the start waited for (a CUDA event). */
#define WAIT_WINDOW (10 * 1000)
/* A thread's wait ends at most this long after another thread's last
 * recorded moment for that thread to be taken as its waker. */
#define WAKE_WINDOW (100 * 1000)
/* A signal (pthread_cond_signal, sem_post) of another thread wakes a wait
 * that ends at most this long after it. */
#define SIGNAL_WINDOW (1000 * 1000)

typedef struct
{
  gint64 t;
  guint32 index;
  guint16 rank;
  guint8 kind;
} Point;

typedef struct
{
  guint32 src;
  guint32 dst;
  gint64 w;
  guint8 edge;
} Edge;

typedef struct
{
  gint64 t;
  guint32 point;
  guint32 lane; /* the thread, or the stream */
} Timed;

/* A rank's time in a host collective, and the collective's meeting. */
typedef struct
{
  guint rank;
  gint64 start;
  gint64 end;
  guint32 meeting;
} Held;

typedef struct
{
  const WsRun *run;
  GArray *points;          /* Point */
  GArray *edges;           /* Edge */
  GHashTable *rank_of_pid; /* pid → rank index + 1 */
  gint64 *shift;
  guint n_ranks;
  guint32 *nvtx_start; /* per range: its points, or G_MAXUINT32 */
  guint32 *nvtx_end;
  guint32 *osrt_start;
  guint32 *osrt_end;
  guint8 *collective;  /* per NVTX range: a host collective's */
  guint8 *osrt_io;     /* per OS runtime call: a wait for the network or a pipe */
  GArray *held;        /* Held: each rank's host collectives, by rank then start */
  GArray *host;        /* Timed: every host point, by thread then time */
  GArray *signals;     /* Timed: the calls that wake a thread, by time */
  gsize *thread_first; /* per thread: its points in @host, thread_first[t] to [t + 1] */
} Builder;

static const char *const edge_names[WS_CP_N_EDGES] = {
  "chain", "launch", "stream", "duration", "sync", "wait", "wake", "arrival", "collective",
};

const char *
ws_cp_edge_name (WsCpEdge edge)
{
  return edge < WS_CP_N_EDGES ? edge_names[edge] : "";
}

/* OS runtime calls in which a thread waits for another thread of its own
 * process; waits on files, sockets and timers are its own time. */
static const char *const thread_waits[] = {
  "pthread_cond_wait",    "pthread_cond_timedwait", "pthread_cond_clockwait",
  "pthread_barrier_wait", "pthread_join",           "sem_wait",
  "sem_timedwait",        "sem_clockwait",          "futex",
  "pthread_mutex_lock",   "pthread_rwlock_rdlock",  "pthread_rwlock_wrlock",
};

/* And the calls in which a thread wakes another. */
static const char *const thread_signals[] = {
  "pthread_cond_signal",
  "pthread_cond_broadcast",
  "sem_post",
};

/* And the calls in which a thread waits for the network or a pipe: during
 * a host collective, for the other ranks. */
static const char *const io_waits[] = {
  "poll", "ppoll",    "select",  "pselect",  "pselect6", "epoll_wait", "epoll_pwait",
  "recv", "recvfrom", "recvmsg", "recvmmsg", "accept",   "accept4",
};

enum
{
  OSRT_NONE = 1, /* 0 is "not looked up yet" */
  OSRT_WAIT,
  OSRT_SIGNAL,
  OSRT_IO,
};

static gint
osrt_role (const char *name)
{
  for (gsize i = 0; name != NULL && i < G_N_ELEMENTS (thread_waits); i++)
    if (strcmp (name, thread_waits[i]) == 0)
      return OSRT_WAIT;
  for (gsize i = 0; name != NULL && i < G_N_ELEMENTS (thread_signals); i++)
    if (strcmp (name, thread_signals[i]) == 0)
      return OSRT_SIGNAL;
  for (gsize i = 0; name != NULL && i < G_N_ELEMENTS (io_waits); i++)
    if (strcmp (name, io_waits[i]) == 0)
      return OSRT_IO;
  return OSRT_NONE;
}

/* Whether an NVTX range names a collective that blocks its thread until
 * every rank arrives: MPI's and gloo's calls as nsys or PyTorch name
 * them ("MPI_Allreduce", "gloo:all_reduce", "c10d::allreduce_",
 * "all_reduce").  NCCL's host ranges only enqueue a kernel and are not
 * collectives here. */
gboolean
ws_cp_is_collective_range (const char *name)
{
  static const char *const words[] = {
    "allreduce", "allgather",  "reducescatter", "broadcast", "barrier", "alltoall",
    "alltoallv", "allgatherv", "reduce",        "gather",    "scatter",
  };
  g_autofree char *lower = NULL;
  GString *bare;
  const char *colon;
  gboolean found = FALSE;

  if (name == NULL || g_str_has_prefix (name, "nccl") || g_str_has_prefix (name, "ncclKernel"))
    return FALSE;
  lower = g_ascii_strdown (name, -1);
  colon = strrchr (lower, ':');
  bare = g_string_new (colon != NULL ? colon + 1 : lower);
  if (g_str_has_prefix (bare->str, "mpi_"))
    g_string_erase (bare, 0, 4);
  for (gsize i = 0; i < bare->len;)
    if (bare->str[i] == '_')
      g_string_erase (bare, i, 1);
    else
      i++;
  for (gsize i = 0; i < G_N_ELEMENTS (words) && !found; i++)
    found = strcmp (bare->str, words[i]) == 0;
  g_string_free (bare, TRUE);
  return found;
}

static guint32
add_point (Builder *b, gint64 t, WsCpPointKind kind, guint32 index, guint rank)
{
  Point p = { t + b->shift[rank], index, (guint16) rank, (guint8) kind };

  g_array_append_val (b->points, p);
  return b->points->len - 1;
}

static gint64
point_t (const Builder *b, guint32 p)
{
  return g_array_index (b->points, Point, p).t;
}

static void
add_edge (Builder *b, guint32 src, guint32 dst, WsCpEdge kind)
{
  Edge e = { src, dst, point_t (b, dst) - point_t (b, src), (guint8) kind };

  g_array_append_val (b->edges, e);
}

/* The rank index of a process, or -1 for a process outside the job. */
static gint
rank_of (const Builder *b, guint32 pid)
{
  gpointer v;

  if (b->rank_of_pid == NULL)
    return 0;
  v = g_hash_table_lookup (b->rank_of_pid, GUINT_TO_POINTER (pid));
  return v != NULL ? GPOINTER_TO_INT (v) - 1 : -1;
}

static gint
thread_rank (const Builder *b, guint32 thread)
{
  return rank_of (b, ws_run_thread_pid (b->run, thread));
}

static int
compare_timed (gconstpointer a, gconstpointer b)
{
  const Timed *x = a, *y = b;

  if (x->lane != y->lane)
    return x->lane < y->lane ? -1 : 1;
  if (x->t != y->t)
    return x->t < y->t ? -1 : 1;
  return x->point < y->point ? -1 : x->point > y->point;
}

static void
add_host (Builder *b, guint32 point, guint32 thread)
{
  Timed h = { point_t (b, point), point, thread };

  g_array_append_val (b->host, h);
}

/* Each rank's clock on the first's: the NCCL method's alignment of the
 * collectives' ends, where it was made; the run's clock otherwise. */
static void
set_shifts (Builder *b, const WsRankSet *set)
{
  b->shift = g_new0 (gint64, MAX (b->n_ranks, 1));
  if (set == NULL || set->method != WS_RANK_METHOD_NCCL)
    return;
  for (guint r = 0; r < b->n_ranks && r < set->figures->len; r++)
    {
      const WsRankFigures *f = g_ptr_array_index (set->figures, r);
      const WsRankFigures *f0 = g_ptr_array_index (set->figures, 0);

      b->shift[r] = set->align[r] + f0->offset - f->offset;
    }
}

static void
add_api_points (Builder *b, WsCpGraph *g)
{
  const WsApiCalls *api = &b->run->api;

  g->api_start = g_new (guint32, MAX (api->n, 1));
  g->api_end = g_new (guint32, MAX (api->n, 1));
  g->api_role = g_new0 (guint8, MAX (api->n, 1));
  for (gsize i = 0; i < api->n; i++)
    {
      gint r = thread_rank (b, api->thread[i]);

      if (r < 0)
        {
          g->api_start[i] = g->api_end[i] = G_MAXUINT32;
          continue;
        }
      g->api_start[i] = add_point (b, api->start[i], WS_CP_API_START, (guint32) i, (guint) r);
      g->api_end[i] = add_point (b, api->end[i], WS_CP_API_END, (guint32) i, (guint) r);
      add_host (b, g->api_start[i], api->thread[i]);
      add_host (b, g->api_end[i], api->thread[i]);
      if (ws_rank_measure_is_sync_call (ws_run_string (b->run, api->name[i])))
        g->api_role[i] = WS_CP_ROLE_SYNC;
    }
}

static void
add_osrt_points (Builder *b)
{
  const WsOsrtCalls *o = &b->run->osrt;
  g_autoptr (GHashTable) waits = g_hash_table_new (NULL, NULL);

  b->osrt_start = g_new (guint32, MAX (o->n, 1));
  b->osrt_end = g_new (guint32, MAX (o->n, 1));
  b->osrt_io = g_new0 (guint8, MAX (o->n, 1));
  for (gsize i = 0; i < o->n; i++)
    {
      gpointer known;
      gint r;

      b->osrt_start[i] = b->osrt_end[i] = G_MAXUINT32;
      if (!g_hash_table_lookup_extended (waits, GUINT_TO_POINTER (o->name[i]), NULL, &known))
        {
          known = GINT_TO_POINTER (osrt_role (ws_run_string (b->run, o->name[i])));
          g_hash_table_insert (waits, GUINT_TO_POINTER (o->name[i]), known);
        }
      r = thread_rank (b, o->thread[i]);
      if (GPOINTER_TO_INT (known) == OSRT_NONE || r < 0)
        continue;
      b->osrt_start[i] = add_point (b, o->start[i], WS_CP_OSRT_START, (guint32) i, (guint) r);
      b->osrt_end[i] = add_point (b, o->end[i], WS_CP_OSRT_END, (guint32) i, (guint) r);
      add_host (b, b->osrt_start[i], o->thread[i]);
      add_host (b, b->osrt_end[i], o->thread[i]);
      b->osrt_io[i] = GPOINTER_TO_INT (known) == OSRT_IO;
      if (GPOINTER_TO_INT (known) == OSRT_SIGNAL)
        {
          Timed signal = { point_t (b, b->osrt_start[i]), b->osrt_start[i], o->thread[i] };

          g_array_append_val (b->signals, signal);
          /* Only a wait's end is woken. */
          b->osrt_end[i] = G_MAXUINT32;
        }
    }
}

static void
add_range_points (Builder *b, gsize range)
{
  const WsNvtxRanges *nvtx = &b->run->nvtx;
  gint r = thread_rank (b, nvtx->thread[range]);

  if (r < 0 || b->nvtx_start[range] != G_MAXUINT32)
    return;
  b->nvtx_start[range] =
    add_point (b, nvtx->start[range], WS_CP_NVTX_START, (guint32) range, (guint) r);
  b->nvtx_end[range] = add_point (b, nvtx->end[range], WS_CP_NVTX_END, (guint32) range, (guint) r);
  add_host (b, b->nvtx_start[range], nvtx->thread[range]);
  add_host (b, b->nvtx_end[range], nvtx->thread[range]);
}

/* Host order: each thread's points by time.  An OS runtime wait inside a
 * CUDA call is the call's own business (the driver's), not a wait for
 * another thread: it is left out of the chain. */
static void
chain_threads (Builder *b)
{
  const WsRun *run = b->run;
  guint n_threads = run->threads->len;
  guint32 last = G_MAXUINT32;
  guint last_thread = G_MAXUINT;
  guint32 open = G_MAXUINT32;
  gint depth = 0;
  GArray *kept = g_array_sized_new (FALSE, FALSE, sizeof (Timed), b->host->len);

  g_array_sort (b->host, compare_timed);
  for (guint i = 0; i < b->host->len; i++)
    {
      const Timed *h = &g_array_index (b->host, Timed, i);
      const Point *p = &g_array_index (b->points, Point, h->point);

      if (h->lane != last_thread)
        {
          last_thread = h->lane;
          last = G_MAXUINT32;
          open = G_MAXUINT32;
          depth = 0;
        }
      /* Inside a host collective the thread's own moments are the
       * collective's business: it is one step from its start to its end. */
      if (open != G_MAXUINT32)
        {
          if (p->kind == WS_CP_NVTX_END && p->index == open)
            open = G_MAXUINT32;
          else
            {
              if (p->kind == WS_CP_OSRT_START || p->kind == WS_CP_OSRT_END)
                b->osrt_start[p->index] = b->osrt_end[p->index] = G_MAXUINT32;
              continue;
            }
        }
      else if (p->kind == WS_CP_NVTX_START && b->collective[p->index])
        open = p->index;
      if (p->kind == WS_CP_API_START)
        depth++;
      else if (p->kind == WS_CP_API_END)
        depth = MAX (depth - 1, 0);
      else if ((p->kind == WS_CP_OSRT_START || p->kind == WS_CP_OSRT_END) && depth > 0)
        {
          b->osrt_start[p->index] = b->osrt_end[p->index] = G_MAXUINT32;
          continue;
        }
      if (last != G_MAXUINT32)
        add_edge (b, last, h->point, WS_CP_EDGE_CHAIN);
      last = h->point;
      g_array_append_val (kept, *h);
    }
  g_array_unref (b->host);
  b->host = kept;
  b->thread_first = g_new0 (gsize, n_threads + 1);
  for (guint i = 0; i < kept->len; i++)
    b->thread_first[g_array_index (kept, Timed, i).lane + 1]++;
  for (guint t = 0; t < n_threads; t++)
    b->thread_first[t + 1] += b->thread_first[t];
}

static void
add_op (Builder *b, WsCpGraph *g, GArray *ops, WsCpOpTable table, gsize i, gint64 start, gint64 end,
        guint32 stream, gssize launch, gboolean nccl)
{
  const WsStream *s = &g_array_index (b->run->streams, WsStream, stream);
  gint r = rank_of (b, s->pid);
  guint32 op = (guint32) ops->len;

  if (r < 0)
    return;
  g_array_append_val (ops, op);
  g->op_table = g_renew (guint8, g->op_table, ops->len);
  g->op_index = g_renew (guint32, g->op_index, ops->len);
  g->op_nccl = g_renew (guint8, g->op_nccl, ops->len);
  g->op_launch = g_renew (gssize, g->op_launch, ops->len);
  g->op_start = g_renew (guint32, g->op_start, ops->len);
  g->op_end = g_renew (guint32, g->op_end, ops->len);
  g->op_table[op] = (guint8) table;
  g->op_index[op] = (guint32) i;
  g->op_nccl[op] = nccl;
  g->op_launch[op] = launch >= 0 && g->api_start[launch] != G_MAXUINT32 ? launch : -1;
  g->op_start[op] = add_point (b, start, WS_CP_OP_START, op, (guint) r);
  g->op_end[op] = add_point (b, end, WS_CP_OP_END, op, (guint) r);
  add_edge (b, g->op_start[op], g->op_end[op], WS_CP_EDGE_DURATION);
  if (g->op_launch[op] >= 0)
    {
      add_edge (b, g->api_start[launch], g->op_start[op], WS_CP_EDGE_LAUNCH);
      g->api_role[launch] = WS_CP_ROLE_LAUNCH;
    }
}

/* Kernels, memory operations and the replays recorded whole, with their
 * launches; then stream order. */
static GArray *
add_ops (Builder *b, WsCpGraph *g)
{
  const WsRun *run = b->run;
  g_autoptr (WsLaunchIndex) launches = ws_launch_index_new (run);
  g_autofree guint8 *nccl = ws_nccl_kernel_mask (run, NULL);
  GArray *ops = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr (GArray) by_stream = g_array_new (FALSE, FALSE, sizeof (Timed));

  if (run->kernels.stream != NULL)
    for (gsize i = 0; i < run->kernels.n; i++)
      add_op (b, g, ops, WS_CP_OP_KERNEL, i, run->kernels.start[i], run->kernels.end[i],
              run->kernels.stream[i], ws_launch_index_kernel (launches, i),
              nccl != NULL && nccl[i]);
  if (run->memops.stream != NULL)
    for (gsize i = 0; i < run->memops.n; i++)
      add_op (b, g, ops, WS_CP_OP_MEMOP, i, run->memops.start[i], run->memops.end[i],
              run->memops.stream[i], ws_launch_index_memop (launches, i), FALSE);
  for (gsize i = 0; i < run->replays.n; i++)
    if (run->replays.nodes[i] == 0)
      add_op (b, g, ops, WS_CP_OP_REPLAY, i, run->replays.start[i], run->replays.end[i],
              run->replays.stream[i], ws_launch_index_replay (launches, i), FALSE);
  g->n_ops = ops->len;

  for (guint32 op = 0; op < g->n_ops; op++)
    {
      guint32 i = g->op_index[op];
      guint32 stream = g->op_table[op] == WS_CP_OP_KERNEL  ? run->kernels.stream[i]
                       : g->op_table[op] == WS_CP_OP_MEMOP ? run->memops.stream[i]
                                                           : run->replays.stream[i];
      Timed t = { point_t (b, g->op_start[op]), op, stream };

      g_array_append_val (by_stream, t);
    }
  g_array_sort (by_stream, compare_timed);
  for (guint i = 1; i < by_stream->len; i++)
    {
      const Timed *prev = &g_array_index (by_stream, Timed, i - 1);
      const Timed *cur = &g_array_index (by_stream, Timed, i);

      if (prev->lane == cur->lane)
        add_edge (b, g->op_end[prev->point], g->op_start[cur->point], WS_CP_EDGE_STREAM);
    }
  return ops;
}

static int
compare_t (gconstpointer a, gconstpointer b)
{
  const Timed *x = a, *y = b;

  if (x->t != y->t)
    return x->t < y->t ? -1 : 1;
  return x->point < y->point ? -1 : x->point > y->point;
}

/* The latest of @ends (sorted by time) at or before @t: its index, or -1. */
static gssize
latest_before (const GArray *ends, gint64 t)
{
  gsize lo = 0, hi = ends->len;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (g_array_index (ends, Timed, mid).t <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return (gssize) lo - 1;
}

/* GPU back to host: a sync call ends after the last operation of its
 * rank launched before it (below); a call
 * that launched an operation and ended after it (a blocking copy) after
 * that one.  And event waits: an operation whose launch and stream came
 * well before its start, started right after another stream's. */
static void
add_syncs_and_waits (Builder *b, WsCpGraph *g)
{
  const WsRun *run = b->run;
  g_autofree GArray **ends = g_new0 (GArray *, MAX (b->n_ranks, 1));
  g_autofree guint32 *op_stream = g_new (guint32, MAX (g->n_ops, 1));

  for (guint r = 0; r < MAX (b->n_ranks, 1); r++)
    ends[r] = g_array_new (FALSE, FALSE, sizeof (Timed));
  for (guint32 op = 0; op < g->n_ops; op++)
    {
      const Point *p = &g_array_index (b->points, Point, g->op_end[op]);
      guint32 i = g->op_index[op];
      Timed t;

      op_stream[op] = g->op_table[op] == WS_CP_OP_KERNEL  ? run->kernels.stream[i]
                      : g->op_table[op] == WS_CP_OP_MEMOP ? run->memops.stream[i]
                                                          : run->replays.stream[i];
      t.t = p->t;
      t.point = op;
      t.lane = op_stream[op];
      g_array_append_val (ends[p->rank], t);
    }
  for (guint r = 0; r < MAX (b->n_ranks, 1); r++)
    g_array_sort (ends[r], compare_t);

  for (gsize i = 0; i < run->api.n; i++)
    {
      const Point *s, *e;
      gssize k;

      if (g->api_role[i] != WS_CP_ROLE_SYNC || g->api_start[i] == G_MAXUINT32)
        continue;
      s = &g_array_index (b->points, Point, g->api_start[i]);
      e = &g_array_index (b->points, Point, g->api_end[i]);
      /* The last operation to end before the call returns, of those
       * launched before it began: a sync waits for every earlier one,
       * even one already done (then the edge does not bind, but keeps the
       * call after that work when the host gets faster). */
      k = latest_before (ends[e->rank], e->t);
      for (guint tries = 0; k >= 0 && tries < 64; tries++, k--)
        {
          guint32 op = g_array_index (ends[e->rank], Timed, k).point;
          gssize c = g->op_launch[op];

          if (c >= 0 && point_t (b, g->api_start[c]) < s->t)
            {
              add_edge (b, g->op_end[op], g->api_end[i], WS_CP_EDGE_SYNC);
              g->n_syncs++;
              break;
            }
        }
    }
  for (guint32 op = 0; op < g->n_ops; op++)
    {
      gssize c = g->op_launch[op];

      if (c >= 0 && g->api_role[c] != WS_CP_ROLE_SYNC &&
          point_t (b, g->op_end[op]) <= point_t (b, g->api_end[c]) &&
          point_t (b, g->op_end[op]) >= point_t (b, g->api_start[c]))
        {
          g->api_role[c] = WS_CP_ROLE_SYNC;
          add_edge (b, g->op_end[op], g->api_end[c], WS_CP_EDGE_SYNC);
          g->n_syncs++;
        }
    }

  /* Event waits, from the start edges made so far. */
  {
    g_autofree gint64 *gap = g_new (gint64, MAX (g->n_ops, 1));
    guint n_edges = b->edges->len;

    for (guint32 op = 0; op < g->n_ops; op++)
      gap[op] = G_MAXINT64;
    for (guint e = 0; e < n_edges; e++)
      {
        const Edge *edge = &g_array_index (b->edges, Edge, e);
        const Point *p = &g_array_index (b->points, Point, edge->dst);

        if (p->kind == WS_CP_OP_START &&
            (edge->edge == WS_CP_EDGE_LAUNCH || edge->edge == WS_CP_EDGE_STREAM))
          gap[p->index] = MIN (gap[p->index], edge->w);
      }
    for (guint32 op = 0; op < g->n_ops; op++)
      {
        const Point *p = &g_array_index (b->points, Point, g->op_start[op]);
        GArray *list = ends[p->rank];
        gssize k;

        if (gap[op] <= WAIT_WINDOW)
          continue;
        k = latest_before (list, p->t);
        for (guint tries = 0; k >= 0 && tries < 8; tries++, k--)
          {
            const Timed *end = &g_array_index (list, Timed, k);

            if (p->t - end->t > WAIT_WINDOW)
              break;
            if (end->lane != op_stream[op] && end->point != op)
              {
                add_edge (b, g->op_end[end->point], g->op_start[op], WS_CP_EDGE_WAIT);
                g->n_waits++;
                break;
              }
          }
      }
  }
  for (guint r = 0; r < MAX (b->n_ranks, 1); r++)
    g_array_unref (ends[r]);
}

/* A thread's wait for another thread of its process ends when that one
 * signals it: the other thread's last recorded moment before the end. */
static void
add_wakes (Builder *b, WsCpGraph *g)
{
  const WsRun *run = b->run;
  const WsOsrtCalls *o = &run->osrt;

  for (gsize i = 0; i < o->n; i++)
    {
      guint32 end = b->osrt_end[i];
      guint32 pid;
      gint64 t, best_t = G_MININT64;
      guint32 best = G_MAXUINT32;

      if (end == G_MAXUINT32 || b->osrt_io[i])
        continue;
      t = point_t (b, end);
      pid = ws_run_thread_pid (run, o->thread[i]);
      /* The latest signal of another thread of the process during the wait. */
      {
        gssize k = latest_before (b->signals, t);

        for (; k >= 0; k--)
          {
            const Timed *sig = &g_array_index (b->signals, Timed, k);

            if (sig->t < point_t (b, b->osrt_start[i]) || t - sig->t > SIGNAL_WINDOW)
              break;
            if (sig->lane != o->thread[i] && ws_run_thread_pid (run, sig->lane) == pid &&
                b->osrt_start[g_array_index (b->points, Point, sig->point).index] == sig->point)
              {
                best = sig->point;
                best_t = sig->t;
                break;
              }
          }
        if (best != G_MAXUINT32)
          {
            add_edge (b, best, end, WS_CP_EDGE_WAKE);
            g->n_wakes++;
            continue;
          }
      }
      for (guint th = 0; th < run->threads->len; th++)
        {
          gsize lo = b->thread_first[th], hi = b->thread_first[th + 1];

          if (th == o->thread[i] || lo == hi || ws_run_thread_pid (run, th) != pid)
            continue;
          while (lo < hi)
            {
              gsize mid = lo + (hi - lo) / 2;

              if (g_array_index (b->host, Timed, mid).t <= t)
                lo = mid + 1;
              else
                hi = mid;
            }
          if (lo > b->thread_first[th])
            {
              const Timed *h = &g_array_index (b->host, Timed, lo - 1);

              if (h->t > best_t)
                {
                  best_t = h->t;
                  best = h->point;
                }
            }
        }
      if (best != G_MAXUINT32 && best_t >= point_t (b, b->osrt_start[i]) &&
          t - best_t <= WAKE_WINDOW)
        {
          add_edge (b, best, end, WS_CP_EDGE_WAKE);
          g->n_wakes++;
        }
    }
}

/* A collective: each rank's arrival to the last arrival, the last
 * arrival to each rank's end of it. */
static void
add_meeting (Builder *b, WsCpGraph *g, const guint32 *arrive, const guint32 *leave, guint n)
{
  gint64 last = G_MININT64;
  guint32 m;

  for (guint r = 0; r < n; r++)
    last = MAX (last, point_t (b, arrive[r]));
  m = add_point (b, last, WS_CP_MEETING, g->n_meetings, 0);
  /* The shift is already in @last. */
  g_array_index (b->points, Point, m).t = last;
  for (guint r = 0; r < n; r++)
    add_edge (b, arrive[r], m, WS_CP_EDGE_ARRIVAL);
  for (guint r = 0; r < n; r++)
    add_edge (b, m, leave[r], WS_CP_EDGE_COLLECTIVE);
  g->n_meetings++;
}

/* The kernel of the run that is a rank's call: its start on the run's
 * clock, its end and its process. */
static gssize
find_kernel (const WsRun *run, gint64 start, gint64 end, guint32 pid)
{
  gsize lo = 0, hi = run->kernels.n;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (run->kernels.start[mid] < start)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (gsize i = lo; i < run->kernels.n && run->kernels.start[i] == start; i++)
    if (run->kernels.end[i] == end && ws_run_kernel_stream (run, i)->pid == pid)
      return (gssize) i;
  return -1;
}

static void
add_nccl_meetings (Builder *b, WsCpGraph *g, const WsRankSet *set, const GArray *ops)
{
  const WsRun *run = b->run;
  guint n = b->n_ranks;
  g_autofree guint32 *arrive = g_new (guint32, n);
  g_autofree guint32 *leave = g_new (guint32, n);
  g_autofree guint32 *kernel_op = g_new (guint32, MAX (run->kernels.n, 1));

  memset (kernel_op, 0xff, sizeof (guint32) * MAX (run->kernels.n, 1));
  for (guint32 op = 0; op < g->n_ops; op++)
    if (g->op_table[op] == WS_CP_OP_KERNEL)
      kernel_op[g->op_index[op]] = op;
  (void) ops;
  for (guint k = 0; k < set->n_matched; k++)
    {
      gboolean all = TRUE;

      for (guint r = 0; r < n && all; r++)
        {
          const WsRankFigures *f = g_ptr_array_index (set->figures, r);
          const WsRankCall *call =
            &g_array_index (f->calls, WsRankCall, set->matched[(gsize) k * n + r]);
          gssize i = find_kernel (run, call->start + f->offset, call->end + f->offset,
                                  ws_ranks_get (run->ranks, r)->pid);

          all = i >= 0 && kernel_op[i] != G_MAXUINT32;
          if (all)
            {
              arrive[r] = g->op_start[kernel_op[i]];
              leave[r] = g->op_end[kernel_op[i]];
            }
        }
      if (all)
        {
          add_meeting (b, g, arrive, leave, n);
          g->n_nccl++;
        }
    }
}

static int
compare_ranges (gconstpointer a, gconstpointer b, gpointer data)
{
  const WsRun *run = data;
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  if (run->nvtx.start[x] != run->nvtx.start[y])
    return run->nvtx.start[x] < run->nvtx.start[y] ? -1 : 1;
  return x < y ? -1 : x > y;
}

/* Host collectives (gloo, MPI): the ranges that name one, the n-th of a
 * name on every rank one collective, as many as the rank with fewest has. */
static GHashTable *
find_host_collectives (Builder *b)
{
  const WsRun *run = b->run;
  g_autoptr (GHashTable) verdict = g_hash_table_new (NULL, NULL);
  /* name id → GPtrArray of per-rank GArray of ranges */
  GHashTable *by_name =
    g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_ptr_array_unref);

  for (gsize i = 0; i < run->nvtx.n; i++)
    {
      gpointer known;
      GPtrArray *per_rank;
      gint r;

      if (!g_hash_table_lookup_extended (verdict, GUINT_TO_POINTER (run->nvtx.name[i]), NULL,
                                         &known))
        {
          known =
            GINT_TO_POINTER (ws_cp_is_collective_range (ws_run_string (run, run->nvtx.name[i])));
          g_hash_table_insert (verdict, GUINT_TO_POINTER (run->nvtx.name[i]), known);
        }
      r = thread_rank (b, run->nvtx.thread[i]);
      if (!GPOINTER_TO_INT (known) || r < 0)
        continue;
      per_rank = g_hash_table_lookup (by_name, GUINT_TO_POINTER (run->nvtx.name[i]));
      if (per_rank == NULL)
        {
          per_rank = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
          for (guint k = 0; k < b->n_ranks; k++)
            g_ptr_array_add (per_rank, g_array_new (FALSE, FALSE, sizeof (guint32)));
          g_hash_table_insert (by_name, GUINT_TO_POINTER (run->nvtx.name[i]), per_rank);
        }
      {
        guint32 range = (guint32) i;

        g_array_append_val (g_ptr_array_index (per_rank, r), range);
      }
    }
  {
    GHashTableIter iter;
    gpointer value;

    g_hash_table_iter_init (&iter, by_name);
    while (g_hash_table_iter_next (&iter, NULL, &value))
      for (guint r = 0; r < b->n_ranks; r++)
        g_array_sort_with_data (g_ptr_array_index ((GPtrArray *) value, r), compare_ranges,
                                (gpointer) run);
  }
  return by_name;
}

static int
compare_i64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

/* Without NCCL, each rank's clock on the first's by its host collectives:
 * a blocking collective ends on every rank at once (to the time a rank
 * takes to return), so the median offset of their ends places the clocks,
 * as the NCCL method does with its kernels' ends.  The exports' session
 * starts place them only to a few milliseconds. */
static void
align_on_host_collectives (Builder *b, GHashTable *by_name)
{
  const WsRun *run = b->run;

  for (guint r = 1; r < b->n_ranks; r++)
    {
      g_autoptr (GArray) offsets = g_array_new (FALSE, FALSE, sizeof (gint64));
      GHashTableIter iter;
      gpointer value;

      g_hash_table_iter_init (&iter, by_name);
      while (g_hash_table_iter_next (&iter, NULL, &value))
        {
          GArray *first = g_ptr_array_index ((GPtrArray *) value, 0);
          GArray *mine = g_ptr_array_index ((GPtrArray *) value, r);

          for (guint k = 0; k < MIN (first->len, mine->len); k++)
            {
              gint64 offset = run->nvtx.end[g_array_index (first, guint32, k)] -
                              run->nvtx.end[g_array_index (mine, guint32, k)];

              g_array_append_val (offsets, offset);
            }
        }
      if (offsets->len > 0)
        {
          g_array_sort (offsets, compare_i64);
          b->shift[r] = g_array_index (offsets, gint64, offsets->len / 2);
        }
    }
}

static void
add_host_meetings (Builder *b, WsCpGraph *g, GHashTable *by_name)
{
  guint n = b->n_ranks;
  g_autofree guint32 *arrive = g_new (guint32, n);
  g_autofree guint32 *leave = g_new (guint32, n);
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, by_name);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      GPtrArray *per_rank = value;
      guint most = G_MAXUINT;

      for (guint r = 0; r < n; r++)
        most = MIN (most, ((GArray *) g_ptr_array_index (per_rank, r))->len);
      for (guint k = 0; k < most; k++)
        {
          for (guint r = 0; r < n; r++)
            {
              guint32 range =
                g_array_index ((GArray *) g_ptr_array_index (per_rank, r), guint32, k);

              arrive[r] = b->nvtx_start[range];
              leave[r] = b->nvtx_end[range];
            }
          add_meeting (b, g, arrive, leave, n);
          for (guint r = 0; r < n; r++)
            {
              /* The meeting is the source of the last edge made. */
              Held h = { r, point_t (b, arrive[r]), point_t (b, leave[r]),
                         g_array_index (b->edges, Edge, b->edges->len - 1).src };

              g_array_append_val (b->held, h);
            }
        }
    }
}

static int
compare_held (gconstpointer a, gconstpointer b)
{
  const Held *x = a, *y = b;

  if (x->rank != y->rank)
    return x->rank < y->rank ? -1 : 1;
  return x->start < y->start ? -1 : x->start > y->start;
}

/* A wait for the network that ends during a rank's host collective, after
 * its last arrival, was waiting for that arrival (another rank's data). */
static void
add_io_waits (Builder *b, WsCpGraph *g)
{
  const WsOsrtCalls *o = &b->run->osrt;

  g_array_sort (b->held, compare_held);
  for (gsize i = 0; i < o->n; i++)
    {
      guint32 end = b->osrt_end[i];
      const Point *p;
      gsize lo = 0, hi = b->held->len;

      if (end == G_MAXUINT32 || !b->osrt_io[i])
        continue;
      p = &g_array_index (b->points, Point, end);
      /* The last collective of the rank to start at or before the end. */
      while (lo < hi)
        {
          gsize mid = lo + (hi - lo) / 2;
          const Held *h = &g_array_index (b->held, Held, mid);

          if (h->rank < p->rank || (h->rank == p->rank && h->start <= p->t))
            lo = mid + 1;
          else
            hi = mid;
        }
      if (lo > 0)
        {
          const Held *h = &g_array_index (b->held, Held, lo - 1);

          if (h->rank == p->rank && p->t <= h->end && point_t (b, h->meeting) <= p->t)
            {
              add_edge (b, h->meeting, end, WS_CP_EDGE_COLLECTIVE);
              g->n_io++;
            }
        }
    }
}

static int
compare_order (gconstpointer a, gconstpointer b, gpointer data)
{
  const gint64 *t = data;
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  if (t[x] != t[y])
    return t[x] < t[y] ? -1 : 1;
  return x < y ? -1 : x > y;
}

static gint64
median_of (GArray *values)
{
  if (values->len == 0)
    return 0;
  g_array_sort (values, (GCompareFunc) compare_t);
  return g_array_index (values, Timed, values->len / 2).t;
}

/* The edges by target, the order, and which edges bind where. */
static void
finish (Builder *b, WsCpGraph *g)
{
  gsize n = b->points->len;
  g_autofree guint32 *pos = g_new (guint32, MAX (n, 1));
  g_autofree gsize *fill = NULL;
  GArray *bound[WS_CP_N_EDGES];

  g->n_points = n;
  g->t = g_new (gint64, MAX (n, 1));
  g->kind = g_new (guint8, MAX (n, 1));
  g->index = g_new (guint32, MAX (n, 1));
  g->rank = g_new (guint16, MAX (n, 1));
  for (gsize p = 0; p < n; p++)
    {
      const Point *pt = &g_array_index (b->points, Point, p);

      g->t[p] = pt->t;
      g->kind[p] = pt->kind;
      g->index[p] = pt->index;
      g->rank[p] = pt->rank;
    }
  g->order = g_new (guint32, MAX (n, 1));
  for (gsize p = 0; p < n; p++)
    g->order[p] = (guint32) p;
  g_qsort_with_data (g->order, (gint) n, sizeof (guint32), compare_order, g->t);
  for (gsize i = 0; i < n; i++)
    pos[g->order[i]] = (guint32) i;

  /* Edges by target; those whose source the order puts after the target
   * (clocks a few ns apart) are left out. */
  g->first = g_new0 (gsize, n + 1);
  for (guint e = 0; e < b->edges->len; e++)
    {
      const Edge *edge = &g_array_index (b->edges, Edge, e);

      if (pos[edge->src] < pos[edge->dst])
        g->first[edge->dst + 1]++;
      else
        g->n_back++;
    }
  for (gsize p = 0; p < n; p++)
    g->first[p + 1] += g->first[p];
  g->n_edges = g->first[n];
  g->src = g_new (guint32, MAX (g->n_edges, 1));
  g->w = g_new (gint64, MAX (g->n_edges, 1));
  g->edge = g_new (guint8, MAX (g->n_edges, 1));
  g->cap = g_new (gint64, MAX (g->n_edges, 1));
  fill = g_memdup2 (g->first, sizeof (gsize) * (n + 1));
  for (guint e = 0; e < b->edges->len; e++)
    {
      const Edge *edge = &g_array_index (b->edges, Edge, e);
      gsize at;

      if (pos[edge->src] >= pos[edge->dst])
        continue;
      at = fill[edge->dst]++;
      g->src[at] = edge->src;
      g->w[at] = edge->w;
      g->edge[at] = edge->edge;
    }

  /* At each point the edges of the smallest delay bind (their source came
   * last); each kind's floor is the median delay where it binds. */
  for (guint k = 0; k < WS_CP_N_EDGES; k++)
    bound[k] = g_array_new (FALSE, FALSE, sizeof (Timed));
  for (gsize p = 0; p < n; p++)
    {
      gint64 least = G_MAXINT64;

      for (gsize e = g->first[p]; e < g->first[p + 1]; e++)
        least = MIN (least, g->w[e]);
      for (gsize e = g->first[p]; e < g->first[p + 1]; e++)
        if (g->w[e] == least && least >= 0)
          {
            Timed v = { least, 0, 0 };

            g_array_append_val (bound[g->edge[e]], v);
          }
    }
  for (guint k = 0; k < WS_CP_N_EDGES; k++)
    {
      g->floor[k] = median_of (bound[k]);
      g_array_unref (bound[k]);
    }
  /* A binding edge keeps its weight; another keeps at most its kind's
   * floor, and at a collective's end at most the collective's own time
   * after the last arrival (what the rank's kernel or thread would take
   * had it not waited). */
  for (gsize p = 0; p < n; p++)
    {
      gint64 least = G_MAXINT64, tail = G_MAXINT64;

      for (gsize e = g->first[p]; e < g->first[p + 1]; e++)
        {
          least = MIN (least, g->w[e]);
          if (g->edge[e] == WS_CP_EDGE_COLLECTIVE)
            tail = MAX (g->w[e], 0);
        }
      for (gsize e = g->first[p]; e < g->first[p + 1]; e++)
        if (g->w[e] == least)
          g->cap[e] = G_MAXINT64;
        else if (tail != G_MAXINT64 && g->edge[e] != WS_CP_EDGE_COLLECTIVE)
          g->cap[e] = MIN (g->w[e], tail);
        else
          g->cap[e] = MIN (g->w[e], g->floor[g->edge[e]]);
    }
}

/* The steps' ranges and the host collectives' as points. */
static void
add_range_points_all (Builder *b, GHashTable *collectives)
{
  g_autoptr (WsSteps) steps = ws_steps_compute (b->run, &(WsStepsOptions){ NULL, WS_PID_ANY });
  GHashTableIter iter;
  gpointer value;

  for (guint i = 0; i < steps->steps->len; i++)
    add_range_points (b, g_array_index (steps->steps, WsStep, i).range);
  if (collectives == NULL)
    return;
  g_hash_table_iter_init (&iter, collectives);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    for (guint r = 0; r < b->n_ranks; r++)
      {
        GArray *ranges = g_ptr_array_index ((GPtrArray *) value, r);

        for (guint k = 0; k < ranges->len; k++)
          {
            add_range_points (b, g_array_index (ranges, guint32, k));
            b->collective[g_array_index (ranges, guint32, k)] = TRUE;
          }
      }
}

static void
builder_clear (Builder *b)
{
  g_array_unref (b->points);
  g_array_unref (b->edges);
  g_array_unref (b->host);
  g_array_unref (b->signals);
  g_array_unref (b->held);
  g_free (b->collective);
  g_free (b->osrt_io);
  g_free (b->thread_first);
  g_free (b->osrt_start);
  g_free (b->osrt_end);
  g_free (b->shift);
  g_free (b->nvtx_start);
  g_free (b->nvtx_end);
  g_clear_pointer (&b->rank_of_pid, g_hash_table_unref);
}

/**
 * ws_cp_graph_new:
 * @run: a run with its CUDA API calls and GPU operations (a full load)
 * @cancellable: (nullable): checked between the stages
 *
 * Builds the dependency graph of @run (docs/critical-path.md).
 *
 * Returns: (transfer full) (nullable): the graph, or %NULL when cancelled
 */
WsCpGraph *
ws_cp_graph_new (const WsRun *run, GCancellable *cancellable)
{
  g_autoptr (WsRankSet) set = NULL;
  g_autoptr (GHashTable) collectives = NULL;
  g_autoptr (GArray) ops = NULL;
  WsCpGraph *g = g_new0 (WsCpGraph, 1);
  Builder b = { 0 };

  g_return_val_if_fail (run != NULL, NULL);

  g->run = run;
  b.run = run;
  b.points = g_array_new (FALSE, FALSE, sizeof (Point));
  b.edges = g_array_new (FALSE, FALSE, sizeof (Edge));
  b.host = g_array_new (FALSE, FALSE, sizeof (Timed));
  b.signals = g_array_new (FALSE, FALSE, sizeof (Timed));
  b.held = g_array_new (FALSE, FALSE, sizeof (Held));
  b.n_ranks = 1;
  if (run->ranks != NULL && ws_ranks_get_n (run->ranks) > 0)
    {
      b.n_ranks = ws_ranks_get_n (run->ranks);
      b.rank_of_pid = g_hash_table_new (NULL, NULL);
      for (guint r = 0; r < b.n_ranks; r++)
        g_hash_table_insert (b.rank_of_pid, GUINT_TO_POINTER (ws_ranks_get (run->ranks, r)->pid),
                             GINT_TO_POINTER ((gintptr) r + 1));
      if (b.n_ranks > 1)
        set = ws_rank_set_new_for_run (run);
    }
  g->n_ranks = b.n_ranks;
  set_shifts (&b, set);
  if (b.n_ranks > 1 && (set == NULL || set->method != WS_RANK_METHOD_NCCL))
    {
      collectives = find_host_collectives (&b);
      align_on_host_collectives (&b, collectives);
    }
  b.nvtx_start = g_new (guint32, MAX (run->nvtx.n, 1));
  b.nvtx_end = g_new (guint32, MAX (run->nvtx.n, 1));
  memset (b.nvtx_start, 0xff, sizeof (guint32) * MAX (run->nvtx.n, 1));
  memset (b.nvtx_end, 0xff, sizeof (guint32) * MAX (run->nvtx.n, 1));
  b.collective = g_new0 (guint8, MAX (run->nvtx.n, 1));

  add_api_points (&b, g);
  add_osrt_points (&b);
  add_range_points_all (&b, collectives);
  chain_threads (&b);
  g_array_sort (b.signals, compare_t);
  if (g_cancellable_is_cancelled (cancellable))
    goto cancelled;
  ops = add_ops (&b, g);
  add_syncs_and_waits (&b, g);
  add_wakes (&b, g);
  if (set != NULL && set->method == WS_RANK_METHOD_NCCL && set->matched != NULL)
    add_nccl_meetings (&b, g, set, ops);
  else if (collectives != NULL)
    {
      add_host_meetings (&b, g, collectives);
      add_io_waits (&b, g);
    }
  if (g_cancellable_is_cancelled (cancellable))
    goto cancelled;
  finish (&b, g);
  g->shift = g_steal_pointer (&b.shift);
  g->n_host = b.host->len;
  g->host = g_new (guint32, MAX (b.host->len, 1));
  for (guint i = 0; i < b.host->len; i++)
    g->host[i] = g_array_index (b.host, Timed, i).point;
  g->host_first = g_steal_pointer (&b.thread_first);
  g->nvtx_start = g_steal_pointer (&b.nvtx_start);
  g->nvtx_end = g_steal_pointer (&b.nvtx_end);
  builder_clear (&b);
  return g;

cancelled:
  builder_clear (&b);
  ws_cp_graph_free (g);
  return NULL;
}

void
ws_cp_graph_free (WsCpGraph *self)
{
  if (self == NULL)
    return;
  g_free (self->t);
  g_free (self->kind);
  g_free (self->index);
  g_free (self->rank);
  g_free (self->op_table);
  g_free (self->op_index);
  g_free (self->op_nccl);
  g_free (self->op_launch);
  g_free (self->op_start);
  g_free (self->op_end);
  g_free (self->api_start);
  g_free (self->api_end);
  g_free (self->api_role);
  g_free (self->first);
  g_free (self->src);
  g_free (self->w);
  g_free (self->edge);
  g_free (self->cap);
  g_free (self->order);
  g_free (self->shift);
  g_free (self->nvtx_start);
  g_free (self->nvtx_end);
  g_free (self->host);
  g_free (self->host_first);
  g_free (self);
}

/* The thread of a host point, or -1 for a GPU point or a meeting. */
gint
ws_cp_graph_point_thread (const WsCpGraph *self, guint32 point)
{
  const WsRun *run = self->run;
  guint32 i = self->index[point];

  switch (self->kind[point])
    {
      case WS_CP_API_START:
      case WS_CP_API_END:
        return (gint) run->api.thread[i];
      case WS_CP_OSRT_START:
      case WS_CP_OSRT_END:
        return (gint) run->osrt.thread[i];
      case WS_CP_NVTX_START:
      case WS_CP_NVTX_END:
        return (gint) run->nvtx.thread[i];
      default:
        return -1;
    }
}
