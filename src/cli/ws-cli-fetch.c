/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-cli"
#include "config.h"

#include <glib-unix.h>
#include <glib/gi18n.h>
#include <signal.h>
#include <unistd.h>

#include "ws-capture-error.h"
#include "ws-capture-fetch.h"
#include "ws-cli.h"
#include "ws-error.h"
#include "ws-tools-error.h"

/* `warpscope-cli fetch DIR…`: what a capture on a host left there — its
 * reports (--leave-reports), or the rest of a copy a lost connection
 * cut — brought into its folder here, resumed and checked. */

typedef struct
{
  char **dirs;
  WsCaptureSettings *settings;
  GCancellable *cancellable;
  GMainContext *context;
  gboolean show_progress;
  gboolean shown;
  int status;
  gboolean done;
} Fetch;

typedef struct
{
  Fetch *fetch;
  guint64 done;
  guint64 total;
} Progress;

static gboolean
show_progress_idle (gpointer data)
{
  Progress *progress = data;
  g_autofree char *done = g_format_size (progress->done);
  g_autofree char *total = g_format_size (progress->total);

  ws_cli_clear_line ();
  g_printerr (_ ("copying: %s of %s (%.0f%%)"), done, total,
              progress->total > 0 ? 100.0 * progress->done / progress->total : 100.0);
  progress->fetch->shown = TRUE;
  return G_SOURCE_REMOVE;
}

static void
progress_cb (guint64 done, guint64 total, guint file, gpointer data)
{
  Fetch *fetch = data;
  Progress *progress;

  if (!fetch->show_progress)
    return;
  progress = g_new0 (Progress, 1);
  progress->fetch = fetch;
  progress->done = done;
  progress->total = total;
  g_main_context_invoke_full (fetch->context, G_PRIORITY_DEFAULT, show_progress_idle, progress,
                              g_free);
}

/* The copies block: a worker thread makes them while the main thread
 * waits for Ctrl+C. */
static gpointer
fetch_thread (gpointer data)
{
  Fetch *fetch = data;

  for (guint i = 0; fetch->dirs[i] != NULL; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *summary = NULL;

      if (ws_capture_fetch_folder (fetch->dirs[i], fetch->settings, fetch->cancellable, progress_cb,
                                   fetch, &summary, &error))
        g_print ("%s\n", summary);
      else
        {
          g_printerr ("\n%s: %s\n", g_get_prgname (), error->message);
          fetch->status = g_error_matches (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID) ||
                              g_error_matches (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_INVALID) ||
                              g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT) ||
                              error->domain == WS_BASE_ERROR || error->domain == JSON_PARSER_ERROR
                            ? WS_EXIT_BAD_INPUT
                            : WS_EXIT_FAILED;
          break;
        }
    }
  g_atomic_int_set (&fetch->done, TRUE);
  g_main_context_wakeup (fetch->context);
  return NULL;
}

static gboolean
interrupt_cb (gpointer data)
{
  Fetch *fetch = data;

  g_cancellable_cancel (fetch->cancellable);
  return G_SOURCE_CONTINUE;
}

int
ws_cli_fetch (int argc, char **argv)
{
  int bwlimit = -1;
  GOptionEntry entries[] = {
    { "bwlimit", 0, 0, G_OPTION_ARG_INT, &bwlimit,
      N_ ("Bandwidth for the copies, in KiB/s (default: no limit)"), "KIB" },
    { NULL },
  };
  g_autoptr (GOptionContext) context =
    g_option_context_new (_ ("CAPTURE_DIR… — copy what a capture on a host left there"));
  g_autoptr (GError) error = NULL;
  g_autoptr (GThread) thread = NULL;
  Fetch fetch = { 0 };
  guint sigint, sigterm;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_summary (
    context,
    _ ("For a target's folder made by “capture” on another machine: copies from the host the "
       "files the capture made there that are not here yet — the reports left there with "
       "--leave-reports, or the rest of a copy a lost connection cut — resuming .part files and "
       "checking each file's size and SHA-256, and brings run.json up to date. The host and the "
       "folder there come from run.json; WARPSCOPE_SSH replaces the ssh command. Exit status: 0 "
       "everything is here, 1 a copy failed, 2 not such a folder."));
  if (!ws_cli_parse (context, &argc, &argv, 1, -1))
    return WS_EXIT_BAD_INPUT;
  fetch.settings = ws_cli_capture_settings (NULL, NULL, NULL, NULL, &error);
  if (fetch.settings == NULL)
    return ws_cli_fail (error);
  if (bwlimit > 0)
    fetch.settings->transfer_limit = (guint) bwlimit;
  fetch.dirs = argv + 1;
  fetch.cancellable = g_cancellable_new ();
  fetch.context = g_main_context_default ();
  fetch.show_progress = isatty (STDERR_FILENO);
  fetch.status = WS_EXIT_OK;
  sigint = g_unix_signal_add (SIGINT, interrupt_cb, &fetch);
  sigterm = g_unix_signal_add (SIGTERM, interrupt_cb, &fetch);
  thread = g_thread_new ("fetch", fetch_thread, &fetch);
  while (!g_atomic_int_get (&fetch.done))
    g_main_context_iteration (fetch.context, TRUE);
  g_thread_join (g_steal_pointer (&thread));
  while (g_main_context_iteration (fetch.context, FALSE))
    ;
  g_source_remove (sigint);
  g_source_remove (sigterm);
  if (fetch.shown)
    g_printerr ("\n");
  ws_capture_settings_free (fetch.settings);
  g_object_unref (fetch.cancellable);
  return fetch.status;
}
