/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One verdict per launch in the window (issue 31, item 2): the Kernels
 * page's bars, the Gauges panel's headline and its bottom line, and the
 * Timeline's Bottleneck column show what `warpscope-cli gauges` and
 * `rollup` print, on every fixture with ncu CSVs and an nsys export of the
 * same program. */
#include "config.h"

#include <gtk/gtk.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "ws-application.h"
#include "ws-bars-chart.h"
#include "ws-bars-view.h"
#include "ws-csv.h"
#include "ws-gauges-page.h"
#include "ws-gauges-view.h"
#include "ws-kernels-page.h"
#include "ws-test-fixtures.h"
#include "ws-test-gui.h"
#include "ws-test-util.h"
#include "ws-timeline-page.h"
#include "ws-window.h"

static WsApplication *app;

/* warpscope-cli @command --format @format over the fixture's paths. */
static char *
run_cli (const WsTestNcuFixture *fixture, const char *command, const char *format)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  char *out = NULL;

  g_ptr_array_add (argv, (gpointer) ws_test_cli ());
  g_ptr_array_add (argv, (gpointer) command);
  g_ptr_array_add (argv, (gpointer) "--format");
  g_ptr_array_add (argv, (gpointer) format);
  for (guint i = 0; i + 1 < fixture->paths->len; i++)
    g_ptr_array_add (argv, g_ptr_array_index (fixture->paths, i));
  g_ptr_array_add (argv, NULL);
  g_assert_cmpint (ws_test_run ((const char *const *) argv->pdata, &out, NULL), ==, 0);
  return out;
}

/* The Why page's headline as a verdict class: "Memory-bound: L2 92.78%" is
 * Memory, too little work is Latency, compute and memory both busy Mixed. */
