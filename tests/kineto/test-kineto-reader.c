/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gio/gio.h>
#include <stdlib.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "ws-csv.h"
#include "ws-input.h"
#include "ws-kineto-private.h"
#include "ws-kineto-reader.h"
#include "ws-reader-error.h"
#include "ws-sort.h"
#include "ws-test-util.h"

/* PyTorch profiler (Kineto) traces (issue 33): a real trace of a 6-layer
 * encoder on an H200 read by the reader and by warpscope-cli, every
 * figure against what tests/kineto/kineto-truths.py computes from the
 * JSON with Python's decimal arithmetic; bad traces refused in one line. */

#define TRACE "encoder_rank0.json.gz"

/* kineto-truths.py's lines, each split at its tabs; NULL (the test
 * skipped) without python3. */
static GPtrArray *
truths (const char *path)
{
  const char *srcdir = g_getenv ("G_TEST_SRCDIR");
  g_autofree char *script = g_build_filename (srcdir != NULL ? srcdir : SOURCE_DIR "/tests",
                                              "kineto", "kineto-truths.py", NULL);
  g_autofree char *python = g_find_program_in_path ("python3");
  g_autofree char *out = NULL;
  g_auto (GStrv) lines = NULL;
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);

  if (python == NULL)
    {
      g_test_skip ("python3 is not installed (build-aux/warpscope-dev installs it)");
      g_ptr_array_unref (rows);
      return NULL;
    }
  {
    const char *argv[] = { python, script, path, NULL };

    g_assert_cmpint (ws_test_run (argv, &out, NULL), ==, 0);
  }
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (lines[i][0] != '\0')
      g_ptr_array_add (rows, g_strsplit (lines[i], "\t", -1));
  return rows;
}

/* The truth of @kind named @name: its row, or NULL. */
static char **
truth (GPtrArray *rows, const char *kind, const char *name)
{
  for (guint i = 0; i < rows->len; i++)
    {
      char **row = g_ptr_array_index (rows, i);

      if (g_str_equal (row[0], kind) && (name == NULL || g_strcmp0 (row[1], name) == 0))
        return row;
    }
  return NULL;
}

static gint64
truth_int (GPtrArray *rows, const char *kind, const char *name, guint column)
{
  char **row = truth (rows, kind, name);

  g_assert_nonnull (row);
  return g_ascii_strtoll (row[column], NULL, 10);
}

static guint
n_truths (GPtrArray *rows, const char *kind)
{
  guint n = 0;

  for (guint i = 0; i < rows->len; i++)
    n += g_str_equal (((char **) g_ptr_array_index (rows, i))[0], kind);
  return n;
}

/* A CSV output as rows of cells, its header first. */
static GPtrArray *
csv_rows (const char *text)
{
  g_autoptr (WsCsvReader) reader = NULL;
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);

  reader = ws_csv_reader_new ("stdout", text, strlen (text), ',');
  for (;;)
    {
      g_autoptr (GPtrArray) fields = g_ptr_array_new_with_free_func (g_free);
      g_autoptr (GError) error = NULL;

      if (!ws_csv_reader_next (reader, fields, &error))
        {
          g_assert_no_error (error);
          break;
        }
      g_ptr_array_add (rows, g_steal_pointer (&fields));
    }
  return rows;
}

static const char *
cell (GPtrArray *rows, guint row, guint column)
{
  GPtrArray *fields = g_ptr_array_index (rows, row);

  g_assert_cmpuint (column, <, fields->len);
  return g_ptr_array_index (fields, column);
}

static char *
stats_csv (const char *path, const char *report)
{
  const char *args[] = { "stats", "--report", report, "--format", "csv", path, NULL };

  return ws_test_cli_expect (args, 0, NULL);
}

/* Each row of an nsys-style summary (Total Time column @total, count column
 * @count, name in the last) equals the truth of @kind by name, and there
 * are as many rows as names. */
