/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gio/gio.h>
#include <stdio.h>
#include <string.h>

#include "ws-kineto-reader.h"
#include "ws-test-same-run.h"
#include "ws-test-util.h"

/* Issue 41: the events of a plain trace read on several cores
 * (ws-kineto-parallel.c; WARPSCOPE_THREADS=N cuts even small traces into
 * N pieces) give the run one thread gives, array for array and id for
 * id: on every real capture, on traces whose cuts land inside events
 * (objects in args, pretty or on one line), with the header after the
 * events; and the errors are the same sentence at the same byte. */

/* "PATH: traceEvents in N pieces, M taken", as the reader logs each
 * parallel read. */
static GPtrArray *pieces_log;

static GLogWriterOutput
keep_pieces (GLogLevelFlags level, const GLogField *fields, gsize n_fields, gpointer data)
{
  const char *domain = NULL, *message = NULL;

  for (gsize i = 0; i < n_fields; i++)
    {
      if (g_str_equal (fields[i].key, "GLIB_DOMAIN"))
        domain = fields[i].value;
      else if (g_str_equal (fields[i].key, "MESSAGE"))
        message = fields[i].value;
    }
  if ((level & G_LOG_LEVEL_DEBUG) && g_strcmp0 (domain, "ws-kineto") == 0 && message != NULL &&
      strstr (message, " pieces, ") != NULL)
    {
      g_ptr_array_add (pieces_log, g_strdup (message));
      return G_LOG_WRITER_HANDLED;
    }
  return g_log_writer_default (level, fields, n_fields, data);
}

static WsRun *
load_with (const char *path, guint threads, GError **error)
{
  g_autofree char *n = g_strdup_printf ("%u", threads);
  WsRun *run;

  g_setenv ("WARPSCOPE_THREADS", n, TRUE);
  run = ws_kineto_reader_load (path, NULL, NULL, NULL, error);
  g_unsetenv ("WARPSCOPE_THREADS");
  return run;
}

/* The pieces of the last parallel read: N and M of its log line. */
static void
last_pieces (guint *made, guint *taken)
{
  const char *line;

  g_assert_cmpuint (pieces_log->len, ==, 1);
  line = g_ptr_array_index (pieces_log, pieces_log->len - 1);
  g_assert_cmpint (sscanf (strstr (line, "in "), "in %u pieces, %u taken", made, taken), ==, 2);
  g_ptr_array_set_size (pieces_log, 0);
}

/* @path read on 1 thread and on 2, 3 and 7: the same run each time.
 * Returns how many pieces were dropped in all. */
static guint
assert_same_on_every_count (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) one = load_with (path, 1, &error);
  const guint counts[] = { 2, 3, 7 };
  guint dropped = 0;

  g_assert_no_error (error);
  g_assert_cmpuint (pieces_log->len, ==, 0);
  for (gsize i = 0; i < G_N_ELEMENTS (counts); i++)
    {
      g_autoptr (WsRun) several = load_with (path, counts[i], &error);
      guint made, taken;

      g_assert_no_error (error);
      last_pieces (&made, &taken);
      g_assert_cmpuint (made, ==, counts[i]);
      g_assert_cmpuint (taken, >=, 1);
      dropped += made - taken;
      ws_test_assert_same_run (one, several);
      g_assert_cmpint (one->prov.session_start_utc_ns, ==, several->prov.session_start_utc_ns);
      g_assert_cmpuint (one->prov.gpus->len, ==, several->prov.gpus->len);
    }
  return dropped;
}

