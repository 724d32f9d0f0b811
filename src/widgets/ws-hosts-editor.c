/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-hosts-editor"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-doctor-view.h"
#include "ws-hosts-editor.h"
#include "ws-ssh-host.h"

/* The machines captures run on: a list of hosts on the left, the selected
 * one's fields on the right (name, ssh destination, port, key file,
 * folder for captures, nsys and ncu there), what is wrong with it, and
 * the doctor's checks of it once asked for.  The editor keeps its own
 * copy of the hosts; ::changed says when the user edited them. */

enum
{
  FIELD_NAME,
  FIELD_DESTINATION,
  FIELD_IDENTITY,
  FIELD_REMOTE_DIR,
  FIELD_NSYS,
  FIELD_NCU,
  N_FIELDS
};

struct _WsHostsEditor
{
  GtkBox parent_instance;

  GPtrArray *hosts; /* of WsSshHost */
  gboolean filling; /* the fields are being filled, not edited */

  GtkListBox *list;
  GtkWidget *remove_button;
  GtkWidget *form;
  GtkEntry *entries[N_FIELDS];
  GtkSpinButton *port_spin;
  GtkWidget *check_button;
  GtkLabel *problem_label;
  GtkWidget *checks_box;
};

G_DEFINE_FINAL_TYPE (WsHostsEditor, ws_hosts_editor, GTK_TYPE_BOX)

