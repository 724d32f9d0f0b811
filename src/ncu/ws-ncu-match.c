/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-ncu-match"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ws-kernel-display.h"
#include "ws-kernel-name.h"
#include "ws-ncu-match.h"
#include "ws-run-build.h"

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

/* "(int)4", "(bool)0", "(unsigned long)1", "(cudnnKernelDataType_t)2",
 * "(cutlass::FloatRoundStyle)2": a cast of a template argument, which nsys
 * prints and ncu does not.  Returns the index after it, or 0. */
static gsize
cast_end (const char *name, gsize i)
{
  gsize j = i + 1;

  while (name[j] != '\0' && (is_ident (name[j]) || name[j] == ' ' || name[j] == ':'))
    j++;
  if (j == i + 1 || !is_ident_start (name[i + 1]) || name[j] != ')')
    return 0;
  if (g_ascii_isdigit (name[j + 1]) || (name[j + 1] == '-' && g_ascii_isdigit (name[j + 2])))
    return j + 1;
  return 0;
}

/* An integer literal at @i ("4", "4u", "1ul", "-1LL"): appends its digits
 * to @out without the suffix and returns the index after it. */
static gsize
append_integer (GString *out, const char *name, gsize i)
{
  gsize j = i;

  while (g_ascii_isdigit (name[j]))
    j++;
  g_string_append_len (out, name + i, j - i);
  if (name[j] == '.' || name[j] == 'x' || name[j] == 'X')
    return j;
  {
    gsize k = j;

    while (name[k] == 'u' || name[k] == 'U' || name[k] == 'l' || name[k] == 'L')
      k++;
    if (!is_ident (name[k]))
      j = k;
  }
  return j;
}

/**
 * ws_ncu_match_key:
 *
 * The name that ncu and nsys agree on: ncu 2025 prints demangled names
 * simplified (--rename-kernels: "at::vectorized_elementwise_kernel<4, …>"
 * where nsys has "at::native::vectorized_elementwise_kernel<(int)4, …>"),
 * so casts of template arguments ("(bool)0", "(cudnnKernelDataType_t)2"),
 * integer suffixes ("1ul"), every namespace or class qualifier
 * ("at::native::", "<unnamed>::", "cudnn::engines_precompiled::"), the
 * brackets around lambdas and all white space are dropped, and "true" and
 * "false" read as 1 and 0.
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
      /* ncu's function form cuts "<unnamed>::" to "unnamed>::". */
      if (g_str_has_prefix (name + i, "unnamed>::") && (i == 0 || !is_ident (name[i - 1])))
        {
          i += strlen ("unnamed>::");
          continue;
        }
      /* …and "const::[lambda() (instance 7)]" to "lambda() (instance 7)]":
       * the brackets of lambdas tell nothing, so neither side keeps them. */
      if (c == '[' || c == ']')
        {
          i++;
          continue;
        }
      if (g_ascii_isdigit (c) && (i == 0 || !is_ident (name[i - 1])))
        {
          i = append_integer (out, name, i);
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
              /* A template argument "true" is nsys's "(bool)1". */
              if (j - i == 4 && strncmp (name + i, "true", 4) == 0)
                g_string_append_c (out, '1');
              else if (j - i == 5 && strncmp (name + i, "false", 5) == 0)
                g_string_append_c (out, '0');
              else
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
 * ws_ncu_match_function_key:
 *
 * The key of the function alone: ncu's function form
 * ("unnamed>::vectorized_layer_norm_kernel<BFloat16, float, 0>") has no
 * return type or parameters where nsys has both.
 *
 * Returns: (transfer full): the key
 */
char *
ws_ncu_match_function_key (const char *name)
{
  g_autofree char *plain = g_strdup (name);
  g_autofree char *function = NULL;
  char *to = plain;

  /* ncu drops the "[" of a lambda and keeps its "]": without either, the
   * brackets balance again and the return type and parameters can be told. */
  for (const char *from = name; *from != '\0'; from++)
    if (*from != '[' && *from != ']')
      *to++ = *from;
  *to = '\0';
  function = ws_kernel_name_simplify (plain);
  return ws_ncu_match_key (function[0] != '\0' ? function : plain);
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
  GHashTable *exact;        /* demangled or mangled name → name id + 1 */
  GHashTable *shorts;       /* short name → GArray of name ids */
  GHashTable *keys;         /* ws_ncu_match_key → GArray of name ids */
  GHashTable *functions;    /* ws_ncu_match_function_key → GArray of name ids */
  GHashTable *bases;        /* ws_ncu_match_base → GArray of name ids */
  GArray *ids;              /* every distinct demangled name id */
  GPtrArray *function_keys; /* the function key of each of @ids */
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
  index->functions =
    g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
  index->ids = g_array_new (FALSE, FALSE, sizeof (guint32));
  index->function_keys = g_ptr_array_new_with_free_func (g_free);

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
      g_array_append_val (index->ids, id);
      g_ptr_array_add (index->function_keys, ws_ncu_match_function_key (name));
      add_to_list (index->functions,
                   g_strdup (g_ptr_array_index (index->function_keys, index->ids->len - 1)), id);
    }
}

