/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-capture-settings-dialog"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-capture-settings-dialog.h"
#include "ws-capture-settings.h"
#include "ws-entry-chooser.h"
#include "ws-tool-find.h"
#include "ws-tool-query.h"
#include "ws-tool-query.h"
#include "ws-doctor.h"
#include "ws-hosts-editor.h"
#include "ws-ssh-host.h"

/* The capture settings, bound to GSettings: a change is kept at once.
 * Two pages: the workflow's settings, and the hosts captures run on (the
 * ssh command, how files come back, each host), where “Check Host” runs
 * the doctor there. */

struct _WsCaptureSettingsDialog
{
  GtkDialog parent_instance;

  GSettings *settings;
  GCancellable *cancellable;
  GCancellable *check_cancellable;

  /* Template widgets */
  GtkStack *stack;
  GtkWidget *switcher;
  GtkEntry *ssh_entry;
  GtkSwitch *fetch_reports_switch;
  GtkSpinButton *transfer_spin;
  WsHostsEditor *hosts_editor;
  GtkGrid *grid;
  GtkEntry *nsys_entry;
  GtkEntry *ncu_entry;
  GtkEntry *output_entry;
  GtkEntry *log_entry;
  GtkEntry *range_entry;
  GtkEntry *trace_entry;
  GtkSpinButton *duration_spin;
  GtkSpinButton *topn_spin;
  GtkComboBoxText *set_combo;
  GtkEntry *sections_entry;
  GtkSpinButton *launch_count_spin;
  GtkSwitch *multi_run_switch;
  GtkComboBoxText *graph_trace_combo;
  GtkComboBoxText *cache_combo;
  GtkComboBoxText *clock_combo;
  GtkSwitch *continue_switch;
  GtkSwitch *per_rank_switch;
  GtkComboBoxText *comm_replay_combo;
  GtkSpinButton *stall_spin;
  GtkLabel *note_label;
};

G_DEFINE_FINAL_TYPE (WsCaptureSettingsDialog, ws_capture_settings_dialog, GTK_TYPE_DIALOG)

/* The sets of current ncu versions (docs/formats.md, "ncu sets and sections"),
 * offered until ncu says. */
static const char *const known_sets[] = { "basic",      "detailed", "full", "nvlink",
                                          "pmsampling", "roofline", NULL };

static void
choose (WsCaptureSettingsDialog *self, GtkEntry *entry, const char *title,
        GtkFileChooserAction action)
{
  GtkFileChooserNative *dialog =
    gtk_file_chooser_native_new (title, GTK_WINDOW (self), action, _ ("_Select"), _ ("_Cancel"));
  const char *current = gtk_entry_get_text (entry);

  if (current[0] == '/')
    gtk_file_chooser_set_filename (GTK_FILE_CHOOSER (dialog), current);
  ws_entry_chooser_show (dialog, entry);
}

static void
choose_nsys_cb (WsCaptureSettingsDialog *self)
{
  choose (self, self->nsys_entry, _ ("Choose nsys"), GTK_FILE_CHOOSER_ACTION_OPEN);
}

static void
choose_ncu_cb (WsCaptureSettingsDialog *self)
{
  choose (self, self->ncu_entry, _ ("Choose ncu"), GTK_FILE_CHOOSER_ACTION_OPEN);
}

static void
choose_output_cb (WsCaptureSettingsDialog *self)
{
  choose (self, self->output_entry, _ ("Choose the Output Folder"),
          GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER);
}

static void
fill_sets (WsCaptureSettingsDialog *self, GPtrArray *sets)
{
  GtkEntry *entry = GTK_ENTRY (gtk_bin_get_child (GTK_BIN (self->set_combo)));
  g_autofree char *current = g_strdup (gtk_entry_get_text (entry));

  gtk_combo_box_text_remove_all (self->set_combo);
  if (sets != NULL)
    for (guint i = 0; i < sets->len; i++)
      gtk_combo_box_text_append (self->set_combo, g_ptr_array_index (sets, i),
                                 g_ptr_array_index (sets, i));
  else
    for (guint i = 0; known_sets[i] != NULL; i++)
      gtk_combo_box_text_append (self->set_combo, known_sets[i], known_sets[i]);
  gtk_entry_set_text (entry, current);
}

