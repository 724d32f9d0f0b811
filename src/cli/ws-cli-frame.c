/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-cli"
#include "config.h"

#include <glib/gi18n.h>
#include <stdarg.h>
#include <string.h>

#include "ws-cli.h"

/* The frame every command shares, as GLib's `gio` tool does for its own:
 * the options each command has (--format), their parsing, and the one
 * style of an error line: `warpscope-cli: SUBJECT: PROBLEM`, where the
 * subject is the file, or the command for a bad option. */

static const char *const format_names[] = {
  [WS_FORMAT_TABLE] = "table",
  [WS_FORMAT_CSV] = "csv",
  [WS_FORMAT_MARKDOWN] = "md",
  [WS_FORMAT_JSON] = "json",
};

/* The command of @prgname: "stats" of "warpscope-cli stats". */
static const char *
command_name (const char *prgname)
{
  const char *space = strrchr (prgname, ' ');

  return space != NULL ? space + 1 : prgname;
}

/**
 * ws_cli_error:
 * @subject: the file, or the command (its argv[0] will do) for an option
 * @format: the problem, printf-style
 *
 * Prints one error line: `warpscope-cli: SUBJECT: PROBLEM`.  Line breaks
 * in the problem become spaces.
 */
void
ws_cli_error (const char *subject, const char *format, ...)
{
  g_autofree char *problem = NULL;
  va_list args;

  va_start (args, format);
  problem = g_strdup_vprintf (format, args);
  va_end (args);
  g_strdelimit (problem, "\n\r", ' ');
  g_printerr ("warpscope-cli: %s: %s\n", command_name (subject), g_strchomp (problem));
}

/**
 * ws_cli_frame_init:
 * @command: the command's argv[0] or name, for messages
 * @formats: what --format takes: `WS_CLI_TABLE | …`;
 *   0 for a command without --format
 * @format_help: (nullable): the help line of --format
 *
 * Adds the options every command has to @context: --format (when
 * @formats is not 0) and --rank.
 */
void
ws_cli_frame_init (WsCliFrame *frame, GOptionContext *context, const char *command, guint formats,
                   const char *format_help)
{
  const GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &frame->format_str, format_help, "FORMAT" },
    { NULL },
  };

  frame->command = command_name (command);
  frame->formats = formats;
  frame->format_str = NULL;
  frame->format = WS_FORMAT_TABLE;
  if (formats != 0)
    g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  ws_cli_add_rank_option (context);
}

/* "table, csv or md": the formats @formats holds. */
static char *
format_list (guint formats)
{
  GString *list = g_string_new (NULL);
  guint n = 0, seen = 0;

  for (guint f = 0; f < G_N_ELEMENTS (format_names); f++)
    n += (formats >> f) & 1;
  for (guint f = 0; f < G_N_ELEMENTS (format_names); f++)
    if (formats & WS_CLI_FORMAT (f))
      {
        seen++;
        if (seen > 1)
          g_string_append (list, seen == n ? _ (" or ") : ", ");
        g_string_append (list, format_names[f]);
      }
  return g_string_free (list, FALSE);
}

/**
 * ws_cli_frame_parse:
 * @first_output: (nullable): the variable of an option naming a file the
 *   command writes, then more, then %NULL
 *
 * ws_cli_parse_outputs(), then --format: one of the frame's formats.  On
 * a bad option prints one line.
 *
 * Returns: whether the command runs
 */
gboolean
ws_cli_frame_parse (WsCliFrame *frame, GOptionContext *context, int *argc, char ***argv,
                    int min_args, int max_args, char **first_output, ...)
{
  va_list args;
  gboolean ok;

  va_start (args, first_output);
  ok = ws_cli_parse_outputs_valist (context, argc, argv, min_args, max_args, first_output, args);
  va_end (args);
  if (!ok)
    return FALSE;
  if (frame->format_str != NULL &&
      (!ws_output_format_from_string (frame->format_str, &frame->format) ||
       !(frame->formats & WS_CLI_FORMAT (frame->format))))
    {
      g_autofree char *list = format_list (frame->formats);

      /* TRANSLATORS: the format given, then the formats the command writes */
      ws_cli_error (frame->command, _ ("unknown format “%s” (%s)"), frame->format_str, list);
      return FALSE;
    }
  return TRUE;
}

/* Frees what the options left. */
void
ws_cli_frame_clear (WsCliFrame *frame)
{
  g_clear_pointer (&frame->format_str, g_free);
}
