/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-compare-timelines"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-compare-timelines.h"
#include "ws-format.h"

/* NVTX names in the "Align on" drop-down; the others are typed. */
#define ALIGN_LIST_MAX 40

/* The two runs of a comparison as timelines, one above the other, aligned
 * on an instance of an NVTX range both have ("step 3" with "step 3", the
 * third "forward" with the third) and zooming and panning together.
 *
 * Both time windows get the same bounds, shifted so that the two anchors
 * sit at the same offset: then a view of one is the same view of the other,
 * and the limits every zoom is clamped to are the same on both sides. */
struct _WsCompareTimelines
{
  GtkBox parent_instance;

  WsComparison *cmp;
  WsLanes *lanes[2]; /* before, after */
  GCancellable *cancellable;
  guint pending;    /* lanes still being built */
  gboolean syncing; /* a window follows the other */
  gboolean filling; /* the combo is being filled */
  char *status;
  GHashTable *shown_names; /* name as shown → key, for what is typed */
  GtkListStore *completion_store;

  /* Template widgets */
  GtkComboBoxText *align_combo;
  GtkSpinButton *instance_spin;
  GtkLabel *status_label;
  GtkLabel *before_label;
  GtkLabel *after_label;
  WsTimelineView *before_view;
  WsTimelineView *after_view;
  GtkScrollbar *before_scrollbar;
  GtkScrollbar *after_scrollbar;
};

G_DEFINE_FINAL_TYPE (WsCompareTimelines, ws_compare_timelines, GTK_TYPE_BOX)

static WsTimelineView *
view_of (WsCompareTimelines *self, int side)
{
  return side == 0 ? self->before_view : self->after_view;
}

static WsTimeWindow *
window_of (WsCompareTimelines *self, int side)
{
  return ws_timeline_view_get_window (view_of (self, side));
}

static void
set_status (WsCompareTimelines *self, const char *text)
{
  g_free (self->status);
  self->status = g_strdup (text);
  gtk_label_set_text (self->status_label, text);
}

/* One window moved: the other shows the same stretch around its anchor. */
static void
window_changed_cb (WsTimeWindow *window, WsCompareTimelines *self)
{
  WsTimeWindow *other = window == window_of (self, 0) ? window_of (self, 1) : window_of (self, 0);

  if (self->syncing || self->lanes[0] == NULL || self->lanes[1] == NULL)
    return;
  self->syncing = TRUE;
  ws_time_window_set_view (other, ws_time_window_get_start (window),
                           ws_time_window_get_end (window));
  self->syncing = FALSE;
}

/* The instances of @name on the side that has fewer. */
static guint
instances_of (WsCompareTimelines *self, const char *name)
{
  for (guint i = 0; self->cmp != NULL && i < self->cmp->ranges->len; i++)
    {
      const WsDelta *d = &g_array_index (self->cmp->ranges, WsDelta, i);

      if (g_strcmp0 (d->key, name) == 0)
        return (guint) MIN (d->before_count, d->after_count);
    }
  return 0;
}

/**
 * ws_compare_timelines_align:
 * @name: (nullable): an NVTX range both runs have, or %NULL (or "") for
 *   the start of each run
 * @instance: which instance, from 1
 *
 * Puts the two instances at the same place and shows them, with a tenth of
 * the longer one on each side.
 *
 * Returns: whether both runs have that instance (otherwise the runs are
 * aligned on their starts)
 */
