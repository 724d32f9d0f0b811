/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-report-convert"
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ws-file.h"
#include "ws-report-convert.h"
#include "ws-tool-find.h"
#include "ws-tool-process.h"
#include "ws-tools-error.h"

/* Nsight reports are binary files that only NVIDIA's tools read: opening
 * one runs `nsys export --type sqlite` or `ncu --import … --csv --page raw`
 * and reads what it wrote.  The result goes to the user's cache folder,
 * never beside the report, under a name made from the report's path, size
 * and modification time: an unchanged report opens again at once, a
 * changed one is converted again.  The tool writes into a temporary
 * folder whose output is renamed into place only when it succeeded; the
 * tool dies with the program, and a folder left by a program that died is
 * removed by the next conversion. */

/* Between SIGTERM and SIGKILL when a conversion is cancelled. */
#define GRACE_MS 2000
/* Lines of a tool's output kept for its error message. */
#define MAX_PROBLEM_LINES 8
/* What of the report's name the converted file keeps, in characters. */
#define STEM_MAX_CHARS 64
/* ncu prints its errors on standard output, which goes to the file. */
#define ERROR_SCAN_BYTES (64 * 1024)

typedef struct
{
  guint slot;            /* in configured[] */
  const char *tool;      /* the program */
  const char *product;   /* what to install */
  const char *url;       /* where to get it */
  const char *command;   /* the tool's verb, as messages name it */
  const char *extension; /* of the converted file */
} Tool;

static const Tool nsys_tool = {
  .slot = 0,
  .tool = "nsys",
  .product = "Nsight Systems",
  .url = "https://developer.nvidia.com/nsight-systems",
  .command = "nsys export",
  .extension = ".sqlite",
};

static const Tool ncu_tool = {
  .slot = 1,
  .tool = "ncu",
  .product = "Nsight Compute",
  .url = "https://developer.nvidia.com/nsight-compute",
  .command = "ncu --import",
  .extension = ".csv",
};

/* The tool paths of the window's settings; the command line sets none, so
 * that a run depends only on its command line and environment. */
static GMutex tools_lock;
static char *configured[2];
static gboolean has_settings;

static const Tool *
tool_for (WsReportTool kind)
{
  switch (kind)
    {
      case WS_REPORT_TOOL_NSYS:
        return &nsys_tool;
      case WS_REPORT_TOOL_NCU:
        return &ncu_tool;
      default:
        return NULL;
    }
}

/**
 * ws_report_convert_set_tools:
 * @nsys: (nullable): the nsys to run; %NULL or "" to look for it
 * @ncu: (nullable): likewise for ncu
 *
 * Gives the tool paths of the application's settings.  Until it is called
 * the tools are looked for on PATH and in their install folders
 * (ws_tool_find()), and a missing tool's message says to put it
 * on PATH rather than in the settings.
 */
void
ws_report_convert_set_tools (const char *nsys, const char *ncu)
{
  g_mutex_lock (&tools_lock);
  g_free (configured[0]);
  g_free (configured[1]);
  configured[0] = g_strdup (nsys);
  configured[1] = g_strdup (ncu);
  has_settings = TRUE;
  g_mutex_unlock (&tools_lock);
}

/**
 * ws_report_convert_cache_dir:
 *
 * Returns: (transfer full): `$XDG_CACHE_HOME/warpscope/converted`
 */
char *
ws_report_convert_cache_dir (void)
{
  return g_build_filename (g_get_user_cache_dir (), "warpscope", "converted", NULL);
}

/* The report's name without its extension, as a file name people can
 * recognise: valid UTF-8, no control characters, not hidden (temporary
 * folders start with a dot), not too long. */
static char *
report_stem (const char *report)
{
  g_autofree char *base = g_path_get_basename (report);
  g_autofree char *valid = NULL;
  char *dot = strrchr (base, '.');

  if (dot != NULL && dot != base)
    *dot = '\0';
  valid = g_utf8_make_valid (base, -1);
  for (char *p = valid; *p != '\0'; p++)
    if ((guchar) *p < 0x20 || *p == G_DIR_SEPARATOR)
      *p = '_';
  if (valid[0] == '.' || valid[0] == '\0')
    {
      char *prefixed = g_strconcat ("_", valid, NULL);

      g_free (valid);
      valid = prefixed;
    }
  return g_utf8_substring (valid, 0, MIN (g_utf8_strlen (valid, -1), STEM_MAX_CHARS));
}

