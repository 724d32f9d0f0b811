/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-critical"
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ws-ranks.h"
#include "ws-what-if.h"

void
ws_what_if_free (WsWhatIf *self)
{
  if (self == NULL)
    return;
  g_free (self->text);
  g_free (self->pattern);
  g_free (self);
}

/* "0.5x", "x0.5", "-30%", "+10%", "-15ms", "+200us", "-500ns", "-1s". */
static gboolean
parse_amount (WsWhatIf *self, const char *text)
{
  static const struct
  {
    const char *unit;
    double ns;
  } units[] = {
    { "ns", 1.0 }, { "us", 1e3 }, { "\xc2\xb5s", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
  };
  char *end = NULL;
  double value;

  if (text[0] == 'x' || text[0] == 'X')
    {
      value = g_ascii_strtod (text + 1, &end);
      if (end == text + 1 || *end != '\0' || !isfinite (value) || value < 0)
        return FALSE;
      self->factor = value;
      return TRUE;
    }
  value = g_ascii_strtod (text, &end);
  if (end == text || !isfinite (value))
    return FALSE;
  if ((end[0] == 'x' || end[0] == 'X') && end[1] == '\0')
    {
      if (value < 0)
        return FALSE;
      self->factor = value;
      return TRUE;
    }
  /* A change by a percentage or a time carries its sign. */
  if (text[0] != '-' && text[0] != '+')
    return FALSE;
  if (strcmp (end, "%") == 0)
    {
      if (value < -100)
        return FALSE;
      self->factor = 1.0 + value / 100.0;
      return TRUE;
    }
  for (gsize i = 0; i < G_N_ELEMENTS (units); i++)
    if (strcmp (end, units[i].unit) == 0)
      {
        double ns = value * units[i].ns;

        if (fabs (ns) > 1e15)
          return FALSE;
        self->delta = (gint64) llround (ns);
        self->factor = 1.0;
        return self->delta != 0;
      }
  return FALSE;
}

/**
 * ws_what_if_parse:
 * @text: TARGET:NAME[@rankN]=AMOUNT
 * @error: where a bad change is said, in one line that quotes it
 *
 * Returns: (transfer full) (nullable): the change, or %NULL with @error set
 */
WsWhatIf *
ws_what_if_parse (const char *text, GError **error)
{
  g_autoptr (WsWhatIf) self = g_new0 (WsWhatIf, 1);
  g_autofree char *target = NULL;
  g_autofree char *name = NULL;
  const char *colon, *equals, *at;

  g_return_val_if_fail (text != NULL, NULL);

  self->text = g_strdup (text);
  self->rank = -1;
  colon = strchr (text, ':');
  equals = strrchr (text, '=');
  if (colon == NULL || equals == NULL || equals < colon)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _ ("what-if “%s”: write TARGET:NAME=AMOUNT, such as kernel:*gemm*=0.5x or "
                      "nvtx:data@rank3=-15ms"),
                   text);
      return NULL;
    }
  target = g_strndup (text, (gsize) (colon - text));
  if (strcmp (target, "kernel") == 0)
    self->target = WS_WHAT_IF_KERNEL;
  else if (strcmp (target, "nvtx") == 0)
    self->target = WS_WHAT_IF_NVTX;
  else if (strcmp (target, "range") == 0)
    self->target = WS_WHAT_IF_RANGE;
  else
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _ ("what-if “%s”: “%s” is not kernel, nvtx or range"), text, target);
      return NULL;
    }
  name = g_strndup (colon + 1, (gsize) (equals - colon - 1));
  at = strrchr (name, '@');
  if (at != NULL)
    {
      const char *digits = g_str_has_prefix (at + 1, "rank") ? at + 5 : at + 1;
      char *end = NULL;
      guint64 rank;

      rank = g_ascii_strtoull (digits, &end, 10);
      if (end == digits || *end != '\0' || rank > G_MAXINT16)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _ ("what-if “%s”: after @ comes a rank, such as @rank3"), text);
          return NULL;
        }
      self->rank = (gint) rank;
      self->pattern = g_strndup (name, (gsize) (at - name));
    }
  else
    self->pattern = g_strdup (name);
  if (self->pattern[0] == '\0')
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _ ("what-if “%s”: no name between : and ="), text);
      return NULL;
    }
  if (!parse_amount (self, equals + 1))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _ ("what-if “%s”: “%s” is not an amount: a factor (0.5x), a signed "
                      "percentage (-30%%) or a signed time (-15ms, +200us)"),
                   text, equals + 1);
      return NULL;
    }
  return g_steal_pointer (&self);
}

