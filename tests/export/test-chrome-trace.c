/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <sqlite3.h>
#include <string.h>

#include "ws-chrome-trace.h"
#include "ws-nsys-reader.h"
#include "ws-test-util.h"

#define PROBE "v2025.3_h100_probe.sqlite"

/* The probe's process (PROCESSES.pid) and its main thread's tid. */
#define PROBE_PID 3180

static WsRun *
load (const char *path)
{
  g_autoptr (GError) error = NULL;
  WsRun *run = ws_nsys_reader_load (path, WS_LOAD_ALL, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return run;
}

static gint64
sql_int (const char *path, const char *sql)
{
  g_autofree char *text = ws_test_sqlite_text (path, sql);

  g_assert_nonnull (text);
  return g_ascii_strtoll (text, NULL, 10);
}

/* Writes @source's trace into a new folder; returns the trace's path. */
static char *
write_trace (const char *source, const char *name)
{
  g_autoptr (WsRun) run = load (source);
  g_autofree char *dir = ws_test_tmpdir ();
  g_autoptr (GError) error = NULL;
  char *path = g_build_filename (dir, name, NULL);

  g_assert_true (ws_chrome_trace_write_file (run, path, NULL, &error));
  g_assert_no_error (error);
  return path;
}

static JsonParser *
parse (const char *path)
{
  JsonParser *parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  return parser;
}

static JsonArray *
events_of (JsonParser *parser)
{
  JsonObject *root = json_node_get_object (json_parser_get_root (parser));

  return json_object_get_array_member (root, "traceEvents");
}

static guint
count (JsonArray *events, const char *ph, const char *cat)
{
  guint n = 0;

  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *event = json_array_get_object_element (events, i);

      if (g_strcmp0 (json_object_get_string_member (event, "ph"), ph) == 0 &&
          (cat == NULL ||
           g_strcmp0 (json_object_get_string_member_with_default (event, "cat", NULL), cat) == 0))
        n++;
    }
  return n;
}

static void
remove_trace (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);

  ws_test_rmtree (dir);
}

/* One X event per kernel, memory operation, CUDA API call and NVTX range,
 * as many as the export's tables hold. */