/* @gz's JSON, unpacked into @dir as @name. */
static char *
gunzip_to (const char *gz, const char *dir, const char *name)
{
  g_autoptr (GFile) in_file = g_file_new_for_path (gz);
  g_autoptr (GInputStream) raw = G_INPUT_STREAM (g_file_read (in_file, NULL, NULL));
  g_autoptr (GZlibDecompressor) gunzip = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  g_autoptr (GInputStream) in = NULL;
  g_autoptr (GOutputStream) out = NULL;
  char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GFile) out_file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;

  g_assert_nonnull (raw);
  in = g_converter_input_stream_new (raw, G_CONVERTER (gunzip));
  out = G_OUTPUT_STREAM (g_file_replace (out_file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (
    g_output_stream_splice (out, in, G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, &error), >, 0);
  g_assert_no_error (error);
  return path;
}

/* Every real trace of tests/data/kineto, plain: Kineto writes one event
 * after another ("},\n  {"), so that every cut lands on an event. */
static void
test_captures (void)
{
  const char *traces[] = {
    "encoder_rank0.json.gz",
    "captures/ddp4_rank0.json.gz",
    "captures/ddp2_rank1.json.gz",
    "captures/graphs/decode_graph.json.gz",
    "captures/graphs/decode_compile.json.gz",
  };
  g_autofree char *dir = ws_test_tmpdir ();

  for (gsize i = 0; i < G_N_ELEMENTS (traces); i++)
    {
      g_autofree char *gz = ws_test_data ("kineto", traces[i], NULL);
      g_autofree char *path = gunzip_to (gz, dir, "trace.json");

      g_test_message ("%s", traces[i]);
      g_assert_cmpuint (assert_same_on_every_count (path), ==, 0);
    }
  ws_test_rmtree (dir);
}

/* A Kineto trace of @n events on three CPU threads and two streams:
 * kernels with their launch calls, copies, CPU ops, ranges, memory
 * events, names given to threads and processes more than once and to a
 * thread first met late.  The args of calls and CPU ops hold arrays of
 * objects, "}, {" inside an event: a cut that finds one starts its piece
 * inside an event.  @pretty writes each event over lines as Kineto does,
 * else the whole trace is one line. */
static char *
synthetic_trace (guint n, gboolean pretty)
{
  GString *s = g_string_new ("{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 0, "
                             "\"name\": \"NVIDIA H200\", \"computeMajor\": 9, "
                             "\"computeMinor\": 0, \"numSms\": 132}], "
                             "\"baseTimeNanoseconds\": 1700000000000000000, "
                             "\"traceEvents\": [");
  const char *nl = pretty ? "\n  " : "";
  const char *in = pretty ? "\n    " : "";

  for (guint i = 0; i < n; i++)
    {
      guint tid = 11 + i % 3 + (i > n / 2 ? 1 : 0);
      double ts = 1000.0 + i * 2.5;

      g_string_append_printf (s, "%s%s{%s", i > 0 ? "," : "", nl, in);
      switch (i % 9)
        {
          case 0:
            g_string_append_printf (s,
                                    "\"ph\": \"M\", \"name\": \"%s\", \"pid\": 7, \"tid\": %u,%s"
                                    "\"args\": {\"name\": \"%s %u\"}",
                                    i % 2 ? "thread_name" : "process_name", tid, in,
                                    i % 2 ? "worker" : "python", i / 9);
            break;
          case 1:
          case 2:
            g_string_append_printf (
              s,
              "\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm_%u\", \"pid\": 0, "
              "\"tid\": %u,%s\"ts\": %.3f, \"dur\": 1.125,%s\"args\": {\"device\": 0, "
              "\"stream\": %u, \"correlation\": %u, \"grid\": [%u, 1, 1], \"block\": [128, 1, 1], "
              "\"registers per thread\": %u, \"shared memory\": 0}",
              i % 13, 7 + i % 2, in, ts, in, 7 + i % 2, i, 1 + i % 5, 32 + 8 * (i % 3));
            break;
          case 3:
            g_string_append_printf (s,
                                    "\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": "
                                    "\"cudaLaunchKernel\", \"pid\": 7, \"tid\": %u,%s\"ts\": "
                                    "%.3f, \"dur\": 0.75,%s\"args\": {\"correlation\": %u, "
                                    "\"inputs\": [{\"a\": 1},%s{\"b\": [2, {\"c\": 3}]}]}",
                                    tid, in, ts, in, i - 2, nl);
            break;
          case 4:
          case 5:
            g_string_append_printf (s,
                                    "\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::op%u\", "
                                    "\"pid\": 7, \"tid\": %u,%s\"ts\": %.3f, \"dur\": %.3f,%s"
                                    "\"args\": {\"Input Dims\": [{\"x\": 1}, {\"y\": 2}]}",
                                    i % 17, tid, in, ts, i % 5 == 0 ? 20.0 : 0.5, in);
            break;
          case 6:
            g_string_append_printf (
              s,
              "\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": "
              "\"Memcpy HtoD (Pageable -> Device)\", \"pid\": 0, \"tid\": 7,%s"
              "\"ts\": %.3f, \"dur\": 0.5,%s\"args\": {\"device\": 0, "
              "\"stream\": 7, \"correlation\": %u, \"bytes\": %u}",
              in, ts, in, i, 4096 + i);
            break;
          case 7:
            g_string_append_printf (s,
                                    "\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": "
                                    "\"ProfilerStep#%u\", \"pid\": 7, \"tid\": %u,%s\"ts\": %.3f, "
                                    "\"dur\": 2.0",
                                    i / 90, tid, in, ts);
            break;
          default:
            g_string_append_printf (s,
                                    "\"ph\": \"i\", \"name\": \"[memory]\", \"pid\": 7, \"tid\": "
                                    "%u, \"ts\": %.3f, \"s\": \"t\",%s\"args\": {\"Device Type\": "
                                    "1, \"Device Id\": 0, \"Bytes\": %d}",
                                    tid, ts, in, i % 2 ? 512 : -512);
            break;
        }
      g_string_append_printf (s, "%s}", pretty ? "\n  " : "");
    }
  g_string_append_printf (s, "%s]}%s", pretty ? "\n" : "", pretty ? "\n" : "");
  return g_string_free (s, FALSE);
}

/* Cuts inside events: their pieces are dropped and read by the piece
 * before; the run is still the same. */
static void
test_cuts_inside_events (void)
{
  g_autofree char *dir = ws_test_tmpdir ();

  for (int pretty = 0; pretty <= 1; pretty++)
    {
      g_autofree char *text = synthetic_trace (20000, pretty);
      g_autofree char *path = g_build_filename (dir, pretty ? "pretty.json" : "line.json", NULL);
      g_autoptr (WsRun) run = NULL;
      g_autoptr (GError) error = NULL;

      g_assert_true (g_file_set_contents (path, text, -1, NULL));
      g_assert_cmpuint (assert_same_on_every_count (path), >, 0);
      /* The trace is read whole: what it holds, counted from its text. */
      run = load_with (path, 3, &error);
      g_assert_no_error (error);
      g_ptr_array_set_size (pieces_log, 0);
      g_assert_cmpuint (run->kernels.n, ==, 2 * (20000 / 9) + (20000 % 9 > 2 ? 2 : 20000 % 9 > 1));
      g_assert_cmpuint (run->threads->len, ==, 4);
      g_assert_cmpuint (run->streams->len, ==, 2);
    }
  ws_test_rmtree (dir);
}

/* The header after the events: read on from where the last piece ended. */
static void
test_header_after_events (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *text = synthetic_trace (5000, TRUE);
  g_autofree char *path = g_build_filename (dir, "late-header.json", NULL);
  g_autoptr (GString) moved = g_string_new ("{\"traceEvents\": ");
  const char *events = strstr (text, "\"traceEvents\": [") + strlen ("\"traceEvents\": ");
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = NULL;

  /* {"traceEvents": [...], "schemaVersion": 1, …, "traceName": "x"} */
  g_string_append_len (moved, events, (gssize) (strrchr (text, ']') - events + 1));
  g_string_append (moved, ", ");
  g_string_append_len (moved, text + 1, (gssize) (strstr (text, "\"traceEvents\"") - text - 1));
  g_string_append (moved, "\"traceName\": \"late\"}\n");
  g_assert_true (g_file_set_contents (path, moved->str, -1, NULL));
  assert_same_on_every_count (path);
  run = load_with (path, 7, &error);
  g_assert_no_error (error);
  g_ptr_array_set_size (pieces_log, 0);
  g_assert_cmpint (run->prov.session_start_utc_ns, ==, G_GINT64_CONSTANT (1700000000000000000));
  g_assert_cmpuint (run->prov.gpus->len, ==, 1);
  ws_test_rmtree (dir);
}

/* @path fails on 1 thread and on 2, 3 and 7 with the same message. */
static void
assert_same_error (const char *path, const char *what)
{
  g_autoptr (GError) one = NULL;
  g_autoptr (WsRun) none = load_with (path, 1, &one);
  const guint counts[] = { 2, 3, 7 };

  g_assert_null (none);
  g_assert_nonnull (one);
  if (strstr (one->message, what) == NULL)
    g_error ("expected “%s” in: %s", what, one->message);
  g_assert_nonnull (strstr (one->message, path));
  for (gsize i = 0; i < G_N_ELEMENTS (counts); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WsRun) run = load_with (path, counts[i], &error);

      g_assert_null (run);
      g_assert_nonnull (error);
      g_assert_cmpstr (error->message, ==, one->message);
      g_assert_true (g_error_matches (error, one->domain, one->code));
    }
  g_ptr_array_set_size (pieces_log, 0);
}