gboolean
ws_compare_timelines_align (WsCompareTimelines *self, const char *name, guint instance)
{
  const WsRun *runs[2];
  gint64 anchor[2], anchor_end[2], before_anchor = 0, after_anchor = 0;
  gboolean found = TRUE;
  double span;

  g_return_val_if_fail (WS_IS_COMPARE_TIMELINES (self), FALSE);

  if (self->lanes[0] == NULL || self->lanes[1] == NULL)
    return FALSE;
  for (int side = 0; side < 2; side++)
    {
      runs[side] = ws_lanes_get_run (self->lanes[side]);
      anchor[side] = runs[side]->origin;
      anchor_end[side] = runs[side]->end_time;
    }
  if (name != NULL && name[0] != '\0')
    for (int side = 0; side < 2 && found; side++)
      found = instance > 0 && ws_run_nvtx_instance (runs[side], name, instance - 1, &anchor[side],
                                                    &anchor_end[side]);
  if (!found)
    {
      for (int side = 0; side < 2; side++)
        {
          anchor[side] = runs[side]->origin;
          anchor_end[side] = runs[side]->end_time;
        }
      set_status (self, _ ("Not in both runs: aligned on their starts."));
    }
  else if (name != NULL && name[0] != '\0')
    {
      g_autofree char *before = ws_format_duration ((double) (anchor_end[0] - anchor[0]));
      g_autofree char *after = ws_format_duration ((double) (anchor_end[1] - anchor[1]));
      /* TRANSLATORS: "“step 3” #1: 1.22 ms before, 1.27 ms after" */
      g_autofree char *text =
        g_strdup_printf (_ ("“%s” #%u: %s before, %s after"), name[0] == ':' ? name + 1 : name,
                         instance, before, after);

      set_status (self, text);
    }
  else
    set_status (self, _ ("Aligned on the start of each run."));

  /* Common bounds: as much before and after the anchor as the run that
   * has more of it. */
  for (int side = 0; side < 2; side++)
    {
      before_anchor = MAX (before_anchor, anchor[side] - runs[side]->origin);
      after_anchor = MAX (after_anchor, runs[side]->end_time - anchor[side]);
    }
  self->syncing = TRUE;
  for (int side = 0; side < 2; side++)
    ws_time_window_set_bounds (window_of (self, side), anchor[side] - before_anchor,
                               anchor[side] + after_anchor);
  self->syncing = FALSE;

  span = (double) MAX (anchor_end[0] - anchor[0], anchor_end[1] - anchor[1]);
  ws_time_window_set_view (window_of (self, 0), (double) before_anchor - span * 0.1,
                           (double) before_anchor + span * 1.1);
  return found;
}

/* The key of the range chosen in the list or typed in the entry: "" for
 * the start of the run, NULL for a name that neither list holds. */
static const char *
chosen_key (WsCompareTimelines *self)
{
  const char *id = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->align_combo));
  GtkWidget *entry = gtk_bin_get_child (GTK_BIN (self->align_combo));

  if (id != NULL)
    return id;
  return g_hash_table_lookup (self->shown_names, gtk_entry_get_text (GTK_ENTRY (entry)));
}

static void
align_changed_cb (WsCompareTimelines *self)
{
  const char *name;
  guint n;

  if (self->filling)
    return;
  name = chosen_key (self);
  if (name == NULL)
    return;
  n = name[0] != '\0' ? instances_of (self, name) : 1;
  gtk_widget_set_sensitive (GTK_WIDGET (self->instance_spin), n > 1);
  gtk_spin_button_set_range (self->instance_spin, 1, MAX (n, 1));
  ws_compare_timelines_align (self, name,
                              (guint) gtk_spin_button_get_value_as_int (self->instance_spin));
}

static int
compare_keys (gconstpointer a, gconstpointer b)
{
  const WsDelta *x = *(const WsDelta *const *) a, *y = *(const WsDelta *const *) b;

  return g_utf8_collate (x->key, y->key);
}

static int
compare_time (gconstpointer a, gconstpointer b)
{
  const WsDelta *x = *(const WsDelta *const *) a, *y = *(const WsDelta *const *) b;
  gint64 tx = MAX (x->before_total, x->after_total), ty = MAX (y->before_total, y->after_total);

  return tx != ty ? (tx > ty ? -1 : 1) : g_utf8_collate (x->key, y->key);
}

/* A name as shown: without the colon of the default domain ("step 3",
 * "nccl:AllReduce"). */
static const char *
shown_name (const char *key)
{
  return key[0] == ':' ? key + 1 : key;
}

/* The NVTX ranges both runs have, by name.  A drop-down list is one
 * window as tall as its items, so it holds only the ranges that take the
 * most time (steps, phases: what one aligns on), in alphabetical order;
 * every name can be typed, with completion (a list that scrolls). */
