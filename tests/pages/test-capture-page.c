/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <string.h>

#include "ws-application.h"
#include "ws-capture-page.h"
#include "ws-capture-settings-dialog.h"
#include "ws-capture-settings.h"
#include "ws-hosts-editor.h"
#include "ws-ssh-host.h"
#include "ws-target-autosave.h"
#include "ws-test-gui.h"
#include "ws-test-sshd.h"
#include "ws-test-util.h"
#include "ws-window.h"

/* The Capture page in a real window under Xvfb, driven as a user would:
 * cells edited through GTK's own cell editing, buttons clicked, questions
 * answered; the capture runs through the stand-ins. */

static WsApplication *app;

/* Runs the main loop until *flag is set, or fails after 60 s. */
static void
wait_for (gboolean *flag)
{
  ws_test_wait_flag (flag, 60, "the capture page's signal");
  ws_test_gui_flush ();
}

static gboolean
has_runner (gpointer data)
{
  return ws_capture_panel_get_runner (data) != NULL;
}

static WsWindow *
capture_window (WsCapturePage **page)
{
  WsWindow *window = ws_window_new (GTK_APPLICATION (app));

  gtk_window_present (GTK_WINDOW (window));
  g_action_group_activate_action (G_ACTION_GROUP (window), "show-page",
                                  g_variant_new_string ("capture"));
  ws_test_gui_flush ();
  g_assert_cmpstr (ws_window_get_page (window), ==, "capture");
  *page = WS_CAPTURE_PAGE (ws_window_get_view (window, "capture"));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (*page)));
  return window;
}

typedef struct
{
  const char *tooltip;
  GtkWidget *found;
} Search;

static void
find_by_tooltip (GtkWidget *widget, gpointer data)
{
  Search *search = data;
  g_autofree char *tooltip = gtk_widget_get_tooltip_text (widget);

  if (search->found != NULL)
    return;
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (tooltip, search->tooltip) == 0)
    search->found = widget;
  else if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), find_by_tooltip, search);
}

static GtkWidget *
button_with_tooltip (GtkWidget *root, const char *tooltip)
{
  Search search = { tooltip, NULL };

  find_by_tooltip (root, &search);
  g_assert_nonnull (search.found);
  return search.found;
}

/* Types into the cell being edited and presses Enter, through the entry
 * GTK put into the tree view. */
static void
type_into_cell (WsWindow *window, const char *text)
{
  GtkWidget *focus;

  ws_test_gui_flush ();
  focus = gtk_window_get_focus (GTK_WINDOW (window));
  g_assert_true (GTK_IS_ENTRY (focus));
  gtk_entry_set_text (GTK_ENTRY (focus), text);
  gtk_widget_activate (focus);
  ws_test_gui_flush ();
}

static void
edit_cell (WsWindow *window, WsCapturePage *page, guint row, WsTargetColumn column,
           const char *text)
{
  ws_targets_editor_edit (ws_capture_page_get_editor (page), row, column);
  type_into_cell (window, text);
}

static void
finished_cb (WsCapturePanel *panel, gboolean success, gpointer data)
{
  gboolean *flags = data;

  flags[0] = TRUE;
  flags[1] = success;
}

static void
open_results_cb (WsCapturePage *page, const char *dir, gpointer data)
{
  g_free (*(char **) data);
  *(char **) data = g_strdup (dir);
}

/* Edit rows, save, capture two targets through the stand-ins, see every
 * step done, and open a target's results with one click. */
