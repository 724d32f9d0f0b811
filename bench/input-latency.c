/* SPDX-License-Identifier: GPL-3.0-or-later */
/* input-latency EXPORT: how long the main loop is kept by each input on a
 * large run (bench/input.sh runs it at 10^6 kernels, under Xvfb).
 *
 * The window opens EXPORT (not timed), then each input is made as a user
 * makes it: the name form setting changed, the kernel filter typed, the
 * Timeline's search typed and Return pressed, a stretch dragged on the
 * ruler, the comparison of the run with itself matched by each name form
 * and swapped.  The main loop is driven here, one iteration at a time,
 * until what the input started has arrived; the longest iteration is the
 * longest the window did not answer (an input's handler, a worker's
 * result being shown, a frame drawn).  Each is timed in the main thread's
 * CPU time, which is what the window spends, and in wall time, which on a
 * busy machine also counts the waits for a core.  Prints one line per
 * input and the worst, against the goal of 50 ms (of CPU time). */
#include "config.h"

#include <gtk/gtk.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ws-application.h"
#include "ws-compare-window.h"
#include "ws-kernels-page.h"
#include "ws-timeline-page.h"
#include "ws-window.h"

#define GOAL_MS 50.0

static double worst_ms;
static char *worst_what;

typedef gboolean (*DoneFunc) (gpointer data);

/* The main thread's CPU time, in ms. */
static double
cpu_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double) ts.tv_sec * 1000 + (double) ts.tv_nsec / 1e6;
}

typedef struct
{
  double cpu;  /* ms of the main thread's CPU time */
  double wall; /* ms */
} Span;

/* Runs the main loop until @done, timing each iteration; @longest gets the
 * longest (by CPU time, and its wall time).  Waits 100 ms more, so that
 * what was queued is drawn. */
static void
iterate_until (DoneFunc done, gpointer data, Span *longest)
{
  gint64 quiet_since = 0;
  gint64 deadline = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;

  memset (longest, 0, sizeof *longest);
  for (;;)
    {
      double cpu = cpu_ms ();
      gint64 start = g_get_monotonic_time ();
      gboolean dispatched = g_main_context_iteration (NULL, FALSE);
      gint64 now = g_get_monotonic_time ();

      cpu = cpu_ms () - cpu;
      if (dispatched && cpu > longest->cpu)
        *longest = (Span){ cpu, (now - start) / 1000.0 };
      if (done == NULL || done (data))
        {
          if (quiet_since == 0)
            quiet_since = now;
          if (now - quiet_since > 100000)
            break;
        }
      if (!dispatched)
        g_usleep (500);
      if (now > deadline)
        g_error ("no answer after 120 s");
    }
}

static void
report (const char *what, const Span *handler, const Span *loop)
{
  double longest = MAX (handler->cpu, loop->cpu);

  printf ("%-48s  handler %7.2f ms (wall %7.2f)  longest iteration after it %7.2f ms (wall "
          "%7.2f)\n",
          what, handler->cpu, handler->wall, loop->cpu, loop->wall);
  fflush (stdout);
  if (longest > worst_ms)
    {
      worst_ms = longest;
      g_free (worst_what);
      worst_what = g_strdup (what);
    }
}

/* Makes an input with @input (timed: it is the handler that runs inside
 * it), then times the main loop until @done. */
static void
measure (const char *what, void (*input) (gpointer), gpointer input_data, DoneFunc done,
         gpointer done_data)
{
  double cpu = cpu_ms ();
  gint64 start = g_get_monotonic_time ();
  Span handler, loop;

  input (input_data);
  handler = (Span){ cpu_ms () - cpu, (g_get_monotonic_time () - start) / 1000.0 };
  iterate_until (done, done_data, &loop);
  report (what, &handler, &loop);
}

static gboolean
window_loaded (gpointer window)
{
  return !ws_window_is_loading (window);
}

static gboolean
timeline_ready (gpointer page)
{
  return ws_timeline_page_is_ready (page) && ws_timeline_page_has_projection (page);
}

static gboolean
kernels_grouped (gpointer page)
{
  return !ws_kernels_page_is_grouping (page);
}

static gboolean
comparison_ready (gpointer window)
{
  return !ws_compare_window_is_loading (window);
}

typedef struct
{
  GSettings *settings;
  int form;
} NameForm;

static void
set_name_form (gpointer data)
{
  NameForm *n = data;

  g_settings_set_enum (n->settings, "name-form", n->form);
}

typedef struct
{
  GtkEntry *entry;
  const char *text;
} Typing;

static void
type_text (gpointer data)
{
  Typing *t = data;

  gtk_entry_set_text (t->entry, t->text);
}

static void
press_return (gpointer data)
{
  g_signal_emit_by_name (data, "activate");
}

typedef struct
{
  WsTimelineView *view;
  gint64 start;
  gint64 end;
} Stretch;

static void
drag_ruler (gpointer data)
{
  Stretch *s = data;

  ws_timeline_view_set_range (s->view, s->start, s->end);
}

typedef struct
{
  WsCompareWindow *window;
  WsMatchBy by;
} Match;

static void
set_match (gpointer data)
{
  Match *m = data;
  GtkComboBox *combo = GTK_COMBO_BOX (
    gtk_widget_get_template_child (GTK_WIDGET (m->window), WS_TYPE_COMPARE_WINDOW, "match_combo"));

  gtk_combo_box_set_active_id (combo, ws_match_by_to_string (m->by));
}

