/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-cli"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ws-cli.h"
#include "ws-flame-chart.h"
#include "ws-flame.h"
#include "ws-reader-error.h"
#include "ws-surface.h"

/* `warpscope-cli flame`: a run's CPU profile (nsys CPU samples, py-spy,
 * speedscope, collapsed stacks, cProfile) as collapsed stacks or a drawn
 * flame graph; cProfile's flat profile as bars of its functions. */

typedef struct
{
  WsFlameGraph *graph;
  WsFlameState view;
  WsPalette palette;
  char *title;
} FlameDraw;

static void
draw_flame (cairo_t *cr, double width, double height, gpointer data)
{
  FlameDraw *d = data;

  if (ws_cpu_profile_has_stacks (d->graph->profile))
    ws_flame_chart_draw (cr, width, height, d->graph, &d->view, &d->palette);
  else
    ws_flame_functions_draw (cr, width, height, d->graph, 40, d->title, &d->palette);
}

/* The thread @spec names: its index, or a part of its name only one
 * thread has; "all" (or NULL) merges them. */
static gboolean
find_thread (const WsCpuProfile *profile, const char *spec, gint *thread, GError **error)
{
  char *end = NULL;
  gint64 index;
  gint found = -1;

  *thread = -1;
  if (spec == NULL || g_str_equal (spec, "all"))
    return TRUE;
  index = g_ascii_strtoll (spec, &end, 10);
  if (end != NULL && *end == '\0' && end != spec)
    {
      if (index < 0 || index >= profile->threads->len)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _ ("--thread %s: the profile has threads 0 to %u"), spec,
                       profile->threads->len - 1);
          return FALSE;
        }
      *thread = (gint) index;
      return TRUE;
    }
  for (guint i = 0; i < profile->threads->len; i++)
    if (strstr (ws_cpu_profile_thread_name (profile, i), spec) != NULL)
      {
        if (found >= 0)
          {
            g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                         _ ("--thread %s: several threads have that in their name"), spec);
            return FALSE;
          }
        found = (gint) i;
      }
  if (found < 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _ ("--thread %s: no thread of the profile has that name"), spec);
      return FALSE;
    }
  *thread = found;
  return TRUE;
}

static gboolean
parse_range (const char *str, gint64 *from, gint64 *to)
{
  g_auto (GStrv) parts = NULL;
  char *end = NULL;

  *from = *to = 0;
  if (str == NULL)
    return TRUE;
  parts = g_strsplit (str, ":", 2);
  if (g_strv_length (parts) != 2)
    return FALSE;
  *from = g_ascii_strtoll (parts[0], &end, 10);
  if (end == parts[0] || *end != '\0')
    return FALSE;
  *to = g_ascii_strtoll (parts[1], &end, 10);
  return end != parts[1] && *end == '\0' && *to > *from;
}

/**
 * ws_cli_flame_render:
 * @profile_index: which of the run's CPU profiles
 *
 * Draws the run's flame graph (or a flat profile's functions) to @output,
 * as `render --view flame` and `flame -o` do.
 */
