/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-cli"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-capture-settings.h"
#include "ws-cli.h"
#include "ws-doctor.h"
#include "ws-ssh-host.h"

/* One line per check, then its fix indented; the same text the window's
 * Doctor shows. */
void
ws_cli_print_doctor (GPtrArray *checks, gboolean problems_only, FILE *out)
{
  const char *heading = NULL;

  for (guint i = 0; i < checks->len; i++)
    {
      const WsDoctorCheck *check = g_ptr_array_index (checks, i);
      g_auto (GStrv) fix = NULL;
      const char *mark;

      if (problems_only && check->level == WS_DOCTOR_OK)
        continue;
      /* The checks of a host come under its name. */
      if (check->host != NULL && g_strcmp0 (check->host, heading) != 0)
        {
          g_autofree char *on = g_strdup_printf (_ ("On %s:"), check->host);

          fprintf (out, "%s\n", on);
        }
      heading = check->host;
      switch (check->level)
        {
          case WS_DOCTOR_OK:
            mark = _ ("ok");
            break;
          case WS_DOCTOR_WARNING:
            mark = _ ("warning");
            break;
          case WS_DOCTOR_ERROR:
          default:
            mark = _ ("error");
            break;
        }
      fprintf (out, "[%s] %s\n", mark, check->summary);
      if (check->fix == NULL)
        continue;
      fix = g_strsplit (check->fix, "\n", -1);
      if (check->host != NULL)
        {
          g_autofree char *there = g_strdup_printf (_ ("fix, on %s:"), check->host);

          fprintf (out, "    %s\n", there);
        }
      else
        fprintf (out, "    %s\n", _ ("fix:"));
      for (guint l = 0; fix[l] != NULL; l++)
        fprintf (out, "      %s\n", fix[l]);
    }
  fflush (out);
}

int
ws_cli_doctor (int argc, char **argv)
{
  g_autofree char *out = NULL;
  g_autofree char *nsys = NULL;
  g_autofree char *ncu = NULL;
  g_autofree char *ncu_set = NULL;
  g_autofree char *proc_root = NULL;
  g_autofree char *host = NULL;
  g_autofree char *remote_dir = NULL;
  GOptionEntry entries[] = {
    { "out", 'o', 0, G_OPTION_ARG_FILENAME, &out,
      N_ ("Output folder whose free space to check (default OUT_DIR or ./out)"), "DIR" },
    { "nsys", 0, 0, G_OPTION_ARG_FILENAME, &nsys, N_ ("The nsys to check"), "PATH" },
    { "ncu", 0, 0, G_OPTION_ARG_FILENAME, &ncu, N_ ("The ncu to check"), "PATH" },
    { "ncu-set", 0, 0, G_OPTION_ARG_STRING, &ncu_set, N_ ("The ncu set to look for"), "SET" },
    { "host", 'H', 0, G_OPTION_ARG_STRING, &host,
      N_ ("Check this machine, over ssh: an ssh Host alias or user@host[:port]"), "NAME" },
    { "remote-dir", 0, 0, G_OPTION_ARG_STRING, &remote_dir,
      N_ ("The folder for captures on the host whose free space to check (default: "
          "~/warpscope-captures)"),
      "DIR" },
    /* For tests: a folder standing in for /proc. */
    { "proc-root", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, &proc_root, NULL, NULL },
    { NULL },
  };
  g_autoptr (GOptionContext) context =
    g_option_context_new (_ ("— check this machine before a capture"));
  g_autoptr (WsCaptureSettings) settings = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) checks = NULL;
  g_autoptr (GFile) out_file = NULL;
  g_autofree char *out_path = NULL;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_summary (
    context, _ ("Checks nsys and ncu and their versions, the ncu set, kernel.perf_event_paranoid, "
                "the permission to read GPU counters, the GPUs and the free disk space, and says "
                "how to fix each problem. With --host, the checks run on that machine over ssh "
                "(first that it can be reached: its host key, the login), and the fixes are "
                "to be run there. Exit status 1 when a capture would fail."));
  if (!ws_cli_parse (context, &argc, &argv, 0, 0))
    return WS_EXIT_BAD_INPUT;
  settings = ws_cli_capture_settings (out, nsys, ncu, ncu_set, &error);
  if (settings == NULL)
    return ws_cli_fail (error);

  if (host != NULL)
    {
      g_autoptr (WsSshHost) where = NULL;

      ws_cli_replace_string (&settings->host, host);
      if (remote_dir != NULL)
        ws_cli_replace_string (&settings->remote_dir, remote_dir);
      if (!ws_capture_settings_validate (settings, &error))
        return ws_cli_fail (error);
      where = ws_ssh_host_lookup (settings->hosts, host, &error);
      if (where == NULL)
        return ws_cli_fail (error);
      checks = ws_doctor_run_on_host (settings, where, NULL);
      ws_cli_print_doctor (checks, FALSE, stdout);
      return ws_doctor_worst (checks) == WS_DOCTOR_ERROR ? WS_EXIT_FAILED : WS_EXIT_OK;
    }
  out_file = g_file_new_for_commandline_arg (settings->output_dir);
  out_path = g_file_get_path (out_file);
  checks = ws_doctor_run (settings, out_path, proc_root);
  ws_cli_print_doctor (checks, FALSE, stdout);
  return ws_doctor_worst (checks) == WS_DOCTOR_ERROR ? WS_EXIT_FAILED : WS_EXIT_OK;
}
