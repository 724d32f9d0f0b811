/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "ws-digest-io.h"
#include "ws-input.h"
#include "ws-reader-error.h"
#include "ws-test-util.h"

/* A real file of each row of the table of inputs, by the row's name: a
 * new row without one here fails the walk below. */
static const struct
{
  const char *row;
  const char *dir;
  const char *file; /* NULL: the folder itself */
} examples[] = {
  { "capture-folder", "capture-h200/probe", NULL },
  { "nsys-rep", "capture-h200/probe/nsys", "probe.nsys-rep" },
  { "ncu-rep", "capture-h200/probe/ncu", "strided_read.ncu-rep" },
  { "nvprof-sqlite", "nvprof", "nvvp_tf_tutorial_mnist_titanx.nvvp" },
  { "nsys-sqlite", "nsys", "v2025.3_h100_probe.sqlite" },
  { "kineto-json", "kineto", "encoder_rank0.json.gz" },
  { "nvprof-gpu-trace", "nvprof", "gputrace_magus_concurrentkernels.csv" },
  { "nvprof-log", "nvprof", "nichitapavel_nvprof.txt" },
  { "nsys-stats-csv", "nsys-stats", "v2025.3_h100_probe_cuda_gpu_kern_sum.csv" },
  { "ncu-csv", "ncu", "h100_probe_full_raw.csv" },
  { "cpu-profile", "cpu", "cs336_bpe_train.speedscope.json" },
  /* Refusals: recognised, and refused with what they are. */
  { "nvprof-other", "nvprof", "nvvp_hybridmaxflow_legacy_binary.nvprof" },
  { "compressed", "nvprof", "v100_darknet19_metrics.txt.xz" },
};

static char *
example_path (const char *row)
{
  for (gsize i = 0; i < G_N_ELEMENTS (examples); i++)
    if (g_str_equal (examples[i].row, row))
      return examples[i].file != NULL ? ws_test_data (examples[i].dir, examples[i].file, NULL)
                                      : ws_test_data (examples[i].dir, NULL);
  return NULL;
}

/* A digest has no fixture under tests/data: an empty one, written here
 * under a name that is not .wsdigest, is known by its application id. */
static char *
write_digest (const char *dir)
{
  g_autoptr (WsDigest) digest = ws_digest_new ();
  g_autoptr (GError) error = NULL;
  char *path = g_build_filename (dir, "job.sqlite", NULL);

  g_assert_true (ws_digest_write_file (digest, path, &error));
  g_assert_no_error (error);
  return path;
}

static void
test_every_row_detects_its_file (void)
{
  g_autofree char *tmp = ws_test_tmpdir ();
  gsize n_formats = 0;
  const WsInputFormat *formats = ws_input_formats (&n_formats);

  /* The rows of src/formats/ws-input.c, counted by hand
   * (grep -c '^  { WS_INPUT_' src/formats/ws-input.c): a row added there
   * needs its example file here. */
  g_assert_cmpuint (n_formats, ==, 15);
  for (gsize i = 0; i < n_formats; i++)
    {
      const WsInputFormat *format = &formats[i];
      g_autofree char *path = NULL;
      g_autoptr (GError) error = NULL;
      WsInputKind kind;

      g_test_message ("row %" G_GSIZE_FORMAT ": %s", i, format->name);
      g_assert_nonnull (format->sniff);
      path = format->kind == WS_INPUT_DIGEST ? write_digest (tmp) : example_path (format->name);
      if (path == NULL)
        g_error ("row %s of the table of inputs has no example file in this test", format->name);
      kind = ws_input_detect (path, &error);
      if (format->kind == WS_INPUT_UNKNOWN)
        {
          /* A refusal: one line that names the file. */
          g_assert_cmpint (kind, ==, WS_INPUT_UNKNOWN);
          g_assert_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT);
          g_assert_true (g_str_has_prefix (error->message, path));
          g_assert_null (strchr (error->message, '\n'));
          g_assert_cmpint (format->load, ==, WS_INPUT_LOAD_NONE);
          continue;
        }
      g_assert_no_error (error);
      g_assert_cmpint (kind, ==, format->kind);
      g_assert_cmpstr (ws_input_kind_to_string (kind), ==, format->name);
      g_assert_cmpint (format->load, !=, WS_INPUT_LOAD_NONE);
      g_assert_cmpint (ws_input_kind_is_export (kind), ==, format->load == WS_INPUT_LOAD_EXPORT);
    }
  ws_test_rmtree (tmp);
}

/* Every kind but WS_INPUT_UNKNOWN has a row. */
static void
test_every_kind_has_a_row (void)
{
  gsize n_formats = 0;
  const WsInputFormat *formats = ws_input_formats (&n_formats);

  for (int kind = WS_INPUT_UNKNOWN + 1; kind <= WS_INPUT_KINETO; kind++)
    {
      gboolean found = FALSE;

      for (gsize i = 0; i < n_formats; i++)
        found |= formats[i].kind == (WsInputKind) kind;
      g_assert_true (found);
      g_assert_cmpstr (ws_input_kind_to_string (kind), !=, "unknown");
    }
  g_assert_cmpstr (ws_input_kind_to_string (WS_INPUT_UNKNOWN), ==, "unknown");
}

static void
test_unknown_file_is_refused (void)
{
  g_autofree char *path = ws_test_data ("targets", "header_basic.tsv", NULL);
  g_autoptr (GError) error = NULL;

  g_assert_cmpint (ws_input_detect (path, &error), ==, WS_INPUT_UNKNOWN);
  g_assert_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT);
  g_assert_true (g_str_has_prefix (error->message, path));
  g_assert_nonnull (strstr (error->message, ": not a file Warpscope reads (expected "));
  g_assert_null (strchr (error->message, '\n'));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/input-table/every-row/detects-its-file", test_every_row_detects_its_file);
  g_test_add_func ("/input-table/every-kind/has-a-row", test_every_kind_has_a_row);
  g_test_add_func ("/input-table/unknown-file/refused-in-one-line", test_unknown_file_is_refused);
  return g_test_run ();
}
