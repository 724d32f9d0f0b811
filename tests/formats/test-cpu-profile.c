/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "ws-cpu-reader.h"
#include "ws-flame.h"
#include "ws-input.h"
#include "ws-reader-error.h"
#include "ws-run-loader.h"
#include "ws-test-util.h"

/* CPU profiles (tests/data/cpu; where each came from: tests/data/
 * THIRD-PARTY.md) and nsys's CPU samples: every number against
 * the file itself, read here with json-glib or by hand. */

static WsCpuProfile *
load_profile (const char *name)
{
  g_autofree char *path = ws_test_data ("cpu", name, NULL);
  g_autoptr (GError) error = NULL;
  WsCpuProfile *profile = ws_cpu_reader_load (path, &error);

  g_assert_no_error (error);
  g_assert_nonnull (profile);
  return profile;
}

/* Collapsed stacks as a table: stack → count. */
static GHashTable *
parse_collapsed (const char *text)
{
  GHashTable *table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *space = strrchr (lines[i], ' ');
      gint64 count;

      if (lines[i][0] == '\0')
        continue;
      g_assert_nonnull (space);
      count = g_ascii_strtoll (space + 1, NULL, 10);
      *space = '\0';
      g_assert_false (g_hash_table_contains (table, lines[i]));
      g_hash_table_insert (table, g_strdup (lines[i]), GINT_TO_POINTER ((gint) count));
    }
  return table;
}

static void
assert_same_stacks (GHashTable *truth, GHashTable *ours)
{
  GHashTableIter iter;
  gpointer key, value;

  g_assert_cmpuint (g_hash_table_size (ours), ==, g_hash_table_size (truth));
  g_hash_table_iter_init (&iter, truth);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      g_assert_true (g_hash_table_contains (ours, key));
      g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (ours, key)), ==,
                       GPOINTER_TO_INT (value));
    }
}

/* What py-spy's speedscope file says, summed here: each sample's frames
 * as `name (file:line)` joined by ';', its weight in 0.01 s samples. */
static GHashTable *
speedscope_truth (const char *path, double *total_s, const char *contains, double *matched_s)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  GHashTable *table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) sums = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  JsonObject *root;
  JsonArray *frames, *profiles;
  GHashTableIter iter;
  gpointer key, value;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  frames = json_object_get_array_member (json_object_get_object_member (root, "shared"), "frames");
  profiles = json_object_get_array_member (root, "profiles");
  *total_s = 0;
  *matched_s = 0;
  for (guint p = 0; p < json_array_get_length (profiles); p++)
    {
      JsonObject *profile = json_array_get_object_element (profiles, p);
      JsonArray *samples = json_object_get_array_member (profile, "samples");
      JsonArray *weights = json_object_get_array_member (profile, "weights");

      for (guint s = 0; s < json_array_get_length (samples); s++)
        {
          JsonArray *stack = json_array_get_array_element (samples, s);
          double weight = json_array_get_double_element (weights, s);
          g_autoptr (GString) line = g_string_new (NULL);
          double *sum;

          for (guint d = 0; d < json_array_get_length (stack); d++)
            {
              JsonObject *f = json_array_get_object_element (
                frames, (guint) json_array_get_int_element (stack, d));

              g_string_append_printf (line, "%s%s (%s:%" G_GINT64_FORMAT ")", d > 0 ? ";" : "",
                                      json_object_get_string_member (f, "name"),
                                      json_object_get_string_member (f, "file"),
                                      json_object_get_int_member (f, "line"));
            }
          sum = g_hash_table_lookup (sums, line->str);
          if (sum == NULL)
            {
              sum = g_new0 (double, 1);
              g_hash_table_insert (sums, g_strdup (line->str), sum);
            }
          *sum += weight;
          *total_s += weight;
          if (strstr (line->str, contains) != NULL)
            *matched_s += weight;
        }
    }
  g_hash_table_iter_init (&iter, sums);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_insert (table, g_strdup (key),
                         GINT_TO_POINTER ((gint) llround (*(double *) value / 0.01)));
  return table;
}