static void
test_edit_save_run (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "targets.tsv", NULL);
  g_autofree char *backup = g_strconcat (path, "~", NULL);
  const char *original =
    "# my targets\nNAME\tCMD\tWORKDIR\tENVS\nalpha\techo alpha says $W\t-\tW=hi\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (GSettings) settings = ws_capture_settings_open_gsettings ();
  g_autofree char *saved = NULL;
  g_autofree char *log = NULL;
  g_autofree char *opened = NULL;
  g_autofree char *expected_dir = g_build_filename (dir, "out", "targets", "alpha", NULL);
  g_autofree char *problem = NULL;
  WsCapturePage *page;
  WsWindow *window = capture_window (&page);
  WsCapturePanel *panel = ws_capture_page_get_panel (page);
  WsTargetsEditor *editor = ws_capture_page_get_editor (page);
  gboolean finished[2] = { FALSE, FALSE };

  g_assert_true (g_file_set_contents (path, original, -1, NULL));
  g_assert_true (ws_capture_page_open (page, path, &error));
  g_assert_no_error (error);
  g_assert_null (ws_capture_page_get_prompt (page));

  /* Add a row: its CMD is empty, and the editor says so in the cell. */
  gtk_button_clicked (GTK_BUTTON (button_with_tooltip (GTK_WIDGET (editor), "Add a target")));
  type_into_cell (window, "beta");
  g_assert_cmpuint (ws_targets_editor_get_n_problems (editor), ==, 1);
  problem = ws_targets_editor_get_problem (editor, 1, WS_TARGET_CMD);
  g_assert_nonnull (problem);
  g_assert_true (g_str_has_prefix (problem, "empty"));
  edit_cell (window, page, 1, WS_TARGET_CMD, "echo beta runs");
  g_assert_cmpuint (ws_targets_editor_get_n_problems (editor), ==, 0);
  g_assert_true (ws_target_list_get_modified (ws_capture_page_get_list (page)));

  /* Save: the comment and the header stay; the old file is the backup. */
  g_assert_true (ws_capture_page_save (page, &error));
  g_assert_no_error (error);
  saved = ws_test_read (path);
  g_assert_cmpstr (saved, ==,
                   "# my targets\nNAME\tCMD\tWORKDIR\tENVS\nalpha\techo alpha says $W\t-\tW=hi\n"
                   "beta\techo beta runs\t-\t-\n");
  g_free (saved);
  saved = ws_test_read (backup);
  g_assert_cmpstr (saved, ==, original);

  /* Run both through the stand-ins (two kernels each, for speed). */
  g_settings_set_uint (settings, "capture-topn", 2);
  g_signal_connect (panel, "finished", G_CALLBACK (finished_cb), finished);
  g_signal_connect (page, "open-results", G_CALLBACK (open_results_cb), &opened);
  gtk_button_clicked (GTK_BUTTON (ws_capture_panel_get_run_button (panel)));
  wait_for (&finished[0]);
  g_assert_true (finished[1]);

  for (guint t = 0; t < 2; t++)
    for (guint s = 1; s <= 6; s++)
      g_assert_cmpint (ws_capture_panel_get_step_state (panel, t, s), ==, WS_CAPTURE_STEP_DONE);
  g_assert_cmpfloat (ws_capture_panel_get_fraction (panel), ==, 1.0);
  log = ws_capture_panel_get_log (panel);
  g_assert_nonnull (strstr (log, "[STEP 1/6] started alpha: prepare folders\n"));
  g_assert_nonnull (strstr (log, "[STEP 6/6] done beta: ncu export\n"));
  g_assert_nonnull (strstr (log, "\nalpha says hi\n"));
  g_assert_nonnull (strstr (log, "\nbeta runs\n"));
  /* The window shows its own words; the log file keeps the workflow's. */
  g_assert_null (strstr (log, "开始"));

  g_assert_true (gtk_widget_get_sensitive (ws_capture_panel_get_open_button (panel, 0)));
  gtk_button_clicked (GTK_BUTTON (ws_capture_panel_get_open_button (panel, 0)));
  g_assert_cmpstr (opened, ==, expected_dir);
  {
    g_autofree char *manifest = g_build_filename (expected_dir, "run.json", NULL);

    g_assert_true (g_file_test (manifest, G_FILE_TEST_IS_REGULAR));
  }
  /* The click opened the capture in a window of its own: the stand-in's
   * export (the probe's, 336 kernels) with its ncu CSVs. */
  {
    WsWindow *results = NULL;
    g_autofree char *probe = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);

    for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
      if (WS_IS_WINDOW (l->data) && l->data != (gpointer) window)
        results = l->data;
    g_assert_nonnull (results);
    ws_test_gui_wait_for_load (results);
    g_assert_nonnull (ws_window_get_run (results));
    g_assert_cmpstr (ws_window_get_run (results)->prov.kind, ==, "capture-folder");
    /* The stand-in's export is a copy of the probe's: its kernels (SQL). */
    g_assert_cmpint ((gint64) ws_window_get_run (results)->kernels.n, ==,
                     ws_test_sqlite_count (probe, "CUPTI_ACTIVITY_KIND_KERNEL"));
    g_assert_nonnull (ws_window_get_run (results)->ncu);
    gtk_widget_destroy (GTK_WIDGET (results));
  }

  g_settings_reset (settings, "capture-topn");
  gtk_widget_destroy (GTK_WIDGET (window));
  ws_test_rmtree (dir);
}

