/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* What a capture run needs to know besides the targets: the settings of the
 * existing command-line workflow (docs/formats.md, "Settings"), filled from
 * GSettings (org.warpscope.Warpscope) and then from the workflow's environment
 * variables.  A plain struct: the runner copies it. */
typedef struct
{
  char *nsys_path;             /* NULL or "": found by ws_tool_find() */
  char *ncu_path;              /* likewise */
  char *output_dir;            /* OUT_DIR */
  char *global_log;            /* GLOBAL_LOG; NULL: capture.log in the group folder */
  char *targets_file;          /* TARGETS_TSV */
  char *group;                 /* NULL: from the targets file's name */
  guint topn;                  /* TOPN: kernels profiled with ncu per target */
  char *nvtx_range;            /* NVTX_NAME, range@domain; NULL: the whole program */
  char *nsys_trace;            /* NSYS_TRACE, e.g. cuda,nvtx,osrt */
  guint nsys_duration;         /* NSYS_DURATION, s; 0: no limit */
  char *nsys_cuda_graph_trace; /* NSYS_CUDA_GRAPH_TRACE: node | graph (nsys --cuda-graph-trace) */
  char *ncu_set;               /* NCU_SET */
  char *ncu_sections;          /* NCU_SECTIONS, comma-separated; replaces the set */
  gboolean ncu_multi_run;      /* NCU_MULTI_RUN: one ncu run per kernel */
  guint ncu_launch_count;      /* NCU_LAUNCH_COUNT: launches per kernel; 0: all */
  char *cache_control;         /* CACHE_CONTROL: all | none */
  char *clock_control;         /* CLOCK_CONTROL: base | none */
  gboolean continue_on_error;  /* CONTINUE_ON_ERROR */
  gboolean per_rank;           /* PER_RANK: one nsys export per rank of a distributed job */
  char *ncu_comm_replay;       /* NCU_COMM_REPLAY: range | app-range: communication kernels stay
                               * in the top N, profiled with that replay mode; NULL: left out */
  guint ncu_stall_timeout;     /* NCU_STALL_TIMEOUT, s: an ncu run that prints nothing that
                               * long is ended; 0: never */
  /* Capturing on other machines (ssh) */
  GPtrArray *hosts;       /* of WsSshHost: the hosts of the settings */
  char *ssh_command;      /* WARPSCOPE_SSH: the ssh command line; NULL: ssh */
  char *host;             /* every target runs there (--host); NULL: each target's HOST */
  char *remote_dir;       /* the capture folder on the hosts (--remote-dir); NULL: each host's */
  gboolean leave_reports; /* .nsys-rep and .ncu-rep stay on the host, fetched on request */
  guint transfer_limit;   /* KiB/s for copies from hosts; 0: no limit */
} WsCaptureSettings;

/* The environment variables, in the order the documentation lists them. */
extern const char *const ws_capture_settings_env_names[];

WsCaptureSettings *ws_capture_settings_new (void);
WsCaptureSettings *ws_capture_settings_copy (const WsCaptureSettings *self);
void ws_capture_settings_free (WsCaptureSettings *self);

void ws_capture_settings_load (WsCaptureSettings *self, GSettings *settings);
gboolean ws_capture_settings_apply_environment (WsCaptureSettings *self, const char *const *envp,
                                                GPtrArray *applied, GError **error);
gboolean ws_capture_settings_validate (const WsCaptureSettings *self, GError **error);
void ws_capture_settings_fit_ncu (WsCaptureSettings *self, GPtrArray *sets, GPtrArray *sections,
                                  GPtrArray *warnings);
void ws_capture_settings_to_json (const WsCaptureSettings *self, JsonBuilder *builder);
GSettings *ws_capture_settings_open_gsettings (void);
char **ws_capture_settings_host_names (const WsCaptureSettings *self);
char **ws_capture_settings_ssh_argv (const WsCaptureSettings *self, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsCaptureSettings, ws_capture_settings_free)

G_END_DECLS