static void
index_clear (Index *index)
{
  g_clear_pointer (&index->exact, g_hash_table_unref);
  g_clear_pointer (&index->shorts, g_hash_table_unref);
  g_clear_pointer (&index->keys, g_hash_table_unref);
  g_clear_pointer (&index->bases, g_hash_table_unref);
  g_clear_pointer (&index->functions, g_hash_table_unref);
  g_clear_pointer (&index->ids, g_array_unref);
  g_clear_pointer (&index->function_keys, g_ptr_array_unref);
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

/* The first start of kernel @id launched with @grid and @block, or -1. */
static gint64
first_start_with (const WsRun *run, guint32 id, const guint32 grid[3], const guint32 block[3])
{
  gint64 first = -1;

  for (gsize k = 0; k < run->kernels.n; k++)
    {
      const WsLaunchConfig *config;

      if (run->kernels.demangled[k] != id)
        continue;
      config = ws_run_kernel_config (run, k);
      if (config != NULL && memcmp (config->grid, grid, 3 * sizeof (guint32)) == 0 &&
          memcmp (config->block, block, 3 * sizeof (guint32)) == 0 &&
          (first < 0 || run->kernels.start[k] < first))
        first = run->kernels.start[k];
    }
  return first;
}

typedef struct
{
  guint32 id;
  gint64 start;
} Fit;

static int
compare_fits (gconstpointer a, gconstpointer b)
{
  const Fit *x = a, *y = b;

  return x->start < y->start ? -1 : x->start > y->start ? 1 : 0;
}

/* Of several nsys names that fit, the one launched with the launch's grid
 * and block if exactly one was; where several were, order decides: ncu
 * profiles launches in the order the program makes them, so the n-th ncu
 * launch of a name and configuration is taken for the n-th of those
 * kernels by first launch, round and round (a loop profiled twice). */
static gboolean
pick_by_config (const Index *index, const WsNcuResults *results, guint launch, GArray *ids,
                guint32 *picked)
{
  const WsRun *run = index->run;
  const WsNcuLaunch *l = ws_ncu_results_launch (results, launch);
  g_autoptr (GArray) fits = g_array_new (FALSE, FALSE, sizeof (Fit));
  guint32 grid[3], block[3];
  guint before = 0;

  if (run->kernels.config == NULL || !parse_dim3 (l->grid, grid) || !parse_dim3 (l->block, block))
    return FALSE;
  for (guint i = 0; i < ids->len; i++)
    {
      Fit fit = { g_array_index (ids, guint32, i), 0 };

      fit.start = first_start_with (run, fit.id, grid, block);
      if (fit.start >= 0)
        g_array_append_val (fits, fit);
    }
  if (fits->len == 0)
    return FALSE;
  g_array_sort (fits, compare_fits);
  for (guint j = 0; j < launch; j++)
    {
      const WsNcuLaunch *other = ws_ncu_results_launch (results, j);

      if (g_str_equal (other->kernel, l->kernel) && g_strcmp0 (other->grid, l->grid) == 0 &&
          g_strcmp0 (other->block, l->block) == 0)
        before++;
    }
  *picked = g_array_index (fits, Fit, before % fits->len).id;
  return TRUE;
}

/* Picks from @ids: the only one, or by the launch's config and order. */
static gboolean
pick (const Index *index, const WsNcuResults *results, guint launch, GArray *ids, guint32 *id,
      const char **why)
{
  if (ids == NULL || ids->len == 0)
    return FALSE;
  if (ids->len == 1)
    {
      *id = g_array_index (ids, guint32, 0);
      return TRUE;
    }
  if (pick_by_config (index, results, launch, ids, id))
    return TRUE;
  *why = "several nsys kernels fit the name, none alone by grid and block";
  return FALSE;
}

/* The manifest's kernel for the launch's report, when its name agrees with
 * the launch (ncu's regex may have caught others).  The grid and block the
 * manifest records are those the kernel ran with most; ncu may have
 * profiled another launch of it, so they decide nothing. */
static gboolean
pick_expected (const Index *index, const WsNcuResults *results, const WsNcuLaunch *launch,
               guint32 *id)
{
  const WsNcuExpected *expected = ws_ncu_results_expected (results, launch->file);
  g_autofree char *base = NULL;
  g_autofree char *expected_base = NULL;
  gpointer found;

  if (expected == NULL || expected->demangled == NULL)
    return FALSE;
  found = g_hash_table_lookup (index->exact, expected->demangled);
  if (found == NULL)
    return FALSE;
  base = ws_ncu_match_base (launch->kernel);
  expected_base = ws_ncu_match_base (expected->demangled);
  if (g_strcmp0 (expected->mangled, launch->kernel) != 0 && !g_str_equal (base, expected_base))
    return FALSE;
  *id = GPOINTER_TO_UINT (found) - 1;
  return TRUE;
}

/* The nsys kernel whose function key shares the longest start with the
 * launch's, for the list of launches that match nothing. */
static void
find_closest (WsNcuResults *results, const Index *index, const char *kernel, WsNcuMatch *match)
{
  g_autofree char *key = ws_ncu_match_function_key (kernel);
  gsize best_common = 0, key_len = strlen (key);
  gssize best = -1;
  gsize best_len_gap = G_MAXSIZE;

  for (guint i = 0; i < index->ids->len; i++)
    {
      const char *other = g_ptr_array_index (index->function_keys, i);
      gsize common = 0, len = strlen (other);
      gsize gap = len > key_len ? len - key_len : key_len - len;

      while (key[common] != '\0' && key[common] == other[common])
        common++;
      if (common > best_common || (common == best_common && best >= 0 && gap < best_len_gap))
        {
          best_common = common;
          best_len_gap = gap;
          best = i;
        }
    }
  if (best < 0)
    return;
  {
    const char *other = g_ptr_array_index (index->function_keys, best);
    g_autofree char *differs = NULL;

    match->closest = ws_ncu_results_intern (
      results, ws_run_string (index->run, g_array_index (index->ids, guint32, best)));
    /* TRANSLATORS: where two normalised kernel names part: the character, then what
     * follows in the ncu name and in the nsys name */
    differs = g_strdup_printf ("from character %" G_GSIZE_FORMAT ": “%.24s” against “%.24s”",
                               best_common + 1, key + best_common, other + best_common);
    match->differs = ws_ncu_results_intern (results, differs);
  }
}

/* Two names whose template arguments are both there and differ:
 * instantiations of one template, not one kernel. */
static gboolean
different_instances (const char *ncu_name, const char *nsys_name)
{
  g_autofree char *a = ws_ncu_match_function_key (ncu_name);
  g_autofree char *b = ws_ncu_match_function_key (nsys_name);

  return strchr (a, '<') != NULL && strchr (b, '<') != NULL;
}

/* The function's name alone says little about which instantiation ran
 * (Kernel2<cutlass_75…> and Kernel2<cutlass_80…> share grids and blocks):
 * it decides only when one nsys kernel has it. */
static gboolean
pick_only (GArray *ids, guint32 *id)
{
  if (ids == NULL || ids->len != 1)
    return FALSE;
  *id = g_array_index (ids, guint32, 0);
  return TRUE;
}

static void
match_launch (WsNcuResults *results, const Index *index, guint i)
{
  const WsNcuLaunch *launch = ws_ncu_results_launch (results, i);
  WsNcuMatch *match = &results->match[i];
  g_autofree char *key = NULL;
  g_autofree char *function = NULL;
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
  else if (pick (index, results, i, g_hash_table_lookup (index->shorts, launch->kernel), &id, &why))
    match->kind = WS_NCU_MATCH_EXACT;
  else if ((key = ws_ncu_match_key (launch->kernel)) != NULL &&
           pick (index, results, i, g_hash_table_lookup (index->keys, key), &id, &why))
    match->kind = WS_NCU_MATCH_NORMALIZED;
  else if ((function = ws_ncu_match_function_key (launch->kernel)) != NULL &&
           pick (index, results, i, g_hash_table_lookup (index->functions, function), &id, &why))
    match->kind = WS_NCU_MATCH_FUNCTION;
  else if (pick_expected (index, results, launch, &id))
    match->kind = WS_NCU_MATCH_MANIFEST;
  else if ((base = ws_ncu_match_base (launch->kernel)) != NULL &&
           pick_only (g_hash_table_lookup (index->bases, base), &id) &&
           !different_instances (launch->kernel, ws_run_string (index->run, id)))
    match->kind = WS_NCU_MATCH_BASE;
  else
    {
      match->kind = WS_NCU_MATCH_UNMATCHED;
      match->why = why != NULL ? why : "no nsys kernel has this name";
      find_closest (results, index, launch->kernel, match);
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
      ws_ncu_results_compute_labels (results, run);
      return;
    }

  index_init (&index, run);
  for (guint i = 0; i < n; i++)
    match_launch (results, &index, i);
  index_clear (&index);
  ws_ncu_results_compute_labels (results, run);
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

void
ws_kernel_verdict_init (WsKernelVerdict *kv)
{
  memset (kv, 0, sizeof *kv);
  kv->verdict = kv->leading = WS_VERDICT_NONE;
}

/**
 * ws_kernel_verdict_add:
 *
 * Counts @launch's verdict and duration into @kv.
 */
void
ws_kernel_verdict_add (WsKernelVerdict *kv, const WsNcuResults *results, guint launch)
{
  const WsGauges *g = ws_ncu_results_gauges (results, launch);
  const WsGauge *duration = &g->gauge[WS_GAUGE_DURATION];
  WsVerdict v = g->verdict;

  if (v < 0 || v >= WS_N_VERDICTS)
    v = WS_VERDICT_UNKNOWN;
  kv->n_launches++;
  kv->launches[v]++;
  if (duration->collected && duration->value > 0)
    {
      kv->time_ns[v] += duration->value;
      kv->with_duration += duration->value;
    }
}

/**
 * ws_kernel_verdict_finish:
 *
 * Decides the kernel's verdict: the verdict whose launches hold more than
 * half of the kernel's profiled time (the sum of their durations), else
 * %WS_VERDICT_MIXED.  Launches without a duration weigh nothing; when no
 * launch has one (nvprof metric runs), each launch counts once.
 */
void
ws_kernel_verdict_finish (WsKernelVerdict *kv)
{
  kv->by_count = kv->with_duration <= 0;
  kv->total = 0;
  kv->leading = WS_VERDICT_NONE;
  for (int v = 0; v < WS_N_VERDICTS; v++)
    {
      kv->time[v] = kv->by_count ? kv->launches[v] : kv->time_ns[v];
      kv->total += kv->time[v];
      if (kv->time[v] > 0 &&
          (kv->leading == WS_VERDICT_NONE || kv->time[v] > kv->time[kv->leading]))
        kv->leading = (WsVerdict) v;
    }
  if (kv->n_launches == 0 || kv->leading == WS_VERDICT_NONE)
    {
      kv->verdict = WS_VERDICT_NONE;
      kv->majority = FALSE;
      return;
    }
  kv->majority = kv->time[kv->leading] > kv->total / 2;
  kv->verdict = kv->majority ? kv->leading : WS_VERDICT_MIXED;
}

static const char *
launch_nsys_name (const WsNcuResults *results, guint i)
{
  return results->match != NULL ? results->match[i].nsys_name
                                : g_array_index (results->launches, WsNcuLaunch, i).kernel;
}

/**
 * ws_ncu_match_kernel_verdict:
 * @nsys_name: a kernel's demangled name in the nsys run (ncu's own name
 *   without an nsys match)
 *
 * The kernel's verdict over every profiled launch of it.
 */
void
ws_ncu_match_kernel_verdict (const WsNcuResults *results, const char *nsys_name,
                             WsKernelVerdict *kv)
{
  ws_kernel_verdict_init (kv);
  for (guint i = 0; results != NULL && nsys_name != NULL && i < results->launches->len; i++)
    {
      const char *name = launch_nsys_name (results, i);

      if (name != NULL && g_str_equal (name, nsys_name))
        ws_kernel_verdict_add (kv, results, i);
    }
  ws_kernel_verdict_finish (kv);
}

/**
 * ws_ncu_match_verdict_for:
 * @nsys_name: a kernel's demangled name in the nsys run
 *
 * The kernel's verdict (ws_ncu_match_kernel_verdict()), for colouring the
 * kernel bars.
 *
 * Returns: the verdict, or %WS_VERDICT_NONE when no launch of it was profiled
 */
WsVerdict
ws_ncu_match_verdict_for (const WsNcuResults *results, const char *nsys_name)
{
  WsKernelVerdict kv;

  ws_ncu_match_kernel_verdict (results, nsys_name, &kv);
  return kv.verdict;
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
    ws_run_add_file (run, g_ptr_array_index (ncu->files, i));
}

/* Fills @form_of with the demangled name of each distinct kernel of @run
 * → its name in @form (both the run's strings). */
static void
names_in_form (const WsRun *run, WsNameForm form, GHashTable *form_of)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);

  for (gsize i = 0; run->kernels.demangled != NULL && i < run->kernels.n; i++)
    {
      guint32 id = run->kernels.demangled[i];

      if (g_hash_table_contains (seen, GUINT_TO_POINTER (id)))
        continue;
      g_hash_table_add (seen, GUINT_TO_POINTER (id));
      g_hash_table_insert (form_of, (gpointer) ws_run_string (run, id),
                           (gpointer) ws_run_kernel_name (run, i, form));
    }
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
 * Returns: (transfer full): name → GINT_TO_POINTER ((gintptr) launch + 1); empty
 * when nothing matched
 */
GHashTable *
ws_ncu_match_launches_by_name (const WsNcuResults *results, const WsRun *run, WsNameForm form)
{
  g_autoptr (GHashTable) form_of = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) longest = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  GHashTable *launches = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  g_return_val_if_fail (results != NULL && run != NULL, launches);

  /* The demangled name of each distinct kernel, to its name in @form. */
  names_in_form (run, form, form_of);

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
      g_hash_table_insert (launches, g_strdup (name), GINT_TO_POINTER ((gintptr) i + 1));
    }
  return launches;
}