static void
test_speedscope_collapsed_matches_json (void)
{
  g_autofree char *path = ws_test_data ("cpu", "cs336_bpe_train.speedscope.json", NULL);
  const char *argv[] = { ws_test_cli (), "flame", path, NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GHashTable) truth = NULL;
  g_autoptr (GHashTable) ours = NULL;
  double total_s, matched_s;

  truth = speedscope_truth (path, &total_s, "_handle_results", &matched_s);
  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  ours = parse_collapsed (out);
  assert_same_stacks (truth, ours);
  /* 2 + 3186 + 3186 + 3807 samples of 0.01 s in the four threads. */
  g_assert_cmpfloat (fabs (total_s - 101.81), <, 1e-6);
}

static void
test_speedscope_model (void)
{
  g_autofree char *path = ws_test_data ("cpu", "cs336_bpe_train.speedscope.json", NULL);
  g_autoptr (WsCpuProfile) profile = load_profile ("cs336_bpe_train.speedscope.json");
  g_autoptr (WsFlameGraph) all = ws_flame_graph_new (profile, -1, 0, 0);
  g_autoptr (WsFlameGraph) main_thread = NULL;
  g_autoptr (GHashTable) truth = NULL;
  double total_s, matched_s;
  gint main_index = -1;

  truth = speedscope_truth (path, &total_s, "_handle_results", &matched_s);
  g_assert_cmpstr (profile->kind, ==, "py-spy");
  g_assert_cmpuint (profile->threads->len, ==, 4);
  g_assert_cmpuint (ws_cpu_profile_n_samples (profile), ==, 2 + 3186 + 3186 + 3807);
  g_assert_cmpfloat (fabs (all->total - total_s * 1e9), <, 1);
  g_assert_cmpfloat (all->sample_unit, ==, 0.01 * 1e9);
  for (guint t = 0; t < profile->threads->len; t++)
    if (strstr (ws_cpu_profile_thread_name (profile, t), "MainThread") != NULL)
      main_index = (gint) t;
  g_assert_cmpint (main_index, >=, 0);
  main_thread = ws_flame_graph_new (profile, main_index, 0, 0);
  g_assert_cmpfloat (fabs (main_thread->total - 38.07e9), <, 1e3);
  /* Search: every sample with a _handle_results frame, over all. */
  g_assert_cmpfloat (
    fabs (ws_flame_graph_match_share (all, "_handle_results", NULL) - matched_s / total_s), <,
    1e-9);
  g_assert_cmpfloat (ws_flame_graph_match_share (all, "no such frame", NULL), ==, 0);
}

/* pyinstrument's evented profile: <module> opens at 0 and closes with the
 * last event, at 4.619754290999481 s, and no stretch between has an empty
 * stack (checked by walking the events in Python), so the tree's total is
 * that span.  (endValue says 4.620257139205933: 0.5 ms after the last event.) */
static void
test_pyinstrument_evented (void)
{
  g_autoptr (WsCpuProfile) profile = load_profile ("speedscope_pyinstrument_molehill.json");
  g_autoptr (WsFlameGraph) graph = ws_flame_graph_new (profile, -1, 0, 0);
  const WsFlameNode *root = ws_flame_graph_node (graph, 0);
  g_autofree char *first = ws_flame_graph_node_label (graph, root->first_child);

  g_assert_cmpstr (profile->kind, ==, "speedscope-evented");
  g_assert_cmpfloat (fabs (graph->total - 4.619754290999481e9), <, 100);
  g_assert_cmpuint (root->first_child, !=, WS_FLAME_NO_NODE);
  g_assert_true (g_str_has_prefix (first, "<module> ("));
  g_assert_cmpfloat (ws_flame_graph_node (graph, root->first_child)->total, ==, graph->total);
}

static const WsFlameFunction *
find_function (const WsFlameGraph *graph, const char *label)
{
  for (guint i = 0; i < graph->functions->len; i++)
    {
      const WsFlameFunction *f = &g_array_index (graph->functions, WsFlameFunction, i);
      g_autofree char *l = ws_flame_graph_function_label (graph, f);

      if (g_str_equal (l, label))
        return f;
    }
  return NULL;
}

/* cProfile's table, after 54 lines of the program's own output:
 *   3448105 function calls (3441782 primitive calls) in 7.058 seconds
 *   402218    3.139    0.000    6.511    0.000 delaunay.py:95(inCircleFast)
 *   333/1    0.011    0.000    7.058    7.058 {built-in method builtins.exec}
 * and 1346 rows (awk over the file). */
