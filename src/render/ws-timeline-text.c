/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-timeline"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ws-format.h"
#include "ws-stats.h"
#include "ws-timeline-text.h"

static const char *
thread_name (const WsRun *run, guint32 thread)
{
  const WsThread *t = ws_run_thread (run, thread);

  return t != NULL && t->name != WS_STRING_NONE ? ws_run_string (run, t->name) : NULL;
}

/* "SMs Active" from "SMs Active [Throughput %]". */
static char *
metric_title (const WsRun *run, const WsLane *lane)
{
  const WsGpuMetric *metric = &g_array_index (run->metrics, WsGpuMetric, lane->metric);
  const char *name = ws_run_string (run, metric->name);
  const char *bracket = strstr (name, " [");

  return bracket != NULL ? g_strndup (name, bracket - name) : g_strdup (name);
}

static char *
thread_subtitle (const WsRun *run, guint32 thread)
{
  const WsThread *t = ws_run_thread (run, thread);
  const char *name = thread_name (run, thread);
  g_autofree char *tid = g_strdup_printf ("%u", t != NULL ? t->tid : 0);

  if (name != NULL)
    /* TRANSLATORS: a thread's name and its id */
    return g_strdup_printf (_ ("%s [%s]"), name, tid);
  /* TRANSLATORS: %s is a thread id */
  return g_strdup_printf (_ ("Thread %s"), tid);
}

/* Whether the run's CPU lane holds traced ops (a PyTorch profiler trace's
 * cpu_op and python_function spans) rather than samples. */
static gboolean
traced_ops (const WsRun *run)
{
  return run->cpu_samples.profile != NULL &&
         g_strcmp0 (run->cpu_samples.profile->kind, "kineto") == 0;
}

/**
 * ws_timeline_lane_title:
 * @subtitle: (out) (optional) (transfer full): where it is (thread, device)
 *
 * Returns: (transfer full): what lane @lane shows: "Stream 7", "NVTX", …
 */
char *
ws_timeline_lane_title (const WsLanes *lanes, guint32 index, char **subtitle)
{
  const WsRun *run = ws_lanes_get_run (lanes);
  const WsLane *lane = ws_lanes_get_lane (lanes, index);
  char *sub = NULL;
  char *title = NULL;

  g_return_val_if_fail (lane != NULL, NULL);

  switch (lane->kind)
    {
      case WS_LANE_GROUP:
        if (lane->group_kind == WS_GROUP_GPU)
          {
            g_autofree char *id = g_strdup_printf ("%d", lane->device);

            /* TRANSLATORS: %s is a GPU's number */
            title = lane->device >= 0 ? g_strdup_printf (_ ("GPU %s"), id) : g_strdup (_ ("GPU"));
            sub = g_strdup (ws_run_gpu_name (run, lane->device));
          }
        else
          {
            g_autofree char *pid = g_strdup_printf ("%u", lane->pid);
            const char *name = ws_run_process_name (run, lane->pid);

            /* TRANSLATORS: %s is a process id */
            title = g_strdup_printf (_ ("Process %s"), pid);
            sub = name != NULL ? g_path_get_basename (name) : NULL;
          }
        break;
      case WS_LANE_STREAM:
        {
          const WsStream *stream = &g_array_index (run->streams, WsStream, lane->stream);
          g_autofree char *id = g_strdup_printf ("%d", stream->stream_id);
          g_autofree char *pid = g_strdup_printf ("%u", stream->pid);

          /* TRANSLATORS: %s is a CUDA stream's number */
          title = g_strdup_printf (_ ("Stream %s"), id);
          /* TRANSLATORS: %s is a process id */
          sub = g_strdup_printf (_ ("process %s"), pid);
        }
        break;
      case WS_LANE_NVTX:
        title = g_strdup (_ ("NVTX"));
        sub = thread_subtitle (run, lane->thread);
        break;
      case WS_LANE_API:
        title = g_strdup (_ ("CUDA API"));
        sub = thread_subtitle (run, lane->thread);
        break;
      case WS_LANE_OSRT:
        title = g_strdup (_ ("OS runtime"));
        sub = thread_subtitle (run, lane->thread);
        break;
      case WS_LANE_SAMPLES:
        /* A PyTorch profiler trace's ops are traced spans, not samples. */
        title = g_strdup (traced_ops (run) ? _ ("CPU ops") : _ ("CPU samples"));
        sub = thread_subtitle (run, lane->thread);
        break;
      case WS_LANE_METRIC:
        title = metric_title (run, lane);
        sub = lane->percent ? g_strdup_printf (_ ("%% of peak")) : NULL;
        break;
      case WS_LANE_MEMORY:
        {
          g_autofree char *peak = ws_format_bytes (lane->series.max);

          title = g_strdup (_ ("GPU memory"));
          /* TRANSLATORS: %s is an amount of memory, "132 MB" */
          sub = g_strdup_printf (_ ("%s at most"), peak);
        }
        break;
      default:
        title = g_strdup ("");
        break;
    }
  /* A job's lanes say whose they are: the group names the rank, each row
   * starts with it. */
  if (lane->rank >= 0)
    {
      char *ranked;

      if (lane->kind == WS_LANE_GROUP)
        {
          g_autofree char *pid = g_strdup_printf ("%u", lane->pid);
          const char *name = ws_run_process_name (run, lane->pid);
          g_autofree char *base = name != NULL ? g_path_get_basename (name) : NULL;

          /* TRANSLATORS: %u is a rank of a distributed job */
          ranked = g_strdup_printf (_ ("Rank %u"), (guint) lane->rank);
          g_free (sub);
          /* TRANSLATORS: a process's name, then its id */
          sub = base != NULL ? g_strdup_printf (_ ("%s, process %s"), base, pid)
                             : g_strdup_printf (_ ("process %s"), pid);
        }
      else
        /* TRANSLATORS: "r3 · Stream 7": a rank's number, then what its lane shows */
        ranked = g_strdup_printf (_ ("r%u · %s"), (guint) lane->rank, title);
      g_free (title);
      title = ranked;
    }
  if (subtitle != NULL)
    *subtitle = sub;
  else
    g_free (sub);
  return title;
}