enum
{
  CHANGED,
  CHECK,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const char *const entry_names[N_FIELDS] = {
  "name_entry",       "destination_entry", "identity_entry",
  "remote_dir_entry", "nsys_entry",        "ncu_entry",
};

static char **
field_of (WsSshHost *host, guint field)
{
  switch (field)
    {
      case FIELD_NAME:
        return &host->name;
      case FIELD_DESTINATION:
        return &host->destination;
      case FIELD_IDENTITY:
        return &host->identity;
      case FIELD_REMOTE_DIR:
        return &host->remote_dir;
      case FIELD_NSYS:
        return &host->nsys;
      case FIELD_NCU:
      default:
        return &host->ncu;
    }
}

int
ws_hosts_editor_get_selected (WsHostsEditor *self)
{
  GtkListBoxRow *row;

  g_return_val_if_fail (WS_IS_HOSTS_EDITOR (self), -1);

  row = gtk_list_box_get_selected_row (self->list);
  return row != NULL ? gtk_list_box_row_get_index (row) : -1;
}

static WsSshHost *
selected_host (WsHostsEditor *self)
{
  int index = ws_hosts_editor_get_selected (self);

  return index >= 0 && (guint) index < self->hosts->len ? g_ptr_array_index (self->hosts, index)
                                                        : NULL;
}

static char *
row_text (const WsSshHost *host)
{
  g_autofree char *where = host->destination == NULL ? g_strdup (_ ("no destination"))
                           : host->port != 0
                             ? g_strdup_printf ("%s:%u", host->destination, host->port)
                             : g_strdup (host->destination);

  return g_markup_printf_escaped ("<b>%s</b>\n<small>%s</small>",
                                  host->name != NULL ? host->name : _ ("(no name)"), where);
}

static GtkWidget *
make_row (const WsSshHost *host)
{
  g_autofree char *markup = row_text (host);
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_markup (GTK_LABEL (label), markup);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  g_object_set (label, "margin", 6, NULL);
  gtk_widget_show (label);
  return label;
}

/* What is wrong with the selected host, under its fields. */
static void
show_problem (WsHostsEditor *self)
{
  WsSshHost *host = selected_host (self);
  g_autoptr (GError) error = NULL;
  GtkStyleContext *context = gtk_widget_get_style_context (GTK_WIDGET (self->problem_label));

  if (host == NULL)
    {
      gtk_label_set_text (self->problem_label,
                          _ ("Add a host: a machine captures run on, over ssh."));
      gtk_style_context_remove_class (context, "error");
      return;
    }
  for (guint i = 0; i < self->hosts->len && error == NULL; i++)
    {
      const WsSshHost *other = g_ptr_array_index (self->hosts, i);

      if (other != host && g_strcmp0 (other->name, host->name) == 0 && host->name != NULL)
        g_set_error (&error, G_IO_ERROR, G_IO_ERROR_EXISTS,
                     _ ("“%s” is also the name of another host: names must be unique"), host->name);
    }
  if (error != NULL || !ws_ssh_host_validate (host, &error))
    {
      gtk_label_set_text (self->problem_label, error->message);
      gtk_style_context_add_class (context, "error");
    }
  else
    {
      gtk_label_set_text (self->problem_label,
                          _ ("A target runs here when its HOST column names this host. Warpscope "
                             "runs ssh as configured (~/.ssh/config, the agent) and never asks "
                             "for a password: the key must load without a question."));
      gtk_style_context_remove_class (context, "error");
    }
  gtk_widget_set_sensitive (self->check_button, error == NULL);
}

static void
fill_form (WsHostsEditor *self)
{
  WsSshHost *host = selected_host (self);

  self->filling = TRUE;
  for (guint f = 0; f < N_FIELDS; f++)
    {
      char **value = host != NULL ? field_of (host, f) : NULL;

      gtk_entry_set_text (self->entries[f], value != NULL && *value != NULL ? *value : "");
    }
  gtk_spin_button_set_value (self->port_spin, host != NULL ? host->port : 0);
  gtk_widget_set_sensitive (self->form, host != NULL);
  gtk_widget_set_sensitive (self->remove_button, host != NULL);
  self->filling = FALSE;
  show_problem (self);
}

static void
refill_list (WsHostsEditor *self, int select)
{
  GList *children = gtk_container_get_children (GTK_CONTAINER (self->list));

  for (GList *l = children; l != NULL; l = l->next)
    gtk_widget_destroy (l->data);
  g_list_free (children);
  for (guint i = 0; i < self->hosts->len; i++)
    gtk_container_add (GTK_CONTAINER (self->list), make_row (g_ptr_array_index (self->hosts, i)));
  ws_hosts_editor_select (self, select);
}

/**
 * ws_hosts_editor_set_hosts:
 * @hosts: (element-type WsSshHost) (nullable): copied
 */
void
ws_hosts_editor_set_hosts (WsHostsEditor *self, GPtrArray *hosts)
{
  g_return_if_fail (WS_IS_HOSTS_EDITOR (self));

  g_ptr_array_set_size (self->hosts, 0);
  for (guint i = 0; hosts != NULL && i < hosts->len; i++)
    g_ptr_array_add (self->hosts, ws_ssh_host_copy (g_ptr_array_index (hosts, i)));
  refill_list (self, self->hosts->len > 0 ? 0 : -1);
}

/**
 * ws_hosts_editor_get_hosts:
 *
 * Returns: (transfer full) (element-type WsSshHost): a copy of the hosts
 */
GPtrArray *
ws_hosts_editor_get_hosts (WsHostsEditor *self)
{
  GPtrArray *hosts = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_ssh_host_free);

  g_return_val_if_fail (WS_IS_HOSTS_EDITOR (self), hosts);

  for (guint i = 0; i < self->hosts->len; i++)
    g_ptr_array_add (hosts, ws_ssh_host_copy (g_ptr_array_index (self->hosts, i)));
  return hosts;
}

/* Whether every host can be kept: valid, names unique. */
gboolean
ws_hosts_editor_is_valid (WsHostsEditor *self)
{
  g_autoptr (GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);

  g_return_val_if_fail (WS_IS_HOSTS_EDITOR (self), FALSE);

  for (guint i = 0; i < self->hosts->len; i++)
    {
      WsSshHost *host = g_ptr_array_index (self->hosts, i);

      if (!ws_ssh_host_validate (host, NULL) || !g_hash_table_add (names, host->name))
        return FALSE;
    }
  return TRUE;
}

