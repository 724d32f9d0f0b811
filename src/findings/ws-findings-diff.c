/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-findings-diff"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-findings-diff.h"

static void
change_clear (gpointer data)
{
  WsFindingChange *change = data;

  g_free (change->id);
  g_clear_pointer (&change->before, ws_finding_unref);
  g_clear_pointer (&change->after, ws_finding_unref);
}

static WsFindingChangeKind
change_of (const WsFinding *before, const WsFinding *after)
{
  if (before == NULL)
    return WS_FINDING_APPEARED;
  if (after == NULL)
    return WS_FINDING_FIXED;
  if (after->severity > before->severity)
    return WS_FINDING_WORSE;
  if (after->severity < before->severity)
    return WS_FINDING_BETTER;
  return WS_FINDING_UNCHANGED;
}

/* The severity that makes a change matter: the one after for what
 * appeared or got worse, the one before for what was fixed or got better. */
static WsSeverity
weight (const WsFindingChange *change)
{
  if (change->after == NULL)
    return change->before->severity;
  if (change->before == NULL)
    return change->after->severity;
  return MAX (change->before->severity, change->after->severity);
}

static gint64
cost (const WsFindingChange *change)
{
  return MAX (change->before != NULL ? change->before->cost : 0,
              change->after != NULL ? change->after->cost : 0);
}

static int
compare_changes (gconstpointer a, gconstpointer b)
{
  const WsFindingChange *x = a, *y = b;

  if (x->change != y->change)
    return x->change < y->change ? -1 : 1;
  if (weight (x) != weight (y))
    return weight (x) > weight (y) ? -1 : 1;
  if (cost (x) != cost (y))
    return cost (x) > cost (y) ? -1 : 1;
  return g_strcmp0 (x->id, y->id);
}

/* Adds @finding to the change of its id; a run's findings come most severe
 * first, so where a check raised several, the first stands for it. */
static void
add_side (GArray *diff, GHashTable *index, WsFinding *finding, gboolean after)
{
  gpointer found;
  WsFindingChange *change;

  if (!g_hash_table_lookup_extended (index, finding->id, NULL, &found))
    {
      WsFindingChange empty = { g_strdup (finding->id), NULL, NULL, WS_FINDING_UNCHANGED };

      g_array_append_val (diff, empty);
      found = GUINT_TO_POINTER (diff->len - 1);
      g_hash_table_insert (index, finding->id, found);
    }
  change = &g_array_index (diff, WsFindingChange, GPOINTER_TO_UINT (found));
  if (after && change->after == NULL)
    change->after = ws_finding_ref (finding);
  else if (!after && change->before == NULL)
    change->before = ws_finding_ref (finding);
}

/**
 * ws_findings_diff:
 * @before: (element-type WsFinding): the findings of the run before
 * @after: (element-type WsFinding): those of the run after
 *
 * One entry per check raised on either side: what appeared, got worse,
 * was fixed, got better (severity down) or stayed, in that order; within
 * each, the most severe first, then the one with more time at stake.
 *
 * Returns: (transfer full) (element-type WsFindingChange): the changes
 */
GArray *
ws_findings_diff (GPtrArray *before, GPtrArray *after)
{
  GArray *diff = g_array_new (FALSE, TRUE, sizeof (WsFindingChange));
  g_autoptr (GHashTable) index = g_hash_table_new (g_str_hash, g_str_equal);

  g_return_val_if_fail (before != NULL && after != NULL, diff);

  g_array_set_clear_func (diff, change_clear);
  for (guint i = 0; i < before->len; i++)
    add_side (diff, index, g_ptr_array_index (before, i), FALSE);
  for (guint i = 0; i < after->len; i++)
    add_side (diff, index, g_ptr_array_index (after, i), TRUE);
  for (guint i = 0; i < diff->len; i++)
    {
      WsFindingChange *change = &g_array_index (diff, WsFindingChange, i);

      change->change = change_of (change->before, change->after);
    }
  g_array_sort (diff, compare_changes);
  return diff;
}

/* For scripts: not translated. */
const char *
ws_finding_change_to_string (WsFindingChangeKind change)
{
  switch (change)
    {
      case WS_FINDING_APPEARED:
        return "appeared";
      case WS_FINDING_WORSE:
        return "worse";
      case WS_FINDING_FIXED:
        return "fixed";
      case WS_FINDING_BETTER:
        return "better";
      case WS_FINDING_UNCHANGED:
      default:
        return "unchanged";
    }
}

const char *
ws_finding_change_label (WsFindingChangeKind change)
{
  switch (change)
    {
      case WS_FINDING_APPEARED:
        return C_ ("finding change", "Appeared");
      case WS_FINDING_WORSE:
        return C_ ("finding change", "Worse");
      case WS_FINDING_FIXED:
        return C_ ("finding change", "Fixed");
      case WS_FINDING_BETTER:
        return C_ ("finding change", "Better");
      case WS_FINDING_UNCHANGED:
      default:
        return C_ ("finding change", "Unchanged");
    }
}

/**
 * ws_findings_diff_find:
 *
 * Returns: (transfer none) (nullable): the change of check @id
 */
const WsFindingChange *
ws_findings_diff_find (GArray *diff, const char *id)
{
  for (guint i = 0; diff != NULL && i < diff->len; i++)
    {
      const WsFindingChange *change = &g_array_index (diff, WsFindingChange, i);

      if (g_strcmp0 (change->id, id) == 0)
        return change;
    }
  return NULL;
}
