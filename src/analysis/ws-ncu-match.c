/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-ncu-match"
#include "config.h"

#include <math.h>
#include <string.h>

#include "ws-kernel-name.h"
#include "ws-ncu-match.h"

static gboolean
is_ident_start (char c)
{
  return g_ascii_isalpha (c) || c == '_';
}

static gboolean
is_ident (char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

/* "(int)4", "(bool)0", "(unsigned long)1": a cast of a template argument,
 * which nsys prints and ncu does not.  Returns the index after it, or 0. */
static gsize
cast_end (const char *name, gsize i)
{
  gsize j = i + 1;

  while (name[j] != '\0' && (g_ascii_islower (name[j]) || name[j] == ' ' || name[j] == '_'))
    j++;
  if (j == i + 1 || name[j] != ')')
    return 0;
  if (g_ascii_isdigit (name[j + 1]) || (name[j + 1] == '-' && g_ascii_isdigit (name[j + 2])))
    return j + 1;
  return 0;
}

/**
 * ws_ncu_match_key:
 *
 * The name that ncu and nsys agree on: ncu 2025 prints demangled names
 * simplified (--rename-kernels: "at::vectorized_elementwise_kernel<4, …>"
 * where nsys has "at::native::vectorized_elementwise_kernel<(int)4, …>"),
 * so casts of template arguments, every namespace or class qualifier
 * ("at::native::", "<unnamed>::") and all white space are dropped.
 *
 * Returns: (transfer full): the key
 */
char *
ws_ncu_match_key (const char *name)
{
  GString *out = g_string_new (NULL);
  gsize i = 0;

  g_return_val_if_fail (name != NULL, NULL);

  while (name[i] != '\0')
    {
      char c = name[i];
      gsize end;

      if (c == '(' && (end = cast_end (name, i)) > 0)
        {
          i = end;
          continue;
        }
      if (g_str_has_prefix (name + i, "<unnamed>::"))
        {
          i += strlen ("<unnamed>::");
          continue;
        }
      if (g_str_has_prefix (name + i, "(anonymous namespace)::"))
        {
          i += strlen ("(anonymous namespace)::");
          continue;
        }
      if (is_ident_start (c))
        {
          gsize j = i;

          while (is_ident (name[j]))
            j++;
          if (name[j] == ':' && name[j + 1] == ':')
            i = j + 2;
          else
            {
              g_string_append_len (out, name + i, j - i);
              i = j;
            }
          continue;
        }
      if (!g_ascii_isspace (c))
        g_string_append_c (out, c);
      i++;
    }
  return g_string_free (out, FALSE);
}

/**
 * ws_ncu_match_base:
 *
 * The function's own name: no return type, template arguments, parameters
 * or qualifiers ("vectorized_elementwise_kernel").
 *
 * Returns: (transfer full): the base name
 */
char *
ws_ncu_match_base (const char *name)
{
  g_autofree char *base = ws_kernel_name_normalize (name);

  return ws_ncu_match_key (base);
}

typedef struct
{
  const WsRun *run;
  GHashTable *exact;  /* demangled or mangled name → name id + 1 */
  GHashTable *shorts; /* short name → GArray of name ids */
  GHashTable *keys;   /* ws_ncu_match_key → GArray of name ids */
  GHashTable *bases;  /* ws_ncu_match_base → GArray of name ids */
} Index;

static void
add_to_list (GHashTable *table, char *key, guint32 id)
{
  GArray *list = g_hash_table_lookup (table, key);

  if (list == NULL)
    {
      list = g_array_new (FALSE, FALSE, sizeof (guint32));
      g_hash_table_insert (table, key, list);
    }
  else
    g_free (key);
  for (guint i = 0; i < list->len; i++)
    if (g_array_index (list, guint32, i) == id)
      return;
  g_array_append_val (list, id);
}

static void
index_init (Index *index, const WsRun *run)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);

  index->run = run;
  index->exact = g_hash_table_new (g_str_hash, g_str_equal);
  index->shorts =
    g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
  index->keys =
    g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
  index->bases =
    g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);

  for (gsize k = 0; k < run->kernels.n; k++)
    {
      guint32 id = run->kernels.demangled[k];
      const char *name;

      if (!g_hash_table_add (seen, GUINT_TO_POINTER (id + 1)))
        continue;
      name = ws_run_string (run, id);
      g_hash_table_insert (index->exact, (gpointer) name, GUINT_TO_POINTER (id + 1));
      if (run->kernels.mangled != NULL && run->kernels.mangled[k] != WS_STRING_NONE)
        g_hash_table_insert (index->exact, (gpointer) ws_run_string (run, run->kernels.mangled[k]),
                             GUINT_TO_POINTER (id + 1));
      if (run->kernels.short_name != NULL)
        add_to_list (index->shorts, g_strdup (ws_run_string (run, run->kernels.short_name[k])), id);
      add_to_list (index->keys, ws_ncu_match_key (name), id);
      add_to_list (index->bases, ws_ncu_match_base (name), id);
    }
}

