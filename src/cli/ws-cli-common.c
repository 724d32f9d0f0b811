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

typedef enum
{
  INPUT_OTHER,
  INPUT_NCU,
  INPUT_NSYS,
} InputKind;

static InputKind
input_kind (const char *path)
{
  char head[1024];
  gssize n;
  int fd = open (path, O_RDONLY);

  if (fd < 0)
    return INPUT_OTHER;
  n = read (fd, head, sizeof head);
  close (fd);
  if (n <= 0)
    return INPUT_OTHER;
  if (n >= 16 && memcmp (head, "SQLite format 3", 16) == 0)
    return INPUT_NSYS;
  if (ws_ncu_reader_sniff (head, (gsize) n))
    return INPUT_NCU;
  return INPUT_OTHER;
}

static int
compare_strings (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

/* A capture folder: ncu CSVs and nsys exports anywhere below, in name
 * order.  A CSV that sniffs as ncu but cannot be read (an export that
 * holds only ncu's error) is skipped with a line on stderr. */
static void
scan_folder (const char *dir, int depth, GPtrArray *ncu, GPtrArray *nsys)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (d == NULL || depth > 4)
    return;
  while ((name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_build_filename (dir, name, NULL));
  g_ptr_array_sort (names, compare_strings);

  for (guint i = 0; i < names->len; i++)
    {
      const char *path = g_ptr_array_index (names, i);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        scan_folder (path, depth + 1, ncu, nsys);
      else if (g_str_has_suffix (path, ".sqlite") && input_kind (path) == INPUT_NSYS)
        g_ptr_array_add (nsys, g_strdup (path));
      else if ((g_str_has_suffix (path, ".csv") || g_str_has_suffix (path, ".log") ||
                g_str_has_suffix (path, ".txt")) &&
               input_kind (path) == INPUT_NCU)
        {
          g_autoptr (GError) error = NULL;
          g_autoptr (WsNcuResults) probe = ws_ncu_reader_load_file (path, &error);

          if (probe == NULL)
            g_printerr (_ ("warpscope-cli: skipped %s\n"), error->message);
          else
            g_ptr_array_add (ncu, g_strdup (path));
        }
    }
}

/**
 * ws_cli_load_ncu:
 * @paths: ncu CSV exports, nsys SQLite exports, or capture folders
 *
 * A run with ncu results: the nsys export's, matched to its kernels, when
 * one is given (or found in a folder), or else a run of the ncu results
 * alone.
 *
 * Returns: (transfer full): the run, or %NULL with @error set
 */
WsRun *
ws_cli_load_ncu (char **paths, GError **error)
{
  g_autoptr (GPtrArray) ncu = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) nsys = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (WsNcuResults) results = NULL;
  g_autoptr (WsRun) run = NULL;

  for (guint i = 0; paths[i] != NULL; i++)
    {
      if (g_file_test (paths[i], G_FILE_TEST_IS_DIR))
        {
          scan_folder (paths[i], 0, ncu, nsys);
          continue;
        }
      if (!g_file_test (paths[i], G_FILE_TEST_EXISTS))
        {
          g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_NOT_FOUND, "%s: %s", paths[i],
                       g_strerror (ENOENT));
          return NULL;
        }
      if (input_kind (paths[i]) == INPUT_NSYS)
        g_ptr_array_add (nsys, g_strdup (paths[i]));
      else
        /* Anything else is read as ncu CSV, so that its reader says what is wrong. */
        g_ptr_array_add (ncu, g_strdup (paths[i]));
    }
  if (ncu->len == 0)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_NO_DATA,
                   _ ("%s: no Nsight Compute CSV export found"), paths[0]);
      return NULL;
    }
  g_ptr_array_add (ncu, NULL);
  results = ws_ncu_reader_load ((const char *const *) ncu->pdata, NULL, error);
  if (results == NULL)
    return NULL;

  if (nsys->len > 1)
    g_printerr (_ ("warpscope-cli: %u nsys exports given; ncu kernels are not matched to any\n"),
                nsys->len);
  if (nsys->len == 1)
    {
      char *nsys_paths[] = { g_ptr_array_index (nsys, 0), NULL };

      run = ws_cli_load (nsys_paths, WS_LOAD_ALL, error);
      if (run == NULL)
        return NULL;
      ws_run_attach_ncu (run, results);
    }
  else
    run = ws_run_new_from_ncu (results);
  return g_steal_pointer (&run);
}
