/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-targets-editor"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-target-validate.h"
#include "ws-targets-editor.h"
#include "ws-widget-palette.h"

/* The rows of a targets file as an editable list.  The WsTargetList is the
 * model: every edit goes to it (so that comments and line ends survive),
 * and the list store is refilled from it, with each cell's problem from
 * validation, after each change. */

enum
{
  COL_NAME,
  COL_CMD,
  COL_WORKDIR,
  COL_ENVS,
  COL_HOST,
  COL_PROBLEM_NAME, /* the problem of each cell, or NULL */
  COL_PROBLEM_CMD,
  COL_PROBLEM_WORKDIR,
  COL_PROBLEM_ENVS,
  COL_PROBLEM_HOST,
  COL_ROW_ICON, /* a warning icon on rows with a problem */
  N_COLS
};

struct _WsTargetsEditor
{
  GtkBox parent_instance;

  WsTargetList *list;
  GtkListStore *store;
  GtkListStore *hosts; /* the HOST column's choices: this machine, then the known hosts */
  GtkTreeView *view;
  GtkTreeViewColumn *columns[WS_TARGET_N_COLUMNS];
  GtkTreeViewColumn *folder_column;
  GtkWidget *remove_button;
  GtkWidget *duplicate_button;
  GtkWidget *up_button;
  GtkWidget *down_button;
  GtkWidget *folder_button;
  GtkLabel *status_label;
  guint n_problems;
  GdkRGBA error_color; /* of cells with a problem */
};

G_DEFINE_FINAL_TYPE (WsTargetsEditor, ws_targets_editor, GTK_TYPE_BOX)

static const char *const column_titles[WS_TARGET_N_COLUMNS] = {
  N_ ("NAME"), N_ ("CMD"), N_ ("WORKDIR"), N_ ("ENVS"), N_ ("HOST"),
};

static const char *const column_tooltips[WS_TARGET_N_COLUMNS] = {
  N_ ("The target's name: unique; its output folder is made of it"),
  N_ ("The command, run as “bash -lc CMD” in WORKDIR"),
  N_ ("The folder CMD runs in, relative to the targets file's folder; empty or “-”: that folder"),
  N_ ("Environment variables as A=1,B=2; empty or “-”: none"),
  N_ ("The machine the target runs on, over ssh: a host of the settings, user@host[:port] or an "
      "ssh Host alias; empty or “-”: this machine. On a host, WORKDIR is a folder there"),
};

int
ws_targets_editor_get_selected (WsTargetsEditor *self)
{
  GtkTreeSelection *selection;
  GtkTreeModel *model;
  GtkTreeIter iter;
  g_autoptr (GtkTreePath) path = NULL;

  g_return_val_if_fail (WS_IS_TARGETS_EDITOR (self), -1);

  selection = gtk_tree_view_get_selection (self->view);
  if (!gtk_tree_selection_get_selected (selection, &model, &iter))
    return -1;
  path = gtk_tree_model_get_path (model, &iter);
  return gtk_tree_path_get_indices (path)[0];
}

void
ws_targets_editor_select (WsTargetsEditor *self, int row)
{
  GtkTreeSelection *selection;
  g_autoptr (GtkTreePath) path = NULL;

  g_return_if_fail (WS_IS_TARGETS_EDITOR (self));

  selection = gtk_tree_view_get_selection (self->view);
  if (row < 0 || row >= gtk_tree_model_iter_n_children (GTK_TREE_MODEL (self->store), NULL))
    {
      gtk_tree_selection_unselect_all (selection);
      return;
    }
  path = gtk_tree_path_new_from_indices (row, -1);
  gtk_tree_selection_select_path (selection, path);
  gtk_tree_view_scroll_to_cell (self->view, path, NULL, FALSE, 0, 0);
}