/**
 * ws_ncu_match_verdicts_by_name:
 * @run: the nsys run the results are attached to
 * @form: the name form the kernel bars show
 *
 * The verdict of each kernel of @run over its profiled launches (those
 * ws_ncu_match_launches_by_name() chooses the longest of), keyed by the
 * kernel's name in @form.
 *
 * Returns: (transfer full): name → WsKernelVerdict
 */
GHashTable *
ws_ncu_match_verdicts_by_name (const WsNcuResults *results, const WsRun *run, WsNameForm form)
{
  g_autoptr (GHashTable) form_of = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTable *verdicts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  GHashTableIter it;
  gpointer kv;

  g_return_val_if_fail (results != NULL && run != NULL, verdicts);

  names_in_form (run, form, form_of);
  for (guint i = 0; i < results->launches->len; i++)
    {
      const char *nsys_name = results->match != NULL ? results->match[i].nsys_name : NULL;
      const char *name = nsys_name != NULL ? g_hash_table_lookup (form_of, nsys_name) : NULL;
      WsKernelVerdict *found;

      if (name == NULL)
        continue;
      found = g_hash_table_lookup (verdicts, name);
      if (found == NULL)
        {
          found = g_new (WsKernelVerdict, 1);
          ws_kernel_verdict_init (found);
          g_hash_table_insert (verdicts, g_strdup (name), found);
        }
      ws_kernel_verdict_add (found, results, i);
    }
  g_hash_table_iter_init (&it, verdicts);
  while (g_hash_table_iter_next (&it, NULL, &kv))
    ws_kernel_verdict_finish (kv);
  return verdicts;
}