/**
 * ws_timeline_event_label:
 *
 * Returns: (transfer full): the name drawn on an event: the kernel's name
 * in @form, the API call without its version suffix, the NVTX text, the
 * kind of a memory operation, or a graph replay's graph.
 */
char *
ws_timeline_event_label (const WsRun *run, WsEventRef event, WsNameForm form)
{
  gsize i = ws_event_ref_index (event);

  switch (ws_event_ref_kind (event))
    {
      case WS_EVENT_MEMOP:
        if (run->memops.kind[i] == WS_MEMOP_MEMSET)
          return g_strdup (_ ("Memset"));
        /* TRANSLATORS: %s is the direction, "Host-to-Device" */
        return g_strdup_printf (_ ("Memcpy %s"), ws_memop_kind_label (run->memops.kind[i]));
      case WS_EVENT_API:
        return ws_api_base_name (ws_run_string (run, run->api.name[i]));
      case WS_EVENT_REPLAY:
        return ws_replay_name (run, i);
      case WS_EVENT_KERNEL:
      case WS_EVENT_NVTX:
      case WS_EVENT_MARK:
      default:
        return g_strdup (ws_run_string (run, ws_event_name_id (run, event, form)));
    }
}

/**
 * ws_timeline_format_time:
 *
 * Returns: (transfer full): @time from the run's origin, to the
 * nanosecond: "130.234567 ms", "52.123456789 s".
 */
/**
 * ws_timeline_left_out_text:
 *
 * Returns: (transfer full) (nullable): what the timeline of @run leaves out
 *   past WS_EVENT_INDEX_MAX events of one kind, in a sentence; %NULL when
 *   it shows every event
 */
char *
ws_timeline_left_out_text (const WsRun *run)
{
  guint64 left_out = ws_lanes_count_left_out (run);
  g_autoptr (GString) count = g_string_new (NULL);
  g_autoptr (GString) limit = g_string_new (NULL);

  if (left_out == 0)
    return NULL;
  ws_format_int (count, (gint64) left_out, TRUE);
  ws_format_int (limit, WS_EVENT_INDEX_MAX, TRUE);
  /* TRANSLATORS: events not drawn, then how many of each kind are drawn */
  return g_strdup_printf (_ ("%s events are not drawn: the timeline takes the first %s of each "
                             "kind"),
                          count->str, limit->str);
}

/**
 * ws_timeline_format_range:
 *
 * The stretch of the run in a view from @start to @end (ns of the
 * session clock): both ends clamped to the run (a view may reach a little
 * before its start and after its end), in seconds, milliseconds or
 * microseconds by the larger, with as many decimals as a thousandth of the
 * span needs, so that a zoomed-out view does not print nanoseconds.  The
 * length is the printed end minus the printed start, in the same unit and
 * decimals, so that the three agree: "0.000 s – 7.368 s (7.368 s)",
 * "12.350 ms – 12.420 ms (0.070 ms)".
 *
 * Returns: (transfer full): the text
 */