static void
update_buttons (WsTargetsEditor *self)
{
  int row = ws_targets_editor_get_selected (self);
  int n = gtk_tree_model_iter_n_children (GTK_TREE_MODEL (self->store), NULL);

  gtk_widget_set_sensitive (self->remove_button, row >= 0);
  gtk_widget_set_sensitive (self->duplicate_button, row >= 0);
  gtk_widget_set_sensitive (self->folder_button, row >= 0);
  gtk_widget_set_sensitive (self->up_button, row > 0);
  gtk_widget_set_sensitive (self->down_button, row >= 0 && row + 1 < n);
}

static void
update_status (WsTargetsEditor *self)
{
  g_autofree char *text = NULL;
  guint n = self->list != NULL ? ws_target_list_get_n_targets (self->list) : 0;

  if (self->n_problems == 0)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u target", "%u targets", n), n);
  else
    {
      g_autofree char *targets =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u target", "%u targets", n), n);

      text =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s, %u problem (hover the red cells)",
                                      "%s, %u problems (hover the red cells)", self->n_problems),
                         targets, self->n_problems);
    }
  gtk_label_set_text (self->status_label, text);
}

/* Fills the store from the list: in place when the number of rows is the
 * same (an edit), so that an editing cell is not torn away. */
static void
refill (WsTargetsEditor *self)
{
  GtkTreeModel *model = GTK_TREE_MODEL (self->store);
  g_autoptr (GPtrArray) problems = NULL;
  guint n = self->list != NULL ? ws_target_list_get_n_targets (self->list) : 0;
  int selected = ws_targets_editor_get_selected (self);
  GtkTreeIter iter;

  if ((guint) gtk_tree_model_iter_n_children (model, NULL) != n)
    {
      gtk_list_store_clear (self->store);
      for (guint row = 0; row < n; row++)
        gtk_list_store_append (self->store, &iter);
    }
  problems = self->list != NULL ? ws_target_list_validate (self->list) : g_ptr_array_new ();
  self->n_problems = problems->len;

  for (guint row = 0; row < n; row++)
    {
      const char *cell_problems[WS_TARGET_N_COLUMNS] = { NULL };
      gboolean any = FALSE;

      for (guint p = 0; p < problems->len; p++)
        {
          const WsTargetProblem *problem = g_ptr_array_index (problems, p);

          if (problem->row == row)
            {
              cell_problems[problem->column] = problem->message;
              any = TRUE;
            }
        }
      gtk_tree_model_iter_nth_child (model, &iter, NULL, (int) row);
      gtk_list_store_set (
        self->store, &iter, COL_NAME, ws_target_list_get (self->list, row, WS_TARGET_NAME), COL_CMD,
        ws_target_list_get (self->list, row, WS_TARGET_CMD), COL_WORKDIR,
        ws_target_list_get (self->list, row, WS_TARGET_WORKDIR), COL_ENVS,
        ws_target_list_get (self->list, row, WS_TARGET_ENVS), COL_HOST,
        ws_target_list_get (self->list, row, WS_TARGET_HOST), COL_PROBLEM_NAME,
        cell_problems[WS_TARGET_NAME], COL_PROBLEM_CMD, cell_problems[WS_TARGET_CMD],
        COL_PROBLEM_WORKDIR, cell_problems[WS_TARGET_WORKDIR], COL_PROBLEM_ENVS,
        cell_problems[WS_TARGET_ENVS], COL_PROBLEM_HOST, cell_problems[WS_TARGET_HOST],
        COL_ROW_ICON, any ? "dialog-warning-symbolic" : NULL, -1);
    }
  if (selected >= 0 && (guint) selected < n && ws_targets_editor_get_selected (self) < 0)
    ws_targets_editor_select (self, selected);
  update_buttons (self);
  update_status (self);
}

static void
list_changed_cb (WsTargetsEditor *self, WsTargetList *list)
{
  refill (self);
}

/**
 * ws_targets_editor_set_list:
 *
 * Shows and edits @list; the editor keeps a reference.
 */
