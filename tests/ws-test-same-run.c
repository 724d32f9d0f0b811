/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ws-test-same-run.h"

#define SAME_ARRAY(a, b, n)                                                                        \
  G_STMT_START                                                                                     \
  {                                                                                                \
    g_assert_true (((a) == NULL) == ((b) == NULL));                                                \
    if ((a) != NULL && (n) > 0)                                                                    \
      g_assert_cmpmem ((a), (n) * sizeof *(a), (b), (n) * sizeof *(b));                            \
  }                                                                                                \
  G_STMT_END

#define SAME_GARRAY(a, b)                                                                          \
  G_STMT_START                                                                                     \
  {                                                                                                \
    g_assert_cmpuint ((a)->len, ==, (b)->len);                                                     \
    if ((a)->len > 0)                                                                              \
      g_assert_cmpmem ((a)->data, (a)->len *g_array_get_element_size (a), (b)->data,               \
                       (b)->len *g_array_get_element_size (b));                                    \
  }                                                                                                \
  G_STMT_END

/* The CPU profiles' stacks and samples, and the timeline's samples. */
static void
assert_same_samples (const WsRun *a, const WsRun *b)
{
  g_assert_cmpuint (a->cpu_profiles->len, ==, b->cpu_profiles->len);
  for (guint i = 0; i < a->cpu_profiles->len; i++)
    {
      const WsCpuProfile *x = g_ptr_array_index (a->cpu_profiles, i);
      const WsCpuProfile *y = g_ptr_array_index (b->cpu_profiles, i);

      SAME_GARRAY (x->frames, y->frames);
      SAME_GARRAY (x->stack_first, y->stack_first);
      SAME_GARRAY (x->stack_depth, y->stack_depth);
      SAME_GARRAY (x->stack_frames, y->stack_frames);
      SAME_GARRAY (x->sample_stack, y->sample_stack);
      SAME_GARRAY (x->sample_thread, y->sample_thread);
      SAME_GARRAY (x->sample_time, y->sample_time);
      SAME_GARRAY (x->sample_end, y->sample_end);
    }
  g_assert_cmpuint (a->cpu_samples.n, ==, b->cpu_samples.n);
  SAME_ARRAY (a->cpu_samples.start, b->cpu_samples.start, a->cpu_samples.n);
  SAME_ARRAY (a->cpu_samples.end, b->cpu_samples.end, a->cpu_samples.n);
  SAME_ARRAY (a->cpu_samples.name, b->cpu_samples.name, a->cpu_samples.n);
  SAME_ARRAY (a->cpu_samples.thread, b->cpu_samples.thread, a->cpu_samples.n);
  SAME_ARRAY (a->cpu_samples.sample, b->cpu_samples.sample, a->cpu_samples.n);
}

/**
 * ws_test_assert_same_run:
 *
 * Asserts that @a and @b hold the same run, array for array: the events,
 * the ids interned for them in the same order (streams, threads,
 * configurations, strings, text and all), the processes, the counts of
 * each source and the CPU profiles' samples.  What a read on several
 * cores is checked against a read on one with (issue 41).
 */