char *
ws_timeline_format_range (const WsRun *run, gint64 start, gint64 end)
{
  gint64 last = MAX (run->end_time - run->origin, 0);
  gint64 from = CLAMP (start - run->origin, 0, last);
  gint64 to = CLAMP (end - run->origin, from, last);
  double unit = to >= 1000000000 ? 1e9 : to >= 1000000 ? 1e6 : 1e3;
  const char *name = unit == 1e9 ? "s" : unit == 1e6 ? "ms" : "µs";
  double step = MAX ((double) (end - start) / 1000.0, 1.0) / unit;
  int decimals = CLAMP ((int) ceil (-log10 (step)), 0, unit == 1e9 ? 9 : unit == 1e6 ? 6 : 3);
  /* ns of the last printed digit: each end rounds to a whole number of
   * them, and the length is their difference. */
  gint64 digit = (gint64) (unit / pow (10, decimals) + 0.5);
  gint64 a_digits = (from + digit / 2) / digit;
  gint64 b_digits = (to + digit / 2) / digit;
  double scale = pow (10, decimals);
  g_autofree char *a = ws_format_fixed_string ((double) a_digits / scale, decimals);
  g_autofree char *b = ws_format_fixed_string ((double) b_digits / scale, decimals);
  g_autofree char *length =
    ws_format_fixed_string ((double) (b_digits - a_digits) / scale, decimals);
  g_autofree char *span = g_strdup_printf ("%s %s", length, name);

  /* TRANSLATORS: the time in view: start – end (length) */
  return g_strdup_printf (_ ("%s %s – %s %s (%s)"), a, name, b, name, span);
}

char *
ws_timeline_format_time (const WsRun *run, gint64 time)
{
  gint64 offset = time - run->origin;
  g_autofree char *number = NULL;

  if (ABS (offset) >= 1000000000)
    {
      number = ws_format_fixed_string ((double) offset / 1e9, 9);
      return g_strdup_printf ("%s s", number);
    }
  number = ws_format_fixed_string ((double) offset / 1e6, 6);
  return g_strdup_printf ("%s ms", number);
}

static void
append_row (GString *out, const char *label, const char *value)
{
  g_autofree char *escaped = g_markup_escape_text (value, -1);

  g_string_append_printf (out, "\n<span alpha=\"70%%\">%s</span>  %s", label, escaped);
}

static char *
exact_ns (gint64 ns)
{
  GString *out = g_string_new (NULL);

  ws_format_int (out, ns, TRUE);
  g_string_append (out, " ns");
  return g_string_free (out, FALSE);
}

/* The thread and time at which the CPU side of @event happened: a kernel's
 * or a graph replay's launch, an API call or NVTX range itself. */
static gboolean
cpu_side (const WsLanes *lanes, WsNvtxKernels *nvtx_kernels, WsEventRef event, guint32 *thread,
          gint64 *time)
{
  const WsRun *run = ws_lanes_get_run (lanes);
  gsize i = ws_event_ref_index (event);

  switch (ws_event_ref_kind (event))
    {
      case WS_EVENT_KERNEL:
        {
          gssize a = nvtx_kernels != NULL
                       ? ws_launch_index_kernel (ws_nvtx_kernels_get_launches (nvtx_kernels), i)
                       : -1;

          if (a < 0)
            return FALSE;
          *thread = run->api.thread[a];
          *time = run->api.start[a];
          return TRUE;
        }
      case WS_EVENT_REPLAY:
        {
          gssize a = nvtx_kernels != NULL
                       ? ws_launch_index_replay (ws_nvtx_kernels_get_launches (nvtx_kernels), i)
                       : -1;

          if (a < 0)
            return FALSE;
          *thread = run->api.thread[a];
          *time = run->api.start[a];
          return TRUE;
        }
      case WS_EVENT_API:
      case WS_EVENT_NVTX:
      case WS_EVENT_MARK:
      case WS_EVENT_OSRT:
      case WS_EVENT_SAMPLE:
        *thread = ws_event_thread (run, event);
        *time = ws_event_start (run, event);
        return TRUE;
      case WS_EVENT_MEMOP:
      default:
        return FALSE;
    }
}