void
ws_targets_editor_set_list (WsTargetsEditor *self, WsTargetList *list)
{
  g_return_if_fail (WS_IS_TARGETS_EDITOR (self));
  g_return_if_fail (list == NULL || WS_IS_TARGET_LIST (list));

  if (self->list == list)
    return;
  if (self->list != NULL)
    g_signal_handlers_disconnect_by_data (self->list, self);
  g_set_object (&self->list, list);
  gtk_list_store_clear (self->store);
  if (list != NULL)
    g_signal_connect_object (list, "changed", G_CALLBACK (list_changed_cb), self,
                             G_CONNECT_SWAPPED);
  refill (self);
}

/**
 * ws_targets_editor_get_list:
 *
 * Returns: (transfer none) (nullable): the list being edited
 */
WsTargetList *
ws_targets_editor_get_list (WsTargetsEditor *self)
{
  g_return_val_if_fail (WS_IS_TARGETS_EDITOR (self), NULL);
  return self->list;
}

GtkTreeView *
ws_targets_editor_get_view (WsTargetsEditor *self)
{
  g_return_val_if_fail (WS_IS_TARGETS_EDITOR (self), NULL);
  return self->view;
}

guint
ws_targets_editor_get_n_problems (WsTargetsEditor *self)
{
  g_return_val_if_fail (WS_IS_TARGETS_EDITOR (self), 0);
  return self->n_problems;
}

/**
 * ws_targets_editor_get_problem:
 *
 * Returns: (transfer full) (nullable): what the cell's tooltip says is
 *   wrong with it
 */
char *
ws_targets_editor_get_problem (WsTargetsEditor *self, guint row, WsTargetColumn column)
{
  GtkTreeIter iter;
  char *problem = NULL;

  g_return_val_if_fail (WS_IS_TARGETS_EDITOR (self), NULL);
  g_return_val_if_fail (column < WS_TARGET_N_COLUMNS, NULL);

  if (!gtk_tree_model_iter_nth_child (GTK_TREE_MODEL (self->store), &iter, NULL, (int) row))
    return NULL;
  gtk_tree_model_get (GTK_TREE_MODEL (self->store), &iter, COL_PROBLEM_NAME + column, &problem, -1);
  return problem;
}

/* Starts editing a cell, as a click on it would. */
void
ws_targets_editor_edit (WsTargetsEditor *self, guint row, WsTargetColumn column)
{
  g_autoptr (GtkTreePath) path = gtk_tree_path_new_from_indices ((int) row, -1);

  g_return_if_fail (WS_IS_TARGETS_EDITOR (self));
  g_return_if_fail (column < WS_TARGET_N_COLUMNS);

  gtk_widget_grab_focus (GTK_WIDGET (self->view));
  gtk_tree_view_set_cursor (self->view, path, self->columns[column], TRUE);
}

static void
edited_cb (GtkCellRendererText *renderer, const char *path_string, const char *text, gpointer data)
{
  WsTargetsEditor *self = data;
  WsTargetColumn column = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (renderer), "ws-column"));
  g_autoptr (GtkTreePath) path = gtk_tree_path_new_from_string (path_string);

  guint row;

  if (self->list == NULL || path == NULL)
    return;
  row = (guint) gtk_tree_path_get_indices (path)[0];
  /* “This machine” on a row without a HOST: nothing to write. */
  if (column == WS_TARGET_HOST && ws_target_value_is_empty (text) &&
      ws_target_list_get (self->list, row, WS_TARGET_HOST)[0] == '\0')
    return;
  ws_target_list_set (self->list, row, column, text);
}

/**
 * ws_targets_editor_set_hosts:
 * @names: (nullable): the hosts of the settings, by name
 *
 * Offers them in the HOST column, after “-” (this machine).
 */
void
ws_targets_editor_set_hosts (WsTargetsEditor *self, const char *const *names)
{
  GtkTreeIter iter;

  g_return_if_fail (WS_IS_TARGETS_EDITOR (self));

  gtk_list_store_clear (self->hosts);
  gtk_list_store_insert_with_values (self->hosts, &iter, -1, 0, "-", 1, _ ("this machine"), -1);
  for (guint i = 0; names != NULL && names[i] != NULL; i++)
    gtk_list_store_insert_with_values (self->hosts, &iter, -1, 0, names[i], 1, names[i], -1);
}