typedef struct
{
  char *nsys_configured;
  char *ncu_configured;
  char *nsys;
  char *ncu;
  GPtrArray *sets;
  GPtrArray *sections;
} Probe;

static void
probe_free (Probe *probe)
{
  g_free (probe->nsys_configured);
  g_free (probe->ncu_configured);
  g_free (probe->nsys);
  g_free (probe->ncu);
  g_clear_pointer (&probe->sets, g_ptr_array_unref);
  g_clear_pointer (&probe->sections, g_ptr_array_unref);
  g_free (probe);
}

/* Where nsys and ncu are found, and the sets ncu offers: on a worker
 * thread, ncu takes a while to answer. */
static void
probe_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Probe *probe = data;

  probe->nsys = ws_tool_resolve ("nsys", probe->nsys_configured, NULL);
  probe->ncu = ws_tool_resolve ("ncu", probe->ncu_configured, NULL);
  if (probe->ncu != NULL)
    {
      probe->sets = ws_tool_list (probe->ncu, "sets", cancellable, NULL);
      probe->sections = ws_tool_list (probe->ncu, "sections", cancellable, NULL);
    }
  g_task_return_boolean (task, TRUE);
}

static void
show_found (GtkEntry *entry, const char *found)
{
  g_autofree char *text = found != NULL ? g_strdup_printf (_ ("found: %s"), found)
                                        : g_strdup (_ ("not found: choose it"));

  gtk_entry_set_placeholder_text (entry, text);
}

static void
probed_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  WsCaptureSettingsDialog *self = WS_CAPTURE_SETTINGS_DIALOG (source);
  Probe *probe = g_task_get_task_data (G_TASK (result));

  /* Closed meanwhile: its widgets are gone. */
  if (g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result))))
    return;
  show_found (self->nsys_entry, probe->nsys);
  show_found (self->ncu_entry, probe->ncu);
  if (probe->sets != NULL)
    fill_sets (self, probe->sets);
  if (probe->sections != NULL)
    {
      g_autoptr (GString) list = g_string_new (NULL);
      g_autofree char *tooltip = NULL;

      for (guint i = 0; i < probe->sections->len; i++)
        g_string_append_printf (list, "%s%s", i > 0 ? ", " : "",
                                (char *) g_ptr_array_index (probe->sections, i));
      tooltip = g_strdup_printf (_ ("NCU_SECTIONS: the sections this ncu offers: %s"), list->str);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->sections_entry), tooltip);
    }
}

static void
probe_tools (WsCaptureSettingsDialog *self)
{
  g_autoptr (GTask) task = g_task_new (self, self->cancellable, probed_cb, NULL);
  Probe *probe = g_new0 (Probe, 1);

  probe->nsys_configured = g_strdup (gtk_entry_get_text (self->nsys_entry));
  probe->ncu_configured = g_strdup (gtk_entry_get_text (self->ncu_entry));
  g_task_set_source_tag (task, probe_tools);
  g_task_set_task_data (task, probe, (GDestroyNotify) probe_free);
  g_task_run_in_thread (task, probe_thread);
}

static void
show_overrides (WsCaptureSettingsDialog *self)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autofree char *list = NULL;
  g_autofree char *text = NULL;

  if (self->settings == NULL)
    {
      gtk_label_set_text (self->note_label,
                          _ ("These settings cannot be kept: the schema org.warpscope.Warpscope "
                             "is not installed. Install Warpscope, or point GSETTINGS_SCHEMA_DIR "
                             "at the build’s data folder."));
      gtk_widget_show (GTK_WIDGET (self->note_label));
      return;
    }
  for (guint i = 0; ws_capture_settings_env_names[i] != NULL; i++)
    {
      const char *value = g_getenv (ws_capture_settings_env_names[i]);

      if (value != NULL && value[0] != '\0')
        g_ptr_array_add (names, (gpointer) ws_capture_settings_env_names[i]);
    }
  if (names->len == 0)
    return;
  g_ptr_array_add (names, NULL);
  list = g_strjoinv (", ", (char **) names->pdata);
  text = g_strdup_printf (_ ("Set in Warpscope’s environment, these variables override the "
                             "settings here: %s."),
                          list);
  gtk_label_set_text (self->note_label, text);
  gtk_widget_show (GTK_WIDGET (self->note_label));
}

