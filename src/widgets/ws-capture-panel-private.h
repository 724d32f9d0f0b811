/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-capture-panel.h"
#include "ws-target-list.h"

G_BEGIN_DECLS

/* Shared by ws-capture-panel.c (the targets' rows and their step states)
 * and ws-capture-panel-run.c (the log and the run). */

typedef struct
{
  WsCaptureStepState states[WS_CAPTURE_N_STEPS + 1];
  char *messages[WS_CAPTURE_N_STEPS + 1];
  char *dir;
  gboolean finished;
  gboolean succeeded;
  gboolean cancelled;
} TargetState;

typedef struct
{
  GtkWidget *row;
  GtkToggleButton *check;
  GtkLabel *host;
  GtkImage *steps[WS_CAPTURE_N_STEPS + 1];
  GtkLabel *status;
  GtkWidget *open_button;
  char *name;
} Row;

struct _WsCapturePanel
{
  GtkBox parent_instance;

  WsTargetList *list;
  GPtrArray *rows;       /* of Row, one per target of the list */
  GHashTable *states;    /* NAME → TargetState: survives edits of the list */
  GHashTable *unchecked; /* NAMEs the user unchecked */
  WsCaptureRunner *runner;
  GCancellable *cancellable;
  GPtrArray *run_names;  /* the runner's targets, by index */
  gboolean list_changed; /* during a run: rebuild the rows at its end */

  GtkListBox *targets_box;
  GtkWidget *run_button;
  GtkWidget *cancel_button;
  GtkProgressBar *progress;
  GtkProgressBar *transfer; /* a copy from a host, while one runs */
  GtkTextView *log_view;
  GtkTextBuffer *log;
  GtkTextMark *log_end;
  guint log_lines;
  gboolean log_follow;
};

TargetState *ws_capture_panel_state_for (WsCapturePanel *self, const char *name);
Row *ws_capture_panel_row_for (WsCapturePanel *self, const char *name);
void ws_capture_panel_show_state (WsCapturePanel *self, Row *row);
void ws_capture_panel_update_buttons (WsCapturePanel *self);
void ws_capture_panel_rebuild (WsCapturePanel *self);

/* ws-capture-panel-run.c */
void ws_capture_panel_log_scrolled_cb (WsCapturePanel *self, GtkAdjustment *adjustment);

G_END_DECLS
