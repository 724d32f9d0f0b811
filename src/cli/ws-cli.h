/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <stdarg.h>
#include <json-glib/json-glib.h>
#include <stdio.h>

#include "ws-capture-settings.h"
#include "ws-comparison.h"
#include "ws-table-writer.h"
#include "ws-load-options.h"
#include "ws-run.h"
#include "ws-steps.h"

G_BEGIN_DECLS

/* Exit statuses of warpscope-cli. */
enum
{
  WS_EXIT_OK = 0,
  WS_EXIT_FAILED = 1,    /* the work ran and something failed (a capture step, …) */
  WS_EXIT_BAD_INPUT = 2, /* bad arguments, or a file that cannot be read */
};

typedef int (*WsCliCommand) (int argc, char **argv);

/* A bit of WsCliFrame.formats. */
#define WS_CLI_FORMAT(format) (1u << (format))
#define WS_CLI_TABLE WS_CLI_FORMAT (WS_FORMAT_TABLE)
#define WS_CLI_CSV WS_CLI_FORMAT (WS_FORMAT_CSV)
#define WS_CLI_MD WS_CLI_FORMAT (WS_FORMAT_MARKDOWN)
#define WS_CLI_JSON WS_CLI_FORMAT (WS_FORMAT_JSON)

/* The options every command has, parsed by ws_cli_frame_parse(). */
typedef struct
{
  const char *command;   /* "stats": the subject of an option's error */
  guint formats;         /* what --format takes: WS_CLI_FORMAT () bits */
  char *format_str;      /* --format as given, or NULL */
  WsOutputFormat format; /* --format; table when not given */
} WsCliFrame;

void ws_cli_frame_init (WsCliFrame *frame, GOptionContext *context, const char *command,
                        guint formats, const char *format_help);
gboolean ws_cli_frame_parse (WsCliFrame *frame, GOptionContext *context, int *argc, char ***argv,
                             int min_args, int max_args, char **first_output, ...);
void ws_cli_frame_clear (WsCliFrame *frame);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (WsCliFrame, ws_cli_frame_clear)
void ws_cli_error (const char *subject, const char *format, ...) G_GNUC_PRINTF (2, 3);

int ws_cli_info (int argc, char **argv);
int ws_cli_stats (int argc, char **argv);
int ws_cli_render (int argc, char **argv);
int ws_cli_compare (int argc, char **argv);
int ws_cli_gate (int argc, char **argv);
int ws_cli_diagnose (int argc, char **argv);
int ws_cli_export (int argc, char **argv);
int ws_cli_gauges (int argc, char **argv);
int ws_cli_capture (int argc, char **argv);
int ws_cli_doctor (int argc, char **argv);
int ws_cli_ranks (int argc, char **argv);
int ws_cli_digest (int argc, char **argv);
int ws_cli_steps (int argc, char **argv);
int ws_cli_critical_path (int argc, char **argv);
int ws_cli_fetch (int argc, char **argv);
int ws_cli_rollup (int argc, char **argv);
gboolean ws_cli_render_why (WsRun *run, const char *view, const char *output, double width,
                            double height, gboolean dark, int kernel, GError **error);
int ws_cli_flame (int argc, char **argv);
int ws_cli_run_full (char **argv);
char *ws_cli_full_path (void);

gboolean ws_cli_flame_render (WsRun *run, guint profile_index, gint thread, gint64 from, gint64 to,
                              const char *output, double width, double height, gboolean dark,
                              int layout, const char *search, GError **error);

gboolean ws_cli_parse (GOptionContext *context, int *argc, char ***argv, int min_args,
                       int max_args);
gboolean ws_cli_parse_outputs (GOptionContext *context, int *argc, char ***argv, int min_args,
                               int max_args, char **first_output, ...) G_GNUC_NULL_TERMINATED;
gboolean ws_cli_parse_outputs_valist (GOptionContext *context, int *argc, char ***argv,
                                      int min_args, int max_args, char **first_output,
                                      va_list args);
gboolean ws_cli_check_output (const char *output, const char *const *inputs, GError **error);
int ws_cli_fail (GError *error);
WsRun *ws_cli_load (char **paths, WsLoadFlags flags, GError **error);
void ws_cli_add_rank_option (GOptionContext *context);
void ws_cli_load_as_job (gboolean job);
void ws_cli_warnings_in_report (void);
void ws_cli_say_warnings (int status);
int ws_cli_compare_peers (const char *peers, const char *arg, WsMatchBy by, WsOutputFormat format);
void ws_cli_compare_write_ranks (const WsRun *before, const WsRun *after, gboolean markdown,
                                 GString *out);
gboolean ws_cli_rank_filter_given (void);
WsRun *ws_cli_load_ncu (char **paths, GError **error);
WsRun *ws_cli_steady (WsRun *run, WsSteps **steps);
gboolean ws_cli_use_steady (WsRun **run, const char *file);
gboolean ws_cli_write (const char *path, const char *data, gsize len, GError **error);
gboolean ws_cli_write_report (const GString *out, gboolean exact, GError **error);
void ws_cli_clear_line (void);
void ws_cli_print_doctor (GPtrArray *checks, gboolean problems_only, FILE *out);
char *ws_cli_json_text (JsonNode *root);
void ws_cli_json_append (GString *out, JsonNode *node, guint depth);
/* A string value standing for an array written in its place. */
#define WS_CLI_JSON_STREAM_MARK "\x01ws-stream:"
typedef void (*WsCliJsonStreamFunc) (GString *out, const char *name, guint depth, gpointer data);
char *ws_cli_json_text_streamed (JsonNode *root, WsCliJsonStreamFunc func, gpointer data);
typedef JsonNode *(*WsCliJsonElementFunc) (guint i, gconstpointer data);
void ws_cli_json_append_each (GString *out, guint n, guint depth, WsCliJsonElementFunc element,
                              gconstpointer data);
void ws_cli_json_indent (GString *out, guint depth);
guint ws_cli_terminal_width (void);
void ws_cli_replace_string (char **field, const char *value);
WsCaptureSettings *ws_cli_capture_settings (const char *out, const char *nsys, const char *ncu,
                                            const char *ncu_set, GError **error);

G_END_DECLS
