/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-sketch"
#include "config.h"

#include <math.h>
#include <string.h>

#include "ws-sketch.h"

typedef struct
{
  gint32 index;
  guint64 count;
} Bucket;

struct _WsSketch
{
  guint64 count;
  guint64 zeros; /* values ≤ 0: no logarithm */
  gint64 min;    /* exact, whatever the buckets hold */
  gint64 max;
  GArray *exact;   /* gint64, sorted: every value while count ≤ WS_SKETCH_EXACT, else NULL */
  GArray *buckets; /* Bucket, by index */
};

#define SERIAL_VERSION 1
#define FLAG_EXACT 1

/* ln γ and γ for α = WS_SKETCH_ALPHA (0.005): γ = 1.005 / 0.995. */
#define LOG_GAMMA 0.010000083334583179
#define GAMMA 1.0100502512562812

static gint32
bucket_index (gint64 value)
{
  return (gint32) ceil (log ((double) value) / LOG_GAMMA);
}

/* The value a bucket stands for: within α of each value in it. */
static double
bucket_value (gint32 index)
{
  return 2 * exp (LOG_GAMMA * index) / (GAMMA + 1);
}

WsSketch *
ws_sketch_new (void)
{
  WsSketch *self = g_new0 (WsSketch, 1);

  self->min = G_MAXINT64;
  self->max = G_MININT64;
  self->exact = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->buckets = g_array_new (FALSE, FALSE, sizeof (Bucket));
  return self;
}

void
ws_sketch_free (WsSketch *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->exact, g_array_unref);
  g_array_unref (self->buckets);
  g_free (self);
}

/* Past WS_SKETCH_MAX_BUCKETS, the lowest buckets fold into the next. */
static void
collapse (WsSketch *self)
{
  guint n = self->buckets->len;
  guint fold;
  Bucket *b;

  if (n <= WS_SKETCH_MAX_BUCKETS)
    return;
  fold = n - WS_SKETCH_MAX_BUCKETS;
  b = (Bucket *) (gpointer) self->buckets->data;
  for (guint i = 0; i < fold; i++)
    b[fold].count += b[i].count;
  g_array_remove_range (self->buckets, 0, fold);
}

static int
compare_i64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

/**
 * ws_sketch_new_from_values:
 * @values: (array length=n): the values, which it sorts
 *
 * Returns: (transfer full): the sketch of @values
 */
WsSketch *
ws_sketch_new_from_values (gint64 *values, gsize n)
{
  WsSketch *self = ws_sketch_new ();

  if (n == 0)
    return self;
  qsort (values, n, sizeof (gint64), compare_i64);
  self->count = n;
  self->min = values[0];
  self->max = values[n - 1];
  if (n <= WS_SKETCH_EXACT)
    g_array_append_vals (self->exact, values, (guint) n);
  else
    g_clear_pointer (&self->exact, g_array_unref);
  for (gsize i = 0; i < n; i++)
    {
      Bucket *last;
      gint32 index;

      if (values[i] <= 0)
        {
          self->zeros++;
          continue;
        }
      /* Sorted values give buckets in order: one run per bucket. */
      index = bucket_index (values[i]);
      last = self->buckets->len > 0 ? &g_array_index (self->buckets, Bucket, self->buckets->len - 1)
                                    : NULL;
      if (last != NULL && last->index == index)
        last->count++;
      else
        {
          Bucket fresh = { index, 1 };

          g_array_append_val (self->buckets, fresh);
        }
    }
  collapse (self);
  return self;
}

/**
 * ws_sketch_copy:
 *
 * Returns: (transfer full): a copy of @self
 */
WsSketch *
ws_sketch_copy (const WsSketch *self)
{
  WsSketch *copy = g_new0 (WsSketch, 1);

  g_return_val_if_fail (self != NULL, NULL);

  *copy = *self;
  copy->exact = self->exact != NULL ? g_array_copy (self->exact) : NULL;
  copy->buckets = g_array_copy (self->buckets);
  return copy;
}

static void
add_bucket (GArray *buckets, gint32 index, guint64 count)
{
  guint lo = 0, hi = buckets->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (buckets, Bucket, mid).index < index)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo < buckets->len && g_array_index (buckets, Bucket, lo).index == index)
    g_array_index (buckets, Bucket, lo).count += count;
  else
    {
      Bucket fresh = { index, count };

      g_array_insert_val (buckets, lo, fresh);
    }
}