static void
fill_combo (WsCompareTimelines *self)
{
  g_autoptr (GPtrArray) both = g_ptr_array_new ();
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  GtkWidget *entry = gtk_bin_get_child (GTK_BIN (self->align_combo));
  guint listed;

  self->filling = TRUE;
  gtk_combo_box_text_remove_all (self->align_combo);
  gtk_list_store_clear (self->completion_store);
  g_hash_table_remove_all (self->shown_names);
  gtk_combo_box_text_append (self->align_combo, "", _ ("Start of the run"));
  for (guint i = 0; self->cmp != NULL && i < self->cmp->ranges->len; i++)
    {
      const WsDelta *d = &g_array_index (self->cmp->ranges, WsDelta, i);

      if (d->presence == WS_PRESENT_BOTH && d->key[0] != '\0' && g_hash_table_add (seen, d->key))
        g_ptr_array_add (both, (gpointer) d);
    }
  g_ptr_array_sort (both, compare_keys);
  for (guint i = 0; i < both->len; i++)
    {
      const WsDelta *d = g_ptr_array_index (both, i);

      gtk_list_store_insert_with_values (self->completion_store, NULL, -1, 0, shown_name (d->key),
                                         -1);
      g_hash_table_insert (self->shown_names, (gpointer) shown_name (d->key), d->key);
    }
  g_ptr_array_sort (both, compare_time);
  listed = MIN (both->len, ALIGN_LIST_MAX);
  g_ptr_array_set_size (both, listed);
  g_ptr_array_sort (both, compare_keys);
  for (guint i = 0; i < listed; i++)
    {
      const WsDelta *d = g_ptr_array_index (both, i);

      gtk_combo_box_text_append (self->align_combo, d->key, shown_name (d->key));
    }
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->align_combo), "");
  gtk_spin_button_set_range (self->instance_spin, 1, 1);
  gtk_widget_set_sensitive (GTK_WIDGET (self->instance_spin), FALSE);
  gtk_widget_set_tooltip_text (entry,
                               g_hash_table_size (seen) > listed
                                 ? _ ("Type the name of any NVTX range both runs have; the list "
                                      "holds those that take the most time")
                                 : NULL);
  self->filling = FALSE;
}

static void
build_lanes_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  g_task_return_pointer (task, ws_lanes_new (data), (GDestroyNotify) ws_lanes_unref);
}

static void
lanes_ready (GObject *source, GAsyncResult *result, gpointer data)
{
  WsCompareTimelines *self = WS_COMPARE_TIMELINES (source);
  int side = GPOINTER_TO_INT (data);
  g_autoptr (WsLanes) lanes = g_task_propagate_pointer (G_TASK (result), NULL);

  if (lanes == NULL || g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result))))
    return;
  self->lanes[side] = g_steal_pointer (&lanes);
  ws_timeline_view_set_lanes (view_of (self, side), self->lanes[side]);
  if (--self->pending == 0)
    {
      set_status (self, "");
      align_changed_cb (self);
    }
}

/**
 * ws_compare_timelines_set_comparison:
 *
 * Shows the two runs of @cmp; their lanes are built on worker threads, and
 * kept when only the matching of kernels changed.
 */
void
ws_compare_timelines_set_comparison (WsCompareTimelines *self, WsComparison *cmp)
{
  WsRun *runs[2];

  g_return_if_fail (WS_IS_COMPARE_TIMELINES (self));

  runs[0] = cmp != NULL ? cmp->before : NULL;
  runs[1] = cmp != NULL ? cmp->after : NULL;
  if (cmp != NULL)
    ws_comparison_ref (cmp);
  g_clear_pointer (&self->cmp, ws_comparison_unref);
  self->cmp = cmp;

  /* Swapped: the lanes swap too. */
  if (self->lanes[0] != NULL && self->lanes[1] != NULL &&
      ws_lanes_get_run (self->lanes[0]) == runs[1] && ws_lanes_get_run (self->lanes[1]) == runs[0])
    {
      WsLanes *lanes = self->lanes[0];

      self->lanes[0] = self->lanes[1];
      self->lanes[1] = lanes;
      ws_timeline_view_set_lanes (self->before_view, self->lanes[0]);
      ws_timeline_view_set_lanes (self->after_view, self->lanes[1]);
    }
  for (int side = 0; side < 2; side++)
    {
      GtkLabel *label = side == 0 ? self->before_label : self->after_label;
      g_autofree char *text = runs[side] == NULL
                                ? g_strdup ("")
                                : g_strdup_printf (side == 0 ? _ ("Before: %s") : _ ("After: %s"),
                                                   ws_run_display_name (runs[side]));

      gtk_label_set_text (label, text);
    }
  fill_combo (self);

  if (self->lanes[0] != NULL && self->lanes[1] != NULL &&
      ws_lanes_get_run (self->lanes[0]) == runs[0] && ws_lanes_get_run (self->lanes[1]) == runs[1])
    {
      align_changed_cb (self);
      return;
    }

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->pending = 0;
  for (int side = 0; side < 2; side++)
    {
      g_clear_pointer (&self->lanes[side], ws_lanes_unref);
      ws_timeline_view_set_lanes (view_of (self, side), NULL);
    }
  if (cmp == NULL)
    return;

  set_status (self, _ ("Preparing the timelines…"));
  self->cancellable = g_cancellable_new ();
  for (int side = 0; side < 2; side++)
    {
      g_autoptr (GTask) task =
        g_task_new (self, self->cancellable, lanes_ready, GINT_TO_POINTER (side));

      g_task_set_task_data (task, ws_run_ref (runs[side]), (GDestroyNotify) ws_run_unref);
      g_task_run_in_thread (task, build_lanes_thread);
      self->pending++;
    }
}