static void
test_cprofile_sorted_by_time (void)
{
  g_autoptr (WsCpuProfile) profile = load_profile ("cprofile_pythondelaunay_sort_time.txt");
  g_autoptr (WsFlameGraph) graph = ws_flame_graph_new (profile, -1, 0, 0);
  const WsFlameFunction *hot = find_function (graph, "inCircleFast (delaunay.py)");
  const WsFlameFunction *exec = find_function (graph, "{built-in method builtins.exec}");

  g_assert_cmpstr (profile->kind, ==, "cprofile");
  g_assert_false (ws_cpu_profile_has_stacks (profile));
  g_assert_cmpuint (profile->functions->len, ==, 1346);
  g_assert_cmpint (profile->flat_calls, ==, 3448105);
  g_assert_cmpfloat (fabs (profile->flat_total - 7.058e9), <, 1);
  g_assert_nonnull (hot);
  g_assert_cmpint (hot->calls, ==, 402218);
  g_assert_cmpfloat (fabs (hot->self - 3.139e9), <, 1);
  g_assert_cmpfloat (fabs (hot->total - 6.511e9), <, 1);
  g_assert_nonnull (exec);
  g_assert_cmpint (exec->calls, ==, 333);
  g_assert_cmpint (exec->primitive_calls, ==, 1);
}

/* Ordered by standard name: 573 rows; the time is in posix.waitpid,
 *   173/4  422.552    2.442  422.556  105.639 {built-in method posix.waitpid} */
static void
test_cprofile_standard_name (void)
{
  g_autoptr (WsCpuProfile) profile = load_profile ("cprofile_clair_standard_name.txt");
  g_autoptr (WsFlameGraph) graph = ws_flame_graph_new (profile, -1, 0, 0);
  const WsFlameFunction *wait = find_function (graph, "{built-in method posix.waitpid}");

  g_assert_cmpuint (profile->functions->len, ==, 573);
  g_assert_cmpint (profile->flat_calls, ==, 27760);
  g_assert_nonnull (wait);
  g_assert_cmpint (wait->calls, ==, 173);
  g_assert_cmpint (wait->primitive_calls, ==, 4);
  g_assert_cmpfloat (fabs (wait->self - 422.552e9), <, 1);
}

typedef struct
{
  const char *file;
  const char *says;
} Refused;

static void
test_lookalikes_refused (void)
{
  static const Refused refused[] = {
    { "pyspy_profiling_test_svg_named_txt.txt", "a flame graph already drawn as SVG" },
    { "pyspy_calendarbot_dump.txt", "a py-spy dump" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autofree char *path = ws_test_data ("cpu", refused[i].file, NULL);
      const char *argv[] = { ws_test_cli (), "info", path, NULL };
      g_autofree char *out = NULL, *err = NULL;

      g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 2);
      g_assert_nonnull (strstr (err, path));
      g_assert_nonnull (strstr (err, refused[i].says));
      g_assert_cmpstr (strchr (err, '\n') + 1, ==, "");
    }
}

/* The file compressed here by the system's gzip or xz, into DIR. */
static char *
compress_copy (const char *path, const char *tool, const char *suffix, const char *dir)
{
  g_autofree char *program = g_find_program_in_path (tool);
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *name = g_strconcat (base, suffix, NULL);
  char *dest = g_build_filename (dir, name, NULL);
  const char *argv[] = { program, "-c", path, NULL };
  g_autofree char *out = NULL;
  g_autoptr (GError) error = NULL;
  gsize len = 0;

  if (program == NULL)
    return NULL;
  {
    g_autoptr (GSubprocess) p = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error);
    g_autoptr (GBytes) bytes = NULL;

    g_assert_no_error (error);
    g_subprocess_communicate (p, NULL, NULL, &bytes, NULL, &error);
    g_assert_no_error (error);
    out = g_bytes_unref_to_data (g_steal_pointer (&bytes), &len);
  }
  g_assert_true (g_file_set_contents (dest, out, (gssize) len, &error));
  g_assert_no_error (error);
  return dest;
}

/* py-spy's speedscope file gzipped and xz-compressed opens as itself: the
 * samples and seconds its JSON holds (summed here with json-glib), by
 * detection as by loading, and a compressed file of another kind is
 * refused with a line saying so. */