void
ws_hosts_editor_select (WsHostsEditor *self, int index)
{
  GtkListBoxRow *row;

  g_return_if_fail (WS_IS_HOSTS_EDITOR (self));

  row = index >= 0 ? gtk_list_box_get_row_at_index (self->list, index) : NULL;
  if (row != NULL)
    gtk_list_box_select_row (self->list, row);
  else
    gtk_list_box_unselect_all (self->list);
  fill_form (self);
}

static void
changed (WsHostsEditor *self)
{
  ws_hosts_editor_show_checks (self, NULL, NULL);
  g_signal_emit (self, signals[CHANGED], 0);
}

/* The selected host was edited: its row, its problem, ::changed. */
static void
host_edited (WsHostsEditor *self, WsSshHost *host)
{
  GtkListBoxRow *row = gtk_list_box_get_selected_row (self->list);

  if (row != NULL)
    {
      g_autofree char *markup = row_text (host);

      gtk_label_set_markup (GTK_LABEL (gtk_bin_get_child (GTK_BIN (row))), markup);
    }
  show_problem (self);
  changed (self);
}

static void
entry_changed_cb (GtkEntry *entry, gpointer data)
{
  WsHostsEditor *self = data;
  WsSshHost *host = selected_host (self);
  guint field = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (entry), "ws-field"));
  g_autofree char *value = NULL;
  char **slot;

  if (self->filling || host == NULL)
    return;
  value = g_strstrip (g_strdup (gtk_entry_get_text (entry)));
  slot = field_of (host, field);
  g_free (*slot);
  *slot = value[0] != '\0' ? g_steal_pointer (&value) : NULL;
  host_edited (self, host);
}

static void
port_changed_cb (GtkSpinButton *spin, gpointer data)
{
  WsHostsEditor *self = data;
  WsSshHost *host = selected_host (self);

  if (self->filling || host == NULL)
    return;
  host->port = (guint) gtk_spin_button_get_value_as_int (spin);
  host_edited (self, host);
}

static void
selected_cb (WsHostsEditor *self)
{
  fill_form (self);
  ws_hosts_editor_show_checks (self, NULL, NULL);
}

/* Adds a host named host, host2, … and selects it. */
void
ws_hosts_editor_add (WsHostsEditor *self)
{
  g_autofree char *name = g_strdup ("host");

  g_return_if_fail (WS_IS_HOSTS_EDITOR (self));

  for (guint n = 2;; n++)
    {
      gboolean taken = FALSE;

      for (guint i = 0; i < self->hosts->len; i++)
        taken =
          taken || g_strcmp0 (((WsSshHost *) g_ptr_array_index (self->hosts, i))->name, name) == 0;
      if (!taken)
        break;
      g_free (name);
      name = g_strdup_printf ("host%u", n);
    }
  g_ptr_array_add (self->hosts, ws_ssh_host_new (name, NULL, 0));
  refill_list (self, (int) self->hosts->len - 1);
  gtk_widget_grab_focus (GTK_WIDGET (self->entries[FIELD_DESTINATION]));
  changed (self);
}

static void
remove_clicked_cb (WsHostsEditor *self)
{
  int index = ws_hosts_editor_get_selected (self);

  if (index < 0)
    return;
  g_ptr_array_remove_index (self->hosts, index);
  refill_list (self, MIN (index, (int) self->hosts->len - 1));
  changed (self);
}

static void
check_clicked_cb (WsHostsEditor *self)
{
  int index = ws_hosts_editor_get_selected (self);

  if (index >= 0)
    g_signal_emit (self, signals[CHECK], 0, index);
}

static void
choose_response_cb (GtkNativeDialog *dialog, int response, gpointer data)
{
  WsHostsEditor *self = data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autofree char *path = gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (dialog));

      if (path != NULL)
        gtk_entry_set_text (self->entries[FIELD_IDENTITY], path);
    }
  g_object_unref (dialog);
  g_object_unref (self);
}

