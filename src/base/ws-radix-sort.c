/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-radix-sort"
#include "config.h"

#include <string.h>

#include "ws-radix-sort.h"

/**
 * ws_radix_sort:
 * @keys: (array length=n): the keys, sorted in place
 * @values: (array length=n): one value per key, moved with it
 *
 * A stable LSD radix sort, 16 bits at a time; a pass whose digit is the
 * same for every key is skipped.
 */
void
ws_radix_sort (guint64 *keys, guint32 *values, gsize n)
{
  g_autofree guint64 *k2 = g_new (guint64, MAX (n, 1));
  g_autofree guint32 *v2 = g_new (guint32, MAX (n, 1));
  g_autofree gsize *count = g_new (gsize, 65536);
  guint64 *src_k = keys, *dst_k = k2;
  guint32 *src_v = values, *dst_v = v2;

  for (guint shift = 0; shift < 64; shift += 16)
    {
      gsize sum = 0;
      gboolean one_digit = FALSE;

      memset (count, 0, 65536 * sizeof (gsize));
      for (gsize i = 0; i < n; i++)
        count[(src_k[i] >> shift) & 0xffff]++;
      for (guint d = 0; d < 65536; d++)
        {
          gsize c = count[d];

          one_digit = one_digit || c == n;
          count[d] = sum;
          sum += c;
        }
      if (one_digit)
        continue;
      for (gsize i = 0; i < n; i++)
        {
          gsize to = count[(src_k[i] >> shift) & 0xffff]++;

          dst_k[to] = src_k[i];
          dst_v[to] = src_v[i];
        }
      {
        guint64 *tk = src_k;
        guint32 *tv = src_v;

        src_k = dst_k;
        dst_k = tk;
        src_v = dst_v;
        dst_v = tv;
      }
    }
  if (src_k != keys)
    {
      memcpy (keys, src_k, n * sizeof (guint64));
      memcpy (values, src_v, n * sizeof (guint32));
    }
}