static void
test_counts_equal_tables (void)
{
  g_autofree char *source = ws_test_data ("nsys", PROBE, NULL);
  g_autofree char *path = write_trace (source, "probe.json");
  g_autoptr (JsonParser) parser = parse (path);
  JsonArray *events = events_of (parser);

  g_assert_cmpuint (count (events, "X", "kernel"), ==,
                    ws_test_sqlite_count (source, "CUPTI_ACTIVITY_KIND_KERNEL"));
  g_assert_cmpuint (count (events, "X", "memory"), ==,
                    ws_test_sqlite_count (source, "CUPTI_ACTIVITY_KIND_MEMCPY"));
  g_assert_cmpuint (count (events, "X", "cuda_api"), ==,
                    ws_test_sqlite_count (source, "CUPTI_ACTIVITY_KIND_RUNTIME"));
  /* Push/pop (59) and start/end (60) ranges; the mark (34) is an instant. */
  g_assert_cmpuint (
    count (events, "X", "nvtx"), ==,
    sql_int (source, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType IN (59, 60)"));
  g_assert_cmpuint (count (events, "i", "nvtx_mark"), ==,
                    sql_int (source, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 34"));
  g_assert_cmpuint (count (events, "X", "kernel"), ==, 336);
  g_assert_cmpuint (count (events, "X", "memory"), ==, 103);
  g_assert_cmpuint (count (events, "X", "cuda_api"), ==, 865);
  g_assert_cmpuint (count (events, "X", "nvtx"), ==, 146);
  /* OS runtime calls (class 27) and CPU samples with a call chain. */
  g_assert_cmpuint (count (events, "X", "osrt"), ==,
                    sql_int (source, "SELECT count(*) FROM OSRT_API WHERE eventClass = 27"));
  g_assert_cmpuint (count (events, "X", "cpu_sample"), ==,
                    sql_int (source, "SELECT count(*) FROM COMPOSITE_EVENTS e WHERE EXISTS "
                                     "(SELECT 1 FROM SAMPLING_CALLCHAINS c WHERE c.id = e.id)"));
  g_assert_cmpuint (count (events, "X", "osrt"), ==, 882);
  g_assert_cmpuint (count (events, "X", "cpu_sample"), ==, 50);
  remove_trace (path);
}

static JsonObject *
find_event (JsonArray *events, const char *ph, const char *name, gint64 correlation)
{
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *event = json_array_get_object_element (events, i);
      JsonObject *args;

      if (g_strcmp0 (json_object_get_string_member (event, "ph"), ph) != 0 ||
          g_strcmp0 (json_object_get_string_member (event, "name"), name) != 0)
        continue;
      args = json_object_get_object_member (event, "args");
      if (correlation < 0 || (args != NULL && json_object_get_int_member_with_default (
                                                args, "correlation_id", -1) == correlation))
        return event;
    }
  g_error ("no %s event “%s” (correlation %" G_GINT64_FORMAT ")", ph, name, correlation);
  return NULL;
}

/* µs from the origin with the ns kept: compare as ns. */
static void
assert_time (JsonObject *event, gint64 origin, gint64 start, gint64 end)
{
  double ts = json_object_get_double_member (event, "ts");
  double dur = json_object_get_double_member (event, "dur");

  g_assert_cmpint ((gint64) llround (ts * 1000), ==, start - origin);
  g_assert_cmpint ((gint64) llround (dur * 1000), ==, end - start);
  g_assert_cmpfloat_with_epsilon (ts, (start - origin) / 1000.0, 1e-9);
}

/* Hand-picked events: start and end from their rows, the origin as the
 * earliest start of any event table: the capture's OS runtime calls and
 * CPU samples count (the timeline shows the whole capture). */
static void
test_times_of_picked_events (void)
{
  g_autofree char *source = ws_test_data ("nsys", PROBE, NULL);
  g_autofree char *path = write_trace (source, "probe.json");
  g_autoptr (JsonParser) parser = parse (path);
  JsonArray *events = events_of (parser);
  gint64 origin =
    sql_int (source, "SELECT min(t) FROM (SELECT min(start) AS t FROM CUPTI_ACTIVITY_KIND_KERNEL "
                     "UNION ALL SELECT min(start) FROM CUPTI_ACTIVITY_KIND_MEMCPY "
                     "UNION ALL SELECT min(start) FROM CUPTI_ACTIVITY_KIND_RUNTIME "
                     "UNION ALL SELECT min(start) FROM NVTX_EVENTS "
                     "UNION ALL SELECT min(start) FROM CUDA_GPU_MEMORY_USAGE_EVENTS "
                     "UNION ALL SELECT min(start) FROM OSRT_API WHERE eventClass = 27 "
                     "UNION ALL SELECT min(e.start) FROM COMPOSITE_EVENTS e "
                     "JOIN SAMPLING_CALLCHAINS c ON c.id = e.id)");
  JsonObject *event, *args;
  JsonArray *grid, *block;

  /* The first CPU sample, 315 ms before cuModuleGetLoadingMode (321,375,556),
   * the first CUDA call of the program. */
  g_assert_cmpint (origin, ==, 6752922);

  /* The slowest imbalanced kernel: correlation 978, 456,563,389 to
   * 456,600,990, stream 16, grid 64, block 256. */
  event = find_event (events, "X", "imbalanced(float *, int, int)", 978);
  assert_time (event, origin, 456563389, 456600990);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (event, "ts"), 449810.467, 1e-9);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (event, "dur"), 37.601, 1e-9);
  args = json_object_get_object_member (event, "args");
  grid = json_object_get_array_member (args, "grid");
  block = json_object_get_array_member (args, "block");
  g_assert_cmpint (json_array_get_int_element (grid, 0), ==, 64);
  g_assert_cmpint (json_array_get_int_element (block, 0), ==, 256);
  g_assert_cmpint (json_object_get_int_member (args, "stream"), ==, 16);
  g_assert_cmpint (json_object_get_int_member (event, "pid"), ==, WS_CHROME_TRACE_GPU_BASE + 0);

  /* The first cudaMalloc: correlation 118, 321,501,285 to 431,056,366. */
  event = find_event (events, "X", "cudaMalloc", 118);
  assert_time (event, origin, 321501285, 431056366);
  g_assert_cmpint (json_object_get_int_member (event, "pid"), ==, PROBE_PID);
  g_assert_cmpint (json_object_get_int_member (event, "tid"), ==, PROBE_PID);

  /* The first 64 MiB copy to the GPU. */
  event = find_event (events, "X", "[CUDA memcpy Host-to-Device]", 120);
  assert_time (event, origin, 431309658, 437623155);
  g_assert_cmpint (
    json_object_get_int_member (json_object_get_object_member (event, "args"), "bytes"), ==,
    67108864);
  g_assert_cmpint (sql_int (source, "SELECT end FROM CUPTI_ACTIVITY_KIND_MEMCPY "
                                    "WHERE correlationId = 120"),
                   ==, 437623155);

  /* An NVTX range with a Chinese name, 437,611,534 to 439,755,434. */
  event = find_event (events, "X", "频繁内存分配示例", -1);
  assert_time (event, origin, 437611534, 439755434);
  g_assert_cmpint (json_object_get_int_member (event, "tid"), ==, PROBE_PID);
  remove_trace (path);
}

static const char *
metadata_name (JsonArray *events, const char *what, gint64 pid, gint64 tid)
{
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *event = json_array_get_object_element (events, i);

      if (g_strcmp0 (json_object_get_string_member (event, "ph"), "M") == 0 &&
          g_strcmp0 (json_object_get_string_member (event, "name"), what) == 0 &&
          json_object_get_int_member (event, "pid") == pid &&
          (tid < 0 || json_object_get_int_member (event, "tid") == tid))
        return json_object_get_string_member (json_object_get_object_member (event, "args"),
                                              "name");
    }
  return NULL;
}