gboolean
ws_cli_flame_render (WsRun *run, guint profile_index, gint thread, gint64 from, gint64 to,
                     const char *output, double width, double height, gboolean dark, int layout,
                     const char *search, GError **error)
{
  WsCpuProfile *profile;
  FlameDraw d = { 0 };
  g_autofree gboolean *matches = NULL;
  gboolean ok;

  if (run->cpu_profiles->len == 0)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_NO_DATA,
                   _ ("%s: no CPU samples or CPU profile (nsys CPU sampling, py-spy, speedscope, "
                      "collapsed stacks or cProfile)"),
                   ws_run_display_name (run));
      return FALSE;
    }
  profile = g_ptr_array_index (run->cpu_profiles, MIN (profile_index, run->cpu_profiles->len - 1));
  d.graph = ws_flame_graph_new (profile, thread, from, to);
  ws_flame_state_init (&d.view);
  d.view.layout = (WsFlameLayout) layout;
  if (dark)
    ws_palette_init_dark (&d.palette);
  else
    ws_palette_init_light (&d.palette);
  if (!ws_cpu_profile_has_stacks (profile))
    d.title = g_strdup_printf (_ ("%s — functions by self time"), ws_run_display_name (run));
  else
    d.title =
      g_strdup_printf ("%s%s%s", ws_run_display_name (run), thread >= 0 ? " — " : "",
                       thread >= 0 ? ws_cpu_profile_thread_name (profile, (guint) thread) : "");
  d.view.title = d.title;
  if (search != NULL && search[0] != '\0')
    {
      matches = g_new0 (gboolean, d.graph->nodes->len);
      d.view.match_share = ws_flame_graph_match_share (d.graph, search, matches);
      d.view.matches = matches;
    }
  if (height <= 0)
    height =
      ceil (ws_cpu_profile_has_stacks (profile) ? ws_flame_chart_natural_height (d.graph)
                                                : ws_flame_functions_natural_height (d.graph, 40));
  ok = ws_render_to_file (output, width, height, draw_flame, &d, error);
  ws_flame_graph_unref (d.graph);
  g_free (d.title);
  return ok;
}

/* The samples of @profile as collapsed stacks (`frame;frame COUNT` lines)
 * to @output, or standard output.  Returns the exit status. */
static int
write_collapsed (WsCpuProfile *profile, gint thread, gint64 from, gint64 to, const char *output,
                 const char *search)
{
  g_autoptr (WsFlameGraph) graph = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (GError) error = NULL;

  if (!ws_cpu_profile_has_stacks (profile))
    {
      g_printerr (_ ("warpscope-cli: %s: a flat profile (cProfile) has no call stacks to "
                     "collapse; draw its functions with --format png, svg or pdf\n"),
                  profile->path);
      return WS_EXIT_BAD_INPUT;
    }
  graph = ws_flame_graph_new (profile, thread, from, to);
  ws_flame_graph_write_collapsed (graph, out);
  if (!ws_cli_write (output, out->str, out->len, &error))
    {
      g_printerr ("warpscope-cli: %s\n", error->message);
      return WS_EXIT_FAILED;
    }
  if (search != NULL && search[0] != '\0')
    g_printerr (_ ("Matched: %.1f%% of the samples\n"),
                100.0 * ws_flame_graph_match_share (graph, search, NULL));
  return WS_EXIT_OK;
}

