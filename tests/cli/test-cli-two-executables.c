/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gio/gio.h>
#include <string.h>

#include "ws-test-util.h"

/* warpscope-cli is two executables (docs/ARCHITECTURE.md, "cli"): the one
 * people run links neither Cairo, Pango nor MPI; the commands that draw run
 * in warpscope-cli-full, which it execs. */

static char *
full_path (void)
{
  g_autofree char *dir = g_path_get_dirname (ws_test_cli ());

  return g_build_filename (dir, "warpscope-cli-full", NULL);
}

/* The shared libraries an executable names (DT_NEEDED), as readelf, a
 * program apart from ours, prints them. */
static char *
needed (const char *exe)
{
  g_autofree char *readelf = g_find_program_in_path ("readelf");
  const char *argv[] = { readelf, "-d", exe, NULL };
  char *out = NULL;

  g_assert_nonnull (readelf);
  g_assert_cmpint (ws_test_run (argv, &out, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "(NEEDED)"));
  return out;
}

static void
test_lean_links_no_drawing (void)
{
  g_autofree char *full = full_path ();
  g_autofree char *lean_needs = needed (ws_test_cli ());
  g_autofree char *full_needs = needed (full);

  g_assert_nonnull (strstr (lean_needs, "[libsqlite3.so"));
  g_assert_null (strstr (lean_needs, "[libcairo.so"));
  g_assert_null (strstr (lean_needs, "[libpango-1.0.so"));
  g_assert_null (strstr (lean_needs, "[libmpi.so"));
  g_assert_nonnull (strstr (full_needs, "[libcairo.so"));
  g_assert_nonnull (strstr (full_needs, "[libpango-1.0.so"));
#if HAVE_MPI
  g_assert_nonnull (strstr (full_needs, "[libmpi.so"));
#endif
}

/* A command both have prints the same bytes from either; one that draws
 * makes the same PNG whether warpscope-cli hands it over or
 * warpscope-cli-full is run itself. */
static void
test_same_program (void)
{
  g_autofree char *full = full_path ();
  g_autofree char *path = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *png_lean = g_build_filename (dir, "lean.png", NULL);
  g_autofree char *png_full = g_build_filename (dir, "full.png", NULL);
  const char *stats_lean[] = { ws_test_cli (), "stats", "-r", "cuda_gpu_kern_sum,nvtx_sum",
                               "-f",           "csv",   path, NULL };
  const char *stats_full[] = { full, "stats", "-r", "cuda_gpu_kern_sum,nvtx_sum",
                               "-f", "csv",   path, NULL };
  const char *render_lean[] = { ws_test_cli (), "render", "--view", "bars", "--size",
                                "640x300",      "-o",     png_lean, path,   NULL };
  const char *render_full[] = { full,      "render", "--view", "bars", "--size",
                                "640x300", "-o",     png_full, path,   NULL };
  g_autofree char *out_lean = NULL, *out_full = NULL;
  g_autofree char *bytes_lean = NULL, *bytes_full = NULL;
  gsize n_lean = 0, n_full = 0;

  const char *compare_lean[] = { ws_test_cli (), "compare", path, path, NULL };
  const char *compare_full[] = { full, "compare", path, path, NULL };
  g_autofree char *cmp_lean = NULL, *cmp_full = NULL;

  /* compare draws nothing: warpscope-cli runs it itself. */
  g_assert_cmpint (ws_test_run (compare_lean, &cmp_lean, NULL), ==, 0);
  g_assert_cmpint (ws_test_run (compare_full, &cmp_full, NULL), ==, 0);
  g_assert_nonnull (strstr (cmp_lean, "Kernel launches                       336"));
  g_assert_cmpstr (cmp_lean, ==, cmp_full);

  g_assert_cmpint (ws_test_run (stats_lean, &out_lean, NULL), ==, 0);
  g_assert_cmpint (ws_test_run (stats_full, &out_full, NULL), ==, 0);
  g_assert_nonnull (strstr (out_lean, "Time (%),Total Time (ns)"));
  g_assert_cmpstr (out_lean, ==, out_full);

  g_assert_cmpint (ws_test_run (render_lean, NULL, NULL), ==, 0);
  g_assert_cmpint (ws_test_run (render_full, NULL, NULL), ==, 0);
  g_assert_true (g_file_get_contents (png_lean, &bytes_lean, &n_lean, NULL));
  g_assert_true (g_file_get_contents (png_full, &bytes_full, &n_full, NULL));
  /* A PNG of the size asked for: its IHDR chunk's width and height. */
  g_assert_cmpmem ("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x02\x80\0\0\x01\x2c", 24, bytes_lean,
                   MIN (n_lean, 24));
  g_assert_cmpmem (bytes_lean, n_lean, bytes_full, n_full);
}

/* warpscope-cli carried alone, without warpscope-cli-full: what needs no
 * drawing still runs; a command that draws fails with one line naming
 * where it looked, exit status 1, and writes nothing. */
static void
test_full_missing (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *alone = g_build_filename (dir, "warpscope-cli", NULL);
  g_autofree char *installed = g_build_filename (PKGLIBEXECDIR, "warpscope-cli-full", NULL);
  g_autofree char *png = g_build_filename (dir, "bars.png", NULL);
  g_autofree char *path = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autoptr (GFile) from = g_file_new_for_path (ws_test_cli ());
  g_autoptr (GFile) to = g_file_new_for_path (alone);
  const char *info[] = { alone, "info", path, NULL };
  const char *render[] = { alone, "render", "--view", "bars", "-o", png, path, NULL };
  g_autofree char *out = NULL, *err = NULL, *line = NULL;

  g_assert_true (g_file_copy (from, to, G_FILE_COPY_NONE, NULL, NULL, NULL, NULL));
  g_assert_cmpint (ws_test_run (info, &out, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "v2025.3_h100_probe.sqlite"));
  if (g_file_test (installed, G_FILE_TEST_EXISTS))
    /* An install of this prefix would take the command: not a new machine. */
    g_assert_cmpint (ws_test_run (render, NULL, NULL), ==, 0);
  else
    {
      line = g_strdup_printf ("warpscope-cli: render needs %s, which did not run: No such file "
                              "or directory\n",
                              installed);
      g_assert_cmpint (ws_test_run (render, NULL, &err), ==, 1);
      g_assert_cmpstr (err, ==, line);
      g_assert_false (g_file_test (png, G_FILE_TEST_EXISTS));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/two-executables/lean-links-no-drawing", test_lean_links_no_drawing);
  g_test_add_func ("/cli/two-executables/same-program", test_same_program);
  g_test_add_func ("/cli/two-executables/full-missing", test_full_missing);
  return g_test_run ();
}