static void
text_cell_data (GtkTreeViewColumn *tree_column, GtkCellRenderer *renderer, GtkTreeModel *model,
                GtkTreeIter *iter, gpointer data)
{
  WsTargetsEditor *self = data;
  WsTargetColumn column = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (renderer), "ws-column"));
  g_autofree char *problem = NULL;
  gtk_tree_model_get (model, iter, COL_PROBLEM_NAME + column, &problem, -1);
  g_object_set (renderer, "foreground-rgba", &self->error_color, "foreground-set", problem != NULL,
                "underline", problem != NULL ? PANGO_UNDERLINE_ERROR : PANGO_UNDERLINE_NONE, NULL);
}

/* The comparison's "slower" red: readable on light and dark themes. */
static void
style_updated_cb (WsTargetsEditor *self)
{
  WsPalette palette;

  ws_widget_palette (GTK_WIDGET (self->view), &palette);
  self->error_color = (GdkRGBA){ palette.slower.r, palette.slower.g, palette.slower.b, 1 };
}

static GtkTreeViewColumn *
add_text_column (WsTargetsEditor *self, WsTargetColumn column, const char *placeholder)
{
  /* HOST: a known host from the list, or any destination typed. */
  GtkCellRenderer *renderer = column == WS_TARGET_HOST
                                ? g_object_new (GTK_TYPE_CELL_RENDERER_COMBO, "model", self->hosts,
                                                "text-column", 0, "has-entry", TRUE, NULL)
                                : gtk_cell_renderer_text_new ();
  GtkTreeViewColumn *tree_column;
  GtkWidget *header = gtk_label_new (_ (column_titles[column]));

  g_object_set (renderer, "editable", TRUE, "ellipsize",
                column == WS_TARGET_CMD ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE,
                "placeholder-text", placeholder, NULL);
  g_object_set_data (G_OBJECT (renderer), "ws-column", GUINT_TO_POINTER (column));
  g_signal_connect (renderer, "edited", G_CALLBACK (edited_cb), self);

  tree_column = gtk_tree_view_column_new ();
  gtk_tree_view_column_pack_start (tree_column, renderer, TRUE);
  gtk_tree_view_column_add_attribute (tree_column, renderer, "text", COL_NAME + column);
  gtk_tree_view_column_set_cell_data_func (tree_column, renderer, text_cell_data, self, NULL);
  gtk_tree_view_column_set_resizable (tree_column, TRUE);
  gtk_tree_view_column_set_expand (tree_column, column == WS_TARGET_CMD);
  gtk_tree_view_column_set_min_width (tree_column, column == WS_TARGET_CMD ? 240 : 100);
  gtk_widget_set_tooltip_text (header, _ (column_tooltips[column]));
  gtk_widget_show (header);
  gtk_tree_view_column_set_widget (tree_column, header);
  gtk_tree_view_append_column (self->view, tree_column);
  return tree_column;
}

/* The folder the chooser should open at: the row's WORKDIR when it
 * exists, else the targets file's folder. */
static char *
start_folder (WsTargetsEditor *self, guint row)
{
  g_autofree char *workdir = ws_target_list_resolve_workdir (self->list, row);

  if (g_file_test (workdir, G_FILE_TEST_IS_DIR))
    return g_steal_pointer (&workdir);
  return ws_target_list_get_base_dir (self->list);
}

typedef struct
{
  WsTargetsEditor *editor;
  guint row;
} FolderRequest;

static void
folder_response_cb (GtkNativeDialog *dialog, int response, gpointer data)
{
  FolderRequest *request = data;
  WsTargetsEditor *self = request->editor;

  if (response == GTK_RESPONSE_ACCEPT && self->list != NULL &&
      request->row < ws_target_list_get_n_targets (self->list))
    {
      g_autoptr (GFile) chosen = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *base_path = ws_target_list_get_base_dir (self->list);
      g_autoptr (GFile) base = g_file_new_for_path (base_path);
      g_autofree char *relative = g_file_get_relative_path (base, chosen);
      g_autofree char *absolute = g_file_get_path (chosen);

      /* Relative to the targets file when inside its folder: the file
       * stays valid when the folder moves. */
      if (g_file_equal (base, chosen))
        ws_target_list_set (self->list, request->row, WS_TARGET_WORKDIR, ".");
      else
        ws_target_list_set (self->list, request->row, WS_TARGET_WORKDIR,
                            relative != NULL ? relative : absolute);
    }
  g_object_unref (request->editor);
  g_free (request);
  g_object_unref (dialog);
}