/* Every pid and tid of the X events is named; the GPU by its name, its
 * streams by their ids, the CPU thread by ThreadNames. */
static void
test_metadata_names_processes_and_threads (void)
{
  g_autofree char *source = ws_test_data ("nsys", PROBE, NULL);
  g_autofree char *path = write_trace (source, "probe.json");
  g_autoptr (JsonParser) parser = parse (path);
  JsonArray *events = events_of (parser);
  g_autofree char *gpu = ws_test_sqlite_text (source, "SELECT name FROM TARGET_INFO_GPU");
  g_autofree char *thread = ws_test_sqlite_text (
    source, "SELECT s.value FROM ThreadNames t JOIN StringIds s ON s.id = t.nameId "
            "WHERE t.globalTid = 281528328260716");
  g_autofree char *process =
    ws_test_sqlite_text (source, "SELECT name FROM PROCESSES WHERE pid = 3180");
  g_autofree char *gpu_label = g_strdup_printf ("GPU 0: %s", gpu);
  g_autoptr (GHashTable) streams = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  g_assert_cmpstr (metadata_name (events, "process_name", WS_CHROME_TRACE_GPU_BASE, -1), ==,
                   gpu_label);
  g_assert_cmpstr (metadata_name (events, "thread_name", PROBE_PID, PROBE_PID), ==, thread);
  g_assert_nonnull (strstr (metadata_name (events, "process_name", PROBE_PID, -1), process));

  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *event = json_array_get_object_element (events, i);
      const char *ph = json_object_get_string_member (event, "ph");
      gint64 pid = json_object_get_int_member (event, "pid");
      gint64 tid = json_object_get_int_member (event, "tid");
      const char *name;

      if (g_strcmp0 (ph, "X") != 0)
        continue;
      g_assert_nonnull (metadata_name (events, "process_name", pid, -1));
      name = metadata_name (events, "thread_name", pid, tid);
      g_assert_nonnull (name);
      if (pid == WS_CHROME_TRACE_GPU_BASE)
        g_hash_table_add (streams, g_strdup (name));
    }
  /* SELECT DISTINCT streamId FROM kernels ∪ memcpy: 7, 13, 14, 15, 16. */
  g_assert_cmpuint (g_hash_table_size (streams), ==, 5);
  g_assert_true (g_hash_table_contains (streams, "Stream 7"));
  g_assert_true (g_hash_table_contains (streams, "Stream 16"));
  remove_trace (path);
}