static gdouble
changed (const WsWhatIf *self, gint64 w)
{
  return self->delta != 0 ? (gdouble) w + (gdouble) self->delta : (gdouble) w * self->factor;
}

/* The rank index a change is limited to: -1 for every rank, -2 for a rank
 * the run does not have. */
static gint
rank_index (const WsWhatIf *self, const WsCpGraph *graph)
{
  gint index;

  if (self->rank < 0)
    return -1;
  if (graph->run->ranks == NULL)
    return self->rank == 0 ? 0 : -2;
  index = ws_ranks_index_of (graph->run->ranks, (guint) self->rank);
  return index >= 0 ? index : -2;
}

static gboolean
kernel_matches (const WsRun *run, gsize k, GPatternSpec *spec)
{
  static const WsNameForm forms[] = { WS_NAME_DEMANGLED, WS_NAME_SHORT };

  for (gsize f = 0; f < G_N_ELEMENTS (forms); f++)
    {
      const char *name = ws_run_kernel_name (run, k, forms[f]);

      if (name != NULL && g_pattern_spec_match_string (spec, name))
        return TRUE;
      if (forms[f] == WS_NAME_DEMANGLED && name != NULL)
        {
          const char *shown = ws_run_kernel_display (run, name);

          if (shown != NULL && g_pattern_spec_match_string (spec, shown))
            return TRUE;
        }
    }
  return FALSE;
}

/* An operation takes @self's change: its duration, and at a collective's
 * end its time after the last arrival. */
static void
change_op (const WsWhatIf *self, const WsCpGraph *g, guint32 op, gint64 *weights)
{
  guint32 end = g->op_end[op];

  for (gsize e = g->first[end]; e < g->first[end + 1]; e++)
    if (g->edge[e] == WS_CP_EDGE_DURATION || g->edge[e] == WS_CP_EDGE_COLLECTIVE)
      weights[e] = (gint64) MAX (0.0, round (changed (self, weights[e])));
}

static gsize
apply_kernels (const WsWhatIf *self, const WsCpGraph *g, gint rank, gint64 *weights)
{
  const WsRun *run = g->run;
  g_autoptr (GHashTable) verdict = g_hash_table_new (NULL, NULL);
  GPatternSpec *spec = g_pattern_spec_new (self->pattern);
  gsize n = 0;

  for (guint32 op = 0; op < g->n_ops; op++)
    {
      guint32 k = g->op_index[op];
      guint32 name;
      gpointer known;

      if (g->op_table[op] != WS_CP_OP_KERNEL ||
          (rank >= 0 && g->rank[g->op_start[op]] != (guint) rank))
        continue;
      name = ws_run_kernel_name_id (run, k, WS_NAME_DEMANGLED);
      if (!g_hash_table_lookup_extended (verdict, GUINT_TO_POINTER (name), NULL, &known))
        {
          known = GINT_TO_POINTER (kernel_matches (run, k, spec));
          g_hash_table_insert (verdict, GUINT_TO_POINTER (name), known);
        }
      if (!GPOINTER_TO_INT (known))
        continue;
      change_op (self, g, op, weights);
      n++;
    }
  g_pattern_spec_free (spec);
  return n;
}

/* The chain edge from host point @a into host point @b, or -1. */
static gssize
chain_edge (const WsCpGraph *g, guint32 a, guint32 b)
{
  for (gsize e = g->first[b]; e < g->first[b + 1]; e++)
    if (g->edge[e] == WS_CP_EDGE_CHAIN && g->src[e] == a)
      return (gssize) e;
  return -1;
}

/* One instance of a range: its thread's time in it, changed. */
static void
change_host_time (const WsWhatIf *self, const WsCpGraph *g, guint32 thread, gint64 start,
                  gint64 end, gint64 *weights)
{
  gsize lo = g->host_first[thread], hi = g->host_first[thread + 1];
  gsize first;
  double total = 0, cut;

  /* The first point at or after the range's start. */
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (g->t[g->host[mid]] < start)
        lo = mid + 1;
      else
        hi = mid;
    }
  first = lo;
  for (int pass = 0; pass < 2; pass++)
    {
      for (gsize i = MAX (first, g->host_first[thread] + 1); i < g->host_first[thread + 1]; i++)
        {
          guint32 a = g->host[i - 1], b = g->host[i];
          gint64 in = MIN (g->t[b], end) - MAX (g->t[a], start);
          gssize e;

          if (g->t[a] >= end)
            break;
          if (in <= 0 || (e = chain_edge (g, a, b)) < 0)
            continue;
          if (pass == 0)
            total += (double) in;
          else
            {
              if (self->delta != 0)
                cut = total > 0 ? -(double) self->delta * (double) in / total : 0;
              else
                cut = (double) in * (1.0 - self->factor);
              weights[e] = (gint64) MAX (0.0, round ((double) weights[e] - cut));
            }
        }
      if (total <= 0)
        break;
    }
}