static void
destroyed_cb (GtkWidget *widget, gpointer data)
{
  *(gboolean *) data = TRUE;
}

/* Unsaved edits survive the window (a crash does the same to the
 * autosave): opening the file again offers them back. */
static void
test_autosave_restore (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "targets.tsv", NULL);
  g_autofree char *autosave = ws_target_autosave_path (path);
  g_autoptr (GError) error = NULL;
  WsCapturePage *page;
  WsWindow *window = capture_window (&page);
  GtkDialog *prompt;

  g_assert_true (g_file_set_contents (path, "one\ttrue\t-\t-\n", -1, NULL));
  g_assert_true (ws_capture_page_open (page, path, &error));
  edit_cell (window, page, 0, WS_TARGET_CMD, "echo edited");
  ws_capture_page_autosave_now (page);
  g_assert_true (g_file_test (autosave, G_FILE_TEST_IS_REGULAR));
  /* Gone without a word, as after a crash. */
  gtk_widget_destroy (GTK_WIDGET (window));
  ws_test_gui_flush ();

  window = capture_window (&page);
  g_assert_true (ws_capture_page_open (page, path, &error));
  prompt = ws_capture_page_get_prompt (page);
  g_assert_nonnull (prompt);
  gtk_dialog_response (prompt, GTK_RESPONSE_ACCEPT);
  ws_test_gui_flush ();
  g_assert_null (ws_capture_page_get_prompt (page));
  g_assert_cmpstr (ws_target_list_get (ws_capture_page_get_list (page), 0, WS_TARGET_CMD), ==,
                   "echo edited");
  g_assert_true (ws_target_list_get_modified (ws_capture_page_get_list (page)));

  /* Saved: the autosave goes, and nothing is offered any more. */
  g_assert_true (ws_capture_page_save (page, &error));
  g_assert_false (g_file_test (autosave, G_FILE_TEST_EXISTS));
  g_assert_true (ws_capture_page_open (page, path, &error));
  g_assert_null (ws_capture_page_get_prompt (page));
  gtk_widget_destroy (GTK_WIDGET (window));
  ws_test_rmtree (dir);
}

/* Closing the window with unsaved edits asks; Cancel keeps it open,
 * “Close without Saving” closes it and drops the autosave. */
static void
test_close_asks (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "targets.tsv", NULL);
  g_autofree char *autosave = ws_target_autosave_path (path);
  g_autoptr (GError) error = NULL;
  WsCapturePage *page;
  WsWindow *window = capture_window (&page);
  gboolean destroyed = FALSE;
  GtkDialog *prompt;

  g_signal_connect (window, "destroy", G_CALLBACK (destroyed_cb), &destroyed);
  g_assert_true (g_file_set_contents (path, "one\ttrue\t-\t-\n", -1, NULL));
  g_assert_true (ws_capture_page_open (page, path, &error));
  edit_cell (window, page, 0, WS_TARGET_NAME, "renamed");
  ws_capture_page_autosave_now (page);

  gtk_window_close (GTK_WINDOW (window));
  ws_test_gui_flush ();
  g_assert_false (destroyed);
  prompt = ws_capture_page_get_prompt (page);
  g_assert_nonnull (prompt);
  gtk_dialog_response (prompt, GTK_RESPONSE_CANCEL);
  ws_test_gui_flush ();
  g_assert_false (destroyed);
  g_assert_true (ws_target_list_get_modified (ws_capture_page_get_list (page)));

  gtk_window_close (GTK_WINDOW (window));
  ws_test_gui_flush ();
  prompt = ws_capture_page_get_prompt (page);
  g_assert_nonnull (prompt);
  gtk_dialog_response (prompt, GTK_RESPONSE_REJECT);
  ws_test_gui_flush ();
  g_assert_true (destroyed);
  g_assert_false (g_file_test (autosave, G_FILE_TEST_EXISTS));
  {
    g_autofree char *contents = ws_test_read (path);

    g_assert_cmpstr (contents, ==, "one\ttrue\t-\t-\n");
  }
  ws_test_rmtree (dir);
}