static void
test_compressed (void)
{
  g_autofree char *path = ws_test_data ("cpu", "cs336_bpe_train.speedscope.json", NULL);
  g_autofree char *dir = ws_test_tmpdir ();
  g_autoptr (GHashTable) truth = NULL;
  const char *tools[][2] = { { "gzip", ".gz" }, { "xz", ".xz" } };
  double total_s, matched_s;

  truth = speedscope_truth (path, &total_s, "_handle_results", &matched_s);
  for (gsize i = 0; i < G_N_ELEMENTS (tools); i++)
    {
      g_autofree char *packed = compress_copy (path, tools[i][0], tools[i][1], dir);
      g_autoptr (GError) error = NULL;
      g_autoptr (WsCpuProfile) profile = NULL;
      g_autoptr (WsFlameGraph) graph = NULL;

      if (packed == NULL)
        {
          g_test_message ("%s not installed: %s left out", tools[i][0], tools[i][1]);
          continue;
        }
      g_assert_cmpint (ws_input_detect (packed, &error), ==, WS_INPUT_CPU_PROFILE);
      g_assert_no_error (error);
      profile = ws_cpu_reader_load (packed, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (profile->kind, ==, "py-spy");
      g_assert_cmpuint (ws_cpu_profile_n_samples (profile), ==, 2 + 3186 + 3186 + 3807);
      graph = ws_flame_graph_new (profile, -1, 0, 0);
      g_assert_cmpfloat (fabs (graph->total - total_s * 1e9), <, 1);
    }

  /* cProfile's table after the program's output, xz-compressed: "3448105
   * function calls (3441782 primitive calls) in 7.058 seconds" (line 55). */
  {
    g_autofree char *text = ws_test_data ("cpu", "cprofile_pythondelaunay_sort_time.txt", NULL);
    g_autofree char *packed = compress_copy (text, "xz", ".xz", dir);
    g_autoptr (GError) error = NULL;
    g_autoptr (WsCpuProfile) profile = NULL;

    if (packed != NULL)
      {
        g_assert_cmpint (ws_input_detect (packed, &error), ==, WS_INPUT_CPU_PROFILE);
        g_assert_no_error (error);
        profile = ws_cpu_reader_load (packed, &error);
        g_assert_no_error (error);
        g_assert_cmpstr (profile->kind, ==, "cprofile");
        g_assert_cmpint (profile->flat_calls, ==, 3448105);
      }
  }

  /* A compressed nvprof log is not a CPU profile. */
  {
    g_autofree char *log = ws_test_data ("nvprof", "nichitapavel_nvprof.txt", NULL);
    g_autofree char *packed = compress_copy (log, "gzip", ".gz", dir);
    g_autoptr (GError) error = NULL;

    if (packed != NULL)
      {
        g_assert_cmpint (ws_input_detect (packed, &error), ==, WS_INPUT_UNKNOWN);
        g_assert_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT);
        g_assert_nonnull (
          strstr (error->message, "gzip-compressed file that is not a CPU profile"));
      }
  }
  ws_test_rmtree (dir);
}

/* `info` on CPU profiles speaks of them, not of nsys: py-spy's four
 * threads and 2 + 3186 + 3186 + 3807 samples of 0.01 s (101.81 s), and
 * cProfile's own first line, "27760 function calls (27248 primitive
 * calls) in 427.688 seconds". */