/* One "s" in each launch call and one "f" in its GPU work, paired by id. */
static void
test_flows_pair_up (void)
{
  g_autofree char *source = ws_test_data ("nsys", PROBE, NULL);
  g_autofree char *path = write_trace (source, "probe.json");
  g_autoptr (JsonParser) parser = parse (path);
  JsonArray *events = events_of (parser);
  g_autoptr (GHashTable) starts = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr (GHashTable) finishes =
    g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  gint64 launches =
    sql_int (source, "SELECT (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN "
                     "CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId) + "
                     "(SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY m JOIN "
                     "CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = m.correlationId)");
  JsonObject *call, *kernel;
  double s_ts = -1, f_ts = -1;

  g_assert_cmpint (launches, ==, 336 + 103);
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *event = json_array_get_object_element (events, i);
      const char *ph = json_object_get_string_member (event, "ph");
      gint64 id;
      GHashTable *table;

      if (g_strcmp0 (ph, "s") != 0 && g_strcmp0 (ph, "f") != 0)
        continue;
      id = json_object_get_int_member (event, "id");
      table = ph[0] == 's' ? starts : finishes;
      g_assert_false (g_hash_table_contains (table, &id));
      g_hash_table_insert (table, g_memdup2 (&id, sizeof id), event);
      if (ph[0] == 's')
        g_assert_cmpint (json_object_get_int_member (event, "pid"), ==, PROBE_PID);
      else
        {
          g_assert_cmpint (json_object_get_int_member (event, "pid"), ==, WS_CHROME_TRACE_GPU_BASE);
          g_assert_cmpstr (json_object_get_string_member (event, "bp"), ==, "e");
        }
      if (id == 978)
        *(ph[0] == 's' ? &s_ts : &f_ts) = json_object_get_double_member (event, "ts");
    }
  g_assert_cmpuint (g_hash_table_size (starts), ==, launches);
  g_assert_cmpuint (g_hash_table_size (finishes), ==, launches);
  {
    GHashTableIter iter;
    gpointer key;

    g_hash_table_iter_init (&iter, starts);
    while (g_hash_table_iter_next (&iter, &key, NULL))
      g_assert_true (g_hash_table_contains (finishes, key));
  }

  /* The flow of correlation 978 starts inside its cudaLaunchKernel and
   * ends inside the kernel: both are slices that enclose the ts. */
  call = find_event (events, "X", "cudaLaunchKernel", 978);
  kernel = find_event (events, "X", "imbalanced(float *, int, int)", 978);
  g_assert_cmpfloat (s_ts, >, json_object_get_double_member (call, "ts"));
  g_assert_cmpfloat (s_ts, <,
                     json_object_get_double_member (call, "ts") +
                       json_object_get_double_member (call, "dur"));
  g_assert_cmpfloat (f_ts, >, json_object_get_double_member (kernel, "ts"));
  g_assert_cmpfloat (f_ts, <,
                     json_object_get_double_member (kernel, "ts") +
                       json_object_get_double_member (kernel, "dur"));
  remove_trace (path);
}

static char *
gunzip (const char *path)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  g_autoptr (GInputStream) raw = G_INPUT_STREAM (g_file_read (file, NULL, &error));
  g_autoptr (GZlibDecompressor) gzip = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  g_autoptr (GInputStream) in = g_converter_input_stream_new (raw, G_CONVERTER (gzip));
  g_autoptr (GOutputStream) out = g_memory_output_stream_new_resizable ();

  g_assert_no_error (error);
  g_output_stream_splice (out, in, G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, &error);
  g_assert_no_error (error);
  g_output_stream_write (out, "", 1, NULL, NULL);
  return g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (out));
}