static void
bind (WsCaptureSettingsDialog *self)
{
  struct
  {
    const char *key;
    gpointer widget;
    const char *property;
  } bindings[] = {
    { "nsys-path", self->nsys_entry, "text" },
    { "ncu-path", self->ncu_entry, "text" },
    { "output-dir", self->output_entry, "text" },
    { "global-log", self->log_entry, "text" },
    { "capture-range", self->range_entry, "text" },
    { "nsys-trace", self->trace_entry, "text" },
    { "nsys-duration", self->duration_spin, "value" },
    { "nsys-cuda-graph-trace", self->graph_trace_combo, "active-id" },
    { "capture-topn", self->topn_spin, "value" },
    { "ncu-set", gtk_bin_get_child (GTK_BIN (self->set_combo)), "text" },
    { "ncu-sections", self->sections_entry, "text" },
    { "ncu-launch-count", self->launch_count_spin, "value" },
    { "ncu-multi-run", self->multi_run_switch, "active" },
    { "cache-control", self->cache_combo, "active-id" },
    { "clock-control", self->clock_combo, "active-id" },
    { "continue-on-error", self->continue_switch, "active" },
    { "capture-per-rank", self->per_rank_switch, "active" },
    { "ncu-comm-replay", self->comm_replay_combo, "active-id" },
    { "ncu-stall-timeout", self->stall_spin, "value" },
    { "ssh-command", self->ssh_entry, "text" },
    { "fetch-reports", self->fetch_reports_switch, "active" },
    { "transfer-limit", self->transfer_spin, "value" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (bindings); i++)
    g_settings_bind (self->settings, bindings[i].key, bindings[i].widget, bindings[i].property,
                     G_SETTINGS_BIND_DEFAULT);
  {
    g_autoptr (GVariant) hosts = g_settings_get_value (self->settings, "hosts");
    g_autoptr (GPtrArray) list = ws_ssh_hosts_from_variant (hosts);

    ws_hosts_editor_set_hosts (self->hosts_editor, list);
  }
}

/* Hosts are kept as soon as all of them are valid. */
static void
hosts_changed_cb (WsCaptureSettingsDialog *self)
{
  g_autoptr (GPtrArray) hosts = NULL;

  if (self->settings == NULL || !ws_hosts_editor_is_valid (self->hosts_editor))
    return;
  hosts = ws_hosts_editor_get_hosts (self->hosts_editor);
  g_settings_set_value (self->settings, "hosts", ws_ssh_hosts_to_variant (hosts));
}

static void
host_checked_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (WsCaptureSettingsDialog) self = data;
  g_autoptr (GPtrArray) checks = ws_doctor_run_finish (result, NULL);

  if (checks == NULL || g_cancellable_is_cancelled (self->check_cancellable))
    return;
  ws_hosts_editor_show_checks (self->hosts_editor, checks, NULL);
}

/* “Check Host”: the doctor there, on a worker thread. */
static void
check_host_cb (WsCaptureSettingsDialog *self, int index)
{
  g_autoptr (WsCaptureSettings) settings = ws_capture_settings_new ();
  g_autoptr (GPtrArray) all = ws_hosts_editor_get_hosts (self->hosts_editor);
  g_autoptr (GPtrArray) hosts = g_ptr_array_new ();
  g_auto (GStrv) env = g_get_environ ();
  g_autofree char *message = NULL;

  if (index < 0 || (guint) index >= all->len)
    return;
  if (self->settings != NULL)
    ws_capture_settings_load (settings, self->settings);
  ws_capture_settings_apply_environment (settings, (const char *const *) env, NULL, NULL);
  g_ptr_array_add (hosts, g_ptr_array_index (all, index));
  if (self->check_cancellable != NULL)
    g_cancellable_cancel (self->check_cancellable);
  g_clear_object (&self->check_cancellable);
  self->check_cancellable = g_cancellable_new ();
  message =
    g_strdup_printf (_ ("Connecting to %s…"), ((WsSshHost *) g_ptr_array_index (all, index))->name);
  ws_hosts_editor_show_checks (self->hosts_editor, NULL, message);
  ws_doctor_run_hosts_async (settings, NULL, NULL, hosts, self->check_cancellable, host_checked_cb,
                             g_object_ref (self));
}