static void
test_info (void)
{
  g_autofree char *speedscope = ws_test_data ("cpu", "cs336_bpe_train.speedscope.json", NULL);
  g_autofree char *cprofile = ws_test_data ("cpu", "cprofile_clair_standard_name.txt", NULL);
  const char *argv1[] = { ws_test_cli (), "info", speedscope, NULL };
  const char *argv2[] = { ws_test_cli (), "info", cprofile, NULL };
  const char *argv3[] = { ws_test_cli (), "info", "--format", "json", cprofile, NULL };
  g_autofree char *out1 = NULL, *out2 = NULL, *out3 = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonObject *first;

  g_assert_cmpint (ws_test_run (argv1, &out1, NULL), ==, 0);
  g_assert_null (strstr (out1, "nsys"));
  g_assert_null (strstr (out1, "CUDA"));
  g_assert_nonnull (strstr (out1, "Kind:           CPU profile"));
  g_assert_nonnull (strstr (out1, "Profiler:       py-spy"));
  g_assert_nonnull (strstr (out1, "Samples:        10,181\n"));
  g_assert_nonnull (strstr (out1, "Threads:        4\n"));
  g_assert_nonnull (strstr (out1, "Total time:     102 s\n"));

  g_assert_cmpint (ws_test_run (argv2, &out2, NULL), ==, 0);
  g_assert_null (strstr (out2, "nsys"));
  g_assert_nonnull (strstr (out2, "Profiler:       cProfile"));
  g_assert_nonnull (strstr (out2, "Calls:          27,760\n"));
  g_assert_nonnull (strstr (out2, "Total time:     428 s\n"));

  g_assert_cmpint (ws_test_run (argv3, &out3, NULL), ==, 0);
  json_parser_load_from_data (parser, out3, -1, &error);
  g_assert_no_error (error);
  first = json_array_get_object_element (
    json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                  "cpu_profiles"),
    0);
  g_assert_cmpstr (json_object_get_string_member (first, "format"), ==, "cprofile");
  g_assert_cmpint (json_object_get_int_member (first, "total_ns"), ==, 427688000000);
}

/* Collapsed stacks written by `flame` read back as the same stacks. */

/* Collapsed stacks written by `flame -o`, and read back by `flame`, are
 * the speedscope file's own stacks and sample counts (its weights summed
 * here by speedscope_truth()). */
static void
test_collapsed_round_trip (void)
{
  g_autofree char *path = ws_test_data ("cpu", "cs336_bpe_train.speedscope.json", NULL);
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *folded = g_build_filename (dir, "bpe.folded", NULL);
  const char *write_argv[] = { ws_test_cli (), "flame", "-o", folded, path, NULL };
  const char *read_argv[] = { ws_test_cli (), "flame", folded, NULL };
  g_autofree char *out = NULL, *err = NULL, *out2 = NULL, *err2 = NULL;
  g_autofree char *written = NULL;
  g_autoptr (GHashTable) truth = NULL;
  g_autoptr (GHashTable) a = NULL;
  g_autoptr (GHashTable) b = NULL;
  double total_s, matched_s;

  truth = speedscope_truth (path, &total_s, "_handle_results", &matched_s);
  g_assert_cmpint (ws_test_run (write_argv, &out, &err), ==, 0);
  g_assert_cmpint (ws_test_run (read_argv, &out2, &err2), ==, 0);
  written = ws_test_read (folded);
  a = parse_collapsed (written);
  b = parse_collapsed (out2);
  assert_same_stacks (truth, a);
  assert_same_stacks (truth, b);
  ws_test_rmtree (dir);
}

/* `flame -o OUT.SVG` draws, as `-o OUT.svg` does: the image type is read
 * from the extension whatever its case (ws_surface_kind_for_path()). */
static void
test_image_extension_case (void)
{
  g_autofree char *path = ws_test_data ("cpu", "cs336_bpe_train.speedscope.json", NULL);
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *upper = g_build_filename (dir, "bpe.SVG", NULL);
  g_autofree char *lower = g_build_filename (dir, "bpe.svg", NULL);
  const char *upper_argv[] = { ws_test_cli (), "flame", "-o", upper, path, NULL };
  const char *lower_argv[] = { ws_test_cli (), "flame", "-o", lower, path, NULL };
  g_autofree char *out = NULL, *err = NULL, *out2 = NULL, *err2 = NULL;
  g_autofree char *upper_svg = NULL, *lower_svg = NULL;

  g_assert_cmpint (ws_test_run (upper_argv, &out, &err), ==, 0);
  g_assert_cmpint (ws_test_run (lower_argv, &out2, &err2), ==, 0);
  upper_svg = ws_test_read (upper);
  lower_svg = ws_test_read (lower);
  g_assert_true (g_str_has_prefix (upper_svg, "<?xml"));
  g_assert_nonnull (strstr (upper_svg, "<svg"));
  g_assert_cmpstr (upper_svg, ==, lower_svg);
  ws_test_rmtree (dir);
}

/* nsys CPU sampling: one sample per COMPOSITE_EVENTS row with a call
 * chain; the collapsed counts add up to that count (SQL here). */
