/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ws-test-util.h"

static char *tmpdir;

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmpdir, name, NULL);
}

static void
write_file (const char *path, const void *data, gsize len)
{
  g_autoptr (GError) error = NULL;

  g_file_set_contents (path, data, len, &error);
  g_assert_no_error (error);
}

static char *
probe_bytes (gsize *len)
{
  g_autofree char *probe = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  char *contents = NULL;

  g_assert_true (g_file_get_contents (probe, &contents, len, NULL));
  return contents;
}

/* Runs each command on @path: it must end with status 2 and one line on
 * stderr that names the file and contains @reason. */
static void
assert_bad_input (const char *path, const char *reason)
{
  static const char *const commands[][3] = {
    { "info", NULL, NULL },
    { "stats", NULL, NULL },
    { "stats", "--format", "csv" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      const char *argv[] = { ws_test_cli (), commands[i][0], path, NULL, NULL, NULL };
      g_autofree char *out = NULL, *err = NULL;

      if (commands[i][1] != NULL)
        {
          argv[2] = commands[i][1];
          argv[3] = commands[i][2];
          argv[4] = path;
        }
      g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 2);
      g_assert_cmpstr (out, ==, "");
      g_test_message ("%s", err);
      g_assert_nonnull (strstr (err, path));
      g_assert_nonnull (strstr (err, reason));
      /* One line: its only newline is the last character. */
      g_assert_true (strchr (err, '\n') == err + strlen (err) - 1);
    }
}

static void
test_missing_file (void)
{
  g_autofree char *path = tmp_path ("does-not-exist.sqlite");

  assert_bad_input (path, "No such file");
}

static void
test_empty_file (void)
{
  g_autofree char *path = tmp_path ("empty.sqlite");

  write_file (path, "", 0);
  assert_bad_input (path, "the file is empty");
}

static void
test_text_file (void)
{
  g_autofree char *path = tmp_path ("notes.sqlite");
  const char *text = "Notes on the profile of 2026-11-20\nThe GEMM is slow.\n";

  write_file (path, text, strlen (text));
  assert_bad_input (path, "not an SQLite database (it is a text file)");
}

/* Text that is none of the kinds we read, under a name that says nothing. */
static void
test_unknown_text (void)
{
  g_autofree char *path = tmp_path ("results.txt");
  const char *text = "kernel,time\ngemm,12\n";

  write_file (path, text, strlen (text));
  assert_bad_input (path, "not a file Warpscope reads");
}

static void
test_binary_garbage (void)
{
  g_autofree char *path = tmp_path ("garbage.sqlite");
  guint8 bytes[4096];

  for (gsize i = 0; i < sizeof bytes; i++)
    bytes[i] = (guint8) (i * 131 + 7);
  bytes[0] = 0;
  write_file (path, bytes, sizeof bytes);
  assert_bad_input (path, "not an SQLite database");
}

static void
test_truncated (void)
{
  gsize len;
  g_autofree char *contents = probe_bytes (&len);
  g_autofree char *at_page = tmp_path ("cut-at-page.sqlite");
  g_autofree char *mid_page = tmp_path ("cut-mid-page.sqlite");
  g_autofree char *header = tmp_path ("cut-in-header.sqlite");

  write_file (at_page, contents, 1 << 20);
  assert_bad_input (at_page, "truncated: the header says");
  write_file (mid_page, contents, 1000000);
  assert_bad_input (mid_page, "truncated");
  write_file (header, contents, 50);
  assert_bad_input (header, "truncated SQLite file (50 bytes");
}

static void
test_corrupt_pages (void)
{
  gsize len;
  g_autofree char *contents = probe_bytes (&len);
  g_autofree char *path = tmp_path ("corrupt.sqlite");

  /* Keep the header page (the schema); overwrite every other page. */
  memset (contents + 4096, 0xA5, len - 4096);
  write_file (path, contents, len);
  assert_bad_input (path, "corrupt");
}

static void
test_corrupt_header (void)
{
  gsize len;
  g_autofree char *contents = probe_bytes (&len);
  g_autofree char *path = tmp_path ("bad-page-size.sqlite");

  contents[16] = 0x03;
  contents[17] = 0x00;
  write_file (path, contents, len);
  assert_bad_input (path, "corrupt SQLite header (page size 768)");
}