static void
choose_identity_cb (WsHostsEditor *self)
{
  GtkWidget *toplevel = gtk_widget_get_toplevel (GTK_WIDGET (self));
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (
    _ ("Choose the Key File"), GTK_IS_WINDOW (toplevel) ? GTK_WINDOW (toplevel) : NULL,
    GTK_FILE_CHOOSER_ACTION_OPEN, _ ("_Select"), _ ("_Cancel"));
  g_autofree char *ssh_dir = g_build_filename (g_get_home_dir (), ".ssh", NULL);

  gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), ssh_dir);
  g_signal_connect (dialog, "response", G_CALLBACK (choose_response_cb), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/**
 * ws_hosts_editor_show_checks:
 * @checks: (element-type WsDoctorCheck) (nullable): the doctor's checks
 *   of the selected host
 * @message: (nullable): a line to show instead, while they run
 */
void
ws_hosts_editor_show_checks (WsHostsEditor *self, GPtrArray *checks, const char *message)
{
  GList *children;

  g_return_if_fail (WS_IS_HOSTS_EDITOR (self));

  children = gtk_container_get_children (GTK_CONTAINER (self->checks_box));
  for (GList *l = children; l != NULL; l = l->next)
    gtk_widget_destroy (l->data);
  g_list_free (children);
  if (message != NULL)
    {
      GtkWidget *label = gtk_label_new (message);

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_show (label);
      gtk_container_add (GTK_CONTAINER (self->checks_box), label);
    }
  if (checks != NULL)
    gtk_container_add (GTK_CONTAINER (self->checks_box), ws_doctor_view_new (checks));
}

/**
 * ws_hosts_editor_get_widget:
 * @name: "name_entry", "destination_entry", "port_spin", "identity_entry",
 *   "remote_dir_entry", "nsys_entry", "ncu_entry", "check_button",
 *   "problem_label", "list"
 *
 * Returns: (transfer none) (nullable): the widget, for tests
 */
GtkWidget *
ws_hosts_editor_get_widget (WsHostsEditor *self, const char *name)
{
  g_return_val_if_fail (WS_IS_HOSTS_EDITOR (self), NULL);

  for (guint f = 0; f < N_FIELDS; f++)
    if (g_str_equal (name, entry_names[f]))
      return GTK_WIDGET (self->entries[f]);
  if (g_str_equal (name, "port_spin"))
    return GTK_WIDGET (self->port_spin);
  if (g_str_equal (name, "check_button"))
    return self->check_button;
  if (g_str_equal (name, "problem_label"))
    return GTK_WIDGET (self->problem_label);
  if (g_str_equal (name, "list"))
    return GTK_WIDGET (self->list);
  return NULL;
}

static void
ws_hosts_editor_finalize (GObject *object)
{
  WsHostsEditor *self = WS_HOSTS_EDITOR (object);

  g_ptr_array_unref (self->hosts);

  G_OBJECT_CLASS (ws_hosts_editor_parent_class)->finalize (object);
}

static void
ws_hosts_editor_class_init (WsHostsEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = ws_hosts_editor_finalize;
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "wshostseditor");

  /**
   * WsHostsEditor::changed:
   *
   * The user added, removed or edited a host.
   */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                   NULL, NULL, G_TYPE_NONE, 0);

  /**
   * WsHostsEditor::check:
   * @index: the host to check
   *
   * “Check Host” was clicked: the owner runs the doctor there and shows
   * the result with ws_hosts_editor_show_checks().
   */
  signals[CHECK] = g_signal_new ("check", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                 NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT);
}

static GtkWidget *
field_label (const char *text, GtkWidget *mnemonic)
{
  GtkWidget *label = gtk_label_new_with_mnemonic (text);

  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), mnemonic);
  return label;
}