static char *
absolute_path (const char *path)
{
  char *real = realpath (path, NULL);
  char *result;

  if (real == NULL)
    return g_canonicalize_filename (path, NULL);
  result = g_strdup (real);
  free (real);
  return result;
}

/* "STEM-PPPPPPPP-": what every conversion of the report at this path shares,
 * so that an older one can be found and removed. */
static char *
name_prefix (const char *report, const char *absolute)
{
  g_autofree char *stem = report_stem (report);
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, absolute, -1);

  return g_strdup_printf ("%s-%.8s-", stem, hash);
}

static char *
cache_path_for (const char *report, const Tool *tool, const GStatBuf *st)
{
  g_autofree char *absolute = absolute_path (report);
  g_autofree char *prefix = name_prefix (report, absolute);
  g_autofree char *dir = ws_report_convert_cache_dir ();
  g_autofree char *identity = NULL;
  g_autofree char *hash = NULL;
  g_autofree char *name = NULL;
  g_autofree char *size = g_strdup_printf ("%" G_GINT64_FORMAT, (gint64) st->st_size);
  g_autofree char *mtime = g_strdup_printf ("%" G_GINT64_FORMAT ".%09ld",
                                            (gint64) st->st_mtim.tv_sec, st->st_mtim.tv_nsec);

  identity = g_strjoin ("\n", absolute, size, mtime, NULL);
  hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, identity, -1);
  name = g_strdup_printf ("%s%.8s%s", prefix, hash, tool->extension);
  return g_build_filename (dir, name, NULL);
}

/**
 * ws_report_convert_cache_path:
 * @kind: the tool that wrote @report
 *
 * Returns: (transfer full): where the conversion of @report as it is now
 *   goes (whether it exists or not), or %NULL with @error set when the
 *   report cannot be read
 */
char *
ws_report_convert_cache_path (const char *report, WsReportTool kind, GError **error)
{
  const Tool *tool = tool_for (kind);
  GStatBuf st;

  g_return_val_if_fail (report != NULL, NULL);
  g_return_val_if_fail (tool != NULL, NULL);

  if (!ws_file_stat (report, &st, error))
    return NULL;
  return cache_path_for (report, tool, &st);
}

/* A word of a shell command: quoted only where it has to be, since plain
 * paths are easier to read. */
static char *
shell_word (const char *word)
{
  for (const char *p = word; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && strchr ("/._-+,:@%=", *p) == NULL && (guchar) *p < 0x80)
      return g_shell_quote (word);
  return g_strdup (word);
}

/* The command that does by hand what the conversion does. */
static char *
manual_command (const char *report, const Tool *tool)
{
  g_autofree char *base = g_strdup (report);
  char *dot = strrchr (base, '.');
  g_autofree char *in = shell_word (report);
  g_autofree char *out = NULL;

  if (dot != NULL && strchr (dot, G_DIR_SEPARATOR) == NULL)
    *dot = '\0';
  if (tool == &nsys_tool)
    {
      g_autofree char *sqlite = g_strconcat (base, ".sqlite", NULL);

      out = shell_word (sqlite);
      return g_strdup_printf ("nsys export --type sqlite --output %s %s", out, in);
    }
  {
    g_autofree char *csv = g_strconcat (base, "_ncu_raw.csv", NULL);

    out = shell_word (csv);
  }
  return g_strdup_printf ("ncu --import %s --csv --page raw --print-units base > %s", in, out);
}

/* Whether the tool a capture folder's run.json names may run: a folder
 * sent by someone else must never run anything, so only an nsys or ncu
 * by that name, outside the folder, that nobody but its owner (root or
 * the user) could have changed. */