/* Without a schema, the dialog shows what a run uses: the defaults. */
static void
show_defaults (WsCaptureSettingsDialog *self)
{
  g_autoptr (WsCaptureSettings) defaults = ws_capture_settings_new ();

  gtk_entry_set_text (self->output_entry, defaults->output_dir);
  gtk_entry_set_text (self->trace_entry, defaults->nsys_trace);
  gtk_spin_button_set_value (self->topn_spin, defaults->topn);
  gtk_entry_set_text (GTK_ENTRY (gtk_bin_get_child (GTK_BIN (self->set_combo))), defaults->ncu_set);
  gtk_switch_set_active (self->multi_run_switch, defaults->ncu_multi_run);
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->graph_trace_combo),
                               defaults->nsys_cuda_graph_trace);
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->cache_combo), defaults->cache_control);
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->clock_combo), defaults->clock_control);
  gtk_switch_set_active (self->continue_switch, defaults->continue_on_error);
  gtk_switch_set_active (self->per_rank_switch, defaults->per_rank);
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->comm_replay_combo), "");
  gtk_spin_button_set_value (self->stall_spin, defaults->ncu_stall_timeout);
}

static void
ws_capture_settings_dialog_dispose (GObject *object)
{
  WsCaptureSettingsDialog *self = WS_CAPTURE_SETTINGS_DIALOG (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->check_cancellable != NULL)
    g_cancellable_cancel (self->check_cancellable);
  g_clear_object (&self->check_cancellable);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (ws_capture_settings_dialog_parent_class)->dispose (object);
}