static GtkWidget *
tool_button (WsHostsEditor *self, const char *icon, const char *tooltip, GCallback callback)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon, GTK_ICON_SIZE_BUTTON);

  gtk_widget_set_tooltip_text (button, tooltip);
  g_signal_connect_object (button, "clicked", callback, self, G_CONNECT_SWAPPED);
  return button;
}

/* The list of hosts, with the buttons that add and remove one. */
static GtkWidget *
build_host_list (WsHostsEditor *self)
{
  GtkWidget *left = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *scrolled = gtk_scrolled_window_new (NULL, NULL);
  GtkWidget *toolbar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);

  self->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->list, GTK_SELECTION_BROWSE);
  g_signal_connect_object (self->list, "selected-rows-changed", G_CALLBACK (selected_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_scrolled_window_set_shadow_type (GTK_SCROLLED_WINDOW (scrolled), GTK_SHADOW_IN);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_widget_set_size_request (scrolled, 220, 240);
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_container_add (GTK_CONTAINER (scrolled), GTK_WIDGET (self->list));
  gtk_container_add (GTK_CONTAINER (left), scrolled);
  gtk_style_context_add_class (gtk_widget_get_style_context (toolbar), GTK_STYLE_CLASS_LINKED);
  gtk_container_add (
    GTK_CONTAINER (toolbar),
    tool_button (self, "list-add-symbolic", _ ("Add a host"), G_CALLBACK (ws_hosts_editor_add)));
  self->remove_button = tool_button (self, "list-remove-symbolic", _ ("Remove the host"),
                                     G_CALLBACK (remove_clicked_cb));
  gtk_container_add (GTK_CONTAINER (toolbar), self->remove_button);
  gtk_widget_set_margin_top (toolbar, 6);
  gtk_container_add (GTK_CONTAINER (left), toolbar);
  return left;
}

/* The form of the selected host: an entry per field, the port after the
 * destination, a file chooser beside the key file. */
static GtkWidget *
build_form (WsHostsEditor *self)
{
  static const char *const labels[N_FIELDS] = {
    N_ ("_Name"),        N_ ("_Destination"), N_ ("_Key file"),
    N_ ("Captures _in"), N_ ("ns_ys"),        N_ ("n_cu"),
  };
  static const char *const placeholders[N_FIELDS] = {
    N_ ("as the HOST column names it"),
    N_ ("user@host, or an ssh Host alias"),
    N_ ("the agent and ssh’s configuration"),
    WS_SSH_HOST_DEFAULT_DIR,
    N_ ("found there"),
    N_ ("found there"),
  };
  static const char *const tooltips[N_FIELDS] = {
    N_ ("What the HOST column of targets.tsv calls this machine"),
    N_ ("What ssh connects to: user@host, or a Host of ~/.ssh/config"),
    N_ ("A private key file (ssh -i); empty: the keys of the agent and of ssh’s configuration"),
    N_ ("The folder on the host where captures go; ~/ is the home folder there"),
    N_ ("The path of nsys on the host; empty: found on its PATH, in /usr/local/cuda/bin or "
        "/opt/nvidia"),
    N_ ("The path of ncu on the host; empty: found on its PATH, in /usr/local/cuda/bin or "
        "/opt/nvidia"),
  };
  GtkWidget *grid = gtk_grid_new ();
  GtkWidget *choose = gtk_button_new_with_mnemonic (_ ("Choose…"));
  GtkWidget *port_hint = gtk_label_new (_ ("0: as ssh’s configuration says"));
  int top = 0;

  gtk_grid_set_row_spacing (GTK_GRID (grid), 8);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  for (guint f = 0; f < N_FIELDS; f++)
    {
      self->entries[f] = GTK_ENTRY (gtk_entry_new ());
      gtk_entry_set_placeholder_text (self->entries[f], _ (placeholders[f]));
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->entries[f]), _ (tooltips[f]));
      gtk_widget_set_hexpand (GTK_WIDGET (self->entries[f]), TRUE);
      gtk_entry_set_width_chars (self->entries[f], 30);
      g_object_set_data (G_OBJECT (self->entries[f]), "ws-field", GUINT_TO_POINTER (f));
      g_signal_connect_object (self->entries[f], "changed", G_CALLBACK (entry_changed_cb), self, 0);
      gtk_grid_attach (GTK_GRID (grid), field_label (_ (labels[f]), GTK_WIDGET (self->entries[f])),
                       0, top, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (self->entries[f]), 1, top,
                       f == FIELD_IDENTITY ? 1 : 2, 1);
      if (f == FIELD_IDENTITY)
        gtk_grid_attach (GTK_GRID (grid), choose, 2, top, 1, 1);
      top++;
      if (f == FIELD_DESTINATION)
        {
          self->port_spin = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (0, 65535, 1));
          gtk_widget_set_tooltip_text (GTK_WIDGET (self->port_spin),
                                       _ ("ssh -p; 0: as ssh’s configuration says (22)"));
          g_signal_connect_object (self->port_spin, "value-changed", G_CALLBACK (port_changed_cb),
                                   self, 0);
          gtk_widget_set_halign (GTK_WIDGET (self->port_spin), GTK_ALIGN_START);
          gtk_grid_attach (GTK_GRID (grid), field_label (_ ("_Port"), GTK_WIDGET (self->port_spin)),
                           0, top, 1, 1);
          gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (self->port_spin), 1, top, 1, 1);
          gtk_label_set_xalign (GTK_LABEL (port_hint), 0);
          gtk_style_context_add_class (gtk_widget_get_style_context (port_hint), "ws-dim");
          gtk_grid_attach (GTK_GRID (grid), port_hint, 2, top++, 1, 1);
        }
    }
  g_signal_connect_object (choose, "clicked", G_CALLBACK (choose_identity_cb), self,
                           G_CONNECT_SWAPPED);
  return grid;
}