static gboolean
trusted_fallback (const char *report, const Tool *tool, const char *fallback)
{
  g_autofree char *name = g_path_get_basename (fallback);
  g_autofree char *real = realpath (fallback, NULL);
  g_autofree char *report_dir = g_path_get_dirname (report);
  g_autofree char *folder = NULL;
  g_autofree char *real_folder = NULL;
  GStatBuf st;

  if (!g_path_is_absolute (fallback) || !g_str_equal (name, tool->tool) || real == NULL ||
      g_stat (real, &st) != 0 || !S_ISREG (st.st_mode) || (st.st_mode & 0111) == 0 ||
      (st.st_mode & (S_IWGRP | S_IWOTH)) != 0 || (st.st_uid != 0 && st.st_uid != getuid ()))
    return FALSE;
  /* The capture folder: the report's, or its parent's for nsys/ and ncu/. */
  folder = g_path_get_dirname (report_dir);
  real_folder = realpath (folder, NULL);
  if (real_folder != NULL)
    {
      g_autofree char *prefix = g_strconcat (real_folder, G_DIR_SEPARATOR_S, NULL);

      if (g_str_has_prefix (real, prefix))
        return FALSE;
    }
  return TRUE;
}

/* The program to run, or %NULL with the message that says what to do:
 * the one in the settings, else on PATH and in the usual folders, else
 * @fallback (the one a capture folder's run.json names). */
static char *
find_tool (const char *report, const Tool *tool, const char *fallback, GError **error)
{
  g_autofree char *path = NULL;
  g_autofree char *manual = NULL;
  g_autofree char *setting = NULL;
  gboolean settings;

  g_mutex_lock (&tools_lock);
  setting = g_strdup (configured[tool->slot]);
  settings = has_settings;
  g_mutex_unlock (&tools_lock);

  path = ws_tool_resolve (tool->tool, setting, NULL);
  if (path != NULL)
    return g_steal_pointer (&path);
  if (fallback != NULL && trusted_fallback (report, tool, fallback))
    return g_strdup (fallback);

  manual = manual_command (report, tool);
  if (setting != NULL && setting[0] != '\0')
    /* TRANSLATORS: the first %s is a file, then: Nsight Systems, nsys,
     * its path in the settings, Nsight Systems, its web page, a command */
    g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_NO_TOOL,
                 _ ("%s: an %s report, and the %s set in Preferences, %s, is not "
                    "a program: install %s (%s) or correct its path, or export it yourself: %s"),
                 report, tool->product, tool->tool, setting, tool->product, tool->url, manual);
  else if (settings)
    /* TRANSLATORS: the first %s is a file, then: Nsight Systems, nsys,
     * Nsight Systems, its web page, a command */
    g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_NO_TOOL,
                 _ ("%s: an %s report, and %s was not found: install %s (%s) or set its path in "
                    "Preferences, or export it yourself: %s"),
                 report, tool->product, tool->tool, tool->product, tool->url, manual);
  else
    /* TRANSLATORS: the first %s is a file, then: Nsight Systems, nsys,
     * Nsight Systems, its web page, nsys, a command */
    g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_NO_TOOL,
                 _ ("%s: an %s report, and %s was not found: install %s (%s) or put %s on PATH, "
                    "or export it yourself: %s"),
                 report, tool->product, tool->tool, tool->product, tool->url, tool->tool, manual);
  return NULL;
}

static void
remove_tree (const char *path)
{
  g_autoptr (GDir) dir = NULL;
  const char *name;

  if (g_file_test (path, G_FILE_TEST_IS_SYMLINK) || !g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_unlink (path);
      return;
    }
  dir = g_dir_open (path, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      remove_tree (child);
    }
  g_rmdir (path);
}

/* The temporary folders of conversions whose program died: they are
 * named after its pid (`.convert-PID-XXXXXX`). */
static void
remove_abandoned (const char *dir_path)
{
  g_autoptr (GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      char *end = NULL;
      gint64 pid;

      if (!g_str_has_prefix (name, ".convert-"))
        continue;
      pid = g_ascii_strtoll (name + strlen (".convert-"), &end, 10);
      if (end == NULL || *end != '-' || pid <= 1 || pid == getpid () ||
          kill ((pid_t) pid, 0) == 0 || errno != ESRCH)
        continue;
      path = g_build_filename (dir_path, name, NULL);
      remove_tree (path);
    }
}

/* Conversions of the same report made before it changed. */
static void
remove_older (const char *final, const char *prefix, const char *extension)
{
  g_autofree char *dir_path = g_path_get_dirname (final);
  g_autofree char *keep = g_path_get_basename (final);
  g_autoptr (GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_prefix (name, prefix) && g_str_has_suffix (name, extension) &&
        !g_str_equal (name, keep))
      {
        g_autofree char *path = g_build_filename (dir_path, name, NULL);

        g_unlink (path);
      }
}

