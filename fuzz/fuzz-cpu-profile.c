/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer target: the CPU profile readers (speedscope JSON, collapsed
 * stacks, cProfile text), the flame graph built from what loads, its
 * search and its collapsed output. */
#include "config.h"

#include "ws-cpu-reader.h"
#include "ws-flame.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  GError *error = NULL;
  WsCpuProfile *profile;

  ws_cpu_reader_sniff ("fuzz.txt", (const char *) data, MIN (size, 8192), &error);
  g_clear_error (&error);
  profile = ws_cpu_reader_load_data ("fuzz.txt", (const char *) data, size, &error);
  if (profile != NULL)
    {
      WsFlameGraph *graph = ws_flame_graph_new (profile, -1, 0, 0);
      GString *out = g_string_new (NULL);

      ws_flame_graph_write_collapsed (graph, out);
      ws_flame_graph_match_share (graph, "a", NULL);
      g_string_free (out, TRUE);
      ws_flame_graph_unref (graph);
      if (profile->threads->len > 0)
        {
          graph = ws_flame_graph_new (profile, 0, 0, G_MAXINT64);
          ws_flame_graph_unref (graph);
        }
      ws_cpu_profile_unref (profile);
    }
  g_clear_error (&error);
  return 0;
}
