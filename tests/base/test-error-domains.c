/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ws-capture-error.h"
#include "ws-error.h"
#include "ws-loader-error.h"
#include "ws-reader-error.h"
#include "ws-tools-error.h"

/* Each library's domain has a string of its own, as written in its
 * G_DEFINE_QUARK (clang-format once spaced the dashes of these). */
static void
test_quark_strings (void)
{
  g_assert_cmpstr (g_quark_to_string (WS_BASE_ERROR), ==, "ws-base-error-quark");
  g_assert_cmpstr (g_quark_to_string (WS_READER_ERROR), ==, "ws-reader-error-quark");
  g_assert_cmpstr (g_quark_to_string (WS_TOOLS_ERROR), ==, "ws-tools-error-quark");
  g_assert_cmpstr (g_quark_to_string (WS_CAPTURE_ERROR), ==, "ws-capture-error-quark");
  g_assert_cmpstr (g_quark_to_string (WS_LOADER_ERROR), ==, "ws-loader-error-quark");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/error-domains/quark-strings/as-written", test_quark_strings);
  return g_test_run ();
}