/* nsys draws "Processing 3051 events: [==…42%   ]" after a bare CR. */
static gboolean
parse_progress (const char *line, double *fraction)
{
  const char *percent = strrchr (line, '%');
  const char *digits;

  if (percent == NULL || strchr (line, '[') == NULL || strchr (line, '[') > percent)
    return FALSE;
  digits = percent;
  while (digits > line && g_ascii_isdigit (digits[-1]))
    digits--;
  if (digits == percent)
    return FALSE;
  *fraction = CLAMP (g_ascii_strtod (digits, NULL) / 100.0, 0.0, 1.0);
  return TRUE;
}

typedef struct
{
  const char *phrase;
  WsProgressFunc progress;
  gpointer progress_data;
  GPtrArray *problems; /* lines that read like the cause of a failure */
  char *last_line;
  gboolean done;
  gboolean ran;
  int exit_status;
  GError *error;
} Conversion;

static void
line_cb (WsToolProcess *process, gboolean is_stderr, const char *line, gpointer data)
{
  Conversion *conversion = data;
  double fraction;

  if (parse_progress (line, &fraction))
    {
      if (conversion->progress != NULL)
        conversion->progress (fraction, conversion->phrase, conversion->progress_data);
      return;
    }
  if (line[strspn (line, " \t")] == '\0')
    return;
  if (ws_tool_process_line_is_problem (line) && conversion->problems->len < MAX_PROBLEM_LINES)
    g_ptr_array_add (conversion->problems, g_strdup (line));
  g_free (conversion->last_line);
  conversion->last_line = g_strdup (line);
}

static void
done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  Conversion *conversion = data;

  conversion->ran = ws_tool_process_run_finish (WS_TOOL_PROCESS (source), result,
                                                &conversion->exit_status, &conversion->error);
  conversion->done = TRUE;
}

static gboolean
terminate_cb (gpointer data)
{
  ws_tool_process_terminate (data);
  return G_SOURCE_REMOVE;
}

typedef struct
{
  GMainContext *context; /* the converting thread's */
  WsToolProcess *process;
} Canceller;

/* On the thread that cancels: the process belongs to the converting
 * thread's loop.  (A GCancellableSource would do, but GLib 2.74 can leak
 * one destroyed while another thread cancels.) */
static void
cancelled_cb (GCancellable *cancellable, gpointer data)
{
  Canceller *canceller = data;

  g_main_context_invoke_full (canceller->context, G_PRIORITY_DEFAULT, terminate_cb,
                              g_object_ref (canceller->process), g_object_unref);
}

/* Runs the tool to its end, or until @cancellable fires: then its whole
 * process group is terminated and waited for. */
static void
run_tool (Conversion *conversion, char **argv, const char *cwd, const char *stdout_path,
          GCancellable *cancellable)
{
  g_autoptr (GMainContext) context = g_main_context_new ();
  g_autoptr (WsToolProcess) process = NULL;
  g_auto (GStrv) env = g_get_environ ();
  Canceller canceller;
  gulong cancelled = 0;

  g_main_context_push_thread_default (context);
  process = ws_tool_process_new (argv, cwd, env, stdout_path, GRACE_MS);
  ws_tool_process_set_tied (process, TRUE);
  g_signal_connect (process, "line", G_CALLBACK (line_cb), conversion);
  ws_tool_process_run_async (process, done_cb, conversion);
  canceller.context = context;
  canceller.process = process;
  if (cancellable != NULL)
    cancelled = g_cancellable_connect (cancellable, G_CALLBACK (cancelled_cb), &canceller, NULL);
  while (!conversion->done)
    g_main_context_iteration (context, TRUE);
  g_cancellable_disconnect (cancellable, cancelled);
  g_signal_handlers_disconnect_by_data (process, conversion);
  g_main_context_pop_thread_default (context);
}

