/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "ws-test-util.h"

/* Issue 44, item 5: on a GPU server without fonts Pango measured every
 * character as a box wider than any line, and `render -v stalls` failed
 * with "size 1200×43690523 is out of range".  Without a font the drawing
 * commands now say so in one line and write nothing; with one they draw. */
static void
test_stalls_without_fonts (void)
{
  g_autofree char *tmp = ws_test_tmpdir ();
  g_autofree char *conf = g_build_filename (tmp, "empty.conf", NULL);
  g_autofree char *png = g_build_filename (tmp, "stalls.png", NULL);
  g_autofree char *csv = ws_test_data ("ncu", "h100_probe_full_details.csv", NULL);
  g_autofree char *old = g_strdup (g_getenv ("FONTCONFIG_FILE"));
  const char *argv[] = { ws_test_cli (), "render", "-v", "stalls", "-o", png, csv, NULL };
  WsTestRun run;

  g_assert_true (g_file_set_contents (conf,
                                      "<?xml version=\"1.0\"?>\n<!DOCTYPE fontconfig SYSTEM "
                                      "\"fonts.dtd\">\n<fontconfig></fontconfig>\n",
                                      -1, NULL));
  g_setenv ("FONTCONFIG_FILE", conf, TRUE);
  ws_test_run_bounded (argv, 60, &run);
  if (old != NULL)
    g_setenv ("FONTCONFIG_FILE", old, TRUE);
  else
    g_unsetenv ("FONTCONFIG_FILE");
  g_assert_cmpint (run.status, ==, 1);
  /* One line of ours (LeakSanitizer may add its report of suppressions). */
  {
    g_auto (GStrv) lines = g_strsplit (run.err, "\n", -1);
    guint ours = 0;

    for (guint i = 0; lines[i] != NULL; i++)
      ours += g_str_has_prefix (lines[i], "warpscope-cli");
    g_assert_cmpuint (ours, ==, 1);
  }
  g_assert_nonnull (strstr (run.err, png));
  g_assert_nonnull (strstr (run.err, "no fonts"));
  g_assert_null (strstr (run.err, "out of range"));
  g_assert_false (g_file_test (png, G_FILE_TEST_EXISTS));
  ws_test_run_clear (&run);

  /* With the machine's fonts the same command draws. */
  ws_test_run_bounded (argv, 60, &run);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (g_file_test (png, G_FILE_TEST_EXISTS));
  ws_test_run_clear (&run);
  ws_test_rmtree (tmp);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/render/no-fonts/one-line-nothing-written", test_stalls_without_fonts);
  return g_test_run ();
}
