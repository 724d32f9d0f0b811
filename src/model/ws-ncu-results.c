/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-ncu-results"
#include "config.h"

#include <math.h>
#include <string.h>

#include "ws-csv.h"
#include "ws-ncu-results.h"

static void
metric_free (gpointer data)
{
  WsNcuMetric *metric = data;

  g_free (metric->values);
  g_free (metric->text);
  g_free (metric->units);
  g_free (metric->min);
  g_free (metric->max);
  g_free (metric->total);
  g_free (metric);
}

/**
 * ws_ncu_results_new:
 *
 * Returns: (transfer full): empty results, for the reader to fill.
 */
WsNcuResults *
ws_ncu_results_new (void)
{
  WsNcuResults *self = g_new0 (WsNcuResults, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->strings = g_string_chunk_new (16 * 1024);
  self->files = g_ptr_array_new_with_free_func (g_free);
  self->launches = g_array_new (FALSE, TRUE, sizeof (WsNcuLaunch));
  self->metrics = g_ptr_array_new_with_free_func (metric_free);
  self->by_key = g_hash_table_new (g_str_hash, g_str_equal);
  self->aliases =
    g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) g_ptr_array_unref);
  self->rules = g_array_new (FALSE, TRUE, sizeof (WsNcuRule));
  self->warnings = g_ptr_array_new_with_free_func (g_free);
  return self;
}

/**
 * ws_ncu_results_ref:
 *
 * Returns: (transfer full): @self
 */