/* ncu's ==ERROR== lines, which it prints on standard output. */
static char *
errors_in_output (const char *path)
{
  g_autoptr (GString) found = g_string_new (NULL);
  g_autofree char *head = g_malloc (ERROR_SCAN_BYTES + 1);
  g_auto (GStrv) lines = NULL;
  gssize got;
  int fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);

  if (fd < 0)
    return NULL;
  got = read (fd, head, ERROR_SCAN_BYTES);
  close (fd);
  if (got <= 0)
    return NULL;
  head[got] = '\0';
  lines = g_strsplit_set (head, "\r\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "==ERROR=="))
      {
        g_autofree char *valid = g_utf8_make_valid (g_strstrip (lines[i] + 9), -1);

        g_string_append_printf (found, "%s%s", found->len > 0 ? " " : "", valid);
      }
  return found->len > 0 ? g_string_free (g_steal_pointer (&found), FALSE) : NULL;
}

/* Why the tool failed, in its own words where it gave some. */
static char *
failure_detail (Conversion *conversion, const char *stdout_path)
{
  g_autofree char *errors = stdout_path != NULL ? errors_in_output (stdout_path) : NULL;

  if (errors != NULL)
    return g_steal_pointer (&errors);
  if (conversion->problems->len > 0)
    {
      g_ptr_array_add (conversion->problems, NULL);
      return g_strjoinv (" ", (char **) conversion->problems->pdata);
    }
  if (conversion->exit_status < 0)
    return g_strdup (_ ("it was ended by a signal"));
  if (conversion->last_line != NULL)
    return g_strdup (conversion->last_line);
  return g_strdup_printf (_ ("exit status %d"), conversion->exit_status);
}

static gboolean
sync_file (const char *path)
{
  int fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);
  gboolean ok;

  if (fd < 0)
    return FALSE;
  ok = fsync (fd) == 0;
  close (fd);
  return ok;
}

static gboolean
convert_into (const char *report, const Tool *tool, const char *tool_path, const char *final,
              const char *tmp_dir, GCancellable *cancellable, WsProgressFunc progress,
              gpointer progress_data, GError **error)
{
  g_autofree char *absolute = absolute_path (report);
  g_autofree char *name = g_path_get_basename (final);
  g_autofree char *output = g_build_filename (tmp_dir, name, NULL);
  g_autofree char *base = g_path_get_basename (report);
  g_autofree char *phrase = g_strdup_printf (_ ("Converting %s with %s…"), base, tool->command);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) local = NULL;
  Conversion conversion = { 0 };
  const char *stdout_path = NULL;
  GStatBuf st;

  g_ptr_array_add (argv, (gpointer) tool_path);
  if (tool == &nsys_tool)
    {
      const char *const args[] = { "export", "--type", "sqlite", "--output", output, absolute };

      for (gsize i = 0; i < G_N_ELEMENTS (args); i++)
        g_ptr_array_add (argv, (gpointer) args[i]);
    }
  else
    {
      const char *const args[] = { "--import", absolute,        "--csv", "--page",
                                   "raw",      "--print-units", "base" };

      for (gsize i = 0; i < G_N_ELEMENTS (args); i++)
        g_ptr_array_add (argv, (gpointer) args[i]);
      stdout_path = output;
    }
  g_ptr_array_add (argv, NULL);

  conversion.phrase = phrase;
  conversion.progress = progress;
  conversion.progress_data = progress_data;
  conversion.problems = g_ptr_array_new_with_free_func (g_free);
  conversion.exit_status = -1;
  if (progress != NULL)
    progress (0.0, phrase, progress_data);
  run_tool (&conversion, (char **) argv->pdata, tmp_dir, stdout_path, cancellable);

  if (g_cancellable_is_cancelled (cancellable))
    g_cancellable_set_error_if_cancelled (cancellable, &local);
  else if (!conversion.ran)
    g_set_error (&local, WS_TOOLS_ERROR, WS_TOOLS_ERROR_NO_TOOL, "%s: %s", report,
                 conversion.error->message);
  else if (conversion.exit_status != 0)
    {
      g_autofree char *detail = failure_detail (&conversion, stdout_path);

      /* TRANSLATORS: FILE: nsys export failed: what nsys said */
      g_set_error (&local, WS_TOOLS_ERROR, WS_TOOLS_ERROR_CONVERT, _ ("%s: %s failed: %s"), report,
                   tool->command, detail);
    }
  else if (g_stat (output, &st) != 0 || st.st_size == 0)
    g_set_error (&local, WS_TOOLS_ERROR, WS_TOOLS_ERROR_CONVERT,
                 /* TRANSLATORS: FILE: nsys export ended with exit status 0 and wrote nothing */
                 _ ("%s: %s ended with exit status 0 and wrote nothing"), report, tool->command);
  else if (!sync_file (output) || g_rename (output, final) != 0)
    {
      int saved = errno;

      g_set_error (&local, WS_TOOLS_ERROR, WS_TOOLS_ERROR_FAILED, "%s: %s: %s", report, final,
                   g_strerror (saved));
    }
  else if (progress != NULL)
    progress (1.0, phrase, progress_data);

  g_clear_pointer (&conversion.problems, g_ptr_array_unref);
  g_clear_pointer (&conversion.last_line, g_free);
  g_clear_error (&conversion.error);
  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  return TRUE;
}