static void
started_cb (WsCaptureRunner *runner, guint target, guint step, guint kind, const char *line,
            gpointer data)
{
  if (g_str_equal (line, "started"))
    *(gboolean *) data = TRUE;
}

/* Cancel in the window stops the tool and everything it started. */
static void
test_cancel (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "targets.tsv", NULL);
  g_autofree char *pids_path = g_build_filename (dir, "pids", NULL);
  g_autofree char *text = g_strdup_printf (
    "waits\techo $$ >> pids; (trap '' TERM; exec sleep 300) & echo $! >> pids; echo started; "
    "wait\t-\tWS_STANDIN_PIDS=%s\n",
    pids_path);
  g_autoptr (GError) error = NULL;
  g_autofree char *pids = NULL;
  g_auto (GStrv) lines = NULL;
  WsCapturePage *page;
  WsWindow *window = capture_window (&page);
  WsCapturePanel *panel = ws_capture_page_get_panel (page);
  gboolean finished[2] = { FALSE, FALSE };
  gboolean started = FALSE;

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  g_assert_true (ws_capture_page_open (page, path, &error));
  g_signal_connect (panel, "finished", G_CALLBACK (finished_cb), finished);
  gtk_button_clicked (GTK_BUTTON (ws_capture_panel_get_run_button (panel)));
  ws_test_wait_until (has_runner, panel, 60, "the capture panel's runner");
  g_signal_connect (ws_capture_panel_get_runner (panel), "log", G_CALLBACK (started_cb), &started);
  wait_for (&started);
  g_assert_true (gtk_widget_get_sensitive (ws_capture_panel_get_cancel_button (panel)));
  gtk_button_clicked (GTK_BUTTON (ws_capture_panel_get_cancel_button (panel)));
  wait_for (&finished[0]);
  g_assert_false (finished[1]);
  g_assert_cmpint (ws_capture_panel_get_step_state (panel, 0, 2), ==, WS_CAPTURE_STEP_FAILED);
  g_assert_cmpint (ws_capture_panel_get_step_state (panel, 0, 3), ==, WS_CAPTURE_STEP_SKIPPED);

  pids = ws_test_read (pids_path);
  lines = g_strsplit (pids, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 4);
  for (guint i = 0; lines[i] != NULL; i++)
    if (lines[i][0] != '\0')
      g_assert_false (ws_test_process_alive ((GPid) g_ascii_strtoll (lines[i], NULL, 10)));
  gtk_widget_destroy (GTK_WIDGET (window));
  ws_test_rmtree (dir);
}

/* The settings dialog writes GSettings as it is changed, and offers the
 * sets the (stand-in) ncu lists. */