static void
choose_folder (WsTargetsEditor *self, guint row)
{
  GtkWidget *toplevel = gtk_widget_get_toplevel (GTK_WIDGET (self));
  g_autofree char *folder = start_folder (self, row);
  g_autofree char *title =
    g_strdup_printf (_ ("WORKDIR of “%s”"), ws_target_list_get (self->list, row, WS_TARGET_NAME));
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (
    title, GTK_IS_WINDOW (toplevel) ? GTK_WINDOW (toplevel) : NULL,
    GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _ ("_Select"), _ ("_Cancel"));
  FolderRequest *request = g_new0 (FolderRequest, 1);

  request->editor = g_object_ref (self);
  request->row = row;
  gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), folder);
  g_signal_connect (dialog, "response", G_CALLBACK (folder_response_cb), request);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
folder_clicked_cb (WsTargetsEditor *self)
{
  int row = ws_targets_editor_get_selected (self);

  if (row >= 0 && self->list != NULL)
    choose_folder (self, (guint) row);
}

/* A click on the folder icon beside WORKDIR opens the folder chooser. */
static gboolean
button_press_cb (WsTargetsEditor *self, GdkEventButton *event, GtkTreeView *view)
{
  g_autoptr (GtkTreePath) path = NULL;
  GtkTreeViewColumn *column = NULL;

  if (event->type != GDK_BUTTON_PRESS || event->button != GDK_BUTTON_PRIMARY ||
      event->window != gtk_tree_view_get_bin_window (view))
    return GDK_EVENT_PROPAGATE;
  if (!gtk_tree_view_get_path_at_pos (view, (int) event->x, (int) event->y, &path, &column, NULL,
                                      NULL) ||
      column != self->folder_column || self->list == NULL)
    return GDK_EVENT_PROPAGATE;
  ws_targets_editor_select (self, gtk_tree_path_get_indices (path)[0]);
  choose_folder (self, (guint) gtk_tree_path_get_indices (path)[0]);
  return GDK_EVENT_STOP;
}

/* Each cell's tooltip says what is wrong with it, or what the column is. */
static gboolean
query_tooltip_cb (WsTargetsEditor *self, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
                  GtkTreeView *view)
{
  g_autoptr (GtkTreePath) path = NULL;
  GtkTreeViewColumn *column = NULL;
  int bx, by;

  if (keyboard)
    gtk_tree_view_get_cursor (view, &path, &column);
  else
    {
      gtk_tree_view_convert_widget_to_bin_window_coords (view, x, y, &bx, &by);
      if (!gtk_tree_view_get_path_at_pos (view, bx, by, &path, &column, NULL, NULL))
        return FALSE;
    }
  if (path == NULL || column == NULL)
    return FALSE;

  if (column == self->folder_column)
    {
      gtk_tooltip_set_text (tooltip, _ ("Choose the WORKDIR folder"));
      gtk_tree_view_set_tooltip_cell (view, tooltip, path, column, NULL);
      return TRUE;
    }
  for (guint c = 0; c < WS_TARGET_N_COLUMNS; c++)
    if (self->columns[c] == column)
      {
        g_autofree char *problem =
          ws_targets_editor_get_problem (self, (guint) gtk_tree_path_get_indices (path)[0], c);

        if (problem == NULL)
          return FALSE;
        gtk_tooltip_set_text (tooltip, problem);
        gtk_tree_view_set_tooltip_cell (view, tooltip, path, column, NULL);
        return TRUE;
      }
  return FALSE;
}