/**
 * ws_report_convert:
 * @kind: the tool that wrote @report
 * @progress: (nullable): called on the calling thread with the tool's
 *   progress and a phrase that says what runs
 *
 * Converts an Nsight Systems report to its SQLite export, or an Nsight
 * Compute report to its raw CSV page in base units, in the cache folder;
 * a conversion of the report as it is now that is there already is used
 * as it is.  Blocks the calling thread until the tool ends; cancelling
 * terminates the tool's whole process group and leaves nothing behind.
 *
 * Returns: (transfer full): the converted file, or %NULL with @error set:
 *   %WS_TOOLS_ERROR_NO_TOOL when the tool is not installed,
 *   %WS_TOOLS_ERROR_CONVERT with the tool's own message when it failed,
 *   %G_IO_ERROR_CANCELLED when cancelled
 */
char *
ws_report_convert (const char *report, WsReportTool kind, GCancellable *cancellable,
                   WsProgressFunc progress, gpointer progress_data, GError **error)
{
  return ws_report_convert_with (report, kind, NULL, cancellable, progress, progress_data, error);
}

/**
 * ws_report_convert_with:
 * @fallback: (nullable): the tool to run when neither the settings nor
 *   PATH give one: the nsys or ncu a capture folder's run.json names
 *
 * ws_report_convert(), with a last tool to try.
 */
char *
ws_report_convert_with (const char *report, WsReportTool kind, const char *fallback,
                        GCancellable *cancellable, WsProgressFunc progress, gpointer progress_data,
                        GError **error)
{
  const Tool *tool = tool_for (kind);
  g_autofree char *final = NULL;
  g_autofree char *absolute = NULL;
  g_autofree char *prefix = NULL;
  g_autofree char *tool_path = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *tmp_dir = NULL;
  gboolean converted;
  GStatBuf st;

  g_return_val_if_fail (report != NULL, NULL);
  g_return_val_if_fail (tool != NULL, NULL);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  if (!ws_file_stat (report, &st, error))
    return NULL;
  if (S_ISDIR (st.st_mode))
    {
      g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_FORMAT, "%s: %s", report,
                   g_strerror (EISDIR));
      return NULL;
    }
  if (st.st_size == 0)
    {
      g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_EMPTY, "%s: the file is empty (0 bytes)",
                   report);
      return NULL;
    }
  final = cache_path_for (report, tool, &st);
  if (g_file_test (final, G_FILE_TEST_IS_REGULAR))
    return g_steal_pointer (&final);

  tool_path = find_tool (report, tool, fallback, error);
  if (tool_path == NULL)
    return NULL;
  dir = ws_report_convert_cache_dir ();
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;

      g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_FAILED, "%s: %s: %s", report, dir,
                   g_strerror (saved));
      return NULL;
    }
  remove_abandoned (dir);
  {
    g_autofree char *name = g_strdup_printf (".convert-%d-XXXXXX", (int) getpid ());

    tmp_dir = g_build_filename (dir, name, NULL);
  }
  if (g_mkdtemp_full (tmp_dir, 0700) == NULL)
    {
      int saved = errno;

      g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_FAILED, "%s: %s: %s", report, dir,
                   g_strerror (saved));
      return NULL;
    }

  converted = convert_into (report, tool, tool_path, final, tmp_dir, cancellable, progress,
                            progress_data, error);
  remove_tree (tmp_dir);
  if (!converted)
    return NULL;
  absolute = absolute_path (report);
  prefix = name_prefix (report, absolute);
  remove_older (final, prefix, tool->extension);
  return g_steal_pointer (&final);
}