/**
 * ws_timeline_nvtx_path:
 *
 * Returns: (transfer full) (nullable): the NVTX ranges open on the CPU
 * side of @event ("compute › fma_heavy"): for a kernel those around its
 * launch, for an NVTX range those around it; %NULL if none.
 */
char *
ws_timeline_nvtx_path (const WsLanes *lanes, WsNvtxKernels *nvtx_kernels, WsEventRef event)
{
  const WsRun *run = ws_lanes_get_run (lanes);
  g_autoptr (GArray) path = NULL;
  GString *out;
  guint32 thread;
  gint64 time;

  if (!cpu_side (lanes, nvtx_kernels, event, &thread, &time))
    return NULL;
  path = ws_lanes_nvtx_enclosing (lanes, thread, time);
  out = g_string_new (NULL);
  for (guint p = 0; p < path->len; p++)
    {
      guint32 r = g_array_index (path, guint32, p);

      if (ws_event_ref_kind (event) == WS_EVENT_NVTX && r == ws_event_ref_index (event))
        break;
      if (out->len > 0)
        g_string_append (out, " › ");
      g_string_append (out, ws_run_string (run, run->nvtx.name[r]));
    }
  if (out->len == 0)
    {
      g_string_free (out, TRUE);
      return NULL;
    }
  return g_string_free (out, FALSE);
}

static void
append_kernel (GString *out, const WsRun *run, gsize i)
{
  const WsLaunchConfig *config = ws_run_kernel_config (run, i);
  const WsStream *stream = ws_run_kernel_stream (run, i);

  if (stream != NULL)
    {
      g_autofree char *where =
        g_strdup_printf ("%d / GPU %d", stream->stream_id, stream->device_id);

      append_row (out, _ ("Stream"), where);
    }
  if (config != NULL)
    {
      g_autofree char *grid =
        g_strdup_printf ("%u × %u × %u", config->grid[0], config->grid[1], config->grid[2]);
      g_autofree char *block =
        g_strdup_printf ("%u × %u × %u", config->block[0], config->block[1], config->block[2]);
      g_autofree char *regs = g_strdup_printf ("%u", config->registers);
      g_autofree char *smem_s = ws_format_bytes (config->static_smem);
      g_autofree char *smem_d = ws_format_bytes (config->dynamic_smem);
      /* TRANSLATORS: shared memory per block: static and dynamic amounts */
      g_autofree char *smem = g_strdup_printf (_ ("%s static, %s dynamic"), smem_s, smem_d);

      append_row (out, _ ("Grid"), grid);
      append_row (out, _ ("Block"), block);
      append_row (out, _ ("Registers per thread"), regs);
      append_row (out, _ ("Shared memory"), smem);
    }
  if (run->kernels.correlation != NULL)
    {
      g_autofree char *id = g_strdup_printf ("%u", run->kernels.correlation[i]);

      append_row (out, _ ("Correlation id"), id);
    }
  if (ws_run_kernel_in_graph (run, i))
    {
      g_autofree char *graph = ws_replay_name (run, run->kernels.replay[i]);

      append_row (out, _ ("Ran in a replay of"), graph);
    }
}

/* A graph replay: its graph, what the run holds of it, where it ran. */
static void
append_replay (GString *out, const WsRun *run, gsize i)
{
  const WsGraphReplays *g = &run->replays;
  const WsStream *stream = ws_run_replay_stream (run, i);
  g_autofree char *where = g_strdup_printf ("%d / GPU %d", stream->stream_id, stream->device_id);
  g_autofree char *id = g_strdup_printf ("%u", g->correlation[i]);
  g_autofree char *nodes = NULL;

  if (g->graph[i] != 0)
    {
      g_autofree char *graph = g_strdup_printf ("%u", g->graph[i]);

      append_row (out, _ ("Graph"), graph);
    }
  if (g->nodes[i] > 0)
    {
      g_autofree char *count = ws_format_count (g->nodes[i]);

      /* TRANSLATORS: %s is how many kernels and memory operations a replay of
       * a CUDA graph ran */
      nodes = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s kernel or memory operation",
                                            "%s kernels and memory operations", g->nodes[i]),
                               count);
    }
  else
    nodes = g_strdup (_ ("kernels not recorded (graph-level trace)"));
  append_row (out, _ ("Nodes"), nodes);
  append_row (out, _ ("Stream"), where);
  append_row (out, _ ("Correlation id"), id);
}