static void
test_not_an_export (void)
{
  g_autofree char *path = tmp_path ("other.sqlite");
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_cmpint (
    sqlite3_exec (db, "CREATE TABLE recipes (name TEXT); INSERT INTO recipes VALUES ('soup');",
                  NULL, NULL, NULL),
    ==, SQLITE_OK);
  sqlite3_close (db);
  assert_bad_input (path, "an SQLite database, but not an Nsight Systems export");
}

/* A table of the right name without the columns we need. */
static void
test_wrong_columns (void)
{
  g_autofree char *path = tmp_path ("wrong-columns.sqlite");
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_cmpint (
    sqlite3_exec (db,
                  "CREATE TABLE StringIds (id INTEGER, value TEXT);"
                  "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (begin INTEGER, finish INTEGER);"
                  "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1, 2);",
                  NULL, NULL, NULL),
    ==, SQLITE_OK);
  sqlite3_close (db);
  assert_bad_input (path, "table CUPTI_ACTIVITY_KIND_KERNEL has no start or end column");
}

/* A valid export without kernels is not bad input: the kernel report says
 * it has no kernel data, as nsys stats does, and the others work. */
static void
test_export_without_kernels (void)
{
  g_autofree char *fixture = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autofree char *copy = ws_test_copy_to_tmp (fixture, "nvtx-only.sqlite");
  const char *kern[] = { ws_test_cli (), "stats", copy, NULL };
  const char *kern_csv[] = { ws_test_cli (), "stats", "--format", "csv", copy, NULL };
  const char *nvtx[] = { ws_test_cli (), "stats", "--report", "nvtx_sum",
                         "--format",     "csv",   copy,       NULL };
  const char *info[] = { ws_test_cli (), "info", copy, NULL };
  g_autofree char *out = NULL, *err = NULL;
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (copy, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL", NULL, NULL, NULL), ==,
                   SQLITE_OK);
  sqlite3_close (db);

  g_assert_cmpint (ws_test_run (kern, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "does not contain CUDA kernel data"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (ws_test_run (kern_csv, &out, &err), ==, 0);
  g_assert_cmpstr (out, ==, "");
  g_assert_nonnull (strstr (err, "does not contain CUDA kernel data"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (ws_test_run (nvtx, &out, &err), ==, 0);
  g_assert_true (g_str_has_prefix (out, "Time (%),Total Time (ns),Instances"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (ws_test_run (info, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "no CUDA kernel data"));
}

static void
test_usage_errors (void)
{
  const char *no_file[] = { ws_test_cli (), "stats", NULL };
  const char *bad_report[] = { ws_test_cli (),   "stats",    "--report",
                               "gpu_everything", "x.sqlite", NULL };
  const char *bad_command[] = { ws_test_cli (), "frobnicate", NULL };
  g_autofree char *out = NULL, *err = NULL;

  g_assert_cmpint (ws_test_run (no_file, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, "missing file"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (ws_test_run (bad_report, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, "gpu_everything"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (ws_test_run (bad_command, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, "frobnicate"));
}

/* Every command's --format is checked by the one frame, with one line:
 * `warpscope-cli: COMMAND: unknown format “…” (the formats it writes)`,
 * before any file is read. */
static void
test_format_one_message (void)
{
  static const struct
  {
    const char *command, *format, *line;
  } cases[] = {
    { "info", "csv", "warpscope-cli: info: unknown format “csv” (table or json)\n" },
    { "stats", "json", "warpscope-cli: stats: unknown format “json” (table, csv or md)\n" },
    { "steps", "xml", "warpscope-cli: steps: unknown format “xml” (table, csv, md or json)\n" },
    { "gauges", "md", "warpscope-cli: gauges: unknown format “md” (table, csv or json)\n" },
    { "ranks", "md", "warpscope-cli: ranks: unknown format “md” (table, csv or json)\n" },
    { "rollup", "md", "warpscope-cli: rollup: unknown format “md” (table, csv or json)\n" },
    { "diagnose", "csv", "warpscope-cli: diagnose: unknown format “csv” (table, md or json)\n" },
    { "compare", "json", "warpscope-cli: compare: unknown format “json” (table, csv or md)\n" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *argv[] = { ws_test_cli (),  cases[i].command, "--format",
                             cases[i].format, "missing.sqlite", NULL };
      g_autofree char *out = NULL, *err = NULL;

      g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 2);
      g_assert_cmpstr (err, ==, cases[i].line);
      g_assert_cmpstr (out, ==, "");
    }
}

/* A file whose events would not fit in the memory a load may use is
 * refused before anything is allocated: with a budget of 4 KiB, the probe's
 * 336 kernels (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL) need more. */
static void
test_memory_bound (void)
{
  g_autofree char *path = tmp_path ("probe.sqlite");
  g_autofree char *contents = NULL;
  gsize len;

  contents = probe_bytes (&len);
  write_file (path, contents, len);
  g_setenv ("WARPSCOPE_MEMORY_LIMIT", "4096", TRUE);
  assert_bad_input (path, "more than the");
  g_unsetenv ("WARPSCOPE_MEMORY_LIMIT");
}

/* The export the output tests write from: small, with kernels. */
static char *
small_export (const char *name)
{
  g_autofree char *data = ws_test_data ("nsys", "v2026.1_nsysai_mock.sqlite", NULL);
  g_autofree char *contents = NULL;
  char *path = tmp_path (name);
  gsize len;

  g_assert_true (g_file_get_contents (data, &contents, &len, NULL));
  write_file (path, contents, len);
  return path;
}

/* Runs warpscope-cli with @args (NULL-terminated); 120 s at most. */
static void
run_cli (WsTestRun *run, const char *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();

  g_ptr_array_add (argv, (gpointer) ws_test_cli ());
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  ws_test_run_bounded ((const char *const *) argv->pdata, 120, run);
  g_test_message ("exit %d\nstdout:\n%s\nstderr:\n%s", run->status, run->out, run->err);
  g_assert_false (run->timed_out);
}

static void
assert_one_line (const char *err)
{
  g_assert_cmpuint (strlen (err), >, 0);
  g_assert_true (strchr (err, '\n') == err + strlen (err) - 1);
}

/* `export --chrome-trace FIFO`: the reader of the FIFO gets the whole
 * trace — byte for byte what the same export writes to a regular file —
 * and the FIFO stays a FIFO (it was replaced by a 5 MB file). */
static void
test_output_fifo (void)
{
  g_autofree char *export = small_export ("fifo-run.sqlite");
  g_autofree char *fifo = tmp_path ("trace.json");
  const char *args[] = { "export", "--chrome-trace", fifo, export, NULL };
  g_autoptr (GBytes) got = NULL;
  WsTestRun run = { 0 };
  WsTestFifoReader *reader;
  GStatBuf st;

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  reader = ws_test_fifo_reader_start (fifo);
  run_cli (&run, args);
  g_assert_cmpint (run.status, ==, 0);
  got = ws_test_fifo_reader_finish (reader, 60);
  g_assert_nonnull (got);
  g_assert_cmpint (g_lstat (fifo, &st), ==, 0);
  g_assert_true (S_ISFIFO (st.st_mode));
  ws_test_run_clear (&run);
  {
    g_autofree char *file = tmp_path ("trace-file.json");
    const char *to_file[] = { "export", "--chrome-trace", file, export, NULL };
    g_autofree char *contents = NULL;
    gsize len = 0;

    run_cli (&run, to_file);
    g_assert_cmpint (run.status, ==, 0);
    ws_test_run_clear (&run);
    g_assert_true (g_file_get_contents (file, &contents, &len, NULL));
    g_assert_cmpuint (g_bytes_get_size (got), ==, len);
    g_assert_cmpmem (g_bytes_get_data (got, NULL), g_bytes_get_size (got), contents, len);
    g_unlink (file);
  }
  g_unlink (fifo);
}

/* `render -o LINK`: the file the link names gets the image; the link stays. */
static void
test_output_symlink (void)
{
  g_autofree char *export = small_export ("link-run.sqlite");
  g_autofree char *target = tmp_path ("t.png");
  g_autofree char *link = tmp_path ("l.png");
  const char *args[] = { "render", "--view", "timeline", "-o", link, export, NULL };
  g_autofree char *png = NULL;
  WsTestRun run = { 0 };

  write_file (target, "old", 3);
  g_assert_cmpint (symlink ("t.png", link), ==, 0);
  run_cli (&run, args);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (g_file_test (link, G_FILE_TEST_IS_SYMLINK));
  png = ws_test_read (target);
  g_assert_true (g_str_has_prefix (png, "\x89PNG"));
  ws_test_run_clear (&run);
  g_unlink (link);
  g_unlink (target);
}

/* `render --view overview` (the first frame of a big export): an image
 * for an export; for a text file one line naming it, exit 2, and no
 * image; the input as an output is refused and left as it was. */
static void
test_overview (void)
{
  g_autofree char *export = small_export ("overview-run.sqlite");
  g_autofree char *text = tmp_path ("overview.sqlite");
  g_autofree char *png = tmp_path ("overview.png");
  g_autofree char *refused = tmp_path ("refused.png");
  g_autofree char *before = ws_test_file_sha256 (export);
  g_autofree char *after = NULL;
  g_autofree char *image = NULL;
  const char *good[] = { "render", "--view", "overview", "-o", png, export, NULL };
  const char *bad[] = { "render", "--view", "overview", "-o", refused, text, NULL };
  const char *onto_input[] = { "render", "--view", "overview", "-o", export, export, NULL };
  WsTestRun run = { 0 };

  run_cli (&run, good);
  g_assert_cmpint (run.status, ==, 0);
  image = ws_test_read (png);
  g_assert_true (g_str_has_prefix (image, "\x89PNG"));
  ws_test_run_clear (&run);

  write_file (text, "not an export\n", 14);
  run_cli (&run, bad);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_cmpuint (ws_test_count_lines (run.err), ==, 1);
  g_assert_nonnull (strstr (run.err, text));
  g_assert_false (g_file_test (refused, G_FILE_TEST_EXISTS));
  ws_test_run_clear (&run);

  run_cli (&run, onto_input);
  g_assert_cmpint (run.status, ==, 2);
  after = ws_test_file_sha256 (export);
  g_assert_cmpstr (before, ==, after);
  ws_test_run_clear (&run);
  g_unlink (export);
  g_unlink (text);
  g_unlink (png);
}

/* A device is written into and stays a device: `/dev/null` swallows the
 * trace, `/dev/full` fails with one line naming it (exit status 1).  The
 * test makes its own nodes, so that a regression cannot harm /dev. */
static void
test_output_device (void)
{
  g_autofree char *export = small_export ("device-run.sqlite");
  g_autofree char *null = tmp_path ("null");
  g_autofree char *full = tmp_path ("full");
  const char *to_null[] = { "export", "--chrome-trace", null, export, NULL };
  const char *to_full[] = { "export", "--chrome-trace", full, export, NULL };
  g_autofree char *message = NULL;
  WsTestRun run = { 0 };
  GStatBuf st;

  if (!ws_test_make_device (null, 1, 3) || !ws_test_make_device (full, 1, 7))
    {
      g_test_skip ("cannot make device nodes here (not root)");
      return;
    }
  run_cli (&run, to_null);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpint (g_lstat (null, &st), ==, 0);
  g_assert_true (S_ISCHR (st.st_mode));
  ws_test_run_clear (&run);

  run_cli (&run, to_full);
  g_assert_cmpint (run.status, ==, 1);
  message = g_strdup_printf ("%s: cannot write: ", full);
  g_assert_nonnull (strstr (run.err, message));
  assert_one_line (run.err);
  g_assert_cmpint (g_lstat (full, &st), ==, 0);
  g_assert_true (S_ISCHR (st.st_mode));
  ws_test_run_clear (&run);
  g_unlink (null);
  g_unlink (full);
}

/* The input as the output is refused with one line naming it, and the
 * input is left as it was: by its name, through a hard link, and as a
 * file of a folder given as input. */
static void
test_output_is_input (void)
{
  g_autofree char *input = small_export ("v.png");
  g_autofree char *hard = tmp_path ("w.png");
  g_autofree char *folder = tmp_path ("capture");
  g_autofree char *in_folder = g_build_filename (folder, "run.sqlite", NULL);
  g_autofree char *sha = ws_test_file_sha256 (input);
  const char *same[] = { "render", "-o", input, input, NULL };
  const char *linked[] = { "render", "-o", hard, input, NULL };
  const char *flame[] = { "flame", "-o", input, input, NULL };
  const char *export[] = { "export", "--chrome-trace", input, input, NULL };
  const char *folder_args[] = { "export", "--markdown", in_folder, folder, NULL };
  const char *const *cases[] = { same, linked, flame, export };
  g_autofree char *folder_sha = NULL;
  WsTestRun run = { 0 };

  g_assert_cmpint (link (input, hard), ==, 0);
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      run_cli (&run, cases[i]);
      g_assert_cmpint (run.status, ==, 2);
      g_assert_nonnull (strstr (run.err, cases[i][2]));
      g_assert_nonnull (strstr (run.err, "the output is one of the inputs"));
      assert_one_line (run.err);
      ws_test_run_clear (&run);
      {
        g_autofree char *after = ws_test_file_sha256 (input);

        g_assert_cmpstr (after, ==, sha);
      }
    }

  g_assert_cmpint (g_mkdir (folder, 0755), ==, 0);
  g_assert_cmpint (link (input, in_folder), ==, 0);
  g_unlink (hard);
  folder_sha = ws_test_file_sha256 (in_folder);
  run_cli (&run, folder_args);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, in_folder));
  ws_test_run_clear (&run);
  {
    g_autofree char *after = ws_test_file_sha256 (in_folder);

    g_assert_cmpstr (after, ==, folder_sha);
  }
  ws_test_rmtree (folder);
  g_unlink (input);
}

/* A kernel name with ESC, BEL and a line break (a screen clear or a
 * window title from a file) is printed with visible escapes in the
 * terminal tables of `stats` and `compare`, one row each; CSV keeps the
 * name exact, quoted. */
static void
test_names_escaped (void)
{
  g_autofree char *export = small_export ("names.sqlite");
  const char *stats[] = { "stats", export, NULL };
  const char *csv[] = { "stats", "--format", "csv", export, NULL };
  const char *compare[] = { "compare", export, export, NULL };
  const char *shown = "evil\\x1b]0;pwned\\x07\\nsecond";
  WsTestRun run = { 0 };

  /* 138 and 139: the demangled and short names of one kernel. */
  ws_test_sqlite_exec (export, "UPDATE StringIds SET value = 'evil' || char(27) || ']0;pwned' || "
                               "char(7) || char(10) || 'second' WHERE id IN (138, 139)");
  run_cli (&run, stats);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, shown));
  g_assert_null (strchr (run.out, '\x1b'));
  g_assert_null (strchr (run.out, '\x07'));
  /* Title, blank, header, rule, two kernels, blank: a row per kernel. */
  g_assert_cmpuint (ws_test_count_lines (run.out), ==, 7);
  ws_test_run_clear (&run);

  run_cli (&run, csv);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, ",\"evil\x1b]0;pwned\x07\nsecond\"\n"));
  ws_test_run_clear (&run);

  run_cli (&run, compare);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, shown));
  g_assert_null (strchr (run.out, '\x1b'));
  g_assert_null (strchr (run.out, '\x07'));
  ws_test_run_clear (&run);
  g_unlink (export);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmpdir = ws_test_tmpdir ();

  g_test_add_func ("/bad-input/missing-file", test_missing_file);
  g_test_add_func ("/bad-input/empty-file", test_empty_file);
  g_test_add_func ("/bad-input/text-file-named-sqlite", test_text_file);
  g_test_add_func ("/bad-input/binary-garbage", test_binary_garbage);
  g_test_add_func ("/bad-input/unknown-text", test_unknown_text);
  g_test_add_func ("/bad-input/truncated", test_truncated);
  g_test_add_func ("/bad-input/corrupt-pages", test_corrupt_pages);
  g_test_add_func ("/bad-input/corrupt-header", test_corrupt_header);
  g_test_add_func ("/bad-input/sqlite-but-not-an-export", test_not_an_export);
  g_test_add_func ("/bad-input/required-columns-missing", test_wrong_columns);
  g_test_add_func ("/bad-input/export-without-kernels-is-fine", test_export_without_kernels);
  g_test_add_func ("/bad-input/usage-errors", test_usage_errors);
  g_test_add_func ("/bad-input/resources/refused-beyond-memory-bound", test_memory_bound);
  g_test_add_func ("/bad-input/usage/format-one-message", test_format_one_message);
  g_test_add_func ("/bad-input/output/fifo-gets-the-bytes", test_output_fifo);
  g_test_add_func ("/bad-input/output/symlink-target-gets-the-image", test_output_symlink);
  g_test_add_func ("/bad-input/render/overview-of-an-export-only", test_overview);
  g_test_add_func ("/bad-input/output/device-stays-a-device", test_output_device);
  g_test_add_func ("/bad-input/output/input-refused-and-unchanged", test_output_is_input);
  g_test_add_func ("/bad-input/names/control-characters-escaped-in-tables", test_names_escaped);

  status = g_test_run ();
  ws_test_rmtree (tmpdir);
  g_free (tmpdir);
  return status;
}
