/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-cli"
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <string.h>
#include <unistd.h>

#include "ws-cli.h"

/* Where warpscope-cli-full is: beside this executable (the build tree, a
 * folder carried to another machine), or else where it is installed. */
char *
ws_cli_full_path (void)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);

  if (exe != NULL)
    {
      g_autofree char *dir = g_path_get_dirname (exe);
      g_autofree char *beside = g_build_filename (dir, "warpscope-cli-full", NULL);

      if (g_file_test (beside, G_FILE_TEST_IS_EXECUTABLE))
        return g_steal_pointer (&beside);
    }
  return g_build_filename (PKGLIBEXECDIR, "warpscope-cli-full", NULL);
}

/**
 * ws_cli_run_full:
 * @argv: the command line as main() got it
 *
 * Replaces this process with warpscope-cli-full and the same command line,
 * environment and open files: it has the commands that draw and MPI, which
 * this executable does not link.  Returns only when that fails.
 */
int
ws_cli_run_full (char **argv)
{
  g_autofree char *path = ws_cli_full_path ();

  execv (path, argv);
  /* TRANSLATORS: a command (render), a path, then why it could not run */
  g_printerr (_ ("warpscope-cli: %s needs %s, which did not run: %s\n"), argv[1], path,
              g_strerror (errno));
  return WS_EXIT_FAILED;
}