static void
append_memop (GString *out, const WsRun *run, gsize i)
{
  const WsMemops *m = &run->memops;
  const WsStream *stream =
    m->stream != NULL ? &g_array_index (run->streams, WsStream, m->stream[i]) : NULL;
  g_autofree char *bytes = ws_format_bytes ((double) m->bytes[i]);
  gint64 duration = m->end[i] - m->start[i];

  append_row (out, _ ("Size"), bytes);
  if (duration > 0 && m->kind[i] != WS_MEMOP_MEMSET)
    {
      g_autofree char *rate = ws_format_bytes ((double) m->bytes[i] / ((double) duration / 1e9));
      /* TRANSLATORS: a transfer rate, "%s" is an amount such as "12.3 GB" */
      g_autofree char *per_second = g_strdup_printf (_ ("%s/s"), rate);

      append_row (out, _ ("Throughput"), per_second);
    }
  if (m->kind[i] != WS_MEMOP_MEMSET && m->src_kind != NULL)
    {
      g_autofree char *kinds = g_strdup_printf ("%s → %s", ws_mem_kind_label (m->src_kind[i]),
                                                ws_mem_kind_label (m->dst_kind[i]));

      append_row (out, _ ("Memory"), kinds);
    }
  if (stream != NULL)
    {
      g_autofree char *where =
        g_strdup_printf ("%d / GPU %d", stream->stream_id, stream->device_id);

      append_row (out, _ ("Stream"), where);
    }
}

/* A CPU sample's call stack, innermost frame first, as nsys lists it. */
static void
append_stack (GString *out, const WsRun *run, gsize i)
{
  const WsCpuProfile *profile = run->cpu_samples.profile;
  guint32 sample = run->cpu_samples.sample[i];
  guint32 stack = g_array_index (profile->sample_stack, guint32, sample);
  guint32 first = g_array_index (profile->stack_first, guint32, stack);
  guint32 depth = g_array_index (profile->stack_depth, guint32, stack);
  guint shown = MIN (depth, 16);

  g_string_append_printf (out, "\n<span alpha=\"70%%\">%s</span>", _ ("Call stack"));
  for (guint d = 0; d < shown; d++)
    {
      guint32 frame = g_array_index (profile->stack_frames, guint32, first + depth - 1 - d);
      g_autofree char *label = ws_cpu_frame_label (profile, frame);
      g_autofree char *escaped = g_markup_escape_text (label, -1);

      g_string_append_printf (out, "\n  %s", escaped);
    }
  if (depth > shown)
    {
      g_autofree char *count = g_strdup_printf ("%u", depth - shown);
      /* TRANSLATORS: %s is a number of call stack frames */
      g_autofree char *more = g_strdup_printf (
        ngettext ("… and %s more frame", "… and %s more frames", depth - shown), count);

      g_string_append_printf (out, "\n  <span alpha=\"70%%\">%s</span>", more);
    }
}

/* What an event of @kind is, for its tooltip's second line. */
static const char *
kind_label (const WsRun *run, WsEventKind kind)
{
  switch (kind)
    {
      case WS_EVENT_KERNEL:
        return _ ("Kernel");
      case WS_EVENT_MEMOP:
        return _ ("Memory operation");
      case WS_EVENT_API:
        return _ ("CUDA API call");
      case WS_EVENT_OSRT:
        return _ ("OS runtime call");
      case WS_EVENT_SAMPLE:
        return traced_ops (run) ? _ ("CPU op") : _ ("CPU sample");
      case WS_EVENT_NVTX:
        return _ ("NVTX range");
      case WS_EVENT_REPLAY:
        return _ ("CUDA graph replay");
      case WS_EVENT_MARK:
      default:
        return _ ("NVTX mark");
    }
}

/**
 * ws_timeline_event_markup:
 * @nvtx_kernels: (nullable): for the NVTX path of kernels and the GPU time of ranges
 *
 * Returns: (transfer full): Pango markup describing @event, for tooltips
 * and the details panel: its name, when and how long, where, and what
 * is particular to its kind.
 */