static void
assert_summary (GPtrArray *t, const char *kind, const char *path, const char *report,
                const char *prefix)
{
  g_autofree char *out = stats_csv (path, report);
  g_autoptr (GPtrArray) rows = csv_rows (out);

  /* No header either where there is nothing to sum ("SKIPPED: …" on stderr). */
  g_assert_cmpuint (MAX (rows->len, 1) - 1, ==, n_truths (t, kind));
  for (guint r = 1; r < rows->len; r++)
    {
      GPtrArray *fields = g_ptr_array_index (rows, r);
      const char *name = g_ptr_array_index (fields, fields->len - 1);
      /* nvtx_sum names a range DOMAIN:NAME; the default domain's is "". */
      const char *bare = g_str_has_prefix (name, prefix) ? name + strlen (prefix) : name;

      if (g_test_verbose () || truth (t, kind, bare) == NULL)
        g_printerr ("%s row %u: %s\n", report, r, name);
      g_assert_cmpint (g_ascii_strtoll (cell (rows, r, 1), NULL, 10), ==,
                       truth_int (t, kind, bare, 3));
      g_assert_cmpint (g_ascii_strtoll (cell (rows, r, 2), NULL, 10), ==,
                       truth_int (t, kind, bare, 2));
    }
}

static void
test_detect (void)
{
  g_autofree char *path = ws_test_data ("kineto", TRACE, NULL);
  g_autoptr (GError) error = NULL;

  g_assert_cmpint (ws_input_detect (path, &error), ==, WS_INPUT_KINETO);
  g_assert_no_error (error);
  g_assert_cmpstr (ws_input_kind_to_string (WS_INPUT_KINETO), ==, "kineto-json");
  g_assert_true (ws_input_kind_is_export (WS_INPUT_KINETO));
}

static void
count_progress (double fraction, const char *what, gpointer data)
{
  GArray *fractions = data;

  g_assert_cmpstr (what, ==, "traceEvents");
  g_assert_cmpfloat (fraction, >, 0);
  g_assert_cmpfloat (fraction, <=, 1);
  if (fractions->len > 0)
    g_assert_cmpfloat (fraction, >=, g_array_index (fractions, double, fractions->len - 1));
  g_array_append_val (fractions, fraction);
}

/* The reader's own columns: counts, sums per name, sort order, header. */
static void
test_reader_matches_python (void)
{
  g_autofree char *path = ws_test_data ("kineto", TRACE, NULL);
  g_autoptr (GPtrArray) t = truths (path);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = NULL;
  g_autoptr (GHashTable) kernel_ns = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GArray) fractions = g_array_new (FALSE, FALSE, sizeof (double));
  guint64 bytes = 0;

  if (t == NULL)
    return;
  run = ws_kineto_reader_load (path, NULL, count_progress, fractions, &error);
  g_assert_no_error (error);
  /* Told every 8,192 events, of the compressed bytes read. */
  g_assert_cmpuint (fractions->len, ==, truth_int (t, "count", "events", 2) / 8192);
  g_assert_cmpstr (run->prov.kind, ==, "kineto-json");
  g_assert_cmpuint (run->kernels.n, ==, truth_int (t, "count", "kernel", 2));
  g_assert_cmpuint (run->memops.n, ==, truth_int (t, "count", "memop", 2));
  g_assert_cmpuint (run->api.n, ==, truth_int (t, "count", "api", 2));
  g_assert_cmpuint (run->nvtx.n, ==, truth_int (t, "count", "range", 2));
  g_assert_cmpuint (run->mem_usage.n, ==, truth_int (t, "count", "memory", 2));
  g_assert_cmpint (ws_run_source_count (run, "cpu-ops")->rows, ==,
                   truth_int (t, "count", "cpu_ops", 2));
  g_assert_cmpuint (run->prov.gpus->len, ==, truth_int (t, "gpus", NULL, 1));
  g_assert_cmpint (run->prov.session_start_utc_ns, ==, truth_int (t, "base_ns", NULL, 1));
  g_assert_cmpint (run->prov.dist_rank, ==, -1);
  g_assert_true (ws_sort_is_ordered (run->kernels.start, run->kernels.end, run->kernels.n));
  g_assert_true (ws_sort_is_ordered (run->api.start, run->api.end, run->api.n));
  g_assert_true (ws_sort_is_ordered (run->nvtx.start, run->nvtx.end, run->nvtx.n));
  g_assert_true (ws_sort_is_ordered (run->memops.start, run->memops.end, run->memops.n));

  /* Sums per kernel name, exact to the ns. */
  for (gsize i = 0; i < run->kernels.n; i++)
    {
      const char *name = ws_run_kernel_name (run, i, WS_NAME_DEMANGLED);
      gint64 sum = GPOINTER_TO_SIZE (g_hash_table_lookup (kernel_ns, name));

      sum += run->kernels.end[i] - run->kernels.start[i];
      g_hash_table_insert (kernel_ns, (gpointer) name, GSIZE_TO_POINTER (sum));
    }
  g_assert_cmpuint (g_hash_table_size (kernel_ns), ==, n_truths (t, "kernel"));
  for (guint i = 0; i < t->len; i++)
    {
      char **row = g_ptr_array_index (t, i);

      if (g_str_equal (row[0], "kernel"))
        g_assert_cmpint (GPOINTER_TO_SIZE (g_hash_table_lookup (kernel_ns, row[1])), ==,
                         g_ascii_strtoll (row[3], NULL, 10));
    }
  for (gsize i = 0; i < run->memops.n; i++)
    bytes += run->memops.bytes[i];
  g_assert_cmpuint (bytes, ==,
                    truth_int (t, "memop", "Memcpy DtoD (Device -> Device)", 3) +
                      truth_int (t, "memop", "Memset (Device)", 3));
  g_assert_cmpuint (run->memops.kind[0], !=, WS_MEMOP_UNKNOWN);

  /* CPU ops are a CPU profile, not NVTX ranges. */
  g_assert_cmpuint (run->cpu_profiles->len, ==, 1);
  for (gsize i = 0; i < run->nvtx.n; i++)
    g_assert_null (strstr (ws_run_string (run, run->nvtx.name[i]), "aten::"));
}

