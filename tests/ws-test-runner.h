/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "ws-capture-runner.h"

G_BEGIN_DECLS

typedef struct _WsTestCapture WsTestCapture;

/* Called on the runner's context: when a cancel_on line comes (before the
 * cancel), and for each ::transfer. */
typedef void (*WsTestCaptureLine) (WsTestCapture *capture, const char *line);
typedef void (*WsTestCaptureTransfer) (WsTestCapture *capture, guint64 done, guint64 total);

/* A capture run through the real runner, its targets file in a folder of
 * its own, nsys and ncu the stand-ins here (tests/stand-ins). */
struct _WsTestCapture
{
  char *dir; /* holds targets.tsv; the output goes to dir/out */
  char *targets;
  WsTargetList *list;
  WsCaptureSettings *settings;
  WsCaptureRunner *runner;
  GCancellable *cancellable;
  GPtrArray *log;  /* every line, as the runner reported it */
  char *cancel_on; /* the start of a line that cancels the run when it comes */
  char *touch_on;  /* a line that makes touch_path appear when it comes */
  char *touch_path;
  WsTestCaptureLine on_cancel;
  WsTestCaptureTransfer on_transfer;
  gpointer data;  /* for the callbacks */
  guint stall_ms; /* the ncu watchdog's period; 0: the settings' */
  gboolean done;
  gboolean ok;
  GError *error;
};

WsTestCapture *ws_test_capture_new (const char *targets_text);
void ws_test_capture_free (WsTestCapture *capture);
void ws_test_capture_run (WsTestCapture *capture, guint timeout_s);
gboolean ws_test_capture_log_has (WsTestCapture *capture, const char *line);
gboolean ws_test_capture_log_has_prefix (WsTestCapture *capture, const char *prefix);
JsonObject *ws_test_read_manifest (const char *dir, JsonParser *parser);
JsonObject *ws_test_manifest_step (JsonObject *manifest, guint step);
void ws_test_assert_same_file (const char *a, const char *b);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsTestCapture, ws_test_capture_free)

G_END_DECLS