static void
add_clicked_cb (WsTargetsEditor *self)
{
  const char *fields[WS_TARGET_N_COLUMNS] = { NULL, "", "-", "-" };
  g_autofree char *name = NULL;
  int selected = ws_targets_editor_get_selected (self);
  guint row;

  if (self->list == NULL)
    return;
  name = g_strdup ("target");
  for (guint i = 2; ws_target_list_find (self->list, name) >= 0; i++)
    {
      g_free (name);
      name = g_strdup_printf ("target%u", i);
    }
  fields[WS_TARGET_NAME] = name;
  row = ws_target_list_insert (
    self->list, selected >= 0 ? (guint) selected + 1 : ws_target_list_get_n_targets (self->list),
    fields);
  ws_targets_editor_select (self, (int) row);
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    ws_targets_editor_edit (self, row, WS_TARGET_NAME);
}

static void
remove_clicked_cb (WsTargetsEditor *self)
{
  int row = ws_targets_editor_get_selected (self);
  guint n;

  if (row < 0 || self->list == NULL)
    return;
  ws_target_list_remove (self->list, (guint) row);
  n = ws_target_list_get_n_targets (self->list);
  ws_targets_editor_select (self, n == 0 ? -1 : MIN (row, (int) n - 1));
}

static void
duplicate_clicked_cb (WsTargetsEditor *self)
{
  int row = ws_targets_editor_get_selected (self);

  if (row < 0 || self->list == NULL)
    return;
  ws_targets_editor_select (self, (int) ws_target_list_duplicate (self->list, (guint) row));
}

static void
move (WsTargetsEditor *self, int delta)
{
  int row = ws_targets_editor_get_selected (self);

  if (row < 0 || self->list == NULL)
    return;
  if (ws_target_list_move (self->list, (guint) row, delta))
    ws_targets_editor_select (self, row + delta);
}

static void
up_clicked_cb (WsTargetsEditor *self)
{
  move (self, -1);
}

static void
down_clicked_cb (WsTargetsEditor *self)
{
  move (self, 1);
}

static GtkWidget *
tool_button (WsTargetsEditor *self, const char *icon, const char *tooltip, GCallback callback)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon, GTK_ICON_SIZE_BUTTON);

  gtk_widget_set_tooltip_text (button, tooltip);
  g_signal_connect_object (button, "clicked", callback, self, G_CONNECT_SWAPPED);
  gtk_widget_show (button);
  return button;
}

static void
ws_targets_editor_dispose (GObject *object)
{
  WsTargetsEditor *self = WS_TARGETS_EDITOR (object);

  if (self->list != NULL)
    g_signal_handlers_disconnect_by_data (self->list, self);
  g_clear_object (&self->list);
  g_clear_object (&self->store);
  g_clear_object (&self->hosts);

  G_OBJECT_CLASS (ws_targets_editor_parent_class)->dispose (object);
}

static void
ws_targets_editor_class_init (WsTargetsEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = ws_targets_editor_dispose;
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "wstargetseditor");
}