/* `steps --format csv`: steps 2 to 4 at the starts and walls of the
 * ProfilerStep#N ranges. */
static void
assert_steps (GPtrArray *t, const char *path)
{
  {
    const char *args[] = { "steps", "--format", "csv", path, NULL };
    g_autofree char *out = ws_test_cli_expect (args, 0, NULL);
    g_autoptr (GPtrArray) rows = csv_rows (out);

    /* Header, steps 2 to 4, the median. */
    g_assert_cmpuint (rows->len, ==, 5);
    for (guint r = 1; r <= 3; r++)
      {
        g_autofree char *n = g_strdup_printf ("%u", r + 1);
        char **step = NULL;

        for (guint i = 0; i < t->len && step == NULL; i++)
          {
            char **row = g_ptr_array_index (t, i);

            if (g_str_equal (row[0], "step") && g_str_equal (row[1], n))
              step = row;
          }
        g_assert_nonnull (step);
        g_assert_cmpstr (cell (rows, r, 0), ==, n);
        g_assert_cmpstr (cell (rows, r, 2), ==, step[2]);
        g_assert_cmpstr (cell (rows, r, 3), ==, step[3]);
      }
  }
}

/* warpscope-cli on the trace: stats, steps and info. */
static void
test_cli_matches_python (void)
{
  g_autofree char *path = ws_test_data ("kineto", TRACE, NULL);
  g_autoptr (GPtrArray) t = truths (path);

  if (t == NULL)
    return;
  assert_summary (t, "kernel", path, "cuda_gpu_kern_sum", "");
  assert_summary (t, "range", path, "nvtx_sum", ":");
  assert_summary (t, "api", path, "cuda_api_sum", "");

  assert_steps (t, path);
  {
    const char *args[] = { "info", path, NULL };
    g_autofree char *out = ws_test_cli_expect (args, 0, NULL);
    g_autofree char *kernels =
      g_strdup_printf ("  %-12s %12s  %s", "kernels", "1,446", "traceEvents: kernel");

    g_assert_nonnull (strstr (out, "PyTorch profiler trace (Kineto JSON)"));
    g_assert_nonnull (strstr (out, "GPUs:           2"));
    g_assert_nonnull (strstr (out, "GPU 0: NVIDIA H200 (sm_90, 132 SMs"));
    g_assert_nonnull (strstr (out, "python3 (pid 1011)"));
    g_assert_cmpint (truth_int (t, "count", "kernel", 2), ==, 1446);
    g_assert_nonnull (strstr (out, kernels));
  }
}

/* The traces made on two H200s for issue 33 (tests/data/kineto/captures/:
 * training with Python stacks, inference, two DDP ranks, one seen inside
 * nsys without its GPU side), each read by stats and steps as Python reads
 * it. */
/* Each kernel keeps the device id its trace gives it (args.device): rank
 * 1 of a job ran on device 1 and says so (issue 40). */