WsNcuResults *
ws_ncu_results_ref (WsNcuResults *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
ws_ncu_results_unref (WsNcuResults *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  if (self->gauges != NULL)
    for (guint i = 0; i < self->launches->len; i++)
      ws_gauges_clear (&self->gauges[i]);
  g_free (self->gauges);
  g_free (self->match);
  g_clear_pointer (&self->expected, g_ptr_array_unref);
  g_free (self->labels);
  g_hash_table_unref (self->by_key);
  g_hash_table_unref (self->aliases);
  g_ptr_array_unref (self->metrics);
  g_array_unref (self->launches);
  g_array_unref (self->rules);
  g_ptr_array_unref (self->files);
  g_ptr_array_unref (self->warnings);
  g_string_chunk_free (self->strings);
  g_free (self);
}

guint
ws_ncu_results_n_launches (const WsNcuResults *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->launches->len;
}

/**
 * ws_ncu_results_launch:
 *
 * Returns: (transfer none): launch @launch
 */
const WsNcuLaunch *
ws_ncu_results_launch (const WsNcuResults *self, guint launch)
{
  g_return_val_if_fail (self != NULL && launch < self->launches->len, NULL);

  return &g_array_index (self->launches, WsNcuLaunch, launch);
}

/**
 * ws_ncu_results_gauges:
 *
 * Returns: (transfer none): the gauges and verdicts of @launch, once
 * ws_gauges_compute_all() computed them
 */
const WsGauges *
ws_ncu_results_gauges (const WsNcuResults *self, guint launch)
{
  g_return_val_if_fail (self != NULL && launch < self->launches->len, NULL);
  g_return_val_if_fail (self->gauges != NULL, NULL);

  return &self->gauges[launch];
}

/**
 * ws_ncu_results_match:
 *
 * Returns: (transfer none) (nullable): the nsys kernel of @launch, or %NULL
 * when the results were not matched against an nsys run.
 */
const WsNcuMatch *
ws_ncu_results_match (const WsNcuResults *self, guint launch)
{
  g_return_val_if_fail (self != NULL && launch < self->launches->len, NULL);

  return self->match != NULL ? &self->match[launch] : NULL;
}

/* Raw metric names ("sm__throughput.avg.pct_of_peak_sustained_elapsed")
 * have no spaces and a double underscore; the details page's display names
 * ("Compute (SM) Throughput") have neither. */
static gboolean
is_raw_name (const char *name)
{
  return strstr (name, "__") != NULL && strchr (name, ' ') == NULL;
}

static char *
details_key (const char *section, const char *name)
{
  if (section == NULL || is_raw_name (name))
    return g_strdup (name);
  return g_strconcat (section, "\x1f", name, NULL);
}

/**
 * ws_ncu_results_find_metric:
 * @name: a raw metric name, or a column of the raw page
 *
 * Returns: (transfer none) (nullable): the column of that name
 */
const WsNcuMetric *
ws_ncu_results_find_metric (const WsNcuResults *self, const char *name)
{
  g_return_val_if_fail (self != NULL && name != NULL, NULL);

  return g_hash_table_lookup (self->by_key, name);
}

/**
 * ws_ncu_results_find_details_metric:
 *
 * Returns: (transfer none) (nullable): the details page's metric @name of
 * @section ("GPU Speed Of Light Throughput", "Duration")
 */
const WsNcuMetric *
ws_ncu_results_find_details_metric (const WsNcuResults *self, const char *section, const char *name)
{
  g_autofree char *key = NULL;

  g_return_val_if_fail (self != NULL && name != NULL, NULL);

  key = details_key (section, name);
  return g_hash_table_lookup (self->by_key, key);
}

/**
 * ws_ncu_results_value:
 * @metric: a raw metric name
 * @from: (out) (optional) (transfer none): the column the value came from
 *
 * The value of @metric for @launch in base units: from the raw page's
 * column of that name, or else from a details page metric that stands for
 * it ("Duration" for gpu__time_duration.sum).
 *
 * Returns: %FALSE when the launch has no such value
 */
gboolean
ws_ncu_results_value (const WsNcuResults *self, guint launch, const char *metric, double *value,
                      const WsNcuMetric **from)
{
  const WsNcuMetric *m;
  GPtrArray *aliased;

  g_return_val_if_fail (self != NULL && metric != NULL, FALSE);

  m = g_hash_table_lookup (self->by_key, metric);
  if (m != NULL && launch < m->n_alloc && !isnan (m->values[launch]))
    {
      *value = m->values[launch];
      if (from != NULL)
        *from = m;
      return TRUE;
    }
  aliased = g_hash_table_lookup (self->aliases, metric);
  for (guint i = 0; aliased != NULL && i < aliased->len; i++)
    {
      m = g_ptr_array_index (aliased, i);
      if (launch < m->n_alloc && !isnan (m->values[launch]))
        {
          *value = m->values[launch];
          if (from != NULL)
            *from = m;
          return TRUE;
        }
    }
  return FALSE;
}

/**
 * ws_ncu_results_text:
 *
 * Returns: (transfer none) (nullable): the text of a metric whose cell is
 * not a number ("NVIDIA H100 80GB HBM3"), or %NULL
 */
const char *
ws_ncu_results_text (const WsNcuResults *self, guint launch, const char *metric)
{
  const WsNcuMetric *m = ws_ncu_results_find_metric (self, metric);

  if (m == NULL || m->text == NULL || launch >= m->n_alloc)
    return NULL;
  return m->text[launch];
}

/* One range of ncu's --nvtx column: "domain:name:PL_Type:PL_Value:CLR_Type:
 * Color:Msg_Type:Msg"; the name may itself hold colons, the six fields
 * after it never do. */
static void
append_range (GString *out, const char *range)
{
  g_auto (GStrv) fields = g_strsplit (range, ":", -1);
  guint n = g_strv_length (fields);
  guint name_end = n >= 8 ? n - 6 : n;

  if (n < 2)
    return;
  if (out->len > 0)
    g_string_append (out, " › ");
  if (!g_str_equal (fields[0], "<default domain>"))
    g_string_append_printf (out, "%s:", fields[0]);
  for (guint i = 1; i < name_end; i++)
    {
      if (i > 1)
        g_string_append_c (out, ':');
      g_string_append (out, fields[i]);
    }
}

/**
 * ws_ncu_launch_nvtx_path:
 *
 * The NVTX ranges open around the launch, outermost first, from ncu's
 * --nvtx column: "step 0 › forward".
 *
 * Returns: (transfer full) (nullable): the path, or %NULL when none
 */
char *
ws_ncu_launch_nvtx_path (const WsNcuLaunch *launch)
{
  GString *out = g_string_new (NULL);
  const char *p = launch->nvtx_push_pop;

  /* "TID  "range"  "range" ": a thread id, then the quoted ranges. */
  while (p != NULL && (p = strchr (p, '"')) != NULL)
    {
      const char *end = strchr (p + 1, '"');
      g_autofree char *range = NULL;

      if (end == NULL)
        break;
      range = g_strndup (p + 1, end - p - 1);
      append_range (out, range);
      p = end + 1;
    }
  if (out->len == 0 && launch->nvtx_start_end != NULL && launch->nvtx_start_end[0] != '\0')
    g_string_append (out, launch->nvtx_start_end);
  if (out->len == 0)
    {
      g_string_free (out, TRUE);
      return NULL;
    }
  return g_string_free (out, FALSE);
}

/* The bytes the results hold: what a 2,000-column file costs. */
gsize
ws_ncu_results_memory (const WsNcuResults *self)
{
  gsize total = sizeof *self;

  total += self->launches->len * sizeof (WsNcuLaunch);
  total += self->rules->len * sizeof (WsNcuRule);
  for (guint i = 0; i < self->metrics->len; i++)
    {
      const WsNcuMetric *m = g_ptr_array_index (self->metrics, i);

      total += sizeof *m + m->n_alloc * sizeof (double);
      total += strlen (m->name) + 1 + (m->section != NULL ? strlen (m->section) + 1 : 0);
      if (m->text != NULL)
        total += m->n_alloc * sizeof (char *);
      if (m->units != NULL)
        total += m->n_alloc * sizeof (char *);
      total +=
        ((m->min != NULL) + (m->max != NULL) + (m->total != NULL)) * m->n_alloc * sizeof (double);
      /* A hash table entry for its key. */
      total += 3 * sizeof (gpointer);
    }
  for (guint i = 0; i < self->launches->len; i++)
    {
      const WsNcuLaunch *l = &g_array_index (self->launches, WsNcuLaunch, i);

      total += strlen (l->kernel) + 1;
    }
  if (self->gauges != NULL)
    total += self->launches->len * sizeof (WsGauges);
  return total;
}

/* Units */

typedef struct
{
  const char *name;
  double ns;
} TimeUnit;

static const TimeUnit time_units[] = {
  { "ns", 1 },   { "nsecond", 1 },   { "us", 1e3 }, { "usecond", 1e3 }, { "µs", 1e3 },
  { "ms", 1e6 }, { "msecond", 1e6 }, { "s", 1e9 },  { "second", 1e9 },  { "sec", 1e9 },
};

static gboolean
time_unit (const char *unit, double *ns)
{
  for (gsize i = 0; i < G_N_ELEMENTS (time_units); i++)
    if (g_str_equal (unit, time_units[i].name))
      {
        *ns = time_units[i].ns;
        return TRUE;
      }
  return FALSE;
}

/* ncu's prefixes are decimal: a Kbyte is 1,000 bytes (checked against the
 * same report exported with --print-units base). */
static gboolean
prefix_scale (char prefix, double *scale)
{
  switch (g_ascii_toupper (prefix))
    {
      case 'K':
        *scale = 1e3;
        return TRUE;
      case 'M':
        *scale = 1e6;
        return TRUE;
      case 'G':
        *scale = 1e9;
        return TRUE;
      case 'T':
        *scale = 1e12;
        return TRUE;
      case 'P':
        *scale = 1e15;
        return TRUE;
      default:
        return FALSE;
    }
}

/* One part of a unit: "Kbyte" → 1000 "byte", "Ghz" → 1e9 "Hz", "us" → 1000 "ns". */
static const char *
normalize_part (const char *part, double *scale)
{
  gsize len = strlen (part);
  double p = 1;

  *scale = 1;
  if (time_unit (part, scale))
    return "ns";
  if (g_str_equal (part, "byte") ||
      (len == 5 && g_str_has_suffix (part, "byte") && prefix_scale (part[0], &p)))
    {
      *scale = p;
      return "byte";
    }
  if (g_ascii_strcasecmp (part, "hz") == 0 ||
      (len == 3 && g_ascii_strcasecmp (part + 1, "hz") == 0 && prefix_scale (part[0], &p)))
    {
      *scale = p;
      return "Hz";
    }
  return NULL;
}

/**
 * ws_ncu_unit_normalize:
 * @unit: a unit as ncu writes it: "us", "Kbyte", "Tbyte/s", "Ghz", "%"
 * @scale: (out): what to multiply a value in @unit by
 * @base_unit: (out) (transfer none): the unit after that, a static string,
 *   or %NULL when @unit is kept as it is (counts: "inst", "cycle", "warp")
 *
 * Time becomes ns, sizes bytes, rates per second ("Gbyte/s" → "byte/s",
 * "sector/us" → "sector/s"), frequencies Hz ("Ghz", "cycle/second").  A
 * prefix under a bar that is not time scales the value as ncu's own
 * --print-units base does: "%/Kbyte" × 1000 → "%/byte".
 *
 * Returns: %TRUE when the unit was changed or is already a base unit
 */
gboolean
ws_ncu_unit_normalize (const char *unit, double *scale, const char **base_unit)
{
  static const char *const rate_units[] = { "byte/s", "ns/s", "Hz" };
  const char *slash;
  g_autofree char *num = NULL;
  const char *den;
  const char *num_base;
  const char *den_base;
  double num_scale, den_scale, den_ns;

  *scale = 1;
  *base_unit = NULL;
  g_return_val_if_fail (unit != NULL, FALSE);

  if (unit[0] == '\0' || g_str_equal (unit, "%"))
    {
      *base_unit = unit[0] == '\0' ? "" : "%";
      return TRUE;
    }
  slash = strchr (unit, '/');
  if (slash == NULL)
    {
      *base_unit = normalize_part (unit, scale);
      return *base_unit != NULL;
    }

  num = g_strndup (unit, slash - unit);
  den = slash + 1;
  num_base = normalize_part (num, &num_scale);
  if (time_unit (den, &den_ns))
    {
      /* A rate: per second, whatever the time it was written per. */
      *scale = num_scale * 1e9 / den_ns;
      if (g_str_equal (num, "cycle"))
        *base_unit = rate_units[2];
      else if (num_base != NULL && g_str_equal (num_base, "byte"))
        *base_unit = rate_units[0];
      else if (num_base != NULL)
        *base_unit = rate_units[1];
      else
        /* "sector/s", "inst/s": counted things per second; interned by the caller. */
        *base_unit = NULL;
      return TRUE;
    }
  den_base = normalize_part (den, &den_scale);
  if (num_base == NULL && den_base == NULL)
    return FALSE;
  *scale = num_scale * den_scale;
  return TRUE;
}

/* The base unit as a string for the results: the static ones, or the
 * counted thing per second, or the unit with its prefixes dropped. */
static const char *
base_unit_for (WsNcuResults *self, const char *unit, double *scale)
{
  const char *base = NULL;
  const char *slash;

  if (!ws_ncu_unit_normalize (unit, scale, &base))
    return ws_ncu_results_intern (self, unit);
  if (base != NULL)
    return base;

  slash = strchr (unit, '/');
  g_assert (slash != NULL);
  {
    g_autofree char *num = g_strndup (unit, slash - unit);
    double s, d;
    const char *num_base = normalize_part (num, &s);
    const char *den_base = normalize_part (slash + 1, &s);
    g_autofree char *joined = NULL;

    if (time_unit (slash + 1, &d))
      joined = g_strdup_printf ("%s/s", num_base != NULL ? num_base : num);
    else
      joined = g_strdup_printf ("%s/%s", num_base != NULL ? num_base : num,
                                den_base != NULL ? den_base : slash + 1);
    return ws_ncu_results_intern (self, joined);
  }
}

/* Building */

/**
 * ws_ncu_results_intern:
 *
 * Returns: (transfer none) (nullable): @str, kept as long as @self
 */
const char *
ws_ncu_results_intern (WsNcuResults *self, const char *str)
{
  if (str == NULL)
    return NULL;
  return g_string_chunk_insert_const (self->strings, str);
}

guint
ws_ncu_results_add_file (WsNcuResults *self, const char *path)
{
  g_ptr_array_add (self->files, g_strdup (path));
  return self->files->len - 1;
}

/* Appends a launch whose strings are interned in @self; returns its index. */
guint
ws_ncu_results_add_launch (WsNcuResults *self, const WsNcuLaunch *launch)
{
  g_return_val_if_fail (!self->finished, 0);

  g_array_append_vals (self->launches, launch, 1);
  return self->launches->len - 1;
}

/**
 * ws_ncu_results_add_metric:
 * @section: (nullable): the details page's section, %NULL for a raw column
 * @alias: (nullable): the raw metric a display name stands for
 *
 * Returns: (transfer none): the metric column, new or already there
 */
WsNcuMetric *
ws_ncu_results_add_metric (WsNcuResults *self, const char *section, const char *name,
                           const char *alias)
{
  g_autofree char *key = details_key (section, name);
  WsNcuMetric *metric = g_hash_table_lookup (self->by_key, key);

  g_return_val_if_fail (!self->finished, NULL);

  if (metric != NULL)
    return metric;

  metric = g_new0 (WsNcuMetric, 1);
  metric->name = ws_ncu_results_intern (self, name);
  metric->section = is_raw_name (name) ? NULL : ws_ncu_results_intern (self, section);
  metric->alias = ws_ncu_results_intern (self, alias);
  g_ptr_array_add (self->metrics, metric);
  g_hash_table_insert (self->by_key, (gpointer) ws_ncu_results_intern (self, key), metric);
  if (metric->alias != NULL)
    {
      GPtrArray *list = g_hash_table_lookup (self->aliases, metric->alias);

      if (list == NULL)
        {
          list = g_ptr_array_new ();
          g_hash_table_insert (self->aliases, (gpointer) metric->alias, list);
        }
      g_ptr_array_add (list, metric);
    }
  return metric;
}

/* Resizes one of the optional per-launch number columns, NaN-filled. */
static void
grow_numbers (double **column, gsize old, gsize n)
{
  if (*column == NULL)
    return;
  *column = g_renew (double, *column, MAX (n, 1));
  for (gsize i = old; i < n; i++)
    (*column)[i] = NAN;
}

static void
grow (WsNcuMetric *metric, gsize need)
{
  gsize old = metric->n_alloc;
  gsize n;

  if (need <= old)
    return;
  n = MAX (need, MAX (old * 2, 4));
  metric->values = g_renew (double, metric->values, n);
  for (gsize i = old; i < n; i++)
    metric->values[i] = NAN;
  if (metric->text != NULL)
    {
      metric->text = g_renew (const char *, metric->text, n);
      memset (metric->text + old, 0, (n - old) * sizeof (char *));
    }
  if (metric->units != NULL)
    {
      metric->units = g_renew (const char *, metric->units, n);
      memset (metric->units + old, 0, (n - old) * sizeof (char *));
    }
  grow_numbers (&metric->min, old, n);
  grow_numbers (&metric->max, old, n);
  grow_numbers (&metric->total, old, n);
  metric->n_alloc = n;
}

/**
 * ws_ncu_results_set_cell:
 * @cell: the value as written: "381.792000", "13,485", "n/a", "PolicySpread"
 * @unit: (nullable): its unit as written ("us"), "" or %NULL for none
 *
 * Stores a cell of @launch, in base units.  The first value a launch gets
 * for a metric stays: a raw and a details export of one report agree.
 */
void
ws_ncu_results_set_cell (WsNcuResults *self, WsNcuMetric *metric, guint launch, const char *cell,
                         const char *unit)
{
  double value;

  g_return_if_fail (!self->finished);

  grow (metric, launch + 1);
  if (!isnan (metric->values[launch]) || (metric->text != NULL && metric->text[launch] != NULL))
    return;
  if (unit == NULL)
    unit = "";

  if (ws_csv_parse_number (cell, &value))
    {
      double scale = 1;
      const char *base = base_unit_for (self, unit, &scale);

      /* The decimal text scaled exactly: "260.48" us is 260480 ns. */
      ws_csv_parse_number_scaled (cell, scale, &value);
      if (metric->unit == NULL)
        {
          metric->unit = ws_ncu_results_intern (self, unit);
          metric->base_unit = base;
        }
      else if (!g_str_equal (metric->unit, unit))
        {
          if (metric->units == NULL)
            metric->units = g_new0 (const char *, metric->n_alloc);
          metric->units[launch] = ws_ncu_results_intern (self, unit);
          if (!g_str_equal (base, metric->base_unit))
            ws_ncu_results_add_warning (self, "%s: unit %s of launch %u does not convert to %s",
                                        metric->name, unit, launch, metric->base_unit);
        }
      metric->values[launch] = value;
      return;
    }

  if (ws_csv_is_missing (cell))
    return;
  if (metric->text == NULL)
    metric->text = g_new0 (const char *, metric->n_alloc);
  metric->text[launch] = ws_ncu_results_intern (self, cell);
}

/**
 * ws_ncu_results_set_value:
 * @value: already in @base_unit
 * @unit: the unit as written ("GB/s"), "" for none
 * @base_unit: (nullable): the unit of @value ("byte/s"); %NULL: @unit
 * @text: (nullable): the cell as written where its words matter ("Low (2)")
 *
 * Stores a value its reader normalised itself (nvprof's units are not
 * ncu's).  The first value a launch gets stays, as with
 * ws_ncu_results_set_cell().
 */
void
ws_ncu_results_set_value (WsNcuResults *self, WsNcuMetric *metric, guint launch, double value,
                          const char *unit, const char *base_unit, const char *text)
{
  g_return_if_fail (!self->finished && unit != NULL);

  grow (metric, launch + 1);
  if (!isnan (metric->values[launch]))
    return;
  if (base_unit == NULL)
    base_unit = unit;
  if (metric->unit == NULL)
    {
      metric->unit = ws_ncu_results_intern (self, unit);
      metric->base_unit = ws_ncu_results_intern (self, base_unit);
    }
  else if (!g_str_equal (metric->unit, unit))
    {
      if (metric->units == NULL)
        metric->units = g_new0 (const char *, metric->n_alloc);
      metric->units[launch] = ws_ncu_results_intern (self, unit);
      if (!g_str_equal (base_unit, metric->base_unit))
        ws_ncu_results_add_warning (self, "%s: unit %s of launch %u does not convert to %s",
                                    metric->name, unit, launch, metric->base_unit);
    }
  metric->values[launch] = value;
  if (text != NULL)
    {
      if (metric->text == NULL)
        metric->text = g_new0 (const char *, metric->n_alloc);
      metric->text[launch] = ws_ncu_results_intern (self, text);
    }
}

static void
set_number (double **column, gsize n_alloc, guint launch, double value)
{
  if (isnan (value))
    return;
  if (*column == NULL)
    {
      *column = g_new (double, n_alloc);
      for (gsize i = 0; i < n_alloc; i++)
        (*column)[i] = NAN;
    }
  (*column)[launch] = value;
}

/**
 * ws_ncu_results_set_range:
 *
 * Keeps nvprof's Min and Max (and an event's Total) of @launch beside its
 * Avg, in the same base unit; NaN where there is none.
 */
void
ws_ncu_results_set_range (WsNcuResults *self, WsNcuMetric *metric, guint launch, double min,
                          double max, double total)
{
  g_return_if_fail (!self->finished);

  grow (metric, launch + 1);
  set_number (&metric->min, metric->n_alloc, launch, min);
  set_number (&metric->max, metric->n_alloc, launch, max);
  set_number (&metric->total, metric->n_alloc, launch, total);
}

void
ws_ncu_results_add_rule (WsNcuResults *self, const WsNcuRule *rule)
{
  g_array_append_vals (self->rules, rule, 1);
}

void
ws_ncu_results_add_warning (WsNcuResults *self, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  g_ptr_array_add (self->warnings, g_strdup_vprintf (format, args));
  va_end (args);
}

/* Gives every column exactly one value per launch. */
void
ws_ncu_results_finish (WsNcuResults *self)
{
  guint n = self->launches->len;

  g_return_if_fail (!self->finished);

  for (guint i = 0; i < self->metrics->len; i++)
    {
      WsNcuMetric *metric = g_ptr_array_index (self->metrics, i);

      /* Launches after the last that had this metric read as NaN. */
      grow (metric, n);
      metric->n_alloc = n;
      metric->values = g_renew (double, metric->values, MAX (n, 1));
      if (metric->text != NULL)
        metric->text = g_renew (const char *, metric->text, MAX (n, 1));
      if (metric->units != NULL)
        metric->units = g_renew (const char *, metric->units, MAX (n, 1));
      grow_numbers (&metric->min, n, n);
      grow_numbers (&metric->max, n, n);
      grow_numbers (&metric->total, n, n);
      if (metric->unit == NULL)
        metric->unit = metric->base_unit = "";
    }

  self->finished = TRUE;
}

static void
expected_free (gpointer data)
{
  WsNcuExpected *e = data;

  if (e == NULL)
    return;
  g_free (e->demangled);
  g_free (e->mangled);
  g_free (e->grid);
  g_free (e->block);
  g_free (e);
}

/**
 * ws_ncu_results_expect:
 * @file: an index into @self->files
 *
 * Records which nsys kernel the report of @file was made for (a capture's
 * run.json says), for ws_ncu_match_run().
 */
void
ws_ncu_results_expect (WsNcuResults *self, guint file, const WsNcuExpected *expected)
{
  WsNcuExpected *copy;

  g_return_if_fail (self != NULL && expected != NULL && file < self->files->len);

  if (self->expected == NULL)
    self->expected = g_ptr_array_new_with_free_func (expected_free);
  while (self->expected->len <= file)
    g_ptr_array_add (self->expected, NULL);
  copy = g_new0 (WsNcuExpected, 1);
  copy->demangled = g_strdup (expected->demangled);
  copy->mangled = g_strdup (expected->mangled);
  copy->grid = g_strdup (expected->grid);
  copy->block = g_strdup (expected->block);
  expected_free (g_ptr_array_index (self->expected, file));
  g_ptr_array_index (self->expected, file) = copy;
}

/**
 * ws_ncu_results_expected:
 *
 * Returns: (transfer none) (nullable): the nsys kernel the report of @file
 * was made for, when a manifest said
 */
const WsNcuExpected *
ws_ncu_results_expected (const WsNcuResults *self, guint file)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (self->expected == NULL || file >= self->expected->len)
    return NULL;
  return g_ptr_array_index (self->expected, file);
}

/**
 * ws_ncu_results_label:
 *
 * Returns: (transfer none): the name @launch goes by in tables and charts:
 * its display name once matched (ws-ncu-match.h), else ncu's own name
 */
const char *
ws_ncu_results_label (const WsNcuResults *self, guint launch)
{
  g_return_val_if_fail (self != NULL && launch < self->launches->len, "");

  if (self->labels != NULL && self->labels[launch] != NULL)
    return self->labels[launch];
  return g_array_index (self->launches, WsNcuLaunch, launch).kernel;
}