static void
ws_targets_editor_init (WsTargetsEditor *self)
{
  GtkWidget *toolbar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *scrolled = gtk_scrolled_window_new (NULL, NULL);
  GtkWidget *add_button;
  GtkCellRenderer *renderer;
  GtkTreeViewColumn *column;

  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_box_set_spacing (GTK_BOX (self), 6);

  self->store = gtk_list_store_new (N_COLS, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING,
                                    G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING,
                                    G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING);
  self->hosts = gtk_list_store_new (2, G_TYPE_STRING, G_TYPE_STRING);
  ws_targets_editor_set_hosts (self, NULL);
  self->view = GTK_TREE_VIEW (gtk_tree_view_new_with_model (GTK_TREE_MODEL (self->store)));
  gtk_tree_view_set_grid_lines (self->view, GTK_TREE_VIEW_GRID_LINES_HORIZONTAL);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self->view), TRUE);
  style_updated_cb (self);
  g_signal_connect_object (self->view, "style-updated", G_CALLBACK (style_updated_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->view, "query-tooltip", G_CALLBACK (query_tooltip_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->view, "button-press-event", G_CALLBACK (button_press_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (gtk_tree_view_get_selection (self->view), "changed",
                           G_CALLBACK (update_buttons), self, G_CONNECT_SWAPPED);

  renderer = gtk_cell_renderer_pixbuf_new ();
  column = gtk_tree_view_column_new_with_attributes ("", renderer, "icon-name", COL_ROW_ICON, NULL);
  gtk_tree_view_append_column (self->view, column);

  self->columns[WS_TARGET_NAME] = add_text_column (self, WS_TARGET_NAME, NULL);
  self->columns[WS_TARGET_CMD] = add_text_column (self, WS_TARGET_CMD, _ ("command to run"));
  self->columns[WS_TARGET_WORKDIR] =
    add_text_column (self, WS_TARGET_WORKDIR, _ ("the targets file’s folder"));

  renderer = gtk_cell_renderer_pixbuf_new ();
  g_object_set (renderer, "icon-name", "folder-open-symbolic", NULL);
  self->folder_column = gtk_tree_view_column_new_with_attributes ("", renderer, NULL);
  gtk_tree_view_append_column (self->view, self->folder_column);

  self->columns[WS_TARGET_ENVS] = add_text_column (self, WS_TARGET_ENVS, _ ("none"));
  self->columns[WS_TARGET_HOST] = add_text_column (self, WS_TARGET_HOST, _ ("this machine"));

  add_button =
    tool_button (self, "list-add-symbolic", _ ("Add a target"), G_CALLBACK (add_clicked_cb));
  self->remove_button = tool_button (self, "list-remove-symbolic", _ ("Remove the target"),
                                     G_CALLBACK (remove_clicked_cb));
  self->duplicate_button = tool_button (self, "edit-copy-symbolic", _ ("Duplicate the target"),
                                        G_CALLBACK (duplicate_clicked_cb));
  self->up_button =
    tool_button (self, "go-up-symbolic", _ ("Move the target up"), G_CALLBACK (up_clicked_cb));
  self->down_button = tool_button (self, "go-down-symbolic", _ ("Move the target down"),
                                   G_CALLBACK (down_clicked_cb));
  self->folder_button = tool_button (self, "folder-open-symbolic", _ ("Choose the WORKDIR folder"),
                                     G_CALLBACK (folder_clicked_cb));
  gtk_style_context_add_class (gtk_widget_get_style_context (toolbar), GTK_STYLE_CLASS_LINKED);
  gtk_container_add (GTK_CONTAINER (toolbar), add_button);
  gtk_container_add (GTK_CONTAINER (toolbar), self->remove_button);
  gtk_container_add (GTK_CONTAINER (toolbar), self->duplicate_button);
  gtk_container_add (GTK_CONTAINER (toolbar), self->up_button);
  gtk_container_add (GTK_CONTAINER (toolbar), self->down_button);
  gtk_container_add (GTK_CONTAINER (toolbar), self->folder_button);

  self->status_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->status_label, 1);
  gtk_widget_set_hexpand (GTK_WIDGET (self->status_label), TRUE);
  gtk_style_context_add_class (gtk_widget_get_style_context (GTK_WIDGET (self->status_label)),
                               "ws-dim");
  {
    GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

    gtk_container_add (GTK_CONTAINER (row), toolbar);
    gtk_container_add (GTK_CONTAINER (row), GTK_WIDGET (self->status_label));
    gtk_widget_show_all (row);
    gtk_container_add (GTK_CONTAINER (self), row);
  }

  gtk_scrolled_window_set_shadow_type (GTK_SCROLLED_WINDOW (scrolled), GTK_SHADOW_IN);
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_container_add (GTK_CONTAINER (scrolled), GTK_WIDGET (self->view));
  gtk_widget_show_all (scrolled);
  gtk_container_add (GTK_CONTAINER (self), scrolled);
  update_buttons (self);
  update_status (self);
}

GtkWidget *
ws_targets_editor_new (void)
{
  return g_object_new (WS_TYPE_TARGETS_EDITOR, NULL);
}