static void
test_nsys_cpu_samples (void)
{
  g_autofree char *path = ws_test_data ("nsys", "v2022.4_rodinia_gaussian.sqlite", NULL);
  const char *paths[] = { path, NULL };
  const char *argv[] = { ws_test_cli (), "flame", path, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = ws_run_load (paths, WS_LOAD_ALL, NULL, NULL, NULL, &error);
  g_autofree char *count =
    ws_test_sqlite_text (path, "SELECT count(DISTINCT c.id) FROM SAMPLING_CALLCHAINS c "
                               "JOIN COMPOSITE_EVENTS e ON e.id = c.id");
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GHashTable) stacks = NULL;
  GHashTableIter iter;
  gpointer value;
  gint64 sum = 0;
  WsCpuProfile *profile;

  g_assert_no_error (error);
  g_assert_cmpuint (run->cpu_profiles->len, ==, 1);
  profile = g_ptr_array_index (run->cpu_profiles, 0);
  g_assert_cmpstr (profile->kind, ==, "nsys-cpu-samples");
  g_assert_true (profile->times_absolute);
  g_assert_cmpint ((gint64) ws_cpu_profile_n_samples (profile), ==,
                   g_ascii_strtoll (count, NULL, 10));
  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  stacks = parse_collapsed (out);
  g_hash_table_iter_init (&iter, stacks);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    sum += GPOINTER_TO_INT (value);
  g_assert_cmpint (sum, ==, g_ascii_strtoll (count, NULL, 10));
}

/* A time range keeps the samples in it: the first half of the samples'
 * span holds as many as SQL counts there. */
static void
test_nsys_cpu_samples_range (void)
{
  g_autofree char *path = ws_test_data ("nsys", "v2022.4_rodinia_gaussian.sqlite", NULL);
  const char *paths[] = { path, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = ws_run_load (paths, WS_LOAD_ALL, NULL, NULL, NULL, &error);
  g_autofree char *lo = ws_test_sqlite_text (path, "SELECT min(start) FROM COMPOSITE_EVENTS");
  g_autofree char *hi = ws_test_sqlite_text (path, "SELECT max(start) FROM COMPOSITE_EVENTS");
  gint64 from = g_ascii_strtoll (lo, NULL, 10);
  gint64 to = from + (g_ascii_strtoll (hi, NULL, 10) - from) / 2;
  g_autofree char *sql = g_strdup_printf (
    "SELECT count(DISTINCT c.id) FROM SAMPLING_CALLCHAINS c JOIN COMPOSITE_EVENTS e "
    "ON e.id = c.id WHERE e.start >= %" G_GINT64_FORMAT " AND e.start < %" G_GINT64_FORMAT,
    from, to);
  g_autofree char *count = ws_test_sqlite_text (path, sql);
  g_autoptr (WsFlameGraph) graph = NULL;

  g_assert_no_error (error);
  graph = ws_flame_graph_new (g_ptr_array_index (run->cpu_profiles, 0), -1, from, to);
  g_assert_cmpfloat (graph->total, ==, (double) g_ascii_strtoll (count, NULL, 10));
  g_assert_cmpfloat (graph->total, >, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cpu/speedscope/collapsed-matches-json",
                   test_speedscope_collapsed_matches_json);
  g_test_add_func ("/cpu/speedscope/model", test_speedscope_model);
  g_test_add_func ("/cpu/speedscope/evented", test_pyinstrument_evented);
  g_test_add_func ("/cpu/cprofile/sorted-by-time", test_cprofile_sorted_by_time);
  g_test_add_func ("/cpu/cprofile/standard-name", test_cprofile_standard_name);
  g_test_add_func ("/cpu/lookalikes-refused", test_lookalikes_refused);
  g_test_add_func ("/cpu/compressed/gzip-and-xz", test_compressed);
  g_test_add_func ("/cpu/info/speaks-of-the-profile", test_info);
  g_test_add_func ("/cpu/collapsed/round-trip", test_collapsed_round_trip);
  g_test_add_func ("/cpu/flame/image-extension-any-case", test_image_extension_case);
  g_test_add_func ("/cpu/nsys-samples/counts", test_nsys_cpu_samples);
  g_test_add_func ("/cpu/nsys-samples/range", test_nsys_cpu_samples_range);
  return g_test_run ();
}