int
ws_cli_flame (int argc, char **argv)
{
  g_autofree char *thread_str = NULL;
  g_autofree char *format_str = NULL;
  g_autofree char *output = NULL;
  g_autofree char *range = NULL;
  g_autofree char *layout_str = NULL;
  g_autofree char *search = NULL;
  g_autofree char *theme = NULL;
  int width = 1400;
  int profile_index = 0;
  GOptionEntry entries[] = {
    { "thread", 't', 0, G_OPTION_ARG_STRING, &thread_str,
      N_ ("The thread: its number, or a part of its name (default: all threads merged)"),
      "THREAD" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_str,
      N_ ("collapsed (default: `frame;frame COUNT` lines), svg, png or pdf"), "FORMAT" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_ ("File to write (default: standard output, collapsed stacks only)"), "OUT" },
    { "range", 'r', 0, G_OPTION_ARG_STRING, &range,
      N_ ("Only the samples in this time range, in ns of the export's clock (nsys CPU samples)"),
      "START_NS:END_NS" },
    { "profile", 'p', 0, G_OPTION_ARG_INT, &profile_index,
      N_ ("Which CPU profile of the run, when it has several (default 0)"), "N" },
    { "layout", 0, 0, G_OPTION_ARG_STRING, &layout_str,
      N_ ("icicle (default: callers on top) or flame (callers at the bottom)"), "LAYOUT" },
    { "search", 's', 0, G_OPTION_ARG_STRING, &search,
      N_ ("Highlight the frames whose name holds TEXT and print their share of the samples"),
      "TEXT" },
    { "width", 'w', 0, G_OPTION_ARG_INT, &width, N_ ("Image width in pixels (default 1400)"),
      "PX" },
    { "theme", 0, 0, G_OPTION_ARG_STRING, &theme, N_ ("Colours: light (default) or dark"),
      "THEME" },
    { NULL },
  };
  g_autoptr (GOptionContext) context =
    g_option_context_new (_ ("FILE… — a CPU profile as a flame graph or collapsed stacks"));
  g_auto (WsCliFrame) frame = { 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = NULL;
  WsCpuProfile *profile;
  WsFlameLayout layout = WS_FLAME_LAYOUT_ICICLE;
  const char *format;
  gint thread = -1;
  gint64 from, to;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  ws_cli_frame_init (&frame, context, argv[0], 0, NULL);
  if (!ws_cli_frame_parse (&frame, context, &argc, &argv, 1, -1, &output, NULL))
    return WS_EXIT_BAD_INPUT;
  format = format_str;
  /* -o OUT.svg (.SVG, .png, .pdf) draws; another name takes the stacks. */
  if (format == NULL && (output == NULL || !ws_surface_kind_for_path (output, &format)))
    format = "collapsed";
  if (!g_str_equal (format, "collapsed") && !g_str_equal (format, "svg") &&
      !g_str_equal (format, "png") && !g_str_equal (format, "pdf"))
    {
      ws_cli_error (argv[0], _ ("--format must be collapsed, svg, png or pdf"));
      return WS_EXIT_BAD_INPUT;
    }
  if (!g_str_equal (format, "collapsed") && output == NULL)
    {
      ws_cli_error (argv[0], _ ("--format %s needs -o FILE"), format);
      return WS_EXIT_BAD_INPUT;
    }
  if (layout_str != NULL && !g_str_equal (layout_str, "icicle") &&
      !g_str_equal (layout_str, "flame"))
    {
      ws_cli_error (argv[0], _ ("--layout must be icicle or flame"));
      return WS_EXIT_BAD_INPUT;
    }
  if (layout_str != NULL && g_str_equal (layout_str, "flame"))
    layout = WS_FLAME_LAYOUT_FLAME;
  if (!parse_range (range, &from, &to))
    {
      ws_cli_error (argv[0], _ ("--range must be START_NS:END_NS, END after START"));
      return WS_EXIT_BAD_INPUT;
    }
  if (width < 100 || width > 32768 || profile_index < 0)
    {
      ws_cli_error (argv[0], _ ("--width takes 100 to 32768 pixels, --profile a number from 0"));
      return WS_EXIT_BAD_INPUT;
    }

  run = ws_cli_load (argv + 1, WS_LOAD_ALL, &error);
  if (run == NULL)
    return ws_cli_fail (error);
  if (run->cpu_profiles->len == 0)
    {
      g_printerr (_ ("warpscope-cli: %s: no CPU samples or CPU profile (nsys CPU sampling, "
                     "py-spy, speedscope, collapsed stacks or cProfile)\n"),
                  argv[1]);
      return WS_EXIT_BAD_INPUT;
    }
  if ((guint) profile_index >= run->cpu_profiles->len)
    {
      ws_cli_error (argv[0], _ ("--profile %d: the run has profiles 0 to %u"), profile_index,
                    run->cpu_profiles->len - 1);
      return WS_EXIT_BAD_INPUT;
    }
  profile = g_ptr_array_index (run->cpu_profiles, profile_index);
  if (!find_thread (profile, thread_str, &thread, &error))
    {
      ws_cli_error (argv[0], "%s", error->message);
      return WS_EXIT_BAD_INPUT;
    }

  if (!g_str_equal (format, "collapsed"))
    {
      if (!ws_cli_flame_render (run, (guint) profile_index, thread, from, to, output, width, 0,
                                g_strcmp0 (theme, "dark") == 0, layout, search, &error))
        {
          g_printerr ("warpscope-cli: %s\n", error->message);
          return WS_EXIT_FAILED;
        }
      return WS_EXIT_OK;
    }

  return write_collapsed (profile, thread, from, to, output, search);
}