/* Under the form: what is wrong with the host, the button that checks it
 * and the checks' results. */
static void
build_checks (WsHostsEditor *self, GtkWidget *right)
{
  GtkWidget *checks_scrolled = gtk_scrolled_window_new (NULL, NULL);

  self->problem_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->problem_label, 0);
  gtk_label_set_line_wrap (self->problem_label, TRUE);
  gtk_label_set_max_width_chars (self->problem_label, 60);
  gtk_container_add (GTK_CONTAINER (right), GTK_WIDGET (self->problem_label));

  self->check_button = gtk_button_new_with_mnemonic (_ ("C_heck Host"));
  gtk_widget_set_tooltip_text (self->check_button,
                               _ ("Connect and run the doctor there: its tools, GPU counters, "
                                  "GPUs and free space"));
  gtk_widget_set_halign (self->check_button, GTK_ALIGN_START);
  g_signal_connect_object (self->check_button, "clicked", G_CALLBACK (check_clicked_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_container_add (GTK_CONTAINER (right), self->check_button);

  self->checks_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (checks_scrolled), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (checks_scrolled), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (checks_scrolled), 340);
  gtk_container_add (GTK_CONTAINER (checks_scrolled), self->checks_box);
  gtk_container_add (GTK_CONTAINER (right), checks_scrolled);
}

static void
ws_hosts_editor_init (WsHostsEditor *self)
{
  GtkWidget *right = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);

  self->hosts = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_ssh_host_free);
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_HORIZONTAL);
  gtk_box_set_spacing (GTK_BOX (self), 18);
  gtk_container_add (GTK_CONTAINER (self), build_host_list (self));
  self->form = build_form (self);
  gtk_container_add (GTK_CONTAINER (right), self->form);
  build_checks (self, right);
  gtk_widget_set_hexpand (right, TRUE);
  gtk_container_add (GTK_CONTAINER (self), right);
  gtk_widget_show_all (GTK_WIDGET (self));
  fill_form (self);
}

GtkWidget *
ws_hosts_editor_new (void)
{
  return g_object_new (WS_TYPE_HOSTS_EDITOR, NULL);
}