/* The name a launch goes by when no nsys kernel says: that of the kernel
 * its capture made the report for, else ncu's own. */
static const char *
unmatched_name (const WsNcuResults *results, guint launch)
{
  const WsNcuLaunch *info = ws_ncu_results_launch (results, launch);
  const WsNcuExpected *expected = ws_ncu_results_expected (results, info->file);

  if (expected != NULL && expected->demangled != NULL &&
      (g_strcmp0 (expected->mangled, info->kernel) == 0 || g_str_has_prefix (info->kernel, "_Z")))
    return expected->demangled;
  return info->kernel;
}

/**
 * ws_ncu_results_compute_labels:
 * @run: (nullable): the run @results are attached to
 *
 * Gives each launch its display name: that of the nsys kernel it matched
 * (the run's, so that tables agree), else a display name made from the
 * manifest's or ncu's name, unique among those.  Done on the loading
 * thread, before the results are shared.
 */
void
ws_ncu_results_compute_labels (WsNcuResults *results, const WsRun *run)
{
  guint n = ws_ncu_results_n_launches (results);
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autoptr (GArray) which = g_array_new (FALSE, FALSE, sizeof (guint));
  g_auto (GStrv) labels = NULL;

  g_free (results->labels);
  results->labels = g_new0 (const char *, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      const WsNcuMatch *match = ws_ncu_results_match (results, i);

      if (run != NULL && match != NULL && match->nsys_name != NULL)
        results->labels[i] =
          ws_ncu_results_intern (results, ws_run_kernel_display (run, match->nsys_name));
      else
        {
          g_ptr_array_add (names, (gpointer) unmatched_name (results, i));
          g_array_append_val (which, i);
        }
    }
  labels = ws_kernel_display_names ((const char *const *) names->pdata, names->len);
  for (guint j = 0; j < which->len; j++)
    results->labels[g_array_index (which, guint, j)] = ws_ncu_results_intern (results, labels[j]);
}

