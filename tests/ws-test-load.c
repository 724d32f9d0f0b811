/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The test fixtures of tests/data, loaded as the program loads them (a
 * fixture that does not load fails the test), and events found in them. */
#include "config.h"

#include "ws-gauges.h"
#include "ws-ncu-reader.h"
#include "ws-run-loader.h"
#include "ws-test-load.h"
#include "ws-test-util.h"

/**
 * ws_test_load_nsys:
 *
 * Returns: (transfer full): the run of tests/data/nsys/@name, everything
 * loaded
 */
WsRun *
ws_test_load_nsys (const char *name)
{
  return ws_test_load_nsys_ncu (name, NULL);
}

/**
 * ws_test_load_paths:
 * @paths: (array zero-terminated=1): the files of one run
 *
 * Returns: (transfer full): the run of @paths, everything loaded
 */
WsRun *
ws_test_load_paths (const char *const *paths)
{
  g_autoptr (GError) error = NULL;
  WsRun *run = ws_run_load (paths, WS_LOAD_ALL, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (run);
  return run;
}

/**
 * ws_test_load_nsys_ncu:
 * @ncu: (nullable): a CSV of tests/data/ncu to load with it
 *
 * Returns: (transfer full): the run of tests/data/nsys/@nsys and @ncu
 */
WsRun *
ws_test_load_nsys_ncu (const char *nsys, const char *ncu)
{
  g_autofree char *nsys_path = ws_test_data ("nsys", nsys, NULL);
  g_autofree char *ncu_path = ncu != NULL ? ws_test_data ("ncu", ncu, NULL) : NULL;
  const char *paths[] = { nsys_path, ncu_path, NULL };

  return ws_test_load_paths (paths);
}

/**
 * ws_test_load_ncu:
 *
 * Returns: (transfer full): the results of tests/data/ncu/@name, with
 * their gauges, as the loader gives them
 */
WsNcuResults *
ws_test_load_ncu (const char *name)
{
  g_autofree char *path = ws_test_data ("ncu", name, NULL);
  g_autoptr (GError) error = NULL;
  WsNcuResults *results = ws_ncu_reader_load_file (path, &error);

  g_assert_no_error (error);
  g_assert_nonnull (results);
  ws_gauges_compute_all (results);
  return results;
}

/* The kernel launched by the call of @correlation, or -1. */
gssize
ws_test_kernel_by_correlation (const WsRun *run, guint32 correlation)
{
  for (gsize k = 0; k < run->kernels.n; k++)
    if (run->kernels.correlation[k] == correlation)
      return (gssize) k;
  return -1;
}
