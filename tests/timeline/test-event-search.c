/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ws-event-search.h"
#include "ws-run-loader.h"
#include "ws-test-load.h"
#include "ws-test-util.h"

#define PROBE "v2025.3_h100_probe.sqlite"

static gint64
sql (const char *query)
{
  g_autofree char *path = ws_test_data ("nsys", PROBE, NULL);
  g_autofree char *text = ws_test_sqlite_text (path, query);

  return g_ascii_strtoll (text, NULL, 10);
}

/* Counts every kind of event by name, as SQL's LIKE does (ASCII case
 * ignored, substrings, Chinese text too). */
static void
test_counts_match_sql (void)
{
  g_autoptr (WsRun) run = ws_test_load_nsys (PROBE);
  g_autoptr (WsEventSearch) search = ws_event_search_new (run);

  g_assert_cmpuint (ws_event_search_set_text (search, "TINY"), ==,
                    sql ("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds d "
                         "ON d.id = k.demangledName WHERE d.value LIKE '%tiny%'"));
  g_assert_cmpuint (ws_event_search_set_text (search, "任务"), ==,
                    sql ("SELECT count(*) FROM NVTX_EVENTS WHERE text LIKE '%任务%'"));
  g_assert_cmpuint (ws_event_search_set_text (search, "synchronize"), ==,
                    sql ("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s "
                         "ON s.id = r.nameId WHERE s.value LIKE '%synchronize%'"));
  g_assert_cmpuint (ws_event_search_set_text (search, ""), ==, 0);
  g_assert_null (ws_event_search_get_bits (search, NULL));
  g_assert_cmpuint (ws_event_search_find (search, WS_EVENT_NONE, FALSE), ==, WS_EVENT_NONE);
}

/* Next and previous go by start time and wrap around: the first "tiny"
 * kernel starts at 437902072, the last at 456390618 (SQL). */
static void
test_find_walks_and_wraps (void)
{
  g_autoptr (WsRun) run = ws_test_load_nsys (PROBE);
  g_autoptr (WsEventSearch) search = ws_event_search_new (run);
  WsEventRef first, last, event;
  guint steps = 0;
  gint64 previous;

  g_assert_cmpuint (ws_event_search_set_text (search, "tiny"), ==, 320);
  first = ws_event_search_find (search, WS_EVENT_NONE, FALSE);
  g_assert_cmpint (ws_event_start (run, first), ==, 437902072);
  last = ws_event_search_find (search, first, TRUE);
  g_assert_cmpint (ws_event_start (run, last), ==, 456390618);
  g_assert_cmpuint (ws_event_search_find (search, last, FALSE), ==, first);

  /* Forward from the first, every match once, in order. */
  previous = ws_event_start (run, first);
  for (event = ws_event_search_find (search, first, FALSE); event != first;
       event = ws_event_search_find (search, event, FALSE))
    {
      g_assert_true (ws_event_search_matches (search, event));
      g_assert_cmpint (ws_event_start (run, event), >=, previous);
      previous = ws_event_start (run, event);
      steps++;
      g_assert_cmpuint (steps, <, 320);
    }
  g_assert_cmpuint (steps, ==, 319);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/event-search/probe/counts-match-sql", test_counts_match_sql);
  g_test_add_func ("/event-search/probe/find-walks-and-wraps", test_find_walks_and_wraps);
  return g_test_run ();
}
