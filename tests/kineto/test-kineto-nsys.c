/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ws-csv.h"
#include "ws-kineto-reader.h"
#include "ws-test-util.h"

/* Issue 33, item 5: a PyTorch profiler trace and an nsys export of the
 * same run (tests/data/kineto/captures/lm_nsys_rank0.json.gz and
 * lm_nsys.sqlite.gz: torch.profiler inside `nsys profile`, the trace
 * without its GPU side, the export without NVTX) open as one run.  The
 * record_function ranges' totals are tests/kineto/kineto-truths.py's
 * reading of the JSON, the kernels' totals SQL over the export, and both
 * must be in `stats` of the run read from both; each ProfilerStep holds
 * the kernels that SQL finds launched inside it once the trace's times are
 * put on the export's clock by its base time. */

static char *tmp;
static char *export; /* lm_nsys.sqlite, decompressed into @tmp */

static char *
trace_path (void)
{
  return ws_test_data ("kineto", "captures", "lm_nsys_rank0.json.gz", NULL);
}

/* Whether the pair is here (else the test is skipped), the export
 * decompressed once. */
static gboolean
have_pair (void)
{
  g_autofree char *gz = ws_test_data ("kineto", "captures", "lm_nsys.sqlite.gz", NULL);
  g_autofree char *trace = trace_path ();

  if (!g_file_test (gz, G_FILE_TEST_EXISTS) || !g_file_test (trace, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("no tests/data/kineto/captures/lm_nsys*");
      return FALSE;
    }
  if (export == NULL)
    {
      g_autofree char *path = g_build_filename (tmp, "lm_nsys.sqlite", NULL);
      g_autofree char *cmd = g_strdup_printf ("gzip -dc '%s' > '%s'", gz, path);

      g_assert_cmpint (system (cmd), ==, 0);
      export = g_steal_pointer (&path);
    }
  return TRUE;
}

static GPtrArray *
csv_rows (const char *text)
{
  g_autoptr (WsCsvReader) reader = ws_csv_reader_new ("stdout", text, strlen (text), ',');
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);

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

static GPtrArray *
stats (const char *report)
{
  g_autofree char *trace = trace_path ();
  const char *args[] = { "stats", "--report", report, "--format", "csv", export, trace, NULL };
  g_autofree char *out = ws_test_cli_expect (args, 0, NULL);

  return csv_rows (out);
}

/* kineto-truths.py's rows of @kind, each split at its tabs; NULL (the test
 * skipped) without python3. */
static GPtrArray *
truths (const char *kind)
{
  const char *srcdir = g_getenv ("G_TEST_SRCDIR");
  g_autofree char *script = g_build_filename (srcdir != NULL ? srcdir : SOURCE_DIR "/tests",
                                              "kineto", "kineto-truths.py", NULL);
  g_autofree char *python = g_find_program_in_path ("python3");
  g_autofree char *trace = trace_path ();
  g_autofree char *out = NULL;
  g_auto (GStrv) lines = NULL;
  GPtrArray *rows;

  if (python == NULL)
    {
      g_test_skip ("python3 is not installed (build-aux/warpscope-dev installs it)");
      return NULL;
    }
  {
    const char *argv[] = { python, script, trace, NULL };

    g_assert_cmpint (ws_test_run (argv, &out, NULL), ==, 0);
  }
  rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], kind) && lines[i][strlen (kind)] == '\t')
      g_ptr_array_add (rows, g_strsplit (lines[i], "\t", -1));
  return rows;
}

/* `info` of the pair: one line per file, saying what it gave. */
static void
test_info (void)
{
  g_autofree char *trace = trace_path ();
  g_autofree char *out = NULL;

  if (!have_pair ())
    return;
  {
    const char *args[] = { "info", export, trace, NULL };

    out = ws_test_cli_expect (args, 0, NULL);
  }
  g_test_message ("%s", out);
  g_assert_nonnull (strstr (out, "Read from:      lm_nsys.sqlite: nsys export: the GPU side, "
                                 "2,124 kernels"));
  g_assert_nonnull (strstr (out, "\n                lm_nsys_rank0.json.gz: PyTorch profiler "
                                 "trace, 21 record_function ranges as NVTX ranges"));
  g_assert_nonnull (strstr (out, "on the export's clock by its baseTimeNanoseconds"));
  g_assert_nonnull (strstr (out, "lm_nsys_rank0.json.gz: traceEvents: user_annotation"));
  g_assert_nonnull (strstr (out, "CUPTI_ACTIVITY_KIND_KERNEL"));
  /* One process, seen by both. */
  g_assert_nonnull (strstr (out, "Processes:      python3 (pid 906)\n"));
}

/* nvtx_sum: each record_function range's total and count as Python sums
 * them over the trace. */