/* OUT.json.gz holds the same JSON, gzip-compressed. */
static void
test_gzip_decompresses_to_same_json (void)
{
  g_autofree char *source = ws_test_data ("nsys", PROBE, NULL);
  g_autofree char *plain = write_trace (source, "probe.json");
  g_autofree char *packed = write_trace (source, "probe.json.gz");
  g_autofree char *json = NULL;
  g_autofree char *unpacked = gunzip (packed);
  gsize plain_len = 0;
  GStatBuf st;

  g_assert_true (g_file_get_contents (plain, &json, &plain_len, NULL));
  g_assert_cmpuint (strlen (unpacked), ==, plain_len);
  g_assert_true (strcmp (unpacked, json) == 0);
  g_assert_cmpint (g_stat (packed, &st), ==, 0);
  g_assert_cmpint (st.st_size, <, (goffset) plain_len / 4);
  remove_trace (plain);
  remove_trace (packed);
}

/* Names pass through json-glib: quotes, backslashes and control
 * characters in an NVTX name come back unchanged. */
static void
test_names_are_escaped (void)
{
  g_autofree char *source = ws_test_data ("nsys", PROBE, NULL);
  g_autofree char *copy = ws_test_copy_to_tmp (source, "odd-names.sqlite");
  g_autofree char *copy_dir = g_path_get_dirname (copy);
  g_autofree char *path = NULL;
  g_autoptr (JsonParser) parser = NULL;
  const char *odd = "say \"hi\" \\ back\nslash\t\x01 ✓";
  char *sql = sqlite3_mprintf ("UPDATE NVTX_EVENTS SET text = %Q WHERE text = 'compute'", odd);
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (copy, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_changes (db), ==, 1);
  sqlite3_close (db);
  sqlite3_free (sql);

  path = write_trace (copy, "odd.json");
  parser = parse (path);
  g_assert_nonnull (find_event (events_of (parser), "X", odd, -1));
  remove_trace (path);
  ws_test_rmtree (copy_dir);
}

/* A failed export leaves nothing behind: no half file, no temporary, and
 * an earlier file of that name intact. */