static void
test_settings_dialog (void)
{
  g_autoptr (GSettings) settings = ws_capture_settings_open_gsettings ();
  WsCaptureSettingsDialog *dialog = ws_capture_settings_dialog_new (NULL, settings);
  GtkSpinButton *topn =
    GTK_SPIN_BUTTON (ws_capture_settings_dialog_get_widget (dialog, "topn_spin"));
  GtkComboBox *clock =
    GTK_COMBO_BOX (ws_capture_settings_dialog_get_widget (dialog, "clock_combo"));
  GtkSwitch *multi =
    GTK_SWITCH (ws_capture_settings_dialog_get_widget (dialog, "multi_run_switch"));
  GtkComboBox *sets = GTK_COMBO_BOX (ws_capture_settings_dialog_get_widget (dialog, "set_combo"));
  GtkEntry *set_entry = GTK_ENTRY (gtk_bin_get_child (GTK_BIN (sets)));
  GtkComboBox *comm =
    GTK_COMBO_BOX (ws_capture_settings_dialog_get_widget (dialog, "comm_replay_combo"));
  GtkSpinButton *stall =
    GTK_SPIN_BUTTON (ws_capture_settings_dialog_get_widget (dialog, "stall_spin"));
  g_autofree char *clock_value = NULL;
  g_autofree char *set_value = NULL;
  g_autofree char *comm_value = NULL;
  g_autoptr (WsCaptureSettings) loaded = ws_capture_settings_new ();

  gtk_widget_show (GTK_WIDGET (dialog));
  ws_test_gui_flush ();
  g_assert_cmpint (gtk_spin_button_get_value_as_int (topn), ==, 10);
  g_assert_cmpstr (gtk_entry_get_text (set_entry), ==, "full");
  /* Communication kernels are left out, and ncu has 10 minutes of silence. */
  g_assert_cmpstr (gtk_combo_box_get_active_id (comm), ==, "");
  g_assert_cmpint (gtk_spin_button_get_value_as_int (stall), ==, 600);

  gtk_spin_button_set_value (topn, 5);
  gtk_combo_box_set_active_id (clock, "none");
  gtk_switch_set_active (multi, FALSE);
  gtk_entry_set_text (set_entry, "detailed");
  g_assert_cmpuint (g_settings_get_uint (settings, "capture-topn"), ==, 5);
  clock_value = g_settings_get_string (settings, "clock-control");
  g_assert_cmpstr (clock_value, ==, "none");
  g_assert_false (g_settings_get_boolean (settings, "ncu-multi-run"));
  set_value = g_settings_get_string (settings, "ncu-set");
  g_assert_cmpstr (set_value, ==, "detailed");
  gtk_combo_box_set_active_id (comm, "range");
  gtk_spin_button_set_value (stall, 90);
  comm_value = g_settings_get_string (settings, "ncu-comm-replay");
  g_assert_cmpstr (comm_value, ==, "range");
  g_assert_cmpuint (g_settings_get_uint (settings, "ncu-stall-timeout"), ==, 90);
  /* What a capture from the window then runs with. */
  ws_capture_settings_load (loaded, settings);
  g_assert_cmpstr (loaded->ncu_comm_replay, ==, "range");
  g_assert_cmpuint (loaded->ncu_stall_timeout, ==, 90);

  /* The sets of current ncu versions (the same six whether the list of
   * docs/formats.md, "ncu sets and sections", or ncu 2025.3.1's answer
   * fills it). */
  g_assert_cmpint (gtk_tree_model_iter_n_children (gtk_combo_box_get_model (sets), NULL), ==, 6);

  gtk_widget_destroy (GTK_WIDGET (dialog));
  g_settings_reset (settings, "capture-topn");
  g_settings_reset (settings, "clock-control");
  g_settings_reset (settings, "ncu-multi-run");
  g_settings_reset (settings, "ncu-set");
  g_settings_reset (settings, "ncu-comm-replay");
  g_settings_reset (settings, "ncu-stall-timeout");
}

/* A host made in the settings dialog's Hosts page, through its fields:
 * GSettings keeps it once it is valid; what is wrong shows under it. */