static void
assert_devices (GPtrArray *t, const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = ws_kineto_reader_load (path, NULL, NULL, NULL, &error);
  g_autoptr (GHashTable) counts = g_hash_table_new (NULL, NULL);
  guint rows = 0;

  g_assert_no_error (error);
  for (gsize i = 0; i < run->kernels.n; i++)
    {
      gint32 device = g_array_index (run->streams, WsStream, run->kernels.stream[i]).device_id;
      gpointer key = GINT_TO_POINTER (device + 1);

      g_hash_table_insert (
        counts, key, GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (counts, key)) + 1));
    }
  for (guint i = 0; i < t->len; i++)
    {
      char **row = g_ptr_array_index (t, i);
      gint device;

      if (!g_str_equal (row[0], "device"))
        continue;
      device = atoi (row[1]);
      g_assert_cmpuint (
        GPOINTER_TO_SIZE (g_hash_table_lookup (counts, GINT_TO_POINTER (device + 1))), ==,
        g_ascii_strtoull (row[2], NULL, 10));
      rows++;
    }
  g_assert_cmpuint (g_hash_table_size (counts), ==, rows);
}

static void
test_captures_match_python (void)
{
  g_autofree char *dir = ws_test_data ("kineto", "captures", NULL);
  g_autoptr (GDir) listing = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  if (listing == NULL)
    {
      g_test_skip ("no tests/data/kineto/captures");
      return;
    }
  while ((name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autoptr (GPtrArray) t = NULL;

      if (!g_str_has_suffix (name, ".json.gz"))
        continue;
      t = truths (path);
      if (t == NULL)
        return;
      assert_summary (t, "kernel", path, "cuda_gpu_kern_sum", "");
      assert_summary (t, "range", path, "nvtx_sum", ":");
      assert_summary (t, "api", path, "cuda_api_sum", "");
      assert_steps (t, path);
      assert_devices (t, path);
      n++;
    }
  if (n == 0)
    g_test_skip ("no trace in tests/data/kineto/captures");
}

/* A refusal: exit status 2 and one line on stderr naming the file and
 * saying @what. */
static void
assert_refused (const char *path, const char *what)
{
  const char *args[] = { "info", path, NULL };
  g_autofree char *err = NULL;
  g_autofree char *out = ws_test_cli_expect (args, 2, &err);

  g_assert_cmpuint (ws_test_count_lines (err), ==, 1);
  g_assert_nonnull (strstr (err, path));
  if (strstr (err, what) == NULL)
    g_error ("expected “%s” in: %s", what, err);
}

static void
test_bad_traces_refused (void)
{
  g_autofree char *path = ws_test_data ("kineto", TRACE, NULL);
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *gz = NULL;
  g_autofree char *truncated = g_build_filename (dir, "truncated.json", NULL);
  g_autofree char *truncated_gz = g_build_filename (dir, "truncated.json.gz", NULL);
  g_autofree char *chrome = g_build_filename (dir, "chrome.json", NULL);
  g_autofree char *deep = g_build_filename (dir, "deep.json", NULL);
  g_autoptr (GString) nested = g_string_new ("{\"schemaVersion\": 1, \"deviceProperties\": [], "
                                             "\"traceEvents\": [{\"args\": {\"x\": ");
  gsize len = 0;

  g_assert_true (g_file_get_contents (path, &gz, &len, NULL));
  /* The first half of the compressed file; the first MiB of the JSON. */
  g_assert_true (g_file_set_contents (truncated_gz, gz, (gssize) len / 2, NULL));
  {
    g_autoptr (GInputStream) mem = g_memory_input_stream_new_from_data (gz, (gssize) len, NULL);
    g_autoptr (GZlibDecompressor) gunzip = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
    g_autoptr (GInputStream) in = g_converter_input_stream_new (mem, G_CONVERTER (gunzip));
    g_autofree char *head = g_malloc (1 << 20);
    gsize got = 0;

    g_assert_true (g_input_stream_read_all (in, head, 1 << 20, &got, NULL, NULL));
    g_assert_true (g_file_set_contents (truncated, head, (gssize) got, NULL));
  }
  assert_refused (truncated, "Kineto trace: the JSON ends early");
  assert_refused (truncated_gz, "Kineto trace: the compressed data ends early");

  /* A Chrome trace without Kineto's header is not one. */
  g_assert_true (g_file_set_contents (
    chrome, "{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"a\", \"ts\": 1, \"dur\": 2}]}", -1,
    NULL));
  assert_refused (chrome, "not a file Warpscope reads");

  for (int i = 0; i < 300; i++)
    g_string_append_c (nested, '[');
  for (int i = 0; i < 300; i++)
    g_string_append_c (nested, ']');
  g_string_append (nested, "}}]}");
  g_assert_true (g_file_set_contents (deep, nested->str, -1, NULL));
  assert_refused (deep, "JSON nested deeper than 256 levels");
  ws_test_rmtree (dir);
}

static WsRun *
load_text (const char *text, GError **error)
{
  g_autoptr (GInputStream) in = g_memory_input_stream_new_from_data (text, -1, NULL);

  return ws_kineto_reader_load_stream (in, "small.json", NULL, error);
}

/* µs to ns from the digits, and a small DDP header. */
static void
test_times_and_header (void)
{
  static const struct
  {
    const char *text;
    gint64 ns;
  } times[] = {
    { "4982568704943.269", G_GINT64_CONSTANT (4982568704943269) },
    { "1.5", 1500 },
    { "2", 2000 },
    { "0.0005", 1 },
    { "0.0004", 0 },
    { "-1.25", -1250 },
    { "1e3", 1000000 },
  };
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = NULL;

  for (gsize i = 0; i < G_N_ELEMENTS (times); i++)
    {
      gint64 ns = 0;

      g_assert_true (ws_kineto_parse_us (times[i].text, &ns));
      g_assert_cmpint (ns, ==, times[i].ns);
    }
  g_assert_false (ws_kineto_parse_us ("1.", &(gint64){ 0 }));
  g_assert_false (ws_kineto_parse_us ("x", &(gint64){ 0 }));

  run = load_text (
    "{\"schemaVersion\": 1, \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 1, "
    "\"world_size\": 2}, \"traceEvents\": ["
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\\u00e9\", \"pid\": 1, \"tid\": 7, "
    "\"ts\": 10.001, \"dur\": 0.999, \"args\": {\"device\": 1, \"stream\": 7, \"correlation\": 3, "
    "\"grid\": [2, 1, 1], \"block\": [64, 1, 1], \"registers per thread\": 32}},"
    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 42, "
    "\"tid\": 43, \"ts\": 9, \"dur\": 1, \"args\": {\"correlation\": 3}},"
    "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 42, \"tid\": 43, \"args\": {\"name\": "
    "\"main\"}}]}",
    &error);
  g_assert_no_error (error);
  g_assert_cmpint (run->prov.dist_rank, ==, 1);
  g_assert_cmpint (run->prov.dist_world_size, ==, 2);
  g_assert_cmpstr (run->prov.dist_backend, ==, "nccl");
  g_assert_cmpuint (run->kernels.n, ==, 1);
  g_assert_cmpint (run->kernels.start[0], ==, 10001);
  g_assert_cmpint (run->kernels.end[0], ==, 11000);
  g_assert_cmpstr (ws_run_kernel_name (run, 0, WS_NAME_DEMANGLED), ==, "ké");
  g_assert_cmpint (ws_run_kernel_stream (run, 0)->device_id, ==, 1);
  g_assert_cmpint (ws_run_kernel_stream (run, 0)->stream_id, ==, 7);
  g_assert_cmpuint (ws_run_kernel_stream (run, 0)->pid, ==, 42);
  g_assert_cmpuint (ws_run_kernel_config (run, 0)->block[0], ==, 64);
  g_assert_cmpuint (ws_run_kernel_config (run, 0)->registers, ==, 32);
  g_assert_cmpstr (ws_run_string (run, ws_run_thread (run, run->api.thread[0])->name), ==, "main");
  g_clear_pointer (&run, ws_run_unref);

  /* python_function "FILE(LINE): NAME" around a cpu_op: a CPU profile of
   * two frames whose spans are the stretches each was the innermost, on
   * the trace's clock (f 100-102 us, aten::mm 102-105.5, f again to 110):
   * the Flame Graph's weights are the self times (f 6.5 us, mm 3.5), and
   * the Timeline's CPU lane shows the three stretches; no NVTX ranges. */
  run = load_text (
    "{\"schemaVersion\": 1, \"traceEvents\": ["
    "{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"a.py(12): f\", \"pid\": 5, "
    "\"tid\": 5, \"ts\": 100, \"dur\": 10},"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 5, \"tid\": 5, "
    "\"ts\": 102, \"dur\": 3.5}]}",
    &error);
  g_assert_no_error (error);
  g_assert_cmpuint (run->nvtx.n, ==, 0);
  g_assert_cmpuint (run->cpu_profiles->len, ==, 1);
  {
    WsCpuProfile *profile = g_ptr_array_index (run->cpu_profiles, 0);
    const WsCpuFrame *f = &g_array_index (profile->frames, WsCpuFrame, 0);

    g_assert_cmpstr (ws_cpu_profile_string (profile, f->name), ==, "f");
    g_assert_cmpstr (ws_cpu_profile_string (profile, f->file), ==, "a.py");
    g_assert_cmpint (f->line, ==, 12);
    static const gint64 spans[3][2] = { { 100000, 102000 },
                                        { 102000, 105500 },
                                        { 105500, 110000 } };

    g_assert_cmpuint (ws_cpu_profile_n_samples (profile), ==, 3);
    g_assert_true (profile->times_absolute);
    for (guint i = 0; i < 3; i++)
      {
        g_assert_cmpint (g_array_index (profile->sample_time, gint64, i), ==, spans[i][0]);
        g_assert_cmpint (g_array_index (profile->sample_end, gint64, i), ==, spans[i][1]);
        g_assert_cmpfloat (g_array_index (profile->sample_weight, double, i), ==,
                           (double) (spans[i][1] - spans[i][0]));
        g_assert_cmpint (run->cpu_samples.start[i], ==, spans[i][0]);
        g_assert_cmpint (run->cpu_samples.end[i], ==, spans[i][1]);
      }
    /* The first and the last stretch are f's, the middle one mm's. */
    g_assert_cmpuint (g_array_index (profile->sample_stack, guint32, 0), ==,
                      g_array_index (profile->sample_stack, guint32, 2));
    g_assert_cmpstr (ws_run_string (run, run->cpu_samples.name[1]), ==, "aten::mm");
    g_assert_cmpuint (run->cpu_samples.n, ==, 3);
    g_assert_cmpfloat (ws_cpu_profile_total_weight (profile, -1), ==, 10000);
  }
  g_clear_pointer (&run, ws_run_unref);

  /* A string past the tokenizer's bound: refused, not grown. */
  {
    g_autoptr (GString) big = g_string_new ("{\"schemaVersion\": 1, \"traceName\": \"");

    for (gsize i = 0; i < (17 << 20); i++)
      g_string_append_c (big, 'a');
    g_string_append (big, "\", \"traceEvents\": []}");
    run = load_text (big->str, &error);
    g_assert_null (run);
    g_assert_error (error, WS_READER_ERROR, WS_READER_ERROR_TOO_LARGE);
    g_assert_nonnull (strstr (error->message, "a string longer than 16 MiB"));
    g_clear_error (&error);
  }

  run = load_text ("{\"traceEvents\": []}", &error);
  g_assert_null (run);
  g_assert_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT);
  g_assert_nonnull (strstr (error->message, "small.json: not a Kineto trace"));
}