static void
test_ranges_from_trace (void)
{
  g_autoptr (GPtrArray) t = NULL;
  g_autoptr (GPtrArray) rows = NULL;

  if (!have_pair () || (t = truths ("range")) == NULL)
    return;
  rows = stats ("nvtx_sum");
  g_assert_cmpuint (t->len, ==, 9);
  g_assert_cmpuint (rows->len, ==, t->len + 1);
  for (guint i = 0; i < t->len; i++)
    {
      char **truth = g_ptr_array_index (t, i);
      g_autofree char *name = g_strconcat (":", truth[1], NULL);
      gboolean found = FALSE;

      for (guint r = 1; r < rows->len; r++)
        {
          GPtrArray *row = g_ptr_array_index (rows, r);

          if (!g_str_equal (g_ptr_array_index (row, row->len - 1), name))
            continue;
          g_assert_cmpstr (g_ptr_array_index (row, 1), ==, truth[3]);
          g_assert_cmpstr (g_ptr_array_index (row, 2), ==, truth[2]);
          found = TRUE;
        }
      g_assert_true (found);
    }
}

static int
compare_int64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

/* cuda_gpu_kern_sum: each kernel's total as SQL sums the export's kernels
 * by name. */
static void
test_kernels_from_export (void)
{
  g_autoptr (GPtrArray) rows = NULL;
  g_autoptr (GArray) ours = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GString) joined = g_string_new (NULL);
  g_autofree char *sql = NULL;

  if (!have_pair ())
    return;
  sql = ws_test_sqlite_text (export, "SELECT group_concat (t, ',') FROM (SELECT SUM (end - start) "
                                     "AS t FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY demangledName "
                                     "ORDER BY t)");
  rows = stats ("cuda_gpu_kern_sum");
  for (guint r = 1; r < rows->len; r++)
    {
      GPtrArray *row = g_ptr_array_index (rows, r);
      gint64 total = g_ascii_strtoll (g_ptr_array_index (row, 1), NULL, 10);

      g_array_append_val (ours, total);
    }
  g_array_sort (ours, compare_int64);
  for (guint i = 0; i < ours->len; i++)
    g_string_append_printf (joined, "%s%" G_GINT64_FORMAT, i > 0 ? "," : "",
                            g_array_index (ours, gint64, i));
  g_assert_cmpstr (joined->str, ==, sql);
}

/* Each ProfilerStep of the trace, on the export's clock, holds the kernels
 * that SQL finds launched inside it: the ranges cover the GPU bursts. */
static void
test_steps_cover_kernels (void)
{
  g_autofree char *trace = trace_path ();
  g_autoptr (GPtrArray) t = NULL;
  g_autoptr (GPtrArray) rows = NULL;
  g_autoptr (WsRun) probe = NULL;
  g_autofree char *start = NULL;
  gint64 offset;

  if (!have_pair () || (t = truths ("step")) == NULL)
    return;
  probe = ws_kineto_reader_probe (trace, NULL, NULL);
  g_assert_nonnull (probe);
  start = ws_test_sqlite_text (export, "SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME");
  offset = probe->prov.session_start_utc_ns - g_ascii_strtoll (start, NULL, 10);
  {
    const char *args[] = { "steps", "--format", "csv", export, trace, NULL };
    g_autofree char *out = ws_test_cli_expect (args, 0, NULL);

    rows = csv_rows (out);
  }
  g_assert_cmpuint (t->len, ==, 3);
  for (guint i = 0; i < t->len; i++)
    {
      char **step = g_ptr_array_index (t, i);
      gint64 s = g_ascii_strtoll (step[2], NULL, 10) + offset;
      gint64 e = s + g_ascii_strtoll (step[3], NULL, 10);
      g_autofree char *q = g_strdup_printf (
        "SELECT COUNT (*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r "
        "ON r.correlationId = k.correlationId WHERE r.start >= %" G_GINT64_FORMAT
        " AND r.start <= %" G_GINT64_FORMAT,
        s, e);
      g_autofree char *launched = ws_test_sqlite_text (export, q);
      GPtrArray *row = g_ptr_array_index (rows, i + 1);

      g_test_message ("step %s: %s kernels launched inside it", step[1], launched);
      /* Every step of the training loop launches the same 337 kernels
       * (counted by this SQL when the capture was made). */
      g_assert_cmpint (g_ascii_strtoll (launched, NULL, 10), ==, 337);
      g_assert_cmpstr (g_ptr_array_index (row, 0), ==, step[1]);
      g_assert_cmpint (g_ascii_strtoll (g_ptr_array_index (row, 2), NULL, 10), ==, s);
      g_assert_cmpstr (g_ptr_array_index (row, 8), ==, launched);
    }
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp = ws_test_tmpdir ();

  g_test_add_func ("/kineto-nsys/info-says-what-each-file-gave", test_info);
  g_test_add_func ("/kineto-nsys/ranges-from-the-trace", test_ranges_from_trace);
  g_test_add_func ("/kineto-nsys/kernels-from-the-export", test_kernels_from_export);
  g_test_add_func ("/kineto-nsys/steps-cover-the-kernels", test_steps_cover_kernels);
  status = g_test_run ();
  g_free (export);
  ws_test_rmtree (tmp);
  g_free (tmp);
  return status;
}