/* Errors in the middle and in the last piece, and a cut file: the first
 * error in the file's order, as one reader meets it. */
static void
test_errors (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *text = synthetic_trace (20000, TRUE);
  g_autofree char *path = g_build_filename (dir, "bad.json", NULL);
  gsize len = strlen (text);
  char *at;

  /* A time that is not a number, two thirds in, and a missing comma at
   * the end: the time is the first. */
  {
    g_autofree char *bad = g_strdup (text);

    at = strstr (bad + len * 2 / 3, "\"ts\": ");
    memcpy (at + 6, "1.2.", 4);
    at = strstr (bad + len - 2000, "},");
    at[1] = ' ';
    g_assert_true (g_file_set_contents (path, bad, -1, NULL));
    assert_same_error (path, "a time that is not a number of µs (1.2.");
    /* Then only the comma. */
    memcpy (strstr (bad + len * 2 / 3, "\"ts\": ") + 6, "1000", 4);
    g_assert_true (g_file_set_contents (path, bad, -1, NULL));
    assert_same_error (path, "expected ',' or the end of an array");
  }
  /* Cut short halfway. */
  g_assert_true (g_file_set_contents (path, text, (gssize) len / 2, NULL));
  assert_same_error (path, "the JSON ends early");
  ws_test_rmtree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  pieces_log = g_ptr_array_new_with_free_func (g_free);
  g_log_set_writer_func (keep_pieces, NULL, NULL);

  g_test_add_func ("/kineto/parallel/captures", test_captures);
  g_test_add_func ("/kineto/parallel/cuts-inside-events", test_cuts_inside_events);
  g_test_add_func ("/kineto/parallel/header-after-events", test_header_after_events);
  g_test_add_func ("/kineto/parallel/errors", test_errors);
  return g_test_run ();
}