/* The replays a graph launch made, by its correlation id, from the trace's
 * JSON (json-glib): the first kernel's start, the last one's end, the
 * kernels. */
typedef struct
{
  gint64 start, end;
  guint kernels;
} JsonReplay;

/* µs in the JSON as ns.  json-glib reads a number as a double, whose last
 * bit at 5.3 × 10^12 µs is about 1 ns: the reader, reading the digits,
 * may differ from it by that much. */
static gint64
json_ns (JsonObject *e, const char *member)
{
  return (gint64) (json_object_get_double_member (e, member) * 1000.0 + 0.5);
}

static GHashTable *
json_replays (const char *path)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GInputStream) raw = G_INPUT_STREAM (g_file_read (file, NULL, &error));
  g_autoptr (GConverter) gunzip =
    G_CONVERTER (g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP));
  g_autoptr (GInputStream) json = g_converter_input_stream_new (raw, gunzip);
  GHashTable *replays = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  JsonArray *events;

  g_assert_no_error (error);
  json_parser_load_from_stream (parser, json, NULL, &error);
  g_assert_no_error (error);
  events = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                         "traceEvents");
  /* The graph launches: cudaGraphLaunch (cuda_runtime) in these traces. */
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);
      const char *cat = json_object_get_string_member_with_default (e, "cat", "");

      if ((g_str_equal (cat, "cuda_runtime") || g_str_equal (cat, "cuda_driver")) &&
          g_str_equal (json_object_get_string_member (e, "name"), "cudaGraphLaunch"))
        {
          JsonReplay *r = g_new (JsonReplay, 1);

          *r = (JsonReplay){ G_MAXINT64, G_MININT64, 0 };
          g_hash_table_insert (replays,
                               GINT_TO_POINTER (json_object_get_int_member (
                                 json_object_get_object_member (e, "args"), "correlation")),
                               r);
        }
    }
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);
      JsonReplay *r;

      if (g_strcmp0 (json_object_get_string_member_with_default (e, "cat", ""), "kernel") != 0)
        continue;
      r =
        g_hash_table_lookup (replays, GINT_TO_POINTER (json_object_get_int_member (
                                        json_object_get_object_member (e, "args"), "correlation")));
      if (r == NULL)
        continue;
      r->start = MIN (r->start, json_ns (e, "ts"));
      r->end = MAX (r->end, json_ns (e, "ts") + json_ns (e, "dur"));
      r->kernels++;
    }
  return replays;
}