static const char *
class_of_headline (const char *headline)
{
  static const char *const classes[][2] = {
    { "Compute-bound", "Compute" },    { "Memory-bound", "Memory" },
    { "Latency-bound", "Latency" },    { "Too little work", "Latency" },
    { "Compute and memory", "Mixed" }, { "Unknown", "Unknown" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (classes); i++)
    if (g_str_has_prefix (headline, classes[i][0]))
      return classes[i][1];
  g_error ("headline %s", headline);
  return NULL;
}

typedef struct
{
  WsGaugesPage *page;
  guint launch;
} WhyWait;

static gboolean
why_ready (gpointer data)
{
  WhyWait *wait = data;
  const WsWhy *why = ws_gauges_page_get_why (wait->page);

  return why != NULL && why->launch == wait->launch;
}

static gboolean
rollup_shown (gpointer page)
{
  return ws_timeline_page_get_rollup (page) != NULL;
}

/* The Gauges panel of each launch: its headline "Memory: …" and its bottom
 * line "Bottleneck: Memory-bound: … (see Why)" both say the CLI's verdict. */
static void
check_gauges_page (const WsTestNcuFixture *fixture, WsWindow *window, JsonArray *launches)
{
  WsGaugesPage *page = WS_GAUGES_PAGE (ws_window_get_view (window, "gauges"));

  for (guint i = 0; i < json_array_get_length (launches); i++)
    {
      JsonObject *o = json_array_get_object_element (launches, i);
      const char *verdict = json_object_get_string_member (o, "verdict");
      WhyWait wait = { page, i };
      g_auto (GStrv) lines = NULL;
      const char *bottom;

      ws_gauges_view_select_launch (ws_gauges_page_get_overview (page), (int) i);
      ws_test_gui_iterate_until (why_ready, &wait);
      ws_test_gui_flush ();
      lines = g_strsplit (ws_gauges_page_get_details_text (page), "\n", -1);
      g_assert_cmpuint (g_strv_length (lines), >=, 2);
      if (!g_str_has_prefix (lines[1], verdict) || lines[1][strlen (verdict)] != ':')
        g_error ("%s launch %u: the panel says “%s”, gauges %s", fixture->name, i, lines[1],
                 verdict);
      bottom = strstr (ws_gauges_page_get_details_text (page), "\nBottleneck: ");
      g_assert_nonnull (bottom);
      g_assert_cmpstr (class_of_headline (bottom + strlen ("\nBottleneck: ")), ==, verdict);
    }
}

/* Each kernel bar (demangled names, the page's first form) with a
 * verdict: the one that holds more than half of the durations of the
 * kernel's profiled launches, else mixed (docs/NOTES.md, "A kernel's
 * verdict"), from the launches the CLI joins to that nsys kernel.
 * Returns the bars checked. */
static guint
check_kernels_page (const WsTestNcuFixture *fixture, WsWindow *window, JsonArray *launches)
{
  WsKernelsPage *page = WS_KERNELS_PAGE (ws_window_get_kernels_page (window));
  const WsBarsModel *model = ws_bars_view_get_model (ws_kernels_page_get_bars_view (page));
  guint checked = 0;

  for (guint b = 0; b < model->bars->len; b++)
    {
      const WsBar *bar = ws_bars_model_get (model, b);
      const char *verdict = NULL;
      g_autoptr (GHashTable) time = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
      double total = 0;
      GHashTableIter it;
      gpointer key, value;

      for (guint i = 0; i < json_array_get_length (launches); i++)
        {
          JsonObject *o = json_array_get_object_element (launches, i);
          JsonNode *d =
            json_object_get_member (json_object_get_object_member (
                                      json_object_get_object_member (o, "gauges"), "duration_ns"),
                                    "value");
          double duration = JSON_NODE_HOLDS_VALUE (d) ? json_node_get_double (d) : 0;
          const char *v = json_object_get_string_member (o, "verdict");
          double *sum;

          if (!json_object_has_member (o, "nsys_kernel") ||
              !g_str_equal (json_object_get_string_member (o, "nsys_kernel"), bar->name))
            continue;
          verdict = "mixed";
          sum = g_hash_table_lookup (time, v);
          if (sum == NULL)
            {
              sum = g_new0 (double, 1);
              g_hash_table_insert (time, (gpointer) v, sum);
            }
          *sum += duration;
          total += duration;
        }
      g_hash_table_iter_init (&it, time);
      while (g_hash_table_iter_next (&it, &key, &value))
        if (*(double *) value > total / 2)
          verdict = key;
      if (verdict == NULL)
        {
          g_assert_cmpint (bar->verdict, ==, WS_VERDICT_NONE);
          continue;
        }
      if (!g_str_equal (ws_verdict_id (bar->verdict), verdict))
        g_error ("%s: the bar of %s says %s, gauges %s", fixture->name, bar->name,
                 ws_verdict_id (bar->verdict), verdict);
      /* The panel under the selected kernel's name says the same. */
      {
        g_autofree char *said = g_strdup_printf ("Verdict %s: ", ws_verdict_label (bar->verdict));
        g_autofree char *text = NULL;

        ws_bars_view_select (ws_kernels_page_get_bars_view (page), (int) b);
        text = ws_kernels_page_get_details_text (page);
        if (strstr (text, said) == NULL)
          g_error ("%s: the details of %s do not say “%s”:\n%s", fixture->name, bar->name, said,
                   text);
      }
      checked++;
    }
  return checked;
}

/* The Timeline's range table: each row's Bottleneck shares are rollup's.
 * Returns the ranges checked. */
static guint
check_timeline (const WsTestNcuFixture *fixture, WsWindow *window)
{
  g_autofree char *csv = run_cli (fixture, "rollup", "csv");
  g_autoptr (WsCsvReader) reader = ws_csv_reader_new ("rollup.csv", csv, strlen (csv), ',');
  g_autoptr (GPtrArray) fields = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GHashTable) shares =
    g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_strfreev);
  WsTimelinePage *page;
  GtkTreeModel *model;
  GtkTreeIter iter;
  guint checked = 0;

  g_assert_true (ws_csv_reader_next (reader, fields, NULL));
  while (ws_csv_reader_next (reader, fields, NULL) && fields->len >= 7)
    {
      g_auto (GStrv) row = g_new0 (char *, 7);

      for (guint c = 0; c < 6; c++)
        row[c] = g_strdup (g_ptr_array_index (fields, 1 + c));
      /* ":name" in the default domain, as the table names it. */
      g_hash_table_insert (shares, g_strdup ((const char *) g_ptr_array_index (fields, 0) + 1),
                           g_steal_pointer (&row));
    }
  g_action_group_activate_action (G_ACTION_GROUP (window), "show-page",
                                  g_variant_new_string ("timeline"));
  page = WS_TIMELINE_PAGE (ws_window_get_view (window, "timeline"));
  ws_test_gui_iterate_until (rollup_shown, page);
  ws_test_gui_flush ();
  model = ws_timeline_page_get_side_model (page);
  for (gboolean ok = gtk_tree_model_get_iter_first (model, &iter); ok;
       ok = gtk_tree_model_iter_next (model, &iter))
    {
      g_autofree char *name = NULL, *text = NULL;
      double share[5];
      char **row;
      double gpu;

      gtk_tree_model_get (model, &iter, 0, &name, 6, &text, 7, &share[0], 8, &share[1], 9,
                          &share[2], 10, &share[3], 11, &share[4], -1);
      row = g_hash_table_lookup (shares, name);
      if (row == NULL || text == NULL || (gpu = g_ascii_strtod (row[0], NULL)) <= 0)
        continue;
      for (int c = 0; c < 5; c++)
        if (ABS (share[c] - g_ascii_strtod (row[1 + c], NULL) / gpu) > 1e-9)
          g_error ("%s: range %s, column %d: the Timeline shows %g, rollup %s of %s", fixture->name,
                   name, c, share[c], row[1 + c], row[0]);
      checked++;
    }
  return checked;
}