/* The Swap button's action, compare.swap. */
static void
swap (gpointer data)
{
  GActionGroup *group = gtk_widget_get_action_group (data, "compare");

  g_action_group_activate_action (group, "swap", NULL);
}

static void
show_timeline (gpointer window)
{
  g_action_group_activate_action (G_ACTION_GROUP (window), "show-page",
                                  g_variant_new_string ("timeline"));
}

int
main (int argc, char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GFile) file = NULL;
  WsApplication *app;
  WsWindow *window = NULL;
  WsKernelsPage *kernels;
  WsTimelinePage *timeline;
  WsCompareWindow *compare;
  GSettings *settings;
  const WsRun *run;

  if (argc != 2)
    {
      fprintf (stderr, "usage: %s EXPORT.sqlite (under X)\n", argv[0]);
      return 2;
    }
  gtk_init (&argc, &argv);
  app = ws_application_new (G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);
  g_application_hold (G_APPLICATION (app));
  settings = ws_application_get_settings (app);
  g_assert_nonnull (settings);

  file = g_file_new_for_commandline_arg (argv[1]);
  g_application_open (G_APPLICATION (app), &file, 1, "");
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    if (WS_IS_WINDOW (l->data))
      window = l->data;
  g_assert_nonnull (window);
  gtk_window_resize (GTK_WINDOW (window), 1600, 1000);
  iterate_until (window_loaded, window, &(Span){ 0 });
  g_assert_null (ws_window_get_error (window));
  run = ws_window_get_run (window);
  printf ("%s: %" G_GSIZE_FORMAT " kernels, %" G_GSIZE_FORMAT " CUDA API calls, %" G_GSIZE_FORMAT
          " NVTX ranges\n",
          argv[1], run->kernels.n, run->api.n, run->nvtx.n);

  kernels = WS_KERNELS_PAGE (ws_window_get_kernels_page (window));
  {
    static const char *const forms[] = { "short", "mangled", "demangled" };

    for (guint i = 0; i < G_N_ELEMENTS (forms); i++)
      {
        NameForm n = { settings, (int) i == 2 ? WS_NAME_DEMANGLED
                                 : i == 0     ? WS_NAME_SHORT
                                              : WS_NAME_MANGLED };
        g_autofree char *what = g_strdup_printf ("Kernels: name form %s", forms[i]);

        measure (what, set_name_form, &n, kernels_grouped, kernels);
      }
  }
  {
    GtkEntry *filter = GTK_ENTRY (
      gtk_widget_get_template_child (GTK_WIDGET (kernels), WS_TYPE_KERNELS_PAGE, "filter_entry"));
    static const char *const texts[] = { "t", "ti", "tin", "tiny", "" };

    for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
      {
        Typing t = { filter, texts[i] };
        g_autofree char *what = g_strdup_printf ("Kernels: filter “%s”", texts[i]);

        measure (what, type_text, &t, NULL, NULL);
      }
  }

  timeline = WS_TIMELINE_PAGE (ws_window_get_view (window, "timeline"));
  measure ("Timeline: shown (lanes on a worker)", show_timeline, window, timeline_ready, timeline);
  {
    GtkEntry *search = GTK_ENTRY (
      gtk_widget_get_template_child (GTK_WIDGET (timeline), WS_TYPE_TIMELINE_PAGE, "search_entry"));
    static const char *const texts[] = { "c", "cu", "cud", "cuda", "cudaL", "tiny", "" };

    for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
      {
        Typing t = { search, texts[i] };
        g_autofree char *what = g_strdup_printf ("Timeline: search “%s”", texts[i]);

        measure (what, type_text, &t, NULL, NULL);
        if (i == 3)
          measure ("Timeline: Return (next match)", press_return, search, NULL, NULL);
      }
  }
  {
    WsTimelineView *view = ws_timeline_page_get_view (timeline);
    Stretch whole = { view, run->origin, run->end_time };
    Stretch none = { view, 0, 0 };

    measure ("Timeline: the whole run dragged on the ruler", drag_ruler, &whole, NULL, NULL);
    measure ("Timeline: the stretch cleared", drag_ruler, &none, NULL, NULL);
  }

  compare = ws_application_compare (app, argv[1], argv[1]);
  gtk_window_resize (GTK_WINDOW (compare), 1600, 1000);
  iterate_until (comparison_ready, compare, &(Span){ 0 });
  {
    static const WsMatchBy bys[] = { WS_MATCH_NORMALIZED, WS_MATCH_SHORT, WS_MATCH_DEMANGLED };

    for (guint i = 0; i < G_N_ELEMENTS (bys); i++)
      {
        Match m = { compare, bys[i] };
        g_autofree char *what =
          g_strdup_printf ("Comparison: match by %s", ws_match_by_to_string (bys[i]));

        measure (what, set_match, &m, comparison_ready, compare);
      }
    measure ("Comparison: swap", swap, compare, comparison_ready, compare);
  }

  printf ("worst: %.2f ms of the main thread's CPU (%s); goal: no input keeps the main loop "
          "longer than %.0f ms: %s\n",
          worst_ms, worst_what, GOAL_MS, worst_ms <= GOAL_MS ? "met" : "NOT met");
  gtk_widget_destroy (GTK_WIDGET (compare));
  gtk_widget_destroy (GTK_WIDGET (window));
  g_application_release (G_APPLICATION (app));
  g_object_unref (app);
  g_free (worst_what);
  return 0;
}
