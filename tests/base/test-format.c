/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ws-format.h"

/* ws_format_fixed() rounds half away from zero on a double's exact binary
 * value, as nsys stats prints.  The reference here is written apart from
 * it: the complete decimal expansion from printf (1,100 digits after the
 * point hold any double's), rounded by hand. */
static char *
reference (double value, int decimals)
{
  static char buf[1500];
  GString *out = g_string_new (NULL);
  char *point;
  gsize keep;
  gboolean zero = TRUE;

  snprintf (buf, sizeof buf, "%.1100f", fabs (value));
  point = strchr (buf, '.');
  memmove (point, point + 1, strlen (point + 1) + 1);
  keep = (gsize) (point - buf) + (gsize) decimals;
  if (buf[keep] >= '5')
    {
      gssize i = (gssize) keep - 1;

      while (i >= 0 && buf[i] == '9')
        buf[i--] = '0';
      if (i >= 0)
        buf[i]++;
      else
        {
          memmove (buf + 1, buf, keep);
          buf[0] = '1';
          keep++;
          point++;
        }
    }
  buf[keep] = '\0';
  for (gsize i = 0; i < keep; i++)
    zero = zero && buf[i] == '0';
  if (signbit (value) && !zero)
    g_string_append_c (out, '-');
  g_string_append_len (out, buf, point - buf);
  if (decimals > 0)
    {
      g_string_append_c (out, '.');
      g_string_append (out, point);
    }
  return g_string_free (out, FALSE);
}

static void
check (double value, int decimals)
{
  g_autoptr (GString) got = g_string_new (NULL);
  g_autofree char *want = reference (value, decimals);

  ws_format_fixed (got, value, decimals, FALSE);
  if (!g_str_equal (got->str, want))
    g_error ("%.17g with %d decimals: %s, not %s", value, decimals, got->str, want);
}

static void
test_known (void)
{
  g_autoptr (GString) out = g_string_new (NULL);

  /* Exactly representable ties round away from zero; 52041.35 is stored
   * a little below its decimal and rounds down. */
  ws_format_fixed (out, 309437.0 / 4, 1, FALSE);
  g_assert_cmpstr (out->str, ==, "77359.3");
  g_string_truncate (out, 0);
  ws_format_fixed (out, 52041.35, 1, FALSE);
  g_assert_cmpstr (out->str, ==, "52041.3");
  g_string_truncate (out, 0);
  ws_format_fixed (out, -0.04, 1, FALSE);
  g_assert_cmpstr (out->str, ==, "0.0");
  g_string_truncate (out, 0);
  ws_format_fixed (out, 1234567.75, 1, TRUE);
  g_assert_cmpstr (out->str, ==, "1,234,567.8");
}

/* Every magnitude a report prints and far beyond, ties among them. */
static void
test_against_reference (void)
{
  GRand *rand = g_rand_new_with_seed (41);

  for (int i = 0; i < 20000; i++)
    {
      int exponent = g_rand_int_range (rand, -80, 90);
      double value = ldexp (g_rand_double (rand), exponent);
      int decimals = g_rand_int_range (rand, 0, 10);

      if (g_rand_boolean (rand))
        value = -value;
      check (value, decimals);
      /* A tie: k / 2^j for small j lands on ...5 exactly. */
      check ((double) g_rand_int_range (rand, 0, 1 << 30) / (1 << g_rand_int_range (rand, 1, 12)),
             decimals);
    }
  check (0.0, 3);
  check (-0.0, 1);
  check (9.0e18, 1);
  check (ldexp (1.0, 83), 9);
  check (ldexp (1.0, -61), 9);
  check (ldexp (1.0, -1074), 9);
  check (0.05, 1);
  check (0.25, 1);
  check (2.5, 0);
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/format/fixed/known", test_known);
  g_test_add_func ("/format/fixed/against-reference", test_against_reference);
  return g_test_run ();
}