static void
test_window_agrees (void)
{
  g_autoptr (GPtrArray) fixtures = ws_test_ncu_fixtures ();
  guint launches_total = 0, bars_total = 0, ranges_total = 0;

  for (guint f = 0; f < fixtures->len; f++)
    {
      const WsTestNcuFixture *fixture = g_ptr_array_index (fixtures, f);
      g_autofree char *json = run_cli (fixture, "gauges", "json");
      g_autoptr (JsonParser) parser = json_parser_new ();
      WsWindow *window =
        ws_test_gui_wait_for_load (ws_test_gui_open ((const char *const *) fixture->paths->pdata));
      JsonArray *launches;
      guint bars, ranges;

      g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
      launches = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                               "launches");
      bars = check_kernels_page (fixture, window, launches);
      g_action_group_activate_action (G_ACTION_GROUP (window), "show-page",
                                      g_variant_new_string ("gauges"));
      check_gauges_page (fixture, window, launches);
      ranges = check_timeline (fixture, window);
      g_test_message ("%s: %u launches (panel headline and bottom line), %u bars, %u ranges",
                      fixture->name, json_array_get_length (launches), bars, ranges);
      g_assert_cmpuint (bars, >, 0);
      launches_total += json_array_get_length (launches);
      bars_total += bars;
      ranges_total += ranges;
      gtk_widget_destroy (GTK_WIDGET (window));
    }
  g_test_message ("%u fixtures: %u launches, %u bars, %u ranges", fixtures->len, launches_total,
                  bars_total, ranges_total);
  g_assert_cmpuint (ranges_total, >, 0);
}

int
main (int argc, char **argv)
{
  app = ws_test_gui_init (&argc, &argv);
  g_test_add_func ("/verdict-window/every-fixture/pages-agree-with-the-commands",
                   test_window_agrees);
  return ws_test_gui_run ();
}