static void
test_hosts_settings (void)
{
  g_autoptr (GSettings) settings = ws_capture_settings_open_gsettings ();
  WsCaptureSettingsDialog *dialog = ws_capture_settings_dialog_new (NULL, settings);
  WsHostsEditor *editor =
    WS_HOSTS_EDITOR (ws_capture_settings_dialog_get_widget (dialog, "hosts_editor"));
  GtkEntry *name = GTK_ENTRY (ws_hosts_editor_get_widget (editor, "name_entry"));
  GtkEntry *destination = GTK_ENTRY (ws_hosts_editor_get_widget (editor, "destination_entry"));
  GtkSpinButton *port = GTK_SPIN_BUTTON (ws_hosts_editor_get_widget (editor, "port_spin"));
  GtkEntry *remote_dir = GTK_ENTRY (ws_hosts_editor_get_widget (editor, "remote_dir_entry"));
  GtkLabel *problem = GTK_LABEL (ws_hosts_editor_get_widget (editor, "problem_label"));
  g_autoptr (GVariant) kept = NULL;
  g_autoptr (GPtrArray) hosts = NULL;
  WsSshHost *host;

  ws_capture_settings_dialog_show_page (dialog, "hosts");
  gtk_widget_show (GTK_WIDGET (dialog));
  ws_test_gui_flush ();
  ws_hosts_editor_add (editor);
  g_assert_cmpstr (gtk_entry_get_text (name), ==, "host");
  /* No destination yet: said, and not kept. */
  g_assert_nonnull (strstr (gtk_label_get_text (problem), "no host"));
  kept = g_settings_get_value (settings, "hosts");
  g_assert_cmpuint (g_variant_n_children (kept), ==, 0);
  g_clear_pointer (&kept, g_variant_unref);

  gtk_entry_set_text (name, "gpu1");
  gtk_entry_set_text (destination, "-oProxyCommand=x");
  g_assert_nonnull (strstr (gtk_label_get_text (problem), "starts with “-”"));
  gtk_entry_set_text (destination, "me@gpu.example.org");
  gtk_spin_button_set_value (port, 2222);
  gtk_entry_set_text (remote_dir, "/scratch/captures");
  kept = g_settings_get_value (settings, "hosts");
  hosts = ws_ssh_hosts_from_variant (kept);
  g_assert_cmpuint (hosts->len, ==, 1);
  host = g_ptr_array_index (hosts, 0);
  g_assert_cmpstr (host->name, ==, "gpu1");
  g_assert_cmpstr (host->destination, ==, "me@gpu.example.org");
  g_assert_cmpuint (host->port, ==, 2222);
  g_assert_cmpstr (host->remote_dir, ==, "/scratch/captures");
  g_assert_null (host->identity);

  gtk_widget_destroy (GTK_WIDGET (dialog));
  g_settings_reset (settings, "hosts");
}

static void
transfer_seen_cb (WsCaptureRunner *runner, guint target, guint64 done, guint64 total,
                  const char *file, gpointer data)
{
  *(guint *) data += 1;
}

/* The user gives a target the host of the settings in the HOST column
 * (the cell's own editing) and runs it: it runs there through a real
 * sshd, its files come back, and the panel says where it ran. */