/**
 * ws_ncu_launch_label:
 * @run: (nullable): the run @launch's results are attached to
 *
 * The name a profiled launch goes by in tables: the display name of the
 * nsys kernel it matched, else that of the kernel its capture made the
 * report for, else a display form of ncu's own name.
 *
 * Returns: (transfer full): the label
 */
char *
ws_ncu_launch_label (const WsRun *run, const WsNcuResults *results, guint launch)
{
  const WsNcuMatch *match = ws_ncu_results_match (results, launch);

  if (run != NULL && match != NULL && match->nsys_name != NULL)
    return g_strdup (ws_run_kernel_display (run, match->nsys_name));
  if (results->labels != NULL && results->labels[launch] != NULL)
    return g_strdup (results->labels[launch]);
  return ws_kernel_display_name (unmatched_name (results, launch), WS_KERNEL_DISPLAY_BRIEF);
}

/**
 * ws_ncu_unmatched_reason:
 *
 * Why @launch matched no nsys kernel, with the nearest nsys kernel and
 * where its name parts from ncu's: "no nsys kernel has this name; closest:
 * vectorized_layer_norm_kernel<float…>, from character 31: …".
 *
 * Returns: (transfer full): the reason, for people
 */
char *
ws_ncu_unmatched_reason (const WsRun *run, const WsNcuResults *results, guint launch)
{
  const WsNcuMatch *match = ws_ncu_results_match (results, launch);
  const char *why;

  if (match == NULL || match->kind != WS_NCU_MATCH_UNMATCHED)
    return g_strdup ("");
  why = g_str_equal (match->why, "the nsys run has no CUDA kernels")
          ? _ ("the nsys run has no CUDA kernels")
        : g_str_equal (match->why, "no nsys kernel has this name")
          ? _ ("no nsys kernel has this name")
          : _ ("several nsys kernels fit the name, none alone by grid and block");
  if (match->closest == NULL)
    return g_strdup (why);
  /* TRANSLATORS: why a profiled launch matched no kernel, then the nearest nsys kernel and
   * where its normalised name parts from ncu's */
  return g_strdup_printf (
    _ ("%s; closest: %s (%s)"), why,
    run != NULL ? ws_run_kernel_display (run, match->closest) : match->closest, match->differs);
}