static void
test_failed_export_leaves_no_file (void)
{
  g_autofree char *source = ws_test_data ("nsys", PROBE, NULL);
  g_autoptr (WsRun) run = load (source);
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *missing = g_build_filename (dir, "no-such-folder", "out.json", NULL);
  g_autofree char *existing = g_build_filename (dir, "out.json", NULL);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) names = NULL;
  g_autofree char *contents = NULL;

  g_assert_false (ws_chrome_trace_write_file (run, missing, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, missing));
  g_clear_error (&error);

  g_assert_true (g_file_set_contents (existing, "before", -1, NULL));
  g_cancellable_cancel (cancellable);
  g_assert_false (ws_chrome_trace_write_file (run, existing, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_true (g_file_get_contents (existing, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "before");
  names = ws_test_list_dir (dir);
  g_assert_cmpuint (names->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (names, 0), ==, "out.json");
  ws_test_rmtree (dir);
}

/* Every export with kernels loads into a trace that parses. */
static void
test_every_fixture_parses (void)
{
  static const char *const files[] = {
    "v2021.2_mordred.sqlite",
    "v2022.2_pipit_saxpy_mpi.sqlite",
    "v2024.5_pipit_cloverleaf_4gpu.sqlite",
    "v2026.2_nsysai_h100_2gpu.sqlite",
  };

  for (gsize i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *source = ws_test_data ("nsys", files[i], NULL);
      g_autofree char *path = write_trace (source, "trace.json");
      g_autoptr (JsonParser) parser = parse (path);
      JsonArray *events = events_of (parser);

      g_test_message ("%s", files[i]);
      g_assert_cmpuint (count (events, "X", "kernel"), ==,
                        ws_test_sqlite_count (source, "CUPTI_ACTIVITY_KIND_KERNEL"));
      g_assert_cmpuint (count (events, "X", "cuda_api"), ==,
                        ws_test_sqlite_count (source, "CUPTI_ACTIVITY_KIND_RUNTIME"));
      g_assert_cmpuint (count (events, "s", "launch"), ==, count (events, "f", "launch"));
      remove_trace (path);
    }
}

/* Every "ts" and "dur" is µs with exactly three decimals, the ns exact in
 * the text itself (not a double that rounds back to them): the first
 * kernel's ts is its start from SQL minus the origin, as text. */
static void
test_times_are_exact_text (void)
{
  g_autofree char *sqlite = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autofree char *path = write_trace (sqlite, "probe.json");
  g_autofree char *text = NULL;
  g_autoptr (GRegex) any = g_regex_new ("\"(ts|dur)\":([^,}]*)", 0, 0, NULL);
  g_autoptr (GRegex) exact = g_regex_new ("^-?[0-9]+\\.[0-9]{3}$", 0, 0, NULL);
  g_autoptr (GMatchInfo) match = NULL;
  g_autofree char *first = ws_test_sqlite_text (
    sqlite, "SELECT start FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY start LIMIT 1");
  g_autofree char *origin = NULL, *expected = NULL;
  gint64 ns;
  guint times = 0, inexact = 0;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  for (g_regex_match (any, text, 0, &match); g_match_info_matches (match);
       g_match_info_next (match, NULL))
    {
      g_autofree char *value = g_match_info_fetch (match, 2);

      times++;
      if (!g_regex_match (exact, value, 0, NULL))
        {
          if (inexact++ < 3)
            g_test_message ("not exact: %s", value);
        }
    }
  g_test_message ("%u times, %u not µs with three decimals", times, inexact);
  g_assert_cmpuint (times, >, 1000);
  g_assert_cmpuint (inexact, ==, 0);

  origin = g_strndup (strstr (text, "\"origin_ns\":") + strlen ("\"origin_ns\":"), 20);
  ns = g_ascii_strtoll (first, NULL, 10) - g_ascii_strtoll (origin, NULL, 10);
  expected = g_strdup_printf ("\"cat\":\"kernel\",\"ph\":\"X\",\"pid\":16777216,\"tid\":16777216,"
                              "\"ts\":%" G_GINT64_FORMAT ".%03d,",
                              ns / 1000, (int) (ns % 1000));
  g_test_message ("first kernel: %s", expected);
  g_assert_nonnull (strstr (text, expected));
  remove_trace (path);
}

/* ns from a "ts" or "dur" member (µs with the ns in three decimals). */
static gint64
ns_of (JsonObject *event, const char *member)
{
  return (gint64) llround (json_object_get_double_member (event, member) * 1000);
}

static JsonObject *
find_flow (JsonArray *events, const char *ph, gint64 id)
{
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *event = json_array_get_object_element (events, i);

      if (g_strcmp0 (json_object_get_string_member (event, "ph"), ph) == 0 &&
          json_object_get_int_member (event, "id") == id)
        return event;
    }
  return NULL;
}

/* The CUDA API call of @correlation. */
static JsonObject *
find_call (JsonArray *events, gint64 correlation)
{
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *event = json_array_get_object_element (events, i);

      if (g_strcmp0 (json_object_get_string_member_with_default (event, "cat", ""), "cuda_api") ==
            0 &&
          json_object_get_int_member (json_object_get_object_member (event, "args"),
                                      "correlation_id") == correlation)
        return event;
    }
  g_error ("no CUDA API call of correlation %" G_GINT64_FORMAT, correlation);
  return NULL;
}

/* A graph-level trace (issue 39's decode_graph, nsys
 * --cuda-graph-trace=graph): one "CUDA graph N" slice per GRAPH_TRACE row
 * on its stream's thread, as long as the row, placed after its
 * cudaGraphLaunch as SQL places it, with the graph, its nodes (none
 * recorded) and the launch as args, and a flow from that call into it. */
