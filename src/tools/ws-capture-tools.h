/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

char *ws_capture_tools_find (const char *name);
char *ws_capture_tools_find_in (const char *name, const char *path_env, const char *root);
char *ws_capture_tools_resolve (const char *name, const char *configured, GError **error);

gboolean ws_capture_tools_run (const char *const *argv, guint timeout_s, char **out, char **err,
                               int *exit_status, GError **error);
char *ws_capture_tools_version (const char *path, GError **error);
GPtrArray *ws_capture_tools_list (const char *ncu, const char *what, GError **error);
GPtrArray *ws_capture_tools_query_gpus (void);

/* What the tools say about themselves and the machine, for run.json and
 * for the choice of ncu set. */
typedef struct
{
  char *nsys_version; /* NULL when nsys did not say */
  char *ncu_version;
  GPtrArray *gpus;     /* "NAME, DRIVER" */
  GPtrArray *sets;     /* ncu --list-sets, or NULL */
  GPtrArray *sections; /* ncu --list-sections, or NULL */
  GPtrArray *warnings; /* why a version is missing */
} WsCaptureToolsInfo;

void ws_capture_tools_probe_async (const char *nsys, const char *ncu, GCancellable *cancellable,
                                   GAsyncReadyCallback callback, gpointer user_data);
WsCaptureToolsInfo *ws_capture_tools_probe_finish (GAsyncResult *result, GError **error);
void ws_capture_tools_info_free (WsCaptureToolsInfo *info);

void ws_capture_child_setup (gpointer data);
void ws_capture_child_setup_tied (gpointer data);
gboolean ws_capture_group_alive (GPid pgid);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsCaptureToolsInfo, ws_capture_tools_info_free)

G_END_DECLS