static void
test_edit_host_and_run (void)
{
  g_autoptr (WsTestSshd) sshd = ws_test_sshd_start (TRUE);
  g_autoptr (GSettings) settings = ws_capture_settings_open_gsettings ();
  g_autoptr (WsSshHost) gpu1 = ws_ssh_host_new ("gpu1", sshd->destination, sshd->port);
  g_autoptr (GPtrArray) hosts = g_ptr_array_new ();
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *remote_dir = ws_test_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "targets.tsv", NULL);
  g_autofree char *db =
    g_build_filename (dir, "out", "targets", "remote", "nsys", "remote.sqlite", NULL);
  g_autofree char *sqlite = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autofree char *log = NULL;
  g_autofree char *saved = NULL;
  g_autofree char *sum = NULL;
  g_autofree char *want = ws_test_file_sha256 (sqlite);
  g_autoptr (GError) error = NULL;
  WsCapturePage *page;
  WsWindow *window;
  WsCapturePanel *panel;
  gboolean finished[2] = { FALSE, FALSE };
  guint transfers = 0;

  gpu1->remote_dir = g_strdup (remote_dir);
  g_ptr_array_add (hosts, gpu1);
  g_settings_set_value (settings, "hosts", ws_ssh_hosts_to_variant (hosts));
  g_settings_set_string (settings, "ssh-command", sshd->ssh_command);
  g_settings_set_uint (settings, "capture-topn", 1);
  window = capture_window (&page);
  panel = ws_capture_page_get_panel (page);
  g_assert_true (g_file_set_contents (path,
                                      "NAME\tCMD\tWORKDIR\tENVS\nremote\techo on "
                                      "$(hostname)\t-\t-\n",
                                      -1, NULL));
  g_assert_true (ws_capture_page_open (page, path, &error));

  /* HOST's cell is a combo with an entry: typed, then Enter. */
  ws_targets_editor_edit (ws_capture_page_get_editor (page), 0, WS_TARGET_HOST);
  ws_test_gui_flush ();
  {
    GtkWidget *focus = gtk_window_get_focus (GTK_WINDOW (window));

    g_assert_true (GTK_IS_ENTRY (focus));
    gtk_entry_set_text (GTK_ENTRY (focus), "gpu1");
    g_assert_true (gtk_test_widget_send_key (focus, GDK_KEY_Return, 0));
    ws_test_gui_flush ();
  }
  g_assert_cmpstr (ws_target_list_get (ws_capture_page_get_list (page), 0, WS_TARGET_HOST), ==,
                   "gpu1");
  g_assert_cmpuint (ws_targets_editor_get_n_problems (ws_capture_page_get_editor (page)), ==, 0);
  g_assert_true (ws_capture_page_save (page, &error));
  saved = ws_test_read (path);
  g_assert_cmpstr (saved, ==,
                   "NAME\tCMD\tWORKDIR\tENVS\tHOST\nremote\techo on $(hostname)\t-\t-\tgpu1\n");

  g_signal_connect (panel, "finished", G_CALLBACK (finished_cb), finished);
  gtk_button_clicked (GTK_BUTTON (ws_capture_panel_get_run_button (panel)));
  ws_test_wait_until (has_runner, panel, 60, "the capture panel's runner");
  g_signal_connect (ws_capture_panel_get_runner (panel), "transfer", G_CALLBACK (transfer_seen_cb),
                    &transfers);
  wait_for (&finished[0]);
  g_assert_true (finished[1]);
  for (guint s = 1; s <= 6; s++)
    g_assert_cmpint (ws_capture_panel_get_step_state (panel, 0, s), ==, WS_CAPTURE_STEP_DONE);
  g_assert_cmpuint (transfers, >, 0);
  sum = ws_test_file_sha256 (db);
  g_assert_cmpstr (sum, ==, want);
  log = ws_capture_panel_get_log (panel);
  g_assert_nonnull (strstr (log, "copying back from gpu1: remote_cuda_gpu_kern_sum.csv, "
                                 "remote.sqlite\n"));
  g_assert_nonnull (strstr (log, "\non "));

  gtk_widget_destroy (GTK_WIDGET (window));
  g_settings_reset (settings, "hosts");
  g_settings_reset (settings, "ssh-command");
  g_settings_reset (settings, "capture-topn");
  ws_test_rmtree (dir);
  ws_test_rmtree (remote_dir);
}

int
main (int argc, char **argv)
{
  g_autofree char *state = ws_test_tmpdir ();
  int status;

  /* Before GLib reads them: autosaves go to a folder of the test's own. */
  g_setenv ("XDG_STATE_HOME", state, TRUE);
  ws_test_use_stand_ins ();
  app = ws_test_gui_init (&argc, &argv);

  g_test_add_func ("/capture-page/edit-save-run-open", test_edit_save_run);
  g_test_add_func ("/capture-page/autosave-restored", test_autosave_restore);
  g_test_add_func ("/capture-page/close-asks", test_close_asks);
  g_test_add_func ("/capture-page/cancel-ends-every-process", test_cancel);
  g_test_add_func ("/capture-page/settings-dialog", test_settings_dialog);
  g_test_add_func ("/capture-page/hosts-settings", test_hosts_settings);
  g_test_add_func ("/capture-page/edit-host-and-run", test_edit_host_and_run);

  status = ws_test_gui_run ();
  ws_test_rmtree (state);
  return status;
}