static void
test_graph_trace_replays (void)
{
  g_autofree char *dir = ws_test_unpack ("captures/h200_graphs_capture.tar.xz");
  g_autofree char *source =
    g_build_filename (dir, "graph", "decode_graph", "nsys", "decode_graph.sqlite", NULL);
  g_autofree char *path = write_trace (source, "graphs.json");
  g_autoptr (JsonParser) parser = parse (path);
  JsonArray *events = events_of (parser);
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  guint rows = 0;

  g_assert_cmpuint (count (events, "X", "cuda_graph"), ==,
                    ws_test_sqlite_count (source, "CUPTI_ACTIVITY_KIND_GRAPH_TRACE"));
  g_assert_cmpuint (count (events, "X", "cuda_graph"), ==, 40);
  g_assert_cmpint (sqlite3_open_v2 (source, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (
    sqlite3_prepare_v2 (db,
                        "SELECT g.start, g.end, g.streamId, g.graphExecId, g.correlationId, r.start"
                        " FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE g JOIN CUPTI_ACTIVITY_KIND_RUNTIME r"
                        " ON r.correlationId = g.correlationId ORDER BY g.start",
                        -1, &stmt, NULL),
    ==, SQLITE_OK);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      gint64 start = sqlite3_column_int64 (stmt, 0), end = sqlite3_column_int64 (stmt, 1);
      gint64 correlation = sqlite3_column_int64 (stmt, 4);
      g_autofree char *name =
        g_strdup_printf ("CUDA graph %" G_GINT64_FORMAT, (gint64) sqlite3_column_int64 (stmt, 3));
      g_autofree char *stream = g_strdup_printf ("Stream %d", sqlite3_column_int (stmt, 2));
      JsonObject *replay = find_event (events, "X", name, correlation);
      JsonObject *call = find_call (events, correlation);
      JsonObject *args = json_object_get_object_member (replay, "args");
      JsonObject *from = find_flow (events, "s", correlation);
      JsonObject *into = find_flow (events, "f", correlation);

      g_assert_true (
        g_str_has_prefix (json_object_get_string_member (call, "name"), "cudaGraphLaunch"));
      g_assert_cmpstr (json_object_get_string_member (replay, "cat"), ==, "cuda_graph");
      g_assert_cmpint (ns_of (replay, "dur"), ==, end - start);
      g_assert_cmpint (ns_of (replay, "ts") - ns_of (call, "ts"), ==,
                       start - sqlite3_column_int64 (stmt, 5));
      g_assert_cmpint (json_object_get_int_member (args, "graph"), ==,
                       sqlite3_column_int64 (stmt, 3));
      g_assert_cmpint (json_object_get_int_member (args, "nodes"), ==, 0);
      g_assert_cmpint (json_object_get_int_member (args, "stream"), ==,
                       sqlite3_column_int (stmt, 2));
      g_assert_cmpstr (metadata_name (events, "thread_name",
                                      json_object_get_int_member (replay, "pid"),
                                      json_object_get_int_member (replay, "tid")),
                       ==, stream);
      /* The flow leaves the call and lands inside the replay. */
      g_assert_nonnull (from);
      g_assert_nonnull (into);
      g_assert_cmpint (json_object_get_int_member (from, "tid"), ==,
                       json_object_get_int_member (call, "tid"));
      g_assert_cmpint (json_object_get_int_member (into, "tid"), ==,
                       json_object_get_int_member (replay, "tid"));
      g_assert_cmpint (ns_of (into, "ts"), >, ns_of (replay, "ts"));
      g_assert_cmpint (ns_of (into, "ts"), <, ns_of (replay, "ts") + ns_of (replay, "dur"));
      rows++;
    }
  g_assert_cmpuint (rows, ==, 40);
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  remove_trace (path);
  ws_test_rmtree (dir);
}

/* A node-level trace: one slice per launch of a graph, from its first
 * kernel to its last, with as many nodes as SQL counts kernels of that
 * launch, each of them inside it, so that a viewer nests them; the
 * flows stay the kernels' own. */
static void
test_node_trace_replays (void)
{
  g_autofree char *dir = ws_test_unpack ("captures/h200_graphs_capture.tar.xz");
  g_autofree char *source =
    g_build_filename (dir, "node", "decode_graph", "nsys", "decode_graph.sqlite", NULL);
  g_autofree char *path = write_trace (source, "nodes.json");
  g_autoptr (JsonParser) parser = parse (path);
  JsonArray *events = events_of (parser);
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  guint rows = 0;

  g_assert_cmpint (count (events, "X", "cuda_graph"), ==,
                   sql_int (source, "SELECT count(DISTINCT correlationId) FROM "
                                    "CUPTI_ACTIVITY_KIND_KERNEL WHERE graphNodeId IS NOT NULL"));
  g_assert_cmpint (count (events, "f", "launch"), ==,
                   sql_int (source, "SELECT (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                                    "JOIN CUPTI_ACTIVITY_KIND_RUNTIME r USING (correlationId)) + "
                                    "(SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY m JOIN "
                                    "CUPTI_ACTIVITY_KIND_RUNTIME r USING (correlationId)) + "
                                    "(SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMSET m JOIN "
                                    "CUPTI_ACTIVITY_KIND_RUNTIME r USING (correlationId))"));
  g_assert_cmpint (sqlite3_open_v2 (source, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db,
                                       "SELECT correlationId, min(start), max(end), count(*), "
                                       "graphNodeId >> 32 FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE "
                                       "graphNodeId IS NOT NULL GROUP BY correlationId",
                                       -1, &stmt, NULL),
                   ==, SQLITE_OK);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      gint64 correlation = sqlite3_column_int64 (stmt, 0);
      g_autofree char *name =
        g_strdup_printf ("CUDA graph %" G_GINT64_FORMAT, (gint64) sqlite3_column_int64 (stmt, 4));
      JsonObject *replay = find_event (events, "X", name, correlation);
      JsonObject *args = json_object_get_object_member (replay, "args");
      gint64 ts = ns_of (replay, "ts"), dur = ns_of (replay, "dur");
      guint inside = 0;

      g_assert_cmpint (dur, ==, sqlite3_column_int64 (stmt, 2) - sqlite3_column_int64 (stmt, 1));
      g_assert_cmpint (json_object_get_int_member (args, "nodes"), ==,
                       sqlite3_column_int64 (stmt, 3));
      for (guint i = 0; i < json_array_get_length (events); i++)
        {
          JsonObject *event = json_array_get_object_element (events, i);
          JsonObject *kargs;

          if (g_strcmp0 (json_object_get_string_member_with_default (event, "cat", ""), "kernel"))
            continue;
          kargs = json_object_get_object_member (event, "args");
          if (json_object_get_int_member (kargs, "correlation_id") != correlation)
            continue;
          g_assert_cmpint (json_object_get_int_member (event, "tid"), ==,
                           json_object_get_int_member (replay, "tid"));
          g_assert_cmpint (ns_of (event, "ts"), >=, ts);
          g_assert_cmpint (ns_of (event, "ts") + ns_of (event, "dur"), <=, ts + dur);
          inside++;
        }
      g_assert_cmpint (inside, ==, sqlite3_column_int64 (stmt, 3));
      rows++;
    }
  g_assert_cmpuint (rows, ==, 40);
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  remove_trace (path);
  ws_test_rmtree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/chrome-trace/probe/counts-equal-tables", test_counts_equal_tables);
  g_test_add_func ("/chrome-trace/probe/times-of-picked-events", test_times_of_picked_events);
  g_test_add_func ("/chrome-trace/probe/metadata-names-processes-and-threads",
                   test_metadata_names_processes_and_threads);
  g_test_add_func ("/chrome-trace/probe/flows-pair-up", test_flows_pair_up);
  g_test_add_func ("/chrome-trace/gzip/decompresses-to-same-json",
                   test_gzip_decompresses_to_same_json);
  g_test_add_func ("/chrome-trace/names-are-escaped", test_names_are_escaped);
  g_test_add_func ("/chrome-trace/failed-export-leaves-no-file", test_failed_export_leaves_no_file);
  g_test_add_func ("/chrome-trace/every-fixture-parses", test_every_fixture_parses);
  g_test_add_func ("/chrome-trace/probe/times-are-exact-text", test_times_are_exact_text);
  g_test_add_func ("/chrome-trace/graph-replays/a-slice-per-graph-trace-row",
                   test_graph_trace_replays);
  g_test_add_func ("/chrome-trace/graph-replays/node-trace-slice-encloses-its-kernels",
                   test_node_trace_replays);

  return g_test_run ();
}
