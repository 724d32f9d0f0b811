/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include <gtk/gtk.h>

#include "ws-test-util.h"

/* The real `warpscope` binary, as a user or the file manager starts it;
 * WARPSCOPE_EXIT_AFTER_LOAD makes it print what it loaded and quit. */
static void
run_app (const char *const *args, WsTestRun *run)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();

  g_ptr_array_add (argv, (gpointer) g_getenv ("WARPSCOPE_APP"));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  ws_test_run_bounded ((const char *const *) argv->pdata, 60, run);
  if (run->status != 0)
    g_test_message ("exit status %d: %s", run->status, run->err);
  g_assert_false (run->timed_out);
  g_assert_cmpint (run->signal, ==, 0);
}

/* Without a display: one line saying so and what to do instead (issue 44,
 * item 6), not GTK's bare "cannot open display"; --help still works. */
static void
test_no_display (void)
{
  g_autofree char *probe = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autofree char *display = g_strdup (g_getenv ("DISPLAY"));
  g_autofree char *wayland = g_strdup (g_getenv ("WAYLAND_DISPLAY"));
  const char *args[] = { probe, NULL };
  const char *help[] = { "--help", NULL };
  WsTestRun run;

  g_unsetenv ("DISPLAY");
  g_unsetenv ("WAYLAND_DISPLAY");
  run_app (args, &run);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_cmpstr (run.out, ==, "");
  g_assert_cmpuint (ws_test_count_lines (run.err), ==, 1);
  g_assert_nonnull (strstr (run.err, "no display found"));
  g_assert_nonnull (strstr (run.err, "xvfb-run -a warpscope FILE"));
  g_assert_nonnull (strstr (run.err, "warpscope-cli"));
  ws_test_run_clear (&run);
  run_app (help, &run);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "warpscope"));
  ws_test_run_clear (&run);
  if (display != NULL)
    g_setenv ("DISPLAY", display, TRUE);
  if (wayland != NULL)
    g_setenv ("WAYLAND_DISPLAY", wayland, TRUE);
}

static void
test_opens_file_argument (void)
{
  g_autofree char *probe = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  const char *args[] = { probe, NULL };
  WsTestRun run;

  run_app (args, &run);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.out, ==, "loaded yes page=kernels kernels=336 error=\n");
  ws_test_run_clear (&run);
}

static void
test_compare_option (void)
{
  g_autofree char *a = ws_test_data ("nsys", "v2025.3_h100_train_fp32.sqlite", NULL);
  g_autofree char *b = ws_test_data ("nsys", "v2025.3_h100_train_bf16.sqlite", NULL);
  const char *args[] = { "--compare", a, b, NULL };
  const char *wrong[] = { "--compare", a, NULL };
  WsTestRun run;

  run_app (args, &run);
  g_assert_cmpint (run.status, ==, 0);
  /* Both runs have steps: their steady states compare (40 kernels, as
   * `warpscope-cli compare` lists them), per step first. */
  g_assert_true (
    g_str_has_prefix (run.out, "compared yes kernels=40 headline=per step: GPU 8.7× faster"));
  ws_test_run_clear (&run);

  run_app (wrong, &run);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "--compare takes two runs"));
  ws_test_run_clear (&run);
}

/* Each side as "export,ncu.csv": both runs carry their ncu results; six
 * kernels are profiled under one demangled name on both sides (Fill<float>,
 * softmax forward and backward, Mul, the MeanOps reduce, the BUnary
 * elementwise kernel: the kernel names of the two CSVs side by side). */
static void
test_compare_with_ncu_lists (void)
{
  g_autofree char *a = ws_test_data ("nsys", "v2025.3_h100_train_fp32.sqlite", NULL);
  g_autofree char *b = ws_test_data ("nsys", "v2025.3_h100_train_bf16.sqlite", NULL);
  g_autofree char *a_ncu = ws_test_data ("ncu", "h100_train_fp32_sections_raw.csv", NULL);
  g_autofree char *b_ncu = ws_test_data ("ncu", "h100_train_bf16_sections_raw.csv", NULL);
  g_autofree char *before = g_strdup_printf ("%s,%s", a, a_ncu);
  g_autofree char *after = g_strdup_printf ("%s,%s", b, b_ncu);
  const char *args[] = { "--compare", before, after, NULL };
  const char *plain[] = { "--compare", a, b, NULL };
  WsTestRun run;

  run_app (args, &run);
  g_assert_cmpint (run.status, ==, 0);
  /* The steady states: 40 kernels, the six profiled ones among them. */
  g_assert_true (g_str_has_prefix (run.out, "compared yes kernels=40 headline="));
  g_assert_true (g_str_has_suffix (run.out, " profiled=6\n"));
  ws_test_run_clear (&run);

  run_app (plain, &run);
  g_assert_true (g_str_has_suffix (run.out, " profiled=0\n"));
  ws_test_run_clear (&run);
}

static void
test_bad_file_argument (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "notes.txt", NULL);
  const char *args[] = { path, NULL };
  WsTestRun run;

  g_assert_true (g_file_set_contents (path, "not a profile\n", -1, NULL));
  run_app (args, &run);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (g_str_has_prefix (run.out, "loaded no page=welcome kernels=0 error="));
  g_assert_nonnull (strstr (run.out, path));
  ws_test_run_clear (&run);
  ws_test_rmtree (dir);
}

int
main (int argc, char **argv)
{
  G_GNUC_UNUSED GdkDisplay *display;

  /* Before any thread exists: every child inherits it. */
  g_setenv ("WARPSCOPE_EXIT_AFTER_LOAD", "1", TRUE);
  g_test_init (&argc, &argv, NULL);
  /* One client of the X server for the whole test: each app run is
   * otherwise its only client, and when it quits the server resets, which
   * may refuse the next run's connection ("cannot open display"). */
  display = gtk_init_check (NULL, NULL) ? gdk_display_get_default () : NULL;

  g_test_add_func ("/app-binary/opens-file-argument", test_opens_file_argument);
  g_test_add_func ("/app-binary/no-display-one-line", test_no_display);
  g_test_add_func ("/app-binary/compare-option", test_compare_option);
  g_test_add_func ("/app-binary/compare-option-with-ncu-lists", test_compare_with_ncu_lists);
  g_test_add_func ("/app-binary/bad-file-argument", test_bad_file_argument);

  return g_test_run ();
}