static void
index_clear (Index *index)
{
  g_clear_pointer (&index->exact, g_hash_table_unref);
  g_clear_pointer (&index->shorts, g_hash_table_unref);
  g_clear_pointer (&index->keys, g_hash_table_unref);
  g_clear_pointer (&index->bases, g_hash_table_unref);
}

/* "(256, 1, 1)" */
static gboolean
parse_dim3 (const char *text, guint32 dim[3])
{
  const char *p = text;

  if (p == NULL || *p++ != '(')
    return FALSE;
  for (int i = 0; i < 3; i++)
    {
      char *end = NULL;
      guint64 v = g_ascii_strtoull (p, &end, 10);

      if (end == p || v > G_MAXUINT32)
        return FALSE;
      dim[i] = (guint32) v;
      p = end;
      while (*p == ',' || *p == ' ')
        p++;
    }
  return *p == ')';
}

/* Of several nsys names that fit, the one launched with the launch's grid
 * and block, if exactly one was. */
static gboolean
pick_by_config (const Index *index, const WsNcuLaunch *launch, GArray *ids, guint32 *picked)
{
  const WsRun *run = index->run;
  guint32 grid[3], block[3];
  guint n_fit = 0;

  if (run->kernels.config == NULL || !parse_dim3 (launch->grid, grid) ||
      !parse_dim3 (launch->block, block))
    return FALSE;
  for (guint i = 0; i < ids->len; i++)
    {
      guint32 id = g_array_index (ids, guint32, i);

      for (gsize k = 0; k < run->kernels.n; k++)
        {
          const WsLaunchConfig *config;

          if (run->kernels.demangled[k] != id)
            continue;
          config = ws_run_kernel_config (run, k);
          if (memcmp (config->grid, grid, sizeof grid) == 0 &&
              memcmp (config->block, block, sizeof block) == 0)
            {
              *picked = id;
              n_fit++;
              break;
            }
        }
    }
  return n_fit == 1;
}

/* Picks from @ids: the only one, or the only one with the launch's config. */
static gboolean
pick (const Index *index, const WsNcuLaunch *launch, GArray *ids, guint32 *id, const char **why)
{
  if (ids == NULL || ids->len == 0)
    return FALSE;
  if (ids->len == 1)
    {
      *id = g_array_index (ids, guint32, 0);
      return TRUE;
    }
  if (pick_by_config (index, launch, ids, id))
    return TRUE;
  *why = "several nsys kernels fit the name, none alone by grid and block";
  return FALSE;
}

static void
match_launch (WsNcuResults *results, const Index *index, guint i)
{
  const WsNcuLaunch *launch = ws_ncu_results_launch (results, i);
  WsNcuMatch *match = &results->match[i];
  g_autofree char *key = NULL;
  g_autofree char *base = NULL;
  gpointer found;
  guint32 id = WS_STRING_NONE;
  const char *why = NULL;

  found = g_hash_table_lookup (index->exact, launch->kernel);
  if (found != NULL)
    {
      id = GPOINTER_TO_UINT (found) - 1;
      match->kind = WS_NCU_MATCH_EXACT;
    }
  else if (pick (index, launch, g_hash_table_lookup (index->shorts, launch->kernel), &id, &why))
    match->kind = WS_NCU_MATCH_EXACT;
  else if ((key = ws_ncu_match_key (launch->kernel)) != NULL &&
           pick (index, launch, g_hash_table_lookup (index->keys, key), &id, &why))
    match->kind = WS_NCU_MATCH_NORMALIZED;
  else if ((base = ws_ncu_match_base (launch->kernel)) != NULL &&
           pick (index, launch, g_hash_table_lookup (index->bases, base), &id, &why))
    match->kind = WS_NCU_MATCH_BASE;
  else
    {
      match->kind = WS_NCU_MATCH_UNMATCHED;
      match->why = why != NULL ? why : "no nsys kernel has this name";
      return;
    }
  match->nsys_name = ws_ncu_results_intern (results, ws_run_string (index->run, id));
}

/**
 * ws_ncu_match_run:
 *
 * Matches each profiled launch to a kernel of @run (the rule is in
 * docs/NOTES.md, "Matching ncu kernels to nsys kernels").  Launches that
 * fit no kernel are kept and marked %WS_NCU_MATCH_UNMATCHED with why.
 */
void
ws_ncu_match_run (WsNcuResults *results, const WsRun *run)
{
  guint n;
  Index index = { 0 };

  g_return_if_fail (results != NULL && run != NULL);

  n = ws_ncu_results_n_launches (results);
  g_free (results->match);
  results->match = g_new0 (WsNcuMatch, MAX (n, 1));

  if (run->kernels.n == 0 || run->kernels.demangled == NULL)
    {
      for (guint i = 0; i < n; i++)
        {
          results->match[i].kind = WS_NCU_MATCH_UNMATCHED;
          results->match[i].why = "the nsys run has no CUDA kernels";
        }
      return;
    }

  index_init (&index, run);
  for (guint i = 0; i < n; i++)
    match_launch (results, &index, i);
  index_clear (&index);
}