void
ws_test_assert_same_run (const WsRun *a, const WsRun *b)
{
  g_assert_cmpuint (a->kernels.n, ==, b->kernels.n);
  SAME_ARRAY (a->kernels.start, b->kernels.start, a->kernels.n);
  SAME_ARRAY (a->kernels.end, b->kernels.end, a->kernels.n);
  SAME_ARRAY (a->kernels.demangled, b->kernels.demangled, a->kernels.n);
  SAME_ARRAY (a->kernels.short_name, b->kernels.short_name, a->kernels.n);
  SAME_ARRAY (a->kernels.mangled, b->kernels.mangled, a->kernels.n);
  SAME_ARRAY (a->kernels.stream, b->kernels.stream, a->kernels.n);
  SAME_ARRAY (a->kernels.correlation, b->kernels.correlation, a->kernels.n);
  SAME_ARRAY (a->kernels.config, b->kernels.config, a->kernels.n);

  g_assert_cmpuint (a->memops.n, ==, b->memops.n);
  SAME_ARRAY (a->memops.start, b->memops.start, a->memops.n);
  SAME_ARRAY (a->memops.end, b->memops.end, a->memops.n);
  SAME_ARRAY (a->memops.bytes, b->memops.bytes, a->memops.n);
  SAME_ARRAY (a->memops.kind, b->memops.kind, a->memops.n);
  SAME_ARRAY (a->memops.stream, b->memops.stream, a->memops.n);
  SAME_ARRAY (a->memops.correlation, b->memops.correlation, a->memops.n);

  g_assert_cmpuint (a->api.n, ==, b->api.n);
  SAME_ARRAY (a->api.start, b->api.start, a->api.n);
  SAME_ARRAY (a->api.end, b->api.end, a->api.n);
  SAME_ARRAY (a->api.name, b->api.name, a->api.n);
  SAME_ARRAY (a->api.thread, b->api.thread, a->api.n);
  SAME_ARRAY (a->api.correlation, b->api.correlation, a->api.n);
  SAME_ARRAY (a->api.return_value, b->api.return_value, a->api.n);

  g_assert_cmpuint (a->osrt.n, ==, b->osrt.n);
  SAME_ARRAY (a->osrt.start, b->osrt.start, a->osrt.n);
  SAME_ARRAY (a->osrt.name, b->osrt.name, a->osrt.n);
  SAME_ARRAY (a->osrt.thread, b->osrt.thread, a->osrt.n);

  g_assert_cmpuint (a->nvtx.n, ==, b->nvtx.n);
  SAME_ARRAY (a->nvtx.start, b->nvtx.start, a->nvtx.n);
  SAME_ARRAY (a->nvtx.end, b->nvtx.end, a->nvtx.n);
  SAME_ARRAY (a->nvtx.name, b->nvtx.name, a->nvtx.n);
  SAME_ARRAY (a->nvtx.thread, b->nvtx.thread, a->nvtx.n);
  SAME_ARRAY (a->nvtx.color, b->nvtx.color, a->nvtx.n);
  SAME_ARRAY (a->nvtx.domain, b->nvtx.domain, a->nvtx.n);
  SAME_ARRAY (a->nvtx.style, b->nvtx.style, a->nvtx.n);
  SAME_ARRAY (a->nvtx.depth, b->nvtx.depth, a->nvtx.n);
  g_assert_cmpuint (a->marks.n, ==, b->marks.n);
  SAME_ARRAY (a->marks.time, b->marks.time, a->marks.n);
  SAME_ARRAY (a->marks.name, b->marks.name, a->marks.n);
  SAME_ARRAY (a->marks.thread, b->marks.thread, a->marks.n);
  SAME_ARRAY (a->marks.domain, b->marks.domain, a->marks.n);
  g_assert_cmpuint (a->domains->len, ==, b->domains->len);
  for (guint i = 0; i < a->domains->len; i++)
    g_assert_cmpuint (g_array_index (a->domains, WsNvtxDomain, i).name, ==,
                      g_array_index (b->domains, WsNvtxDomain, i).name);
  /* Text interned in the same order gets the same ids. */
  g_assert_cmpuint (ws_string_table_size (a->strings), ==, ws_string_table_size (b->strings));
  for (guint i = 0; i < ws_string_table_size (a->strings); i++)
    g_assert_cmpstr (ws_string_table_get (a->strings, i), ==, ws_string_table_get (b->strings, i));

  /* Interned ids are numbered by first appearance, as one scan numbers them. */
  g_assert_cmpuint (a->streams->len, ==, b->streams->len);
  for (guint i = 0; i < a->streams->len; i++)
    {
      const WsStream *x = &g_array_index (a->streams, WsStream, i);
      const WsStream *y = &g_array_index (b->streams, WsStream, i);

      g_assert_cmpint (x->global_pid, ==, y->global_pid);
      g_assert_cmpint (x->device_id, ==, y->device_id);
      g_assert_cmpint (x->context_id, ==, y->context_id);
      g_assert_cmpint (x->stream_id, ==, y->stream_id);
    }
  g_assert_cmpuint (a->threads->len, ==, b->threads->len);
  for (guint i = 0; i < a->threads->len; i++)
    {
      g_assert_cmpint (g_array_index (a->threads, WsThread, i).global_tid, ==,
                       g_array_index (b->threads, WsThread, i).global_tid);
      g_assert_cmpuint (g_array_index (a->threads, WsThread, i).name, ==,
                        g_array_index (b->threads, WsThread, i).name);
    }
  g_assert_cmpuint (a->configs->len, ==, b->configs->len);
  if (a->configs->len > 0)
    g_assert_cmpmem (a->configs->data, a->configs->len * sizeof (WsLaunchConfig), b->configs->data,
                     b->configs->len * sizeof (WsLaunchConfig));

  g_assert_cmpuint (a->sources->len, ==, b->sources->len);
  for (guint i = 0; i < a->sources->len; i++)
    g_assert_cmpint (g_array_index (a->sources, WsSourceCount, i).rows, ==,
                     g_array_index (b->sources, WsSourceCount, i).rows);
  g_assert_cmpuint (a->prov.processes->len, ==, b->prov.processes->len);
  for (guint i = 0; i < a->prov.processes->len; i++)
    {
      g_assert_cmpuint (g_array_index (a->prov.processes, WsProcess, i).pid, ==,
                        g_array_index (b->prov.processes, WsProcess, i).pid);
      g_assert_cmpstr (g_array_index (a->prov.processes, WsProcess, i).name, ==,
                       g_array_index (b->prov.processes, WsProcess, i).name);
    }
  assert_same_samples (a, b);
  g_assert_cmpuint (a->prov.warnings->len, ==, b->prov.warnings->len);
  for (guint i = 0; i < a->prov.warnings->len; i++)
    g_assert_cmpstr (g_ptr_array_index (a->prov.warnings, i), ==,
                     g_ptr_array_index (b->prov.warnings, i));
}