static void
ws_capture_settings_dialog_class_init (WsCaptureSettingsDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_capture_settings_dialog_dispose;

  g_type_ensure (WS_TYPE_HOSTS_EDITOR);
  gtk_widget_class_set_template_from_resource (
    widget_class, "/org/warpscope/Warpscope/ui/ws-capture-settings-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, WsCaptureSettingsDialog, stack);
  gtk_widget_class_bind_template_child (widget_class, WsCaptureSettingsDialog, switcher);
  gtk_widget_class_bind_template_child (widget_class, WsCaptureSettingsDialog, ssh_entry);
  gtk_widget_class_bind_template_child (widget_class, WsCaptureSettingsDialog,
                                        fetch_reports_switch);
  gtk_widget_class_bind_template_child (widget_class, WsCaptureSettingsDialog, transfer_spin);
  gtk_widget_class_bind_template_child (widget_class, WsCaptureSettingsDialog, hosts_editor);
  gtk_widget_class_bind_template_child (widget_class, WsCaptureSettingsDialog, grid);
  gtk_widget_class_bind_template_child (widget_class, WsCaptureSettingsDialog, nsys_entry);
  gtk_widget_class_bind_template_child (widget_class, WsCaptureSettingsDialog, ncu_entry);
  gtk_widget_class_bind_template_child (widget_class, WsCaptureSettingsDialog, output_entry);
  gtk_widget_class_bind_template_child (widget_class, WsCaptureSettingsDialog, log_entry);
  gtk_widget_class_bind_template_child (widget_class, WsCaptureSettingsDialog, range_entry);
  gtk_widget_class_bind_template_child (widget_class, WsCaptureSettingsDialog, trace_entry);
  gtk_widget_class_bind_template_child (widget_class, WsCaptureSettingsDialog, duration_spin);
  gtk_widget_class_bind_template_child (widget_class, WsCaptureSettingsDialog, topn_spin);
  gtk_widget_class_bind_template_child (widget_class, WsCaptureSettingsDialog, set_combo);
  gtk_widget_class_bind_template_child (widget_class, WsCaptureSettingsDialog, sections_entry);
  gtk_widget_class_bind_template_child (widget_class, WsCaptureSettingsDialog, launch_count_spin);
  gtk_widget_class_bind_template_child (widget_class, WsCaptureSettingsDialog, multi_run_switch);
  gtk_widget_class_bind_template_child (widget_class, WsCaptureSettingsDialog, graph_trace_combo);
  gtk_widget_class_bind_template_child (widget_class, WsCaptureSettingsDialog, cache_combo);
  gtk_widget_class_bind_template_child (widget_class, WsCaptureSettingsDialog, clock_combo);
  gtk_widget_class_bind_template_child (widget_class, WsCaptureSettingsDialog, continue_switch);
  gtk_widget_class_bind_template_child (widget_class, WsCaptureSettingsDialog, per_rank_switch);
  gtk_widget_class_bind_template_child (widget_class, WsCaptureSettingsDialog, comm_replay_combo);
  gtk_widget_class_bind_template_child (widget_class, WsCaptureSettingsDialog, stall_spin);
  gtk_widget_class_bind_template_child (widget_class, WsCaptureSettingsDialog, note_label);
  gtk_widget_class_bind_template_callback (widget_class, choose_nsys_cb);
  gtk_widget_class_bind_template_callback (widget_class, choose_ncu_cb);
  gtk_widget_class_bind_template_callback (widget_class, choose_output_cb);
  gtk_widget_class_bind_template_callback (widget_class, hosts_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, check_host_cb);
}

static void
indent_right_column (GtkWidget *child, gpointer data)
{
  int left = 0;

  gtk_container_child_get (GTK_CONTAINER (data), child, "left-attach", &left, NULL);
  if (left == 3)
    gtk_widget_set_margin_start (child, 24);
}

static void
ws_capture_settings_dialog_init (WsCaptureSettingsDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* Two columns of settings, so that the dialog fits a laptop's screen. */
  gtk_container_foreach (GTK_CONTAINER (self->grid), indent_right_column, self->grid);
  self->cancellable = g_cancellable_new ();
  fill_sets (self, NULL);
}

/**
 * ws_capture_settings_dialog_new:
 * @settings: (nullable): the application's settings; %NULL when the schema
 *   is not installed, which the dialog says
 *
 * Returns: (transfer full): the dialog, not shown yet
 */
WsCaptureSettingsDialog *
ws_capture_settings_dialog_new (GtkWindow *parent, GSettings *settings)
{
  WsCaptureSettingsDialog *self = g_object_new (WS_TYPE_CAPTURE_SETTINGS_DIALOG, "transient-for",
                                                parent, "use-header-bar", 1, NULL);

  /* The pages' switcher takes the title's place. */
  if (gtk_dialog_get_header_bar (GTK_DIALOG (self)) != NULL)
    gtk_header_bar_set_custom_title (GTK_HEADER_BAR (gtk_dialog_get_header_bar (GTK_DIALOG (self))),
                                     self->switcher);
  if (settings != NULL)
    {
      self->settings = g_object_ref (settings);
      bind (self);
    }
  else
    {
      show_defaults (self);
      gtk_widget_set_sensitive (GTK_WIDGET (self->grid), FALSE);
      gtk_widget_set_sensitive (GTK_WIDGET (self->hosts_editor), FALSE);
    }
  show_overrides (self);
  probe_tools (self);
  return self;
}

/**
 * ws_capture_settings_dialog_show_page:
 * @page: "capture" or "hosts"
 */
void
ws_capture_settings_dialog_show_page (WsCaptureSettingsDialog *self, const char *page)
{
  g_return_if_fail (WS_IS_CAPTURE_SETTINGS_DIALOG (self));
  gtk_stack_set_visible_child_name (self->stack, page);
}

/**
 * ws_capture_settings_dialog_get_widget:
 * @name: a template child's name: "topn_spin", "set_combo", …
 *
 * Returns: (transfer none) (nullable): the widget, for tests
 */
GtkWidget *
ws_capture_settings_dialog_get_widget (WsCaptureSettingsDialog *self, const char *name)
{
  g_return_val_if_fail (WS_IS_CAPTURE_SETTINGS_DIALOG (self), NULL);
  return GTK_WIDGET (
    gtk_widget_get_template_child (GTK_WIDGET (self), WS_TYPE_CAPTURE_SETTINGS_DIALOG, name));
}