/**
 * ws_ncu_match_unmatched:
 *
 * Returns: (transfer full) (element-type guint): the launches that fit no
 * nsys kernel, in order
 */
GArray *
ws_ncu_match_unmatched (const WsNcuResults *results)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; results->match != NULL && i < results->launches->len; i++)
    if (results->match[i].kind == WS_NCU_MATCH_UNMATCHED)
      g_array_append_val (out, i);
  return out;
}

/**
 * ws_ncu_match_launch_for:
 * @nsys_name: a kernel's demangled name in the nsys run
 *
 * The longest profiled launch of that kernel: the one whose gauges a
 * kernel's details show.  Without an nsys match, ncu's own name is compared.
 *
 * Returns: the launch's index, or -1 when no launch of it was profiled
 */
int
ws_ncu_match_launch_for (const WsNcuResults *results, const char *nsys_name)
{
  int found = -1;
  double longest = -1;

  g_return_val_if_fail (results != NULL && nsys_name != NULL, -1);

  for (guint i = 0; i < results->launches->len; i++)
    {
      const char *name = results->match != NULL
                           ? results->match[i].nsys_name
                           : g_array_index (results->launches, WsNcuLaunch, i).kernel;
      const WsGauge *duration = &ws_ncu_results_gauges (results, i)->gauge[WS_GAUGE_DURATION];
      double d = duration->collected ? duration->value : 0;

      if (name != NULL && g_str_equal (name, nsys_name) && d > longest)
        {
          longest = d;
          found = (int) i;
        }
    }
  return found;
}

/**
 * ws_ncu_match_verdict_for:
 * @nsys_name: a kernel's demangled name in the nsys run
 *
 * The verdict of the kernel's longest profiled launch, for colouring the
 * kernel bars.
 *
 * Returns: the verdict, or %WS_VERDICT_NONE when no launch of it was profiled
 */
WsVerdict
ws_ncu_match_verdict_for (const WsNcuResults *results, const char *nsys_name)
{
  int launch = ws_ncu_match_launch_for (results, nsys_name);

  return launch >= 0 ? ws_ncu_results_gauges (results, (guint) launch)->verdict : WS_VERDICT_NONE;
}

/**
 * ws_ncu_match_attach:
 *
 * Gives @run the ncu results of the same program and matches them to its
 * kernels.  The results then belong to @run: attach them to one run only.
 */
void
ws_ncu_match_attach (WsRun *run, WsNcuResults *ncu)
{
  g_return_if_fail (run != NULL && ncu != NULL);

  ws_ncu_results_ref (ncu);
  g_clear_pointer (&run->ncu, ws_ncu_results_unref);
  run->ncu = ncu;
  ws_ncu_match_run (ncu, run);
  for (guint i = 0; i < ncu->files->len; i++)
    g_ptr_array_add (run->prov.files, g_strdup (g_ptr_array_index (ncu->files, i)));
}

/**
 * ws_ncu_match_launches_by_name:
 * @run: the nsys run the results are attached to
 * @form: the name form the kernel bars show
 *
 * The longest profiled launch of each kernel of @run, keyed by the
 * kernel's name in @form: the launch whose gauges and verdict stand for
 * the kernel.  Where several kernels share one short name, the longest
 * launch of them all.
 *
 * Returns: (transfer full): name → GINT_TO_POINTER (launch + 1); empty
 * when nothing matched
 */
GHashTable *
ws_ncu_match_launches_by_name (const WsNcuResults *results, const WsRun *run, WsNameForm form)
{
  g_autoptr (GHashTable) form_of = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) longest = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);
  GHashTable *launches = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  g_return_val_if_fail (results != NULL && run != NULL, launches);

  /* The demangled name of each distinct kernel, to its name in @form. */
  for (gsize i = 0; run->kernels.demangled != NULL && i < run->kernels.n; i++)
    {
      guint32 id = run->kernels.demangled[i];

      if (g_hash_table_contains (seen, GUINT_TO_POINTER (id)))
        continue;
      g_hash_table_add (seen, GUINT_TO_POINTER (id));
      g_hash_table_insert (form_of, (gpointer) ws_run_string (run, id),
                           (gpointer) ws_run_kernel_name (run, i, form));
    }

  for (guint i = 0; i < results->launches->len; i++)
    {
      const char *nsys_name = results->match != NULL ? results->match[i].nsys_name : NULL;
      const char *name = nsys_name != NULL ? g_hash_table_lookup (form_of, nsys_name) : NULL;
      const WsGauges *gauges = ws_ncu_results_gauges (results, i);
      const WsGauge *duration = &gauges->gauge[WS_GAUGE_DURATION];
      double d = duration->collected ? duration->value : 0;
      double *best;

      if (name == NULL)
        continue;
      best = g_hash_table_lookup (longest, name);
      if (best != NULL && *best >= d)
        continue;
      if (best == NULL)
        {
          best = g_new (double, 1);
          g_hash_table_insert (longest, (gpointer) name, best);
        }
      *best = d;
      g_hash_table_insert (launches, g_strdup (name), GINT_TO_POINTER (i + 1));
    }
  return launches;
}