void
ws_sketch_add (WsSketch *self, gint64 value)
{
  g_return_if_fail (self != NULL);

  self->count++;
  self->min = MIN (self->min, value);
  self->max = MAX (self->max, value);
  if (self->exact != NULL && self->count > WS_SKETCH_EXACT)
    g_clear_pointer (&self->exact, g_array_unref);
  if (self->exact != NULL)
    {
      guint at = 0;

      while (at < self->exact->len && g_array_index (self->exact, gint64, at) <= value)
        at++;
      g_array_insert_val (self->exact, at, value);
    }
  if (value <= 0)
    self->zeros++;
  else
    {
      add_bucket (self->buckets, bucket_index (value), 1);
      collapse (self);
    }
}

/* Adds @other's values to @self's. */
void
ws_sketch_merge (WsSketch *self, const WsSketch *other)
{
  g_autoptr (GArray) merged = NULL;
  const Bucket *a, *b;
  guint i = 0, j = 0, na, nb;

  g_return_if_fail (self != NULL && other != NULL);

  if (other->count == 0)
    return;
  if (self->exact != NULL && other->exact != NULL && self->count + other->count <= WS_SKETCH_EXACT)
    {
      g_array_append_vals (self->exact, other->exact->data, other->exact->len);
      g_array_sort (self->exact, compare_i64);
    }
  else
    g_clear_pointer (&self->exact, g_array_unref);
  self->count += other->count;
  self->zeros += other->zeros;
  self->min = MIN (self->min, other->min);
  self->max = MAX (self->max, other->max);

  a = (const Bucket *) (gconstpointer) self->buckets->data;
  b = (const Bucket *) (gconstpointer) other->buckets->data;
  na = self->buckets->len;
  nb = other->buckets->len;
  merged = g_array_sized_new (FALSE, FALSE, sizeof (Bucket), na + nb);
  while (i < na || j < nb)
    {
      Bucket next;

      if (j >= nb || (i < na && a[i].index < b[j].index))
        next = a[i++];
      else if (i >= na || b[j].index < a[i].index)
        next = b[j++];
      else
        {
          next = a[i++];
          next.count += b[j++].count;
        }
      g_array_append_val (merged, next);
    }
  g_array_unref (self->buckets);
  self->buckets = g_steal_pointer (&merged);
  collapse (self);
}

guint64
ws_sketch_count (const WsSketch *self)
{
  return self->count;
}

/* Whether the sketch still holds every value (its quantiles are exact). */
gboolean
ws_sketch_is_exact (const WsSketch *self)
{
  return self->exact != NULL;
}

guint
ws_sketch_n_buckets (const WsSketch *self)
{
  return self->buckets->len;
}

/**
 * ws_sketch_value_at:
 * @rank: 0 for the smallest value, count − 1 for the largest
 *
 * Returns: the value of that rank: exact while the sketch holds every
 * value, else within α of it (and never outside the values' range)
 */
double
ws_sketch_value_at (const WsSketch *self, guint64 rank)
{
  guint64 seen;

  g_return_val_if_fail (self != NULL, 0);

  if (self->count == 0)
    return 0;
  rank = MIN (rank, self->count - 1);
  if (self->exact != NULL)
    return (double) g_array_index (self->exact, gint64, rank);
  if (rank == 0)
    return (double) self->min;
  if (rank == self->count - 1)
    return (double) self->max;
  if (rank < self->zeros)
    return (double) MIN (self->min, 0);
  seen = self->zeros;
  for (guint i = 0; i < self->buckets->len; i++)
    {
      const Bucket *b = &g_array_index (self->buckets, Bucket, i);

      seen += b->count;
      if (rank < seen)
        return CLAMP (bucket_value (b->index), (double) self->min, (double) self->max);
    }
  return (double) self->max;
}

/* The median as `nsys stats` takes it: the middle value, or the mean of
 * the two middle values of an even count. */
double
ws_sketch_median (const WsSketch *self)
{
  guint64 n;

  g_return_val_if_fail (self != NULL, 0);

  n = self->count;
  if (n == 0)
    return 0;
  if (n % 2 == 1)
    return ws_sketch_value_at (self, n / 2);
  return (ws_sketch_value_at (self, n / 2 - 1) + ws_sketch_value_at (self, n / 2)) / 2.0;
}

static void
put_varint (GByteArray *out, guint64 value)
{
  do
    {
      guint8 byte = value & 0x7f;

      value >>= 7;
      if (value != 0)
        byte |= 0x80;
      g_byte_array_append (out, &byte, 1);
    }
  while (value != 0);
}

static void
put_signed (GByteArray *out, gint64 value)
{
  put_varint (out, ((guint64) value << 1) ^ (guint64) (value >> 63));
}

static gboolean
get_varint (const guint8 **p, const guint8 *end, guint64 *value)
{
  guint64 v = 0;

  for (guint shift = 0; shift < 64; shift += 7)
    {
      guint8 byte;

      if (*p >= end)
        return FALSE;
      byte = *(*p)++;
      v |= (guint64) (byte & 0x7f) << shift;
      if (!(byte & 0x80))
        {
          *value = v;
          return TRUE;
        }
    }
  return FALSE;
}