gboolean
ws_compare_timelines_is_ready (WsCompareTimelines *self)
{
  g_return_val_if_fail (WS_IS_COMPARE_TIMELINES (self), FALSE);

  return self->lanes[0] != NULL && self->lanes[1] != NULL && self->pending == 0;
}

WsTimelineView *
ws_compare_timelines_get_view (WsCompareTimelines *self, gboolean after)
{
  g_return_val_if_fail (WS_IS_COMPARE_TIMELINES (self), NULL);

  return view_of (self, after ? 1 : 0);
}

const char *
ws_compare_timelines_get_status (WsCompareTimelines *self)
{
  g_return_val_if_fail (WS_IS_COMPARE_TIMELINES (self), NULL);

  return self->status != NULL ? self->status : "";
}

static void
ws_compare_timelines_dispose (GObject *object)
{
  WsCompareTimelines *self = WS_COMPARE_TIMELINES (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->lanes[0], ws_lanes_unref);
  g_clear_pointer (&self->lanes[1], ws_lanes_unref);
  g_clear_pointer (&self->shown_names, g_hash_table_unref);
  g_clear_object (&self->completion_store);
  g_clear_pointer (&self->cmp, ws_comparison_unref);

  G_OBJECT_CLASS (ws_compare_timelines_parent_class)->dispose (object);
}

static void
ws_compare_timelines_finalize (GObject *object)
{
  g_free (WS_COMPARE_TIMELINES (object)->status);

  G_OBJECT_CLASS (ws_compare_timelines_parent_class)->finalize (object);
}

static void
ws_compare_timelines_class_init (WsCompareTimelinesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_compare_timelines_dispose;
  object_class->finalize = ws_compare_timelines_finalize;

  g_type_ensure (WS_TYPE_TIMELINE_VIEW);
  gtk_widget_class_set_template_from_resource (
    widget_class, "/org/warpscope/Warpscope/ui/ws-compare-timelines.ui");
  gtk_widget_class_bind_template_child (widget_class, WsCompareTimelines, align_combo);
  gtk_widget_class_bind_template_child (widget_class, WsCompareTimelines, instance_spin);
  gtk_widget_class_bind_template_child (widget_class, WsCompareTimelines, status_label);
  gtk_widget_class_bind_template_child (widget_class, WsCompareTimelines, before_label);
  gtk_widget_class_bind_template_child (widget_class, WsCompareTimelines, after_label);
  gtk_widget_class_bind_template_child (widget_class, WsCompareTimelines, before_view);
  gtk_widget_class_bind_template_child (widget_class, WsCompareTimelines, after_view);
  gtk_widget_class_bind_template_child (widget_class, WsCompareTimelines, before_scrollbar);
  gtk_widget_class_bind_template_child (widget_class, WsCompareTimelines, after_scrollbar);
  gtk_widget_class_bind_template_callback (widget_class, align_changed_cb);
}

static void
ws_compare_timelines_init (WsCompareTimelines *self)
{
  g_autoptr (GtkEntryCompletion) completion = gtk_entry_completion_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
  self->shown_names = g_hash_table_new (g_str_hash, g_str_equal);
  self->completion_store = gtk_list_store_new (1, G_TYPE_STRING);
  gtk_entry_completion_set_model (completion, GTK_TREE_MODEL (self->completion_store));
  gtk_entry_completion_set_text_column (completion, 0);
  gtk_entry_completion_set_minimum_key_length (completion, 1);
  gtk_entry_set_completion (GTK_ENTRY (gtk_bin_get_child (GTK_BIN (self->align_combo))),
                            completion);
  for (int side = 0; side < 2; side++)
    {
      GtkScrollbar *scrollbar = side == 0 ? self->before_scrollbar : self->after_scrollbar;

      gtk_range_set_adjustment (GTK_RANGE (scrollbar),
                                ws_timeline_view_get_vadjustment (view_of (self, side)));
      g_signal_connect_object (window_of (self, side), "changed", G_CALLBACK (window_changed_cb),
                               self, 0);
    }
}