static gsize
apply_ranges (const WsWhatIf *self, const WsCpGraph *g, gint rank, gint64 *weights)
{
  const WsRun *run = g->run;
  g_autoptr (GHashTable) verdict = g_hash_table_new (NULL, NULL);
  GPatternSpec *spec = g_pattern_spec_new (self->pattern);
  g_autoptr (GArray) picked = g_array_new (FALSE, FALSE, sizeof (guint32));
  gsize n = 0;

  for (gsize i = 0; i < run->nvtx.n; i++)
    {
      guint32 thread = run->nvtx.thread[i];
      gpointer known;
      gint r = 0;
      gint64 shift;

      if (!g_hash_table_lookup_extended (verdict, GUINT_TO_POINTER (run->nvtx.name[i]), NULL,
                                         &known))
        {
          known = GINT_TO_POINTER (
            g_pattern_spec_match_string (spec, ws_run_string (run, run->nvtx.name[i])));
          g_hash_table_insert (verdict, GUINT_TO_POINTER (run->nvtx.name[i]), known);
        }
      if (!GPOINTER_TO_INT (known) || g->host_first[thread] == g->host_first[thread + 1])
        continue;
      r = g->rank[g->host[g->host_first[thread]]];
      if (rank >= 0 && r != rank)
        continue;
      shift = g->shift[r];
      change_host_time (self, g, thread, run->nvtx.start[i] + shift, run->nvtx.end[i] + shift,
                        weights);
      g_array_append_val (picked, i);
      n++;
    }
  if (self->target == WS_WHAT_IF_RANGE)
    for (guint32 op = 0; op < g->n_ops; op++)
      {
        gssize c = g->op_launch[op];

        if (c < 0)
          continue;
        for (guint k = 0; k < picked->len; k++)
          {
            guint32 i = g_array_index (picked, guint32, k);

            if (run->api.thread[c] == run->nvtx.thread[i] &&
                run->api.start[c] >= run->nvtx.start[i] && run->api.start[c] < run->nvtx.end[i])
              {
                change_op (self, g, op, weights);
                break;
              }
          }
      }
  g_pattern_spec_free (spec);
  return n;
}

/**
 * ws_what_if_apply:
 * @self: the change
 * @graph: the graph it is tried on
 * @weights: the graph's edge weights, changed in place
 *
 * Returns: how many kernels or range instances the change touched
 */
gsize
ws_what_if_apply (const WsWhatIf *self, const WsCpGraph *graph, gint64 *weights)
{
  gint rank;

  g_return_val_if_fail (self != NULL && graph != NULL && weights != NULL, 0);

  rank = rank_index (self, graph);
  if (rank == -2)
    return 0;
  if (self->target == WS_WHAT_IF_KERNEL)
    return apply_kernels (self, graph, rank, weights);
  return apply_ranges (self, graph, rank, weights);
}

/**
 * ws_what_if_for_name:
 * @target: "kernel" or "nvtx"
 * @name: a kernel's or range's name, as the run has it
 * @rank: its rank's number, or -1 outside a job
 * @amount: "0.5x", "0x", …
 *
 * Returns: (transfer full): the change that touches @name (its `*`, `?`,
 * `[`, `@` and `=` taken as `?`), on @rank alone in a job: what a context
 * menu asks
 */
char *
ws_what_if_for_name (const char *target, const char *name, gint rank, const char *amount)
{
  g_autofree char *glob = g_strdup (name);

  for (char *p = glob; *p != '\0'; p++)
    if (*p == '*' || *p == '?' || *p == '[' || *p == '@' || *p == '=')
      *p = '?';
  if (rank >= 0)
    return g_strdup_printf ("%s:%s@rank%d=%s", target, glob, rank, amount);
  return g_strdup_printf ("%s:%s=%s", target, glob, amount);
}