static gboolean
get_signed (const guint8 **p, const guint8 *end, gint64 *value)
{
  guint64 v;

  if (!get_varint (p, end, &v))
    return FALSE;
  *value = (gint64) (v >> 1) ^ -(gint64) (v & 1);
  return TRUE;
}

/**
 * ws_sketch_serialize:
 *
 * A version byte, a flags byte, then varints: the count and either every
 * value (the first, then the differences) or the count of values ≤ 0, the
 * minimum, the maximum and each bucket as the difference of its index to
 * the previous one and its count (docs/digest.md).
 *
 * Returns: (transfer full): the bytes
 */
GBytes *
ws_sketch_serialize (const WsSketch *self)
{
  GByteArray *out = g_byte_array_new ();
  guint8 head[2] = { SERIAL_VERSION, self->exact != NULL ? FLAG_EXACT : 0 };

  g_byte_array_append (out, head, 2);
  put_varint (out, self->count);
  if (self->exact != NULL)
    {
      gint64 previous = 0;

      for (guint i = 0; i < self->exact->len; i++)
        {
          gint64 v = g_array_index (self->exact, gint64, i);

          if (i == 0)
            put_signed (out, v);
          else
            put_varint (out, (guint64) (v - previous));
          previous = v;
        }
    }
  else
    {
      gint32 previous = 0;

      put_varint (out, self->zeros);
      put_signed (out, self->count > 0 ? self->min : 0);
      put_signed (out, self->count > 0 ? self->max : 0);
      put_varint (out, self->buckets->len);
      for (guint i = 0; i < self->buckets->len; i++)
        {
          const Bucket *b = &g_array_index (self->buckets, Bucket, i);

          put_signed (out, (gint64) b->index - previous);
          put_varint (out, b->count);
          previous = b->index;
        }
    }
  return g_byte_array_free_to_bytes (out);
}

/**
 * ws_sketch_deserialize:
 *
 * Returns: (transfer full) (nullable): the sketch, or %NULL when @data is
 * not one ws_sketch_serialize() wrote
 */
WsSketch *
ws_sketch_deserialize (const guint8 *data, gsize len)
{
  g_autoptr (WsSketch) self = ws_sketch_new ();
  const guint8 *p = data, *end = data + len;
  guint64 count;

  if (data == NULL || len < 2 || data[0] != SERIAL_VERSION || (data[1] & ~FLAG_EXACT) != 0)
    return NULL;
  p += 2;
  if (!get_varint (&p, end, &count))
    return NULL;
  if (data[1] & FLAG_EXACT)
    {
      g_autofree gint64 *values = NULL;
      gint64 previous = 0;

      if (count > WS_SKETCH_EXACT)
        return NULL;
      values = g_new (gint64, MAX (count, 1));
      for (guint64 i = 0; i < count; i++)
        {
          guint64 delta;

          if (i == 0 ? !get_signed (&p, end, &values[0]) : !get_varint (&p, end, &delta))
            return NULL;
          if (i > 0)
            {
              if (delta > (guint64) G_MAXINT64 || previous > G_MAXINT64 - (gint64) delta)
                return NULL;
              values[i] = previous + (gint64) delta;
            }
          previous = values[i];
        }
      if (p != end)
        return NULL;
      ws_sketch_free (g_steal_pointer (&self));
      return ws_sketch_new_from_values (values, count);
    }
  else
    {
      guint64 n_buckets, total = 0;
      gint64 index = 0;

      g_clear_pointer (&self->exact, g_array_unref);
      if (!get_varint (&p, end, &self->zeros) || !get_signed (&p, end, &self->min) ||
          !get_signed (&p, end, &self->max) || !get_varint (&p, end, &n_buckets) ||
          n_buckets > WS_SKETCH_MAX_BUCKETS || self->min > self->max)
        return NULL;
      for (guint64 i = 0; i < n_buckets; i++)
        {
          gint64 delta;
          Bucket b;

          if (!get_signed (&p, end, &delta) || !get_varint (&p, end, &b.count) ||
              (i > 0 && delta <= 0) || delta < G_MININT32 || delta > G_MAXINT32)
            return NULL;
          index += delta;
          if (index < G_MININT32 || index > G_MAXINT32 || b.count > G_MAXUINT64 - total)
            return NULL;
          b.index = (gint32) index;
          total += b.count;
          g_array_append_val (self->buckets, b);
        }
      if (p != end || self->zeros > G_MAXUINT64 - total || total + self->zeros != count)
        return NULL;
      self->count = count;
    }
  return g_steal_pointer (&self);
}