/* A trace of torch.cuda.graph replayed each step: the kernels of one
 * cudaGraphLaunch (its correlation id) are one replay of a graph Kineto
 * does not name; the eager trace has none. */
static void
test_graph_replays (void)
{
  g_autofree char *graph_path =
    ws_test_data ("kineto", "captures", "graphs", "decode_graph.json.gz", NULL);
  g_autofree char *eager_path =
    ws_test_data ("kineto", "captures", "graphs", "decode_eager.json.gz", NULL);
  g_autoptr (GHashTable) truth = json_replays (graph_path);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = ws_kineto_reader_load (graph_path, NULL, NULL, NULL, &error);
  g_autoptr (WsRun) eager = NULL;
  guint in_graphs = 0;

  g_assert_no_error (error);
  g_assert_cmpuint (g_hash_table_size (truth), ==, 40);
  g_assert_cmpuint (run->replays.n, ==, 40);
  for (gsize i = 0; i < run->replays.n; i++)
    {
      const JsonReplay *r =
        g_hash_table_lookup (truth, GUINT_TO_POINTER (run->replays.correlation[i]));

      g_assert_nonnull (r);
      g_assert_cmpuint (r->kernels, ==, 91);
      g_assert_cmpuint (run->replays.nodes[i], ==, 91);
      g_assert_cmpint (ABS (run->replays.start[i] - r->start), <=, 1);
      g_assert_cmpint (ABS (run->replays.end[i] - r->end), <=, 1);
      g_assert_cmpuint (run->replays.graph[i], ==, 0);
      if (i > 0)
        g_assert_cmpint (run->replays.start[i - 1], <=, run->replays.start[i]);
    }
  /* Every kernel of a launch names its replay; the others none. */
  g_assert_nonnull (run->kernels.replay);
  for (gsize k = 0; k < run->kernels.n; k++)
    if (run->kernels.replay[k] != WS_REPLAY_NONE)
      {
        in_graphs++;
        g_assert_cmpuint (run->replays.correlation[run->kernels.replay[k]], ==,
                          run->kernels.correlation[k]);
      }
    else
      g_assert_null (g_hash_table_lookup (truth, GUINT_TO_POINTER (run->kernels.correlation[k])));
  g_assert_cmpuint (in_graphs, ==, 40 * 91);

  eager = ws_kineto_reader_load (eager_path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (eager->replays.n, ==, 0);
  g_assert_null (eager->kernels.replay);
  g_assert_null (eager->memops.replay);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/kineto/detect", test_detect);
  g_test_add_func ("/kineto/reader/matches-python", test_reader_matches_python);
  g_test_add_func ("/kineto/cli/matches-python", test_cli_matches_python);
  g_test_add_func ("/kineto/cli/captures-match-python", test_captures_match_python);
  g_test_add_func ("/kineto/bad-traces-refused", test_bad_traces_refused);
  g_test_add_func ("/kineto/times-and-header", test_times_and_header);
  g_test_add_func ("/kineto/graphs/replays-of-graph-launches", test_graph_replays);
  return g_test_run ();
}
