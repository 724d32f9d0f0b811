/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-cli"
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ws-cli.h"
#include "ws-error.h"
#include "ws-ncu-match.h"
#include "ws-ncu-reader.h"
#include "ws-run-loader.h"

/* Parses the options of a subcommand; on a usage error prints one line and
 * the hint to --help.  The remaining arguments are the files. */
gboolean
ws_cli_parse (GOptionContext *context, int *argc, char ***argv, int min_args, int max_args)
{
  g_autoptr (GError) error = NULL;
  int n_files;

  if (!g_option_context_parse (context, argc, argv, &error))
    {
      g_printerr ("warpscope-cli: %s\n", error->message);
      g_printerr (_ ("Try “%s --help”.\n"), (*argv)[0]);
      return FALSE;
    }
  n_files = *argc - 1;
  if (n_files < min_args || (max_args >= 0 && n_files > max_args))
    {
      if (n_files < min_args)
        g_printerr (_ ("%s: missing file argument\n"), (*argv)[0]);
      else
        g_printerr (_ ("%s: too many arguments\n"), (*argv)[0]);
      g_printerr (_ ("Try “%s --help”.\n"), (*argv)[0]);
      return FALSE;
    }
  return TRUE;
}

/* Prints the error (which names the file) as one line; returns the exit status. */
int
ws_cli_fail (GError *error)
{
  g_autofree char *line = g_strdup (error->message);

  g_strdelimit (line, "\n\r", ' ');
  g_printerr ("warpscope-cli: %s\n", line);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return WS_EXIT_FAILED;
  return WS_EXIT_BAD_INPUT;
}

/**
 * ws_cli_load:
 *
 * Returns: (transfer full): the run of @paths, or %NULL with @error set.
 */
WsRun *
ws_cli_load (char **paths, WsLoadFlags flags, GError **error)
{
  return ws_run_load ((const char *const *) paths, flags, NULL, NULL, NULL, error);
}

/* Writes @data to @path, or to standard output when @path is NULL or "-". */
gboolean
ws_cli_write (const char *path, const char *data, gsize len, GError **error)
{
  if (path == NULL || g_str_equal (path, "-"))
    {
      if (fwrite (data, 1, len, stdout) != len || fflush (stdout) != 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _ ("cannot write to standard output"));
          return FALSE;
        }
      return TRUE;
    }
  return g_file_set_contents (path, data, len, error);
}

/**
 * ws_cli_load_ncu:
 * @paths: ncu CSV exports, nsys SQLite exports, or capture folders
 *
 * A run with ncu results: the nsys export's, matched to its kernels, when
 * one is given (or found in a folder), or else a run of the ncu results
 * alone.  What the loader left out (a CSV of only ncu errors in a folder)
 * goes to stderr.
 *
 * Returns: (transfer full): the run, or %NULL with @error set
 */
WsRun *
ws_cli_load_ncu (char **paths, GError **error)
{
  g_autoptr (WsRun) run = ws_cli_load (paths, WS_LOAD_ALL, error);

  if (run == NULL)
    return NULL;
  if (run->ncu == NULL)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_NO_DATA,
                   _ ("%s: no Nsight Compute CSV export found"), paths[0]);
      return NULL;
    }
  for (guint i = 0; i < run->prov.warnings->len; i++)
    g_printerr ("warpscope-cli: %s\n", (const char *) g_ptr_array_index (run->prov.warnings, i));
  return g_steal_pointer (&run);
}