char *
ws_timeline_event_markup (const WsLanes *lanes, WsNvtxKernels *nvtx_kernels, WsEventRef event)
{
  const WsRun *run = ws_lanes_get_run (lanes);
  gsize i = ws_event_ref_index (event);
  WsEventKind kind = ws_event_ref_kind (event);
  g_autofree char *name = NULL;
  g_autofree char *escaped = NULL;
  g_autofree char *start = NULL;
  g_autofree char *path = NULL;
  GString *out;
  const char *what;

  g_return_val_if_fail (ws_event_ref_is_valid (run, event), NULL);

  name = kind == WS_EVENT_KERNEL ? g_strdup (ws_run_kernel_name (run, i, WS_NAME_DEMANGLED))
                                 : ws_timeline_event_label (run, event, WS_NAME_DEMANGLED);
  escaped = g_markup_escape_text (name, -1);
  what = kind_label (run, kind);
  out = g_string_new (NULL);
  g_string_append_printf (out, "<b>%s</b>\n<span alpha=\"70%%\">%s</span>", escaped, what);

  start = ws_timeline_format_time (run, ws_event_start (run, event));
  append_row (out, _ ("Start"), start);
  if (kind != WS_EVENT_MARK && kind != WS_EVENT_SAMPLE)
    {
      gint64 d = ws_event_end (run, event) - ws_event_start (run, event);
      g_autofree char *human = ws_format_duration ((double) d);
      g_autofree char *exact = exact_ns (d);
      g_autofree char *both = g_strdup_printf ("%s (%s)", human, exact);

      append_row (out, _ ("Duration"), d >= 1000 ? both : human);
    }

  switch (kind)
    {
      case WS_EVENT_KERNEL:
        append_kernel (out, run, i);
        break;
      case WS_EVENT_MEMOP:
        append_memop (out, run, i);
        break;
      case WS_EVENT_REPLAY:
        append_replay (out, run, i);
        break;
      case WS_EVENT_API:
        {
          g_autofree char *ret =
            g_strdup_printf ("%d", run->api.return_value != NULL ? run->api.return_value[i] : 0);
          g_autofree char *id =
            g_strdup_printf ("%u", run->api.correlation != NULL ? run->api.correlation[i] : 0);

          append_row (out, _ ("Returned"), ret);
          append_row (out, _ ("Correlation id"), id);
        }
        break;
      case WS_EVENT_NVTX:
        {
          const char *domain = ws_run_nvtx_domain_name (run, run->nvtx.domain[i]);

          if (domain != NULL && domain[0] != '\0')
            append_row (out, _ ("Domain"), domain);
          if (nvtx_kernels != NULL)
            {
              g_autofree char *gpu =
                ws_format_duration ((double) ws_nvtx_kernels_gpu_time (nvtx_kernels, i));
              g_autofree char *count = ws_format_count (ws_nvtx_kernels_count (nvtx_kernels, i));

              append_row (out, _ ("GPU time launched inside"), gpu);
              append_row (out, _ ("Kernels launched inside"), count);
            }
        }
        break;
      case WS_EVENT_OSRT:
      case WS_EVENT_SAMPLE:
        {
          g_autofree char *thread = thread_subtitle (run, ws_event_thread (run, event));

          append_row (out, _ ("Thread"), thread);
          if (kind == WS_EVENT_SAMPLE)
            append_stack (out, run, i);
        }
        break;
      case WS_EVENT_MARK:
      default:
        break;
    }

  path = ws_timeline_nvtx_path (lanes, nvtx_kernels, event);
  if (path != NULL)
    append_row (out,
                kind == WS_EVENT_KERNEL || kind == WS_EVENT_REPLAY ? _ ("Launched in NVTX")
                                                                   : _ ("Inside NVTX"),
                path);
  return g_string_free (out, FALSE);
}

/**
 * ws_timeline_lane_value_markup:
 *
 * Returns: (transfer full) (nullable): what a metric or memory lane reads
 * at @time, as markup; %NULL for other lanes or before the first sample.
 */
char *
ws_timeline_lane_value_markup (const WsLanes *lanes, guint32 index, gint64 time)
{
  const WsLane *lane = ws_lanes_get_lane (lanes, index);
  g_autofree char *title = NULL;
  g_autofree char *escaped = NULL;
  g_autofree char *value = NULL;
  gssize at;

  if (lane == NULL || (lane->kind != WS_LANE_METRIC && lane->kind != WS_LANE_MEMORY))
    return NULL;
  at = ws_series_index_at (&lane->series, time);
  if (at < 0)
    return NULL;
  title = ws_timeline_lane_title (lanes, index, NULL);
  escaped = g_markup_escape_text (title, -1);
  if (lane->kind == WS_LANE_MEMORY)
    value = ws_format_bytes (lane->series.value[at]);
  else
    {
      g_autofree char *number = ws_format_fixed_string (lane->series.value[at], 1);

      value = g_strdup_printf (lane->percent ? "%s %%" : "%s", number);
    }
  return g_strdup_printf ("<b>%s</b>\n%s", escaped, value);
}
